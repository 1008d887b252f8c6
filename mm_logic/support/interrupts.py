"""Ctrl-C held while native code runs that cannot take it.

Python runs a signal's handler in the main thread at its next bytecode, which
may be inside a callback a solver makes into Python: a KeyboardInterrupt
raised there is not Ctrl-C any more. clingo printed "error in
SolveEventHandler::on_statistics going to terminate" and ended the process
with status 1, not 130; its ``Control.__del__`` printed it as ignored and
lost it (a bench then ran on); janus, starting SWI-Prolog, turned it into
"SystemError: <built-in function initialize> returned a result with an
exception set". :func:`interrupts_held` takes Ctrl-C aside and raises it
once the native call has returned.

SIGTERM and SIGHUP (``timeout``, ``kill``, a terminal closed) end a command
the same way (:func:`endings_as_interrupts`): its workers stopped, its
finished work kept, and the exit code of the signal (:func:`interrupted_code`).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress


class Held:
    """Ctrl-C taken aside by :func:`interrupts_held`: :meth:`check` raises it at a safe point
    inside the block (between two native calls), as the block's end would."""

    def __init__(self, previous=signal.SIG_DFL):
        #: The signals taken aside so far.
        self.caught: list[int] = []
        #: The handler held Ctrl-C is raised as (put back when the block ends, where it took Ctrl-C).
        self.previous = previous

    def check(self) -> None:
        """Raise the held Ctrl-C, if any, as the handler it replaced would (KeyboardInterrupt;
        nothing where Ctrl-C was ignored)."""
        if not self.caught:
            return
        if callable(self.previous):
            self.previous(signal.SIGINT, None)  # Python's own handler raises KeyboardInterrupt
        elif self.previous == signal.SIG_DFL:
            raise KeyboardInterrupt


#: The blocks of :func:`interrupts_held` running, innermost last: where SIGTERM and SIGHUP are held.
_holding: list[Held] = []


@contextmanager
def interrupts_held() -> Iterator[Held]:
    """Hold Ctrl-C while the block runs in the main thread, and raise it when the block ends
    (or where the block calls the yielded :meth:`Held.check`).

    An exception the block raises after a held Ctrl-C is taken for its
    consequence: KeyboardInterrupt is raised instead. Only quick calls should
    be held (milliseconds, or a one-off start-up of about a second), unless the
    block checks between them: Ctrl-C waits for them. In other threads, and
    where Ctrl-C is ignored, the block runs as it is. SIGTERM and SIGHUP, where
    :func:`endings_as_interrupts` takes them, are held alike, also where Ctrl-C
    is ignored (``mmlogic ... &`` then ``kill``: clingo ended on "going to
    terminate", exit 1).
    """
    previous = signal.getsignal(signal.SIGINT)
    takes_ctrl_c = previous not in (signal.SIG_IGN, None)
    if threading.current_thread() is not threading.main_thread() or not (takes_ctrl_c or _endings_taken()):
        # Another thread (signals reach the main thread only), or Ctrl-C ignored (a job started
        # with `&`) or not Python's to handle: nothing to hold, and the block's errors are its own.
        yield Held(signal.SIG_IGN)
        return
    held = Held(previous if takes_ctrl_c else signal.SIG_DFL)
    if takes_ctrl_c:
        signal.signal(signal.SIGINT, lambda number, frame: held.caught.append(number))
    _holding.append(held)
    try:
        yield held
    except Exception:
        if not held.caught:
            raise
    finally:
        _holding.remove(held)
        if takes_ctrl_c:
            signal.signal(signal.SIGINT, held.previous)
    held.check()


def wrapped_interrupt(error: BaseException) -> bool:
    """Whether ``error`` is Ctrl-C that a numba kernel wrapped.

    A kernel calls back into Python for some of its constants (numba unpickles them there);
    Ctrl-C landing in that call came out of the kernel as ``SystemError: CPUDispatcher(<function
    repair ...>) returned a result with an exception set``, caused by the KeyboardInterrupt:
    ``bench --strategy sample-entropy`` on 30x30 ended so on most Ctrl-Cs (exit 1), and ``optimal --anytime``
    on 5x6 (twice wrapped).
    """
    # A kernel called from a kernel wraps it again (scoring_tree's unpickling: a SystemError of a SystemError).
    while isinstance(error, SystemError):
        error = error.__cause__
    return isinstance(error, KeyboardInterrupt)


