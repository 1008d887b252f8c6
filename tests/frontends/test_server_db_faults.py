"""``mmlogic serve --db FILE`` on a file that fails (issue 56, defect 6): a damaged store refused at start in
one line and left as it was; damage found while serving, a disk error, a lock held by another process beyond
the wait: 503 with one JSON line and one log line, never a traceback; a read-only store or folder, a FIFO, a
device, an empty name: one line at start, in the words of the other file options."""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from mm_logic.server import db_store
from mm_logic.server.api import create_app
from mm_logic.server.db_store import SqliteStore
from mm_logic.server.process import ServerProcess

from conftest import http_json

MMLOGIC = str(Path(sys.executable).parent / "mmlogic")
RULES = {"pegs": 4, "colors": 6}
PAGE = 4096


def store_with_games(path: Path, count: int = 30) -> list[str]:
    """A store of ``count`` games (each with a guess), closed; their ids."""
    store = SqliteStore(str(path))
    ids = []
    for _ in range(count):
        game = store.create(store.seeded({"rules": RULES, "backend": "python", "secret": "0123"}))
        game.game.record((0, 0, 1, 1), (1, 0), check=False)
        store.saved(game)
        ids.append(game.id)
    store.close()
    return ids


def overwrite(path: Path, start: int, end: int | None = None) -> None:
    """Overwrite the file's bytes from ``start`` (to ``end``) with 0xa5: pages lost as a failing disk loses them."""
    size = path.stat().st_size if end is None else end
    with path.open("r+b") as file:
        file.seek(start)
        file.write(b"\xa5" * (size - start))


