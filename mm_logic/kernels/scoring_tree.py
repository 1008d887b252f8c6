"""Compiled kernel (numba) of a scoring strategy's whole tree below a history, in one call.

A bench over every secret walks a deterministic strategy's tree node by node
(:func:`mm_logic.studies.bench.play_tree`); at 4x6, with a few hundred
searches of microseconds each, the Python around each node (the session's
filter, the symmetries, the bounds, the call into the search) was nine
tenths of the time. :func:`scoring_tree` walks the subtree below a node
here instead: at each node the guess :meth:`mm_logic.strategies.scoring.ScoringStrategy.best`
finds (the same bounds, the same search kernel :func:`mm_logic.kernels.scoring.best_guess`,
symmetries from the same definitions: free colour blocks as
:func:`mm_logic.symmetry.free_colour_blocks`, moves as
:func:`mm_logic.symmetry.position_symmetries`, :func:`position_moves`), then
the codes split by the feedback the guess gets (the kernels' own feedback
definitions, :mod:`mm_logic.kernels.packed`) into the children, in increasing
order of feedback index, as the bench's walk does.

The consistent codes of a node are a range of one array, partitioned in place
(a stable sort by feedback keeps each child's codes increasing); pending
children wait on a stack (their codes are disjoint, so at most one entry per
code).
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import types
from numba.typed import Dict

from .numba_cache import CACHE
from .optimal.node_symmetry import node_blocks
from .orbits import representatives
from .packed import _packed_black, _packed_mark, _plain_black, _plain_feedback, _positional_feedback
from .scoring import BLACK, POSITIONAL, STANDARD, best_guess, group_bound

#: Status of :func:`scoring_tree`: the tree is complete, or a game went beyond the attempts limit.
DONE, TOO_DEEP = 0, 1
#: Most colours whose free blocks key the walk's candidate pools (two bits a colour); most pool entries kept.
POOL_COLOURS = 31
POOL_ENTRIES = 16 << 20
_POOL = types.int32[::1]


@nb.njit(cache=CACHE)
def _pool(pools, block_of, block_colors, block_start, codes, everything, kept):
    """The codes smallest under the free colour blocks (:func:`mm_logic.symmetry.block_pool`), kept in
    ``pools`` by blocks (within :data:`POOL_ENTRIES` codes in all, ``kept``); returns it, whether its
    codes are all canonical under the blocks (else: every code), and ``kept``."""
    colours = block_of.shape[0]
    if block_start.shape[0] == 0:
        return everything, True, kept
    if colours > POOL_COLOURS:
        return everything, False, kept
    key = 0
    for c in range(colours):
        key = key * 4 + block_of[c] + 1
    if key in pools:
        return pools[key], True, kept
    if kept + codes.shape[0] > POOL_ENTRIES:
        return everything, False, kept
    none = np.zeros((0, 1), dtype=np.int64)
    mask = representatives(codes, none, none, block_of, block_colors, block_start)
    pool = np.flatnonzero(mask).astype(np.int32)
    pools[key] = pool
    return pool, True, kept + pool.shape[0]


@nb.njit(cache=CACHE)
def _grown(array, size):
    """``array`` with room for ``size`` rows (doubled), its rows kept."""
    shape = (max(size, 2 * array.shape[0]),) + array.shape[1:]
    out = np.empty(shape, dtype=array.dtype)
    out[:array.shape[0]] = array
    return out


@nb.njit(cache=CACHE)
def position_moves(hist, hlen, colours, limit):
    """:func:`mm_logic.symmetry.position_symmetries` of the guesses ``hist[:hlen]``, in the same order:
    ``(sigmas, pis)``, moves ``y[p] = pi[x[sigma[p]]]`` that fix every guess.

    Positions with the same column in the history form a class; each pair of positions next to
    each other in a class is one swap; then the distinct columns are matched to each other, a class
    to a class as large, each keeping the colour map one-to-one, depth first (at most ``limit``).
    """
    pegs = hist.shape[1]
    cls = np.empty(pegs, dtype=np.int64)
    rep = np.empty(pegs, dtype=np.int64)  # the first position of each class
    k = 0
    for p in range(pegs):
        found = -1
        for j in range(k):
            same = True
            for h in range(hlen):
                if hist[h, p] != hist[h, rep[j]]:
                    same = False
                    break
            if same:
                found = j
                break
        if found < 0:
            rep[k] = p
            found = k
            k += 1
        cls[p] = found
    size = np.zeros(k, dtype=np.int64)
    members = np.empty((k, pegs), dtype=np.int64)
    for p in range(pegs):
        j = cls[p]
        members[j, size[j]] = p
        size[j] += 1
    sigmas = np.empty((8, pegs), dtype=np.int64)
    pis = np.empty((8, colours), dtype=np.int64)
    count = 0
    for j in range(k):
        for t in range(size[j] - 1):
            if count == sigmas.shape[0]:
                sigmas = _grown(sigmas, count + 1)
                pis = _grown(pis, count + 1)
            p, q = members[j, t], members[j, t + 1]
            for x in range(pegs):
                sigmas[count, x] = x
            sigmas[count, p] = q
            sigmas[count, q] = p
            for c in range(colours):
                pis[count, c] = c
            count += 1
    image = np.zeros(k, dtype=np.int64)  # class j takes its colours from class image[j]
    taken = np.zeros(k, dtype=np.bool_)
    following = np.zeros(k + 1, dtype=np.int64)  # the next class to try at each level
    pmap = np.full(colours, -1, dtype=np.int64)
    source = np.full(colours, -1, dtype=np.int64)
    added = np.empty((k, max(hlen, 1)), dtype=np.int64)
    nadded = np.zeros(k, dtype=np.int64)
    matched = 0
    j = 0
    while j >= 0:
        if j == k:
            identity = True
            for t in range(k):
                if image[t] != t:
                    identity = False
            if not identity:
                if count == sigmas.shape[0]:
                    sigmas = _grown(sigmas, count + 1)
                    pis = _grown(pis, count + 1)
                for t in range(k):
                    for u in range(size[t]):
                        sigmas[count, members[t, u]] = members[image[t], u]
                for c in range(colours):
                    pis[count, c] = c
                for a in range(colours):
                    if pmap[a] >= 0:
                        pis[count, a] = pmap[a]
                count += 1
                matched += 1
            j -= 1
        else:
            advanced = False
            while following[j] < k:
                i = following[j]
                following[j] += 1
                if taken[i] or size[i] != size[j] or matched >= limit:
                    continue
                fits = True
                nadded[j] = 0
                for h in range(hlen):
                    a = hist[h, rep[i]]
                    b = hist[h, rep[j]]
                    if pmap[a] >= 0:
                        fits = pmap[a] == b
                    elif source[b] >= 0:
                        fits = False
                    else:
                        pmap[a] = b
                        source[b] = a
                        added[j, nadded[j]] = a
                        nadded[j] += 1
                    if not fits:
                        break
                if fits:
                    taken[i] = True
                    image[j] = i
                    advanced = True
                    break
                for t in range(nadded[j]):
                    a = added[j, t]
                    source[pmap[a]] = -1
                    pmap[a] = -1
                nadded[j] = 0
            if advanced:
                j += 1
                following[j] = 0
                continue
            j -= 1
        if j >= 0:  # back at level j: its class is given back before the next is tried
            taken[image[j]] = False
            for t in range(nadded[j]):
                a = added[j, t]
                source[pmap[a]] = -1
                pmap[a] = -1
            nadded[j] = 0
    return sigmas[:count].copy(), pis[:count].copy()


@nb.njit(cache=CACHE)
def even_rank(m, classes, standard, mode, values):
    """:meth:`mm_logic.strategies.scoring.ScoringStrategy.lower_bound`: the rank of ``m`` codes in
    ``classes`` parts as even as possible (fewer parts than codes only under the standard rule)."""
    if not standard:
        classes = min(classes, max(m, 1))
    q, r = m // classes, m % classes
    if mode == 0:
        return values[q + 1] if r > 0 else values[q]
    return r * values[q + 1] + (classes - r) * values[q]


@nb.njit(cache=CACHE)
def _search(rule, codes, words, count_words, counts, alive, pool, pool_canonical, packed, mode, values, rest,
            bound, outside_bound, sigmas, pis, block_of, block_colors, block_start, multisets, distinct):
    """:func:`mm_logic.kernels.scoring.best_guess` at a node (a built-in rule: no table)."""
    no_table = np.zeros((0, 0), dtype=np.uint8)
    return best_guess((codes, words, count_words, counts), (rule, packed, no_table, 0), alive, pool, pool_canonical,
                      (mode, values, rest), (bound, outside_bound), (sigmas, pis, block_of, block_colors, block_start),
                      (multisets, distinct))


@nb.njit(cache=CACHE)
def _marks(out, rule, packed, g, alive, codes, words, count_words, counts, by_mark, left):
    """Feedback indices of the rule (``by_mark``: the standard rule's by ``black * (pegs + 1) + common``)
    of the code ``g`` against the codes ``alive``, written to ``out``."""
    pegs = codes.shape[1]
    n = alive.shape[0]
    if rule == STANDARD and packed:
        gw, g0, g1 = words[g], count_words[g, 0], count_words[g, 1]
        for j in range(n):
            i = alive[j]
            out[j] = by_mark[_packed_mark(gw, g0, g1, words[i], count_words[i, 0], count_words[i, 1], pegs)]
        return
    one = np.empty(1, dtype=np.int64)
    guess = codes[g].astype(np.int64)
    gcol = np.empty(pegs, dtype=np.int64)
    gcnt = np.empty(pegs, dtype=np.int64)
    ncol = 0
    for c in range(counts.shape[1]):
        if counts[g, c] > 0:
            gcol[ncol] = c
            gcnt[ncol] = counts[g, c]
            ncol += 1
    for j in range(n):
        i = alive[j]
        if rule == STANDARD:
            _plain_feedback(one, guess, gcol, gcnt, ncol, codes, counts, i, i + 1)
            out[j] = by_mark[one[0]]
        elif rule == BLACK:
            if packed:
                _packed_black(one, words[g], words, i, i + 1, pegs)
            else:
                _plain_black(one, guess, codes, i, i + 1)
            out[j] = one[0]
        else:
            _positional_feedback(one, guess, codes, counts, left, i, i + 1)
            out[j] = one[0]


@nb.njit(cache=CACHE)
def _sort_by_marks(sub, marks, order, codes_buffer, marks_buffer):
    """Sort ``sub`` by ``marks`` in place, stably (``marks`` sorted alike): by insertion when short."""
    n = sub.shape[0]
    if n <= 32:
        for j in range(1, n):
            code, mark = sub[j], marks[j]
            k = j
            while k > 0 and marks[k - 1] > mark:
                sub[k] = sub[k - 1]
                marks[k] = marks[k - 1]
                k -= 1
            sub[k] = code
            marks[k] = mark
        return
    order[:n] = np.argsort(marks, kind="mergesort")
    for j in range(n):
        codes_buffer[j] = sub[order[j]]
        marks_buffer[j] = marks[order[j]]
    sub[:] = codes_buffer[:n]
    marks[:] = marks_buffer[:n]


@nb.njit(cache=CACHE)
def scoring_tree(codes, words, count_words, counts, multisets, distinct, packed, rule, lut, win, secrets, history,
                 depth, limit, mode, values, rest, rounding, classes, standard, grouped, small_set, moves, max_moves,
                 pools, first):
    """Every game below a history, played by a scoring strategy.

    ``secrets``: the codes consistent with the history (sorted code indices), whose guesses are
    ``history`` (rows of colours); ``depth``: the number of the next guess; ``limit``: the attempts
    limit. The strategy: ``mode``, ``values``, ``rest`` as :func:`mm_logic.kernels.scoring.best_guess`
    takes them, ``rounding``, ``classes``, ``standard`` (the standard rule: as many parts as
    classes), ``grouped`` (:func:`mm_logic.kernels.scoring.group_bound` holds), ``small_set``;
    ``multisets`` and ``distinct``: the colour multiset of each code and every one of the space (for
    :func:`mm_logic.kernels.scoring.group_bound` and the search's bound by colours; ``distinct`` empty:
    no bound by colours). ``moves``: whether moving pegs keeps the feedback (at most ``max_moves`` matchings). ``rule``,
    ``lut`` and ``win`` (the winning feedback's index): the feedback rule. ``pools``: the candidate
    pools of the free colour blocks met so far (:func:`new_pools`, kept from call to call for one space).
    ``first``: the guess at the history (a code index; -1: the strategy's, found as at every node).

    Returns ``(status, nodes, games, effort)``: ``nodes`` rows ``(guess, parent, feedback index)`` in
    the walk's order (parent -1 at the top), ``games`` rows ``(secret, attempts)`` in the order the
    bench's walk plays them, ``effort`` (searches, candidates, feedbacks). ``status``
    :data:`TOO_DEEP`: some game needed ``limit`` guesses.
    """
    n_codes, pegs = codes.shape
    colours = counts.shape[1]
    m = secrets.shape[0]
    alive = secrets.copy()
    order_buffer = np.empty(m, dtype=np.int64)
    codes_buffer = np.empty(m, dtype=np.int64)
    marks_buffer = np.empty(m, dtype=np.int64)
    mark_buffer = np.empty(m, dtype=np.int64)
    # The rule's index by black * (pegs + 1) + common (the standard rule; lut: by black * pegs + common).
    width = pegs + 1
    by_mark = np.zeros(width * width, dtype=np.int64)
    for black in range(width):
        for common in range(black, width):
            by_mark[black * width + common] = lut[black * pegs + common]
    left = np.zeros(colours, dtype=np.int64)
    hlen0 = history.shape[0]
    room = max(limit - depth + 2, 1)
    hist = np.empty((hlen0 + room, pegs), dtype=np.int64)
    for h in range(hlen0):
        for p in range(pegs):
            hist[h, p] = history[h, p]
    # Pending children: codes alive[lo:hi], the guess's number, parent node, feedback; win: a game won.
    stack = np.empty((m + 1, 5), dtype=np.int64)
    stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3], stack[0, 4] = 0, m, depth, -1, -1
    top = 1
    nodes = np.empty((2 * m + 2, 3), dtype=np.int64)
    n_nodes = 0
    games = np.empty((m, 2), dtype=np.int64)
    n_games = 0
    effort = np.zeros(3, dtype=np.int64)
    everything = np.arange(n_codes).astype(np.int32)
    kept = 0
    for key in pools:
        kept += pools[key].shape[0]
    no_codes = np.zeros(0, dtype=np.int32)
    none_sigmas = np.zeros((0, pegs), dtype=np.int64)
    none_pis = np.zeros((0, colours), dtype=np.int64)
    none_of = np.full(colours, -1, dtype=np.int64)
    none_colors = np.zeros(0, dtype=np.int64)
    none_start = np.zeros(0, dtype=np.int64)
    while top > 0:
        top -= 1
        lo, hi, d, parent, mark = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3], stack[top, 4]
        if parent == -2:  # the guess itself, won here
            games[n_games, 0] = alive[lo]
            games[n_games, 1] = d
            n_games += 1
            continue
        sub = alive[lo:hi]
        n = hi - lo
        hlen = hlen0 + d - depth
        # The guess, as ScoringStrategy.choose and best find it.
        if parent == -1 and first >= 0:
            g = first
        elif n <= 2:
            g = sub[0]
        else:
            inside = even_rank(n, classes, standard, mode, values)
            if grouped:
                inside = max(inside, group_bound(codes, multisets, sub, mode, values, rounding))
            outside = max(even_rank(n, classes - 1, standard, mode, values), inside)
            g = -1
            if n <= small_set:
                index, rank, scored, pairs = _search(rule, codes, words, count_words, counts, sub, no_codes, True,
                                                     packed, mode, values, rest, inside, outside, none_sigmas,
                                                     none_pis, none_of, none_colors, none_start, multisets,
                                                     distinct)
                effort[0] += 1
                effort[1] += scored
                effort[2] += pairs
                if rank <= inside:
                    g = index
            if g < 0:
                block_of, block_colors, block_start = node_blocks(sub, codes, hist, hlen, colours, False)
                if moves:
                    sigmas, pis = position_moves(hist, hlen, colours, max_moves)
                else:
                    sigmas, pis = none_sigmas, none_pis
                pool, canonical, kept = _pool(pools, block_of, block_colors, block_start, codes, everything, kept)
                index, rank, scored, pairs = _search(rule, codes, words, count_words, counts, sub, pool, canonical,
                                                     packed, mode, values, rest, inside, outside, sigmas, pis,
                                                     block_of, block_colors, block_start, multisets, distinct)
                effort[0] += 1
                effort[1] += scored
                effort[2] += pairs
                g = index
        if n_nodes == nodes.shape[0]:
            nodes = _grown(nodes, n_nodes + 1)
        nodes[n_nodes, 0] = g
        nodes[n_nodes, 1] = parent
        nodes[n_nodes, 2] = mark
        node = n_nodes
        n_nodes += 1
        if n == 1 and sub[0] == g:  # a leaf: won here
            games[n_games, 0] = g
            games[n_games, 1] = d
            n_games += 1
            continue
        for p in range(pegs):
            hist[hlen, p] = codes[g, p]
        marks = mark_buffer[:n]
        _marks(marks, rule, packed, g, sub, codes, words, count_words, counts, by_mark, left)
        _sort_by_marks(sub, marks, order_buffer, codes_buffer, marks_buffer)
        # The children, pushed last first: the first (smallest feedback index) is walked next.
        stop = n
        while stop > 0:
            start = stop - 1
            f = marks[start]
            while start > 0 and marks[start - 1] == f:
                start -= 1
            if f == win:
                stack[top, 3] = -2
            else:
                if d >= limit:
                    return TOO_DEEP, nodes[:n_nodes], games[:n_games], effort
                stack[top, 3] = node
            stack[top, 0] = lo + start
            stack[top, 1] = lo + stop
            stack[top, 2] = d if f == win else d + 1
            stack[top, 4] = f
            top += 1
            stop = start
    return DONE, nodes[:n_nodes], games[:n_games], effort


def warm_up() -> None:
    """Call :func:`scoring_tree` on tiny arrays, so that numba compiles it or loads it from its cache (start-up,
    before a bench's clock), for the arrays a code space of up to 21 pegs has: with :mod:`mm_logic.kernels.scoring`'s,
    the group ``"scoring"`` of :func:`mm_logic.kernels.warming.warm`, once per process."""
    from .packed import pack
    codes = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=np.uint8)
    counts = np.array([[2, 0], [1, 1], [1, 1], [0, 2]], dtype=np.uint8)
    words, count_words = pack(codes, counts)
    multisets = np.array([0, 1, 1, 3], dtype=np.int32)
    lut = np.array([0, 1, 2, 0, 3, 4, 5], dtype=np.uint8)  # the standard rule's of 2 pegs
    values = np.arange(8, dtype=np.int64)
    history = np.array([[0, 0]], dtype=np.int64)
    secrets = np.array([1, 2, 3], dtype=np.int64)
    for rule in (STANDARD, BLACK, POSITIONAL):
        scoring_tree(codes, words, count_words, counts, multisets, np.array([0, 1, 3], dtype=np.int64),
                     rule != POSITIONAL, rule, lut, 5, secrets,
                     history, 2, 50, 0, values, values, 0, 4, True, True, 1, True, 2000, new_pools(), -1)


def new_pools():
    """An empty store of candidate pools for :func:`scoring_tree` (one per code space)."""
    return Dict.empty(key_type=types.int64, value_type=_POOL)
