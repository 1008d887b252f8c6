"""The clingo engine: the ASP encodings in ``mm_logic/encodings/*.lp`` answer the questions.

This package is only an adapter. It turns the rules into facts (``pegs/1``,
``colours/1``, ``max_repeat/1``) and each history entry into facts of one step
(``guess/3``, ``black/2``, ``white/2``), asks clingo, and reads codes back from
the shown ``secret/2`` atoms. What a consistent code is lives in the
encodings alone; how the solver searches is in ``mm_logic/encodings/search.lp`` and
:data:`~mm_logic.engines.clingo.program.CLINGO_ARGUMENTS`. By concern:

* :mod:`.program`: the encoding parsed once, Controls built from it, errors
  turned into one ``file:line`` line;
* :mod:`.grounding`: a user's encoding grounded in a watched thread, bounded
  by the time limit, memory and Ctrl-C;
* :mod:`.control`: a session's Control, one step per history entry,
  released on pop, rebuilt when released steps pile up;
* :mod:`.solve`: one bounded solver call and its model handler;
* :mod:`.session`: the questions (first, any, random, enumerate, count) and
  how each is asked;
* :mod:`.diagnose`: the fewest entries that must be wrong, by clingo's
  optimisation over ``diagnose.lp``;
* :mod:`.told_table`: a feedback rule stated in an ASP encoding, its table
  derived by clingo (``--feedback FILE.lp``);
* :mod:`.engine`: :class:`ClingoEngine`, which ties them together.

Solver calls can be cancelled: ``time_limit`` raises
:class:`~mm_logic.support.errors.SolverTimeout` and Ctrl-C stops the search before
:class:`KeyboardInterrupt` propagates.
"""

from .engine import ClingoEngine
from .session import ClingoSession

__all__ = ["ClingoEngine", "ClingoSession"]
