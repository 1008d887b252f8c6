"""The reports' genetic-algorithm parameter studies as ``compare`` presets (issue 39): seeded, exact totals."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mm_logic.rules import Rules
from mm_logic.studies.compare import ComparePlan, compare


def plan(preset: str, games: int, **options) -> ComparePlan:
    return ComparePlan.make(preset=preset, rules=None, explicit_rules=[], backends=None, strategies=None,
                            all_secrets=False, games=games, seed=1, time_limit=30, **options)


def totals(chosen: ComparePlan, keep=lambda rules, strategy: True) -> list[tuple[str, int]]:
    """The (strategy, total guesses) rows of the plan's studies, only the (rule set, strategy) pairs kept."""
    chosen = replace(chosen, studies=tuple(replace(
        s, rule_sets=tuple(r for r in s.rule_sets if any(keep(r, x.name) for x in s.strategies)),
        strategies=tuple(x for x in s.strategies if any(keep(r, x.name) for r in s.rule_sets)))
        for s in chosen.studies))
    outcome = compare(chosen)
    assert all(not r.failed for r in outcome.rows)
    return [(r.strategy, r.total_guesses) for r in outcome.rows]


def test_the_presets_are_the_reports_studies():
    population, = plan("ga001-population", 20).studies
    assert population.rule_sets == tuple(Rules(n, 2 * n, 1) for n in range(4, 9)) and population.backends == ("a2",)
    assert [s.name for s in population.strategies] == [f"ga001-random:population={p}:eset=6:generations=50"
                                                       for p in (10, 20, 50, 100)]
    mutation, = plan("ga001-mutation", 20).studies
    assert [s.name.split(":", 1)[1] for s in mutation.strategies] == [
        "mutation=1/n", "mutation=0.1", "mutation=0.25", "mutation=0.5", "mutation=1:mutate=one-peg"]
    sweep, = plan("ga004-sweep", None).studies
    # 5 ratios x 4 rates x 3 populations, 50 games each: the report's 3,000 runs.
    assert (len(sweep.strategies), sweep.games, sweep.rule_sets) == (60, 50, (Rules(4, 8),))
    assert sweep.strategies[0].name == "ga004:population=50:mutation=0.03:ratio=2"
    rerun, = plan("ga004-mutation", None).studies
    assert ([s.name for s in rerun.strategies], rerun.games) == (["ga004", "ga004:mutation=0.15"], 500)


@pytest.mark.parametrize("preset, games, expected", [
    # n = 4, p = 8 (no repeat), 5 games: seed 001's population and mutation trials.
    ("ga001-population", 5, [29, 20, 24, 20]),
    ("ga001-mutation", 5, [25, 25, 25, 27, 24]),
])
def test_seed_001s_trials_at_4_pegs(preset, games, expected):
    assert [t for _, t in totals(plan(preset, games), lambda rules, strategy: rules.pegs == 4)] == expected


def test_seed_004s_rerun_at_15_percent():
    assert totals(plan("ga004-mutation", 10)) == [("ga004", 97), ("ga004:mutation=0.15", 65)]


def test_seed_004s_sweep_at_ratio_3():
    # One game per cell, the ratio-3 row of the grid (rates 3, 5, 15, 30% x populations 50, 100, 200).
    found = totals(plan("ga004-sweep", 1), lambda rules, strategy: strategy.endswith(":ratio=3"))
    assert [t for _, t in found] == [9, 11, 11, 13, 12, 6, 13, 11, 7, 5, 8, 7]


def test_a_sweep_is_charted_against_each_parameter(tmp_path):
    pytest.importorskip("matplotlib")
    from mm_logic.studies.charts import plot_comparison
    sweep = plan("ga004-sweep", 1)
    cells = tuple(s for s in sweep.studies[0].strategies if ":mutation=0.3:" in s.name
                  and s.name.endswith(("ratio=2", "ratio=3")))
    outcome = compare(replace(sweep, studies=(replace(sweep.studies[0], strategies=cells),)))
    names = {p.name for p in plot_comparison(outcome, tmp_path)}
    # Ratio and population vary (mutation is 30% in every cell): a chart for each, none for mutation.
    assert {"sweep-by-ratio.png", "sweep-by-population.png"} <= names and "sweep-by-mutation.png" not in names
    assert "sweep-distribution.png" not in names
