"""A game a strategy cannot finish is counted, not fatal (issue 39, item 2): bench and compare report it as
failed (text, JSON, CSV), the figures over the games won; an engine's error stays fatal."""

from __future__ import annotations

import csv
import json
from collections import Counter
from itertools import product

import pytest

from mm_logic import strategies
from mm_logic.feedback import feedback
from mm_logic.strategies.simple import First
from mm_logic.support.errors import StrategyGaveUp

from conftest import PY


class FirstGivesUp(First):
    """``first`` that gives up after its second guess: it wins the games ``first`` wins in 1 or 2 guesses."""

    name = "first-gives-up"

    def choose(self, session):
        if len(session.history) >= 2:
            raise StrategyGaveUp("first-gives-up found no third guess")
        return super().choose(session)


@pytest.fixture
def gives_up(monkeypatch):
    monkeypatch.setitem(strategies.STRATEGIES, FirstGivesUp.name, FirstGivesUp)


def first_attempts(pegs: int, colors: int) -> dict:
    """Brute force: the guesses ``first`` takes on each secret (the smallest consistent code each time)."""
    codes = list(product(range(colors), repeat=pegs))
    found = {}
    for secret in codes:
        alive, attempts = codes, 0
        while True:
            guess, attempts = alive[0], attempts + 1
            if guess == secret:
                found[secret] = attempts
                break
            alive = [c for c in alive if feedback(guess, c) == feedback(guess, secret)]
    return found


def expected_3x3():
    """Games won (1 or 2 guesses) and failed of ``first-gives-up`` over every 3x3 secret."""
    attempts = first_attempts(3, 3)
    won = Counter(a for a in attempts.values() if a <= 2)
    return won, sum(1 for a in attempts.values() if a > 2)


def test_bench_all_counts_the_games_given_up(run, gives_up):
    won, failed = expected_3x3()
    assert (won[1], failed) == (1, 27 - 1 - won[2]) and failed > 0  # a real mix: some won, some failed
    result = run("bench", *PY, "--strategy", "first-gives-up", "--pegs", 3, "--colors", 3, "--all", "--json")
    assert result.exit_code == 0, result.stderr  # failed games are a result, not an error
    out = json.loads(result.stdout)
    total = sum(k * n for k, n in won.items())
    assert out["games"] == 27 and out["failed"] == failed and out["failure_rate"] == round(failed / 27, 4)
    # The mean, histogram and statistics are over the games won alone.
    assert out["histogram"] == {str(k): n for k, n in sorted(won.items())} and out["total_guesses"] == total
    assert out["mean"] == round(total / sum(won.values()), 3) and (out["min"], out["max"]) == (1, 2)


def test_bench_text_says_failed_n_of_m(run, gives_up):
    won, failed = expected_3x3()
    result = run("bench", *PY, "--strategy", "first-gives-up", "--pegs", 3, "--colors", 3, "--all")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[3:5] == ["games      27", f"failed     {failed} of 27 ({100 * failed / 27:.1f}%)"]


def test_bench_games_counts_each_game_given_up(run, gives_up):
    # --games plays game by game (not as a tree): the same games fail.
    from mm_logic.rules import Rules
    from mm_logic.secret_codes import random_secrets
    attempts = first_attempts(3, 3)
    secrets = random_secrets(Rules(3, 3), 40, 5)
    out = json.loads(run("bench", *PY, "--strategy", "first-gives-up", "--pegs", 3, "--colors", 3, "--games", 40,
                         "--seed", 5, "--json").stdout)
    assert out["games"] == 40 and out["failed"] == sum(1 for s in secrets if attempts[s] > 2)
    assert out["total_guesses"] == sum(attempts[s] for s in secrets if attempts[s] <= 2)


def test_tree_and_games_fail_on_the_same_secrets():
    # The genetic strategy with a time limit too short for any search: a turn ends with the first generation,
    # which fails unless its 10 random codes hold a consistent one (a function of --seed and the history).
    from mm_logic.codespace import code_space
    from mm_logic.player import Player
    from mm_logic.rules import Rules
    from mm_logic.studies.bench import bench_all, play_games
    rules = Rules(3, 4)
    engine, strategy = Player(rules, "clingo", "ga001-random", 1, time_limit=1e-9).build()
    tree = bench_all(engine, strategy)
    games = play_games(engine, strategy, [tuple(c) for c in code_space(rules).codes.tolist()])
    assert tree.failed and tree.games_played  # both kinds
    assert sorted(s for s, _ in tree.failed) == sorted(s for s, _ in games.failed)
    assert tree.by_secret() == games.by_secret()
    assert all("ga001-random found no consistent code" in why for _, why in tree.failed)


