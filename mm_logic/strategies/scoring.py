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
from ..feedback import feedback_block, feedback_features
from ..notation import Code
from ..rules import Rules
from ..symmetry import orbit_representatives
from .base import Strategy

MAX_CANDIDATES = 1000
MAX_TARGETS = 20000
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
        return (self.rules.pegs + 1) ** 2

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
            block = feedback_block(*_features_pair(sample, np.array(openings), self.rules.colors))
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
        alive = getattr(session, "indices", None)  # the reference engine has them at hand
        if alive is None:
            alive = space.index_of(session.enumerate())
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
        """Cost of each guess against the consistent codes ``alive``."""
        costs = np.empty(guesses.size, dtype=np.float64)
        # The table is symmetric, so a block can be read as rows of the smaller
        # set with columns of the larger: memory is then walked in order rather
        # than one scattered byte per cache line. Column chunks keep each
        # bincount's counters in cache.
        if alive.size <= guesses.size:
            rows = table[alive]
            step = max(256, min(4096, 2**16 // max(alive.size, 1)))
            for start in range(0, guesses.size, step):
                block = rows[:, guesses[start:start + step]]
                costs[start:start + step] = self.cost(partition_counts(block, self.slots))
        else:
            step = max(16, 2**16 // alive.size)
            for start in range(0, guesses.size, step):
                block = table[guesses[start:start + step]][:, alive]
                costs[start:start + step] = self.cost(partition_counts(block, self.slots, guess_axis=0))
        return costs

    def lower_bound(self, m: int) -> float:
        """A cost no guess can beat on ``m`` consistent codes (parts as even as possible)."""
        classes = (self.rules.pegs + 1) * (self.rules.pegs + 2) // 2 - 1
        q, r = divmod(m, classes)
        parts = np.array([q + 1] * r + [q] * (classes - r))
        return float(self.cost(parts[None, :])[0])

    def _choose_among_consistent(self, session) -> Code:
        targets = np.asarray(session.enumerate(limit=MAX_TARGETS))
        candidates = targets[:MAX_CANDIDATES]
        block = feedback_block(*_features_pair(targets, candidates, self.rules.colors))
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


class Expected(ScoringStrategy):
    """Irving (1979): minimise the expected size of the next consistent set, Σ part²."""

    name = "expected"
    summary = "Irving: smallest sum of squared parts; opens with the best canonical code (0012 for 4x6)"

    def cost(self, counts):
        c = counts.astype(np.float64)
        return (c * c).sum(axis=1)


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


class Parts(ScoringStrategy):
    """Kooi (2005): maximise the number of parts."""

    name = "parts"
    summary = "Kooi: most feedback classes; opens with the best canonical code (0012 for 4x6)"

    def cost(self, counts):
        return -(counts > 0).sum(axis=1).astype(np.float64)
