"""Compiled kernels (numba) of the exact search for optimal strategies (``mmlogic optimal``).

A *node* is the set S of codes still consistent (sorted code indices). A
guess g splits S into parts by feedback; the cost of S, the sum over its
secrets of the guesses still needed (this one included), is
``C(S) = |S| + min_g sum_parts C(part)``, the winning part (g itself, when g
is in S) costing nothing more. :func:`search` computes it by depth-first
branch and bound:

* every guess is first *scored*, its parts' sizes only: ``|S| + sum L(|part|)``
  where ``L`` is the perfect-split bound (one code found by each guess, the
  rest split into every feedback class there is) bounds its cost from below;
  scoring counts, for every code at once, its parts in 4- or 8-bit counters
  packed in words, bumped by shifts (vectorised loops over the table's rows);
* guesses are then searched in increasing order of that bound, a level of
  equal bounds at a time (then the finer split, then consistent first), so
  the first is nearly always the best and the bound stops the rest;
* small sets score their consistent guesses first: when the best of them is
  no worse than any guess outside S can be, no other guess is scored;
* each part is searched with a *budget*, what it may cost at most for the
  guess still to win; a part that cannot stay within it returns a lower
  bound instead of its cost, and the guess is dropped at once;
* a transposition table keeps, per set of codes (two 64-bit Zobrist hashes)
  and depth left, its exact cost and best guess, or the lower bound a failed
  budget proved, so a set met again (from another guess, or searched again
  with a larger budget) costs a look-up, and a guess whose parts are known
  there is dropped before any is searched;
* only the smallest guess of each orbit of the symmetries of S is searched:
  colours that no guess of the history uses or that no code of S contains
  (free colour blocks) and the moves of the history that fix every guess
  (:mod:`mm_logic.symmetry`; a child keeps the moves that fix its guess);
  under black pegs with repetition, colours renamed on one peg alone
  (:mod:`mm_logic.kernels.node_symmetry`).

With a depth limit every part must fit in the guesses left (a part of more
codes than ``capacity[d]`` cannot); :func:`feasible` answers only whether S
can be solved within ``d`` guesses (the worst-case objective).

The kernels release the GIL, so the caller runs them in a thread and stays
free to show progress and to stop them: ``control[STOP]`` set to 1 makes
them return at once (:data:`STOPPED`).
"""

from __future__ import annotations

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from .node_symmetry import child_moves, node_blocks
from .numba_cache import CACHE
from .orbits import _is_representative
from .search_arrays import DEPTH_SALT, FEASIBLE_SALT, INF, NODES, STOP, STOPPED, TRIED, TRIED_BELOW
from .seen import seen_scores
from .table import set_key, tt_find, tt_store
from .tally import LEFT_OUT, tally_scores

#: Sets of at most this many codes score their consistent guesses first.
SMALL_SET = 40
#: Parts of at least this many codes are scored before any is searched (0: none).
PROBE = 3
#: Guesses read again from the table after :mod:`mm_logic.kernels.seen`'s scoring, at most one in this many of
#: the codes; past that every guess's parts are counted (:mod:`mm_logic.kernels.tally`).
RECHECKED = 64


# -- scoring the guesses of a node ----------------------------------------------------------------
#: Which guesses :func:`_score_guesses` scores.
CONSISTENT, INCONSISTENT, EVERY = 0, 1, 2
#: The score of a guess that is no candidate (above every bound).
_EXCLUDED = 1 << 40

_LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
_HIGH = np.uint64(0x8080808080808080)
_ONES = np.uint64(0x0101010101010101)
_BYTE = np.uint64(0xFF)


