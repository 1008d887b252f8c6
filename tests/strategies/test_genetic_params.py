"""``--ga``: the genetic algorithms' parameters (issue 39), each changing the play, the defaults the reports'."""

from __future__ import annotations

import pytest

from mm_logic.engines.reference import ReferenceEngine
from mm_logic.player import Player
from mm_logic.rules import Rules
from mm_logic.strategies import parse_strategy

from conftest import PY, one_line_error

#: ``bench --pegs 4 --colors 6 --games 20 --seed 1 --backend python``: the same 20 secrets for every case.
BENCH = ["bench", *PY, "--pegs", "4", "--colors", "6", "--games", "20", "--seed", "1", "--time-limit", "30"]


# Total guesses of the 20 games, as measured (numpy's PCG64 streams fix them): every key changes the play.
@pytest.mark.parametrize("strategy, ga, total", [
    ("ga004", None, 109),
    ("ga004", "population=50", 157),
    ("ga004", "population=100", 167),
    ("ga004", "mutation=0.15", 105),
    ("ga004", "mutate=each-peg", 102),
    ("ga004", "selection=tournament", 132),
    ("ga004", "selection=tournament,tournament=3", 121),
    ("ga004", "generations=1", 174),
    ("ga001-random", None, 91),
    ("ga001-random", "population=30", 89),
    ("ga001-random", "mutation=0.5", 94),
    ("ga001-random", "mutate=one-peg,mutation=1", 87),
    ("ga001-random", "ratio=3", 93),
    ("ga001-random", "selection=roulette", 89),
    ("ga001-random", "tournament=3", 86),
    ("ga001-random", "eset=2", 88),
    ("ga001-random", "generations=5", 83),
])
def test_each_parameter_changes_the_seeded_bench(run_json, strategy, ga, total):
    result = run_json(*BENCH, "--strategy", strategy, *(["--ga", ga] if ga else []))
    assert (result["total_guesses"], result["failed"]) == (total, 0)
    assert result["strategy"] == (parse_strategy(f"{strategy}:{ga}").name if ga else strategy)


@pytest.mark.parametrize("strategy, defaults, total", [
    ("ga004", "population=200,mutation=5%,mutate=one-peg,ratio=3,selection=roulette,tournament=10,generations=10",
     109),
    ("ga001-random", "population=10,mutation=1/n,mutate=each-peg,ratio=1,selection=tournament,tournament=10,"
     "eset=10,generations=100", 91),
])
def test_the_reports_values_typed_play_as_the_defaults(run_json, strategy, defaults, total):
    # 1/n is the report's 0.25 at 4 pegs; the name differs, the games do not.
    assert run_json(*BENCH, "--strategy", strategy, "--ga", defaults)["total_guesses"] == total


def test_the_name_carries_the_parameters_to_a_benchs_workers():
    rules = Rules(4, 6)
    player = Player(rules, "python", "ga004:mutation=15%:population=50", seed=3)
    assert player.strategy.name == "ga004:population=50:mutation=0.15"
    engine, strategy = player.build()
    assert (strategy.size, strategy.mutation, strategy.name) == (50, 0.15, player.strategy.name)
    assert Player.of(ReferenceEngine(rules), strategy).strategy == player.strategy


def test_ga_over_a_named_strategys_own_parameters(run_json):
    result = run_json(*BENCH, "--strategy", "ga004:population=100:mutation=0.15", "--ga", "population=50")
    assert result["strategy"] == "ga004:population=50:mutation=0.15"


def test_compare_applies_ga_to_its_genetic_strategies_only(run_json):
    result = run_json("compare", *PY, "--pegs", "4", "--colors", "6", "--games", "20", "--seed", "1",
                      "--strategy", "ga004,first", "--ga", "population=50")
    assert [(r["strategy"], r["total_guesses"]) for r in result["rows"]] == [("ga004:population=50", 157),
                                                                           ("first", 112)]


