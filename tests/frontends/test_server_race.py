"""Races through Starlette's test client: entrants play as in process, winners, the secret kept to the end,
the shared cap and expiry, every bad request's status and one-line message; and ``/api/options``."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from mm_logic.engines import BACKENDS
from mm_logic.feedback import rule_of
from mm_logic.notation import format_code
from mm_logic.randomness import random_code
from mm_logic.rules import Rules
from mm_logic.server import race as race_module
from mm_logic.server.race import Race
from mm_logic.strategies import STRATEGIES

from conftest import api_error, played

RULES = {"pegs": 4, "colors": 6}
ENTRANTS = [{"backend": "python", "strategy": "minimax"}, {"backend": "python", "strategy": "first"},
            {"backend": "clingo", "strategy": "first"}]


def new_race(client, entrants=ENTRANTS, **request):
    response = client.post("/api/races", json={"rules": RULES, "entrants": entrants, **request})
    assert response.status_code == 201, response.text
    return response.json()


def run_to_the_end(client, race: dict) -> tuple[dict, list[str]]:
    """Step until over; the last state and every answer's text."""
    texts = [json.dumps(race)]
    state = race
    while not state["over"]:
        response = client.post(f"/api/races/{race['id']}/step")
        assert response.status_code == 200, response.text
        state = response.json()
        texts.append(response.text)
        texts.append(client.get(f"/api/races/{race['id']}").text)
    return state, texts


CLASSIC = Rules(4, 6)


def in_process(backend: str, strategy: str, secret: str, rules: Rules = CLASSIC, first_guess=None) -> list[dict]:
    """The history ``play`` gives in process, as the API writes it."""
    return [{"guess": format_code(g, rules), "black": b, "white": w}
            for g, (b, w) in played(backend, strategy, secret, rules, first_guess)]


def test_a_new_race_shows_its_entrants_and_no_secret(client):
    race = new_race(client, secret="0123")
    assert set(race) == {"id", "rules", "alphabet", "entrants", "over", "winners"}
    assert {k: v for k, v in race.items() if k != "id"} == {
        "rules": {"pegs": 4, "colors": 6, "max_repeat": None, "feedback": "standard"}, "alphabet": "012345",
        "over": False, "winners": [],
        "entrants": [{**e, "history": [], "attempts": 0, "seconds": 0.0, "won": False, "stopped": None}
                     for e in ENTRANTS]}
    assert client.get(f"/api/races/{race['id']}").json() == race


def test_entrants_play_as_in_process_and_the_first_to_win_ends_the_race(client):
    race = new_race(client, secret="0123")
    state, texts = run_to_the_end(client, race)
    # In process minimax wins in 3, the two firsts in 4: the race ends after the third step.
    expected = [in_process(e["backend"], e["strategy"], "0123")[:3] for e in ENTRANTS]
    assert [e["history"] for e in state["entrants"]] == expected
    assert [(e["attempts"], e["won"], e["stopped"]) for e in state["entrants"]] == [
        (3, True, None), (3, False, "another entrant found the secret first"),
        (3, False, "another entrant found the secret first")]
    assert all(e["seconds"] > 0 for e in state["entrants"])
    assert (state["over"], state["winners"], state["secret"]) == (True, [0], "0123")
    # Before the last step nobody could read the secret, nor a winner.
    assert all('"secret"' not in text for text in texts[:-2])
    assert all(json.loads(text)["winners"] == [] for text in texts[:-2])


def test_no_winning_entry_is_shown_while_the_race_is_on(client):
    # A 4,0 entry is the secret: the state that shows one is the race's last (it was shown with over false).
    race = new_race(client, secret="0123")
    url = f"/api/races/{race['id']}"
    for _ in range(10):
        state = client.post(f"{url}/step").json()
        won = [e["won"] for e in state["entrants"]]
        assert any(won) == state["over"] == client.get(url).json()["over"]
        if state["over"]:
            break
    assert won == [True, False, False]
    assert state["entrants"][0]["history"][-1] == {"guess": "0123", "black": 4, "white": 0}


