"""The watch over a rule module's code (``--feedback FILE.py``, :mod:`.custom`): it runs in mmlogic's process,
bounded.

Importing the module, and each call of its ``score``, may run :data:`CALL_SECONDS` at once, in any thread:
the main one by a thread of the watch's own that stops it from outside (:class:`_Watch`), the others (the
server's requests) by handing each block of calls to a thread of its own, :data:`RUNNERS` at most, that is
stopped from outside (:func:`_handed`). The limit is per call, looked at in the thread that runs it (the frames
of the module's code it runs: :func:`_call_under_way`); mmlogic's own work between calls is no call. A call past
the limit is one line naming the file and the call (:class:`~mm_logic.support.errors.RuleFault`, exit 2; HTTP 422 in the
server). A
``KeyboardInterrupt`` the module raises is one of its failures; Ctrl-C is told from it by the signal received
(:func:`interrupted`).

While the module's code runs, ``sys.stdout`` and ``sys.stderr`` are a stream of mmlogic's to stderr that it
cannot close, put back after each block whatever it assigned, with the process's settings it may change
(:mod:`.module_settings`: the recursion limit, the switch interval, which it cannot raise past what this watch
needs while its code runs, the umask, the folder...); a failure Python would print as a traceback (in a
thread the module started, in its ``__del__``) is one line naming the file, once (:mod:`.module_output`).

Rows of many calls over the same codes (the rule's table: every code scored against every code) say how they
go on stderr once they are long, and end at the command's ``--time-limit`` (:func:`limit_scoring`,
:class:`Rows`); a server that stops gives up the calls it waits for (:func:`stop_rule_modules`).

A line that may reach someone from whom the game's secret is kept (a server's reply) names the guess of the call,
not the code it was scored against, nor what the module said or returned (:func:`withholding`).
"""

from __future__ import annotations

import _signal
import _thread
import contextlib
import contextvars
import ctypes
import logging
import os
import queue
import signal
import sys
import threading
import time
import types
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from ..rules import Code
from ..support.errors import BadInput, MMLogicError, RuleFault, SolverTimeout, clock, line_breaks_escaped
from ..support.interrupts import abandon
from .module_output import keep_process, kept_again, put_back_process, report_failures_of, stderr


class Rule(Protocol):
    """What the watch reads of a rule: the call it began last, in any thread (a new object each call), and the
    method that calls the module's ``score`` (its frames are the calls under way: :func:`_call_under_way`)."""

    _asking: tuple | None

    def _call(self, guess: Code, secret: Code) -> tuple: ...


#: How long the module's code may run at once (seconds): importing it, and each call of ``score``. The
#: rule's table calls ``score`` for every pair of codes (1,679,616 calls for 4x6), so a call that takes a
#: second is already a rule that cannot be played; this bounds one that never returns. mmlogic's own
#: limit, whatever ``--time-limit`` says (docs/encodings.md).
CALL_SECONDS = 10.0
#: How often the watch looks at the call running (seconds): a call is stopped at most this much late.
WATCH_TICK = 0.1
#: How long a call stopped in another thread than the main one may take to end (seconds): one in C (a
#: ``time.sleep``) is then left to end by itself, its caller told at once (:func:`_handed`).
STOP_GRACE = 1.0

#: Progress of rows of many calls over the same codes (a table): a line on stderr every ``PROGRESS_EVERY``
#: seconds once the rows will take ``LONG_ROWS`` seconds in all; a pause of ``ROWS_GAP`` s ends the rows.
PROGRESS_EVERY, LONG_ROWS, ROWS_GAP = 10.0, 30.0, 1.0
#: The time limit and the progress are looked at every ``TICK_CALLS + 1`` calls of a row.
TICK_CALLS = 63


class Overdue(BaseException):
    """Raised by the watch where the module's code runs (:class:`_Watch`, :func:`_handed`): a BaseException, so
    that the module's own ``except Exception`` does not take it for one of its errors."""


#: The signals that end a command besides Ctrl-C (:func:`mm_logic.support.interrupts.endings_as_interrupts`), whose
#: handlers a module's code may change: put back after each block.
ENDINGS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


#: The signals a module's code may not take from mmlogic while it runs: ``signal.signal`` on them does nothing
#: then (:func:`_kept_signal`).
KEPT = frozenset({signal.SIGINT, *ENDINGS})
#: The functions that set a handler: ``_signal``'s (the watch's own changes), and ``signal``'s, as it had it.
_set_handler = _signal.signal
_SIGNAL = signal.signal


