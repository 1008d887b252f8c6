/*  plunit tests of mm_logic/engines/swipl/bridge.pl, the Prolog half of the swipl adapter.

    Run from pytest (tests/engines/test_swipl_plunit.py runs each unit in its own
    swipl and fails when it does), or by hand from the repository root:

        swipl -p mmlogic=mm_logic/encodings -g run_tests -t halt tests/plunit/test_bridge.pl

    Counts and codes are exact; they were computed independently with the
    reference engine (mm_logic.engines.reference).
*/

:- use_module('../../mm_logic/engines/swipl/bridge').
:- use_module(library(plunit)).
:- use_module(library(lists)).

:- prolog_load_context(directory, Dir), assertz(here(Dir)).

% The absolute path of a file relative to this one.
path(Relative, File) :-
    here(Dir),
    absolute_file_name(Relative, File, [relative_to(Dir)]).

shipped(File) :- path('../../mm_logic/encodings/mastermind.pl', File).

% A copy of the shipped encoding with Extra appended, in a temporary file.
edited(Extra, File) :-
    shipped(Shipped),
    read_file_to_string(Shipped, Text, []),
    tmp_file_stream(text, File, Out),
    format(Out, "~s~n~s~n", [Text, Extra]),
    close(Out).

% Ask the shipped encoding a question about History under 4 pegs, 6 colours.
ask46(History, Question, Answer) :-
    shipped(File),
    load_encoding(File, mastermind, Module, []),
    ask(Module, rules(4, 6, 4), History, Question, inf, 0, Answer).

ask46(History, Question, Limit, Answer) :-
    shipped(File),
    load_encoding(File, mastermind, Module, []),
    ask(Module, rules(4, 6, 4), History, Question, Limit, 0, Answer).

:- begin_tests(load_encoding).

test(shipped, [Module, Messages] == [mastermind, []]) :-
    shipped(File),
    load_encoding(File, mastermind, Module, Messages).

test(renamed_beside_the_shipped_one, Module == mmlogic_test_copy) :-
    edited("", File),
    load_encoding(File, mmlogic_test_copy, Module, []),
    shipped(Shipped),
    load_encoding(Shipped, mastermind, mastermind, []).

test(syntax_error_captured_with_its_line, [Kind, Line] == [error, 2]) :-
    tmp_file_stream(text, File, Out),
    format(Out, ":- module(broken, []).~nfoo(X :- bar.~n", []),
    close(Out),
    load_encoding(File, mmlogic_test_broken, _, [[_, Line, Kind, _]|_]).

test(warning_captured, Kinds == [warning]) :-
    edited("mmlogic_singleton(X) :- true.", File),
    load_encoding(File, mmlogic_test_warning, _, Messages),
    findall(K, member([_, _, K, _], Messages), Kinds).

:- end_tests(load_encoding).

:- begin_tests(undefined).

test(shipped_defines_everything, Missing == []) :-
    shipped(File),
    load_encoding(File, mastermind, Module, []),
    undefined(Module, Missing).

test(missing_predicates_named, Missing == ["secret/2", "feedback/2", "first/2", "any/2", "all/3", "count/2"]) :-
    tmp_file_stream(text, File, Out),
    format(Out, ":- module(empty, []).~n", []),
    close(Out),
    load_encoding(File, mmlogic_test_empty, Module, []),
    undefined(Module, Missing).

test(named_predicates_as_strings_or_atoms, Missing == ["nothing/1"]) :-
    shipped(File),
    load_encoding(File, mastermind, Module, []),
    undefined(Module, ["labeled"/3, nothing/1, count/2], Missing).

:- end_tests(undefined).

:- begin_tests(ask).

test(count_after_one_guess, N == 256) :-
    ask46([[0,0,1,1]-1-0], count, N).

test(first_after_one_guess, Code == [0,2,2,2]) :-
    ask46([[0,0,1,1]-1-0], first, Code).

test(two_guesses, [N, Code] == [55, [0,3,3,2]]) :-
    ask46([[0,0,1,1]-1-0, [1,2,2,3]-0-2], count, N),
    ask46([[0,0,1,1]-1-0, [1,2,2,3]-0-2], first, Code).

test(all_with_a_limit, Codes == [[0,0,1,0], [0,1,0,0], [1,0,0,0]]) :-
    ask46([[0,0,0,1]-2-2], all, Codes).

test(any_is_consistent, true(member(Code, [[0,0,1,0], [0,1,0,0], [1,0,0,0]]))) :-
    ask46([[0,0,0,1]-2-2], any, Code).

test(contradiction_answers_none, Answers == [none, none, [], 0]) :-
    History = [[0,1,2,3]-2-0, [0,1,2,3]-1-0],
    findall(A, (member(Q, [first, any, all, count]), ask46(History, Q, A)), Answers).

% A question extending the kept prefix of the previous one gives what a fresh one gives.
test(kept_prefix_answers_like_a_fresh_question, Counts == [256, 55, 256, 1296]) :-
    findall(N, ( member(H, [[[0,0,1,1]-1-0],
                            [[0,0,1,1]-1-0, [1,2,2,3]-0-2],
                            [[0,0,1,1]-1-0],
                            []]),
                 ask46(H, count, N) ),
            Counts).

% counted: up to a bound (then the bound, finished), or all of them; a contradiction counts none.
test(counted_up_to_a_bound, Answers == [10-true, 256-true, 0-true]) :-
    ask46([[0,0,1,1]-1-0], counted, 10-0, A1),
    ask46([[0,0,1,1]-1-0], counted, 1000-0, A2),
    ask46([[0,1,2,3]-2-0, [0,1,2,3]-1-0], counted, 10-0, A3),
    Answers = [A1, A2, A3].

% A count whose time runs out gives the codes found by then, a lower bound, not finished.
test(counted_until_its_time_runs_out, [Finished, true] == [false, Low]) :-
    shipped(File),
    load_encoding(File, mastermind, Module, []),
    ask(Module, rules(30, 30, 30), [], counted, 1000000-0.2, 0, N-Finished),
    ( N >= 0, N < 1000000 -> Low = true ; Low = N ).

% A question the encoding cannot answer (a black count that is no number) reports the error.
test(an_encoding_that_throws_answers_an_error, Kind == error) :-
    ask46([[0,0,1,1]-x-0], count, Kind-_).

:- end_tests(ask).
