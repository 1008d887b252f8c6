"""sample-entropy under every built-in feedback rule: its samples, its entropies, its games.

The samplers are held to the brute-force filter of ``generators`` (the textbook feedback of each rule,
no code shared with the package) on spaces small enough to enumerate, with the exact scorer switched
off so that they run there; games are reproducible, won, and the same on python and clingo.
"""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

from mm_logic.cli import cli
from mm_logic.engines import make_engine
from mm_logic.game import play
from mm_logic.kernels.rule_sample import feedback_width, rule_distance, rule_entropies
from mm_logic.kernels.scoring import rule_code
from mm_logic.rules import Rules
from mm_logic.strategies import sampled as sampled_module
from mm_logic.strategies.sampled import SampleEntropy

from conftest import PY, ROOT, one_line_error
from generators import brute_score, consistent, rows

RULES = ("standard", "black", "positional")
#: Small spaces: unlimited, no-repeat, at most two.
SPACES = [(3, 4, None), (4, 3, None), (3, 5, 1), (4, 4, 2)]


def sampler(rules, seed, k):
    strategy = SampleEntropy(rules, seed=seed, k=k)
    strategy.exact = False  # sample even where the space is small
    return strategy


def histories(rules, rng, count):
    """Histories of 1 to 3 random guesses scored by a random secret (brute force)."""
    codes = consistent(rules, [])
    for _ in range(count):
        secret = codes[rng.integers(len(codes))]
        yield [(g, brute_score(rules, g, secret)) for g in (codes[rng.integers(len(codes))]
                                                            for _ in range(int(rng.integers(1, 4))))]


@pytest.mark.parametrize("feedback", RULES)
@pytest.mark.parametrize("pegs, colors, repeat", SPACES, ids=str)
def test_an_exact_sample_is_the_consistent_set(feedback, pegs, colors, repeat):
    rules = Rules(pegs, colors, repeat, feedback=feedback)
    engine = make_engine("python", rules)
    rng = np.random.default_rng(pegs * 10 + colors)
    for history in histories(rules, rng, 12):
        expected = consistent(rules, history)
        sample, exact = sampler(rules, 1, 1000).sample(engine.session(history), np.random.default_rng(0)) \
            if rules.feedback == "standard" else sampler(rules, 1, 1000).sample_rule(engine.session(history),
                                                                       np.random.default_rng(0))
        assert exact and sorted(rows(sample)) == expected, history


@pytest.mark.parametrize("walk", [False, True], ids=["listed", "walked"])
@pytest.mark.parametrize("feedback", RULES)
@pytest.mark.parametrize("pegs, colors, repeat", SPACES, ids=str)
def test_every_sampled_code_is_consistent(monkeypatch, feedback, pegs, colors, repeat, walk):
    # A sample smaller than the set: k codes of it. Walked (the listing switched off under the other rules,
    # the standard sampler's own walk alike): codes the walk met at energy 0.
    rules = Rules(pegs, colors, repeat, feedback=feedback)
    if walk:
        monkeypatch.setattr(sampled_module, "LIST_SPACE", 0)
        monkeypatch.setattr(sampled_module, "VECTORS", 0)
    engine = make_engine("python", rules)
    rng = np.random.default_rng(pegs * 10 + colors + 1)
    sources = set()
    for history in histories(rules, rng, 10):
        expected = set(consistent(rules, history))
        strategy = sampler(rules, 2, 3)
        session = engine.session(history)
        standard = rules.feedback == "standard"
        sample, _ = strategy.sample(session, rng) if standard else strategy.sample_rule(session, rng)
        if not expected:
            assert sample is None
            continue
        assert sample is not None and set(rows(sample)) <= expected, history
        assert len(sample) == min(3, len(expected)) if strategy.last["source"] in ("exact", "listing") else \
            1 <= len(sample) <= 3
        sources.add(strategy.last["source"])
    assert sources <= ({"walk"} if walk else {"exact", "listing", "descent"})


@pytest.mark.parametrize("feedback", RULES)
@pytest.mark.parametrize("pegs, colors, repeat", [(3, 4, None), (4, 3, 2)], ids=str)
def test_the_walks_energy_is_zero_exactly_on_consistent_codes(feedback, pegs, colors, repeat):
    rules = Rules(pegs, colors, repeat, feedback=feedback)
    codes = consistent(rules, [])
    every = np.array(codes, dtype=np.int64)
    rng = np.random.default_rng(3)
    rule = rule_code(rules)
    for history in histories(rules, rng, 10):
        guesses = np.array([g for g, _ in history], dtype=np.int64)
        told = np.array([fb for _, fb in history], dtype=np.int64).reshape(len(history), feedback_width(rule, pegs))
        # The distance is the L1 distance of each code's feedbacks from those told.
        expected = [sum(abs(a - b) for g, fb in history for a, b in zip(brute_score(rules, g, code), fb))
                    for code in codes]
        assert rule_distance(every, guesses, told, colors, rule).tolist() == expected


