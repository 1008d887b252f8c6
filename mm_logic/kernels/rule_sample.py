"""Compiled kernels of ``sample-entropy`` under any built-in feedback rule: a walk and a sample's entropies.

:mod:`mm_logic.kernels.sample` works from the standard rule's two numbers, black pegs and the
colours two codes share (black + white), which it updates peg by peg, and from colour-count
vectors, which only black + white constrains. Under the black-peg rule nothing tells the colour
counts, and positional marks are not a function of black and white (``o`` marks go to the earlier
pegs first), so none of that holds there. These kernels ask the rule's compiled definition for each
feedback (:mod:`mm_logic.kernels.packed`: ``_plain_feedback``, ``_plain_black``,
``_positional_marks``, the functions the scoring kernels count with), whatever the rule:

* a feedback is the rule's tuple (:class:`~mm_logic.feedback.FeedbackRule`): ``(black, white)``,
  ``(black,)``, or one mark per peg (2 ``x``, 1 ``o``, 0 ``-``); how far a code is from consistent
  (:func:`rule_distance`, the walk's energy) is the sum over the history of the L1 distance between
  the feedback it would give and the feedback told: 0 exactly for a consistent code, and one peg's
  change moves it by a few units, which is what a walk needs to find its way;
* :func:`rule_metropolis` is :func:`~mm_logic.kernels.sample.metropolis` with that energy, each
  move's energy computed afresh (the standard walk's incremental updates are the standard rule's);
* :func:`rule_entropies` and :func:`rule_climb` score candidates by the partition of a sample by
  their feedback, parts numbered by the rule's feedback index (positional marks' base-3 index; past
  39 pegs it wraps modulo 2**64 as in the scoring kernels, and two patterns would share a part only
  if their indices differ by a multiple of 2**64).

``rule`` is :func:`mm_logic.kernels.scoring.rule_code`'s (HASHED plays as POSITIONAL here).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .numba_cache import CACHE
from .packed import _plain_black, _plain_feedback, _positional_feedback, _positional_marks
from .sample import colour_counts
from .scoring_rank import BLACK, STANDARD, dense_ids, guess_colours


def feedback_width(rule: int, pegs: int) -> int:
    """How many numbers one feedback of ``rule`` is (the columns of ``told``)."""
    return 2 if rule == STANDARD else 1 if rule == BLACK else pegs


@nb.njit(cache=CACHE)
def _feedback(rule, guess, gcol, gcnt, ncol, x2, cx2, left, one, fb):
    """The rule's feedback tuple of ``guess`` against the code ``x2[0]`` (colour counts ``cx2[0]``),
    written to ``fb``."""
    if rule == STANDARD:
        _plain_feedback(one, guess, gcol, gcnt, ncol, x2, cx2, 0, 1)
        width = x2.shape[1] + 1
        black = one[0] // width
        fb[0] = black
        fb[1] = one[0] % width - black
    elif rule == BLACK:
        _plain_black(one, guess, x2, 0, 1)
        fb[0] = one[0]
    else:
        _positional_marks(fb, guess, x2[0], cx2[0], left)


@nb.njit(cache=CACHE)
def _energy(rule, x2, cx2, guesses, gcols, gcnts, ncols, told, left, one, fb):
    """How far the code ``x2[0]`` is from consistent: the L1 distance of its feedbacks from ``told``."""
    energy = 0
    for i in range(guesses.shape[0]):
        _feedback(rule, guesses[i], gcols[i], gcnts[i], ncols[i], x2, cx2, left, one, fb)
        for k in range(told.shape[1]):
            energy += abs(fb[k] - told[i, k])
    return energy


@nb.njit(cache=CACHE)
def _guesses_colours(guesses, colors):
    h, pegs = guesses.shape
    cg = colour_counts(guesses, colors)
    gcols = np.zeros((h, pegs), np.int64)
    gcnts = np.zeros((h, pegs), np.int64)
    ncols = np.zeros(h, np.int64)
    for i in range(h):
        ncols[i] = guess_colours(cg[i], gcols[i], gcnts[i])
    return gcols, gcnts, ncols


@nb.njit(cache=CACHE)
def rule_distance(codes, guesses, told, colors, rule):
    """For each row of ``codes``, how far it is from consistent with the history (``guesses`` and the
    feedback tuples ``told``): 0 for a consistent code (repetition rule aside)."""
    n, pegs = codes.shape
    gcols, gcnts, ncols = _guesses_colours(guesses, colors)
    x2 = np.empty((1, pegs), np.int64)
    cx2 = np.zeros((1, colors), np.int64)
    left = np.zeros(colors, np.int64)
    one = np.empty(1, np.int64)
    fb = np.empty(max(told.shape[1], pegs), np.int64)
    out = np.zeros(n, np.int64)
    for r in range(n):
        cx2[0, :] = 0
        for p in range(pegs):
            x2[0, p] = codes[r, p]
            cx2[0, codes[r, p]] += 1
        out[r] = _energy(rule, x2, cx2, guesses, gcols, gcnts, ncols, told, left, one, fb)
    return out


@nb.njit(cache=CACHE)
def rule_metropolis(start, guesses, told, colors, limit, want, thin, steps, beta, seed, rule):
    """Up to ``want`` consistent codes met by a Metropolis walk from ``start``, the energy that of
    :func:`rule_distance` plus one unit per peg above ``limit`` of a colour.

    The moves, the recording (energy 0, ``thin`` steps apart), the adaptive inverse temperature and
    the return value (codes, steps taken, final inverse temperature, the code of least energy met) are
    those of :func:`mm_logic.kernels.sample.metropolis`.
    """
    np.random.seed(seed)
    pegs = start.shape[0]
    out = np.empty((want, pegs), np.int64)
    gcols, gcnts, ncols = _guesses_colours(guesses, colors)
    x2 = np.empty((1, pegs), np.int64)
    cx2 = np.zeros((1, colors), np.int64)
    for p in range(pegs):
        x2[0, p] = start[p]
        cx2[0, start[p]] += 1
    x = x2[0]
    cx = cx2[0]
    left = np.zeros(colors, np.int64)
    one = np.empty(1, np.int64)
    fb = np.empty(max(told.shape[1], pegs), np.int64)
    over = 0
    for c in range(colors):
        over += max(cx[c] - limit, 0)
    energy = _energy(rule, x2, cx2, guesses, gcols, gcnts, ncols, told, left, one, fb) + over
    nearest = x.copy()
    least = energy
    got = 0
    since = thin
    at_zero = 0
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
                x[p] = a
                cx[old] -= 1
                cx[a] += 1
                now = over - (1 if cx[old] >= limit else 0)
                e = _energy(rule, x2, cx2, guesses, gcols, gcnts, ncols, told, left, one, fb) + now
                d = e - energy
                if d <= 0 or np.random.random() < np.exp(-beta * d):
                    energy = e
                    over = now
                else:
                    x[p] = old
                    cx[a] -= 1
                    cx[old] += 1
        else:
            p = np.random.randint(pegs)
            q = np.random.randint(pegs - 1)
            if q >= p:
                q += 1
            if x[p] != x[q]:
                x[p], x[q] = x[q], x[p]
                e = _energy(rule, x2, cx2, guesses, gcols, gcnts, ncols, told, left, one, fb) + over
                d = e - energy
                if d <= 0 or np.random.random() < np.exp(-beta * d):
                    energy = e
                else:
                    x[p], x[q] = x[q], x[p]
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
            share = at_zero / window
            if share < 0.1:
                beta += 0.25
            elif share > 0.4 and beta > 0.5:
                beta -= 0.25
            at_zero = 0
    return out[:got], t, beta, nearest


# -- entropies of a sample's partition --------------------------------------------------------
@nb.njit(cache=CACHE)
def _indices(rule, guess, gcol, gcnt, ncol, sample, counts, left, out):
    """The rule's feedback index of ``guess`` against every row of ``sample``, into ``out``."""
    m = sample.shape[0]
    if rule == STANDARD:
        _plain_feedback(out, guess, gcol, gcnt, ncol, sample, counts, 0, m)
    elif rule == BLACK:
        _plain_black(out, guess, sample, 0, m)
    else:
        _positional_feedback(out, guess, sample, counts, left, 0, m)


