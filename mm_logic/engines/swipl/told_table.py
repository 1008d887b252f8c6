"""A feedback rule stated in a Prolog encoding, derived by SWI-Prolog: what it tells of every guess
against every code it admits (``--feedback FILE.pl``, :mod:`mm_logic.feedback.encoded`).

The encoding is loaded as the swipl engine loads an edited one (:meth:`~.runtime.PrologRuntime.load_encoding`:
under a module name of its own, ``mmlogic(File)`` naming the shipped encodings, every load message one
``file:line`` line). The codes it admits are its ``all/3`` answer before any guess; then the bridge's
``told_table/7`` binds a copy of the template secret to each admitted code in turn and asks its
``feedback(Secret, told(Guess, Numbers))`` of every guess, the numbers fresh (labelled from 0 to the pegs
where the clause leaves them free); the code itself is the win.

Each call is a question of the runtime (:meth:`~.runtime.PrologRuntime.told`, ``told_table/8``), under the
guards of the engine's questions: the time limit (the whole derivation's, each call within what is left),
Ctrl-C, SIGTERM and SIGHUP stop a rule that loops or waits, and a halt it calls is refused, one line.

Measured on examples/shared_colours.pl: about 8 microseconds a (guess, code) pair, most of it the
rule's own constraints (4x6: 1.7 million pairs; 5x5: 9.8 million), and about 2 ms a code a call to set it
up (so a call asks every guess, :data:`mm_logic.feedback.encoded.BATCHES`).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from ...feedback.encoded import SEVERAL, Told
from ...rules import Rules
from ...support.errors import EncodingError, SolverTimeout, one_line
from .runtime import runtime


class SwiplTold:
    """The told numbers of a Prolog encoding (``path``) for the code space of ``rules`` (the truthful rules,
    the feedback the encoding's path)."""

    @staticmethod
    def sources(path: Path) -> list[Path]:
        """The files the encoding reads: the file itself (with the shipped encodings, which the cache key
        reads anyway)."""
        return [path]

    def __init__(self, path: Path, rules: Rules, time_limit: float | None = None):
        self.rules = rules
        self.time_limit = time_limit
        self.shown = Path(path)
        self._prolog = runtime()
        self._prolog.load_encoding(None)  # the libraries: start-up, untimed (as the engine does)
        #: ``time_limit`` bounds the whole derivation: the load, then every question, each within what is left.
        self._deadline = None if time_limit is None else time.monotonic() + time_limit
        self.file, self.module = self._prolog.load_encoding(path, time_limit)

    def admitted(self) -> np.ndarray:
        """The codes the encoding admits before any guess, ``(m, pegs)`` in lexicographic order."""
        answer = self._checked(self._prolog.ask(self.module, self.rules, [], "all", None, self._left()))
        try:
            codes = np.array(answer, dtype=np.int64).reshape(len(answer), self.rules.pegs)
        except (TypeError, ValueError):
            raise self._misfit(f"all/3 must give lists of {self.rules.pegs} colours, got {str(answer)[:80]}") \
                from None
        if codes.size and (codes.min() < 0 or codes.max() >= self.rules.colors):
            raise self._misfit(f"the encoding's codes must use the colours 0..{self.rules.colors - 1}")
        return np.unique(codes, axis=0)  # lexicographic, as the engine's all/3 gives them

    def answers(self, guesses: np.ndarray, arity: int, secrets: np.ndarray) -> Told:
        """What the encoding tells of each of ``guesses`` (codes, ``(b, pegs)``) against each of ``secrets``
        (codes it admits, :meth:`admitted`), with ``arity`` numbers: one call of the bridge.

        Raises :class:`SolverTimeout` past the time limit, KeyboardInterrupt on Ctrl-C, and
        :class:`EncodingError` when the encoding fails or calls halt."""
        rules = self.rules
        columns = self._checked(self._prolog.told(self.module, rules, guesses.tolist(), secrets.tolist(), arity,
                                                  self._left()))
        told = Told(np.array(columns, dtype=np.int64).reshape(len(secrets), len(guesses)).T.copy(), {})
        slots = (rules.pegs + 2) ** arity
        for row, column in np.argwhere(told.index <= SEVERAL).tolist():
            # -(2 + A * slots + B): two answers, of indices A and B (bridge.pl, told_table/7)
            told.several[(row, column)] = divmod(-int(told.index[row, column]) - 2, slots)
            told.index[row, column] = SEVERAL
        return told

    def _left(self) -> float | None:
        """The seconds left of the time limit (None: no limit); past it, :class:`SolverTimeout`."""
        if self._deadline is None:
            return None
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise self._timeout()
        return left

    def _checked(self, answer):
        """``answer``, once it is not a question that did not finish (a time-out, Ctrl-C, an error)."""
        if answer == "timeout":
            raise self._timeout()
        if answer == "interrupted":
            raise KeyboardInterrupt
        if answer == "halted":  # refused by the bridge: it would end mmlogic, silently and with its code
            raise self._misfit("the encoding called halt during the derivation of its rule, which would end mmlogic")
        if isinstance(answer, tuple) and len(answer) == 2 and answer[0] == "error":
            raise self._misfit(f"the encoding failed while its rule was derived: {one_line(answer[1])}")
        return answer

    def _timeout(self) -> SolverTimeout:
        return SolverTimeout(f"swipl did not derive the rule of {self.shown} within the time limit of "
                             f"{self.time_limit:g} s; raise --time-limit")

    def _misfit(self, detail: str) -> EncodingError:
        return EncodingError(f"{self.shown}:1: {detail}")


__all__ = ["SwiplTold"]
