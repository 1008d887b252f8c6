"""Sweeps: every secret of a grid of cases, on this machine or on a Dask cluster.

A :class:`Case` is one (rules, strategy, opening, backend) combination, and
running it is a bench over every secret (:func:`mm_logic.studies.bench.bench_all`):
its row has the attempts (games, total, mean, max, histogram), the time and
the peak memory of the case. :func:`plan` builds and checks the cases of a
grid before any of them runs; :func:`run_sweep` runs those not yet finished.

**Where a case runs.** Always in a fresh Python process of its own
(:func:`run_isolated` starts ``python -m mm_logic.studies.sweep CASE``), so that its
peak memory, ``getrusage(RUSAGE_SELF).ru_maxrss`` of that process when it
ends, is the case's own: the interpreter, numpy, mmlogic and its compiled
kernels (``start_rss_mb``, measured just before the case, after an untimed
warm-up game: :func:`warm_up`) plus what the case added. A long-lived
worker's peak would be its largest case so far; a process costs about half a
second of start-up per case, outside ``seconds``. The executors only
decide where those processes start: ``local`` supervises up to ``--jobs`` of
them from threads of this process; ``dask`` submits :func:`run_isolated` to a
``dask.distributed`` scheduler, and each worker starts the process on its
machine. Either way a case computes exactly what it computes alone, so the
rows are the same whatever the executor and the number of jobs (the time,
memory and host aside).

**Resuming.** With an output file, each row is appended as one JSON line as
soon as its case finishes (flushed to disk); on a rerun, cases whose row is
in the file are not run again. A line cut off by a kill is dropped (its case
runs again). One sweep at a time writes a file (:class:`OutputLock`).
"""

from __future__ import annotations

import gc
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from ..codespace import MAX_CODES
from ..engines import check_feedback_rule
from ..errors import BackendUnavailable, BadInput, MMLogicError, StrategyGaveUp, install_hint
from ..files import read_text, target_of
from ..game import Game
from ..histogram import format_histogram
from ..memory import peak_memory
from ..notation import Code, amount, format_code, parse_code, quoted
from ..player import Player
from ..processes import die_with_parent, worker_count
from ..rules import MAX_COLORS, MAX_PEGS, Rules, rules_object
from ..strategies import make_strategy, parse_strategy
from ..strategies.base import SeededStrategy
from ..symmetry import canonical_openings
from .bench import bench_all, warm_up

#: The fields of a row that name its case (the key of a finished case in an output file).
CASE_FIELDS = ("rules", "strategy", "first_guess", "backend", "seed")
#: What a row has beyond its case, in order.
RESULT_FIELDS = ("opening", "games", "total_guesses", "mean", "max", "histogram", "seconds", "peak_rss_mb",
                 "start_rss_mb", "host")
#: The four scoring strategies: the default of ``sweep --strategy``.
SCORING = ("minimax", "expected", "entropy", "parts")
EXECUTORS = ("local", "dask")
#: Schemes of a scheduler's address (tcp:// when none is written).
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")

#: Called in the main thread as each case ends: the case, and its row or ``{"error": message}``.
OnResult = Callable[["Case", dict], None]


