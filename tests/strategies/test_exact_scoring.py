"""Scoring every code as a guess, on the fly: the same picks as the feedback table, and the published totals.

The scoring strategies rank candidates in a compiled kernel that drops a
candidate as soon as it cannot win, stops at lower bounds, and scores one
code per orbit of the history's symmetries (``mm_logic.kernels.scoring``,
``mm_logic.symmetry``). None of that may change a pick: on random histories
of small spaces, each strategy must pick what ranking every code from the
feedback table picks (``table_guess``: lowest rank, then consistent, then
smallest). Knuth and Kooi rank by integers, so their totals over every secret
are exact and must equal the published ones (mikemag/Mastermind's results,
all codes as guesses, GPU-verified); Irving and Neuwirth are exact here too
(integer sums of squares, fixed-point entropy), where float-ranked solvers
may break near-ties differently and differ by a few guesses.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mm_logic.codespace import code_space
from mm_logic.engines.reference import ReferenceEngine
from mm_logic.feedback import feedback, feedback_index, feedback_indices
from mm_logic.kernels.scoring import group_bound
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy
from mm_logic.strategies.scoring import table_guess
from mm_logic.studies.bench import bench_all
from mm_logic.symmetry import orbit_representatives

from conftest import SCORERS

#: Small spaces: packed words and the plain loop, the three repetition rules, few and many colours.
SPACES = [Rules(4, 6), Rules(3, 5), Rules(4, 4), Rules(5, 3), Rules(4, 6, 1), Rules(4, 5, 2), Rules(3, 9),
          Rules(2, 12), Rules(6, 2), Rules(2, 17), Rules(9, 2), Rules(2, 25, 1), Rules(7, 4, 2)]


def random_history(space, rng, guesses: int):
    """A history scored by a random secret, and the indices of the codes consistent with it."""
    alive = np.arange(space.size)
    history = []
    secret = space.code(rng.integers(space.size))
    for _ in range(guesses):
        guess = space.code(rng.integers(space.size))
        fb = feedback(guess, secret)
        history.append((guess, fb))
        alive = alive[feedback_indices(guess, space.codes[alive], space.counts[alive])
                      == feedback_index(fb, space.rules.pegs)]
    return history, alive.astype(np.int64)


@pytest.mark.parametrize("rules", SPACES, ids=str)
def test_the_kernel_picks_what_the_feedback_table_picks(rules):
    space = code_space(rules)
    rng = np.random.default_rng(rules.size)
    strategies = [make_strategy(name, rules) for name in SCORERS]
    for _ in range(12):
        history, alive = random_history(space, rng, int(rng.integers(0, 4)))
        for strategy in strategies:
            assert strategy.best(space, history, alive) == table_guess(strategy, alive), (strategy.name, history)


@pytest.mark.parametrize("rules", [Rules(3, 4), Rules(3, 3, 1), Rules(2, 5)], ids=str)
def test_every_orbits_smallest_code_is_a_candidate(rules):
    # The group of every colour and position permutation that maps the consistent set onto itself,
    # found by brute force: its orbits' smallest codes must all be kept (keeping more is allowed).
    space = code_space(rules)
    rng = np.random.default_rng(5)
    moves = [(sigma, pi) for sigma in itertools.permutations(range(rules.pegs))
             for pi in itertools.permutations(range(rules.colors))]
    for _ in range(20):
        history, alive = random_history(space, rng, int(rng.integers(0, 3)))
        consistent = {space.code(i) for i in alive}
        group = [(s, p) for s, p in moves if {tuple(p[x[s[q]]] for q in range(rules.pegs)) for x in consistent}
                 == consistent]
        smallest = {i for i in range(space.size)
                    if all(tuple(p[space.code(i)[s[q]]] for q in range(rules.pegs)) >= space.code(i)
                           for s, p in group)}
        assert smallest <= set(orbit_representatives(space, history, alive).tolist()), history


@pytest.mark.parametrize("name", SCORERS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_no_guess_beats_the_bound_of_the_colour_groups(name, data):
    # Any set of codes, consistent with something or not: every guess ranks at least the bound.
    rules = Rules(4, 4)
    space = code_space(rules)
    chosen = data.draw(st.sets(st.integers(0, space.size - 1), min_size=1, max_size=40))
    alive = np.array(sorted(chosen), dtype=np.int64)
    strategy = make_strategy(name, rules)
    strategy._tables(space, alive.size)
    bound = group_bound(space.codes, space.multisets, alive, strategy._mode, strategy._values, strategy.rounding)
    block = space.table[:, alive]
    counts = np.stack([np.bincount(row, minlength=strategy.slots) for row in block])
    assert strategy.cost(counts).min() >= bound


@pytest.mark.parametrize("name", ["expected", "entropy", "parts"])
@settings(max_examples=200, deadline=None)
@given(final=st.lists(st.integers(0, 60), min_size=14, max_size=14), data=st.data())
def test_codes_not_yet_counted_add_at_least_the_rest_bound(name, final, data):
    # A candidate is dropped when its partial rank plus rest[r] reaches the best: never too early.
    partial = [data.draw(st.integers(0, size)) for size in final]
    strategy = make_strategy(name, Rules(4, 6))
    sizes = np.arange(sum(final) + 1)
    rest = strategy.rest_bound(sizes, strategy.part(sizes))
    left = sum(final) - sum(partial)
    ranks = strategy.cost(np.array([final, partial], dtype=np.int64))
    assert ranks[0] >= ranks[1] + rest[left]


def test_packed_feedback_is_the_feedback_rule():
    for rules in (Rules(5, 8), Rules(4, 16), Rules(8, 4), Rules(3, 9, 1)):
        space = code_space(rules)
        rng = np.random.default_rng(1)
        secrets = rng.choice(space.size, 500)
        for i in rng.choice(space.size, 20):
            guess = space.code(i)
            expected = feedback_indices(guess, space.codes[secrets], space.counts[secrets])
            assert space.feedback_to(guess, secrets).tolist() == expected.tolist()


def test_classical_totals_of_4x6_with_each_strategys_own_opening():
    # Knuth 5801, Irving 5696, Neuwirth 5722 (opening 0123, mean 4.415), Kooi 5668.
    rules = Rules(4, 6)
    found = {name: bench_all(ReferenceEngine(rules), make_strategy(name, rules)) for name in SCORERS}
    assert {name: (r.total_guesses, r.max) for name, r in found.items()} == {
        "minimax": (5801, 5), "expected": (5696, 6), "entropy": (5722, 6), "parts": (5668, 6)}


@pytest.mark.parametrize("pegs, colors, name, opening, total, maximum", [
    # mikemag/Mastermind's published totals (its openings, colours counted from 0 here).
    (4, 10, "minimax", (0, 1, 2, 3), 58103, 7),
    (4, 10, "parts", (0, 1, 2, 3), 57320, 8),
    (5, 6, "minimax", (0, 0, 1, 1, 2), 37925, 6),
    (6, 5, "parts", (0, 0, 0, 1, 1, 2), 74698, 7),
    (8, 3, "minimax", (0, 0, 0, 1, 1, 1, 2, 2), 29615, 6),
])
def test_published_totals_every_code_a_guess(pegs, colors, name, opening, total, maximum):
    rules = Rules(pegs, colors)
    result = bench_all(ReferenceEngine(rules), make_strategy(name, rules, first_guess=opening))
    assert (result.total_guesses, result.max) == (total, maximum)


@pytest.mark.parametrize("name, total, maximum", [("minimax", 183775, 7), ("parts", 181834, 8)])
def test_published_totals_of_5x8_opening_00112(name, total, maximum):
    # Knuth 5.6084 and Most Parts 5.5491 guesses per game over the 32 768 secrets (2 s each here).
    rules = Rules(5, 8)
    result = bench_all(ReferenceEngine(rules), make_strategy(name, rules, first_guess=(0, 0, 1, 1, 2)))
    assert (result.total_guesses, result.max) == (total, maximum)
