"""The four scorers under every feedback rule: the kernel's pick is the brute-force contract pick.

``best_guess`` takes the rule (black pegs from packed words or plain codes, positional marks from
plain codes, hashed past :data:`~mm_logic.kernels.scoring.POSITIONAL_PEGS`), and the strategy passes
bounds and symmetries that hold for it: the colour-group bound for black pegs but not for positional
marks, and no moves of positions under the positional rule (its ``o`` marks go to the earlier pegs
first). Each pick is checked against :func:`generators.contract_pick`, which ranks every code by the
textbook feedback (:func:`generators.brute_score`, no code shared with the package), and benches over
every secret against a brute-force tree and across the engines.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mm_logic.codespace import code_space
from mm_logic.engines import make_engine
from mm_logic.feedback import rule_of
from mm_logic.kernels.scoring import HASHED
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy
from mm_logic.strategies.scoring import table_guess
from mm_logic.studies.bench import bench_all
from mm_logic.symmetry import orbit_representatives

from conftest import SCORERS
from generators import OWN_RULES, SCORER_RANKS, brute_score, contract_pick, own_rule_file, own_score

RANKS = SCORER_RANKS
#: Small spaces: unlimited, no-repeat, at most two, two pegs of many colours.
SPACES = [(3, 3, None), (4, 4, None), (3, 4, 1), (2, 5, None), (4, 3, 2)]
OTHER_RULES = ("black", "positional")


def valid_codes(rules: Rules) -> list[tuple[int, ...]]:
    return [code for code in itertools.product(range(rules.colors), repeat=rules.pegs)
            if max(Counter(code).values()) <= rules.repeat_limit]


def random_histories(rules: Rules, rng, count: int):
    """The empty history, then histories of 1 to 3 random guesses scored by a random secret (brute force),
    each with its consistent codes."""
    codes = valid_codes(rules)
    yield [], codes
    for _ in range(count):
        secret = codes[rng.integers(len(codes))]
        history = []
        for _ in range(int(rng.integers(1, 4))):
            guess = codes[rng.integers(len(codes))]
            history.append((guess, brute_score(rules, guess, secret)))
        alive = [c for c in codes if all(brute_score(rules, g, c) == fb for g, fb in history)]
        if len(alive) > 2:
            yield history, alive


@pytest.mark.parametrize("feedback", OTHER_RULES)
@pytest.mark.parametrize("pegs, colors, repeat", SPACES, ids=lambda v: str(v))
def test_each_scorer_picks_the_brute_force_contract_pick(feedback, pegs, colors, repeat):
    rules = Rules(pegs, colors, repeat, feedback=feedback)
    space = code_space(rules)
    codes = valid_codes(rules)
    strategies = {name: make_strategy(name, rules) for name in SCORERS}
    rng = np.random.default_rng(pegs * 100 + colors)
    for history, alive in random_histories(rules, rng, 8):
        indices = space.index_of(alive).astype(np.int64)
        for name, strategy in strategies.items():
            expected = contract_pick(codes, alive, RANKS[name], rules)
            assert strategy.best(space, history, indices) == expected, (name, history)
            # The whole space as candidates, no symmetry: the same pick.
            assert strategy.best(space, history, indices, symmetric=False) == expected, (name, history)


@pytest.mark.parametrize("pegs, colors, repeat", [(3, 3, None), (4, 4, None), (3, 4, 1), (5, 3, None)],
                         ids=lambda v: str(v))
def test_the_hashed_count_of_positional_marks_picks_as_the_array(pegs, colors, repeat):
    # Past 13 pegs the marks are numbered densely through a hash table: forced here on small spaces.
    rules = Rules(pegs, colors, repeat, feedback="positional")
    space = code_space(rules)
    codes = valid_codes(rules)
    rng = np.random.default_rng(7)
    for name in SCORERS:
        strategy = make_strategy(name, rules)
        strategy._rule = HASHED
        for history, alive in random_histories(rules, rng, 4):
            indices = space.index_of(alive).astype(np.int64)
            assert strategy.best(space, history, indices) == contract_pick(codes, alive, RANKS[name], rules)


def test_long_positional_codes_play_through_the_hash():
    # 14 pegs of 2 colours: 3**14 slots would not be an array per search; the hashed count plays.
    rules = Rules(14, 2, feedback="positional")
    strategy = make_strategy("minimax", rules)
    assert strategy._rule == HASHED
    secret = (0, 1) * 7
    engine = make_engine("python", rules)
    from mm_logic.game import play
    record = play(engine, strategy, secret)
    assert record.guesses[-1][0] == secret


def test_positions_are_not_a_symmetry_of_positional_marks():
    # 011 against 120 gives oo-, the pegs reversed 110 against 021 give o-o: the moves stay off.
    rules = Rules(3, 3, feedback="positional")
    assert rule_of(rules).score((0, 1, 1), (1, 2, 0)) == (1, 1, 0)
    assert rule_of(rules).score((1, 1, 0), (0, 2, 1)) == (1, 0, 1)
    space = code_space(rules)
    # Opening: only the colours are free, so one code per pattern of colours, not per multiset.
    kept = {space.code(i) for i in orbit_representatives(space, [])}
    assert (0, 1, 0) in kept and (0, 0, 1) in kept and (0, 1, 1) in kept
    standard = code_space(Rules(3, 3))
    assert (0, 1, 0) not in {standard.code(i) for i in orbit_representatives(standard, [])}


@pytest.mark.parametrize("feedback", OTHER_RULES)
@pytest.mark.parametrize("rules", [Rules(3, 4), Rules(3, 3, 1), Rules(2, 5)], ids=str)
def test_every_orbits_smallest_code_is_a_candidate(feedback, rules):
    # The group of the colour (and, for black pegs, position) permutations that map the consistent set
    # onto itself, found by brute force (each keeps the rule's feedback): its orbits' smallest codes
    # must all be kept.
    rules = Rules(rules.pegs, rules.colors, rules.max_repeat, feedback=feedback)
    space = code_space(rules)
    codes = valid_codes(rules)
    rng = np.random.default_rng(5)
    positions = list(itertools.permutations(range(rules.pegs))) if feedback == "black" else [tuple(range(rules.pegs))]
    moves = [(sigma, pi) for sigma in positions for pi in itertools.permutations(range(rules.colors))]

    def act(sigma, pi, x):
        return tuple(pi[x[sigma[q]]] for q in range(rules.pegs))

    for history, alive in random_histories(rules, rng, 20):
        consistent = set(alive)
        group = [(s, p) for s, p in moves if {act(s, p, x) for x in consistent} == consistent]
        smallest = {i for i, code in enumerate(codes) if all(act(s, p, code) >= code for s, p in group)}
        indices = space.index_of(alive).astype(np.int64)
        assert smallest <= set(orbit_representatives(space, history, indices).tolist()), history


def brute_bench(rules: Rules, rank) -> tuple[int, int]:
    """Total guesses and the most over every secret of a scorer, by brute force: the tree of contract
    picks (:func:`contract_pick`), every code a guess, the textbook feedback."""
    codes = valid_codes(rules)
    total = worst = 0
    stack = [(codes, 1)]
    while stack:
        alive, depth = stack.pop()
        guess = contract_pick(codes, alive, rank, rules)
        parts: dict = {}
        for code in alive:
            parts.setdefault(brute_score(rules, guess, code), []).append(code)
        for part in parts.values():
            if part == [guess]:
                total, worst = total + depth, max(worst, depth)
            else:
                stack.append((part, depth + 1))
    return total, worst


@pytest.mark.parametrize("feedback", OTHER_RULES)
@pytest.mark.parametrize("name", SCORERS)
@pytest.mark.parametrize("pegs, colors, repeat", [(3, 3, None), (3, 4, 1), (4, 3, None)], ids=lambda v: str(v))
def test_a_bench_over_every_secret_is_the_brute_force_tree(feedback, name, pegs, colors, repeat):
    rules = Rules(pegs, colors, repeat, feedback=feedback)
    result = bench_all(make_engine("python", rules), make_strategy(name, rules))
    assert (result.total_guesses, result.max) == brute_bench(rules, RANKS[name])


@pytest.mark.parametrize("feedback", OTHER_RULES)
@pytest.mark.parametrize("name", SCORERS)
def test_benches_agree_on_every_engine(run_json, feedback, name):
    # Each engine counts the consistent codes at every node of the tree (bench --all): the same totals.
    args = ["--pegs", 3, "--colors", 4, "--feedback", feedback, "--strategy", name, "--all"]
    found = {backend: run_json("bench", "--backend", backend, *args) for backend in ("python", "clingo", "swipl")}
    assert len({(out["total_guesses"], out["max"], json_key(out["histogram"])) for out in found.values()}) == 1


def json_key(histogram: dict) -> tuple:
    return tuple(sorted(histogram.items()))


@pytest.mark.parametrize("feedback", OTHER_RULES)
@pytest.mark.parametrize("rules", [Rules(4, 6), Rules(5, 3), Rules(3, 9), Rules(4, 6, 1)], ids=str)
def test_the_kernel_picks_what_the_feedback_table_picks(feedback, rules):
    # Larger spaces, against the rule's own table (row by row from FeedbackRule.indices, numpy): moving
    # positions under the positional rule changed picks here (4x6, one guess).
    rules = Rules(rules.pegs, rules.colors, rules.max_repeat, feedback=feedback)
    space = code_space(rules)
    rule = rule_of(rules)
    rng = np.random.default_rng(rules.size)
    strategies = [make_strategy(name, rules) for name in SCORERS]
    for _ in range(10):
        alive = np.arange(space.size)
        history = []
        secret = space.code(rng.integers(space.size))
        for _ in range(int(rng.integers(0, 3))):
            guess = space.code(rng.integers(space.size))
            fb = rule.score(guess, secret)
            history.append((guess, fb))
            alive = alive[space.feedback_to(guess, alive) == rule.index(fb, rules.pegs)]
        alive = alive.astype(np.int64)
        for strategy in strategies:
            assert strategy.best(space, history, alive) == table_guess(strategy, alive), (strategy.name, history)


def test_a_pick_that_moving_positions_would_change():
    rules = Rules(4, 6, feedback="positional")
    space = code_space(rules)
    history = [((2, 2, 1, 0), (0, 0, 1, 0))]
    alive = [c for c in valid_codes(rules) if brute_score(rules, (2, 2, 1, 0), c) == (0, 0, 1, 0)]
    pick = make_strategy("minimax", rules).best(space, history, space.index_of(alive).astype(np.int64))
    assert pick == contract_pick(valid_codes(rules), alive, max, rules) == (1, 1, 3, 4)


@pytest.mark.parametrize("name", SCORERS)
@pytest.mark.parametrize("rules", [Rules(4, 4, feedback="black"), Rules(4, 4, feedback="positional"),
                                   Rules(3, 4, 1, feedback="black"), Rules(3, 4, 1, feedback="positional")], ids=str)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_no_guess_beats_the_bounds_the_strategy_uses(name, rules, data):
    # Any set of codes: every guess ranks at least the bound of its size (and of the colour groups, which
    # the strategy uses for black pegs only), every guess outside the set at least the outside bound.
    space = code_space(rules)
    chosen = data.draw(st.sets(st.integers(0, space.size - 1), min_size=1, max_size=40))
    alive = np.array(sorted(chosen), dtype=np.int64)
    strategy = make_strategy(name, rules)
    strategy._tables(space, alive.size)
    inside, outside = strategy._bounds_of(space, alive)
    counts = np.stack([np.bincount(row, minlength=strategy.slots) for row in space.table[:, alive]])
    costs = strategy.cost(counts)
    assert costs.min() >= inside
    outsiders = np.setdiff1d(np.arange(space.size), alive)
    if outsiders.size:
        assert costs[outsiders].min() >= outside


@pytest.mark.parametrize("name", ["expected", "entropy", "parts"])
@pytest.mark.parametrize("feedback, parts", [("black", 5), ("positional", 14), ("positional", 77)])
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_codes_not_yet_counted_add_at_least_the_rest_bound(name, feedback, parts, data):
    # As for the standard rule (test_exact_scoring.py), with each rule's classes (4 pegs: 5 black counts,
    # 77 mark patterns that occur): a candidate is never dropped too early.
    final = data.draw(st.lists(st.integers(0, 60), min_size=parts, max_size=parts))
    partial = [data.draw(st.integers(0, size)) for size in final]
    strategy = make_strategy(name, Rules(4, 6, feedback=feedback))
    sizes = np.arange(sum(final) + 1)
    rest = strategy.rest_bound(sizes, strategy.part(sizes))
    left = sum(final) - sum(partial)
    ranks = strategy.cost(np.array([final, partial], dtype=np.int64))
    assert ranks[0] >= ranks[1] + rest[left]


#: The rules the one search kernel is checked under: its compiled ones, and rules of one's own (the
#: feedback table, :data:`~mm_logic.kernels.scoring.TABLE`).
KERNEL_RULES = ("standard", "black", "positional", "first_half", "shared", "parity", "colour_zero")


@pytest.fixture(scope="module")
def own_rules(tmp_path_factory):
    folder = tmp_path_factory.mktemp("own_rules")
    return {stem: own_rule_file(folder, stem) for stem in OWN_RULES}


@settings(max_examples=150, deadline=None)
@given(feedback=st.sampled_from(KERNEL_RULES), name=st.sampled_from(SCORERS), pegs=st.integers(2, 4),
       colors=st.integers(2, 4), repeat=st.sampled_from([None, 1, 2]), data=st.data())
def test_the_one_kernel_picks_the_brute_force_best_guess_under_every_rule(own_rules, feedback, name, pegs, colors,
                                                                            repeat, data):
    # One search for every rule (the rule's compiled feedback, or a rule of one's own's table): after a
    # random history, with the strategy's own bounds and symmetries, the pick of a brute force that
    # scores every code by the textbook feedback (or the rule's own score, the win told apart).
    if repeat is not None and repeat * colors < pegs:
        repeat = None
    own = feedback in OWN_RULES
    rules = Rules(pegs, colors, repeat, feedback=own_rules[feedback] if own else feedback)
    answer = own_score(feedback) if own else None

    def told(guess, code):
        return ("won" if guess == code else answer(guess, code)) if own else brute_score(rules, guess, code)

    space = code_space(rules)
    codes = valid_codes(rules)
    secret = data.draw(st.sampled_from(codes))
    history = [(guess, told(guess, secret)) for guess in data.draw(st.lists(st.sampled_from(codes), max_size=2))]
    alive = [c for c in codes if all(told(g, c) == fb for g, fb in history)]
    strategy = make_strategy(name, rules)
    pick = strategy.best(space, [] if own else history, space.index_of(alive).astype(np.int64))
    assert pick == contract_pick(codes, alive, RANKS[name], rules if not own else None, answer), (feedback, history)
