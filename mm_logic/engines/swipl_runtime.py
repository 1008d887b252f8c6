"""Find a janus-capable SWI-Prolog and load the ``janus_swi`` bridge to it.

The ``swipl`` engine runs SWI-Prolog in-process through the PyPI package
``janus-swi``, which needs SWI-Prolog >= 9.1.12. On Debian 12 that is not a
system package, so ``scripts/install-swipl.sh VENV`` unpacks one privately into
``VENV/opt/swipl`` and puts a ``VENV/bin/swipl`` wrapper next to the venv's
Python (see ``shared/notes/swi-prolog.md``). Elsewhere a ``swipl`` on ``PATH``
that is new enough is used as is.

Two things must be right *before* the first ``import janus_swi``, because the
embedded Prolog is initialised at import time and a wrong setup aborts the whole
process (``FATAL ERROR ... Could not find system resources``) instead of raising:

* ``SWI_HOME_DIR`` must name the Prolog home (``PLBASE``): inside Python the
  running executable is ``python``, so libswipl cannot find its home from it.
* ``libswipl.so.9`` must be loadable. The extension module records the folder it
  was built against as its RUNPATH, but ``LD_LIBRARY_PATH`` cannot be changed
  for a process that is already running, so the library reported by
  ``swipl --dump-runtime-variables`` (``PLLIBSWIPL``) is loaded first with
  ``RTLD_GLOBAL``; the dynamic linker then reuses it, by soname, for the
  extension. That also keeps working when the wheel's RUNPATH is stale.
"""

from __future__ import annotations

import ctypes
import functools
import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from types import ModuleType

from mm_logic.errors import BackendUnavailable

#: Oldest SWI-Prolog janus-swi accepts (its build refuses anything older).
MIN_VERSION: tuple[int, int, int] = (9, 1, 12)

_lock = threading.Lock()
_janus: ModuleType | None = None


def _venv_hint() -> str:
    """The venv argument to suggest: the running one when we are in a venv."""
    if sys.prefix != getattr(sys, "base_prefix", sys.prefix):
        return sys.prefix
    return "<venv>"


def _unavailable(what: str) -> BackendUnavailable:
    """One-line error: what is missing, and the command that installs it."""
    message = (
        f"the swipl backend needs SWI-Prolog >= {'.'.join(map(str, MIN_VERSION))} "
        f"and janus-swi, but {what}: run `bash scripts/install-swipl.sh {_venv_hint()}` "
        "from the mmlogic checkout (see README)"
    )
    # The CLI prints str(error) as one line: fold any newline from a cause.
    return BackendUnavailable(" ".join(message.split()))


@functools.cache
def _runtime_variables(swipl: str) -> dict[str, str]:
    """``swipl --dump-runtime-variables`` as a dict (empty if it fails).

    Cached per executable: it costs a Prolog start-up (~50 ms). The output is
    shell syntax, one ``NAME="value";`` per line.
    """
    try:
        proc = subprocess.run(
            [swipl, "--dump-runtime-variables"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return {}
    if proc.returncode != 0:
        return {}
    variables: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        name, sep, value = line.partition("=")
        if sep:
            variables[name.strip()] = value.strip().rstrip(";").strip('"')
    return variables


def _version(swipl: str) -> tuple[int, int, int] | None:
    """The (major, minor, patch) of ``swipl``, from PLVERSION (e.g. 90209)."""
    raw = _runtime_variables(swipl).get("PLVERSION", "")
    if not raw.isdigit():
        return None
    number = int(raw)
    return (number // 10000, number // 100 % 100, number % 100)


def _candidates() -> list[str]:
    """Where to look, best first: the venv's own wrapper, then ``PATH``."""
    found: list[str] = []
    # Not resolved: in a venv sys.executable is VENV/bin/python (a symlink to
    # the base interpreter), and the wrapper sits next to it.
    wrapper = Path(sys.executable).parent / "swipl"
    if wrapper.is_file() and os.access(wrapper, os.X_OK):
        found.append(str(wrapper))
    on_path = shutil.which("swipl")
    if on_path and on_path not in found:
        found.append(on_path)
    return found


def find_swipl() -> str | None:
    """The ``swipl`` executable to use, or None if none is >= 9.1.12."""
    for candidate in _candidates():
        version = _version(candidate)
        if version is not None and version >= MIN_VERSION:
            return candidate
    return None


def _describe_missing_swipl() -> str:
    """Why find_swipl() found nothing, for the error message."""
    for candidate in _candidates():
        version = _version(candidate)
        if version is None:
            return f"{candidate} does not run (`swipl --dump-runtime-variables` failed)"
        return f"{candidate} is SWI-Prolog {'.'.join(map(str, version))}"
    return "no swipl was found next to the Python interpreter or on PATH"


def _prepare(swipl: str) -> None:
    """Set SWI_HOME_DIR and preload libswipl, before janus_swi is imported."""
    variables = _runtime_variables(swipl)
    plbase = variables.get("PLBASE")
    if not plbase or not Path(plbase).is_dir():
        raise _unavailable(f"{swipl} reports no usable home (PLBASE)")
    # An explicit setting wins: the user may point at another home on purpose.
    os.environ.setdefault("SWI_HOME_DIR", plbase)

    libswipl = variables.get("PLLIBSWIPL")  # printed by 9.x; absent before
    if not libswipl:
        libdir = variables.get("PLLIBDIR", "")
        libswipl = os.path.join(libdir, "libswipl.so.9") if libdir else ""
    if libswipl and os.path.exists(libswipl):
        try:
            # RTLD_GLOBAL: the extension module and any Prolog foreign library
            # loaded later resolve their PL_* symbols against this copy.
            ctypes.CDLL(libswipl, mode=ctypes.RTLD_GLOBAL)
        except OSError as exc:
            raise _unavailable(f"{libswipl} cannot be loaded ({exc})") from exc
    # Otherwise (e.g. macOS frameworks) rely on the extension's own RUNPATH.


def load_janus() -> ModuleType:
    """Return the imported ``janus_swi`` module, ready to run queries.

    Raises :class:`~mm_logic.errors.BackendUnavailable` (one line, with the
    install command) when SWI-Prolog or janus-swi is missing or unusable.
    The result is cached: later calls return the same module at once.
    """
    global _janus
    if _janus is not None:
        return _janus
    with _lock:
        if _janus is not None:
            return _janus
        swipl = find_swipl()
        if swipl is None:
            raise _unavailable(_describe_missing_swipl())
        # Check it is installed before touching the process: find_spec does not
        # run the extension (which would initialise Prolog).
        if importlib.util.find_spec("janus_swi") is None:
            raise _unavailable(f"janus-swi is not installed in {sys.prefix}")
        _prepare(swipl)
        try:
            module = importlib.import_module("janus_swi")
        except Exception as exc:  # ImportError, or janus's own RuntimeError
            raise _unavailable(
                f"janus-swi failed to load ({type(exc).__name__}: {exc})"
            ) from exc
        _janus = module
        return module
