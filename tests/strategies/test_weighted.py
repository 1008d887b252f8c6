"""Gür's weighted entropy (arXiv:2511.19446): the paper's 4x6 totals, each pick against a brute-force scorer.

The brute force here is the author's program restated: the shares ``p_i`` of
the consistent codes in each feedback, the score ``-Σ w_i p_i log2 p_i`` in
floating point for every code, the highest score winning, a consistent code
first, then the smallest. It knows nothing of the kernel, its fixed point,
its pruning or the symmetries.
"""

from __future__ import annotations

import numpy as np
import pytest

from mm_logic.codespace import code_space
from mm_logic.engines import make_engine
from mm_logic.engines.reference import ReferenceEngine
from mm_logic.feedback import feedback, feedback_indices, index_feedback
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy
from mm_logic.strategies.weighted import FEEDBACKS, FIXED_WEIGHTS, STAGE_OPENING, STAGE_WEIGHTS
from mm_logic.studies.bench import bench_all

from conftest import PY, one_line_error

NAMES = ["weighted-entropy", "weighted-entropy-stages"]


def brute_weights(name: str, turn: int) -> dict:
    """The weight of each (black, white) for the guess of number ``turn``, as the paper's file lists them."""
    vector = FIXED_WEIGHTS if name == "weighted-entropy" else STAGE_WEIGHTS[min(max(turn, 2), 6) - 2]
    return dict(zip(FEEDBACKS, vector))


def brute_pick(table: np.ndarray, pegs: int, alive: np.ndarray, weights: dict) -> int:
    """Index of the guess of highest weighted entropy on the consistent codes ``alive`` (a mask)."""
    m = int(alive.sum())
    if m == 1:
        return int(np.flatnonzero(alive)[0])
    scores = np.zeros(table.shape[0])
    for guess in range(table.shape[0]):
        slots, sizes = np.unique(table[guess, alive], return_counts=True)
        for slot, size in zip(slots, sizes):
            p = size / m
            scores[guess] -= weights[index_feedback(slot, pegs)] * p * np.log2(p)
    top = np.abs(scores - scores.max()) < 1e-9
    return int(np.flatnonzero(top & alive)[0] if (top & alive).any() else np.flatnonzero(top)[0])


def feedback_table(rules: Rules) -> np.ndarray:
    space = code_space(rules)
    return np.stack([feedback_indices(space.code(i), space.codes, space.counts) for i in range(space.size)])


@pytest.mark.parametrize("name, histogram", [
    # The paper: 4.3565 guesses on average, at most 5 (fixed); 4.3488, at most 6 (per turn).
    ("weighted-entropy", {1: 1, 2: 8, 3: 83, 4: 640, 5: 564}),
    ("weighted-entropy-stages", {1: 1, 2: 8, 3: 93, 4: 636, 5: 552, 6: 6}),
])
def test_the_papers_totals_of_4x6(name, histogram):
    rules = Rules(4, 6)
    result = bench_all(ReferenceEngine(rules), make_strategy(name, rules))
    assert dict(result.histogram) == histogram
    assert (result.total_guesses, result.max) == ({"weighted-entropy": 5646}.get(name, 5636), max(histogram))
    assert round(result.total_guesses / 1296, 4) == {"weighted-entropy": 4.3565}.get(name, 4.3488)


@pytest.mark.parametrize("rules", [Rules(4, 4), Rules(4, 5, 1)], ids=str)
@pytest.mark.parametrize("name", NAMES)
def test_every_game_plays_the_brute_force_picks(name, rules):
    # 4x5 without repetition has no 0012: the stage strategy scores its opening with turn 2's weights.
    space = code_space(rules)
    table = feedback_table(rules)
    engine = ReferenceEngine(rules)
    strategy = make_strategy(name, rules)
    for secret in range(space.size):
        alive = np.ones(space.size, dtype=bool)
        history = []
        while True:
            turn = len(history) + 1
            session = engine.session(history)
            played = strategy.opening(session) if not history else strategy.choose(session)
            if turn == 1 and name == "weighted-entropy-stages" and not rules.restricted:
                expected = STAGE_OPENING
            else:
                expected = space.code(brute_pick(table, rules.pegs, alive, brute_weights(name, turn)))
            assert played == expected, (space.code(secret), history)
            if played == space.code(secret):
                break
            fb = feedback(played, space.code(secret))
            history.append((played, fb))
            row = int(np.flatnonzero((space.codes == played).all(axis=1))[0])
            alive &= table[row] == table[row, secret]
            assert turn < 8


@pytest.mark.parametrize("name", NAMES)
def test_picks_after_random_histories_of_4x6(name):
    rules = Rules(4, 6)
    space = code_space(rules)
    table = feedback_table(rules)
    engine = ReferenceEngine(rules)
    strategy = make_strategy(name, rules)
    rng = np.random.default_rng(38)
    for _ in range(12):
        secret = int(rng.integers(space.size))
        alive = np.ones(space.size, dtype=bool)
        history = []
        for _ in range(int(rng.integers(1, 4))):
            guess = int(rng.integers(space.size))
            history.append((space.code(guess), feedback(space.code(guess), space.code(secret))))
            alive &= table[guess] == table[guess, secret]
        expected = brute_pick(table, 4, alive, brute_weights(name, len(history) + 1))
        assert strategy.choose(engine.session(history)) == space.code(expected), history


def test_the_fixed_opening_is_the_best_scored_code():
    rules = Rules(4, 6)
    table = feedback_table(rules)
    expected = brute_pick(table, 4, np.ones(1296, dtype=bool), brute_weights("weighted-entropy", 1))
    assert make_strategy("weighted-entropy", rules).opening(ReferenceEngine(rules).session()) == \
        code_space(rules).code(expected) == (0, 0, 1, 2)


@pytest.mark.parametrize("name", NAMES)
def test_clingo_plays_the_same_games(name):
    rules = Rules(4, 6)
    ours = bench_all(ReferenceEngine(rules), make_strategy(name, rules))
    clingo = bench_all(make_engine("clingo", rules), make_strategy(name, rules))
    assert clingo.by_secret() == ours.by_secret()
    assert clingo.total_guesses == ours.total_guesses == {"weighted-entropy": 5646}.get(name, 5636)


@pytest.mark.parametrize("args, message", [
    (["--pegs", 5, "--colors", 3], "--strategy weighted-entropy weighs the feedbacks of 4 pegs only (its published "
                                   "weights); 5x3 has 5: use --strategy entropy"),
    (["--feedback", "black"], "--strategy weighted-entropy plays the standard feedback rule only; with --feedback "
                              "black use --strategy first, any, random, any-random-opening, minimax, expected, "
                              "entropy, parts or sample-entropy"),
])
def test_other_games_are_refused_in_one_line(run, args, message):
    one_line_error(run("bench", *PY, "--strategy", "weighted-entropy", *args, "--all"), 2, message, stdout="")
