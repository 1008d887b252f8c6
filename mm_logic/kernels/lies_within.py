"""Compiled kernels (numba) of :mod:`mm_logic.liar.within`: the children a guess leaves over the states,
and the counting bound on the sets of states that some strategy finishes within a number of guesses."""

from __future__ import annotations

import numba as nb
import numpy as np

from .numba_cache import CACHE


@nb.njit(cache=CACHE, nogil=True)
def child_counts(table, guesses, codes, lies, most, win, lie_to):  # pragma: no cover - compiled
    """``counts[g, a, l]``: how many states (``codes[i]``, having used ``lies[i]``) the answer ``a`` to guess
    ``guesses[g]`` leaves with ``l`` lies used. A state stays where its feedback (``table[guess, code]``) is
    the answer; with a lie left (``lies[i] < most``) it follows every answer of ``lie_to`` (the answers a liar
    may give: every feedback that can occur, but the win) but its own, one lie more; the guess itself,
    answered with the win, ends the game and follows nothing. The win's row stays 0."""
    n_guesses, m, slots = guesses.size, codes.size, lie_to.size
    counts = np.zeros((n_guesses, slots, most + 1), dtype=np.int32)
    moved = np.zeros(most + 1, dtype=np.int32)
    for k in range(n_guesses):
        g = guesses[k]
        moved[:] = 0
        for i in range(m):
            t = table[g, codes[i]]
            if t == win:
                continue
            lie = lies[i]
            counts[k, t, lie] += 1
            if lie < most:
                moved[lie + 1] += 1
                counts[k, t, lie + 1] -= 1  # it follows every answer but its own
        for a in range(slots):
            if lie_to[a]:
                for lie in range(1, most + 1):
                    counts[k, a, lie] += moved[lie]
    return counts


@nb.njit(cache=CACHE, nogil=True)
def one_lie_bound(depths, cap, answers):  # pragma: no cover - compiled
    """``bound[d, n0]``: an upper bound on the states with their lie used (``n1``) that a set holding ``n0``
    fresh states (no lie used) may have and still be finished within ``d`` guesses (one lie allowed),
    -1 when none may; ``n0`` up to ``cap``. It relaxes the game to one where a guess may split the
    fresh states among the ``answers`` a liar may give (``x_a`` of them true to answer ``a``) as it
    likes: answer ``a`` then leaves ``x_a`` fresh states and, as states with their lie used, the
    other fresh ones and those of the used ones true to ``a``, and that must fit ``bound[d - 1]``.
    The guess itself may be one of the states (a fresh one: one fresh state fewer to split; a used
    one: one used state more). The table is made non-increasing in ``n0`` by at least one a step
    (a fresh state weighs more than a used one), which the game's own sets obey."""
    neg = -1 << 40
    bound = np.full((depths + 1, cap + 1), -1, dtype=np.int64)
    bound[0, 0] = 0
    if depths >= 1:
        bound[1, 0] = 1
        bound[1, 1] = 0
    best = np.empty(cap + 1, dtype=np.int64)
    nxt = np.empty(cap + 1, dtype=np.int64)
    for d in range(2, depths + 1):
        prev = bound[d - 1]
        split = np.full(cap + 1, -1, dtype=np.int64)  # the most used states (the guess apart) for n0 fresh
        for n in range(cap + 1):
            # parts x_1..x_A summing to n, each with prev[x] + x >= n; maximise the sum of prev[x] + x - n
            best[:] = neg
            best[0] = 0
            for _ in range(answers):
                nxt[:] = neg
                for s in range(n + 1):
                    if best[s] == neg:
                        continue
                    for x in range(n - s + 1):
                        if prev[x] < 0 or prev[x] + x < n:
                            continue
                        v = best[s] + prev[x] + x - n
                        if v > nxt[s + x]:
                            nxt[s + x] = v
                best[:] = nxt
            if best[n] > neg:
                split[n] = best[n]
        for n0 in range(cap + 1):
            b = -1
            if n0 >= 1 and split[n0 - 1] >= 0:
                b = split[n0 - 1]  # the guess, a fresh state
            if split[n0] >= 0 and split[n0] + 1 > b:
                b = split[n0] + 1  # the guess, a used state
            bound[d, n0] = b
        for n0 in range(1, cap + 1):
            if bound[d, n0 - 1] < 0:
                bound[d, n0] = -1
            elif bound[d, n0] > bound[d, n0 - 1] - 1:
                bound[d, n0] = bound[d, n0 - 1] - 1
    return bound
