"""The published figures of the classical strategies, on the reference engine and clingo.

Knuth (1977) 5801 with his histogram, Irving 5696, Kooi 5668, Shapiro's simple
strategy 7471 (max 9), and bulls and cows 26551 / 27139. ``bench --all``
checks at every node of the strategy tree that the engine counts as many
consistent codes as the feedback rule leaves, so on clingo each figure is also
a cross-check of the ASP encoding (tests/strategies/test_swipl_acceptance.py does swipl).
"""

from __future__ import annotations

import pytest

MASTERMIND = ["--pegs", 4, "--colors", 6]
BULLS_AND_COWS = ["--pegs", 4, "--colors", 10, "--no-repeat"]


#: (rules, strategy, first guess, total, max, histogram or None), each played on python and on clingo.
FIGURES = [
    (MASTERMIND, "minimax", "0011", 5801, 5, {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}),
    (MASTERMIND, "expected", "0012", 5696, 6, None),
    (MASTERMIND, "parts", "0012", 5668, 6, None),
    (MASTERMIND, "first", "0000", 7471, 9, None),
    (BULLS_AND_COWS, "expected", "0123", 26551, 7, None),
    (BULLS_AND_COWS, "minimax", "0123", 27139, 7, None),
]


def on_each_backend(figures):
    """Each row on python, then on clingo, under the ids two stacked parametrizes gave them; bulls and
    cows on clingo is slow (5040 secrets: 6-7 s each, measured, 20 s in CI's suite): minimax's tree alone."""
    for i, (rules, strategy, first, total, maximum, histogram) in enumerate(figures):
        for backend in ("python", "clingo"):
            name = f"rules{i}-{strategy}-{first}-{total}-{maximum}-{f'histogram{i}' if histogram else None}-{backend}"
            slow = backend == "clingo" and rules is BULLS_AND_COWS
            if slow and strategy == "expected":
                continue  # clingo lists the codes minimax's 5,040 games ask for too: one bulls-and-cows tree is enough
            yield pytest.param(backend, rules, strategy, first, total, maximum, histogram, id=name,
                               marks=pytest.mark.slow if slow else ())


@pytest.mark.parametrize("backend, rules, strategy, first, total, maximum, histogram", list(on_each_backend(FIGURES)))
def test_bench_all(run_json, backend, rules, strategy, first, total, maximum, histogram):
    out = run_json("bench", "--backend", backend, *rules, "--strategy", strategy,
                   "--first-guess", first, "--all")
    games = 1296 if rules is MASTERMIND else 5040
    assert out["games"] == games
    assert out["total_guesses"] == total
    assert out["max"] == maximum
    assert out["mean"] == round(total / games, 3)
    assert sum(out["histogram"].values()) == games
    if histogram:
        assert out["histogram"] == histogram
    assert out["backend"] == backend and out["strategy"] == strategy


def test_default_openings_are_the_classical_ones(run_json):
    openings = {s: run_json("next", "--backend", "python", "--strategy", s)["guess"]
                for s in ("minimax", "expected", "entropy", "parts", "first")}
    assert openings == {"minimax": "0011", "expected": "0012", "entropy": "0123",
                        "parts": "0012", "first": "0000"}


def test_tree_bench_equals_playing_every_game(run_json):
    # bench --all evaluates a tree; --games replays games one by one.
    from mm_logic.engines.reference import ReferenceEngine
    from mm_logic.rules import Rules
    from mm_logic.strategies import make_strategy
    from mm_logic.studies.bench import bench_all, bench_games
    rules = Rules(3, 4)
    engine = ReferenceEngine(rules)
    for name in ("minimax", "entropy", "random", "first"):
        tree = bench_all(engine, make_strategy(name, rules, seed=7))
        games = bench_games(engine, make_strategy(name, rules, seed=7),
                            [engine.space.code(i) for i in range(rules.size)])
        assert tree.histogram == games.histogram, name
