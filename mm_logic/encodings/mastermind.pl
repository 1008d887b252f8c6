:- module(mastermind,
          [ secret/2,            % +Rules, -Secret
            pegs/2,              % +Secret, -Pegs
            feedback/2,          % +Secret, +Entry
            first/2,             % +Secret, -Code
            any/2,               % +Secret, -Code
            labeled/3,           % +Secret, +Options, -Code
            all/3,               % +Secret, +Limit, -Codes
            code/2,              % +Secret, -Code
            count/2              % +Secret, -Count
          ]).
:- use_module(library(clpfd)).
:- use_module(library(apply), [foldl/5, maplist/3]).
:- use_module(library(lists), [clumped/2, nth0/3, nth1/3, numlist/3]).
:- use_module(library(aggregate), [aggregate_all/3]).
:- use_module(library(solution_sequences), [limit/2]).

/** <module> Mastermind and bulls and cows in CLP(FD)

The secret codes consistent with a history of guesses, as constraints over
finite domains. A *secret* is posted once for the rules (secret/2); every
played guess adds the constraint of its feedback (feedback/2); the questions
(first/2, any/2, all/3, count/2) label the pegs without binding the secret,
so one secret can be asked several questions.

Terms:

  - *Rules* is rules(Pegs, Colours, Repeat): codes of Pegs pegs over the
    colours 0..Colours-1, each colour on at most Repeat pegs (Repeat = Pegs:
    unlimited; Repeat = 1: bulls and cows).
  - A *code* is a list of Pegs colours. *Lexicographic* order: colour 0 <
    colour 1 < ..., the first peg most significant (the order of first/2).
  - An *entry* of the history is guess(Code, Black, White): Black pegs of
    the guess have the secret's colour in the same place, and White is the
    rest of the colours they share, each pairing of colours counted once
    (white = sum over colours c of min(count in guess, count in secret) -
    black).

mmlogic's swipl engine calls secret/2 once per rules and copies the result
for every question (so secret/2 must be pure and deterministic), then calls
feedback/2 for each entry not posted yet, and one question. To play a variant, copy this file or
reexport it and wrap secret/2 (examples/no_adjacent.pl): the engine loads
an edited file under a module name of its own, and `mmlogic(mastermind)`
names this file there.

@see mastermind.lp (in this folder): the same game in ASP, for clingo.
*/

                 /*******************************
                 *     THE SECRET AND ITS RULES *
                 *******************************/

%!  secret(+Rules, -Secret) is det.
%
%   Secret is an unknown code of Rules: one variable per peg with its
%   domain of colours, and for every colour the number of pegs holding it,
%   at most Repeat. Secret is the term secret(Pegs, Marks, Counts): Marks
%   holds, per colour, the 0/1 indicators "peg P has this colour" that the
%   feedback constraints add up; Counts holds their sums.
%
%   ```
%   ?- secret(rules(2, 3, 1), S), all(S, inf, Codes).
%   Codes = [[0,1],[0,2],[1,0],[1,2],[2,0],[2,1]].
%   ```

secret(rules(Length, Colours, Repeat), secret(Pegs, Marks, Counts)) :-
    length(Pegs, Length),
    Last is Colours - 1,
    Pegs ins 0..Last,
    numlist(0, Last, Palette),
    maplist(marks(Pegs), Palette, Marks),
    Limit is min(Repeat, Length),
    maplist(colour_count(Limit), Marks, Counts),
    implied_total(Counts, Length).

