"""py/tools/serve_load.py: 200 games at once against a real server on 127.0.0.1 lose or mix up nothing."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from mm_logic.engines.reference import ReferenceEngine
from mm_logic.game import play
from mm_logic.rules import Rules
from mm_logic.secret_codes import random_secrets
from mm_logic.strategies import make_strategy

from conftest import py_path

SCRIPT = py_path("serve_load")


def load(*options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *options], capture_output=True, text=True, timeout=300)


def attempts_in_process(rules: Rules, strategy: str, games: int) -> int:
    """The attempts the script's seeded secrets take in process: what every load must add up to."""
    engine, player = ReferenceEngine(rules), make_strategy(strategy, rules)
    return sum(play(engine, player, secret).attempts for secret in random_secrets(rules, games, 1))


def loaded(*options: str) -> list[str]:
    """The script's report, run to success."""
    result = load(*options)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.splitlines()


@pytest.mark.slow  # 200 games at once: 7.7 s measured (5.3 s warm)
def test_200_concurrent_games_each_take_the_attempts_they_take_in_process():
    total = attempts_in_process(Rules(), "minimax", 200)
    for role in ("codemaker", "codebreaker"):
        lines = loaded("--games", "200", "--concurrency", "200", "--role", role, "--max-seconds", "120")
        assert re.fullmatch(r"server http://127\.0\.0\.1:\d+; 200 games of 4x6, 200 at once, "
                            rf"role {role}, python/minimax", lines[0])
        assert re.fullmatch(r"games      200 of 200 in [\d.]+ s: [\d.]+ games/s", lines[1])
        # The script compares game by game; the total is checked here on its own too.
        assert lines[3] == f"attempts   {total} in all; mismatches with play in process: 0"
        requests = int(re.match(r"requests   (\d+):", lines[2]).group(1))
        # codemaker: a game, then a next and a feedback per guess; codebreaker: a game and a guess per guess.
        assert requests == (200 + 2 * total if role == "codemaker" else 200 + total)


def test_load_goes_to_this_machine_only():
    result = load("--url", "http://192.0.2.1:8000", "--games", "1")
    assert (result.returncode, result.stdout) == (2, "")  # bad input, as every other bad --url
    assert result.stderr == "error: --url must be a loopback address (127.0.0.1, ::1, localhost), " \
                            "not 'http://192.0.2.1:8000'\n"


@pytest.mark.slow  # two servers started, 66 small games each: about 6 s
def test_one_and_two_workers_side_by_side_lose_and_mix_nothing():
    total = attempts_in_process(Rules(pegs=3, colors=4), "minimax", 60)
    lines = loaded("--workers", "1,2", "--games", "60", "--concurrency", "6", "--warmup", "6", "--pegs", "3",
                   "--colors", "4", "--max-seconds", "120")
    assert lines[0] == "60 games of 3x4, 6 at once, role codemaker, python/minimax, by number of worker processes"
    for block, workers in ((lines[1:6], 1), (lines[6:11], 2)):
        assert re.fullmatch(rf"workers    {workers} \(mmlogic serve --db FILE --workers {workers}, "
                            r"at http://127\.0\.0\.1:\d+\)", block[0])
        assert re.fullmatch(r"games      60 of 60 in [\d.]+ s: [\d.]+ games/s", block[1])
        assert block[2].startswith(f"requests   {60 + 2 * total}: p50 ")
        assert block[3] == f"attempts   {total} in all; mismatches with play in process: 0"
        assert re.fullmatch(r"cpu        this client [\d.]+ s, the server [\d.]+ s", block[4])
    assert re.fullmatch(r"speed-up   2 workers: [\d.]+ times the games/s of 1", lines[11]) and len(lines) == 12


@pytest.mark.slow  # a server killed and started again (two starts), 16 small games: about 8 s
def test_a_kill_9_and_restart_under_load_loses_and_mixes_nothing():
    total = attempts_in_process(Rules(pegs=3, colors=4), "first", 16)
    lines = loaded("--workers", "1", "--games", "16", "--concurrency", "4", "--restart-after", "6", "--pegs", "3",
                   "--colors", "4", "--strategy", "first", "--max-seconds", "120")
    assert re.fullmatch(r"restart    kill -9 after 6 games done; started again on the same file in [\d.]+ s "
                        r"\(at http://127\.0\.0\.1:\d+\)", lines[2])
    assert re.fullmatch(r"games      16 of 16 in [\d.]+ s: [\d.]+ games/s", lines[3])
    assert lines[5] == f"attempts   {total} in all; mismatches with play in process: 0"
    assert lines[6] == "cpu        this client " + lines[6].split("client ")[1] and lines[6].endswith(
        "the server (not known)")


def test_restart_after_needs_workers_and_the_codemaker_role():
    result = load("--restart-after", "5", "--games", "10")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.endswith("error: --restart-after N needs --workers, --role codemaker and N below --games\n")
