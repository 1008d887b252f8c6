"""The server's games and races kept in an SQLite file (``mmlogic serve --db FILE``).

A game is its request (rules, role, backend, strategy, seed, secret...) and
what was played: its history, the computer's guess waiting for an answer, and
whether it was resigned. :class:`SqliteStore` writes that, one row per game
or race, after every request that changed it, in one statement (a transaction
of its own): a ``kill -9`` inside a request leaves the row before it or after
it, never half of it. A game is rebuilt by building its request's game again
(every strategy is a function of its seed and the history, and a request
without a seed is given one before it is built) and recording its history
through the same :class:`~mm_logic.game.Game` API, so it goes on as the game
would have in process.

Each process keeps the games it serves built (a cache) beside the number of
writes each was built from (``version``). A request reads the row's version
first: another process (``serve --workers``) or a restart that wrote it since
makes this one rebuild the game; a write is made only over the version read
(optimistic concurrency), so two processes changing one game at the same
moment cannot mix: the second is refused (409) and rebuilt. The file is in
WAL mode with a busy timeout (:data:`BUSY_SECONDS`): readers never wait,
writers queue; what may wait for a later request (an expiry, a time of use)
is not written while another process holds the file.

Races (move by move) are kept the same way (each entrant's history, time and
stop); batch races run in worker processes of the server that started them
and stay in its memory: a restart loses them (their 404 says so). The schema
is versioned (``PRAGMA user_version``): a file of another version, or not an
SQLite file, is refused in one line and left as it was, and so is a damaged
one (:func:`open_checked` runs ``PRAGMA quick_check``) or one SQLite can only
read. A fault met later (damage, a disk error, a lock held by another process
beyond the wait) is a :class:`~mm_logic.server.store.StoreFault` in one line
(HTTP 503), never a traceback (:func:`faults_said`).

A row is checked as it is read back (:meth:`SqliteStore._read`, :meth:`SqliteStore._rebuild`): its columns' types,
its JSON, its request as a request is checked, its codes and answers as the game checks them, each answer the one
the game gives (its secret's) or accepts (a client's), with the game's own functions. A row changed by hand (or by
another program) that holds no game this server wrote is a :class:`DamagedRow` (503, one line), left as it is; a
start counts such rows by their form (:attr:`SqliteStore.start_note`), without building an engine.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..notation import Entry, abridged, shown
from ..rules import Rules
from ..support.errors import BadInput, MMLogicError, one_line
from ..support.files import not_regular
from .kept_rows import PLAYED_KEYS, QUOTED, game_entries, loaded_row, race_entries, refused, replay_scored
from .race import Race, new_race
from .store import (
    ID,
    Conflict,
    GameStore,
    Hosted,
    HostedGame,
    StoreFault,
    TooManyGames,
    UnknownGame,
    code_of,
    rules_from,
)
from .variant import Variant

#: The schema's version, in the file's ``PRAGMA user_version``; a file of another is refused.
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE hosted (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,        -- 'game' or 'race'
    request TEXT NOT NULL,     -- the request, as JSON, with its seed
    played TEXT NOT NULL,      -- what was played, as JSON (history, pending, resigned; or the entrants')
    over INTEGER NOT NULL,
    version INTEGER NOT NULL,  -- writes so far: a process holding an older one rebuilds
    last_used REAL NOT NULL    -- time.time() of the last request
);
CREATE INDEX hosted_used ON hosted (over, last_used);
CREATE TABLE evicted (id TEXT PRIMARY KEY, at REAL NOT NULL);
"""
#: How long a write waits for another process's write to end, in seconds. A write is one short statement
#: (milliseconds, with --workers too): a wait this long is another program holding the file (sqlite3's
#: shell inside a transaction, a backup), and the request is answered 503 rather than held (it was 30 s, then
#: a 500).
BUSY_SECONDS = 5.0
SQLITE_HEADER = b"SQLite format 3\x00"
#: SQLite's primary result codes the store words itself (an extended code carries its primary one in its
#: low byte: SQLITE_IOERR_READ is 266).
SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_NOTADB = 5, 6, 8, 10, 11, 26
#: How many ids of damaged rows the line at start names.
NAMED_AT_START = 3


