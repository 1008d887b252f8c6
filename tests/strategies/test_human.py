"""Seed 000's human-like strategies: exact traces, every secret won, and the CLI around them.

Traces are derived by hand in the comments from the criteria (module
docstring of ``mm_logic.strategies.human``), each feedback by the standard
rule, so a change of plan shows up as a different guess or count.
"""

from __future__ import annotations

import json

import pytest

from mm_logic.codespace import code_space
from mm_logic.engines.reference import ReferenceEngine
from mm_logic.game import play
from mm_logic.notation import format_code, parse_code
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy
from mm_logic.studies.bench import bench_all, play_games

# The report writes colours from 1: alphabet "123456" makes colour 0 print as 1.
REPORT = Rules(pegs=5, colors=6, alphabet="123456")


def trace(strategy: str, rules: Rules, secret: str) -> list[str]:
    record = play(ReferenceEngine(rules), make_strategy(strategy, rules), parse_code(secret, rules))
    return [f"{format_code(g, rules)} {b},{w}" for g, (b, w) in record.guesses]


def test_strategy_1_replays_the_reports_worked_example():
    # Report section 3.1, secret 1 3 2 1 5: attempts 1-12 as printed, one by one.
    # Criterion 1 on colour 1 (11111: 2 black -> two 1s), criterion 2 for the first 1
    # (12222: no white -> position 1), the second 1 from position 2 on (11222, 12122
    # have whites; 12212 has none -> position 4), then colour 2 counted with the same
    # code (3 black - 2 found = 1), placed at position 3, colour 3 counted (1) and
    # placed at position 2, colour 4 counted (0), colour 5 counted: the secret.
    # The report prints 3,3 for attempt 7 (12313); the rule gives 2,2 (blacks at
    # positions 1 and 4, whites for the 2 and one 3), and the reasoning is the same.
    assert trace("human1", REPORT, "13215") == [
        "11111 2,0", "12222 2,0", "11222 2,1", "12122 1,2", "12212 3,0",
        "12212 3,0", "12313 2,2", "13213 4,0",
        "13213 4,0", "13214 4,0",
        "13214 4,0", "13215 5,0",
    ]


def test_strategy_2_reuses_the_probe_that_placed_a_colour():
    # The same reasoning, without the three repeated counting probes (attempts 6, 9, 11).
    assert trace("human2", REPORT, "13215") == [
        "11111 2,0", "12222 2,0", "11222 2,1", "12122 1,2", "12212 3,0",
        "12313 2,2", "13213 4,0", "13214 4,0", "13215 5,0",
    ]


def test_strategy_3_counts_the_next_colour_and_skips_absent_ones():
    # Criterion 3 counts colour 2 from 12222 (2+0-0-1 = 1) and from every later
    # probe; 13214 gives colour 4's count 4+0-3-1 = 0, so colour 4 is never
    # counted; colour 5 is counted by the code that wins.
    assert trace("human3", REPORT, "13215") == [
        "11111 2,0", "12222 2,0", "11222 2,1", "12122 1,2", "12212 3,0",
        "12313 2,2", "13213 4,0", "13214 4,0", "13215 5,0",
    ]


@pytest.mark.parametrize("strategy, guesses", [
    # 0000 3,0: three 0s. 0111 0,2: not at position 1. 1011 2,0: position 2.
    # Strategy 1 goes on from position 3 (1001 3,0), then 4 wins.
    ("human1", ["0000 3,0", "0111 0,2", "1011 2,0", "1001 3,0", "1000 4,0"]),
    # Strategy 2 starts each search again at the first free position: 0011 (position 1
    # again) 1,2, then 1001; for the third 0, 0001 2,2 before 1000.
    ("human2", ["0000 3,0", "0111 0,2", "1011 2,0", "0011 1,2", "1001 3,0", "0001 2,2", "1000 4,0"]),
    ("human3", ["0000 3,0", "0111 0,2", "1011 2,0", "1001 3,0", "1000 4,0"]),
])
def test_repeated_colour_searches(strategy, guesses):
    assert trace(strategy, Rules(4, 3), "1000") == guesses


def test_criterion_4_fills_with_the_next_present_colour():
    # 0111 1,0 counts colour 1: 1+0-0-1 = 0, so the next probes fill with colour 2
    # (0022, 0202), and colour 1 is never played again.
    assert trace("human3", Rules(4, 4), "0220") == ["0000 2,0", "0111 1,0", "0022 2,2", "0202 2,2", "0220 4,0"]
    # Strategy 1 fills with colour 1 and counts it with a repeated probe.
    assert trace("human1", Rules(4, 4), "0220") == [
        "0000 2,0", "0111 1,0", "0011 1,1", "0101 1,1", "0110 2,0", "0110 2,0", "0220 4,0"]


@pytest.mark.parametrize("rules", [Rules(3, 4), Rules(4, 4, 1), Rules(4, 5, 2), Rules(5, 3)])
@pytest.mark.parametrize("strategy", ["human1", "human2", "human3"])
def test_every_secret_is_won_and_the_tree_equals_the_games(rules, strategy):
    # The tree bench replays the plan on histories; play_games runs one live plan per
    # game: the attempts per secret must be the same, and every secret is won.
    engine = ReferenceEngine(rules)
    tree = bench_all(engine, make_strategy(strategy, rules))
    space = code_space(rules)
    games = play_games(engine, make_strategy(strategy, rules), [space.code(i) for i in range(space.size)])
    assert tree.games == rules.size
    assert tree.by_secret() == games.by_secret()


def test_seed000_findings_hold_on_4x6():
    # Totals over every secret: strategy 3 plays fewest, 2 fewer than 1, and the
    # worst cases rank 3 < 2 < 1 (figures 4 and 5 of the report).
    engine = ReferenceEngine(Rules(4, 6))
    results = {s: bench_all(engine, make_strategy(s, engine.rules)) for s in ("human1", "human2", "human3")}
    assert {s: (r.total_guesses, r.max) for s, r in results.items()} == {
        "human1": (12442, 15), "human2": (10727, 12), "human3": (9207, 12)}


def test_next_follows_a_human_history_even_with_no_repeat(run):
    # The probes repeat colours; under --no-repeat next accepts them for this strategy.
    # Colour 0 absent, colour 1 present: 1 and 3 of colours 2..7, arranged: C(6,3) * 4! = 480.
    result = run("next", "--backend", "python", "--strategy", "human1", "--no-repeat", "--colors", "8",
                 "--json", "0000:0,0", "1111:1,0")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {"guess": "1222", "consistent": 480}


def test_a_history_the_strategy_did_not_play_is_refused(run):
    result = run("next", "--backend", "python", "--strategy", "human3", "0000:1,0", "0123:1,1")
    assert result.exit_code == 2
    assert result.stderr == ("error: --strategy human3 plays its own sequence of probes: history entry 2 "
                             "(0123) is not its guess (0111)\n")