def test_every_step_is_one_turn_of_each_entrant_still_running(client, monkeypatch):
    from mm_logic.game import Game
    from mm_logic.support.errors import SolverTimeout

    real = Game.play_turn

    def second_fails(game):  # entrant 2 stops at its second turn; the others play on
        if game.strategy.name == "first" and game.engine.name == "python" and len(game.history) == 1:
            raise SolverTimeout("no answer within --time-limit 10 s")
        return real(game)
    monkeypatch.setattr(Game, "play_turn", second_fails)
    race = new_race(client, secret="0123")
    url = f"/api/races/{race['id']}/step"
    attempts = [[e["attempts"] for e in client.post(url).json()["entrants"]] for _ in range(3)]
    assert attempts == [[1, 1, 1], [2, 1, 2], [3, 1, 3]]
    api_error(client.post(url), 409, f"race {race['id']} is over")


def test_a_random_secret_from_the_seed_and_a_first_guess_for_every_entrant(client):
    entrants = [{"backend": "python", "strategy": "minimax"}, {"backend": "python", "strategy": "entropy"}]
    race = new_race(client, entrants, seed=4, first_guess="0123")
    state, texts = run_to_the_end(client, race)
    secret = state["secret"]
    assert all(secret not in text for text in texts[:-2])
    assert secret == format_code(random_code(CLASSIC, np.random.default_rng(4)), CLASSIC)  # as games draw it
    turns = max(e["attempts"] for e in state["entrants"])
    assert [e["history"] for e in state["entrants"]] == [in_process(e["backend"], e["strategy"], secret,
                                                                    first_guess="0123")[:turns] for e in entrants]
    assert all(e["history"][0]["guess"] == "0123" for e in state["entrants"])
    assert any(e["history"][-1] == {"guess": secret, "black": 4, "white": 0} for e in state["entrants"])


def test_defaults_and_other_rules(client):
    # An entrant without fields is clingo / minimax, the games' defaults.
    race = new_race(client, [{}, {"backend": "python", "strategy": "first"}],
                    rules={"pegs": 3, "colors": 5, "no_repeat": True, "alphabet": "abcdefg"}, secret="cab")
    assert race["alphabet"] == "abcde" and race["rules"] == {"pegs": 3, "colors": 5, "max_repeat": 1,
                                                                "feedback": "standard"}
    state, _ = run_to_the_end(client, race)
    rules = Rules(3, 5, 1, "abcdefg")
    assert [(e["backend"], e["strategy"]) for e in state["entrants"]] == [("clingo", "minimax"), ("python", "first")]
    turns = max(e["attempts"] for e in state["entrants"])
    assert [e["history"] for e in state["entrants"]] == [in_process("clingo", "minimax", "cab", rules)[:turns],
                                                         in_process("python", "first", "cab", rules)[:turns]]


def test_a_game_that_makes_no_progress_stops_and_the_race_ends(client, monkeypatch):
    # With a limit of 2 guesses, minimax (3 guesses on 0123) and `first` (4) are stopped.
    monkeypatch.setattr(race_module, "attempts_limit", lambda rules: 2)
    race = new_race(client, ENTRANTS[:2], secret="0123")
    state, _ = run_to_the_end(client, race)
    assert [(e["attempts"], e["won"], e["stopped"]) for e in state["entrants"]] == [
        (2, False, "no win after 2 guesses; the strategy is not making progress")] * 2
    assert (state["over"], state["winners"], state["secret"]) == (True, [], "0123")


def test_an_engine_error_stops_that_entrant_only(client, monkeypatch):
    from mm_logic.game import Game
    from mm_logic.support.errors import SolverTimeout

    real = Game.play_turn

    def slow_first(game):
        if game.strategy.name == "first":
            raise SolverTimeout("the clingo solver gave no answer within --time-limit 10 s")
        return real(game)
    monkeypatch.setattr(Game, "play_turn", slow_first)
    state, _ = run_to_the_end(client, new_race(client, ENTRANTS[:2], secret="0123"))
    assert [(e["attempts"], e["won"], e["stopped"]) for e in state["entrants"]] == [
        (3, True, None), (0, False, "the clingo solver gave no answer within --time-limit 10 s")]
    assert state["winners"] == [0]


