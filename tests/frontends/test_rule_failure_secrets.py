"""A rule module that fails under a server's request never shows the game's secret (issue 56).

The line of a failed call of ``score`` named the pair scored, ``rule.py: score((0, 1, 2, 3), (0, 0, 1, 1))
failed: ...``, and quoted what the module said or returned: in a codebreaker game the second code is the
secret the client plays against, and a module's own message (a ``KeyError`` of the pair) may quote it too. A
server's reply now names the guess and withholds the code and the module's words
(:func:`mm_logic.feedback.watch.withholding`); the whole line goes to the server's log, for its operator. The
command line, whose user gave the secret, still names both.

A real server in a child process (its rule module's limit made short), asked over HTTP, each wait bounded; and
the wording of each fault in this process.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from mm_logic.feedback import custom, watch
from mm_logic.server.process import free_port

from conftest import http_json, http_post, mmlogic, wait_listening

#: A rule that tells the colours shared, and fails in its own way for each of some guesses.
RULE = """\
from collections import Counter


def score(guess, secret):
    if guess == (0, 1, 2, 3):
        raise KeyError((guess, secret))  # a table's lookup that misses: its message is the pair
    if guess == (0, 1, 2, 4):
        while True:
            pass
    if guess == (0, 1, 2, 5):
        return "".join(map(str, secret))
    if guess == (0, 1, 3, 4):
        raise SystemExit(secret)
    if guess == (0, 1, 3, 5):
        return (1, 2)
    return (sum((Counter(guess) & Counter(secret)).values()),)
