"""A rule of one's own (``--feedback FILE.py``) that misbehaves: every fault of the module is one line that
names the file and what it did, exit 2, never a hang or a silent end (issue 56, defect 1).

The module's code runs under a limit of its own (:data:`mm_logic.feedback.watch.CALL_SECONDS`: importing it,
and each call of ``score``). The tests that need a looping module run the command in a child process
bounded by a timeout (before the limit existed they hung there), most with the limit made short, one with
the limit as documented.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from mm_logic.feedback import custom, watch

from conftest import MMLOGIC, ROOT, mmlogic, signalled_after

RULE = ROOT / "examples" / "shared_colours.py"
#: The limit the docs state (read with a default so that the tests ran, and failed, before it existed).
CALL_SECONDS = watch.CALL_SECONDS
#: The pair ``score`` is first asked about: the rule's arity, read from ``score((0,) * pegs, (1,) * pegs)``.
FIRST = "score((0, 0, 0, 0), (1, 1, 1, 1))"
#: The pair ``solve --strategy first --secret 0123`` asks first: the codemaker's answer to 0000.
SOLVED = "score((0, 0, 0, 0), (0, 1, 2, 3))"
#: A score that never returns, in pure Python, and one that waits in a system call.
LOOPS = "def score(guess, secret):\n    while True:\n        pass\n"
SLEEPS = "import time\n\n\ndef score(guess, secret):\n    time.sleep(1000)\n"
#: A score that says it loops, then loops (the signal is sent once it has said so).
SAYS_LOOPS = "import sys\n\n\ndef score(guess, secret):\n    print('looping', file=sys.stderr, flush=True)\n"


def solved(path, cwd) -> subprocess.CompletedProcess:
    """``mmlogic solve --secret 0123`` by ``first`` on the python engine, under the rule module ``path``."""
    return mmlogic("solve", "--backend", "python", "--strategy", "first", "--feedback", path, "--secret", "0123",
                   cwd=cwd)


def refused_in_solve(path, cwd, said: str) -> None:
    """:func:`solved` under ``path`` ends before any turn, exit 2, on the one line ``error: PATH: SAID``."""
    done = solved(path, cwd)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: {path}: {said}\n")


def module(tmp_path, source: str, name: str = "rule.py"):
    path = tmp_path / name
    path.write_text(source)
    return path


def with_limit(seconds: float, *args, cwd, timeout: float = 60) -> subprocess.CompletedProcess:
    """``mmlogic ARGS`` in a child process whose rule modules get ``seconds`` instead of the documented
    limit (so that a test of a looping module takes a second, not the limit)."""
    return with_watch({"CALL_SECONDS": seconds}, *args, cwd=cwd, timeout=timeout)


def with_watch(settings: dict, *args, cwd, timeout: float = 60) -> subprocess.CompletedProcess:
    """``mmlogic ARGS`` in a child process whose watch (:mod:`mm_logic.feedback.watch`) has ``settings``."""
    child = textwrap.dedent(f"""
        import sys
        import mm_logic.feedback.watch as watch
        for name, value in {settings!r}.items():
            setattr(watch, name, value)
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
    # Nothing on stderr but, on a machine so busy that the table would take half a minute, its progress lines.
    said = [line for line in done.stderr.splitlines() if "scoring every code against every code" not in line]
    assert (done.returncode, done.stdout, said) == (
        0, "1  0011  2\n2  0002  2\n3  0033  2\n4  0123  won\n4 guesses\n", [])