def test_no_winner_when_nobody_won(client, monkeypatch):
    monkeypatch.setattr(race_module, "attempts_limit", lambda rules: 1)
    state, _ = run_to_the_end(client, new_race(client, ENTRANTS[:2], secret="5432"))
    assert [(e["attempts"], e["won"]) for e in state["entrants"]] == [(1, False), (1, False)]
    assert (state["over"], state["winners"], state["secret"]) == (True, [], "5432")


@pytest.mark.parametrize("results, winners", [
    ([(3, 0.5, True), (3, 0.2, True), (2, 0.9, False)], [1]),     # same attempts: the least time
    ([(4, 0.1, True), (3, 0.9, True)], [1]),                      # fewer attempts beat time
    ([(3, 0.25, True), (3, 0.25, True), (3, 0.1, False)], [0, 1]),  # a tie in both: both win
    ([(5, 0.1, False)], []),
])
def test_winners_are_the_fewest_attempts_then_the_least_time(results, winners):
    states = [{"attempts": a, "seconds": s, "won": w} for a, s, w in results]
    assert Race.winners(states) == winners


def test_races_and_games_share_the_cap(client):
    for _ in range(3):
        assert client.post("/api/games", json={"rules": RULES, "backend": "python"}).status_code == 201
    new_race(client)
    new_race(client)
    message = "the server holds its maximum of 5 games and races; try again later"
    api_error(client.post("/api/races", json={"rules": RULES, "entrants": ENTRANTS}), 429, message)
    api_error(client.post("/api/games", json={"rules": RULES, "backend": "python"}), 429, message)


def test_idle_races_expire_and_free_their_place(client, store):
    races = [new_race(client) for _ in range(5)]
    assert len(store) == 5
    assert store.expire(now=time.monotonic() + 61) == 5
    assert len(store) == 0
    for path in ("", "/step"):
        method = client.post if path else client.get
        api_error(method(f"/api/races/{races[0]['id']}{path}"), 404,
                  f"no race '{races[0]['id']}' (races are forgotten after 60 s unused)")
    new_race(client)


@pytest.mark.parametrize("body, message", [
    ({"entrants": []}, 'entrants must be a list of 1 to 8 objects such as {"backend": "python", "strategy": '
                       '"minimax"}'),
    ({"entrants": [{}] * 9}, 'entrants must be a list of 1 to 8 objects such as {"backend": "python", '
                             '"strategy": "minimax"}'),
    ({"entrants": {"backend": "python"}}, 'entrants must be a list of 1 to 8 objects such as {"backend": '
                                          '"python", "strategy": "minimax"}'),
    ({}, 'entrants must be a list of 1 to 8 objects such as {"backend": "python", "strategy": "minimax"}'),
    ({"entrants": [{}, "python"]}, 'entrant 2 must be an object such as {"backend": "python", "strategy": '
                                   '"minimax"}'),
    ({"entrants": [{"backend": "python", "color": 1}]}, "entrant 1: unknown field 'color'"),
    ({"entrants": [{"backend": 3}]}, "entrant 1: backend must be a string"),
    ({"entrants": [{}, {"strategy": None}]}, "entrant 2: strategy must be a string"),
    ({"entrants": [{"backend": "prolog"}]},
     "entrant 1: unknown backend 'prolog'; choose from clingo, swipl, python, a1, a2, a3, a4, a5"),
    ({"entrants": [{}, {"strategy": "best"}]},
     "entrant 2: unknown strategy 'best'; choose from first, any, random, any-random-opening, minimax, expected, "
     "entropy, parts, weighted-entropy, weighted-entropy-stages, human1, human2, human3, ga001-random, "
     "ga001-similar, ga001-dissimilar, ga001-reduction, ga004, sample-entropy"),
    ({"rules": {"pegs": 10, "colors": 10}, "entrants": [{"backend": "clingo", "strategy": "first"},
                                                        {"backend": "python", "strategy": "first"}]},
     "entrant 2: 10x10 has 10,000,000,000 codes, more than the python engine enumerates (20,000,000); "
     "use backend clingo"),
    ({"rules": {"pegs": 0}, "entrants": [{}]}, "rules.pegs must be between 1 and 64, got 0"),
    ({"rules": {"pegs": "4"}, "entrants": [{}]}, "rules field 'pegs' must be an integer"),
    ({"rules": 7, "entrants": [{}]}, 'rules must be a JSON object, e.g. {"pegs": 4, "colors": 6}'),
    ({"role": "codebreaker", "entrants": [{}]}, "unknown field 'role'"),
    ({"seed": -1, "entrants": [{}]}, "seed must be an integer >= 0"),
    ({"secret": "01234", "entrants": [{}]}, "code '01234' has 5 pegs, expected 4"),
    ({"secret": 123, "entrants": [{}]}, 'a code must be a string, e.g. "0123"'),
    ({"first_guess": "0a12", "entrants": [{}]},
     "first_guess: symbol 'a' in code '0a12' is not one of the 6 colours 012345"),
    # A first_guess given is a code: 0 and "" were taken for "none".
    ({"first_guess": 0, "entrants": [{}]}, 'first_guess: a code must be a string, e.g. "0123"'),
    ({"first_guess": "", "entrants": [{}]}, "first_guess: code '' has 0 pegs, expected 4"),
    ({"entrants": [{"strategy": "s" * 100_000}]},
     f"entrant 1: unknown strategy {'s' * 40!r}... (100,000 characters); choose from first, any, random, "
     "any-random-opening, minimax, expected, entropy, parts, weighted-entropy, weighted-entropy-stages, human1, "
     "human2, human3, ga001-random, ga001-similar, ga001-dissimilar, ga001-reduction, ga004, sample-entropy"),
])
def test_bad_new_races(client, store, body, message):
    api_error(client.post("/api/races", json=body), 400, message)
    assert len(store) == 0


