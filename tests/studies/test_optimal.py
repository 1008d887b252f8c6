"""mmlogic optimal: the exact search against a plain exhaustive search, its trees, the published optima, the CLI.

The reference below is written independently of the package: its own
feedback function (the other rules': generators.py's textbook ones), and a plain recursion that
tries every code as a guess at every set of codes still possible and sums the costs of every part
(no bound, no symmetry; a memo of the sets met). It is exponential, so it only runs on spaces
of a few dozen codes; there the search must find exactly its optimum, for
both objectives and under a depth limit, and the tree it returns must play
every secret to a win with exactly the histogram it reports.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from collections import Counter

import numpy as np
import pytest

from mm_logic.optimal.objectives import _expected_here, _expected_workers, _Run, optimal
from mm_logic.optimal.result import StoppedSearch
from mm_logic.optimal.searcher import Searcher, compile_kernels, perfect_split_bound
from mm_logic.optimal.tasks import openings
from mm_logic.rules import Rules
from mm_logic.support.errors import BadInput
from mm_logic.symmetry import GameSymmetry

from generators import BruteOptimum, brute_score


# -- the independent reference -----------------------------------------------------------------
def all_codes(rules: Rules) -> list[tuple[int, ...]]:
    limit = rules.repeat_limit
    return [c for c in itertools.product(range(rules.colors), repeat=rules.pegs)
            if max(Counter(c).values()) <= limit]


def marks(guess, secret) -> tuple[int, int]:
    black = sum(g == s for g, s in zip(guess, secret))
    common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return black, common - black


def reference_feedback(rules: Rules, guess, secret) -> tuple[int, ...]:
    """The game's feedback: :func:`marks` for the standard rule, else the textbook rule of generators.py."""
    return marks(guess, secret) if rules.feedback == "standard" else brute_score(rules, guess, secret)


class Exhaustive(BruteOptimum):
    """The brute force over every code of ``rules`` (:class:`generators.BruteOptimum`), by the reference feedback."""

    def __init__(self, rules: Rules, consistent_only: bool = False):
        super().__init__(all_codes(rules), lambda guess, secret: reference_feedback(rules, guess, secret),
                         consistent_only)


def play_tree(result) -> Counter:
    """Play the returned tree against every secret with the reference feedback: guesses per secret."""
    histogram: Counter = Counter()
    secrets = all_codes(result.rules)
    win = reference_feedback(result.rules, secrets[0], secrets[0])
    for secret in secrets:
        node, guesses = result.tree, 1
        while True:
            fb = reference_feedback(result.rules, node.guess, secret)
            if fb == win:
                break
            assert fb in node.children, f"no branch for {fb} after {node.guess}, secret {secret}"
            node, guesses = node.children[fb], guesses + 1
            assert guesses <= len(secrets)
        histogram[guesses] += 1
    return histogram


def check_tree(result) -> None:
    """The tree plays every secret to a win, with the reported histogram and total."""
    assert play_tree(result) == result.histogram
    assert result.total == sum(k * n for k, n in result.histogram.items())
    assert result.games == len(all_codes(result.rules))


# -- small spaces against the reference --------------------------------------------------------------
#: (rules, least total, least worst case): the reference's figures, asserted too so that a change in both shows.
SMALL = [
    (Rules(3, 2), 18, 3),
    (Rules(4, 2), 44, 4),
    (Rules(3, 3), 73, 4),
    (Rules(3, 3, max_repeat=2), 64, 3),
    (Rules(3, 4, max_repeat=1), 72, 4),
    (Rules(4, 4, max_repeat=1), 86, 5),
    # Black pegs only and positional marks (issue 37): no position moves under the positional rule.
    (Rules(3, 2, feedback="black"), 21, 4),
    (Rules(3, 3, feedback="black"), 95, 5),
    (Rules(3, 4, max_repeat=1, feedback="black"), 81, 5),
    (Rules(4, 2, feedback="black"), 52, 5),
    # The search renames colours on one peg alone under black pegs (every code like every other): 2x5, and
    # the permutation game n = 4 (no repetition: that symmetry does not hold, the usual ones do).
    (Rules(2, 5, feedback="black"), 105, 6),
    (Rules(4, 4, max_repeat=1, feedback="black"), 86, 5),
    (Rules(3, 3, feedback="positional"), 60, 3),
    (Rules(3, 4, max_repeat=1, feedback="positional"), 54, 3),
    (Rules(4, 2, feedback="positional"), 31, 2),
    (Rules(3, 3, max_repeat=2, feedback="positional"), 54, 3),
    # Positional marks are not symmetric (fb(g, s) != fb(s, g)): a search that read the table by secret
    # as by guess found 376 here.
    (Rules(3, 4, feedback="positional"), 170, 3),
    (Rules(3, 5, feedback="positional"), 374, 4),
]
IDS = [rules.describe() for rules, _, _ in SMALL]


