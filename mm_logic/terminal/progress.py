"""What the command line shows while it works: a spinner for slow solver calls, a progress bar for many games.

Nothing should run silently for more than a few seconds. A :class:`Spinner`
draws, on a terminal's stderr only, a turning wheel with the seconds spent
once a step has taken longer than a second, and wipes it when the step ends
(:meth:`Spinner.tick`), so quick steps print nothing and piped output stays
clean. :func:`progress_bar` draws click's bar, redrawn every second with the
time spent (:class:`TickingBar`), on a terminal's stderr only.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import sys
import threading
import time
from typing import TextIO

import click

from ..support.errors import clock  # noqa: F401 - the terminal's name for it too (cli.racing)

#: Seconds a step may take before the spinner shows.
SHOW_AFTER = 1.0
#: Seconds between two frames.
FRAME = 0.1
FRAMES = "|/-\\"


def interactive(stream: TextIO) -> bool:
    """Whether ``stream`` is a person's terminal (not a pipe, not CI)."""
    return stream.isatty() and not os.environ.get("CI")


class Spinner:
    """A background wheel on ``stream`` for steps longer than ``show_after`` seconds.

    Use it as a context manager around work made of steps, calling
    :meth:`tick` between steps. With ``enabled`` false it does nothing.

    Parameters
    ----------
    label:
        What is being done, e.g. ``"thinking"``.
    stream:
        Where to draw (default: stderr).
    enabled:
        Default: whether ``stream`` is an interactive terminal.
    """

    def __init__(self, label: str, stream: TextIO | None = None, enabled: bool | None = None,
                 show_after: float = SHOW_AFTER, frame: float = FRAME):
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = interactive(self.stream) if enabled is None else enabled
        self.show_after = show_after
        self.frame = frame
        self._lock = threading.Lock()
        self._started = time.monotonic()
        self._shown = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Spinner:
        if self.enabled:
            self._started = time.monotonic()
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
        self._wipe()

    def tick(self) -> None:
        """A step ended: wipe the wheel and start timing the next step."""
        with self._lock:
            self._wipe_locked()
            self._started = time.monotonic()

    def _run(self) -> None:
        frames = itertools.cycle(FRAMES)
        while not self._stop.wait(self.frame):
            with self._lock:
                spent = time.monotonic() - self._started
                if spent >= self.show_after:
                    line = f"{next(frames)} {self.label}... {spent:.1f} s"
                    # One screen line: a wrapped line is not wiped by the next "\r" (an 80-column
                    # terminal kept every copy of optimal's 115-character progress).
                    width = shutil.get_terminal_size().columns - 1
                    if len(line) > width:
                        line = line[: max(width - 1, 0)] + "…"
                    self.stream.write(f"\r{line}\033[K")
                    self.stream.flush()
                    self._shown = True

    def _wipe(self) -> None:
        with self._lock:
            self._wipe_locked()

    def _wipe_locked(self) -> None:
        if self._shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._shown = False


def progress_bar(length: int, label: str):
    """A progress bar on stderr for a terminal (with --json too: stdout stays the JSON alone); a no-op
    context otherwise."""
    return TickingBar(length, label) if interactive(sys.stderr) else _NoProgress()


class TickingBar:
    """click's progress bar, on a terminal's stderr, redrawn every second with the time spent.

    The bar itself moves only when a step ends: a 20x20 game on swipl takes
    minutes, and a bar frozen at 0% looked hung. A background thread redraws
    it with the minutes and seconds spent (the steps' own redraws take the
    same lock). Use it as click's bar: a context manager with
    :meth:`update`.
    """

    def __init__(self, length: int, label: str, stream: TextIO | None = None, every: float = 1.0):
        self._started = time.monotonic()
        self._every = every
        self._bar = click.progressbar(length=length, label=label, file=stream or sys.stderr,
                                      show_eta=False, item_show_func=self._times)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _times(self, _item) -> str:
        """"1:05 spent", then ", about 2:10 left" once a step has ended (at the steps' mean pace)."""
        spent = time.monotonic() - self._started
        done, length = self._bar.pos, self._bar.length
        text = f"{clock(spent)} spent"
        if 0 < done < length:
            text += f", about {clock(spent / done * (length - done))} left"
        return text

    def __enter__(self) -> TickingBar:
        self._started = time.monotonic()
        self._bar.__enter__()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            self._bar.__exit__(*exc)

    def update(self, n: int) -> None:
        """``n`` more steps are done."""
        with self._lock:
            self._bar.update(n)

    @contextlib.contextmanager
    def above(self):
        """Print lines above the bar: its line is wiped, the caller prints (to stdout or stderr), and the
        next redraw, within a second, draws the bar below them."""
        with self._lock:
            self._bar.file.write("\r\033[K")
            self._bar.file.flush()
            yield

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            with self._lock:
                self._bar.render_progress()


class _NoProgress:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n):
        pass

    def above(self):
        return contextlib.nullcontext()
