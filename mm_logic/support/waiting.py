"""Waits on a solver that may never end, said on stderr: what is waited for, and for how long.

An edited encoding, or a rule of one's own, can make its engine's call run for ever (a ``.pl`` clause that
loops, an ``.lp`` program whose solving never ends); a command without ``--time-limit`` then waits without
bound. Ctrl-C stops it, but a user must know what it waits for: :func:`waiting` wraps such a call, and once
it has gone :data:`FIRST` s without a word a line on stderr names it (``note: listing the codes php.lp
admits, by clingo: 0:05 so far (no time limit; Ctrl-C stops it)``), then every :data:`EVERY` s while it
lasts. A wait that reports its own progress calls :meth:`Wait.touch` between its steps: the notes say only
what the steps cannot. Only the outermost wait of a thread speaks (listing an encoding's codes is a clingo
call too), with the bound that ends it first: its own (the command's ``--time-limit``: ``(time limit 5 s)``),
or one of mmlogic's own that a wait within it has (a rule's grounding: ``(at most 60 s; Ctrl-C stops it)``,
counted from the outer wait's start), or none. Never on stdout: a ``--json`` answer stays whole.

One daemon thread of the process says them, so that a call blocked in C (clingo, SWI-Prolog) is said too. It
is woken only when a wait is due before the time it sleeps until: a strategy tree's thousands of short
questions, each a wait, cost no thread switch each.
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
    """One wait under way: what it waits for, its bound (seconds; None: none; ``built_in``: one of mmlogic's own,
    not the command's ``--time-limit``; ``cut_short``: one that ends this call with what it found, not the waits
    around it), the outermost wait of its thread (``root``, itself if it is that one), and when it was last heard
    of."""

    def __init__(self, what: str, bound: float | None, root: Wait | None = None, built_in: bool = False,
                 cut_short: bool = False):
        self.what, self.bound, self.built_in, self.cut_short = what, bound, built_in, cut_short
        self.root = self if root is None else root
        self.outermost = root is None
        self.started = self.heard = time.monotonic()
        self.said: float | None = None

    @property
    def ends(self) -> float | None:
        """When its bound ends it (on ``time.monotonic``'s clock; None: never)."""
        return None if self.bound is None else self.started + self.bound

    def touch(self) -> None:
        """The wait made progress it reports itself: say nothing for another :data:`FIRST` s."""
        self.heard, self.said = time.monotonic(), None

    def due(self) -> float:
        """When its next line is due (on ``time.monotonic``'s clock)."""
        return self.heard + FIRST if self.said is None else self.said + EVERY

    def line(self, now: float, within: list[Wait] = ()) -> str:
        """The note of this wait at ``now``, with the bound that ends it first: its own, or that of one of the waits
        ``within`` it (of its thread, under way) that a bound of mmlogic's own ends, and with it this one."""
        first = min((wait for wait in (self, *within) if wait.ends is not None
                     and (wait is self or (wait.built_in and not wait.cut_short))),
                    key=lambda wait: (wait.ends, wait is not self), default=None)
        if first is None:
            bound = "no time limit; Ctrl-C stops it"
        elif first.built_in:
            bound = f"at most {round(first.ends - self.started):g} s; Ctrl-C stops it"
        else:
            bound = f"time limit {first.bound:g} s"
        return f"note: {self.what}: {clock(now - self.started)} so far ({bound})"


class _Notes:
    """The waits under way in this process, and the thread that says them."""

    def __init__(self):
        self.lock = threading.Condition()
        self.waits: list[Wait] = []
        self.thread: threading.Thread | None = None
        self.local = threading.local()
        #: When the thread wakes up next (on ``time.monotonic``'s clock; None: when it is woken).
        self.wakes: float | None = None

    def add(self, wait: Wait) -> None:
        with self.lock:
            self.waits.append(wait)
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="mmlogic-waiting", daemon=True)
                self.thread.start()
            if wait.outermost and (self.wakes is None or wait.due() < self.wakes):
                self.lock.notify()

    def remove(self, wait: Wait) -> None:
        with self.lock:
            self.waits.remove(wait)

    def _run(self) -> None:
        with self.lock:
            while True:
                speaking = [wait for wait in self.waits if wait.outermost]
                if not speaking:
                    self.wakes = None
                    self.lock.wait()
                    continue
                now = time.monotonic()
                for wait in speaking:
                    if wait.due() <= now:
                        wait.said = now
                        _say(wait.line(now, [inner for inner in self.waits if inner.root is wait]))
                # Woken at the due time of a wait that ended (or was touched) meanwhile, it finds none due and
                # sleeps again.
                self.wakes = max(time.monotonic() + 0.01, min(wait.due() for wait in speaking))
                self.lock.wait(self.wakes - time.monotonic())


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
def waiting(what: str, bound: float | None = None, *, built_in: bool = False,
            cut_short: bool = False) -> Iterator[Wait]:
    """Say on stderr, :data:`FIRST` s in and then every :data:`EVERY` s, that ``what`` is still waited for
    (e.g. ``"listing the codes php.lp admits, by clingo"``), with the ``bound`` that ends it (seconds; None:
    none, Ctrl-C stops it): the command's ``--time-limit``, or with ``built_in`` one of mmlogic's own. Silent
    within another wait of the same thread, which says it, and says ``bound`` where it is one of mmlogic's own
    that ends the outer wait first (not where it is ``cut_short``: it ends this call with what it found, a
    count's own deadline, and the outer wait goes on)."""
    notes = _notes
    root = getattr(notes.local, "root", None)
    wait = Wait(what, bound, root, built_in, cut_short)
    notes.local.root = wait.root
    notes.add(wait)
    try:
        yield wait
    finally:
        notes.remove(wait)
        notes.local.root = root


__all__ = ["EVERY", "FIRST", "Wait", "waiting"]
