"""The optimal search's kernels compiled ahead of time: ``mmlogic optimal`` without numba at start-up.

numba compiles a kernel the first time a process calls it, or loads it from
its cache; either way the process first imports numba and fills its typing
and lowering registries (0.4-0.5 s on the project's machine, more than the
whole search of 4x6 takes). So the search's kernels
(:func:`mm_logic.kernels.optimal.search.search` and :func:`~mm_logic.kernels.optimal.search.feasible`,
:func:`mm_logic.kernels.optimal.solved_sets.probe`, :func:`mm_logic.kernels.optimal.node_symmetry.peg_moves`:
the same functions, not a copy) are
also built, once, into a Python extension module with numba's ahead-of-time
compiler (:mod:`mm_logic.kernels.optimal.ahead_build`, run in a child process), kept
beside numba's cache and loaded in a millisecond by the later runs.

One module per *variant*, the dtypes of the feedback table and of the codes
the kernels read (an extension's functions take fixed types), named by a hash
of the kernels' sources, numpy's version, the interpreter and the processor
(the module is compiled for this processor): an edited kernel, or a cache
folder shared with another machine, builds a new one. Building needs a C
compiler and Python's headers; where the build fails, the reason is kept
beside it (no second try) and the search runs numba's kernels as before:
same results, slower start. ``MMLOGIC_AHEAD=0`` turns the modules off (the
tests compare both ways).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..cache_folders import private_folder, user_cache_folder, writable
from . import arrays

#: The kernels' sources, in mm_logic/kernels: any change builds the modules again.
SOURCES = ("optimal/search.py", "optimal/guess_scores.py", "optimal/small_sets.py", "optimal/middling_sets.py",
           "optimal/solved_sets.py", "optimal/node_symmetry.py", "orbits.py", "optimal/arrays.py",
           "optimal/ahead_build.py")
#: The dtypes a module can be built for (table, codes): codes are peg-tagged int64 under per-peg symmetry.
TABLE_DTYPES = {np.dtype(np.uint8): "u1", np.dtype(np.uint16): "u2"}
CODE_DTYPES = {np.dtype(np.uint8): "u1", np.dtype(np.uint16): "u2", np.dtype(np.int64): "i8"}


class Kernels:
    """The search's kernels, ahead-of-time or numba's, with the constants of their arrays."""

    INF = arrays.INF
    STOPPED = arrays.STOPPED
    STOP, NODES, TRIED, TRIED_BELOW = arrays.STOP, arrays.NODES, arrays.TRIED, arrays.TRIED_BELOW

    def __init__(self, search: Callable, feasible: Callable, probe: Callable, peg_moves: Callable | None,
                 ahead: bool):
        self.search = search
        self.feasible = feasible
        self.probe = probe
        self.peg_moves = peg_moves
        #: Whether these are an extension module's (compiled ahead of time), not numba's.
        self.ahead = ahead


def enabled() -> bool:
    """Whether the ahead-of-time modules are used (``MMLOGIC_AHEAD=0`` turns them off)."""
    return os.environ.get("MMLOGIC_AHEAD", "1") != "0"


def variant(table_dtype: np.dtype, codes_dtype: np.dtype) -> str | None:
    """The variant of a game's arrays (``"u1u1"``: bytes of feedback, bytes of colours), None if none is built."""
    table, codes = TABLE_DTYPES.get(np.dtype(table_dtype)), CODE_DTYPES.get(np.dtype(codes_dtype))
    return None if table is None or codes is None else table + codes


@functools.cache
def module_name(kind: str) -> str:
    """The extension module's name for a variant: the kernels' sources, numpy, the interpreter and processor
    (hashed once a process: a run asks for it to build, then to load)."""
    digest = hashlib.sha256()
    kernels = Path(__file__).resolve().parents[1]
    for name in SOURCES:
        digest.update((kernels / name).read_bytes())
    for part in (np.__version__, sys.version, platform.machine(), _processor()):
        digest.update(part.encode())
    return f"mmlogic_optimal_{kind}_{digest.hexdigest()[:16]}"


def _processor() -> str:
    """The processor's model, as far as the system says (the module is compiled for it)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            for line in info:
                if line.startswith(("model name", "flags")):
                    return line
    except OSError:
        pass
    return platform.processor()


def folders() -> list[Path]:
    """Where the modules may be kept, in order: the folder ``NUMBA_CACHE_DIR`` names, alone where it is set (as
    numba then keeps its own cache there alone), else beside the kernels' sources, then the user's cache (a
    private folder of the temporary directory comes after these: :func:`load`, :func:`build`)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return [Path(os.environ["NUMBA_CACHE_DIR"])]
    found = [Path(__file__).resolve().parent / "__pycache__"]
    found.append(user_cache_folder())
    return found


def _file(name: str) -> str:
    return name + importlib.machinery.EXTENSION_SUFFIXES[0]


def load(kind: str):
    """The built extension module of a variant, or None when none is built (or the modules are off)."""
    if not enabled():
        return None
    name = module_name(kind)
    if name in sys.modules:
        return sys.modules[name]
    for folder in folders() + [None]:
        folder = folder or private_folder()  # the private folder last, made only where nothing else has it
        path = folder / _file(name) if folder is not None else None
        if path is not None and path.is_file():
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            sys.modules[name] = module
            return module
    return None


def kernels_for(table_dtype: np.dtype, codes_dtype: np.dtype) -> Kernels:
    """The search's kernels for a game's arrays: the built module's if there is one, else numba's."""
    kind = variant(table_dtype, codes_dtype)
    module = load(kind) if kind is not None else None
    if module is not None:
        return Kernels(module.search, module.feasible, module.probe, getattr(module, "peg_moves", None), True)
    from . import node_symmetry, search, solved_sets
    return Kernels(search.search, search.feasible, solved_sets.probe, node_symmetry.peg_moves, False)


def build(kind: str, on_compile: Callable[[], None] | None = None) -> bool:
    """Build a variant's module (10-40 s) in a child process, unless it is built or its build failed before.

    Returns whether the module can be loaded. ``on_compile`` is called when the
    build starts. A failed build leaves its reason in a ``.failed`` file beside
    where the module would be, and is not tried again.
    """
    if not enabled():
        return False
    if load(kind) is not None:
        return True
    name = module_name(kind)
    places = [f for f in folders() if writable(f)] or [p for p in [private_folder()] if p is not None]
    if not places:
        return False
    folder = places[0]
    failed = folder / (name + ".failed")
    if failed.exists():
        return False
    if on_compile is not None:
        on_compile()
    with tempfile.TemporaryDirectory(dir=folder) as work:
        done = subprocess.run([sys.executable, "-m", "mm_logic.kernels.optimal.ahead_build", kind, name, work],
                              capture_output=True, text=True, check=False)
        built = Path(work) / _file(name)
        if done.returncode != 0 or not built.is_file():
            lines = (done.stderr or done.stdout or "no module written").strip().splitlines()
            failed.write_text(f"{lines[-1] if lines else 'no module written'}\n", encoding="utf-8")
            return False
        os.replace(built, folder / _file(name))  # whole or not at all, for a process loading it meanwhile
    return load(kind) is not None
