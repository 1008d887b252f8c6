"""Compiled kernels (numba) of the optimal search's transposition table: the sets of codes already solved.

A set is keyed by two hashes (the xor of per-code random words, :func:`set_key`),
a salt mixed into the second for the depth left or the feasibility search;
buckets of :data:`WAYS` entries keep a set's exact cost (and best guess) or a
lower bound, and a full bucket drops its smallest set, the cheapest to search
again (:func:`tt_store`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..numba_cache import CACHE

#: Ways of the transposition table's buckets.
WAYS = 4


@nb.njit(cache=CACHE, nogil=True)
def set_key(S, z1, z2, salt):
    """The two hashes of a set of codes (xor of per-code random words), ``salt`` mixed into the second."""
    k1 = np.uint64(1)  # never (0, 0): that marks an empty entry
    k2 = salt
    for j in range(S.shape[0]):
        k1 ^= z1[S[j]]
        k2 ^= z2[S[j]]
    return k1 | np.uint64(1), k2


@nb.njit(cache=CACHE, nogil=True)
def tt_find(tt, k1, k2):
    """The entry of a key, or -1."""
    keys = tt[0]
    base = np.int64((k1 >> np.uint64(1)) % np.uint64(keys.shape[0] // WAYS)) * WAYS
    for w in range(WAYS):
        i = base + w
        if keys[i, 0] == k1 and keys[i, 1] == k2:
            return i
    return -1


@nb.njit(cache=CACHE, nogil=True)
def tt_store(tt, k1, k2, value, guess, size, exact):
    """Record a set's exact cost (and best guess) or a lower bound, replacing its smallest neighbour when full."""
    keys, values, guesses, sizes, exacts = tt
    base = np.int64((k1 >> np.uint64(1)) % np.uint64(keys.shape[0] // WAYS)) * WAYS
    target = -1
    for w in range(WAYS):
        i = base + w
        if keys[i, 0] == k1 and keys[i, 1] == k2:
            if exacts[i] and not exact:
                return  # an exact cost is never replaced by a bound
            if not exact and values[i] >= value:
                return
            target = i
            break
    if target < 0:
        for w in range(WAYS):
            i = base + w
            if keys[i, 0] == 0 and keys[i, 1] == 0:
                target = i
                break
    if target < 0:
        # Full: the smallest set is the cheapest to search again.
        target = base
        for w in range(1, WAYS):
            if sizes[base + w] < sizes[target]:
                target = base + w
    keys[target, 0] = k1
    keys[target, 1] = k2
    values[target] = value
    guesses[target] = guess
    sizes[target] = size
    exacts[target] = exact


@nb.njit(cache=CACHE, nogil=True)
def probe(S, salt, z1, z2, tt):
    """``(found, exact, value, guess)`` of a set's entry in the transposition table."""
    k1, k2 = set_key(S, z1, z2, salt)
    entry = tt_find(tt, k1, k2)
    if entry < 0:
        return False, False, 0, -1
    return True, tt[4][entry], tt[1][entry], np.int64(tt[2][entry])
