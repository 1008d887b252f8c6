"""Compiled kernels (numba) of the symmetries: is a code the smallest of its orbit?

The symmetries are those of a consistent set that :mod:`mm_logic.symmetry`
finds: colours permuted freely within blocks, and pairs ``(sigma, pi)`` acting
as ``y[p] = pi[x[sigma[p]]]``. A code is its orbit's representative when none
of them maps it to a smaller code (:func:`representatives`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .numba_cache import CACHE


@nb.njit(cache=CACHE)
def _compare_canonical(x, sigma, pi, moved, block_of, block_colors, block_start, rename, stamp, tick, used):
    """Sign of canon(h·x) - x in lexicographic order: -1, 0 or 1.

    ``h·x`` is ``x`` itself when ``moved`` is False, else ``pi[x[sigma[p]]]``;
    canon renames the colours of each block in order of first appearance to the
    block's colours in increasing order (the smallest code of its block orbit).
    """
    pegs = x.shape[0]
    for b in range(used.shape[0]):
        used[b] = 0
    for p in range(pegs):
        c = np.int64(x[sigma[p]]) if moved else np.int64(x[p])
        if moved:
            c = pi[c]
        b = block_of[c]
        if b >= 0:
            if stamp[c] != tick:
                stamp[c] = tick
                rename[c] = block_colors[block_start[b] + used[b]]
                used[b] += 1
            c = rename[c]
        xp = np.int64(x[p])
        if c < xp:
            return -1
        if c > xp:
            return 1
    return 0


@nb.njit(cache=CACHE)
def _is_representative(x, sigmas, pis, block_of, block_colors, block_start, rename, stamp, tick, used):
    """Whether no symmetry maps ``x`` to a smaller code; returns it and the last stamp used."""
    tick += 1
    if _compare_canonical(x, block_of, block_of, False, block_of, block_colors, block_start,
                          rename, stamp, tick, used) < 0:
        return False, tick
    for h in range(sigmas.shape[0]):
        tick += 1
        if _compare_canonical(x, sigmas[h], pis[h], True, block_of, block_colors, block_start,
                              rename, stamp, tick, used) < 0:
            return False, tick
    return True, tick

@nb.njit(cache=CACHE)
def representatives(codes, sigmas, pis, block_of, block_colors, block_start):
    """Mask of the codes that no symmetry maps to a smaller code (the orbits' smallest codes)."""
    n = codes.shape[0]
    mask = np.zeros(n, dtype=np.bool_)
    colours = block_of.shape[0]
    rename = np.zeros(colours, dtype=np.int64)
    stamp = np.zeros(colours, dtype=np.int64)
    used = np.zeros(block_start.shape[0], dtype=np.int64)
    tick = 0
    for i in range(n):
        mask[i], tick = _is_representative(codes[i], sigmas, pis, block_of, block_colors, block_start,
                                           rename, stamp, tick, used)
    return mask