@nb.njit(cache=CACHE, nogil=True)
def _score_guesses(S, which, game, scratch, part_bound, cut, widest):
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
    # Every code a guess: which feedbacks each guess gets, a bit each (:mod:`.seen`), is its bound while no
    # part can exceed `plain` codes. Past that a guess's largest part holds at most n - won - (parts - 1) =
    # score - 2n + won + 1 codes, so only a score above `unseen` may hide a larger part: the few such guesses
    # below the cut are read again from the table (the others' scores stay lower bounds), and where they are
    # many the parts of every guess are counted instead, in bytes (:mod:`.tally`).
    every_guess = which != CONSISTENT
    masked = every_guess and n < 256 and win < 64
    unseen = 2 * n - 2 + plain
    recheck = False
    smallest_cut = _EXCLUDED
    m = 0
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
    width = 16 if win < 16 else 24  # the byte counters' rows (:mod:`.tally`), where `words` holds them
    tallied = every_guess and not masked and n < 256 and win < 24 and words.shape[0] * 8 >= width * size
    counts = np.zeros((0, win + 1), dtype=np.int64)
    packed = words[:0].reshape((1, 0))
    tallies = words.view(np.uint8)[:0].reshape((1, 0))
    bits = 0
    if masked:
        pass
    elif tallied:
        bits = -1  # parts read again from the byte counts
        tallies = words.view(np.uint8)[:width * size].reshape((width, size))
        m, least = tally_scores(S, by_secret, win, plain, skip_won, cut, tallies, shorts, picked)
        for i in range(m):
            scores[picked[i]] = shorts[picked[i]]
        smallest_cut = _EXCLUDED if least >= LEFT_OUT else least
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
    smallest_cut = min(smallest_cut, INF)
    # In increasing order of bound (a counting sort: bounds are small integers, and often only
    # the first few guesses are ever searched).
    picked = picked[:m]
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
    return guesses, bounds, smallest_cut


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
def _copy_picked(S, by_secret, win, skip_won, cut, seen, scores, picked):
    """:func:`mm_logic.kernels.seen.seen_scores` into ``seen``, the picked guesses' scores copied into ``scores``;
    returns ``(picked, least score >= cut)``, a left-out guess's score :data:`_EXCLUDED`."""
    m, least = seen_scores(S, by_secret, win, skip_won, cut, seen, picked)
    for i in range(m):
        scores[picked[i]] = seen[picked[i]]
    return m, _EXCLUDED if least >= (1 << (min(seen.itemsize * 8, 32) - 1)) - 1 else least


@nb.njit(cache=CACHE, nogil=True)
def _seen_picked(S, by_secret, words, win, skip_won, cut, scores, picked):
    """Every code's score as a guess from the feedbacks it gets (:mod:`.seen`, in ``words``, the scoring's buffer,
    as the narrowest integers that hold a bit for each), the guesses below ``cut`` in ``picked``; returns their
    number and the least score of the others."""
    size = by_secret.shape[1]
    if win < 16:
        return _copy_picked(S, by_secret, win, skip_won, cut, words.view(np.int16)[:size], scores, picked)
    if win < 32:
        return _copy_picked(S, by_secret, win, skip_won, cut, words.view(np.int32)[:size], scores, picked)
    return _copy_picked(S, by_secret, win, skip_won, cut, words.view(np.int64)[:size], scores, picked)


@nb.njit(cache=CACHE, nogil=True)
def _sizes_of(row, S, sizes):
    """``sizes[f]``: the codes of S that give the guess whose feedbacks are ``row`` the feedback ``f``."""
    sizes[:] = 0
    for j in range(S.shape[0]):
        sizes[row[S[j]]] += 1


@nb.njit(cache=CACHE, nogil=True)
def _order_level(guesses, S, table, codes, sigmas, pis, blocks):
    """Guesses of one bound, the smallest of each orbit only, in the order they are searched.

    Finer splits first (smaller sum of squared part sizes), then consistent
    guesses first, then the smallest code: the order is the same whatever
    the order of ``guesses``.
    """
    block_of, block_colors, block_start = blocks
    n = S.shape[0]
    win = np.int64(table[0, 0])
    colours = pis.shape[1]
    rename = np.zeros(colours, dtype=np.int64)
    stamp = np.zeros(colours, dtype=np.int64)
    used = np.zeros(block_start.shape[0], dtype=np.int64)
    tick = 0
    kept = np.empty(guesses.shape[0], dtype=np.int64)
    keys = np.empty(guesses.shape[0], dtype=np.int64)
    sizes = np.zeros(win + 1, dtype=np.int64)
    m = 0
    for i in range(guesses.shape[0]):
        g = guesses[i]
        ok, tick = _is_representative(codes[g], sigmas, pis, block_of, block_colors, block_start, rename, stamp,
                                      tick, used)
        if not ok:
            continue
        sizes[:] = 0
        row = table[g]
        for j in range(n):
            sizes[row[S[j]]] += 1
        squares = 0
        for f in range(win):
            squares += sizes[f] * sizes[f]
        kept[m] = g
        keys[m] = ((min(squares, (1 << 30) - 1) << 1 | (0 if sizes[win] else 1)) << 20) | g
        m += 1
    return kept[:m][np.argsort(keys[:m])]


# -- the searches ------------------------------------------------------------------------------
@nb.njit(cache=CACHE, nogil=True)
def _split(S, row, win, out, starts, sizes):
    """Write S grouped by feedback into ``out``; part ``f`` is ``out[starts[f]:starts[f] + sizes[f]]``."""
    for f in range(win + 1):
        sizes[f] = 0
    for j in range(S.shape[0]):
        sizes[row[S[j]]] += 1
    total = 0
    for f in range(win + 1):
        starts[f] = total
        total += sizes[f]
    fill = starts.copy()
    for j in range(S.shape[0]):
        f = row[S[j]]
        out[fill[f]] = S[j]
        fill[f] += 1