def _kept_signal(number, handler):
    """``signal.signal`` while a module's code runs in the main thread: SIGINT, SIGTERM and SIGHUP stay
    mmlogic's (the handler they had is returned, as Python's returns the previous one), the others are set.

    Putting the handlers back after the block was not enough: a module that ignored Ctrl-C inside each call of
    ``score`` lost every signal that came during its calls (the system drops an ignored signal at once), and its
    table ran on to the end, or to the watch's limit."""
    if number in KEPT:
        return signal.getsignal(number)
    return _SIGNAL(number, handler)


def watched(path: Path, rule: Rule | None, call):
    """``call()``, the module's code (importing it when ``rule`` is None, else a block of ``rule``'s calls),
    bounded: :data:`CALL_SECONDS` a call, the main thread by :class:`_Watch`, another one by :func:`_handed`;
    mmlogic's streams and settings kept (:func:`~.module_output.keep_process`)."""
    if rule is None:
        report_failures_of(path)
    if threading.current_thread() is threading.main_thread():
        watch = _Watch(path, rule)
        hold = keep_process()  # outside the watch: no stop lands in it
        try:
            with watch:
                return call()
        except Overdue:  # the stop came as the block ended, in its own exit: the call did run past the limit
            watch._disarm()
            raise _overdue(path, rule, watch.pair) from None
        finally:
            put_back_process(hold)
    if isinstance(threading.current_thread(), _Runner):  # a block inside a block: the outer one is watched
        return call()
    return _handed(path, rule, call)


def _overdue(path: Path, rule: Rule | None, pair: tuple | None = None) -> BadInput:
    """The line of a call stopped at the limit: the call on ``pair`` (None: the one the rule began last)."""
    if rule is None:
        return BadInput(f"{path}: importing it did not end within {CALL_SECONDS:g} s")
    pair = rule._asking if pair is None else pair
    return RuleFault(said(f"{path}: score{pair} did not return within {CALL_SECONDS:g} s",
                         f"{path}: {called(pair)} did not return within {CALL_SECONDS:g} s"))


# -- lines that may reach a server's client ------------------------------------------------------------------
#: True while a line of a module's call may reach someone from whom the code scored is kept (:func:`withholding`).
_withheld: contextvars.ContextVar[bool] = contextvars.ContextVar("mmlogic_rule_codes_withheld", default=False)
#: Where a withheld line is kept whole, for the server's operator (stderr, when nothing else is configured).
LOG = logging.getLogger("mm_logic.feedback.watch")
#: How a withheld line writes the code a guess was scored against.
WITHHELD_CODE = "<a code withheld>"


@contextlib.contextmanager
def withholding() -> Iterator[None]:
    """While the block runs, the line of a module's call that fails names its guess, and withholds the code it
    was scored against and what the module said or returned (its own message, the value or exit code it gave),
    which may show that code: ``rule.py: score((0, 1, 2, 3), <a code withheld>) failed: KeyError (its message
    withheld)``. The whole line goes to :data:`LOG`.

    A server's requests run so (:mod:`mm_logic.server.api`): in a codebreaker game the code is the secret the
    client plays against. The block's context goes with the calls handed to the module's thread
    (:func:`_handed`), and with the threads a server's request runs in (they copy the request's context).
    """
    token = _withheld.set(True)
    try:
        yield
    finally:
        _withheld.reset(token)


def said(whole: str, withheld: str) -> str:
    """The line of a module's call: ``whole``, or ``withheld`` (naming no code scored, quoting nothing of the
    module's) within :func:`withholding`, ``whole`` then logged."""
    if not _withheld.get():
        return whole
    kept_again()  # the module may have put a stream of its own in sys.stderr: the line is the operator's
    LOG.warning("%s", line_breaks_escaped(whole))
    return withheld


def called(pair: tuple | None) -> str:
    """How a withheld line names the call of ``score`` on ``pair``: its guess, and :data:`WITHHELD_CODE`."""
    guess = pair[0] if pair else ()
    return f"score({guess}, {WITHHELD_CODE})"


#: The main thread's watch under way (None between watches): the watchdog (:func:`_watchdog`) and the handlers
#: of SIGALRM and SIGINT look at it.
_watching: _Watch | None = None
#: Taken while a watch ends, and while the watchdog stops its call: a stop never lands after the watch.
_ending = threading.Lock()
#: Whether Ctrl-C (SIGINT, or SIGTERM or SIGHUP taken as it) reached the main thread during the watch under way
#: (:func:`interrupted`).
_signalled = False


