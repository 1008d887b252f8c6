"""Answers that may be wrong (``--lies K``): the states a scorer weighs, the liar, and the commands.

The engines' agreement with a brute-force filter under lies is in tests/engines/test_engines_agree.py;
here the scorers' guesses are checked against a brute-force scorer over the states (code, lies used),
written from the definition in mm_logic/lies.py's docstring with the textbook feedback of
``generators``, and the commands' outputs and bad input exactly.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mm_logic.engines import make_engine
from mm_logic.game import play
from mm_logic.lies import Liar, lies_told, parse_liar
from mm_logic.notation import format_code
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy

from conftest import PY, one_line_error
from generators import ALL_FEEDBACKS, brute_lies, brute_score, consistent, game_for


def brute_feedbacks(rules: Rules) -> list:
    """Every feedback some pair of codes gives, by brute force."""
    codes = list(product(range(rules.colors), repeat=rules.pegs))
    return sorted({brute_score(rules, g, s) for g in codes for s in codes})


def brute_minimax_guess(rules: Rules, history) -> tuple[int, ...]:
    """Knuth's minimax over the states, by brute force: each possible code with the lies it needs; an answer
    keeps the states true to it (weight: lies left + 1) and moves on those with a lie left (weight: lies
    left after it + 1), never through the win; the guess with the smallest heaviest answer, then a
    possible code, then the smallest."""
    alive = consistent(rules, history)
    if len(alive) <= 2:
        return alive[0]
    lies = {code: brute_lies(rules, history, code) for code in alive}
    win = tuple(brute_score(rules, alive[0], alive[0]))
    answers = brute_feedbacks(rules)

    def rank(guess):
        heaviest = 0
        for answer in answers:
            weight = 0
            for code in alive:
                truth = brute_score(rules, guess, code)
                if truth == answer:
                    weight += rules.lies - lies[code] + 1
                elif lies[code] < rules.lies and answer != win and truth != win:
                    weight += rules.lies - lies[code]
            heaviest = max(heaviest, weight)
        return heaviest, guess not in lies, guess

    return min((c for c in product(range(rules.colors), repeat=rules.pegs)
                if max(Counter(c).values()) <= rules.repeat_limit), key=rank)


def brute_histogram(rules: Rules, liar: Liar | None) -> dict[str, int]:
    """Every secret played by :func:`brute_minimax_guess`, answered truly or by ``liar``: games by guesses."""
    histogram: Counter = Counter()
    for secret in consistent(replace(rules, lies=0), []):
        answer = liar.answers(secret) if liar else lambda guess, s=secret: brute_score(rules, guess, s)
        history = []
        while not history or history[-1][0] != secret:
            guess = brute_minimax_guess(rules, history)
            history.append((guess, tuple(answer(guess))))
        histogram[str(len(history))] += 1
    return dict(sorted(histogram.items()))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=game_for(max_pegs=3, max_colors=4, max_len=3, feedbacks=ALL_FEEDBACKS), lies=st.integers(1, 2))
def test_minimax_with_lies_picks_the_brute_force_guess_over_the_states(game, lies):
    rules, history = game
    rules = replace(rules, lies=lies)
    if not consistent(rules, history):
        return
    engine = make_engine("python", rules)
    strategy = make_strategy("minimax", rules)
    with engine.session(history) as session:
        guess = strategy.opening(session) if not history else strategy.choose(session)
    assert guess == brute_minimax_guess(rules, history)


@pytest.mark.parametrize("rules", [Rules(3, 5, lies=1), Rules(3, 4, feedback="positional", lies=2),
                                   Rules(3, 3, feedback="black", lies=1)])
def test_a_liar_answers_wrongly_only_among_feedbacks_that_occur_never_the_win(rules):
    every = brute_feedbacks(rules)
    win = brute_score(rules, (0,) * rules.pegs, (0,) * rules.pegs)
    guess, secret = (0,) * rules.pegs, (1,) + (0,) * (rules.pegs - 1)
    truth = brute_score(rules, guess, secret)
    assert lies_told(rules, guess, secret) == [fb for fb in every if fb not in (truth, win)]
    assert lies_told(rules, secret, secret) == []  # the win is always told


def test_a_liar_lies_at_the_answers_it_is_given_and_never_more_than_k_times():
    rules = Rules(4, 6, lies=2)
    secret = (0, 1, 2, 3)
    guesses = [(0, 0, 1, 1), (2, 2, 3, 3), (4, 4, 5, 5), (0, 1, 2, 4), (0, 1, 2, 3)]
    answer = Liar(rules, (2, 5), seed=3).answers(secret)
    told = [answer(g) for g in guesses]
    lied = [i + 1 for i, (g, fb) in enumerate(zip(guesses, told)) if fb != brute_score(rules, g, secret)]
    assert lied == [2]  # the 5th guess is the secret: the win is told
    # at random: each answer a lie with probability 1/2 while lies are left, the same draws for one seed
    drawn = [Liar(rules, (), seed=s).answers(secret) for s in range(40)]
    counts = Counter(sum(a(g) != brute_score(rules, g, secret) for g in guesses[:4]) for a in drawn)
    assert set(counts) <= {0, 1, 2} and counts[2] > 0
    again = Liar(rules, (), seed=7).answers(secret), Liar(rules, (), seed=7).answers(secret)
    assert [again[0](g) for g in guesses] == [again[1](g) for g in guesses]


@pytest.mark.parametrize("backend", ["python", "clingo", "swipl"])
def test_a_game_against_a_liar_finds_the_secret_on_every_engine(backend):
    rules = Rules(4, 6, lies=1)
    record = play(make_engine(backend, rules), make_strategy("minimax", rules), (0, 1, 2, 3),
                  liar=Liar(rules, (2,), seed=1))
    assert record.guesses[-1] == ((0, 1, 2, 3), (4, 0))
    truthful = [fb == brute_score(rules, g, (0, 1, 2, 3)) for g, fb in record.guesses]
    assert truthful.index(False) == 1 and truthful.count(False) == 1
    assert record.guesses == play(make_engine("python", rules), make_strategy("minimax", rules), (0, 1, 2, 3),
                                  liar=Liar(rules, (2,), seed=1)).guesses


def test_solve_marks_the_lie_and_the_json_says_it(run):
    result = run("solve", *PY, "--lies", "1", "--liar", "2", "--seed", "1", "--secret", "0123")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.endswith("(a lie)") for line in lines[:-1]] == [False, True] + [False] * (len(lines) - 3)
    assert lines[-2].split()[1:] == ["0123", "4,0"] and lines[-1] == f"{len(lines) - 1} guesses"
    data = run("solve", *PY, "--lies", "1", "--liar", "2", "--seed", "1", "--secret", "0123", "--json")
    guesses = json.loads(data.stdout)["guesses"]
    assert [g.get("lie", False) for g in guesses] == [False, True] + [False] * (len(guesses) - 2)
    assert [line.split()[1] for line in lines[:-1]] == [g["guess"] for g in guesses]


def test_next_with_lies_counts_the_codes_that_break_at_most_k_entries(run):
    rules = Rules(3, 5, lies=1)
    history = [((0, 0, 1), (1, 0)), ((2, 3, 4), (0, 2)), ((0, 1, 2), (1, 1))]
    guess = format_code(brute_minimax_guess(rules, history), rules)
    size = ("--pegs", "3", "--colors", "5")
    for backend in ("python", "clingo", "swipl"):
        result = run("next", *size, "--backend", backend, "--lies", "1", "001:1,0", "234:0,2", "012:1,1")
        assert (result.exit_code, result.stdout) == (0, f"{guess}  ({len(consistent(rules, history))} codes still "
                                                        "possible)\n"), result.stderr
    # without lies the same history leaves fewer codes
    truthful = json.loads(run("next", *size, *PY, "--json", "001:1,0", "234:0,2", "012:1,1").stdout)
    assert truthful["consistent"] == len(consistent(Rules(3, 5), history)) < len(consistent(rules, history))


def test_bench_with_lies_plays_each_secret_and_its_rules_object_says_lies(run_json):
    data = run_json("bench", *PY, "--strategy", "minimax", "--pegs", "2", "--colors", "3", "--lies", "1", "--all")
    assert data["rules"] == {"pegs": 2, "colors": 3, "max_repeat": None, "feedback": "standard", "lies": 1}
    clingo = run_json("bench", "--backend", "clingo", "--strategy", "minimax", "--pegs", "2", "--colors", "3",
                      "--lies", "1", "--all")
    assert (clingo["histogram"], clingo["total_guesses"]) == (data["histogram"], data["total_guesses"])
    rules = Rules(2, 3, lies=1)
    assert data["histogram"] == brute_histogram(rules, None)
    liar = run_json("bench", *PY, "--strategy", "minimax", "--pegs", "2", "--colors", "3", "--lies", "1",
                    "--liar", "1", "--seed", "2", "--all")
    assert liar["histogram"] == brute_histogram(rules, Liar(rules, (1,), 2))
    # without lies, the rules object is as it always was
    assert "lies" not in run_json("bench", *PY, "--strategy", "first", "--pegs", "2", "--colors", "3",
                                  "--all")["rules"]


@pytest.mark.parametrize("args, message", [
    (["solve", "--liar", "2"], "--liar needs --lies K: the codemaker may tell at most K wrong answers"),
    (["solve", "--lies", "1", "--liar", "2,3"], "--liar names 2 answers, more than --lies 1 allows"),
    (["solve", "--lies", "1", "--liar", "soon"],
     "--liar takes random or the answers that lie, by number (2,5), got 'soon'"),
    (["solve", "--lies", "1", "--liar", "0"], "--liar numbers answers from 1, got '0'"),
    (["solve", "--lies", "4"], "Invalid value for '--lies': 4 is not in the range 0<=x<=3."),
    (["next", "--lies", "1", "--backend", "a2", "0011:1,0"],
     "--backend a2 plays no --lies; use --backend clingo, swipl or python"),
    (["bench", "--lies", "1", "--all", "--save-tree", "t.json"],
     "--save-tree does not apply with --lies: a tree file follows truthful answers"),
    (["next", "--lies", "1", "--strategy", "minimax", "--pegs", "5", "--colors", "6"],
     "--lies with --strategy minimax scores every code against every state: games of at most 4,096 codes "
     "(5x6 1 lie has 7,776); use --strategy first, any or random"),
])
def test_bad_lies_are_one_line_and_exit_2(run, args, message):
    one_line_error(run(*args), 2, message, stdout="")


def test_parse_liar_reads_random_and_numbers():
    rules = Rules(4, 6, lies=2)
    assert parse_liar("random", rules, 5) == Liar(rules, (), 5)
    assert parse_liar("5,2", rules, None) == Liar(rules, (2, 5), None)


def brute_every_lie(rules: Rules) -> dict[int, int]:
    """Every secret answered every way with at most K lies, by brute force: the games (leaves) by guesses."""
    answers = brute_feedbacks(rules)
    histogram: Counter = Counter()

    def walk(history, depth):
        alive = consistent(rules, history)
        guess = brute_minimax_guess(rules, history)
        win = brute_score(rules, guess, guess)
        if guess in alive:
            histogram[depth + 1] += 1
        for answer in answers:
            if answer != win and consistent(rules, [*history, (guess, answer)]):
                walk([*history, (guess, answer)], depth + 1)

    walk([], 0)
    return dict(sorted(histogram.items()))


@pytest.mark.parametrize("backend", ["python", "clingo", "swipl"])
def test_bench_liar_every_walks_every_secret_answered_every_way(run_json, backend):
    rules = Rules(2, 3, lies=1)
    data = run_json("bench", "--backend", backend, "--strategy", "minimax", "--pegs", "2", "--colors", "3",
                    "--lies", "1", "--liar", "every", "--all")
    expected = brute_every_lie(rules)
    assert {int(k): n for k, n in data["histogram"].items()} == expected
    assert data["games"] == sum(expected.values()) and data["max"] == max(expected)


def test_play_codebreaker_against_a_liar_says_its_lies_at_the_end(run):
    result = run("play", *PY, "--lies", "1", "--liar", "1", "--seed", "3", "--secret", "0123", input="0011\n0123\n")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1] == "At most 1 answer may be wrong; the win is always told."
    told = lines[2].split()
    assert told[0] == "0011" and tuple(map(int, told[1].split(","))) != (1, 1)
    assert lines[3:] == ["0123  4,0", "found in 2 guesses", f"answer 1 was wrong: 0011 gets 1,1, I said {told[1]}"]


def test_play_codemaker_with_lies_takes_a_wrong_answer_and_the_win(run):
    # 0011 is answered wrongly (1345 gets 0,1 from it): one lie, so the win on 1345 is taken
    result = run("play", *PY, "--role", "codemaker", "--lies", "1", input="1,1\n0,0\n4,0\n")
    assert result.exit_code == 0, result.stderr
    assert "guess 3: 1345" in result.stderr and result.stdout.endswith("found your code in 3 guesses\n")
    # 0011 and 1100 both 0,4: no code breaks at most one of them (each is the other's only code, a guess
    # answered without the win): refused, and no diagnosis follows, which would count the lie as wrong
    refused = run("play", *PY, "--role", "codemaker", "--lies", "1", input="0,4\n0,4\n4,0\n")
    assert refused.stdout.splitlines()[1:] == [
        "no code is consistent with the history: none breaks at most --lies 1 of entries 1, 2 (0011:0,4 1100:0,4); "
        "type the right answer for 1100, or undo", "found your code in 2 guesses"]


def brute_least_worst_case(rules: Rules) -> int:
    """The least worst case against every liar, by a plain minimax over the sets of states (no bound, no
    symmetry, every guess at every node): the value of a set is 0 when empty, else the least over guesses
    of 1 + the largest value of an answer's states (a guess that leaves an answer every state is no move)."""
    codes = consistent(replace(rules, lies=0), [])
    answers = brute_feedbacks(rules)
    memo: dict = {}
    scores = {(guess, code): brute_score(rules, guess, code) for guess in codes for code in codes}

    def value(states: frozenset) -> int:
        if not states:
            return 0
        if states not in memo:
            best = None
            for guess in codes:
                win = scores[guess, guess]
                parts = []
                for answer in answers:
                    if answer == win:
                        continue
                    part = frozenset((c, lies if scores[guess, c] == answer else lies + 1)
                                     for c, lies in states
                                     if scores[guess, c] == answer or (lies < rules.lies and scores[guess, c] != win))
                    parts.append(part)
                if any(part == states for part in parts):
                    continue
                cost = 1 + max(value(part) for part in parts)
                best = cost if best is None else min(best, cost)
            memo[states] = best
        return memo[states]

    return value(frozenset((c, 0) for c in codes))