@nb.njit(cache=CACHE, nogil=True)
def _parts_by_size(sizes, win):
    """The feedbacks of the non-winning parts of more than two codes, largest first."""
    order = np.argsort(-sizes[:win])
    k = 0
    for i in range(win):
        if sizes[order[i]] > 2:
            k += 1
    return order[:k]


@nb.njit(cache=CACHE, nogil=True)
def _progress(control, level):
    """Count a guess searched at the caller's set (level 0) or the one below it, for the progress line."""
    if level == 0:
        control[TRIED] += 1
        control[TRIED_BELOW] = 0
    elif level == 1:
        control[TRIED_BELOW] += 1


@nb.njit(cache=CACHE, nogil=True)
def _separator_in(S, table):
    """A code of S whose feedbacks against the codes of S are all different, else -1.

    Guessed, it finds one code and leaves the others one to a part: ``2n - 1``
    for the set, the perfect-split bound, so no strategy does better; the
    first found will do (the scoring and ordering of every guess would only
    find an equal one). Feedbacks are gathered as bits of a word.
    """
    n = S.shape[0]
    for i in range(n):
        row = table[S[i]]  # the feedbacks of the guess S[i] against every secret
        seen = np.uint64(0)
        apart = True
        for j in range(n):
            bit = np.uint64(1) << np.uint64(row[S[j]])
            if seen & bit:
                apart = False
                break
            seen |= bit
        if apart:
            return np.int64(S[i])
    return np.int64(-1)


@nb.njit(cache=CACHE, nogil=True)
def _separator_out(S, by_secret, words):
    """Any code whose feedbacks against the codes of S are all different, else -1 (S's own codes having none).

    With two guesses left that, or :func:`_separator_in`, is all a set needs:
    such a guess, then the code it leaves, ``2n`` (no scoring, no ordering;
    with a depth limit most nodes are these: 38,457 of 40,963 for 4x6 within
    5). Every code's feedbacks are gathered at once, a bit each, in two words
    per code (``words``, the scoring's buffer): ``seen`` and ``twice``.
    """
    n = S.shape[0]
    size = by_secret.shape[1]
    seen = words[:size]
    twice = words[size:2 * size]
    seen[:] = 0
    twice[:] = 0
    for j in range(n):
        row = by_secret[S[j]]  # every guess's feedback against the secret S[j]
        for g in range(size):
            bit = np.uint64(1) << np.uint64(row[g])
            twice[g] |= seen[g] & bit
            seen[g] |= bit
    for g in range(size):
        if twice[g] == 0:
            return np.int64(g)
    return np.int64(-1)


