"""The optimal search's vector scoring (mm_logic/kernels/optimal/small_sets.py, middling_sets.py) against numpy,
written apart.

Every code's score as a guess of a random set, the guesses picked below a cut, and the least score
of the others (and of every guess, the bound one guess ahead), on games of each feedback rule and of
15, 21 and fewer feedbacks, in each width of integers the search uses; the search itself is checked
against an exhaustive one in test_optimal.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from mm_logic.codespace import code_space
from mm_logic.kernels.optimal.middling_sets import LARGE, LEFT_OUT, tally_scores
from mm_logic.kernels.optimal.small_sets import least_score, seen_scores
from mm_logic.rules import Rules

GAMES = [Rules(4, 6), Rules(4, 7), Rules(5, 4), Rules(3, 5), Rules(4, 6, feedback="black")]


def tallies(table: np.ndarray, S: np.ndarray) -> np.ndarray:
    """``counts[f, g]``: the codes of S that give the guess g the feedback f."""
    counts = np.zeros((int(table[0, 0]) + 1, table.shape[0]), dtype=np.int64)
    for s in S:
        np.add.at(counts, (table[s], np.arange(table.shape[0])), 1)
    return counts


def sets_in_each_width(table: np.ndarray, seed: int, sizes: tuple[int, ...]):
    """``(width, S)``: random sets of codes of each size (at most every code), for each width of integers
    that holds a bit for each feedback."""
    win, size = int(table[0, 0]), table.shape[0]
    rng = np.random.default_rng(seed)
    for width in (np.int16, np.int32, np.int64):
        if win >= np.dtype(width).itemsize * 8:
            continue
        for n in sizes:
            yield width, np.sort(rng.choice(size, min(n, size), replace=False)).astype(np.int32)


def expected(scores: np.ndarray, cut: int, left_out: int) -> tuple[list[int], int]:
    """The guesses below the cut (a left-out guess never is) and the least score of the others, -1 for none."""
    limit = min(cut, left_out)
    rest = scores[(scores >= limit) & (scores < left_out)]
    return np.flatnonzero(scores < limit).tolist(), int(rest.min()) if rest.size else -1


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: f"{r.pegs}x{r.colors}-{r.feedback}")
def test_the_feedbacks_each_guess_gets_score_it_as_numpy_does(rules):
    table = np.ascontiguousarray(code_space(rules).table)
    win, size = int(table[0, 0]), table.shape[0]
    for width, S in sets_in_each_width(table, 7, (1, 2, 5, 20, 31)):
        left_out = (1 << (min(np.dtype(width).itemsize * 8, 32) - 1)) - 1
        n = S.size
        counts = tallies(table, S)
        won, parts = counts[win], (counts[:win] > 0).sum(axis=0)
        for skip_won in (False, True):
            left = ((parts == 1) & (won == 0)) | ((won > 0) & skip_won)
            want = np.where(left, left_out, 3 * n - 2 * won - parts)
            for cut in (2 * n + 3, 3 * n - 4, 1 << 30):
                scores, picked = np.zeros(size, dtype=width), np.zeros(size, dtype=np.int64)
                m, least = seen_scores(S, table, win, skip_won, cut, scores, picked)
                assert scores.tolist() == want.tolist()
                assert (picked[:m].tolist(), least) == expected(want, cut, left_out)


@pytest.mark.parametrize("rules", GAMES + [Rules(4, 10)], ids=lambda r: f"{r.pegs}x{r.colors}-{r.feedback}")
def test_the_least_score_of_every_guess_is_numpys(rules):
    table = np.ascontiguousarray(code_space(rules).table)
    win = int(table[0, 0])
    for width, S in sets_in_each_width(table, 11, (1, 2, 3, 9, 20, 64, 200)):
        counts = tallies(table, S)
        won, parts = counts[win], (counts[:win] > 0).sum(axis=0)
        scores = np.where((parts == 1) & (won == 0), 1 << 40, 3 * S.size - 2 * won - parts)
        want = int(scores.min())  # the code of S that wins, at worst, never leaves S whole
        assert least_score(S, table, win, np.zeros(1, dtype=width)) == want


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: f"{r.pegs}x{r.colors}-{r.feedback}")
def test_the_parts_counted_in_bytes_score_each_guess_as_numpy_does(rules):
    table = np.ascontiguousarray(code_space(rules).table)
    win, size = int(table[0, 0]), table.shape[0]
    rng = np.random.default_rng(11)
    for n in (1, 3, 17, 100, 255):
        S = np.sort(rng.choice(size, min(n, size), replace=False)).astype(np.int32)
        n = S.size
        counts = tallies(table, S)
        won, parts = counts[win], (counts[:win] > 0).sum(axis=0)
        for plain in (3, 14, 300):
            large = (counts[:win] > plain).any(axis=0)
            for skip_won in (False, True):
                want = np.where(large, LARGE, 3 * n - 2 * won - parts)
                want = np.where(((parts == 1) & (won == 0)) | ((won > 0) & skip_won), LEFT_OUT, want)
                for cut in (2 * n + 3, 1 << 30):
                    got = np.zeros((24, size), dtype=np.uint8)
                    scores, picked = np.zeros(size, dtype=np.int16), np.zeros(size, dtype=np.int64)
                    m, least = tally_scores(S, table, win, plain, skip_won, cut, got, scores, picked)
                    assert got[:win + 1].tolist() == counts.tolist()
                    assert scores.tolist() == want.tolist()
                    assert (picked[:m].tolist(), least) == expected(want, cut, LEFT_OUT)