@pytest.fixture(scope="module", params=SMALL, ids=IDS)
def small(request):
    rules, total, worst = request.param
    return rules, total, worst, Exhaustive(rules)


def test_expected_is_the_exhaustive_optimum(small):
    rules, total, _, reference = small
    assert reference.cost() == total
    result = optimal(rules, "expected")
    assert result.total == total
    assert result.openings[0].cost == total and result.openings[0].exact
    # Every other opening was proved to cost at least as much.
    assert all(b.cost is None or b.cost >= total for b in result.openings[1:])
    check_tree(result)


def test_worst_is_the_exhaustive_optimum(small):
    rules, _, worst, reference = small
    assert reference.worst() == worst
    result = optimal(rules, "worst")
    assert result.worst == worst
    assert result.impossible_depth == worst - 1
    # Then the least total among the strategies with that worst case, proved like the expected objective's.
    assert result.total == reference.cost(depth=worst)
    assert result.openings[0].cost == result.total and result.openings[0].exact
    check_tree(result)


def test_worst_case_alone_is_the_exhaustive_least_worst_case(small):
    rules, _, worst, reference = small
    result = optimal(rules, "worst-case")
    assert (result.worst, result.impossible_depth, result.objective) == (worst, worst - 1, "worst-case")
    # A strategy within the least worst case, not necessarily the cheapest of them.
    assert result.total >= reference.cost(depth=worst)
    check_tree(result)


def test_worst_case_alone_in_workers():
    # The feasibility of the parts is settled in the workers; the tree is rebuilt in this process.
    for rules in (Rules(3, 3), Rules(3, 4, max_repeat=1, feedback="black")):
        result = optimal(rules, "worst-case", jobs=2)
        assert (result.worst, result.jobs) == (optimal(rules, "worst").worst, 2)
        check_tree(result)


def test_depth_limits_match_the_exhaustive_optimum(small):
    rules, total, worst, reference = small
    # Within the least worst case (one guess more changes nothing here: it is the optimum's depth at most).
    assert reference.cost(depth=worst) == total
    for depth in (worst, worst + 1):
        result = optimal(rules, "expected", max_depth=depth)
        assert result.total == total and result.worst <= depth
        check_tree(result)
    # One guess fewer: no strategy at all (the reference's worst case says so).
    with pytest.raises(BadInput, match=f"within {worst - 1} guesses"):
        optimal(rules, "expected", max_depth=worst - 1)


def test_a_depth_limit_is_kept_where_an_optimum_goes_deeper():
    # 2x5 (the exhaustive search finds 81 too, in seconds): 81 needs no more than 4 guesses,
    # and the search within 3 proves there is none.
    within = optimal(Rules(2, 5), "expected", max_depth=4)
    assert (within.total, within.worst) == (81, 4)
    check_tree(within)
    assert optimal(Rules(2, 5), "expected").total == 81
    with pytest.raises(BadInput, match="within 3 guesses"):
        optimal(Rules(2, 5), "expected", max_depth=3)


# -- hard mode: every guess consistent ----------------------------------------------------------------
def guesses_consistent(result) -> bool:
    """Whether every guess of the tree is consistent with the answers on its path."""
    def walk(node, history) -> bool:
        if any(reference_feedback(result.rules, g, node.guess) != fb for g, fb in history):
            return False
        return all(walk(child, [*history, (node.guess, fb)]) for fb, child in node.children.items())
    return walk(result.tree, [])


@pytest.mark.parametrize("rules", [Rules(3, 3), Rules(4, 2), Rules(3, 4, max_repeat=1), Rules(3, 3, max_repeat=2),
                                   Rules(3, 3, feedback="black"), Rules(3, 3, feedback="positional"),
                                   Rules(4, 4, max_repeat=1, feedback="black")], ids=lambda r: r.describe())
def test_consistent_only_is_the_exhaustive_hard_mode_optimum(rules):
    reference = Exhaustive(rules, consistent_only=True)
    expected = optimal(rules, "expected", consistent_only=True)
    assert expected.total == reference.cost() and expected.consistent_only
    assert expected.total >= Exhaustive(rules).cost()  # fewer strategies: never cheaper
    assert guesses_consistent(expected)
    check_tree(expected)
    worst = optimal(rules, "worst", consistent_only=True)
    assert worst.worst == reference.worst() and worst.total == reference.cost(depth=worst.worst)
    assert guesses_consistent(worst)
    check_tree(worst)
    within = optimal(rules, "expected", max_depth=worst.worst, consistent_only=True)
    assert within.total == reference.cost(depth=worst.worst)