def test_a_probing_strategy_races_under_no_repeat_as_in_process(client):
    # The server scores the probes (0000 under no_repeat) itself, as `solve` does: they are not refused.
    rules = Rules(4, 6, 1)
    race = new_race(client, [{"backend": "python", "strategy": "human2"}, {"backend": "python", "strategy": "first"}],
                    rules={"pegs": 4, "colors": 6, "no_repeat": True}, secret="0245")
    state, _ = run_to_the_end(client, race)
    assert [e["history"] for e in state["entrants"]] == [in_process("python", s, "0245", rules)[:2]
                                                         for s in ("human2", "first")]
    assert [e["guess"] for e in state["entrants"][0]["history"]] == ["0000", "0111"]
    assert [(e["won"], e["stopped"]) for e in state["entrants"]] == [
        (False, "another entrant found the secret first"), (True, None)]


def test_a_race_forgotten_to_make_room_is_named_so(client):
    race, _ = run_to_the_end(client, new_race(client, secret="0123"))
    for _ in range(4):
        assert client.post("/api/games", json={"rules": RULES, "backend": "python"}).status_code == 201
    assert client.post("/api/games", json={"rules": RULES, "backend": "python"}).status_code == 201  # room made
    api_error(client.get(f"/api/races/{race['id']}"), 404,
              f"no race '{race['id']}' (it was over, and forgotten to make room for new games)")


def test_bad_requests_of_any_kind(client):
    race = new_race(client)
    url = f"/api/races/{race['id']}"
    api_error(client.post("/api/races", content=b"{not json", headers={"content-type": "application/json"}), 400,
              "the request body is not JSON")
    api_error(client.post("/api/races", json=[1]), 400, "the request body must be a JSON object")
    api_error(client.get("/api/races/nope"), 404, "no race 'nope' (races are forgotten after 60 s unused)")
    api_error(client.post("/api/races/nope/step"), 404, "no race 'nope' (races are forgotten after 60 s unused)")
    api_error(client.get("/api/races"), 405, "GET is not allowed on /api/races")
    api_error(client.delete(url), 405, f"DELETE is not allowed on {url}")
    api_error(client.get(f"{url}/step"), 405, f"GET is not allowed on {url}/step")
    # A race is no game, and a game no race.
    api_error(client.get(f"/api/games/{race['id']}"), 404,
              f"no game '{race['id']}' (games are forgotten after 60 s unused)")


