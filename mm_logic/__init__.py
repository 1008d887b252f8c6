"""mmlogic: Mastermind and bulls-and-cows solved with logic programming (clingo, SWI-Prolog).

The package reads as the game, from the bottom up, each layer resting only on those
before it (``docs/architecture.md`` gives the layers, and a test holds them):

* the game itself: :mod:`~mm_logic.rules` (what a code is), :mod:`~mm_logic.notation`
  (how codes, feedback and histories are written), :mod:`~mm_logic.feedback` (the
  feedback rules: black and white pegs with the duplicate rule, black pegs only, one
  mark per peg, a rule of one's own), :mod:`~mm_logic.codespace` (every valid code as
  arrays), :mod:`~mm_logic.counting` (the codes a history leaves, counted),
  :mod:`~mm_logic.symmetry` (colour and position symmetries), :mod:`~mm_logic.lies`
  (the liar's game), :mod:`~mm_logic.kernels` (the compiled kernels);
* the encodings, files of ``mm_logic/encodings/``: the game stated in ASP and CLP(FD);
* :mod:`~mm_logic.engines` (who finds the codes consistent with a history: the numpy
  reference engine, clingo, SWI-Prolog and seed 001's searches, behind one interface);
* :mod:`~mm_logic.strategies` (which code to play next);
* one game: :mod:`~mm_logic.game` (the object every front end drives),
  :mod:`~mm_logic.player` (who plays), :mod:`~mm_logic.secret_codes` (the secrets),
  :mod:`~mm_logic.split` (how a guess splits the codes left),
  :mod:`~mm_logic.adversary` (the codemaker that keeps no secret),
  :mod:`~mm_logic.diagnosis` (the entries of a history that must be wrong);
* :mod:`~mm_logic.studies` (many games: benches, comparisons, races, sweeps, the
  optimal and static searches, puzzles, bounds);
* the front ends: :mod:`~mm_logic.cli` (the ``mmlogic`` command),
  :mod:`~mm_logic.terminal` (the terminal game), ``server`` (``mmlogic serve``: the
  JSON API, its web page and seed 003's line protocol), :mod:`~mm_logic.client`
  (a strategy played here against a server's codemaker) and :mod:`~mm_logic.environment`
  (the game as a Gymnasium environment for learning agents, the ``gym`` extra).

From Python, the names below are the library's stable surface (:mod:`mm_logic.library`, docs/library.md): ``Rules``
and ``Game``, ``new_game``, ``solve``, ``next_guess``, ``split_codes``, ``bench``, ``compare``,
``optimal_strategy``, ``static_guesses``, ``puzzle``, ``puzzle_set``, ``grade``, ``code`` and ``history`` (codes and
entries as the command line writes them), and the errors ``BadInput`` and ``MMLogicError``. Every other module is
internal. They are imported on first use, so that ``import mm_logic`` (and the ``mmlogic`` command's start) loads
none of the solvers.
"""

__version__ = "0.1.0"

#: Each stable name and the module it lives in.
_STABLE = {
    "Rules": "rules", "Game": "game", "BadInput": "support.errors", "MMLogicError": "support.errors",
    **{name: "library" for name in ("new_game", "solve", "next_guess", "split_codes", "bench", "compare",
                                    "optimal_strategy", "static_guesses", "puzzle", "puzzle_set", "grade", "code",
                                    "history")},
}

__all__ = ["__version__", *_STABLE]


def __getattr__(name: str):
    """A stable name, imported from its module when first asked for (PEP 562)."""
    if name not in _STABLE:
        raise AttributeError(f"module 'mm_logic' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{_STABLE[name]}"), name)
    globals()[name] = value  # asked once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_STABLE})