def test_consistent_only_on_2x6_takes_more_than_the_optimum_and_jobs_agree():
    # 2x6: hard mode costs more than the optimum (134 against 132: an inconsistent guess pays there); two
    # processes agree.
    rules = Rules(2, 6)
    free, hard = optimal(rules, "expected").total, optimal(rules, "expected", consistent_only=True)
    assert hard.total == Exhaustive(rules, consistent_only=True).cost() > free
    assert optimal(rules, "expected", jobs=2, consistent_only=True).total == hard.total
    assert guesses_consistent(hard)


# -- black pegs: a colour renamed on one peg alone -----------------------------------------------------
def brute_black_moves(rules: Rules, history: list) -> set:
    """The peg permutations sigma for which renaming each peg's colours can map every guess onto itself:
    column ``sigma[p]`` of the history onto column ``p``, one to one."""
    found = set()
    for sigma in itertools.permutations(range(rules.pegs)):
        ok = True
        for p in range(rules.pegs):
            pairs = {(g[sigma[p]], g[p]) for g in history}
            ok &= len({a for a, _ in pairs}) == len(pairs) == len({b for _, b in pairs})
        if ok and sigma != tuple(range(rules.pegs)):
            found.add(sigma)
    return found


@pytest.mark.parametrize("history", [[(0, 0, 1)], [(0, 1, 2), (1, 1, 0)], [(0, 0, 0), (0, 1, 1), (2, 1, 0)],
                                     [(1, 2, 0), (2, 0, 1)]], ids=str)
def test_per_peg_moves_fix_the_history_and_keep_black_pegs(history):
    from mm_logic.kernels.optimal.arrays import peg_permutations, tagged_codes
    from mm_logic.kernels.optimal.node_symmetry import peg_moves
    from mm_logic.optimal.searcher import per_peg_symmetry
    rules = Rules(3, 4, feedback="black")
    assert per_peg_symmetry(rules) and not per_peg_symmetry(Rules(3, 4, max_repeat=1, feedback="black"))
    assert not per_peg_symmetry(Rules(3, 4)) and not per_peg_symmetry(Rules(3, 4, feedback="positional"))
    codes = all_codes(rules)
    tagged = tagged_codes(np.array(codes), rules.colors)
    assert tagged[codes.index((1, 2, 3))].tolist() == [1, 4 + 2, 8 + 3]  # colour c on peg p: p * colours + c
    hist = tagged_codes(np.array(history), rules.colors)
    sigmas, pis = peg_moves(hist, len(history), peg_permutations(rules.pegs, True), rules.pegs * rules.colors)
    assert {tuple(s) for s in sigmas.tolist()} == brute_black_moves(rules, history)

    def move(code, sigma, pi):
        # y[p] = pi[x[sigma[p]]] on tagged colours, back to the colour on peg p.
        return tuple(int(pi[code[sigma[p]] + sigma[p] * rules.colors]) - p * rules.colors for p in range(rules.pegs))

    for sigma, pi in zip(sigmas, pis):
        image = [move(c, sigma, pi) for c in codes]
        assert sorted(image) == codes  # a permutation of the codes
        assert all(move(g, sigma, pi) == g for g in history)
        for x, y in itertools.product(range(0, len(codes), 5), range(len(codes))):
            assert brute_score(rules, image[x], image[y]) == brute_score(rules, codes[x], codes[y])


@pytest.mark.parametrize("rules", [Rules(4, 3, feedback="black"), Rules(3, 4, feedback="black")], ids=str)
def test_per_peg_symmetry_changes_no_optimum(rules, monkeypatch):
    # The search with only the symmetries of the other rules (five openings of 4x3, not one) finds the same.
    import mm_logic.optimal.objectives as module
    fast = [optimal(rules, objective) for objective in ("expected", "worst")]
    nothing = [optimal(rules, objective, symmetric=False) for objective in ("expected", "worst")]
    monkeypatch.setattr(module, "game_symmetry", lambda rules, secrets=None: GameSymmetry(True, True))
    plain = [optimal(rules, objective) for objective in ("expected", "worst")]
    assert len(fast[0].openings) == 1 and 1 < len(plain[0].openings) < len(nothing[0].openings) == rules.size
    for a, b, c in zip(fast, plain, nothing):
        assert (a.total, a.worst) == (b.total, b.worst) == (c.total, c.worst)
        check_tree(a)


