"""mmlogic: Mastermind and bulls-and-cows solved with logic programming.

The package reads as the game: :mod:`mm_logic.rules` (what a code is),
:mod:`mm_logic.notation` (how codes and feedback are written),
:mod:`mm_logic.feedback` (the black/white duplicate rule),
:mod:`mm_logic.engines` (who finds consistent codes: reference, clingo, swipl),
:mod:`mm_logic.strategies` (which consistent code or probe to play next),
:mod:`mm_logic.game` (playing and benchmarking) and :mod:`mm_logic.cli`.
"""

__version__ = "0.1.0"
