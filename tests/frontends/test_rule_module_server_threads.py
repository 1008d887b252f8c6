"""A rule module's code run for many server requests at once (``serve --feedback FILE.py``; issue 56, fourth
audit 3).

Every request's block of the module's code ran in one thread behind one lock, held for the whole block: a
request whose row scored ten million codes (40 s) held every other game of the variant as long; and the watch
looked at the call the rule began last, shared by every thread, so that mmlogic's own work in a block (listing
those codes) was timed as a call and blamed on another request's pair. Now each request's block runs in a
thread of its own (:data:`mm_logic.feedback.watch.RUNNERS` at most), and the limit is per call of ``score``,
looked at in the thread that runs it.

Threads calling the module in this process, as a server's requests do, and one real server; each test bounds its
own waits.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from mm_logic.feedback import custom, watch
from mm_logic.server.process import free_port

from conftest import http_post, wait_listening

#: A rule that tells the pegs in place, and loops (in Python) for the guess 0123 once ``LOOP`` is set, saying so
#: in ``LOOPING``.
RULE = textwrap.dedent("""\
    import threading

    LOOP, LOOPING = threading.Event(), threading.Event()


    def score(guess, secret):
        if guess == (0, 1, 2, 3) and LOOP.is_set():
            LOOPING.set()
            while True:
                pass
        return (sum(g == s for g, s in zip(guess, secret)),)