# -- the published figures -------------------------------------------------------------------------
def test_mastermind_4x6_least_total_is_koyama_and_lai():
    result = optimal(Rules(4, 6), "expected")
    assert (result.total, result.worst, round(result.mean, 3)) == (5625, 6, 4.340)
    assert result.opening == (0, 0, 1, 2)
    # 0000 0001 0011 0012 0123, each with its cost or a bound between the optimum and its own cost
    # (each opening's cost: every part searched without a budget).
    costs = {(0, 0, 1, 2): 5625, (0, 1, 2, 3): 5673, (0, 0, 1, 1): 5702, (0, 0, 0, 1): 5791, (0, 0, 0, 0): 6318}
    assert sorted(b.opening for b in result.openings) == sorted(costs)
    assert all(5625 <= b.cost <= costs[b.opening] for b in result.openings)
    check_tree(result)


def test_mastermind_4x6_within_five_guesses_costs_one_more():
    result = optimal(Rules(4, 6), "expected", max_depth=5)
    assert (result.total, result.worst) == (5626, 5)
    check_tree(result)


def test_mastermind_4x6_least_worst_case_is_knuths_five_then_koyama_and_lais_5626():
    result = optimal(Rules(4, 6), "worst")
    assert result.worst == 5 and result.impossible_depth == 4
    # Not the least total (5625 needs six guesses once) but the least of those within five.
    assert (result.total, result.opening) == (5626, (0, 0, 1, 2))
    assert result.histogram == Counter({1: 1, 2: 8, 3: 101, 4: 624, 5: 562})
    check_tree(result)


# -- bounds, processes, interruption --------------------------------------------------------------
def test_perfect_split_bound():
    # 13 non-winning feedbacks (4 pegs): one code at the 1st guess, 13 at the 2nd, then 169 at the 3rd.
    bound = perfect_split_bound(200, 13)
    assert bound[:4].tolist() == [0, 1, 3, 5]
    assert bound[14] == 27 and bound[15] == 30
    assert bound[183] == 1 + 2 * 13 + 3 * 169 and bound[184] == bound[183] + 4


@pytest.mark.slow  # 18.6 s measured (12.2 s warm)
def test_processes_find_the_same_optimum():
    one = optimal(Rules(4, 4, max_repeat=1), "expected")
    two = optimal(Rules(4, 4, max_repeat=1), "expected", jobs=2)
    assert (two.total, two.histogram) == (one.total, one.histogram)
    check_tree(two)
    worst = optimal(Rules(4, 4, max_repeat=1), "worst", jobs=2)
    assert (worst.worst, worst.total) == (5, 86)
    check_tree(worst)
    # 4x6: the least total needs six guesses, so the workers search again within five.
    worst = optimal(Rules(4, 6), "worst", jobs=2)
    assert (worst.worst, worst.total, worst.histogram) == (5, 5626, Counter({1: 1, 2: 8, 3: 101, 4: 624, 5: 562}))
    check_tree(worst)


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_opening_searched_whole_then_beaten_keeps_its_exact_cost(jobs):
    # 3x4's most promising opening, 012, is searched first with no budget, then 001 beats it: its cost is
    # exact in one process and in the workers alike (the workers once said only ">=208").
    rules = Rules(3, 4)
    reference = Exhaustive(rules)
    assert {code: reference.opening_cost(code) for code in [(0, 0, 1), (0, 1, 2)]} == {(0, 0, 1): 206, (0, 1, 2): 208}
    searcher = Searcher(rules)
    assert searcher.code(openings(searcher, None)[0].index) == (0, 1, 2)
    result = optimal(rules, "expected", jobs=jobs)
    assert [(b.opening, b.cost, b.exact) for b in result.openings[:2]] == [
        ((0, 0, 1), 206, True), ((0, 1, 2), 208, True)]
    assert (result.openings[2].opening, result.openings[2].exact) == ((0, 0, 0), False)
    assert result.openings[2].cost >= 206


class BackwardsWorkers:
    """Workers that finish the openings last to first (each opening's parts in order), in this process."""

    def __init__(self, searcher: Searcher):
        self.searcher = searcher

    def run(self, plan, tasks, skip, budget, done, depth, worst=False, status=str):
        places = {index: i for i, index in enumerate(dict.fromkeys(o.index for o, _, _ in tasks))}
        for task in sorted(tasks, key=lambda t: -places[t[0].index]):
            if skip(task):
                continue
            opening, _, part = task
            limit = budget(task)
            value = self.searcher.cost(part, [opening.index], depth, limit)
            done(task, value, self.searcher.subtree(part, [opening.index], depth) if value < limit else None, limit)


