"""The duplicate rule: scalar, vectorised and table forms agree, with its laws."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mm_logic.codespace import code_space
from mm_logic.feedback import feedback, feedback_index, gives, index_feedback
from mm_logic.rules import Rules

from generators import brute_feedback, code_for, small_rules


def test_known_values():
    assert feedback((0, 0, 1, 1), (0, 1, 2, 3)) == (1, 1)
    assert feedback((0, 0, 0, 1), (1, 0, 0, 0)) == (2, 2)
    assert feedback((1, 1, 2, 2), (1, 1, 2, 2)) == (4, 0)
    assert feedback((0, 0, 0, 0), (0, 1, 1, 1)) == (1, 0)  # duplicates in the guess score once
    assert feedback((1, 2, 3, 4), (4, 3, 2, 1)) == (0, 4)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_laws(data):
    rules = data.draw(small_rules(max_pegs=6, max_colors=8))
    a, b = data.draw(code_for(rules)), data.draw(code_for(rules))
    black, white = feedback(a, b)
    assert feedback(b, a) == (black, white)  # symmetric
    assert black + white <= rules.pegs
    assert (black, white) != (rules.pegs - 1, 1)
    assert (black, white) == brute_feedback(a, b)
    assert index_feedback(feedback_index((black, white), rules.pegs), rules.pegs) == (black, white)
    # gives(), the check engines' answers go through, agrees with the rule
    other = (black, white + 1) if black + white < rules.pegs else (black - 1, white)
    assert gives(a, Counter(a), b, Counter(b), (black, white)) is True
    assert gives(a, Counter(a), b, Counter(b), other) is False


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_vectorised_and_table_match_scalar(data):
    rules = data.draw(small_rules(max_pegs=4, max_colors=5))
    space = code_space(rules)
    guess = data.draw(code_for(rules))
    expected = [feedback_index(feedback(guess, space.code(i)), rules.pegs) for i in range(space.size)]
    assert space.feedback_to_all(guess).tolist() == expected
    row = space.index_of([guess])[0]
    assert space.table[row].tolist() == expected


def test_space_sizes_and_order():
    assert Rules(4, 6).size == 1296
    assert Rules(4, 10, 1).size == 5040
    assert Rules(5, 8, 2).size == 28560
    assert Rules(6, 3, 2).size == 90
    space = code_space(Rules(3, 3, 1))
    assert [space.code(i) for i in range(space.size)] == list(itertools.permutations(range(3)))
    assert np.array_equal(space.index_of(space.codes), np.arange(space.size))


def test_many_pegs_do_not_overflow_the_index():
    # 16 pegs: (pegs+1)**2 = 289 > 255, where an index black*(pegs+1)+white would wrap in uint8. (24 pegs, 2**24
    # codes listed, took 10 s of the suite for the same wrap.)
    from math import comb

    from mm_logic.engines.reference import ReferenceEngine
    guess = (0,) * 8 + (1,) * 8
    # 12 black, 0 white: flip 4 of the 8 ones to zeros, or 4 of the 8 zeros to ones.
    assert ReferenceEngine(Rules(16, 2)).count([(guess, (12, 0))]) == 2 * comb(8, 4)
    assert index_feedback(feedback_index((16, 0), 16), 16) == (16, 0)
    assert index_feedback(feedback_index((8, 7), 16), 16) == (8, 7)
