"""A ``.lp`` file whose grounding does not end (issue 56, audit items 3 and 4): a rule file (``--feedback
FILE.lp``, its table derived by clingo) and an encoding (``--encoding FILE.lp``) in ``info``, ``optimal``,
``puzzle``, ``static`` and ``split``, which had no bound where no ``--time-limit`` was given.

clingo cannot stop a grounding: ``n(X+1) :- n(X).`` took the machine's memory and ended in clingo's
``MemoryError`` ("internal failure", exit 1). Now every grounding of a user's file is bounded by the time
limit, by memory (a share of what the process can take) and by Ctrl-C, SIGTERM and SIGHUP, each one line
naming the file. Every command runs in a child process under an address-space limit, so that a grounding
that is not stopped fails the test instead of taking the machine, and a grounding left running ends with
its process.
"""

from __future__ import annotations

import re
import resource
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mm_logic.engines.clingo import grounding

from conftest import MMLOGIC

#: A rule in ``base`` whose grounding never ends.
ENDLESS = "n(0).\nn(X+1) :- n(X).\n"
#: The rule of examples/shared_colours.lp: the colours a guess shares with the secret, as one number.
SHARED = ("#program step(t).\n#defined told/3.\n"
          ":- active(t), told(t,1,S), not S = #count { C,I : guess_count(t,C,N), at_least(C,I), I <= N }.\n")
#: The address space a command may take (``ulimit -v``): enough for mmlogic (it reserves 1 GiB to read a
#: file), little enough for the machine. The memory bound is then a quarter of what is left: about 300 MiB
#: under :data:`CAP`, reached in seconds; about 680 MiB under :data:`WIDE_CAP`, where a signal is sent first.
CAP, WIDE_CAP = 3 << 29, 3 << 30
#: Resident memory a command reaches only once the endless grounding is under way (start-up takes 150 MiB).
GROUNDING = 250 << 20
#: The one line of the memory bound, its size (the process's room) left open; a grounding that reaches it after 5 s
#: (a loaded machine) was said meanwhile by the wait's notes (mm_logic.support.waiting), each naming the file and the
#: bound: none, or a rule file's grounding's own.
MEMORY_LINE = (r"(note: [^\n]*{name}[^\n]*: \d+:\d\d so far \((no time limit|at most \d+ s); Ctrl-C stops it\)\n)*"
               "error: clingo's grounding of {name} took more than [0-9.]+ MiB of memory, the most one grounding may "
               r"take \(25% of the memory free, at most 4\.0 GiB\); look for a rule that grounds without end\n")


def _capped(cap: int = CAP) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def endless(tmp_path: Path, rule: bool = False) -> Path:
    """An encoding that includes the shipped game and grounds for ever; with ``rule``, it states
    shared_colours' feedback rule too (a ``--feedback FILE.lp``)."""
    path = tmp_path / ("endless_rule.lp" if rule else "endless.lp")
    path.write_text('#include "mastermind.lp".\n' + ENDLESS + (SHARED if rule else ""))
    return path


