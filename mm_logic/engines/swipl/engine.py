"""The swipl engine: one CLP(FD) encoding, loaded once, answering for some rules."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from ...notation import Code
from ...support.errors import BadInput, EncodingError, SolverTimeout, one_line
from ...support.waiting import waiting
from ..base import Engine
from .runtime import runtime
from .session import SwiplSession

#: How SWI-Prolog reports a question that ran out of its stack (its limit in the group).
STACK_LIMIT = re.compile(r"\s*Stack limit \(([^)]*)\) exceeded")


class SwiplEngine(Engine):
    """Answer consistency questions with SWI-Prolog's CLP(FD) and the shipped or a user's encoding."""

    name = "swipl"
    suffix = ".pl"
    # CLP(FD) labeling options: ff is first-fail, the option seed 003's guesser labels with (its
    # answers still differ: its clause order chooses where pegs stay before labeling runs).
    labelings = ("leftmost", "ff", "ffc", "min", "max")
    # CLP(FD) labels about 10,000 codes a second (7x7: 10,001 in 0.75 s, 52,068 in 5 s), clingo ten times more.
    count_budget = 10_000
    # feedback/5 reifies the built-in rules' constraints; a rule of one's own states feedback/2 only.
    lies_rules = ("standard", "black", "positional")

    def __init__(self, rules, **options):
        super().__init__(rules, **options)
        self._prolog = runtime()
        if self.encoding is not None:
            # Loading the libraries is start-up, untimed (library(clpfd): about a second); the time
            # limit bounds what the user's file adds (a directive that loops).
            self._prolog.load_encoding(None)
        self.entry_file, self.module = self._prolog.load_encoding(
            self.encoding, self.time_limit if self.encoding is not None else None)
        if self.labeling is not None and self.encoding is not None:
            self._prolog.require(self.module, "labeled/3", Path(self.encoding), "--labeling")
        self._shown = Path(self.encoding) if self.encoding is not None else self.entry_file
        self._dtype = np.uint8 if rules.colors <= 255 else np.uint16

    @property
    def source(self) -> str:
        return str(self._shown)

    def _new_session(self) -> SwiplSession:
        return SwiplSession(self)

    # -- asking Prolog -----------------------------------------------------
    def ask(self, question: str, entries: list, limit=None, *, timed: bool = True):
        """One question about ``entries`` (``Guess-Black-White`` terms), bounded by ``time_limit``
        (``timed`` False: the question keeps a deadline of its own). One that goes on (a clause of an edited
        encoding that loops) is said on stderr while it lasts (:func:`~mm_logic.support.waiting.waiting`)."""
        shown = "count" if question == "counted" else question  # a count up to a bound is a count
        bound = self.time_limit if timed else (limit[1] or None)  # counted's limit: (codes, seconds)
        with waiting(f"swipl answering ({self.rules.describe()}, {shown}, {self.entry_file.name})", bound,
                     built_in=not timed, cut_short=not timed):
            answer = self._prolog.ask(self.module, self.rules, entries, question, limit,
                                      self.time_limit if timed else None)
        if answer == "timeout":
            raise SolverTimeout(
                f"swipl did not answer within the time limit of {self.time_limit:g} s "
                f"({self.rules.describe()}, {question}, {self.entry_file.name}); {self.rules.naming.more_time()}"
            )
        if answer == "interrupted":
            raise KeyboardInterrupt
        if isinstance(answer, tuple) and len(answer) == 2 and answer[0] == "error":
            stack = STACK_LIMIT.match(str(answer[1]))
            if stack and self.encoding is None:
                # The shipped encoding's propagators ran out of Prolog's stack: the game is too large for this
                # engine, not an encoding at fault (Prolog's own report is 700 characters of stack frames).
                raise BadInput(f"{self.rules.describe()} is too large for the swipl engine: question {shown} ran out "
                               f"of Prolog's stack ({stack[1]}); use --backend clingo or python")
            if stack:
                raise self.misfit(f"question {shown} ran out of Prolog's stack ({stack[1]}): a recursion that does "
                                  "not end, or a game too large for swipl")
            raise self.misfit(f"the encoding failed on question {shown}: {one_line(answer[1])}")
        return answer

    def misfit(self, detail: str) -> EncodingError:
        return EncodingError(f"{self._shown}:1: {detail}")

    def code(self, answer) -> Code | None:
        """A code from the encoding, checked against the rules; None for ``none``."""
        if answer == "none":
            return None
        return tuple(int(c) for c in self.codes([answer])[0])

    def codes(self, answer) -> np.ndarray:
        """Codes from the encoding as an array ``(m, pegs)``, checked against the rules.

        They must be valid codes and come in strictly increasing lexicographic order.
        """
        r = self.rules
        try:
            codes = np.array(answer, dtype=np.int64).reshape(len(answer), r.pegs)
        except (TypeError, ValueError):
            raise self.misfit(
                f"the encoding's codes must be lists of {r.pegs} colours, got {str(answer)[:80]}"
            ) from None
        if codes.size and (codes.min() < 0 or codes.max() >= r.colors):
            raise self.misfit(f"the encoding's codes must use the colours 0..{r.colors - 1}")
        if len(codes) > 1:
            step = np.diff(codes, axis=0)
            lead = step[np.arange(len(step)), np.argmax(step != 0, axis=1)]
            if (lead <= 0).any():
                raise self.misfit("all/3 must list codes in increasing lexicographic order")
        return codes.astype(self._dtype)
