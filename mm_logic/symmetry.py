"""Symmetries of the consistent set: why most guesses need not be scored.

Renaming colours and permuting positions maps valid codes to valid codes and
keeps feedback: fb(a·x, a·s) = fb(x, s) (under the positional rule, renaming colours only:
:func:`moves_keep_feedback`). If a symmetry ``a`` maps the set S of
consistent codes onto itself, a guess ``x`` splits S exactly as ``a·x`` does,
so scoring strategies score one code per orbit of a group of such symmetries.
The orbit's smallest code stands for it, and membership of S is the same
across an orbit, so the contract's tie-break (prefer consistent, then
smallest) picks the same code as scoring every guess.

Two kinds of symmetries are used:

* *free colours* (case equivalence): colours that no guess of the history
  uses can be swapped (the history is unchanged), and so can colours that no
  consistent code contains (S does not see them). These swaps form a normal
  subgroup N: a block's colours are renamed in order of first appearance to
  the block's colours in increasing order, which gives the smallest code of an
  N-orbit.
* *moves* ``(sigma, pi)``, acting as ``y[p] = pi[x[sigma[p]]]``, that fix
  every guess of the history (they fix every feedback, hence S): position
  permutations with the one colour renaming that maps each guess onto itself
  (:func:`position_symmetries`).

A code is skipped when N's canonical form, or a move followed by it, makes
it smaller: it is then not the smallest of its orbit. (The moves permute the
blocks, so each element of the group both generate is an element of N after
a move: with every move, exactly the orbits' smallest codes are kept.) The
moves used are a subset that is cheap to find and to apply: swaps of two
positions whose columns in the history are equal, and matchings of the
distinct columns, at most :data:`MAX_MOVES`. Any subset keeps every orbit's
smallest code: fewer codes are skipped, the result is the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import permutations
from math import comb

import numpy as np

from .codespace import CodeSpace, code_space
from .feedback import rule_of
from .notation import Code, Entry
from .rules import Rules

#: The search for moves stops after this many (a subset of them is still correct).
MAX_MOVES = 2000


@dataclass(frozen=True)
class Symmetries:
    """The symmetries of a consistent set, as arrays for :func:`mm_logic.kernels.scoring.best_guess`.

    ``blocks``: the free colour blocks; ``sigmas`` ``(h, pegs)`` and ``pis``
    ``(h, colors)``: the moves (the identity left out); ``block_of[c]``: the
    free block of colour ``c`` (-1: none); block ``b``'s colours, increasing,
    are ``block_colors[block_start[b]:]`` (as many as the block has).
    """

    blocks: tuple[tuple[int, ...], ...]
    sigmas: np.ndarray
    pis: np.ndarray
    block_of: np.ndarray
    block_colors: np.ndarray
    block_start: np.ndarray

    @classmethod
    def of(cls, rules: Rules, blocks: list[list[int]], moves: list[tuple[np.ndarray, np.ndarray]]) -> Symmetries:
        block_of = np.full(rules.colors, -1, dtype=np.int64)
        for b, block in enumerate(blocks):
            block_of[block] = b
        starts = np.cumsum([0] + [len(b) for b in blocks])[:-1]
        sigmas = np.array([s for s, _ in moves], dtype=np.int64).reshape(len(moves), rules.pegs)
        pis = np.array([p for _, p in moves], dtype=np.int64).reshape(len(moves), rules.colors)
        colors = np.array([c for b in blocks for c in b], dtype=np.int64)
        return cls(tuple(tuple(b) for b in blocks), sigmas, pis, block_of, colors,
                   np.asarray(starts, dtype=np.int64))


def symmetries(space: CodeSpace, history: list[Entry], alive: np.ndarray | None = None) -> Symmetries:
    """The free colour blocks and the moves of a history (``alive``: its consistent codes)."""
    blocks = tuple(tuple(b) for b in free_colour_blocks(space, history, alive))
    return _symmetries(space.rules, blocks, tuple(tuple(guess) for guess, _ in history))


@lru_cache(maxsize=1024)
def _symmetries(rules: Rules, blocks: tuple[tuple[int, ...], ...], guesses: tuple[tuple[int, ...], ...]
                ) -> Symmetries:
    # Kept: the moves depend on the guesses alone, which sibling nodes of a bench's tree share.
    moves = position_symmetries(rules, [(g, None) for g in guesses]) if moves_keep_feedback(rules) else []
    return Symmetries.of(rules, [list(b) for b in blocks], moves)


@dataclass(frozen=True)
class GameSymmetry:
    """Which maps of codes keep every feedback of a game (and map its codes onto themselves): what the
    searches may assume. Nothing is assumed: a built-in rule declares it (:class:`~mm_logic.feedback.FeedbackRule`,
    checked on its table by the tests), a rule of one's own has it found on its feedback table
    (:func:`game_symmetry`); a game with none is searched without, correctly, only slower."""

    #: Every order of the pegs: fb(sigma g, sigma s) = fb(g, s).
    moves_pegs: bool
    #: Every renaming of the colours.
    renames_colours: bool
    #: A colour renamed on one peg alone (black pegs with repetition allowed).
    per_peg: bool = False

    @property
    def any(self) -> bool:
        return self.moves_pegs or self.renames_colours or self.per_peg


#: No map assumed (``optimal --no-symmetry``, and a rule whose table shows none).
NO_SYMMETRY = GameSymmetry(False, False, False)


def game_symmetry(rules: Rules, secrets: np.ndarray | None = None) -> GameSymmetry:
    """The symmetries of a game's feedback rule over its codes: declared by a built-in rule, found on the
    feedback table for a rule of one's own (:func:`table_symmetry`; none beyond the table's size limit).

    ``secrets``: the codes an edited encoding admits (indices, increasing; None: every code). A group is
    kept only where it also maps them onto themselves (palindromes are not closed under moving pegs);
    the per-peg renamings of black pegs, only for every code."""
    rule = rule_of(rules)
    if rule.moves_pegs is not None and rule.renames_colours is not None:
        found = GameSymmetry(rule.moves_pegs, rule.renames_colours, rule.renames_per_peg and not rules.restricted)
    else:
        found = _found_symmetry(rules.truthful)
    if secrets is None or secrets.size == rules.size:
        return found
    space = code_space(rules)
    inside = np.zeros(space.size, dtype=bool)
    inside[secrets] = True
    codes = np.asarray(space.codes, dtype=np.int64)

    def closed(mapped: np.ndarray) -> bool:
        return bool(np.array_equal(inside[space.index_of(mapped)], inside))

    return GameSymmetry(found.moves_pegs and _group_keeps(rules.pegs, lambda order: closed(codes[:, order])),
                        found.renames_colours and _group_keeps(rules.colors, lambda renaming: closed(renaming[codes])))


def _group_keeps(size: int, keeps) -> bool:
    """Whether every permutation of ``size`` things keeps what ``keeps(permutation)`` checks: its two
    generators do (a swap of the first two, a cycle of all)."""
    if size < 2:
        return True
    swap = np.arange(size)
    swap[[0, 1]] = [1, 0]
    cycle = np.roll(np.arange(size), -1)
    return keeps(swap) and (size == 2 or keeps(cycle))


@lru_cache(maxsize=16)
def _found_symmetry(rules: Rules) -> GameSymmetry:
    space = code_space(rules)
    if not space.has_table:
        return NO_SYMMETRY
    return table_symmetry(space, space.table)


def table_symmetry(space: CodeSpace, table: np.ndarray) -> GameSymmetry:
    """Which of the game's two groups keep every entry of ``table`` (``table[g, s]``, feedback indices over the
    whole code space): every order of the pegs, every renaming of the colours. A group keeps the table when
    its generators do (a swap of two and a cycle of all, each group being generated by those two), so four
    maps of the codes are checked, each over the whole table."""
    rules = space.rules
    codes = np.asarray(space.codes, dtype=np.int64)

    def keeps(mapped: np.ndarray) -> bool:
        # A map of codes keeps the feedback when table[m(g), m(s)] = table[g, s] for every pair.
        index = space.index_of(mapped)
        if not np.array_equal(space.codes[index], mapped):
            return False  # not a map of the code space onto itself
        return bool(np.array_equal(table[np.ix_(index, index)], table))

    pegs = _group_keeps(rules.pegs, lambda order: keeps(codes[:, order]))
    colours = _group_keeps(rules.colors, lambda renaming: keeps(renaming[codes]))
    return GameSymmetry(pegs, colours)


def moves_keep_feedback(rules: Rules) -> bool:
    """Whether permuting positions keeps the game's feedback: fb(sigma x, sigma s) = fb(x, s) for black and
    white pegs and for black pegs alone, not for positional marks, whose o go to the earlier pegs first
    (``0 1 1`` against ``1 2 0`` gives ``oo-``, its pegs reversed ``1 1 0`` against ``0 2 1`` give ``o-o``);
    a rule of one's own as its table shows (:func:`game_symmetry`). A move renames colours too (it maps each
    guess onto itself), so both must keep the feedback."""
    found = game_symmetry(rules)
    return found.moves_pegs and found.renames_colours


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
    return sorted(sorted(b) for b in blocks)


def position_symmetries(rules: Rules, history: list[Entry], limit: int = MAX_MOVES
                        ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Pairs ``(sigma, pi)``, acting as ``y[p] = pi[x[sigma[p]]]``, that fix every guess.

    A guess ``g`` is fixed when ``pi[g[sigma[p]]] = g[p]`` for every ``p``:
    seen down the columns of the history (column ``p``: the colours of every
    guess at position ``p``), ``pi`` maps column ``sigma[p]`` onto column
    ``p``. Positions with the same column may be swapped freely: each pair of
    them that are next to each other in that class is one move (which keeps a
    code only if its colours increase along the class). Then the distinct
    columns are matched to each other, a class to a class as large, each
    keeping ``pi`` one-to-one (colours no guess uses stay where they are),
    positions in order. These moves are a subset of the group (the identity
    left out; at most ``limit`` of the second kind), which is all the
    orbits' smallest codes need.
    """
    pegs, colors = rules.pegs, rules.colors
    columns = [tuple(int(guess[p]) for guess, _ in history) for p in range(pegs)]
    distinct = sorted(set(columns), key=columns.index)
    classes = [[p for p in range(pegs) if columns[p] == column] for column in distinct]
    identity = np.arange(colors, dtype=np.int64)
    found: list[tuple[np.ndarray, np.ndarray]] = []
    for positions in classes:
        for p, q in zip(positions, positions[1:]):
            sigma = np.arange(pegs, dtype=np.int64)
            sigma[p], sigma[q] = q, p
            found.append((sigma, identity))
    k = len(classes)
    image = [0] * k  # class j takes its colours from class image[j]
    taken = [False] * k
    pi: dict[int, int] = {}
    source: dict[int, int] = {}
    matched = 0

    def extend(j: int) -> None:
        nonlocal matched
        if j == k:
            if image != list(range(k)):
                sigma = np.empty(pegs, dtype=np.int64)
                for target, origin in zip(classes, (classes[i] for i in image)):
                    sigma[target] = origin
                colours = identity.copy()
                for a, b in pi.items():
                    colours[a] = b
                found.append((sigma, colours))
                matched += 1
            return
        for i in range(k):
            if taken[i] or len(classes[i]) != len(classes[j]) or matched >= limit:
                continue
            added = []
            fits = True
            for a, b in zip(distinct[i], distinct[j]):
                if a in pi:
                    fits = pi[a] == b
                elif b in source:
                    fits = False
                else:
                    pi[a], source[b] = b, a
                    added.append(a)
                if not fits:
                    break
            if fits:
                taken[i], image[j] = True, i
                extend(j + 1)
                taken[i] = False
            for a in added:
                del source[pi.pop(a)]

    extend(0)
    return found


