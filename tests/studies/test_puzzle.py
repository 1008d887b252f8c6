"""Puzzles (``mmlogic puzzle``): seeded draws, exact histories, checked against a brute force."""

from __future__ import annotations

import itertools
import json

import pytest

from mm_logic.engines import make_engine
from mm_logic.feedback import score
from mm_logic.notation import parse_entry
from mm_logic.rules import Rules
from mm_logic.studies.puzzle import draw_puzzle

from conftest import one_line_error


def fitting(rules: Rules, history) -> list[tuple[int, ...]]:
    """The codes consistent with ``history``, by trying every code (written apart from the engines)."""
    limit = rules.repeat_limit
    return [code for code in itertools.product(range(rules.colors), repeat=rules.pegs)
            if max(code.count(c) for c in code) <= limit
            and all(score(rules, guess, code) == fb for guess, fb in history)]


def test_a_seed_draws_the_same_puzzle_on_every_engine(run_json):
    drawn = [run_json("puzzle", "--pegs", 3, "--colors", 3, "--entries", 3, "--seed", 1, "--backend", backend)
             for backend in ("python", "clingo", "python")]
    assert [d["history"] for d in drawn] == [["010:2,0", "222:1,0", "011:1,0"]] * 3
    assert {d["secret"] for d in drawn} == {"020"}
    assert drawn[0]["remaining"] == [6, 3, 1]
    assert (drawn[0]["unique"], drawn[0]["every_entry_needed"], drawn[0]["entries"]) == (True, True, 3)


def test_a_4x6_puzzle_of_five_entries(run_json):
    drawn = run_json("puzzle", "--entries", 5, "--seed", 1)
    assert drawn["history"] == ["4434:0,1", "1121:0,1", "0500:1,0", "2512:1,1", "3031:1,1"]
    assert (drawn["secret"], drawn["remaining"], drawn["tries"]) == ("3202", [308, 74, 18, 4, 1], 6)


@pytest.mark.parametrize("rules, entries", [
    (Rules(3, 3), 2), (Rules(3, 3), 3), (Rules(3, 4), 4), (Rules(2, 4), 3), (Rules(3, 3, feedback="black"), 4),
    (Rules(3, 3, feedback="positional"), 2), (Rules(3, 4, max_repeat=1), 3),
])
@pytest.mark.parametrize("seed", [0, 5])
def test_drawn_puzzles_are_unique_and_minimal_by_brute_force(rules, entries, seed):
    puzzle = draw_puzzle(make_engine("clingo", rules), entries, seed)
    history = puzzle.check.history
    assert len(history) == entries
    assert fitting(rules, history) == [puzzle.check.secret]
    for i in range(entries):
        assert len(fitting(rules, history[:i] + history[i + 1:])) > 1


def test_check_a_puzzle(run):
    result = run("puzzle", "--pegs", 3, "--colors", 3, "--check", "010:2,0", "222:1,0", "011:1,0")
    assert (result.exit_code, result.stdout) == (0, "1 code consistent with the history: 020\n"
                                                    "  1. 010:2,0   needed (without it: 2 codes left)\n"
                                                    "  2. 222:1,0   needed (without it: 2 codes left)\n"
                                                    "  3. 011:1,0   needed (without it: 3 codes left)\n"
                                                    "a puzzle: one code, every entry needed\n")


def test_check_finds_the_redundant_entries(run):
    rules = Rules(3, 3)
    history = ["010:2,0", "222:1,0", "011:1,0", "000:2,0"]
    # by brute force: with 000:2,0 added, any one of the last three can go; without 010:2,0 two codes fit
    entries = [parse_entry(e, rules) for e in history]
    assert [len(fitting(rules, entries[:i] + entries[i + 1:])) for i in range(4)] == [2, 1, 1, 1]
    result = run("puzzle", "--pegs", 3, "--colors", 3, "--check", *history, "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "rules": {"pegs": 3, "colors": 3, "max_repeat": None, "feedback": "standard"}, "history": history,
        "consistent": 1, "unique": True, "secret": "020", "without": [2, 1, 1, 1], "redundant": [2, 3, 4],
        "puzzle": False}


def test_check_more_than_one_code(run):
    result = run("puzzle", "--pegs", 3, "--colors", 3, "--check", "010:2,0", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert (data["consistent"], data["unique"], data["secret"], data["without"]) == (6, False, None, [27])


@pytest.mark.parametrize("backend", ["clingo", "python"])
def test_check_an_inconsistent_history_exits_3(run, backend):
    one_line_error(run("puzzle", "--backend", backend, "--check", "0011:1,0", "0011:2,0"), 3,
                   "no code is consistent with the history: entries 1, 2 (0011:1,0 0011:2,0) contradict each other",
                   stdout="")


@pytest.mark.parametrize("args, code, message", [
    (["--entries", 1, "--seed", 1, "--tries", 5], 1,
     "no puzzle of 1 entry with one code and every entry needed found in 5 tries (4x6); try another --entries, "
     "--seed or --tries"),
    ([], 2, "puzzle needs --entries N (or --check HISTORY...)"),
    (["--check"], 2, "--check needs a HISTORY to verify (GUESS:B,W ...)"),
    (["--entries", 3, "0011:1,0"], 2, "a HISTORY is verified with --check; without it, puzzle draws one (--entries N)"),
    (["--check", "--seed", 1, "0011:1,0"], 2, "--check verifies the HISTORY given: --entries and --seed draw one"),
    (["--check", "001:1,0"], 2, "code '001' has 3 pegs, expected 4"),
    (["--entries", 0], 2, "Invalid value for '--entries': 0 is not in the range 1<=x<=1000."),
])
def test_puzzle_bad_input(run, args, code, message):
    one_line_error(run("puzzle", *args), code, message, stdout="")
