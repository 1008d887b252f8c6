"""First runs say what they do (issue 35, item 5): the bar of ``bench --jobs`` moves with each
game, and ``optimal`` says when it compiles its kernels, which its ``seconds`` leave out."""

from __future__ import annotations

import pytest

import mm_logic.bench as bench_module
from mm_logic.bench import bench_games, random_secrets
from mm_logic.engines import make_engine
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy


@pytest.mark.slow
def test_bench_jobs_progress_moves_with_each_game_not_each_workers_share(monkeypatch):
    # 7x7 random games on the python engine take about 30 ms each: 5 in each of 2 workers.
    monkeypatch.setattr(bench_module, "PROGRESS_EVERY", 0.005, raising=False)
    rules = Rules(7, 7)
    engine = make_engine("python", rules)
    reported: list[int] = []
    result = bench_games(engine, make_strategy("random", rules, 1), random_secrets(rules, 10, 1),
                         progress=reported.append, jobs=2)
    assert result.games == 10 and sum(reported) == 10
    # Before, one call per worker's share: [5, 5].
    assert len(reported) > 2, reported