def interrupted() -> bool:
    """Whether Ctrl-C (SIGINT, or SIGTERM or SIGHUP taken as it:
    :func:`mm_logic.support.interrupts.endings_as_interrupts`) reached the main thread while its watch ran: a
    ``KeyboardInterrupt`` out of the module's code is then the user's, else the module's own (raised by it, or in
    another thread, which no signal reaches)."""
    return _signalled and threading.current_thread() is threading.main_thread()


class _Watch:
    """While the block runs in the main thread, the module's code may run :data:`CALL_SECONDS` at once:
    importing it (the block that runs it), or one call of ``score`` (a block of ``rule``'s calls).

    A thread of the watch's own (:func:`_watchdog`) looks at the call the main thread runs
    (:func:`_call_under_way`) every :data:`WATCH_TICK` s: one that has run for the limit is stopped where it
    runs, as Ctrl-C would stop it. With SIGALRM's handler the watch's (:func:`_on_alarm`), by that signal, sent to
    the main thread: Python runs the handler there, between two instructions, also in a sleep or a wait on a
    file. Where the module's code changed SIGALRM's handling (ignored it, or handled it itself), by an
    exception raised in the main thread from outside (``PyThreadState_SetAsyncExc``): between two instructions
    too, and in a wait in C where the module's own handler runs (the signal is sent to it as well), not where
    it ignores the signal. The block ends in one :class:`BadInput` line naming the file, the call and the
    limit. A call the module catches the stop in is stopped again at the next tick. No timer of the process's
    is used: a module that cancels or sets one (``signal.alarm(0)``, ``setitimer``) changes nothing of the
    watch.

    The handlers of SIGALRM, SIGINT, SIGTERM and SIGHUP are put back as they were when the block ends, whatever
    the module did with them, and a timer it started is stopped; while the block runs, SIGINT's handler records
    that Ctrl-C came (:func:`interrupted`). Cost: a few attributes set, the handlers and the timer looked at per
    block (a row of the rule's table, or one ``score``), and one attribute set per call (the rule's).

    Not watched here: other threads (:func:`_handed` watches them), a block inside another (the outer one
    watches). Code that computes in C without returning to Python (``10 ** 10 ** 10``) is not stopped, by
    this or by Ctrl-C; nor, once the module ignores SIGALRM, one that waits in C (a ``time.sleep``) until the
    wait ends.
    """

    def __init__(self, path: Path, rule: Rule | None = None, thread: int | None = None):
        self.path = path
        self.rule = rule
        #: The thread that runs the block (its ident): this one, or a runner (:func:`_handed`).
        self.thread = threading.get_ident() if thread is None else thread
        #: The pair of the call stopped (None: not stopped, or not known).
        self.pair: tuple | None = None
        self.armed = False
        #: Set by the watchdog once it stops the call: the block ends in the overdue line.
        self.stopping = False
        #: Whether the watchdog raised in the main thread from outside (one not raised yet is taken back).
        self.raised = False
        #: SIGINT's handler before the block (put back after it), None: not replaced.
        self.sigint = None
        #: SIGTERM's and SIGHUP's handlers before the block, put back after it if the module changed them.
        self.endings: list = []

    def __enter__(self) -> _Watch:
        global _watching, _signalled
        if _watching is not None or threading.current_thread() is not threading.main_thread():
            return self
        # _signal's functions, not signal's: its wrappers (handlers as enums) took 3 µs a call, as long as a
        # call of a rule's score.
        if _signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, signal.SIG_IGN):
            # Left in place after the block (it does nothing then): a stop already on its way when the block
            # ends must not meet the default action, which ends the process.
            _set_handler(signal.SIGALRM, _on_alarm)
        self.alarm = _signal.getsignal(signal.SIGALRM)
        self.timer = signal.getitimer(signal.ITIMER_REAL)[0] > 0  # someone else's, left alone
        # SIGTERM's and SIGHUP's handlers (mmlogic's: they end the command as Ctrl-C does), put back as they were.
        self.endings = [(number, _signal.getsignal(number)) for number in ENDINGS]
        sigint = _signal.getsignal(signal.SIGINT)
        if callable(sigint):  # Ctrl-C raises (or is held) here: recorded on its way
            self.sigint = sigint
            _set_handler(signal.SIGINT, self._on_sigint)
        _signalled = False
        signal.signal = _kept_signal  # signal.signal itself calls _signal.signal: left as it is
        _watching, self.armed = self, True
        _watchdog_needed()
        return self

    def __exit__(self, kind, error, trace) -> None:
        if not self.armed:
            return
        self._disarm()
        if kind is Overdue:
            raise _overdue(self.path, self.rule, self.pair) from None

    def _disarm(self) -> None:
        """End the watch: no stop after this; the signals' handlers as they were."""
        global _watching
        with _ending:
            if not self.armed:
                return
            if self.raised:
                _raise_in(threading.main_thread(), None)  # a stop not taken yet would land in mmlogic's code
            # Last: a stop that lands before it (a signal sent) ends the block, which disarms it again.
            self.armed = False
            _watching = None
        signal.signal = _SIGNAL
        if self.alarm is not None and _signal.getsignal(signal.SIGALRM) != self.alarm:  # the module changed it
            _set_handler(signal.SIGALRM, self.alarm)
        if not self.timer and signal.getitimer(signal.ITIMER_REAL)[0] > 0:
            # The module's own timer: its signal would end the process once the interpreter's exit puts back
            # SIGALRM's default action.
            signal.setitimer(signal.ITIMER_REAL, 0)
        if self.sigint is not None:
            _set_handler(signal.SIGINT, self.sigint)
        for number, handler in self.endings:
            if handler is not None and _signal.getsignal(number) != handler:  # the module changed it
                _set_handler(number, handler)

    def _progress(self) -> object:
        """The call under way, a new object with each call (the import: the watch itself); None while the block
        runs mmlogic's own work, which is no call."""
        return self if self.rule is None else _call_under_way(self.thread, self.path, self.rule)

    def _on_sigint(self, number: int, frame) -> None:
        """SIGINT while the block runs: recorded (:func:`interrupted`), then handled as before the block."""
        global _signalled
        _signalled = True
        self.sigint(number, frame)

    def _stop(self, call: object) -> None:
        """Stop ``call`` (:meth:`_progress`) where the main thread runs it (from the watchdog's thread): by
        SIGALRM where its handler is the watch's; from outside where it is not (with the signal still where the
        module handles it: its handler, Python code, takes the stop, also in a wait in C), or where the signal
        sent at the last tick did not stop it (the module blocked it)."""
        with _ending:
            if not self.armed:
                return
            main, again = threading.main_thread(), self.stopping
            if self.rule is not None and self.pair is None:
                self.pair = _pair_of(call, self.rule)
            self.stopping = True  # before the signal: its handler raises only once it is set
            handler = signal.getsignal(signal.SIGALRM)
            if callable(handler):  # the watch's, or the module's: run in Python, it ends a wait in C too
                signal.pthread_kill(main.ident, signal.SIGALRM)
            if handler is not _on_alarm or again:
                self.raised = True
                _raise_in(main, Overdue)


