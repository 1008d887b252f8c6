"""Loading a rule of one's own (``--feedback FILE.py``) as Python imports a module, bounded (issue 56, the audit
of rule modules): its size and its compiling bounded like the rest of its import, a module that defines a
dataclass, one that forks, and what ``score`` may return.

The helpers are :mod:`test_rule_module_faults`'s: a module written to a file, and the command in a child process
whose watch has a shorter limit.
"""

from __future__ import annotations

import sys
import time

import pytest
from test_rule_module_faults import SOLVED, asked_in_a_thread, module, refused_in_solve, solved, with_limit

from mm_logic.feedback.custom import load_rule
from mm_logic.support.errors import BadInput

from conftest import ROOT, mmlogic

#: The most of a rule module mmlogic reads, as docs/encodings.md says it.
MODULE_BYTES = 256 * 1024
#: A score that tells the colours in place (black pegs), and the game it plays against 0123 with ``first``.
COUNTS = "\n\ndef score(guess, secret):\n    return (sum(g == s for g, s in zip(guess, secret)),)\n"
PLAYED = "1  0000  1\n2  0111  2\n3  0122  3\n4  0123  won\n4 guesses\n"
SOLVE = ("solve", "--backend", "python", "--strategy", "first", "--secret", "0123")



# -- 1. its size, and compiling it, bounded as importing it is ------------------------------------------------
def test_a_module_of_the_most_mmlogic_reads_loads(tmp_path):
    path = module(tmp_path, COUNTS)
    path.write_text(COUNTS + "#" * (MODULE_BYTES - len(COUNTS) - 1) + "\n")
    assert path.stat().st_size == MODULE_BYTES
    done = solved(path, tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, PLAYED, "")


def test_a_module_larger_than_mmlogic_reads_is_one_line_at_once(tmp_path):
    # Three literal lists of 2,000,000 ints (44 MB) took 21 s and 2.6 GB to compile, outside the import's limit,
    # then played (exit 0). A byte more than the bound is refused before anything is compiled.
    path = module(tmp_path, COUNTS)
    path.write_text(COUNTS + "#" * (MODULE_BYTES - len(COUNTS)) + "\n")
    assert path.stat().st_size == MODULE_BYTES + 1
    done = solved(path, tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: Invalid value for '--feedback': {path} is larger than 256 KiB, more than mmlogic reads of "
               "a rule module (it may read a large table from a file of its own)\n")


