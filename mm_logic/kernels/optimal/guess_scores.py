"""Compiled kernels (numba) of the optimal search's scoring of a node's guesses: a bound from their parts' sizes.

:func:`score_guesses` scores the guesses of a set S (its own codes, the
others, or every code) by ``|S| + sum L(|part|)``, ``L`` the perfect-split
bound, and returns those below a cut in increasing order of it, for
:func:`mm_logic.kernels.optimal.search.search` to try in turn. Every code is a
guess at every set, so this is most of the search's time; how a set is
scored depends on its size:

* up to the codes one guess can tell apart, no part can be too large for
  the bound to need its size: which feedbacks each guess gets is enough,
  a bit each (:mod:`mm_logic.kernels.optimal.small_sets`); past that, the same bits still
  bound a guess from below, and the few guesses whose bits leave room for a
  larger part are read again from the table;
* up to 255 codes, each guess's parts counted in byte counters kept in
  registers (:mod:`mm_logic.kernels.optimal.middling_sets`) when those rechecks are many;
* the codes of S alone, and larger sets: counters packed in words (4 or 8
  bits each), or plain counts.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ..numba_cache import CACHE
from .arrays import INF
from .middling_sets import tally_scores
from .small_sets import least_score, seen_scores

#: Guesses read again from the table after :mod:`mm_logic.kernels.optimal.small_sets`'s scoring, at most one in this
#: many of the codes; past that every guess's parts are counted (:mod:`mm_logic.kernels.optimal.middling_sets`).
RECHECKED = 64

#: Which guesses :func:`score_guesses` scores.
CONSISTENT, INCONSISTENT, EVERY = 0, 1, 2
#: The score of a guess that is no candidate (above every bound).
_EXCLUDED = 1 << 40

_LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
_HIGH = np.uint64(0x8080808080808080)
_ONES = np.uint64(0x0101010101010101)
_BYTE = np.uint64(0xFF)


@nb.njit(cache=CACHE, nogil=True)
def score_guesses(S, which, game, scratch, part_bound, cut, widest):
    """Score guesses of a node by their parts' sizes.

    ``which``: the codes of S (:data:`CONSISTENT`), the others
    (:data:`INCONSISTENT`) or all (:data:`EVERY`). Returns ``(guesses,
    bounds, smallest bound cut)``: the guesses whose bound ``|S| + sum
    part_bound[|part|]`` is below ``cut``, in increasing order of it, and
    the smallest bound of the others. A guess that leaves S whole, or
    (``widest`` >= 0) makes a part larger than ``widest``, is none of them.
    """
    table = game[0]
    by_secret = game[4]  # by_secret[s, g]: the feedback of the guess g against the secret s
    n = S.shape[0]
    win = np.int64(table[0, 0])  # a code against itself: the winning feedback
    words, scores, every, picked, shorts = scratch
    # While no part has more than `plain` codes, part_bound[c] = 2c - 1 for each: the bound is
    # n + 2 (codes outside the winning part) - (parts outside it), and no part is read.
    plain = 0
    while plain + 1 < part_bound.shape[0] and plain < 255 and part_bound[plain + 1] == 2 * plain + 1:
        plain += 1
    narrow = widest >= 0 and widest < n
    if narrow:
        plain = min(plain, widest)  # a part above `widest` is then read, and refused
    # Which guesses: the codes of S, or every code (the few below the cut are then checked
    # for symmetry; counting every code in order is cheaper than picking the orbits' first).
    pool = S.astype(np.int64) if which == CONSISTENT else every
    size = pool.shape[0]
    skip_won = which == INCONSISTENT  # the consistent guesses were scored in the consistent phase
    # Every code a guess: which feedbacks each guess gets, a bit each (:mod:`.small_sets`), is its bound while no
    # part can exceed `plain` codes. Past that a guess's largest part holds at most n - won - (parts - 1) =
    # score - 2n + won + 1 codes, so only a score above `unseen` may hide a larger part: the few such guesses
    # below the cut are read again from the table (the others' scores stay lower bounds), and where they are
    # many the parts of every guess are counted instead, in bytes (:mod:`.middling_sets`).
    every_guess = which != CONSISTENT
    masked = every_guess and n < 256 and win < 64
    unseen = 2 * n - 2 + plain
    recheck = False
    smallest_cut = _EXCLUDED
    m = 0
    if masked and cut <= 0 and not skip_won:
        # No guess below the cut: the least score alone, the bound one guess ahead (:mod:`.optimal`'s probe). Past
        # `plain` it is a lower bound, as below: only guesses under the cut are read again.
        least = _least_seen(S, by_secret, words, win)
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64), INF if least < 0 else min(least, INF)
    if masked:
        m, smallest_cut = _seen_picked(S, by_secret, words, win, skip_won, cut, scores, picked)
        if n > plain:
            hidden = 0
            for i in range(m):
                hidden += scores[picked[i]] > unseen
            recheck = hidden > 0
            if hidden * RECHECKED > size:
                masked = recheck = False
                smallest_cut = _EXCLUDED
    width = 16 if win < 16 else 24  # the byte counters' rows (:mod:`.middling_sets`), where `words` holds them
    tallied = every_guess and not masked and n < 256 and win < 24 and words.shape[0] * 8 >= width * size
    counts = np.zeros((0, win + 1), dtype=np.int64)
    packed = words[:0].reshape((1, 0))
    tallies = words.view(np.uint8)[:0].reshape((1, 0))
    bits = 0
    if tallied:
        bits = -1  # parts read again from the byte counts
        tallies = words.view(np.uint8)[:width * size].reshape((width, size))
        m, least = tally_scores(S, by_secret, win, plain, skip_won, cut, tallies, shorts, picked)
        smallest_cut = _widen_picked(shorts, scores, picked, m, least)
    elif masked:
        pass  # scored above
    elif n < 256:
        # Part sizes fit a nibble (below 16 codes) or a byte: 16 or 8 counters to a word.
        bits = 4 if n < 16 else 8
        used_words = (win + 64 // bits) // (64 // bits)
        # A prefix of the flat buffer, reshaped: contiguous rows (a 2-d slice would not be, and
        # the counting loops would not be vectorised).
        packed = words[:used_words * size].reshape((used_words, size))
        packed[:] = 0
        if which == CONSISTENT:
            _count_few(S, table, packed, bits)
        else:
            _count_every(S, by_secret, packed, bits)
        _word_bounds(packed, n, plain, win, bits, skip_won, scores)
    else:
        counts = np.zeros((size, win + 1), dtype=np.int64)
        for j in range(n):
            row = by_secret[S[j]]
            for k in range(size):
                counts[k, row[pool[k]]] += 1
        for k in range(size):
            won = counts[k, win]
            parts = 0
            large = False
            for f in range(win):
                parts += counts[k, f] > 0
                large |= counts[k, f] > plain
            if (parts == 1 and won == 0) or (skip_won and won > 0):
                scores[k] = _EXCLUDED
            else:
                scores[k] = -1 if large else n + 2 * (n - won) - parts
    if not (masked or tallied):
        # The guesses below the cut: few, picked without a branch.
        m = 0
        for k in range(size):
            picked[m] = k
            m += scores[k] < cut
    # One with a part above `plain` codes (-1), or that may hide one (`recheck`), is read again.
    part_sizes = np.zeros(win + 1, dtype=np.int64)
    kept = 0
    for i in range(m):
        k = picked[i]
        bound = scores[k]
        if bound < 0 or (recheck and bound > unseen):
            if bound >= 0:
                _sizes_of(table[pool[k]], S, part_sizes)
            bound = n
            for f in range(win):
                c = part_sizes[f] if masked else _part_size(packed, tallies, counts, bits, k, f)
                bound += part_bound[c]
                if narrow and c > widest:
                    bound = INF
            scores[k] = bound
            if bound >= cut or bound >= INF:
                smallest_cut = min(smallest_cut, bound)
                continue
        picked[kept] = k
        kept += 1
    m = kept
    if not (masked or tallied):
        for k in range(size):
            smallest_cut = min(smallest_cut, scores[k] if scores[k] >= cut else _EXCLUDED)
    guesses, bounds = _by_bound(picked[:m], scores, pool)
    return guesses, bounds, min(smallest_cut, INF)


@nb.njit(cache=CACHE, nogil=True)
def _by_bound(picked, scores, pool):
    """The guesses ``pool[k]`` of the positions ``picked`` and their bounds ``scores[k]``, in increasing order
    of bound (a counting sort: bounds are small integers, and often only the first few guesses are ever
    searched), ties in the order picked."""
    m = picked.shape[0]
    low = INF
    high = 0
    for i in range(m):
        low = min(low, scores[picked[i]])
        high = max(high, scores[picked[i]])
    guesses = np.empty(m, dtype=np.int64)
    bounds = np.empty(m, dtype=np.int64)
    if m:
        at = np.zeros(high - low + 2, dtype=np.int64)
        for i in range(m):
            at[scores[picked[i]] - low + 1] += 1
        for v in range(1, at.shape[0]):
            at[v] += at[v - 1]
        for i in range(m):
            k = picked[i]
            v = scores[k] - low
            guesses[at[v]] = pool[k]
            bounds[at[v]] = scores[k]
            at[v] += 1
    return guesses, bounds


@nb.njit(cache=CACHE, inline="always")
def _part_size(words, tallies, counts, bits, k, f):
    """Guess ``k``'s part of feedback ``f``: from the packed words (``bits`` per counter), the byte counts
    (``bits`` -1: ``tallies[f, k]``), else from ``counts``."""
    if bits < 0:
        return np.int64(tallies[f, k])
    if bits:
        per = 64 // bits
        return np.int64((words[f // per, k] >> np.uint64(bits * (f % per))) & np.uint64((1 << bits) - 1))
    return np.int64(counts[k, f])


@nb.njit(cache=CACHE, nogil=True)
def _count_every(S, by_secret, words, bits):
    """Counter ``f % per`` (``bits`` wide, ``per = 64 // bits`` to a word) of ``words[f // per, g]``: the codes of S
    that give the guess ``g`` the feedback ``f``, for every code ``g``.

    By the rows of S's codes in the table by secret (``by_secret[s, g]``: the feedback of
    ``g`` against ``s``; the table itself for a symmetric rule), each read in order, and
    a counter is bumped by a shift, not a look-up: the loops are vectorised.
    """
    size = words.shape[1]
    shift = np.uint64(2 if bits == 4 else 3)  # log2(bits)
    index = np.uint64(4 if bits == 4 else 3)  # log2(per)
    within = np.uint64(64 // bits - 1)
    one = np.uint64(1)
    for j in range(S.shape[0]):
        row = by_secret[S[j]]
        if words.shape[0] == 1:
            out = words[0]
            for g in range(size):
                out[g] += one << (np.uint64(row[g]) << shift)
        else:
            for w in range(words.shape[0]):
                out = words[w]
                ww = np.uint64(w)
                for g in range(size):
                    f = np.uint64(row[g])
                    out[g] += np.uint64((f >> index) == ww) << ((f & within) << shift)


@nb.njit(cache=CACHE, nogil=True)
def _count_few(S, table, words, bits):
    """:func:`_count_every` for the guesses that are the codes of S (``words[., k]``: the k-th)."""
    shift = 2 if bits == 4 else 3  # log2(bits): shifts, not a division by a variable in the inner loop
    index = 4 if bits == 4 else 3  # log2(per)
    within = 64 // bits - 1
    for k in range(S.shape[0]):
        row = table[S[k]]
        for j in range(S.shape[0]):
            f = np.int64(row[S[j]])
            words[f >> index, k] += np.uint64(1) << np.uint64((f & within) << shift)


_LOW3 = np.uint64(0x7777777777777777)
_HIGH4 = np.uint64(0x8888888888888888)
_NIBBLES = np.uint64(0x1111111111111111)


@nb.njit(cache=CACHE, inline="always")
def _above(x, t, bits):
    """1 if a counter of ``x`` (``bits`` = 4 or 8 wide) exceeds ``t``, else 0."""
    if bits == 8:
        if t >= 255:
            return np.int64(0)
        if t < 128:  # below the top bit: adding 127 - t carries into it exactly when the counter exceeds t
            return np.int64(((((x & _LOW7) + (np.uint64(0x7F - t) * _ONES)) | x) & _HIGH) != 0)
        return np.int64(((((x & _LOW7) + (np.uint64(0xFF - t) * _ONES)) & x) & _HIGH) != 0)
    if t >= 15:
        return np.int64(0)
    if t < 8:
        return np.int64(((((x & _LOW3) + (np.uint64(7 - t) * _NIBBLES)) | x) & _HIGH4) != 0)
    return np.int64(((((x & _LOW3) + (np.uint64(15 - t) * _NIBBLES)) & x) & _HIGH4) != 0)


@intrinsic
def _popcount(typingctx, x):
    """The number of set bits of a 64-bit word (LLVM's ctpop: one instruction, vectorised)."""
    def codegen(context, builder, signature, args):
        return builder.call(builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)]), args)
    return types.uint64(types.uint64), codegen


