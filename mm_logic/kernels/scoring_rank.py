"""Compiled kernels (numba) of the pieces of the scoring search a candidate goes through, under any rule.

:func:`mm_logic.kernels.scoring.best_guess` walks the candidates; here are the
pieces it uses on each. The rule is given by its code (:data:`STANDARD`,
:data:`BLACK`, :data:`POSITIONAL`, :data:`HASHED`, or :data:`TABLE`, a rule of
one's own read from the game's feedback table, :func:`table_marks`); the
feedbacks of a chunk of consistent codes are counted into parts
(:func:`count_largest`, :func:`count_sum`) until the candidate cannot win.
Ranks that only ask whether feedbacks repeat are scored from a word of bits
instead (:func:`distinct_rank`, the standard rule on packed codes).

The counters (:func:`new_tally`) are cleared per candidate the cheapest way
the rule allows: the slots touched when the consistent codes are one chunk,
the slots kept in a trail when there are more slots than codes (positional
marks, a table: :func:`largest_kept`, :func:`clear_kept`), dense ids through
a hash table for long positional codes (:func:`dense_ids`, :func:`reset_ids`),
else all of them.

These take their arrays one by one, never in tuples, and the search calls them
where a call is cheap: an array handed to a compiled function that loops is a
counted reference taken and given back at each call (two atomic operations),
which cost the standard search a third of its time when a candidate's whole
count was a function of its own.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..feedback.rule import BLACK_PEGS, ONE_MARK_PER_PEG, PEGS_AND_COLOURS
from .numba_cache import CACHE
from .packed import (
    _packed_feedback,
    _packed_mark,
)

#: Feedbacks computed at once for one candidate before they are counted.
CHUNK = 64
#: Up to this many consistent codes, :func:`distinct_rank` computes feedbacks one at a time (it stops
#: sooner); beyond, in chunks of :data:`_BIT_CHUNK` (vectorised: most are needed there).
_ONE_BY_ONE = 16
_BIT_CHUNK = 64
#: The feedback rules as the kernels know them (``feedback[0]`` of :func:`mm_logic.kernels.scoring.best_guess`);
#: HASHED is the positional rule with the marks met by each candidate numbered densely through a hash
#: table (:func:`dense_ids`); TABLE, a rule the kernels do not know (a rule of one's own), scored from the
#: game's feedback table instead.
STANDARD, BLACK, POSITIONAL, HASHED, TABLE = PEGS_AND_COLOURS, BLACK_PEGS, ONE_MARK_PER_PEG, 3, 4
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@nb.njit(cache=CACHE)
def dense_ids(out, n, keys, ids, taken, ntaken, next_id, shift):
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
def consistent_codes(codes, words, count_words, counts, alive, packed):
    """The consistent codes ``alive``, contiguous: their packed words (``packed``), else their plain codes
    and colour counts; ``(words, counts0, counts1, codes, counts)``, the unused ones empty."""
    m = alive.shape[0]
    s_words = np.empty(m if packed else 0, dtype=np.uint64)
    s_counts0 = np.empty(m if packed else 0, dtype=np.uint64)
    s_counts1 = np.empty(m if packed else 0, dtype=np.uint64)
    s_codes = np.empty((0 if packed else m, codes.shape[1]), dtype=codes.dtype)
    s_counts = np.empty((0 if packed else m, counts.shape[1]), dtype=counts.dtype)
    for j in range(m):
        if packed:
            s_words[j] = words[alive[j]]
            s_counts0[j] = count_words[alive[j], 0]
            s_counts1[j] = count_words[alive[j], 1]
        else:
            s_codes[j] = codes[alive[j]]
            s_counts[j] = counts[alive[j]]
    return s_words, s_counts0, s_counts1, s_codes, s_counts


@nb.njit(cache=CACHE, inline="always")
def guess_colours(counts, gcol, gcnt):
    """The colours a guess holds and how many of each (``_plain_feedback``'s form) in ``gcol``/``gcnt``; returns
    how many colours it has."""
    n = 0
    for c in range(counts.shape[0]):
        if counts[c] > 0:
            gcol[n] = c
            gcnt[n] = counts[c]
            n += 1
    return n


@nb.njit(cache=CACHE)
def plain_guess(code, code_counts, guess, gcol, gcnt):
    """A candidate as the plain feedback loops read it: its pegs in ``guess``, its colours and their counts
    in ``gcol``/``gcnt`` (:func:`guess_colours`); returns how many colours it has."""
    for p in range(code.shape[0]):
        guess[p] = code[p]
    return guess_colours(code_counts, gcol, gcnt)


@nb.njit(cache=CACHE)
def table_marks(out, row, alive, start, stop):
    """A rule of one's own: the feedback indices of a guess (its ``row`` of the feedback table) against the
    consistent codes ``alive[start:stop]``."""
    for j in range(start, stop):
        out[j - start] = row[alive[j]]


@nb.njit(cache=CACHE)
def new_tally(rule, m, pegs, table_slots):
    """The counters of one candidate's parts under ``rule`` on ``m`` consistent codes, and what clears them:
    ``(counter, trail, keys, ids, taken, shift)`` (TABLE: ``table_slots`` counters). ``trail`` keeps the
    slots touched where there are more slots than codes (positional marks, a table; else empty);
    ``keys``/``ids``/``taken`` number the marks densely (HASHED, :func:`dense_ids`; else empty)."""
    width = pegs + 1
    if rule == STANDARD:
        slots = width * width
    elif rule == BLACK:
        slots = width
    elif rule == HASHED:
        slots = m + 1
    elif rule == TABLE:
        slots = table_slots
    else:
        slots = 3**pegs
    hashed = rule == HASHED
    sparse = rule in (POSITIONAL, TABLE) and slots > m
    size_log = 6
    while (1 << size_log) < 2 * m:
        size_log += 1
    return (np.zeros(slots, dtype=np.int64), np.empty(m if sparse else 0, dtype=np.int64),
            np.full((1 << size_log) if hashed else 0, -1, dtype=np.int64),
            np.empty((1 << size_log) if hashed else 0, dtype=np.int64), np.empty(m if hashed else 0, dtype=np.int64),
            64 - size_log)


@nb.njit(cache=CACHE)
def reset_ids(counter, keys, taken, ntaken, next_id, small):
    """Clear the dense ids (HASHED) before a candidate, and their counters unless the search
    clears the slots it touched (one chunk); returns ``(0, 0)``, the positions taken and the ids given."""
    for j in range(ntaken):
        keys[taken[j]] = -1
    if not small:
        counter[:next_id] = 0
    return 0, 0


@nb.njit(cache=CACHE)
def count_largest(out, n, counter, threshold):
    """Count the feedbacks ``out[:n]`` (mode 0); how many were counted when a part reached ``threshold``
    (the candidate loses), else -1."""
    for j in range(n):
        f = out[j]
        size = counter[f] + 1
        counter[f] = size
        if size >= threshold:
            return j + 1
    return -1


@nb.njit(cache=CACHE)
def count_sum(out, n, counter, steps, rest, rank, left, best):
    """Count the feedbacks ``out[:n]`` into the running sum ``rank`` (mode 1), ``left`` codes not yet counted
    before them; ``(how many were counted when the candidate lost, else -1; the rank)``."""
    for j in range(n):
        f = out[j]
        size = counter[f]
        counter[f] = size + 1
        rank += steps[size]
        left -= 1
        if rank + rest[left] >= best:
            return j + 1, rank
    return -1, rank


@nb.njit(cache=CACHE)
def largest_kept(counter, kept, n):
    """The largest count of the slots ``kept[:n]`` (the trail of the touched slots)."""
    largest = 0
    for j in range(n):
        largest = max(largest, counter[kept[j]])
    return largest


@nb.njit(cache=CACHE)
def clear_kept(counter, kept, n):
    """Clear the counters of the slots ``kept[:n]``."""
    for j in range(n):
        counter[kept[j]] = 0


@nb.njit(cache=CACHE, inline="always")
def distinct_rank(out, gw, g0, g1, s_words, s_counts0, s_counts1, m, pegs, mode, first_step, most, best, values):
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