def test_genetic_time_limit_fails_games_not_the_bench(run):
    # The abort of issue 39: a genetic game at its time limit ended the bench (exit 1). The counts are those
    # of the 64 secrets with --seed 1 (a function of the seed and the histories, see above), with 2 jobs alike.
    args = ("bench", "--backend", "clingo", "--strategy", "ga001-random", "--pegs", 3, "--colors", 4, "--all",
            "--seed", 1, "--time-limit", "1e-9", "--json")
    one = run(*args)
    assert one.exit_code == 0, one.stderr
    out = json.loads(one.stdout)
    assert (out["games"], out["failed"], out["total_guesses"]) == (64, 47, 45)
    two = json.loads(run(*args, "--jobs", 2).stdout)
    assert {k: v for k, v in two.items() if k != "seconds"} == {k: v for k, v in out.items() if k != "seconds"}


def test_an_engine_error_stays_fatal(run):
    # The same time limit bounds the python engine's filtering, which it cannot meet: that is no game the
    # strategy gave up, and the bench stops with one line, exit 1, as before.
    result = run("bench", *PY, "--strategy", "ga001-random", "--pegs", 3, "--colors", 4, "--all", "--seed", 1,
                 "--time-limit", "1e-9")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.startswith("error: python did not answer within the time limit of 1e-09 s")


def test_one_game_given_up_exits_1(run, gives_up):
    result = run("solve", *PY, "--strategy", "first-gives-up", "--pegs", 3, "--colors", 3, "--secret", "222")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr == "error: first-gives-up found no third guess\n"


def test_save_tree_refuses_a_tree_with_holes(run, gives_up, tmp_path):
    won, failed = expected_3x3()
    tree = tmp_path / "tree.json"
    result = run("bench", *PY, "--strategy", "first-gives-up", "--pegs", 3, "--colors", 3, "--all",
                 "--save-tree", tree)
    assert result.exit_code == 1 and "Traceback" not in result.output and not tree.exists()
    assert result.stderr == (f"error: --save-tree: first-gives-up gave up on {failed} of 27 games, so its tree "
                             "has holes; not saved (first-gives-up found no third guess)\n")


def test_compare_counts_failures_and_pairs_the_games_won(run, gives_up, tmp_path):
    won, failed = expected_3x3()
    rows_csv = tmp_path / "rows.csv"
    result = run("compare", *PY, "--strategy", "first,first-gives-up", "--pegs", 3, "--colors", 3, "--all",
                 "--json", "--csv", rows_csv)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    first, gave_up = data["rows"]
    assert (first["failed"], first["failure_rate"]) == (0, 0.0)
    assert (gave_up["games"], gave_up["failed"], gave_up["failure_rate"]) == (27, failed, round(failed / 27, 4))
    # Where both won, both played first's guesses: no difference at all, on the games won by both.
    assert data["paired"] == [{
        "rules": {"pegs": 3, "colors": 3, "max_repeat": None, "feedback": "standard"}, "backend": "python",
        "a": "first", "b": "first-gives-up", "n": 27 - failed, "excluded": failed, "mean_difference": 0.0,
        "ci95": [0.0, 0.0], "t": None, "p_value": 1.0, "fewer": 0, "more": 0, "sign_p_value": 1.0}]
    with rows_csv.open() as f:
        rows = list(csv.DictReader(f))
    assert [(r["strategy"], r["failed"], r["failure_rate"]) for r in rows] == [
        ("first", "0", "0.0"), ("first-gives-up", str(failed), str(round(failed / 27, 4)))]
    text = run("compare", *PY, "--strategy", "first,first-gives-up", "--pegs", 3, "--colors", 3, "--all")
    assert text.exit_code == 0
    lines = text.stdout.splitlines()
    assert lines[3].split()[:4] == ["python", "first-gives-up", "27", str(failed)]
    assert lines[-1] == (f"paired: 3x3 python first - first-gives-up: +0.000 guesses, 95% CI +0.000 to +0.000 "
                         f"({27 - failed} secrets, {failed} failed left out); t-test p 1; sign test p 1 "
                         "(first fewer on 0, more on 0)")


def test_a_secret_failed_on_one_backend_is_no_disagreement():
    from mm_logic.rules import Rules
    from mm_logic.studies.compare import _disagreements
    # clingo's game of secret 01 failed (absent from its games won): only the secrets both won are compared.
    per_backend = {"python": {(0, 0): 1, (0, 1): 3, (1, 1): 2}, "clingo": {(0, 0): 1, (1, 1): 4}}
    found = _disagreements(Rules(2, 2), "first", per_backend)
    assert [(d.secret, d.attempts) for d in found] == [("11", {"python": 2, "clingo": 4})]


def test_a_sweep_case_with_failed_games_fails_whole(gives_up):
    # A sweep's row has no column for failed games: the case is an error (as before), not a row with holes.
    from mm_logic.rules import Rules
    from mm_logic.studies.sweep_case import Case, run_case
    won, failed = expected_3x3()
    with pytest.raises(StrategyGaveUp, match=f"^{failed} of 27 games failed: first-gives-up found no third guess$"):
        run_case(Case(Rules(3, 3), "first-gives-up", None, "python"))
