"""The process's settings a rule module's code (``--feedback FILE.py``) may change in mmlogic's process, put back
after each block of it (importing it, a call or a row of calls of its ``score``), as its streams are
(:func:`mm_logic.feedback.module_output.keep_process`).

What stayed broke mmlogic: a recursion limit of 40 ended the command in ``internal failure: RecursionError``;
``sys.excepthook = None`` added an interpreter dump to its error line (exit 1, not 2); ``os.umask(0o777)`` left
every file it wrote unreadable; fd 1 or 2 closed or redirected lost its answer or its error line; a switch interval
of 1000 s kept the watch's thread from the interpreter, the call never stopped (:mod:`.watch`).

Put back (:class:`Settings`): the recursion limit when lowered (raised, it is a need of the module's recursive
code, and harms nothing of mmlogic's); the switch interval; the hooks Python calls with mmlogic's failures and
warnings (``sys.excepthook``, ``sys.displayhook``, ``sys.unraisablehook``, ``threading.excepthook``,
``warnings.showwarning``) and the warnings' filters (``simplefilter("error")`` made a warning of mmlogic's a
failure, ``"ignore"`` hid them); the umask (the command's files); the working directory (the command's relative
paths, the rule file's own); the files of descriptors 0 to 2 (the command's input, answer and errors).

Left as the module sets them: ``sys.path`` (a module adds its folder to import its helpers, which its later calls
may import too); ``os.environ`` (how a module configures a library it loads, maybe in a later call; mmlogic sets
``CLINGOPATH`` for a moment in other threads, which a put back from another thread would undo); ``gc`` (disabled
for speed, it costs memory, not correctness); numpy's error handling (per context: a server's calls run in a copy
of the request's); the tracing and profiling functions (a debugger's). A module's own threads that change them
after its block has ended are not watched.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import warnings

#: The longest switch interval while a module's code runs (seconds): the watch's thread, which looks at the call
#: every 0.1 s (:data:`~.watch.WATCH_TICK`), waits so long for the interpreter at most.
SWITCH_INTERVAL = 0.05
#: The hooks mmlogic's failures and warnings go through: (holder, attribute).
HOOKS = ((sys, "excepthook"), (sys, "displayhook"), (sys, "unraisablehook"), (threading, "excepthook"),
         (warnings, "showwarning"))
#: The descriptors of the command's input, answer and errors.
STANDARD_FDS = (0, 1, 2)
#: Python's own ``sys.setswitchinterval`` (replaced while a module's code runs: :func:`_bounded_switch_interval`).
_set_switch_interval = sys.setswitchinterval
#: The umask as last seen: read by setting it to this, which changes nothing when it is the same (Python has no
#: other way to read it; any other value in between would be the process's for that moment, in every thread).
_umask = 0o022


def _bounded_switch_interval(interval: float) -> None:
    """``sys.setswitchinterval`` while a module's code runs: at most :data:`SWITCH_INTERVAL`, so that the watch's
    thread gets the interpreter (a module that set 1000 s in its ``score``, then looped, was never stopped)."""
    _set_switch_interval(min(interval, SWITCH_INTERVAL))


def _read_umask() -> int:
    """The process's umask (:data:`_umask`)."""
    global _umask
    mask = os.umask(_umask)
    if mask != _umask:
        os.umask(mask)
        _umask = mask
    return mask


class Settings:
    """The process's settings before a module's code runs (:meth:`now`), put back after it (:meth:`put_back`);
    the copies of descriptors 0 to 2 it holds are closed by :meth:`close`."""

    __slots__ = ("recursion", "switch", "hooks", "filters", "filters_list", "umask", "cwd", "fds")

    @classmethod
    def now(cls) -> Settings:
        """The settings as they are; the switch interval bounded until :meth:`put_back`
        (:func:`_bounded_switch_interval`)."""
        kept = cls()
        kept.recursion, kept.switch = sys.getrecursionlimit(), sys.getswitchinterval()
        kept.hooks = [(holder, name, getattr(holder, name)) for holder, name in HOOKS]
        kept.filters_list = warnings.filters
        kept.filters = tuple(warnings.filters)
        kept.umask = _read_umask()
        kept.cwd = _cwd()
        kept.fds = []
        for fd in STANDARD_FDS:
            with contextlib.suppress(OSError):  # not open: nothing to put back
                copy = os.dup(fd)
                kept.fds.append((fd, copy, _identity(copy)))
        sys.setswitchinterval = _bounded_switch_interval
        if kept.switch > SWITCH_INTERVAL:  # set so outside a block (a thread of the module's): bounded within
            _set_switch_interval(SWITCH_INTERVAL)
        return kept

    def put_back(self, *, running: bool) -> None:
        """Put the settings back as they were (``running``: other blocks of a module's code still run, the switch
        interval stays bounded). Cheap when nothing changed: a few attributes, and a system call per setting
        the system keeps (the umask, the folder, each descriptor)."""
        if sys.getrecursionlimit() < self.recursion:
            sys.setrecursionlimit(self.recursion)  # first: mmlogic's own calls need it
        sys.setswitchinterval = _bounded_switch_interval if running else _set_switch_interval
        if sys.getswitchinterval() != self.switch:
            _set_switch_interval(self.switch)
        for holder, name, hook in self.hooks:
            if getattr(holder, name, None) is not hook:
                setattr(holder, name, hook)
        if warnings.filters is not self.filters_list:
            warnings.filters = self.filters_list  # the list Python's warnings read, when the module bound another
        if tuple(self.filters_list) != self.filters:
            self.filters_list[:] = self.filters
            mutated = getattr(warnings, "_filters_mutated", None)  # the C side caches what it read of them
            if mutated is not None:
                mutated()
        os.umask(self.umask)  # one system call, which reads it as it sets it
        self._fds_back()
        if self.cwd is not None and _cwd() != self.cwd:
            with contextlib.suppress(OSError):  # the folder removed since: the command's relative paths are lost
                os.chdir(self.cwd)

    def _fds_back(self) -> None:
        """Descriptors 0 to 2 on their files again, where the module closed them or put others there."""
        for fd, copy, identity in self.fds:
            try:
                same = _identity(fd) == identity
            except OSError:  # closed
                same = False
            if not same:
                with contextlib.suppress(OSError):
                    os.dup2(copy, fd)

    def close(self) -> None:
        """Close the copies of descriptors 0 to 2 (no block of a module's code runs any more)."""
        for _, copy, _ in self.fds:
            with contextlib.suppress(OSError):
                os.close(copy)
        self.fds = []


def _identity(fd: int) -> tuple[int, int]:
    """The file a descriptor is on: its device and inode."""
    info = os.fstat(fd)
    return info.st_dev, info.st_ino


def _cwd() -> str | None:
    """The working directory, None when it was removed (then there is none to go back to)."""
    try:
        return os.getcwd()
    except OSError:
        return None