def test_the_winner_is_the_first_of_the_least_cost_whatever_order_the_workers_finish_in():
    # Positional 4x3: six openings tie at 193, 0011 costs 194. Searched first, 0011 loses; the six are then
    # settled last to first, and each one before the best so far needs only to tie it: the first of them wins.
    rules = Rules(4, 3, feedback="positional")
    reference = Exhaustive(rules)
    searcher = Searcher(rules)
    found = openings(searcher, None)
    exact = {searcher.code(o.index): reference.opening_cost(searcher.code(o.index)) for o in found}
    tied = [o for o in found if exact[searcher.code(o.index)] == 193]
    assert len(tied) == 6 and exact[(0, 0, 1, 1)] == 194
    candidates = [next(o for o in found if searcher.code(o.index) == (0, 0, 1, 1))] + tied
    backwards = _Run(searcher, None, None, BackwardsWorkers(searcher))
    best, winner, proved, _ = _expected_workers(backwards, candidates, None)
    assert (best, searcher.code(winner.index)) == (193, searcher.code(tied[0].index))
    assert proved[candidates[0].index] == (194, True)
    assert all(cost >= 193 for cost, _ in proved.values())
    alone = _expected_here(_Run(Searcher(rules), None, None), candidates, None)
    assert (alone[0], alone[1].index) == (best, winner.index)


# The worst-case search tries within 5 guesses, then 6: a loaded machine may say its first line after 5 is done.
@pytest.mark.parametrize("objective, head", [("expected", ""), ("worst", "within [56] guesses: ")])
def test_progress_says_where_the_search_is_and_ctrl_c_stops_it_at_once(objective, head):
    said = []

    def interrupt(status: str) -> None:
        said.append(status)
        if len(said) == 3:
            raise KeyboardInterrupt

    before = threading.active_count()
    assert isinstance(optimal(Rules(4, 10, max_repeat=1), objective, progress=interrupt), StoppedSearch)
    assert threading.active_count() == before  # the search thread has returned
    # 4x10 without repeats has one opening up to symmetry; its first part to search holds 1,440 codes
    # The expected search says what it has proved so far: the least total of any strategy, the best found.
    where = (r"(within [5-9] guesses: )?opening 0123 \(1 of 1\), part 1 of 13 \(1,440 codes\)"
             r"(, guess [1-9]\d*)?, (1 position|\d[\d,]* positions)(; total at least 2[\d,]+, best \?)?")
    assert re.match(head + "opening 0123", said[0])
    assert all(re.fullmatch(where, text) and text.startswith("within") == (objective == "worst") for text in said)
    assert all(("; total at least" in text) == (objective == "expected") for text in said)


@pytest.mark.parametrize("jobs", [1, 2])
def test_with_no_terminal_the_progress_is_a_line_now_and_then(run, monkeypatch, jobs):
    # A search of hours run under nohup or as a batch job has no spinner to draw: its log gets the status every
    # LOGGED_EVERY seconds (here at every status, 0), with the positions searched and the rate once known.
    import mm_logic.cli.studies as command

    monkeypatch.setattr(command, "LOGGED_EVERY", 0)
    result = run("optimal", "--pegs", 4, "--colors", 4, "--jobs", jobs)
    assert result.exit_code == 0 and re.search(r"^total +905$", result.stdout, re.MULTILINE)
    lines = [line for line in result.stderr.splitlines() if not line.startswith("note: compiling")]
    here = r"opening \d{4} \(\d of 5\), part \d+ of \d+ \([\d,]+ codes\)(, guess \d+)?, [\d,]+ positions?; " \
           r"total at least [\d,]+, best (\?|905)"
    workers = r"\d+ of \d+ parts searched( \([\d,]+ guesses of \d+ large parts\))? in 2 processes, " \
              r"best so far (\?|905)(, [\d,]+ positions \([\d,]+ a second a worker\))?"
    assert lines and all(re.fullmatch(r"progress \(0 min\): " + (here if jobs == 1 else workers), line)
                         for line in lines), lines[:3]
    if jobs == 2:
        assert "a second a worker" in lines[-1]


