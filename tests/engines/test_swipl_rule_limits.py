"""A rule stated in Prolog (``--feedback FILE.pl``) while its table is derived (issue 56, audit 1, 2 and 17): a
feedback clause that does not end stops at ``--time-limit``, Ctrl-C, SIGTERM and SIGHUP, one that halts is one
line (exit 2), and a long derivation says how it goes on stderr and ends at ``--time-limit``.

Before, the derivation ran outside the guards of loading and asking: ``serve --feedback loop.pl`` hung at
start, deaf to every signal but SIGKILL, and ``halt(4)`` ended mmlogic silently with exit 4. Every command runs
in a child process bounded by a timeout, with a cache folder of its own, so that a derivation that is not
stopped fails the test instead of hanging it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from mm_logic.feedback import encoded, watch
from mm_logic.feedback.encoded import EncodedRule, Told
from mm_logic.rules import Rules, all_codes
from mm_logic.support.errors import SolverTimeout

from conftest import MMLOGIC, ROOT, signalled_after

SHARED = ROOT / "examples" / "shared_colours.pl"
#: A rule of one's own whose told/2 clause runs ``{body}`` (the shipped feedback/2 for every other entry).
RULE = """:- module(rule, [feedback/2]).
:- reexport(mmlogic(mastermind), except([feedback/2])).
:- use_module(mmlogic(mastermind), [feedback/2 as mastermind_feedback]).

feedback(_, told(_, [_])) :- !, {body}.
feedback(Secret, Entry) :-
    mastermind_feedback(Secret, Entry).

