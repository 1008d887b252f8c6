"""Grounding a user's encoding, watched: its time, its memory, Ctrl-C.

clingo cannot stop a grounding (``Control.interrupt`` stops a search only), and an edited rule may
ground for ever: ``n(X+1) :- n(X).`` grew past 16 GB, deaf to the time limit where none was given,
and ended in clingo's ``MemoryError`` (an internal failure) where the process had a memory limit, in
the machine's out-of-memory killer where it had none. :func:`ground_watched` grounds in a thread
(clingo releases the GIL there) while the calling thread watches, every :data:`WATCH_SLICE` seconds:

* the time limit (a command's ``--time-limit``, or a bound of the caller's own);
* the memory: the grounding may grow the process by :func:`memory_budget` at most (a share of what it
  can still take, capped: legitimate groundings take tens of MB, a told table's batch about 200 MB);
* Ctrl-C, and SIGTERM and SIGHUP where the command takes them as Ctrl-C.

Past a bound the grounding is left running, as it cannot be stopped:
:func:`mm_logic.support.interrupts.abandon` records its thread, and the command's process ends at once after
its one line (the thread would crash the interpreter's shutdown, and goes on taking memory until then).
"""

from __future__ import annotations

import os
import resource
import threading
import time
from pathlib import Path

from clingo import Control

from ...support.errors import MMLogicError, SolverTimeout
from ...support.interrupts import WAIT_SLICE, abandon
from ...support.memory import available_memory, memory_text
from ...support.waiting import waiting

#: The share of the memory the process can still take (:func:`memory_room`) one grounding may take.
GROUND_MEMORY_SHARE = 0.25
#: The most memory one grounding may take, whatever the machine has: ``n(X+1) :- n(X).`` grows about
#: 80 MB a CPU second, so it is stopped within a minute.
MAX_GROUND_MEMORY = 4 << 30
#: The least a grounding may take, however little the process has left: a legitimate one takes tens of MB.
MIN_GROUND_MEMORY = 256 << 20
#: How often the watch looks at the time and the memory (seconds): a grounding stops at most
#: this late (and about 8 MB past its memory bound).
WATCH_SLICE = WAIT_SLICE
#: The advice of the time limit's line, where the limit is the command's ``--time-limit``.
TIME_LIMIT_ADVICE = "raise --time-limit, or look for a rule that grounds without end"
#: The advice of the memory bound's line and of clingo's own ``MemoryError``.
ENDLESS_ADVICE = "look for a rule that grounds without end"


class GroundingTooLarge(MMLogicError):
    """A user's encoding took more memory to ground than its bound, or than the process had (exit 1)."""

    exit_code = 1


def memory_room() -> int:
    """Bytes this process can still take: the machine's memory available, within the room left under
    its cgroup's ``memory.max`` and under its own address-space limit (``ulimit -v``), where those are set."""
    room = available_memory()
    try:
        with open("/sys/fs/cgroup/memory.max") as limit, open("/sys/fs/cgroup/memory.current") as current:
            held, used = limit.read().strip(), current.read().strip()
        if held.isdigit() and used.isdigit():
            room = min(room, int(held) - int(used))
    except OSError:
        pass
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        room = min(room, soft - _process_memory()[0])
    return max(room, 0)


def memory_budget() -> int:
    """Bytes one grounding may grow the process by: :data:`GROUND_MEMORY_SHARE` of :func:`memory_room`,
    at least :data:`MIN_GROUND_MEMORY` and at most :data:`MAX_GROUND_MEMORY`."""
    return int(min(max(GROUND_MEMORY_SHARE * memory_room(), MIN_GROUND_MEMORY), MAX_GROUND_MEMORY))


def resident_memory() -> int:
    """Bytes of this process in memory now (its peak so far where ``/proc`` is not there to say)."""
    return _process_memory()[1]


def _process_memory() -> tuple[int, int]:
    """(virtual size, resident size) of this process in bytes."""
    try:
        with open("/proc/self/statm") as statm:
            size, resident = statm.read().split()[:2]
        page = os.sysconf("SC_PAGE_SIZE")
        return int(size) * page, int(resident) * page
    except (OSError, ValueError):
        from ...support.memory import peak_memory

        peak = peak_memory()[0]
        return peak, peak


def ground_watched(ctl: Control, parts, time_limit: float | None, entry_file: Path,
                   limit_said: str | None = None) -> None:
    """``ctl.ground(parts)`` in a thread, while this one watches the time limit, the memory and Ctrl-C.

    Past ``time_limit`` raises :class:`~mm_logic.support.errors.SolverTimeout`, whose line names ``entry_file`` and
    the limit: ``limit_said`` (e.g. ``"60 s, the bound on ..."``) where the limit is not the command's
    ``--time-limit``. Past :func:`memory_budget`, or on clingo's own ``MemoryError``, raises
    :class:`GroundingTooLarge`. Ctrl-C (KeyboardInterrupt) is raised again. A grounding stopped so is left
    running (see the module's docstring).
    """
    done = threading.Event()
    failure: list[BaseException] = []

    def work() -> None:
        try:
            ctl.ground(parts)
        except BaseException as error:  # noqa: BLE001 - raised again in the watching thread
            failure.append(error)
        finally:
            done.set()

    start, budget = resident_memory(), None
    thread = threading.Thread(target=work, name="mmlogic-ground", daemon=True)
    thread.start()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    # A grounding that never ends is said on stderr while it lasts, with its bound: the command's time limit, or
    # mmlogic's own (``limit_said``), said by a wait around it too.
    with waiting(f"clingo grounding {entry_file}", time_limit, built_in=limit_said is not None):
        try:
            while not done.wait(WATCH_SLICE if deadline is None
                                else max(0.0, min(WATCH_SLICE, deadline - time.monotonic()))):
                if deadline is not None and time.monotonic() >= deadline:
                    abandon(thread)
                    said = f"the time limit of {time_limit:g} s; {TIME_LIMIT_ADVICE}" if limit_said is None \
                        else f"{limit_said}; {ENDLESS_ADVICE}"
                    raise SolverTimeout(f"clingo did not ground {entry_file} within {said}")
                # Looked up once the grounding outlives a slice: a step's grounding, thousands in a strategy
                # tree, is over by then.
                budget = memory_budget() if budget is None else budget
                if resident_memory() - start > budget:
                    abandon(thread)
                    raise GroundingTooLarge(
                        f"clingo's grounding of {entry_file} took more than {memory_text(budget)} of memory, the most "
                        f"one grounding may take ({GROUND_MEMORY_SHARE:.0%} of the memory free, at most "
                        f"{memory_text(MAX_GROUND_MEMORY)}); {ENDLESS_ADVICE}")
        except KeyboardInterrupt:
            abandon(thread)
            raise
    if failure:
        if isinstance(failure[0], MemoryError):  # clingo's bad_alloc: the process's own limit was reached
            raise GroundingTooLarge(f"clingo ran out of memory grounding {entry_file}; {ENDLESS_ADVICE}") from None
        raise failure[0]


__all__ = ["GroundingTooLarge", "ground_watched", "memory_budget", "memory_room"]
