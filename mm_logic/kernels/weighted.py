"""Compiled kernel (numba) of the weighted scorers: the best guess when a part's value depends on its feedback.

:func:`mm_logic.kernels.scoring.best_guess` values a part by its size alone.
A weighted entropy (:class:`mm_logic.strategies.weighted.WeightedEntropy`)
values it by its size *and* its feedback: ``values[f, s]`` is the value of
``s`` codes in the kernel's feedback slot ``f = black * (pegs + 1) + common``.
:func:`best_weighted_guess` is the same search as ``best_guess`` in its sum
mode: the consistent codes first, then the inconsistent codes of the pool, the
orbits' smallest codes only, each candidate scored on the fly from packed codes
and dropped as soon as its partial rank shows it cannot win; the lowest rank
wins, ties going to the earlier candidate (consistent, then smallest). It is a
separate kernel so that the size-only scorers keep their one-dimensional table.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .numba_cache import CACHE
from .orbits import _compare_canonical, _is_representative
from .packed import _packed_feedback, _plain_feedback, pack
from .scoring import NO_RANK
from .scoring_rank import CHUNK as _CHUNK
from .scoring_rank import consistent_codes


@nb.njit(cache=CACHE)
def best_weighted_guess(codes, words, count_words, counts, alive, pool, pool_canonical, packed, values, rest,
                        sigmas, pis, block_of, block_colors, block_start):
    """The contract's best guess against the consistent codes ``alive`` (sorted code indices), standard rule.

    The rank of a guess is the sum over its parts of ``values[f, s]`` (``f``: the
    part's slot, ``black * (pegs + 1) + common``; ``s``: its size; ``values[f, 0]``
    is 0), accumulated as ``values[f, s + 1] - values[f, s]`` per code; ``r``
    codes not yet counted add at least ``rest[r]``. The consistent codes are
    scored first, then the inconsistent codes of ``pool`` (sorted code indices;
    ``pool_canonical``: all are smallest under the free colour blocks already).
    ``sigmas``, ``pis`` and ``block_*``: the symmetries
    (:class:`mm_logic.symmetry.Symmetries`), under which every rank is invariant
    (they keep feedbacks, hence slots).

    Returns ``(index, rank, candidates scored, feedbacks computed)``.
    """
    pegs = codes.shape[1]
    m = alive.shape[0]
    slots = values.shape[0]
    counter = np.zeros(slots, dtype=np.int64)
    out = np.empty(_CHUNK, dtype=np.int64)
    s_words, s_counts0, s_counts1, s_codes, s_counts = consistent_codes(codes, words, count_words, counts, alive,
                                                                        packed)
    steps = np.empty((slots, m + 1), dtype=np.int64)
    for f in range(slots):
        for s in range(m):
            steps[f, s] = values[f, s + 1] - values[f, s]
    colours = counts.shape[1]
    rename = np.zeros(colours, dtype=np.int64)
    stamp = np.zeros(colours, dtype=np.int64)
    used = np.zeros(block_start.shape[0], dtype=np.int64)
    symmetric = sigmas.shape[0] > 0 or block_start.shape[0] > 0
    guess = np.empty(pegs, dtype=np.int64)
    gcol = np.empty(pegs, dtype=np.int64)
    gcnt = np.empty(pegs, dtype=np.int64)
    tick = 0
    best, best_index = NO_RANK, -1
    scored = 0
    pairs = 0
    cursor = 0
    for phase in range(2):
        total = m if phase == 0 else pool.shape[0]
        for k in range(total):
            i = alive[k] if phase == 0 else np.int64(pool[k])
            if phase == 1:
                while cursor < m and alive[cursor] < i:
                    cursor += 1
                if cursor < m and alive[cursor] == i:
                    continue  # consistent: scored already
            if symmetric:
                if phase == 1 and pool_canonical:
                    ok = True
                    for h in range(sigmas.shape[0]):
                        tick += 1
                        if _compare_canonical(codes[i], sigmas[h], pis[h], True, block_of, block_colors,
                                              block_start, rename, stamp, tick, used) < 0:
                            ok = False
                            break
                else:
                    ok, tick = _is_representative(codes[i], sigmas, pis, block_of, block_colors, block_start,
                                                  rename, stamp, tick, used)
                if not ok:
                    continue
            scored += 1
            gw = np.uint64(0)
            g0 = np.uint64(0)
            g1 = np.uint64(0)
            ncol = 0
            if packed:
                gw = words[i]
                g0 = count_words[i, 0]
                g1 = count_words[i, 1]
            else:
                for p in range(pegs):
                    guess[p] = codes[i, p]
                for c in range(colours):
                    if counts[i, c] > 0:
                        gcol[ncol] = c
                        gcnt[ncol] = counts[i, c]
                        ncol += 1
            counter[:] = 0
            rank = 0
            dropped = False
            for start in range(0, m, _CHUNK):
                stop = min(m, start + _CHUNK)
                if packed:
                    _packed_feedback(out, gw, g0, g1, s_words, s_counts0, s_counts1, start, stop, pegs)
                else:
                    _plain_feedback(out, guess, gcol, gcnt, ncol, s_codes, s_counts, start, stop)
                pairs += stop - start
                left = m - start  # codes not yet counted
                for j in range(stop - start):
                    f = out[j]
                    size = counter[f]
                    counter[f] = size + 1
                    rank += steps[f, size]
                    left -= 1
                    if rank + rest[left] >= best:
                        dropped = True
                        break
                if dropped:
                    break
            if not dropped and rank < best:
                best, best_index = rank, i
    return best_index, best, scored, pairs


def warm_up() -> None:
    """Call the kernel on tiny arrays, so that numba compiles it or loads it from its cache (before any game's
    clock): the group ``"weighted"`` of :func:`mm_logic.kernels.warming.warm`, once per process."""
    codes = np.array([[0, 1], [1, 0]], dtype=np.uint8)
    counts = np.array([[1, 1], [1, 1]], dtype=np.uint8)
    words, count_words = pack(codes, counts)
    alive = np.arange(2, dtype=np.int64)
    none = np.zeros((0, 2), dtype=np.int64)
    blocks = (np.full(2, -1, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    values = np.zeros((9, 3), dtype=np.int64)
    rest = np.zeros(3, dtype=np.int64)
    for packed in (True, False):
        best_weighted_guess(codes, words, count_words, counts, alive, alive.astype(np.int32), True, packed, values,
                            rest, none, none, *blocks)
