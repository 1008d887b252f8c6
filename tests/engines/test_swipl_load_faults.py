"""A ``.pl`` encoding whose load does not end (issue 56, defect 2): ``--time-limit``, Ctrl-C, SIGTERM and
SIGHUP stop it as they stop a question, in one line and with the usual exit code.

SWI-Prolog runs a file's directives with signals blocked (``load_files/2`` runs in ``sig_atomic/1``): neither
the alarm of ``call_with_time_limit/2`` nor a thread signal reaches a directive, and the heartbeat does not
see a loop of last calls (``spin :- spin.``) nor a wait in C (``sleep/1``). Such a load ran until SIGKILL.
Every command runs in a child process bounded by a timeout, so that a load that is not stopped fails the
test instead of hanging it.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

from mm_logic.support.resources import encoding_path

from conftest import MMLOGIC, mmlogic, signalled_after

SHIPPED = encoding_path("mastermind.pl")
#: Directives that do not end, each in a copy of the shipped encoding: last calls the heartbeat does not
#: count, a goal run once the file is read, a wait in C, and a loop the heartbeat sees (stopped before too).
LOOPS = {
    "spin": "spin :- spin.\n:- spin.\n",
    "initialization": "loop :- loop.\n:- initialization(loop).\n",
    "sleep": ":- sleep(1000).\n",
    "repeat": ":- repeat, fail.\n",
}
#: The line a loading encoding writes (to stderr, where what an encoding prints goes) as it enters its loop.
ENTERED = "entering the loop"


def looping(tmp_path, kind: str, *, say: bool = False):
    """A copy of the shipped encoding that ends in the directive ``kind`` (saying so first with ``say``)."""
    path = tmp_path / f"{kind}.pl"
    said = f":- format(user_error, '{ENTERED}~n', []).\n" if say else ""
    path.write_text(SHIPPED.read_text() + said + LOOPS[kind])
    return path


@pytest.mark.parametrize("kind", list(LOOPS))
@pytest.mark.parametrize("command", [["next"], ["solve", "--secret", "0123"]], ids=["next", "solve"])
def test_the_time_limit_stops_a_load_that_does_not_end(tmp_path, kind, command):
    path = looping(tmp_path, kind)
    started = time.monotonic()
    done = mmlogic(*command, "--backend", "swipl", "--encoding", path.name, "--time-limit", "1", cwd=tmp_path,
                   timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "", f"error: swipl did not load {path.name} within the time limit of 1 s; raise --time-limit, or look "
               "for a directive that does not end\n")
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("kind", ["spin", "initialization", "sleep", "repeat"])
@pytest.mark.parametrize("ending, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)],
                         ids=["ctrl-c", "sigterm", "sighup"])
def test_a_signal_stops_a_load_in_progress(tmp_path, kind, ending, code):
    path = looping(tmp_path, kind, say=True)
    process = subprocess.Popen([MMLOGIC, "next", "--backend", "swipl", "--encoding", path.name], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert signalled_after(process, ENTERED, ending) == (code, "", f"{ENTERED}\ninterrupted\n")


def test_a_load_left_running_does_not_stop_the_next(tmp_path):
    # In one process: the load that cannot be stopped is left to run (the process ends without waiting
    # for it); the shipped encoding and other files still load, and the same file again is refused at once
    # rather than waiting for the first load (which holds it) for ever.
    spin, ok = looping(tmp_path, "spin"), tmp_path / "ok.pl"
    ok.write_text(SHIPPED.read_text() + ":- true.\n")
    child = textwrap.dedent(f"""
        import os, time
        from mm_logic.engines.swipl import SwiplEngine
        from mm_logic.support.errors import SolverTimeout
        from mm_logic.rules import Rules
        for attempt in range(2):
            started = time.monotonic()
            try:
                SwiplEngine(Rules(4, 6), encoding={str(spin)!r}, time_limit=0.5)
            except SolverTimeout as error:
                print(error, time.monotonic() - started < 10, flush=True)
        history = [((0, 0, 1, 1), (1, 0))]
        print(SwiplEngine(Rules(4, 6)).count(history), SwiplEngine(Rules(4, 6), encoding={str(ok)!r}).count(history),
              flush=True)
        os._exit(0)  # as mmlogic ends a process that left a load running (interrupts.end_process)
    """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    timed_out = (f"swipl did not load {spin} within the time limit of 0.5 s; raise --time-limit, or look for a "
                 "directive that does not end")
    again = (f"swipl cannot load {spin} again in this process: its earlier load did not end and still runs; look "
             "for a directive that does not end")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{timed_out} True\n{again} True\n256 256\n", "")


def test_the_flags_a_directive_sets_hold_for_the_questions(tmp_path):
    # The load runs in a thread of its own, and most Prolog flags are a thread's: a directive's
    # set_prolog_flag/2 held only there, and this encoding then admitted no code (exit 3).
    (tmp_path / "flagged.pl").write_text(textwrap.dedent("""\
        :- module(flagged, [secret/2]).
        :- reexport(mmlogic(mastermind), except([secret/2])).
        :- use_module(mmlogic(mastermind), [secret/2 as shipped_secret]).
        :- set_prolog_flag(occurs_check, error).
        secret(Rules, Secret) :-
            current_prolog_flag(occurs_check, error),
            shipped_secret(Rules, Secret).
    """))
    done = mmlogic("next", "--backend", "swipl", "--encoding", "flagged.pl", "--strategy", "first", "0011:1,0",
                   cwd=tmp_path, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "0222  (256 codes still possible)\n", "")