@nb.njit(cache=CACHE)
def _parts_entropy(out, keys, ids, taken, sizes, shift):
    """Entropy (bits) of the partition of the indices ``out`` (parts numbered densely through the hash
    table ``keys``/``ids``, left empty again)."""
    m = out.shape[0]
    ntaken, parts = dense_ids(out, m, keys, ids, taken, 0, 0, shift)
    sizes[:parts] = 0
    for j in range(m):
        sizes[out[j]] += 1
    e = 0.0
    for k in range(parts):
        f = sizes[k] / m
        e -= f * np.log2(f)
    for j in range(ntaken):
        keys[taken[j]] = -1
    return e


@nb.njit(cache=CACHE)
def _tables(m):
    size_log = 6
    while (1 << size_log) < 2 * m:
        size_log += 1
    return (np.full(1 << size_log, -1, np.int64), np.empty(1 << size_log, np.int64), np.empty(m, np.int64),
            np.empty(m, np.int64), 64 - size_log)


@nb.njit(cache=CACHE)
def rule_entropies(candidates, sample, colors, rule):
    """Entropy (bits) of the partition of ``sample`` by each candidate's feedback under ``rule``, and how
    many sample rows equal each candidate."""
    n, pegs = candidates.shape
    m = sample.shape[0]
    sc = colour_counts(sample, colors)
    cc = colour_counts(candidates, colors)
    gcol = np.empty(pegs, np.int64)
    gcnt = np.empty(pegs, np.int64)
    left = np.zeros(colors, np.int64)
    out = np.empty(m, np.int64)
    keys, ids, taken, sizes, shift = _tables(m)
    entropies = np.empty(n, np.float64)
    wins = np.zeros(n, np.int64)
    for r in range(n):
        ncol = guess_colours(cc[r], gcol, gcnt)
        _indices(rule, candidates[r], gcol, gcnt, ncol, sample, sc, left, out)
        entropies[r] = _parts_entropy(out, keys, ids, taken, sizes, shift)
        for s in range(m):
            same = True
            for p in range(pegs):
                if sample[s, p] != candidates[r, p]:
                    same = False
                    break
            wins[r] += same
    return entropies, wins


