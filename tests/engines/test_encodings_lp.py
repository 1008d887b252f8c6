"""The shipped ASP encodings, tested as data: facts -> the exact set of secrets.

Every feature has a satisfiable case (its exact models) and an unsatisfiable
one. The facts are what the clingo engine would add: ``pegs/1``, ``colours/1``,
``max_repeat/1`` for the rules and ``guess/3``, ``black/2``, ``white/2`` for
each step, whose ``step(t)`` part is grounded and whose ``active(t)`` is set
true, as a game does. Codes are written as strings of colour digits.
"""

from __future__ import annotations

import re

import pytest
from clingo import Control, Function, Number

from mm_logic.support.resources import encoding_path

UNSAT = frozenset()

# name -> (facts, exact set of secrets); UNSAT is the empty set.
CASES = {
    # the code space: one colour per peg
    "space 2x2": ("pegs(2). colours(2).", {"00", "01", "10", "11"}),
    "space 1x3": ("pegs(1). colours(3).", {"0", "1", "2"}),
    "space without colours": ("pegs(2). colours(0).", UNSAT),
    # no-repeat
    "no-repeat 2x3": ("pegs(2). colours(3). max_repeat(1).", {"01", "02", "10", "12", "20", "21"}),
    "no-repeat too few colours": ("pegs(3). colours(2). max_repeat(1).", UNSAT),
    # at most M of a colour
    "max-repeat 2, 3x2": ("pegs(3). colours(2). max_repeat(2).",
                          {"001", "010", "011", "100", "101", "110"}),
    "max-repeat 2 too few colours": ("pegs(5). colours(2). max_repeat(2).", UNSAT),
    "max-repeat beyond the pegs": ("pegs(2). colours(2). max_repeat(3).", {"00", "01", "10", "11"}),
    # black pegs
    "black 2 of 2": ("pegs(2). colours(3). guess(1,1,0). guess(1,2,1). black(1,2). white(1,0).", {"01"}),
    "black 1": ("pegs(2). colours(2). guess(1,1,0). guess(1,2,0). black(1,1). white(1,0).", {"01", "10"}),
    "black contradiction": ("pegs(2). colours(3). guess(1,1,0). guess(1,2,1). black(1,2). white(1,0). "
                            "guess(2,1,0). guess(2,2,1). black(2,0). white(2,0).", UNSAT),
    # white pegs, duplicates counted once per pair
    "white swap": ("pegs(2). colours(3). guess(1,1,0). guess(1,2,1). black(1,0). white(1,2).", {"10"}),
    "white duplicates 0,4": ("pegs(4). colours(2). guess(1,1,0). guess(1,2,0). guess(1,3,1). guess(1,4,1). "
                             "black(1,0). white(1,4).", {"1100"}),
    "white duplicates 2,2": ("pegs(4). colours(2). guess(1,1,0). guess(1,2,0). guess(1,3,1). guess(1,4,1). "
                             "black(1,2). white(1,2).", {"0101", "0110", "1001", "1010"}),
    "white duplicates 0,3 impossible": ("pegs(4). colours(2). guess(1,1,0). guess(1,2,0). guess(1,3,1). "
                                        "guess(1,4,1). black(1,0). white(1,3).", UNSAT),
    # a guess with a repeated colour against a secret holding it once: one white, not two
    "white one pair for a double": ("pegs(3). colours(3). guess(1,1,0). guess(1,2,0). guess(1,3,1). "
                                    "black(1,0). white(1,1).", {"112", "122", "212", "220"}),
    "white three pairs for a double impossible": ("pegs(3). colours(3). guess(1,1,0). guess(1,2,0). "
                                                  "guess(1,3,1). black(1,0). white(1,3).", UNSAT),
    "white double against no-repeat": ("pegs(3). colours(3). max_repeat(1). guess(1,1,0). guess(1,2,0). "
                                       "guess(1,3,1). black(1,0). white(1,2).", {"120", "210"}),
    "white all wrong": ("pegs(2). colours(3). guess(1,1,0). guess(1,2,1). black(1,0). white(1,0).", {"22"}),
    "white contradiction": ("pegs(2). colours(2). guess(1,1,0). guess(1,2,1). black(1,0). white(1,0).", UNSAT),
    # several steps together
    "two steps": ("pegs(3). colours(3). guess(1,1,0). guess(1,2,1). guess(1,3,2). black(1,1). white(1,2). "
                  "guess(2,1,0). guess(2,2,2). guess(2,3,1). black(2,3). white(2,0).", {"021"}),
    "two steps no-repeat contradiction": ("pegs(3). colours(3). max_repeat(1). guess(1,1,0). guess(1,2,1). "
                                          "guess(1,3,2). black(1,0). white(1,2).", UNSAT),
}


