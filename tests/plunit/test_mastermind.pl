/*  plunit tests of mm_logic/encodings/mastermind.pl, the CLP(FD) encoding.

    Run from pytest (tests/engines/test_swipl_plunit.py runs each unit in its own
    swipl and fails when it does), or by hand from the repository root:

        swipl -p mmlogic=mm_logic/encodings -g run_tests -t halt tests/plunit/test_mastermind.pl

    Expected values are exact; they were computed independently with the
    reference engine (mm_logic.engines.reference).
*/

:- use_module('../../mm_logic/encodings/mastermind').
:- use_module(library(plunit)).
:- use_module(library(clpfd)).
:- use_module(library(lists)).

% Codes of Rules consistent with History (a list of guess/3 entries):
% none when posting the history already fails.
codes(Rules, History, Codes) :-
    secret(Rules, Secret),
    (   maplist(feedback(Secret), History)
    ->  all(Secret, inf, Codes)
    ;   Codes = []
    ).

% Number of codes of Rules consistent with History.
how_many(Rules, History, Count) :-
    secret(Rules, Secret),
    (   maplist(feedback(Secret), History)
    ->  count(Secret, Count)
    ;   Count = 0
    ).


                 /*******************************
                 *      THE SECRET, RULES       *
                 *******************************/

:- begin_tests(secret).

test(unlimited, N == 1296) :-
    how_many(rules(4, 6, 4), [], N).
test(no_repeat, N == 5040) :-
    how_many(rules(4, 10, 1), [], N).
test(no_repeat_5x8, N == 6720) :-
    how_many(rules(5, 8, 1), [], N).
test(max_repeat_2, N == 1170) :-
    how_many(rules(4, 6, 2), [], N).
test(repeat_beyond_pegs, N == 1296) :-
    how_many(rules(4, 6, 9), [], N).
test(all_lexicographic,
     Codes == [[0,0,0],[0,0,1],[0,1,0],[0,1,1],[1,0,0],[1,0,1],[1,1,0],[1,1,1]]) :-
    codes(rules(3, 2, 3), [], Codes).
test(permutations, Codes == [[0,1,2],[0,2,1],[1,0,2],[1,2,0],[2,0,1],[2,1,0]]) :-
    codes(rules(3, 3, 1), [], Codes).
test(too_many_pegs, N == 0) :-
    how_many(rules(4, 3, 1), [], N).
test(pegs, Length == 5) :-
    secret(rules(5, 8, 1), Secret),
    pegs(Secret, Pegs),
    length(Pegs, Length).
test(pegs_take_constraints, N == 4) :-
    secret(rules(3, 2, 3), Secret),
    pegs(Secret, [P1, _, P3]),
    P1 #= P3,
    count(Secret, N).

:- end_tests(secret).


                 /*******************************
                 *           FEEDBACK           *
                 *******************************/

:- begin_tests(feedback).

test(black_only, N == 256) :-
    how_many(rules(4, 6, 4), [guess([0,0,1,1], 1, 0)], N).
test(two_guesses, N == 55) :-
    how_many(rules(4, 6, 4), [guess([0,0,1,1], 1, 0), guess([1,2,2,3], 0, 2)], N).
% white pairs each colour once: 0001 and 1000 share three 0s and a 1
test(duplicates_paired_once, Codes == [[0,0,1,0],[0,1,0,0],[1,0,0,0]]) :-
    codes(rules(4, 6, 4), [guess([0,0,0,1], 2, 2)], Codes).
test(all_white, Codes == [[1,1,0,0]]) :-
    codes(rules(4, 6, 4), [guess([0,0,1,1], 0, 4)], Codes).
test(all_white_max_repeat_2, Codes == [[1,1,0,0]]) :-
    codes(rules(4, 6, 2), [guess([0,0,1,1], 0, 4)], Codes).
test(derangements, Codes == [[1,0,3,2],[1,2,3,0],[1,3,0,2],[2,0,3,1],[2,3,0,1],
                             [2,3,1,0],[3,0,1,2],[3,2,0,1],[3,2,1,0]]) :-
    codes(rules(4, 10, 1), [guess([0,1,2,3], 0, 4)], Codes).