def block_pool(space: CodeSpace, blocks: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """Indices (``int32``, increasing) of the codes that are smallest under the blocks' colour swaps.

    Kept per space for the last blocks asked (a bench meets the same few
    blocks at many nodes), within :data:`POOL_BYTES`.
    """
    pools = space.pools
    if blocks in pools:
        pools[blocks] = pools.pop(blocks)  # most recently used last
        return pools[blocks]
    if blocks:
        from .kernels.orbits import representatives
        sym = Symmetries.of(space.rules, [list(b) for b in blocks], [])
        pool = np.flatnonzero(representatives(space.codes, sym.sigmas, sym.pis, sym.block_of, sym.block_colors,
                                              sym.block_start)).astype(np.int32)
    else:
        pool = np.arange(space.size, dtype=np.int32)
    while pools and sum(p.nbytes for p in pools.values()) + pool.nbytes > POOL_BYTES:
        pools.pop(next(iter(pools)))
    pools[blocks] = pool
    return pool


#: Bytes of candidate pools kept per code space (:func:`block_pool`).
POOL_BYTES = 64 << 20


def orbit_representatives(space: CodeSpace, history: list[Entry],
                          alive: np.ndarray | None = None) -> np.ndarray:
    """Indices of the smallest code of every orbit, increasing.

    ``alive`` (indices of the consistent codes) allows the swaps of colours
    they do not contain.
    """
    from .kernels.orbits import representatives
    sym = symmetries(space, history, alive)
    return np.flatnonzero(representatives(space.codes, sym.sigmas, sym.pis, sym.block_of,
                                          sym.block_colors, sym.block_start))


def opening_count(rules: Rules) -> int:
    """How many codes :func:`canonical_openings` lists, counted without listing them (64 pegs of 255
    colours have 1,741,630 openings: listing them took 19 s and 1 GB).

    >>> from mm_logic.rules import Rules
    >>> [opening_count(r) == len(canonical_openings(r)) for r in (Rules(4, 6), Rules(5, 3, 2), Rules(6, 8, 1))]
    [True, True, True]
    >>> opening_count(Rules(64, 255))
    1741630
    >>> [opening_count(r) == len(canonical_openings(r)) for r in (Rules(4, 6, feedback="positional"),
    ...                                                           Rules(5, 3, 2, feedback="positional"))]
    [True, True]
    """
    found = game_symmetry(rules)
    if not found.renames_colours:
        return len(canonical_openings(rules))  # no colour symmetry: games small enough for a table
    if not found.moves_pegs:
        return _colour_classes(rules.pegs, rules.repeat_limit, rules.colors)

    @cache
    def count(remaining: int, largest: int, colours: int) -> int:
        # Partitions of `remaining` pegs into at most `colours` parts of at most `largest` each.
        if remaining == 0:
            return 1
        if colours == 0:
            return 0
        return sum(count(remaining - part, part, colours - 1) for part in range(1, min(largest, remaining) + 1))

    return count(rules.pegs, rules.repeat_limit, rules.colors)


def canonical_openings(rules: Rules, symmetry: GameSymmetry | None = None) -> list[Code]:
    """One code per class of openings equivalent under the game's colour and position symmetry
    (:func:`game_symmetry`: colour symmetry alone where moving pegs changes the feedback, every code
    where the rule tells colours apart).

    Each is the smallest code of its class: colour 0 used most, then colour 1...
    (``0000, 0001, 0011, 0012, 0123`` for 4 pegs and 6 colours). Since scores are
    symmetric, the best opening over all codes, with ties broken towards the
    smallest code, is the best of these. ``symmetry``: the maps to use (default: the game's).
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

    found_symmetry = game_symmetry(rules) if symmetry is None else symmetry
    if not found_symmetry.renames_colours:
        # Colours told apart: every code, or with the pegs in any order, the codes whose colours never decrease.
        codes = code_space(rules).codes
        if found_symmetry.moves_pegs:
            codes = codes[np.all(codes[:, 1:] >= codes[:, :-1], axis=1)]
        return [tuple(code) for code in codes.tolist()]
    if not found_symmetry.moves_pegs:
        return _colour_patterns(rules)
    extend(rules.pegs, rules.repeat_limit, [])
    return sorted(found)


@cache
def _colour_classes(pegs: int, limit: int, colours: int) -> int:
    """Codes of ``pegs`` pegs up to renaming colours: partitions of the pegs into at most ``colours``
    sets of at most ``limit`` (the set of the first peg has ``s`` pegs, chosen among the others)."""
    if pegs == 0:
        return 1
    if colours == 0:
        return 0
    return sum(comb(pegs - 1, s - 1) * _colour_classes(pegs - s, limit, colours - 1)
               for s in range(1, min(limit, pegs) + 1))


def _colour_patterns(rules: Rules) -> list[Code]:
    """One code per class of codes up to renaming colours (the openings where positions are no symmetry):
    colours numbered in order of first appearance (``0000 0001 0010 0011 0012 0100 ...``), increasing."""
    found: list[Code] = []

    def extend(code: list[int], counts: list[int]) -> None:
        if len(code) == rules.pegs:
            found.append(tuple(code))
            return
        for c in range(min(len(counts) + 1, rules.colors)):
            if c < len(counts) and counts[c] >= rules.repeat_limit:
                continue
            extend(code + [c], counts[:c] + [counts[c] + 1] + counts[c + 1:] if c < len(counts) else counts + [1])

    extend([], [])
    return found


def code_maps(rules: Rules, *, move_pegs: bool = True, renamed: int | None = None) -> np.ndarray:
    """``maps[s, i]``: the index of the code that symmetry ``s`` makes of code ``i``: every order of the
    pegs (the identity alone when not ``move_pegs``), each followed by every renaming of the first
    ``renamed`` colours (all of them by default), in that order; row 0 is the identity."""
    space = code_space(rules)
    colours = rules.colors if renamed is None else renamed
    renamings = np.array([list(p) + list(range(colours, rules.colors)) for p in permutations(range(colours))],
                         dtype=np.int64)
    codes = np.asarray(space.codes, dtype=np.int64)
    orders = permutations(range(rules.pegs)) if move_pegs else [tuple(range(rules.pegs))]
    maps = [space.index_of(renamings[:, codes[:, list(order)]].reshape(-1, rules.pegs)).reshape(len(renamings),
                                                                                                   space.size)
            for order in orders]
    return np.concatenate(maps).astype(np.int16 if space.size < 2**15 else np.int32)