def _on_alarm(number: int, frame) -> None:
    """SIGALRM, sent by the watchdog to stop the main thread's call (:class:`_Watch`)."""
    watch = _watching
    if watch is not None and watch.armed and watch.stopping:
        raise Overdue


# -- the watchdog ---------------------------------------------------------------------------------------------
#: Set while the watchdog has a watch to look at (it waits on it between them).
_wake = threading.Event()
#: Whether this process has started its watchdog.
_dog_started = False


def _watchdog_needed() -> None:
    """Start the watchdog if this process has none, and wake it if it waits (a watch has begun)."""
    global _dog_started
    if not _dog_started:
        _dog_started = True
        # A thread of _thread's, not threading's: it is no work the command waits for, nor one that holds its
        # quick end (mm_logic.support.interrupts.end_process); it ends with the process.
        _thread.start_new_thread(_watchdog, ())
    if not _wake.is_set():
        _wake.set()


def _watchdog() -> None:
    """Every :data:`WATCH_TICK` s while a watch runs, stop its call once it has run :data:`CALL_SECONDS`
    (:meth:`_Watch._stop`; again at each tick while it runs on)."""
    watch, seen, since = None, None, 0.0
    while True:
        if _watching is None:
            watch = seen = None  # no frame of a call kept
            _wake.clear()
            if _watching is None:  # looked at again: a watch that began as it was cleared set it again
                _wake.wait()
        time.sleep(WATCH_TICK)
        current, now = _watching, time.monotonic()
        if current is None:
            continue
        progress = current._progress()
        if current is not watch or progress is not seen:
            watch, seen, since = current, progress, now
        elif progress is not None and now - since >= CALL_SECONDS:
            current._stop(progress)


