"""Gür's weighted entropy (2025): each feedback's share of the entropy weighted by a utility of that feedback.

S. Gür, "The Quality of Information: A Weighted Entropy Approach to
Near-Optimal Mastermind", arXiv:2511.19446 (2025). A guess splits the
consistent codes into parts, one per feedback ``i``, with shares ``p_i``; its
score is the Belis-Guiaşu weighted entropy ``-Σ w_i p_i log2 p_i``, where the
weight ``w_i`` belongs to the feedback (the author's genetic algorithm found
them). The guess of highest score is played; every code is a candidate, ties
going to a consistent code, then the smallest (the contract's tie-break, which
is also the author's program's: the first consistent code of highest score in
lexicographic order, else the first code).

* ``weighted-entropy``: one vector of weights at every turn (the paper's
  4.3565 average, at most 5 guesses at 4x6: 5,646 guesses over the 1,296
  secrets); the opening is scored like any other guess.
* ``weighted-entropy-stages``: a vector per turn (4.3488, at most 6: 5,636);
  as in the author's program the opening is 0012 (its 1123) and the vectors
  are those of turns 2 to 6 (the file's vector of turn 1 goes unused: it
  would open with 0123); a 7th guess, never needed at 4x6, uses the 6th
  turn's. Where 0012 is no code (fewer than 3 colours, no repetition) the
  opening is scored with the vector of turn 2.

The published vectors weigh the 14 feedbacks of 4 pegs under the black and
white rule, so both strategies play 4 pegs of any number of colours (with
or without repetition) under the standard rule and refuse other games in
one line (:attr:`~mm_logic.strategies.base.Strategy.pegs_only`).

Scores are ranks in fixed point, as :class:`~.scoring.Entropy`'s: for ``m``
consistent codes a part of ``s`` codes with feedback ``i`` is worth
``-w_i s log2(m / s)`` (``m`` times its term of the score), rounded at
``2**-32``, so equal partitions tie exactly; the compiled kernel
:func:`mm_logic.kernels.weighted.best_weighted_guess` scores the candidates,
one per orbit under the history's symmetries (which keep every feedback, so
every score).
"""

from __future__ import annotations

import numpy as np

from ..codespace import MAX_CODES, code_space
from ..notation import Code
from ..symmetry import Symmetries, block_pool, symmetries
from .base import Strategy
from .scoring import ENTROPY_BITS, scored_opening

#: The feedbacks the weights are given for, in the paper's order: (black, white) of 4 pegs, (3, 1) left out.
FEEDBACKS = ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2),
             (3, 0), (4, 0))

#: The fixed weights (the paper's repository, "optimized weights.txt": average 4.3565, at most 5).
FIXED_WEIGHTS = (0.473, 0.446, 0.523, 0.41, 0.35, 0.534, 0.486, 0.423, 0.383, 0.406, 0.413, 0.458, 0.424, 0.8)

#: The weights of turns 2 to 6 (same file, the rounded set: average 4.3488, at most 6).
STAGE_WEIGHTS = (
    (0.7, 0.6, 0.6, 0.51, 0.43, 0.6, 0.85, 0.6, 0.32, 0.34, 0.4, 0.6, 0.4, 1.0),
    (0.7, 0.41, 0.53, 0.47, 0.37, 0.4, 0.47, 0.5, 0.46, 0.48, 0.46, 0.5, 0.5, 0.9),
    (0.3, 0.5, 0.4, 0.5, 0.4, 0.5, 0.5, 0.4, 0.6, 0.4, 0.5, 0.5, 0.5, 1.0),
    (0.4, 0.6, 0.3, 0.6, 0.5, 0.4, 0.5, 0.5, 0.5, 0.6, 0.6, 0.7, 0.6, 0.8),
    (0.2, 0.8, 0.4, 0.6, 0.6, 0.6, 0.7, 0.5, 0.2, 0.6, 0.4, 0.3, 0.5, 0.4),
)

#: The stage strategy's opening, as the author's program plays it (1123 in colours 1 to 6).
STAGE_OPENING = (0, 0, 1, 2)

PEGS = 4


def slot_weights(weights, pegs: int = PEGS) -> np.ndarray:
    """The weights by the kernel's feedback slot ``black * (pegs + 1) + common``; slots never met weigh 0."""
    width = pegs + 1
    out = np.zeros(width * width, dtype=np.float64)
    for (black, white), w in zip(FEEDBACKS, weights):
        out[black * width + black + white] = w
    return out


