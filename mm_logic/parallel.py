"""Benches in worker processes (``--jobs N``), with the same results as one job.

Work is cut into tasks that do not depend on each other: subtrees below the
opening (one per feedback class) for tree benches, slices of the secrets for
game-by-game benches. Each worker builds its own engine and strategy from
their names (solvers are not shared across processes) and returns the
attempts per secret.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable

import numpy as np

from .codespace import code_space
from .engines import make_engine
from .engines.base import Engine
from .feedback import index_feedback, win_index
from .game import BenchResult, next_guess, play_games, play_tree
from .notation import Code
from .strategies import make_strategy
from .strategies.base import Strategy


def split_below_opening(engine: Engine, strategy: Strategy, first_guess: Code | None):
    """The opening, one tree task per non-winning feedback class, and the game it wins."""
    rules = engine.rules
    space = code_space(rules)
    with engine.session() as session:
        opening = next_guess(session, strategy, first_guess)
    marks = space.feedback_to_all(opening)
    tasks = []
    won = BenchResult()
    for mark in np.unique(marks):
        group = np.flatnonzero(marks == mark)
        if mark == win_index(rules.pegs):
            won.games_played.append((space.code(group[0]), 1))
        else:
            tasks.append(("tree", ([(opening, index_feedback(mark, rules.pegs))], group)))
    # Biggest subtrees first keeps the workers busy until the end.
    tasks.sort(key=lambda task: -task[1][1].size)
    return opening, tasks, won


def _worker(spec, task) -> BenchResult:
    backend, rules, encoding, time_limit, strategy_name, seed, first_guess = spec
    engine = make_engine(backend, rules, encoding=encoding, time_limit=time_limit)
    strategy = make_strategy(strategy_name, rules, seed)
    kind, payload = task
    try:
        if kind == "tree":
            history, secrets = payload
            return play_tree(engine, strategy, history, secrets, first_guess)
        return play_games(engine, strategy, payload, first_guess)
    finally:
        engine.close()


def _task_size(task) -> int:
    kind, payload = task
    return payload[1].size if kind == "tree" else len(payload)


def run_parallel(engine: Engine, strategy: Strategy, first_guess: Code | None, tasks: list,
                 jobs: int, progress: Callable[[int], None] | None = None) -> BenchResult:
    """Run ``tasks`` in ``jobs`` processes and merge their attempts."""
    spec = (engine.name, engine.rules, engine.encoding, engine.time_limit,
            strategy.name, strategy.seed, first_guess)
    result = BenchResult()
    # "spawn": solvers embedded in this process (clingo, SWI-Prolog) must not be forked.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = {pool.submit(_worker, spec, task): task for task in tasks}
        try:
            for future in as_completed(futures):
                result.merge(future.result())
                if progress:
                    progress(_task_size(futures[future]))
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return result
