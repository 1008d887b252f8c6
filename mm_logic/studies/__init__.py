"""Studies: many games and what they tell.

:mod:`.bench` plays many games (every secret as one tree, or a list), in this
process or in workers; :mod:`.compare` and :mod:`.charts` put strategies and
engines side by side (the presets, the agreement check, the charts), and
:mod:`.statistics` gives the numbers beside a mean (spread, 95% interval,
whether two strategies differ on the same secrets); :mod:`.batch_race` races
entrants over one batch of secrets, each in its own worker process;
``sweep`` and ``openings`` run grids of cases in fresh processes,
locally or on Dask; :mod:`.info` is ``info``'s feedbacks and bounds;
:mod:`.written_game` the game an edited encoding writes (the optimal and
static searches play it too); :mod:`.puzzle` histories with one consistent
code. Beside this package, studies too: the exact optimal search
(:mod:`mm_logic.optimal`), static play (:mod:`mm_logic.static`) and the
liar's studies (:mod:`mm_logic.liar`).
Nothing here is imported until a command asks for it.
"""
