"""``mmlogic serve --db FILE`` on rows damaged by hand (issue 56, audit item 8): a row whose JSON, codes, answers,
columns or variant record no longer hold a game this server wrote is found when it is read: each request on it is
a 503 saying so in one line, and one log line, never a traceback nor a 400 that blames the client; it accepts no
guess, its row is left as it was, the other games play on; a start-up counts the damaged rows in one line.

Damages were 500s with a JSONDecodeError's traceback in the log (the play not JSON, a history null or a string, a
flag of the wrong type, a version that is text), 400s in the request's words (a seed or a size garbled), or
accepted: a history of codes of the wrong length or colours, answers the secret never gave, a winning entry
followed by others, all played on."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import sys
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from mm_logic.rules import Rules
from mm_logic.server.api import create_app
from mm_logic.server.db_store import SqliteStore
from mm_logic.server.process import ServerProcess
from mm_logic.server.variant import Variant

from conftest import http_json

RULES = {"pegs": 4, "colors": 6}
PALINDROME = Path(__file__).parents[2] / "examples" / "palindrome.lp"


def damaged(kind: str, key: str, why: str) -> str:
    """The one line of a request on a damaged row (its 503 and its log line)."""
    return (f"{kind} {key} in the server's games file is damaged: {why} (its row is left as it is; no "
            "request plays it)")


def row_of(db: Path, key: str) -> tuple:
    """The row of ``key`` as the file holds it, every column."""
    with contextlib.closing(sqlite3.connect(db)) as other:
        return other.execute("SELECT * FROM hosted WHERE id = ?", (key,)).fetchone()


def damage(db: Path, key: str, change: str, *args) -> tuple:
    """``UPDATE hosted SET change WHERE id = key``, as a user types it in sqlite3's shell; the row after it."""
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as other:
        other.execute(f"UPDATE hosted SET {change} WHERE id = ?", (*args, key))
    return row_of(db, key)


def kept_games(db: Path) -> dict[str, str]:
    """A store with a codebreaker game (secret 0123, guessed 0011: 1,1), a codemaker game (0011 answered 2,0)
    and a race (secret 0123, one step), closed; their ids by name."""
    with TestClient(create_app(SqliteStore(str(db)))) as client:
        breaker = client.post("/api/games", json={"rules": RULES, "backend": "python", "secret": "0123"}).json()
        assert client.post(f"/api/games/{breaker['id']}/guesses", json={"guess": "0011"}).json()["black"] == 1
        maker = client.post("/api/games", json={"rules": RULES, "backend": "python", "role": "codemaker"}).json()
        assert client.post(f"/api/games/{maker['id']}/feedback",
                           json={"black": 2, "white": 0, "guess": "0011"}).status_code == 200
        race = client.post("/api/races", json={"rules": RULES, "secret": "0123", "entrants": [
            {"backend": "python", "strategy": "minimax"}, {"backend": "python", "strategy": "first"}]}).json()
        assert client.post(f"/api/races/{race['id']}/step").status_code == 200
        other = client.post("/api/games", json={"rules": RULES, "backend": "python", "secret": "5432"}).json()
    return {"breaker": breaker["id"], "maker": maker["id"], "race": race["id"], "other": other["id"]}


