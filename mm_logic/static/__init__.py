"""Static Mastermind (``mmlogic static``): the fewest guesses, fixed in advance, whose answers tell every code
apart.

* :mod:`.search`: the search and its proof by clingo (``encodings/static.lp``), checked by the feedback rule;
* :mod:`.bound`: the lower bound of the pairs of codes only guessing one of them tells apart;
* :mod:`.local_search`: ``--local-search``, hill climbing over the answers, its sets checked by clingo;
* :mod:`.proof`: ``--prove-exhaustive``, an exhaustive branch and bound over the symmetry classes
  (its kernels: :mod:`mm_logic.kernels.static_proof`).
"""

from .search import StaticStopped, check_rules, static_search

__all__ = ["StaticStopped", "check_rules", "static_search"]
