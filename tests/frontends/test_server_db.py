"""``mmlogic serve --db FILE``: games and races kept in SQLite through restarts (one killed with -9 mid-load),
shared by two stores as by two worker processes, capped and expired as in memory; a file of another
schema version, or not SQLite, refused in one line."""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from starlette.testclient import TestClient

from mm_logic.client import RemoteServer
from mm_logic.engines.reference import ReferenceEngine
from mm_logic.feedback import feedback
from mm_logic.game import play
from mm_logic.notation import format_code, parse_code
from mm_logic.rules import Rules, make_rules
from mm_logic.secret_codes import random_secrets
from mm_logic.server.api import create_app
from mm_logic.server.db_store import SCHEMA_VERSION, SqliteStore
from mm_logic.server.process import ServerProcess
from mm_logic.server.store import Conflict
from mm_logic.strategies import make_strategy

RULES = {"pegs": 4, "colors": 6}
STANDARD = Rules()


def app_client(path, **options) -> TestClient:
    return TestClient(create_app(SqliteStore(str(path), **options)))


def in_process(secret: str, rules=STANDARD) -> list[str]:
    game = play(ReferenceEngine(rules), make_strategy("minimax", rules), parse_code(secret, rules))
    return [format_code(guess, rules) for guess, _ in game.guesses]


def answer(client, url: str, secret: str, rules=STANDARD):
    """One turn of a codemaker game: the computer's guess, answered from ``secret``; the state."""
    guess = client.get(f"{url}/next").json()["guess"]
    black, white = feedback(parse_code(guess, rules), parse_code(secret, rules))
    response = client.post(f"{url}/feedback", json={"black": black, "white": white, "guess": guess})
    assert response.status_code == 200, response.text
    return response.json()


def test_games_and_a_race_go_on_after_a_restart_as_in_process(tmp_path):
    db = tmp_path / "games.db"
    with app_client(db) as client:
        maker = client.post("/api/games", json={"rules": RULES, "backend": "python", "role": "codemaker"}).json()
        breaker = client.post("/api/games", json={"rules": RULES, "backend": "python", "secret": "2311"}).json()
        race = client.post("/api/races", json={"rules": RULES, "secret": "5140",
                                               "entrants": [{"backend": "python"}, {"strategy": "first"}]}).json()
        answer(client, f"/api/games/{maker['id']}", "5140")
        pending = client.get(f"/api/games/{maker['id']}/next").json()["guess"]  # shown, not answered yet
        client.post(f"/api/games/{breaker['id']}/guesses", json={"guess": "0011"})
        client.post(f"/api/races/{race['id']}/step")
    with app_client(db) as client:  # a restart on the same file
        url = f"/api/games/{maker['id']}"
        assert client.get(f"{url}/next").json()["guess"] == pending
        while not (state := answer(client, url, "5140"))["won"]:
            pass
        assert [e["guess"] for e in state["history"]] == in_process("5140")
        reply = client.post(f"/api/games/{breaker['id']}/guesses", json={"guess": "2311"}).json()
        assert (reply["attempts"], reply["won"]) == (2, True)
        steps = 1
        while not client.get(f"/api/races/{race['id']}").json()["over"]:
            client.post(f"/api/races/{race['id']}/step")
            steps += 1
        over = client.get(f"/api/races/{race['id']}").json()
        assert [e["guess"] for e in over["entrants"][0]["history"]] == in_process("5140")
        assert over["winners"] == [0] and steps == len(in_process("5140"))


def test_a_game_without_a_seed_is_given_one_so_that_it_is_rebuilt_alike(tmp_path):
    db = tmp_path / "games.db"
    with app_client(db) as client:
        game = client.post("/api/games", json={"rules": RULES, "backend": "python", "strategy": "random"}).json()
        hint = client.get(f"/api/games/{game['id']}/next").json()["guess"]
        client.post(f"/api/games/{game['id']}/guesses", json={"guess": hint})
        second = client.get(f"/api/games/{game['id']}/next").json()
    with app_client(db) as client:
        assert client.get(f"/api/games/{game['id']}/next").json() == second
        assert client.get(f"/api/games/{game['id']}").json()["history"][0]["guess"] == hint


