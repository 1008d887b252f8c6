"""The reference engine beyond the agreement suite: push/pop, conflicts, its size limit."""

from __future__ import annotations

import pytest

from mm_logic.engines.reference import ReferenceEngine
from mm_logic.rules import Rules
from mm_logic.support.errors import SpaceTooLarge


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
