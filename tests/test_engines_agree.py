"""Every engine answers every question like the reference engine.

Hypothesis draws rules under the three repetition rules and histories from a
hidden secret (sometimes with perturbed, possibly contradictory feedback);
clingo and SWI-Prolog must give the same consistent sets in the same
lexicographic order, the same counts, the same first code, and the same
``random`` code for the same generator.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mm_logic.engines import make_engine
from mm_logic.engines.reference import ReferenceEngine

from conftest import history_for, small_rules

BACKENDS = ["clingo", "swipl"]
_engines: dict = {}


def engine(backend, rules):
    # One engine per (backend, rules): engines load their encodings once.
    key = (backend, rules)
    if key not in _engines:
        _engines[key] = make_engine(backend, rules)
    return _engines[key]


def codes(array) -> list[tuple[int, ...]]:
    return [tuple(int(c) for c in row) for row in np.asarray(array).tolist()]


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_same_answers_as_reference(backend, data):
    rules = data.draw(small_rules(max_pegs=5, max_colors=6))
    history = data.draw(history_for(rules, max_len=4))
    expected = ReferenceEngine(rules)
    with expected.session(history) as ref, engine(backend, rules).session(history) as got:
        assert got.count() == ref.count()
        assert codes(got.enumerate()) == codes(ref.enumerate())
        assert got.first() == ref.first()
        assert codes(got.enumerate(limit=2)) == codes(ref.enumerate(limit=2))
        found = got.any()
        assert (found is None) == (ref.count() == 0)
        if found is not None:
            assert found in set(codes(ref.enumerate()))
        seed = data.draw(st.integers(0, 2**32 - 1))
        assert got.random(np.random.default_rng(seed)) == ref.random(np.random.default_rng(seed))


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_push_and_pop_like_reference(backend, data):
    rules = data.draw(small_rules(max_pegs=4, max_colors=5))
    history = data.draw(history_for(rules, max_len=5, consistent=True))
    ref = ReferenceEngine(rules).session()
    with engine(backend, rules).session() as got:
        for entry in history:
            got.push(*entry)
            ref.push(*entry)
            assert got.count() == ref.count()
        while got.history:
            got.pop()
            ref.pop()
            assert got.first() == ref.first()
            assert got.count() == ref.count()


@pytest.mark.parametrize("backend", BACKENDS)
def test_conflict_named_by_every_engine(backend):
    from mm_logic.rules import Rules
    history = [((0, 1, 2, 3), (0, 0)), ((0, 0, 0, 0), (0, 0)), ((4, 4, 5, 5), (0, 0))]
    assert engine(backend, Rules()).conflict(history) == (0, 2)


@pytest.mark.parametrize("backend", ["python", *BACKENDS])
def test_info_asks_the_engine(run_json, backend):
    out = run_json("info", "--backend", backend, "--pegs", 5, "--colors", 8, "--no-repeat")
    assert (out["codes"], out["feedbacks"], out["lower_bound"]) == (6720, 17, 5)