def test_with_no_terminal_the_first_progress_line_comes_soon(run, monkeypatch):
    # Every LOGGED_EVERY (300 s) from the start: 5x6's exact search said nothing for five minutes. The first line
    # comes after FIRST_LOGGED seconds (here at once), the next ones LOGGED_EVERY apart.
    import mm_logic.cli.studies as command

    monkeypatch.setattr(command, "FIRST_LOGGED", 0)
    result = run("optimal", "--pegs", 4, "--colors", 4)
    lines = [line for line in result.stderr.splitlines() if not line.startswith("note: compiling")]
    assert result.exit_code == 0 and len(lines) == 1 and lines[0].startswith("progress (0 min): opening "), lines


def test_a_search_stopped_halfway_says_what_it_proved(run, tmp_path, monkeypatch):
    import mm_logic.optimal.objectives as search

    rules = Rules(4, 4)
    candidates = search.openings(search.Searcher(rules), None)
    bound = min(o.bound for o in candidates)
    calls = []
    real = search._settled_cost

    def settle_then_stop(*args):
        calls.append(args)
        if len(calls) == 17:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(search, "_settled_cost", settle_then_stop)
    stopped = optimal(rules, "expected")  # a value, not a KeyboardInterrupt carrying one
    assert isinstance(stopped, StoppedSearch) and (stopped.objective, stopped.journal) == ("expected", None)
    lower, best = stopped.lower_bound, stopped.best
    # The first opening was settled (the optimum, 905); the parts settled since raised the bounds of the others
    # above the least of them, never past the optimum.
    assert best == 905 and bound < lower < 905
    journal = tmp_path / "j.jsonl"
    calls.clear()
    result = run("optimal", "--pegs", 4, "--colors", 4, "--journal", journal)
    assert result.exit_code == 130 and result.stdout == ""
    assert result.stderr == (f"note: stopped: no strategy takes fewer than {lower} guesses in all, the best "
                             "strategy found so far takes 905\n"
                             f"note: what was settled is in {journal}: the same command resumes from it\n"
                             "interrupted\n")
    assert len(journal.read_text().splitlines()) == 1 + 16


def test_a_search_in_workers_stopped_halfway_says_what_it_proved_too():
    # Stopped once the first opening is settled (its cost, 905, the best so far), the workers' search proves as
    # much as one process's: the least of the openings' bounds, raised by the parts settled, and the best found.
    def stop_after_the_first_opening(status: str) -> None:
        if "best so far 905" in status:
            raise KeyboardInterrupt

    rules = Rules(4, 4)
    bound = min(o.bound for o in openings(Searcher(rules), None))
    stopped = optimal(rules, "expected", jobs=2, progress=stop_after_the_first_opening)
    assert isinstance(stopped, StoppedSearch)
    assert stopped.best == 905 and bound <= stopped.lower_bound <= 905


@pytest.mark.parametrize("objective", ["worst-case", "worst"])
def test_a_worst_case_search_stopped_says_the_depth_it_proved_impossible(run, tmp_path, monkeypatch, objective):
    # It said nothing of what it had proved. 4x4: 3 guesses tell at most 183 codes apart of 256, so the search
    # begins within 4 (which it finds), stopped there.
    import mm_logic.optimal.objectives as search

    real = search._some_within

    def stop_at_four(run_, candidates, depth):
        if depth == 4:
            raise KeyboardInterrupt
        return real(run_, candidates, depth)

    monkeypatch.setattr(search, "_some_within", stop_at_four)
    stopped = optimal(Rules(4, 4), objective)
    assert stopped == StoppedSearch(Rules(4, 4), objective, impossible_depth=3, seconds=stopped.seconds)
    journal = tmp_path / "j.jsonl"
    result = run("optimal", "--pegs", 4, "--colors", 4, "--objective", objective, "--journal", journal)
    assert (result.exit_code, result.stdout) == (130, "")
    assert result.stderr == ("note: stopped: no strategy finds every code within 3 guesses\n"
                             f"note: what was settled is in {journal}: the same command resumes from it\n"
                             "interrupted\n")


def test_a_depth_limit_that_cannot_bind_and_a_mistyped_jobs_cost_nothing():
    # --max-depth 2147483648 asked for 448 GiB of tables; --jobs 10000 started 10,000 processes.
    free = optimal(Rules(3, 3), "expected")
    for depth in (27, 2**31):  # 27: every code of 3x3, so no game can be longer
        limited = optimal(Rules(3, 3), "expected", max_depth=depth)
        assert (limited.total, limited.histogram, limited.max_depth) == (free.total, free.histogram, depth)
    assert optimal(Rules(3, 3), "expected", jobs=10_000).total == free.total


