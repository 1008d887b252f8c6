"""``--feedback``: the black-peg and positional rules at the command line, on every engine that plays them.

The figures are checked against games played here by brute force (``generators.brute_score``, the
textbook definitions, and the lexicographic order of ``first``), not against numbers copied from a run.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from mm_logic.rules import Rules

from conftest import PY, one_line_error
from generators import brute_score

ENGINES = ["python", "clingo", "swipl"]
RULES = ["standard", "black", "positional"]


def first_by_brute_force(rules: Rules) -> Counter:
    """Guesses per secret of ``first`` (the smallest consistent code), every secret played by brute force."""
    codes = list(product(range(rules.colors), repeat=rules.pegs))
    histogram: Counter = Counter()
    for secret in codes:
        history = []
        while True:
            guess = next(c for c in codes if all(brute_score(rules, g, c) == fb for g, fb in history))
            history.append((guess, brute_score(rules, guess, secret)))
            if guess == secret:
                histogram[len(history)] += 1
                break
    return histogram


@pytest.mark.parametrize("feedback", RULES)
@pytest.mark.parametrize("backend", ENGINES)
def test_bench_of_first_over_every_secret_is_the_brute_force_games(run_json, backend, feedback):
    rules = Rules(3, 4, feedback=feedback)
    out = run_json("bench", "--backend", backend, "--strategy", "first", "--pegs", 3, "--colors", 4,
                   "--feedback", feedback, "--all")
    expected = first_by_brute_force(rules)
    assert out["histogram"] == {str(k): v for k, v in sorted(expected.items())}
    assert out["total_guesses"] == sum(k * v for k, v in expected.items())
    assert out["rules"] == rules.as_dict() == {"pegs": 3, "colors": 4, "max_repeat": None, "feedback": feedback}


@pytest.mark.parametrize("backend", ENGINES)
def test_solve_writes_each_rules_feedback(run, run_json, backend):
    out = run_json("solve", "--backend", backend, "--strategy", "first", "--feedback", "positional", "--secret", "3510")
    guesses = [(g["guess"], g["marks"]) for g in out["guesses"]]
    rules = Rules(feedback="positional")
    for code, marks in guesses:
        assert marks == "".join("-ox"[m] for m in brute_score(rules, tuple(map(int, code)), (3, 5, 1, 0)))
    assert guesses[-1] == ("3510", "xxxx") and set(out["guesses"][0]) == {"guess", "marks"}
    black = run("solve", "--backend", backend, "--strategy", "first", "--feedback", "black", "--secret", "0123")
    assert black.stdout == "1  0000  1\n2  0111  2\n3  0122  3\n4  0123  4\n4 guesses\n"


@pytest.mark.parametrize("backend", ENGINES)
def test_next_reads_each_rules_history(run, backend):
    # 0312 is the one code that gives 0011 the marks x-x- and 2345 the marks ox--.
    result = run("next", "--backend", backend, "--strategy", "first", "--feedback", "positional",
                 "0011:x-x-", "2345:ox--")
    assert (result.exit_code, result.stdout) == (0, "0312  (1 code still possible)\n")
    result = run("next", "--backend", backend, "--strategy", "first", "--feedback", "black", "0011:2", "0123:1")
    codes = [c for c in product(range(6), repeat=4)
             if brute_score(Rules(feedback="black"), (0, 0, 1, 1), c) == (2,)
             and brute_score(Rules(feedback="black"), (0, 1, 2, 3), c) == (1,)]
    assert result.stdout == f"{''.join(map(str, codes[0]))}  ({len(codes)} codes still possible)\n"


@pytest.mark.parametrize("feedback, entry, message", [
    ("black", "0011:1,0", "feedback '1,0' in '0011:1,0' is not of the form B (e.g. 2)"),
    ("black", "0011:5", "feedback 5 in '0011:5' exceeds the 4 pegs"),
    ("positional", "0011:x-o", "feedback x-o in '0011:x-o' has 3 marks, expected one per peg (4)"),
    ("positional", "0011:2,0",
     "feedback '2,0' in '0011:2,0' is not of the form one mark per peg, x o or - (e.g. x-o-)"),
    ("positional", "0011:xxxo", "feedback xxxo in '0011:xxxo' cannot occur: with every other peg right, the colour "
                                "of the last one is nowhere else"),
    ("standard", "0011:x-o-", "feedback 'x-o-' in '0011:x-o-' is not of the form B,W (e.g. 1,2)"),
    ("positional", "0011", "history entry '0011' is not of the form GUESS:MARKS (e.g. 0011:x-o-)"),
])
def test_feedback_of_another_rules_form_is_one_line(run, feedback, entry, message):
    one_line_error(run("next", *PY, "--strategy", "first", "--feedback", feedback, entry), 2, message, stdout="")


def test_what_does_not_play_a_rule_is_refused_in_one_line(run):
    one_line_error(run("next", "--backend", "a2", "--strategy", "first", "--feedback", "black"), 2,
                   "--backend a2 plays the standard feedback rule only; with --feedback black use --backend clingo, "
                   "swipl or python")
    one_line_error(run("bench", *PY, "--strategy", "human1", "--feedback", "positional", "--all"), 2,
                   "--strategy human1 plays the standard feedback rule only; with --feedback positional use "
                   "--strategy first, any, random, any-random-opening, minimax, expected, entropy, parts or "
                   "sample-entropy")
    one_line_error(run("bench", *PY, "--strategy", "first", "--feedback", "mixed", "--all"), 2,
                   "Invalid value for '--feedback': 'mixed' is not one of 'standard', 'black', 'positional', or "
                   "FILE.py (a rule of your own).")


def test_the_default_strategy_plays_every_rule(run):
    # minimax, the default, scores the built-in rules with its compiled feedback and a rule of one's own from
    # the game's feedback table: no strategy gives way.
    result = run("solve", *PY, "--feedback", "black", "--secret", "0123")
    assert (result.exit_code, result.stderr) == (0, "") and result.stdout.endswith("guesses\n")
    # 4x4: its table of 65,536 calls in a second (4x6's 1.7 million took 10 s, and past 30 s on a loaded machine
    # said how it went on stderr); first would open 0000 and take 4 guesses.
    result = run("solve", *PY, "--feedback", "examples/shared_colours.py", "--pegs", 4, "--colors", 4, "--secret",
                 "0123")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "1  0001  2\n2  0022  2\n3  0123  won\n3 guesses\n"


@pytest.mark.parametrize("role_input, expected_tail", [
    # The computer guesses: the person answers with marks, then the program finds the code.
    ("x---\nxx--\nxxx-\nxxxx\n", "found your code in 4 guesses\n"),
])
def test_play_takes_marks_as_answers(run, role_input, expected_tail):
    result = run("play", "--role", "codemaker", "--backend", "clingo", "--strategy", "first", "--feedback",
                 "positional", input=role_input)
    assert result.exit_code == 0 and result.stdout.endswith(expected_tail)
    assert "guess 1: 0000  marks> " in result.stdout + result.stderr
    wrong = run("play", "--role", "codemaker", *PY, "--strategy", "first", "--feedback", "positional",
                input="1,0\nquit\n")
    assert "'1,0' is not an answer: type one mark per peg, x o or -, e.g. x-o-" in wrong.stdout


def test_compare_plays_each_rule_set_under_each_feedback_rule(run_json):
    out = run_json("compare", "--backend", "python,clingo,swipl", "--strategy", "first", "--pegs", 3, "--colors", 4,
                   "--feedback", "standard,black,positional", "--all")
    rows = out["rows"]
    assert [(r["rules"]["feedback"], r["backend"]) for r in rows] == [
        (f, b) for f in RULES for b in ENGINES]
    for row in rows:
        expected = first_by_brute_force(Rules(3, 4, feedback=row["rules"]["feedback"]))
        assert row["histogram"] == {str(k): v for k, v in sorted(expected.items())}
    assert out["disagreements"] == []