# -- cases ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """One bench over every secret: rules, strategy, opening (None: the strategy's own), backend.

    ``seed`` is kept only for the strategies that use one (random, genetic);
    it is None for the others, whose rows do not depend on it.
    """

    rules: Rules
    strategy: str
    first_guess: Code | None
    backend: str
    seed: int | None = None

    def as_dict(self) -> dict:
        """The case's fields as a row writes them (codes in the contract's notation)."""
        return {"rules": self.rules.as_dict(), "strategy": self.strategy,
                "first_guess": None if self.first_guess is None else format_code(self.first_guess, self.rules),
                "backend": self.backend, "seed": self.seed}

    @classmethod
    def from_dict(cls, data: dict) -> Case:
        """The case of a row (or of :meth:`as_dict`); rows written before every rules object named its
        feedback rule have none: the standard rule."""
        rules = Rules.from_dict(data["rules"])
        first = data["first_guess"]
        return cls(rules, data["strategy"], None if first is None else parse_code(first, rules),
                   data["backend"], data["seed"])

    @property
    def key(self) -> str:
        return case_key(self.as_dict())

    def player(self) -> Player:
        """Who plays the case."""
        return Player(self.rules, self.backend, self.strategy, self.seed, self.first_guess)

    def label(self) -> str:
        """``4x6 minimax 0011 python`` (``own opening`` when none is given)."""
        opening = self.as_dict()["first_guess"] or "own-opening"
        seed = f" seed {self.seed}" if self.seed is not None else ""
        return f"{self.rules.describe()} {self.strategy} {opening} {self.backend}{seed}"


def case_key(row: dict) -> str:
    """The key of the case a row (or a case's dict) belongs to: its rules by value, so that a row written
    before every rules object named its feedback rule is the standard rule's case it was."""
    return json.dumps([rules_object(row[k]) if k == "rules" else row[k] for k in CASE_FIELDS], sort_keys=True)


SIZE = re.compile(r"(\d+)(?:-(\d+))?x(\d+)(?:-(\d+))?")


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """``--sizes``: comma-separated ``PEGSxCOLORS`` items, either side a number or a range ``A-B``.

    Examples
    --------
    >>> parse_sizes("4x2-4, 5x6,6-7x5")
    [(4, 2), (4, 3), (4, 4), (5, 6), (6, 5), (7, 5)]
    """
    sizes: list[tuple[int, int]] = []
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise BadInput(f"--sizes {quoted(text)} names no size; write PEGSxCOLORS items, e.g. 4x6,4x2-10,5-6x6")
    for item in items:
        m = SIZE.fullmatch(item.lower())
        if not m:
            raise BadInput(f"--sizes: {quoted(item)} is not PEGSxCOLORS (e.g. 4x6, 4x2-10, 5-6x6)")
        p1, p2, c1, c2 = (int(g) if g else None for g in m.groups())
        pegs, colors = range(p1, (p2 or p1) + 1), range(c1, (c2 or c1) + 1)
        if not pegs or not colors:
            raise BadInput(f"--sizes: {quoted(item)} has an empty range")
        # Checked before the range is listed: 4x1-100000000 is refused at once.
        for kind, values, most in (("pegs", pegs, MAX_PEGS), ("colours", colors, MAX_COLORS)):
            if values[0] < 1 or values[-1] > most:
                raise BadInput(f"--sizes: {quoted(item)}: {kind} must be between 1 and {most}")
        sizes += [(p, c) for p in pegs for c in colors]
    return list(dict.fromkeys(sizes))


def names(kind: str, choices: Iterable[str], text: str) -> list[str]:
    """A comma-separated list of names, each one of ``choices``, without repeats."""
    from .compare import names as listed
    return listed(kind, list(choices), text)


def uses_seed(strategy: str) -> bool:
    return issubclass(parse_strategy(strategy, files=False).cls, SeededStrategy)


def plan(sizes: list[tuple[int, int]], *, max_repeat: int | None, strategies: list[str],
         first_guesses: list[str], all_openings: bool, backends: list[str], seed: int | None,
         where: str = "--sizes", player: str = "a sweep", feedback: str = "standard") -> list[Case]:
    """The cases of a grid, in order (size, strategy, opening, backend), all checked before any runs.

    ``first_guesses`` are codes each size must accept; none means each
    strategy's own opening; ``all_openings`` plays every canonical opening
    of each size (:func:`mm_logic.symmetry.canonical_openings`). ``where``
    starts the message of a size refused (the option that gave it), and
    ``player`` names the command that plays every secret. ``feedback``: the
    feedback rule of every size (a built-in one: a case runs in a process of its
    own, and a rule of one's own needs its encodings there too).
    """
    if all_openings and first_guesses:
        raise BadInput("give --first-guess or --all-openings, not both")
    cases: list[Case] = []
    for pegs, colors in sizes:
        try:
            rules = Rules(pegs, colors, max_repeat, feedback=feedback)
        except BadInput as error:
            raise BadInput(f"{where} {pegs}x{colors}: {error}" if where else f"{error}") from None
        if rules.size > MAX_CODES:
            told = f"{where}: " if where else ""
            raise BadInput(f"{told}{rules.describe()} has {amount(rules.size)} codes; {player} plays every secret, "
                           f"at most {MAX_CODES:,}")
        if all_openings:
            openings: list[Code | None] = list(canonical_openings(rules))
        elif first_guesses:
            openings = []
            for text in first_guesses:
                try:
                    openings.append(parse_code(text, rules))
                except BadInput as error:
                    raise BadInput(f"--first-guess {text} for {rules.describe()}: {error}") from None
        else:
            openings = [None]
        for backend in backends:
            check_feedback_rule(backend, rules)  # an engine that does not play the rule, at once
        for strategy in strategies:
            make_strategy(strategy, rules)  # refuses a space too large for it, or the rule, at once
            for opening in dict.fromkeys(openings):
                for backend in backends:
                    cases.append(Case(rules, strategy, opening, backend, seed if uses_seed(strategy) else None))
    return list(dict.fromkeys(cases))


# -- running one case -------------------------------------------------------------------
def rss_mb() -> float:
    """Peak resident set size of this process so far, in MB (:func:`mm_logic.memory.peak_memory`)."""
    return peak_memory()[0] / 2**20


def run_case(case: Case) -> dict:
    """Run one case in this process: its row.

    ``seconds`` is the wall time from building the engine to the last game
    (after :func:`warm_up`); ``peak_rss_mb`` is this process's peak so far,
    ``start_rss_mb`` the same just before the case: in a fresh process
    (:func:`run_isolated`) the first is the case's peak, imports included.
    """
    warm_up(case.backend, case.strategy, case.rules.max_repeat)
    start_rss = rss_mb()
    start = time.perf_counter()
    player = case.player()
    engine, strategy = player.build()
    try:
        result = bench_all(engine, strategy)
        if result.failed:  # a sweep's row has no column for failed games: a case that has some fails whole
            raise StrategyGaveUp(f"{len(result.failed)} of {result.games} games failed: {result.failed[0][1]}")
        opening = case.first_guess or next((secret for secret, n in result.games_played if n == 1), None)
        if opening is None:
            # The opening is no code of the space (a probe such as 0000 under --no-repeat): ask again.
            with Game(engine, Player.of(engine, strategy).make_strategy()) as game:
                opening = game.suggest()
    finally:
        engine.close()
    seconds = time.perf_counter() - start
    figures = result.figures()
    return {**case.as_dict(), "opening": format_code(opening, case.rules),
            **{k: v for k, v in figures.items() if k != "seconds"}, "seconds": round(seconds, 3),
            "peak_rss_mb": round(rss_mb(), 1), "start_rss_mb": round(start_rss, 1), "host": socket.gethostname()}


class _Children:
    """The case processes this process has running, to stop them on Ctrl-C."""

    def __init__(self):
        self.lock = threading.Lock()
        self.running: set[subprocess.Popen] = set()
        self.stopped = False

    def stop(self) -> None:
        with self.lock:
            self.stopped = True
            for child in self.running:
                child.kill()


_children = _Children()


def run_isolated(case: dict, stop: _Children | None = None) -> dict:
    """Run one case (``Case.as_dict()``) in a fresh Python process: its row, or ``{"error": message}``.

    This is the task a Dask worker runs; it returns, never raises, so that
    one failed case is reported and the others go on.
    """
    stop = stop or _children
    command = [sys.executable, "-m", "mm_logic.studies.sweep", json.dumps(case), str(os.getpid())]
    with stop.lock:
        if stop.stopped:
            return {"error": "interrupted"}
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
        stop.running.add(child)
    try:
        out, err = child.communicate()
    finally:
        with stop.lock:
            stop.running.discard(child)
    lines = out.strip().splitlines()
    try:
        row = json.loads(lines[-1]) if lines else None
    except ValueError:
        row = None
    if isinstance(row, dict) and (child.returncode == 0 or "error" in row):
        return row
    try:
        how = (f"was killed by signal {signal.Signals(-child.returncode).name}" if child.returncode < 0
               else f"exited {child.returncode}")
    except ValueError:
        how = f"was killed by signal {-child.returncode}"
    last = err.strip().splitlines()[-1:] or [""]
    return {"error": f"the process running the case {how} on {socket.gethostname()}"
                     + (f": {last[0]}" if last[0] else "")}


def _case_process(argv: list[str]) -> int:
    """``python -m mm_logic.studies.sweep CASE [PARENT]``: run one case, print its row (or ``{"error": ...}``) as
    JSON; it ends with the process ``PARENT`` (the sweep's), even one killed outright."""
    if len(argv) > 1:
        die_with_parent(int(argv[1]))
    try:
        row = run_case(Case.from_dict(json.loads(argv[0])))
        code = 0
    except KeyboardInterrupt:
        return 130
    except MMLogicError as error:
        row, code = {"error": str(error)}, 1
    except Exception as error:  # noqa: BLE001 - reported as the case's one-line failure
        row, code = {"error": f"internal failure: {type(error).__name__}: {error}"}, 1
    print(json.dumps(row), flush=True)
    return code


# -- executors ------------------------------------------------------------------------
def run_local(cases: list[Case], jobs: int, on_result: OnResult) -> None:
    """Run the cases, up to ``jobs`` at once, each in its own process; Ctrl-C kills those running."""
    stop = _Children()
    pool = ThreadPoolExecutor(max_workers=worker_count(jobs, len(cases)), thread_name_prefix="mmlogic-case")
    futures = {pool.submit(run_isolated, case.as_dict(), stop): case for case in cases}
    try:
        for future in as_completed(futures):
            on_result(futures[future], future.result())
    finally:
        stop.stop()
        pool.shutdown(wait=True, cancel_futures=True)


def check_dask() -> None:
    """Refuse ``--executor dask`` where dask.distributed is not installed (exit 2)."""
    import importlib.util
    try:
        found = importlib.util.find_spec("distributed") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise BackendUnavailable(f"--executor dask needs dask.distributed: {install_hint('dask')}")


def check_scheduler(address: str) -> None:
    """Refuse a ``--scheduler`` that is no address (exit 2), before dask tries to reach it."""
    from distributed.comm.addressing import parse_address, parse_host_port
    try:
        if not address.strip() or any(c.isspace() for c in address):
            raise ValueError("it has spaces" if address.strip() else "it is empty")
        scheme, location = parse_address(address)
        if scheme not in SCHEMES:
            raise ValueError(f"{scheme}:// is not one of {', '.join(s + '://' for s in SCHEMES)}")
        try:
            _, port = parse_host_port(location)
        except ValueError as error:
            raise ValueError("missing port number" if "missing port" in str(error)
                             else "the port is not a number") from None
        if not 0 < port < 65536:
            raise ValueError(f"port {port} is not between 1 and 65535")
    except ValueError as error:
        reason = str(error)
        raise BadInput(f"--scheduler {quoted(address)} is not a scheduler address ({reason}); "
                       "write tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786") from None


def dask_client(address: str):
    """A ``distributed.Client`` on the scheduler at ``address``, or one line and exit 1.

    How long it tries is dask's ``distributed.comm.timeouts.connect`` (30 s;
    ``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s`` shortens it).
    """
    check_dask()
    import logging

    from distributed import Client
    # Connection attempts log their own retries: the one line below says it all.
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    try:
        return Client(address, set_as_default=False)
    except Exception as error:  # noqa: BLE001 - unreachable, refused, bad address: one line
        reason = " ".join(str(error).split()) or type(error).__name__
        error.__traceback__ = None  # its frames hold the half-built Client: let it go now
    # The half-built Client's __del__ fails in turn (its close times out after 10 s) and Python
    # prints that as an "Exception ignored" traceback: collected here, quietly; the line below says it.
    hook, sys.unraisablehook = sys.unraisablehook, lambda unraisable: None
    try:
        gc.collect()
    finally:
        sys.unraisablehook = hook
    raise MMLogicError(f"cannot reach the Dask scheduler at {address}: {reason}")


def run_dask(cases: list[Case], client, on_result: OnResult) -> None:
    """Submit every case to the cluster (biggest first), handing rows on as they come."""
    from distributed import as_completed as dask_completed
    futures = {client.submit(run_isolated, case.as_dict(), pure=False): case for case in cases}
    try:
        for future in dask_completed(list(futures), loop=client.loop):
            try:
                row = future.result()
            except Exception as error:  # noqa: BLE001 - a worker lost, a task that cannot run
                row = {"error": " ".join(f"{type(error).__name__}: {error}".split())}
            on_result(futures[future], row)
    finally:
        client.cancel(list(futures))


# -- the output file --------------------------------------------------------------------
def is_row(row: dict) -> bool:
    """Whether ``row`` has a finished case's fields, each of its type (what the tables read: a row
    edited by hand to ``"mean": "abc"`` ended a resumed sweep on an internal failure).

    Raises what :meth:`Case.from_dict` raises for a case that is no case.
    """
    Case.from_dict(row)

    def number(value) -> bool:
        return isinstance(value, (int, float)) and not isinstance(value, bool)

    def natural(value) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0

    histogram = row.get("histogram")
    return (isinstance(row.get("opening"), str) and natural(row.get("games")) and natural(row.get("total_guesses"))
            and number(row.get("mean")) and natural(row.get("max")) and isinstance(histogram, dict)
            and all(k.isdigit() and natural(n) for k, n in histogram.items())
            and all(number(row.get(k)) for k in ("seconds", "peak_rss_mb", "start_rss_mb"))
            and isinstance(row.get("host"), str))


class OutputLock:
    """An output file held by one sweep at a time: an advisory lock (``flock``) on the file.

    Two sweeps on one ``--out`` each read it before the other wrote a row, and both ran every
    case: 12 rows for 6. The second now refuses at once (:meth:`take`). The lock follows the
    file when :func:`load_rows` replaces it (:meth:`replace`), and goes with the process, however
    it ends. Where there is no ``flock`` (Windows) nothing is held.
    """

    def __init__(self, path: Path, fd: int | None):
        self.path = path
        self.fd = fd

    @classmethod
    def take(cls, path: Path) -> OutputLock:
        """Hold ``path`` (made if missing), or refuse in one line (exit 2) where another process holds it."""
        try:
            import fcntl
        except ImportError:
            return cls(path, None)
        while True:
            try:
                fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o666)
            except OSError:
                return cls(path, None)  # not even readable: load_rows says so in its own line
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise BadInput(f"--out {path} is being written by another sweep, still running; wait for it to "
                               "end (the same command then runs what it left), or name another file") from None
            except OSError:  # a file system without locks (ENOLCK): written as before, unguarded
                os.close(fd)
                return cls(path, None)
            # The holder may have replaced the file (load_rows) between our open and our lock: the
            # file we hold must be the one the name gives.
            try:
                held, named = os.fstat(fd), os.stat(path)
                if (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino):
                    return cls(path, fd)
            except OSError:
                pass
            os.close(fd)

    def replace(self, source: str) -> None:
        """``os.replace(source, path)``, the lock moved to the new file before its name is."""
        if self.fd is None:
            os.replace(source, self.path)
            return
        import fcntl
        fd = os.open(source, os.O_RDONLY)
        fcntl.flock(fd, fcntl.LOCK_EX)  # a file nobody else knows yet: taken at once
        os.replace(source, self.path)
        os.close(self.fd)
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def load_rows(path: Path, lock: OutputLock | None = None) -> tuple[dict[str, dict], int]:
    """The rows of an output file by case key, and how many unreadable lines were dropped from it.

    The last line, when it does not read as a row and has no end of line (a
    writer killed mid-line), is removed from the file, so that new rows start
    on a line of their own; the other rows, of this grid or not, are kept. Any
    other line that is not a row means the file is not a sweep's output: it is
    refused (:class:`~mm_logic.errors.BadInput`), and left as it is. ``lock``: the sweep's hold
    on the file, moved to the file that replaces it.
    """
    if not path.exists():
        return {}, 0
    rows: dict[str, dict] = {}
    kept: list[str] = []
    try:
        text = read_text(path, "--out")
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"--out {path} cannot be read as a sweep's output: {error}") from None
    lines = text.splitlines()
    bad = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            key = case_key(row)
            if not is_row(row):
                raise ValueError
        except (ValueError, KeyError, TypeError, AttributeError, BadInput):
            if number < len(lines) or text.endswith("\n") or not line.startswith("{"):
                raise BadInput(f"--out {path} is not a sweep's output (line {number} is not one of its rows); "
                               "name a new file, or one an earlier sweep wrote") from None
            bad += 1
            continue
        # The rules object as this version writes it (an older row has no "feedback"), so that sweep --json
        # prints every row alike; the file keeps its lines as they are.
        row["rules"] = rules_object(row["rules"])
        rows.setdefault(key, row)
        kept.append(line)
    if bad or (text and not text.endswith("\n")):
        target = target_of(path)  # a link stays a link: its target is rewritten
        with tempfile.NamedTemporaryFile("w", dir=target.parent, delete=False, prefix=f".{target.name}.") as f:
            f.write("".join(line + "\n" for line in kept))
        shutil.copymode(target, f.name)  # the file keeps its permissions
        if lock is not None:  # held on the target (sweep): the lock moves with the file
            lock.replace(f.name)
        else:
            os.replace(f.name, target)
    return rows, bad


