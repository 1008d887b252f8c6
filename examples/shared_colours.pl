:- module(shared_colours,
          [ feedback/2           % +Secret, +Entry
          ]).
:- reexport(mmlogic(mastermind), except([feedback/2])).
:- use_module(mmlogic(mastermind), [feedback/2 as mastermind_feedback]).
:- use_module(library(clpfd)).
:- use_module(library(apply), [maplist/3]).
:- use_module(library(lists), [clumped/2, nth0/3]).

/** <module> A feedback rule of your own: only the colours the guess and the secret share

The codemaker tells black + white as one number. The rule's Python statement
is shared_colours.py, given with --feedback; play it with

```
mmlogic solve --feedback examples/shared_colours.py --backend swipl --encoding examples/shared_colours.pl
```

The engine gives each entry as told(Guess, [Shared]) (and won(Guess), which
the shipped feedback/2 states, when the guess is the code): this file adds
that clause and leaves every other entry to the shipped feedback/2.
*/

%!  feedback(+Secret, +Entry) is semidet.
%
%   told(Guess, [Shared]): Guess shares Shared colours with the secret, per
%   colour the fewer of the guess's pegs and the secret's count of it.

feedback(secret(_Pegs, _Marks, Counts), told(Guess, [Shared])) :-
    !,
    msort(Guess, Sorted),
    clumped(Sorted, Offered),
    maplist(offered(Counts), Offered, Pairs),
    sum(Pairs, #=, Shared).
feedback(Secret, Entry) :-
    mastermind_feedback(Secret, Entry).

% The guess offers colour C on Offer pegs: Paired = min(Offer, secret's count).
offered(Counts, C-Offer, Paired) :-
    nth0(C, Counts, Count),
    Paired #= min(Offer, Count).