def test_two_stores_on_one_file_share_each_write_and_refuse_a_stale_one(tmp_path):
    db = str(tmp_path / "games.db")
    one, two = SqliteStore(db), SqliteStore(db)  # as two worker processes
    game = one.create(one.seeded({"rules": RULES, "backend": "python", "secret": "0123"}))
    stale = two.get(game.id)
    game.game.record((0, 0, 1, 1), (1, 1), check=False)
    one.saved(game)
    again = two.get(game.id)  # the row's version moved on: built again from it
    assert again is not stale and again.game.history == [((0, 0, 1, 1), (1, 1))]
    other = one.get(game.id)
    again.game.record((1, 2, 0, 3), (1, 3), check=False)
    two.saved(again)
    other.game.record((5, 5, 5, 5), (0, 0), check=False)  # one process's build behind the other's write
    with pytest.raises(Conflict, match=f"^{game.id} was changed by another request at the same moment; "
                                       "read it and try again$"):
        one.saved(other)
    assert [g for g, _ in one.get(game.id).game.history] == [(0, 0, 1, 1), (1, 2, 0, 3)]


def test_the_cap_and_the_expiry_work_on_the_file_as_in_memory(tmp_path):
    db = tmp_path / "games.db"
    with app_client(db, max_games=2, idle_seconds=60) as client:
        first = client.post("/api/games", json={"rules": RULES, "backend": "python", "secret": "0123"}).json()
        client.post(f"/api/games/{first['id']}/resign")
        second = client.post("/api/games", json={"rules": RULES, "backend": "python"}).json()
        client.post("/api/games", json={"rules": RULES, "backend": "python"})  # makes room: the first was over
        response = client.post("/api/games", json={"rules": RULES, "backend": "python"})
        assert (response.status_code, response.json()) == (
            429, {"error": "the server holds its maximum of 2 games and races; try again later"})
        assert client.get(f"/api/games/{first['id']}").json() == {
            "error": f"no game '{first['id']}' (it was over, and forgotten to make room for new games)"}
    store = SqliteStore(str(db), idle_seconds=60)
    assert len(store) == 2 and store.expire(now=time.time() + 61) == 2 and len(store) == 0
    with TestClient(create_app(store)) as client:
        assert client.get(f"/api/games/{second['id']}").json() == {
            "error": f"no game '{second['id']}' (games are forgotten after 60 s unused)"}


def test_a_file_of_another_version_or_not_sqlite_is_refused_in_one_line_and_kept(run, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("my notes\n")
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE t (x)")
    cases = [(text, f"--db {text}: not an SQLite file (refused, left as it was)"),
             (other, f"--db {other}: a store of schema version {SCHEMA_VERSION + 1}; this mmlogic reads version "
                     f"{SCHEMA_VERSION} (refused, left as it was)"),
             (foreign, f"--db {foreign}: an SQLite file of another application (refused, left as it was)"),
             (tmp_path, f"Invalid value for '--db': File '{tmp_path}' is a directory.")]
    for path, message in cases:
        before = path.read_bytes() if path.is_file() else None
        result = run("serve", "--port", 0, "--db", path)
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"error: {message}\n")
        assert (path.read_bytes() if path.is_file() else None) == before
    result = run("serve", "--port", 0, "--workers", 2)
    assert (result.exit_code, result.stderr) == (
        2, "error: --workers 2 needs --db FILE: the worker processes share their games through it\n")
    result = run("serve", "--port", 0, "--workers", 2, "--db", tmp_path / "g.db", "--tcp-port", 0)
    assert (result.exit_code, result.stderr) == (
        2, "error: --tcp-port serves from one process: the line protocol's games are numbered by it; "
           "leave --workers at 1\n")


def resume(server: RemoteServer, game_id: str, secret: str, rules) -> list[str]:
    """Play a codemaker game on from wherever the server has it, to the win; its guesses."""
    url = f"/api/games/{game_id}"
    state = server.request("GET", url)
    while not state["won"]:
        guess = server.request("GET", f"{url}/next")["guess"]
        black, white = feedback(parse_code(guess, rules), parse_code(secret, rules))
        state = server.request("POST", f"{url}/feedback", {"black": black, "white": white, "guess": guess})
    return [entry["guess"] for entry in state["history"]]