JSON_ERROR = "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
# (which game, the change typed in sqlite3, why the row is damaged)
DAMAGES = [
    ("breaker", "played = '{not json'", f"its play is not JSON ({JSON_ERROR})"),
    ("breaker", "request = '{not json'", f"its request is not JSON ({JSON_ERROR})"),
    ("breaker", "played = '[1, 2]'", "its play is not a JSON object"),
    ("breaker", "played = json_remove(played, '$.resigned')", "its play has no 'resigned'"),
    ("breaker", "played = json_set(played, '$.extra', 1)", "its play has 'extra', which no game of this server writes"),
    ("breaker", "played = json_set(played, '$.history', json('null'))", "its history is null, not a list of entries"),
    ("breaker", "played = json_set(played, '$.history', 'abc')", "its history is \"abc\", not a list of entries"),
    ("breaker", "played = json_set(played, '$.history[0]', json('[[0, 0, 1, 1]]'))",
     "entry 1 is [[0, 0, 1, 1]], not a pair [guess, answer]"),
    ("breaker", "played = json_set(played, '$.history[0][0]', json('[0, 0, 1]'))",
     "entry 1: code [0, 0, 1] has 3 pegs, expected 4"),
    ("breaker", "played = json_set(played, '$.history[0][0]', json('[0, 0, 1, 9]'))",
     "entry 1: colour 9 in code [0, 0, 1, 9] is outside 0..5"),
    ("breaker", "played = json_set(played, '$.history[0][0]', json('[0, 0, 1, true]'))",
     "entry 1: code [0, 0, 1, true] is not a list of colour numbers"),
    ("breaker", "played = json_set(played, '$.history[0][1]', json('[\"1\", 1]'))",
     "entry 1: answer [\"1\", 1] is not a list of numbers"),
    ("breaker", "played = json_set(played, '$.history[0][1]', json('[1, 1, 0]'))",
     "entry 1: answer [1, 1, 0] is not one of the answers of the feedback rule standard"),
    ("breaker", "played = json_set(played, '$.history[0][1]', json('[3, 1]'))",
     "entry 1: feedback 3,1 cannot occur: with 3 pegs right the last one cannot be a misplaced colour"),
    # Answers the secret never gave: the secret itself is never said (the game is not over).
    ("breaker", "played = json_set(played, '$.history[0][1]', json('[2, 0]'))",
     "entry 1: the answer 2,0 to 0011 is not the one the game's secret gives"),
    ("breaker", "request = json_set(request, '$.secret', '1123')",
     "entry 1: the answer 1,1 to 0011 is not the one the game's secret gives"),
    ("breaker", "request = json_set(request, '$.secret', '01234')",
     "its secret is not a code of its rules (not shown here)"),
    ("breaker", "played = json_set(json_insert(played, '$.history[#]', json('[[0, 0, 2, 2], [1, 0]]')), "
                "'$.history[0]', json('[[0, 1, 2, 3], [4, 0]]'))",
     "entry 2 follows the winning entry 1"),
    ("breaker", "played = json_set(played, '$.resigned', 'yes')", "its resigned is \"yes\", not true or false"),
    ("breaker", "played = json_set(played, '$.pending', json('[7]'))", "its pending guess: code [7] has 1 pegs, "
                                                                        "expected 4"),
    ("breaker", "request = json_set(request, '$.seed', 'x')", "its request is refused: seed must be an integer >= 0"),
    ("breaker", "request = json_set(request, '$.rules.pegs', 0)",
     "its request is refused: rules.pegs must be between 1 and 64, got 0"),
    ("breaker", "request = json_set(request, '$.rules.variant', 'palindrome')",
     "its request is refused: unknown variant 'palindrome': this server serves none (mmlogic serve --encoding FILE "
     "serves one)"),
    ("breaker", "version = 'abc'", "its column version is 'abc', not a number of writes"),
    ("breaker", "over = 1", "its column over is 1, but its play is not over"),
    ("breaker", "last_used = 'soon'", "its column last_used is 'soon', not a time"),
    ("breaker", "kind = 'gmae'", "its column kind is 'gmae', neither game nor race"),
    # A codemaker's answers: each one the game accepts with the earlier ones, as when it was sent.
    ("maker", "played = json_insert(played, '$.history[#]', json('[[0, 0, 1, 1], [0, 0]]'))",
     "entry 2: no code is consistent with the history: entries 1, 2 (0011:2,0 0011:0,0) contradict each other"),
    ("maker", "played = json_set(played, '$.history[0][1]', json('[5, 0]'))",
     "entry 1: answer [5, 0] is not one of the answers of the feedback rule standard"),
    # A race: every entrant's answers are the secret's.
    ("race", "played = json_set(played, '$.entrants[0].history[0][1]', json('[0, 4]'))",
     "entrant 1, entry 1: the answer 0,4 to 0011 is not the one the race's secret gives"),
    ("race", "played = json_remove(played, '$.entrants[1]')", "its play has 1 entrant, its request 2"),
    ("race", "played = json_set(played, '$.entrants[0].seconds', 'x')",
     "entrant 1: its seconds \"x\" are not a number of seconds"),
    ("race", "played = json_set(played, '$.entrants[0].stopped', 3)", "entrant 1: its stop 3 is not a reason"),
    ("race", "played = json_set(played, '$.entrants[0].history[0]', json('[[0, 1, 2, 3], [4, 0]]'))",
     "entrant 1 won, and entrant 2 plays on"),
]


