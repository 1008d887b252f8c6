"""Batch races (seed 000's race window): ``compare --race`` and ``POST /api/races`` with ``games``.

Each entrant plays the whole batch in its own worker process; its totals are those of ``mmlogic bench``
with the same strategy on the same secrets (the same seed draws the same secrets). Small games (3x4, six
secrets, two entrants): a race's cost is its workers' start-up, about a second.
"""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

from mm_logic.notation import format_code
from mm_logic.player import Player
from mm_logic.rules import Rules
from mm_logic.secret_codes import random_secrets
from mm_logic.studies.batch_race import BatchRace, batch_secrets
from mm_logic.studies.bench import bench_games

from conftest import api_error

RULES = Rules(3, 4)
#: ``mmlogic bench --backend python --strategy S --pegs 3 --colors 4 --games 6 --seed 3 --json``.
BENCH = {"first": (22, 5, {"2": 1, "3": 1, "4": 3, "5": 1}), "minimax": (21, 4, {"3": 3, "4": 3})}
RACE = ("--backend", "python", "--strategy", "first,minimax", "--pegs", 3, "--colors", 4, "--games", 6,
        "--seed", 3)


def benched(strategy: str) -> tuple[int, int, dict]:
    """Total guesses, max and histogram of the bench of ``strategy`` on the race's secrets, in process."""
    engine, played = Player(RULES, "python", strategy, seed=3).build()
    try:
        row = bench_games(engine, played, random_secrets(RULES, 6, 3))
    finally:
        engine.close()
    figures = row.figures()
    return figures["total_guesses"], figures["max"], figures["histogram"]


def test_the_bench_figures_are_those_of_the_command():
    assert {s: benched(s) for s in BENCH} == BENCH


def test_compare_race_json_gives_each_entrants_bench_totals_and_the_order(run):
    result = run("compare", "--race", *RACE, "--json")
    assert (result.exit_code, result.stderr) == (0, "")
    race = json.loads(result.stdout)
    assert set(race) == {"rules", "games", "seed", "entrants", "order", "complete"}
    assert (race["rules"], race["games"], race["seed"], race["complete"]) == (RULES.as_dict(), 6, 3, True)
    assert sorted(race["order"]) == [0, 1]
    entrants = race["entrants"]
    assert [set(e) for e in entrants] == [{"backend", "strategy", "games", "failed", "total_guesses", "mean",
                                           "seconds", "finished", "stopped", "place", "max", "histogram",
                                           "cpu_seconds"}] * 2
    assert [(e["backend"], e["strategy"], e["games"], e["failed"], e["total_guesses"], e["mean"], e["max"],
             e["histogram"], e["finished"], e["stopped"]) for e in entrants] == [
        ("python", "first", 6, 0, 22, 3.6667, 5, BENCH["first"][2], True, None),
        ("python", "minimax", 6, 0, 21, 3.5, 4, BENCH["minimax"][2], True, None)]
    assert [entrants[n]["place"] for n in race["order"]] == [1, 2]
    # The places follow the times.
    assert entrants[race["order"][0]]["seconds"] <= entrants[race["order"][1]]["seconds"]


def test_compare_race_prints_the_finishing_order(run):
    result = run("compare", "--race", *RACE)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "race: 3x4, 6 secrets, 2 entrants, each in its own worker process"
    assert lines[1].split() == ["place", "entrant", "games", "failed", "mean", "max", "seconds", "cpu", "s"]
    rows = {line.split()[2]: line.split() for line in lines[2:]}
    assert sorted(row[0] for row in rows.values()) == ["1", "2"]
    assert [rows[s][1:7] for s in ("first", "minimax")] == [["python", "first", "6", "0", "3.667", "5"],
                                                          ["python", "minimax", "6", "0", "3.500", "4"]]


@pytest.mark.parametrize("extra, message", [
    (["--preset", "seed000"], "--race does not take --preset (a race is of one rule set; give the rules options)"),
    (["--games", 3, "--jobs", 2], "--race does not take --jobs (each entrant is a worker process of its own)"),
    (["--games", 3, "--csv", "rows.csv"], "--race does not take --csv (a race's result is its table or --json)"),
    (["--games", 3, "--feedback", "standard,black"], "--race races on one rule set: give one --feedback rule"),
    (["--games", 3, "--backend", "python,clingo,swipl", "--strategy", "first,minimax,random"],
     "--race takes at most 8 entrants (backends x strategies), not 9"),
    (["--strategy", "first"], "give exactly one of --all or --games N"),
])
def test_compare_race_bad_input_is_one_line_exit_2(run, extra, message):
    result = run("compare", "--race", *extra)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"error: {message}\n")


def test_a_batch_is_the_benchs_secrets_or_every_secret():
    assert batch_secrets(RULES, 6, 3) == random_secrets(RULES, 6, 3)
    every = batch_secrets(Rules(2, 3), None, None)
    assert [format_code(c, Rules(2, 3)) for c in every] == ["00", "01", "02", "10", "11", "12", "20", "21", "22"]


