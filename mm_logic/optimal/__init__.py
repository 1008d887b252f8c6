"""The exact optimal search of ``mmlogic optimal``: strategies proved optimal over every secret.

* :mod:`.objectives`: the drivers over the openings, one per objective (expected, worst, worst-case), and
  :func:`~mm_logic.optimal.objectives.optimal` itself;
* :mod:`.searcher`: one process's search, its bounds and the memory its tables take, over the compiled
  kernels (:mod:`mm_logic.kernels.optimal`);
* :mod:`.tasks`: the guesses at a set, the most promising first, and a large part split into per-guess tasks;
* :mod:`.workers`: the worker processes and Dask tasks that search the openings' parts elsewhere;
* :mod:`.result`: what the search finds, its figures and the bounds that prove it, as text and JSON;
* :mod:`.journal`: what the search has proved, part by part, kept in a file to resume;
* :mod:`.anytime`: ``--anytime``, a heuristic's tree made better set by set, toward the optimum;
* :mod:`.anytime_journal`: the journal of ``--anytime``, one line per decision.

The liar's optimal search is in :mod:`mm_logic.liar`.
"""

from .objectives import OBJECTIVES, optimal
from .result import OptimalResult, StoppedSearch

__all__ = ["OBJECTIVES", "OptimalResult", "StoppedSearch", "optimal"]