spin :- spin.
"""
#: Clauses that do not end: last calls the heartbeat does not count, a loop it sees, a wait in C.
LOOPS = {"spin": "spin", "repeat": "repeat, fail", "sleep": "sleep(1000)"}
#: The line the rule writes (to stderr, where what an encoding prints goes) as it enters its loop.
ENTERED = "entering the loop"


def rule_file(tmp_path, body: str, name: str = "loop.pl"):
    path = tmp_path / name
    path.write_text(RULE.format(body=body))
    return path


def child_env(tmp_path) -> dict:
    """The environment of a command: a cache folder of its own (a table derived is never read back)."""
    return {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}


def command(tmp_path, *args, timeout: float = 90) -> subprocess.CompletedProcess:
    return subprocess.run([MMLOGIC, *map(str, args)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=timeout, env=child_env(tmp_path))


def timed_out(name: str, seconds: str) -> str:
    return f"error: swipl did not derive the rule of {name} within the time limit of {seconds} s; raise --time-limit\n"


# -- a clause that does not end (audit 1) ----------------------------------------------------------------
@pytest.mark.parametrize("kind", list(LOOPS))
@pytest.mark.parametrize("backend", ["python", "swipl"])
def test_the_time_limit_stops_a_rule_that_does_not_end(tmp_path, kind, backend):
    rule_file(tmp_path, LOOPS[kind])
    started = time.monotonic()
    done = command(tmp_path, "solve", "--backend", backend, "--feedback", "loop.pl", "--secret", "0123",
                   "--time-limit", "2")
    assert (done.returncode, done.stdout, done.stderr) == (1, "", timed_out("loop.pl", "2"))
    assert time.monotonic() - started < 45


def test_serve_refuses_a_rule_that_does_not_end_within_the_time_limit(tmp_path):
    # It hung at start, before listening.
    rule_file(tmp_path, LOOPS["spin"])
    done = command(tmp_path, "serve", "--port", "0", "--feedback", "loop.pl", "--time-limit", "2")
    assert (done.returncode, done.stdout, done.stderr) == (1, "", timed_out("loop.pl", "2"))


@pytest.mark.parametrize("kind", ["spin", "sleep"])
@pytest.mark.parametrize("ending, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)],
                         ids=["ctrl-c", "sigterm", "sighup"])
@pytest.mark.parametrize("args", [["solve", "--backend", "python", "--secret", "0123"], ["serve", "--port", "0"]],
                         ids=["solve", "serve"])
def test_a_signal_stops_a_derivation_in_progress(tmp_path, kind, ending, code, args):
    rule_file(tmp_path, f"format(user_error, '{ENTERED}~n', []), {LOOPS[kind]}")
    process = subprocess.Popen([MMLOGIC, *args, "--feedback", "loop.pl"], cwd=tmp_path, env=child_env(tmp_path),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert signalled_after(process, ENTERED, ending) == (code, "", f"{ENTERED}\ninterrupted\n")


def test_the_time_limit_stops_a_question_that_waits_in_c(tmp_path):
    # The alarm does not interrupt sleep/1 in embedded Prolog: an encoding's question waited its 1000 s.
    (tmp_path / "sleepy.pl").write_text(":- module(sleepy, [secret/2]).\n"
                                        ":- reexport(mmlogic(mastermind), except([secret/2])).\n"
                                        "secret(_, _) :- sleep(1000).\n")
    done = command(tmp_path, "next", "--backend", "swipl", "--encoding", "sleepy.pl", "--time-limit", "2")
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "", "error: swipl did not answer within the time limit of 2 s (4x6, all, sleepy.pl); raise --time-limit\n")


# -- a clause that halts (audit 2) ---------------------------------------------------------------------------
@pytest.mark.parametrize("halt", ["halt(4)", "halt"])
@pytest.mark.parametrize("args", [["solve", "--backend", "python", "--secret", "0123"],
                                  ["solve", "--backend", "swipl", "--secret", "0123"], ["serve", "--port", "0"]],
                         ids=["python", "swipl", "serve"])
def test_a_rule_that_halts_is_one_line_not_obeyed(tmp_path, halt, args):
    # halt(4) ended mmlogic with exit 4 and no word (halt: exit 0, as if it had played).
    rule_file(tmp_path, halt, "halting.pl")
    done = command(tmp_path, *args, "--feedback", "halting.pl")
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "error: halting.pl:1: the encoding called halt during the derivation of its rule, which would end "
               "mmlogic\n")


def test_a_rule_that_halts_once_is_refused_after_that_code(tmp_path):
    # The derivation stops at the code after the halt, not after halting at every cell.
    rule_file(tmp_path, "format(user_error, 'told~n', []), halt(4)", "halting.pl")
    done = command(tmp_path, "next", "--backend", "python", "--feedback", "halting.pl", "--pegs", "2", "--colors", "2")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("told\n") == 1, done.stderr


# -- a long derivation: its progress, its time limit (audit 17) ---------------------------------------------
class SlowTeller:
    """An engine's side of a derivation that tells black pegs, ``pause`` seconds a call."""

    pause = 0.05

    @staticmethod
    def sources(path):
        return [path]

    def __init__(self, path, rules: Rules, time_limit):
        self.rules, self.calls = rules, 0

    def admitted(self) -> np.ndarray:
        return all_codes(Rules(self.rules.pegs, self.rules.colors)).astype(np.int64)

    def answers(self, guesses: np.ndarray, arity: int, secrets: np.ndarray) -> Told:
        time.sleep(self.pause)
        if arity != 1:  # a rule of one number tells nothing of more
            return Told(np.full((len(guesses), len(secrets)), encoded.NO_ANSWER, dtype=np.int64), {})
        pegs = self.rules.pegs
        black = (guesses[:, None, :] == secrets[None, :, :]).sum(axis=2)
        return Told(np.where(black == pegs, (pegs + 2) ** arity - 1, black).astype(np.int64), {})


