"""Compiled kernels (numba) of the optimal search's symmetries of a node: which guesses stand for the others.

Two kinds of symmetry, as :mod:`mm_logic.symmetry` describes them: free colour
blocks (colours no guess of the history uses, or no code of the set contains)
and moves ``(sigma, pi)``, acting as ``y[p] = pi[x[sigma[p]]]``, that fix every
guess of the history.

Under black pegs alone with repetition allowed, the feedback only counts the
pegs where two codes agree, so a colour may be renamed *on one peg alone*: the
group is far larger (every code of 4x6 is like every other). The search then
works on *peg-tagged* colours (colour ``c`` on peg ``p`` is ``p * colours +
c``): a renaming per peg is one permutation of the tagged colours that maps
each peg's colours onto those of the peg it moves to, the free blocks are a
peg's own, and the moves fixing the history are found again at every node
(:func:`peg_moves`): every peg permutation whose history columns match.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..numba_cache import CACHE
from .arrays import FIXED_COLOURS


@nb.njit(cache=CACHE, nogil=True)
def _free_blocks(S, codes, hist, hlen, colours, per_peg, block_of, block_colors, block_start):
    """Fill the free colour blocks of a node; returns their number.

    Colours no guess of the history uses, and colours no code of S contains,
    may be swapped among themselves; two such sets that overlap generate
    every permutation of their union (as :func:`mm_logic.symmetry.free_colour_blocks`).
    With ``per_peg`` (tagged colours) each peg has its own two sets.
    """
    pegs = codes.shape[1]
    unused = np.ones(colours, dtype=np.bool_)
    absent = np.ones(colours, dtype=np.bool_)
    for h in range(hlen):
        for p in range(pegs):
            unused[hist[h, p]] = False
    for j in range(S.shape[0]):
        for p in range(pegs):
            absent[codes[S[j], p]] = False
    groups = pegs if per_peg else 1
    width = colours // groups
    # Per group (a peg, or every colour): set 0, the unused colours (with the absent ones when
    # they overlap), set 1, the absent ones.
    group = np.full(colours, -1, dtype=np.int64)
    for k in range(groups):
        overlap = False
        for c in range(k * width, (k + 1) * width):
            overlap |= unused[c] and absent[c]
        for c in range(k * width, (k + 1) * width):
            if unused[c] or (overlap and absent[c]):
                group[c] = 2 * k
            elif absent[c]:
                group[c] = 2 * k + 1
    blocks = 0
    filled = 0
    for c in range(colours):
        block_of[c] = -1
    for k in range(2 * groups):
        members = 0
        for c in range(colours):
            members += group[c] == k
        if members < 2:
            continue  # a colour alone has nothing to be swapped with
        block_start[blocks] = filled
        for c in range(colours):
            if group[c] == k:
                block_of[c] = blocks
                block_colors[filled] = c
                filled += 1
        blocks += 1
    return blocks


@nb.njit(cache=CACHE, nogil=True)
def node_blocks(S, codes, hist, hlen, colours, per_peg):
    """The free colour blocks of a node: ``(block_of, block_colors, block_start)`` (see ``_free_blocks``)."""
    block_of = np.empty(colours, dtype=np.int64)
    block_colors = np.empty(colours, dtype=np.int64)
    block_start = np.zeros(2 * codes.shape[1], dtype=np.int64)
    blocks = _free_blocks(S, codes, hist, hlen, colours, per_peg, block_of, block_colors, block_start)
    return block_of, block_colors, block_start[:blocks]


@nb.njit(cache=CACHE, nogil=True)
def game_blocks(S, codes, hist, hlen, colours, per_peg, flags):
    """:func:`node_blocks`, or none at all where the game's flags say colours may not be renamed
    (:data:`~mm_logic.kernels.optimal.arrays.FIXED_COLOURS`)."""
    if flags & FIXED_COLOURS:
        return np.full(colours, -1, dtype=np.int64), np.empty(colours, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return node_blocks(S, codes, hist, hlen, colours, per_peg)


@nb.njit(cache=CACHE, nogil=True)
def moves_fixing(sigmas, pis, guess):
    """The moves ``y[p] = pi[x[sigma[p]]]`` among ``sigmas, pis`` that map ``guess`` onto itself."""
    keep = np.zeros(sigmas.shape[0], dtype=np.bool_)
    count = 0
    for h in range(sigmas.shape[0]):
        fixed = True
        for p in range(guess.shape[0]):
            if pis[h, guess[sigmas[h, p]]] != guess[p]:
                fixed = False
                break
        keep[h] = fixed
        count += fixed
    out_s = np.empty((count, sigmas.shape[1]), dtype=sigmas.dtype)
    out_p = np.empty((count, pis.shape[1]), dtype=pis.dtype)
    k = 0
    for h in range(sigmas.shape[0]):
        if keep[h]:
            out_s[k] = sigmas[h]
            out_p[k] = pis[h]
            k += 1
    return out_s, out_p


@nb.njit(cache=CACHE, nogil=True)
def peg_moves(hist, hlen, perms, colours):
    """Every move of tagged colours that fixes the guesses ``hist[:hlen]`` (per-peg symmetry), the identity left out.

    A peg permutation ``sigma`` is one when, for every peg ``p``, the history's
    column ``sigma[p]`` maps one-to-one onto its column ``p`` (a guess's colour
    there onto its colour here); the colours no guess uses on peg ``sigma[p]``
    go to those unused on peg ``p`` in increasing order (any order would do:
    the free blocks rename them afterwards).
    """
    pegs = perms.shape[1]
    width = colours // pegs
    sigmas = np.empty((perms.shape[0], pegs), dtype=np.int64)
    pis = np.empty((perms.shape[0], colours), dtype=np.int64)
    back = np.empty(colours, dtype=np.int64)
    count = 0
    for k in range(perms.shape[0]):
        sigma = perms[k]
        moved = False
        for p in range(pegs):
            moved |= sigma[p] != p
        pi = pis[count]
        pi[:] = -1
        back[:] = -1
        ok = True
        for p in range(pegs):
            q = sigma[p]
            for h in range(hlen):
                a = hist[h, q]
                b = hist[h, p]
                if (pi[a] >= 0 and pi[a] != b) or (back[b] >= 0 and back[b] != a):
                    ok = False
                    break
                pi[a] = b
                back[b] = a
            if not ok:
                break
            # The unused colours of peg q onto the unused ones of peg p, in order.
            target = p * width
            for a in range(q * width, (q + 1) * width):
                if pi[a] < 0:
                    while back[target] >= 0:
                        target += 1
                    pi[a] = target
                    back[target] = a
        if ok and moved:
            sigmas[count] = sigma
            count += 1
    return sigmas[:count].copy(), pis[:count].copy()


@nb.njit(cache=CACHE, nogil=True)
def child_moves(sigmas, pis, hist, hlen, guess, perms):
    """The moves of a node's child after ``guess`` (already at ``hist[hlen - 1]``): those of the node that fix it,
    or with ``perms`` (per-peg symmetry) every move that fixes the child's whole history."""
    if perms.shape[0]:
        return peg_moves(hist, hlen, perms, pis.shape[1])
    return moves_fixing(sigmas, pis, guess)