@pytest.mark.parametrize("rules", [Rules(2, 2, lies=1), Rules(2, 3, lies=1), Rules(3, 2, lies=1),
                                   Rules(2, 3, lies=2), Rules(2, 3, feedback="black", lies=1)])
def test_optimal_with_lies_is_the_brute_force_least_worst_case(run_json, rules):
    data = run_json("optimal", "--pegs", rules.pegs, "--colors", rules.colors, "--lies", rules.lies,
                    "--feedback", rules.feedback, "--objective", "worst-case")
    assert data["worst_case"] == brute_least_worst_case(rules)
    assert data["rules"] == rules.as_dict()


@pytest.mark.parametrize("args, message", [
    (["--lies", "1"], "--lies takes --objective worst-case: against a liar a mean needs a liar's odds, the worst "
                      "case does not"),
    (["--lies", "1", "--objective", "worst-case", "--jobs", "2"],
     "--jobs does not apply with --lies: one process searches the states whole"),
    (["--lies", "1", "--objective", "worst-case", "--pegs", "4"],
     "optimal --lies searches games of at most 81 codes (4x6 1 lie has 1,296): every set of states it meets is "
     "listed"),
])
def test_optimal_with_lies_refuses_in_one_line(run, args, message):
    one_line_error(run("optimal", *args), 2, message, stdout="")


def test_a_history_no_code_fits_even_with_its_lies_exits_3_naming_the_entries(run):
    # 0000 told the win: the secret is 0000, which breaks both earlier entries, one more than allowed
    one_line_error(run("next", *PY, "--lies", "1", "0011:1,0", "2345:0,2", "0000:4,0"), 3,
                   "no code is consistent with the history: none breaks at most --lies 1 of entries 1, 2, 3 "
                   "(0011:1,0 2345:0,2 0000:4,0)", stdout="")
    one_line_error(run("next", "--lies", "1", "--diagnose", "0011:1,0"), 2,
                   "--diagnose does not apply with --lies: it finds the fewest wrong entries, where --lies says "
                   "how many may be", stdout="")
