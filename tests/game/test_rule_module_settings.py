"""A rule of one's own (``--feedback FILE.py``) that changes the process's settings, or writes a ``score`` that is
no plain function (issue 56, seventh audit 5 to 8).

Its code runs in mmlogic's process: what it set there stayed. A recursion limit of 40 ended the command in
``internal failure: RecursionError``; ``sys.excepthook = None`` added an interpreter dump to its error line, exit 1;
``os.umask(0o777)`` made every file the command wrote unreadable; a switch interval of 1000 s kept the watch's
thread from ever running (the 10 s limit never came); fds 1 or 2 closed or redirected lost the command's answer
and errors. Now they are put back after each block of the module's code (:mod:`mm_logic.feedback.module_settings`),
and the switch interval cannot be raised past what the watch needs while its code runs. An ``async def score``
is refused at import (its coroutines were never awaited: a warning of three lines after the error).
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import mmlogic

#: A rule that tells the pegs in place, and what ``solve --secret 012`` plays with it on 3x3.
SCORE = "def score(guess, secret):\n    return (sum(g == s for g, s in zip(guess, secret)),)\n"
SOLVE = ["solve", "--secret", "012", "--backend", "python", "--pegs", "3", "--colors", "3"]
SOLVED = "1  000  1\n2  001  1\n3  012  won\n3 guesses\n"
#: A score that never returns.
LOOPS = "def score(guess, secret):\n    while True:\n        pass\n"


def module(tmp_path, source: str, name: str = "rule.py"):
    path = tmp_path / name
    path.write_text(source)
    return path


def solved_under(tmp_path, source: str, name: str = "rule.py") -> subprocess.CompletedProcess:
    """``mmlogic solve --secret 012`` on 3x3 under the rule module of ``source``."""
    return mmlogic(*SOLVE, "--feedback", module(tmp_path, source, name), cwd=tmp_path)


def changing(change: str, where: str, body: str = SCORE) -> str:
    """``body``, a module whose first line is ``def score``, with ``change`` made at ``where``: at import, or at
    the start of each call of ``score``."""
    if where == "import":
        return change + body
    head, rest = body.split("\n", 1)
    return f"{head}\n{textwrap.indent(change, '    ')}{rest}"


def with_limit(seconds: float, *args, cwd, timeout: float = 60) -> subprocess.CompletedProcess:
    """``mmlogic ARGS`` in a child process whose rule modules get ``seconds`` a call instead of 10."""
    child = textwrap.dedent(f"""
        import sys
        import mm_logic.feedback.watch as watch
        watch.CALL_SECONDS = {seconds!r}
        from mm_logic.__main__ import main
        sys.argv = ["mmlogic", *{[str(a) for a in args]!r}]
        main()
    """)
    return subprocess.run([sys.executable, "-c", child], cwd=cwd, capture_output=True, text=True, timeout=timeout)


# -- settings made at import, or in a call ---------------------------------------------------------------------
def test_a_module_that_lowers_the_recursion_limit_leaves_mmlogics_alone(tmp_path):
    # internal failure: RecursionError: maximum recursion depth exceeded, exit 1.
    done = solved_under(tmp_path, "import sys\nsys.setrecursionlimit(40)\n" + SCORE)
    assert (done.returncode, done.stdout, done.stderr) == (0, SOLVED, "")


def test_a_module_that_takes_the_excepthook_away_still_fails_in_one_line(tmp_path):
    # The line, then "Error in sys.excepthook: TypeError", an interpreter dump of SystemExit, exit 1.
    done = solved_under(tmp_path, "import sys\nsys.excepthook = None\n\n\ndef score(guess, secret):\n"
                                  "    raise ValueError('x')\n", "excepthook.py")
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: {tmp_path / 'excepthook.py'}: score((0, 0, 0), (1, 1, 1)) failed: ValueError: x\n")


@pytest.mark.parametrize("where", ["import", "score"])
def test_the_files_a_command_writes_keep_the_users_umask(tmp_path, where):
    # Both written with mode ---------- (unreadable) after the module's os.umask(0o777).
    change = "import os\nos.umask(0o777)\n"
    source = changing(change, where)
    path = module(tmp_path, source, "umask.py")
    done = mmlogic("bench", "--pegs", "3", "--colors", "3", "--all", "--feedback", path, "--backend", "python",
                   "--out", "um.json", "--save-tree", "umt.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    mask = os.umask(0o022)
    os.umask(mask)
    modes = [stat.S_IMODE((tmp_path / name).stat().st_mode) for name in ("um.json", "umt.json")]
    assert modes == [0o666 & ~mask] * 2


@pytest.mark.parametrize("where", ["import", "score"])
def test_a_module_that_changes_directory_does_not_move_the_commands_files(tmp_path, where):
    # --out um.json landed in the folder the module went to.
    (tmp_path / "elsewhere").mkdir()
    change = f"import os\nos.chdir({str(tmp_path / 'elsewhere')!r})\n"
    source = changing(change, where)
    path = module(tmp_path, source, "moves.py")
    done = mmlogic("bench", "--pegs", "3", "--colors", "3", "--all", "--feedback", path, "--backend", "python",
                   "--out", "um.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert ((tmp_path / "um.json").is_file(), os.listdir(tmp_path / "elsewhere")) == (True, [])


#: A child process that loads a rule module and asks its score once, saying the settings before and after.
SETTINGS = textwrap.dedent("""
    import gc, os, sys, threading, warnings
    from mm_logic.feedback import custom

    def settings():
        mask = os.umask(0o022)
        os.umask(mask)
        return (sys.getrecursionlimit(), sys.getswitchinterval(), sys.excepthook, sys.displayhook,
                sys.unraisablehook, threading.excepthook, warnings.showwarning, list(warnings.filters), mask,
                os.getcwd(), [os.fstat(fd).st_ino for fd in (0, 1, 2)])

    custom.watch.report_failures_of(custom.Path("x.py"))  # mmlogic's own hooks, as the module's import sets them
    before = settings()
    rule = custom.load_rule(sys.argv[1])
    after_import = settings()
    rule.score((0, 0, 0), (1, 1, 1))
    print(before == after_import, before == settings(), file=sys.__stderr__)