def part_values(weights: np.ndarray, m: int) -> np.ndarray:
    """Ranks of parts, ``values[slot, s]`` for ``s`` in ``0..m``: ``-w s log2(m / s)`` in fixed point (lower is better).

    Summed over a guess's parts they make ``-m`` times its weighted entropy, in units of ``2**-32``.
    """
    s = np.arange(m + 1, dtype=np.float64)
    terms = s * (np.log2(max(m, 1)) - np.log2(np.maximum(s, 1)))
    return np.ascontiguousarray(-np.rint(weights[:, None] * terms[None, :] * 2.0**ENTROPY_BITS).astype(np.int64))


class WeightedEntropy(Strategy):
    """Gür (2025): largest weighted entropy, one weight vector at every turn."""

    name = "weighted-entropy"
    summary = ("Gür: largest entropy with a weight per feedback (4 pegs; one vector for every turn); "
               "opens with the best canonical code (0012 for 4x6)")
    feedback_rules = ("standard",)
    max_codes = MAX_CODES
    pegs_only = PEGS
    kernels = ("weighted",)

    def __init__(self, rules, seed=None, **options):
        super().__init__(rules, seed, **options)
        from ..kernels import weighted as kernels
        self._kernel = kernels.best_weighted_guess
        #: Searches, candidates scored and feedbacks computed so far (what the searches cost).
        self.effort = {"searches": 0, "candidates": 0, "feedbacks": 0}
        self._no_symmetry = Symmetries.of(rules, [], [])

    def weights(self, turn: int) -> np.ndarray:
        """The weights by kernel slot for the guess of number ``turn`` (1: the opening)."""
        return slot_weights(FIXED_WEIGHTS)

    def opening(self, session) -> Code:
        return scored_opening(self, session)

    def choose(self, session) -> Code | None:
        if session.count() <= 1:
            return session.first()  # the last code left (or none): nothing to score
        alive = np.asarray(session.consistent_indices(), dtype=np.int64)
        return self.best(code_space(self.rules), session.history, alive, symmetric=not session.edited)

    def best(self, space, history, alive: np.ndarray, symmetric: bool = True) -> Code:
        """The guess of highest weighted entropy on the consistent codes ``alive`` after ``history``;
        ties: consistent, then smallest. ``symmetric``: as :meth:`~.scoring.ScoringStrategy.best`."""
        values = part_values(self.weights(len(history) + 1), alive.size)
        # r more codes add at least r times the smallest step of a part (the first code of a part).
        rest = np.minimum(np.diff(values, axis=1).min(), 0) * np.arange(alive.size + 1, dtype=np.int64)
        sym = symmetries(space, history, alive) if symmetric else self._no_symmetry
        pool = block_pool(space, sym.blocks if symmetric else ())
        packed = space.packed
        words, count_words = packed if packed is not None else (_EMPTY_WORDS, _EMPTY_COUNT_WORDS)
        index, _, candidates, pairs = self._kernel(
            space.codes, words, count_words, space.counts, alive, pool, True, packed is not None, values, rest,
            sym.sigmas, sym.pis, sym.block_of, sym.block_colors, sym.block_start)
        self.effort["searches"] += 1
        self.effort["candidates"] += int(candidates)
        self.effort["feedbacks"] += int(pairs)
        return space.code(int(index))


class WeightedEntropyStages(WeightedEntropy):
    """Gür (2025): largest weighted entropy, a weight vector per turn, opening 0012."""

    name = "weighted-entropy-stages"
    summary = "Gür: largest entropy with a weight per feedback and turn (4 pegs); opens with 0012"

    def weights(self, turn: int) -> np.ndarray:
        # Turns 2 to 6 have their vectors; an opening scored (no 0012) takes turn 2's, a 7th guess turn 6's.
        return slot_weights(STAGE_WEIGHTS[min(max(turn, 2), 6) - 2])

    def opening(self, session) -> Code:
        # 0012 wherever it is a code (3 colours or more, a colour twice allowed); else the opening
        # is scored like any other guess, with the weights of turn 2.
        if self.rules.colors >= 3 and self.rules.repeat_limit >= 2:
            return STAGE_OPENING
        return super().opening(session)


_EMPTY_WORDS = np.zeros(0, dtype=np.uint64)
_EMPTY_COUNT_WORDS = np.zeros((0, 2), dtype=np.uint64)
