"""The classical scores: one formula each, and sound lower bounds (the kernel's picks: test_exact_scoring.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mm_logic.feedback import feedback_slots
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy
from mm_logic.strategies.scoring import ENTROPY_BITS
from mm_logic.symmetry import canonical_openings

from conftest import SCORERS

RULES = Rules(4, 6)


def scorer(name: str):
    return make_strategy(name, RULES)


@pytest.mark.parametrize("name, expected", [
    ("minimax", 3),                                         # the largest part
    ("expected", 3 * 3 + 1 + 1),                            # Σ size²
    ("entropy", round(3 * math.log2(3) * 2**ENTROPY_BITS)),  # Σ size·log2 size, fixed point
    ("parts", -3),                                          # minus the number of parts
])
def test_the_rank_of_a_partition_3_1_1(name, expected):
    counts = np.zeros((1, feedback_slots(4)), dtype=np.int64)
    counts[0, [0, 5, 9]] = [3, 1, 1]
    assert scorer(name).cost(counts).tolist() == [expected]


@pytest.mark.parametrize("name", SCORERS)
@settings(max_examples=200, deadline=None)
@given(sizes=st.lists(st.integers(0, 40), min_size=feedback_slots(4) - 1, max_size=feedback_slots(4) - 1))
def test_no_partition_beats_the_lower_bound(name, sizes):
    counts = np.array([sizes + [0]], dtype=np.int64)  # the slot (3,1) never occurs
    strategy = scorer(name)
    assert strategy.lower_bound(sum(sizes)) <= int(strategy.cost(counts)[0])


@pytest.mark.parametrize("name", SCORERS)
@given(sizes=st.lists(st.integers(1, 30), min_size=2, max_size=8), order=st.randoms())
def test_equal_partitions_tie_exactly_whatever_the_order_of_their_parts(name, sizes, order):
    shuffled = list(sizes)
    order.shuffle(shuffled)
    counts = np.array([sizes, shuffled], dtype=np.int64)
    first, second = scorer(name).cost(counts).tolist()
    assert first == second


def test_canonical_openings_of_4_pegs():
    assert canonical_openings(Rules(4, 6)) == [(0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 1, 1), (0, 0, 1, 2), (0, 1, 2, 3)]
    assert canonical_openings(Rules(4, 10, 1)) == [(0, 1, 2, 3)]
    assert canonical_openings(Rules(4, 3)) == [(0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 1, 1), (0, 0, 1, 2)]
