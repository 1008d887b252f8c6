"""How many worker processes ``--jobs N`` starts.

Each worker is a Python process with its own solvers (100-300 MB); a
mistyped ``--jobs 10000`` started ten thousand of them and took the machine
down for a search of 0.02 s. Work is CPU-bound, so more workers than cores
or than tasks only cost memory: :func:`worker_count` starts at most that
many, and the results do not depend on it.

A worker's error reaches the parent pickled: :func:`portable` makes sure it can.
"""

from __future__ import annotations

import os
import pickle

from .errors import MMLogicError


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


def portable(error: BaseException) -> BaseException:
    """``error`` if it survives pickling, else an error of the same line that does.

    A pool's worker sends its error to the parent pickled. One that does not unpickle
    (an ``__init__`` whose arguments are not its ``args``) killed the pool's result thread
    in the parent, with a traceback, and the parent then waited for ever for results that
    thread no longer read. A worker raises ``portable(error)`` instead: an
    :class:`~mm_logic.errors.MMLogicError` keeps its message and exit code, any other its
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