class RowWriter:
    """Appends rows to the output file, one JSON line each, on disk as soon as written."""

    def __init__(self, path: Path | None):
        self.file = path.open("a") if path is not None else None

    def write(self, row: dict) -> None:
        if self.file is not None:
            self.file.write(json.dumps(row) + "\n")
            self.file.flush()
            os.fsync(self.file.fileno())

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


# -- the sweep ------------------------------------------------------------------------
@dataclass
class Sweep:
    """The cases of a grid, their rows (from the output file and from this run) and failures."""

    cases: list[Case]
    rows: dict[str, dict] = field(default_factory=dict)
    failures: list[tuple[Case, str]] = field(default_factory=list)
    #: Cases found finished in the output file.
    skipped: int = 0
    complete: bool = True

    def finished(self) -> list[dict]:
        """The rows of the finished cases, in the plan's order."""
        return [self.rows[c.key] for c in self.cases if c.key in self.rows]

    def as_dict(self) -> dict:
        """``sweep --json``."""
        return {"rows": self.finished(),
                "failures": [{**case.as_dict(), "error": message} for case, message in self.failures]}

    def text(self) -> str:
        return sweep_table(self.finished())


def run_sweep(cases: list[Case], *, out: Path | None = None, executor: str = "local", jobs: int = 1,
              scheduler: str | None = None, progress: Callable[[int], AbstractContextManager] | None = None,
              note: Callable[[str], None] | None = None) -> Sweep:
    """Run the cases not yet in ``out``; Ctrl-C keeps the rows finished (``complete`` False).

    ``progress(n)`` makes a progress bar for the n cases to run (its
    ``update(1)`` is called as each ends); ``note`` gets one-line notes (cases
    skipped, lines dropped). On Dask the scheduler is reached before any case
    runs (one line, exit 1, when it cannot be). ``out`` is held by this sweep alone while it runs
    (:class:`OutputLock`: another on it refuses, exit 2).
    """
    sweep = Sweep(cases)
    # On the file written: a link's target, which load_rows rewrites (the link stays).
    lock = OutputLock.take(target_of(out)) if out is not None else None
    try:
        _run_sweep(sweep, out, lock, executor, jobs, scheduler, progress, note)
    finally:
        if lock is not None:
            lock.release()
    return sweep


