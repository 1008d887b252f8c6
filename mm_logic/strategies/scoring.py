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
from ..rules import Rules
from ..symmetry import orbit_representatives
from .base import Strategy

MAX_CANDIDATES = 1000
MAX_TARGETS = 20000
#: Up to this many consistent codes, costs come from sorted runs, not slot counts.
SMALL_SET = 6
#: Consistent codes from which guesses are reduced to orbit representatives.
MIN_ORBIT_CODES = 8


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
    """Base of the four partition-scoring strategies; subclasses define :meth:`cost`."""

    def cost(self, counts: np.ndarray) -> np.ndarray:
        """Cost of each guess (lower is better) from its partition counts ``(guesses, slots)``."""
        raise NotImplementedError

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
        costs = np.empty(guesses.size, dtype=np.float64)
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
        """Cost of each row of sorted feedback indices: its parts are its runs.

        For a few consistent codes this beats counting into every feedback
        slot. Additive scores add ``f(c) - f(c-1)`` as a run grows to ``c``.
        """
        rows, m = ordered.shape
        run = np.ones(rows, dtype=np.intp)
        value = self.part_value(np.arange(m + 1))
        grow = np.diff(value)  # grow[c-1] = f(c) - f(c-1)
        total = np.full(rows, value[1] - value[0])
        for j in range(1, m):
            same = ordered[:, j] == ordered[:, j - 1]
            run = np.where(same, run + 1, 1)
            total += grow[run - 1]
        return self.finish(total)

    def part_value(self, sizes: np.ndarray) -> np.ndarray:
        """``f(c)`` for additive scores ``Σ f(part size)``; Minimax overrides cost_from_runs."""
        raise NotImplementedError

    def finish(self, total: np.ndarray) -> np.ndarray:
        return total.astype(np.float64)

    def lower_bound(self, m: int) -> float:
        """A cost no guess can beat on ``m`` consistent codes (parts as even as possible)."""
        classes = self.slots - 1  # (pegs-1, 1) never occurs
        q, r = divmod(m, classes)
        parts = np.array([q + 1] * r + [q] * (classes - r))
        return float(self.cost(parts[None, :])[0])

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

    def cost(self, counts):
        return counts.max(axis=1).astype(np.float64)

    def cost_from_runs(self, ordered):
        run = np.ones(ordered.shape[0], dtype=np.intp)
        largest = run.copy()
        for j in range(1, ordered.shape[1]):
            run = np.where(ordered[:, j] == ordered[:, j - 1], run + 1, 1)
            np.maximum(largest, run, out=largest)
        return largest.astype(np.float64)


class Expected(ScoringStrategy):
    """Irving (1979): minimise the expected size of the next consistent set, Σ part²."""

    name = "expected"
    summary = "Irving: smallest sum of squared parts; opens with the best canonical code (0012 for 4x6)"

    def cost(self, counts):
        c = counts.astype(np.float64)
        return (c * c).sum(axis=1)

    def part_value(self, sizes):
        return sizes.astype(np.float64) ** 2


class Entropy(ScoringStrategy):
    """Neuwirth (1982): maximise the entropy of the partition."""

    name = "entropy"
    summary = "Neuwirth: largest entropy of the parts; opens with the best canonical code (0123 for 4x6)"

    def cost(self, counts):
        # Entropy = log m - Σ c log c / m, so minimising Σ c log c maximises it;
        # rounding makes ties between equal partitions exact despite float sums.
        c = counts.astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(c > 0, c * np.log2(np.where(c > 0, c, 1)), 0.0)
        return np.round(terms.sum(axis=1), 9)

    def part_value(self, sizes):
        c = sizes.astype(np.float64)
        return c * np.log2(np.where(c > 0, c, 1))

    def finish(self, total):
        return np.round(total, 9)


class Parts(ScoringStrategy):
    """Kooi (2005): maximise the number of parts."""

    name = "parts"
    summary = "Kooi: most feedback classes; opens with the best canonical code (0012 for 4x6)"

    def cost(self, counts):
        return -(counts > 0).sum(axis=1).astype(np.float64)

    def part_value(self, sizes):
        return -(sizes > 0).astype(np.float64)