""")
WAIT = 60  # seconds any thread of a test may take at the most


@pytest.fixture
def rule(tmp_path):
    path = tmp_path / "rule.py"
    path.write_text(RULE)
    return custom.load_rule(str(path))


def in_thread(target) -> tuple[threading.Thread, list]:
    """``target()`` run in a new thread (as a server's request is), started; the thread, and a list that gets
    what it returned or raised."""
    outcome: list = []

    def run():
        try:
            outcome.append(target())
        except BaseException as error:  # noqa: BLE001 - the test looks at it
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def test_a_request_does_not_wait_for_another_requests_block(rule, monkeypatch):
    # A block that runs long (a row of ten million calls) held every other request for as long: the quick
    # request's answer came once it ended.
    monkeypatch.setattr(watch, "CALL_SECONDS", WAIT)
    entered, release = threading.Event(), threading.Event()

    def long_block():
        entered.set()
        release.wait(WAIT)
        return "long"

    long, long_outcome = in_thread(lambda: watch.watched(rule.path, rule, long_block))
    assert entered.wait(WAIT)
    quick, quick_outcome = in_thread(lambda: rule.score((0, 1, 2, 3), (0, 0, 1, 1)))
    quick.join(10)
    answered_first = quick_outcome == [(1,)] and long.is_alive()
    release.set()
    long.join(WAIT)
    quick.join(WAIT)
    assert answered_first, quick_outcome
    assert long_outcome == ["long"]


def test_mmlogics_own_work_in_a_block_is_not_a_call(rule, monkeypatch):
    # Listing ten million codes before their row (16 s) was stopped at the limit, and blamed on the call another
    # request had begun last (a 4-peg pair in a 7-peg game).
    monkeypatch.setattr(watch, "CALL_SECONDS", 0.5)
    other, _ = in_thread(lambda: rule.score((0, 0, 0, 0), (1, 1, 1, 1)))
    other.join(WAIT)

    def own_work():
        ends = time.monotonic() + 2
        while time.monotonic() < ends:
            pass
        return "listed"

    thread, outcome = in_thread(lambda: watch.watched(rule.path, rule, own_work))
    thread.join(WAIT)
    assert [str(said) for said in outcome] == ["listed"]


def test_a_call_that_loops_is_named_by_its_own_pair_while_others_call(rule, monkeypatch):
    # Other requests' calls go on while one loops (they waited for it); the one that loops is stopped at its
    # limit, named by its own pair, not by the pair another thread called last.
    monkeypatch.setattr(watch, "CALL_SECONDS", 1.0)
    module = rule._score.__globals__
    module["LOOP"].set()
    looping, looped = in_thread(lambda: rule.score((0, 1, 2, 3), (0, 0, 1, 1)))
    assert module["LOOPING"].wait(WAIT)
    others_done, stop = [], threading.Event()

    def others():
        codes = [(a, b, 0, 0) for a in range(6) for b in range(6)]
        while not stop.is_set():
            for code in codes:
                others_done.append(rule.score((0, 0, 1, 1), code))
        return len(others_done)

    calling, _ = in_thread(others)
    looping.join(WAIT)
    calls_while_it_looped = len(others_done)
    stop.set()
    calling.join(WAIT)
    assert [str(said) for said in looped] == [
        f"{rule.path}: score((0, 1, 2, 3), (0, 0, 1, 1)) did not return within 1 s"]
    assert calls_while_it_looped > 36


def test_the_blocks_run_at_once_are_bounded(rule, monkeypatch):
    # Each block runs in a runner of its own, RUNNERS of them at most: one more waits for one to be free.
    monkeypatch.setattr(watch, "CALL_SECONDS", WAIT)
    monkeypatch.setattr(watch, "RUNNERS", 2)
    entered, release = threading.Semaphore(0), threading.Event()

    def held():
        entered.release()
        release.wait(WAIT)
        return threading.current_thread().name

    threads = [in_thread(lambda: watch.watched(rule.path, rule, held)) for _ in range(3)]
    for _ in range(2):
        assert entered.acquire(timeout=10)
    third_waits = not entered.acquire(timeout=1)
    release.set()
    for thread, _ in threads:
        thread.join(WAIT)
    assert third_waits
    assert [outcome for _, outcome in threads] == [["mmlogic rule module"]] * 3


# -- a real server ------------------------------------------------------------------------------------------
SLOW = textwrap.dedent("""\
    import time


    def score(guess, secret):
        if guess == (0, 1, 2, 3):
            ends = time.monotonic() + 4
            while time.monotonic() < ends:
                pass
        return (sum(g == s for g, s in zip(guess, secret)),)
""")


@contextlib.contextmanager
def serving(tmp_path):
    """``mmlogic serve --feedback rule.py`` (the rule above) in a child process; yields its URL."""
    (tmp_path / "rule.py").write_text(SLOW)
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "mm_logic", "serve", "--port", str(port), "--feedback",
                                "rule.py"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_listening(process, port, WAIT)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.kill()
        process.communicate()


def test_a_servers_games_of_the_variant_are_answered_beside_a_slow_one(tmp_path):
    with serving(tmp_path) as url:
        games = []
        for _ in range(2):
            status, game = http_post(f"{url}/api/games", {"rules": {"variant": "rule"}, "backend": "python",
                                                         "strategy": "first", "secret": "0011"})
            assert status == 201, game
            games.append(game["id"])
        slow, slow_answer = in_thread(lambda: http_post(f"{url}/api/games/{games[0]}/guesses", {"guess": "0123"},
                                                        WAIT))
        time.sleep(1)  # the slow guess is in its call (4 s, twice: the rule's first calls are asked twice)
        quick_answer = http_post(f"{url}/api/games/{games[1]}/guesses", {"guess": "0012"}, WAIT)
        answered_first = slow.is_alive()
        slow.join(WAIT)
    assert quick_answer == (200, {"guess": "0012", "feedback": "3", "won": False, "attempts": 1})
    assert answered_first
    assert slow_answer == [(200, {"guess": "0123", "feedback": "1", "won": False, "attempts": 1})]


def test_a_call_left_stuck_in_c_gives_the_streams_back(tmp_path, monkeypatch):
    # Its runner is left in time.sleep: its block never ended, and mmlogic's stdout stayed stderr for good (the
    # next in-process command printed nothing).
    monkeypatch.setattr(watch, "CALL_SECONDS", 0.5)
    path = tmp_path / "rule.py"
    path.write_text("import time\n\n\ndef score(guess, secret):\n    time.sleep(1000)\n")
    rule = custom.load_rule(str(path))
    before = sys.stdout, sys.stderr
    thread, outcome = in_thread(lambda: rule.score((0, 1, 2, 3), (0, 0, 1, 1)))
    thread.join(WAIT)
    assert [str(said) for said in outcome] == [f"{path}: score((0, 1, 2, 3), (0, 0, 1, 1)) did not return within 0.5 s"]
    assert (sys.stdout, sys.stderr) == before


#: A rule that tells the pegs in place, a millisecond a call: the python engine's filter of 5x6 (7,776 calls) takes
#: some 8 s and more.
SLOW_CALLS = textwrap.dedent("""\
    import time


    def score(guess, secret):
        time.sleep(0.001)
        return (sum(g == s for g, s in zip(guess, secret)),)
""")


def test_a_requests_filter_of_a_rule_module_ends_at_the_servers_time_limit(tmp_path):
    # The limit was looked at once the filter's pass had ended: a 7x10 request answered 422 after 34 s, its limit
    # 10 s, and told the client to raise --time-limit, an option of the server's.
    from starlette.testclient import TestClient

    from mm_logic.rules import Rules
    from mm_logic.server.api import create_app
    from mm_logic.server.store import GameStore
    from mm_logic.server.variant import Variant

    path = tmp_path / "slow.py"
    path.write_text(SLOW_CALLS)
    variant = Variant.load(None, str(path), None, Rules(pegs=2, colors=2))
    with TestClient(create_app(GameStore(max_games=5, idle_seconds=60, time_limit=1, variants=(variant,)))) as client:
        created = client.post("/api/games", json={"rules": {"pegs": 5, "colors": 6, "variant": "slow"},
                                                  "role": "codemaker", "backend": "python", "strategy": "first"})
        assert created.status_code == 201, created.text
        game = created.json()["id"]
        assert client.get(f"/api/games/{game}/next").json()["guess"] == "00000"
        started = time.monotonic()
        answered = client.post(f"/api/games/{game}/feedback", json={"feedback": "2"})
        took = time.monotonic() - started
    assert answered.status_code == 422
    assert re.fullmatch(rf"{re.escape(str(path))}: scoring \(0, 0, 0, 0, 0\) against 7,776 codes did not end within "
                        r"the time limit of 1 s \([\d,]+ scored\); the server sets that limit",
                        answered.json()["error"]), answered.json()
    assert took < 5  # the whole pass: 8 s and more
