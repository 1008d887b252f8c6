"""First runs say what they do (issue 35, item 5): the bar of ``bench --jobs`` moves with each
game, and ``optimal`` says when it compiles its kernels, which its ``seconds`` leave out."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

import mm_logic.studies.bench as bench_module
from mm_logic.engines import make_engine
from mm_logic.rules import Rules
from mm_logic.secret_codes import random_secrets
from mm_logic.strategies import make_strategy
from mm_logic.studies.bench import bench_games

from conftest import MMLOGIC


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


@pytest.mark.slow
def test_optimal_says_when_it_compiles_and_its_seconds_are_the_searchs_alone(tmp_path):
    cold = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}  # an empty cache: every kernel compiles

    def optimal() -> subprocess.CompletedProcess:
        return subprocess.run([MMLOGIC, "optimal", "--pegs", "2", "--colors", "3", "--json"], capture_output=True,
                              text=True, env=cold, timeout=600)

    first = optimal()
    assert first.returncode == 0, first.stderr
    assert first.stderr == ("note: compiling the optimal search's kernels (once: they are cached for later runs, "
                            "which start at once)\n")
    # 2x3's search takes milliseconds; the compilation, tens of seconds, was counted in it.
    assert json.loads(first.stdout)["seconds"] < 1.0
    again = optimal()
    assert again.returncode == 0 and again.stderr == ""
    assert json.loads(again.stdout)["seconds"] < 1.0


@pytest.mark.parametrize("cached", [True, False])
def test_the_compiling_note_says_whether_the_kernels_are_kept(run, monkeypatch, cached):
    # Where no folder for numba's cache can be written, every run compiles again: the note says so.
    import mm_logic.kernels.numba_cache as numba_cache
    import mm_logic.optimal.objectives as optimal_module
    from mm_logic.cli.studies import COMPILING_OPTIMAL, COMPILING_UNCACHED
    from mm_logic.support.errors import BadInput

    def compiles_then_stops(*args, on_compile, **options):
        on_compile()
        raise BadInput("stopped after the note")

    monkeypatch.setattr(numba_cache, "CACHE", cached)
    monkeypatch.setattr(optimal_module, "optimal", compiles_then_stops)
    result = run("optimal", "--pegs", 2, "--colors", 2)
    assert (result.exit_code, result.stderr) == (
        2, f"note: {COMPILING_OPTIMAL if cached else COMPILING_UNCACHED}\nerror: stopped after the note\n")
