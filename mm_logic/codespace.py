"""The space of valid codes under some rules, as numpy arrays.

Codes are listed in lexicographic order (colour 0 < colour 1 < ..., position 1
most significant): the order of the ``first`` strategy and of every tie-break.
"""

from __future__ import annotations

from functools import cached_property, lru_cache

import numpy as np

from .feedback import (
    STANDARD,
    colour_counts,
    feedback_block,
    feedback_features,
    feedback_indices,
    index_dtype,
    index_lut,
    rule_of,
)
from .notation import Code, Entry, amount
from .rules import Rules, all_codes, code_keys
from .support.errors import SpaceTooLarge

#: Largest code space the reference engine enumerates (10**7 and a little more).
MAX_CODES = 20_000_000
#: Largest space of which :attr:`CodeSpace.table` (n*n bytes) is built.
MAX_TABLE_CODES = 40_000


class CodeSpace:
    """All valid codes for some rules, with cached derived arrays."""

    def __init__(self, rules: Rules):
        if rules.size > MAX_CODES:
            # The front end's words (--backend, or a request's backend); clingo only where it plays the rules.
            naming = rules.naming
            hint = (f"use {naming.option('backend')} clingo" if naming.plays_on("clingo")
                    else "play fewer pegs or colours")
            raise SpaceTooLarge(
                f"{rules.describe()} has {amount(rules.size)} codes, more than the python "
                f"engine enumerates ({MAX_CODES:,}); {hint}"
            )
        self.rules = rules
        #: Candidate pools of the scoring strategies, by free colour blocks (:func:`mm_logic.symmetry.block_pool`).
        self.pools: dict[tuple, np.ndarray] = {}

    @cached_property
    def codes(self) -> np.ndarray:
        """Array ``(size, pegs)`` of all valid codes, lexicographic order (:func:`mm_logic.rules.all_codes`)."""
        return all_codes(self.rules)

    @property
    def size(self) -> int:
        return self.rules.size

    @cached_property
    def counts(self) -> np.ndarray:
        """Colour counts of every code, ``(size, colors)`` ``uint8``."""
        return colour_counts(self.codes, self.rules.colors)

    @cached_property
    def _keys(self) -> np.ndarray:
        # Base-`colors` value of each code: increasing, so searchsorted finds indices.
        return code_keys(self.codes, self.rules.colors)

    def index_of(self, codes) -> np.ndarray:
        """Positions in :attr:`codes` of the given codes (array ``(m, pegs)``)."""
        arr = np.asarray(codes, dtype=np.int64).reshape(-1, self.rules.pegs)
        return np.searchsorted(self._keys, code_keys(arr, self.rules.colors))

    def code(self, index: int) -> Code:
        """The code at a position, as a tuple."""
        return tuple(self.codes[index].tolist())

    @cached_property
    def multisets(self) -> np.ndarray:
        """For each code, the index (``int32``) of the code with its colours in increasing order."""
        out = np.empty(self.size, dtype=np.int32)
        step = 1 << 20  # in blocks: index_of works in int64
        for start in range(0, self.size, step):
            out[start:start + step] = self.index_of(np.sort(self.codes[start:start + step], axis=1))
        return out

    @cached_property
    def _marks_kernels(self):
        from .kernels.packed import pack_code, packed_marks
        return pack_code, packed_marks

    @cached_property
    def _lut(self) -> np.ndarray:
        return index_lut(self.rules.pegs)

    def feedback_to_all(self, guess: Code) -> np.ndarray:
        """Feedback indices of ``guess`` against every code of the space."""
        return self.feedback_to(guess, None)

    def feedback_to(self, guess: Code, indices: np.ndarray | None) -> np.ndarray:
        """Feedback indices of ``guess`` against the codes at ``indices`` (None: all).

        From the packed words when the codes fit them (one compiled pass, the standard rule),
        else from the game's feedback rule (:meth:`mm_logic.feedback.FeedbackRule.indices`).
        """
        if rule_of(self.rules) is not STANDARD:
            rule = rule_of(self.rules)
            if indices is None:
                return rule.indices(guess, self.codes, self.counts)
            return rule.indices(guess, self.codes[indices], self.counts[indices])
        if self.packed is None:
            if indices is None:
                return feedback_indices(guess, self.codes, self.counts)
            return feedback_indices(guess, self.codes[indices], self.counts[indices])
        words, count_words = self.packed
        pack_code, packed_marks = self._marks_kernels
        gw, g0, g1 = pack_code(tuple(guess))
        if indices is None:
            indices = np.arange(self.size, dtype=np.int64)
        return packed_marks(gw, g0, g1, words, count_words, np.asarray(indices, dtype=np.int64), self.rules.pegs,
                            self._lut)

    def keep(self, alive: np.ndarray, entry: Entry) -> np.ndarray:
        """The indices of ``alive`` whose codes give the entry's guess its feedback: the one filter of
        the listed codes, which the python engine, the count of the other rules and ``sample-entropy``'s
        listing share (:meth:`feedback_to`, then the rule's index of the feedback)."""
        guess, fb = entry
        return alive[self.feedback_to(guess, alive) == rule_of(self.rules).index(fb, self.rules.pegs)]

    def consistent(self, history, alive: np.ndarray | None = None) -> np.ndarray:
        """The indices (``int64``, increasing) of the codes of ``alive`` (None: every code) consistent with
        every entry of ``history``, by :meth:`keep`."""
        alive = np.arange(self.size, dtype=np.int64) if alive is None else alive
        for entry in history:
            alive = self.keep(alive, entry)
        return alive

    @cached_property
    def features(self) -> tuple[np.ndarray, np.ndarray]:
        """See :func:`mm_logic.feedback.feedback_features`."""
        return feedback_features(self.codes, self.rules.colors)

    @cached_property
    def packed(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The codes as packed words (:func:`mm_logic.kernels.packed.pack`), None when they do not fit."""
        from .kernels.packed import pack, packable
        if not packable(self.rules.pegs, self.rules.colors):
            return None
        return pack(self.codes, self.counts)

    @cached_property
    def table(self) -> np.ndarray:
        """The whole feedback table ``table[guess, secret]`` of feedback indices, small spaces only.

        Scoring strategies do not use it (they score on the fly): it is the
        plain form that tests check them against.
        """
        n = self.size
        if n > MAX_TABLE_CODES:
            raise SpaceTooLarge(f"no feedback table for {n:,} codes (limit {MAX_TABLE_CODES:,})")
        if rule_of(self.rules) is not STANDARD:
            # Row by row: a rule of the game's own need not be symmetric (positional marks are not). A rule
            # derived from an encoding keeps its own table.
            rule = rule_of(self.rules)
            kept = rule.kept_table()
            if kept is not None:
                return kept
            table = np.empty((n, n), dtype=rule.index_dtype(self.rules.pegs))
            for g in range(n):
                table[g] = rule.indices(self.code(g), self.codes, self.counts)
            return table
        left, right = self.features
        table = np.empty((n, n), dtype=index_dtype(self.rules.pegs))
        step = max(1, 2**24 // max(n, 1))  # ~64 MB of float32 per block
        # Feedback is symmetric (guess and secret swap roles), so each block
        # row computes only the columns from its own start and mirrors them.
        for start in range(0, n, step):
            stop = min(start + step, n)
            block = feedback_block(left[start:stop], right[start:], self.rules.pegs)
            table[start:stop, start:] = block
            table[stop:, start:stop] = block[:, stop - start:].T
        return table

    @property
    def has_table(self) -> bool:
        return self.size <= MAX_TABLE_CODES


def code_space(rules: Rules) -> CodeSpace:
    """The (cached) code space of some rules (the same with or without lies: the codes and their feedback)."""
    return _code_space(rules.truthful)


@lru_cache(maxsize=8)
def _code_space(rules: Rules) -> CodeSpace:
    return CodeSpace(rules)
