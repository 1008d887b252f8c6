"""A scoring strategy's subtree played at once (one compiled call) against the same tree node by node.

A bench over every secret on the python engine hands each subtree to the strategy
(:meth:`~mm_logic.strategies.scoring.ScoringStrategy.tree_below`, the kernel
:func:`~mm_logic.kernels.scoring_tree.scoring_tree`), which walks it without a return to Python:
the guess at every node, the games in the same order, the same tree and the same search effort
as the walk node by node, on every rule, with or without packed codes, symmetries and repetitions.
"""

from __future__ import annotations

import numpy as np
import pytest

from mm_logic.engines.reference import ReferenceEngine
from mm_logic.kernels.scoring_tree import position_moves
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy
from mm_logic.studies.bench import bench_all
from mm_logic.symmetry import position_symmetries

from conftest import SCORERS

SPACES = [Rules(4, 6), Rules(3, 5), Rules(5, 3), Rules(4, 6, 1), Rules(4, 5, 2), Rules(3, 9), Rules(2, 17),
          Rules(9, 2), Rules(4, 4, feedback="black"), Rules(3, 5, 1, feedback="black"), Rules(9, 2, feedback="black"),
          Rules(4, 4, feedback="positional"), Rules(3, 5, 2, feedback="positional")]


def node_by_node(strategy):
    strategy.tree_below = lambda session, depth, limit: None
    return strategy


@pytest.mark.parametrize("rules", SPACES, ids=str)
def test_a_subtree_at_once_is_the_tree_node_by_node(rules):
    for name in SCORERS:
        for opening in (None, (0,) * rules.pegs, tuple(range(rules.pegs)) if rules.colors >= rules.pegs else None):
            at_once = make_strategy(name, rules, first_guess=opening)
            one_by_one = node_by_node(make_strategy(name, rules, first_guess=opening))
            fast = bench_all(ReferenceEngine(rules), at_once, record_tree=True)
            slow = bench_all(ReferenceEngine(rules), one_by_one, record_tree=True)
            assert fast.games_played == slow.games_played, (name, opening)
            assert fast.tree == slow.tree, (name, opening)
            assert at_once.effort == one_by_one.effort, (name, opening)


def test_the_compiled_moves_are_those_of_the_history():
    rng = np.random.default_rng(1)
    for _ in range(2000):
        pegs, colors, h = int(rng.integers(1, 7)), int(rng.integers(2, 9)), int(rng.integers(0, 4))
        history = rng.integers(0, colors, size=(h, pegs))
        if h and rng.random() < 0.5:
            history = np.minimum(history, int(rng.integers(1, colors)))  # more equal columns
        limit = int(rng.integers(1, 30)) if rng.random() < 0.3 else 2000
        moves = position_symmetries(Rules(pegs, colors), [(tuple(g), None) for g in history.tolist()], limit)
        sigmas, pis = position_moves(history.astype(np.int64).reshape(h, pegs), h, colors, limit)
        assert [(s.tolist(), p.tolist()) for s, p in moves] == list(zip(sigmas.tolist(), pis.tolist()))