def test_refusals():
    with pytest.raises(BadInput, match=r"^mmlogic optimal on 5x8 \(32,768 codes\) needs at least 1\.2 GiB \(its "
                                       r"feedback table 1\.0 GiB\) and has --memory 1\.0 GiB$"):
        optimal(Rules(5, 8), "expected", memory=1 << 30)
    with pytest.raises(BadInput, match="--max-depth applies to --objective expected"):
        optimal(Rules(3, 3), "worst", max_depth=4)


@pytest.mark.slow
def test_a_space_beyond_the_old_limit_of_5040_codes_is_searched():
    # 2x72: 5,184 codes, above bulls and cows' 5,040, the limit before the memory given set it (issue 38);
    # 400 MiB hold its feedback table (26 MB) and a table of 2**22 solved sets (138 MB).
    result = optimal(Rules(2, 72), "expected", memory=400 << 20)
    check_tree(result)
    assert (result.games, result.total, result.worst, result.table_entries) == (5184, 135212, 38, 2**22)


# -- the command line -------------------------------------------------------------------------------
def test_cli_json(run):
    result = run("optimal", "--pegs", "3", "--colors", "3", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["optimal"] == "total_guesses"
    assert (data["games"], data["total_guesses"], data["lower_bound"], data["max"]) == (27, 73, 73, 4)
    assert data["histogram"] == {"1": 1, "2": 7, "3": 18, "4": 1}
    assert data["opening"] == "001"
    assert data["rules"] == {"pegs": 3, "colors": 3, "max_repeat": None, "feedback": "standard"}


def test_the_openings_are_listed_best_first(run):
    # They came in search order after the winner: 0012 905, 0011 >=905, 0001 >=911, 0123 >=909, ... (their
    # exact costs, 912, 932, 954 and 1035, are above the bounds their searches against 905 proved).
    data = json.loads(run("optimal", "--pegs", "4", "--colors", "4", "--jobs", "1", "--json").stdout)
    assert [(o["opening"], o["cost"], o["exact"]) for o in data["openings"]] == [
        ("0012", 905, True), ("0011", 905, False), ("0123", 909, False), ("0001", 911, False), ("0000", 963, False)]


def test_cli_consistent_only_saves_a_tree_every_engine_replays(run, tmp_path):
    tree = tmp_path / "hard.json"
    result = run("optimal", "--pegs", 2, "--colors", 6, "--consistent-only", "--save-tree", tree)
    assert result.exit_code == 0, result.stderr
    lines = dict(line.split(None, 1) for line in result.stdout.splitlines())
    assert lines["objective"] == "least total guesses, every guess consistent (hard mode)"
    assert (lines["total"], lines["max"]) == ("134", "6")
    assert json.loads(tree.read_text())["strategy"] == "optimal-expected-consistent"
    data = json.loads(run("optimal", "--pegs", 2, "--colors", 6, "--consistent-only", "--json").stdout)
    assert (data["consistent_only"], data["total_guesses"]) == (True, 134)
    for backend in ("python", "clingo"):
        bench = json.loads(run("bench", "--backend", backend, "--strategy", f"tree:{tree}", "--pegs", 2,
                               "--colors", 6, "--all", "--json").stdout)
        assert (bench["total_guesses"], bench["max"]) == (134, 6)


def test_cli_text_and_worst(run):
    result = run("optimal", "--pegs", "3", "--colors", "4", "--no-repeat", "--objective", "worst")
    assert result.exit_code == 0, result.stderr
    lines = dict(line.split(None, 1) for line in result.stdout.splitlines())
    assert lines["max"] == "4"
    assert lines["objective"] == "least worst case, then least total guesses"
    assert lines["optimal"] == ("worst case 4 is optimal: no strategy finds every code within 3 guesses; total 72 is "
                                "the least among strategies within 4 guesses: lower bound 72 met; every opening is "
                                "this one up to symmetry")


def test_cli_worst_case_alone(run):
    result = run("optimal", "--pegs", "4", "--colors", "6", "--objective", "worst-case")
    assert result.exit_code == 0, result.stderr
    lines = dict(line.split(None, 1) for line in result.stdout.splitlines())
    assert (lines["objective"], lines["max"]) == ("least worst case", "5")
    assert lines["optimal"] == ("worst case 5 is optimal: no strategy finds every code within 4 guesses; this "
                                "strategy keeps within 5 (its total is not the least: --objective worst finds that)")
    refused = run("optimal", "--objective", "worst-case", "--max-depth", "5")
    assert (refused.exit_code, refused.stderr) == (2, "error: --max-depth applies to --objective expected "
                                                      "(--objective worst-case minimises the depth itself)\n")


@pytest.mark.parametrize("args, message", [
    (["--pegs", "4", "--colors", "6", "--memory", "100M"], "needs at least 202 MiB (its feedback table 1.6 MiB)"),
    (["--objective", "worst", "--max-depth", "5"], "--max-depth applies to --objective expected"),
    (["--pegs", "3", "--colors", "3", "--max-depth", "2"], "no strategy finds every code of 3x3 within 2 guesses"),
])
def test_cli_refusals_are_one_line(run, args, message):
    # Compiled first: a run that compiles says so in a line of its own (test_first_runs.py).
    compile_kernels()
    result = run("optimal", *args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr


def test_cli_ctrl_c_exits_130(run, monkeypatch):
    import mm_logic.optimal.objectives

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(mm_logic.optimal.objectives, "optimal", interrupted)
    result = run("optimal", "--pegs", "3", "--colors", "3")
    assert result.exit_code == 130 and "interrupted" in result.stderr and result.stdout == ""


@pytest.mark.parametrize("backend", ["python", "clingo", "swipl"])
def test_the_saved_optimal_tree_plays_back_on_every_backend(run, tmp_path, backend):
    saved = tmp_path / "optimal.json"
    result = run("optimal", "--pegs", "3", "--colors", "3", "--save-tree", str(saved))
    assert result.exit_code == 0, result.stderr
    assert json.loads(saved.read_text())["strategy"] == "optimal-expected"
    played = run("bench", "--pegs", "3", "--colors", "3", "--backend", backend, "--strategy", f"tree:{saved}",
                 "--all", "--json")
    assert played.exit_code == 0, played.stderr
    data = json.loads(played.stdout)
    assert (data["games"], data["total_guesses"], data["max"]) == (27, 73, 4)
    assert data["histogram"] == {"1": 1, "2": 7, "3": 18, "4": 1}


@pytest.mark.parametrize("feedback, figures", [
    # The exhaustive reference's optima above (3x3): black pegs 95 (worst 5), positional marks 60 (worst 3).
    ("black", (27, 95, 5)), ("positional", (27, 60, 3))])
@pytest.mark.parametrize("backend", ["python", "clingo", "swipl"])
def test_an_optimal_tree_of_another_feedback_rule_plays_back_and_sums_up(run, tmp_path, feedback, figures, backend):
    saved = tmp_path / "optimal.json"
    rules = ["--pegs", "3", "--colors", "3", "--feedback", feedback]
    result = run("optimal", *rules, "--save-tree", str(saved), "--json")
    assert result.exit_code == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["rules"]["feedback"] == feedback
    assert (found["games"], found["total_guesses"], found["max"]) == figures
    assert json.loads(saved.read_text())["rules"]["feedback"] == feedback
    summed = json.loads(run("tree", str(saved), "--json").stdout)
    played = run("bench", *rules, "--backend", backend, "--strategy", f"tree:{saved}", "--all", "--json")
    assert played.exit_code == 0, played.stderr
    data = json.loads(played.stdout)
    assert (data["games"], data["total_guesses"], data["max"]) == figures
    assert data["histogram"] == summed["histogram"] == found["histogram"]


@pytest.mark.parametrize("rules", [Rules(3, 5, feedback="positional"), Rules(4, 4, feedback="positional"),
                                   Rules(4, 3, feedback="black")], ids=str)
def test_no_scorer_beats_the_optimum(rules):
    # The scorers (every code a guess) are strategies too: none may total less than the optimum.
    from mm_logic.engines import make_engine
    from mm_logic.strategies import make_strategy
    from mm_logic.studies.bench import bench_all
    best = optimal(rules, "expected").total
    totals = {name: bench_all(make_engine("python", rules), make_strategy(name, rules)).total_guesses
              for name in ("minimax", "expected", "entropy", "parts")}
    assert min(totals.values()) >= best, totals


def test_a_set_large_enough_to_search_its_parts_smallest_first_costs_the_published_optimum():
    # Every code of 4x6 searched as one set by the kernel: 1,296 codes, above SMALLEST_FIRST (700), so the guesses
    # at the root search their parts smallest first (the openings' parts, at most 312 codes, largest first).
    from mm_logic.kernels.optimal import search as kernel
    searcher = Searcher(Rules(4, 6))
    everything = np.arange(searcher.size, dtype=np.int32)
    assert searcher.size >= kernel.SMALLEST_FIRST > 312
    assert searcher.cost(everything, [], None, searcher.k.INF) == 5625  # Koyama & Lai
    searcher = Searcher(Rules(4, 6))
    assert searcher.cost(everything, [], None, 5625) >= 5625  # a budget it cannot stay below: a bound
    assert searcher.cost(everything, [], None, 5626) == 5625