def brute_entropy(rules, guess, sample) -> float:
    parts = Counter(brute_score(rules, guess, code) for code in sample)
    return -sum(n / len(sample) * math.log2(n / len(sample)) for n in parts.values())


@pytest.mark.parametrize("feedback", RULES)
@pytest.mark.parametrize("rules", [Rules(4, 6), Rules(5, 3, 2), Rules(14, 2)], ids=str)
def test_the_entropy_is_the_partition_by_the_rules_feedback(feedback, rules):
    # 14 pegs: positional marks past the array kernels' 13 pegs.
    rules = Rules(rules.pegs, rules.colors, rules.max_repeat, feedback=feedback)
    rng = np.random.default_rng(rules.pegs)
    pool = consistent(rules, []) if rules.size < 5000 else None

    def draw(n):
        if pool is not None:
            return [pool[i] for i in rng.integers(len(pool), size=n)]
        return [tuple(int(c) for c in rng.integers(rules.colors, size=rules.pegs)) for _ in range(n)]
    sample, candidates = draw(200), draw(20)
    candidates[3] = sample[5]  # a candidate in the sample: it may win
    entropies, wins = rule_entropies(np.array(candidates, dtype=np.int64), np.array(sample, dtype=np.int64),
                                     rules.colors, rule_code(rules))
    assert entropies.tolist() == pytest.approx([brute_entropy(rules, g, sample) for g in candidates], abs=1e-12)
    assert wins.tolist() == [sample.count(g) for g in candidates]


def bench(feedback: str, backend: str, *extra: str) -> dict:
    result = CliRunner().invoke(cli, ["bench", "--backend", backend, "--strategy", "sample-entropy:60", "--pegs", "7",
                                      "--colors", "6", "--feedback", feedback, "--games", "6", "--seed", "1", *extra,
                                      "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("walk", [False, True], ids=["listed", "walked"])
@pytest.mark.parametrize("feedback", ["black", "positional"])
def test_a_seeded_bench_is_reproducible_won_and_the_same_on_every_engine(monkeypatch, feedback, walk):
    # 7x6 (279,936 codes, above the exact scorer's 50,000): listed, or walked with the listing switched off.
    if walk:
        monkeypatch.setattr(sampled_module, "LIST_SPACE", 0)
    first, again, clingo = bench(feedback, "python"), bench(feedback, "python"), bench(feedback, "clingo")
    figures = ("games", "total_guesses", "max", "histogram")
    assert [first[k] for k in figures] == [again[k] for k in figures] == [clingo[k] for k in figures]
    # Every game won (a game that makes no progress stops the bench: exit 1).
    assert first["games"] == sum(first["histogram"].values()) == 6


def test_every_game_of_a_small_space_is_won_under_each_rule():
    for feedback in ("black", "positional"):
        rules = Rules(3, 4, feedback=feedback)
        engine = make_engine("python", rules)
        for secret in consistent(rules, []):
            played = [g for g, _ in play(engine, sampler(rules, 1, 10), secret).guesses]
            assert played[-1] == secret and len(set(played)) == len(played)


def test_a_rule_of_your_own_beyond_the_exact_scorer_is_refused_in_one_line(run):
    # No compiled feedback to sample with: a rule of one's own is played where the exact scorer reads its table.
    rule = ROOT / "examples" / "shared_colours.py"
    one_line_error(run("next", *PY, "--pegs", 7, "--feedback", rule, "--strategy", "sample-entropy"), 2,
                   "--strategy sample-entropy scores a rule of your own from its feedback table, in games of at most "
                   "40,000 codes; 7x6 feedback shared_colours.py has 279,936: use --strategy first, any or random")


@pytest.mark.parametrize("feedback", ["black", "positional"])
def test_a_time_limit_still_ends_a_walked_game(monkeypatch, feedback):
    # No time for any walk step: each guess comes from the engine's near(), one code at a time.
    monkeypatch.setattr(sampled_module, "LIST_SPACE", 0)
    rules = Rules(7, 6, feedback=feedback)
    secret = (5, 0, 3, 3, 1, 4, 0)
    strategy = SampleEntropy(rules, seed=1, k=50, time_limit=1e-9)
    record = play(make_engine("python", rules), strategy, secret)
    assert record.guesses[-1][0] == secret
    assert strategy.last == {"source": "walk", "codes": 1, "start": "engine"}
