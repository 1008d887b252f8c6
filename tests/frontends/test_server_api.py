"""The codemaker server's API through Starlette's test client: every endpoint, every bad
request's status and one-line message, the cap, expiry, and the secret kept until the end."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from mm_logic.engines.reference import ReferenceEngine
from mm_logic.feedback import feedback, score
from mm_logic.game import play
from mm_logic.notation import format_code, format_feedback, parse_code, shown
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy

from conftest import api_error, played

RULES = {"pegs": 4, "colors": 6}
#: A body the API reads is sent as JSON (the test client's json= says so itself).
JSON = {"content-type": "application/json"}


def new_game(client, **request):
    response = client.post("/api/games", json={"rules": RULES, "backend": "python", **request})
    assert response.status_code == 201, response.text
    return response.json()


def test_create_returns_the_state_without_the_secret(client):
    game = new_game(client, secret="0123", strategy="first")
    assert set(game) == {"id", "role", "rules", "alphabet", "backend", "strategy", "history", "attempts", "won",
                         "over"}
    assert {k: v for k, v in game.items() if k != "id"} == {
        "role": "codebreaker", "rules": {"pegs": 4, "colors": 6, "max_repeat": None, "feedback": "standard"},
        "alphabet": "012345", "backend": "python", "strategy": "first", "history": [], "attempts": 0, "won": False,
        "over": False}
    assert client.get(f"/api/games/{game['id']}").json() == game


def test_a_codebreaker_game_to_the_end(client):
    game = new_game(client, secret="0123")
    url = f"/api/games/{game['id']}"
    replies = []
    for guess in ("0011", "1203", "0123"):
        response = client.post(f"{url}/guesses", json={"guess": guess})
        assert response.status_code == 200
        replies.append(response.json())
    assert replies == [
        {"guess": "0011", "black": 1, "white": 1, "won": False, "attempts": 1},
        {"guess": "1203", "black": 1, "white": 3, "won": False, "attempts": 2},
        {"guess": "0123", "black": 4, "white": 0, "won": True, "attempts": 3, "secret": "0123"}]
    state = client.get(url).json()
    assert (state["over"], state["won"], state["secret"], len(state["history"])) == (True, True, "0123", 3)
    api_error(client.post(f"{url}/guesses", json={"guess": "0123"}), 409, f"game {game['id']} is over")


def test_an_authors_name_is_the_strategy_it_names(client):
    game = new_game(client, secret="0011", strategy="Neuwirth")
    assert game["strategy"] == "entropy"
    # Neuwirth's entropy opens 0123 on 4x6, where Knuth's minimax opens 0011.
    assert client.get(f"/api/games/{game['id']}/next").json()["guess"] == "0123"
    knuth = new_game(client, secret="0011", strategy="knuth")
    assert (knuth["strategy"], client.get(f"/api/games/{knuth['id']}/next").json()["guess"]) == ("minimax", "0011")


def test_the_secret_is_in_no_response_before_the_end(client):
    game = new_game(client, seed=7)
    url = f"/api/games/{game['id']}"
    texts = [json.dumps(game)]
    while True:
        hint = client.get(f"{url}/next").json()
        texts.append(json.dumps(hint))
        reply = client.post(f"{url}/guesses", json={"guess": hint["guess"]}).json()
        if reply["won"]:
            break
        texts.append(json.dumps(reply))
        texts.append(client.get(url).text)
    assert all('"secret"' not in text for text in texts)
    assert reply["secret"] == hint["guess"]


def test_server_hints_play_as_in_process(client):
    # Knuth against 1234 through the API takes the attempts `play` takes in process.
    rules = Rules(4, 6)
    expected = play(ReferenceEngine(rules), make_strategy("minimax", rules), (1, 2, 3, 4))
    game = new_game(client, secret="1234", strategy="minimax")
    url = f"/api/games/{game['id']}"
    guesses = []
    while True:
        guess = client.get(f"{url}/next").json()["guess"]
        guesses.append(guess)
        if client.post(f"{url}/guesses", json={"guess": guess}).json()["won"]:
            break
    assert guesses == [format_code(g, rules) for g, _ in expected.guesses]


def test_a_codemaker_game_with_a_wrong_answer_and_undo(client):
    game = new_game(client, role="codemaker", strategy="minimax")
    url = f"/api/games/{game['id']}"
    secret = parse_code("1234", Rules())

    def answer(guess, fb=None):
        black, white = fb or feedback(parse_code(guess, Rules()), secret)
        return client.post(f"{url}/feedback", json={"black": black, "white": white})

    assert client.get(f"{url}/next").json() == {"guess": "0011", "consistent": 1296}
    assert answer("0011").json()["history"] == [{"guess": "0011", "black": 0, "white": 1}]
    assert client.get(f"{url}/next").json() == {"guess": "1233", "consistent": 256}
    assert answer("1233", (2, 0)).status_code == 200                 # wrong: 1234 gives 3,0
    assert client.get(f"{url}/next").json()["guess"] == "0434"
    assert answer("0434").status_code == 200
    assert client.get(f"{url}/next").json()["guess"] == "1435"
    api_error(answer("1435"), 409, "no code is consistent with the history: entries 1, 2, 3, 4 (0011:0,1 1233:2,0 "
                                   "0434:2,0 1435:2,1) contradict each other; send the right answer for 1435, "
                                   "or undo")
    assert [e["guess"] for e in client.post(f"{url}/undo").json()["history"]] == ["0011", "1233"]
    assert [e["guess"] for e in client.post(f"{url}/undo").json()["history"]] == ["0011"]
    while True:
        guess = client.get(f"{url}/next").json()["guess"]
        state = answer(guess).json()
        if state["won"]:
            break
    assert [e["guess"] for e in state["history"]] == ["0011", "1233", "0224", "1223", "1234"]
    assert state["over"] is True and "secret" not in state  # the server never knew it


def test_diagnose_says_what_an_answer_would_make_of_the_answers_so_far(client):
    # As the test above: 1233 answered 2,0 (1234 gives 3,0), then 0434 and 1435 right; 1435's answer 2,1
    # is refused, and the diagnosis names the wrong answer and its fix.
    game = new_game(client, role="codemaker", strategy="minimax")
    url = f"/api/games/{game['id']}"
    for guess, (black, white) in [("0011", (0, 1)), ("1233", (2, 0)), ("0434", (2, 0))]:
        assert client.get(f"{url}/next").json()["guess"] == guess
        assert client.post(f"{url}/feedback", json={"black": black, "white": white}).status_code == 200
    assert client.get(f"{url}/next").json()["guess"] == "1435"
    found = client.post(f"{url}/diagnose", json={"black": 2, "white": 1})
    assert found.status_code == 200
    assert found.json()["fewest_wrong"] == 1 and {"entry": 2, "feedback": "3,0"} in sum(found.json()["sets"], [])
    assert found.json()["text"].startswith("1 answer must be wrong (no code fits them all): ")
    assert len(client.get(url).json()["history"]) == 3  # nothing recorded
    consistent = client.post(f"{url}/diagnose", json={"guess": "1435", "black": 2, "white": 2}).json()
    assert consistent == {"fewest_wrong": 0, "complete": True, "sets": [],
                          "text": "no answer is wrong: some code fits them all"}
    api_error(client.post(f"{url}/diagnose", json={"guess": "0000", "black": 1, "white": 0}), 409,
              "the computer's guess is 1435, not 0000")
    api_error(client.post(f"{url}/diagnose", json={"black": 5, "white": 0}), 400,
              "feedback 5,0: black + white exceeds the 4 pegs")
    breaker = new_game(client)
    api_error(client.post(f"/api/games/{breaker['id']}/diagnose", json={"black": 0, "white": 0}), 409,
              f"game {breaker['id']} is a codebreaker game: this request is for a codemaker game")


@pytest.mark.parametrize("body, status, message", [
    ({"black": 5, "white": 0}, 400, "feedback 5,0: black + white exceeds the 4 pegs"),
    ({"black": 3, "white": 1}, 400, "feedback 3,1 cannot occur: with 3 pegs right the last one cannot be a "
                                    "misplaced colour"),
    ({"black": "1", "white": 0}, 400, "black and white must be integers"),
    ({"black": 1}, 400, 'the body must be {"black": B, "white": W}, optionally with "guess"'),
    ({"black": 0, "white": 1, "guess": "0012"}, 409, "the computer's guess is 0011, not 0012"),
])
def test_bad_answers(client, body, status, message):
    game = new_game(client, role="codemaker", strategy="minimax")
    api_error(client.post(f"/api/games/{game['id']}/feedback", json=body), status, message)


@pytest.mark.parametrize("request_body, status, message", [
    ({"rules": {"pegs": 0}}, 400, "rules.pegs must be between 1 and 64, got 0"),
    ({"rules": {"pegs": "4"}}, 400, "rules field 'pegs' must be an integer"),
    # The CLI's limits hold here too: such a game is refused, not built (it would hang the server).
    ({"rules": {"pegs": 65, "colors": 2}}, 400, "rules.pegs must be between 1 and 64, got 65"),
    ({"rules": {"pegs": 4, "colors": 100_000_000}}, 400, "rules.colors must be between 1 and 255, got 100000000"),
    ({"rules": 5}, 400, 'rules must be a JSON object, e.g. {"pegs": 4, "colors": 6}'),
    ({"rules": True}, 400, 'rules must be a JSON object, e.g. {"pegs": 4, "colors": 6}'),
    ({"rules": "abc"}, 400, 'rules must be a JSON object, e.g. {"pegs": 4, "colors": 6}'),
    ({"rules": [1, 2]}, 400, 'rules must be a JSON object, e.g. {"pegs": 4, "colors": 6}'),
    ({"rules": 0}, 400, 'rules must be a JSON object, e.g. {"pegs": 4, "colors": 6}'),
    ({"rules": {"pegs": 4, "size": 3}}, 400, "unknown rules field 'size'"),
    ({"role": "spectator"}, 400, "unknown role 'spectator'; choose from codebreaker, codemaker"),
    ({"color": 3}, 400, "unknown field 'color'"),
    ({"seed": -1}, 400, "seed must be an integer >= 0"),
    ({"backend": "prolog"}, 400, "unknown backend 'prolog'; choose from clingo, swipl, python, a1, a2, a3, a4, a5"),
    ({"strategy": "best"}, 400, "unknown strategy 'best'; choose from first, any, random, any-random-opening, "
                                "minimax, expected, entropy, parts, weighted-entropy, weighted-entropy-stages, "
                                "human1, human2, human3, ga001-random, ga001-similar, ga001-dissimilar, "
                                "ga001-reduction, ga004, sample-entropy"),
    ({"rules": {"pegs": 10, "colors": 10}, "strategy": "first", "backend": "python"}, 400,
     "10x10 has 10,000,000,000 codes, more than the python engine enumerates (20,000,000); use backend clingo"),
    ({"secret": "01234"}, 400, "code '01234' has 5 pegs, expected 4"),
    ({"secret": 123}, 400, 'a code must be a string, e.g. "0123"'),
    ({"first_guess": ["0", "0"]}, 400, 'first_guess: a code must be a string, e.g. "0123"'),
    # A first_guess given is a code: 0 and "" were taken for "none" (the opening played instead).
    ({"first_guess": 0}, 400, 'first_guess: a code must be a string, e.g. "0123"'),
    ({"first_guess": ""}, 400, "first_guess: code '' has 0 pegs, expected 4"),
    # Names are strings: 5 was named as the unknown backend '5', null as the unknown role None.
    ({"backend": 5}, 400, "backend must be a string"),
    ({"strategy": ["minimax"]}, 400, "strategy must be a string"),
    ({"role": None}, 400, "role must be a string"),
    ({"backend": "b" * 100_000}, 400, f"unknown backend {'b' * 40!r}... (100,000 characters); choose from clingo, "
                                      "swipl, python, a1, a2, a3, a4, a5"),
    ({"role": "r" * 100_000}, 400, f"unknown role {'r' * 40!r}... (100,000 characters); choose from codebreaker, "
                                   "codemaker"),
    # human1..3 probe with 0000 and the like; the server, as codemaker, refuses such guesses.
    ({"rules": {"pegs": 4, "colors": 6, "no_repeat": True}, "strategy": "human1"}, 400,
     "strategy human1 probes with codes that repeat colours beyond rules.no_repeat, which a codebreaker game refuses "
     "as guesses: its hints could not be played; choose another strategy"),
    ({"rules": {"pegs": 4, "colors": 6, "max_repeat": 2}, "strategy": "human3", "role": "codebreaker"}, 400,
     "strategy human3 probes with codes that repeat colours beyond rules.max_repeat 2, which a codebreaker game "
     "refuses as guesses: its hints could not be played; choose another strategy"),
    ({"role": "codemaker", "secret": "0123"}, 400,
     "secret applies to role codebreaker: as codemaker you keep the code in mind"),
    # The web page's rules chooser sends max_repeat and alphabet; the server checks them as the command line does.
    ({"rules": {"pegs": 4, "colors": 6, "max_repeat": 0}}, 400, "rules.max_repeat must be at least 1, got 0"),
    ({"rules": {"pegs": 4, "colors": 6, "max_repeat": "2"}}, 400, "rules field 'max_repeat' must be an integer"),
    ({"rules": {"pegs": 4, "colors": 6, "no_repeat": True, "max_repeat": 2}}, 400,
     "rules.no_repeat contradicts rules.max_repeat 2"),
    ({"rules": {"pegs": 4, "colors": 6, "alphabet": "AAB"}}, 400,
     "rules.alphabet must list distinct symbols, without ',', ':' or spaces"),
    ({"rules": {"pegs": 4, "colors": 6, "alphabet": 5}}, 400, "rules field 'alphabet' must be str"),
])
def test_bad_new_games(client, store, request_body, status, message):
    api_error(client.post("/api/games", json=request_body), status, message)
    assert len(store) == 0


def test_an_unknown_backend_is_bad_input_even_on_a_full_server(client):
    for _ in range(5):
        new_game(client)
    api_error(client.post("/api/games", json={"backend": "prolog"}), 400,
              "unknown backend 'prolog'; choose from clingo, swipl, python, a1, a2, a3, a4, a5")


def test_a_first_guess_opens_the_hints(client):
    game = new_game(client, secret="5432", first_guess="0123")
    assert client.get(f"/api/games/{game['id']}/next").json() == {"guess": "0123", "consistent": 1296}
    # null is no first guess, as a null secret is no secret: minimax opens with 0011.
    game = new_game(client, secret="5432", first_guess=None)
    assert client.get(f"/api/games/{game['id']}/next").json() == {"guess": "0011", "consistent": 1296}


def test_a_strategy_whose_plan_the_history_left_refuses_the_next_guess_with_409(client):
    # Found by the fuzzing (tests/frontends/test_server_openapi.py): human1 plays its own sequence of probes, so it
    # has no next guess after a guess of the client's or another opening; that was a 400, which GET .../next (a
    # request without a body) never answers by the document. The game's state refuses it: 409, in the same words
    # (naming the request's field, strategy, not --strategy).
    message = "strategy human1 plays its own sequence of probes: history entry 1 (0123) is not its guess (0000)"
    game = new_game(client, strategy="human1", secret="5432")
    url = f"/api/games/{game['id']}"
    assert client.post(f"{url}/guesses", json={"guess": "0123"}).status_code == 200
    api_error(client.get(f"{url}/next"), 409, message)
    # As codemaker with a first_guess: the opening is played, then the plan cannot go on, for the next guess
    # as for an answer sent without asking for it.
    game = new_game(client, strategy="human1", role="codemaker", first_guess="0123")
    url = f"/api/games/{game['id']}"
    assert client.get(f"{url}/next").json()["guess"] == "0123"
    assert client.post(f"{url}/feedback", json={"black": 0, "white": 1}).status_code == 200
    api_error(client.get(f"{url}/next"), 409, message)
    api_error(client.post(f"{url}/feedback", json={"black": 0, "white": 0}), 409, message)


def test_a_probing_strategy_plays_where_its_probes_are_not_refused(client):
    # As codemaker the client answers any guess, 0000 too, as `solve` does in process.
    game = new_game(client, rules={"pegs": 4, "colors": 6, "no_repeat": True}, role="codemaker", strategy="human2")
    url = f"/api/games/{game['id']}"
    rules, secret = Rules(4, 6, 1), (0, 1, 2, 3)
    while True:
        guess = client.get(f"{url}/next").json()["guess"]
        black, white = feedback(parse_code(guess, rules, check_repeat=False), secret)
        state = client.post(f"{url}/feedback", json={"black": black, "white": white}).json()
        if state["won"]:
            break
    assert [e["guess"] for e in state["history"]] == ["0000", "0111", "0122", "0123"]
    # Without a repetition rule its probes are codes like any other: the hint is played.
    game = new_game(client, strategy="human1", secret="0123")
    url = f"/api/games/{game['id']}"
    assert client.get(f"{url}/next").json() == {"guess": "0000", "consistent": 1296}
    assert client.post(f"{url}/guesses", json={"guess": "0000"}).json() == {
        "guess": "0000", "black": 1, "white": 0, "won": False, "attempts": 1}


@pytest.mark.parametrize("path", ["/api/games/", "/api/options/", "/api/races/", "/api/games/GAME/",
                                  "/api/games/GAME/next/", "/static/"])
def test_a_trailing_slash_is_no_route(client, path):
    # It was a 307 without a body to the path without the slash.
    path = path.replace("GAME", new_game(client)["id"])
    api_error(client.get(path, follow_redirects=False), 404, f"no route {path}")
    if path.startswith("/api/games/") and path.count("/") == 3:
        api_error(client.post(path, json={"rules": RULES}, follow_redirects=False), 404, f"no route {path}")


def test_long_paths_and_ids_are_quoted_by_their_start(client):
    # A 70 KB path came back whole in the error line.
    long = "x" * 10_000
    api_error(client.get(f"/api/games/{long}"), 404,
              f"no game {'x' * 40!r}... (10,000 characters) (games are forgotten after 60 s unused)")
    api_error(client.get(f"/api/games/{long}/next"), 404,
              f"no game {'x' * 40!r}... (10,000 characters) (games are forgotten after 60 s unused)")
    api_error(client.get(f"/{long}"), 404, f"no route /{'x' * 39}... (10,001 characters)")
    api_error(client.delete(f"/api/games/{long}"), 405,
              f"DELETE is not allowed on /api/games/{'x' * 29}... (10,011 characters)")
    # Up to 40 characters, whole.
    api_error(client.get(f"/{'y' * 39}"), 404, f"no route /{'y' * 39}")


def test_a_body_over_the_limit_is_refused_with_413(client):
    from mm_logic.server.api import MAX_BODY

    message = "the request body is over the limit of 1,048,576 bytes"
    assert MAX_BODY == 1_048_576
    body = json.dumps({"rules": RULES, "backend": "python", "x": " " * MAX_BODY}).encode()
    api_error(client.post("/api/games", content=body), 413, message)
    api_error(client.post("/api/races", content=body), 413, message)

    def chunks():  # no Content-Length: the body is counted as it comes
        for _ in range(40):
            yield b" " * 65_536
    api_error(client.post("/api/games", content=chunks()), 413, message)
    game = new_game(client)
    api_error(client.post(f"/api/games/{game['id']}/guesses", content=body), 413, message)
    # A body of the limit's size is read; one byte more is not.
    base = json.dumps({"rules": RULES, "backend": "python"}).encode()
    assert client.post("/api/games", content=base + b" " * (MAX_BODY - len(base)), headers=JSON).status_code == 201
    api_error(client.post("/api/games", content=base + b" " * (MAX_BODY - len(base) + 1), headers=JSON), 413, message)


def test_a_declared_length_over_the_limit_is_refused_before_the_body_is_read(store):
    import asyncio

    from mm_logic.server.api import create_app

    app, sent, read = create_app(store), [], []

    async def receive():
        read.append(1)
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/api/games", "raw_path": b"/api/games", "root_path": "", "query_string": b"",
             "headers": [(b"content-length", b"20000000"), (b"content-type", b"application/json")],
             "server": ("127.0.0.1", 18800), "client": ("127.0.0.1", 50000)}
    asyncio.run(app(scope, receive, send))
    assert (sent[0]["status"], json.loads(sent[1]["body"])) == (
        413, {"error": "the request body is over the limit of 1,048,576 bytes"})
    assert read == [] and len(store) == 0


def test_bad_requests_of_any_kind(client):
    game = new_game(client)
    url = f"/api/games/{game['id']}"
    api_error(client.post("/api/games", content=b"{not json", headers=JSON), 400, "the request body is not JSON")
    api_error(client.post("/api/games", json=[1, 2]), 400, "the request body must be a JSON object")
    api_error(client.get("/api/games/nope"), 404, "no game 'nope' (games are forgotten after 60 s unused)")
    api_error(client.get("/nowhere"), 404, "no route /nowhere")
    api_error(client.get("/static", follow_redirects=False), 404, "no route /static")
    api_error(client.delete(url), 405, f"DELETE is not allowed on {url}")
    api_error(client.post(f"{url}/guesses", json={"guess": "0012", "x": 1}), 400, 'the body must be {"guess": CODE}')
    api_error(client.post(f"{url}/guesses", json={"guess": 12}), 400, 'a code must be a string, e.g. "0123"')
    api_error(client.post(f"{url}/feedback", json={"black": 0, "white": 0}), 409,
              f"game {game['id']} is a codebreaker game: this request is for a codemaker game")
    api_error(client.post(f"{url}/undo"), 409, "nothing to undo")
    deep = b"[" * 100_000 + b"]" * 100_000  # deeper than the JSON decoder recurses
    api_error(client.post("/api/games", content=deep, headers=JSON), 400, "the request body is not JSON")
    api_error(client.post(f"{url}/guesses", content=deep, headers=JSON), 400, "the request body is not JSON")
    # A huge code is refused before it is read, and the error quotes its start only.
    api_error(client.post(f"{url}/guesses", json={"guess": "0" * 1_000_000}), 400,
              f"code {'0' * 40!r}... (1,000,000 characters) is too long for 4 pegs")


def test_a_won_game_cannot_be_undone(client):
    # The secret was shown: taking the winning guess back would let the game be won again.
    game = new_game(client, secret="0123")
    url = f"/api/games/{game['id']}"
    assert client.post(f"{url}/guesses", json={"guess": "0123"}).json()["won"] is True
    api_error(client.post(f"{url}/undo"), 409, f"game {game['id']} is over")
    state = client.get(url).json()
    assert (state["won"], state["over"], state["secret"], state["attempts"]) == (True, True, "0123", 1)


def test_resign_shows_the_secret_and_ends_the_game(client):
    game = new_game(client, secret="5500")
    url = f"/api/games/{game['id']}"
    state = client.post(f"{url}/resign").json()
    assert (state["over"], state["won"], state["secret"]) == (True, False, "5500")
    api_error(client.get(f"{url}/next"), 409, f"game {game['id']} is over")
    api_error(client.post(f"{url}/resign"), 409, f"game {game['id']} is over")


def test_the_cap_refuses_a_game_beyond_it(client):
    for _ in range(5):
        new_game(client)
    api_error(client.post("/api/games", json={"rules": RULES, "backend": "python"}), 429,
              "the server holds its maximum of 5 games and races; try again later")


def test_a_full_server_forgets_its_finished_games_first(client, store):
    games = [new_game(client, secret="0123") for _ in range(5)]
    client.post(f"/api/games/{games[3]['id']}/guesses", json={"guess": "0123"})  # won
    client.post(f"/api/games/{games[1]['id']}/resign")
    client.get(f"/api/games/{games[3]['id']}")  # the won game was used last: the resigned one goes first
    new_game(client)
    # Forgotten to make room, not for being idle: the message says so (it said "after 60 s unused").
    evicted = "(it was over, and forgotten to make room for new games)"
    api_error(client.get(f"/api/games/{games[1]['id']}"), 404, f"no game '{games[1]['id']}' {evicted}")
    api_error(client.post(f"/api/games/{games[1]['id']}/resign"), 404, f"no game '{games[1]['id']}' {evicted}")
    assert client.get(f"/api/games/{games[3]['id']}").json()["won"] is True
    new_game(client)
    api_error(client.get(f"/api/games/{games[3]['id']}"), 404, f"no game '{games[3]['id']}' {evicted}")
    assert len(store) == 5
    api_error(client.post("/api/games", json={"rules": RULES, "backend": "python"}), 429,
              "the server holds its maximum of 5 games and races; try again later")


def test_idle_games_expire_and_free_their_place(client, store):
    games = [new_game(client) for _ in range(5)]
    assert store.expire(now=time.monotonic() + 61) == 5
    api_error(client.get(f"/api/games/{games[0]['id']}"), 404,
              f"no game '{games[0]['id']}' (games are forgotten after 60 s unused)")
    assert new_game(client)["over"] is False


def test_serve_without_the_server_packages_says_how_to_install(run, monkeypatch, index_install):
    import builtins
    real = builtins.__import__

    def no_uvicorn(name, *args, **kwargs):
        if name == "uvicorn":
            raise ImportError(name)
        return real(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_uvicorn)
    result = run("serve")
    assert result.exit_code == 2
    assert result.stderr == "error: mmlogic serve needs Starlette and uvicorn: pip install 'mmlogic[serve]'\n"


def test_serve_without_the_extra_is_one_line_in_a_fresh_process():
    # Without Starlette, uvicorn and h11 importable at all (a process that never imported them): the
    # server's modules must not need them before the check (serve said "internal failure:
    # ModuleNotFoundError: No module named 'h11'", exit 1, after the README's first install).
    hide = ("import sys\n"
            "class Hidden:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] in ('uvicorn', 'starlette', 'h11'):\n"
            "            raise ImportError(name)\n"
            "sys.meta_path.insert(0, Hidden())\n"
            "from mm_logic.__main__ import main\n"
            "sys.argv = ['mmlogic', 'serve']\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("error: mmlogic serve needs Starlette and uvicorn: "), done.stderr
    assert done.stderr.count("\n") == 1


def test_an_extras_hint_is_the_command_that_works_where_the_user_is(run, monkeypatch, tmp_path):
    # From a checkout, 'mmlogic[serve]' asks an index for a package it may not hold: the hint said it anyway.
    import builtins
    import sys

    from mm_logic.support import errors

    checkout, elsewhere = tmp_path / "mmlogic", tmp_path / "elsewhere"
    (checkout / ".venv" / "bin").mkdir(parents=True)
    (checkout / "pyproject.toml").write_text('[project]\nname = "mmlogic"\n')
    elsewhere.mkdir()
    monkeypatch.setattr(sys, "executable", str(checkout / ".venv" / "bin" / "python"))
    monkeypatch.setattr(sys, "prefix", str(checkout / ".venv"))
    monkeypatch.setattr(errors, "installed_from", lambda: (checkout, False))
    monkeypatch.chdir(checkout)
    assert errors.install_hint("serve") == ".venv/bin/pip install '.[serve]'"  # the README's install, then this
    monkeypatch.setattr(errors, "installed_from", lambda: (checkout, True))
    assert errors.install_hint("plot") == ".venv/bin/pip install -e '.[plot]'"
    monkeypatch.chdir(elsewhere)
    assert errors.install_hint("dask") == f"{checkout}/.venv/bin/pip install -e '{checkout}[dask]'"
    monkeypatch.setattr(errors, "installed_from", lambda: None)
    assert errors.install_hint("serve") == f"{checkout}/.venv/bin/pip install 'mmlogic[serve]'"
    # The command's own line.
    monkeypatch.setattr(errors, "installed_from", lambda: (checkout, False))
    monkeypatch.chdir(checkout)
    real = builtins.__import__
    monkeypatch.setattr(builtins, "__import__", lambda name, *a, **k: (_ for _ in ()).throw(ImportError(name))
                        if name == "uvicorn" else real(name, *a, **k))
    result = run("serve")
    assert (result.exit_code, result.stderr) == (
        2, "error: mmlogic serve needs Starlette and uvicorn: .venv/bin/pip install '.[serve]'\n")


def test_the_install_is_read_from_what_pip_recorded(monkeypatch, tmp_path):
    import json as json_module
    from importlib import metadata

    from mm_logic.support import errors

    class Recorded:
        def __init__(self, text):
            self.text = text

        def read_text(self, name):
            return self.text if name == "direct_url.json" else None

    (tmp_path / "pyproject.toml").write_text("")
    for record, expected in [
        ({"url": tmp_path.as_uri(), "dir_info": {"editable": True}}, (tmp_path, True)),
        ({"url": tmp_path.as_uri(), "dir_info": {}}, (tmp_path, False)),
        ({"url": (tmp_path / "gone").as_uri(), "dir_info": {}}, None),  # the checkout was moved
        ({"url": "https://example.org/mmlogic-1.0.whl", "archive_info": {}}, None),
    ]:
        monkeypatch.setattr(metadata, "distribution", lambda name, r=record: Recorded(json_module.dumps(r)))
        assert errors.installed_from() == expected
    monkeypatch.setattr(metadata, "distribution", lambda name: Recorded(None))  # from an index: no record
    assert errors.installed_from() is None


def test_a_body_is_read_only_when_sent_as_json(client, store):
    body = json.dumps({"rules": RULES, "backend": "python"})
    # What a page of another site may send without asking the browser first: text/plain, a form.
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        api_error(client.post("/api/games", content=body, headers={"content-type": kind}), 415,
                  f"the request body must be sent as Content-Type: application/json, not {kind.split(';')[0]!r}")
    api_error(client.post("/api/races", content=body), 415,
              "the request body must be sent as Content-Type: application/json")
    assert len(store) == 0
    assert client.post("/api/games", content=body, headers={"content-type": "Application/JSON; charset=utf-8"}
                       ).status_code == 201
    assert client.post("/api/games").status_code == 201  # no body: the default game, as before


def test_a_request_from_another_site_is_refused(store):
    from starlette.testclient import TestClient

    from mm_logic.server.api import create_app, served_hosts

    hosts = served_hosts("127.0.0.1", 8000)
    assert hosts == {"127.0.0.1:8000", "localhost:8000"}
    assert served_hosts("::1", 80) == {"[::1]:80", "localhost:80", "[::1]", "localhost"}
    assert served_hosts("0.0.0.0", 8000) is None
    body = {"rules": RULES, "backend": "python"}
    with TestClient(create_app(store, hosts), base_url="http://127.0.0.1:8000") as client:
        foreign = {"origin": "http://evil.example"}
        api_error(client.post("/api/games", json=body, headers=foreign), 403,
                  "a request from another site ('http://evil.example') is refused")
        api_error(client.get("/api/options", headers={"origin": "null"}), 403,
                  "a request from another site ('null') is refused")
        # DNS rebinding: the other site's name resolves to 127.0.0.1, its page is "same origin".
        rebound = {"host": "evil.example:8000", "origin": "http://evil.example:8000"}
        api_error(client.post("/api/games", json=body, headers=rebound), 403,
                  "the Host header 'evil.example:8000' names no address of this server "
                  "(127.0.0.1:8000, localhost:8000): refused")
        api_error(client.get("/", headers={"host": "evil.example:8000"}), 403,
                  "the Host header 'evil.example:8000' names no address of this server "
                  "(127.0.0.1:8000, localhost:8000): refused")
        assert len(store) == 0
        # The page's own requests: its origin, or none (curl, mmlogic's client).
        assert client.post("/api/games", json=body, headers={"origin": "http://127.0.0.1:8000"}).status_code == 201
        assert client.post("/api/games", json=body, headers={"host": "localhost:8000",
                                                             "origin": "http://localhost:8000"}).status_code == 201
        assert client.post("/api/games", json=body).status_code == 201
        assert client.get("/").status_code == 200


# -- a real `mmlogic serve`: its connections ------------------------------------------------------
def raw_exchange(port: int, data: bytes, wait: float = 5.0) -> tuple[bytes, float]:
    """Send ``data`` on a new connection to 127.0.0.1:port, read until the server closes; the bytes
    read and the seconds it took (at most ``wait``: then the socket's timeout fails the test)."""
    import socket

    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(data)
        answer = b""
        for _ in range(1000):  # bounded: the server closes after one answer
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer, time.monotonic() - start


def json_answer(raw: bytes) -> tuple[int, dict]:
    """The status and the JSON body of a raw HTTP/1.1 answer."""
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_a_half_sent_request_is_cut_after_the_read_timeout():
    from mm_logic.server.process import ServerProcess

    with ServerProcess("--read-timeout", "0.5") as server:
        host = f"Host: 127.0.0.1:{server.port}\r\n".encode()
        headers_half = b"GET /api/options HTTP/1.1\r\n" + host  # no blank line: the headers never end
        body_half = (b"POST /api/games HTTP/1.1\r\n" + host +
                     b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"rules\":")
        for request in (b"", headers_half, body_half):
            answer, seconds = raw_exchange(server.port, request)
            assert json_answer(answer) == (408, {"error": "no complete request within 0.5 s"})
            assert 0.5 <= seconds < 2.5
        # A second request on a kept-alive connection is timed from its own start.
        answer, seconds = raw_exchange(server.port, b"GET /api/options HTTP/1.1\r\n" + host + b"\r\n" + headers_half)
        assert answer.startswith(b"HTTP/1.1 200 OK") and answer.endswith(
            b'{"error": "no complete request within 0.5 s"}') and 0.5 <= seconds < 2.5
        # A slow loris: a byte every 0.1 s is no new start; the clock runs from the first.
        import socket

        with socket.create_connection(("127.0.0.1", server.port), timeout=0.1) as sock:
            start, answer = time.monotonic(), b""
            for byte in headers_half * 3:  # 3 s of bytes at most
                sock.sendall(bytes([byte]))
                try:
                    answer = sock.recv(65536)  # waits 0.1 s: the pace of the bytes
                    break
                except TimeoutError:
                    continue
            sock.settimeout(5)
            for _ in range(100):  # the rest of the answer, up to the close
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
            assert json_answer(answer) == (408, {"error": "no complete request within 0.5 s"})
            assert 0.5 <= time.monotonic() - start < 1.5
    assert server.stop() == 0
    assert server.output[1].splitlines()[1:] == []  # nothing logged


def test_serve_answers_only_its_own_names_and_site():
    from mm_logic.server.process import ServerProcess

    with ServerProcess() as server:
        own = f"Host: 127.0.0.1:{server.port}\r\n"
        body = b'{"rules": {"pegs": 4, "colors": 6}, "backend": "python"}'
        for head, expected in [
            # DNS rebinding: evil.example made to resolve to 127.0.0.1.
            (f"Host: evil.example:{server.port}\r\nOrigin: http://evil.example:{server.port}\r\n",
             (403, {"error": f"the Host header 'evil.example:{server.port}' names no address of this server "
                             f"(127.0.0.1:{server.port}, localhost:{server.port}): refused"})),
            (own + "Origin: http://evil.example\r\n",
             (403, {"error": "a request from another site ('http://evil.example') is refused"})),
        ]:
            request = (f"POST /api/games HTTP/1.1\r\n{head}Content-Type: application/json\r\n"
                       f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body
            assert json_answer(raw_exchange(server.port, request)[0]) == expected
        # The page's own request, and a name of the machine.
        for head in (own + f"Origin: http://127.0.0.1:{server.port}\r\n", f"Host: localhost:{server.port}\r\n"):
            request = (f"POST /api/games HTTP/1.1\r\n{head}Content-Type: application/json\r\n"
                       f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body
            assert json_answer(raw_exchange(server.port, request)[0])[0] == 201


def test_a_request_that_is_not_http_is_one_json_line():
    from mm_logic.server.process import ServerProcess

    with ServerProcess() as server:
        # It was a 400 in plain text, with no body. (Headers over 16 KiB: test_server_edges.py.)
        answer, _ = raw_exchange(server.port, b"NONSENSE\r\n\r\n")
        assert json_answer(answer) == (400, {"error": "the request is not valid HTTP/1.1"})
    assert server.output[1].splitlines()[1:] == ["WARNING:  Invalid HTTP request received."]


def test_connections_beyond_the_limit_are_refused():
    import socket

    from mm_logic.server.process import ServerProcess

    with ServerProcess("--max-connections", "3") as server:
        held = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(3)]
        try:
            # The fourth is answered at once (the three say nothing), and closed.
            answer, seconds = raw_exchange(server.port, b"")
            assert json_answer(answer) == (503, {"error": "the server has its maximum of 3 connections open; "
                                                          "try again later"})
            assert seconds < 2
        finally:
            for sock in held:
                sock.close()


def test_a_client_that_closes_in_the_middle_of_its_body_is_one_line_in_the_log():
    import socket

    from mm_logic.server.process import ServerProcess

    with ServerProcess() as server, socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{".encode())
        # The request has reached the application once a second one on another connection is answered.
        assert raw_exchange(server.port, f"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                                         "Connection: close\r\n\r\n".encode())[0].startswith(b"HTTP/1.1 200")
    # Stopping waits for the request's task: its line is written by then (it was a 40-line traceback).
    assert server.stop() == 0
    assert server.output[1].splitlines()[1:] == [
        "WARNING:  POST /api/games: the client closed its connection before the end of its request body"]


# -- the feedback rules (issue 37): games in the rule's JSON keys ---------------------------------
@pytest.mark.parametrize("rule, answers", [
    ("black", [{"black": 0}, {"black": 2}, {"black": 4}]),
    ("positional", [{"marks": "o-o-"}, {"marks": "xxoo"}, {"marks": "xxxx"}]),
])
def test_a_codebreaker_game_in_each_feedback_rule(client, rule, answers):
    game = new_game(client, rules={**RULES, "feedback": rule}, secret="1230", strategy="first")
    assert {k: v for k, v in game.items() if k != "id"} == {
        "role": "codebreaker", "rules": {"pegs": 4, "colors": 6, "max_repeat": None, "feedback": rule},
        "alphabet": "012345", "backend": "python", "strategy": "first", "history": [], "attempts": 0, "won": False,
        "over": False}
    url = f"/api/games/{game['id']}"
    replies = [client.post(f"{url}/guesses", json={"guess": guess}).json() for guess in ("0011", "1203", "1230")]
    assert replies == [{"guess": "0011", **answers[0], "won": False, "attempts": 1},
                       {"guess": "1203", **answers[1], "won": False, "attempts": 2},
                       {"guess": "1230", **answers[2], "won": True, "attempts": 3, "secret": "1230"}]
    state = client.get(url).json()
    assert state["history"] == [{"guess": g, **a} for g, a in zip(("0011", "1203", "1230"), answers)]
    assert (state["won"], state["over"], state["secret"]) == (True, True, "1230")
    # The hints play the rule: first's guesses are those it plays in process against the secret.
    hinted = new_game(client, rules={**RULES, "feedback": rule}, secret="1230", strategy="first")
    url = f"/api/games/{hinted['id']}"
    guesses, won = [], False
    while not won:
        guesses.append(client.get(f"{url}/next").json()["guess"])
        won = client.post(f"{url}/guesses", json={"guess": guesses[-1]}).json()["won"]
    rules = Rules(4, 6, feedback=rule)
    assert guesses == [format_code(g, rules) for g, _ in played("python", "first", "1230", rules)]


def test_a_positional_codemaker_game_with_a_contradiction_and_undo(client):
    game = new_game(client, rules={**RULES, "feedback": "positional"}, role="codemaker", strategy="first")
    url = f"/api/games/{game['id']}"

    def answer(marks: str, guess: str | None = None):
        return client.post(f"{url}/feedback", json={"marks": marks, **({"guess": guess} if guess else {})})

    assert client.get(f"{url}/next").json() == {"guess": "0000", "consistent": 1296}
    assert answer("---x", "0000").json()["history"] == [{"guess": "0000", "marks": "---x"}]
    assert client.get(f"{url}/next").json() == {"guess": "1110", "consistent": 125}
    # 0000 said the secret's only 0 is its last peg: 1110's 0 cannot be elsewhere.
    api_error(answer("---o"), 409, "no code is consistent with the history: entries 1, 2 (0000:---x 1110:---o) "
                                   "contradict each other; send the right answer for 1110, or undo")
    api_error(answer("o--x"), 409, "no code is consistent with the history: entry 2 (1110:o--x) is impossible on "
                                   "its own; send the right answer for 1110, or undo")
    assert answer("---x").json()["history"] == [{"guess": "0000", "marks": "---x"}, {"guess": "1110", "marks": "---x"}]
    assert client.post(f"{url}/undo").json()["history"] == [{"guess": "0000", "marks": "---x"}]
    assert client.get(f"{url}/next").json() == {"guess": "1110", "consistent": 125}
    secret = parse_code("2540", Rules(4, 6, feedback="positional"))
    rules = Rules(4, 6, feedback="positional")
    while True:
        guess = client.get(f"{url}/next").json()["guess"]
        state = answer(format_feedback(score(rules, parse_code(guess, rules), secret), rules)).json()
        if state["won"]:
            break
    assert state["history"] == [{"guess": format_code(g, rules), "marks": format_feedback(fb, rules)}
                                for g, fb in played("python", "first", "2540", rules)]
    assert state["history"][-1] == {"guess": "2540", "marks": "xxxx"}
    assert state["over"] is True and "secret" not in state


def test_a_black_peg_codemaker_game_to_the_win(client):
    game = new_game(client, rules={**RULES, "feedback": "black"}, role="codemaker", strategy="first")
    url = f"/api/games/{game['id']}"
    counts = []
    for black in (0, 1, 2, 3, 4):
        counts.append(client.get(f"{url}/next").json()["consistent"])
        state = client.post(f"{url}/feedback", json={"black": black}).json()
    assert counts == [1296, 625, 256, 39, 4]
    assert state["history"] == [{"guess": "0000", "black": 0}, {"guess": "1111", "black": 1},
                                {"guess": "1222", "black": 2}, {"guess": "1233", "black": 3},
                                {"guess": "1234", "black": 4}]
    assert (state["won"], state["over"], state["attempts"]) == (True, True, 5)
    api_error(client.post(f"{url}/undo"), 409, f"game {game['id']} is over")


@pytest.mark.parametrize("rule, body, status, message", [
    ("black", {"black": 5}, 400, "feedback 5 exceeds the 4 pegs"),
    ("black", {"black": -1}, 400, "feedback -1 is negative"),
    ("black", {"black": True}, 400, "black must be an integer"),
    ("black", {"black": "1"}, 400, "black must be an integer"),
    ("black", {"black": 1, "white": 0}, 400, 'the body must be {"black": B}, optionally with "guess"'),
    ("black", {"marks": "x---"}, 400, 'the body must be {"black": B}, optionally with "guess"'),
    ("black", {}, 400, 'the body must be {"black": B}, optionally with "guess"'),
    ("black", {"black": 0, "guess": "0011"}, 409, "the computer's guess is 0000, not 0011"),
    ("positional", {"marks": "x-o"}, 400, "feedback x-o has 3 marks, expected one per peg (4)"),
    ("positional", {"marks": "xxxo"}, 400, "feedback xxxo cannot occur: with every other peg right, the colour of "
                                           "the last one is nowhere else"),
    ("positional", {"marks": "XX--"}, 400, "feedback 'XX--' is not of the form one mark per peg, x o or - "
                                           "(e.g. x-o-)"),
    ("positional", {"marks": ""}, 400, "feedback '' is not of the form one mark per peg, x o or - (e.g. x-o-)"),
    ("positional", {"marks": ["x", "-", "-", "-"]}, 400, 'marks must be a string, e.g. "x-o-"'),
    ("positional", {"black": 1, "white": 0}, 400, 'the body must be {"marks": "x-o-"}, optionally with "guess"'),
    ("positional", {"marks": "x---", "black": 1}, 400,
     'the body must be {"marks": "x-o-"}, optionally with "guess"'),
    ("positional", {"marks": "x---", "guess": "0012"}, 409, "the computer's guess is 0000, not 0012"),
    # The standard game's answers are as they were.
    ("standard", {"marks": "x---"}, 400, 'the body must be {"black": B, "white": W}, optionally with "guess"'),
    ("standard", {"black": 1}, 400, 'the body must be {"black": B, "white": W}, optionally with "guess"'),
])
def test_bad_answers_in_each_feedback_rule(client, rule, body, status, message):
    game = new_game(client, rules={**RULES, "feedback": rule}, role="codemaker", strategy="first")
    api_error(client.post(f"/api/games/{game['id']}/feedback", json=body), status, message)
    assert client.get(f"/api/games/{game['id']}").json()["history"] == []


@pytest.mark.parametrize("request_body, message", [
    ({"rules": {"feedback": "wordle"}}, "unknown feedback rule 'wordle'; choose from standard, black, positional"),
    ({"rules": {"feedback": "w" * 100_000}}, f"unknown feedback rule {'w' * 40!r}... (100,000 characters); choose "
                                             "from standard, black, positional"),
    ({"rules": {"feedback": 1}}, "rules field 'feedback' must be str"),
    ({"rules": {"feedback": ["black"]}}, "rules field 'feedback' must be str"),
    ({"rules": {"feedback": "positional"}, "strategy": "human2"},
     "strategy human2 plays the standard feedback rule only; with rules.feedback positional use strategy "
     "first, any, random, any-random-opening, minimax, expected, entropy, parts or sample-entropy"),
    ({"rules": {"feedback": "black"}, "strategy": "ga004", "role": "codemaker"},
     "strategy ga004 plays the standard feedback rule only; with rules.feedback black use strategy "
     "first, any, random, any-random-opening, minimax, expected, entropy, parts or sample-entropy"),
    ({"rules": {"feedback": "positional"}, "backend": "a1", "strategy": "first"},
     "backend a1 plays the standard feedback rule only; with rules.feedback positional use backend clingo, swipl or "
     "python"),
])
def test_bad_new_games_in_the_feedback_rules(client, store, request_body, message):
    api_error(client.post("/api/games", json={"backend": "python", **request_body}), 400, message)
    assert len(store) == 0


def test_a_rule_file_is_never_read_nor_run_for_a_request(client, store, tmp_path):
    # On the command line --feedback FILE.py runs the user's own module; a request naming one is refused.
    rule = tmp_path / "rule.py"
    ran = tmp_path / "ran"
    rule.write_text(f"open({str(ran)!r}, 'w').close()\ndef score(guess, secret):\n    return (0,)\n")
    for name in (str(rule), "rule.py"):
        said = f"unknown feedback rule {shown(name)}; choose from standard, black, positional"
        for backend in ("python", "clingo"):
            api_error(client.post("/api/games", json={"backend": backend, "rules": {"feedback": name}}), 400, said)
        api_error(client.post("/api/races", json={"rules": {"feedback": name}, "entrants": [{}]}), 400, said)
    assert not ran.exists() and len(store) == 0


def test_without_a_strategy_a_game_plays_one_that_plays_its_rule(client):
    # minimax, the default, plays every built-in rule.
    for rule, strategy in (("standard", "minimax"), ("black", "minimax"), ("positional", "minimax")):
        request = {"rules": {**RULES, "feedback": rule}, "backend": "python"}
        for role in ("codebreaker", "codemaker"):
            state = client.post("/api/games", json={**request, "role": role}).json()
            assert state["strategy"] == strategy
            client.post(f"/api/games/{state['id']}/resign")  # room for the next (five games at most)
    # "feedback": "standard", null, or left out as clients older than the feedback rules do: the standard
    # game, whose state names its rule all the same, and whose guesses are told black and white.
    for rules in ({**RULES, "feedback": "standard"}, {**RULES, "feedback": None}, RULES):
        state = new_game(client, rules=rules, secret="0123")
        assert state["rules"] == {"pegs": 4, "colors": 6, "max_repeat": None, "feedback": "standard"}
        reply = client.post(f"/api/games/{state['id']}/guesses", json={"guess": "0011"}).json()
        assert reply == {"guess": "0011", "black": 1, "white": 1, "won": False, "attempts": 1}
        client.post(f"/api/games/{state['id']}/resign")