@pytest.mark.parametrize("ending, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_and_sigterm_stop_a_score_that_loops(tmp_path, ending, code):
    path = module(tmp_path, SAYS_LOOPS + "    while True:\n        pass\n")
    process = subprocess.Popen([MMLOGIC, "next", "--backend", "python", "--feedback", str(path), "0011:1"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert signalled_after(process, "looping", ending) == (code, "", "looping\ninterrupted\n")


# -- a module that ends the command --------------------------------------------------------------------
@pytest.mark.parametrize("raised, said", [
    ("SystemExit(0)", "SystemExit(0)"),
    ("SystemExit", "SystemExit()"),
    ("SystemExit('bye')", "SystemExit('bye')"),
])
def test_a_score_that_raises_system_exit_is_one_line(tmp_path, raised, said):
    # SystemExit(0) ended the command with exit 0 and no output.
    path = module(tmp_path, f"def score(guess, secret):\n    raise {raised}\n")
    refused_in_solve(path, tmp_path, f"{SOLVED} raised {said}")


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
        2, "", f"error: feedback '{told}' in '0011:{told}' is not of the form one whole number (the rule's answers "
               "are one number, e.g. 2), or won\n")


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


# -- what the module's code says or gives that cannot be said as it is (issue 56, audit 10-13, 16) ------------
#: A score that raises an exception whose str() raises in turn.
NO_STR = ("class Unsaid(Exception):\n    def __str__(self):\n        raise RuntimeError('no str')\n\n\n"
          "def score(guess, secret):\n    raise Unsaid()\n")
#: A score that returns an object whose repr() raises.
NO_REPR = ("class Unshown:\n    def __repr__(self):\n        raise RuntimeError('no repr')\n\n\n"
           "def score(guess, secret):\n    return Unshown()\n")


@pytest.mark.parametrize("source, said", [
    (NO_STR, f"{SOLVED} failed: Unsaid (its str() raised RuntimeError)"),
    ("def score(guess, secret):\n    return (10 ** 200,)\n",
     f"{SOLVED} returned (<a 201-digit number>,), not whole numbers from 0 to the 4 pegs"),
    ("def score(guess, secret):\n    return (10 ** 100000,)\n",
     f"{SOLVED} returned (<a number of about 100,001 digits>,), not whole numbers from 0 to the 4 pegs"),
    ("def score(guess, secret):\n    return 10 ** 100000\n",
     f"{SOLVED} returned <a number of about 100,001 digits>, not whole numbers from 0 to the 4 pegs"),
    (NO_REPR, f"{SOLVED} returned <an Unshown whose repr() raised RuntimeError>, not whole numbers from 0 to the "
              "4 pegs"),
    ("def score(guess, secret):\n    raise ValueError('x' * 4_000_000)\n",
     f"{SOLVED} failed: ValueError: {'x' * 300}… (4,000,000 characters)"),
    ("def score(guess, secret):\n    raise ValueError('line one\\nline two')\n",
     f"{SOLVED} failed: ValueError: line one\\nline two"),
    (NO_REPR.split("def score")[0] + "def score(guess, secret):\n    raise SystemExit(Unshown())\n",
     f"{SOLVED} raised SystemExit(<an Unshown whose repr() raised RuntimeError>)"),
], ids=["str-raises", "200-digits", "100000-digits", "bare-100000-digits", "repr-raises", "4-MB-message",
        "newline-in-message", "exit-code-repr-raises"])
def test_what_the_module_says_is_one_bounded_line(tmp_path, source, said):
    # Each was an "internal failure" (exit 1), a line of megabytes, or two lines.
    path = module(tmp_path, source)
    refused_in_solve(path, tmp_path, said)


@pytest.mark.parametrize("expression, said", [
    ("'1+' * 100_000 + '1'", "Python cannot compile it (RecursionError: maximum recursion depth exceeded during "
                             "compilation): is an expression nested too deeply?"),
    ("'-' * 100_000 + '1'", "Python cannot compile it (MemoryError): is an expression nested too deeply?"),
])
def test_a_module_python_cannot_compile_is_one_line(tmp_path, expression, said):
    # The compiler's RecursionError and MemoryError were internal failures (exit 1).
    path = module(tmp_path, f"X = {eval(expression)}\n")  # noqa: S307 - the test's own text
    done = mmlogic("next", "--backend", "python", "--feedback", path, "0011:1", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: Invalid value for '--feedback': {path}: "
                                                                  f"{said}\n")


def test_a_file_name_with_a_line_break_is_said_on_one_line(tmp_path):
    path = module(tmp_path, "X = 1\n", "two\nlines.py")
    done = mmlogic("next", "--backend", "python", "--feedback", path, "0011:1", cwd=tmp_path)
    shown = str(path).replace("\n", "\\n")
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: Invalid value for '--feedback': {shown} defines no score(guess, secret): the numbers the "
               "codemaker tells of a guess\n")


def test_a_message_with_line_breaks_is_escaped_where_errors_are_printed(run):
    # The one place that prints errors writes every line break escaped, whoever made the message.
    from mm_logic.cli import cli
    from mm_logic.support.errors import BadInput

    @cli.command(name="breaks-test")
    def breaks():
        raise BadInput("one\ntwo\r\nthree\u2028four")

    try:
        result = run("breaks-test")
    finally:
        cli.commands.pop("breaks-test")
    assert (result.exit_code, result.stderr) == (2, "error: one\\ntwo\\r\\nthree\\u2028four\n")


def test_numpy_numbers_are_numbers(tmp_path):
    # np.int64 (a numpy user's sum) was refused: "returned (np.int64(1),), not whole numbers".
    plain = module(tmp_path, "def score(guess, secret):\n    return (sum(g == s for g, s in zip(guess, secret)),)\n",
                   "plain.py")
    numpy = module(tmp_path, "import numpy as np\n\n\ndef score(guess, secret):\n"
                             "    return np.array([np.sum(np.equal(guess, secret))])\n", "numpy_rule.py")
    scalar = module(tmp_path, "import numpy as np\n\n\ndef score(guess, secret):\n"
                              "    return np.int64(sum(g == s for g, s in zip(guess, secret)))\n", "scalar.py")
    played = [solved(path, tmp_path) for path in (plain, numpy, scalar)]
    assert [(p.returncode, p.stderr) for p in played] == [(0, "")] * 3
    assert played[0].stdout == played[1].stdout == played[2].stdout
    assert played[0].stdout.endswith("guesses\n")


def test_a_bool_is_still_no_number(tmp_path):
    path = module(tmp_path, "def score(guess, secret):\n    return (True,)\n")
    done = mmlogic("next", "--backend", "python", "--feedback", path, "0011:1", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: {path}: {FIRST} returned (True,), not whole numbers from 0 to the 4 pegs\n")


@pytest.mark.parametrize("told, form", [
    ("1,1", "one whole number (the rule's answers are one number, e.g. 2), or won"),
    ("1 1", "one whole number (the rule's answers are one number, e.g. 2), or won"),
])
def test_an_entry_of_more_numbers_than_the_rule_tells_says_how_many_it_tells(tmp_path, told, form):
    # It said "is not of the form whole numbers separated by commas (e.g. 2 or 1,2)", which 1,1 is.
    done = mmlogic("next", "--backend", "python", "--pegs", 3, "--feedback", RULE, f"001:{told}", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: feedback {told!r} in '001:{told}' is not of the form {form}\n")


def test_a_rule_of_two_numbers_says_two(tmp_path):
    path = module(tmp_path, "def score(guess, secret):\n    black = sum(g == s for g, s in zip(guess, secret))\n"
                            "    return (black, len(guess) - black)\n")
    done = mmlogic("next", "--backend", "python", "--feedback", path, "0011:1", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "error: feedback '1' in '0011:1' is not of the form 2 whole numbers separated by a comma (the rule's "
               "answers are 2 numbers, e.g. 1,2), or won\n")


def test_what_score_prints_goes_to_stderr_not_into_the_json(tmp_path):
    # The import's prints went to stderr already; those of score landed before the JSON of --json.
    path = module(tmp_path, 'def score(guess, secret):\n    print("scoring")\n'
                            '    return (sum(g == s for g, s in zip(guess, secret)),)\n', "talk.py")
    done = mmlogic("next", "--backend", "python", "--feedback", path, "--strategy", "first", "--json", "0011:2",
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"guess": "0000", "consistent": 150}
    assert set(done.stderr.splitlines()) == {"scoring"}


@pytest.mark.parametrize("where", ["import", "score"])
def test_a_module_that_closes_stdout_closes_nothing_of_mmlogics(tmp_path, where):
    # stdout pointed at stderr while the module ran: closing it closed stderr, and the command died in an
    # interpreter dump ("lost sys.stderr"), exit 1.
    close = "import sys\nsys.stdout.close()\n"
    source = (close if where == "import" else "") + "def score(guess, secret):\n" + \
        ("    import sys\n    sys.stdout.close()\n" if where == "score" else "") + \
        "    return (sum(g == s for g, s in zip(guess, secret)),)\n"
    path = module(tmp_path, source, "closes.py")
    done = mmlogic("next", "--backend", "python", "--feedback", path, "--strategy", "first", "--json", "0011:2",
                   cwd=tmp_path)
    assert (done.returncode, json.loads(done.stdout), done.stderr) == (0, {"guess": "0000", "consistent": 150}, "")


@pytest.mark.parametrize(("ending", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_module_that_ignores_sigterm_at_import_does_not_keep_the_command_from_it(tmp_path, ending, code):
    # The module set SIGTERM to SIG_IGN as it loaded: the bench it played in ignored SIGTERM and ran to its end.
    path = module(tmp_path, "import signal\nimport sys\n\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                            "signal.signal(signal.SIGHUP, signal.SIG_IGN)\nprint('loaded', file=sys.stderr, "
                            "flush=True)\n\n\ndef score(guess, secret):\n"
                            "    return (sum(g == s for g, s in zip(guess, secret)),)\n", "deaf.py")
    process = subprocess.Popen([MMLOGIC, "bench", "--pegs", "4", "--colors", "6", "--backend", "python",
                                "--strategy", "minimax", "--feedback", str(path), "--all"], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert signalled_after(process, "loaded", ending)[0] == code


# -- a score that does not tell the same of the same pair (issue 56, audit 15) --------------------------------
def test_a_score_that_keeps_count_is_named_at_its_first_call(tmp_path):
    # It ended in "the python engine found no consistent code, but the secret 0123 is one", naming no file.
    path = module(tmp_path, "calls = [0]\n\n\ndef score(guess, secret):\n    calls[0] += 1\n"
                            "    return (calls[0] % 2,)\n")
    refused_in_solve(path, tmp_path, f"{SOLVED} returned (1,), then (0,): a rule must tell the same of the same "
                                     "pair every time (does it draw at random, or keep count?)")


def test_a_random_score_is_named(tmp_path):
    path = module(tmp_path, "import random\n\n\ndef score(guess, secret):\n    return (random.randint(0, 4),)\n")
    for _ in range(3):
        done = solved(path, tmp_path)
        assert done.returncode == 2, done  # stdout: the turns played before (the first answers may agree)
        assert re.fullmatch(
            rf"error: {re.escape(str(path))}: score\(\([0-9, ]+\), \([0-9, ]+\)\) returned \(\d,\), then \(\d,\): a "
            r"rule must tell the same of the same pair every time \(does it draw at random, or keep count\?\)\n",
            done.stderr), done.stderr


def test_an_answer_the_rule_then_tells_otherwise_is_named(tmp_path):
    # The codemaker's answers are kept: the rule telling another of the same pair later (filtering the codes)
    # is named, where the secret would have been lost.
    import numpy as np

    from mm_logic.feedback.custom import load_rule
    from mm_logic.rules import Rules, all_codes

    path = module(tmp_path, "SHIFT = [0]\n\n\ndef score(guess, secret):\n"
                            "    return ((sum(g == s for g, s in zip(guess, secret)) + SHIFT[0]) % 5,)\n")
    rule = load_rule(str(path))
    assert rule.score((0, 0, 1, 1), (0, 1, 2, 3)) == (1,)
    rule._score.__globals__["SHIFT"][0] = 1  # the module's own state: its answers shift, as a random rule's
    codes = all_codes(Rules(4, 6))
    with pytest.raises(custom.BadInput) as said:
        rule.indices((0, 0, 1, 1), codes, np.zeros((len(codes), 6)))
    assert str(said.value) == (f"{path}: score((0, 0, 1, 1), (0, 1, 2, 3)) returned (1,), then (2,): a rule must "
                               "tell the same of the same pair every time (does it draw at random, or keep count?)")


# -- a call in another thread than the main one (the server's requests; issue 56, audit 5) -------------------
@pytest.mark.parametrize("source", [LOOPS, SLEEPS], ids=["loops", "sleeps"])
def test_a_call_in_another_thread_is_bounded_too(tmp_path, monkeypatch, source):
    # The timer's signal reaches the main thread only: in a server's thread the call hung for ever.
    import threading

    from mm_logic.feedback.custom import load_rule

    monkeypatch.setattr(watch, "CALL_SECONDS", 0.5)
    rule = load_rule(str(module(tmp_path, "X = 0\n" + source)))
    outcome = []

    def ask():
        try:
            outcome.append(rule.score((0, 0, 1, 1), (0, 1, 2, 3)))
        except custom.BadInput as error:
            outcome.append(str(error))

    started = time.monotonic()
    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    thread.join(30)
    assert outcome == [f"{tmp_path / 'rule.py'}: score((0, 0, 1, 1), (0, 1, 2, 3)) did not return within 0.5 s"]
    assert time.monotonic() - started < 10


# -- a slow score: the rule's table (issue 56, audit 17) -------------------------------------------------------
#: A rule that takes a millisecond a call: its table of 4x6 (1,679,616 calls) takes about half an hour.
SLOW = "import time\n\n\ndef score(guess, secret):\n    time.sleep(0.001)\n" \
       "    return (sum(g == s for g, s in zip(guess, secret)),)\n"
#: A progress line of the table (``watch.Rows``).
PROGRESS = re.compile(r"(?P<path>.+): scoring every code against every code: (?P<done>[\d,]+) of (?P<size>[\d,]+) "
                      r"guesses \(\d+:\d\d spent, about \d+:\d\d(:\d\d)? left\)")


def test_a_slow_table_says_how_it_goes_and_ends_at_the_time_limit(tmp_path):
    # It derived the table silently for half an hour, deaf to --time-limit.
    path = module(tmp_path, SLOW)
    started = time.monotonic()
    done = with_watch({"PROGRESS_EVERY": 0.5}, "solve", "--backend", "python", "--feedback", path, "--secret",
                      "0123", "--time-limit", 4, cwd=tmp_path)
    assert time.monotonic() - started < 40
    assert (done.returncode, done.stdout) == (1, "")
    *lines, last = done.stderr.splitlines()
    said = [PROGRESS.fullmatch(line) for line in lines]
    assert len(said) >= 2 and all(said), done.stderr
    assert {m["path"] for m in said} == {str(path)} and {m["size"] for m in said} == {"1,296"}
    counts = [int(m["done"]) for m in said]
    assert counts == sorted(counts) and counts[0] >= 1
    assert re.fullmatch(rf"error: {re.escape(str(path))}: the rule's table of 1,296 x 1,296 calls of score was not "
                        r"derived within the time limit of 4 s \([\d,]+ of 1,296 guesses scored, about "
                        r"\d+:\d\d(:\d\d)? in all at this pace\); raise --time-limit", last), last


def test_a_slow_table_that_ends_plays_as_without_its_progress(tmp_path):
    # 3x4: 4,096 calls, some seconds; a line each second once the rows are said to be long (here from 1 s on).
    path = module(tmp_path, SLOW)
    args = ["solve", "--backend", "python", "--feedback", path, "--pegs", 3, "--colors", 4, "--secret", "012"]
    done = with_watch({"PROGRESS_EVERY": 1.0, "LONG_ROWS": 1.0}, *args, cwd=tmp_path)
    quiet = with_watch({}, *args, cwd=tmp_path)
    assert (quiet.returncode, quiet.stderr) == (0, "")
    assert (done.returncode, done.stdout) == (0, quiet.stdout)
    assert done.stderr and all(PROGRESS.fullmatch(line) for line in done.stderr.splitlines()), done.stderr


def test_a_guess_scored_against_many_codes_ends_at_the_time_limit_too(tmp_path):
    # The python engine's filter: one row of 1,296 calls at 10 ms a call.
    path = module(tmp_path, SLOW.replace("0.001", "0.01"))
    done = mmlogic("next", "--backend", "python", "--strategy", "first", "--feedback", path, "--time-limit", 2,
                   "0011:2", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "")
    assert re.fullmatch(rf"error: {re.escape(str(path))}: scoring \(0, 0, 1, 1\) against 1,296 codes did not end "
                        r"within the time limit of 2 s \([\d,]+ scored\); raise --time-limit\n", done.stderr), \
        done.stderr


def test_static_derives_a_slow_table_within_its_time_limit_as_solve_does(tmp_path):
    # static took its own --time-limit, which the watch never saw: the table of 4x4 (65,536 calls, over a minute
    # here) ran to its end, then the search began. It now ends at the limit in solve's line and exit code.
    path = module(tmp_path, SLOW)
    started = time.monotonic()
    done = with_watch({"PROGRESS_EVERY": 0.5}, "static", "--pegs", 4, "--colors", 4, "--feedback", path,
                      "--time-limit", 3, cwd=tmp_path)
    assert time.monotonic() - started < 40
    assert (done.returncode, done.stdout) == (1, "")
    *lines, last = done.stderr.splitlines()
    assert lines and all(PROGRESS.fullmatch(line) for line in lines), done.stderr
    assert re.fullmatch(rf"error: {re.escape(str(path))}: the rule's table of 256 x 256 calls of score was not "
                        r"derived within the time limit of 3 s \([\d,]+ of 256 guesses scored, about "
                        r"\d+:\d\d(:\d\d)? in all at this pace\); raise --time-limit", last), last


def test_static_with_a_rule_module_that_ends_in_time_finds_its_guesses(tmp_path):
    # 2x3 under the rule of the colours in place (black pegs): its table at once, then the search as before.
    path = module(tmp_path, SLOW)
    done = mmlogic("static", "--pegs", 2, "--colors", 3, "--feedback", path, "--time-limit", 60, "--json",
                   cwd=tmp_path)
    black = mmlogic("static", "--pegs", 2, "--colors", 3, "--feedback", "black", "--json", cwd=tmp_path)
    assert (done.returncode, black.returncode) == (0, 0), done.stderr
    found, expected = json.loads(done.stdout), json.loads(black.stdout)
    assert (found["guesses"], found["optimal"]) == (expected["guesses"], True)


def test_puzzle_takes_a_time_limit_that_bounds_a_rule_modules_scoring(tmp_path):
    # puzzle had no --time-limit: a rule module's rows of calls (10 ms each, 1,296 a row) ran to their end.
    path = module(tmp_path, SLOW.replace("0.001", "0.01"))
    started = time.monotonic()
    done = mmlogic("puzzle", "--backend", "python", "--feedback", path, "--entries", 3, "--seed", 1,
                   "--time-limit", 2, cwd=tmp_path)
    assert time.monotonic() - started < 40
    assert (done.returncode, done.stdout) == (1, "")
    assert re.fullmatch(rf"error: {re.escape(str(path))}: scoring \(\d, \d, \d, \d\) against [\d,]+ codes did not "
                        r"end within the time limit of 2 s \([\d,]+ scored\); raise --time-limit\n", done.stderr), \
        done.stderr


# -- a module that raises KeyboardInterrupt itself, or changes the signals the watch uses (issue 56) -----------
@pytest.mark.parametrize("raised, said", [
    ("KeyboardInterrupt", "KeyboardInterrupt"),
    ("KeyboardInterrupt('mine')", "KeyboardInterrupt: mine"),
])
def test_a_score_that_raises_keyboard_interrupt_itself_is_one_line(tmp_path, raised, said):
    # It ended in "interrupted", exit 130, though no one pressed Ctrl-C.
    path = module(tmp_path, f"def score(guess, secret):\n    raise {raised}\n")
    refused_in_solve(path, tmp_path, f"{SOLVED} failed: {said}")


def test_a_module_that_raises_keyboard_interrupt_at_import_is_one_line(tmp_path):
    path = module(tmp_path, "raise KeyboardInterrupt\n")
    done = mmlogic("next", "--backend", "python", "--feedback", path, "0011:1", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: Invalid value for '--feedback': {path}: KeyboardInterrupt\n")


def asked_in_a_thread(rule, guess, secret, *, withheld: bool = False) -> list:
    """What ``rule.score(guess, secret)`` gives a thread other than the main one (a server's request, within
    :func:`~mm_logic.feedback.watch.withholding` when ``withheld``): its value, or its error as a line."""
    import contextlib
    import threading

    from mm_logic.feedback.watch import withholding

    outcome = []

    def ask():
        with withholding() if withheld else contextlib.nullcontext():
            try:
                outcome.append(rule.score(guess, secret))
            except BaseException as error:  # noqa: BLE001 - what the request gets
                outcome.append(f"{type(error).__name__}: {error}")

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    thread.join(30)
    return outcome


def test_a_keyboard_interrupt_in_another_thread_is_the_modules_own(tmp_path):
    # No Ctrl-C reaches a thread other than the main one (a server's request): it is always the module's.
    from mm_logic.feedback.custom import load_rule

    rule = load_rule(str(module(tmp_path, "X = 1\n\n\ndef score(guess, secret):\n    raise KeyboardInterrupt\n")))
    outcome = asked_in_a_thread(rule, (0, 0, 1, 1), (0, 1, 2, 3))
    assert outcome == [f"RuleFault: {tmp_path / 'rule.py'}: score((0, 0, 1, 1), (0, 1, 2, 3)) failed: "
                       "KeyboardInterrupt"]


#: A score that catches Ctrl-C and raises its own: a Ctrl-C still.
CATCHES = SAYS_LOOPS + "    try:\n        while True:\n            pass\n" \
                       "    except KeyboardInterrupt:\n        raise KeyboardInterrupt('mine')\n"
#: A module that ignores Ctrl-C from its import on, then loops.
IGNORES = "import signal\n\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n\n\n" + SAYS_LOOPS + \
          "    while True:\n        pass\n"


@pytest.mark.parametrize("source", [CATCHES, IGNORES], ids=["raises-its-own", "ignored-at-import"])
def test_ctrl_c_is_still_ctrl_c(tmp_path, source):
    # (A fixed wait of 3 s before the signal fell before the loop on a loaded machine: exit 2 at the limit.)
    path = module(tmp_path, source)
    process = subprocess.Popen([MMLOGIC, "next", "--backend", "python", "--feedback", str(path), "0011:1"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert signalled_after(process, "looping", signal.SIGINT) == (130, "", "looping\ninterrupted\n")


@pytest.mark.parametrize("change", [
    "signal.signal(signal.SIGALRM, signal.SIG_IGN)",
    "signal.signal(signal.SIGALRM, lambda number, frame: None)",
    "signal.signal(signal.SIGALRM, signal.SIG_DFL)",
    "signal.alarm(0)",
    "signal.setitimer(signal.ITIMER_REAL, 0)",
    "signal.setitimer(signal.ITIMER_REAL, 0.01, 0.01)",
], ids=["ignored", "own-handler", "default", "alarm-0", "setitimer-0", "own-timer"])
@pytest.mark.parametrize("where", ["score", "import"])
def test_a_module_that_changes_the_alarm_is_still_stopped(tmp_path, change, where):
    # It looped until killed, deaf to the watch and to --time-limit (the watch's timer was SIGALRM's).
    head, body = (f"{change}\n", "") if where == "import" else ("", f"    {change}\n")
    path = module(tmp_path, f"import signal\n\n{head}\n\ndef score(guess, secret):\n{body}    while True:\n"
                            "        pass\n")
    started = time.monotonic()
    done = with_limit(0.5, "solve", "--backend", "python", "--strategy", "first", "--feedback", path, "--secret",
                      "0123", "--time-limit", 1, cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: {path}: {SOLVED} did not return within 0.5 s\n")
    assert time.monotonic() - started < 30


def test_a_module_that_changes_the_signals_and_returns_plays_as_before(tmp_path):
    # The handlers are put back after each block of its calls: the next call is watched, Ctrl-C is Ctrl-C.
    path = module(tmp_path, "import signal\n\n\ndef score(guess, secret):\n"
                            "    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
                            "    signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                            "    return (sum(g == s for g, s in zip(guess, secret)),)\n")
    done = solved(path, tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "1  0000  1\n2  0111  2\n3  0122  3\n4  0123  won\n4 guesses\n", "")


def test_what_the_watch_does_not_stop_is_documented():
    said = " ".join((ROOT / "docs" / "encodings.md").read_text().split())
    assert "os._exit" in said and "10 ** 10 ** 10" in said


@pytest.mark.parametrize("change, wait", [
    ("signal.signal(signal.SIGALRM, lambda number, frame: None)", 1000),
    ("signal.alarm(0)", 1000),
    ("signal.setitimer(signal.ITIMER_REAL, 0)", 1000),
    ("signal.signal(signal.SIGALRM, signal.SIG_IGN)", 3),  # a wait in C, ignoring the signal: at its end
], ids=["own-handler", "alarm-0", "setitimer-0", "ignored"])
def test_a_module_that_changes_the_alarm_and_sleeps_is_stopped(tmp_path, change, wait):
    path = module(tmp_path, f"import signal\nimport time\n\n\ndef score(guess, secret):\n    {change}\n"
                            f"    time.sleep({wait})\n")
    started = time.monotonic()
    done = with_limit(0.5, "solve", "--backend", "python", "--strategy", "first", "--feedback", path, "--secret",
                      "0123", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: {path}: {SOLVED} did not return within 0.5 s\n")
    assert time.monotonic() - started < 30


# -- a module that takes the command's signals in each call, or keeps its process (issue 56, third audit) ------
@pytest.mark.parametrize(("ending", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_module_that_ignores_the_signals_in_each_call_does_not_keep_them_from_the_command(tmp_path, ending, code):
    # Put back only after each block of calls, the handlers let it drop every signal that came during its calls:
    # the command looped on to the watch's limit (exit 2), deaf to Ctrl-C and SIGTERM.
    path = module(tmp_path, "import signal\nimport sys\n\n\ndef score(guess, secret):\n"
                            "    signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                            "    signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                            "    print('scoring', file=sys.stderr, flush=True)\n    while True:\n        pass\n")
    process = subprocess.Popen([MMLOGIC, "next", "--backend", "python", "--feedback", str(path), "0011:1"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert signalled_after(process, "scoring", ending) == (code, "", "scoring\ninterrupted\n")


#: A module that starts a thread that never ends, and one whose exit handler loops.
KEEPS = {"thread": "import threading\nimport time\n\n\ndef _beat():\n    while True:\n        time.sleep(0.1)\n\n\n"
                   "threading.Thread(target=_beat).start()\n",
         "atexit": "import atexit\n\n\n@atexit.register\ndef _spin():\n    while True:\n        pass\n"}
COUNTS = "\n\ndef score(guess, secret):\n    return (sum(g == s for g, s in zip(guess, secret)),)\n"


@pytest.mark.parametrize("keeps", KEEPS.values(), ids=KEEPS)
def test_a_module_that_leaves_work_running_does_not_keep_the_process(tmp_path, keeps):
    # It printed its answer, then waited for ever: the interpreter joins every thread, then runs every exit handler.
    path = module(tmp_path, keeps + COUNTS)
    done = mmlogic("next", "--pegs", "3", "--colors", "3", "--backend", "python", "--feedback", path, "--json",
                   cwd=tmp_path, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, '{"guess": "000", "consistent": 27}\n',
        "note: the command was done; a thread or an exit handler left running (a rule module's?) kept its process "
        "5 s more: it ends now\n")


def test_ctrl_c_ends_a_process_a_module_keeps_at_once(tmp_path):
    # Ctrl-C there printed a traceback out of the interpreter's shutdown, and exit 0. The module's thread says
    # when the main one has ended (the interpreter's shutdown under way): the signal is sent then.
    path = module(tmp_path, "import sys\nimport threading\nimport time\n\n\ndef _watch():\n"
                            "    while threading.main_thread().is_alive():\n        time.sleep(0.05)\n"
                            "    print('main ended', file=sys.stderr, flush=True)\n    while True:\n"
                            "        time.sleep(0.1)\n\n\nthreading.Thread(target=_watch).start()\n" + COUNTS)
    process = subprocess.Popen([MMLOGIC, "next", "--pegs", "3", "--colors", "3", "--backend", "python", "--feedback",
                                str(path), "--json"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    assert signalled_after(process, "main ended", signal.SIGINT) == (
        130, '{"guess": "000", "consistent": 27}\n', "main ended\ninterrupted\n")
