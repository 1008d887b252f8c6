"""The one way the compiled kernels are made ready: :func:`warm`, a named group once per process.

numba compiles a kernel the first time a process calls it, or loads it from its cache (a few tenths
of a second for a group, 15-45 s to compile): start-up, which no game's clock and no bench's
``seconds`` should count. So whoever plays or searches with a group of kernels (the scoring strategies,
the weighted entropy, optimal's search without its ahead-of-time module, a bench's warm-up) asks for it
here first, and the group's warm-up calls each kernel once on tiny arrays with the types a game's have.

A group's warm-ups are declared in :data:`GROUPS`, each a function of the module that knows the
kernels' arguments; they are imported when first asked for (importing one imports numba).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from contextlib import nullcontext

from ..support.waiting import waiting as waiting_said

#: What a warm-up that goes on is said to wait for, where the command has no note of its own (``say``): a first
#: run compiles the scoring kernels for 20-30 s, which ``next`` and ``solve`` spent in silence.
COMPILING = "compiling mmlogic's kernels (once: they are cached for later runs)"

#: Each group of kernels and its warm-ups (``module:function``, called in this order).
GROUPS: dict[str, tuple[str, ...]] = {
    # The scoring strategies' best guess, and their whole tree in one call.
    "scoring": ("mm_logic.kernels.scoring:warm_up", "mm_logic.kernels.scoring_tree:warm_up"),
    # The weighted entropy's best guess.
    "weighted": ("mm_logic.kernels.weighted:warm_up",),
    # The optimal search's branch and bound and its probe, on a game of 2x3 (the searcher builds their arrays).
    "optimal": ("mm_logic.optimal.searcher:warm_up_search",),
    # ... and the worst objective's feasibility search.
    "optimal-worst": ("mm_logic.optimal.searcher:warm_up_feasible",),
}

#: The groups made ready in this process.
_ready: set[str] = set()
# Strategies are built in threads (the server's games): the second caller waits for the first's warm-up
# instead of compiling alongside it. Reentrant, as a warm-up may build what asks for a group itself.
_lock = threading.RLock()


def warm(*groups: str, say: Callable[[], None] | None = None) -> None:
    """Make ``groups`` of kernels (names of :data:`GROUPS`) ready: compiled, or loaded from numba's cache,
    each once per process.

    ``say`` is called once if numba starts compiling meanwhile (the command's "compiling ..." note:
    :func:`~mm_logic.kernels.numba_cache.compilation_said`); a warm cache loads the kernels silently. Without
    ``say``, a warm-up that goes on is said as every long wait is (``mm_logic.support.waiting``:
    after 5 s, ``note: compiling mmlogic's kernels ...: 0:05 so far``). A warm-up's error propagates, and its
    group is not ready: the next call runs its warm-up again.

    Examples
    --------
    >>> warm("weighted")  # the weighted entropy's kernel: compiled, or loaded from numba's cache
    >>> warm("weighted")  # ready already: nothing to do
    """
    with _lock:
        unready = [group for group in groups if group not in _ready]
        if not unready:
            return
        # Here, not at the top: numba's import (0.15 s, 50 MB) is for those who warm a group, not for a strategy
        # that declares none (clingo's `any` benched in 48 MB, not 102).
        from .numba_cache import compilation_said

        with compilation_said(say), waiting_said(COMPILING) if say is None else nullcontext():
            for group in unready:
                for name in GROUPS[group]:
                    module, function = name.split(":")
                    getattr(importlib.import_module(module), function)()
                _ready.add(group)