@pytest.mark.slow  # two servers started, 24 games: about 6 s
@pytest.mark.parametrize("workers", ["1", "2"])
def test_kill_9_mid_load_then_a_restart_on_the_file_loses_and_mixes_nothing(tmp_path, workers):
    rules = make_rules(4, 6)
    secrets = [format_code(s, rules) for s in random_secrets(rules, 24, 3)]
    db = str(tmp_path / "games.db")
    ids: list[str | None] = [None] * len(secrets)
    answered = threading.Semaphore(0)

    def until_killed(index: int, url: str) -> None:
        server = RemoteServer(url, timeout=30)
        try:
            ids[index] = server.request("POST", "/api/games", {"rules": rules.as_dict(), "backend": "python",
                                                               "role": "codemaker"})["id"]
            game = f"/api/games/{ids[index]}"
            while True:
                guess = server.request("GET", f"{game}/next")["guess"]
                black, white = feedback(parse_code(guess, rules), parse_code(secrets[index], rules))
                if server.request("POST", f"{game}/feedback", {"black": black, "white": white})["won"]:
                    return
                answered.release()
        except Exception:  # noqa: BLE001 - the server was killed under this request
            return

    first = ServerProcess("--db", db, "--workers", workers)
    try:
        with ThreadPoolExecutor(8) as pool:
            for i in range(len(secrets)):
                pool.submit(until_killed, i, first.url)
            for _ in range(20):  # 20 answers in, requests in flight: killed
                answered.acquire(timeout=60)
            pid = first.process.pid
            with open(f"/proc/{pid}/task/{pid}/children") as children:  # the worker processes
                for child in [*map(int, children.read().split()), pid]:
                    os.kill(child, signal.SIGKILL)
    finally:
        first.stop()
    with ServerProcess("--db", db, "--workers", workers) as second:
        server = RemoteServer(second.url, timeout=30)
        for index, secret in enumerate(secrets):
            if ids[index] is None:  # killed before its creation came back: a game of its own now
                ids[index] = server.request("POST", "/api/games", {"rules": rules.as_dict(), "backend": "python",
                                                                   "role": "codemaker"})["id"]
            assert resume(server, ids[index], secret, rules) == in_process(secret, rules)


@pytest.mark.slow  # two servers of two workers, two read timeouts: about 5 s
def test_two_workers_cut_a_slow_client_and_serve_the_page_and_a_game_across_a_restart(tmp_path):
    from test_server_api import json_answer, raw_exchange

    db = str(tmp_path / "games.db")
    with ServerProcess("--db", db, "--workers", "2", "--read-timeout", "0.5") as server:
        host = f"Host: 127.0.0.1:{server.port}\r\n".encode()
        for _ in range(2):  # connections spread over the workers: each cuts a half-sent request
            answer, _ = raw_exchange(server.port, b"GET /api/options HTTP/1.1\r\n" + host)
            assert json_answer(answer) == (408, {"error": "no complete request within 0.5 s"})
        client = RemoteServer(server.url)
        game = client.request("POST", "/api/games", {"rules": RULES, "backend": "python", "secret": "0123"})
        client.request("POST", f"/api/games/{game['id']}/guesses", {"guess": "0011"})
    with ServerProcess("--db", db, "--workers", "2") as server:
        client = RemoteServer(server.url)
        with urllib.request.urlopen(f"{server.url}/") as page:  # the page, from either worker
            assert page.status == 200 and b"<html" in page.read()
        state = client.request("GET", f"/api/games/{game['id']}")  # what the page reads when it resumes a game
        assert [e["guess"] for e in state["history"]] == ["0011"] and not state["over"]
        reply = client.request("POST", f"/api/games/{game['id']}/guesses", {"guess": "0123"})
        assert (reply["attempts"], reply["won"], reply["secret"]) == (2, True, "0123")


def test_a_line_protocol_guess_is_written_so_a_won_game_makes_room(tmp_path):
    from mm_logic.server.line_protocol import LineGames, answer_line

    store = SqliteStore(str(tmp_path / "games.db"), max_games=1)
    games = LineGames(store, Rules(pegs=3, colors=4), first=1)
    assert answer_line("init_connexion", games) == "[1,[3,4,oui]]"
    secret = "".join("abcd"[c] for c in games.get(1).game.secret)
    assert answer_line(f"[1,{secret}]", games) == "[-1,[3,0]]"
    assert answer_line("init_connexion", games) == "[2,[3,4,oui]]"  # the won game, over in the file, made room


def test_a_batch_race_is_refused_when_several_workers_share_the_file(tmp_path):
    store = SqliteStore(str(tmp_path / "games.db"), workers=2)
    with TestClient(create_app(store)) as client:
        response = client.post("/api/races", json={"rules": RULES, "games": 2, "entrants": [{"backend": "python"}]})
        assert (response.status_code, response.json()) == (409, {
            "error": "a batch race runs in the memory of one process, and this server has 2: its state would not "
                     "be found by the others; race move by move, or serve with --workers 1"})
        assert len(store) == 0
