"""Compiled kernels (numba) of the exact search for optimal strategies (``mmlogic optimal``).

A *node* is the set S of codes still consistent (sorted code indices). A
guess g splits S into parts by feedback; the cost of S, the sum over its
secrets of the guesses still needed (this one included), is
``C(S) = |S| + min_g sum_parts C(part)``, the winning part (g itself, when g
is in S) costing nothing more. :func:`search` computes it by depth-first
branch and bound:

* every guess is first *scored*, its parts' sizes only: ``|S| + sum L(|part|)``
  where ``L`` is the perfect-split bound (one code found by each guess, the
  rest split into every feedback class there is) bounds its cost from below
  (:mod:`mm_logic.kernels.optimal.guess_scores`: every code at once, in vector
  registers);
* guesses are then searched in increasing order of that bound, a level of
  equal bounds at a time (then the finer split, then consistent first), so
  the first is nearly always the best and the bound stops the rest;
* small sets score their consistent guesses first: when the best of them is
  no worse than any guess outside S can be, no other guess is scored;
* before any part of a guess is searched, each part of at least
  :data:`PROBE` codes is scored in turn, and the best of its own guesses'
  bounds, one guess ahead, replaces its perfect-split bound (and is kept in
  the table): a guess whose parts' bounds add up past the best cost found is
  dropped unsearched, and the others' parts get tighter budgets (4x7: 18,512
  sets searched instead of 971,826, 2.1 s instead of 9.4 s; the same tree);
* each part is searched with a *budget*, what it may cost at most for the
  guess still to win; a part that cannot stay within it returns a lower
  bound instead of its cost, and the guess is dropped at once; the parts
  of a set of :data:`SMALLEST_FIRST` codes or more smallest first, of a
  smaller one largest first;
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
  (:mod:`mm_logic.kernels.optimal.node_symmetry`).

With a depth limit every part must fit in the guesses left (a part of more
codes than ``capacity[d]`` cannot); :func:`feasible` answers only whether S
can be solved within ``d`` guesses (the worst-case objective).

The kernels release the GIL, so the caller runs them in a thread and stays
free to show progress and to stop them: ``control[STOP]`` set to 1 makes
them return at once (:data:`~mm_logic.kernels.optimal.arrays.STOPPED`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..numba_cache import CACHE
from ..orbits import _is_representative
from .arrays import DEPTH_SALT, FEASIBLE_SALT, HARD, INF, NODES, STOP, STOPPED, TRIED, TRIED_BELOW
from .guess_scores import CONSISTENT, EVERY, INCONSISTENT, score_guesses
from .node_symmetry import child_moves, game_blocks
from .solved_sets import set_key, tt_find, tt_store

#: Sets of at most this many codes score their consistent guesses first.
SMALL_SET = 40
#: Parts of at least this many codes are scored before any is searched (0: none). Fewer prunes less: with 20,
#: 4x10's part of 399 codes (0123's 0,1 then 0456's 1,0) took 227,296 sets and 4.3 s, against 2,146 and 2.7 s.
PROBE = 3
#: Sets of at least this many codes search a guess's parts smallest first, the others largest first. At a large
#: set most guesses searched fail the best cost found there, and the small parts' costs, cheap, leave the largest a
#: tight budget that fails fast; at a small one largest first measured faster. Measured (one process): bulls and
#: cows 53.1 s to 16.0 s, 4x8 17.4 s to 7.0 s, 4x10's part of 909 codes (0123's 0,1, then 0456's) 126 s to 16.6 s;
#: 4x7 the same; 500 slowed 4x7 (1.4 s to 1.8 s) and a 4x10 part of 666 codes (7.2 s to 11.6 s).
SMALLEST_FIRST = 700


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
def _parts_known(parts, out, starts, sizes, below, z1, z2, salt, tt):
    """For each part of a guess (``out[starts[f]:starts[f] + sizes[f]]`` for ``f`` in ``parts``): its floor (the
    bound of its size, or the table's cost or proven bound where higher), whether the table knows its exact cost,
    and its key (kept for the bounds one guess ahead); and by how much the table raised the floors in all."""
    floors = np.empty(parts.shape[0], dtype=np.int64)
    known = np.zeros(parts.shape[0], dtype=np.bool_)
    keys = np.empty((parts.shape[0], 2), dtype=np.uint64)
    raised = 0
    for q in range(parts.shape[0]):
        f = parts[q]
        floors[q] = below[sizes[f]]
        keys[q, 0], keys[q, 1] = set_key(out[starts[f]:starts[f] + sizes[f]], z1, z2, salt)
        e = tt_find(tt, keys[q, 0], keys[q, 1])
        if e >= 0 and tt[1][e] > floors[q]:
            raised += tt[1][e] - floors[q]
            floors[q] = tt[1][e]
        known[q] = e >= 0 and tt[4][e]
    return floors, known, keys, raised


@nb.njit(cache=CACHE, nogil=True)
def search(S, hist, hlen, sigmas, pis, depth, budget, level, game, bounds, outsides, limited, scratch, tt, control):
    """The least total cost of the codes ``S`` if it is below ``budget``, else a lower bound (>= ``budget``).

    ``game``: ``(table, codes, z1, z2, by_secret, perms, flags)``: the feedback table (``table[g, s]``), the
    codes (peg-tagged under per-peg symmetry), the hash words, the table by secret (``by_secret[s, g] =
    table[g, s]``: the table itself where the rule is symmetric) and the peg permutations of per-peg
    symmetry (none otherwise: :func:`mm_logic.kernels.optimal.arrays.peg_permutations`), and ``flags``:
    :data:`~mm_logic.kernels.optimal.arrays.HARD` when every guess must be consistent with the history
    (``--consistent-only``), with :data:`~mm_logic.kernels.optimal.arrays.FIXED_COLOURS` when renaming
    colours does not keep the feedback (a rule of one's own may tell colours apart: no free colour
    blocks). ``depth``: guesses left (``limited``), or ignored;
    ``bounds[d]``: the perfect-split bound of a set by its size with ``d``
    guesses left (row 0 when not ``limited``), ``outsides[d]`` the least cost
    of a guess outside the set; ``hist[:hlen]``: the guesses played (free
    colours); ``sigmas, pis``: moves fixing them; ``level``: depth below the
    caller (progress at levels 0 and 1). The best guess of an exact cost is
    kept in the transposition table ``tt`` (:func:`~mm_logic.kernels.optimal.arrays.new_table`).
    """
    n = S.shape[0]
    here = bounds[depth if limited else 0]
    if n <= 2 or here[n] >= budget:
        return here[n]  # exact for one code (1) and two (3); else the set cannot make it
    if control[STOP]:
        return STOPPED
    control[NODES] += 1
    table, codes, z1, z2, _, perms, flags = game
    hard = (flags & HARD) != 0
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
    blocks = game_blocks(S, codes, hist, hlen, pis.shape[1], perms.shape[0] > 0, flags)
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
        guesses, scored, cut = score_guesses(S, which, game, scratch, below, best, -1)
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
                floors, known, keys, raised = _parts_known(parts, out, starts, sizes, below, z1, z2, child_salt, tt)
                cost += raised
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
                        _, _, ahead = score_guesses(part, EVERY, game, scratch, below, 0, -1)
                        if ahead > floors[q] and ahead < INF:
                            cost += ahead - floors[q]
                            floors[q] = ahead
                            tt_store(tt, keys[q, 0], keys[q, 1], ahead, -1, sizes[f], False)
                        if cost >= best:
                            break
                    if cost >= best:
                        failed_at = min(failed_at, cost)
                        continue
                hist[hlen] = codes[g]
                child_sigmas, child_pis = child_moves(sigmas, pis, hist, hlen + 1, codes[g], perms)
                for r_part in range(parts.shape[0]):
                    q = parts.shape[0] - 1 - r_part if n >= SMALLEST_FIRST else r_part
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
    """1 if some strategy finds every code of ``S`` within ``depth`` guesses, else 0
    (:data:`~mm_logic.kernels.optimal.arrays.STOPPED`: stopped).

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
    table, codes, z1, z2, _, perms, flags = game
    hard = (flags & HARD) != 0
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
    guesses, scored, _ = score_guesses(S, CONSISTENT if hard else EVERY, game, scratch, bound, INF,
                                        capacity[depth - 1])
    blocks = game_blocks(S, codes, hist, hlen, pis.shape[1], perms.shape[0] > 0, flags)
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
