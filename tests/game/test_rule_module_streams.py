"""A rule of one's own (``--feedback FILE.py``) that takes mmlogic's streams, or leaves failures to be printed
later (issue 56, fourth audit 1, 2).

A module that rebound ``sys.stderr`` (to an ``io.StringIO``) lost mmlogic's error line, exit 3 or 2 with nothing
said; one that closed it ended with an interpreter dump ("lost sys.stderr"), exit 1. While the module's code
runs, ``sys.stdout`` and ``sys.stderr`` are now streams of mmlogic's that it cannot close (both to stderr), put
back after each block whatever it assigned (:mod:`mm_logic.feedback.watch`).

A thread the module starts that raises, and a ``__del__`` of its objects that raises, printed a traceback each
time (745 of them for one ``next``): now one line per kind names the file, once per process.
"""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap

import pytest

from mm_logic.feedback import custom, watch

from conftest import mmlogic

#: A rule that tells the pegs in place.
SCORE = "def score(guess, secret):\n    return (sum(g == s for g, s in zip(guess, secret)),)\n"
#: The rule's three histories and what mmlogic says of them (exit code, stdout, stderr): its answer, a history no
#: code fits, a feedback beyond the pegs.
HISTORIES = {
    "answers": (["000:1"], (0, "001  (12 codes still possible)\n", "")),
    "no code": (["000:0", "111:0", "222:0"],
                (3, "", "error: no code is consistent with the history: entries 1, 2, 3 (000:0 111:0 222:0) contradict "
                        "each other\n")),
    "bad input": (["000:9"], (2, "", "error: feedback 9 in '000:9' exceeds the 3 pegs\n")),
}
#: Modules that take mmlogic's streams: at import, or in each call of score.
TAKERS = {
    "rebinds at import": "import io\nimport sys\nsys.stderr = io.StringIO()\nsys.stdout = io.StringIO()\n" + SCORE,
    "closes at import": "import sys\nsys.stderr.close()\nsys.stdout.close()\n" + SCORE,
    "rebinds in score": textwrap.dedent("""\
        import io
        import sys


        def score(guess, secret):
            sys.stderr, sys.stdout = io.StringIO(), io.StringIO()
            return (sum(g == s for g, s in zip(guess, secret)),)
    """),
    "closes in score": textwrap.dedent("""\
        import sys


        def score(guess, secret):
            sys.stderr.close()
            sys.stdout.close()
            return (sum(g == s for g, s in zip(guess, secret)),)
    """),
}


def next_with(tmp_path, source: str, *history: str, command: str = "next") -> subprocess.CompletedProcess:
    (tmp_path / "rule.py").write_text(source)
    return mmlogic(command, "--pegs", 3, "--colors", 3, "--backend", "python", "--feedback", "rule.py", *history,
                   cwd=tmp_path, timeout=60)


# -- 1: sys.stderr and sys.stdout stay mmlogic's ------------------------------------------------------------
@pytest.mark.parametrize("history", list(HISTORIES))
@pytest.mark.parametrize("taker", list(TAKERS))
def test_a_module_that_takes_the_streams_leaves_the_commands_lines(tmp_path, taker, history):
    # Rebound: exit 3 or 2 with nothing said; closed: "lost sys.stderr", exit 1.
    entries, expected = HISTORIES[history]
    done = next_with(tmp_path, TAKERS[taker], *entries)
    assert (done.returncode, done.stdout, done.stderr) == expected


def test_a_module_that_closes_stderr_then_raises_is_its_one_line(tmp_path):
    done = next_with(tmp_path, "import sys\n\n\ndef score(guess, secret):\n    sys.stderr.close()\n"
                               "    raise ValueError('boom')\n", "000:1")
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "error: rule.py: score((0, 0, 0), (1, 1, 1)) failed: ValueError: boom\n")