test(colour_counts, N == 12) :-
    how_many(rules(4, 6, 4),
           [ guess([0,0,0,0], 0, 0), guess([1,1,1,1], 0, 0), guess([2,2,2,2], 1, 0),
             guess([3,3,3,3], 1, 0), guess([4,4,4,4], 2, 0)
           ], N).
test(three_black_one_white, Codes == []) :-
    codes(rules(4, 6, 4), [guess([0,0,1,1], 3, 1)], Codes).
test(more_pegs_than_the_code, fail) :-
    secret(rules(4, 6, 4), Secret),
    feedback(Secret, guess([0,1,2,3], 3, 2)).
test(contradiction, Codes == []) :-
    codes(rules(4, 6, 4), [guess([0,1,2,3], 2, 0), guess([0,1,2,3], 1, 0)], Codes).
test(win, Codes == [[3,1,4,1]]) :-
    codes(rules(4, 6, 4), [guess([3,1,4,1], 4, 0)], Codes).

:- end_tests(feedback).


                 /*******************************
                 *           QUESTIONS          *
                 *******************************/

:- begin_tests(questions).

test(first, Code == [0,2,2,2]) :-
    secret(rules(4, 6, 4), Secret),
    feedback(Secret, guess([0,0,1,1], 1, 0)),
    first(Secret, Code).
test(first_is_smallest, Code == [0,3,3,2]) :-
    secret(rules(4, 6, 4), Secret),
    feedback(Secret, guess([0,0,1,1], 1, 0)),
    feedback(Secret, guess([1,2,2,3], 0, 2)),
    first(Secret, Code),
    all(Secret, inf, [Code|_]).
% three pegs of two colours cannot all differ (labeling finds out)
test(first_none, fail) :-
    secret(rules(3, 2, 3), Secret),
    pegs(Secret, [P1, P2, P3]),
    P1 #\= P2, P2 #\= P3, P1 #\= P3,
    first(Secret, _).
test(any_is_consistent, true(memberchk(Code, Codes))) :-
    secret(rules(4, 10, 1), Secret),
    feedback(Secret, guess([0,1,2,3], 0, 4)),
    any(Secret, Code),
    all(Secret, inf, Codes).
% code/2 gives every code all/3 lists, one at a time, and leaves the secret unbound.
test(code_one_at_a_time, [Sorted, N] == [Codes, 256]) :-
    secret(rules(4, 6, 4), Secret),
    feedback(Secret, guess([0,0,1,1], 1, 0)),
    findall(Code, code(Secret, Code), Found),
    msort(Found, Sorted),
    all(Secret, inf, Codes),
    count(Secret, N).
test(all_limited, Codes == [[0,2,2,2],[0,2,2,3],[0,2,2,4]]) :-
    secret(rules(4, 6, 4), Secret),
    feedback(Secret, guess([0,0,1,1], 1, 0)),
    all(Secret, 3, Codes).
test(all_limit_beyond, Codes == [[1,1,0,0]]) :-
    secret(rules(4, 6, 4), Secret),
    feedback(Secret, guess([0,0,1,1], 0, 4)),
    all(Secret, 10, Codes).
test(all_sorted, Sorted == Codes) :-
    codes(rules(4, 6, 4), [guess([0,0,1,1], 1, 0)], Codes),
    length(Codes, 256),
    sort(Codes, Sorted).
test(count_is_length, N == Length) :-
    secret(rules(5, 8, 1), Secret),
    feedback(Secret, guess([0,1,2,3,4], 1, 2)),
    count(Secret, N),
    all(Secret, inf, Codes),
    length(Codes, Length).
test(count_none, N-Codes == 0-[]) :-
    secret(rules(3, 2, 3), Secret),
    pegs(Secret, [P1, P2, P3]),
    P1 #\= P2, P2 #\= P3, P1 #\= P3,
    count(Secret, N),
    all(Secret, inf, Codes).
test(secret_stays_unbound) :-
    secret(rules(4, 6, 4), Secret),
    feedback(Secret, guess([0,0,1,1], 1, 0)),
    first(Secret, _),
    any(Secret, _),
    all(Secret, 2, _),
    count(Secret, _),
    pegs(Secret, Pegs),
    \+ ground(Pegs),
    count(Secret, 256).

:- end_tests(questions).
