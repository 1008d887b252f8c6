"""Engines: who finds the codes consistent with a history.

``python`` is the numpy reference engine, ``clingo`` solves the ASP encodings
in ``encodings/*.lp`` and ``swipl`` the CLP(FD) encodings in
``encodings/*.pl``. All implement :class:`mm_logic.engines.base.Engine`.
Backends are imported only when asked for, so a missing solver breaks only
its own backend.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from ..errors import BadInput
from ..rules import Rules
from .base import Engine, Session

#: ``--backend`` name -> "module:class"
BACKENDS = {
    "clingo": "mm_logic.engines.clingo_engine:ClingoEngine",
    "swipl": "mm_logic.engines.swipl_engine:SwiplEngine",
    "python": "mm_logic.engines.reference:ReferenceEngine",
}
DEFAULT_BACKEND = "clingo"


def engine_class(name: str) -> type[Engine]:
    """The class behind a ``--backend`` name."""
    try:
        module, cls = BACKENDS[name].split(":")
    except KeyError:
        raise BadInput(f"unknown backend {name!r}; choose from {', '.join(BACKENDS)}") from None
    return getattr(import_module(module), cls)


def make_engine(name: str, rules: Rules, *, encoding: str | Path | None = None,
                time_limit: float | None = None) -> Engine:
    """Create the engine ``name`` for ``rules``."""
    cls = engine_class(name)
    return cls(rules, encoding=Path(encoding) if encoding else None, time_limit=time_limit)


__all__ = ["BACKENDS", "DEFAULT_BACKEND", "Engine", "Session", "engine_class", "make_engine"]
