"""Compiled kernels (numba) that score candidate guesses by the partition they make of a sample.

:func:`partition_entropies` scores given candidates; :func:`climb` improves
one guess a peg at a time while its sample entropy grows. The sample is
consistent codes drawn by :mod:`mm_logic.kernels.sample`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .numba_cache import CACHE
from .sample import _black_common, colour_counts


@nb.njit(cache=CACHE)
def _entropy(parts, total):
    # Entropy in bits of a partition given by its part sizes.
    e = 0.0
    for v in parts:
        if v > 0:
            f = v / total
            e -= f * np.log2(f)
    return e


@nb.njit(cache=CACHE)
def partition_entropies(candidates, sample, colors):
    """Entropy (bits) of the partition of ``sample`` by each candidate's feedback, and how
    many sample rows equal each candidate."""
    n, pegs = candidates.shape
    m = sample.shape[0]
    cc = colour_counts(candidates, colors)
    sc = colour_counts(sample, colors)
    out = np.empty(n, np.float64)
    wins = np.zeros(n, np.int64)
    parts = np.zeros((pegs + 1) * (pegs + 1), np.int64)
    for r in range(n):
        parts[:] = 0
        for s in range(m):
            black, common = _black_common(candidates[r], sample[s], cc[r], sc[s])
            parts[black * (pegs + 1) + common] += 1
            wins[r] += black == pegs
        out[r] = _entropy(parts, m)
    return out, wins


@nb.njit(cache=CACHE)
def climb(guess, sample, colors, limit, rounds):
    """``guess`` improved one peg at a time on the entropy of its partition of ``sample``.

    Each round tries every peg with every other colour (never above ``limit``
    of a colour) and keeps the best change; it stops when no change raises the
    entropy, or after ``rounds`` rounds. Returns (guess, entropy).
    """
    pegs = guess.shape[0]
    m = sample.shape[0]
    g = guess.copy()
    sc = colour_counts(sample, colors)
    gc = np.zeros(colors, np.int64)
    for p in range(pegs):
        gc[g[p]] += 1
    black = np.zeros(m, np.int64)
    common = np.zeros(m, np.int64)
    parts = np.zeros((pegs + 1) * (pegs + 1), np.int64)
    for s in range(m):
        for p in range(pegs):
            black[s] += g[p] == sample[s, p]
        for c in range(colors):
            common[s] += min(gc[c], sc[s, c])
        parts[black[s] * (pegs + 1) + common[s]] += 1
    best = _entropy(parts, m)
    for _ in range(rounds):
        best_p, best_a, best_e = -1, -1, best + 1e-9
        for p in range(pegs):
            old = g[p]
            for a in range(colors):
                if a == old or gc[a] + 1 > limit:
                    continue
                parts[:] = 0
                for s in range(m):
                    b = black[s] - (sample[s, p] == old) + (sample[s, p] == a)
                    # The guess loses one ``old`` and gains one ``a``.
                    c = common[s] - (sc[s, old] >= gc[old]) + (sc[s, a] > gc[a])
                    parts[b * (pegs + 1) + c] += 1
                e = _entropy(parts, m)
                if e > best_e:
                    best_p, best_a, best_e = p, a, e
        if best_p < 0:
            break
        p, a, old = best_p, best_a, g[best_p]
        for s in range(m):
            black[s] += (sample[s, p] == a) - (sample[s, p] == old)
            common[s] += (sc[s, a] > gc[a]) - (sc[s, old] >= gc[old])
        gc[old] -= 1
        gc[a] += 1
        g[p] = a
        best = best_e
    return g, best