def _call_under_way(thread: int, path: Path, rule: Rule) -> types.FrameType | None:
    """The frame of the call of ``rule``'s module that ``thread`` runs: the outermost of its frames that runs
    the module's code (its file's) or the rule's call of ``score`` (``_call``); None when there is none
    (mmlogic's own work between two calls: listing ten million codes for a row took 16 s).

    A new frame with each call, the same while it runs: the watch times each call in the thread that runs it,
    never another thread's (``rule._asking``, the call begun last in any thread, is one attribute set per call,
    but the server's requests call the same rule at once). Looked at by the watch's threads, every
    :data:`WATCH_TICK` s: nothing in the calls themselves."""
    frame = sys._current_frames().get(thread)
    file, call = str(path), getattr(getattr(type(rule), "_call", None), "__code__", None)
    found = None
    while frame is not None:
        code = frame.f_code
        if code is call or code.co_filename == file:
            found = frame
        frame = frame.f_back
    return found


def _pair_of(call: object, rule: Rule) -> tuple | None:
    """The pair scored in ``call`` (a frame of :func:`_call_under_way`): the arguments of the rule's ``_call``
    after ``self``; None when it is not known (the module's code outside it)."""
    method = getattr(type(rule), "_call", None)
    if not isinstance(call, types.FrameType) or call.f_code is not getattr(method, "__code__", None):
        return None
    code, values = call.f_code, call.f_locals
    return tuple(values.get(name) for name in code.co_varnames[1:code.co_argcount])


def _forget_watchdog() -> None:
    """In a forked child: no watchdog runs there yet, no watch, and no runner (the locks may have been other
    threads')."""
    global _dog_started, _wake, _watching, _ending, _pool, _idle, _busy
    _dog_started, _wake, _watching, _ending = False, threading.Event(), None, threading.Lock()
    _pool, _idle, _busy = threading.Condition(), [], 0


os.register_at_fork(after_in_child=_forget_watchdog)


# -- other threads: the server's requests -------------------------------------------------------------------
class _Job:
    """A block of the module's code handed to a :class:`_Runner`, and how it ended."""

    def __init__(self, call):
        self.call = call
        #: The caller's context, which the call runs in: a line it makes is withheld as the caller's
        #: (:func:`withholding`).
        self.context = contextvars.copy_context()
        self.done = threading.Event()
        self.result = self.error = None
        #: Given up by its caller (stuck in C past :data:`STOP_GRACE`): its runner ends once it returns.
        self.abandoned = False
        #: Its hold on the streams, given back by its caller when it gives it up.
        self.hold = None

    def run(self) -> None:
        self.hold = keep_process()
        try:
            self.result = self.context.run(self.call)
        except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread
            self.error = error
        finally:
            put_back_process(self.hold)
            self.done.set()


class _Runner(threading.Thread):
    """A thread that runs the module's code for the other threads than the main one, a block at a time.

    A daemon: one left in a call that never returns (:func:`_handed`) does not hold the process at its end."""

    def __init__(self):
        super().__init__(name="mmlogic rule module", daemon=True)
        self.jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()

    def run(self) -> None:
        while True:
            try:
                job = self.jobs.get()
                job.run()
            except Overdue:  # a stop that came as the job ended: there is nothing left to stop
                continue
            if job.abandoned:
                return


#: How many blocks the other threads than the main one run at once, each in a runner of its own: a server's
#: requests, one of which may score ten million codes in a row (40 s) while the others go on. One more block
#: waits for one of them to end.
RUNNERS = 8
#: Taken to take or give back a runner; the runners waiting for a block; the blocks under way.
_pool = threading.Condition()
_idle: list[_Runner] = []
_busy = 0
#: Set when the process stops (:func:`stop_rule_modules`): calls under way in the runners are given up.
_stopping = threading.Event()


