:- module(questions,
          [ first/2,             % +Secret, -Code
            any/2,               % +Secret, -Code
            labeled/3,           % +Secret, +Options, -Code
            all/3,               % +Secret, +Limit, -Codes
            code/2,              % +Secret, -Code
            count/2              % +Secret, -Count
          ]).
:- use_module(library(clpfd)).
:- use_module(library(aggregate), [aggregate_all/3]).
:- use_module(library(solution_sequences), [limit/2]).

/** <module> The questions mmlogic asks about a Mastermind secret

What mmlogic's swipl engine asks of a secret that mastermind.pl (or an
edited copy, or a variant that reexports it) has posted: the smallest code
it may be (first/2), some code (any/2, labeled/3), all of them (all/3), one
at a time (code/2) and how many (count/2). The questions only label the
secret's pegs, the first argument of its secret(Pegs, Marks, Counts) term:
none binds the secret, so one secret can be asked several questions, and
none says what a code of the game is. That is the rules' part, in
mastermind.pl, which reexports this module: edit the rules there, not here.

The examples load the game, mastermind.pl, as the engine does.

@see mastermind.pl (in this folder): the game's rules, secret/2 and feedback/2.
*/

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
