"""mmlogic: Mastermind and bulls-and-cows solved with logic programming.

The package reads as the game, each module resting only on those above it:

* :mod:`~mm_logic.rules` (what a code is), :mod:`~mm_logic.notation` (how codes,
  feedback and histories are written), :mod:`~mm_logic.feedback` (the
  black/white duplicate rule), :mod:`~mm_logic.codespace` (every valid code as
  arrays), :mod:`~mm_logic.symmetry` (colour and position symmetries);
* :mod:`~mm_logic.engines` (who finds the codes consistent with a history:
  the numpy reference engine, clingo, SWI-Prolog, behind one interface);
* :mod:`~mm_logic.strategies` (which code to play next);
* :mod:`~mm_logic.game` (one game, the object every front end drives);
* :mod:`~mm_logic.studies.bench`, :mod:`~mm_logic.studies.compare`, :mod:`~mm_logic.studies.charts`,
  :mod:`~mm_logic.studies.analysis` (many games, comparisons, bounds);
* the front ends: :mod:`~mm_logic.terminal.play` (the terminal game) and
  :mod:`~mm_logic.cli` (the ``mmlogic`` command).
"""

__version__ = "0.1.0"