class DamagedRow(StoreFault):
    """A game's or race's row holds what this server never writes (changed by hand, or by another program): each
    request on it is refused (503, one line: not the client's fault, nor a bug of the server), and the row is left
    as it is, so that nothing written in it is lost."""


def primary_code(error: sqlite3.Error) -> int | None:
    """SQLite's primary result code of ``error`` (None where Python gives none)."""
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def store_fault(error: sqlite3.Error) -> StoreFault:
    """What a request is told (503) when the file fails under it, in one line."""
    code = primary_code(error)
    if code in (SQLITE_CORRUPT, SQLITE_NOTADB):
        reason = f"is damaged ({error}): its games cannot be read or written"
    elif code in (SQLITE_BUSY, SQLITE_LOCKED):
        reason = f"is locked by another process for more than {BUSY_SECONDS:g} s; try again later"
    else:  # a disk I/O error, a full disk, a file made read-only or removed meanwhile
        reason = f"cannot be read or written ({error}); try again later"
    return StoreFault(f"the server's games file {reason}")


def faults_said(method: Callable) -> Callable:
    """``method`` of the store, an SQLite error under it raised as :class:`StoreFault` (503, one line)."""
    @functools.wraps(method)
    def said(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as error:
            raise store_fault(error) from None
    return said


def opening_error(path: str, error: sqlite3.Error) -> MMLogicError:
    """The one line of a store that cannot be opened: damaged, read-only (exit 2), locked, unreadable (1)."""
    code = primary_code(error)
    if code in (SQLITE_CORRUPT, SQLITE_NOTADB):
        return BadInput(f"--db {path}: the store is damaged; SQLite finds: {error} (refused, left as it was)")
    if code in (SQLITE_BUSY, SQLITE_LOCKED):
        return MMLogicError(f"--db {path}: locked by another process for more than {BUSY_SECONDS:g} s (left as it "
                            "was); start the server again once it lets go")
    if code == SQLITE_READONLY:
        return BadInput(f"--db {path}: cannot write it ({error})")
    return BadInput(f"--db {path}: cannot read it as a store: {error}")


def open_checked(path: str) -> None:
    """Make ``path`` a store (a new or empty file), or check that it is a sound one of this version.

    Raises BadInput (one line, exit 2) for what is not a regular file, a file that is not SQLite, an SQLite
    file of another application or another schema version, a damaged store (``PRAGMA quick_check``, which
    reads every page: 0.2 s for 125 MB in the page cache), a file that cannot be written; MMLogicError (exit
    1) for a file locked by another process longer than :data:`BUSY_SECONDS`. Such a file is left as it
    was: an existing file is checked through a read-only connection, which replays nothing into it.
    """
    file = Path(path)
    kind = not_regular(file)
    if kind is not None:
        raise BadInput(f"--db {path} is {kind}, not a regular file")
    existing = file.exists() and file.stat().st_size > 0
    if existing:
        with file.open("rb") as handle:
            if handle.read(16) != SQLITE_HEADER:
                raise BadInput(f"--db {path}: not an SQLite file (refused, left as it was)")
        check_store(path)
    try:
        db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
    except sqlite3.Error as error:
        raise BadInput(f"--db {path}: cannot open it: {error}") from None
    try:
        tables = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
        db.execute("BEGIN IMMEDIATE")
        if not tables:
            db.executescript(SCHEMA + f"PRAGMA user_version = {SCHEMA_VERSION};")  # commits
        else:
            # The version it has written again, then taken back: a file SQLite can only read says so here.
            try:
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            finally:
                db.execute("ROLLBACK")
        db.execute("PRAGMA journal_mode = WAL")
    except sqlite3.Error as error:
        raise opening_error(path, error) from None
    finally:
        db.close()


def check_store(path: str) -> None:
    """Refuse (one line) an existing SQLite file that is not a sound store of this version, read only."""
    # Read only; and without a journal to read (FILE-wal), as an immutable file: a read-only connection
    # would make FILE-wal and FILE-shm beside it.
    mode = "mode=ro" if Path(f"{path}-wal").exists() else "immutable=1"
    try:
        db = sqlite3.connect(f"{Path(path).absolute().as_uri()}?{mode}", uri=True, timeout=BUSY_SECONDS,
                             isolation_level=None)
    except sqlite3.Error as error:
        raise BadInput(f"--db {path}: cannot open it: {error}") from None
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version == 0 and tables:
            raise BadInput(f"--db {path}: an SQLite file of another application (refused, left as it was)")
        if version not in (0, SCHEMA_VERSION):
            raise BadInput(f"--db {path}: a store of schema version {version}; this mmlogic reads version "
                           f"{SCHEMA_VERSION} (refused, left as it was)")
        (diagnosis,) = db.execute("PRAGMA quick_check(1)").fetchone()
        if diagnosis != "ok":
            diagnosis = one_line(diagnosis).removeprefix("*** in database main *** ")
            raise BadInput(f"--db {path}: the store is damaged; SQLite finds: {diagnosis} (refused, left as it was)")
    except sqlite3.Error as error:
        raise opening_error(path, error) from None
    finally:
        db.close()


@dataclass
class Built:
    """A game or race this process has built, and the version of its row it was built from or wrote."""

    hosted: Hosted
    version: int
    played: str
    #: The row's request (as JSON): a row whose request or play is not the build's was changed by another hand.
    request: str


@dataclass
class Row:
    """A row read back and checked in its form (:meth:`SqliteStore._read`), not yet built: its request's builder
    and secret, and its play (a game's entries, pending guess and resignation; a race's entrants' entries)."""

    kind: str
    build: Callable[[str], Hosted]
    secret: object  # the request's, which no message shows
    played: dict
    entries: list[list[Entry]]  # a game's one history, or each entrant's
    over: int


def game_played(hosted: HostedGame) -> dict:
    """What a game's row keeps of its play (and of a variant's game, the variant's name and files' digest)."""
    return {"history": [[list(g), list(f)] for g, f in hosted.game.history],
            "pending": None if hosted.pending is None else list(hosted.pending), "resigned": hosted.resigned,
            **played_variant(hosted.variant)}


def race_played(race: Race) -> dict:
    """What a race's row keeps of its play: each entrant's history, seconds and stop (and its variant's)."""
    return {"entrants": [{"history": [[list(g), list(f)] for g, f in e.game.history], "seconds": e.seconds,
                          "stopped": e.stopped} for e in race.entrants], **played_variant(race.variant)}


def played_variant(variant: Variant | None) -> dict:
    """What a row keeps of the variant played: its name and its files' digest, which a restart checks."""
    return {} if variant is None else {"variant": variant.identity()}


class SqliteStore(GameStore):
    """A :class:`~mm_logic.server.store.GameStore` whose games and races are rows of an SQLite file.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "games.db")
    >>> store = SqliteStore(path)
    >>> game = store.create(store.seeded({"rules": {"pegs": 3, "colors": 4}, "secret": "012"}))
    >>> store.saved(game)
    >>> again = SqliteStore(path)  # a restart
    >>> again.get(game.id).state()["attempts"], len(again)
    (0, 1)
    """

    def __init__(self, path: str, max_games: int = 1000, idle_seconds: float = 1800.0,
                 time_limit: float | None = 10.0, workers: int = 1, variants: tuple[Variant, ...] = ()):
        super().__init__(max_games, idle_seconds, time_limit, variants)
        #: The processes serving the file: a batch race, held by one of them, is refused above 1.
        self.workers = workers
        open_checked(path)
        self.path = path
        self._local = threading.local()
        self._built: dict[str, Built] = {}
        self._expired_at = 0.0
        #: What the start found of its rows: one line naming those whose form is damaged; None when none is.
        self.start_note = self._start_check()

    def _start_check(self) -> str | None:
        """One line on the rows whose form is damaged (:meth:`_read`, no engine built: 0.3 s for 1,000 games of 7
        entries), or None. The others are served, and a request for a damaged one answered 503, saying why;
        answers the game's secret never gave are found when the row is built (:meth:`_rebuild`)."""
        damaged, rows = [], 0
        with contextlib.closing(sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)) as db:
            try:
                for key, *columns in db.execute(
                        "SELECT id, kind, request, played, version, over, last_used FROM hosted"):
                    rows += 1
                    try:
                        self._read(key, columns[0] if columns[0] in PLAYED_KEYS else "game", *columns)
                    except BadInput:
                        damaged.append(abridged(str(key), QUOTED))
                    except MMLogicError:  # a variant no longer served: its requests' 409 says so
                        pass
            except sqlite3.Error as error:
                raise opening_error(self.path, error) from None
        if not damaged:
            return None
        more = len(damaged) - NAMED_AT_START
        named = ", ".join(damaged[:NAMED_AT_START]) + (f" and {more:,} more" if more > 0 else "")
        verb = "is" if len(damaged) == 1 else "are"
        return (f"--db {self.path}: {len(damaged):,} of {rows:,} games and races {verb} damaged ({named}): a request "
                "for one is answered 503, saying why; the others are served")

    # -- the file ------------------------------------------------------------------
    def _db(self) -> sqlite3.Connection:
        """This thread's connection (a new one in a process forked since: connections are not shared)."""
        db = getattr(self._local, "db", None)
        if db is None or self._local.pid != os.getpid():
            db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA synchronous = NORMAL")  # WAL: a process killed loses nothing committed
            self._local.db, self._local.pid = db, os.getpid()
        return db

    def _write_if_free(self, sql: str, args: tuple) -> int:
        """Run a write that may wait for a later request (an expiry, a time of use) without waiting for
        another process's lock: the rows it changed, 0 when the file was locked. A request that only reads
        is then answered while another process holds the file."""
        db = self._db()
        db.execute("PRAGMA busy_timeout = 0")
        try:
            return db.execute(sql, args).rowcount
        except sqlite3.OperationalError as error:
            if primary_code(error) not in (SQLITE_BUSY, SQLITE_LOCKED):
                raise
            return 0
        finally:
            db.execute(f"PRAGMA busy_timeout = {round(BUSY_SECONDS * 1000)}")

    def seeded(self, request):
        """``request`` with a seed when it has none: the game is then a function of its row."""
        if isinstance(request, dict) and request.get("seed") is None and "games" not in request:
            return {**request, "seed": secrets.randbits(63)}
        return request

    @faults_said
    def __len__(self) -> int:
        (count,) = self._db().execute("SELECT count(*) FROM hosted").fetchone()
        return count + len(self._races)

    @faults_said
    def expire(self, now: float | None = None) -> int:
        """Forget the games and races idle too long (at most once a second a process, and not while another
        process holds the file); how many."""
        wall = time.time() if now is None else now
        forgotten = super().expire(time.monotonic() if now is None else now)  # batch races, in memory
        if now is None and wall - self._expired_at < 1.0:
            return forgotten
        self._expired_at = wall
        deleted = self._write_if_free("DELETE FROM hosted WHERE last_used < ?", (wall - self.idle_seconds,))
        # This process's builds unused as long: gone from the file, or to be built again when asked.
        mono = time.monotonic()
        with self._lock:
            idle = [key for key, built in self._built.items() if mono - built.hosted.last_used > self.idle_seconds]
            for key in idle:
                self._drop(key)
        return forgotten + deleted

    def _drop(self, key: str) -> None:
        """Forget this process's build of ``key`` (under the store's lock), its engine released unless a
        request is using it (then released when dropped)."""
        built = self._built.pop(key, None)
        if built is not None and built.hosted.lock.acquire(blocking=False):
            try:
                built.hosted.close()
            finally:
                built.hosted.lock.release()

    # -- games and races in and out ------------------------------------------------------
    @faults_said
    def create(self, request: dict) -> HostedGame:
        request = self.seeded(request)  # the line protocol's games too
        build = self.game_builder(request)
        return self._insert("game", request, build, game_played)

    @faults_said
    def add_race(self, build: Callable[[str], Hosted], request: dict | None = None) -> Hosted:
        if request is None or "games" in request:  # a batch race: in this process's memory
            if self.workers > 1:
                raise Conflict(f"a batch race runs in the memory of one process, and this server has {self.workers}: "
                               "its state would not be found by the others; race move by move, or serve with "
                               "--workers 1")
            return super().add_race(build)
        return self._insert("race", request, build, race_played)

    def _insert(self, kind: str, request: dict, build: Callable[[str], Hosted], played: Callable) -> Hosted:
        """Build a game or race and write its row, if there is room (making room as the memory store does)."""
        self.expire()
        self._room(write=False)
        hosted = build(self.run + secrets.token_urlsafe(9))
        text = json.dumps(played(hosted))
        db = self._db()
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                self._room(write=True)
                db.execute("INSERT INTO hosted VALUES (?, ?, ?, ?, 0, 0, ?)",
                           (hosted.id, kind, json.dumps(request), text, time.time()))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        except BaseException:
            hosted.close()
            raise
        with self._lock:
            self._built[hosted.id] = Built(hosted, 0, text, json.dumps(request))
        return hosted

    def _room(self, write: bool) -> None:
        """Refuse a new game when the file is full of games in play; with ``write`` (in the transaction
        that adds one), forget the least recently used of those over to make room."""
        excess = len(self) - self.max_games + 1
        if excess <= 0:
            return
        full = TooManyGames(f"the server holds its maximum of {self.max_games} games and races; try again later")
        db = self._db()
        finished = [row[0] for row in db.execute(
            "SELECT id FROM hosted WHERE over = 1 ORDER BY last_used LIMIT ?", (excess,))]
        if len(finished) < excess:
            raise full
        if write:
            now = time.time()
            for key in finished:
                db.execute("DELETE FROM hosted WHERE id = ?", (key,))
                db.execute("INSERT OR REPLACE INTO evicted VALUES (?, ?)", (key, now))
                with self._lock:
                    self._drop(key)
            db.execute("DELETE FROM evicted WHERE id NOT IN (SELECT id FROM evicted ORDER BY at DESC LIMIT 10000)")

    @faults_said
    def get(self, game_id: str) -> HostedGame:
        return self._lookup_row(game_id, "game")

    @faults_said
    def get_race(self, race_id: str) -> Hosted:
        with self._lock:
            batch = self._races.get(race_id)
        if batch is not None:
            return super().get_race(race_id)
        return self._lookup_row(race_id, "race")

    def races(self) -> list[Hosted]:
        """The batch races running in this process (those the API counts)."""
        with self._lock:
            return list(self._races.values())

    def _lookup_row(self, key: str, kind: str) -> Hosted:
        """The game or race ``key``: this process's build when the row has not changed since, else built
        again from the row, checked (:class:`DamagedRow` when it holds no game this server wrote)."""
        self.expire()
        row = self._db().execute("SELECT kind, request, played, version, over, last_used FROM hosted WHERE id = ?",
                                 (key,)).fetchone()
        if row is not None and row[0] != kind and row[0] in PLAYED_KEYS:
            row = None  # a race's id asked for as a game's, or the other way: no such game
        with self._lock:
            built = self._built.get(key)
            # Another process wrote it (its version), or another hand changed it (its text): built again.
            if built is not None and (row is None or (built.request, built.played, built.version) != row[1:4]):
                self._drop(key)
                built = None
        if row is None:
            raise UnknownGame(f"no {kind} {shown(key)} ({self.why_unknown(key, kind)})")
        if built is None:
            try:
                hosted = self._rebuild(key, self._read(key, kind, *row))
            except BadInput as error:
                raise DamagedRow(f"{kind} {abridged(key, QUOTED)} in the server's games file is damaged: "
                                 f"{one_line(error)} (its row is left as it is; no request plays it)") from None
            built = Built(hosted, row[3], row[2], row[1])
            with self._lock:
                self._built[key] = built
        built.hosted.last_used = time.monotonic()
        return built.hosted

    def _read(self, key: str, kind: str, stored_kind, request_text, played_text, version, over, last_used) -> Row:
        """A row's columns checked in their form, without building an engine: its columns' types, its JSON, its
        request as a request is checked, its codes and answers as the game checks them (:func:`kept_entries`).
        BadInput says what holds no game this server wrote; Conflict (409) a variant it no longer serves."""
        request, played = loaded_row(kind, stored_kind, request_text, played_text, version, over, last_used)
        kept = played.get("variant")
        self._check_variant(key, kind, kept)
        rules, variant = self._request_rules(request)
        named, recorded = (None if variant is None else variant.name), (None if kept is None else kept["name"])
        if named != recorded:
            raise BadInput(f"its play records {'no variant' if recorded is None else f'the variant {recorded}'}, its "
                           f"request {'none' if named is None else f'the variant {named}'}")
        secret = request.get("secret")
        try:
            build = self.game_builder(request) if kind == "game" else new_race(request, self.time_limit, self.variants)
        except BadInput as error:
            raise refused(error, secret) from None
        if kind == "game":
            return Row(kind, build, secret, played, [game_entries(request, played, rules)], over)
        return Row(kind, build, secret, played, race_entries(request, played, rules), over)

    def _request_rules(self, request: dict) -> tuple[Rules, Variant | None]:
        """A row's request's rules and variant; its secret a code of them (a secret that is not is not shown)."""
        try:
            rules, variant = rules_from(request.get("rules"), self.variants)
        except BadInput as error:
            raise BadInput(f"its request is refused: {error}") from None
        if request.get("secret") is not None:
            try:
                code_of(request["secret"], rules)
            except BadInput:
                raise BadInput("its secret is not a code of its rules (not shown here)") from None
        return rules, variant

    def _rebuild(self, key: str, row: Row) -> Hosted:
        """A game or race built again from its row (read by :meth:`_read`): its request built, then its play
        recorded, each answer checked by the game (:meth:`HostedGame.replay`, :func:`replay_scored`). BadInput
        when they are not the game's, or the row's ``over`` is not the play's."""
        try:
            hosted = row.build(key)  # the secret drawn or checked among a variant's codes
        except BadInput as error:
            raise refused(error, row.secret) from None
        try:
            if row.kind == "game":
                hosted.replay(row.entries[0])
                hosted.pending = None if row.played["pending"] is None else tuple(row.played["pending"])
                hosted.resigned = row.played["resigned"]
                if hosted.resigned and hosted.game.won:
                    raise BadInput("its play is both won and resigned")
            else:
                for number, (entrant, entries, kept) in enumerate(
                        zip(hosted.entrants, row.entries, row.played["entrants"]), 1):
                    replay_scored(entrant.game, entries, "the race's secret", f"entrant {number}, ")
                    entrant.seconds, entrant.stopped = kept["seconds"], kept["stopped"]
                won = [n for n, e in enumerate(hosted.entrants, 1) if e.game.won]
                running = [n for n, e in enumerate(hosted.entrants, 1) if e.running]
                if won and running:  # a race ends at the step in which one wins
                    raise BadInput(f"entrant {won[0]} won, and entrant {running[0]} plays on")
            if int(hosted.over) != row.over:
                raise BadInput(f"its column over is {row.over}, but its play is {'' if hosted.over else 'not '}over")
        except BaseException:
            hosted.close()
            raise
        return hosted

    def _check_variant(self, key: str, kind: str, kept: dict | None) -> None:
        """Refuse (409) to build again a game or race of a variant this server no longer serves, or serves from
        files that have changed since it began: it would be another game."""
        if kept is None:
            return
        served = next((v for v in self.variants if v.name == kept["name"]), None)
        if served is None:
            serves = ", ".join(v.name for v in self.variants) or "none"
            raise Conflict(f"{kind} {key} plays the variant {kept['name']}, which this server no longer serves "
                           f"(variants served: {serves})")
        if served.digest != kept["sha256"]:
            raise Conflict(f"{kind} {key} plays the variant {kept['name']} as its files were when it began; they "
                           "have changed since, and it cannot go on")

    @faults_said
    def saved(self, hosted: Hosted) -> None:
        """Write what a request changed in ``hosted`` (under its lock), over the version it was built from.

        Raises Conflict when another process wrote the row since (its build is then dropped): the
        request is refused, never mixed with the other's. A write that fails (StoreFault) drops the build
        too: the next request builds the game again from the row, without the change that was not kept.
        """
        if isinstance(hosted, HostedGame):
            text = json.dumps(game_played(hosted))
        elif isinstance(hosted, Race):
            text = json.dumps(race_played(hosted))
        else:  # a batch race: in memory
            return
        with self._lock:
            built = self._built.get(hosted.id)
        db = self._db()
        if built is None or built.hosted is not hosted:
            row = db.execute("SELECT played FROM hosted WHERE id = ?", (hosted.id,)).fetchone()
            if row is None or row[0] == text:
                return  # forgotten meanwhile (expired, made room), or nothing changed: nothing to write
            raise Conflict(f"{hosted.id} was changed by another request at the same moment; read it and try again")
        if text == built.played:  # only its time of use, which may wait
            self._write_if_free("UPDATE hosted SET last_used = ? WHERE id = ?", (time.time(), hosted.id))
            return
        try:
            cursor = db.execute("UPDATE hosted SET played = ?, over = ?, version = version + 1, last_used = ? "
                                "WHERE id = ? AND version = ?",
                                (text, int(hosted.over), time.time(), hosted.id, built.version))
        except sqlite3.Error:
            with self._lock:
                self._built.pop(hosted.id, None)
            raise
        if cursor.rowcount == 0:
            with self._lock:
                self._built.pop(hosted.id, None)
            raise Conflict(f"{hosted.id} was changed by another request at the same moment; read it and try again")
        built.version += 1
        built.played = text

    # -- why an id is unknown -------------------------------------------------------------
    @faults_said
    def evicted(self, key: str) -> bool:
        if super().evicted(key):
            return True
        return self._db().execute("SELECT 1 FROM evicted WHERE id = ?", (key,)).fetchone() is not None

    def why_unknown(self, key: str, kind: str = "game") -> str:
        """As the memory store says, but a game of an earlier run was kept: gone, it went idle (or never was),
        unless it is a batch race, which only its process held."""
        if self.evicted(key):
            return "it was over, and forgotten to make room for new games"
        issued = ID.fullmatch(key)
        if kind == "race" and issued and issued[1] < self.run:
            return ("a race of an earlier run of the server: a batch race is lost when the server stops; "
                    f"other {self.idle_text('race')}")
        return self.idle_text(kind)

    def close(self) -> None:
        super().close()
        with self._lock:
            for built in self._built.values():
                built.hosted.close()
            self._built.clear()
        db = getattr(self._local, "db", None)
        if db is not None and self._local.pid == os.getpid():
            db.close()
            self._local.db = None