@contextmanager
def kernel_interrupts() -> Iterator[None]:
    """Ctrl-C inside the block's numba kernels raised as the KeyboardInterrupt it is
    (:func:`wrapped_interrupt`), so that callers that keep finished work on Ctrl-C see it."""
    try:
        yield
    except SystemError as error:
        if wrapped_interrupt(error):
            raise KeyboardInterrupt from None
        raise


#: Signals that end a command as Ctrl-C does, and the exit code of each: 128 + its number, as a shell
#: reports a process the signal killed (Ctrl-C's 130 is the contract's own).
ENDINGS = {signal.SIGINT: 130, signal.SIGTERM: 143, **({signal.SIGHUP: 129} if hasattr(signal, "SIGHUP") else {})}
#: The signals received by :func:`endings_as_interrupts`'s handler, first first.
_endings: list[int] = []


#: Python functions that C calls back through ctypes, where an exception is printed and dropped ("Exception
#: ignored on calling ctypes callback function"): llvmlite's object cache, called while numba compiles a kernel.
#: Ctrl-C or SIGTERM that landed there was lost: a first run compiled on for minutes and played to its end (exit
#: 0), or ended on "internal failure: ... no compiled object yet" (exit 1).
_CALLBACKS = frozenset({"_raw_object_cache_notify", "_raw_object_cache_getbuffer"})
#: How long a signal that landed in such a callback waits to be sent again (the callbacks take microseconds).
AGAIN_AFTER = 0.01


def _in_callback(frame) -> bool:
    """Whether ``frame`` runs inside one of :data:`_CALLBACKS`, where a raised interrupt would be dropped."""
    while frame is not None:
        code = frame.f_code
        if code.co_name in _CALLBACKS and "llvmlite" in code.co_filename:
            return True
        frame = frame.f_back
    return False


def _sent_again(number: int) -> None:
    """Send ``number`` to the main thread again shortly: it lands out of the callback it met."""
    again = threading.Timer(AGAIN_AFTER, signal.pthread_kill, (threading.main_thread().ident, number))
    again.daemon = True
    again.start()


def _ctrl_c(number: int, frame) -> None:
    """Ctrl-C as Python's own handler takes it (KeyboardInterrupt), but never where it would be dropped
    (:data:`_CALLBACKS`): there it is sent again, to land after the callback."""
    if _in_callback(frame):
        _sent_again(number)
        return
    raise KeyboardInterrupt


def _as_ctrl_c(number: int, frame) -> None:
    """SIGTERM or SIGHUP: recorded, then held where Ctrl-C is (:func:`interrupts_held`, inside
    native calls), or handed to whatever takes Ctrl-C at this moment (KeyboardInterrupt)."""
    if _in_callback(frame):
        _sent_again(number)
        return
    _endings.append(number)
    if _holding:
        _holding[-1].caught.append(number)  # raised where the block ends or checks
        return
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)
    else:  # Ctrl-C ignored (a job started with `&`): this signal was not, so the command ends
        raise KeyboardInterrupt


@contextmanager
def endings_as_interrupts() -> Iterator[None]:
    """Inside the block, SIGTERM and SIGHUP end the work as Ctrl-C does (KeyboardInterrupt), in
    the main thread, and none of the three is lost in a callback that drops exceptions (:data:`_CALLBACKS`);
    their previous handlers come back when it ends.

    Killed by them outright, a command left its worker processes running under init, its
    semaphores leaked (Python's resource_tracker warned of them) and its finished rows unsaid.
    A signal that was ignored (``nohup``) or that someone else handles stays as it was.
    """
    _endings.clear()
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.getsignal(number) for number in ENDINGS if number != signal.SIGINT}
    for number, handler in previous.items():
        if handler == signal.SIG_DFL:
            signal.signal(number, _as_ctrl_c)
    ctrl_c = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if ctrl_c:
        signal.signal(signal.SIGINT, _ctrl_c)
    try:
        yield
    finally:
        for number, handler in previous.items():
            if handler == signal.SIG_DFL:
                signal.signal(number, handler)
        if ctrl_c:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def _endings_taken() -> bool:
    """Whether SIGTERM or SIGHUP is taken as Ctrl-C here (:func:`endings_as_interrupts`)."""
    return any(signal.getsignal(number) is _as_ctrl_c for number in ENDINGS if number != signal.SIGINT)


