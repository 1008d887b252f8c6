"""Where numba keeps the compiled kernels between runs.

numba caches a kernel next to its source (``__pycache__``) or, where that is
read-only, in the user's cache folder (``~/.cache/numba``). When neither can be
written (a system-wide install run by an account whose home is read-only, as
services and locked-down containers have), ``cache=True`` raised RuntimeError
("no locator available") while the package was imported: every command ended
on a traceback. Then this module points numba at a private folder of the
temporary directory, and where even that is impossible, the kernels are
compiled afresh in each process (:data:`CACHE` is False: slower start, same
results).

The kernel modules import :data:`CACHE` before they define a kernel and pass it
as ``cache=``. A first run compiles them (optimal's search: 25-45 s), and
:func:`compilation_said` lets the command say so while it happens.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numba
from numba.core import event
from numba.misc.appdirs import AppDirs

from .cache_folders import private_folder, writable


def choose_cache() -> bool:
    """Leave numba's choice where it has one; else set its cache folder to
    :func:`~mm_logic.kernels.cache_folders.private_folder`.

    Returns whether the kernels can be cached at all. Sets ``NUMBA_CACHE_DIR`` too, so worker
    processes (``--jobs``) use the same folder.
    """
    if numba.config.CACHE_DIR:
        return True  # the user's own NUMBA_CACHE_DIR
    beside_source = Path(__file__).resolve().parent / "__pycache__"
    if writable(beside_source) or writable(AppDirs(appname="numba", appauthor=False).user_cache_dir):
        return True
    folder = private_folder()
    if folder is None:
        return False
    numba.config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"] = str(folder)
    return True


#: Whether the kernels are cached (``cache=CACHE`` on every kernel).
CACHE = choose_cache()


class _FirstCompilation(event.Listener):
    """Calls ``say`` at the start of the first compilation it hears of."""

    def __init__(self, say: Callable[[], None]):
        self.say = say
        self.lock = threading.Lock()  # kernels run in threads: two may start compiling at once
        self.said = False

    def on_start(self, _event) -> None:
        with self.lock:
            if self.said:
                return
            self.said = True
        self.say()

    def on_end(self, _event) -> None:
        pass


@contextmanager
def compilation_said(say: Callable[[], None] | None) -> Iterator[None]:
    """Call ``say`` once, when numba starts compiling a kernel inside the block.

    numba sends its ``numba:compile`` event only where a kernel is compiled, not where it is
    loaded from the cache: a run with the cache warm calls nothing, and prints nothing extra.
    """
    if say is None:
        yield
        return
    with event.install_listener("numba:compile", _FirstCompilation(say)):
        yield
