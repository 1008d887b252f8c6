"""The compiled kernels (numba) of the exact optimal search (:mod:`mm_logic.optimal`).

* :mod:`.search`: the branch and bound (``search``) and the search for a strategy within a bound (``feasible``);
* :mod:`.arrays`: the search's arrays and constants, without numba;
* :mod:`.solved_sets`: the transposition table, the sets of codes already solved;
* :mod:`.node_symmetry`: the symmetries of a node, which guesses stand for the others;
* :mod:`.guess_scores`: every guess at a set scored by its parts' sizes, a bound;
* :mod:`.small_sets`: the scoring of small sets, the feedbacks each guess gets, a bit each;
* :mod:`.middling_sets`: the scoring of middling sets, each guess's parts counted in byte counters;
* :mod:`.ahead`: these kernels compiled ahead of time into an extension module, loaded without numba;
* :mod:`.ahead_build`: the build of that module (numba's ahead-of-time compiler, in a child process).

Nothing is imported here: a module loads numba and its kernels when it is first used.
"""