def folder_state(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file of ``folder``: its bytes and its modification time."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir()) if p.is_file()}


def diagnosis(path: Path) -> str:
    """What SQLite finds wrong in the file (``PRAGMA quick_check``), read from a copy (left as it was)."""
    copy = path.parent / "copy" / path.name
    copy.parent.mkdir()
    copy.write_bytes(path.read_bytes())
    try:
        with contextlib.closing(sqlite3.connect(copy)) as check:
            (found,) = check.execute("PRAGMA quick_check(1)").fetchone()
    except sqlite3.DatabaseError as error:
        found = str(error)
    for file in copy.parent.iterdir():
        file.unlink()
    copy.parent.rmdir()
    assert found != "ok"
    return " ".join(found.split()).removeprefix("*** in database main *** ")


def serve_refused(*options, wait: float = 20.0) -> tuple[int, str, str]:
    """``mmlogic serve --port 0 OPTIONS`` expected to refuse at start: exit status, stdout, stderr (a server
    that starts instead is killed after ``wait`` seconds, and the test fails)."""
    try:
        done = subprocess.run([MMLOGIC, "serve", "--port", "0", *map(str, options)], capture_output=True, text=True,
                              timeout=wait, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as started:
        pytest.fail(f"the server started instead of refusing: {started.stderr!r}")
    return done.returncode, done.stdout, done.stderr


# -- a damaged store ---------------------------------------------------------------------------------
def test_a_damaged_store_is_refused_at_start_in_one_line_and_left_as_it_was(tmp_path):
    # Every page but the first overwritten: it was accepted, then every request was a 500 and a 50-line
    # traceback in the log.
    db = tmp_path / "games.db"
    store_with_games(db)
    overwrite(db, PAGE)
    before = folder_state(tmp_path)
    assert serve_refused("--db", db) == (
        2, "", f"error: --db {db}: the store is damaged; SQLite finds: {diagnosis(db)} (refused, left as it was)\n")
    assert folder_state(tmp_path) == before


def test_a_store_with_one_page_lost_is_refused_with_sqlites_diagnosis(tmp_path):
    db = tmp_path / "games.db"
    store_with_games(db, 200)
    overwrite(db, 3 * PAGE, 4 * PAGE)  # a page of the games' table: the schema reads, the rows do not
    before = folder_state(tmp_path)
    assert serve_refused("--db", db) == (
        2, "", f"error: --db {db}: the store is damaged; SQLite finds: {diagnosis(db)} (refused, left as it was)\n")
    assert folder_state(tmp_path) == before


def damaged(name: str) -> str:
    return f"the server's games file is damaged ({name}): its games cannot be read or written"


def test_damage_found_while_serving_is_a_503_in_one_line_and_one_log_line(tmp_path):
    db = tmp_path / "games.db"
    with ServerProcess("--db", str(db)) as server:
        ids = [http_json(f"{server.url}/api/games", "POST", {"rules": RULES, "backend": "python"})[1]["id"]
               for _ in range(20)]
        # The rows written into the file itself, then its pages lost under the running server.
        with contextlib.closing(sqlite3.connect(db)) as other:
            other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        overwrite(db, PAGE)
        requests = [("GET", f"/api/games/{ids[0]}", None), ("POST", f"/api/games/{ids[1]}/guesses", {"guess": "0011"}),
                    ("POST", "/api/games", {"rules": RULES, "backend": "python"})]
        malformed = damaged("database disk image is malformed")
        for method, path, body in requests:
            assert http_json(server.url + path, method, body) == (503, {"error": malformed})
    assert server.stop() == 0
    assert server.output[1].splitlines()[1:] == [
        f"WARNING:  {method} {path}: {damaged('database disk image is malformed')}" for method, path, _ in requests]


class FailingConnection:
    """An SQLite connection whose every statement fails as a failing disk makes it fail."""

    def execute(self, *args):
        error = sqlite3.OperationalError("disk I/O error")
        error.sqlite_errorcode, error.sqlite_errorname = 266, "SQLITE_IOERR_READ"
        raise error


def test_a_disk_error_under_a_request_is_a_503_in_one_line_and_one_log_line(tmp_path, monkeypatch, caplog):
    # No disk fails on demand: the connection is made to fail as SQLite reports an EIO (SQLITE_IOERR_READ).
    store = SqliteStore(str(tmp_path / "games.db"))
    with TestClient(create_app(store)) as client:
        game = client.post("/api/games", json={"rules": RULES, "backend": "python"}).json()
        monkeypatch.setattr(store, "_db", FailingConnection)
        with caplog.at_level(logging.WARNING, logger="uvicorn.error"):
            answer = client.get(f"/api/games/{game['id']}")
        assert (answer.status_code, answer.json()) == (503, {
            "error": "the server's games file cannot be read or written (disk I/O error); try again later"})
        assert [r.getMessage() for r in caplog.records] == [
            f"GET /api/games/{game['id']}: the server's games file cannot be read or written (disk I/O error); "
            "try again later"]
        monkeypatch.undo()


# -- a store locked by another process --------------------------------------------------------------
LOCKER = ("import sqlite3, sys, time\n"
          "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
          "db.execute('BEGIN EXCLUSIVE')\n"
          "print('locked', flush=True)\n"
          "sys.stdin.read()\n")  # held until the test closes its stdin


@contextlib.contextmanager
def locked(path: Path):
    """Another process holding the store's write lock while the block runs."""
    locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert locker.stdout.readline() == "locked\n"
        yield
    finally:
        locker.stdin.close()
        locker.wait(timeout=10)


def busy(seconds: str) -> str:
    return f"the server's games file is locked by another process for more than {seconds} s; try again later"


def test_a_lock_held_beyond_the_wait_is_a_503_and_reads_go_on(tmp_path, monkeypatch):
    monkeypatch.setattr(db_store, "BUSY_SECONDS", 0.5)
    db = tmp_path / "games.db"
    with TestClient(create_app(SqliteStore(str(db)))) as client:
        game = client.post("/api/games", json={"rules": RULES, "backend": "python", "secret": "0123"}).json()
        url = f"/api/games/{game['id']}"
        with locked(db):
            # Reading needs no lock (WAL): the state is answered at once, its time of use kept when it can be.
            start = time.monotonic()
            assert client.get(url).json()["attempts"] == 0
            assert time.monotonic() - start < 0.4
            for method, path, body in (("POST", f"{url}/guesses", {"guess": "0011"}),
                                       ("POST", "/api/games", {"rules": RULES, "backend": "python"})):
                start = time.monotonic()
                answer = client.request(method, path, json=body)
                assert (answer.status_code, answer.json()) == (503, {"error": busy("0.5")})
                assert 0.5 <= time.monotonic() - start < 3
        # Let go, the same requests are served.
        assert client.post(f"{url}/guesses", json={"guess": "0011"}).json()["attempts"] == 1


@pytest.mark.slow  # the server's own wait, 5 s
def test_a_real_server_waits_5_s_for_a_lock_then_answers_503(tmp_path):
    # It was a 500 after 30.7 s (a 30 s busy timeout, then a traceback).
    db = tmp_path / "games.db"
    with ServerProcess("--db", str(db)) as server:
        with locked(db):
            start = time.monotonic()
            assert http_json(f"{server.url}/api/games", "POST", {"rules": RULES, "backend": "python"}, wait=20) == (
                503, {"error": busy("5")})
            assert 5 <= time.monotonic() - start < 10
        assert http_json(f"{server.url}/api/games", "POST", {"rules": RULES, "backend": "python"})[0] == 201
    assert server.stop() == 0
    assert server.output[1].splitlines()[1:] == [f"WARNING:  POST /api/games: {busy('5')}"]


# -- files that cannot be a store: one line at start ---------------------------------------------------
@contextlib.contextmanager
def read_only(path: Path):
    """``path`` (a file or a folder) made read-only while the block runs: ``chattr +i`` as root (whom
    permissions do not stop), else ``chmod``. Yields the reason a write into it is refused (strerror);
    skips the test where neither makes it read-only."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(path)], capture_output=True)
        undo = lambda: subprocess.run(["chattr", "-i", str(path)], capture_output=True)  # noqa: E731
    else:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        undo = lambda: path.chmod(mode)  # noqa: E731
    try:
        probe = path / "probe" if path.is_dir() else path
        try:
            os.close(os.open(probe, os.O_WRONLY | os.O_APPEND | os.O_CREAT))
        except OSError as error:
            reason = error.strerror
        else:
            if path.is_dir():
                probe.unlink()
            pytest.skip("no way to make a file read-only here")
        yield reason
    finally:
        undo()


def test_a_read_only_store_or_folder_is_one_line_at_start(tmp_path):
    folder = tmp_path / "kept"
    folder.mkdir()
    db = folder / "games.db"
    store_with_games(db, 2)
    with read_only(db) as reason:
        assert serve_refused("--db", db) == (2, "", f"error: Invalid value for '--db': cannot write {db} ({reason})\n")
    with read_only(folder) as reason:
        # The store can be written, but not its journal beside it (WAL: games.db-wal, games.db-shm).
        assert serve_refused("--db", db) == (
            2, "", f"error: Invalid value for '--db': cannot write into folder {folder} ({reason}): the store's "
                   "journal, games.db-wal, is written beside it\n")
        assert serve_refused("--db", folder / "new.db") == (
            2, "", f"error: Invalid value for '--db': cannot write {folder / 'new.db'} ({reason})\n")


def test_db_names_that_are_no_file_are_said_as_for_the_other_file_options(run, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cases = [("", "an empty name is not a file or a folder"),  # was "--db : is a directory, not a file"
             (fifo, f"cannot write {fifo} (a FIFO, not a regular file)"),  # was "disk I/O error"
             ("/dev/null", "cannot write /dev/null (a character device, not a regular file)"),
             (tmp_path / "no" / "games.db", f"cannot write {tmp_path / 'no' / 'games.db'} (No such file or directory)")]
    for name, message in cases:
        result = run("serve", "--port", 0, "--db", name)
        assert (result.exit_code, result.stdout, result.stderr) == (
            2, "", f"error: Invalid value for '--db': {message}\n")
    # --out says the same of the same names.
    result = run("bench", "--pegs", 2, "--colors", 2, "--backend", "python", "--out", fifo)
    assert result.stderr == f"error: Invalid value for '--out': cannot write {fifo} (a FIFO, not a regular file)\n"
    assert not (tmp_path / "no").exists()
