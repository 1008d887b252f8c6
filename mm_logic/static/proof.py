"""Static Mastermind proved by an exhaustive search (``mmlogic static --prove-exhaustive``): whether
k guesses fixed in advance tell every code apart, every set of k guesses tried up to the symmetries
of the game, by a branch and bound over the partition of the codes that the guesses leave alike.

The codes to tell apart (the table's columns) are every code, or the secrets of an edited code space
(an encoding's codes); the guesses (its rows) are every code of the rules either way.

The symmetries: renaming colours and moving pegs (``colours! x pegs!`` maps, or a subgroup of them
when that is too many to list, :data:`MAX_GROUP_ENTRIES`; those the feedback rule keeps) turn a set
that tells every code apart into another one, under every built-in feedback rule (each answer is
renamed alike: the positional rule's marks move with the pegs). With secrets, only the maps that also
map the secrets onto themselves are kept (:func:`symmetry_group`): a map ``a`` keeping the feedback
answers guess ``a g`` to secret ``s`` as ``g`` answers ``a^-1 s``, so ``a S`` tells the secrets apart
when S does exactly when ``a^-1`` permutes the secrets. Those maps form a group (the set stabiliser of
the secrets within the listed group), which is all the steps below use: orbits, and the maps of the
group fixing a code. So, without loss of generality, for a set S of k guesses:

1. S holds ``r``, the smallest code of the orbit, among S's orbits, whose smallest code is smallest
   (4x6: one of 0000, 0001, 0011, 0012, 0123), and every other guess has an orbit not smaller than
   ``r``'s (its smallest code ``>= r``);
2. under the maps that fix ``r``, S holds ``g2``, the smallest code of its orbit under them, and
   every other guess's orbit under them has its smallest code ``>= g2``;
3. likewise under the maps that fix both ``r`` and ``g2``: the third guess ``g3`` is the smallest of
   its orbit under them and the rest are guesses whose orbit's smallest code is ``>= g3``, in
   increasing order (a combination).

The branches are the pairs (``r``, ``g2``); each is searched by ``mm_logic.kernels.static_proof.search``
(compiled): the guesses added one at a time, the classes of codes alike refined by each answer
(:attr:`~mm_logic.codespace.CodeSpace.table`, the game's feedback rule), and a branch cut as soon as a
class has more codes than the guesses left can tell apart: ``bounds[j]``, the most classes j guesses
make of all codes (1 guess: the most answers one guess gives; 2 guesses: the most of every pair,
computed; more: products; each over the secrets, and a class of secrets has no more parts than all
the secrets have). At the last guess this asks that every class be split into single codes,
each candidate read until its first two codes alike.

>>> from mm_logic.rules import Rules
>>> [prove(Rules(2, 4), k).possible for k in (2, 3)]
[False, True]
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..codespace import code_space
from ..feedback import rule_of
from ..notation import Code, format_code, plural
from ..rules import Rules
from ..support.errors import SolverTimeout
from ..symmetry import code_maps, game_symmetry

#: Most entries (maps x codes) of the listed symmetries; beyond, colours are renamed among the first ones only.
MAX_GROUP_ENTRIES = 40_000_000
#: What :class:`ProofResult` and ``static --json`` call the method.
METHOD = "exhaustive branch and bound over the symmetry classes (mm_logic/static/proof.py)"


@dataclass
class ProofResult:
    """Whether k guesses tell every code apart, by :func:`prove`."""

    rules: Rules
    k: int
    #: True: a set was found (``guesses``); False: none exists (proved); None: stopped before the end.
    possible: bool | None
    guesses: list[Code]
    seconds: float
    #: Branches (``r``, ``g2``) searched, and in all.
    branches_done: int = 0
    branches: int = 0
    #: Guesses tried at each depth past the second (summed over the branches).
    nodes: list[int] = field(default_factory=list)
    #: Maps of the symmetry group used (colours renamed x pegs moved).
    group: int = 1
    #: ``bounds[j]``: most classes j guesses make of the codes to tell apart.
    bounds: list[int] = field(default_factory=list)
    #: Codes to tell apart (every code, or the secrets of an edited code space).
    codes: int = 0

    def as_dict(self) -> dict:
        """The proof's JSON object (``static --json``'s ``proof``)."""
        return {"guesses": self.k, "possible": self.possible, "method": METHOD,
                "found": [format_code(g, self.rules) for g in self.guesses], "seconds": round(self.seconds, 3),
                "branches": self.branches, "branches_done": self.branches_done, "nodes": self.nodes,
                "group": self.group, "bounds": self.bounds, "codes": self.codes}


def symmetry_group(rules: Rules, secrets: np.ndarray | None = None) -> np.ndarray:
    """``maps[h, i]``: the code that map h turns code i into, for every order of the pegs and every
    renaming of the colours (of the first c colours only, c the most for which there are at most
    :data:`MAX_GROUP_ENTRIES` entries) that keep the game's feedback (:func:`mm_logic.symmetry.game_symmetry`:
    a rule of one's own may tell pegs or colours apart). Row 0 is the identity.

    ``secrets`` (indices of the codes to tell apart, increasing; None: every code): only the maps that map
    them onto themselves, the set stabiliser of the secrets in that group, itself a group (row 0 still the
    identity). It is taken map by map, so it holds maps that neither kind alone would give: on ascending
    codes, reversing the pegs with the colours reversed."""
    found = game_symmetry(rules)
    size = code_space(rules).size
    orders = math.factorial(rules.pegs) if found.moves_pegs else 1
    moved = rules.colors if found.renames_colours else 1
    while moved > 1 and math.factorial(moved) * orders * size > MAX_GROUP_ENTRIES:
        moved -= 1
    maps = code_maps(rules, move_pegs=found.moves_pegs, renamed=moved)
    if secrets is None or secrets.size == size:
        return maps
    inside = np.zeros(size, dtype=bool)
    inside[secrets] = True
    # A map is a permutation of the codes: sending every secret to a secret, it maps them onto themselves.
    return maps[inside[maps[:, secrets]].all(axis=1)]


def class_bounds(table: np.ndarray, k: int, smallest: np.ndarray) -> np.ndarray:
    """``bounds[j]`` for j = 0..k: the most classes j guesses make of every code (j = 0: 1; 1: the most
    answers of one guess; 2: the most of every pair, the first guess one of each orbit (``smallest``);
    more: the product bound ``bounds[j - 1] * bounds[1]``), each at most the number of codes."""
    n = table.shape[1]
    bounds = [1, max(len(np.unique(row)) for row in table)]
    base = int(table.max()) + 1
    if k >= 2:
        pair = 0
        for r in np.unique(smallest):
            joined = table[r].astype(np.int64)[None, :] * base + table.astype(np.int64)
            joined.sort(axis=1)
            pair = max(pair, int((1 + np.count_nonzero(np.diff(joined, axis=1), axis=1)).max()))
        bounds.append(pair)
    while len(bounds) <= k:
        bounds.append(min(bounds[-1] * bounds[1], n))  # capped as it grows: 40 guesses overflowed int64
    return np.minimum(np.array(bounds[:k + 1], dtype=np.int64), n)


def partition(table: np.ndarray, guesses: list[int]) -> tuple[np.ndarray, np.ndarray, int]:
    """The classes of two codes or more that ``guesses`` leave alike, in the kernel's form
    (order, starts, number of classes; the largest first)."""
    from ..kernels.static_proof import refine

    n = table.shape[1]
    order, starts, classes = np.arange(n, dtype=np.int64), np.array([0, n] + [0] * (n - 1), dtype=np.int64), 1
    if n < 2:
        return order, starts, 0
    counts = np.zeros(int(table.max()) + 1, dtype=np.int64)
    sizes = np.zeros(n + 2, dtype=np.int64)
    for g in guesses:
        out_order, out_starts = np.empty(n, dtype=np.int64), np.empty(n + 1, dtype=np.int64)
        classes = refine(table[g], order, starts, classes, out_order, out_starts, counts, sizes,
                         np.empty(n, dtype=np.int64))
        order, starts = out_order, out_starts
        if classes == 0:
            break
    return order, starts, classes


def prove(rules: Rules, k: int, progress: Callable[[str], None] | None = None,
          deadline: float | None = None, symmetric: bool = True, secrets: np.ndarray | None = None) -> ProofResult:
    """Whether k guesses fixed in advance tell every code apart, searched exhaustively (up to the
    symmetries): ``possible`` True with a set (checked by the feedback rule), or False, a proof that
    no k guesses do. Past ``deadline`` (``time.monotonic``'s clock, looked at about every second) raises
    :class:`ProofStopped` with the result so far in ``result``. ``symmetric=False`` uses no symmetry
    (every combination of k codes: the check of the symmetry breaking, in small games).

    ``secrets``: the codes to tell apart (indices, increasing: an edited encoding's codes; None: every
    code); every code of the rules may still be a guess."""
    start = time.monotonic()
    say = progress or (lambda line: None)
    space = code_space(rules)
    n = space.size
    targets = np.arange(n) if secrets is None else np.asarray(secrets, dtype=np.int64)
    # table[g, j]: guess g's answer to the j-th code to tell apart
    table = np.ascontiguousarray(space.table if secrets is None else space.table[:, targets])
    m = table.shape[1]
    result = ProofResult(rules, k, None, [], 0.0, nodes=[0] * max(k - 2, 0), codes=m)
    if k >= m or m == 1:
        # m - 1 of the codes to tell apart, each the only one its own guess answers with the win
        result.possible, result.guesses = True, [space.code(g) for g in targets[:min(k, m - 1)]]
        result.seconds = time.monotonic() - start
        return result
    maps = symmetry_group(rules, secrets) if symmetric else np.arange(n, dtype=np.int64)[None, :]
    result.group = len(maps)
    smallest = maps.min(axis=0).astype(np.int64)
    bounds = class_bounds(table, k, smallest)
    result.bounds = bounds.tolist()
    branches = list(_branches(maps, smallest, table, k, bounds))
    result.branches = len(branches)
    codes = "" if secrets is None else f" ({m:,} codes to tell apart)"
    say(f"{rules.describe()}{codes}, {plural(k, 'guess')}: {len(maps):,} symmetries, {plural(len(branches), 'branch')} "
        f"(first two guesses), class bounds {result.bounds}")
    counters = np.zeros(max(k - 2, 1), dtype=np.int64)
    for i, (r, g2, allowed, canon, (order, starts, classes)) in enumerate(branches):
        if deadline is not None and time.monotonic() >= deadline:
            result.seconds = time.monotonic() - start
            raise _stopped(result)
        began = time.monotonic()
        if k <= 2:
            found = np.empty(0, dtype=np.int64) if classes == 0 else None
        else:
            found = _search_branch(table, allowed, canon, k - 2, bounds, order, starts, classes, counters, deadline)
            if found is _PAUSED:
                result.seconds = time.monotonic() - start
                result.nodes = counters[:k - 2].tolist()
                raise _stopped(result)
        result.branches_done = i + 1
        result.nodes = counters[:max(k - 2, 0)].tolist()
        if found is not None:
            chosen = sorted({int(r), int(g2), *(int(g) for g in found)} - {-1})
            result.possible, result.guesses = True, [space.code(g) for g in chosen]
            if not told_apart(rules, result.guesses, secrets):
                raise RuntimeError("the exhaustive search's set does not tell every code apart by the feedback rule")
            break
        say(f"branch {i + 1}/{len(branches)} ({format_code(space.code(r), rules)} "
            f"{format_code(space.code(g2), rules) if g2 >= 0 else '-'}): none, {time.monotonic() - began:.1f} s "
            f"(nodes by depth {result.nodes}; {time.monotonic() - start:.0f} s in all)")
    else:
        result.possible = False
    result.seconds = time.monotonic() - start
    return result


#: Guesses a branch's search tries between two looks at the deadline and at Ctrl-C (about a second).
BUDGET = 10_000_000
_PAUSED = object()


def _search_branch(table, allowed, canon, depth, bounds, order, starts, classes, counters, deadline):
    """One branch searched by the compiled kernel, in slices of :data:`BUDGET` guesses (Ctrl-C is
    taken between two slices): the guesses found after the branch's two (an array), None when no set
    exists in the branch, or ``_PAUSED`` past ``deadline``."""
    from ..kernels.static_proof import FOUND, NONE, search

    n = table.shape[1]
    orders = np.empty((depth + 1, n), dtype=np.int64)
    starts_ = np.zeros((depth + 1, n + 1), dtype=np.int64)
    levels = np.zeros(depth + 1, dtype=np.int64)
    orders[0], starts_[0], levels[0] = order, starts, classes
    pos, state, found = np.full(depth, -1, dtype=np.int64), np.zeros(2, dtype=np.int64), np.empty(depth, np.int64)
    scratch = (np.zeros(int(table.max()) + 1, dtype=np.int64), np.zeros(n + 2, dtype=np.int64),
               np.empty(n, dtype=np.int64))
    while True:
        outcome = search(table, allowed, canon, depth, bounds, orders, starts_, levels, pos, state, found, *scratch,
                         counters, BUDGET)
        if outcome == FOUND:
            return found[:state[1]].copy()
        if outcome == NONE:
            return None
        if deadline is not None and time.monotonic() >= deadline:
            return _PAUSED


def told_apart(rules: Rules, guesses: list[Code], secrets: np.ndarray | None = None) -> bool:
    """Whether the guesses' answers, by the game's feedback rule, differ for every pair of codes (of
    ``secrets``, an edited encoding's codes; None: every code), as ``static``'s reference check."""
    space = code_space(rules)
    rule = rule_of(rules)
    secrets = np.arange(space.size) if secrets is None else secrets
    codes, counts = space.codes[secrets], space.counts[secrets]
    answered = [rule.indices(g, codes, counts).astype(np.int64) for g in guesses]
    return len(np.unique(np.stack(answered, axis=1), axis=0)) == secrets.size if guesses else secrets.size == 1


def _branches(maps: np.ndarray, smallest: np.ndarray, table: np.ndarray, k: int, bounds: np.ndarray):
    """The branches (r, g2, the guesses allowed after them, the orbit's smallest code of each guess under
    the maps fixing r and g2, their partition), those whose classes the guesses left can still split."""
    n = table.shape[0]  # the guesses: every code (the columns may be fewer, the secrets)
    for r in np.unique(smallest):
        r = int(r)
        if k == 1:
            parts = partition(table, [r])
            if parts[2] == 0:
                yield r, -1, np.empty(0, dtype=np.int64), smallest, parts
            continue
        first = _largest_class(table, [r])
        if first > bounds[k - 1]:
            continue
        fixing = maps[maps[:, r] == r]
        under_r = fixing.min(axis=0).astype(np.int64)
        allowed1 = (smallest >= r) & (np.arange(n) != r)
        for g2 in np.flatnonzero(allowed1 & (under_r == np.arange(n))):
            g2 = int(g2)
            if _largest_class(table, [r, g2]) > bounds[k - 2]:
                continue
            allowed = np.flatnonzero(allowed1 & (under_r >= g2) & (np.arange(n) != g2)).astype(np.int64)
            canon = fixing[fixing[:, g2] == g2].min(axis=0).astype(np.int64)
            yield r, g2, allowed, canon, partition(table, [r, g2])


def _largest_class(table: np.ndarray, guesses: list[int]) -> int:
    """The most codes that ``guesses`` answer alike."""
    base = int(table.max()) + 1
    key = np.zeros(table.shape[1], dtype=np.int64)
    for g in guesses:
        key = key * base + table[g]
    return int(np.unique(key, return_counts=True)[1].max())


def fewest(rules: Rules, progress: Callable[[str], None] | None = None, deadline: float | None = None,
           start_at: int = 1, secrets: np.ndarray | None = None) -> tuple[int, list[ProofResult]]:
    """The fewest guesses that tell every code (of ``secrets``, if given) apart, k = ``start_at``,
    ``start_at`` + 1, ... each proved impossible until one is possible: (that k, the proofs in turn)."""
    proofs = []
    k = start_at
    while True:
        proofs.append(prove(rules, k, progress, deadline, secrets=secrets))
        if proofs[-1].possible:
            return k, proofs
        k += 1


class ProofStopped(SolverTimeout):
    """The deadline passed; ``result`` holds the branches searched."""

    def __init__(self, result: ProofResult):
        super().__init__("time limit")
        self.result = result


def _stopped(result: ProofResult) -> ProofStopped:
    return ProofStopped(result)
