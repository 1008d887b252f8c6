"""Strategies that score every possible guess by how it splits the consistent codes.

A guess partitions the consistent codes by the feedback each would give.
Knuth's *minimax* minimises the largest part, Irving's *expected* minimises
Σ part² (the expected size of the next consistent set), Neuwirth's *entropy*
maximises the partition's entropy and Kooi's *parts* maximises the number of
parts. Ties are broken as the contract says: prefer a code that is still
consistent, then the smallest code in lexicographic order.

Where the code space is small enough to keep its whole feedback table
(:data:`mm_logic.codespace.MAX_TABLE_CODES`), every valid code is scored as a
guess. In larger spaces only consistent codes are scored: at most
:data:`MAX_CANDIDATES` of them (the smallest), each against at most
:data:`MAX_TARGETS` consistent codes (the smallest).
"""

from __future__ import annotations

import numpy as np

from ..codespace import MAX_CODES, MAX_TABLE_CODES, code_space
from ..feedback import feedback_block, feedback_features, feedback_slots
from ..notation import Code
from ..symmetry import canonical_openings, orbit_representatives
from .base import Strategy

MAX_CANDIDATES = 1000
MAX_TARGETS = 20000
#: Up to this many consistent codes, costs come from sorted runs, not slot counts.
SMALL_SET = 6
#: Consistent codes from which guesses are reduced to orbit representatives.
MIN_ORBIT_CODES = 8


def partition_counts(block: np.ndarray, slots: int, guess_axis: int = 1) -> np.ndarray:
    """How many secrets fall in each feedback slot, for each guess.

    ``block`` holds feedback indices between guesses and secrets, guesses
    along ``guess_axis``. Returns an array ``(guesses, slots)``: one
    ``bincount`` over ``guess * slots + feedback``.
    """
    guesses = block.shape[guess_axis]
    offsets = np.arange(0, guesses * slots, slots, dtype=np.intp)
    flat = block.astype(np.intp)
    flat += offsets if guess_axis == 1 else offsets[:, None]
    return np.bincount(flat.ravel(), minlength=guesses * slots).reshape(guesses, slots)