@pytest.mark.parametrize(("which", "change", "why"), DAMAGES, ids=[f"{d[0]}: {d[1][:60]}" for d in DAMAGES])
def test_a_damaged_row_is_a_503_in_one_line_left_as_it_was(tmp_path, caplog, which, change, why):
    db = tmp_path / "games.db"
    ids = kept_games(db)
    key = ids[which]
    before = damage(db, key, change)
    kind = "race" if which == "race" else "game"
    said = damaged(kind, key, why)
    url = f"/api/{kind}s/{key}"
    requests = ([("GET", url, None), ("POST", f"{url}/step", None)] if kind == "race" else
                [("GET", url, None), ("POST", f"{url}/guesses", {"guess": "0123"}), ("GET", f"{url}/next", None),
                 ("POST", f"{url}/feedback", {"black": 4, "white": 0}), ("POST", f"{url}/undo", None),
                 ("POST", f"{url}/resign", None)])
    with TestClient(create_app(SqliteStore(str(db)))) as client:
        for method, path, body in requests:
            with caplog.at_level(logging.WARNING, logger="uvicorn.error"):
                caplog.clear()
                answer = client.request(method, path, json=body)
            assert (answer.status_code, answer.json()) == (503, {"error": said}), (method, path)
            assert [r.getMessage() for r in caplog.records] == [f"{method} {path}: {said}"]
        # Nothing was written over it, and the other games play on.
        assert row_of(db, key) == before
        other = f"/api/games/{ids['other']}/guesses"
        assert client.post(other, json={"guess": "5432"}).json()["won"] is True


def test_a_row_damaged_under_a_running_server_is_found_at_its_next_request(tmp_path):
    # The server kept the game built: it played on from its own copy, and wrote it over the hand's change.
    db = tmp_path / "games.db"
    with TestClient(create_app(SqliteStore(str(db)))) as client:
        game = client.post("/api/games", json={"rules": RULES, "backend": "python", "secret": "0123"}).json()
        url = f"/api/games/{game['id']}"
        assert client.post(f"{url}/guesses", json={"guess": "0011"}).status_code == 200
        before = damage(db, game["id"], "played = json_set(played, '$.history[0][0]', json('[0, 0, 1]'))")
        answer = client.post(f"{url}/guesses", json={"guess": "0123"})
        assert (answer.status_code, answer.json()) == (503, {
            "error": damaged("game", game["id"], "entry 1: code [0, 0, 1] has 3 pegs, expected 4")})
        assert row_of(db, game["id"]) == before
        # Mended by hand as it was, the game plays on.
        damage(db, game["id"], "played = json_set(played, '$.history[0][0]', json('[0, 0, 1, 1]'))")
        assert client.post(f"{url}/guesses", json={"guess": "0123"}).json() == {
            "guess": "0123", "black": 4, "white": 0, "won": True, "attempts": 2, "secret": "0123"}


def test_a_liars_answers_are_checked_as_its_liar_gives_them(tmp_path):
    # The liar's answer is a function of the history: a kept game's lies are its liar's, a changed one is not.
    db = tmp_path / "games.db"
    with TestClient(create_app(SqliteStore(str(db)))) as client:
        game = client.post("/api/games", json={"rules": {**RULES, "lies": 1}, "backend": "python", "secret": "0123",
                                               "liar": [1]}).json()
        told = client.post(f"/api/games/{game['id']}/guesses", json={"guess": "0011"}).json()
    assert (told["black"], told["white"]) != (1, 1)  # answer 1 lies
    with TestClient(create_app(SqliteStore(str(db)))) as client:
        assert client.get(f"/api/games/{game['id']}").json()["attempts"] == 1
    damage(db, game["id"], "played = json_set(played, '$.history[0][1]', json('[1, 1]'))")
    with TestClient(create_app(SqliteStore(str(db)))) as client:
        answer = client.get(f"/api/games/{game['id']}")
        assert (answer.status_code, answer.json()) == (503, {"error": damaged(
            "game", game["id"], "entry 1: the answer 1,1 to 0011 is not the one the game's secret gives")})