def test_options_name_the_backends_and_strategies(client):
    # The black and positional rules: the engines that state them, the strategies that ask the engine, the
    # scorers and sample-entropy (the human-like and genetic strategies reason on black and white).
    engines_only = {"backends": ["clingo", "swipl", "python"],
                    "strategies": ["first", "any", "random", "any-random-opening", "minimax", "expected", "entropy",
                                   "parts", "sample-entropy"]}
    assert client.get("/api/options").json() == {
        "backends": list(BACKENDS), "default_backend": "clingo", "strategies": list(STRATEGIES),
        "default_strategy": "minimax", "max_entrants": 8, "max_batch": 1000,
        # What plays each feedback rule: the page offers those (a1..a5 play black and white only).
        "feedback_rules": {"standard": {"backends": list(BACKENDS), "strategies": list(STRATEGIES)},
                           "black": engines_only, "positional": engines_only},
        "variants": []}  # none without serve --encoding (test_server_variant.py)
    api_error(client.post("/api/options"), 405, "POST is not allowed on /api/options")


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"] == "text/html; charset=utf-8"
    assert '<script type="module" src="/static/main.js"></script>' in page.text
    assert '<link rel="stylesheet" href="/static/style.css">' in page.text
    assert "http" not in page.text.replace("http-equiv", "")  # nothing from the network
    for name, kind in (("main.js", "text/javascript"), ("style.css", "text/css")):
        response = client.get(f"/static/{name}")
        assert (response.status_code, response.headers["content-type"].split(";")[0]) == (200, kind)
    api_error(client.get("/static/nothing.js"), 404, "no route /static/nothing.js")
    api_error(client.post("/"), 405, "POST is not allowed on /")


@pytest.mark.parametrize("rule", ["black", "positional"])
def test_a_race_in_each_feedback_rule_plays_as_in_process(client, rule):
    # An entrant without a strategy plays minimax, the default, which plays every built-in rule.
    entrants = [{"backend": "python", "strategy": "first"}, {"backend": "swipl", "strategy": "any"}, {}]
    race = new_race(client, entrants, rules={**RULES, "feedback": rule}, secret="2540")
    assert race["rules"] == {"pegs": 4, "colors": 6, "max_repeat": None, "feedback": rule}
    assert [(e["backend"], e["strategy"]) for e in race["entrants"]] == [("python", "first"), ("swipl", "any"),
                                                                         ("clingo", "minimax")]
    state, texts = run_to_the_end(client, race)
    rules = Rules(4, 6, feedback=rule)
    histories = [[{"guess": format_code(g, rules), **rule_of(rules).as_json(fb)}
                  for g, fb in played(e["backend"], e["strategy"], "2540", rules)]
                 for e in state["entrants"]]
    turns = max(e["attempts"] for e in state["entrants"])
    assert [e["history"] for e in state["entrants"]] == [h[:turns] for h in histories]
    won = {"black": {"guess": "2540", "black": 4}, "positional": {"guess": "2540", "marks": "xxxx"}}[rule]
    assert [e["history"][-1] == won for e in state["entrants"]] == [e["won"] for e in state["entrants"]]
    assert state["over"] and state["secret"] == "2540" and state["winners"]
    assert all('"secret"' not in text for text in texts[:-2])


def test_the_first_three_positional_steps_exactly(client):
    race = new_race(client, [{"backend": "python", "strategy": "first"}], rules={**RULES, "feedback": "positional"},
                    secret="1230")
    for _ in range(3):
        state = client.post(f"/api/races/{race['id']}/step").json()
    # 0000: the only 0 is the last peg; 1110: the only 1 is the first; 1220: a 2 second, not third.
    assert state["entrants"][0]["history"] == [{"guess": "0000", "marks": "---x"}, {"guess": "1110", "marks": "x--x"},
                                               {"guess": "1220", "marks": "xx-x"}]


@pytest.mark.parametrize("body, message", [
    ({"rules": {"feedback": "wordle"}, "entrants": [{}]},
     "unknown feedback rule 'wordle'; choose from standard, black, positional"),
    ({"rules": {"feedback": "black"}, "entrants": [{"backend": "python", "strategy": "first"},
                                                   {"backend": "python", "strategy": "human3"}]},
     "entrant 2: strategy human3 plays the standard feedback rule only; with rules.feedback black use strategy "
     "first, any, random, any-random-opening, minimax, expected, entropy, parts or sample-entropy"),
])
def test_bad_races_in_the_feedback_rules(client, store, body, message):
    api_error(client.post("/api/races", json=body), 400, message)
    assert len(store) == 0