def _handed(path: Path, rule: Rule | None, call):
    """``call()`` run by a :class:`_Runner` of its own, watched from this thread as :class:`_Watch` watches the
    main one.

    A thread other than the main one gets no signal: its block is run by a runner, and this thread waits,
    looking at the call the runner runs (:func:`_call_under_way`) every :data:`WATCH_TICK` s. One that has run
    for :data:`CALL_SECONDS` (or any, once the process stops) is stopped where it runs by an exception raised
    in the runner (``PyThreadState_SetAsyncExc``, between two instructions, as Ctrl-C is); one stuck in C (a
    ``time.sleep``) does not take it, and after :data:`STOP_GRACE` s is left to end by itself, its runner with
    it (:func:`~mm_logic.support.interrupts.abandon`). Either way this thread goes on at once with one line: a request
    is answered, and a server told to stop stops. Blocks of different threads run at once, :data:`RUNNERS` at
    most (the rule's state is a cache, its answers checked against each other: no order of the calls matters).
    """
    runner = _runner_for(path, rule)
    job = _Job(call)
    try:
        runner.jobs.put(job)
        watch = _Watch(path, rule, runner.ident)  # what the main thread's watch looks at, looked at from here
        seen, since = watch._progress(), time.monotonic()
        while not job.done.wait(WATCH_TICK):
            now, progress = time.monotonic(), watch._progress()
            if progress is not seen:
                seen, since = progress, now
            elif _stopping.is_set() or (progress is not None and now - since >= CALL_SECONDS):
                pair = None if rule is None else _pair_of(progress, rule)
                _stop(runner, job, watch)
                if job.error is None and job.done.is_set():
                    break  # it returned as it was stopped
                raise _given_up(path, rule, pair) if _stopping.is_set() else _overdue(path, rule, pair)
        if job.error is not None:
            if isinstance(job.error, Overdue):
                pair = None if rule is None else _pair_of(seen, rule)
                raise _given_up(path, rule, pair) if _stopping.is_set() else _overdue(path, rule, pair)
            raise job.error
        return job.result
    finally:
        _give_back(runner, not job.abandoned)


def _runner_for(path: Path, rule: Rule | None) -> _Runner:
    """A runner for a block: an idle one, or a new one; once :data:`RUNNERS` run blocks, the first to end."""
    global _busy
    with _pool:
        while _busy >= RUNNERS and not _stopping.is_set():
            _pool.wait(WATCH_TICK)
        if _stopping.is_set():
            raise _given_up(path, rule)
        _busy += 1
        if _idle:
            return _idle.pop()
    runner = _Runner()
    try:
        runner.start()
    except BaseException:
        _give_back(runner, False)
        raise
    return runner


def _give_back(runner: _Runner, idle: bool) -> None:
    """The block of ``runner`` is over: the runner waits for the next (unless left in a call, ``idle`` False)."""
    global _busy
    with _pool:
        _busy -= 1
        if idle:
            _idle.append(runner)
        _pool.notify()


def _stop(runner: _Runner, job: _Job, watch: _Watch) -> None:
    """Stop ``job`` where ``runner`` runs it; left to the runner if it has not ended within :data:`STOP_GRACE` s.

    Raised again at each tick while the runner is in the module's code (which may catch it), not in mmlogic's
    own code that ends the block (the block ends there by itself)."""
    deadline = time.monotonic() + STOP_GRACE
    again = True
    while not job.done.is_set() and time.monotonic() < deadline:
        if again:
            _raise_in(runner, Overdue)
        job.done.wait(WATCH_TICK)
        again = _stopping.is_set() or watch._progress() is not None
    if job.done.is_set():
        _raise_in(runner, None)  # one not taken yet would stop the next job
    else:
        job.abandoned = True
        abandon(runner)
        if job.hold is not None:
            put_back_process(job.hold)


