"""The search for a strategy within D guesses against every liar (``mm_logic.liar.within``).

Exhaustive, it answers as ``mm_logic.liar.optimal``'s proof does: the least D it finds a strategy for is the least worst
case, and D - 1 is proved impossible. Every tree it finds is walked here apart from the package, with the
textbook feedback of ``generators``: every secret, every way of answering it with at most K lies.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from itertools import product

import numpy as np
import pytest

from mm_logic.kernels.lies_within import one_lie_bound
from mm_logic.liar.optimal import least_worst_case
from mm_logic.liar.within import check, finishes, parse_widths, search_within, tree_json
from mm_logic.lies import answerable
from mm_logic.rules import Rules
from mm_logic.support.errors import BadInput

from conftest import py_path
from generators import brute_score

SMALL = [Rules(2, 3, lies=1), Rules(2, 4, lies=1), Rules(3, 2, lies=1), Rules(3, 3, lies=1), Rules(4, 2, lies=1),
         Rules(2, 3, lies=2), Rules(2, 3, feedback="positional", lies=1)]


def brute_games(rules: Rules, tree: dict) -> Counter:
    """The games of a tree's JSON form (standard rule), by brute force: each secret answered truly and, while
    lies are left, with every other answer the liar may give (``lies.answerable``: every (B, W) with B + W at
    most the pegs but (pegs - 1, 1), which with 2 colours includes a few no pair of codes gives) but the
    win; guesses until the secret."""
    codes = list(product(range(rules.colors), repeat=rules.pegs))
    codes = [c for c in codes if max(Counter(c).values()) <= rules.repeat_limit]
    pegs = rules.pegs
    answers = [(b, w) for b in range(pegs + 1) for w in range(pegs + 1 - b) if (b, w) != (pegs - 1, 1)]
    win = (pegs, 0)
    text = {fb: ",".join(map(str, fb)) for fb in answers}  # the standard rule's B,W
    games: Counter = Counter()

    def walk(node: dict, secret: tuple, lies: int, guesses: int) -> None:
        guess = tuple(int(ch) for ch in node["guess"] if ch.isdigit())
        truth = brute_score(rules, guess, secret)
        if truth == win:
            games[guesses + 1] += 1
            return
        for fb in [truth] + ([a for a in answers if a not in (truth, win)] if lies else []):
            walk(node["answers"][text[fb]], secret, lies - (fb != truth), guesses + 1)

    for secret in codes:
        walk(tree, secret, rules.lies, 0)
    return games


@pytest.mark.parametrize("rules", SMALL, ids=lambda r: r.describe())
def test_the_exhaustive_search_finds_the_least_worst_case_and_proves_one_less_impossible(rules):
    least = least_worst_case(rules).worst_case
    below, at = search_within(rules, least - 1), search_within(rules, least)
    assert (below.found, below.proved) == (False, True)
    assert at.found and not at.timed_out
    report = check(rules, at.tree)
    assert report.missing == [] and report.worst == least
    walked = brute_games(rules, tree_json(rules, at.tree)) if rules.feedback == "standard" else None
    if walked is not None:
        assert report.histogram == dict(sorted(walked.items()))
    assert check(rules, tree_json(rules, at.tree)) == report


@pytest.mark.parametrize("rules", [Rules(3, 3, lies=1), Rules(2, 4, lies=1), Rules(4, 2, lies=1)],
                         ids=lambda r: r.describe())
def test_the_counting_bound_never_refuses_a_set_that_can_be_finished(rules):
    # random sets of states: the exhaustive search with the bound and without it agree, and every set that can
    # be finished within d guesses has at most bound[d, fresh] used states
    rng = np.random.default_rng(40)
    size = rules.colors ** rules.pegs
    bound = one_lie_bound(4, 60, int(answerable(rules).sum()) - 1)  # the answers a liar may give: all but the win
    for _ in range(20):
        codes = rng.choice(size, size=int(rng.integers(2, size + 1)), replace=False)
        lies = (rng.random(codes.size) < rng.random()).astype(np.int8)
        for depth in (2, 3, 4):
            free = finishes(rules, codes, lies, depth, bounded=1)
            assert finishes(rules, codes, lies, depth) == free
            fresh = int((lies == 0).sum())
            assert not free or codes.size - fresh <= bound[depth, min(fresh, 60)]


@pytest.mark.parametrize("rules", [Rules(4, 6, lies=1), Rules(3, 4, lies=2), Rules(3, 3, feedback="black", lies=1)],
                         ids=lambda r: r.describe())
def test_the_kernel_s_parts_add_up_to_the_package_s_split_of_the_states(rules):
    from mm_logic.codespace import code_space
    from mm_logic.feedback import rule_of
    from mm_logic.kernels.lies_within import child_counts
    from mm_logic.lies import split_states

    space, rule = code_space(rules), rule_of(rules)
    win = rule.win_index(rules.pegs)
    lie_to = answerable(rules).copy()
    lie_to[win] = False
    rng = np.random.default_rng(7)
    for _ in range(5):
        codes = np.sort(rng.choice(space.size, size=int(rng.integers(1, min(space.size, 300))), replace=False))
        lies = rng.integers(0, rules.lies + 1, size=codes.size).astype(np.int8)
        guesses = rng.choice(space.size, size=20).astype(np.int64)
        counts = child_counts(space.table, guesses, codes, lies, rules.lies, win, lie_to)
        parts = split_states(rules, space.table[guesses][:, codes], lies)
        parts[:, win] = 0  # the win ends the game: no part follows it
        assert (counts.sum(axis=2) == parts).all()


def test_a_search_cut_above_full_depth_finds_a_strategy_that_the_brute_walk_accepts():
    rules = Rules(4, 3, lies=1)
    result = search_within(rules, 5, full=2, widths={3: 2, 4: 1, 5: 1})
    assert result.found and result.passes >= 1
    games = brute_games(rules, tree_json(rules, result.tree))
    assert max(games) <= 5 and check(rules, result.tree).histogram == dict(sorted(games.items()))


def test_check_finds_the_answers_a_tree_does_not_follow():
    rules = Rules(2, 2, lies=1)
    tree = tree_json(rules, search_within(rules, 4).tree)
    first = next(iter(tree["answers"]))
    del tree["answers"][first]
    report, whole = check(rules, tree), check(rules, search_within(rules, 4).tree)
    assert report.missing and all(guesses[0] == (0, 0) for _, guesses in report.missing)
    assert whole.missing == [] and report.games < whole.games


def test_bad_input_is_one_error():
    with pytest.raises(BadInput, match="at least one guess"):
        search_within(Rules(2, 3, lies=1), 0)
    with pytest.raises(BadInput, match="with lies"):
        search_within(Rules(2, 3), 3)
    with pytest.raises(BadInput, match="LEFT:WIDTH"):
        parse_widths("4=3")
    assert parse_widths("4:3,5:2") == {4: 3, 5: 2}


def test_the_script_prints_the_search_and_the_check_and_writes_the_tree(tmp_path):
    out = tmp_path / "tree.json"
    done = subprocess.run([sys.executable, str(py_path("lies_within")), "--pegs", "2", "--colors", "3", "--depth",
                           "5", "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "within   5 guesses: found" in done.stdout and "max        5" in done.stdout
    assert "missing    0" in done.stdout
    saved = json.loads(out.read_text())
    assert saved["within"] == 5 and len(saved["tree"]["guess"]) == 2 and saved["rules"]["lies"] == 1
    none = subprocess.run([sys.executable, str(py_path("lies_within")), "--pegs", "2", "--colors", "3", "--depth",
                           "4"], capture_output=True, text=True, timeout=120)
    assert none.returncode == 0 and "within   4 guesses: none exists (proved)" in none.stdout
    bad = subprocess.run([sys.executable, str(py_path("lies_within")), "--depth", "0"], capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode == 2 and "--depth" in bad.stderr


@pytest.mark.slow  # 5.5-9.3 s measured
def test_4x6_with_one_lie_has_no_strategy_within_6_guesses_and_the_saved_one_finishes_within_7():
    """docs/results/lies.md's figure: 4x6's least worst case against every liar (one lie) is 7."""
    from conftest import ROOT

    rules = Rules(4, 6, lies=1)
    six = search_within(rules, 6)
    assert (six.found, six.proved, six.timed_out) == (False, True, False)
    saved = json.loads((ROOT / "docs" / "results" / "lies-4x6-within-7.json").read_text())
    assert (saved["rules"], saved["within"]) == (rules.as_dict(), 7)
    report = check(rules, saved["tree"])
    assert (report.games, report.worst, report.missing) == (57504, 7, [])