@nb.njit(cache=CACHE)
def rule_climb(guess, sample, colors, limit, rounds, rule):
    """``guess`` improved one peg at a time on the entropy of its partition of ``sample`` under ``rule``:
    :func:`mm_logic.kernels.entropies.climb`, each change's partition computed afresh. Returns
    (guess, entropy)."""
    pegs = guess.shape[0]
    m = sample.shape[0]
    g = guess.copy()
    sc = colour_counts(sample, colors)
    gc = np.zeros(colors, np.int64)
    for p in range(pegs):
        gc[g[p]] += 1
    gcol = np.empty(pegs, np.int64)
    gcnt = np.empty(pegs, np.int64)
    left = np.zeros(colors, np.int64)
    out = np.empty(m, np.int64)
    keys, ids, taken, sizes, shift = _tables(m)
    ncol = guess_colours(gc, gcol, gcnt)
    _indices(rule, g, gcol, gcnt, ncol, sample, sc, left, out)
    best = _parts_entropy(out, keys, ids, taken, sizes, shift)
    for _ in range(rounds):
        best_p, best_a, best_e = -1, -1, best + 1e-9
        for p in range(pegs):
            old = g[p]
            for a in range(colors):
                if a == old or gc[a] + 1 > limit:
                    continue
                g[p] = a
                gc[old] -= 1
                gc[a] += 1
                ncol = guess_colours(gc, gcol, gcnt)
                _indices(rule, g, gcol, gcnt, ncol, sample, sc, left, out)
                e = _parts_entropy(out, keys, ids, taken, sizes, shift)
                g[p] = old
                gc[a] -= 1
                gc[old] += 1
                if e > best_e:
                    best_p, best_a, best_e = p, a, e
        if best_p < 0:
            break
        gc[g[best_p]] -= 1
        gc[best_a] += 1
        g[best_p] = best_a
        best = best_e
    return g, best
