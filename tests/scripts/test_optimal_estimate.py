"""``py/experiments/optimal_estimate.py``: the fit of the parts' times and the estimate it adds up."""

from __future__ import annotations

import math

import pytest

from mm_logic.rules import Rules
from mm_logic.support.errors import BadInput

from conftest import py_script

estimate = py_script("optimal_estimate")


def test_the_fit_recovers_a_power_law():
    a, b = estimate.fit([(n, 0.002 * n**2.5) for n in (10, 40, 100, 300)])
    assert math.isclose(a, 0.002, rel_tol=1e-9) and math.isclose(b, 2.5, rel_tol=1e-9)
    with pytest.raises(BadInput, match="too few parts took long enough"):
        estimate.fit([(10, 1.0), (10, 2.0)])


def test_the_estimate_solves_the_small_parts_exactly_and_predicts_the_others():
    said = []
    found = estimate.estimate(Rules(3, 5), up_to=20, least=1e-9, check=True, opening=None, say=said.append)
    rows = found["parts"]
    # 3x5's most promising opening, every part of more than 2 codes, smallest first, each solved once.
    assert found["opening"] == "012" and [r["codes"] for r in rows] == sorted(r["codes"] for r in rows)
    assert len(said) == len(rows) and all(r["cost"] >= 2 * r["codes"] - 1 for r in rows)
    predicted = sum(r["predicted"] for r in rows if r["codes"] > 20)
    assert math.isclose(found["predicted_left"], predicted, abs_tol=0.01)
    assert all(math.isclose(r["predicted"], found["a"] * r["codes"] ** found["b"], abs_tol=1e-3) for r in rows)
    assert found["measured_left"] == pytest.approx(sum(r["seconds"] for r in rows if r["codes"] > 20), abs=0.01)
    with pytest.raises(BadInput, match=r"--opening 444 is not one of the canonical openings \(012, 001, 000\)$"):
        estimate.estimate(Rules(3, 5), 20, 0.0, False, "444")


def test_a_part_stopped_ends_the_measuring_and_the_larger_parts_are_predicted(monkeypatch):
    # Ctrl-C or --part-limit stops a part's search: the parts before it are fitted, it and the larger ones are
    # predicted, and its row says how long it ran.
    real = estimate.Searcher.cost

    def cost(self, indices, *args, **options):
        if indices.size > 20:
            raise KeyboardInterrupt
        return real(self, indices, *args, **options)

    monkeypatch.setattr(estimate.Searcher, "cost", cost)
    found = estimate.estimate(Rules(3, 5), up_to=100, least=1e-9, check=True, opening=None, say=lambda _: None)
    rows = found["parts"]
    first = next(i for i, r in enumerate(rows) if r["codes"] > 20)
    assert rows[first]["stopped"] and rows[first]["cost"] is None and rows[first]["seconds"] >= 0
    assert all(r["seconds"] is None for r in rows[first + 1:]) and "measured_left" not in found
    assert found["up_to"] == rows[first]["codes"] - 1
    assert "stopped after" in estimate.report(found)