def grounded(facts: str, models: int) -> Control:
    """The shipped encoding with these facts, every step grounded and active."""
    ctl = Control([f"--models={models}", "--heuristic=Domain"], logger=lambda code, message: None)
    ctl.load(str(encoding_path("mastermind.lp")))
    ctl.add("base", [], facts)
    steps = sorted({int(t) for t in re.findall(r"black\((\d+),", facts)})
    ctl.ground([("base", [])] + [("step", [Number(t)]) for t in steps])
    for t in steps:
        ctl.assign_external(Function("active", [Number(t)]), True)
    return ctl


def models(facts: str, lexicographic: bool = False) -> list[str]:
    """The secrets of the shipped encoding with these facts, in the order found."""
    ctl = grounded(facts, 0)
    found = []

    def on_model(model):
        pegs = sorted((s.arguments[0].number, s.arguments[1].number) for s in model.symbols(shown=True))
        found.append("".join(str(c) for _, c in pegs))

    ctl.solve(on_model=on_model, assumptions=[(Function("lexicographic"), lexicographic)])
    return found


@pytest.mark.parametrize("name", CASES)
def test_exact_models(name):
    facts, expected = CASES[name]
    found = models(facts)
    assert len(found) == len(set(found)), "every secret is one model"
    assert set(found) == expected


def test_every_feature_has_sat_and_unsat_cases():
    features = ["space", "no-repeat", "max-repeat", "black", "white"]
    for feature in features:
        outcomes = {bool(expected) for name, (_, expected) in CASES.items() if name.startswith(feature)}
        assert outcomes == {True, False}, feature


def test_retracted_step_no_longer_constrains():
    """A step whose active(t) is false (a popped guess) excludes nothing."""
    ctl = Control(["--models=0"], logger=lambda code, message: None)
    ctl.load(str(encoding_path("mastermind.lp")))
    ctl.add("base", [], "pegs(2). colours(2). guess(1,1,0). guess(1,2,0). black(1,2). white(1,0).")
    ctl.ground([("base", []), ("step", [Number(1)])])
    assert ctl.solve(on_model=lambda m: None).satisfiable  # active(1) defaults to false
    counted = []
    ctl.solve(on_model=lambda m: counted.append(1), assumptions=[(Function("lexicographic"), False)])
    assert len(counted) == 4
    ctl.assign_external(Function("active", [Number(1)]), True)
    counted.clear()
    ctl.solve(on_model=lambda m: counted.append(1), assumptions=[(Function("lexicographic"), False)])
    assert len(counted) == 1


@pytest.mark.parametrize("facts, smallest", [
    ("pegs(3). colours(3).", "000"),
    ("pegs(3). colours(3). max_repeat(1).", "012"),
    ("pegs(3). colours(3). guess(1,1,0). guess(1,2,1). guess(1,3,2). black(1,0). white(1,2).", "100"),
])
def test_lexicographic_search_finds_the_smallest_first(facts, smallest):
    ctl = grounded(facts, 1)
    found = []
    ctl.solve(on_model=lambda m: found.append(sorted((s.arguments[0].number, s.arguments[1].number)
                                                     for s in m.symbols(shown=True))),
              assumptions=[(Function("lexicographic"), True)])
    assert "".join(str(c) for _, c in found[0]) == smallest
    assert smallest == min(models(facts))
