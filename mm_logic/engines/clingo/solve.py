"""One bounded solver call: a model handler that reads codes, and the call itself.

:class:`CodeReader` is the model handler: it copies each model's shown
``secret(P,C)`` atoms into a code while the model is alive (clingo frees it
afterwards), counts models, and notes what does not fit the rules.
:func:`solve` runs one call bounded by a conflict budget, a time limit and
Ctrl-C.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np
from clingo import Control, SymbolType

from ...rules import Rules
from ...support.errors import SolverTimeout
from ...support.interrupts import interrupts_held, wait_for
from ...support.waiting import waiting

#: Conflicts and models a question may spend in the calling thread (see :func:`solve`).
QUICK_CONFLICTS = 1000
QUICK_MODELS = 5000


#: Seconds between two calls of :func:`solve_within`'s ``tick`` while a search goes on.
TICK_SECONDS = 1.0
#: Codes a counting reader hands to its check at once (bounded memory for big counts).
CHECK_BATCH = 65_536


class CodeReader:
    """Model handler: the codes of the models found (``collect``), or only the first, and their number.

    A shown atom that is not a ``secret(P,C)`` of a peg and colour of the
    rules, a peg given two colours, or a peg without one is a *misfit*: the
    encoding does not describe codes of these rules. With a ``check`` (a
    function of an array of codes that raises on a wrong one), a counting
    reader still reads every model and has it checked, in batches.
    """

    def __init__(self, rules: Rules, where: dict, collect: bool | int = True, check=None):
        self.rules = rules
        #: True: keep every code; False: keep the first; a number N: keep them all while there are at most N.
        self.collect = collect
        self.check = check
        #: shown atom -> (peg index, colour), shared by a session's calls: each atom is read once.
        self.where = where
        self.reset()

    def reset(self) -> None:
        """Forget the models seen (a search that is started again)."""
        self.codes: list[list[int]] = []
        self.count = 0
        self.misfit: str | None = None
        self.wrong: Exception | None = None  # what the check raised, raised again after the solve
        self.stopped = False  # set by the caller: a deadline ended the search before it was done
        self._batch: list[list[int]] = []

    def finish(self) -> None:
        """Check the codes still waiting; raise what a check found."""
        self._flush()
        if self.wrong is not None:
            raise self.wrong

    def _flush(self) -> None:
        if self._batch and self.wrong is None:
            try:
                self.check(np.array(self._batch, dtype=np.int64))
            except Exception as error:  # noqa: BLE001 - kept, raised once the solve is over
                self.wrong = error
        self._batch = []

    def __call__(self, model) -> None:
        self.count += 1
        if not self.collect and self.count > 1 and self.check is None:
            return  # counting: the first model was read
        pegs = self.rules.pegs
        code = [-1] * pegs
        for symbol in model.symbols(shown=True):
            spot = self.where.get(symbol)
            if spot is None:
                spot = self.where[symbol] = self._spot(symbol)
            if spot[0] >= 0 and code[spot[0]] == -1:
                code[spot[0]] = spot[1]
            elif spot[0] >= 0 or symbol.name == "secret":
                self.misfit = str(symbol)
        if -1 in code:
            self.misfit = f"peg {code.index(-1) + 1} has no colour"
        if self.collect is True or self.count == 1 or self.count <= self.collect:
            self.codes.append(code)
        elif self.collect is not False and self.count == self.collect + 1:
            del self.codes[1:]  # too many to keep: the first only
        if self.check is not None and self.collect is not True and self.misfit is None:
            self._batch.append(code)
            if len(self._batch) >= CHECK_BATCH:
                self._flush()

    def _spot(self, symbol) -> tuple[int, int]:
        """(peg index, colour) of a shown ``secret(P,C)`` atom; (-1, -1) for other atoms."""
        args = symbol.arguments
        if symbol.name == "secret" and len(args) == 2 and all(a.type == SymbolType.Number for a in args):
            peg, colour = args[0].number, args[1].number
            if 0 < peg <= self.rules.pegs and 0 <= colour < self.rules.colors:
                return peg - 1, colour
        return -1, -1


def solve(ctl: Control, reader: CodeReader, assumptions, models: int, *, budget: int | None = None,
          time_limit: float | None = None, stop_at: float | None = None, what: str = "") -> bool:
    """Search for up to ``models`` models (0: all) and hand each to ``reader``.

    With a ``budget`` of conflicts, returns False if the search needed more
    (``reader`` then holds a partial answer); likewise once ``stop_at`` (on
    ``time.monotonic``'s clock) has passed, the models found so far in
    ``reader``; otherwise True once done.
    ``time_limit`` raises :class:`SolverTimeout` (``what`` says which
    question, for the message); Ctrl-C cancels the search and propagates.
    A search that goes on is said on stderr while it lasts
    (:func:`~mm_logic.support.waiting.waiting`).

    Every question is first tried in this thread with at most
    :data:`QUICK_CONFLICTS` conflicts and :data:`QUICK_MODELS` models: most
    answers come that way, without waking a second thread (which costs up
    to a millisecond on a busy machine, and a strategy tree asks thousands
    of questions); Ctrl-C waits for those few milliseconds. Only an
    unfinished search goes on in clingo's own thread, from scratch: this
    thread waits on an event the search sets when it finishes (much quicker
    to wake than clingo's timed wait), in slices so that Ctrl-C gets through.
    """
    deadline = None if time_limit is None else time.monotonic() + time_limit
    stopping = stop_at is not None and (deadline is None or stop_at < deadline)
    limits = ctl.configuration.solve
    bounded = 0 < models <= QUICK_MODELS
    limits.solve_limit = str(QUICK_CONFLICTS if budget is None else budget)
    limits.models = str(models if bounded else QUICK_MODELS)
    try:
        with interrupts_held():
            result = ctl.solve(on_model=reader, assumptions=assumptions)
        # Done when the search space is exhausted, or when the models asked for are all in. A
        # search cut by the conflict limit after some models is satisfiable (not "unknown")
        # yet unfinished: taking it as done made count_within call a partial count exact.
        if result.exhausted or (bounded and reader.count >= models):
            return True
    finally:
        limits.solve_limit = "umax"
        limits.models = str(models)
    if budget is not None:
        return False
    reader.reset()
    # A search past its quick slice may never end (an edited encoding's): said on stderr while it lasts, with
    # its bound (``stop_at``, a count's own, cuts it short before the command's time limit).
    bound = round(max(0.0, stop_at - time.monotonic()), 1) if stopping else time_limit
    with waiting(f"clingo solving ({what})" if what else "clingo solving", bound, built_in=stopping,
                 cut_short=stopping):
        result = solve_within(ctl, reader, stop_at if stopping else deadline, assumptions)
    if result is None:
        if stopping:
            return False
        raise SolverTimeout(f"clingo did not answer within the time limit of {time_limit:g} s "
                            f"({what}); {reader.rules.naming.more_time()}")
    return True


def solve_within(ctl: Control, on_model, deadline: float | None, assumptions=(),
                 tick: Callable[[], None] | None = None):
    """One search in clingo's own thread, each model handed to ``on_model``: its ``SolveResult``, or None
    when ``deadline`` (on ``time.monotonic``'s clock) passed first and the search was cancelled. This
    thread waits on an event the search sets when it finishes, in slices so that Ctrl-C gets through
    (it cancels the search and is raised again). ``tick``, if given, is called every :data:`TICK_SECONDS`
    while the search goes on (a long one may be said to be long)."""
    finished = threading.Event()
    with ctl.solve(on_model=on_model, on_finish=lambda _: finished.set(), assumptions=assumptions,
                   async_=True) as handle:
        try:
            while True:
                step = None if tick is None else time.monotonic() + TICK_SECONDS
                until = step if deadline is None else deadline if step is None else min(deadline, step)
                if wait_for(finished, until):
                    break
                if step is None or (deadline is not None and time.monotonic() >= deadline):
                    handle.cancel()
                    return None
                tick()
        except KeyboardInterrupt:
            handle.cancel()
            raise
        return handle.get()