def _run_sweep(sweep: Sweep, out: Path | None, lock: OutputLock | None, executor: str, jobs: int,
               scheduler: str | None, progress, note) -> None:
    cases = sweep.cases
    if out is not None:
        found, dropped = load_rows(out, lock)
        if dropped and note:
            note(f"dropped {dropped} unreadable line(s) of {out} (cut off by a kill); their cases run again")
        sweep.rows = {c.key: found[c.key] for c in cases if c.key in found}
        sweep.skipped = len(sweep.rows)
        if sweep.skipped and note:
            left = len(cases) - sweep.skipped
            note(f"all {len(cases)} cases are in {out} already; nothing to run" if not left else
                 f"{sweep.skipped} of {len(cases)} cases are in {out} already; running the other {left}")
    todo = [c for c in cases if c.key not in sweep.rows]
    # Biggest spaces first: the long cases start at once and the short ones fill in at the end.
    todo.sort(key=lambda c: -c.rules.size)
    if not todo:
        return
    client = dask_client(scheduler) if executor == "dask" else None
    writer = RowWriter(out)
    try:
        with progress(len(todo)) if progress else nullcontext() as bar:
            def on_result(case: Case, row: dict) -> None:
                if "error" in row:
                    sweep.failures.append((case, row["error"]))
                else:
                    writer.write(row)
                    sweep.rows[case.key] = row
                if bar is not None:
                    bar.update(1)

            if client is not None:
                run_dask(todo, client, on_result)
            else:
                run_local(todo, jobs, on_result)
    except KeyboardInterrupt:
        sweep.complete = False
        if out is not None:
            # A Ctrl-C between a row's write and its count leaves the file a row ahead of
            # sweep.rows; the file, which the message names and a rerun reads, is what counts.
            writer.close()
            found, _ = load_rows(out, lock)
            sweep.rows = {c.key: found[c.key] for c in cases if c.key in found}
    finally:
        writer.close()
        if client is not None:
            client.close()


