"""A wait on an engine that may never answer is said on stderr (audit 6, item 6): listing the codes of an edited
encoding whose solving never ends, deriving a rule whose clause loops, a clingo search that goes on; at once and
then every few seconds, with the bound that ends it (mm_logic.support.waiting). Audit 7, item 1: loading a ``.pl``
file whose directive never ends, and a swipl question, in every command; item 2: the bound a note states is the
one that ends the wait (the command's time limit, one of mmlogic's own, or none)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from mm_logic.engines import make_engine
from mm_logic.feedback.encoded import EncodedRule
from mm_logic.rules import Rules
from mm_logic.studies.written_game import encoding_secrets
from mm_logic.support import waiting as waiting_module
from mm_logic.support.errors import SolverTimeout
from mm_logic.support.waiting import waiting

from conftest import MMLOGIC, ROOT, signalled_after

#: 14 pigeons in 13 holes beside the shipped game: clingo's solving never ends (for a test's while).
PIGEONS = ('#include "mastermind.lp".\n#program base.\npig(1..14). hole(1..13).\n'
           "1 { h(P,H) : hole(H) } 1 :- pig(P).\n:- h(P,H), h(Q,H), P < Q.\n")


@pytest.fixture
def quick(monkeypatch):
    """Notes 0.2 s into a wait, then every 0.3 s."""
    monkeypatch.setattr(waiting_module, "FIRST", 0.2)
    monkeypatch.setattr(waiting_module, "EVERY", 0.3)


def pigeons(tmp_path) -> Path:
    path = tmp_path / "php.lp"
    path.write_text(PIGEONS)
    return path


def looping_load(tmp_path) -> Path:
    """A Prolog file whose directive never ends (``repeat, fail``)."""
    path = tmp_path / "loop.pl"
    path.write_text(":- repeat, fail.\n")
    return path


def looping_question(tmp_path) -> Path:
    """examples/no_adjacent.pl's way (the shipped game, secret/2 wrapped) with a secret that never comes: every
    question loops."""
    path = tmp_path / "qloop.pl"
    path.write_text(":- module(qloop, [secret/2]).\n"
                    ":- reexport(mmlogic(mastermind), except([secret/2])).\n"
                    ":- use_module(mmlogic(mastermind), [secret/2 as mastermind_secret]).\n"
                    "secret(Rules, Secret) :- mastermind_secret(Rules, Secret), repeat, fail.\n")
    return path


def looping_rule(tmp_path) -> Path:
    """examples/shared_colours.pl with a told clause that never ends (``repeat, fail``)."""
    text = (ROOT / "examples" / "shared_colours.pl").read_text()
    head = "feedback(secret(_Pegs, _Marks, Counts), told(Guess, [Shared])) :-"
    assert text.count(head) == 1
    path = tmp_path / "sc.pl"
    path.write_text(text.replace(head, head + " repeat, fail,"))
    return path


def notes(err: str, what: str, bound: str) -> list[str]:
    """The lines of ``err`` that say the wait, checked to be of its form."""
    lines = err.splitlines()
    pattern = re.compile(rf"note: {re.escape(what)}: \d:\d\d so far \({re.escape(bound)}\)")
    assert lines and all(pattern.fullmatch(line) for line in lines), err
    return lines


def test_a_wait_is_said_then_every_interval_and_a_short_one_not(quick, capsys):
    with waiting("asking the oracle"):
        time.sleep(0.05)
    assert capsys.readouterr() == ("", "")
    with waiting("asking the oracle"):
        time.sleep(0.95)  # notes at 0.2, 0.5 and 0.8 s
    out, err = capsys.readouterr()
    assert out == "" and 2 <= len(notes(err, "asking the oracle", "no time limit; Ctrl-C stops it")) <= 4
    time.sleep(0.4)  # nothing after the wait
    assert capsys.readouterr() == ("", "")


def test_only_the_outermost_wait_speaks_and_progress_keeps_it_quiet(quick, capsys):
    with waiting("listing the codes", 30) as outer, waiting("clingo solving"):
        time.sleep(0.6)
        outer.touch()
    err = capsys.readouterr().err
    assert 1 <= len(notes(err, "listing the codes", "time limit 30 s")) <= 2
    with waiting("deriving") as wait:
        for _ in range(8):
            time.sleep(0.1)
            wait.touch()  # its own lines say how it goes
    assert capsys.readouterr() == ("", "")


def test_an_inner_bound_of_mmlogics_own_is_said_by_the_outer_wait(quick, capsys):
    # Deriving a rule has no time limit, its grounding a bound of its own: the note says that one, from the
    # derivation's start, and "no time limit" again once that grounding is over.
    with waiting("deriving the rule"):
        with waiting("grounding", 30, built_in=True):
            time.sleep(0.35)
        time.sleep(0.45)
    err = capsys.readouterr().err.splitlines()
    # The notes' count depends on the machine's load; their order does not: the bound's while it lasts, then none.
    form = re.compile(r"note: deriving the rule: \d:\d\d so far \((at most 30 s|no time limit); Ctrl-C stops it\)")
    said = [("at most" if found.group(1).startswith("at most") else "none") if (found := form.fullmatch(line))
            else line for line in err]
    assert said[:1] == ["at most"] and said[-1:] == ["none"] and said == sorted(said), err
    with waiting("listing the codes", 2), waiting("counting", 30, built_in=True):  # the time limit ends it first
        time.sleep(0.35)
    assert notes(capsys.readouterr().err, "listing the codes", "time limit 2 s")
    with waiting("counting", 30, built_in=True, cut_short=True):
        time.sleep(0.35)
    assert notes(capsys.readouterr().err, "counting", "at most 30 s; Ctrl-C stops it")
    with waiting("listing the codes"), waiting("counting", 30, built_in=True, cut_short=True):
        time.sleep(0.35)  # the count ends with the codes it found: the listing goes on
    assert notes(capsys.readouterr().err, "listing the codes", "no time limit; Ctrl-C stops it")


@pytest.mark.parametrize(("make", "what"), [
    (looping_load, "loading {path} by swipl"),
    (looping_question, "swipl answering (3x3, first, qloop.pl)"),
], ids=["load", "question"])
def test_a_swipl_wait_is_said_until_its_bound(quick, tmp_path, capsys, make, what):
    path = make(tmp_path)
    with pytest.raises(SolverTimeout):
        engine = make_engine("swipl", Rules(3, 3), encoding=path, time_limit=1.5)
        try:
            engine.session().first()
        finally:
            engine.close()
    out, err = capsys.readouterr()
    assert out == "" and len(notes(err, what.format(path=path), "time limit 1.5 s")) >= 2


def test_listing_the_codes_of_an_encoding_that_never_ends_is_said_until_its_bound(quick, tmp_path, capsys):
    path = pigeons(tmp_path)
    started = time.monotonic()
    with pytest.raises(SolverTimeout):
        encoding_secrets(Rules(4, 6), path, time_limit=1.5)
    assert time.monotonic() - started < 10
    out, err = capsys.readouterr()
    assert out == "" and len(notes(err, f"listing the codes {path} admits, by clingo", "time limit 1.5 s")) >= 2


def test_deriving_a_rule_whose_clause_loops_is_said_until_its_bound(quick, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = looping_rule(tmp_path)
    with pytest.raises(SolverTimeout):
        EncodedRule(path, Rules(3, 3), time_limit=1.5).index_table()
    out, err = capsys.readouterr()
    assert out == "" and len(notes(err, f"deriving the rule of {path} by swipl", "time limit 1.5 s")) >= 2


@pytest.mark.parametrize(("args", "what"), [
    (["info", "--encoding", "php.lp"], "listing the codes php.lp admits, by clingo"),
    (["optimal", "--encoding", "php.lp"], "listing the codes php.lp admits, by clingo"),
    (["info", "--pegs", "3", "--colors", "3", "--feedback", "sc.pl", "--backend", "swipl"],
     "deriving the rule of sc.pl by swipl"),
    (["next", "--pegs", "3", "--colors", "3", "--encoding", "loop.pl", "--backend", "swipl"],
     "loading loop.pl by swipl"),
])
def test_a_command_without_a_time_limit_says_what_it_waits_for(tmp_path, args, what):
    # The defaults: the first note 5 s in, the next 10 s later; Ctrl-C ends the wait (exit 130).
    pigeons(tmp_path)
    looping_rule(tmp_path)
    looping_load(tmp_path)
    process = subprocess.Popen([MMLOGIC, *args], cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    first = f"note: {what}: 0:05 so far (no time limit; Ctrl-C stops it)"
    code, out, err = signalled_after(process, first, signal.SIGINT, seconds=30)
    assert (code, out, err) == (130, "", f"{first}\ninterrupted\n")


def test_a_sweep_case_that_waits_says_so_as_it_waits(tmp_path):
    # Each case runs in a child process, whose stderr was read once it ended: its note came never, for a case
    # waiting without end. The child's notes are passed on as they come; Ctrl-C ends the sweep.
    pigeons(tmp_path)
    process = subprocess.Popen([MMLOGIC, "sweep", "--sizes", "4x6", "--encoding", "php.lp", "--backend", "clingo",
                                "--strategy", "first"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    first = "note: clingo solving (4x6, enumerate, php.lp): 0:05 so far (no time limit; Ctrl-C stops it)"
    code, _, err = signalled_after(process, first, signal.SIGINT, seconds=60)
    assert code == 130 and err.startswith(f"{first}\n"), err
