"""A lower bound of static play: pairs of codes that only guessing one of them tells apart.

Two codes to tell apart whose answers are the same to every guess but themselves are told apart by no guess
but one of the two: every set of guesses that tells every code apart holds one of each such pair, a vertex
cover of the graph they make. A group of m codes alike in that way two by two (a clique: the m orderings of
a colour set under ``examples/shared_colours.py``) needs m - 1 of them guessed; any other group, one per
pair of a matching. Under ``shared_colours.py`` on 3x4 the 20 colour sets give 44: the search, asking for 1, 2,
... guesses in turn, spent more than five minutes proving 1 to 30 impossible; it now starts at 44 and finds
them at once.

(Every rule tells a code's own guess apart, ``won``: no two codes are alike to every guess.)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

#: Codes of a block of the pairwise comparison: the block's fingerprints are block x codes numbers (8 bytes each).
BLOCK = 512


@dataclass(frozen=True)
class GuessedBound:
    """The bound and what proves it."""

    #: The fewest guesses a set that tells every code apart holds (0 when no pair needs guessing).
    bound: int
    #: Pairs of codes told apart only by guessing one of them.
    pairs: int
    #: One such pair, as code numbers (None when there is none).
    example: tuple[int, int] | None


def guessed_bound(table: np.ndarray, secrets: np.ndarray | None = None) -> GuessedBound:
    """The bound of ``table`` (``table[g, i]``: the answer to guess ``g`` when the code is the i-th to tell
    apart; ``secrets[i]`` that code's number, every code when None).

    The pairs are found by a fingerprint of each column without two rows, compared in blocks (random weights,
    arithmetic modulo 2**64), then checked row by row: the bound rests on exact comparisons only."""
    rows, count = table.shape
    codes = np.arange(count) if secrets is None else np.asarray(secrets, dtype=np.int64)
    weights = np.random.default_rng(0).integers(1, 2**63, size=rows, dtype=np.uint64)
    values = table.astype(np.uint64)
    with np.errstate(over="ignore"):
        whole = (weights[:, None] * values).sum(axis=0, dtype=np.uint64)  # each column's fingerprint
        # scaled[j, i]: the weighted answer of guessing code j (a code to tell apart) when the code is i.
        scaled = weights[codes][:, None] * values[codes, :]
        own = whole - scaled[np.arange(count), np.arange(count)]  # without the row of guessing the code itself
        found = []
        for start in range(0, count, BLOCK):
            block = slice(start, min(start + BLOCK, count))
            # Column i without rows codes[i] and codes[j], against column j without the same two rows.
            mine = own[block, None] - scaled[:, block].T
            theirs = own[None, :] - scaled[block, :]
            i, j = np.nonzero(mine == theirs)
            i += start
            keep = i < j
            found.append(np.stack([i[keep], j[keep]], axis=1))
    candidates = np.concatenate(found) if found else np.zeros((0, 2), dtype=np.int64)
    pairs = [(int(i), int(j)) for i, j in candidates if _alike_but_guessed(table, codes, int(i), int(j))]
    if not pairs:
        return GuessedBound(0, 0, None)
    return GuessedBound(_cover_bound(pairs), len(pairs), (int(codes[pairs[0][0]]), int(codes[pairs[0][1]])))


def _alike_but_guessed(table: np.ndarray, codes: np.ndarray, i: int, j: int) -> bool:
    """Whether columns i and j are equal but in the rows of guessing either code."""
    differ = table[:, i] != table[:, j]
    differ[[codes[i], codes[j]]] = False
    return not differ.any()


def _cover_bound(pairs: list[tuple[int, int]]) -> int:
    """A lower bound of the smallest set holding a code of every pair: m - 1 for a group of m codes all paired
    (a clique), a maximal matching's size for any other group."""
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j in pairs:
        parent[root(i)] = root(j)
    members = Counter(root(x) for x in list(parent))
    edges = Counter(root(i) for i, _ in pairs)
    bound, matched = 0, set()
    for group, size in members.items():
        if edges[group] == size * (size - 1) // 2:
            bound += size - 1
    for i, j in pairs:  # the groups that are not cliques: one per pair of a matching
        group = root(i)
        if edges[group] != members[group] * (members[group] - 1) // 2 and i not in matched and j not in matched:
            matched.update((i, j))
            bound += 1
    return bound
