"""The reference engine: numpy over the enumerated code space.

It shares nothing with the declarative encodings but the rules, so agreement
between it and the clingo/swipl engines is a real cross-check.

Its one costly call is filtering the surviving codes by a new entry (one
pass over up to 20 million codes: compiled over packed codes where they fit,
:meth:`mm_logic.codespace.CodeSpace.feedback_to`, numpy otherwise). Neither
can be interrupted, so ``time_limit`` is checked when that pass ends: a filter that took longer
fails with :class:`~mm_logic.support.errors.SolverTimeout` and leaves the history as
it was. A rule module's pass (``--feedback FILE.py``), a call of the user's code per code, is
bounded as it goes (:func:`mm_logic.feedback.watch.limit_scoring`).
"""

from __future__ import annotations

import contextlib
import time

import numpy as np

from ..codespace import code_space
from ..feedback import rule_of
from ..feedback.watch import limit_scoring
from ..lies import tell
from ..notation import Code, Entry
from ..support.errors import SolverTimeout
from .base import Engine, Session


class ReferenceSession(Session):
    """Keeps the indices of the surviving codes, one array per history depth."""

    def __init__(self, engine: ReferenceEngine):
        super().__init__(engine.rules)
        self.space = engine.space
        self.time_limit = engine.time_limit
        # Every code, or those a rule stated in an encoding admits (--feedback FILE.lp that narrows the space):
        # the secrets, from the empty history on.
        admitted = rule_of(self.rules).admitted_codes()
        self._alive = [np.arange(self.space.size, dtype=np.int64) if admitted is None else admitted]
        # With --lies, the lies each surviving code needs, per depth (mm_logic.lies).
        self._lies = [np.zeros(self._alive[0].size, dtype=np.int8)] if self.rules.lies else None

    def _push(self, entry: Entry) -> None:
        started = time.monotonic()
        alive = self._alive[-1]
        more_time = self.rules.naming.more_time()
        # The limit holds inside the pass too where a rule module scores it, a call at a time, in whatever thread
        # runs it: a server's request of 7x10 ran 40 s past its limit of 10.
        bounded = (limit_scoring(self.time_limit, every_thread=True, advice=more_time) if self.time_limit is not None
                   else contextlib.nullcontext())  # none given: a bound of the command's own holds
        with bounded:
            if self._lies is not None:
                kept, lies = tell(self.rules, alive, self._lies[-1], entry)
            else:
                kept = self.space.keep(alive, entry)
        if self.time_limit is not None and time.monotonic() - started > self.time_limit:
            raise SolverTimeout(f"python did not answer within the time limit of {self.time_limit:g} s "
                                f"({self.rules.describe()}, {alive.size:,} codes to filter); {more_time}")
        if self._lies is not None:
            self._lies.append(lies)
        self._alive.append(kept)

    def _pop(self, entry: Entry) -> None:
        self._alive.pop()
        if self._lies is not None:
            self._lies.pop()

    def lies_needed(self) -> np.ndarray:
        return self._lies[-1] if self._lies is not None else super().lies_needed()

    def consistent_indices(self) -> np.ndarray:
        return self._alive[-1]

    def _first(self) -> Code | None:
        alive = self._alive[-1]
        return self.space.code(alive[0]) if alive.size else None

    def _enumerate(self, limit: int | None) -> np.ndarray:
        alive = self._alive[-1]
        return self.space.codes[alive[:limit] if limit is not None else alive]

    def _count(self) -> int:
        return int(self._alive[-1].size)

    def count_within(self, limit: int, seconds: float = 0) -> tuple[int, bool]:
        return self._count(), True  # exact at no cost


class ReferenceEngine(Engine):
    """Pure numpy engine; handles spaces up to :data:`mm_logic.codespace.MAX_CODES` codes."""

    name = "python"
    # Its answers are the feedback rule itself over the enumerated space.
    checked = False

    def __init__(self, rules, **options):
        super().__init__(rules, **options)
        self.space = code_space(rules)  # raises SpaceTooLarge naming clingo

    def _new_session(self) -> ReferenceSession:
        return ReferenceSession(self)
