"""The sample kernels (mm_logic.kernels.sample) against feedback() and the reference engine."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mm_logic.engines.reference import ReferenceEngine
from mm_logic.feedback import feedback
from mm_logic.kernels.entropies import climb, partition_entropies
from mm_logic.kernels.sample import (
    codes_with_counts,
    colour_counts,
    consistent_rows,
    count_vectors,
    feedback_distance,
    metropolis,
    repair,
)
from mm_logic.rules import Rules

from generators import code_for, entry_for, rows, small_rules

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- plain-Python references ----------------------------------------------------------------
def arrays(history):
    """(guesses, blacks, commons) of a history, as the kernels take them."""
    pegs = len(history[0][0])
    guesses = np.asarray([g for g, _ in history], dtype=np.int64).reshape(len(history), pegs)
    blacks = np.asarray([fb[0] for _, fb in history], dtype=np.int64)
    commons = np.asarray([fb[0] + fb[1] for _, fb in history], dtype=np.int64)
    return guesses, blacks, commons


def plain_consistent(code, history, limit) -> bool:
    code = tuple(int(c) for c in code)
    return max(Counter(code).values()) <= limit and all(feedback(g, code) == fb for g, fb in history)


def plain_entropy(guess, sample) -> float:
    guess = tuple(int(c) for c in guess)
    parts = Counter(feedback(guess, tuple(int(c) for c in s)) for s in sample)
    total = len(sample)
    return -sum(n / total * math.log2(n / total) for n in parts.values())


def brute_vectors(history, pegs, colors, limit) -> set[tuple[int, ...]]:
    """Colour-count vectors summing to ``pegs``, each count <= limit, sharing black+white with each guess."""
    wanted = [(Counter(g), fb[0] + fb[1]) for g, fb in history]
    found = set()
    for n in itertools.product(range(limit + 1), repeat=colors):
        if sum(n) == pegs and all(sum(min(k, n[c]) for c, k in cg.items()) == common for cg, common in wanted):
            found.add(n)
    return found


def reference_set(rules, history) -> set[tuple[int, ...]]:
    return {tuple(int(c) for c in row) for row in ReferenceEngine(rules).enumerate(history)}


def exact(rules, history, vector_cap=100_000, out_rows=None, node_cap=10**8):
    """The kernels' enumeration: (codes, complete), after count_vectors (which must not overflow)."""
    guesses, blacks, commons = arrays(history)
    vectors, total = count_vectors(colour_counts(guesses, rules.colors), commons, rules.pegs, rules.colors,
                                   rules.repeat_limit, vector_cap)
    assert total == len(vectors) <= vector_cap
    out = np.empty((rules.size + 1 if out_rows is None else out_rows, rules.pegs), np.int64)
    got, complete = codes_with_counts(guesses, blacks, vectors, rules.colors, out, node_cap)
    return out[:got], complete


@st.composite
def scored_game(draw, min_len=1, max_len=4, max_pegs=5, max_colors=6, perturb=False):
    """Rules (2-5 pegs, every repetition rule), a secret, and guesses with the secret's feedback."""
    rules = draw(small_rules(min_pegs=2, max_pegs=max_pegs, max_colors=max_colors))
    secret = draw(code_for(rules))
    history = draw(st.lists(entry_for(rules, secret, perturb), min_size=min_len, max_size=max_len))
    return rules, secret, history


# -- exact enumeration -----------------------------------------------------------------------
@SETTINGS
@given(game=scored_game())
def test_count_vectors_and_codes_with_counts_list_exactly_the_consistent_set(game):
    rules, secret, history = game
    codes, complete = exact(rules, history)
    expected = reference_set(rules, history)
    assert complete
    assert len(codes) == len(expected)  # no code twice
    assert set(rows(codes)) == expected
    assert secret in expected


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=scored_game(max_pegs=4, max_colors=5, perturb=None))
def test_the_enumeration_is_exact_on_changed_feedback_too(game):
    # Some entries' feedback changed: the set may be empty, and must still be the reference's.
    rules, _, history = game
    codes, complete = exact(rules, history)
    assert complete
    assert sorted(rows(codes)) == sorted(reference_set(rules, history))


