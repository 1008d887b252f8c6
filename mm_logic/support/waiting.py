"""Waits on a solver that may never end, said on stderr: what is waited for, and for how long.

An edited encoding, or a rule of one's own, can make its engine's call run for ever (a ``.pl`` clause that
loops, an ``.lp`` program whose solving never ends); a command without ``--time-limit`` then waits without
bound. Ctrl-C stops it, but a user must know what it waits for: :func:`waiting` wraps such a call, and once
it has gone :data:`FIRST` s without a word a line on stderr names it (``note: listing the codes php.lp
admits, by clingo: 0:05 so far (no time limit; Ctrl-C stops it)``), then every :data:`EVERY` s while it
lasts. A wait that reports its own progress calls :meth:`Wait.touch` between its steps: the notes say only
what the steps cannot. Only the outermost wait of a thread speaks (listing an encoding's codes is a clingo
call too). Never on stdout: a ``--json`` answer stays whole.

One daemon thread of the process says them, so that a call blocked in C (clingo, SWI-Prolog) is said too.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import clock, line_breaks_escaped

#: Seconds a wait goes on without a word before it is said, then between two of its lines.
FIRST = 5.0
EVERY = 10.0


class Wait:
    """One wait under way: what it waits for, its bound (seconds; None: none) and when it was last heard of."""

    def __init__(self, what: str, bound: float | None, outermost: bool):
        self.what, self.bound, self.outermost = what, bound, outermost
        self.started = self.heard = time.monotonic()
        self.said: float | None = None

    def touch(self) -> None:
        """The wait made progress it reports itself: say nothing for another :data:`FIRST` s."""
        self.heard, self.said = time.monotonic(), None

    def due(self) -> float:
        """When its next line is due (on ``time.monotonic``'s clock)."""
        return self.heard + FIRST if self.said is None else self.said + EVERY

    def line(self, now: float) -> str:
        bound = "no time limit; Ctrl-C stops it" if self.bound is None else f"time limit {self.bound:g} s"
        return f"note: {self.what}: {clock(now - self.started)} so far ({bound})"


class _Notes:
    """The waits under way in this process, and the thread that says them."""

    def __init__(self):
        self.lock = threading.Condition()
        self.waits: list[Wait] = []
        self.thread: threading.Thread | None = None
        self.local = threading.local()

    def add(self, wait: Wait) -> None:
        with self.lock:
            self.waits.append(wait)
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="mmlogic-waiting", daemon=True)
                self.thread.start()
            self.lock.notify()

    def remove(self, wait: Wait) -> None:
        with self.lock:
            self.waits.remove(wait)

    def _run(self) -> None:
        with self.lock:
            while True:
                speaking = [wait for wait in self.waits if wait.outermost]
                if not speaking:
                    self.lock.wait()
                    continue
                now = time.monotonic()
                for wait in speaking:
                    if wait.due() <= now:
                        wait.said = now
                        _say(wait.line(now))
                self.lock.wait(max(0.01, min(wait.due() for wait in speaking) - time.monotonic()))


def _say(line: str) -> None:
    stream = sys.stderr
    try:
        # On a terminal, over a spinner's line (it draws itself again below).
        stream.write(("\r\033[K" if stream.isatty() else "") + line_breaks_escaped(line) + "\n")
        stream.flush()
    except (OSError, ValueError):  # a closed stderr: the note is lost, the wait goes on
        pass


_notes = _Notes()


def _after_fork() -> None:
    # A child forked during a wait has neither the thread nor, maybe, a free lock.
    global _notes
    _notes = _Notes()


os.register_at_fork(after_in_child=_after_fork)


@contextmanager
def waiting(what: str, bound: float | None = None) -> Iterator[Wait]:
    """Say on stderr, :data:`FIRST` s in and then every :data:`EVERY` s, that ``what`` is still waited for
    (e.g. ``"listing the codes php.lp admits, by clingo"``), with the ``bound`` that ends it (seconds; None:
    none, Ctrl-C stops it). Silent within another wait of the same thread, which says it."""
    notes = _notes
    depth = getattr(notes.local, "depth", 0)
    wait = Wait(what, bound, outermost=depth == 0)
    notes.local.depth = depth + 1
    notes.add(wait)
    try:
        yield wait
    finally:
        notes.remove(wait)
        notes.local.depth = depth


__all__ = ["EVERY", "FIRST", "Wait", "waiting"]