% The counts add up to Length (every peg has one colour): implied, and stated
% so that propagation sees it, so that answers about colour counts that cannot
% add up fail at once. Rules that admit no code keep a secret with no code.
implied_total(Counts, Length) :-
    (   sum(Counts, #=, Length)
    ->  true
    ;   true
    ).

% Marks are the indicators "this peg has colour C", one per peg.
marks(Pegs, C, Marks) :-
    maplist(has_colour(C), Pegs, Marks).

% Mark is 1 if Peg has colour C, else 0 (either one propagates to the other).
has_colour(C, Peg, Mark) :-
    Peg #= C #<==> Mark.

% Count pegs hold the colour: the repetition rule bounds it by Limit.
colour_count(Limit, Marks, Count) :-
    Count in 0..Limit,
    sum(Marks, #=, Count).

%!  pegs(+Secret, -Pegs) is det.
%
%   Pegs is the list of the secret's peg variables, first peg first: post
%   more constraints on them to play a variant.
%
%   ```
%   ?- secret(rules(3, 2, 3), S), pegs(S, [P1, P2, P3]), P1 #= P3,
%      count(S, N).
%   N = 4.
%   ```

pegs(secret(Pegs, _Marks, _Counts), Pegs).


                 /*******************************
                 *           FEEDBACK           *
                 *******************************/

%!  feedback(+Secret, +Entry) is semidet.
%
%   Constrain Secret to answer Entry = guess(Guess, Black, White). Fails if
%   propagation already shows that no code does.
%
%   ```
%   ?- secret(rules(4, 6, 4), S), feedback(S, guess([0,0,1,1], 1, 0)),
%      count(S, N).
%   N = 256.
%   ```

feedback(secret(_Pegs, Marks, Counts), guess(Guess, Black, White)) :-
    % black: the pegs where the secret has the guess's colour
    foldl(same_place(Marks), Guess, Blacks, 1, _),
    sum(Blacks, #=, Black),
    % black + white: per colour, the pegs the guess and the secret can pair
    msort(Guess, Sorted),
    clumped(Sorted, Offered),
    maplist(paired(Counts), Offered, Pairs),
    Common is Black + White,
    sum(Pairs, #=, Common).

% Mark: "the secret's peg P has colour C", for the guess's colour C on peg P.
same_place(Marks, C, Mark, P, P1) :-
    nth0(C, Marks, ColourMarks),
    nth1(P, ColourMarks, Mark),
    P1 is P + 1.

% The guess offers colour C on Offer pegs: Paired = min(Offer, secret's count).
% Where the secret cannot hold more than Offer pegs of C it is the count.
paired(Counts, C-Offer, Paired) :-
    nth0(C, Counts, Count),
    (   fd_sup(Count, Most), Most =< Offer
    ->  Paired = Count
    ;   Paired #= min(Offer, Count)
    ).


                 /*******************************
                 *           QUESTIONS          *
                 *******************************/

%!  first(+Secret, -Code) is semidet.
%
%   Code is the lexicographically smallest code Secret may be: the pegs
%   are labelled first to last, each with its smallest colour first. Fails
%   if there is none. Secret stays unbound.
%
%   ```
%   ?- secret(rules(4, 6, 4), S), feedback(S, guess([0,0,1,1], 1, 0)),
%      first(S, Code).
%   Code = [0,2,2,2].
%   ```

first(secret(Pegs, _Marks, _Counts), First) :-
    findall(Pegs, once(labeling([leftmost, up, step], Pegs)), [First]).

%!  any(+Secret, -Code) is semidet.
%
%   Code is some code Secret may be: the first one found when labeling
%   first the peg whose smallest possible colour is smallest (min). Much
%   faster than first/2 on long codes, where labeling in order (or
%   first-fail) can thrash. Fails if there is none. Secret stays unbound.
%
%   ```
%   ?- secret(rules(4, 6, 1), S), feedback(S, guess([0,1,2,3], 0, 4)),
%      any(S, Code).
%   Code = [1,0,3,2].
%   ```

any(secret(Pegs, _Marks, _Counts), Any) :-
    findall(Pegs, once(labeling([min], Pegs)), [Any]).

%!  labeled(+Secret, +Options, -Code) is semidet.
%
%   Code is the first code Secret may be that labeling(Options) finds,
%   e.g. [ff] (first-fail: the peg with the fewest colours left first, the
%   option seed 003's guesser labels with; its answers differ, as its
%   clause order tries keeping a letter in place before labeling). The
%   swipl engine answers `any` with it under --labeling. Fails if there is
%   none. Secret stays unbound.
%
%   ```
%   ?- secret(rules(4, 6, 1), S), feedback(S, guess([0,1,2,3], 0, 4)),
%      labeled(S, [ff], Code).
%   Code = [1,3,0,2].
%   ```

labeled(secret(Pegs, _Marks, _Counts), Options, Code) :-
    findall(Pegs, once(labeling(Options, Pegs)), [Code]).

%!  all(+Secret, +Limit, -Codes) is det.
%
%   Codes are the codes Secret may be, in lexicographic order, at most
%   Limit of them (Limit = inf: all). Secret stays unbound. All of them are
%   found labeling first the peg whose smallest colour is smallest (min),
%   which searches less than labeling in order, and then sorted; a finite
%   Limit labels in lexicographic order and stops early.
%
%   ```
%   ?- secret(rules(3, 2, 3), S), feedback(S, guess([0,0,1], 1, 2)),
%      all(S, inf, Codes).
%   Codes = [[0,1,0],[1,0,0]].
%   ```

all(secret(Pegs, _Marks, _Counts), Limit, Codes) :-
    (   Limit == inf
    ->  findall(Pegs, labeling([min], Pegs), Found),
        msort(Found, Codes)
    ;   findall(Pegs, limit(Limit, labeling([leftmost, up, step], Pegs)), Codes)
    ).

%!  code(+Secret, -Code) is nondet.
%
%   Code is a code Secret may be, one at a time on backtracking, in the
%   order count/2 finds them (labeling min). The swipl engine counts with it
%   a few codes at a time, to give a lower bound on huge games.
%
%   ```
%   ?- secret(rules(3, 2, 3), S), feedback(S, guess([0,0,1], 1, 2)),
%      code(S, Code).
%   Code = [0,1,0] ;
%   Code = [1,0,0].
%   ```

code(secret(Pegs, _Marks, _Counts), Pegs) :-
    labeling([min], Pegs).

%!  count(+Secret, -Count) is det.
%
%   Count is the number of codes Secret may be (labeling as all/3 does
%   for all codes). Secret stays unbound.
%
%   ```
%   ?- secret(rules(4, 10, 1), S), feedback(S, guess([0,1,2,3], 0, 0)),
%      count(S, N).
%   N = 360.
%   ```

count(Secret, Count) :-
    aggregate_all(count, code(Secret, _), Count).
