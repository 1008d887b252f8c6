"""``py/tools/journal_effort.py``: what an optimal search's journal tells of its parts, positions and rate; and the
effort each searched line of a journal keeps."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from mm_logic.optimal.objectives import optimal
from mm_logic.rules import Rules

from conftest import py_path, py_script

SCRIPT = py_path("journal_effort")
effort = py_script("journal_effort")

HEADER = {"journal": "mmlogic optimal", "version": 2, "rules": Rules(4, 10).as_dict(), "consistent_only": False}
LINES = [
    {"opening": "0123", "feedback": "0,1", "guess": "4567", "depth": None, "budget": 1 << 30, "value": 14991,
     "tree": {}, "positions": 1_000_000, "seconds": 400.0},
    {"opening": "0123", "feedback": "0,1", "guess": "0456", "depth": None, "budget": 14991, "value": 15002,
     "tree": None, "positions": 200_000, "seconds": 100.0},
    {"opening": "0123", "feedback": "0,2", "depth": None, "budget": 20000, "value": 9876, "tree": {},
     "positions": 1, "seconds": 0.25},
    {"opening": "0123", "feedback": "1,0", "depth": None, "budget": 5000, "value": 5000, "tree": None},
    {"opening": "0012", "feedback": "0,0", "depth": 5, "within": False, "positions": 3, "seconds": 0.5},
]


def script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120)


def write(path, lines, tail: str = "") -> None:
    path.write_text("".join(json.dumps(line) + "\n" for line in [HEADER, *lines]) + tail)


def test_the_parts_and_the_totals_of_a_journal(tmp_path):
    journal = tmp_path / "4x10.jsonl"
    write(journal, LINES, tail='{"opening": "0123", "feed')  # a last line cut short by a kill
    done = script(str(journal))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "0123 0,1: open, 2 guesses searched; 1,200,000 positions in 500.0 s",
        "0123 0,2: exact 9,876; 1 position in 0.2 s",
        "0123 1,0: at least 5,000; effort not kept",
        "0012 0,0 within 5: not within; 3 positions in 0.5 s",
        "3 of 4 parts settled, 2 guess lines; 1,200,004 positions in 500.8 core-seconds: 2,396 positions a second "
        "a worker",
    ]
    found = json.loads(script(str(journal), "--json").stdout)
    assert (found["settled"], found["guess_lines"], found["positions"], found["seconds"], found["rate"]) == \
        (3, 2, 1_200_004, 500.75, 2396)
    assert found["rules"] == HEADER["rules"]


@pytest.mark.parametrize(("content", "message"), [
    ("", " is not a journal of mmlogic optimal (its first line names none)"),
    ('{"journal": "something else"}\n', " is not a journal of mmlogic optimal (its first line names none)"),
    (json.dumps(HEADER) + '\n{"opening": "0123"}\n' + json.dumps(LINES[2]) + "\n",
     ': line 2 is not a part\'s result: it has no "feedback"'),
    (json.dumps(HEADER) + "\nnot json\n" + json.dumps(LINES[2]) + "\n",
     ": line 2 is not a part's result: it is not JSON"),
    (json.dumps(HEADER) + "\n\n" + json.dumps(LINES[2]) + "\n", ": line 2 is not a part's result: it is blank"),
])
def test_what_is_not_a_journal_is_one_line(tmp_path, content, message):
    journal = tmp_path / "bad.jsonl"
    journal.write_text(content)
    done = script(str(journal))
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: {journal}{message}\n")


def test_a_missing_journal_is_one_line(tmp_path):
    done = script(str(tmp_path / "none.jsonl"))
    assert (done.returncode, done.stderr) == (2, f"error: cannot read {tmp_path / 'none.jsonl'}: No such file or "
                                                 "directory\n")


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_searched_line_keeps_its_positions_and_the_journal_adds_up_to_the_search(tmp_path, jobs):
    # Every position the search counted was searched for some line of the journal (a part, or a guess at a
    # split part), and that line says so: the journal's sum is the result's, in one process and in workers.
    journal = tmp_path / "4x4.jsonl"
    result = optimal(Rules(4, 4), jobs=jobs, journal=journal, split_above=40 if jobs > 1 else None)
    head, entries = effort.read(journal)
    searched = [e for e in entries if "positions" in e]
    assert all(isinstance(e["positions"], int) and e["seconds"] >= 0 for e in searched)
    # The lines without effort are the split parts' own, settled by their guesses (or by their bounds alone,
    # every guess's at or above the budget); a split part of an opening dropped before its guesses settled it
    # has none (the openings after the first take their parts smallest first, so a large one may be split late).
    unsearched = [e for e in entries if "positions" not in e]
    assert all("guess" not in e for e in unsearched)
    assert len(unsearched) <= result.split_parts and bool(unsearched) == bool(result.split_parts)
    found = effort.summary(head, entries)
    assert found["positions"] == result.positions > 0
    part_lines = [e for e in entries if "guess" not in e]
    assert found["settled"] == len(part_lines)
    # The parts still open are those split parts dropped unsettled, each known by its guesses' lines alone.
    assert [(p["opening"], p["feedback"]) for p in found["parts"] if p["state"] == "open"] == \
        [k for k in dict.fromkeys((e["opening"], e["feedback"]) for e in entries if "guess" in e)
         if k not in {(e["opening"], e["feedback"]) for e in part_lines}]
    assert found["guess_lines"] == len(entries) - len(part_lines)


def line_with(**fields) -> str:
    """The header, a damaged line (LINES[2] with ``fields``) and a good line after it."""
    return "".join(json.dumps(line) + "\n" for line in [HEADER, {**LINES[2], **fields}, LINES[3]])


@pytest.mark.parametrize(("content", "why"), [
    (line_with(value="abc"), '"value" must be a whole number of at least 0, not "abc"'),
    (line_with(value=1e999), '"value" must be a whole number of at least 0, not Infinity'),
    (line_with(budget=True), '"budget" must be a whole number of at least 0, not true'),
    (line_with(opening=[1]), '"opening" must be a code, not [1]'),
    (line_with(feedback=3), '"feedback" must be feedback, not 3'),
    (line_with(guess=7), '"guess" must be a code, not 7'),
    (line_with(depth=-1), '"depth" must be null or a whole number of at least 0, not -1'),
    (line_with(positions=1.5), '"positions" must be a whole number of at least 0, not 1.5'),
    (line_with(seconds=float("nan")), '"seconds" must be a finite number of at least 0, not NaN'),
    (line_with(within=True), 'it has both "within" and "value"'),
    (json.dumps(HEADER) + "\n" + json.dumps({**LINES[4], "within": 1}) + "\n",
     '"within" must be true or false, not 1'),
    (json.dumps(HEADER) + "\n" + json.dumps({**LINES[4], "depth": None}) + "\n",
     '"depth" must be a whole number of at least 0, not null'),
])
def test_a_damaged_line_is_one_line_as_optimal_says_it(tmp_path, content, why):
    # As `mmlogic optimal --journal` refuses it (mm_logic/optimal/journal.py): no traceback, no "at least inf",
    # no Infinity written by --json.
    journal = tmp_path / "bad.jsonl"
    journal.write_text(content)
    for extra in ([], ["--json"]):
        done = script(str(journal), *extra)
        assert (done.returncode, done.stdout, done.stderr) == \
            (2, "", f"error: {journal}: line 2 is not a part's result: {why}\n")


def test_a_damaged_last_line_with_its_end_of_line_is_refused(tmp_path):
    # Only a line without its end of line was cut short by a kill (and is left out); one with it is damaged.
    journal = tmp_path / "bad.jsonl"
    write(journal, LINES[:1], tail='{"opening": "0123"}\n')
    done = script(str(journal))
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f'error: {journal}: line 3 is not a part\'s result: it has no "feedback"\n')


def test_a_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "journal.jsonl"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, str(SCRIPT), str(fifo)], capture_output=True, text=True, timeout=20)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: journal {fifo} is a FIFO, not a regular "
                                                                  "file\n")


def test_a_line_break_inside_a_json_string_ends_no_line(tmp_path):
    # Valid raw inside a JSON string (ensure_ascii=False, JSON.stringify): str.splitlines cut the line there, and
    # the journal was refused as optimal refused it.
    journal = tmp_path / "4x10.jsonl"
    journal.write_text("".join(json.dumps(line, ensure_ascii=False) + "\r\n"
                               for line in [HEADER, {**LINES[2], "host": "a\u2028b\u0085c"}]))
    done = script(str(journal))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[0] == "0123 0,2: exact 9,876; 1 position in 0.2 s"
