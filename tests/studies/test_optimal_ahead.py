"""The optimal search's kernels compiled ahead of time (:mod:`mm_logic.kernels.optimal.ahead`).

The extension module runs the very functions numba runs, compiled another way: on every kind of game the
search plays (the three feedback rules, per-peg symmetry, hard mode, a depth limit, the worst objectives)
it must find exactly what numba's kernels find, tree, bounds and positions searched alike. A process that
has the module never imports numba; a build that fails leaves its reason, is not tried again, and the
search runs numba's kernels.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from mm_logic.kernels.optimal import ahead
from mm_logic.optimal.objectives import optimal
from mm_logic.optimal.searcher import Searcher, compile_kernels, kernel_variant
from mm_logic.rules import Rules

CASES = [
    (Rules(3, 4), {}),
    (Rules(4, 4, max_repeat=1), {}),
    (Rules(3, 4), {"max_depth": 4}),
    (Rules(4, 4), {"max_depth": 4}),
    (Rules(4, 3), {"objective": "worst"}),
    (Rules(3, 5), {"objective": "worst-case"}),
    (Rules(3, 4), {"consistent_only": True}),
    (Rules(3, 4, feedback="black"), {}),  # per-peg symmetry: codes of int64
    (Rules(3, 4, feedback="positional"), {"max_depth": 4}),
]


def figures(result) -> tuple:
    """What a search finds, all of it: the tree, the openings' bounds, the sets searched."""
    found = {k: v for k, v in result.as_dict().items() if k not in ("seconds", "peak_memory", "worker_peak_memory")}
    return found, result.tree, result.positions


@pytest.mark.parametrize("rules, options", CASES, ids=[f"{r.describe()} {o}" for r, o in CASES])
def test_ahead_of_time_kernels_find_what_numbas_find(rules, options, monkeypatch):
    compile_kernels(rules=rules)  # built once per variant, then loaded
    assert Searcher(rules).k.ahead is True
    ahead_figures = figures(optimal(rules, **options))
    monkeypatch.setenv("MMLOGIC_AHEAD", "0")
    assert Searcher(rules).k.ahead is False
    compile_kernels(worst=True)
    assert figures(optimal(rules, **options)) == ahead_figures


def test_the_variants_are_the_dtypes_of_the_table_and_codes():
    assert [kernel_variant(r) for r in (Rules(4, 6), Rules(3, 4, feedback="black"), Rules(3, 4, max_repeat=1,
                                                                                           feedback="black"))] \
        == ["u1u1", "u1i8", "u1u1"]
    assert ahead.variant(np.uint32, np.uint8) is None  # no module of 32-bit feedbacks: numba's kernels


def test_a_process_with_the_kernels_built_never_imports_numba():
    compile_kernels(rules=Rules(3, 3))
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "mm_logic", "optimal", "--pegs", "3",
                           "--colors", "3"], capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "total      73\n" in done.stdout
    imported = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time")}
    assert "mm_logic.optimal.objectives" in imported
    assert {"numba", "llvmlite"} & imported == set()


@pytest.fixture
def nowhere_built(monkeypatch, tmp_path):
    """The modules' only folder an empty ``tmp_path`` (and none loaded in this process)."""
    monkeypatch.delitem(sys.modules, ahead.module_name("u1u1"), raising=False)
    monkeypatch.setattr(ahead, "folders", lambda: [tmp_path])
    monkeypatch.setattr(ahead, "private_folder", lambda: None)
    return tmp_path


def test_a_failed_build_leaves_its_reason_is_not_tried_again_and_numba_runs(nowhere_built, monkeypatch):
    calls = []

    def compiler_missing(args, **kwargs):
        calls.append(args)
        return subprocess.CompletedProcess(args, 1, "", "building...\nerror: command 'gcc' failed: No such file\n")

    monkeypatch.setattr(ahead.subprocess, "run", compiler_missing)
    said = []
    assert ahead.build("u1u1", lambda: said.append(1)) is False
    assert ahead.build("u1u1", lambda: said.append(1)) is False
    assert (len(calls), said) == (1, [1])
    failed = nowhere_built / (ahead.module_name("u1u1") + ".failed")
    assert failed.read_text() == "error: command 'gcc' failed: No such file\n"
    assert ahead.kernels_for(np.uint8, np.uint8).ahead is False


def test_the_modules_can_be_turned_off(monkeypatch):
    compile_kernels(rules=Rules(3, 3))
    assert ahead.load("u1u1") is not None
    monkeypatch.setenv("MMLOGIC_AHEAD", "0")
    assert (ahead.load("u1u1"), ahead.build("u1u1"), ahead.kernels_for(np.uint8, np.uint8).ahead) == (None, False,
                                                                                                       False)
