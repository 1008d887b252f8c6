"""The edited CLP(FD) encoding in ``examples/``, played through the swipl engine.

``examples/no_adjacent.pl`` forbids one colour on two neighbouring pegs. The
expected codes are computed independently: the reference engine's codes
filtered by a Python predicate.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mm_logic.engines.reference import ReferenceEngine
from mm_logic.engines.swipl import SwiplEngine
from mm_logic.feedback import feedback
from mm_logic.game import play
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy

NO_ADJACENT = Path(__file__).resolve().parents[2] / "examples" / "no_adjacent.pl"


def no_adjacent(codes: np.ndarray) -> np.ndarray:
    """The codes (rows) in which no two neighbouring pegs share a colour."""
    return codes[(codes[:, 1:] != codes[:, :-1]).all(axis=1)]


def expected(rules: Rules, history) -> np.ndarray:
    return no_adjacent(ReferenceEngine(rules).enumerate(history))


@pytest.mark.parametrize("rules, size", [
    (Rules(4, 6), 6 * 5 * 5 * 5),
    (Rules(3, 2), 2),
    (Rules(5, 3), 3 * 2**4),
    (Rules(4, 6, 2), 6 * 5 * 5 * 5),  # no neighbours alike: at most 2 of a colour anyway
    (Rules(4, 6, 1), 6 * 5 * 4 * 3),
])
def test_code_space(rules, size):
    engine = SwiplEngine(rules, encoding=NO_ADJACENT)
    assert engine.count([]) == size
    assert np.array_equal(engine.enumerate([]), expected(rules, []))


def test_knuths_first_answer():
    engine = SwiplEngine(Rules(4, 6), encoding=NO_ADJACENT)
    history = [((0, 0, 1, 1), (1, 0))]
    codes = engine.enumerate(history)
    assert len(codes) == 168 and engine.count(history) == 168
    assert engine.first(history) == (0, 2, 3, 2)
    assert np.array_equal(codes, expected(Rules(4, 6), history))


def test_a_code_with_neighbours_alike_is_no_answer():
    engine = SwiplEngine(Rules(4, 6), encoding=NO_ADJACENT)
    # 0011 is only consistent with itself, and it is not a code of this variant.
    assert engine.first([((0, 0, 1, 1), (4, 0))]) is None
    assert engine.enumerate([((0, 1, 0, 1), (4, 0))]).tolist() == [[0, 1, 0, 1]]


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_agrees_with_the_filtered_reference(data):
    pegs = data.draw(st.integers(3, 5))
    colors = data.draw(st.integers(2, 6))
    rules = Rules(pegs, colors)
    secret = tuple(data.draw(st.lists(st.integers(0, colors - 1), min_size=pegs, max_size=pegs)))
    guesses = data.draw(st.lists(st.lists(st.integers(0, colors - 1), min_size=pegs, max_size=pegs),
                                 min_size=1, max_size=3))
    history = [(tuple(g), feedback(tuple(g), secret)) for g in guesses]
    with SwiplEngine(rules, encoding=NO_ADJACENT).session(history) as session:
        want = expected(rules, history)
        assert np.array_equal(session.enumerate(), want)
        assert session.count() == len(want)
        assert session.first() == (tuple(int(c) for c in want[0]) if len(want) else None)


def test_plays_a_game_to_the_secret():
    rules = Rules(4, 6)
    secret = (3, 1, 4, 1)
    engine = SwiplEngine(rules, encoding=NO_ADJACENT)
    record = play(engine, make_strategy("first", rules, first_guess=(0, 1, 0, 1)), secret)
    # The same game, guessing the smallest code of the filtered reference set.
    history, guess = [], (0, 1, 0, 1)
    while guess != secret:
        history.append((guess, feedback(guess, secret)))
        guess = tuple(int(c) for c in expected(rules, history)[0])
    assert record.guesses == history + [(secret, (4, 0))]
    assert [g for g, _ in record.guesses] == [(0, 1, 0, 1), (0, 1, 2, 3), (0, 2, 0, 2),
                                              (3, 1, 3, 1), (3, 1, 4, 1)]


def test_shipped_and_variant_side_by_side():
    rules = Rules(4, 6)
    history = [((0, 1, 2, 3), (0, 2))]
    shipped, variant = SwiplEngine(rules), SwiplEngine(rules, encoding=NO_ADJACENT)
    assert shipped.count(history) == 312
    assert variant.count(history) == len(expected(rules, history)) == 190
    assert shipped.count(history) == 312  # the variant did not replace the shipped module


def test_next_from_the_command_line_counts_the_encodings_codes(run_json):
    # With no history too: 6 * 5 * 5 * 5 codes, not the rules' 1296.
    size = len(expected(Rules(4, 6), []))
    assert run_json("next", "--backend", "swipl", "--encoding", NO_ADJACENT, "--strategy", "first") == {
        "guess": "0101", "consistent": size}
    assert size == 750


def test_bench_every_secret_plays_the_encodings_own_codes(run_json):
    # The same 750 codes without two equal neighbours, and the same games, as the clingo example.
    swipl, clingo = (run_json("bench", "--backend", backend, "--encoding", NO_ADJACENT.with_suffix(suffix),
                              "--strategy", "first", "--all")
                     for backend, suffix in (("swipl", ".pl"), ("clingo", ".lp")))
    assert swipl["games"] == clingo["games"] == 750 and swipl["histogram"] == clingo["histogram"]
