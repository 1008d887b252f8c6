:- module(no_adjacent,
          [ secret/2             % +Rules, -Secret
          ]).
:- reexport(mmlogic(mastermind), except([secret/2])).
:- use_module(mmlogic(mastermind), [secret/2 as mastermind_secret]).
:- use_module(library(clpfd)).

/** <module> Mastermind where no colour sits on two adjacent pegs

A variant of the shipped mm_logic/encodings/mastermind.pl: the secret never puts the
same colour on two neighbouring pegs (0101 is a valid secret, 0011 is not).
Everything else, the feedback constraints and the questions, is the shipped
encoding's, reexported: only secret/2 is wrapped.

Play it with

```
mmlogic solve --backend swipl --encoding examples/no_adjacent.pl --secret 0101
```

`mmlogic(mastermind)` names the shipped encoding: mmlogic defines that
file search path when it loads an encoding. To load this file in a plain
swipl, define it yourself: `swipl -p mmlogic=mm_logic/encodings examples/no_adjacent.pl`.
*/

%!  secret(+Rules, -Secret) is det.
%
%   Secret is an unknown code of Rules, as in the shipped encoding, whose
%   neighbouring pegs have different colours.
%
%   ```
%   ?- secret(rules(3, 2, 3), S), all(S, inf, Codes).
%   Codes = [[0,1,0],[1,0,1]].
%   ```

secret(Rules, Secret) :-
    mastermind_secret(Rules, Secret),
    pegs(Secret, Pegs),
    no_adjacent_repeat(Pegs).

% Every peg differs from the next one.
no_adjacent_repeat([]).
no_adjacent_repeat([_]).
no_adjacent_repeat([Left, Right|Pegs]) :-
    Left #\= Right,
    no_adjacent_repeat([Right|Pegs]).