def test_a_module_that_compiles_past_the_limit_did_not_import_within_it(tmp_path):
    # 240 KB of a literal list: about half a second to compile, a moment to run. Compiling was not timed: only
    # running the module's code was, and the module loaded whatever its compiling took.
    path = module(tmp_path, "A = [" + "0," * 120_000 + "]\n" + COUNTS)
    started = time.monotonic()
    done = with_limit(0.02, *SOLVE, "--feedback", path, cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: Invalid value for '--feedback': {path}: importing it did not end within 0.02 s\n")
    assert time.monotonic() - started < 30


def test_the_size_bound_is_documented():
    said = " ".join((ROOT / "docs" / "encodings.md").read_text().split())
    assert "larger than 256 KiB" in said


# -- 2. a module in sys.modules while it runs, as importlib puts it -------------------------------------------
DATACLASS = "from dataclasses import dataclass\n\n\n@dataclass\nclass Told:\n    black: int = 0\n\n\n" \
            "def score(guess, secret):\n    return (Told(sum(g == s for g, s in zip(guess, secret))).black,)\n"


@pytest.mark.parametrize("head", ["", "from __future__ import annotations\n\n"], ids=["plain", "future-annotations"])
def test_a_module_that_defines_a_dataclass_loads(tmp_path, head):
    # dataclasses looks the class's module up in sys.modules: "dc.py: AttributeError: 'NoneType' object has no
    # attribute '__dict__'", exit 2.
    path = module(tmp_path, head + DATACLASS, "dc.py")
    done = solved(path, tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, PLAYED, "")


def test_a_module_named_as_the_standard_library_does_not_replace_it(tmp_path):
    import random

    path = module(tmp_path, "import random\n\n" + DATACLASS, "random.py")
    rule = load_rule(str(path))
    name = rule._score.__globals__["__name__"]
    assert sys.modules["random"] is random and rule._score.__globals__["random"] is random
    assert name.startswith("mmlogic_feedback_random") and sys.modules[name].__dict__ is rule._score.__globals__
    assert rule.score((0, 0, 1, 1), (0, 0, 1, 2)) == (3,)
    done = solved(path, tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, PLAYED, "")


def test_two_modules_of_one_name_each_keep_their_own(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = load_rule(str(module(tmp_path / "a", DATACLASS)))
    second = load_rule(str(module(tmp_path / "b", DATACLASS.replace("(sum(", "(len(guess) - sum("))))
    names = [rule._score.__globals__["__name__"] for rule in (first, second)]
    assert names[0] != names[1]
    assert [sys.modules[name].__dict__ for name in names] == [rule._score.__globals__ for rule in (first, second)]
    assert (first.score((0, 0, 1, 1), (0, 0, 1, 2)), second.score((0, 0, 1, 1), (0, 0, 1, 2))) == ((3,), (1,))


def test_a_module_that_fails_is_taken_out_of_sys_modules_and_one_changed_replaces_its_old_self(tmp_path):
    before = {name for name in sys.modules if name.startswith("mmlogic_feedback_")}
    path = module(tmp_path, DATACLASS + "\n\nraise ValueError('not today')\n", "fails.py")
    with pytest.raises(BadInput) as refused:
        load_rule(str(path))
    assert str(refused.value) == f"{path}: ValueError: not today"
    assert {name for name in sys.modules if name.startswith("mmlogic_feedback_")} == before
    path.write_text(DATACLASS)
    old = load_rule(str(path))._score.__globals__["__name__"]
    path.write_text(DATACLASS + "\n\nNAME = 'again'\n")  # another size: read again
    new = load_rule(str(path))._score.__globals__["__name__"]
    assert {name for name in sys.modules if name.startswith("mmlogic_feedback_")} == before | {new}
    assert old != new and old not in sys.modules


# -- 3. a module that forks -----------------------------------------------------------------------------------
FORKS = "import os\n\nos.fork()\n" + COUNTS


@pytest.mark.parametrize("command", [
    ("next", "--pegs", 3, "--colors", 3, "000:1"),
    ("bench", "--pegs", 2, "--colors", 2, "--strategy", "first", "--all", "--json"),
], ids=["next", "bench"])
def test_a_module_that_forks_at_import_is_one_line(tmp_path, command):
    # Its child went on as mmlogic: next printed its answer twice, bench --json two JSON objects, exit 0.
    path = module(tmp_path, FORKS, "fork.py")
    done = mmlogic(*command, "--backend", "python", "--feedback", path, cwd=tmp_path, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: Invalid value for '--feedback': {path}: importing it forked the process\n")


#: A score that forks when it scores a guess against 0123.
FORKS_IN_SCORE = ("import os\n\n\ndef score(guess, secret):\n    if secret == (0, 1, 2, 3):\n        os.fork()\n"
                  "    return (sum(g == s for g, s in zip(guess, secret)),)\n")


def test_a_score_that_forks_is_one_line(tmp_path):
    path = module(tmp_path, FORKS_IN_SCORE)
    refused_in_solve(path, tmp_path, f"{SOLVED} forked the process")


def test_a_score_that_forks_in_a_servers_request_is_one_withheld_line(tmp_path):
    # A request's thread hands the calls to a thread of the watch's: the fork is counted, and its child ended, there.
    path = module(tmp_path, FORKS_IN_SCORE)
    outcome = asked_in_a_thread(load_rule(str(path)), (0, 0, 1, 1), (0, 1, 2, 3), withheld=True)
    assert outcome == [f"RuleFault: {path}: score((0, 0, 1, 1), <a code withheld>) forked the process"]


def test_a_module_that_runs_a_program_still_loads(tmp_path):
    # subprocess starts a program without forking in Python: no fork of the module's process is left running.
    path = module(tmp_path, "import subprocess\nimport sys\n\nsubprocess.run([sys.executable, '-c', 'pass'], "
                            "check=True)\n" + COUNTS)
    done = solved(path, tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, PLAYED, "")


def test_forking_is_documented():
    said = " ".join((ROOT / "docs" / "encodings.md").read_text().split())
    assert "importing it forked the process" in said


# -- 4. what score may return ---------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", [
    "from collections import namedtuple\n\nTold = namedtuple('Told', 'black')\n",
    "from typing import NamedTuple\n\n\nclass Told(NamedTuple):\n    black: int\n",
    "class Told(tuple):\n    def __new__(cls, black):\n        return super().__new__(cls, (black,))\n",
    "class Told(list):\n    def __init__(self, black):\n        super().__init__([black])\n",
], ids=["namedtuple", "NamedTuple", "tuple-subclass", "list-subclass"])
def test_a_tuple_or_list_of_a_kind_of_its_own_is_the_rules_numbers(tmp_path, kind):
    # "score((0, 0, 0, 0), (1, 1, 1, 1)) returned Told(black=0), not whole numbers from 0 to the 4 pegs", exit 2.
    path = module(tmp_path, f"{kind}\n\ndef score(guess, secret):\n"
                            "    return Told(sum(g == s for g, s in zip(guess, secret)))\n")
    done = solved(path, tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, PLAYED, "")


def test_a_named_tuple_of_other_numbers_is_still_refused(tmp_path):
    path = module(tmp_path, "from collections import namedtuple\n\n\ndef score(guess, secret):\n"
                            "    return namedtuple('Told', 'black')(9)\n")
    refused_in_solve(path, tmp_path, f"{SOLVED} returned Told(black=9), not whole numbers from 0 to the 4 pegs")
