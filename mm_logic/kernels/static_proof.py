"""Compiled kernels (numba) of the exhaustive static proof (:mod:`mm_logic.static.proof`).

A partition of the codes is kept as the codes of its classes of two codes or more (a code alone is
told apart already): ``order[starts[c]:starts[c + 1]]`` is class ``c``, the classes by size, the
largest first, so that a bound on the size of a class is checked on a prefix and fails early.
A guess refines a class by its answers (``table[g, s]``, the feedback table of the game's rule):
the codes of one answer stay together.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .numba_cache import CACHE


@nb.njit(cache=CACHE, nogil=True)
def fits(answers, order, starts, classes, bound, counts):  # pragma: no cover - compiled
    """Whether the guess of ``answers`` (its row of the table) leaves no part of a class larger than
    ``bound``: only the classes larger than ``bound`` are read, each until a part overflows."""
    for c in range(classes):
        a, b = starts[c], starts[c + 1]
        if b - a <= bound:
            return True
        stop, overflow = b, False
        for i in range(a, b):
            f = answers[order[i]]
            counts[f] += 1
            if counts[f] > bound:
                stop, overflow = i + 1, True
                break
        for i in range(a, stop):
            counts[answers[order[i]]] = 0
        if overflow:
            return False
    return True


@nb.njit(cache=CACHE, nogil=True)
def refine(answers, order, starts, classes, out_order, out_starts, counts, sizes, spare):  # pragma: no cover
    """The classes of two codes or more that the guess of ``answers`` leaves, the largest first, in
    ``out_order`` / ``out_starts``; returns their number. ``counts`` (zeros, one per answer),
    ``sizes`` (zeros, one more than the codes) and ``spare`` (as long as ``order``) are scratch."""
    top = counts.shape[0]
    # codes grouped by (class, answer) into spare; the new classes' starts and sizes in out_starts
    made = 0
    put = 0
    new_start = np.empty(order.shape[0] // 2 + 1, dtype=np.int64)
    new_size = np.empty(order.shape[0] // 2 + 1, dtype=np.int64)
    offsets = np.empty(top, dtype=np.int64)
    for c in range(classes):
        a, b = starts[c], starts[c + 1]
        for i in range(a, b):
            counts[answers[order[i]]] += 1
        # offsets of the answers that two codes or more share
        for f in range(top):
            if counts[f] >= 2:
                offsets[f] = put
                new_start[made] = put
                new_size[made] = counts[f]
                made += 1
                put += counts[f]
            else:
                offsets[f] = -1
        for i in range(a, b):
            s = order[i]
            f = answers[s]
            if offsets[f] >= 0:
                spare[offsets[f]] = s
                offsets[f] += 1
        for f in range(top):
            counts[f] = 0
    # the classes by size, largest first (a counting sort on the sizes)
    largest = 0
    for c in range(made):
        sizes[new_size[c]] += 1
        largest = max(largest, new_size[c])
    at = 0
    for size in range(largest, 1, -1):
        n = sizes[size]
        sizes[size] = at
        at += n
    rank = np.empty(made, dtype=np.int64)
    for c in range(made):
        rank[c] = sizes[new_size[c]]
        sizes[new_size[c]] += 1
    for size in range(largest + 1):
        sizes[size] = 0
    placed = np.empty(made, dtype=np.int64)
    for c in range(made):
        placed[rank[c]] = c
    at = 0
    for r in range(made):
        c = placed[r]
        out_starts[r] = at
        for i in range(new_size[c]):
            out_order[at + i] = spare[new_start[c] + i]
        at += new_size[c]
    out_starts[made] = at
    return made


#: :func:`search`'s outcomes: no set in the branch (the proof), a set found, the budget of nodes spent.
NONE, FOUND, PAUSED = 0, 1, 2


@nb.njit(cache=CACHE, nogil=True)
def search(table, allowed, canon, depth, bounds, orders, starts, classes, pos, state, found, counts, sizes,
           spare, counters, budget):  # pragma: no cover - compiled
    """Every ``depth`` guesses of ``allowed`` (increasing positions), the first one with ``canon[g] == g``
    and the others with ``canon[g] >= `` the first, tried until one set's answers, with the partition
    ``orders[0]``/``starts[0]``/``classes[0]`` (what the guesses fixed before leave alike), tell every
    code apart: :data:`FOUND` (the set in ``found[:state[1]]``), or :data:`NONE` when no set does (the
    proof), or :data:`PAUSED` after ``budget`` guesses tried: called again, it goes on where it was.

    ``bounds[j]`` is the most classes that j guesses can make of every code: a class larger than that,
    with j guesses left, prunes the branch. The search's state: ``orders``, ``starts`` (``depth + 1``
    rows), ``classes``, ``pos`` (``depth``, -1 at the start) and ``state[0]`` (the depth, 0 at the
    start); ``counts`` (zeros, one per answer), ``sizes`` and ``spare`` are scratch; ``counters``:
    guesses tried at each depth (added to).
    """
    m = allowed.shape[0]
    if classes[0] == 0:  # told apart already
        state[1] = 0
        return FOUND
    d = state[0]
    spent = 0
    while d >= 0:
        if spent >= budget:
            state[0] = d
            return PAUSED
        pos[d] += 1
        if pos[d] > m - (depth - d):
            d -= 1
            continue
        g = allowed[pos[d]]
        if d == 0:
            if canon[g] != g:
                continue
        elif canon[g] < allowed[pos[0]]:
            continue
        counters[d] += 1
        spent += 1
        left = depth - d - 1
        row = table[g]
        if not fits(row, orders[d], starts[d], classes[d], bounds[left], counts):
            continue
        made = 0
        if left > 0:
            made = refine(row, orders[d], starts[d], classes[d], orders[d + 1], starts[d + 1], counts, sizes, spare)
            classes[d + 1] = made
        if made == 0:  # every code told apart (at the last guess, or before it: any guesses complete the set)
            for i in range(d + 1):
                found[i] = allowed[pos[i]]
            state[0], state[1] = d, d + 1
            return FOUND
        pos[d + 1] = pos[d]
        d += 1
    state[0] = d
    return NONE
