"""Symmetries of the consistent set: why most guesses need not be scored.

Renaming colours and permuting positions maps valid codes to valid codes and
keeps feedback: fb(a·x, a·s) = fb(x, s). If a symmetry ``a`` maps the set S of
consistent codes onto itself, a guess ``x`` splits S exactly as ``a·x`` does,
so scoring strategies score one code per orbit of a group of such symmetries.
The orbit's smallest code stands for it, and membership of S is the same
across an orbit, so the contract's tie-break (prefer consistent, then
smallest) picks the same code as scoring every guess.

Two kinds of symmetries are used: those that fix every guess of the history
(they fix every feedback, hence S), and swaps of colours that no code of S
contains (S does not see them).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

import numpy as np

from .codespace import CodeSpace
from .notation import Code, Entry
from .rules import Rules

#: Position permutations are searched only up to this many pegs (P! of them).
MAX_PERMUTED_PEGS = 7


def free_colour_blocks(space: CodeSpace, history: list[Entry], alive: np.ndarray | None) -> list[list[int]]:
    """Disjoint sets of colours that may be permuted freely.

    Colours no guess uses can be swapped (the history is unchanged), and so can
    colours no consistent code contains. Two such sets that overlap generate
    all permutations of their union, so the result is the union's components.
    """
    colors = space.rules.colors
    used = {int(c) for guess, _ in history for c in guess}
    sets = [{c for c in range(colors) if c not in used}]
    if alive is not None:
        present = set(np.flatnonzero(space.counts[alive].any(axis=0)).tolist())
        sets.append({c for c in range(colors) if c not in present})
    blocks: list[set[int]] = []
    for group in sets:
        merged = set(group)
        for block in [b for b in blocks if b & merged]:
            merged |= block
            blocks.remove(block)
        if len(merged) > 1:
            blocks.append(merged)
    return [sorted(b) for b in blocks]


def canonical_under_blocks(codes: np.ndarray, blocks: list[list[int]], colors: int) -> np.ndarray:
    """The smallest image of each code under permutations of each block's colours.

    Within a block, colours are renamed in order of first appearance to the
    block's colours in increasing order: the lexicographic minimum of the orbit.
    """
    out = codes.astype(np.int64, copy=True)
    if not blocks:
        return out
    n, pegs = codes.shape
    block_of = np.full(colors, -1)
    for b, block in enumerate(blocks):
        block_of[block] = b
    targets = np.full((len(blocks), colors), -1)
    for b, block in enumerate(blocks):
        targets[b, : len(block)] = block
    renamed = np.full((n, colors), -1)
    used = np.zeros((n, len(blocks)), dtype=np.int64)
    rows = np.arange(n)
    for p in range(pegs):
        c = out[:, p]
        b = block_of[c]
        free = b >= 0
        fresh = free & (renamed[rows, c] < 0)
        r, cf, bf = rows[fresh], c[fresh], b[fresh]
        renamed[r, cf] = targets[bf, used[r, bf]]
        used[r, bf] += 1
        out[free, p] = renamed[rows[free], c[free]]
    return out


def position_symmetries(space: CodeSpace, history: list[Entry]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Pairs ``(sigma, pi)``, acting as ``y[p] = pi[x[sigma[p]]]``, that fix every guess.

    For each position permutation ``sigma``, a guess ``g`` is fixed when colour
    ``g[sigma[p]]`` is renamed ``g[p]``; that must be one consistent,
    one-to-one renaming over all guesses. (Searched up to
    :data:`MAX_PERMUTED_PEGS` pegs: a subgroup is still correct, only slower.)
    """
    pegs, colors = space.rules.pegs, space.rules.colors
    if pegs > MAX_PERMUTED_PEGS or not history or pegs < 2:
        return []
    guesses = np.array([g for g, _ in history], dtype=np.int64)
    sigmas = np.array(list(permutations(range(pegs)))[1:], dtype=np.int64)
    source = guesses[:, sigmas].transpose(1, 0, 2).reshape(len(sigmas), -1)
    target = np.broadcast_to(guesses.reshape(1, -1), source.shape)
    same_source = source[:, :, None] == source[:, None, :]
    same_target = target[:, :, None] == target[:, None, :]
    found = []
    for row in np.flatnonzero((same_source == same_target).all(axis=(1, 2))):
        pi = np.arange(colors)
        pi[source[row]] = target[row]
        found.append((sigmas[row], pi))
    return found


def orbit_representatives(space: CodeSpace, history: list[Entry],
                          alive: np.ndarray | None = None) -> np.ndarray:
    """Indices of the smallest code of every orbit, increasing.

    ``alive`` (indices of the consistent codes) allows the swaps of colours
    they do not contain. The colour swaps form a normal subgroup (the position
    symmetries map each block of free colours onto itself), so orbits are
    found on block-canonical codes, then merged along the position symmetries.
    """
    blocks = free_colour_blocks(space, history, alive)
    canon = _block_canonical_indices(space, tuple(tuple(b) for b in blocks))
    reps = np.flatnonzero(canon == np.arange(space.size))  # codes that are their own minimum
    moves = position_symmetries(space, history)
    if not moves:
        return reps
    # Label propagation to the orbit minimum, over block-canonical codes only.
    # Each move permutes the block orbits, so `image` is a permutation of reps.
    images = []
    for sigma, pi in moves:
        moved = pi[space.codes[reps][:, sigma]]
        images.append(np.searchsorted(reps, canon[space.index_of(moved)]))
    labels = np.arange(reps.size)
    while True:
        before = labels.copy()
        for image in images:
            np.minimum(labels, labels[image], out=labels)
            pushed = labels.copy()
            pushed[image] = np.minimum(labels[image], labels)
            labels = pushed
        if np.array_equal(before, labels):
            break
    return reps[np.flatnonzero(labels == np.arange(reps.size))]


@lru_cache(maxsize=256)
def _block_canonical_indices(space: CodeSpace, blocks: tuple[tuple[int, ...], ...]) -> np.ndarray:
    # Cached: a bench meets the same few blocks of free colours at many nodes.
    canon = canonical_under_blocks(space.codes, [list(b) for b in blocks], space.rules.colors)
    return space.index_of(canon)


def canonical_openings(rules: Rules) -> list[Code]:
    """One code per class of openings equivalent under colour and position symmetry.

    Each is the smallest code of its class: colour 0 used most, then colour 1...
    (``0000, 0001, 0011, 0012, 0123`` for 4 pegs and 6 colours). Since scores are
    symmetric, the best opening over all codes, with ties broken towards the
    smallest code, is the best of these.
    """
    found: list[Code] = []

    def extend(remaining: int, largest: int, parts: list[int]) -> None:
        if remaining == 0:
            found.append(tuple(c for c, part in enumerate(parts) for _ in range(part)))
            return
        if len(parts) == rules.colors:
            return
        for part in range(min(largest, remaining), 0, -1):
            extend(remaining - part, part, parts + [part])

    extend(rules.pegs, rules.repeat_limit, [])
    return sorted(found)