""")
#: Every setting a module may change, changed (fds 0 to 2 pointed elsewhere: what Python prints there is lost).
CHANGES = textwrap.dedent("""\
    import os, sys, threading, warnings
    sys.setrecursionlimit(60)
    sys.setswitchinterval(0.5)
    sys.excepthook = sys.displayhook = sys.unraisablehook = threading.excepthook = None
    warnings.showwarning = None
    warnings.simplefilter("error")
    os.umask(0o777)
    os.chdir("/")
    for fd in (0, 1, 2):
        os.dup2(os.open(os.devnull, os.O_RDWR), fd)
""")


@pytest.mark.parametrize("where", ["import", "score"])
def test_every_setting_a_module_changes_is_put_back(tmp_path, where):
    source = changing(CHANGES, where)
    path = module(tmp_path, source, "changes.py")
    done = subprocess.run([sys.executable, "-c", SETTINGS, path], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "True True\n")


def test_a_module_may_raise_the_recursion_limit_for_its_own_calls(tmp_path):
    # A recursion limit raised at import is the module's need (a score that recurses deeply), and harms nothing.
    done = solved_under(tmp_path, "import sys\nsys.setrecursionlimit(20000)\n\n\ndef depth(n):\n"
                                  "    return 0 if n == 0 else 1 + depth(n - 1)\n\n\n" + SCORE.replace(
                                      "    return (", "    depth(5000)\n    return ("))
    assert (done.returncode, done.stdout, done.stderr) == (0, SOLVED, "")


# -- the watch's limit, whatever the switch interval ---------------------------------------------------------
@pytest.mark.parametrize("where", ["import", "score"])
def test_a_module_that_raises_the_switch_interval_is_still_stopped(tmp_path, where):
    # The watch's thread never got the interpreter: the call ran until killed.
    change = "import sys\nsys.setswitchinterval(1000)\n"
    source = changing(change, where, LOOPS)
    path = module(tmp_path, source, "switch.py")
    started = time.monotonic()
    done = with_limit(0.5, "next", "--feedback", path, "--backend", "python", "--pegs", "3", "--colors", "3",
                      cwd=tmp_path, timeout=30)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: {path}: score((0, 0, 0), (1, 1, 1)) did not return within 0.5 s\n")
    assert time.monotonic() - started < 15


# -- a score that is a coroutine function ----------------------------------------------------------------------
def test_an_async_score_is_refused_at_import(tmp_path):
    # The error line, then a RuntimeWarning of three lines: coroutine 'score' was never awaited.
    path = module(tmp_path, "async def score(guess, secret):\n    return (1,)\n", "async.py")
    done = mmlogic("next", "--feedback", path, "--backend", "python", "--pegs", "3", "--colors", "3", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: Invalid value for '--feedback': {path}: score is a coroutine function (async def): write "
               "def score(guess, secret)\n")


def test_a_coroutine_returned_is_closed(tmp_path):
    # A callable object whose __call__ is async is no coroutine function: its coroutine is refused, then closed.
    path = module(tmp_path, "class Score:\n    async def __call__(self, guess, secret):\n        return (1,)\n\n\n"
                            "score = Score()\n", "async.py")
    done = mmlogic("next", "--feedback", path, "--backend", "python", "--pegs", "3", "--colors", "3", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert re.fullmatch(rf"error: {re.escape(str(path))}: score\(\(0, 0, 0\), \(1, 1, 1\)\) returned <coroutine "
                        r"object Score.__call__ at 0x[0-9a-f]+>, not whole numbers from 0 to the 3 pegs\n",
                        done.stderr), done.stderr


# -- file descriptors 0 to 2 ---------------------------------------------------------------------------------
def test_a_module_that_closes_fd_2_still_has_its_fault_said(tmp_path):
    # Nothing said, exit 1.
    path = module(tmp_path, "import os\nos.close(2)\n\n\ndef score(guess, secret):\n    return (-1,)\n", "close2.py")
    done = mmlogic("next", "--feedback", path, "--backend", "python", "--pegs", "3", "--colors", "3", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: {path}: score((0, 0, 0), (1, 1, 1)) returned (-1,), not whole numbers from 0 to the 3 pegs\n")


@pytest.mark.parametrize("where", ["import", "score"])
def test_a_module_that_redirects_fd_1_does_not_lose_the_answer(tmp_path, where):
    # solve printed nothing, exit 0.
    change = "import os\nos.dup2(os.open(os.devnull, os.O_WRONLY), 1)\n"
    done = solved_under(tmp_path, changing(change, where), "dup1.py")
    assert (done.returncode, done.stdout, done.stderr) == (0, SOLVED, "")