def test_a_variant_record_garbled_is_damage_and_another_digest_still_a_409(tmp_path):
    db = tmp_path / "games.db"
    variant = Variant.load(PALINDROME, None, None, Rules())
    with TestClient(create_app(SqliteStore(str(db), variants=(variant,)))) as client:
        game = client.post("/api/games", json={"rules": {"variant": "palindrome"}, "secret": "1221",
                                               "strategy": "first"}).json()
        plain = client.post("/api/games", json={"rules": RULES, "backend": "python"}).json()
        other = client.post("/api/games", json={"rules": {"variant": "palindrome"}, "secret": "2002"}).json()
    damage(db, game["id"], "played = json_set(played, '$.variant.sha256', 'not a digest')")
    damage(db, other["id"], "request = json_set(request, '$.secret', '2012')")  # a code no palindrome
    damage(db, plain["id"], "played = json_set(played, '$.variant', json('{\"name\": \"palindrome\", \"sha256\": "
                            f"\"{variant.digest}\"}}'))")
    with TestClient(create_app(SqliteStore(str(db), variants=(variant,)))) as client:
        answer = client.get(f"/api/games/{game['id']}")
        assert (answer.status_code, answer.json()) == (503, {"error": damaged(
            "game", game["id"], "its variant is {\"name\": \"palindrome\", \"sha256\": \"not a digest\"}, not a name "
                                "and a sha256 digest")})
        answer = client.get(f"/api/games/{plain['id']}")
        assert (answer.status_code, answer.json()) == (503, {"error": damaged(
            "game", plain["id"], "its play records the variant palindrome, its request none")})
        # The variant refuses the secret in words that would show it: they are not.
        answer = client.get(f"/api/games/{other['id']}")
        assert (answer.status_code, answer.json()) == (503, {"error": damaged(
            "game", other["id"], "its request is refused (the reason would show its secret)")})
    # A digest of other files is the files changed since: the game's 409, as before.
    damage(db, game["id"], "played = json_set(played, '$.variant.sha256', ?)", "0" * 64)
    with TestClient(create_app(SqliteStore(str(db), variants=(variant,)))) as client:
        answer = client.get(f"/api/games/{game['id']}")
        assert (answer.status_code, answer.json()) == (409, {
            "error": f"game {game['id']} plays the variant palindrome as its files were when it began; they have "
                     "changed since, and it cannot go on"})


def test_the_start_counts_the_damaged_rows(tmp_path):
    db = tmp_path / "games.db"
    ids = kept_games(db)
    damage(db, ids["breaker"], "played = '{not json'")
    damage(db, ids["race"], "played = json_set(played, '$.entrants[0].stopped', 3)")
    store = SqliteStore(str(db))
    assert store.start_note == (f"--db {db}: 2 of 4 games and races are damaged ({ids['breaker']}, {ids['race']}): a "
                                "request for one is answered 503, saying why; the others are served")
    store.close()
    healthy = tmp_path / "healthy.db"
    kept_games(healthy)
    store = SqliteStore(str(healthy))
    assert store.start_note is None
    store.close()


def test_a_real_server_says_the_damaged_rows_at_start_and_serves_the_others(tmp_path):
    # It was a 500 and a 40-line traceback in the log (JSONDecodeError), a 400, or a damaged history played on.
    db = tmp_path / "games.db"
    with ServerProcess("--db", str(db)) as server:
        made = [http_json(f"{server.url}/api/games", "POST", {"rules": RULES, "backend": "python", "secret": "0123"})[1]
                for _ in range(3)]
        for game in made:
            assert http_json(f"{server.url}/api/games/{game['id']}/guesses", "POST", {"guess": "0011"})[0] == 200
    assert server.stop() == 0
    broken, short, healthy = (game["id"] for game in made)
    damage(db, broken, "played = '{not json'")
    before = damage(db, short, "played = json_set(played, '$.history[0][0]', json('[0, 0, 1]'))")
    requests = [("GET", f"/api/games/{broken}", None, damaged("game", broken, f"its play is not JSON ({JSON_ERROR})")),
                ("POST", f"/api/games/{short}/guesses", {"guess": "0123"},
                 damaged("game", short, "entry 1: code [0, 0, 1] has 3 pegs, expected 4"))]
    with ServerProcess("--db", str(db)) as server:
        for method, path, body, said in requests:
            assert http_json(server.url + path, method, body) == (503, {"error": said})
        assert http_json(f"{server.url}/api/games/{healthy}/guesses", "POST", {"guess": "0123"})[1]["won"] is True
    assert server.stop() == 0
    lines = server.output[1].splitlines()
    assert lines[0] == (f"mmlogic serve: --db {db}: 2 of 3 games and races are damaged ({broken}, {short}): a request "
                        "for one is answered 503, saying why; the others are served")
    assert lines[2:] == [f"WARNING:  {method} {path}: {said}" for method, path, _, said in requests]
    assert row_of(db, short) == before