@nb.njit(cache=CACHE, inline="always")
def _nonzero(x, bits):
    """How many counters of ``x`` are not zero."""
    if bits == 8:
        return np.int64(_popcount((((x & _LOW7) + _LOW7) | x) & _HIGH))
    return np.int64(_popcount((((x & _LOW3) + _LOW3) | x) & _HIGH4))


@nb.njit(cache=CACHE, inline="always")
def _word_score(parts, won, large, n, skip_won):
    """A guess's score from its packed counts' summary: its bound, -1 (a part above `plain`: read again), or
    :data:`_EXCLUDED` (it leaves S whole; or it is consistent and ``skip_won``)."""
    score = -1 if large else n + 2 * (n - won) - parts
    return _EXCLUDED if (parts == 1 and won == 0) or (skip_won and won > 0) else score


@nb.njit(cache=CACHE, nogil=True)
def _word_bounds(words, n, plain, win, bits, skip_won, scores):
    """Every guess's score (:func:`_word_score`) from the packed counts, as if no part exceeded ``plain``.

    Branch-free over the guesses (the compiler vectorises it): the few whose
    parts are larger are read again by the caller.
    """
    per = 64 // bits
    win_word = win // per
    win_shift = np.uint64(bits * (win % per))
    mask = np.uint64((1 << bits) - 1)
    if words.shape[0] == 1:
        w0 = words[0]
        for k in range(w0.shape[0]):
            x0 = w0[k]
            won = np.int64((x0 >> win_shift) & mask)
            parts = _nonzero(x0, bits) - won
            scores[k] = _word_score(parts, won, _above(x0, plain, bits), n, skip_won)
    elif words.shape[0] == 2:
        w0 = words[0]
        w1 = words[1]
        for k in range(w0.shape[0]):
            x0 = w0[k]
            x1 = w1[k]
            won = np.int64(((x1 if win_word else x0) >> win_shift) & mask)
            parts = _nonzero(x0, bits) + _nonzero(x1, bits) - won
            large = _above(x0, plain, bits) | _above(x1, plain, bits)
            scores[k] = _word_score(parts, won, large, n, skip_won)
    else:
        for k in range(words.shape[1]):
            won = np.int64((words[win_word, k] >> win_shift) & mask)
            parts = -won
            large = 0
            for w in range(words.shape[0]):
                parts += _nonzero(words[w, k], bits)
                large |= _above(words[w, k], plain, bits)
            scores[k] = _word_score(parts, won, large, n, skip_won)