"""
SECRET = "0011"
#: How the secret 0011 may be written in a line: as the game writes it, or as Python writes the tuple.
SECRET_TEXTS = ("0011", "0, 0, 1, 1", "0,0,1,1")
#: The reply to each failing guess, and the whole line the server's log keeps (``rule.py``: the server runs in
#: the folder of the module, so that no digit of a temporary folder's name is taken for the secret's).
FAULTS = {
    "0123": ("rule.py: score((0, 1, 2, 3), <a code withheld>) failed: KeyError (its message withheld)",
             "rule.py: score((0, 1, 2, 3), (0, 0, 1, 1)) failed: KeyError: ((0, 1, 2, 3), (0, 0, 1, 1))"),
    "0124": ("rule.py: score((0, 1, 2, 4), <a code withheld>) did not return within 1 s",
             "rule.py: score((0, 1, 2, 4), (0, 0, 1, 1)) did not return within 1 s"),
    "0125": ("rule.py: score((0, 1, 2, 5), <a code withheld>) returned something else than whole numbers from 0 "
             "to the 4 pegs (what it returned withheld)",
             "rule.py: score((0, 1, 2, 5), (0, 0, 1, 1)) returned '0011', not whole numbers from 0 to the 4 pegs"),
    "0134": ("rule.py: score((0, 1, 3, 4), <a code withheld>) raised SystemExit (its code withheld)",
             "rule.py: score((0, 1, 3, 4), (0, 0, 1, 1)) raised SystemExit((0, 0, 1, 1))"),
    "0135": ("rule.py: score returned 2 numbers for ((0, 1, 3, 5), <a code withheld>), 1 before; it must always "
             "tell as many",
             "rule.py: score returned 2 numbers for ((0, 1, 3, 5), (0, 0, 1, 1)), 1 before; it must always tell "
             "as many"),
}
WAIT = 60  # seconds any request or stop may take at the most


def shows_secret(text: str) -> bool:
    return any(said in text for said in SECRET_TEXTS)


@contextlib.contextmanager
def serving(tmp_path):
    """``mmlogic serve --feedback rule.py`` in a child process in ``tmp_path``, the module's limit 1 s; yields
    ``(process, url, log)``: ``log()`` stops the server and gives what it wrote on stderr."""
    (tmp_path / "rule.py").write_text(RULE)
    port = free_port()
    child = textwrap.dedent(f"""
        import sys
        import mm_logic.feedback.watch as watch
        watch.CALL_SECONDS = 1.0
        from mm_logic.__main__ import main
        sys.argv = ["mmlogic", "serve", "--port", "{port}", "--feedback", "rule.py"]
        main()
    """)
    process = subprocess.Popen([sys.executable, "-c", child], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)

    def log() -> str:
        process.send_signal(signal.SIGTERM)
        return process.communicate(timeout=WAIT)[1]

    try:
        wait_listening(process, port, WAIT)
        yield process, f"http://127.0.0.1:{port}", log
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def test_no_reply_of_a_game_whose_rule_fails_shows_its_secret(tmp_path):
    with serving(tmp_path) as (process, url, log):
        status, game = http_post(f"{url}/api/games", {"rules": {"variant": "rule"}, "backend": "python",
                                                "strategy": "first", "secret": SECRET})
        assert status == 201, game
        games = f"{url}/api/games/{game['id']}"
        replies = [json.dumps(game)]
        for guess, (said, _) in FAULTS.items():
            started = time.monotonic()
            status, reply = http_post(f"{games}/guesses", {"guess": guess})
            assert (status, reply) == (422, {"error": said})
            assert time.monotonic() - started < 30
            replies.append(json.dumps(reply))
            for path in ("", "/next"):  # the game's state, and the hint, as the client goes on
                status, reply = http_json(games + path)
                assert status == 200, reply
                replies.append(json.dumps(reply))
        assert not any(shows_secret(reply) for reply in replies), replies
        # The rule plays on, and a game that is over shows its secret.
        assert http_post(f"{games}/guesses", {"guess": SECRET}) == (
            200, {"guess": SECRET, "feedback": "won", "won": True, "attempts": 1, "secret": SECRET})
        written = log()
    # The operator reads the whole lines in the server's log.
    for _, whole in FAULTS.values():
        assert whole in written.splitlines(), written


def test_a_race_entrant_stopped_by_the_rule_says_why_without_the_secret(tmp_path):
    with serving(tmp_path) as (process, url, log):
        status, race = http_post(f"{url}/api/races", {"rules": {"variant": "rule"}, "secret": SECRET,
                                                      "first_guess": "0123",
                                                      "entrants": [{"backend": "python", "strategy": "first"}]})
        assert status == 201, race
        status, race = http_post(f"{url}/api/races/{race['id']}/step", {})
        assert status == 200, race
        assert [entrant["stopped"] for entrant in race["entrants"]] == [FAULTS["0123"][0]]
        log()


# -- the lines, in this process ----------------------------------------------------------------------------------
@pytest.fixture
def rule(tmp_path, monkeypatch):
    """The rule module above, loaded here (its limit made short: 0.5 s)."""
    monkeypatch.setattr(watch, "CALL_SECONDS", 0.5)
    path = tmp_path / "rule.py"
    path.write_text(RULE)
    loaded = custom.load_rule(str(path))
    loaded.arity(4)  # one number, as the server's check of the variant finds at its start
    return loaded


def said(rule, guess) -> str:
    with pytest.raises(custom.BadInput) as raised:
        rule.score(guess, (0, 0, 1, 1))
    return str(raised.value).replace(f"{rule.path}", "rule.py")


@pytest.mark.parametrize("text", list(FAULTS))
def test_withholding_the_line_names_the_guess_only(rule, text):
    guess = tuple(map(int, text))
    with watch.withholding():
        assert said(rule, guess) == FAULTS[text][0].replace("within 1 s", "within 0.5 s")
    # Where the user gave the secret (the command line), the whole line.
    assert said(rule, guess) == FAULTS[text][1].replace("within 1 s", "within 0.5 s")


@pytest.mark.parametrize("text", ["0123", "0124"])
def test_a_call_handed_to_the_rules_thread_withholds_as_its_caller_does(rule, text):
    # A request's thread hands the call to the thread that runs the module's code, where the line is made.
    guess, outcome = tuple(map(int, text)), []

    def request():
        with watch.withholding():
            try:
                rule.score(guess, (0, 0, 1, 1))
            except custom.BadInput as error:
                outcome.append(str(error).replace(f"{rule.path}", "rule.py"))

    thread = threading.Thread(target=request, daemon=True)
    thread.start()
    thread.join(30)
    assert outcome == [FAULTS[text][0].replace("within 1 s", "within 0.5 s")]


def test_an_answer_told_otherwise_withholds_both_answers(tmp_path):
    path = tmp_path / "rule.py"
    path.write_text("import itertools\n\nCOUNT = itertools.count()\n\n\ndef score(guess, secret):\n"
                    "    return (next(COUNT) % 2,)\n")
    rule = custom.load_rule(str(path))
    with watch.withholding(), pytest.raises(custom.BadInput) as raised:
        rule.score((0, 1, 2, 3), (0, 0, 1, 1))
    assert str(raised.value) == (f"{path}: score((0, 1, 2, 3), <a code withheld>) told two different answers: a rule "
                                 "must tell the same of the same pair every time (does it draw at random, or keep "
                                 "count?)")


def test_the_command_line_names_the_secret_it_was_given(tmp_path):
    (tmp_path / "rule.py").write_text(RULE)
    done = mmlogic("solve", "--backend", "python", "--feedback", "rule.py", "--secret", SECRET, "--first-guess", "0123",
                   cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: {FAULTS['0123'][1]}\n")