def test_checking_every_row_at_start_is_cheap(tmp_path):
    # 1,000 games (the default --max-games) with 8 entries each: the form of every row, without an engine.
    db = tmp_path / "games.db"
    store = SqliteStore(str(db), max_games=2000)
    rows = []
    game = store.create(store.seeded({"rules": RULES, "backend": "clingo", "secret": "0123"}))
    for guess in ((0, 0, 1, 1), (2, 2, 3, 3), (0, 1, 2, 4), (1, 0, 3, 2), (0, 1, 3, 2), (0, 1, 2, 5), (5, 4, 3, 2)):
        game.game.record(guess, game.game.score(guess), check=False)
    store.saved(game)
    store.close()
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as other:
        row = other.execute("SELECT * FROM hosted").fetchone()
        rows = [(f"{row[0][:11]}{n:012d}", *row[1:]) for n in range(999)]
        other.executemany("INSERT INTO hosted VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    start = time.perf_counter()
    store = SqliteStore(str(db), max_games=2000)
    took = time.perf_counter() - start
    assert store.start_note is None
    store.close()
    assert took < 3.0, took
    print(f"start of a store of 1,000 games: {took:.2f} s", file=sys.stderr)


def test_every_kind_of_game_kept_is_read_back_undamaged(tmp_path):
    # The checks refuse nothing this server writes: each rule, each role, probes beyond --no-repeat, an adversary,
    # liars, a codemaker's wrong answer within the lies, a pending guess, a resignation, races won and stopped.
    db = tmp_path / "games.db"
    python = {"backend": "python"}
    games = [
        ({"rules": {**RULES, "feedback": "positional"}, **python, "secret": "1230"}, [("guesses", {"guess": "0011"})]),
        ({"rules": {**RULES, "feedback": "black"}, **python, "secret": "1230"}, [("guesses", {"guess": "1231"})]),
        ({"rules": {**RULES, "no_repeat": True}, **python, "role": "codemaker", "strategy": "human1"},
         [("next", None), ("feedback", {"black": 0, "white": 0})]),
        ({"rules": RULES, **python, "adversary": True},
         [("guesses", {"guess": "0011"}), ("guesses", {"guess": "2345"})]),
        ({"rules": {**RULES, "lies": 1}, **python, "liar": "random", "seed": 3},
         [("guesses", {"guess": "0011"}), ("guesses", {"guess": "2233"}), ("guesses", {"guess": "4455"})]),
        ({"rules": {**RULES, "lies": 1}, **python, "role": "codemaker", "strategy": "first"},
         [("feedback", {"black": 0, "white": 0}), ("feedback", {"black": 4, "white": 0})]),
        ({"rules": RULES, **python, "secret": "0123"}, [("next", None), ("resign", None)]),
        ({"rules": RULES, "backend": "clingo", "secret": "0123"}, [("guesses", {"guess": "0123"})]),
    ]
    with TestClient(create_app(SqliteStore(str(db)))) as client:
        states = {}
        for request, moves in games:
            game = client.post("/api/games", json=request).json()
            for move, body in moves:
                answer = client.request("GET" if move == "next" else "POST", f"/api/games/{game['id']}/{move}",
                                        json=body)
                assert answer.status_code == 200, answer.text
            states[f"/api/games/{game['id']}"] = client.get(f"/api/games/{game['id']}").json()
        for secret in ("0123", "5555"):
            race = client.post("/api/races", json={"rules": RULES, "secret": secret, "entrants": [
                {**python, "strategy": "minimax"}, {**python, "strategy": "first"}]}).json()
            while not client.post(f"/api/races/{race['id']}/step").json()["over"]:
                pass
            states[f"/api/races/{race['id']}"] = client.get(f"/api/races/{race['id']}").json()
    store = SqliteStore(str(db))
    assert store.start_note is None
    with TestClient(create_app(store)) as client:
        for url, state in states.items():
            assert client.get(url).json() == state
