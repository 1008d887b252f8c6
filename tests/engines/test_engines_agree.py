"""The agreement suite: every registered engine answers every question as a brute-force filter.

Hypothesis draws rules under the three repetition rules (unlimited,
no-repeat, at most two) and histories scored by a hidden secret, sometimes
with changed, possibly contradictory, feedback. The expected answers come
from filtering ``itertools.product`` with the feedback rule (``generators.consistent``), which shares no
code with any engine. An engine registered in ``mm_logic.engines.BACKENDS``
joins this suite without a line changed here.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mm_logic.codespace import code_space
from mm_logic.engines import BACKENDS, engine_class, make_engine
from mm_logic.rules import Rules
from mm_logic.support.errors import BadInput

from generators import (
    ALL_FEEDBACKS,
    brute_lies,
    brute_score,
    code_for,
    consistent,
    entry_for,
    game_for,
    rows,
    small_rules,
)

ENGINES = list(BACKENDS)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_engines: dict = {}


def engine(backend: str, rules: Rules):
    # One engine per (backend, rules): engines load their encodings once.
    if (backend, rules) not in _engines:
        _engines[backend, rules] = make_engine(backend, rules)
    return _engines[backend, rules]


@pytest.mark.parametrize("backend", ENGINES)
@SETTINGS
@given(game=game_for(max_pegs=5, max_colors=6, max_len=4, feedbacks=ALL_FEEDBACKS), seed=st.integers(0, 2**32 - 1),
       limit=st.integers(1, 5))
def test_every_question_answered_as_the_brute_force_filter(backend, game, seed, limit):
    rules, history = game
    if rules.feedback not in engine_class(backend).feedback_rules:
        # Seed 001's searches reason on black and white: refused in one line, before any question.
        with pytest.raises(BadInput, match=f"^--backend {backend} plays the standard feedback rule only; "):
            make_engine(backend, rules)
        return
    expected = consistent(rules, history)
    with engine(backend, rules).session(history) as session:
        assert session.count() == len(expected)
        assert rows(session.enumerate()) == expected
        assert rows(session.enumerate(limit)) == expected[:limit]
        assert session.first() == (expected[0] if expected else None)
        found = session.any()
        assert found in expected if expected else found is None
        # near: a consistent code (clingo's nearest the one it is given), None when there is none.
        aim = tuple(int(c) for c in np.random.default_rng(seed).integers(rules.colors, size=rules.pegs))
        near = session.near(aim)
        assert near in expected if expected else near is None
        # random: a uniform index into the lexicographic enumeration, the same draw everywhere.
        draw = np.random.default_rng(seed)
        wanted = expected[int(draw.integers(len(expected)))] if expected else None
        assert session.random(np.random.default_rng(seed)) == wanted
        assert rows(code_space(rules).codes[session.consistent_indices()]) == expected
        # count_within: these spaces are the python engine's, so exact on every engine, at once
        # (seconds=0: however slow the machine); and the engine's own bounded count, which
        # huge games and edited encodings use: exact up to the bound, else the bound plus one.
        for most in (limit, 100):
            assert session.count_within(most, seconds=0) == (len(expected), True)
            assert session._count_up_to(most, None) == (min(len(expected), most + 1), True)


@pytest.mark.parametrize("backend", ENGINES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=game_for(max_pegs=4, max_colors=5, max_len=5, feedbacks=ALL_FEEDBACKS), lies=st.integers(1, 2),
       data=st.data())
def test_with_lies_every_engine_keeps_the_codes_that_break_at_most_k_entries(backend, game, lies, data):
    # --lies K: a code stays while it breaks at most K entries and is no guess answered without the win.
    rules, history = game
    rules = replace(rules, lies=lies)
    if not engine_class(backend).lies:
        with pytest.raises(BadInput, match=f"^--backend {backend} plays no --lies; "):
            make_engine(backend, rules)
        return
    expected = consistent(rules, history)
    with engine(backend, rules).session(history) as session:
        assert rows(session.enumerate()) == expected
        assert session.count() == len(expected)
        assert session.count_within(10, seconds=0) == (len(expected), True)
        assert session.first() == (expected[0] if expected else None)
        found = session.any()
        assert found in expected if expected else found is None
        # the lies each code needs, as the brute force counts them
        assert session.lies_needed().tolist() == [brute_lies(rules, history, code) for code in expected]
        if history:  # taken back, the entry no longer counts
            session.pop()
            assert rows(session.enumerate()) == consistent(rules, history[:-1])


@pytest.mark.parametrize("backend", ENGINES)
def test_at_most_three_of_a_colour(backend):
    # 4 pegs of 3 colours, each at most 3 times: the 81 codes but the 3 of one colour throughout.
    rules = Rules(4, 3, 3)
    with engine(backend, rules).session([]) as session:
        assert session.count() == 81 - 3
        assert (0, 0, 0, 0) not in rows(session.enumerate()) and (0, 0, 0, 1) in rows(session.enumerate())
    with engine(backend, rules).session([((0, 0, 0, 1), (3, 0))]) as session:
        # 0001 gets 3,0 from the codes that change one of its pegs to a colour that adds no white:
        # pegs 1-3 to 1 or 2, peg 4 to 2; peg 4 to 0 would be 0000, four times one colour.
        assert rows(session.enumerate()) == [(0, 0, 0, 2), (0, 0, 1, 1), (0, 0, 2, 1), (0, 1, 0, 1),
                                             (0, 2, 0, 1), (1, 0, 0, 1), (2, 0, 0, 1)]


@pytest.mark.parametrize("backend", ENGINES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_push_and_pop_follow_the_brute_force_filter(backend, data):
    built_in = tuple(f for f in engine_class(backend).feedback_rules if f in ALL_FEEDBACKS)
    rules = data.draw(small_rules(min_pegs=2, max_pegs=4, max_colors=5, feedbacks=built_in))
    secret = data.draw(code_for(rules))
    history: list = []
    with engine(backend, rules).session() as session:
        for _ in range(data.draw(st.integers(1, 8))):
            if history and data.draw(st.booleans()):
                assert session.pop() == history.pop()
            else:
                entry = data.draw(entry_for(rules, secret))
                session.push(*entry)
                history.append(entry)
            expected = consistent(rules, history)
            assert session.count() == len(expected)
            assert session.first() == (expected[0] if expected else None)
        assert session.history == history


@pytest.mark.parametrize("backend", ENGINES)
@SETTINGS
@given(game=game_for(max_pegs=4, max_colors=5, max_len=4))
def test_a_session_replaying_a_history_equals_one_pushed_entry_by_entry(backend, game):
    rules, history = game
    pushed = engine(backend, rules).session()
    for entry in history:
        pushed.count()  # questions asked on the way must not change later answers
        pushed.push(*entry)
    with engine(backend, rules).session(history) as replayed, pushed:
        assert rows(replayed.enumerate()) == rows(pushed.enumerate()) == consistent(rules, history)


@pytest.mark.parametrize("backend", ENGINES)
def test_a_smallest_conflict_is_named(backend):
    history = [((0, 1, 2, 3), (0, 0)), ((0, 0, 0, 0), (0, 0)), ((4, 4, 5, 5), (0, 0))]
    assert engine(backend, Rules()).conflict(history) == (0, 2)


@pytest.mark.parametrize("backend", ENGINES)
def test_info_asks_the_engine(run_json, backend):
    out = run_json("info", "--backend", backend, "--pegs", 5, "--colors", 8, "--no-repeat")
    assert (out["codes"], out["feedbacks"], out["lower_bound"]) == (6720, 17, 5)


# -- the feedback rules' laws --------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(rules=small_rules(max_pegs=6, max_colors=7), data=st.data())
def test_each_feedback_rule_is_its_textbook_definition_and_the_rules_agree_with_each_other(rules, data):
    from mm_logic.codespace import code_space
    from mm_logic.feedback import RULES, colour_counts
    guess, secret = data.draw(code_for(rules)), data.draw(code_for(rules))
    scored = {name: rule.score(guess, secret) for name, rule in RULES.items()}
    for name, fb in scored.items():
        assert fb == brute_score(Rules(rules.pegs, rules.colors, feedback=name), guess, secret)
    # Counting the positional marks gives the standard feedback; black-peg is its first half.
    marks = scored["positional"]
    assert (marks.count(2), marks.count(1)) == scored["standard"]
    assert scored["black"] == scored["standard"][:1]
    # Each rule's index, vectorised form and text agree with its value.
    codes = code_space(rules).codes
    counts = colour_counts(codes, rules.colors)
    for name, rule in RULES.items():
        fb = scored[name]
        assert rule.from_index(rule.index(fb, rules.pegs), rules.pegs) == fb
        assert rule.read(rule.write(fb), rules.pegs) == fb and rule.impossible(fb, rules.pegs, rules.colors) is None
        assert rule.from_json(rule.as_json(fb), rules.pegs) == fb
        row = [r for r in rows(codes)].index(secret)
        assert int(rule.indices(guess, codes, counts)[row]) == rule.index(fb, rules.pegs)
