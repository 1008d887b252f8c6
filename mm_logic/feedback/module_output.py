"""What a rule module's code (``--feedback FILE.py``) writes, and leaves to Python to write, in mmlogic's process.

While its code runs (:func:`mm_logic.feedback.watch.watched`), ``sys.stdout`` and ``sys.stderr`` are one stream
of mmlogic's to stderr that it cannot close, put back after each block whatever it assigned
(:func:`keep_process`, :func:`put_back_process`): what it prints goes to stderr (on stdout it would break a
command's ``--json``), and the command's result and error lines reach its own streams. A module that rebound
``sys.stderr`` lost them (exit 3 or 2, nothing said); one that closed it ended in an interpreter dump. The process's
settings it may change (the recursion limit, the hooks of Python's reports, the umask, the working directory, the
descriptors 0 to 2...) are put back with them (:mod:`.module_settings`).

A failure of its code that Python would print as a traceback, in a thread it started or in a ``__del__`` of its
objects, is one line naming the file, once per kind in the process (:func:`report_failures_of`).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading
import types
from pathlib import Path

from ..support.errors import line_breaks_escaped
from .module_settings import Settings


class _Kept(io.TextIOBase):
    """``sys.stdout`` and ``sys.stderr`` while a module's code runs: what is written goes to mmlogic's stderr,
    and ``close()`` closes nothing."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        return len(text) if self.stream is None else self.stream.write(text)

    def flush(self) -> None:
        if self.stream is not None:
            self.stream.flush()

    def close(self) -> None:
        """Nothing to close: stderr stays mmlogic's."""

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self.stream, "encoding", "utf-8")


#: Taken to change the streams: blocks run in several threads at once (the server's requests).
_streams = threading.Lock()
#: Blocks under way, in every thread; the streams and the settings before the first of them; the stream that stands
#: for both.
_blocks = 0
_before: tuple = (None, None)
_settings: Settings | None = None
_kept = _Kept(None)


class Hold:
    """A block's hold on the streams and settings (:func:`keep_process`), given back once
    (:func:`put_back_process`)."""

    __slots__ = ("held",)

    def __init__(self):
        self.held = True


def keep_process() -> Hold:
    """A block of the module's code begins: ``sys.stdout`` and ``sys.stderr`` are a stream of mmlogic's to
    stderr until its hold is given back, and the process's settings are kept (:class:`~.module_settings.Settings`).
    A lock, a few assignments and system calls: a block may be one call of ``score``."""
    global _blocks, _before, _settings, _kept
    with _streams:
        if not _blocks:
            _before = sys.stdout, sys.stderr
            _settings = Settings.now()
            if _kept.stream is not sys.stderr:
                _kept = _Kept(sys.stderr)
        _blocks += 1
        sys.stdout = sys.stderr = _kept
    return Hold()


def put_back_process(hold: Hold) -> None:
    """A block ends: the streams and the settings as they were before the blocks under way, whatever the module
    did (the settings also while other blocks run: mmlogic's threads run beside them). Once per hold: a block left
    to end by itself (stuck in C in a thread of its own) is given back by the thread that left it, and again, to
    no effect, if it ends (otherwise mmlogic's stdout stayed stderr for good)."""
    global _blocks
    with _streams:
        if not hold.held:
            return
        hold.held = False
        _blocks -= 1
        _settings.put_back(running=bool(_blocks))  # first: a recursion limit the module lowered, put back
        sys.stdout, sys.stderr = _before if not _blocks else (_kept, _kept)
        if not _blocks:
            _settings.close()


def kept_again() -> None:
    """mmlogic writes while a block runs (a line for the server's log): its stream back in ``sys.stderr``, where
    the module may have put its own."""
    if _blocks:
        sys.stderr = _kept


def stderr():
    """mmlogic's stderr, also while a module's code runs."""
    return _before[1] if _blocks else sys.stderr


def _forget_blocks() -> None:
    """In a forked child: no block runs there (another thread's may have run as it forked)."""
    global _streams, _blocks
    if _blocks:
        sys.stdout, sys.stderr = _before
        _settings.put_back(running=False)
        _settings.close()
    _streams, _blocks = threading.Lock(), 0


