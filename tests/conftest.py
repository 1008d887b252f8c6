"""Shared fixtures and helpers: the CLI runner, in process and as a child process, the checks of a one-line
error (CLI and API), the server's store and test client, and the scripts under py/. Hypothesis strategies
and the brute-force references are in ``generators.py``."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mm_logic.cli import cli
from mm_logic.engines import make_engine
from mm_logic.game import play
from mm_logic.notation import parse_code
from mm_logic.strategies import make_strategy

ROOT = Path(__file__).resolve().parent.parent
#: The console script beside this Python, as a user runs it.
MMLOGIC = str(Path(sys.executable).parent / "mmlogic")
#: The options that put a command on the reference engine.
PY = ["--backend", "python"]
#: The strategies that score every code as a guess.
SCORERS = ["minimax", "expected", "entropy", "parts"]


def mmlogic(*args, cwd=None, timeout: float = 120) -> subprocess.CompletedProcess:
    """``mmlogic ARGS`` in its own process: what would end or hang this one (a crash in a solver,
    an encoding that halts, a pool that waits for ever) fails the test instead, after ``timeout``."""
    return subprocess.run([MMLOGIC, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def one_line_error(result, code: int, message: str, *, stdout: str | None = None) -> None:
    """A CLI run (click's Result) that ended with exit ``code`` and the one line ``error: MESSAGE`` on stderr,
    no traceback; with ``stdout``, what it printed before (``""``: the error was found before any output)."""
    assert (result.exit_code, result.stderr) == (code, f"error: {message}\n"), result.output
    assert "Traceback" not in result.output
    if stdout is not None:
        assert result.stdout == stdout


def api_error(response, status: int, message: str) -> None:
    """The server's answer to a refused request: ``status`` and the JSON ``{"error": MESSAGE}``, one line."""
    assert response.status_code == status, response.text
    assert response.json() == {"error": message}
    assert "\n" not in message


def played(backend: str, strategy: str, secret: str, rules, first_guess: str | None = None) -> list:
    """The guesses and answers of ``strategy`` on ``backend`` against ``secret``, played in process
    (:func:`mm_logic.game.play`): what a game through the server or the web page must equal."""
    opening = parse_code(first_guess, rules) if first_guess else None
    record = play(make_engine(backend, rules), make_strategy(strategy, rules, first_guess=opening),
                  parse_code(secret, rules))
    return record.guesses


@pytest.fixture(autouse=True, scope="session")
def ctrl_c_reaches_python():
    """Ctrl-C tests send SIGINT (hang-up tests SIGHUP). A shell that starts pytest in the background (``cmd &``
    without job control) starts it with SIGINT ignored; Python then installs no handler, and the
    children it spawns inherit the ignored signal. A handler here undoes both: exec resets a
    handled signal to its default in every child."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # Likewise SIGHUP under nohup: ignored, it stays ignored in every command a test starts, and the test
    # that hangs up on `openings` waited a minute for a command that could not hear it.
    if hasattr(signal, "SIGHUP") and signal.getsignal(signal.SIGHUP) == signal.SIG_IGN:
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    yield


@pytest.fixture(autouse=True, scope="session")
def kernels_ready(tmp_path_factory, worker_id):
    """The compiled kernels made ready once in each test process, before any test: a fresh checkout compiles them
    (the strategies' 20-90 s, the optimal search's modules 10-40 s each), which a command says on stderr (``note:
    compiling ...``), and the first test to need them would otherwise read that note in its stderr.

    Each group is compiled under a lock shared by the test processes, and each process takes the groups in its own
    order: two processes compile two groups at once, then each loads the other's from the cache (compiling the
    same group twice at once cost CI's suite a minute)."""
    import fcntl

    from mm_logic.kernels.warming import warm
    from mm_logic.optimal.searcher import compile_kernels
    from mm_logic.rules import Rules

    groups = [("scoring", lambda: warm("scoring", "weighted")),
              # The search's modules for the arrays of most games, and of black pegs' per-peg symmetry.
              ("optimal", lambda: compile_kernels(None, worst=True, rules=Rules(2, 3))),
              ("optimal-pegs", lambda: compile_kernels(None, worst=True, rules=Rules(3, 2, feedback="black")))]
    turn = int(worker_id[2:]) if worker_id.startswith("gw") else 0
    shared = tmp_path_factory.getbasetemp().parent
    for name, make_ready in groups[turn % len(groups):] + groups[:turn % len(groups)]:
        with open(shared / f"kernels-{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            make_ready()
    yield


@pytest.fixture
def run():
    """Invoke the CLI; returns click's Result (stdout and stderr kept apart)."""
    runner = CliRunner()

    def invoke(*args, input=None):
        return runner.invoke(cli, [str(a) for a in args], input=input)

    return invoke


@pytest.fixture
def run_json(run):
    """Invoke the CLI with --json and parse stdout, asserting exit 0."""

    def invoke(*args):
        result = run(*args, "--json")
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)

    return invoke



@pytest.fixture
def index_install(monkeypatch):
    """mmlogic as installed from a package index into no virtual environment: an extra's hint is then
    ``pip install 'mmlogic[EXTRA]'`` (:func:`mm_logic.support.errors.install_hint`), whatever this checkout's
    install."""
    from mm_logic.support import errors

    monkeypatch.setattr(errors, "installed_from", lambda: None)
    monkeypatch.setattr(sys, "prefix", sys.base_prefix)


@pytest.fixture
def store():
    """The server's game store, small: five games, a minute's idle expiry."""
    from mm_logic.server.store import GameStore
    return GameStore(max_games=5, idle_seconds=60, time_limit=10)


@pytest.fixture
def client(store):
    """Starlette's test client on the API over ``store``."""
    from starlette.testclient import TestClient

    from mm_logic.server.api import create_app
    with TestClient(create_app(store)) as client:
        yield client


#: The scripts under py/: the maintained tools, and the finished experiments kept runnable.
PY_FOLDERS = (ROOT / "py" / "tools", ROOT / "py" / "experiments")


def py_path(name: str) -> Path:
    """The script ``NAME`` (``NAME.py`` too) under py/, in whichever of :data:`PY_FOLDERS` holds it."""
    stem = name.removesuffix(".py")
    found = [folder / f"{stem}.py" for folder in PY_FOLDERS if (folder / f"{stem}.py").is_file()]
    assert len(found) == 1, f"{stem}.py: {len(found)} scripts of that name under py/tools and py/experiments"
    return found[0]


def py_script(name: str):
    """The script ``NAME`` under py/ as a module (the scripts are no package: loaded from their file)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, py_path(name))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_seed003_script():
    """``py/tools/seed003_vs_swipl.py`` as a module; the report it reads must be there.

    The report is not the project's: it lies beside the repository, as in CI,
    where its absence fails the tests that need it. In a lone clone elsewhere
    (no shared/ beside it) they are skipped, saying why.
    """
    import os

    module = py_script("seed003_vs_swipl")
    if not module.SEED_DOC.is_file() and not os.environ.get("CI"):
        pytest.skip(f"seed 003's report is not beside the repository ({module.SEED_DOC})")
    return module


# -- real servers and child processes ------------------------------------------------------------------------
def http_json(url: str, method: str = "GET", body: dict | None = None, wait: float = 30.0) -> tuple[int, dict]:
    """One request to a real server: its status and JSON body (an HTTP error's too)."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=wait) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def http_post(url: str, body: dict, wait: float = 30.0) -> tuple[int, dict]:
    """A POST of ``body`` as JSON to a real server: its status and JSON body."""
    return http_json(url, "POST", body, wait)


def wait_listening(process: subprocess.Popen, port: int, seconds: float) -> None:
    """Wait until a server started as ``process`` accepts connections on ``port`` (failing if it ends first)."""
    import socket
    import time

    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.1)


def lines_until(process: subprocess.Popen, wanted: str, seconds: float) -> str:
    """What ``process`` writes on stderr up to the line ``wanted``, waiting at most ``seconds``."""
    import selectors
    import time

    selector = selectors.DefaultSelector()
    selector.register(process.stderr, selectors.EVENT_READ)
    seen, deadline = "", time.monotonic() + seconds
    while not seen.endswith(f"{wanted}\n"):
        left = deadline - time.monotonic()
        assert left > 0 and selector.select(left), f"no {wanted!r} on stderr after {seconds} s: {seen!r}"
        chunk = process.stderr.readline()
        assert chunk, f"stderr closed before {wanted!r}: {seen!r}"
        seen += chunk
    return seen


def signalled_after(process: subprocess.Popen, line: str, ending: int, seconds: float = 60) -> tuple[int, str, str]:
    """Send ``ending`` to ``process`` once it has said ``line`` on stderr (and a moment more, to be into what
    follows); its exit code, stdout, and stderr whole. The process is killed if it outlives the wait."""
    import time

    try:
        said = lines_until(process, line, seconds)
        time.sleep(0.3)
        process.send_signal(ending)
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
        process.wait()
    return process.returncode, out, said + err
