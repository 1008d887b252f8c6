"""Memory: what the machine has available, what a run took at its peak, and sizes said and read as people write them."""

from __future__ import annotations

import os
import re
import resource
import sys

from .errors import BadInput
from .notation import quoted

#: Units of a size as typed (``--memory 8G``, ``500MiB``): powers of 1024, as the machine counts.
_UNITS = {"": 0, "K": 10, "M": 20, "G": 30, "T": 40}
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?", re.IGNORECASE)


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


def peak_memory() -> tuple[int, int]:
    """Peak resident bytes of this process and of its largest child process ended so far (0: none)."""
    return _peak_bytes(resource.RUSAGE_SELF), _peak_bytes(resource.RUSAGE_CHILDREN)


def _peak_bytes(who: int) -> int:
    peak = resource.getrusage(who).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # ru_maxrss: KiB on Linux, bytes on macOS


def memory_text(size: int) -> str:
    """``size`` bytes for people: 1.1 GiB, 280 MiB, 512 KiB, 30 bytes."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift:
            value = size / (1 << shift)
            return f"{value:.1f} {unit}" if value < 10 else f"{value:.0f} {unit}"
    return f"{size} bytes"


def parse_memory(text: str) -> int:
    """Bytes from a size as typed: ``8G``, ``8GiB``, ``500M``, ``1.5G``, ``1000000`` (units of 1024)."""
    found = _SIZE.fullmatch(text.strip())
    if not found:
        raise BadInput(f"not a memory size: {quoted(text)} (e.g. 8G, 500M, 1.5GiB)")
    value = float(found.group(1)) * (1 << _UNITS[found.group(2).upper()])
    if value < 1:
        raise BadInput(f"not a memory size: {quoted(text)} (e.g. 8G, 500M, 1.5GiB)")
    return int(value)