os.register_at_fork(after_in_child=_forget_blocks)


# -- failures the module leaves to Python's report ----------------------------------------------------------
#: The files of the rule modules imported (their code's ``co_filename``), and the kinds of failure already said
#: of each: one line per file and kind, once per process.
_files: set[str] = set()
_noted: set[tuple[str, str]] = set()
_noting = threading.Lock()
#: The hooks before these (:func:`report_failures_of`): what is not the module's is theirs.
_thread_hook = threading.excepthook
_unraisable_hook = sys.unraisablehook


def report_failures_of(path: Path) -> None:
    """From the import of the module at ``path`` on, a failure Python would print as a traceback is one line on
    stderr, once per kind (a thread it started that raised: a traceback each; a ``__del__`` of the objects of
    each call: 745 for one ``next``), when it comes from the module's code: a frame of its file in the
    traceback, or its function the object. Other code's failures go to the hooks there were: these stay for
    the process, as the module's code may run to its end (a thread, an object deleted at exit)."""
    global _thread_hook, _unraisable_hook
    _files.add(str(path))
    if threading.excepthook is not _thread_failed:
        _thread_hook, threading.excepthook = threading.excepthook, _thread_failed
    if sys.unraisablehook is not _unraisable:
        _unraisable_hook, sys.unraisablehook = sys.unraisablehook, _unraisable


def _thread_failed(args) -> None:
    """``threading.excepthook``: a thread of the module's code that raised is one line (:func:`_noted_once`)."""
    file = _file_of(args.exc_traceback)
    if file is None:
        _thread_hook(args)
    elif not issubclass(args.exc_type, SystemExit):  # silent, as Python's hook has it
        _noted_once(file, "thread", f"a thread it started raised {_described(args.exc_value, args.exc_type)}")


def _unraisable(args) -> None:
    """``sys.unraisablehook``: an exception of the module's code that Python ignores (in a ``__del__``, in a
    thread of ``_thread``'s) is one line (:func:`_noted_once`)."""
    file = _file_of(args.exc_traceback, args.object)
    if file is None:
        _unraisable_hook(args)
    elif (args.err_msg or "").startswith("Exception ignored in thread"):
        _noted_once(file, "thread", f"a thread it started raised {_described(args.exc_value, args.exc_type)}")
    else:
        where = "a __del__" if getattr(_function(args.object), "__name__", None) == "__del__" else "its code"
        _noted_once(file, "ignored",
                    f"an exception was ignored in {where}: {_described(args.exc_value, args.exc_type)}")


def _function(thing) -> types.FunctionType | None:
    """``thing`` as a Python function (a method's), else None: nothing else of the module's is looked into."""
    thing = thing.__func__ if isinstance(thing, types.MethodType) else thing
    return thing if isinstance(thing, types.FunctionType) else None


def _file_of(trace, thing=None) -> str | None:
    """The rule module's file whose code raised: ``thing``'s, or a frame's of ``trace``; None: other code's."""
    function = _function(thing)
    if function is not None and function.__code__.co_filename in _files:
        return function.__code__.co_filename
    while trace is not None:
        if trace.tb_frame.f_code.co_filename in _files:
            return trace.tb_frame.f_code.co_filename
        trace = trace.tb_next
    return None


def _described(error, kind) -> str:
    """``Kind: message`` on one bounded line (the message is the module's own: its ``__str__`` may fail)."""
    try:
        text = line_breaks_escaped(str(error)) if error is not None else ""
    except Exception:  # noqa: BLE001 - the module's code
        text = "(its str() failed)"
    text = text if len(text) <= 300 else f"{text[:300]}…"
    return f"{kind.__name__}: {text}" if text else kind.__name__


def _noted_once(file: str, kind: str, what: str) -> None:
    """``note: FILE: WHAT`` on mmlogic's stderr, the first time for ``file`` and ``kind``; later ones dropped."""
    with _noting:
        if (file, kind) in _noted:
            return
        _noted.add((file, kind))
    with contextlib.suppress(OSError, ValueError, AttributeError):  # a stderr that cannot be written: nothing
        stream = stderr()
        stream.write(f"note: {file}: {what} (any more are not said)\n")
        stream.flush()