@nb.njit(cache=CACHE, nogil=True)
def search(S, hist, hlen, sigmas, pis, depth, budget, level, game, bounds, outsides, limited, scratch, tt, control):
    """The least total cost of the codes ``S`` if it is below ``budget``, else a lower bound (>= ``budget``).

    ``game``: ``(table, codes, z1, z2, by_secret, perms, hard)``: the feedback table (``table[g, s]``), the
    codes (peg-tagged under per-peg symmetry), the hash words, the table by secret (``by_secret[s, g] =
    table[g, s]``: the table itself where the rule is symmetric) and the peg permutations of per-peg
    symmetry (none otherwise: :func:`mm_logic.kernels.node_symmetry.peg_permutations`), and ``hard``: 1
    when every guess must be consistent with the history (``--consistent-only``). ``depth``: guesses
    left (``limited``), or ignored;
    ``bounds[d]``: the perfect-split bound of a set by its size with ``d``
    guesses left (row 0 when not ``limited``), ``outsides[d]`` the least cost
    of a guess outside the set; ``hist[:hlen]``: the guesses played (free
    colours); ``sigmas, pis``: moves fixing them; ``level``: depth below the
    caller (progress at levels 0 and 1). The best guess of an exact cost is
    kept in the transposition table ``tt`` (:func:`new_table`).
    """
    n = S.shape[0]
    here = bounds[depth if limited else 0]
    if n <= 2 or here[n] >= budget:
        return here[n]  # exact for one code (1) and two (3); else the set cannot make it
    if control[STOP]:
        return STOPPED
    control[NODES] += 1
    table, codes, z1, z2, _, perms, hard = game
    k1, k2 = set_key(S, z1, z2, DEPTH_SALT * np.uint64(depth + 1) if limited else np.uint64(0))
    if here[n] == 2 * n - 1 and table[0, 0] < 64:
        # A perfect split is conceivable: a code of S that tells S apart meets the bound (feedbacks as bits
        # of a word: at most 64 of them).
        g = _separator_in(S, table)
        if g >= 0:
            tt_store(tt, k1, k2, 2 * n - 1, g, n, True)
            return 2 * n - 1
        if limited and depth == 2 and (hard or scratch[0].shape[0] >= 2 * table.shape[0]):
            # Two guesses left and no code of S tells S apart: another code that does (none in hard mode),
            # or no strategy.
            g = -1 if hard else _separator_out(S, game[4], scratch[0])
            value = 2 * n if g >= 0 else INF
            tt_store(tt, k1, k2, value, g, n, g >= 0)
            return value
    lower = here[n]
    entry = tt_find(tt, k1, k2)
    if entry >= 0:
        if tt[4][entry] or tt[1][entry] >= budget:
            return tt[1][entry]
        lower = max(lower, tt[1][entry])
    outside = outsides[depth if limited else 0][n]
    below = bounds[depth - 1 if limited else 0]
    child_salt = DEPTH_SALT * np.uint64(depth) if limited else np.uint64(0)
    win = np.int64(table[0, 0])
    blocks = node_blocks(S, codes, hist, hlen, pis.shape[1], perms.shape[0] > 0)
    best = budget
    best_guess = -1
    failed_at = INF
    out = np.empty(n, dtype=S.dtype)
    starts = np.empty(win + 1, dtype=np.int64)
    sizes = np.empty(win + 1, dtype=np.int64)
    # Small sets: the consistent guesses first (n² feedbacks). When the best of them is
    # no worse than any inconsistent guess can be (all n codes spread evenly over the
    # parts), the other guesses are never scored.
    # Hard mode (``hard``, --consistent-only): the consistent phase alone, at every size; its
    # bound is then the node's (the perfect-split bounds hold for any guess, so for these too).
    split = n <= SMALL_SET or hard
    for phase in range(2 if split and not hard else 1):
        which = (CONSISTENT if phase == 0 else INCONSISTENT) if split else EVERY
        if which == INCONSISTENT and best <= outside:
            failed_at = min(failed_at, outside)
            break
        guesses, scored, cut = _score_guesses(S, which, game, scratch, below, best, -1)
        failed_at = min(failed_at, cut)
        # A level of guesses of one bound at a time: the symmetry and the order within the
        # level are worked out only for the levels searched.
        i = 0
        while i < guesses.shape[0]:
            level_bound = scored[i]
            j = i
            while j < guesses.shape[0] and scored[j] == level_bound:
                j += 1
            if level_bound >= best:
                failed_at = min(failed_at, level_bound)
                break
            ordered = _order_level(guesses[i:j], S, table, codes, sigmas, pis, blocks)
            for r in range(ordered.shape[0]):
                if level_bound >= best:
                    break
                g = ordered[r]
                cost = level_bound
                _progress(control, level)
                _split(S, table[g], win, out, starts, sizes)
                parts = _parts_by_size(sizes, win)
                # What the table knows of the parts (their cost, or a bound a failed search proved)
                # sharpens the guess's bound before anything is searched.
                floors = np.empty(parts.shape[0], dtype=np.int64)
                known = np.zeros(parts.shape[0], dtype=np.bool_)
                for q in range(parts.shape[0]):
                    f = parts[q]
                    floors[q] = below[sizes[f]]
                    p1, p2 = set_key(out[starts[f]:starts[f] + sizes[f]], z1, z2, child_salt)
                    e = tt_find(tt, p1, p2)
                    if e >= 0 and tt[1][e] > floors[q]:
                        cost += tt[1][e] - floors[q]
                        floors[q] = tt[1][e]
                    known[q] = e >= 0 and tt[4][e]
                if cost >= best:
                    failed_at = min(failed_at, cost)
                    continue
                if PROBE and not limited and not hard:
                    # Each part's own best bound, one guess ahead (a scoring with nothing below the cut), before
                    # any is searched: a guess whose parts' bounds add up past `best` is dropped, and every
                    # part gets a tighter budget. Kept in the table as the part's lower bound.
                    for q in range(parts.shape[0]):
                        f = parts[q]
                        if known[q] or floors[q] > below[sizes[f]] or sizes[f] < PROBE:
                            continue
                        part = out[starts[f]:starts[f] + sizes[f]]
                        _, _, ahead = _score_guesses(part, EVERY, game, scratch, below, 0, -1)
                        if ahead > floors[q] and ahead < INF:
                            cost += ahead - floors[q]
                            floors[q] = ahead
                            p1, p2 = set_key(part, z1, z2, child_salt)
                            tt_store(tt, p1, p2, ahead, -1, sizes[f], False)
                        if cost >= best:
                            break
                    if cost >= best:
                        failed_at = min(failed_at, cost)
                        continue
                hist[hlen] = codes[g]
                child_sigmas, child_pis = child_moves(sigmas, pis, hist, hlen + 1, codes[g], perms)
                for q in range(parts.shape[0]):
                    if known[q]:
                        continue
                    f = parts[q]
                    floor = floors[q]
                    c = search(out[starts[f]:starts[f] + sizes[f]], hist, hlen + 1, child_sigmas, child_pis,
                               depth - 1, best - (cost - floor), level + 1, game, bounds, outsides, limited, scratch,
                               tt, control)
                    if c >= STOPPED:
                        return STOPPED
                    cost += c - floor
                    if cost >= best:
                        break
                if cost < best:
                    best, best_guess = cost, g
                else:
                    failed_at = min(failed_at, cost)
            i = j
    if best_guess >= 0:
        tt_store(tt, k1, k2, best, best_guess, n, True)
        return best
    lower = max(lower, failed_at)
    tt_store(tt, k1, k2, lower, -1, n, False)
    return lower


