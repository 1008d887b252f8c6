"""The reference engine against a brute-force filter, and conflict finding."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mm_logic.engines.reference import ReferenceEngine
from mm_logic.errors import SpaceTooLarge
from mm_logic.feedback import feedback
from mm_logic.rules import Rules

from conftest import history_for, small_rules


def brute_force(rules, history):
    return [code for code in itertools.product(range(rules.colors), repeat=rules.pegs)
            if max(code.count(c) for c in code) <= rules.repeat_limit
            and all(feedback(g, code) == fb for g, fb in history)]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_consistent_set_equals_brute_force(data):
    rules = data.draw(small_rules())
    history = data.draw(history_for(rules))
    engine = ReferenceEngine(rules)
    expected = brute_force(rules, history)
    with engine.session(history) as session:
        assert [tuple(c) for c in session.enumerate().tolist()] == expected
        assert session.count() == len(expected)
        assert session.first() == (expected[0] if expected else None)
        assert [tuple(c) for c in session.enumerate(limit=3).tolist()] == expected[:3]


def test_push_pop_restores():
    engine = ReferenceEngine(Rules())
    with engine.session() as s:
        s.push((0, 0, 1, 1), (1, 0))
        assert s.count() == 256
        s.push((2, 3, 4, 5), (0, 2))
        assert s.count() == 60
        assert s.pop() == ((2, 3, 4, 5), (0, 2))
        assert s.count() == 256


def test_conflict_is_a_smallest_subset():
    engine = ReferenceEngine(Rules())
    history = [((0, 1, 2, 3), (0, 0)), ((4, 4, 5, 5), (0, 0)), ((0, 0, 1, 1), (1, 0))]
    # Entries 1 and 2 together exclude every colour; no single entry is impossible.
    assert engine.conflict(history) == (0, 1)
    assert "entries 1, 2 (0123:0,0 4455:0,0) contradict each other" in str(engine.no_solution(history))


def test_space_too_large_names_clingo():
    with pytest.raises(SpaceTooLarge, match="use --backend clingo"):
        ReferenceEngine(Rules(10, 10))