def capped_mmlogic(*args, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """``mmlogic ARGS`` in its own process, under :data:`CAP`, ended after ``timeout``."""
    return subprocess.run([MMLOGIC, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=_capped)


def resident(pid: int) -> int:
    """Bytes of process ``pid`` in memory (0 once it has ended)."""
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * resource.getpagesize()
    except (OSError, IndexError, ValueError):
        return 0


def signalled(args, cwd: Path, ending: int) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``mmlogic ARGS`` sent ``ending`` once its grounding is under way
    (past :data:`GROUNDING` in memory)."""
    process = subprocess.Popen([MMLOGIC, *map(str, args)], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, preexec_fn=lambda: _capped(WIDE_CAP))
    try:
        deadline = time.monotonic() + 120
        while process.poll() is None and resident(process.pid) < GROUNDING:
            assert time.monotonic() < deadline, "the grounding did not start within 120 s"
            time.sleep(0.1)
        process.send_signal(ending)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
        process.wait()
    return process.returncode, out, err


#: The commands that had no bound on an endless encoding (their --time-limit, where they have one, not given).
COMMANDS = {"info": ["info"], "optimal": ["optimal"], "puzzle": ["puzzle", "--entries", "2"], "static": ["static"],
            "split": ["split", "0011"]}
needs_proc = pytest.mark.skipif(not Path("/proc/self/statm").is_file(), reason="reads /proc/PID/statm")


# -- an encoding (--encoding FILE.lp), item 4 ------------------------------------------------------------
@pytest.mark.slow  # a grounding grows to its memory bound: 3.5 to 6 s a command
@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_encoding_that_grounds_for_ever_stops_at_the_memory_bound(tmp_path, command):
    path = endless(tmp_path)
    done = capped_mmlogic(*COMMANDS[command], "--encoding", path.name, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert re.fullmatch(MEMORY_LINE.format(name="endless\\.lp"), done.stderr), done.stderr


@pytest.mark.parametrize("command", ["static", "split"])
def test_a_commands_time_limit_bounds_its_encodings_grounding(tmp_path, command):
    path = endless(tmp_path)
    done = capped_mmlogic(*COMMANDS[command], "--encoding", path.name, "--time-limit", "1", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "", "error: clingo did not ground endless.lp within the time limit of 1 s; raise --time-limit, or look "
               "for a rule that grounds without end\n")


@needs_proc
@pytest.mark.parametrize("command", list(COMMANDS))
def test_ctrl_c_stops_an_encodings_grounding(tmp_path, command):
    path = endless(tmp_path)
    assert signalled([*COMMANDS[command], "--encoding", path.name], tmp_path, signal.SIGINT) == (130, "",
                                                                                                  "interrupted\n")


@needs_proc
@pytest.mark.parametrize("ending, code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["sigterm", "sighup"])
def test_sigterm_and_sighup_stop_an_encodings_grounding(tmp_path, ending, code):
    path = endless(tmp_path)
    assert signalled(["info", "--encoding", path.name], tmp_path, ending) == (code, "", "interrupted\n")


# -- a rule file (--feedback FILE.lp), item 3 -------------------------------------------------------------
#: Commands that derive the rule's table first: by clingo alone (the python engine), and with the file as
#: clingo's encoding too.
RULE_COMMANDS = {"python": ["next", "--backend", "python", "0011:1"],
                 "clingo": ["solve", "--secret", "0123"]}


@pytest.mark.parametrize("engine", list(RULE_COMMANDS))
def test_a_rule_file_that_grounds_for_ever_stops_at_the_time_limit(tmp_path, engine):
    path = endless(tmp_path, rule=True)
    done = capped_mmlogic(*RULE_COMMANDS[engine], "--feedback", path.name, "--time-limit", "1", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "", "error: clingo did not ground endless_rule.lp within the time limit of 1 s; raise --time-limit, or "
               "look for a rule that grounds without end\n")


@pytest.mark.parametrize("engine", list(RULE_COMMANDS))
def test_a_rule_file_that_grounds_for_ever_stops_at_the_memory_bound(tmp_path, engine):
    path = endless(tmp_path, rule=True)
    done = capped_mmlogic(*RULE_COMMANDS[engine], "--feedback", path.name, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert re.fullmatch(MEMORY_LINE.format(name="endless_rule\\.lp"), done.stderr), done.stderr


def test_a_rule_files_grounding_without_a_time_limit_has_a_bound_of_its_own(tmp_path):
    # The derivation's own bound (told_table.GROUND_SECONDS, a minute), cut to 1 s: the command has no
    # --time-limit to raise, so the line does not say to. The wait's notes, cut to every 0.3 s, say that bound
    # (audit 7, item 2: they said "no time limit").
    path = endless(tmp_path, rule=True)
    child = textwrap.dedent(f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, ({CAP}, {CAP}))
        from mm_logic.engines.clingo import told_table
        from mm_logic.support import waiting
        told_table.GROUND_SECONDS = 1.0
        waiting.FIRST = waiting.EVERY = 0.3
        sys.argv = ["mmlogic", "info", "--backend", "python", "--feedback", {path.name!r}]
        from mm_logic.__main__ import main
        main()
    """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    # The bound from the derivation's start: the grounding's second, and the moment before it began.
    assert re.fullmatch(r"(note: deriving the rule of endless_rule\.lp by clingo: 0:0\d so far \(at most [12] s; "
                        r"Ctrl-C stops it\)\n){1,4}"
                        r"error: clingo did not ground endless_rule\.lp within 1 s, the bound on grounding a rule's "
                        r"encoding; look for a rule that grounds without end\n", done.stderr), done.stderr


@needs_proc
@pytest.mark.parametrize("ending, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("engine", list(RULE_COMMANDS))
def test_a_signal_stops_a_rule_files_grounding(tmp_path, engine, ending, code):
    path = endless(tmp_path, rule=True)
    assert signalled([*RULE_COMMANDS[engine], "--feedback", path.name], tmp_path, ending) == (code, "",
                                                                                              "interrupted\n")


# -- the watch itself ------------------------------------------------------------------------------------
class _OutOfMemory:
    """A Control whose grounding fails as clingo's does where the process's own limit is reached."""

    def ground(self, parts) -> None:
        raise MemoryError("bad_alloc")


def test_clingos_memory_error_is_one_line_naming_the_file():
    with pytest.raises(grounding.GroundingTooLarge) as raised:
        grounding.ground_watched(_OutOfMemory(), [("base", [])], None, Path("mine.lp"))
    assert (str(raised.value), raised.value.exit_code) == (
        "clingo ran out of memory grounding mine.lp; look for a rule that grounds without end", 1)


@pytest.mark.parametrize("room, budget", [(0, 256 << 20), (1 << 30, 256 << 20), (8 << 30, 2 << 30),
                                          (64 << 30, 4 << 30)])
def test_a_grounding_may_take_a_quarter_of_the_room_within_bounds(monkeypatch, room, budget):
    monkeypatch.setattr(grounding, "memory_room", lambda: room)
    assert grounding.memory_budget() == budget


def test_the_room_is_within_the_address_space_limit():
    # ulimit -v: what the process may still map, not the machine's memory.
    child = textwrap.dedent("""
        import resource
        from mm_logic.engines.clingo import grounding
        size = grounding._process_memory()[0]
        resource.setrlimit(resource.RLIMIT_AS, (size + (1 << 30), resource.RLIM_INFINITY))
        print(abs(grounding.memory_room() - (1 << 30)) < (64 << 20))
    """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "True\n", "")


def test_a_grounding_within_its_bounds_is_not_stopped():
    from clingo import Control

    ctl = Control()
    ctl.add("base", [], "n(1..1000).")
    grounding.ground_watched(ctl, [("base", [])], 30.0, Path("small.lp"))
    assert sum(1 for _ in ctl.symbolic_atoms) == 1000
