"""The one way the compiled kernels are made ready (mm_logic/kernels/warming.py): a named group once per
process, its compiling said, its warm-up's error propagated; and those who warm kernels ask for them there."""

from __future__ import annotations

import sys
import time
import types

import numba as nb
import pytest

import mm_logic.kernels.warming as warming
import mm_logic.studies.bench as bench
from mm_logic.optimal.searcher import compile_kernels
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy


@pytest.fixture
def probe(monkeypatch):
    """Groups of the test's own: ``"probe"`` and ``"other"``, whose warm-ups (a module ``warming_probe``)
    note each call in ``probe.calls`` and run ``probe.then`` (an error to raise, a kernel to call)."""
    module = types.SimpleNamespace(calls=[], then=None)

    def warm_up(name):
        def call():
            module.calls.append(name)
            if module.then is not None:
                module.then()
        return call

    module.probe, module.other = warm_up("probe"), warm_up("other")
    monkeypatch.setitem(sys.modules, "warming_probe", module)
    monkeypatch.setitem(warming.GROUPS, "probe", ("warming_probe:probe",))
    monkeypatch.setitem(warming.GROUPS, "other", ("warming_probe:other",))
    monkeypatch.setattr(warming, "_ready", set())
    return module


def test_a_group_is_warmed_once_per_process(probe):
    warming.warm("probe")
    warming.warm("probe")
    warming.warm("probe", "other")  # the group not yet ready alone
    warming.warm("other", "probe")
    assert probe.calls == ["probe", "other"]


def test_a_warm_ups_error_propagates_and_its_group_is_not_ready(probe):
    def fails():
        raise RuntimeError("numba could not type the kernel")

    probe.then = fails
    with pytest.raises(RuntimeError, match="numba could not type the kernel"):
        warming.warm("probe")
    probe.then = None
    warming.warm("probe")  # tried again, not taken for ready
    warming.warm("probe")
    assert probe.calls == ["probe", "probe"]


def test_compiling_is_said_once_and_a_ready_group_says_nothing(probe):
    @nb.njit(cache=False)
    def twice(x):  # compiled afresh in every process: no cache
        return 2 * x

    @nb.njit(cache=False)
    def thrice(x):
        return 3 * x

    probe.then = lambda: (twice(1), thrice(1))  # two kernels compiled: one note
    said = []
    warming.warm("probe", say=lambda: said.append("compiling"))
    warming.warm("probe", say=lambda: said.append("again"))
    assert said == ["compiling"]


def test_the_kernel_modules_warm_ups_are_declared_and_found():
    # Every declared warm-up is a function of its module (a misspelt one would fail only when first asked for).
    import importlib
    for group, names in warming.GROUPS.items():
        for name in names:
            module, function = name.split(":")
            assert callable(getattr(importlib.import_module(module), function)), (group, name)


@pytest.fixture
def warmed(monkeypatch):
    """The groups asked for, call by call (nothing warmed)."""
    asked = []
    monkeypatch.setattr(warming, "warm", lambda *groups, say=None: asked.append(groups))
    return asked


def test_a_strategy_warms_the_kernels_it_declares_when_it_is_made(warmed):
    for name, rules in [("minimax", Rules(2, 3)), ("entropy", Rules(2, 3)), ("weighted-entropy", Rules(4, 6)),
                        ("first", Rules(2, 3)), ("random", Rules(2, 3))]:
        make_strategy(name, rules, seed=0)
    assert warmed == [("scoring",), ("scoring",), ("weighted",)]


def test_a_bench_warm_up_warms_the_strategys_kernels_even_where_it_refuses_2x3(warmed, monkeypatch):
    # The weighted entropy plays 4 pegs only: its 2x3 game is refused (and let pass), its kernels warmed all the same.
    monkeypatch.setattr(bench, "bench_all", lambda engine, strategy, **_: None)
    bench.warm_up("python", "weighted-entropy")
    bench.warm_up("python", "first")
    assert warmed == [("weighted",), ()]


def test_a_bench_warm_up_does_not_swallow_a_kernels_error(monkeypatch):
    def fails(*groups, say=None):
        raise RuntimeError("numba could not type the kernel")

    monkeypatch.setattr(warming, "warm", fails)
    with pytest.raises(RuntimeError, match="numba could not type the kernel"):
        bench.warm_up("python", "weighted-entropy")


def test_optimal_without_its_ahead_module_warms_numbas_kernels_through_the_one_way(warmed, monkeypatch):
    said = []
    monkeypatch.setenv("MMLOGIC_AHEAD", "0")
    compile_kernels(lambda: said.append(1), rules=Rules(3, 3))
    compile_kernels(worst=True)
    assert warmed == [("optimal",), ("optimal", "optimal-worst")] and said == []


def test_a_long_warm_up_is_said_where_the_command_says_nothing(probe, monkeypatch, capsys):
    # A first run compiled the scoring kernels for 25 s before `next` printed anything.
    from mm_logic.support import waiting

    monkeypatch.setattr(waiting, "FIRST", 0.2)
    probe.then = lambda: time.sleep(0.45)
    warming.warm("probe")
    assert capsys.readouterr() == ("", f"note: {warming.COMPILING}: 0:00 so far (no time limit; Ctrl-C stops it)\n")
    said = []
    warming.warm("other", say=lambda: said.append(True))  # the command's own note, if numba compiles: no other
    assert capsys.readouterr() == ("", "")


def test_a_bench_of_a_strategy_without_kernels_does_not_import_numba():
    # warming imported numba at its top: clingo's `any` benched in 102 MB instead of 48, 0.3 s later.
    import subprocess

    code = ("import sys\nfrom mm_logic.studies.bench import warm_up\nwarm_up('clingo', 'any')\n"
            "print('numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "False\n", "")
