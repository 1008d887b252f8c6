"""How many worker processes ``--jobs N`` starts.

Each worker is a Python process with its own solvers (100-300 MB); a
mistyped ``--jobs 10000`` started ten thousand of them and took the machine
down for a search of 0.02 s. Work is CPU-bound, so more workers than cores
or than tasks only cost memory: :func:`worker_count` starts at most that
many, and the results do not depend on it.

A worker's error reaches the parent pickled: :func:`portable` makes sure it can.
A worker ends with its parent, even one killed outright: :func:`die_with_parent`.
"""

from __future__ import annotations

import ctypes
import os
import pickle
import signal
import sys

from .errors import MMLogicError
from .interrupts import interrupts_held


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def worker_count(jobs: int, tasks: int | None = None) -> int:
    """``jobs``, but at most :func:`cores` and ``tasks`` (and at least 1).

    >>> worker_count(1), worker_count(10_000, tasks=3) <= 3, worker_count(10_000) <= cores()
    (1, True, True)
    """
    return max(1, min(jobs, cores(), jobs if tasks is None else tasks))


#: prctl's option that sends this process a signal when its parent ends (linux/prctl.h).
PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """End this process (SIGTERM) when ``parent``, the process that started it, ends.

    A parent stopped by a signal stops its workers itself; one killed outright (SIGKILL, the
    out-of-memory killer) cannot, and its workers went on under init for as long as their
    task took. On Linux the kernel sends the signal (``PR_SET_PDEATHSIG``) when the thread
    that started this process ends: a pool's, or a sweep's thread waiting for its case,
    outlives its workers. If ``parent`` has already gone, this process ends at once.
    Elsewhere it does nothing.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):  # no libc to ask (a static build): the parent stops us itself
        return
    if os.getppid() != parent:  # the parent ended before the request: nobody will send it
        os._exit(128 + signal.SIGTERM)


def start_worker(parent: int) -> None:
    """A pool worker's initializer: Ctrl-C is the parent's to handle, and the worker ends with it.

    Ctrl-C in a terminal reaches the whole process group: a worker that took it printed a
    KeyboardInterrupt traceback; the parent terminates its workers instead.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)


def start_pool(context, count: int, initializer, initargs: tuple):
    """``context.Pool(count, initializer, initargs)``, with Ctrl-C (SIGTERM, SIGHUP) held while it starts.

    A pool writes each worker its start-up data through a pipe as it starts it: stopped in the
    middle, this process left a worker reading a cut-off pickle, which printed a traceback
    ("EOFError: Ran out of input"). Held until the workers have theirs, the interruption then
    terminates them and goes on.
    """
    with interrupts_held() as held:
        pool = context.Pool(count, initializer=initializer, initargs=initargs)
        if held.caught:
            pool.terminate()
            pool.join()
    return pool


def portable(error: BaseException) -> BaseException:
    """``error`` if it survives pickling, else an error of the same line that does.

    A pool's worker sends its error to the parent pickled. One that does not unpickle
    (an ``__init__`` whose arguments are not its ``args``) killed the pool's result thread
    in the parent, with a traceback, and the parent then waited for ever for results that
    thread no longer read. A worker raises ``portable(error)`` instead: an
    :class:`~mm_logic.support.errors.MMLogicError` keeps its message and exit code, any other its
    type's name and message.
    """
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:  # noqa: BLE001 - whatever fails the round trip would fail it in the pool too
        pass
    if isinstance(error, MMLogicError):
        substitute = MMLogicError(str(error))
        substitute.exit_code = error.exit_code
        return substitute
    return RuntimeError(f"{type(error).__name__}: {error}")
