"""examples/agent_over_http.py, the agent's loop docs/server.md shows, run against a served instance: each step
as the server answered it, a mistyped guess refused and the game going on, the secret told once the agent gives
up, and an unreachable server, a server that is no mmlogic's and a bad option one line each."""

from __future__ import annotations

import functools
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from mm_logic.server.process import ServerProcess

from conftest import ROOT

EXAMPLE = ROOT / "examples" / "agent_over_http.py"


@pytest.fixture(scope="module")
def served():
    with ServerProcess() as live:
        yield live.url


def agent(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, EXAMPLE, *map(str, args)], capture_output=True, text=True, timeout=60)


def test_the_agent_that_asks_for_hints_wins(served):
    result = agent("--url", served, "--seed", 1)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == "1  0011  0,0\n2  2234  1,2\n3  2343  3,0\n4  2345  4,0\nwon in 4 guesses\n"


def test_a_random_agent_is_refused_its_mistyped_codes_and_gives_up(served):
    result = agent("--url", served, "--seed", 2, "--policy", "random", "--max-guesses", 5)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == ("1  0002  1,0\n2  5522  1,0\n3  4045  0,2\n"
                             "35354: refused (400): code '35354' has 5 pegs, expected 4\n"
                             "4  4342  0,0\ngave up after 5 tries; the secret was 5101\n")


def test_an_unreachable_server_is_one_line():
    result = agent("--url", "http://127.0.0.1:1")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "error: cannot reach http://127.0.0.1:1: [Errno 111] Connection refused\n"


@pytest.fixture
def not_mmlogic(tmp_path):
    """A web server that answers, but not as mmlogic does (``python3 -m http.server``: HTML, 501 for a POST), on
    127.0.0.1, stopped by the test."""
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(tmp_path))
    handler.func.log_message = lambda *args: None  # quiet: the test reads the agent's output alone
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_a_server_that_is_not_mmlogic_is_one_line(not_mmlogic):
    result = agent("--url", not_mmlogic)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (f"error: {not_mmlogic} does not answer as an mmlogic server: POST /api/games gave "
                             "501 and no JSON\n")


def test_a_random_agent_writes_codes_of_more_colours_than_the_alphabet_as_numbers(served):
    # 40 colours: the alphabet's 36 symbols write no code of them all, so codes are comma-separated numbers.
    result = agent("--url", served, "--seed", 3, "--policy", "random", "--colors", 40, "--max-guesses", 5)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == ("1  34,8,23,38  0,0\n2  37,4,38,0  0,0\n3  30,16,35,14  0,0\n"
                             "30,34,35,30,25: refused (400): code '30,34,35,30,25' has 5 pegs, expected 4\n"
                             "4  9,14,9,33  0,1\ngave up after 5 tries; the secret was 32,3,7,9\n")


@pytest.mark.parametrize("value", ["-1", "0", "x"])
def test_max_guesses_is_a_positive_number(value):
    result = agent("--url", "http://127.0.0.1:1", "--max-guesses", value)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1] == (f"agent_over_http.py: error: argument --max-guesses: must be a "
                                              f"positive whole number, got {value!r}")