def _raise_in(thread: threading.Thread, kind: type[BaseException] | None) -> None:
    """Raise ``kind`` in ``thread`` at its next instruction (None: cancel one not raised yet)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident),
                                               ctypes.py_object(kind) if kind is not None else None)


def _given_up(path: Path, rule: Rule | None, pair: tuple | None = None) -> MMLogicError:
    """The line of a call given up because the process stops: the call on ``pair`` (None: the one the rule began
    last)."""
    if rule is None:
        return MMLogicError(f"{path}: importing it was stopped: the server is stopping")
    pair = rule._asking if pair is None else pair
    return MMLogicError(said(f"{path}: score{pair} was stopped: the server is stopping",
                             f"{path}: {called(pair)} was stopped: the server is stopping"))


def stop_rule_modules() -> None:
    """The process stops (a server told to stop): every call of a module's code that another thread waits for
    is given up at once, that thread told so in one line, and none starts again. Safe in a signal handler."""
    _stopping.set()


# -- the time limit, and progress, of many calls -------------------------------------------------------------
@dataclass(frozen=True)
class _Limit:
    """A bound on rows of calls (:func:`limit_scoring`): its seconds, whether it holds in every thread or the main
    one only, and what its line advises."""

    seconds: float
    every_thread: bool = False
    advice: str = "raise --time-limit"


#: The bound of the block of :func:`limit_scoring` (None: none). A context variable: the block's own, not the
#: module's, and handed with the block's calls to the runner that runs them (:func:`_handed`).
_time_limit: contextvars.ContextVar[_Limit | None] = contextvars.ContextVar("mmlogic_scoring_time_limit",
                                                                           default=None)


def _limit() -> _Limit | None:
    """The bound of the rows run now, in this thread (None: none)."""
    limit = _time_limit.get()
    if limit is None or limit.every_thread or threading.current_thread() is threading.main_thread():
        return limit
    return None


def scoring_time_limit() -> float | None:
    """The bound on rows of calls run now (:func:`limit_scoring`; None: none)."""
    limit = _limit()
    return None if limit is None else limit.seconds


@contextlib.contextmanager
def limit_scoring(seconds: float | None, *, every_thread: bool = False,
                  advice: str = "raise --time-limit") -> Iterator[None]:
    """While the block runs, ``seconds`` bounds a rule module's rows of calls over the same codes: deriving the
    rule's table (every code scored against every code), or one guess against many codes; past it, a
    :class:`~mm_logic.support.errors.SolverTimeout` whose line ends in ``advice``. ``seconds`` None: no bound.

    A command's ``--time-limit`` (:func:`mm_logic.cli.options.time_limit_option`) holds in the main thread only:
    a server's requests run in others, where a table they derive is kept for every later request of its size
    and a stopping server gives them up (:func:`stop_rule_modules`). One solver call's limit holds in whatever
    thread runs it (``every_thread``): the python engine's filter in a server's request
    (:class:`mm_logic.engines.reference.ReferenceSession`), its ten million calls 40 s past a limit of 10.
    """
    token = _time_limit.set(None if seconds is None else _Limit(seconds, every_thread, advice))
    try:
        yield
    finally:
        _time_limit.reset(token)


class Rows:
    """Rows of ``score``'s calls over one array of codes, one after the other
    (:meth:`~.custom.CustomRule._scored_row`): the rule's table (:attr:`mm_logic.codespace.CodeSpace.table`,
    every code as a guess), or a guess's row. Says how they go on stderr once they will take
    :data:`LONG_ROWS` s, and ends them at the time limit."""

    def __init__(self, path: Path, codes: np.ndarray):
        self.path, self.codes = path, codes
        self.started = self.ended = self.said = time.monotonic()
        #: Rows done (none: the rows may be one guess's only, the python engine's filter).
        self.done = 0

    def tick(self, guess: Code, calls: int) -> None:
        """``calls`` calls of the row of ``guess`` are done."""
        now = time.monotonic()
        spent, size = now - self.started, len(self.codes)
        total = spent * size / max(self.done + calls / size, 1 / size)  # at this pace, for every code as a guess
        limit = _limit()
        if limit is not None and spent > limit.seconds:
            if self.done:
                raise SolverTimeout(f"{self.path}: the rule's table of {size:,} x {size:,} calls of score was not "
                                    f"derived within the time limit of {limit.seconds:g} s ({self.done:,} of "
                                    f"{size:,} guesses scored, about {clock(total)} in all at this pace); "
                                    f"{limit.advice}")
            raise SolverTimeout(f"{self.path}: scoring {guess} against {size:,} codes did not end within the time "
                                f"limit of {limit.seconds:g} s ({calls:,} scored); {limit.advice}")
        if now - self.said >= PROGRESS_EVERY and self.done and total >= LONG_ROWS:
            self.said = now
            line = (f"{self.path}: scoring every code against every code: {self.done:,} of {size:,} guesses "
                    f"({clock(spent)} spent, about {clock(max(total - spent, 0))} left)")
            # On a terminal, over the spinner's line (it draws itself again below).
            out = stderr()  # mmlogic's, wherever the module put its own
            out.write(("\r\033[K" if out.isatty() else "") + line_breaks_escaped(line) + "\n")
            out.flush()

    def row_done(self) -> None:
        self.done += 1
        self.ended = time.monotonic()
