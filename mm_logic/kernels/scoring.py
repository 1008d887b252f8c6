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

Feedback comes from packed words where the codes fit them, else from the
plain loop (:mod:`mm_logic.kernels.packed`). :func:`best_guess` scores by the
standard rule; :func:`best_guess_rule` is the same search under any rule (black
pegs, positional marks), given bounds and symmetries that hold for it.
"""

from __future__ import annotations

import functools

import numba as nb
import numpy as np

from ..feedback.rule import BLACK_PEGS, ONE_MARK_PER_PEG, PEGS_AND_COLOURS
from .numba_cache import CACHE
from .orbits import _compare_canonical, _is_representative, representatives
from .packed import (
    _packed_black,
    _packed_common,
    _packed_feedback,
    _packed_mark,
    _plain_black,
    _plain_feedback,
    _positional_feedback,
    pack,
    pack_code,
    packed_marks,
)

#: Feedbacks computed at once for one candidate before they are counted.
_CHUNK = 64
#: Up to this many consistent codes, :func:`_distinct_rank` computes feedbacks one at a time (it stops
#: sooner); beyond, in chunks of :data:`_BIT_CHUNK` (vectorised: most are needed there).
_ONE_BY_ONE = 16
_BIT_CHUNK = 64
#: Ranks never reached (the search's starting best).
NO_RANK = np.iinfo(np.int64).max
#: The feedback rules as the kernels know them (``rule`` of :func:`best_guess_rule`); HASHED is the positional
#: rule with the marks met by each candidate numbered densely through a hash table (``_dense_ids``); TABLE,
#: a rule the kernels do not know (a rule of one's own), scored from the game's feedback table instead.
STANDARD, BLACK, POSITIONAL, HASHED, TABLE = PEGS_AND_COLOURS, BLACK_PEGS, ONE_MARK_PER_PEG, 3, 4
#: Most pegs of the positional rule whose feedbacks are counted in an array of ``3**pegs`` slots (longer
#: codes: HASHED).
POSITIONAL_PEGS = 13


def rule_code(rules) -> int:
    """The ``rule`` argument of :func:`best_guess_rule` for a game, from the compiled feedback its rule declares
    (:attr:`mm_logic.feedback.FeedbackRule.kernel`); TABLE where it declares none."""
    from ..feedback import rule_of
    kernel = rule_of(rules).kernel
    if kernel is None:
        return TABLE
    return HASHED if kernel == POSITIONAL and rules.pegs > POSITIONAL_PEGS else kernel
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@nb.njit(cache=CACHE)
def _dense_ids(out, n, keys, ids, taken, ntaken, next_id, shift):
    """Replace the feedback indices ``out[:n]`` by dense ids, numbered as first met (open addressing in
    ``keys``/``ids``, -1 free; ``taken``: the positions filled, to clear them). Returns ``(ntaken, next_id)``."""
    mask = keys.shape[0] - 1
    for j in range(n):
        key = out[j]
        h = np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(shift)) & mask
        while keys[h] != -1 and keys[h] != key:
            h = (h + 1) & mask
        if keys[h] == -1:
            keys[h] = key
            ids[h] = next_id
            next_id += 1
            taken[ntaken] = h
            ntaken += 1
        out[j] = ids[h]
    return ntaken, next_id


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


@nb.njit(cache=CACHE, inline="always")
def _distinct_rank(out, gw, g0, g1, s_words, s_counts0, s_counts1, m, pegs, mode, first_step, most, best, values):
    """A candidate's rank when only whether feedbacks repeat matters, from one word of bits (a bit per
    feedback ``black * (pegs + 1) + common``, so ``(pegs + 1)**2 <= 64``): mode 0 with a best rank of
    ``values[2]`` (a repeated feedback loses: a perfect split or nothing), or ranks that count parts
    alone (mode 1, each part ``first_step``, nothing more per code). ``most``: the feedbacks the
    candidate may get at most. Returns ``(dropped, rank, feedbacks computed)``; dropped as soon as
    the candidate cannot beat ``best``, as the counting search drops it, or sooner (the parts it may
    still open are bounded by ``most`` less those it has)."""
    seen = np.uint64(0)
    parts = 0
    computed = 0
    if mode == 1 and first_step * min(m, most) >= best:
        return True, 0, 0
    if m <= _ONE_BY_ONE:
        for j in range(m):
            computed += 1
            bit = np.uint64(1) << np.uint64(_packed_mark(gw, g0, g1, s_words[j], s_counts0[j], s_counts1[j], pegs))
            if seen & bit:
                if mode == 0 or first_step * min(parts + m - j - 1, most) >= best:
                    return True, 0, computed
            else:
                seen |= bit
                parts += 1
    else:
        for start in range(0, m, _BIT_CHUNK):
            stop = min(m, start + _BIT_CHUNK)
            _packed_feedback(out, gw, g0, g1, s_words, s_counts0, s_counts1, start, stop, pegs)
            computed += stop - start
            for j in range(stop - start):
                bit = np.uint64(1) << np.uint64(out[j])
                if seen & bit:
                    if mode == 0 or first_step * min(parts + m - start - j - 1, most) >= best:
                        return True, 0, computed
                else:
                    seen |= bit
                    parts += 1
    return False, values[1] if mode == 0 else first_step * parts, computed


@nb.njit(cache=CACHE)
def best_guess(codes, words, count_words, counts, alive, pool, pool_canonical, packed, mode, values, rest,
               bound, outside_bound, sigmas, pis, block_of, block_colors, block_start, multisets, distinct):
    """The contract's best guess against the consistent codes ``alive`` (sorted code indices).

    ``mode`` 0: the rank is ``values[largest part]`` (``values`` non-decreasing);
    mode 1: the rank is the sum of ``values[s]`` over the parts' sizes ``s``,
    accumulated as ``values[s + 1] - values[s]`` per code, and ``r`` codes
    not yet counted add at least ``rest[r]``. ``bound``: a rank no guess beats; ``outside_bound``: one no
    inconsistent guess beats. The consistent codes are scored first, then the
    inconsistent codes of ``pool`` (sorted code indices; ``pool_canonical``:
    all are smallest under the free colour blocks already). ``sigmas``,
    ``pis`` and ``block_*``: the symmetries (:class:`mm_logic.symmetry.Symmetries`).

    Returns ``(index, rank, candidates scored, feedbacks computed)``.
    """
    pegs = codes.shape[1]
    m = alive.shape[0]
    width = pegs + 1
    counter = np.zeros(width * width, dtype=np.int64)
    out = np.empty(_CHUNK, dtype=np.int64)
    # The consistent codes, contiguous.
    s_words = np.empty(m if packed else 0, dtype=np.uint64)
    s_counts0 = np.empty(m if packed else 0, dtype=np.uint64)
    s_counts1 = np.empty(m if packed else 0, dtype=np.uint64)
    s_codes = np.empty((0 if packed else m, pegs), dtype=codes.dtype)
    s_counts = np.empty((0 if packed else m, counts.shape[1]), dtype=counts.dtype)
    for j in range(m):
        if packed:
            s_words[j] = words[alive[j]]
            s_counts0[j] = count_words[alive[j], 0]
            s_counts1[j] = count_words[alive[j], 1]
        else:
            s_codes[j] = codes[alive[j]]
            s_counts[j] = counts[alive[j]]
    steps = np.empty(m + 1, dtype=np.int64)
    for s in range(m):
        steps[s] = values[s + 1] - values[s]
    # Ranks that only ask whether feedbacks repeat are scored from bits (:func:`_distinct_rank`).
    bits = packed and width * width <= 64
    parts_only = mode == 1 and m > 0 and steps[0] < 0
    for s in range(1, m):
        parts_only &= steps[s] == 0
    most_in = (pegs + 1) * (pegs + 2) // 2 - 1  # the standard rule's feedbacks but (pegs - 1, 1)
    colours = counts.shape[1]
    rename = np.zeros(colours, dtype=np.int64)
    stamp = np.zeros(colours, dtype=np.int64)
    used = np.zeros(block_start.shape[0], dtype=np.int64)
    symmetric = sigmas.shape[0] > 0 or block_start.shape[0] > 0
    guess = np.empty(pegs, dtype=np.int64)
    gcol = np.empty(pegs, dtype=np.int64)
    gcnt = np.empty(pegs, dtype=np.int64)
    tick = 0
    small = m <= _CHUNK  # one chunk: the counters it touched are cleared one by one
    best, best_index = NO_RANK, -1
    threshold = m + 1  # mode 0: a part this large loses
    scored = 0
    pairs = 0
    cursor = 0
    floored = False
    floors = np.empty(0, dtype=np.int64)
    for phase in range(2):
        if phase == 1 and best <= outside_bound:
            break  # no inconsistent guess can beat it
        if phase == 1 and bits and (parts_only or mode == 0) and distinct.shape[0] > 0 \
                and pool.shape[0] >= _FLOOR_POOL * m:
            floors = _colour_floors(codes, count_words, multisets, distinct, alive, m, pegs, mode, values, steps[0])
            floored = True
        total = m if phase == 0 else pool.shape[0]
        for k in range(total):
            i = alive[k] if phase == 0 else np.int64(pool[k])
            if phase == 1:
                while cursor < m and alive[cursor] < i:
                    cursor += 1
                if cursor < m and alive[cursor] == i:
                    continue  # consistent: scored already
                if floored and floors[multisets[i]] >= best:
                    continue  # its colours alone keep it from beating the best
            if symmetric:
                if phase == 1 and pool_canonical:
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
            gw = np.uint64(0)
            g0 = np.uint64(0)
            g1 = np.uint64(0)
            ncol = 0
            if packed:
                gw = words[i]
                g0 = count_words[i, 0]
                g1 = count_words[i, 1]
            else:
                for p in range(pegs):
                    guess[p] = codes[i, p]
                for c in range(colours):
                    if counts[i, c] > 0:
                        gcol[ncol] = c
                        gcnt[ncol] = counts[i, c]
                        ncol += 1
            if bits and (parts_only or (mode == 0 and threshold == 2)):
                dropped, rank, computed = _distinct_rank(out, gw, g0, g1, s_words, s_counts0, s_counts1, m, pegs,
                                                         mode, steps[0], most_in - phase, best, values)
                pairs += computed
                if dropped:
                    continue
                if rank < best:
                    best, best_index = rank, i
                    if mode == 0:
                        threshold = _threshold(values, best, m)
                    if best <= bound:
                        return best_index, best, scored, pairs
                continue
            if not small:
                counter[:] = 0
            rank = 0
            dropped = False
            counted = 0  # feedbacks counted from the last chunk
            for start in range(0, m, _CHUNK):
                stop = min(m, start + _CHUNK)
                if packed:
                    _packed_feedback(out, gw, g0, g1, s_words, s_counts0, s_counts1, start, stop, pegs)
                else:
                    _plain_feedback(out, guess, gcol, gcnt, ncol, s_codes, s_counts, start, stop)
                pairs += stop - start
                counted = stop - start
                if mode == 0:
                    for j in range(stop - start):
                        f = out[j]
                        size = counter[f] + 1
                        counter[f] = size
                        if size >= threshold:
                            dropped = True
                            counted = j + 1
                            break
                else:
                    left = m - start  # codes not yet counted
                    for j in range(stop - start):
                        f = out[j]
                        size = counter[f]
                        counter[f] = size + 1
                        rank += steps[size]
                        left -= 1
                        if rank + rest[left] >= best:
                            dropped = True
                            counted = j + 1
                            break
                if dropped:
                    break
            if not dropped and mode == 0:
                largest = 0
                for j in range(counted if small else 0):
                    largest = max(largest, counter[out[j]])
                if not small:
                    largest = counter.max()
                rank = values[largest]
            if small:  # clear the counters touched, not all of them
                for j in range(counted):
                    counter[out[j]] = 0
            if dropped:
                continue
            if rank < best:
                best, best_index = rank, i
                if mode == 0:
                    threshold = _threshold(values, best, m)
                if best <= bound:
                    return best_index, best, scored, pairs
    return best_index, best, scored, pairs


@nb.njit(cache=CACHE)
def best_guess_rule(codes, words, count_words, counts, alive, pool, pool_canonical, packed, mode, values, rest,
                    bound, outside_bound, sigmas, pis, block_of, block_colors, block_start, multisets, distinct, rule):
    """:func:`best_guess` under any feedback rule ``rule``: the same search, the feedback of the rule.

    A copy rather than an argument of :func:`best_guess`, so that the standard rule's search stays
    as fast as it was (one kernel with the rule inside measured a few per cent slower on 5x8);
    with ``rule`` STANDARD it is :func:`best_guess` (the tests hold the two to each other).

    ``mode`` 0: the rank is ``values[largest part]`` (``values`` non-decreasing);
    mode 1: the rank is the sum of ``values[s]`` over the parts' sizes ``s``,
    accumulated as ``values[s + 1] - values[s]`` per code, and ``r`` codes
    not yet counted add at least ``rest[r]``. ``bound``: a rank no guess beats; ``outside_bound``: one no
    inconsistent guess beats. The consistent codes are scored first, then the
    inconsistent codes of ``pool`` (sorted code indices; ``pool_canonical``:
    all are smallest under the free colour blocks already). ``sigmas``,
    ``pis`` and ``block_*``: the symmetries (:class:`mm_logic.symmetry.Symmetries`).
    ``rule``: the feedback rule (:data:`STANDARD`, :data:`BLACK`, or :data:`POSITIONAL` and :data:`HASHED`,
    which read the plain codes, ``packed`` False); the symmetries and bounds passed must hold for it.

    Returns ``(index, rank, candidates scored, feedbacks computed)``.
    """
    pegs = codes.shape[1]
    m = alive.shape[0]
    width = pegs + 1
    hashed = rule == HASHED
    slots = width * width if rule == STANDARD else width if rule == BLACK else m + 1 if hashed else 3**pegs
    counter = np.zeros(slots, dtype=np.int64)
    out = np.empty(_CHUNK, dtype=np.int64)
    # Positional marks have many slots: the counters touched are cleared from the feedbacks kept here.
    sparse = rule == POSITIONAL and slots > m
    # ... or, for long codes, numbered densely per candidate (at most m ids).
    size_log = 6
    while (1 << size_log) < 2 * m:
        size_log += 1
    hkeys = np.full((1 << size_log) if hashed else 0, -1, dtype=np.int64)
    hids = np.empty((1 << size_log) if hashed else 0, dtype=np.int64)
    htaken = np.empty(m if hashed else 0, dtype=np.int64)
    ntaken = 0
    next_id = 0
    trail = np.empty(m if sparse else 0, dtype=np.int64)
    left_of = np.zeros(counts.shape[1], dtype=np.int64)
    # The consistent codes, contiguous.
    s_words = np.empty(m if packed else 0, dtype=np.uint64)
    s_counts0 = np.empty(m if packed else 0, dtype=np.uint64)
    s_counts1 = np.empty(m if packed else 0, dtype=np.uint64)
    s_codes = np.empty((0 if packed else m, pegs), dtype=codes.dtype)
    s_counts = np.empty((0 if packed else m, counts.shape[1]), dtype=counts.dtype)
    for j in range(m):
        if packed:
            s_words[j] = words[alive[j]]
            s_counts0[j] = count_words[alive[j], 0]
            s_counts1[j] = count_words[alive[j], 1]
        else:
            s_codes[j] = codes[alive[j]]
            s_counts[j] = counts[alive[j]]
    steps = np.empty(m + 1, dtype=np.int64)
    for s in range(m):
        steps[s] = values[s + 1] - values[s]
    # Ranks that only ask whether feedbacks repeat are scored from bits (:func:`_distinct_rank`).
    bits = rule == STANDARD and packed and width * width <= 64
    parts_only = mode == 1 and m > 0 and steps[0] < 0
    for s in range(1, m):
        parts_only &= steps[s] == 0
    most_in = (pegs + 1) * (pegs + 2) // 2 - 1  # the standard rule's feedbacks but (pegs - 1, 1)
    colours = counts.shape[1]
    rename = np.zeros(colours, dtype=np.int64)
    stamp = np.zeros(colours, dtype=np.int64)
    used = np.zeros(block_start.shape[0], dtype=np.int64)
    symmetric = sigmas.shape[0] > 0 or block_start.shape[0] > 0
    guess = np.empty(pegs, dtype=np.int64)
    gcol = np.empty(pegs, dtype=np.int64)
    gcnt = np.empty(pegs, dtype=np.int64)
    tick = 0
    small = m <= _CHUNK  # one chunk: the counters it touched are cleared one by one
    best, best_index = NO_RANK, -1
    threshold = m + 1  # mode 0: a part this large loses
    scored = 0
    pairs = 0
    cursor = 0
    floored = False
    floors = np.empty(0, dtype=np.int64)
    for phase in range(2):
        if phase == 1 and best <= outside_bound:
            break  # no inconsistent guess can beat it
        if phase == 1 and bits and (parts_only or mode == 0) and distinct.shape[0] > 0 \
                and pool.shape[0] >= _FLOOR_POOL * m:
            floors = _colour_floors(codes, count_words, multisets, distinct, alive, m, pegs, mode, values, steps[0])
            floored = True
        total = m if phase == 0 else pool.shape[0]
        for k in range(total):
            i = alive[k] if phase == 0 else np.int64(pool[k])
            if phase == 1:
                while cursor < m and alive[cursor] < i:
                    cursor += 1
                if cursor < m and alive[cursor] == i:
                    continue  # consistent: scored already
                if floored and floors[multisets[i]] >= best:
                    continue  # its colours alone keep it from beating the best
            if symmetric:
                if phase == 1 and pool_canonical:
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
            gw = np.uint64(0)
            g0 = np.uint64(0)
            g1 = np.uint64(0)
            ncol = 0
            if packed:
                gw = words[i]
                g0 = count_words[i, 0]
                g1 = count_words[i, 1]
            else:
                for p in range(pegs):
                    guess[p] = codes[i, p]
                for c in range(colours):
                    if counts[i, c] > 0:
                        gcol[ncol] = c
                        gcnt[ncol] = counts[i, c]
                        ncol += 1
            if bits and (parts_only or (mode == 0 and threshold == 2)):
                dropped, rank, computed = _distinct_rank(out, gw, g0, g1, s_words, s_counts0, s_counts1, m, pegs,
                                                         mode, steps[0], most_in - phase, best, values)
                pairs += computed
                if dropped:
                    continue
                if rank < best:
                    best, best_index = rank, i
                    if mode == 0:
                        threshold = _threshold(values, best, m)
                    if best <= bound:
                        return best_index, best, scored, pairs
                continue
            if hashed:
                for j in range(ntaken):
                    hkeys[htaken[j]] = -1
                ntaken = 0
                if not small:
                    counter[:next_id] = 0
                next_id = 0
            elif not small and not sparse:
                counter[:] = 0
            rank = 0
            dropped = False
            counted = 0  # feedbacks counted from the last chunk
            filled = 0  # feedbacks kept in the trail
            for start in range(0, m, _CHUNK):
                stop = min(m, start + _CHUNK)
                if rule == STANDARD:
                    if packed:
                        _packed_feedback(out, gw, g0, g1, s_words, s_counts0, s_counts1, start, stop, pegs)
                    else:
                        _plain_feedback(out, guess, gcol, gcnt, ncol, s_codes, s_counts, start, stop)
                elif rule == BLACK:
                    if packed:
                        _packed_black(out, gw, s_words, start, stop, pegs)
                    else:
                        _plain_black(out, guess, s_codes, start, stop)
                else:
                    _positional_feedback(out, guess, s_codes, s_counts, left_of, start, stop)
                    if hashed:
                        ntaken, next_id = _dense_ids(out, stop - start, hkeys, hids, htaken, ntaken, next_id,
                                                     64 - size_log)
                    if sparse and not small:
                        trail[start:stop] = out[:stop - start]
                        filled = stop
                pairs += stop - start
                counted = stop - start
                if mode == 0:
                    for j in range(stop - start):
                        f = out[j]
                        size = counter[f] + 1
                        counter[f] = size
                        if size >= threshold:
                            dropped = True
                            counted = j + 1
                            break
                else:
                    left = m - start  # codes not yet counted
                    for j in range(stop - start):
                        f = out[j]
                        size = counter[f]
                        counter[f] = size + 1
                        rank += steps[size]
                        left -= 1
                        if rank + rest[left] >= best:
                            dropped = True
                            counted = j + 1
                            break
                if dropped:
                    break
            if not dropped and mode == 0:
                largest = 0
                for j in range(counted if small else 0):
                    largest = max(largest, counter[out[j]])
                if not small:
                    if sparse:
                        for j in range(filled):
                            largest = max(largest, counter[trail[j]])
                    elif hashed:
                        for j in range(next_id):
                            largest = max(largest, counter[j])
                    else:
                        largest = counter.max()
                rank = values[largest]
            if small:  # clear the counters touched, not all of them
                for j in range(counted):
                    counter[out[j]] = 0
            elif sparse:
                for j in range(filled):
                    counter[trail[j]] = 0
            if dropped:
                continue
            if rank < best:
                best, best_index = rank, i
                if mode == 0:
                    threshold = _threshold(values, best, m)
                if best <= bound:
                    return best_index, best, scored, pairs
    return best_index, best, scored, pairs


@functools.cache
def load() -> None:
    """Compile, or load from numba's cache, every kernel once per process (a few tenths of a second).

    Scoring strategies call it when they are made, so that a bench's clock,
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
    for packed in (True, False):
        for mode in (0, 1):
            best_guess(codes, words, count_words, counts, alive, alive.astype(np.int32), True, packed, mode, values,
                       values, 0, 0, none, none, *blocks, multisets, distinct)
    for rule in (STANDARD, BLACK, POSITIONAL, HASHED):
        for packed in (True, False) if rule < POSITIONAL else (False,):
            for mode in (0, 1):
                best_guess_rule(codes, words, count_words, counts, alive, alive.astype(np.int32), True, packed, mode,
                                values, values, 0, 0, none, none, *blocks, multisets, distinct, rule)
    representatives(codes, none, none, *blocks)
    for mode in (0, 1):
        group_bound(codes, alive.astype(np.int32), alive, mode, values, 0)
    gw, g0, g1 = pack_code((0, 1))
    packed_marks(gw, g0, g1, words, count_words, alive, 2, np.zeros(8, dtype=np.uint8))