class ScoringStrategy(Strategy):
    """Base of the partition-scoring strategies: each states its score once, as two hooks.

    A guess splits the consistent codes into parts (one per feedback). A
    strategy says how one part of a given size counts (:meth:`part`) and how
    the parts combine into the guess's rank (:attr:`combine`, ``np.add`` or
    ``np.maximum``); the lower the rank, the better the guess. Every path
    below derives its ranks from these two: partition counts, sorted runs of
    a few codes, and the lower bound. Part values are integers (entropy's in
    fixed point), so equal partitions tie exactly whatever the order of
    their parts.
    """

    #: How part values combine into a rank.
    combine: np.ufunc = np.add
    #: Scoring needs the code space enumerated (its opening is scored against all of it).
    max_codes = MAX_CODES

    def part(self, sizes: np.ndarray) -> np.ndarray:
        """The value (int64) of parts of the given sizes; a part of size 0 counts 0."""
        raise NotImplementedError

    def cost(self, counts: np.ndarray) -> np.ndarray:
        """Rank of each guess (lower is better) from its partition counts ``(guesses, slots)``."""
        return self.combine.reduce(self.part(counts), axis=1)

    @property
    def slots(self) -> int:
        return feedback_slots(self.rules.pegs)

    # -- opening ------------------------------------------------------------
    def opening(self, session) -> Code:
        openings = canonical_openings(self.rules)
        if self.rules.size <= MAX_CODES:
            space = code_space(self.rules)
            counts = np.stack([np.bincount(space.feedback_to_all(code), minlength=self.slots)
                               for code in openings])
        else:
            # Too many codes to score against all: score against a fixed sample.
            from ..sampling import random_code
            rng = np.random.default_rng(0)
            sample = np.array([random_code(self.rules, rng) for _ in range(MAX_TARGETS)])
            openings = openings[:MAX_CANDIDATES]
            block = feedback_block(*_features_pair(sample, np.array(openings), self.rules.colors), self.rules.pegs)
            counts = partition_counts(block, self.slots)
        best = int(np.lexsort((np.arange(len(openings)), self.cost(counts)))[0])
        return openings[best]

    # -- later guesses ------------------------------------------------------
    def choose(self, session) -> Code | None:
        m = session.count()
        if m <= 2:
            # One or two codes left: the smallest consistent one splits them
            # perfectly and wins every tie-break.
            return session.first()
        if self.rules.size <= MAX_TABLE_CODES:
            return self._choose_from_table(session, m)
        return self._choose_among_consistent(session)

    def _choose_from_table(self, session, m: int) -> Code:
        space = code_space(self.rules)
        alive = session.consistent_indices()
        consistent = np.zeros(space.size, dtype=bool)
        consistent[alive] = True
        # Guesses related by a symmetry of the consistent set split it alike:
        # score the smallest code of each orbit only.
        # (Below some dozens of consistent codes, finding orbits costs more than
        # scoring every guess, which often stops early at the lower bound.)
        candidates = (orbit_representatives(space, session.history, alive) if m >= MIN_ORBIT_CODES
                      else np.arange(space.size))
        bound = self.lower_bound(m)
        # Consistent guesses first: if one reaches the lower bound no code
        # beats it, and the tie-break prefers it, so the search stops there.
        ahead = candidates[consistent[candidates]]
        costs = self._costs(space.table, alive, ahead)
        best = (costs.min(), 0, int(ahead[np.argmin(costs)])) if ahead.size else (np.inf, 1, -1)
        if best[0] <= bound:
            return space.code(best[2])
        others = candidates[~consistent[candidates]]
        step = max(64, 2**22 // m)
        for start in range(0, others.size, step):
            chunk = others[start:start + step]
            costs = self._costs(space.table, alive, chunk)
            i = int(np.argmin(costs))  # argmin takes the first, i.e. smallest, code
            best = min(best, (costs[i], 1, int(chunk[i])))
            if best[0] <= bound:
                break  # no later (larger, inconsistent) code can do better
        return space.code(best[2])

    def _costs(self, table: np.ndarray, alive: np.ndarray, guesses: np.ndarray) -> np.ndarray:
        """Cost of each guess against the consistent codes ``alive``.

        The table is symmetric: the rows of the consistent codes are copied
        (contiguous), guess columns are picked from them while they sit in
        cache, and each block is turned guess-major so that each guess's
        counters are touched once. (Measured against picking from guess rows
        and against transposing all columns at once: both slower.)
        """
        m = alive.size
        costs = np.empty(guesses.size, dtype=np.int64)
        rows = table[alive]  # m contiguous rows; the columns picked below stay in cache
        step = max(256, min(8192, 2**18 // m))
        for start in range(0, guesses.size, step):
            block = np.ascontiguousarray(rows[:, guesses[start:start + step]].T)
            if m <= SMALL_SET:
                costs[start:start + step] = self.cost_from_runs(np.sort(block, axis=1))
            else:
                costs[start:start + step] = self.cost(partition_counts(block, self.slots, guess_axis=0))
        return costs

    def cost_from_runs(self, ordered: np.ndarray) -> np.ndarray:
        """Rank of each row of sorted feedback indices: its parts are its runs.

        For a few consistent codes this beats counting into every feedback
        slot. A run's part value is combined in when the run ends.
        """
        rows, m = ordered.shape
        run = np.ones(rows, dtype=np.int64)
        total = np.zeros(rows, dtype=np.int64)
        for j in range(1, m):
            same = ordered[:, j] == ordered[:, j - 1]
            total = self.combine(total, np.where(same, 0, self.part(run)))
            run = np.where(same, run + 1, 1)
        return self.combine(total, self.part(run))

    def lower_bound(self, m: int) -> int:
        """A rank no guess can beat on ``m`` consistent codes (parts as even as possible)."""
        classes = self.slots - 1  # (pegs-1, 1) never occurs
        q, r = divmod(m, classes)
        parts = np.array([q + 1] * r + [q] * (classes - r), dtype=np.int64)
        return int(self.cost(parts[None, :])[0])

    def _choose_among_consistent(self, session) -> Code:
        targets = np.asarray(session.enumerate(limit=MAX_TARGETS))
        candidates = targets[:MAX_CANDIDATES]
        block = feedback_block(*_features_pair(targets, candidates, self.rules.colors), self.rules.pegs)
        costs = self.cost(partition_counts(block, self.slots))
        best = int(np.lexsort((np.arange(len(candidates)), costs))[0])
        return tuple(int(c) for c in candidates[best])


def _features_pair(guesses: np.ndarray, secrets: np.ndarray, colors: int):
    left, _ = feedback_features(guesses, colors)
    _, right = feedback_features(secrets, colors)
    return left, right


class Minimax(ScoringStrategy):
    """Knuth (1977): minimise the largest part."""

    name = "minimax"
    summary = "Knuth: smallest worst-case part; opens with the best canonical code (0011 for 4x6)"
    combine = np.maximum

    def part(self, sizes):
        return np.asarray(sizes, dtype=np.int64)


class Expected(ScoringStrategy):
    """Irving (1979): minimise the expected size of the next consistent set, Σ part²."""

    name = "expected"
    summary = "Irving: smallest sum of squared parts; opens with the best canonical code (0012 for 4x6)"

    def part(self, sizes):
        sizes = np.asarray(sizes, dtype=np.int64)
        return sizes * sizes


#: Entropy's part values are s·log2(s) in fixed point with this many fractional bits:
#: integer sums make equal partitions tie exactly, and 2**-32 keeps distinct ones apart.
ENTROPY_BITS = 32


class Entropy(ScoringStrategy):
    """Neuwirth (1982): maximise the entropy of the partition."""

    name = "entropy"
    summary = "Neuwirth: largest entropy of the parts; opens with the best canonical code (0123 for 4x6)"

    def part(self, sizes):
        # Entropy = log m - Σ s log s / m, so minimising Σ s log2 s maximises it.
        s = np.asarray(sizes, dtype=np.float64)
        return np.rint(s * np.log2(np.maximum(s, 1)) * 2.0**ENTROPY_BITS).astype(np.int64)


class Parts(ScoringStrategy):
    """Kooi (2005): maximise the number of parts."""

    name = "parts"
    summary = "Kooi: most feedback classes; opens with the best canonical code (0012 for 4x6)"

    def part(self, sizes):
        return -(np.asarray(sizes) > 0).astype(np.int64)