def test_what_a_module_prints_after_rebinding_stderr_still_goes_to_stderr(tmp_path):
    # Its prints go to stderr through mmlogic's stream, not to the one it put in sys.stderr.
    done = next_with(tmp_path, "import io\nimport sys\nsys.stderr = io.StringIO()\nprint('imported')\n" + SCORE,
                     "000:1")
    assert (done.returncode, done.stdout, done.stderr) == (0, "001  (12 codes still possible)\n", "imported\n")


def test_after_a_block_the_streams_are_those_before_it(tmp_path):
    (tmp_path / "rule.py").write_text(TAKERS["rebinds in score"])
    rule = custom.load_rule(str(tmp_path / "rule.py"))
    before = sys.stdout, sys.stderr
    assert rule.score((0, 1, 2), (0, 0, 0)) == (1,)
    assert (sys.stdout, sys.stderr) == before
    taken = []
    watch.watched(rule.path, rule, lambda: taken.append((sys.stdout, sys.stderr)))
    (out, err), = taken
    assert out is not before[0] and err is not before[1]
    err.close()  # closes nothing: mmlogic's stderr is still open
    assert not before[1].closed and (sys.stdout, sys.stderr) == before


# -- 2: a failure the module leaves is one line, once -------------------------------------------------------
def test_a_thread_the_module_starts_that_raises_is_one_line(tmp_path):
    done = next_with(tmp_path, textwrap.dedent("""\
        import threading


        def fails():
            raise ValueError("from a thread")


        for _ in range(3):
            threading.Thread(target=fails).start()
    """) + SCORE, "000:1")
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "001  (12 codes still possible)\n",
        "note: rule.py: a thread it started raised ValueError: from a thread (any more are not said)\n")


DELETED = textwrap.dedent("""\
    class Noisy:
        def __del__(self):
            raise ValueError("from a __del__")


    def score(guess, secret):
        Noisy()
        return (sum(g == s for g, s in zip(guess, secret)),)
""")
NOTE_DEL = "note: rule.py: an exception was ignored in a __del__: ValueError: from a __del__ (any more are not said)\n"


def test_a_del_that_raises_in_every_call_is_one_line(tmp_path):
    # 745 tracebacks ("Exception ignored in") for one next.
    done = next_with(tmp_path, DELETED, "000:1")
    assert (done.returncode, done.stdout, done.stderr) == (0, "001  (12 codes still possible)\n", NOTE_DEL)


def test_a_del_that_raises_in_a_bench_is_one_line(tmp_path):
    # 265 tracebacks for 3x3 --all.
    done = next_with(tmp_path, DELETED, "--strategy", "first", "--all", command="bench")
    assert (done.returncode, done.stderr) == (0, NOTE_DEL)
    assert "histogram  1:1 2:3 3:8 4:9 5:6\n" in done.stdout


def test_mmlogics_own_threads_keep_pythons_report(tmp_path):
    # Only what comes from the module's code is its one line: a thread of other code that raises is reported as
    # Python reports it, a rule module loaded or not.
    (tmp_path / "rule.py").write_text(SCORE)
    child = textwrap.dedent("""
        import threading
        from mm_logic.feedback import custom
        custom.load_rule("rule.py")


        def fails():
            raise ValueError("not the module's")


        thread = threading.Thread(target=fails)
        thread.start()
        thread.join()
    """)
    done = subprocess.run([sys.executable, "-c", child], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stderr.startswith("Exception in thread") and done.stderr.endswith("ValueError: not the module's\n")


def test_the_note_is_one_bounded_line(tmp_path, monkeypatch):
    (tmp_path / "rule.py").write_text("class Noisy:\n    def __del__(self):\n        raise ValueError('x' * 5000 + "
                                      "'\\nmore')\n\n\n" + SCORE.replace("    return", "    Noisy()\n    return"))
    rule = custom.load_rule(str(tmp_path / "rule.py"))
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    rule.score((0, 1, 2), (0, 0, 1))
    rule.score((0, 1, 2), (0, 0, 2))
    said = sys.stderr.getvalue()
    assert said.count("\n") == 1 and len(said) < 500
    assert said.startswith(f"note: {rule.path}: an exception was ignored in a __del__: ValueError: xxx")
