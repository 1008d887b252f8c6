"""Scoring by a sample: entropy where the code space is too large to enumerate.

The exact scorers (:mod:`mm_logic.strategies.scoring`) partition every
consistent code by every candidate guess: out of reach for 16x6 (6**16
codes). ``sample-entropy`` asks the session for ``k`` distinct consistent
codes instead, partitions that sample by the feedback each candidate would
get, and plays the candidate whose partition has the largest entropy
(:class:`~mm_logic.strategies.scoring.Entropy`'s part values, so equal
partitions tie exactly). The candidates are the sample itself: every one is
consistent and may win. Ties: consistent, then the smallest code.

The sample is drawn with a generator derived from (seed, history): by
``session.random`` (on the reference engine the guesses are then a function
of (seed, history)), or on clingo by aiming at random codes (:func:`draw`).
When few codes remain the draws repeat themselves and the sample is
smaller. Where the whole code space has at most :data:`EXACT_SPACE` codes,
nothing is sampled: the exact ``entropy`` strategy plays (same guesses).

Not registered as a ``--strategy`` yet (issue 15 in progress): on 16x6 it
takes 11.6-11.9 guesses for k = 1..300 (``any``: 12.0 on the same 20
secrets), far from the 10.5 asked; measured in the session notes.
"""

from __future__ import annotations

import time

import numpy as np

from ..feedback import feedback_block, feedback_features, feedback_slots
from ..notation import Code
from ..sampling import history_rng, random_code
from .base import SeededStrategy
from .scoring import Entropy, partition_counts

#: Code spaces up to this size are played by the exact ``entropy`` scorer.
EXACT_SPACE = 50_000
#: Consistent codes drawn per guess (``k``).
SAMPLE_SIZE = 30
#: Random targets a clingo draw aims at before it settles for ``session.any()``.
AIM_TRIES = 3
#: Draws in a row that repeat a code drawn before the sample is taken as it is
#: (few codes are left, or the engine keeps finding the same ones).
MISSES = 8
#: Draws tried per code wanted before a smaller sample is accepted (duplicates).
DRAWS_PER_CODE = 3


class SampleEntropy(SeededStrategy):
    """Largest entropy of the partition of ``k`` sampled consistent codes."""

    name = "sample-entropy"
    for_any_size = True
    summary = (f"largest entropy over a sample of {SAMPLE_SIZE} consistent codes, for spaces too large to "
               f"enumerate; exact entropy where the space has at most {EXACT_SPACE:,} codes; "
               f"opens with the best of {SAMPLE_SIZE} uniform codes")
    # On clingo the draws depend on the solver's state and on the time budget.
    deterministic = False

    def __init__(self, rules, seed=None, k: int = SAMPLE_SIZE, budget: float | None = None, extra: int = 0):
        super().__init__(rules, seed)
        #: Consistent codes drawn per guess.
        self.k = k
        #: Uniform random codes (mostly inconsistent) scored besides the sample.
        self.extra = extra
        #: Seconds the draws of one guess may take (None: ``time_limit``, else no bound).
        self.budget = budget
        self._scorer = Entropy(rules, self.seed)
        #: True when the space is small enough for the exact scorer.
        self.exact = rules.size <= EXACT_SPACE
        #: Codes drawn and candidates scored so far.
        self.effort = {"draws": 0, "samples": 0, "candidates": 0}

    # -- choosing -------------------------------------------------------------------
    def opening(self, session) -> Code:
        if self.exact:
            return self._scorer.opening(session)
        return self.choose(session)

    def choose(self, session) -> Code | None:
        if self.exact:
            return self._scorer.choose(session)
        rng = history_rng(self.seed, session.history)
        sample = self.sample(session, rng)
        if sample.shape[0] <= 2:
            # One or two codes (or none) left: the smallest consistent one splits them.
            return tuple(int(c) for c in sample[0]) if sample.shape[0] else None
        if not self.extra:
            return self.best(sample, sample)
        others = np.asarray([random_code(self.rules, rng) for _ in range(self.extra)], dtype=np.int64)
        candidates = np.concatenate([sample, others])
        consistent = np.zeros(len(candidates), dtype=bool)
        consistent[:len(sample)] = True
        return self.best(candidates, sample, consistent)

    def best(self, candidates: np.ndarray, sample: np.ndarray, consistent: np.ndarray | None = None) -> Code:
        """The candidate whose partition of ``sample`` has the largest entropy; ties:
        consistent (``consistent``, default all), then the smallest."""
        rules = self.rules
        left, _ = feedback_features(np.asarray(candidates, dtype=np.int64), rules.colors)
        _, right = feedback_features(np.asarray(sample, dtype=np.int64), rules.colors)
        block = feedback_block(left, right, rules.pegs)
        counts = partition_counts(block, feedback_slots(rules.pegs), guess_axis=0)
        cost = self._scorer.cost(counts)
        if consistent is None:
            consistent = np.ones(len(candidates), dtype=bool)
        keys = [candidates[:, p] for p in reversed(range(rules.pegs))] + [~consistent, cost]
        self.effort["candidates"] += len(candidates)
        return tuple(int(c) for c in candidates[int(np.lexsort(keys)[0])])

    # -- sampling ---------------------------------------------------------------------
    def sample(self, session, rng: np.random.Generator) -> np.ndarray:
        """Up to ``k`` distinct consistent codes, sorted (``k`` uniform codes before any guess)."""
        k = self.k
        self.effort["samples"] += 1
        if not session.history:
            # Every code is consistent: uniform codes, without asking the engine.
            drawn: dict[Code, None] = {}
            for _ in range(DRAWS_PER_CODE * k):
                drawn[random_code(self.rules, rng)] = None
                if len(drawn) >= k:
                    break
            return np.asarray(sorted(drawn), dtype=np.int64).reshape(-1, self.rules.pegs)
        # No count_within(k) first: on clingo a bounded count may end at solve()'s quick
        # conflict limit with fewer models than there are (16x6: 25 of over 20,000, called
        # exact), and enumerating the set it wrongly called small then costs seconds.
        # Draws alone: a small set shows as repeated draws, and every code drawn is consistent.
        budget = self.budget if self.budget is not None else self.time_limit
        deadline = None if budget is None else time.monotonic() + budget
        found: dict[Code, None] = {}
        misses = 0  # draws in a row that found no new code
        for _ in range(DRAWS_PER_CODE * k):
            code = draw(session, rng)
            self.effort["draws"] += 1
            if code is None:
                break
            misses = misses + 1 if code in found else 0
            found[code] = None
            if len(found) >= k or misses >= MISSES or (deadline is not None and time.monotonic() > deadline):
                break
        return np.asarray(sorted(found), dtype=np.int64).reshape(-1, self.rules.pegs)


def draw(session, rng: np.random.Generator) -> Code | None:
    """One consistent code drawn with ``rng``.

    A clingo session that aims (``any``'s search near a target) is asked for
    the consistent code nearest a uniformly random code: 0.3 ms a code on
    16x6, where ``session.random`` first counts up to 100,001 codes (0.34 s
    a code, and up to 20 s late in a game). When :data:`AIM_TRIES` targets
    each run out of conflicts, ``session.any()`` answers (one code per
    history: the sample then repeats itself). Any other session answers
    ``random``.
    """
    aimed = getattr(session, "_aimed", None)
    if aimed is None or not getattr(session, "_aim", False):
        return session.random(rng)
    for _ in range(AIM_TRIES):
        found = aimed(random_code(session.rules, rng))
        if found is not None:
            return session._checked_code(found[0]) if found else None
    return session.any()
