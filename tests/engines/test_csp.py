"""Seed 001's A1-A5: effort ordering, statistics in bench/compare, limits.

That they answer every question as the brute-force filter is the agreement
suite's job (``test_engines_agree.py``: they are registered backends).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings

from mm_logic.engines import make_engine
from mm_logic.engines.csp import shuffled_indices
from mm_logic.rules import Rules
from mm_logic.support.errors import BadInput, SolverTimeout

from generators import game_for


def effort(backend: str, rules: Rules, history, question: str) -> tuple[int, object]:
    engine = make_engine(backend, rules)
    with engine.session(history) as session:
        answer = getattr(session, question)()
    return engine.stats.nodes, answer


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=game_for(max_pegs=5, max_colors=7, max_len=5))
def test_forward_checking_never_visits_more_nodes(game):
    # Same value order, each algorithm pruning a superset of the one before:
    # A5 <= A4 <= A3 <= A2 in nodes, for the first code and for the whole count,
    # on every history, with the same answers.
    rules, history = game
    for question in ("first", "count"):
        nodes = {b: effort(b, rules, history, question) for b in ("a2", "a3", "a4", "a5")}
        assert len({answer for _, answer in nodes.values()}) == 1
        assert nodes["a5"][0] <= nodes["a4"][0] <= nodes["a3"][0] <= nodes["a2"][0]


def report_a2_nodes(rules: Rules, history) -> int:
    """Values A2 assigns when it counts every code, checking each partial code as seed 001's report
    says (question 1.1): per entry, blacks so far at most B and reachable with the free pegs, the same
    for the colours in common (B + W), and whites so far at most W (where they stay whites: a code
    without repetition against a guess without)."""
    nodes = 0

    def consistent(prefix) -> bool:
        free = rules.pegs - len(prefix)
        for guess, (black, white) in history:
            b = sum(p == g for p, g in zip(prefix, guess))
            common = sum(min(prefix.count(c), guess.count(c)) for c in set(prefix))
            if b > black or common > black + white or b + free < black or common + free < black + white:
                return False
            if rules.repeat_limit == 1 and len(set(guess)) == len(guess) and common - b > white:
                return False
        return True

    def extend(prefix) -> None:
        nonlocal nodes
        for colour in range(rules.colors):
            nodes += 1
            code = prefix + (colour,)
            if code.count(colour) <= rules.repeat_limit and consistent(code) and len(code) < rules.pegs:
                extend(code)

    extend(())
    return nodes


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=game_for(max_pegs=4, max_colors=6, max_len=4))
def test_a2_checks_each_partial_code_as_the_report_says(game):
    rules, history = game
    assert effort("a2", rules, history, "count")[0] == report_a2_nodes(rules, history)


def test_a2_bounds_the_whites_so_far_without_repetition():
    # 012 got 1,1. By hand: peg 1 tries 4 values, all pass; peg 2 tries 4 under each (16); 8 pairs
    # pass (02 03 13 21 23 30 31 32) and peg 3 tries 4 under each (32): 52 values. 10, 12 and 20 have
    # two whites already (no later peg makes them black without a repeat), one more than W; without
    # that check they would pass too: 64.
    rules, history = Rules(3, 4, 1), [((0, 1, 2), (1, 1))]
    assert report_a2_nodes(rules, history) == effort("a2", rules, history, "count")[0] == 52


def test_a3_and_a4_differ_only_where_a_colour_may_repeat():
    history = [((0, 1, 2, 3), (1, 1)), ((4, 5, 6, 7), (0, 1))]
    no_repeat = {b: effort(b, Rules(4, 8, 1), history, "count") for b in ("a3", "a4")}
    assert no_repeat["a3"] == no_repeat["a4"]
    twice = {b: effort(b, Rules(4, 8, 2), history, "count") for b in ("a3", "a4")}
    assert twice["a3"][1] == twice["a4"][1] == make_engine("python", Rules(4, 8, 2)).count(history)
    assert twice["a4"][0] < twice["a3"][0]


def test_counts_of_a_small_search_are_exact():
    # 2 pegs of 3 colours, no history: A1 generates the 9 codes and checks only the
    # repetition rule (9 checks); A2 assigns 3 values to peg 1 and 3 to peg 2 under
    # each, one repetition check per node (12 nodes, 12 checks).
    assert make_engine("a1", Rules(2, 3)).count([]) == 9
    engine = make_engine("a1", Rules(2, 3))
    engine.count([])
    assert engine.search_stats() == {"nodes": 9, "checks": 9}
    engine = make_engine("a2", Rules(2, 3))
    engine.count([])
    assert engine.search_stats() == {"nodes": 12, "checks": 12}
    # A3 under no-repeat: peg 2 loses peg 1's colour: 3 + 3*2 nodes, no check at all.
    engine = make_engine("a3", Rules(2, 3, 1))
    assert engine.count([]) == 6
    assert engine.search_stats() == {"nodes": 9, "checks": 0}


def test_a1_generates_in_a_shuffled_order_that_covers_every_code():
    order = list(shuffled_indices(4096, [((0, 0, 1, 1), (1, 0))]))
    assert sorted(order) == list(range(4096))
    assert order != list(range(4096))


def test_a1_refuses_spaces_it_cannot_generate():
    with pytest.raises(BadInput) as error:
        make_engine("a1", Rules(8, 16, 1))
    assert str(error.value) == ("--backend a1 generates every code: 8x16 no-repeat has 4,294,967,296 to generate, "
                                "more than 20,000,000; use --backend a2, a3, a4, a5 or clingo")


def test_time_limit_stops_a_long_search():
    engine = make_engine("a2", Rules(9, 9), time_limit=0.05)
    with pytest.raises(SolverTimeout) as error, engine.session([((0,) * 9, (0, 0))]) as session:
        session.count()
    assert str(error.value) == "a2 did not answer within the time limit of 0.05 s (9x9); raise --time-limit"


def test_bench_and_compare_report_the_search_effort(run, tmp_path):
    # Every secret of 3x4 no-repeat with A2's first consistent code, as a tree.
    result = run("bench", "--backend", "a2", "--strategy", "first", "--pegs", "3", "--colors", "4",
                 "--no-repeat", "--all", "--json")
    assert result.exit_code == 0, result.stderr
    bench = json.loads(result.stdout)
    assert bench["games"] == 24
    assert set(bench["search"]) == {"nodes", "checks"}
    assert bench["search"]["nodes"] > 0
    result = run("compare", "--backend", "a2,a5,python", "--strategy", "first", "--pegs", "3", "--colors", "4",
                 "--no-repeat", "--all", "--json", "--csv", str(tmp_path / "rows.csv"))
    assert result.exit_code == 0, result.stderr
    rows = {row["backend"]: row for row in json.loads(result.stdout)["rows"]}
    assert rows["a2"]["search"] == bench["search"]
    assert rows["a5"]["search"]["nodes"] < rows["a2"]["search"]["nodes"]
    assert "search" not in rows["python"]
    assert rows["a2"]["total_guesses"] == rows["a5"]["total_guesses"] == rows["python"]["total_guesses"]
    lines = (tmp_path / "rows.csv").read_text().splitlines()
    assert lines[0].endswith(",ms_per_game,min,stdev,ci95_low,ci95_high,failed,failure_rate,nodes,checks")
    assert lines[1].split(",")[-2:] == [str(bench["search"]["nodes"]), str(bench["search"]["checks"])]
