"""The edited encodings in ``examples/`` played through the clingo engine.

Each example adds one rule to the shipped game. The expected codes are
computed independently: the reference engine's enumeration filtered with the
same rule written in Python. The exact numbers quoted in examples/README.md
are asserted too.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mm_logic.engines.clingo import ClingoEngine
from mm_logic.engines.reference import ReferenceEngine
from mm_logic.feedback import feedback
from mm_logic.notation import parse_code, parse_entry
from mm_logic.rules import Rules

from generators import contract_pick

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def palindrome(code) -> bool:
    return tuple(code) == tuple(code)[::-1]


def no_adjacent(code) -> bool:
    return all(a != b for a, b in zip(code, code[1:]))


RULE = {"palindrome": palindrome, "no_adjacent": no_adjacent}

HISTORIES = [
    (Rules(4, 6), []),
    (Rules(4, 6), ["0000:0,0"]),
    (Rules(4, 6), ["0011:1,0", "2345:0,2"]),
    (Rules(5, 4), ["00112:1,2"]),
    (Rules(5, 6, 1), ["01234:1,1"]),
    (Rules(4, 3, 2), ["0120:2,0"]),
]


@pytest.mark.parametrize("name", RULE)
@pytest.mark.parametrize("rules, history", HISTORIES)
def test_example_matches_filtered_reference(name, rules, history):
    entries = [parse_entry(text, rules) for text in history]
    expected = np.array([c for c in ReferenceEngine(rules).enumerate(entries) if RULE[name](c)],
                        dtype=np.int64).reshape(-1, rules.pegs)
    with ClingoEngine(rules, encoding=EXAMPLES / f"{name}.lp").session(entries) as s:
        assert np.array_equal(s.enumerate(), expected)
        assert s.count() == len(expected)
        assert s.first() == (tuple(int(c) for c in expected[0]) if len(expected) else None)


# (example, rules, history, consistent, next guess with strategy first): README's table
README_NEXT = [
    ("palindrome", Rules(4, 6), [], 36, "0000"),
    ("palindrome", Rules(4, 6), ["0000:0,0"], 25, "1111"),
    ("palindrome", Rules(5, 4), ["00112:1,2"], 10, "02020"),
    ("no_adjacent", Rules(4, 6), [], 750, "0101"),
    ("no_adjacent", Rules(4, 6), ["0011:1,0", "2345:0,2"], 30, "0232"),
    (None, Rules(4, 6), ["0011:1,0", "2345:0,2"], 60, "0223"),
]


@pytest.mark.parametrize("name, rules, history, consistent, guess", README_NEXT)
def test_readme_next_numbers(name, rules, history, consistent, guess):
    encoding = EXAMPLES / f"{name}.lp" if name else None
    entries = [parse_entry(text, rules) for text in history]
    engine = ClingoEngine(rules, encoding=encoding)
    assert engine.count(entries) == consistent
    assert engine.first(entries) == parse_code(guess, rules)


@pytest.mark.parametrize("name, rules, history, consistent, guess", README_NEXT)
def test_readme_next_numbers_from_the_command_line(run_json, name, rules, history, consistent, guess):
    # The empty history too: the count is the encoding's codes, not every code of the rules.
    options = ["--encoding", EXAMPLES / f"{name}.lp"] if name else []
    sizes = ["--pegs", rules.pegs, "--colors", rules.colors]
    answer = run_json("next", *sizes, *options, "--strategy", "first", *history)
    assert answer == {"guess": guess, "consistent": consistent}


# (example, secret, guesses of the `first` loop): README's solve lines
README_SOLVE = [
    ("palindrome", "1221", ["0000:0,0", "1111:2,0", "1221:4,0"]),
    ("no_adjacent", "3453", ["0101:0,0", "2323:1,1", "2434:1,1", "2542:0,2", "3453:4,0"]),
]


@pytest.mark.parametrize("name, secret, guesses", README_SOLVE)
def test_readme_solve_games(name, secret, guesses):
    rules = Rules(4, 6)
    hidden = parse_code(secret, rules)
    played = []
    with ClingoEngine(rules, encoding=EXAMPLES / f"{name}.lp").session() as s:
        while True:
            guess = s.first()
            fb = feedback(guess, hidden)
            played.append("".join(map(str, guess)) + f":{fb[0]},{fb[1]}")
            if fb[0] == rules.pegs:
                break
            s.push(guess, fb)
    assert played == guesses


def test_secret_breaking_the_variant_rule_runs_out_of_codes():
    """0120 is no palindrome: the palindrome game finds no consistent code."""
    rules = Rules(4, 6)
    history = [((0, 0, 0, 0), (2, 0)), ((0, 1, 1, 0), (3, 0))]
    assert ClingoEngine(rules, encoding=EXAMPLES / "palindrome.lp").first(history) is None
    assert ClingoEngine(rules).first(history) == (0, 1, 2, 0)
    assert ClingoEngine(rules).count(history) == 8


@pytest.mark.parametrize("backend, name, secret", [("clingo", "palindrome.lp", "0123"),
                                                   ("swipl", "no_adjacent.pl", "0012")])
@pytest.mark.parametrize("command", [["solve", "--strategy", "first"], ["play"]])
def test_a_secret_the_encoding_excludes_is_refused_before_any_guess(run, backend, name, secret, command):
    # solve played guesses, then failed on "the engine found no consistent code" (exit 1); play took
    # the secret and then answered "0 codes still possible" to `?`.
    result = run(*command, "--backend", backend, "--encoding", EXAMPLES / name, "--secret", secret, input="?\n")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"error: --secret {secret} is excluded by {name} (the game's secrets are the "
                                  "codes it admits)\n")


def shapiro_by_hand(codes: list, secret) -> int:
    """Guesses `first` takes when every guess is the smallest code of ``codes`` consistent so far."""
    history = []
    while True:
        guess = next(c for c in codes if all(feedback(g, c) == fb for g, fb in history))
        history.append((guess, feedback(guess, secret)))
        if guess == secret:
            return len(history)


@pytest.mark.parametrize("name", ["palindrome", pytest.param("no_adjacent", marks=pytest.mark.slow)])  # 18.6 s
def test_bench_solve_and_compare_play_the_encodings_own_secrets(run_json, name):
    # Secrets were the rules' codes: a random one the encoding excludes could never be found, and
    # --all reported a false engine disagreement ("counts 25 ..., the feedback rule gives 625").
    rules = Rules(4, 6)
    codes = [tuple(int(c) for c in code) for code in ReferenceEngine(rules).enumerate([]) if RULE[name](code)]
    expected = {}
    for secret in codes:
        n = shapiro_by_hand(codes, secret)
        expected[str(n)] = expected.get(str(n), 0) + 1
    encoding = ["--backend", "clingo", "--encoding", EXAMPLES / f"{name}.lp", "--strategy", "first"]
    every = run_json("bench", *encoding, "--all")
    assert (every["games"], every["histogram"]) == (len(codes), expected)
    assert run_json("bench", *encoding, "--all", "--jobs", 2)["histogram"] == every["histogram"]
    assert run_json("bench", *encoding, "--games", 20, "--seed", 1)["games"] == 20
    for seed in range(5):
        secret = parse_code(run_json("solve", *encoding, "--seed", seed)["secret"], rules)
        assert RULE[name](secret)
    assert run_json("compare", *encoding, "--all")["rows"][0]["histogram"] == every["histogram"]
    # 8x6 has 1,679,616 codes, too many to list: the engine draws each secret
    big = Rules(8, 6)
    for seed in range(3):
        secret = parse_code(run_json("solve", *encoding, "--pegs", 8, "--seed", seed)["secret"], big)
        assert RULE[name](secret)


def minimax_by_hand(codes: list, history) -> tuple:
    """Knuth's guess over every code of 4x6 against ``codes`` left after ``history``: the smallest
    largest part, then a code that may win, then the smallest code (the contract's tie-breaks)."""
    every = [tuple(int(c) for c in code) for code in ReferenceEngine(Rules(4, 6)).enumerate([])]
    left = [c for c in codes if all(feedback(g, c) == fb for g, fb in history)]
    return contract_pick(every, left, max)


@pytest.mark.parametrize("name", ["palindrome", "no_adjacent"])
def test_scoring_and_random_strategies_play_the_encodings_codes(run_json, name):
    # They assumed every code of the rules, and its symmetries: minimax opened with 0011 on the
    # palindromes (largest part 16) where 0012 leaves 9; random opened with 5223.
    rules = Rules(4, 6)
    codes = [tuple(int(c) for c in code) for code in ReferenceEngine(rules).enumerate([]) if RULE[name](code)]
    options = ["--backend", "clingo", "--encoding", EXAMPLES / f"{name}.lp"]
    opening = minimax_by_hand(codes, [])
    assert run_json("next", *options, "--strategy", "minimax")["guess"] == "".join(map(str, opening))
    history = [(opening, feedback(opening, codes[len(codes) // 2]))]
    second = run_json("next", *options, "--strategy", "minimax", f"{''.join(map(str, opening))}:"
                      f"{history[0][1][0]},{history[0][1][1]}")["guess"]
    assert second == "".join(map(str, minimax_by_hand(codes, history)))
    for seed in range(4):
        assert RULE[name](parse_code(run_json("next", *options, "--strategy", "random", "--seed", seed)["guess"],
                                     rules))
