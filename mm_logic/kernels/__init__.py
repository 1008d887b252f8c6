"""The compiled kernels (numba), a module per concern, and where numba caches them.

* :mod:`~mm_logic.kernels.packed`: feedback on codes packed one word a code;
* :mod:`~mm_logic.kernels.orbits`: whether a code is the smallest of its orbit under a history's symmetries;
* :mod:`~mm_logic.kernels.scoring`: the scoring strategies' best guess, scored on the fly;
* :mod:`~mm_logic.kernels.sample`: the sampling strategies' searches of games too large to enumerate;
* :mod:`~mm_logic.kernels.optimal`: the exact search of ``mmlogic optimal``;
* :mod:`~mm_logic.kernels.node_symmetry`: the symmetries of that search's nodes;
* :mod:`~mm_logic.kernels.counting`: the count of the codes a history leaves;
* :mod:`~mm_logic.kernels.numba_cache`: the folder of numba's on-disk cache (:mod:`~mm_logic.kernels.cache_folders`);
* :mod:`~mm_logic.kernels.ahead`: the optimal search's kernels compiled ahead of time into an extension module
  (:mod:`~mm_logic.kernels.ahead_build`), which ``optimal`` loads without numba, and
  :mod:`~mm_logic.kernels.search_arrays`, the arrays and constants of that search, without numba.

Nothing is imported here: a module loads numba and its kernels when it is first used.
"""
