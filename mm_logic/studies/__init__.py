"""Studies: many games and what they tell.

:mod:`.bench` plays many games (every secret as one tree, or a list), in this
process or in workers; :mod:`.compare` and :mod:`.charts` put strategies and
engines side by side (the presets, the agreement check, the charts), and
:mod:`.statistics` gives the numbers beside a mean (spread, 95% interval,
whether two strategies differ on the same secrets); :mod:`.race` races
entrants over one batch of secrets, each in its own worker process;
``sweep`` and ``openings`` run grids of cases in fresh processes,
locally or on Dask; :mod:`.analysis` is ``info``'s feedbacks and bounds;
:mod:`.optimal` and the modules beside it (:mod:`.optimal_search`,
:mod:`.optimal_workers`, :mod:`.optimal_split`, :mod:`.optimal_result`,
:mod:`.optimal_journal`, :mod:`.optimal_anytime`) the exact optimal search,
on the game an edited encoding writes too (:mod:`.written_game`);
:mod:`.static` and :mod:`.static_bound`, :mod:`.static_local`,
:mod:`.static_proof` the fewest guesses fixed in advance; :mod:`.puzzle`
histories with one consistent code; with lies, ``every_lie`` walks every
way of lying, ``optimal_lies`` proves the least worst case of small games
and :mod:`.lies_within` looks for a strategy within D guesses.
Nothing here is imported until a command asks for it.
"""
