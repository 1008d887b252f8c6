"""Studies: many games and what they tell.

:mod:`.bench` plays many games (every secret as one tree, or a list), in this
process or in workers; :mod:`.compare` and :mod:`.charts` put strategies and
engines side by side (the presets, the agreement check, the charts), and
:mod:`.statistics` gives the numbers beside a mean (spread, 95% interval,
whether two strategies differ on the same secrets); :mod:`.race` races
entrants over one batch of secrets, each in its own worker process;
``sweep`` and ``openings`` run grids of cases in fresh processes,
locally or on Dask; :mod:`.analysis` is ``info``'s feedbacks and bounds;
:mod:`.optimal` and :mod:`.optimal_result` the exact optimal search.
Nothing here is imported until a command asks for it.
"""
