"""``mmlogic serve --feedback FILE.py`` with a rule module that does not return (issue 56, audit 5).

The server's requests run in threads, which the main thread's timer does not reach: a ``score`` that looped in a
request held it for ever, and SIGTERM then left the server running (uvicorn waits for the requests under way,
and the process for its threads). Now the call is stopped at the module's limit, the request answered in one
JSON line, and the server stops on SIGTERM, also while a request waits for such a call. The line names the guess,
never the code it was scored against: the game's secret (tests/frontends/test_rule_failure_secrets.py).

Real servers in child processes, whose rule modules get a short limit (:func:`serving`), asked over HTTP; each
test bounds its own waits.
"""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import textwrap
import threading
import time

from mm_logic.server.process import free_port

from conftest import http_post, wait_listening

#: A rule that tells the colours shared, and does not return for the guess 0123: one in pure Python, one that
#: waits in C (a call ``PyThreadState_SetAsyncExc`` cannot stop: its thread is left to it).
STUCK = {
    "loops": "        while True:\n            pass\n",
    "sleeps": "        import time\n        time.sleep(1000)\n",
}
RULE = """\
from collections import Counter


def score(guess, secret):
    if guess == (0, 1, 2, 3):
{stuck}    return (sum((Counter(guess) & Counter(secret)).values()),)
"""
WAIT = 60  # seconds any request or stop may take at the most


@contextlib.contextmanager
def serving(tmp_path, stuck: str, seconds: float):
    """``mmlogic serve --feedback rule.py`` in a child process, the module's limit made ``seconds``; yields
    ``(process, url, rule path)``, and kills the server if the test left it running."""
    path = tmp_path / "rule.py"
    path.write_text(RULE.format(stuck=STUCK[stuck]))
    port = free_port()
    child = textwrap.dedent(f"""
        import sys
        import mm_logic.feedback.watch as watch
        watch.CALL_SECONDS = {seconds!r}
        from mm_logic.__main__ import main
        sys.argv = ["mmlogic", "serve", "--port", "{port}", "--feedback", {str(path)!r}]
        main()
    """)
    process = subprocess.Popen([sys.executable, "-c", child], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        wait_listening(process, port, WAIT)
        yield process, f"http://127.0.0.1:{port}", path
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()


def new_game(url: str) -> str:
    """A codebreaker game of the variant, its secret 0011; its id."""
    status, game = http_post(f"{url}/api/games", {"rules": {"variant": "rule"}, "backend": "python",
                                             "strategy": "first", "secret": "0011"})
    assert status == 201, game
    return game["id"]


def stopped(process: subprocess.Popen, number: int = signal.SIGTERM) -> tuple[int, float]:
    """Send ``number``; the exit code and the seconds the server took to end."""
    sent = time.monotonic()
    process.send_signal(number)
    code = process.wait(timeout=WAIT)
    return code, time.monotonic() - sent


def test_a_call_that_loops_in_a_request_is_stopped_and_answered(tmp_path):
    with serving(tmp_path, "loops", 1) as (process, url, path):
        game = new_game(url)
        started = time.monotonic()
        assert http_post(f"{url}/api/games/{game}/guesses", {"guess": "0123"}) == (
            422, {"error": f"{path}: score((0, 1, 2, 3), <a code withheld>) did not return within 1 s"})
        assert time.monotonic() - started < 30
        # The rule plays on: the next request gets its answer.
        status, state = http_post(f"{url}/api/games/{game}/guesses", {"guess": "0011"})
        assert (status, state) == (200, {"guess": "0011", "feedback": "won", "won": True, "attempts": 1,
                                         "secret": "0011"})
        code, took = stopped(process)
    assert code == 143 and took < 30


def test_a_call_stuck_in_c_is_left_to_its_thread_and_sigterm_stops_the_server(tmp_path):
    with serving(tmp_path, "sleeps", 1) as (process, url, path):
        game = new_game(url)
        started = time.monotonic()
        assert http_post(f"{url}/api/games/{game}/guesses", {"guess": "0123"}) == (
            422, {"error": f"{path}: score((0, 1, 2, 3), <a code withheld>) did not return within 1 s"})
        assert time.monotonic() - started < 30
        status, state = http_post(f"{url}/api/games/{game}/guesses", {"guess": "0011"})  # a new thread runs the rule
        assert (status, state["feedback"]) == (200, "won")
        code, took = stopped(process)  # the thread left in time.sleep(1000) does not hold the process
    assert code == 143 and took < 30


def test_sigterm_while_a_request_waits_for_the_rule_answers_it_and_stops(tmp_path):
    # The module's limit is long here: the stop, not the limit, ends the call the request waits for.
    with serving(tmp_path, "loops", 600) as (process, url, path):
        game = new_game(url)
        answers = []
        asking = threading.Thread(target=lambda: answers.append(
            http_post(f"{url}/api/games/{game}/guesses", {"guess": "0123"})), daemon=True)
        asking.start()
        time.sleep(2)  # the request is in the rule's loop
        code, took = stopped(process)
        asking.join(WAIT)
    assert (code, answers) == (143, [(422, {"error": f"{path}: score((0, 1, 2, 3), <a code withheld>) was stopped: "
                                                     "the server is stopping"})])
    assert took < 30