@pytest.mark.parametrize("args, message", [
    (["solve", *PY, "--strategy", "minimax", "--ga", "population=50"],
     "--ga sets a genetic algorithm's parameters; --strategy minimax is not one (choose from ga001-random, "
     "ga001-similar, ga001-dissimilar, ga001-reduction, ga004)"),
    (["bench", *PY, "--games", "2", "--ga", "population=50"],
     "--ga sets a genetic algorithm's parameters; --strategy minimax is not one (choose from ga001-random, "
     "ga001-similar, ga001-dissimilar, ga001-reduction, ga004)"),
    (["compare", *PY, "--games", "2", "--strategy", "first", "--ga", "population=50"],
     "--ga sets a genetic algorithm's parameters; no strategy compared is one (choose from ga001-random, "
     "ga001-similar, ga001-dissimilar, ga001-reduction, ga004)"),
    (["bench", *PY, "--games", "2", "--strategy", "ga004", "--ga", "size=50"],
     "ga004: unknown parameter 'size'; choose from population, mutation, mutate, ratio, selection, tournament, eset, "
     "generations"),
    (["bench", *PY, "--games", "2", "--strategy", "ga004", "--ga", "population"],
     "ga004: 'population' is not KEY=VALUE (keys: population, mutation, mutate, ratio, selection, tournament, eset, "
     "generations)"),
    (["bench", *PY, "--games", "2", "--strategy", "ga004", "--ga", "population=1"],
     "ga004 population=1: a whole number from 2 to 100000"),
    (["bench", *PY, "--games", "2", "--strategy", "ga004", "--ga", "ratio=1.5"],
     "ga004 ratio=1.5: a whole number from 1 to 100"),
    # A digit Python's int() does not read (it raised ValueError past isdigit()).
    (["bench", *PY, "--games", "2", "--strategy", "ga004", "--ga", "population=\u00b2"],
     "ga004 population=\u00b2: a whole number from 2 to 100000"),
    (["bench", *PY, "--games", "2", "--strategy", "ga004", "--ga", "generations=0"],
     "ga004 generations=0: a whole number from 1 to 100000"),
    (["bench", *PY, "--games", "2", "--strategy", "ga004", "--ga", "tournament=1"],
     "ga004 tournament=1: a whole number from 2 to 1000"),
    (["bench", *PY, "--games", "2", "--strategy", "ga004", "--ga", "mutation=150%"],
     "ga004 mutation=150%: a probability from 0 to 1 (0.05 or 5%), or 1/n"),
    (["bench", *PY, "--games", "2", "--strategy", "ga004", "--ga", "mutation=nan"],
     "ga004 mutation=nan: a probability from 0 to 1 (0.05 or 5%), or 1/n"),
    (["bench", *PY, "--games", "2", "--strategy", "ga004", "--ga", "mutate=swap"],
     "ga004 mutate=swap: choose from each-peg, one-peg"),
    (["bench", *PY, "--games", "2", "--strategy", "ga004", "--ga", "selection=rank"],
     "ga004 selection=rank: choose from tournament, roulette"),
    (["bench", *PY, "--games", "2", "--strategy", "ga004", "--ga", "eset=5"],
     "ga004 keeps no set E: eset is a parameter of seed 001's ga001-* strategies"),
    (["bench", *PY, "--games", "2", "--strategy", "ga001-random", "--ga", "eset=0"],
     "ga001-random eset=0: a whole number from 1 to 10000"),
    (["bench", *PY, "--games", "2", "--strategy", "ga004:population=1"],
     "Invalid value for '--strategy': ga004 population=1: a whole number from 2 to 100000"),
])
def test_bad_parameters_are_one_line_exit_2(run, args, message):
    one_line_error(run(*args), 2, message)


def test_ga004s_generations_stop_at_the_time_limit(run, run_json):
    # A server's --time-limit bounds a guess of large --ga values as it bounds seed 001's search.
    args = ["--pegs", "4", "--colors", "6", "--seed", "1", "--strategy", "ga004", "--ga", "population=100000",
            "--time-limit", "0.001"]
    assert run_json("bench", *PY, *args, "--games", "1")["failed"] == 1
    one_line_error(run("solve", *PY, *args, "--secret", "0123"), 1,
                   "ga004:population=100000 did not evolve its generations within the time limit of 0.001 s "
                   "(4x6); raise --time-limit or lower --ga population or generations")