@pytest.fixture(params=[".pl", ".lp"])
def slow(request, tmp_path, monkeypatch):
    """A rule derived by :class:`SlowTeller` in 27 calls for 3x3 (swipl's a code at a time, clingo's a guess at a
    time), in a cache of its own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(encoded, "_engine_part", lambda engine: SlowTeller)
    monkeypatch.setitem(encoded.BATCHES, "swipl", ("codes", 27))
    monkeypatch.setitem(encoded.BATCHES, "clingo", ("guesses", 27))
    return EncodedRule(rule_file(tmp_path, "true", f"slow{request.param}"), Rules(3, 3))


PROGRESS = re.compile(r"(?P<path>.+): deriving the rule's table by (?P<engine>swipl|clingo): (?P<percent>\d+)% of "
                      r"27 x 27 pairs \(0:0\d spent, about 0:0\d left\)")


def test_a_long_derivation_says_how_it_goes_on_stderr(slow, monkeypatch, capsys):
    monkeypatch.setattr(encoded, "SAY_AFTER", 0.3)
    monkeypatch.setattr(watch, "PROGRESS_EVERY", 0.3)
    table = slow.index_table()
    out, err = capsys.readouterr()
    lines = err.splitlines()
    found = [PROGRESS.fullmatch(line) for line in lines]
    assert out == "" and all(found), err
    percents = [int(f["percent"]) for f in found]
    # 27 calls of 0.05 s: a line about every sixth call, the first once 0.3 s have passed
    assert 2 <= len(lines) <= 26 and percents == sorted(percents) and 0 < percents[0] < percents[-1] < 100, err
    assert {(f["path"], f["engine"]) for f in found} == {(str(slow.path), slow.engine)}
    assert table[0, 0] == 3 + 2 - 1 and table[0, 1] == 2  # 000 against itself, the win; against 001, 2 black


def test_a_short_derivation_says_nothing(slow, monkeypatch, capsys):
    monkeypatch.setattr(SlowTeller, "pause", 0.0)
    slow.index_table()
    assert capsys.readouterr() == ("", "")


def test_the_time_limit_ends_a_long_derivation_between_two_calls(slow, capsys):
    started = time.monotonic()
    with watch.limit_scoring(0.3), pytest.raises(SolverTimeout) as caught:
        slow.index_table()
    assert str(caught.value) == (f"{slow.engine} did not derive the rule of {slow.path} within the time limit of "
                                 "0.3 s; raise --time-limit")
    assert time.monotonic() - started < 1.0  # 27 calls take 1.35 s


@pytest.mark.slow  # a 5x5 .pl derivation until its 8 s time limit: 9 s
def test_the_time_limit_ends_a_long_prolog_derivation(tmp_path):
    # examples/shared_colours.pl for 5x5 took 111 s, silent and deaf to --time-limit.
    started = time.monotonic()
    done = command(tmp_path, "solve", "--backend", "python", "--feedback", SHARED, "--pegs", "5", "--colors", "5",
                   "--secret", "01234", "--time-limit", "8")
    *notes, last = done.stderr.splitlines(keepends=True)
    assert (done.returncode, done.stdout, last) == (1, "", timed_out(str(SHARED), "8"))
    # What it waits for, said 5 s in (mm_logic.support.waiting), before the limit ends it.
    assert len(notes) == 1 and re.fullmatch(rf"note: deriving the rule of {re.escape(str(SHARED))} by swipl: "
                                            r"0:0[5-8] so far \(time limit 8 s\)\n", notes[0]), notes
    assert time.monotonic() - started < 60


def test_progress_goes_to_stderr_never_into_the_json(tmp_path):
    child = textwrap.dedent(f"""
        import sys
        from mm_logic.feedback import encoded, watch
        encoded.SAY_AFTER, watch.PROGRESS_EVERY = 0, 0  # a line between every two calls
        encoded.BATCHES["swipl"] = ("codes", 27 * 3)
        from mm_logic.__main__ import main
        sys.argv = ["mmlogic", "next", "--backend", "python", "--feedback", {str(SHARED)!r}, "--pegs", "3",
                    "--colors", "3", "--strategy", "first", "--json"]
        main()
    """)
    done = subprocess.run([sys.executable, "-c", child], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env=child_env(tmp_path))
    assert (done.returncode, json.loads(done.stdout)) == (0, {"guess": "000", "consistent": 27}), done.stderr
    lines = done.stderr.splitlines()
    pattern = re.compile(rf"{re.escape(str(SHARED))}: deriving the rule's table by swipl: \d+% of 27 x 27 pairs "
                         r"\(\d:\d\d spent, about \d:\d\d left\)")
    assert len(lines) == 8 and all(pattern.fullmatch(line) for line in lines), done.stderr  # 9 calls of 3 codes
