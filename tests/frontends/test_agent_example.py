"""examples/agent_over_http.py, the agent's loop docs/server.md shows, run against a served instance: each step
as the server answered it, a mistyped guess refused and the game going on, the secret told once the agent gives
up, and an unreachable server one line."""

from __future__ import annotations

import subprocess
import sys

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