def interrupted_code() -> int:
    """The exit code of a command interrupted: 130 for Ctrl-C, 143 after SIGTERM, 129 after SIGHUP
    (the first of them received, :func:`endings_as_interrupts`)."""
    return ENDINGS[_endings[0]] if _endings else ENDINGS[signal.SIGINT]


#: Threads left running in native code that cannot be stopped (a grounding past its time limit).
_abandoned: list[threading.Thread] = []


def abandon(thread: threading.Thread) -> None:
    """Record ``thread``, left running in native code: the process must end without the
    interpreter's shutdown, which would crash on it (:func:`end_process`)."""
    _abandoned.append(thread)


#: Set by a command that finished with nothing left to tidy (:func:`end_quickly`).
_quick_end: list[bool] = []


def end_quickly() -> None:
    """Say that the command finished and its process may end at once (:func:`end_process`).

    The interpreter's shutdown, once numba and LLVM are loaded, takes a tenth of a second or more
    (``mmlogic optimal`` on 4x6: a tenth of the whole run) and frees nothing the system does not.
    A command calls this when its work is done and written (its files closed, no worker left).
    """
    _quick_end.append(True)


def _flushed_exit(code: int) -> None:
    """End the process at once with ``code``, its standard streams flushed first."""
    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError, ValueError):  # a closed or broken pipe: nothing more to show
            stream.flush()
    os._exit(code)


#: How long the interpreter's own ending may take once a command is done (seconds): joining its threads, then
#: running its exit handlers. Ours take well under a second; a rule module's thread or ``atexit`` loop, for ever.
ENDING_GRACE = 5.0


def _ending_watched(code: int) -> None:
    """Past a finished command, nothing keeps its process: after :data:`ENDING_GRACE` seconds, or at Ctrl-C,
    SIGTERM or SIGHUP, it ends (``os._exit``).

    ``next --feedback r.py`` printed its answer, then waited for ever on a thread the module had started (the
    interpreter joins every such thread, then runs every exit handler); Ctrl-C there printed a traceback and
    exit 0. Its answer said, the process now ends with ``code`` after the grace and one line; with the signal's
    code (130, 143, 129) and ``interrupted`` at a signal.
    """
    def watch() -> None:
        time.sleep(ENDING_GRACE)
        with suppress(OSError, ValueError):
            sys.stderr.write(f"note: the command was done; a thread or an exit handler left running (a rule "
                             f"module's?) kept its process {ENDING_GRACE:g} s more: it ends now\n")
        _flushed_exit(code)

    def ended(number: int, frame) -> None:
        with suppress(OSError, ValueError):
            sys.stderr.write("interrupted\n")
        _flushed_exit(ENDINGS[number])

    threading.Thread(target=watch, name="mmlogic-ending", daemon=True).start()
    if threading.current_thread() is threading.main_thread():
        for number in ENDINGS:
            if signal.getsignal(number) not in (signal.SIG_IGN, None):  # nohup's choice stays
                signal.signal(number, ended)


def end_process(code: int) -> None:
    """When a thread was abandoned, end the process at once with ``code`` (``os._exit``, streams
    flushed); likewise after :func:`end_quickly`, when the command succeeded, the streams flush and no
    other thread or child process runs. Otherwise return, and the caller exits as usual, within
    :data:`ENDING_GRACE` seconds whatever was left running (:func:`_ending_watched`)."""
    if any(thread.is_alive() for thread in _abandoned):
        _flushed_exit(code)
    if _quick_end and code == 0 and threading.active_count() == 1:
        processes = sys.modules.get("multiprocessing")
        if processes is None or not processes.active_children():
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except (OSError, ValueError):  # a closed pipe: the usual exit says it (exit 1, quietly)
                pass
            else:
                os._exit(code)
    _ending_watched(code)


#: How long a thread waiting for a solver sleeps between two looks at Ctrl-C and its deadline (seconds).
WAIT_SLICE = 0.05


def wait_for(finished: threading.Event, deadline: float | None) -> bool:
    """Wait for ``finished`` in slices, so that Ctrl-C gets through (a blocked ``Event.wait`` would hold it
    until the solver ends); False once ``deadline`` (on ``time.monotonic``'s clock) has passed first. The
    engines' threads that run clingo and SWI-Prolog are waited for with it."""
    while not finished.wait(WAIT_SLICE if deadline is None
                            else max(0.0, min(WAIT_SLICE, deadline - time.monotonic()))):
        if deadline is not None and time.monotonic() >= deadline:
            return False
    return True

