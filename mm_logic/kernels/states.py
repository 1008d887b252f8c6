"""Compiled kernel (numba) of :mod:`mm_logic.lies`: the weighted parts of many guesses over the states."""

from __future__ import annotations

import numba as nb
import numpy as np

from .numba_cache import CACHE


@nb.njit(cache=CACHE, nogil=True)
def weighted_parts(marks, stays, moved, slots):  # pragma: no cover - compiled
    """Per guess (row of ``marks``, feedback indices against each state's code) and feedback index: the
    weights ``stays`` of the states that get it, and the weights ``moved`` of the same states."""
    guesses, m = marks.shape
    true_parts = np.zeros((guesses, slots), dtype=np.int64)
    liars = np.zeros((guesses, slots), dtype=np.int64)
    for g in range(guesses):
        for i in range(m):
            f = marks[g, i]
            true_parts[g, f] += stays[i]
            liars[g, f] += moved[i]
    return true_parts, liars
