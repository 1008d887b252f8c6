"""Diagnosis of a contradictory history (issue 40, item 2): the fewest entries that must be wrong and the
feedbacks that make the history consistent, on every engine and rule, against a brute force written apart
(every code of the space scored, the entries each code breaks)."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mm_logic.diagnosis import diagnose
from mm_logic.engines import engine_class
from mm_logic.feedback import rule_of
from mm_logic.rules import Rules


def brute_force(rules: Rules, history):
    """The fewest entries some code breaks, and every ``((entry, the code's feedback), ...)`` of such codes."""
    rule = rule_of(rules)
    broken = {}
    for code in itertools.product(range(rules.colors), repeat=rules.pegs):
        if max(Counter(code).values()) > rules.repeat_limit:
            continue
        fix = tuple((i, rule.score(guess, code)) for i, (guess, fb) in enumerate(history)
                    if rule.score(guess, code) != fb)
        broken.setdefault(len(fix), set()).add(fix)
    fewest = min(broken)
    return fewest, broken[fewest]


RULES = [Rules(3, 3), Rules(3, 4, feedback="black"), Rules(3, 3, feedback="positional"), Rules(3, 4, max_repeat=1)]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(RULES), st.data())
def test_every_engine_finds_the_fewest_wrong_entries_and_every_fix(rules, data):
    # A history of a random secret, some of its answers replaced by random feedbacks of the rule.
    rule = rule_of(rules)
    codes = [c for c in itertools.product(range(rules.colors), repeat=rules.pegs)
             if max(Counter(c).values()) <= rules.repeat_limit]
    secret = data.draw(st.sampled_from(codes))
    feedbacks = sorted({rule.score(g, c) for g in codes for c in codes})
    history = []
    for _ in range(data.draw(st.integers(1, 4))):
        guess = data.draw(st.sampled_from(codes))
        fb = data.draw(st.sampled_from(feedbacks)) if data.draw(st.booleans()) else rule.score(guess, secret)
        history.append((guess, fb))
    fewest, fixes = brute_force(rules, history)
    for name in ("python", "clingo", "swipl"):
        engine = engine_class(name)(rules)
        try:
            assert sorted(engine.fewest_wrong(history)) == sorted({tuple(i for i, _ in f) for f in fixes}), name
            found = diagnose(engine, history, limit=10_000)
            assert (found.fewest, set(found.fixes), found.complete) == (fewest, fixes - {()}, True), name
        finally:
            engine.close()


HISTORY = ["0011:0,0", "0123:2,0", "2233:0,0"]


@pytest.mark.parametrize("backend", ["clingo", "python", "swipl"])
def test_next_diagnose_names_the_wrong_entries(run, backend):
    result = run("next", "--diagnose", "--backend", backend, *HISTORY)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "1 entry must be wrong (no code fits them all): entry 1 0011:0,0 should be 0011:1,1, 0011:1,2, 0011:2,1, "
        "0011:2,2 or 0011:3,0; or entry 2 0123:2,0 should be 0123:0,0; or entry 3 2233:0,0 should be 2233:1,1, "
        "2233:1,2, 2233:2,1, 2233:2,2 or 2233:3,0\n")


def test_next_diagnose_json_and_two_wrong_entries(run):
    result = run("next", "--diagnose", "--json", "0000:1,0", "1111:1,0", "0101:0,0")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"fewest_wrong": 1, "complete": True, "sets": [
        [{"entry": 3, "feedback": "0,2"}], [{"entry": 3, "feedback": "1,1"}], [{"entry": 3, "feedback": "2,0"}]]}
    # 0123 scored as the code itself, against two answers it cannot give: the win is the typo (the others
    # leave the colours 4 and 5 alone, which 0123 has none of).
    result = run("next", "--diagnose", "--json", "0123:4,0", "0011:0,0", "2233:0,0")
    assert json.loads(result.stdout) == {"fewest_wrong": 1, "complete": True, "sets": [
        [{"entry": 1, "feedback": "0,0"}]]}


def test_without_diagnose_a_contradiction_is_exit_3_and_a_consistent_history_is_advised(run):
    result = run("next", *HISTORY)
    assert (result.exit_code, result.stdout) == (3, "")
    assert result.stderr == ("error: no code is consistent with the history: entries 1, 2, 3 "
                             "(0011:0,0 0123:2,0 2233:0,0) contradict each other\n")
    result = run("next", "--diagnose", "0011:0,0")
    assert (result.exit_code, result.stdout) == (0, "2234  (256 codes still possible)\n")


def test_a_set_of_two_entries_is_written_in_brackets():
    from mm_logic.notation import parse_entry

    rules = Rules(3, 3)
    history = [parse_entry(e, rules) for e in ("000:3,0", "111:3,0", "222:0,0")]
    found = diagnose(engine_class("python")(rules), history)
    assert found.fewest == 1 and found.text().startswith("1 entry must be wrong")
    history = [parse_entry(e, rules) for e in ("000:1,0", "000:2,0", "000:3,0")]
    found = diagnose(engine_class("clingo")(rules), history)
    assert found.fewest == 2
    assert found.text() == ("2 entries must be wrong (no code fits them all): entries 1, 2 (000:1,0, 000:2,0) should "
                            "be (000:3,0, 000:3,0); or entries 1, 3 (000:1,0, 000:3,0) should be (000:2,0, 000:2,0); "
                            "or entries 2, 3 (000:2,0, 000:3,0) should be (000:1,0, 000:1,0)")


def test_clingo_answers_by_its_optimisation_and_an_encoding_without_it_by_dropping_entries(tmp_path):
    # The shipped encoding's diagnose.lp answers in one solve (not the fallback every engine has) ...
    from mm_logic.engines.clingo.diagnose import fewest_wrong
    from mm_logic.notation import parse_entry

    rules = Rules(4, 6)
    history = [parse_entry(e, rules) for e in HISTORY]
    engine = engine_class("clingo")(rules)
    assert fewest_wrong(engine.program, history, None) == [(0,), (1,), (2,)]
    # ... and an encoding of one's own, without that part, still gets the diagnosis, by the fallback.
    for name in ("code.lp", "counts.lp", "repetition.lp", "feedback.lp", "show.lp"):
        (tmp_path / "own.lp").open("a").write(f'#include "{name}".\n')
    own = engine_class("clingo")(rules, encoding=tmp_path / "own.lp")
    assert fewest_wrong(own.program, history, None) is None
    assert own.fewest_wrong(history) == [(0,), (1,), (2,)]


def test_play_codemaker_says_the_fewest_changes_when_it_refuses_an_answer(run):
    result = run("play", "--role", "codemaker", "--backend", "python", input="1,1\n0,0\n0,0\nq\n\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1:3] == [
        "no code is consistent with the history: entries 1, 2, 3 (0011:1,1 0023:0,0 1414:0,0) contradict each other; "
        "type the right answer for 1414, or undo",
        "fewest changes: 1 answer must be wrong (no code fits them all): answer 1 0011:1,1 should be 0011:0,0; or "
        "answer 2 0023:0,0 should be 0023:1,1, 0023:1,2, 0023:1,3, 0023:2,1 or 0023:2,2; or answer 3 1414:0,0 should "
        "be 1414:0,2, 1414:0,3, 1414:0,4, 1414:1,1, 1414:1,2, 1414:2,0, 1414:2,1, 1414:2,2, 1414:3,0 or 1414:4,0"]
