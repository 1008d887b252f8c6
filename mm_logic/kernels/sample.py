"""Compiled kernels for games too large to enumerate: samples, exact small sets, scores.

``sample-entropy`` (:mod:`mm_logic.strategies.sampled`) needs many consistent
codes per guess on spaces such as 16x6 (6**16 codes), where no engine lists
the consistent set and a solver call per code is slow. These kernels work
from the feedback rule itself (``feedback.py``): black pegs, and the colours
two codes share (black + white), kept per history entry and updated
incrementally as a code changes.

* :func:`metropolis` turns one consistent code into many: a Metropolis walk
  over *all* codes whose energy is how far a code's feedbacks are from the
  history's (sum over entries of ``|black - B| + |common - C|``). The walk
  may cross inconsistent codes, which lets it leave a corner of the
  consistent set that no two-peg change leaves (a walk restricted to
  consistent codes was trapped mid-game: 228 distinct codes in 2,000 draws
  of a set of 132,683). Its stationary law restricted to energy 0 is uniform
  over the consistent set, and only energy-0 codes are returned. The
  inverse temperature adapts so that about a tenth to two fifths of the
  steps sit at energy 0.
* :func:`count_vectors` and :func:`codes_with_counts` enumerate the
  consistent set exactly when it is small: first the colour-count vectors
  that every entry's black + white allows, then a depth-first search over
  pegs that bounds each entry's black pegs by the colours still to place.
* :func:`~mm_logic.kernels.entropies.partition_entropies` and
  :func:`~mm_logic.kernels.entropies.climb` score candidate guesses by the
  partition they make of a sample.

Feedbacks are indexed ``black * (pegs + 1) + common`` (``common`` = black +
white); a ``limit`` is the most pegs of one colour a code may have
(:attr:`~mm_logic.rules.Rules.repeat_limit`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .numba_cache import CACHE


@nb.njit(cache=CACHE)
def colour_counts(codes, colors):
    """Colour counts of each row of ``codes``."""
    n, pegs = codes.shape
    out = np.zeros((n, colors), np.int64)
    for r in range(n):
        for p in range(pegs):
            out[r, codes[r, p]] += 1
    return out


@nb.njit(cache=CACHE, inline="always")
def _black_common(a, b, counts_a, counts_b):
    """The feedback rule: black pegs of codes ``a`` and ``b``, and the colours they share
    (black + white), from their colour counts."""
    black = 0
    for p in range(a.shape[0]):
        black += a[p] == b[p]
    common = 0
    for c in range(counts_a.shape[0]):
        common += min(counts_a[c], counts_b[c])
    return black, common


@nb.njit(cache=CACHE)
def feedback_distance(codes, guesses, blacks, commons, colors):
    """For each row of ``codes``, the sum over guesses of ``|black - blacks[i]| + |common -
    commons[i]|``: 0 for a code consistent with the history (the walk's energy)."""
    h, pegs = guesses.shape
    cg = colour_counts(guesses, colors)
    out = np.zeros(codes.shape[0], np.int64)
    cx = np.zeros(colors, np.int64)
    for r in range(codes.shape[0]):
        cx[:] = 0
        for p in range(pegs):
            cx[codes[r, p]] += 1
        for i in range(h):
            black, common = _black_common(guesses[i], codes[r], cg[i], cx)
            out[r] += abs(black - blacks[i]) + abs(common - commons[i])
    return out


@nb.njit(cache=CACHE)
def consistent_rows(codes, guesses, blacks, commons, colors, limit):
    """Whether each row of ``codes`` gets (blacks[i], commons[i]) from every guess
    and repeats no colour more than ``limit`` times."""
    out = feedback_distance(codes, guesses, blacks, commons, colors) == 0
    counts = colour_counts(codes, colors)
    for r in range(codes.shape[0]):
        for c in range(colors):
            if counts[r, c] > limit:
                out[r] = False
    return out


# -- the Metropolis walk ------------------------------------------------------------------
@nb.njit(cache=CACHE)
def _energy(x, cx, guesses, cg, blacks, commons, black, common):
    """Fill ``black``/``common`` for code ``x`` (colour counts ``cx``); return its energy."""
    h, pegs = guesses.shape
    energy = 0
    for i in range(h):
        b, c = _black_common(guesses[i], x, cg[i], cx)
        black[i] = b
        common[i] = c
        energy += abs(b - blacks[i]) + abs(c - commons[i])
    return energy


@nb.njit(cache=CACHE)
def _state(start, guesses, blacks, commons, colors, limit):
    """A walk's state at ``start``: (code, its colour counts, the guesses' colour counts, black
    and common per guess, energy, pegs above ``limit``)."""
    h, pegs = guesses.shape
    cg = colour_counts(guesses, colors)
    x = start.copy()
    cx = np.zeros(colors, np.int64)
    for p in range(pegs):
        cx[x[p]] += 1
    black = np.zeros(h, np.int64)
    common = np.zeros(h, np.int64)
    energy = _energy(x, cx, guesses, cg, blacks, commons, black, common)
    over = 0
    for c in range(colors):
        over += max(cx[c] - limit, 0)
    return x, cx, cg, black, common, energy, over


@nb.njit(cache=CACHE, inline="always")
def _recolour_delta(x, cx, p, a, guesses, cg, blacks, commons, black, common):
    """Energy change of recolouring peg ``p`` to colour ``a`` (the repetition limit aside)."""
    old = x[p]
    d = 0
    for i in range(guesses.shape[0]):
        g = guesses[i, p]
        nb_ = black[i] + (g == a) - (g == old)
        # One more ``a`` adds a shared colour while the guess has more of it;
        # one less ``old`` removes one while the code had no more than the guess.
        nc = common[i] + (cx[a] < cg[i, a]) - (cx[old] <= cg[i, old])
        d += abs(nb_ - blacks[i]) - abs(black[i] - blacks[i]) + abs(nc - commons[i]) - abs(common[i] - commons[i])
    return d


@nb.njit(cache=CACHE, inline="always")
def _recolour(x, cx, p, a, guesses, cg, black, common):
    """Recolour peg ``p`` to ``a``, updating the counts and every guess's black and common."""
    old = x[p]
    for i in range(guesses.shape[0]):
        g = guesses[i, p]
        black[i] += (g == a) - (g == old)
        common[i] += (cx[a] < cg[i, a]) - (cx[old] <= cg[i, old])
    cx[old] -= 1
    cx[a] += 1
    x[p] = a


@nb.njit(cache=CACHE, inline="always")
def _swap_delta(x, p, q, guesses, blacks, black):
    """Energy change of swapping the colours of pegs ``p`` and ``q`` (a swap keeps the colour
    counts, hence every common count)."""
    a, b = x[p], x[q]
    d = 0
    for i in range(guesses.shape[0]):
        gp, gq = guesses[i, p], guesses[i, q]
        nb_ = black[i] - (gp == a) - (gq == b) + (gp == b) + (gq == a)
        d += abs(nb_ - blacks[i]) - abs(black[i] - blacks[i])
    return d


@nb.njit(cache=CACHE, inline="always")
def _swap(x, p, q, guesses, black):
    """Swap the colours of pegs ``p`` and ``q``, updating every guess's black."""
    a, b = x[p], x[q]
    for i in range(guesses.shape[0]):
        gp, gq = guesses[i, p], guesses[i, q]
        black[i] += (gp == b) + (gq == a) - (gp == a) - (gq == b)
    x[p] = b
    x[q] = a


@nb.njit(cache=CACHE)
def metropolis(start, guesses, blacks, commons, colors, limit, want, thin, steps, beta, seed):
    """Up to ``want`` consistent codes met by a Metropolis walk from ``start``.

    Moves: recolour one peg (seven times in ten; never above ``limit`` of a
    colour) or swap two pegs' colours. A start with more than ``limit`` pegs of
    a colour counts each peg too many as a unit of energy. A code is recorded
    when the walk is at energy 0 and at least ``thin`` steps have passed since
    the last record.
    Stops after ``want`` codes or ``steps`` steps. ``start`` need not be
    consistent. Returns (codes, steps taken, final inverse temperature, the
    code of least energy met); the codes may repeat (a small set is met again
    and again).
    """
    np.random.seed(seed)
    h, pegs = guesses.shape
    out = np.empty((want, pegs), np.int64)
    x, cx, cg, black, common, energy, over = _state(start, guesses, blacks, commons, colors, limit)
    # A start may repeat a colour too often: each peg too many is a unit of energy.
    energy += over
    nearest = x.copy()
    least = energy
    got = 0
    since = thin
    at_zero = 0  # steps at energy 0 in the current window
    window = 2000
    t = 0
    while t < steps and got < want:
        t += 1
        if np.random.random() < 0.7 or pegs < 2:
            p = np.random.randint(pegs)
            old = x[p]
            a = np.random.randint(colors - 1)
            if a >= old:
                a += 1
            if cx[a] + 1 <= limit:
                d = (-1 if cx[old] > limit else 0) + _recolour_delta(x, cx, p, a, guesses, cg, blacks, commons,
                                                                    black, common)
                if d <= 0 or np.random.random() < np.exp(-beta * d):
                    _recolour(x, cx, p, a, guesses, cg, black, common)
                    energy += d
        else:
            p = np.random.randint(pegs)
            q = np.random.randint(pegs - 1)
            if q >= p:
                q += 1
            if x[p] != x[q]:
                d = _swap_delta(x, p, q, guesses, blacks, black)
                if d <= 0 or np.random.random() < np.exp(-beta * d):
                    _swap(x, p, q, guesses, black)
                    energy += d
        since += 1
        if energy < least:
            least = energy
            nearest[:] = x
        if energy == 0:
            at_zero += 1
            if since >= thin:
                out[got] = x
                got += 1
                since = 0
        if t % window == 0:
            # Keep a tenth to two fifths of the steps at energy 0: colder when the
            # walk strays among inconsistent codes, warmer when it is stuck.
            share = at_zero / window
            if share < 0.1:
                beta += 0.25
            elif share > 0.4 and beta > 0.5:
                beta -= 0.25
            at_zero = 0
    return out[:got], t, beta, nearest


# -- exact enumeration of small sets ------------------------------------------------------
@nb.njit(cache=CACHE)
def count_vectors(cg, commons, pegs, colors, limit, cap, node_cap=1 << 62):
    """Colour-count vectors (each count at most ``limit``, summing to ``pegs``) that share
    ``commons[i]`` colours with every guess (colour counts ``cg[i]``).

    Returns (the vectors, how many there are), or (the vectors found so far,
    ``cap + 1``) as soon as there are more than ``cap`` or the search has tried
    ``node_cap`` partial vectors.
    """
    h = cg.shape[0]
    out = np.empty((cap, colors), np.int64)
    got = 0
    n = np.zeros(colors, np.int64)
    part = np.zeros((colors + 1, h), np.int64)  # shared colours of colours < c, per guess
    rest = np.zeros((colors + 1, h), np.int64)  # pegs of colours >= c in each guess
    for i in range(h):
        for c in range(colors - 1, -1, -1):
            rest[c, i] = rest[c + 1, i] + cg[i, c]
    used = np.zeros(colors + 1, np.int64)
    c = 0
    n[0] = -1
    nodes = 0
    while c >= 0:
        n[c] += 1
        nodes += 1
        if nodes > node_cap:
            return out[:got], cap + 1
        left = pegs - used[c]
        if n[c] > min(limit, left):
            n[c] = -1
            c -= 1
            continue
        fine = True
        for i in range(h):
            m = part[c, i] + min(cg[i, c], n[c])
            if m > commons[i] or m + min(rest[c + 1, i], left - n[c]) < commons[i]:
                fine = False
                break
        if not fine:
            continue
        if c == colors - 1:
            if n[c] == left:
                if got == cap:
                    return out, cap + 1
                out[got] = n
                got += 1
            continue
        for i in range(h):
            part[c + 1, i] = part[c, i] + min(cg[i, c], n[c])
        used[c + 1] = used[c] + n[c]
        c += 1
        n[c] = -1
    return out[:got], got


@nb.njit(cache=CACHE)
def codes_with_counts(guesses, blacks, vectors, colors, out, node_cap):
    """Every code whose colour counts are a row of ``vectors`` and that gets
    ``blacks[i]`` black pegs from each guess, written to ``out``.

    A depth-first search over pegs: a colour is placed only if every guess can
    still reach its black count exactly with the colours left (at most the
    pegs where guess and remaining colours can meet, at least what the
    remaining colours force onto the guess's pegs). Returns (codes found,
    complete): incomplete when more than ``len(out)`` codes exist or the search
    visits ``node_cap`` nodes.
    """
    h, pegs = guesses.shape
    ahead = _ahead(guesses, colors)
    x = np.zeros(pegs, np.int64)
    black = np.zeros(h, np.int64)
    got = 0
    nodes = 0
    for v in range(vectors.shape[0]):
        left = vectors[v].copy()
        black[:] = 0
        found, used, stopped = _depth_first(x, 0, left, black, guesses, blacks, ahead, colors, out, got,
                                            node_cap - nodes, False)
        got += found
        nodes += used
        if stopped:
            return got, False
    return got, True


# -- weighted draws of small sets ------------------------------------------------------------
@nb.njit(cache=CACHE)
def _allowed(c, d, left, black, guesses, blacks, ahead, colors):
    """Whether colour ``c`` at peg ``d`` (``left`` colours still to place after it is taken
    out, ``black`` pegs so far) leaves every guess able to reach its black count."""
    h, pegs = guesses.shape
    after = pegs - d - 1
    for i in range(h):
        need = blacks[i] - black[i] - (guesses[i, d] == c)
        most = 0
        least = 0
        for k in range(colors):
            a = ahead[i, d + 1, k]
            most += min(left[k], a)
            forced = left[k] - (after - a)
            if forced > 0:
                least += forced
        if need < least or need > most:
            return False
    return True


@nb.njit(cache=CACHE)
def _ahead(guesses, colors):
    # ahead[i, d, c]: pegs at or after d where guess i has colour c.
    h, pegs = guesses.shape
    ahead = np.zeros((h, pegs + 1, colors), np.int64)
    for i in range(h):
        for d in range(pegs - 1, -1, -1):
            for c in range(colors):
                ahead[i, d, c] = ahead[i, d + 1, c]
            ahead[i, d, guesses[i, d]] += 1
    return ahead


@nb.njit(cache=CACHE)
def _depth_first(x, d0, left, black, guesses, blacks, ahead, colors, out, got, node_cap, pick):
    """Every completion of ``x[:d0]`` (pegs d0.. from the colours ``left``, ``black`` pegs so
    far per guess) that :func:`_allowed` lets through to the last peg.

    Without ``pick``, each completion is written to ``out`` from row ``got`` on; with
    ``pick``, one completion chosen uniformly (reservoir sampling) is left in ``x``.
    Returns (completions, nodes, stopped): stopped is 1 when ``out`` is full and another
    completion is found, 2 when the search passes ``node_cap`` nodes, else 0.
    """
    h, pegs = guesses.shape
    chosen = x.copy()
    found = 0
    nodes = 0
    choice = np.full(pegs + 1, -1, np.int64)
    d = d0
    while d >= d0:
        if d == pegs:
            if not pick:
                if got + found == out.shape[0]:
                    return found, nodes, 1
                out[got + found] = x
            found += 1
            if pick and np.random.randint(found) == 0:
                chosen[:] = x
            if d == d0:  # nothing left to place: x[:d0] was the one completion
                break
            d -= 1
            left[x[d]] += 1
            for i in range(h):
                black[i] -= guesses[i, d] == x[d]
            continue
        choice[d] += 1
        c = choice[d]
        if c >= colors:
            choice[d] = -1
            d -= 1
            if d >= d0:
                left[x[d]] += 1
                for i in range(h):
                    black[i] -= guesses[i, d] == x[d]
            continue
        if left[c] == 0:
            continue
        nodes += 1
        if nodes > node_cap:
            return found, nodes, 2
        left[c] -= 1
        if not _allowed(c, d, left, black, guesses, blacks, ahead, colors):
            left[c] += 1
            continue
        x[d] = c
        for i in range(h):
            black[i] += guesses[i, d] == c
        d += 1
    if pick:
        x[:] = chosen
    return found, nodes, 0


@nb.njit(cache=CACHE)
def descend(guesses, blacks, vectors, colors, draws, tries, tail, node_cap, seed):
    """Random consistent codes with importance weights: a sequential importance sampler.

    Each try picks a colour-count vector (a row of ``vectors``) uniformly, then
    fills the first ``pegs - tail`` pegs in order, each with a colour drawn
    uniformly among those the bounds of :func:`codes_with_counts` allow, and
    counts the completions of that prefix exactly (at most ``node_cap`` search
    nodes), taking one of them uniformly. A code is reached with probability
    proportional to ``1 / (prod(choices per peg) * completions)``, so that
    product, its weight, makes the weighted draws uniform over the consistent
    set (weights are returned as logarithms). A try whose prefix has no
    completion (or too many to count) is dropped. Stops after ``draws`` codes or
    ``tries`` tries. Returns (codes, log-weights, tries made).
    """
    np.random.seed(seed)
    h, pegs = guesses.shape
    ahead = _ahead(guesses, colors)
    out = np.empty((draws, pegs), np.int64)
    weight = np.empty(draws, np.float64)
    allowed = np.empty(colors, np.int64)
    black = np.zeros(h, np.int64)
    x = np.zeros(pegs, np.int64)
    head = max(pegs - tail, 0)
    nothing = np.empty((0, pegs), np.int64)
    got = 0
    t = 0
    while got < draws and t < tries:
        t += 1
        left = vectors[np.random.randint(vectors.shape[0])].copy()
        black[:] = 0
        logw = 0.0
        dead = False
        for d in range(head):
            n = 0
            for c in range(colors):
                if left[c] == 0:
                    continue
                left[c] -= 1
                if _allowed(c, d, left, black, guesses, blacks, ahead, colors):
                    allowed[n] = c
                    n += 1
                left[c] += 1
            if n == 0:
                dead = True
                break
            c = allowed[np.random.randint(n)]
            logw += np.log(n)
            left[c] -= 1
            x[d] = c
            for i in range(h):
                black[i] += guesses[i, d] == c
        if dead:
            continue
        found, _, stopped = _depth_first(x, head, left, black, guesses, blacks, ahead, colors, nothing, 0,
                                          node_cap, True)
        if stopped or found == 0:
            continue
        out[got] = x
        weight[got] = logw + np.log(found)
        got += 1
    return out[:got], weight[:got], t


# -- focused repair ---------------------------------------------------------------------------
@nb.njit(cache=CACHE, inline="always")
def _changes(kind, p, q, x, cx, limit):
    """Whether a move changes the code within the repetition limit: a recolour of peg ``p`` to
    colour ``q`` (``kind`` 0; above the limit only from a colour already above it) or a swap of
    pegs ``p`` and ``q`` (``kind`` 1)."""
    if kind == 0:
        return q != x[p] and (cx[q] + 1 <= limit or cx[x[p]] > limit)
    return x[p] != x[q]


@nb.njit(cache=CACHE)
def repair(start, guesses, blacks, commons, colors, limit, steps, noise, seed):
    """A code consistent with the history, sought by focused local search from ``start``.

    Where the walk (:func:`metropolis`) moves at random and meets the small
    consistent sets of late large games only by chance, each step here picks an
    entry whose feedback is off and the move among those that bear on it
    (recolour a peg to the guess's colour there or away from it, swap two pegs,
    or recolour toward or away from the colours the guess shares) that lowers
    the energy most; with probability ``noise`` a random one of them (as
    WalkSAT does, to leave local minima). Not a sampler: its answers are not
    uniform; the walk starts from them. Stops at energy 0 or after ``steps``
    steps. Returns (code, energy): energy 0 means consistent.
    """
    np.random.seed(seed)
    h, pegs = guesses.shape
    x, cx, cg, black, common, energy, over = _state(start, guesses, blacks, commons, colors, limit)
    # Candidate moves: kind (0 recolour, 1 swap), peg, colour or second peg.
    kinds = np.empty(2 * pegs + 2, np.int64)
    ps = np.empty(2 * pegs + 2, np.int64)
    qs = np.empty(2 * pegs + 2, np.int64)
    off = np.empty(h, np.int64)
    best_x = x.copy()
    best_e = energy + over
    for _ in range(steps):
        if energy == 0 and over == 0:
            return x, 0
        n_off = 0
        for i in range(h):
            if black[i] != blacks[i] or common[i] != commons[i]:
                off[n_off] = i
                n_off += 1
        n = 0
        if n_off == 0:
            # Only the repetition limit is broken: recolour a peg of a colour used too often.
            for p in range(pegs):
                if cx[x[p]] > limit:
                    kinds[n] = 0
                    ps[n] = p
                    qs[n] = np.random.randint(colors)
                    n += 1
                    break
        else:
            i = off[np.random.randint(n_off)]
            g = guesses[i]
            for p in range(pegs):
                if n >= kinds.shape[0] - 1:
                    break
                if black[i] < blacks[i] and x[p] != g[p]:
                    # One more black for i: the guess's colour here, by recolour or by a swap
                    # with a peg that has it (which keeps the colour counts).
                    kinds[n] = 0
                    ps[n] = p
                    qs[n] = g[p]
                    n += 1
                    q0 = np.random.randint(pegs)
                    for t in range(pegs):
                        q = (q0 + t) % pegs
                        if q != p and x[q] == g[p]:
                            kinds[n] = 1
                            ps[n] = p
                            qs[n] = q
                            n += 1
                            break
                elif black[i] > blacks[i] and x[p] == g[p]:
                    kinds[n] = 1 if np.random.random() < 0.5 else 0
                    ps[n] = p
                    if kinds[n] == 1:
                        q = np.random.randint(pegs - 1)
                        qs[n] = q + (q >= p)
                    else:
                        a = np.random.randint(colors - 1)
                        qs[n] = a + (a >= x[p])
                    n += 1
                elif black[i] == blacks[i] and common[i] != commons[i] and x[p] != g[p]:
                    # Shared colours off: recolour a peg (not a black one) toward or away
                    # from the guess's colours.
                    a = np.random.randint(colors)
                    if common[i] < commons[i]:
                        a = g[np.random.randint(pegs)]
                    kinds[n] = 0
                    ps[n] = p
                    qs[n] = a
                    n += 1
        if n == 0:
            kinds[0] = 0
            ps[0] = np.random.randint(pegs)
            qs[0] = np.random.randint(colors)
            n = 1
        # The best move, or with probability ``noise`` a random one.
        pick = -1
        if np.random.random() < noise:
            pick = np.random.randint(n)
        else:
            best_d = 1 << 30
            ties = 0
            for m in range(n):
                p, q = ps[m], qs[m]
                if not _changes(kinds[m], p, q, x, cx, limit):
                    continue
                if kinds[m] == 0:
                    d = _recolour_delta(x, cx, p, q, guesses, cg, blacks, commons, black, common)
                else:
                    d = _swap_delta(x, p, q, guesses, blacks, black)
                if d < best_d:
                    best_d, pick, ties = d, m, 1
                elif d == best_d:
                    ties += 1
                    if np.random.randint(ties) == 0:
                        pick = m
            if pick < 0:
                continue
        p, q = ps[pick], qs[pick]
        if not _changes(kinds[pick], p, q, x, cx, limit):
            continue
        if kinds[pick] == 0:
            over += (cx[q] + 1 > limit) - (cx[x[p]] > limit)
            _recolour(x, cx, p, q, guesses, cg, black, common)
        else:
            _swap(x, p, q, guesses, black)
        energy = 0
        for i in range(h):
            energy += abs(black[i] - blacks[i]) + abs(common[i] - commons[i])
        if energy + over < best_e:
            best_e = energy + over
            best_x[:] = x
    if energy == 0 and over == 0:
        return x, 0
    return best_x, best_e