@nb.njit(cache=CACHE, nogil=True)
def _widen_picked(narrow, scores, picked, m, least):
    """The ``m`` picked guesses' scores copied from ``narrow`` (:mod:`.small_sets`'s or :mod:`.middling_sets`'s
    integers) into ``scores``; returns the least score of the others, :data:`_EXCLUDED` for none (``least`` -1)."""
    for i in range(m):
        scores[picked[i]] = narrow[picked[i]]
    return _EXCLUDED if least < 0 else least


@nb.njit(cache=CACHE, nogil=True)
def _copy_picked(S, by_secret, win, skip_won, cut, seen, scores, picked):
    """:func:`mm_logic.kernels.optimal.small_sets.seen_scores` into ``seen``, the picked guesses' scores copied into
    ``scores``; returns ``(picked, least score >= cut)``, :data:`_EXCLUDED` for none."""
    m, least = seen_scores(S, by_secret, win, skip_won, cut, seen, picked)
    return m, _widen_picked(seen, scores, picked, m, least)


@nb.njit(cache=CACHE, nogil=True)
def _seen_picked(S, by_secret, words, win, skip_won, cut, scores, picked):
    """Every code's score as a guess from the feedbacks it gets (:mod:`.small_sets`, in ``words``, the scoring's buffer,
    as the narrowest integers that hold a bit for each), the guesses below ``cut`` in ``picked``; returns their
    number and the least score of the others."""
    size = by_secret.shape[1]
    if win < 16:
        return _copy_picked(S, by_secret, win, skip_won, cut, words.view(np.int16)[:size], scores, picked)
    if win < 32:
        return _copy_picked(S, by_secret, win, skip_won, cut, words.view(np.int32)[:size], scores, picked)
    return _copy_picked(S, by_secret, win, skip_won, cut, words.view(np.int64)[:size], scores, picked)


@nb.njit(cache=CACHE, nogil=True)
def _least_seen(S, by_secret, words, win):
    """:func:`mm_logic.kernels.optimal.small_sets.least_score` in the narrowest integers that hold a bit for each
    feedback."""
    if win < 16:
        return least_score(S, by_secret, win, words.view(np.int16)[:1])
    if win < 32:
        return least_score(S, by_secret, win, words.view(np.int32)[:1])
    return least_score(S, by_secret, win, words.view(np.int64)[:1])


@nb.njit(cache=CACHE, nogil=True)
def _sizes_of(row, S, sizes):
    """``sizes[f]``: the codes of S that give the guess whose feedbacks are ``row`` the feedback ``f``."""
    sizes[:] = 0
    for j in range(S.shape[0]):
        sizes[row[S[j]]] += 1
