"""When every game fails, the figures over the games won have no value (issue 56, item 9): ``-`` in the text and
``null`` in JSON for the mean, min and max, as for the stdev, never ``0``."""

from __future__ import annotations

import json

import pytest

from mm_logic import strategies
from mm_logic.strategies.simple import First
from mm_logic.support.errors import StrategyGaveUp

from conftest import PY


class GivesUp(First):
    """``first`` that gives up before its first guess: every game fails."""

    name = "gives-up"

    def choose(self, session):
        raise StrategyGaveUp("gives-up plays no guess")


@pytest.fixture
def gives_up(monkeypatch):
    monkeypatch.setitem(strategies.STRATEGIES, GivesUp.name, GivesUp)


def test_bench_text_has_no_mean_min_or_max_without_a_game_won(run, gives_up):
    result = run("bench", *PY, "--strategy", "gives-up", "--pegs", 2, "--colors", 2, "--all")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[3:11] == [
        "games      4", "failed     4 of 4 (100.0%)", "mean       -", "ci95       -", "stdev      -", "min        -",
        "max        -", "histogram  "]


def test_bench_json_has_null_figures_without_a_game_won(run, gives_up):
    result = run("bench", *PY, "--strategy", "gives-up", "--pegs", 2, "--colors", 2, "--games", 3, "--seed", 1,
                 "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert {k: out[k] for k in ("games", "failed", "failure_rate", "total_guesses", "histogram")} == {
        "games": 3, "failed": 3, "failure_rate": 1.0, "total_guesses": 0, "histogram": {}}
    assert (out["mean"], out["min"], out["max"], out["stdev"], out["ci95"]) == (None, None, None, None, None)


def test_compare_rows_without_a_game_won(run, gives_up):
    # compare's rows are bench's: the table prints -, the JSON null.
    args = ("compare", *PY, "--strategy", "gives-up,first", "--pegs", 2, "--colors", 2, "--all")
    rows = {r["strategy"]: r for r in json.loads(run(*args, "--json").stdout)["rows"]}
    assert (rows["gives-up"]["mean"], rows["gives-up"]["min"], rows["gives-up"]["max"]) == (None, None, None)
    assert (rows["first"]["mean"], rows["first"]["min"], rows["first"]["max"]) == (2.0, 1, 3)
    table = run(*args).stdout.splitlines()
    row = next(line for line in table if " gives-up " in line).split()
    assert row[:9] == ["python", "gives-up", "4", "4", "-", "-", "-", "-", "-"]
