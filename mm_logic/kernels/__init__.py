"""The compiled kernels (numba), a module per concern, and where numba caches them.

* :mod:`~mm_logic.kernels.packed`: feedback on codes packed one word a code, and each rule's compiled feedback;
* :mod:`~mm_logic.kernels.orbits`: whether a code is the smallest of its orbit under a history's symmetries;
* :mod:`~mm_logic.kernels.scoring`: the scoring strategies' best guess, scored on the fly, one search for every
  feedback rule (:mod:`~mm_logic.kernels.scoring_rank`, the pieces a candidate goes through);
  :mod:`~mm_logic.kernels.scoring_tree`, a scoring strategy's whole tree in one call;
  :mod:`~mm_logic.kernels.weighted`, the weighted entropy's best guess (a part valued by its feedback and size);
* :mod:`~mm_logic.kernels.sample`: the sampling strategies' searches of games too large to enumerate;
  :mod:`~mm_logic.kernels.entropies`, a sample's entropies and the one-peg climb;
  :mod:`~mm_logic.kernels.rule_sample`, the same under the black and positional rules;
* :mod:`~mm_logic.kernels.counting`: the count of the codes a history leaves;
* :mod:`~mm_logic.kernels.states`: the liar's game's weighted parts over the states;
  :mod:`~mm_logic.kernels.lies_within`, the parts and the counting bound of the search within D guesses
  against every liar;
* :mod:`~mm_logic.kernels.optimal`: the exact search of ``mmlogic optimal``, a package: its branch and bound,
  its transposition table (the sets already solved), the symmetries of its nodes, its scoring of every code as a
  guess (small sets, middling sets), its arrays without numba, and the same kernels compiled ahead of time into
  an extension module, which ``optimal`` loads without numba;
* :mod:`~mm_logic.kernels.static_proof`: the exhaustive static search's refinement of classes and its branch
  and bound;
* :mod:`~mm_logic.kernels.numba_cache`: the folder of numba's on-disk cache (:mod:`~mm_logic.kernels.cache_folders`).
* :mod:`~mm_logic.kernels.warming`: the one way a group of kernels is made ready before any clock (compiled, or
  loaded from numba's cache), once per process.

Nothing is imported here: a module loads numba and its kernels when it is first used.
"""
