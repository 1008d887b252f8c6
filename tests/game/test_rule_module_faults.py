"""A rule of one's own (``--feedback FILE.py``) that misbehaves: every fault of the module is one line that
names the file and what it did, exit 2, never a hang or a silent end (issue 56, defect 1).

The module's code runs under a limit of its own (:data:`mm_logic.feedback.custom.CALL_SECONDS`: importing it,
and each call of ``score``). The tests that need a looping module run the command in a child process
bounded by a timeout (before the limit existed they hung there), most with the limit made short, one with
the limit as documented.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from mm_logic.feedback import custom

from conftest import MMLOGIC, ROOT, mmlogic

RULE = ROOT / "examples" / "shared_colours.py"
#: The limit the docs state (read with a default so that the tests ran, and failed, before it existed).
CALL_SECONDS = getattr(custom, "CALL_SECONDS", 10)
#: The pair ``score`` is first asked about: the rule's arity, read from ``score((0,) * pegs, (1,) * pegs)``.
FIRST = "score((0, 0, 0, 0), (1, 1, 1, 1))"
#: The pair ``solve --strategy first --secret 0123`` asks first: the codemaker's answer to 0000.
SOLVED = "score((0, 0, 0, 0), (0, 1, 2, 3))"
#: A score that never returns, in pure Python, and one that waits in a system call.
LOOPS = "def score(guess, secret):\n    while True:\n        pass\n"
SLEEPS = "import time\n\n\ndef score(guess, secret):\n    time.sleep(1000)\n"


def module(tmp_path, source: str, name: str = "rule.py"):
    path = tmp_path / name
    path.write_text(source)
    return path


def with_limit(seconds: float, *args, cwd, timeout: float = 60) -> subprocess.CompletedProcess:
    """``mmlogic ARGS`` in a child process whose rule modules get ``seconds`` instead of the documented
    limit (so that a test of a looping module takes a second, not the limit)."""
    child = textwrap.dedent(f"""
        import sys
        import mm_logic.feedback.custom as custom
        custom.CALL_SECONDS = {seconds!r}
        from mm_logic.__main__ import main
        sys.argv = ["mmlogic", *{[str(a) for a in args]!r}]
        main()
    """)
    return subprocess.run([sys.executable, "-c", child], cwd=cwd, capture_output=True, text=True, timeout=timeout)


# -- a module whose code does not end ------------------------------------------------------------------
@pytest.mark.parametrize("source", [LOOPS, SLEEPS], ids=["loops", "sleeps"])
@pytest.mark.parametrize("command, call", [
    (["next", "--backend", "python", "--strategy", "first", "0011:1"], FIRST),  # reading the history
    (["solve", "--backend", "python", "--strategy", "first", "--secret", "0123"], SOLVED),
    (["split", "--backend", "python", "0011"], "score((0, 0, 1, 1), (0, 0, 0, 0))"),  # the guess's parts
], ids=["next", "solve", "split"])
def test_a_score_that_does_not_return_is_stopped_in_one_line(tmp_path, source, command, call):
    # It hung until killed, deaf to --time-limit.
    path = module(tmp_path, source)
    started = time.monotonic()
    done = with_limit(0.5, *command, "--feedback", path, "--time-limit", "1", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: {path}: {call} did not return within 0.5 s\n")
    assert time.monotonic() - started < 30


def test_the_limit_is_the_documented_one(tmp_path):
    path = module(tmp_path, LOOPS)
    done = mmlogic("next", "--backend", "python", "--strategy", "first", "--feedback", path, "0011:1",
                   cwd=tmp_path, timeout=CALL_SECONDS + 60)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: {path}: {FIRST} did not return within {CALL_SECONDS:g} s\n")
    assert "within 10 s" in (ROOT / "docs" / "encodings.md").read_text()


def test_a_score_that_stalls_after_answering_is_stopped_at_the_call_that_stalls(tmp_path):
    # The limit is per call: many quick calls are no fault; the one that does not return is named.
    path = module(tmp_path, textwrap.dedent("""\
        def score(guess, secret):
            if secret == (0, 1, 2, 3):
                while True:
                    pass
            return (sum(g == s for g, s in zip(guess, secret)),)
    """))
    done = with_limit(0.5, "next", "--backend", "python", "--strategy", "first", "--feedback", path, "0011:1",
                      cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: {path}: score((0, 0, 1, 1), (0, 1, 2, 3)) did not return within 0.5 s\n")


def test_a_module_that_loops_at_import_is_stopped_in_one_line(tmp_path):
    path = module(tmp_path, "while True:\n    pass\n")
    done = with_limit(0.5, "next", "--backend", "python", "--feedback", path, cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: Invalid value for '--feedback': {path}: importing it did not end within 0.5 s\n")


def test_a_normal_rule_under_the_watch_plays_as_before(tmp_path):
    # The watch ticks many times while minimax scores 625 codes against each other (some seconds): the
    # game is the one played without it.
    done = with_limit(0.5, "solve", "--backend", "python", "--feedback", RULE, "--pegs", 4, "--colors", 5,
                      "--secret", "0123", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "1  0011  2\n2  0002  2\n3  0033  2\n4  0123  won\n4 guesses\n", "")


@pytest.mark.parametrize("ending, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_and_sigterm_stop_a_score_that_loops(tmp_path, ending, code):
    path = module(tmp_path, LOOPS)
    process = subprocess.Popen([MMLOGIC, "next", "--backend", "python", "--feedback", str(path), "0011:1"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(3)  # into the loop (the command starts in about a second)
        process.send_signal(ending)
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert (process.returncode, out, err) == (code, "", "interrupted\n")


# -- a module that ends the command --------------------------------------------------------------------
@pytest.mark.parametrize("raised, said", [
    ("SystemExit(0)", "SystemExit(0)"),
    ("SystemExit", "SystemExit()"),
    ("SystemExit('bye')", "SystemExit('bye')"),
])
def test_a_score_that_raises_system_exit_is_one_line(tmp_path, raised, said):
    # SystemExit(0) ended the command with exit 0 and no output.
    path = module(tmp_path, f"def score(guess, secret):\n    raise {raised}\n")
    done = mmlogic("solve", "--backend", "python", "--strategy", "first", "--feedback", path, "--secret", "0123",
                   cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: {path}: {SOLVED} raised {said}\n")


@pytest.mark.parametrize("call, said", [("sys.exit(3)", "sys.exit(3)"), ("sys.exit()", "sys.exit()"),
                                        ("sys.exit(0)", "sys.exit(0)"), ("sys.exit('bye')", "sys.exit('bye')")])
def test_a_module_that_exits_at_import_is_one_line(tmp_path, call, said):
    # sys.exit(3) ended the command with exit 3 ("no consistent code") and nothing said.
    path = module(tmp_path, f"import sys\n\n{call}\n")
    done = mmlogic("next", "--backend", "python", "--feedback", path, "0011:1", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: Invalid value for '--feedback': {path}: importing it called {said}\n")


# -- the rule's notation -------------------------------------------------------------------------------
@pytest.mark.parametrize("told", ["-1", "-0", "1,-1", "+1", "1.0"])
def test_a_number_not_in_the_rules_notation_is_refused(tmp_path, told):
    # 0011:-1 was read as won (the win's numbers are -1 inside): the history said the guess was the code.
    done = mmlogic("next", "--backend", "python", "--feedback", RULE, f"0011:{told}", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: feedback '{told}' in '0011:{told}' is not of the form whole numbers separated by commas "
               "(e.g. 2 or 1,2), or won\n")


def test_won_and_whole_numbers_are_still_read(tmp_path):
    done = mmlogic("next", "--backend", "python", "--strategy", "first", "--feedback", RULE, "0011:3", "0012:won",
                   cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("0012  (solved: history entry 2 scored won)")


# -- the module's text, read as Python reads it --------------------------------------------------------
SHARED = RULE.read_text()


@pytest.mark.parametrize("name, data", [
    ("bom.py", b"\xef\xbb\xbf" + SHARED.encode()),
    ("latin.py", ("# -*- coding: latin-1 -*-\n# partagé\n" + SHARED).encode("latin-1")),
    ("crlf.py", SHARED.replace("\n", "\r\n").encode()),
])
def test_a_module_python_reads_is_read(tmp_path, name, data):
    # A byte order mark and a coding line were refused ("not UTF-8 text", or a syntax error at U+FEFF).
    path = tmp_path / name
    path.write_bytes(data)
    done = mmlogic("solve", "--feedback", path, "--backend", "python", "--strategy", "first", "--secret", "0123",
                   cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "1  0000  1\n2  0111  2\n3  0122  3\n4  0123  won\n4 guesses\n", "")


@pytest.mark.parametrize("data, said", [
    (b"X = 1\n# caf\xe9\n", "rule.py:2: byte 0xe9 is not UTF-8 text, and the file declares no other encoding "
                            "(a first line # -*- coding: NAME -*-)"),
    (b"# coding: ascii\n# caf\xc3\xa9\n", "rule.py:2: byte 0xc3 is not ascii text, the encoding the file declares"),
    (b"# -*- coding: no-such-codec -*-\n", "rule.py:1: unknown encoding: no-such-codec"),
    (b"\xef\xbb\xbf# -*- coding: latin-1 -*-\n", "rule.py:1: the file starts with a UTF-8 byte order mark but "
                                                  "declares the encoding latin-1"),
    (b"X = 1\x00\n", "rule.py: source code string cannot contain null bytes"),
])
def test_a_module_python_would_not_read_is_one_line(tmp_path, data, said):
    (tmp_path / "rule.py").write_bytes(data)
    done = mmlogic("next", "--backend", "python", "--feedback", "rule.py", "0011:1", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: Invalid value for '--feedback': {said}\n")


def test_what_a_module_prints_as_it_loads_goes_to_stderr_not_into_the_json(tmp_path):
    # On stdout the line came before the JSON of --json, which then no longer parsed.
    path = module(tmp_path, 'print("hello from import")\n\n\ndef score(guess, secret):\n'
                            '    return (sum(g == s for g, s in zip(guess, secret)),)\n', "talk.py")
    done = mmlogic("next", "--backend", "python", "--feedback", path, "--json", "0011:2", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "hello from import\n")
    assert json.loads(done.stdout) == {"guess": "0100", "consistent": 150}