@SETTINGS
@given(game=scored_game(max_pegs=4, max_colors=5, min_len=0, max_len=3))
def test_count_vectors_lists_the_colour_count_vectors_of_the_history(game):
    rules, _, history = game
    if history:
        guesses, _, commons = arrays(history)
    else:
        guesses, commons = np.zeros((0, rules.pegs), np.int64), np.zeros(0, np.int64)
    expected = brute_vectors(history, rules.pegs, rules.colors, rules.repeat_limit)
    vectors, total = count_vectors(colour_counts(guesses, rules.colors), commons, rules.pegs, rules.colors,
                                   rules.repeat_limit, 1000)
    assert total == len(expected) == len(vectors)
    assert set(rows(vectors)) == expected


@pytest.mark.parametrize("history", [
    [],
    [((0, 1, 2, 3), (1, 1))],
    [((0, 0, 1, 1), (0, 2)), ((2, 3, 4, 5), (1, 0))],
])
def test_count_vectors_stops_one_past_the_cap(history):
    rules = Rules(4, 6)
    if history:
        guesses, _, commons = arrays(history)
    else:
        guesses, commons = np.zeros((0, 4), np.int64), np.zeros(0, np.int64)
    cg = colour_counts(guesses, 6)
    expected = brute_vectors(history, 4, 6, rules.repeat_limit)
    n = len(expected)
    assert n >= 3
    if not history:
        assert n == math.comb(4 + 6 - 1, 6 - 1)  # 126 ways to share 4 pegs among 6 colours
    for cap in (1, n // 2, n - 1):
        vectors, total = count_vectors(cg, commons, 4, 6, rules.repeat_limit, cap)
        assert (len(vectors), total) == (cap, cap + 1)
        assert len(set(rows(vectors))) == cap and set(rows(vectors)) <= expected
    for cap in (n, n + 1, 10 * n):
        vectors, total = count_vectors(cg, commons, 4, 6, rules.repeat_limit, cap)
        assert total == n and set(rows(vectors)) == expected and len(vectors) == n


def test_count_vectors_respects_the_repetition_limit():
    # No history: vectors of 0/1 counts (no repetition) or counts <= 2.
    empty, none = np.zeros((0, 6), np.int64), np.zeros(0, np.int64)
    _, total = count_vectors(empty, none, 4, 6, 1, 1000)
    assert total == math.comb(6, 4)
    vectors, total = count_vectors(empty, none, 4, 6, 2, 1000)
    assert total == len(brute_vectors([], 4, 6, 2)) == 90 and vectors.max() == 2


HISTORY = [((0, 0, 1, 1), (1, 1)), ((2, 3, 4, 0), (0, 2))]


def test_codes_with_counts_says_when_the_set_did_not_fit():
    rules = Rules(4, 6)
    expected = reference_set(rules, HISTORY)
    n = len(expected)
    assert n > 5
    codes, complete = exact(rules, HISTORY, out_rows=n)
    assert complete and len(codes) == n and set(rows(codes)) == expected
    codes, complete = exact(rules, HISTORY, out_rows=n + 7)
    assert complete and len(codes) == n and set(rows(codes)) == expected
    for short in (0, 1, n - 1):
        codes, complete = exact(rules, HISTORY, out_rows=short)
        assert not complete and len(codes) == short
        assert len(set(rows(codes))) == short and set(rows(codes)) <= expected


def test_codes_with_counts_says_when_the_node_budget_ran_out():
    rules = Rules(4, 6)
    n = len(reference_set(rules, HISTORY))
    for node_cap in (0, 1, 3):
        codes, complete = exact(rules, HISTORY, node_cap=node_cap)
        assert not complete and set(rows(codes)) <= reference_set(rules, HISTORY)
    codes, complete = exact(rules, HISTORY, node_cap=10**6)
    assert complete and len(codes) == n


def test_codes_with_counts_of_no_vectors_is_complete_and_empty():
    guesses, blacks, _ = arrays(HISTORY)
    out = np.empty((10, 4), np.int64)
    assert codes_with_counts(guesses, blacks, np.zeros((0, 6), np.int64), 6, out, 1000) == (0, True)


# -- consistency check -----------------------------------------------------------------------
@SETTINGS
@given(game=scored_game(perturb=None), data=st.data())
def test_consistent_rows_agrees_with_feedback(game, data):
    rules, _, history = game
    free = Rules(rules.pegs, rules.colors)  # codes that may break the repetition rule too
    drawn = data.draw(st.lists(code_for(free), min_size=1, max_size=40))
    codes = drawn + sorted(reference_set(rules, history))[:40]
    guesses, blacks, commons = arrays(history)
    got = consistent_rows(np.asarray(codes, np.int64), guesses, blacks, commons, rules.colors,
                          rules.repeat_limit)
    assert got.tolist() == [plain_consistent(code, history, rules.repeat_limit) for code in codes]


def test_consistent_rows_checks_the_repetition_limit_without_history():
    codes = np.asarray([(0, 1, 2), (0, 0, 1), (2, 2, 2)], np.int64)
    empty = np.zeros((0, 3), np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)
    assert consistent_rows(codes, *empty, 3, 1).tolist() == [True, False, False]
    assert consistent_rows(codes, *empty, 3, 2).tolist() == [True, True, False]
    assert consistent_rows(codes, *empty, 3, 3).tolist() == [True, True, True]


# -- the Metropolis walk ---------------------------------------------------------------------
@SETTINGS
@given(game=scored_game(max_len=3), data=st.data(), want=st.integers(1, 60), thin=st.integers(1, 10),
       seed=st.integers(0, 2**31 - 1))
def test_metropolis_returns_consistent_codes_reproducibly(game, data, want, thin, seed):
    rules, secret, history = game
    guesses, blacks, commons = arrays(history)
    # A consistent start (the secret) or any valid code (mostly inconsistent).
    start = secret if data.draw(st.booleans()) else data.draw(code_for(rules))
    start = np.asarray(start, np.int64)
    kept = start.copy()
    args = (guesses, blacks, commons, rules.colors, rules.repeat_limit, want, thin, 3000, 2.0, seed)
    codes, steps, beta, nearest = metropolis(start, *args)
    assert (start == kept).all()  # the start is not changed
    assert len(codes) <= want and steps <= 3000
    assert len(codes) == want or steps == 3000
    # Records are at least ``thin`` steps apart (the first may come at step 1).
    assert not len(codes) or steps >= 1 + (len(codes) - 1) * thin
    assert all(plain_consistent(code, history, rules.repeat_limit) for code in codes)
    again, steps_again, beta_again, nearest_again = metropolis(start, *args)
    assert np.array_equal(codes, again) and (steps, beta) == (steps_again, beta_again)
    assert np.array_equal(nearest, nearest_again)
    # The nearest code met is no farther than the start, and consistent once a code was recorded.
    off = feedback_distance(np.stack([start, nearest]), guesses, blacks, commons, rules.colors)
    assert off[1] <= off[0]
    if len(codes):
        assert off[1] == 0


SMALL = Rules(4, 3)
SMALL_HISTORY = [((0, 0, 0, 0), (1, 0)), ((1, 1, 2, 2), (1, 2))]


@pytest.mark.parametrize("start", [(0, 2, 1, 2), (2, 2, 2, 2)])
def test_metropolis_meets_every_code_of_a_small_set(start):
    expected = reference_set(SMALL, SMALL_HISTORY)
    assert len(expected) >= 6
    consistent = plain_consistent(start, SMALL_HISTORY, SMALL.repeat_limit)
    assert consistent == (start == (0, 2, 1, 2))  # one consistent start, one inconsistent
    guesses, blacks, commons = arrays(SMALL_HISTORY)
    codes, steps, _, _ = metropolis(np.asarray(start, np.int64), guesses, blacks, commons, 3, 4, 3000, 2,
                                    100_000, 2.0, 7)
    assert len(codes) == 3000 and 1 + 2999 * 2 <= steps < 100_000
    assert set(rows(codes)) == expected
    assert all(plain_consistent(code, SMALL_HISTORY, 4) for code in codes)


def test_metropolis_meets_every_code_without_repetition():
    rules = Rules(4, 5, max_repeat=1)
    history = [((0, 1, 2, 3), (1, 2))]
    expected = reference_set(rules, history)
    assert len(expected) >= 20
    guesses, blacks, commons = arrays(history)
    codes, _, _, _ = metropolis(np.asarray((4, 3, 2, 1), np.int64), guesses, blacks, commons, 5, 1, 4000, 3,
                                200_000, 2.0, 11)
    assert len(codes) == 4000 and set(rows(codes)) == expected


def test_metropolis_different_seeds_walk_differently():
    guesses, blacks, commons = arrays(SMALL_HISTORY)
    start = np.asarray((0, 2, 1, 2), np.int64)
    walks = [metropolis(start, guesses, blacks, commons, 3, 4, 50, 1, 10_000, 2.0, seed)[0] for seed in (1, 2)]
    assert not np.array_equal(*walks)


def test_metropolis_from_a_start_above_the_limit_returns_only_codes_within_it():
    rules = Rules(4, 6, max_repeat=1)
    secret = (0, 1, 2, 3)
    history = [(g, feedback(g, secret)) for g in [(0, 0, 4, 4), (1, 5, 0, 2)]]
    start = (0, 1, 1, 5)  # gets the history's feedbacks but repeats colour 1
    assert all(feedback(g, start) == fb for g, fb in history)
    guesses, blacks, commons = arrays(history)
    codes, _, _, _ = metropolis(np.asarray(start, np.int64), guesses, blacks, commons, 6, 1, 200, 1, 100_000,
                                2.0, 1)
    assert len(codes) == 200
    assert all(plain_consistent(code, history, rules.repeat_limit) for code in codes)


def test_metropolis_from_a_consistent_start_keeps_it_as_nearest():
    guesses, blacks, commons = arrays(SMALL_HISTORY)
    start = np.asarray((0, 2, 1, 2), np.int64)  # consistent: nothing is nearer
    _, _, _, nearest = metropolis(start, guesses, blacks, commons, 3, 4, 50, 1, 10_000, 2.0, 3)
    assert nearest.tolist() == [0, 2, 1, 2]


# -- focused repair --------------------------------------------------------------------------
@SETTINGS
@given(game=scored_game(), data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_repair_finds_a_consistent_code_of_a_small_game(game, data, seed):
    rules, secret, history = game
    guesses, blacks, commons = arrays(history)
    start = np.asarray(data.draw(code_for(rules)), np.int64)
    kept = start.copy()
    args = (guesses, blacks, commons, rules.colors, rules.repeat_limit, 20_000, 0.02, seed)
    code, energy = repair(start, *args)
    assert (start == kept).all()
    assert energy == 0 and plain_consistent(code, history, rules.repeat_limit)
    again, energy_again = repair(start, *args)
    assert again.tolist() == code.tolist() and energy_again == 0


def test_repair_of_an_impossible_history_returns_its_nearest_miss():
    # No 0 in the secret, yet two black pegs from a guess with one peg that is not 0.
    history = [((0, 0, 0, 0), (0, 0)), ((0, 0, 0, 1), (2, 0))]
    guesses, blacks, commons = arrays(history)
    code, energy = repair(np.asarray((3, 3, 3, 3), np.int64), guesses, blacks, commons, 4, 4, 2_000, 0.02, 1)
    assert energy == feedback_distance(code[None, :], guesses, blacks, commons, 4)[0]
    # The least energy of all 256 codes is 2, and repair reaches it.
    assert energy == 2
    assert all(feedback_distance(np.asarray([c], np.int64), guesses, blacks, commons, 4)[0] >= 2
               for c in itertools.product(range(4), repeat=4))


def test_repair_keeps_the_repetition_limit():
    rules = Rules(5, 6, max_repeat=1)
    secret = (4, 0, 5, 2, 1)
    history = [(g, feedback(g, secret)) for g in [(0, 1, 2, 3, 4), (5, 4, 3, 2, 1), (1, 1, 0, 0, 5)]]
    guesses, blacks, commons = arrays(history)
    for seed in range(20):
        # A start that repeats colours: each peg too many counts as energy until repaired.
        code, energy = repair(np.asarray((3, 3, 3, 0, 0), np.int64), guesses, blacks, commons, rules.colors,
                              rules.repeat_limit, 20_000, 0.02, seed)
        assert energy == 0 and plain_consistent(code, history, rules.repeat_limit)


# -- scoring ---------------------------------------------------------------------------------
@SETTINGS
@given(rules=small_rules(min_pegs=2), data=st.data())
def test_partition_entropies_are_the_entropy_of_the_feedback_partition(rules, data):
    sample = data.draw(st.lists(code_for(rules), min_size=1, max_size=40))
    others = data.draw(st.lists(code_for(Rules(rules.pegs, rules.colors)), max_size=10))
    candidates = others + data.draw(st.lists(st.sampled_from(sample), min_size=1, max_size=5))
    entropy, wins = partition_entropies(np.asarray(candidates, np.int64), np.asarray(sample, np.int64), rules.colors)
    assert entropy.tolist() == pytest.approx([plain_entropy(c, sample) for c in candidates], abs=1e-12)
    assert wins.tolist() == [sample.count(c) for c in candidates]


def test_partition_entropies_of_a_known_partition():
    # Against 00, 01, 10, 11 guess 01 gets (1,0), (2,0), (0,2), (1,0): parts 2, 1, 1 -> 1.5 bits.
    sample = np.asarray([(0, 0), (0, 1), (1, 0), (1, 1)], np.int64)
    entropy, wins = partition_entropies(np.asarray([(0, 1), (0, 0), (2, 2)], np.int64), sample, 3)
    assert entropy.tolist() == pytest.approx([1.5, 1.5, 0.0], abs=1e-12)
    assert wins.tolist() == [1, 1, 0]


def single_peg_changes(guess, colors, limit):
    counts = Counter(guess)
    for p, old in enumerate(guess):
        for a in range(colors):
            if a != old and counts[a] + 1 <= limit:
                yield guess[:p] + (a,) + guess[p + 1:]


@SETTINGS
@given(rules=small_rules(min_pegs=2), data=st.data(), rounds=st.integers(0, 6))
def test_climb_returns_its_guess_entropy_and_never_loses(rules, data, rounds):
    sample = data.draw(st.lists(code_for(rules), min_size=1, max_size=40))
    start = data.draw(code_for(rules))
    start_array = np.asarray(start, np.int64)
    guess, entropy = climb(start_array, np.asarray(sample, np.int64), rules.colors, rules.repeat_limit, rounds)
    guess = tuple(int(c) for c in guess)
    assert tuple(start_array) == start  # the start is not changed
    assert entropy == pytest.approx(plain_entropy(guess, sample), abs=1e-9)
    assert entropy >= plain_entropy(start, sample) - 1e-9
    assert max(Counter(guess).values()) <= rules.repeat_limit
    # Each round changes one peg at most.
    assert sum(a != b for a, b in zip(guess, start)) <= rounds
    if rounds == 0:
        assert guess == start
        assert entropy == pytest.approx(plain_entropy(start, sample), abs=1e-9)


@SETTINGS
@given(rules=small_rules(min_pegs=2), data=st.data())
def test_climb_ends_where_no_single_peg_change_helps(rules, data):
    sample = data.draw(st.lists(code_for(rules), min_size=2, max_size=40))
    start = data.draw(code_for(rules))
    guess, entropy = climb(np.asarray(start, np.int64), np.asarray(sample, np.int64), rules.colors,
                           rules.repeat_limit, 10_000)
    guess = tuple(int(c) for c in guess)
    for other in single_peg_changes(guess, rules.colors, rules.repeat_limit):
        assert plain_entropy(other, sample) <= entropy + 1e-6


def test_climb_on_a_known_sample():
    # Sample 00, 01, 10, 11 (colours 0-2): 22 splits nothing (0 bits); every other guess makes
    # parts 2, 1, 1 (1.5 bits, the most). One round from 22 changes one peg: 02, 12, 20 or 21;
    # more rounds find nothing better and keep it.
    sample = np.asarray([(0, 0), (0, 1), (1, 0), (1, 1)], np.int64)
    for code in itertools.product(range(3), repeat=2):
        assert plain_entropy(code, sample) == pytest.approx(0.0 if code == (2, 2) else 1.5)
    one, entropy = climb(np.asarray((2, 2), np.int64), sample, 3, 2, 1)
    assert entropy == pytest.approx(1.5) and tuple(one.tolist()) in {(0, 2), (1, 2), (2, 0), (2, 1)}
    more, entropy = climb(np.asarray((2, 2), np.int64), sample, 3, 2, 5)
    assert entropy == pytest.approx(1.5) and more.tolist() == one.tolist()
    # Without repetition (limit 1) the start 22 breaks the rule; one change leaves it all the same.
    guess, entropy = climb(np.asarray((2, 2), np.int64), sample, 3, 1, 5)
    assert entropy == pytest.approx(1.5) and tuple(guess.tolist()) in {(0, 2), (1, 2), (2, 0), (2, 1)}
