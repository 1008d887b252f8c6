"""Memory: what the machine has available, what a run took at its peak, and sizes said and read as people write them."""

from __future__ import annotations

import os
import re
import resource
import sys

from ..notation import quoted
from .errors import BadInput

#: Units of a size as typed (``--memory 8G``, ``500MiB``): powers of 1024, as the machine counts.
_UNITS = {"": 0, "K": 10, "M": 20, "G": 30, "T": 40}
#: ASCII digits alone (``\d`` would take every script's, '٤' as 4, as int() and float() do).
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)[ \t]*([KMGT]?)(?:I?B)?", re.IGNORECASE | re.ASCII)
#: The largest size read, 1024T (1 PiB): beyond any machine's memory, a cluster worker's too (a search's tables
#: stop growing long before: 2**30 solved sets and a feedback table of codes² bytes).
MAX_SIZE = 1 << 50


#: Where a container's cgroup holds this process's memory: version 2's file, then version 1's (which reads as
#: about 2**63 where no limit is set).
_CGROUP_LIMITS = ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")


def available_memory() -> int:
    """Bytes of memory the machine has available now (``MemAvailable``; the free pages elsewhere)."""
    try:
        with open("/proc/meminfo") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")


def _cgroup_limit() -> int | None:
    """The bytes this process's cgroup holds it to, where it holds it to a limit."""
    for name in _CGROUP_LIMITS:
        try:
            with open(name) as limit:
                held = limit.read().strip()
        except OSError:
            continue
        if held.isdigit():
            return int(held)
    return None


def address_space() -> tuple[int, int] | None:
    """(limit, bytes in use) of this process's address space, where it is limited (``ulimit -v``,
    ``RLIMIT_AS``): what it may still allocate is the difference, however much memory the machine has."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    try:
        with open("/proc/self/statm") as statm:
            used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        used = _peak_bytes(resource.RUSAGE_SELF)  # no /proc: at least what it has held
    return soft, used


def total_memory() -> int:
    """Bytes of memory the machine has (``MemTotal``, the physical pages elsewhere), or less where this process
    is held to less (a container's cgroup ``memory.max``, or version 1's ``memory.limit_in_bytes``)."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    try:
        with open("/proc/meminfo") as info:
            for line in info:
                if line.startswith("MemTotal:"):
                    total = int(line.split()[1]) * 1024
                    break
    except OSError:
        pass
    held = _cgroup_limit()
    return total if held is None else min(total, held)


def peak_memory() -> tuple[int, int]:
    """Peak resident bytes of this process and of its largest child process ended so far (0: none)."""
    return _peak_bytes(resource.RUSAGE_SELF), _peak_bytes(resource.RUSAGE_CHILDREN)


def _peak_bytes(who: int) -> int:
    peak = resource.getrusage(who).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # ru_maxrss: KiB on Linux, bytes on macOS


def memory_text(size: int) -> str:
    """``size`` bytes for people: 3.0 TiB, 1.1 GiB, 280 MiB, 512 KiB, 30 bytes."""
    for unit, shift in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift:
            value = size / (1 << shift)
            return f"{value:.1f} {unit}" if value < 10 else f"{value:.0f} {unit}"
    return f"{size} bytes"


def parse_memory(text: str) -> int:
    """Bytes from a size as typed: ``8G``, ``8GiB``, ``500M``, ``1.5G``, ``1000000`` (units of 1024), written
    with the digits 0-9, at most :data:`MAX_SIZE`."""
    found = _SIZE.fullmatch(text.strip(" \t"))
    if not found:
        raise BadInput(f"not a memory size: {quoted(text)} (e.g. 8G, 500M, 1.5GiB)")
    value = float(found.group(1)) * (1 << _UNITS[found.group(2).upper()])  # inf for 400 digits: refused below
    if value < 1:
        raise BadInput(f"not a memory size: {quoted(text)} (e.g. 8G, 500M, 1.5GiB)")
    if value > MAX_SIZE:
        raise BadInput(f"{quoted(text)} is more than 1024T, the largest memory size taken")
    return int(value)
