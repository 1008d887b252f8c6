"""Compiled kernels (numba) of the scoring strategies: the best guess, scored on the fly.

:func:`best_guess` finds the guess the contract asks for: the lowest rank,
then a consistent code, then the smallest code. It never builds a feedback
table: each candidate guess is scored against the consistent codes as it
goes, from packed codes, and is dropped as soon as its partial rank shows it
cannot win. Candidates are the consistent codes in increasing order, then the
others in increasing order, which is the tie-break's own order, so a later
candidate must be strictly better to win; the search ends at once when a
candidate reaches a lower bound of the ranks (:func:`group_bound` sharpens the
plain one; inconsistent candidates, which cannot win at once, have their own).

Candidates are only the smallest code of each orbit under the symmetries of
the consistent set that the caller passes (:mod:`mm_logic.symmetry`):
colours permuted freely within blocks, and pairs ``(sigma, pi)`` acting as
``y[p] = pi[x[sigma[p]]]``. A code is skipped when one of these maps it to a
smaller code; the orbit's smallest code is never skipped, so the result is
the same as scoring every code (:mod:`mm_logic.kernels.orbits`).

One search for every feedback rule: the rule reaches it as its code
(:func:`rule_code`, ``feedback[0]``), and :func:`best_guess` hands it on as a
constant (``literally``), so that each rule has its own compiled search, its
chunk of feedbacks computed by the rule's own function
(:mod:`mm_logic.kernels.packed`: packed words where the codes fit them, else
the plain loops), or, for a rule of one's own, read from the game's feedback
table; the branches of the other rules are compiled out, and the standard
rule's search is as fast as a search written for it alone. The pieces a
candidate goes through (its count into parts, the counters' clearing, the rank
from bits) are :mod:`mm_logic.kernels.scoring_rank`'s; here are the walk over
the candidates, the bounds, and :func:`warm_up`.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import literally

from .numba_cache import CACHE
from .orbits import _compare_canonical, _is_representative, representatives
from .packed import (
    _packed_black,
    _packed_common,
    _packed_feedback,
    _plain_black,
    _plain_feedback,
    _positional_feedback,
    pack,
    pack_code,
    packed_marks,
)
from .scoring_rank import (
    BLACK,
    CHUNK,
    HASHED,
    POSITIONAL,
    STANDARD,
    TABLE,
    clear_kept,
    consistent_codes,
    count_largest,
    count_sum,
    dense_ids,
    distinct_rank,
    largest_kept,
    new_tally,
    plain_guess,
    reset_ids,
    table_marks,
)

__all__ = ["BLACK", "CHUNK", "HASHED", "NO_RANK", "POSITIONAL", "STANDARD", "TABLE", "best_guess",
           "group_bound", "rule_code", "warm_up"]

#: Ranks never reached (the search's starting best).
NO_RANK = np.iinfo(np.int64).max
#: Most pegs of the positional rule whose feedbacks are counted in an array of ``3**pegs`` slots (longer
#: codes: HASHED).
POSITIONAL_PEGS = 13


def rule_code(rules) -> int:
    """The rule's code (``feedback[0]`` of :func:`best_guess`) for a game, from the compiled feedback its rule
    declares (:attr:`mm_logic.feedback.FeedbackRule.kernel`); TABLE where it declares none."""
    from ..feedback import rule_of
    kernel = rule_of(rules).kernel
    if kernel is None:
        return TABLE
    return HASHED if kernel == POSITIONAL and rules.pegs > POSITIONAL_PEGS else kernel


@nb.njit(cache=CACHE)
def _threshold(values, best, m):
    """The smallest part size whose value reaches ``best`` (``m + 1``: none)."""
    for s in range(1, m + 1):
        if values[s] >= best:
            return s
    return m + 1


@nb.njit(cache=CACHE)
def _multiset_groups(codes, multisets, alive):
    """The codes ``alive`` grouped by colour multiset (``multisets``: one id per multiset): per group its
    first code, its size and the number of positions where its codes differ (the groups' arrays)."""
    m = alive.shape[0]
    pegs = codes.shape[1]
    keys = np.empty(m, dtype=np.int64)
    for j in range(m):
        keys[j] = multisets[alive[j]]
    order = np.argsort(keys)
    first = np.empty(m, dtype=np.int64)
    size = np.empty(m, dtype=np.int64)
    free = np.empty(m, dtype=np.int64)
    groups = 0
    start = 0
    while start < m:
        stop = start + 1
        while stop < m and keys[order[stop]] == keys[order[start]]:
            stop += 1
        head = alive[order[start]]
        differ = 0
        for p in range(pegs):
            for j in range(start + 1, stop):
                if codes[alive[order[j]], p] != codes[head, p]:
                    differ += 1
                    break
        first[groups] = head
        size[groups] = stop - start
        free[groups] = differ
        groups += 1
        start = stop
    return first[:groups], size[:groups], free[:groups]


@nb.njit(cache=CACHE)
def group_bound(codes, multiset, alive, mode, values, rounding):
    """A rank no guess beats, from the colour multisets of the consistent codes.

    Consistent codes with the same colours (``multiset``: one id per multiset)
    have the same common colours with any guess, so its feedback tells them
    apart by black pegs only, and black pegs vary only at the positions where
    they differ: a group of ``n`` codes differing at ``f`` positions falls in
    at most ``min(pegs, f) + 1`` parts. Parts of different groups may share a
    feedback, which only raises a rank (maxima; superadditive sums, less
    ``rounding`` twice per part).
    """
    pegs = codes.shape[1]
    _, size, free = _multiset_groups(codes, multiset, alive)
    total = 0
    for t in range(size.shape[0]):
        n = size[t]
        k = min(free[t] + 1, pegs + 1)
        q, r = n // k, n % k
        if mode == 0:
            total = max(total, values[q + 1 if r else q])
        else:
            total += r * values[q + 1] + (k - r) * values[q] - 2 * k * rounding
    return total


#: Candidates in the pool from which :func:`_colour_floors` pays (per consistent code).
_FLOOR_POOL = 64


@nb.njit(cache=CACHE)
def _colour_floors(codes, count_words, multisets, distinct, alive, m, pegs, mode, values, first_step):
    """A rank no guess of each colour multiset beats on the consistent codes ``alive``: ``floors[d]``
    for the multiset id ``d`` (``distinct``: every id of the space), for minimax (mode 0) and for ranks
    that count parts alone (``first_step`` a part). The standard rule, packed codes.

    A guess has the same colours in common, ``v``, with every code of a colour multiset: such a
    group of ``n`` codes differing at ``f`` positions gets at most ``min(n, f + 1)`` feedbacks
    (:func:`group_bound`), and the codes with ``v`` colours in common get at most ``v + 1`` black
    counts (``v`` of ``pegs``: ``pegs - 1`` blacks never occur). So they fall in at most ``D_v``
    parts: the largest part is at least ``ceil(count_v / D_v)``, and there are at most
    ``sum D_v`` parts."""
    # Each group's first code, size and feedbacks at most.
    first, size, free = _multiset_groups(codes, multisets, alive[:m])
    most = np.minimum(size, free + 1)
    groups = size.shape[0]
    floors = np.empty(codes.shape[0], dtype=np.int64)
    count_v = np.zeros(pegs + 1, dtype=np.int64)
    caps_v = np.zeros(pegs + 1, dtype=np.int64)
    for k in range(distinct.shape[0]):
        d = distinct[k]
        g0, g1 = count_words[d, 0], count_words[d, 1]
        for v in range(pegs + 1):
            count_v[v] = 0
            caps_v[v] = 0
        for t in range(groups):
            v = _packed_common(g0, g1, count_words[first[t], 0], count_words[first[t], 1])
            count_v[v] += size[t]
            caps_v[v] += most[t]
        largest = 0
        parts = 0
        for v in range(pegs + 1):
            if count_v[v] == 0:
                continue
            slots = min(caps_v[v], v + 1 - (1 if v == pegs else 0))
            parts += slots
            largest = max(largest, (count_v[v] + slots - 1) // slots)
        floors[d] = values[largest] if mode == 0 else first_step * parts
    return floors


@nb.njit(cache=CACHE)
def _steps(values, m, mode, bits):
    """What one more code adds to a part of each size (``values[s + 1] - values[s]``), and whether a rank
    counts parts alone (mode 1, each part the first step, nothing more per code: scored from bits
    where ``bits``, :func:`~mm_logic.kernels.scoring_rank.distinct_rank`)."""
    steps = np.empty(m + 1, dtype=np.int64)
    for s in range(m):
        steps[s] = values[s + 1] - values[s]
    parts_only = bits and mode == 1 and m > 0 and steps[0] < 0
    for s in range(1, m):
        parts_only &= steps[s] == 0
    return steps, parts_only


@nb.njit(cache=CACHE)
def best_guess(space, feedback, alive, pool, pool_canonical, ranks, bounds, symmetries, groups):
    """The contract's best guess against the consistent codes ``alive`` (sorted code indices), under any rule.

    ``space``: the codes, their packed words and colour counts ``(codes, words, count_words, counts)``;
    ``feedback``: ``(rule, packed, table, slots)``: the rule's code (:func:`rule_code`), whether the codes
    are read packed (``words``, ``count_words``; else plain) and, for TABLE, the feedback table
    ``table[guess, secret]`` and its largest index + 1 (else empty, 0). ``ranks``: ``(mode, values,
    rest)``; mode 0: the rank is ``values[largest part]`` (``values`` non-decreasing); mode 1: the sum
    of ``values[s]`` over the parts' sizes ``s``, accumulated as ``values[s + 1] - values[s]`` per
    code, and ``r`` codes not yet counted add at least ``rest[r]``. ``bounds``: ``(bound,
    outside_bound)``, a rank no guess beats and one no inconsistent guess beats. The consistent codes
    are scored first, then the inconsistent codes of ``pool`` (sorted code indices; ``pool_canonical``:
    all are smallest under the free colour blocks already). ``symmetries``: ``(sigmas, pis, block_of,
    block_colors, block_start)`` (:class:`mm_logic.symmetry.Symmetries`); ``groups``: ``(multisets,
    distinct)``, the colour multiset of each code and every multiset, for the bound by colours (empty:
    none). The symmetries and bounds passed must hold for the rule.

    Returns ``(index, rank, candidates scored, feedbacks computed)``.
    """
    rule = feedback[0]
    if rule == STANDARD:
        return _search(STANDARD, space, feedback, alive, pool, pool_canonical, ranks, bounds, symmetries, groups)
    if rule == BLACK:
        return _search(BLACK, space, feedback, alive, pool, pool_canonical, ranks, bounds, symmetries, groups)
    if rule == POSITIONAL:
        return _search(POSITIONAL, space, feedback, alive, pool, pool_canonical, ranks, bounds, symmetries, groups)
    if rule == HASHED:
        return _search(HASHED, space, feedback, alive, pool, pool_canonical, ranks, bounds, symmetries, groups)
    return _search(TABLE, space, feedback, alive, pool, pool_canonical, ranks, bounds, symmetries, groups)


@nb.njit(cache=CACHE)
def _search(rule, space, feedback, alive, pool, pool_canonical, ranks, bounds, symmetries, groups):
    """:func:`best_guess` under the rule ``rule``, a constant (``literally``): one compiled search per rule,
    each free of the others' branches, so the standard rule's is as fast as a search of its own."""
    literally(rule)
    codes, words, count_words, counts = space
    _, packed, table, table_slots = feedback
    mode, values, rest = ranks
    bound, outside_bound = bounds
    sigmas, pis, block_of, block_colors, block_start = symmetries
    multisets, distinct = groups
    pegs = codes.shape[1]
    m = alive.shape[0]
    s_words, s_counts0, s_counts1, s_codes, s_counts = consistent_codes(codes, words, count_words, counts, alive,
                                                                        packed)
    counter, trail, keys, ids, taken, shift = new_tally(rule, m, pegs, table_slots)
    bits = rule == STANDARD and packed and (pegs + 1) * (pegs + 1) <= 64
    steps, parts_only = _steps(values, m, mode, bits)
    most_in = (pegs + 1) * (pegs + 2) // 2 - 1  # the standard rule's feedbacks but (pegs - 1, 1)
    out = np.empty(CHUNK, dtype=np.int64)
    colours = counts.shape[1]
    rename, stamp, left_of = np.zeros(colours, np.int64), np.zeros(colours, np.int64), np.zeros(colours, np.int64)
    used = np.zeros(block_start.shape[0], dtype=np.int64)
    guess, gcol, gcnt = np.empty(pegs, np.int64), np.empty(pegs, np.int64), np.empty(pegs, np.int64)
    symmetric = sigmas.shape[0] > 0 or block_start.shape[0] > 0
    small = m <= CHUNK  # one chunk: the counters it touched are cleared one by one
    sparse = rule in (POSITIONAL, TABLE) and trail.shape[0] > 0  # ... else those of the trail
    best, best_index = NO_RANK, -1
    threshold = m + 1  # mode 0: a part this large loses
    tick = scored = pairs = cursor = ntaken = next_id = 0
    floors = np.empty(0, dtype=np.int64)
    for phase in range(2):
        if phase == 1 and best <= outside_bound:
            break  # no inconsistent guess can beat it
        if phase == 1 and bits and (parts_only or mode == 0) and distinct.shape[0] > 0 \
                and pool.shape[0] >= _FLOOR_POOL * m:
            floors = _colour_floors(codes, count_words, multisets, distinct, alive, m, pegs, mode, values, steps[0])
        for k in range(m if phase == 0 else pool.shape[0]):
            i = alive[k] if phase == 0 else np.int64(pool[k])
            if phase == 1:
                while cursor < m and alive[cursor] < i:
                    cursor += 1
                if cursor < m and alive[cursor] == i:
                    continue  # consistent: scored already
                if floors.shape[0] > 0 and floors[multisets[i]] >= best:
                    continue  # its colours alone keep it from beating the best
            if symmetric:
                if phase == 1 and pool_canonical:  # smallest under the free colour blocks: the moves alone
                    ok = True
                    for h in range(sigmas.shape[0]):
                        tick += 1
                        if _compare_canonical(codes[i], sigmas[h], pis[h], True, block_of, block_colors,
                                              block_start, rename, stamp, tick, used) < 0:
                            ok = False
                            break
                else:
                    ok, tick = _is_representative(codes[i], sigmas, pis, block_of, block_colors, block_start,
                                                  rename, stamp, tick, used)
                if not ok:
                    continue
            scored += 1
            gw, g0, g1, ncol = np.uint64(0), np.uint64(0), np.uint64(0), 0
            if packed:
                gw, g0, g1 = words[i], count_words[i, 0], count_words[i, 1]
            else:
                ncol = plain_guess(codes[i], counts[i], guess, gcol, gcnt)
            if bits and (parts_only or (mode == 0 and threshold == 2)):
                dropped, rank, computed = distinct_rank(out, gw, g0, g1, s_words, s_counts0, s_counts1, m, pegs, mode,
                                                        steps[0], most_in - phase, best, values)
                pairs += computed
                if dropped or rank >= best:
                    continue
            else:
                # The candidate's feedbacks a chunk at a time, counted into parts until it cannot win.
                if rule == HASHED:
                    ntaken, next_id = reset_ids(counter, keys, taken, ntaken, next_id, small)
                elif not small and not sparse:
                    counter[:] = 0
                rank = start = stop = 0
                counted = 0  # feedbacks counted from the last chunk
                lost = -1
                for start in range(0, m, CHUNK):
                    stop = min(m, start + CHUNK)
                    # The rule's feedback (the branches of the other rules are compiled out: ``rule`` is a constant).
                    if rule == STANDARD and packed:
                        _packed_feedback(out, gw, g0, g1, s_words, s_counts0, s_counts1, start, stop, pegs)
                    elif rule == STANDARD:
                        _plain_feedback(out, guess, gcol, gcnt, ncol, s_codes, s_counts, start, stop)
                    elif rule == BLACK and packed:
                        _packed_black(out, gw, s_words, start, stop, pegs)
                    elif rule == BLACK:
                        _plain_black(out, guess, s_codes, start, stop)
                    elif rule == TABLE:
                        table_marks(out, table[i], alive, start, stop)
                    else:
                        _positional_feedback(out, guess, s_codes, s_counts, left_of, start, stop)
                    if rule == HASHED:
                        ntaken, next_id = dense_ids(out, stop - start, keys, ids, taken, ntaken, next_id, shift)
                    if sparse and not small:
                        trail[start:stop] = out[:stop - start]
                    pairs += stop - start
                    counted = stop - start
                    if mode == 0:
                        lost = count_largest(out, counted, counter, threshold)
                    else:
                        lost, rank = count_sum(out, counted, counter, steps, rest, rank, m - start, best)
                    if lost >= 0:
                        counted = lost
                        break
                filled = stop if lost < 0 else start + counted  # feedbacks in the trail (sparse)
                if lost < 0 and mode == 0:
                    if small:
                        rank = values[largest_kept(counter, out, counted)]
                    elif sparse:
                        rank = values[largest_kept(counter, trail, filled)]
                    else:
                        rank = values[counter[:next_id].max() if rule == HASHED else counter.max()]
                if small:  # clear the counters touched, not all of them
                    clear_kept(counter, out, counted)
                elif sparse:
                    clear_kept(counter, trail, filled)
                if lost >= 0 or rank >= best:
                    continue
            best, best_index = rank, i
            if mode == 0:
                threshold = _threshold(values, best, m)
            if best <= bound:
                return best_index, best, scored, pairs
    return best_index, best, scored, pairs


def warm_up() -> None:
    """Call every kernel once on tiny arrays, so that numba compiles them or loads them from its cache (a few
    tenths of a second): the group ``"scoring"`` of :func:`mm_logic.kernels.warming.warm`, once per process.

    Scoring strategies warm the group when they are made, so that a bench's clock,
    like a game's, counts play and not start-up.
    """
    codes = np.array([[0, 1], [1, 0]], dtype=np.uint8)
    counts = np.array([[1, 1], [1, 1]], dtype=np.uint8)
    words, count_words = pack(codes, counts)
    alive = np.arange(2, dtype=np.int64)
    none = np.zeros((0, 2), dtype=np.int64)
    blocks = (np.full(2, -1, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    values = np.arange(3, dtype=np.int64)
    multisets = np.array([0, 0], dtype=np.int32)
    distinct = np.zeros(1, dtype=np.int64)
    space = (codes, words, count_words, counts)
    symmetries = (none, none, *blocks)
    table = np.zeros((2, 2), dtype=np.uint8)
    for rule in (STANDARD, BLACK, POSITIONAL, HASHED, TABLE):
        for packed in (True, False) if rule < POSITIONAL else (False,):
            for mode in (0, 1):
                best_guess(space, (rule, packed, table, 2), alive, alive.astype(np.int32), True, (mode, values, values),
                           (0, 0), symmetries, (multisets, distinct))
    representatives(codes, none, none, *blocks)
    for mode in (0, 1):
        group_bound(codes, alive.astype(np.int32), alive, mode, values, 0)
    gw, g0, g1 = pack_code((0, 1))
    packed_marks(gw, g0, g1, words, count_words, alive, 2, np.zeros(8, dtype=np.uint8))
