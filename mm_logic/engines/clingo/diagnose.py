"""``fewest_wrong`` by clingo's optimisation: the encoding's ``diagnose.lp`` minimises the entries taken as wrong.

One fresh Control: ``base``, the entries' steps with their external ``active(t)``
left *free* (the solver may switch an entry off, and its constraints with it),
then ``fewest_wrong`` (``wrong(T)`` for an entry switched off, the ``#minimize``
over them, ``#project wrong/1``). Solved with ``--opt-mode=optN`` and
projection, clasp proves the optimum and then lists every set of entries of
that size once, whatever the secrets that go with it. The encodings of the
feedback rules are untouched: the guard every step already has (``active(t)``,
which lets a strategy take a guess back) is the relaxation.
"""

from __future__ import annotations

import time

from ...notation import Entry
from ...support.errors import SolverTimeout
from .control import ground_entry
from .program import DIAGNOSIS_PART, Program
from .solve import solve_within


def fewest_wrong(program: Program, history: list[Entry], time_limit: float | None) -> list[tuple[int, ...]] | None:
    """Every smallest set of entries (indices from 0) whose removal leaves ``history`` consistent, as
    :meth:`mm_logic.engines.base.Engine.fewest_wrong` says; None when the encoding has no ``diagnose``
    part (an edited encoding of its own), which the caller answers otherwise."""
    ctl = program.control(diagnosis=True)
    for t, entry in enumerate(history, 1):
        ground_entry(program, ctl, t, entry, active=None)  # free: the solver may switch it off
    program.ground(ctl, [(DIAGNOSIS_PART, [])])
    if history and not any(True for _ in ctl.symbolic_atoms.by_signature("wrong", 1)):
        return None
    settings = ctl.configuration.solve
    settings.opt_mode, settings.project, settings.models = "optN", "project", "0"
    found: list[tuple[int, ...]] = []

    def on_model(model) -> None:
        if model.optimality_proven:
            found.append(tuple(sorted(s.arguments[0].number - 1 for s in model.symbols(atoms=True)
                                      if s.name == "wrong" and len(s.arguments) == 1)))

    deadline = None if time_limit is None else time.monotonic() + time_limit
    result = solve_within(ctl, on_model, deadline)
    if result is None:
        raise SolverTimeout(f"clingo did not answer within the time limit of {time_limit:g} s "
                            "(the fewest wrong entries); raise --time-limit")
    if result.unsatisfiable:
        return []  # no code at all, whichever entries are dropped
    return sorted(set(found))
