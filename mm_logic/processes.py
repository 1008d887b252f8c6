"""How many worker processes ``--jobs N`` starts.

Each worker is a Python process with its own solvers (100-300 MB); a
mistyped ``--jobs 10000`` started ten thousand of them and took the machine
down for a search of 0.02 s. Work is CPU-bound, so more workers than cores
or than tasks only cost memory: :func:`worker_count` starts at most that
many, and the results do not depend on it.
"""

from __future__ import annotations

import os


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
