"""Ctrl-C in the scripts under py/: the line ``interrupted`` and exit 130, what finished kept, never a
traceback and never figures printed as if the run had finished.

Each test starts a script in a child process, waits for its first line on stdout (the script is then
at work), waits a little more, sends SIGINT and reads what the script printed until it exits.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from mm_logic.rules import Rules
from mm_logic.support.errors import MMLogicError

from conftest import load_seed003_script, py_path, py_script


@dataclass
class Interrupted:
    returncode: int
    stdout: str
    stderr: str


def interrupt(name: str, *args: str, after: float, first_line_within: float = 30, cwd=None,
              env: dict | None = None) -> Interrupted:
    """Run the script ``NAME ARGS`` under py/; SIGINT ``after`` seconds after its first line on stdout (or after
    ``first_line_within`` seconds if it printed none by then); what it printed and its exit code."""
    child = subprocess.Popen([sys.executable, str(py_path(name)), *args], cwd=cwd,
                             env={**os.environ, **(env or {})},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in child.stdout], daemon=True)
    reader.start()
    errors: list[str] = []
    err_reader = threading.Thread(target=lambda: errors.append(child.stderr.read()), daemon=True)
    err_reader.start()
    printed = []
    try:
        with contextlib.suppress(queue.Empty):  # none yet: interrupted all the same
            printed.append(lines.get(timeout=first_line_within))
        time.sleep(after)
        child.send_signal(signal.SIGINT)
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    reader.join(10)
    err_reader.join(10)
    while not lines.empty():
        printed.append(lines.get())
    return Interrupted(child.returncode, "".join(printed), "".join(errors))


def assert_interrupted(result: Interrupted) -> None:
    assert (result.returncode, result.stderr[-len("interrupted\n"):]) == (130, "interrupted\n"), result.stderr
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr, result.stderr


def test_compare_tables_stops_on_ctrl_c_and_writes_no_charts(tmp_path):
    # compare() keeps Ctrl-C (the rows so far, complete False): the script printed "Agreement: ..." on part of
    # the preset, wrote its charts (by default over the README's) and went on to the next preset, exit 0.
    charts = tmp_path / "charts"
    result = interrupt("compare_tables.py", "--preset", "seed004", "--preset", "seed000", "--charts", str(charts),
                       after=1.5, first_line_within=10)
    assert_interrupted(result)
    assert result.stdout.startswith("### seed004 (`mmlogic compare --preset seed004 --seed 1`)\n")
    assert "Agreement" not in result.stdout and "seed000" not in result.stdout
    assert not charts.exists()


def test_seed003_vs_swipl_ctrl_c_in_the_seeds_game_is_interrupted():
    # Ctrl-C in the seed's CLP(FD) guesser reaches Python in janus's heartbeat, which hands it back as
    # janus_swi.janus.PrologError: Python 'KeyboardInterrupt': a traceback, exit 1.
    load_seed003_script()  # skipped without the report, as the other tests of the script
    result = interrupt("seed003_vs_swipl.py", after=3)  # 200 games of ~0.2 s: the seed's games take ~40 s
    assert_interrupted(result)
    # Its first line only: no table of part of the games.
    assert result.stdout.startswith("SWI-Prolog: ") and result.stdout.count("\n") == 1
    assert result.stdout.endswith("; rules: 5x8 no-repeat; 200 random secrets (seed 1)\n")


# -- z3_baseline.py ----------------------------------------------------------------------------------------

def unknown_z3(reason: str):
    """A stand-in for z3 whose ``check()`` returns ``unknown`` for ``reason``."""
    solver = SimpleNamespace(add=lambda *_: None, check=lambda: "unknown", reason_unknown=lambda: reason)
    return SimpleNamespace(SolverFor=lambda logic: solver, Bool=lambda name: name, PbEq=lambda *_: None,
                           sat="sat", unknown="unknown")


def test_z3_unknown_is_ctrl_c_or_said_as_giving_up_never_no_consistent_code():
    # Z3 takes SIGINT itself while it searches: check() returns unknown, which was "Z3 found no consistent code".
    script = py_script("z3_baseline")
    with pytest.raises(KeyboardInterrupt):
        script.play_z3(unknown_z3("interrupted from keyboard"), Rules(4, 6), (0, 1, 2, 3))
    with pytest.raises(MMLogicError) as error:
        script.play_z3(unknown_z3("timeout"), Rules(4, 6), (0, 1, 2, 3))
    assert str(error.value) == "Z3 gave up on secret 0123 after 0 guesses (check() returned unknown: timeout)"


def test_ctrl_c_in_a_destructor_is_held_and_raised_at_the_next_check():
    # Python raised Ctrl-C in z3's AstRef.__del__, where it is printed and lost: the Z3 games of
    # py/experiments/z3_baseline.py went on and printed a row. They run under interrupts_held and check between guesses.
    from mm_logic.support.interrupts import interrupts_held
    before = signal.getsignal(signal.SIGINT)

    class Dropped:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGINT)  # the handler runs here, in the destructor

    checks = []
    with pytest.raises(KeyboardInterrupt), interrupts_held() as ctrl_c:
        ctrl_c.check()
        checks.append("no Ctrl-C yet: the check lets the block go on")
        Dropped()
        assert ctrl_c.caught == [signal.SIGINT]
        ctrl_c.check()
        checks.append("not reached")
    assert checks == ["no Ctrl-C yet: the check lets the block go on"]
    assert signal.getsignal(signal.SIGINT) is before
    with pytest.raises(KeyboardInterrupt), interrupts_held():
        os.kill(os.getpid(), signal.SIGINT)  # after the last check: raised as the block ends
    assert signal.getsignal(signal.SIGINT) is before


def scripted_z3(guesses):
    """A stand-in for z3 whose solver answers ``guesses`` in turn (each check() is sat, its model
    the next guess); the constraints are taken and ignored."""
    turn = []

    def is_true(var):  # var is (peg, colour), as Bool names it
        return guesses[len(turn) - 1][var[0]] == var[1]
    solver = SimpleNamespace(add=lambda *_: None, check=lambda: turn.append(1) or "sat",
                             model=lambda: SimpleNamespace(eval=lambda var: var))
    return SimpleNamespace(SolverFor=lambda logic: solver, sat="sat", unknown="unknown", is_true=is_true,
                           Bool=lambda name: tuple(int(n) for n in name.split("_")[1:]),
                           FreshBool=object, PbEq=lambda *_: None, Not=lambda v: v, And=lambda *v: v), turn


def test_z3_games_check_for_ctrl_c_before_each_guess():
    # The Z3 player calls between() (the held Ctrl-C's check) before each guess: a Ctrl-C held during the
    # third guess's turn stops the game before Z3 is asked for that guess.
    script = py_script("z3_baseline")
    z3, asked = scripted_z3([(0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (5, 4, 3, 1)])
    assert script.play_z3(z3, Rules(4, 6), (5, 4, 3, 1))[0] == 4  # the stand-in plays a whole game
    z3, asked = scripted_z3([(0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (5, 4, 3, 1)])
    calls = []

    def between():
        calls.append("checked")
        if len(calls) == 3:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        script.play_z3(z3, Rules(4, 6), (5, 4, 3, 1), between)
    assert (len(calls), len(asked)) == (3, 2)


def test_seed003_openings_ctrl_c_prints_no_row_of_an_unfinished_bench():
    result = interrupt("seed003_openings.py", "--backend", "swipl", after=2)
    assert_interrupted(result)
    assert result.stdout == ("5x8 no-repeat, every secret (6,720), swipl, then first\n"
                             "opening                            games    mean  max   report  histogram\n")
