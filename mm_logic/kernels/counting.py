"""Compiled kernel (numba) of :mod:`mm_logic.counting`: the consistent codes counted by a depth-first search."""

from __future__ import annotations

import numba as nb
import numpy as np

from .numba_cache import CACHE


@nb.njit(cache=CACHE, nogil=True)
def count_from(first, pegs, colors, repeat, guesses, offered, blacks, common):  # pragma: no cover - compiled
    """Consistent codes whose first peg has colour ``first`` (see :mod:`mm_logic.counting`)."""
    entries = guesses.shape[0]
    code = np.full(pegs, -1, dtype=np.int64)
    held = np.zeros(colors, dtype=np.int64)  # pegs of each colour so far
    # Row d: each entry's black pegs and common colours over the first d pegs.
    black = np.zeros((pegs + 1, entries), dtype=np.int64)
    shared = np.zeros((pegs + 1, entries), dtype=np.int64)
    total = 0
    depth = 0
    while depth >= 0:
        previous = code[depth]
        if previous >= 0:
            held[previous] -= 1
        colour = previous + 1 if previous >= 0 else (first if depth == 0 else 0)
        last = first if depth == 0 else colors - 1
        rest = pegs - depth - 1
        found = False
        while colour <= last and not found:
            if held[colour] < repeat:
                found = True
                for e in range(entries):
                    b = black[depth, e] + (1 if guesses[e, depth] == colour else 0)
                    s = shared[depth, e] + (1 if held[colour] < offered[e, colour] else 0)
                    if b > blacks[e] or b + rest < blacks[e] or s > common[e] or s + rest < common[e]:
                        found = False
                        break
            if not found:
                colour += 1
        if not found:
            code[depth] = -1
            depth -= 1
            continue
        code[depth] = colour
        for e in range(entries):
            black[depth + 1, e] = black[depth, e] + (1 if guesses[e, depth] == colour else 0)
            shared[depth + 1, e] = shared[depth, e] + (1 if held[colour] < offered[e, colour] else 0)
        held[colour] += 1
        if rest == 0:
            total += 1  # every entry's counts are exactly reached: the bounds above left no slack
        else:
            depth += 1
    return total