@nb.njit(cache=CACHE, nogil=True)
def feasible(S, hist, hlen, sigmas, pis, depth, level, game, bound, capacity, scratch, tt, control):
    """1 if some strategy finds every code of ``S`` within ``depth`` guesses, else 0 (:data:`STOPPED`: stopped).

    ``capacity[d]``: the most codes ``d`` guesses can tell apart; guesses
    are tried in the order of :func:`search` (``bound``: its perfect-split
    bound; the cheapest in expectation first), so the strategy found is a
    cheap one among those that make it. The guess that makes it is kept in
    ``tt`` as an exact entry of value 1.
    """
    n = S.shape[0]
    if n <= 1:
        return 1
    if n > capacity[depth]:
        return 0
    if control[STOP]:
        return STOPPED
    control[NODES] += 1
    table, codes, z1, z2, _, perms, hard = game
    k1, k2 = set_key(S, z1, z2, FEASIBLE_SALT * np.uint64(depth + 1))
    entry = tt_find(tt, k1, k2)
    if entry >= 0:
        return tt[1][entry]
    win = np.int64(table[0, 0])
    if depth == 2 and win < 64 and (hard or scratch[0].shape[0] >= 2 * table.shape[0]):
        # Two guesses left: a code that tells S apart, one of S first (the guess the scoring's order below
        # would try first: the smallest of S, else the smallest code), or none.
        g = _separator_in(S, table)
        if g < 0 and not hard:
            g = _separator_out(S, game[4], scratch[0])
        tt_store(tt, k1, k2, 1 if g >= 0 else 0, g, n, True)
        return 1 if g >= 0 else 0
    guesses, scored, _ = _score_guesses(S, CONSISTENT if hard else EVERY, game, scratch, bound, INF,
                                        capacity[depth - 1])
    blocks = node_blocks(S, codes, hist, hlen, pis.shape[1], perms.shape[0] > 0)
    out = np.empty(n, dtype=S.dtype)
    starts = np.empty(win + 1, dtype=np.int64)
    sizes = np.empty(win + 1, dtype=np.int64)
    found = -1
    i = 0
    while i < guesses.shape[0] and found < 0:
        j = i
        while j < guesses.shape[0] and scored[j] == scored[i]:
            j += 1
        ordered = _order_level(guesses[i:j], S, table, codes, sigmas, pis, blocks)
        for r in range(ordered.shape[0]):
            g = ordered[r]
            _progress(control, level)
            _split(S, table[g], win, out, starts, sizes)
            hist[hlen] = codes[g]
            child_sigmas, child_pis = child_moves(sigmas, pis, hist, hlen + 1, codes[g], perms)
            ok = 1
            for f in np.argsort(-sizes[:win]):
                if sizes[f] < 2:
                    break
                ok = feasible(out[starts[f]:starts[f] + sizes[f]], hist, hlen + 1, child_sigmas, child_pis,
                              depth - 1, level + 1, game, bound, capacity, scratch, tt, control)
                if ok != 1:
                    break
            if ok == STOPPED:
                return STOPPED
            if ok == 1:
                found = g
                break
        i = j
    tt_store(tt, k1, k2, 1 if found >= 0 else 0, found, n, True)
    return 1 if found >= 0 else 0
