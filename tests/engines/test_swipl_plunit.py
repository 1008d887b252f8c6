"""Run the plunit tests of the Prolog files (``tests/plunit/*.pl``: the encoding, the bridge) from pytest.

Each ``:- begin_tests(Unit)`` block is one pytest test, run in its own
``swipl`` (the one the engine uses, :func:`find_swipl`), which exits with a
non-zero status when any test of the unit fails. Without swipl, or without
``library(plunit)``, these tests fail: they are never skipped.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from mm_logic.engines.swipl.runtime import BRIDGE, find_swipl
from mm_logic.support.resources import encodings_dir

PLUNIT = Path(__file__).resolve().parents[1] / "plunit"
FILES = sorted(PLUNIT.glob("*.pl"))
UNITS = [(path, unit) for path in FILES
         for unit in re.findall(r"^:- begin_tests\((\w+)", path.read_text(), re.MULTILINE)]


def swipl() -> str:
    found = find_swipl()
    assert found, "no SWI-Prolog >= 9.1.12: run `bash scripts/install-swipl.sh .venv`"
    return found


def run_prolog(*goals: str, file: Path | None = None) -> subprocess.CompletedProcess:
    """``swipl`` with the encodings on the ``mmlogic`` search path, running ``goals``."""
    command = [swipl(), "-q", "-p", f"mmlogic={encodings_dir()}"]
    for goal in goals:
        command += ["-g", goal]
    command += ["-t", "halt"]
    if file is not None:
        command.append(str(file))
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=PLUNIT)


def test_there_are_plunit_tests():
    assert len(UNITS) >= 3, UNITS


def test_plunit_is_installed():
    result = run_prolog("use_module(library(plunit))")
    assert result.returncode == 0, (
        "SWI-Prolog's library(plunit) is missing (Debian ships it in swi-prolog-core-packages, "
        f"not swi-prolog-core): {result.stderr.strip()}"
    )


@pytest.mark.parametrize("path, unit", UNITS, ids=[f"{p.stem}:{u}" for p, u in UNITS])
def test_plunit_unit(path, unit):
    result = run_prolog(f"run_tests({unit})", file=path)
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "ERROR" not in report and "Warning" not in report, report


# -- the PlDoc examples of the Prolog files are right -----------------------------
DOCUMENTED = [encodings_dir() / "mastermind.pl", encodings_dir() / "questions.pl",
              Path(__file__).resolve().parents[2] / "examples" / "no_adjacent.pl"]
#: The file whose examples a documented file's run in: the questions' are asked of the game's secrets.
LOADED = {encodings_dir() / "questions.pl": encodings_dir() / "mastermind.pl"}


def pldoc_blocks(path: Path) -> list[tuple[str, list[str]]]:
    """Each ``%!`` header with the comment lines that follow it."""
    blocks: list[tuple[str, list[str]]] = []
    for line in path.read_text().splitlines():
        if line.startswith("%!"):
            blocks.append((line[2:].strip(), []))
        elif blocks and line.startswith("%"):
            blocks[-1][1].append(line.lstrip("%").strip())
        elif blocks and line.strip():
            blocks[-1][1].append(None)  # code: the block is over
    return [(head, lines[:lines.index(None)] if None in lines else lines) for head, lines in blocks]


def examples(lines: list[str]) -> list[tuple[str, str]]:
    """The ``?- query.`` / ``answer.`` pairs of a PlDoc comment (queries may span lines)."""
    found, query, answer = [], None, None
    for line in lines + ["```"]:
        if line.startswith("?-"):
            query, answer = line[2:].strip(), None
        elif query is not None and answer is None and not query.endswith("."):
            query += " " + line
        elif query is not None and line and line != "```":
            answer = line if answer is None else f"{answer} {line}"
        elif query is not None and answer is not None:
            found.append((query.rstrip("."), answer.rstrip(".")))
            query = answer = None
    return found


@pytest.mark.parametrize("path", [*DOCUMENTED, BRIDGE], ids=lambda p: p.name)
def test_every_exported_predicate_has_an_example(path):
    text = path.read_text()
    exports = re.findall(r"^\s+\[?\s*(\w+/\d+),?\s+%", text.split("]).")[0], re.MULTILINE)
    assert exports
    blocks = {head.split("(")[0]: lines for head, lines in pldoc_blocks(path)}
    for export in exports:
        name = export.split("/")[0]
        assert name in blocks, f"{export} has no %! header"
        assert examples(blocks[name]), f"{export} has no ?- example"


@pytest.mark.parametrize("path", DOCUMENTED, ids=lambda p: p.name)
def test_pldoc_examples_hold(path):
    cases = [case for _, lines in pldoc_blocks(path) for case in examples(lines)]
    assert cases
    goals = [f"( catch(({query}, {answer}), E, (print_message(error, E), fail)) -> true"
             f" ; format(user_error, 'FAILED: ~w~n', [{query!r}]), halt(1) )"
             for query, answer in cases]
    result = run_prolog("use_module(library(clpfd))", f"use_module({str(LOADED.get(path, path))!r})", *goals)
    assert result.returncode == 0, result.stdout + result.stderr
