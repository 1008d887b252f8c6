"""Lies on the server: rules with ``lies``, a codemaker that lies (``liar``), the lies shown once a game is over,
a game with lies kept in SQLite and rebuilt after a restart answering on as it would have."""

from __future__ import annotations

import pytest

from mm_logic.lies import Liar
from mm_logic.notation import parse_code
from mm_logic.rules import Rules

from conftest import api_error
from generators import brute_score

RULES = {"pegs": 4, "colors": 6, "lies": 1}


def guesses(client, game_id: str, codes: list[str]) -> list[dict]:
    return [client.post(f"/api/games/{game_id}/guesses", json={"guess": code}).json() for code in codes]


def test_a_codebreaker_game_with_a_liar_answers_one_guess_wrongly_and_says_so_at_the_end(client):
    game = client.post("/api/games", json={"rules": RULES, "secret": "0123", "liar": [1], "backend": "python",
                                           "seed": 4}).json()
    assert game["rules"] == {"pegs": 4, "colors": 6, "max_repeat": None, "feedback": "standard", "lies": 1}
    first, second = guesses(client, game["id"], ["0011", "0123"])
    told = (first["black"], first["white"])
    rules = Rules(4, 6, lies=1)
    assert told != brute_score(rules, (0, 0, 1, 1), (0, 1, 2, 3))
    assert told == Liar(rules, (1,), 4).answer((0, 1, 2, 3), [], (0, 0, 1, 1))
    assert (second["black"], second["white"], second["won"]) == (4, 0, True)
    state = client.get(f"/api/games/{game['id']}").json()
    assert (state["secret"], state["lies"], state["over"]) == ("0123", [1], True)


def test_the_lies_are_not_shown_before_the_game_is_over(client):
    game = client.post("/api/games", json={"rules": RULES, "secret": "0123", "liar": [1], "backend": "python"})
    guesses(client, game.json()["id"], ["0011"])
    state = client.get(f"/api/games/{game.json()['id']}").json()
    assert "lies" not in state and "secret" not in state
    resigned = client.post(f"/api/games/{game.json()['id']}/resign").json()
    assert resigned["lies"] == [1]


def test_a_codemaker_game_with_lies_takes_a_wrong_answer_and_refuses_a_diagnosis(client):
    game = client.post("/api/games", json={"rules": RULES, "role": "codemaker", "backend": "python"}).json()
    # 0011 and 1100 both 0,4: no code breaks at most one of them
    assert client.post(f"/api/games/{game['id']}/feedback", json={"black": 0, "white": 4}).status_code == 200
    api_error(client.post(f"/api/games/{game['id']}/feedback", json={"black": 0, "white": 4}), 409,
              "no code is consistent with the history: none breaks at most --lies 1 of entries 1, 2 "
              "(0011:0,4 1100:0,4); send the right answer for 1100, or undo")
    api_error(client.post(f"/api/games/{game['id']}/diagnose", json={"black": 0, "white": 4}), 400,
              "diagnose does not apply with lies: it finds the fewest wrong answers, where the rules' lies say "
              "how many may be")


@pytest.mark.parametrize("body, message", [
    ({"rules": RULES, "liar": "often"}, 'liar must be "random" or a list of answer numbers, e.g. [2, 5]'),
    ({"rules": RULES, "liar": [True]}, 'liar must be "random" or a list of answer numbers, e.g. [2, 5]'),
    ({"rules": RULES, "liar": [1, 2]}, "liar names 2 answers, more than lies 1 allows"),
    ({"rules": {"pegs": 4, "colors": 6}, "liar": "random"},
     "liar needs rules.lies: the codemaker may tell at most K wrong answers"),
    ({"rules": RULES, "role": "codemaker", "liar": "random"},
     "liar applies to role codebreaker with a secret: the server then answers the guesses"),
    ({"rules": RULES, "adversary": True}, "an adversary tells no lies: its answers already keep the most codes"),
    ({"rules": {"pegs": 4, "colors": 6, "lies": 4}}, "rules.lies must be between 0 and 3, got 4"),
    ({"rules": {"pegs": 4, "colors": 6, "lies": "1"}}, "rules field 'lies' must be an integer"),
    ({"rules": RULES, "backend": "a3"}, "backend a3 plays no rules.lies; use backend clingo, swipl or python"),
])
def test_bad_lies_are_400_with_one_line(client, body, message):
    api_error(client.post("/api/games", json=body), 400, message)


def test_a_liar_game_kept_in_sqlite_answers_on_after_a_restart_as_in_process(tmp_path):
    from starlette.testclient import TestClient

    from mm_logic.server.api import create_app
    from mm_logic.server.db_store import SqliteStore

    body = {"rules": {"pegs": 4, "colors": 6, "lies": 2}, "secret": "0123", "liar": "random", "backend": "python",
            "seed": 9}
    codes = ["0011", "2345", "4321", "0122", "0123"]
    with TestClient(create_app(SqliteStore(tmp_path / "games.db"))) as client:
        whole = guesses(client, client.post("/api/games", json=body).json()["id"], codes)
        game_id = client.post("/api/games", json=body).json()["id"]
        before = guesses(client, game_id, codes[:2])
    with TestClient(create_app(SqliteStore(tmp_path / "games.db"))) as client:  # the server started again
        after = guesses(client, game_id, codes[2:])
    assert [(r["black"], r["white"]) for r in before + after] == [(r["black"], r["white"]) for r in whole]
    secret = parse_code("0123", Rules(4, 6))
    truth = [brute_score(Rules(4, 6), parse_code(c, Rules(4, 6)), secret) for c in codes]
    assert sum((r["black"], r["white"]) != t for r, t in zip(whole, truth)) <= 2