# -- tables ---------------------------------------------------------------------------
def _histogram(row: dict) -> str:
    return format_histogram(row["histogram"])


def _rules_label(row: dict) -> str:
    return Rules.from_dict(row["rules"]).describe()


def sweep_table(rows: list[dict]) -> str:
    """One line per case: rules, strategy, opening, backend, attempts, seconds, peak memory."""
    head = ("rules", "strategy", "opening", "backend")
    cells = [(_rules_label(r), r["strategy"], r["opening"], r["backend"]) for r in rows]
    widths = [max([len(h)] + [len(c[i]) for c in cells]) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths))
             + f"  {'games':>8} {'total':>9} {'mean':>6} {'max':>4} {'seconds':>9} {'peak MB':>8}  histogram"]
    for row, cell in zip(rows, cells):
        lines.append("  ".join(c.ljust(w) for c, w in zip(cell, widths))
                     + f"  {row['games']:>8} {row['total_guesses']:>9} {row['mean']:>6.3f} {row['max']:>4} "
                       f"{row['seconds']:>9.3f} {row['peak_rss_mb']:>8.0f}  {_histogram(row)}")
    return "\n".join(lines)


__all__ = ["CASE_FIELDS", "Case", "RESULT_FIELDS", "SCORING", "Sweep", "case_key", "load_rows", "parse_sizes",
           "plan", "run_case", "run_isolated", "run_sweep", "sweep_table"]


if __name__ == "__main__":
    sys.exit(_case_process(sys.argv[1:]))