def test_an_entrant_that_cannot_start_stops_and_the_others_race_on(tmp_path):
    # An encoding that is not there: the worker cannot build its engine, and says why.
    missing = Player(RULES, "clingo", "first", encoding=tmp_path / "missing.lp")
    race = BatchRace(RULES, [Player(RULES, "python", "first", seed=3), missing], batch_secrets(RULES, 6, 3))
    race.run()
    first, lost = race.standings
    assert (first.finished, first.games, first.total_guesses, lost.finished, lost.games, race.order) == (
        True, 6, 22, False, 0, [0])
    assert "missing.lp" in lost.stopped and "\n" not in lost.stopped


def test_a_worker_killed_stops_its_entrant_with_its_exit_code():
    rules = Rules(4, 6)
    race = BatchRace(rules, [Player(rules, "python", "entropy", seed=1)], batch_secrets(rules, 1000, 1))
    race.start()
    try:
        deadline = time.monotonic() + 30
        while race.started is None and time.monotonic() < deadline:
            race.poll(0.05)
        os.kill(race._processes[0].pid, signal.SIGKILL)
        while not race.over and time.monotonic() < deadline:
            race.poll(0.05)
    finally:
        race.stop()
    [standing] = race.standings
    assert (standing.finished, standing.stopped) == (False, "its worker process ended unexpectedly (exit code -9)")
    assert 0 <= standing.games < 1000 and race.order == []


# -- the server ----------------------------------------------------------------------
ENTRANTS = [{"backend": "python", "strategy": "first"}, {"backend": "python", "strategy": "minimax"}]


def run_batch(client, **request) -> tuple[dict, list[str]]:
    """Start a batch race, poll it to its end; the last state and every answer's text."""
    response = client.post("/api/races", json={"rules": {"pegs": 3, "colors": 4}, "entrants": ENTRANTS, "games": 6,
                                               "seed": 3, **request})
    assert response.status_code == 201, response.text
    texts, state = [response.text], response.json()
    deadline = time.monotonic() + 60
    while not state["over"] and time.monotonic() < deadline:
        time.sleep(0.05)
        answer = client.get(f"/api/races/{state['id']}")
        assert answer.status_code == 200, answer.text
        texts.append(answer.text)
        state = answer.json()
    return state, texts


def test_a_batch_race_gives_the_bench_totals_and_shows_the_secrets_at_the_end(client):
    state, texts = run_batch(client)
    assert set(state) == {"id", "rules", "alphabet", "seed", "games", "started", "entrants", "order", "over",
                          "secrets"}
    assert (state["games"], state["seed"], state["started"], state["over"]) == (6, 3, True, True)
    assert [(e["strategy"], e["games"], e["total_guesses"], e["mean"], e["max"], e["histogram"], e["finished"])
            for e in state["entrants"]] == [("first", 6, 22, 3.6667, 5, BENCH["first"][2], True),
                                            ("minimax", 6, 21, 3.5, 4, BENCH["minimax"][2], True)]
    assert sorted(state["order"]) == [0, 1]
    assert state["secrets"] == [format_code(c, RULES) for c in random_secrets(RULES, 6, 3)]
    # Before the end nobody could read a secret.
    assert all('"secrets"' not in text for text in texts[:-1])
    api_error(client.post(f"/api/races/{state['id']}/step"), 409,
              f"race {state['id']} is a batch race: its entrants play by themselves; GET its state")


@pytest.mark.parametrize("request_body, message", [
    ({"games": 0}, "games must be an integer from 1 to 1000"),
    ({"games": 1001}, "games must be an integer from 1 to 1000"),
    ({"games": True}, "games must be an integer from 1 to 1000"),
    ({"games": 5, "secret": "012"}, "secret is for a race on one secret; a batch race draws its games' secrets "
                                    "(see seed)"),
    ({"games": 5, "entrants": []}, 'entrants must be a list of 1 to 8 objects such as {"backend": "python", '
                                   '"strategy": "minimax"}'),
    ({"games": 5, "seed": -1}, "seed must be an integer >= 0"),
    ({"games": 5, "shuffle": 1}, "unknown field 'shuffle'"),
])
def test_a_bad_batch_race_request_is_400_in_one_line(client, request_body, message):
    body = {"rules": {"pegs": 3, "colors": 4}, "entrants": ENTRANTS, **request_body}
    api_error(client.post("/api/races", json=body), 400, message)


def test_at_most_two_batch_races_run_and_a_race_forgotten_stops_its_workers(client, store):
    body = {"rules": {"pegs": 4, "colors": 6}, "entrants": [{"backend": "python", "strategy": "entropy"}],
            "games": 1000, "seed": 1}
    first, second = (client.post("/api/races", json=body).json() for _ in range(2))
    api_error(client.post("/api/races", json=body), 429,
              "the server runs its maximum of 2 batch races; try again when one ends")
    hosted = [store.get_race(race["id"]) for race in (first, second)]
    deadline = time.monotonic() + 30
    while not all(h.race._processes for h in hosted) and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = [p for h in hosted for p in h.race._processes]
    assert len(workers) == 2
    assert store.expire(now=time.monotonic() + 3600) == 2  # forgotten unused: their workers are stopped
    assert [p.is_alive() for p in workers] == [False, False]
    assert [s.stopped for h in hosted for s in h.race.standings] == ["the race was stopped"] * 2
