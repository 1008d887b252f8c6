"""Static Mastermind (``mmlogic static``): exact values against a brute force written apart."""

from __future__ import annotations

import itertools
import json
import re

import numpy as np
import pytest

from mm_logic.codespace import code_space
from mm_logic.feedback import score
from mm_logic.rules import Rules
from mm_logic.static.bound import guessed_bound
from mm_logic.static.local_search import classes, clingo_check, local_search
from mm_logic.static.search import alike_pairs, answers, check_guesses, orbits, static_search

from conftest import ROOT, one_line_error


def brute_force(rules: Rules) -> int:
    """The fewest guesses whose answers tell every code apart: every k-subset of codes, k = 1, 2, ..."""
    codes = [tuple(c) for c in code_space(rules).codes.tolist()]
    told = {g: [score(rules, g, s) for s in codes] for g in codes}
    for k in range(1, len(codes) + 1):
        for guesses in itertools.combinations(codes, k):
            if len(set(zip(*(told[g] for g in guesses)))) == len(codes):
                return k
    raise AssertionError("unreachable: the codes themselves tell every code apart")


@pytest.mark.parametrize("rules, k", [
    (Rules(2, 2), 2), (Rules(2, 3), 2), (Rules(2, 4), 3), (Rules(3, 2), 2), (Rules(3, 3), 3),
    (Rules(2, 3, feedback="black"), 3), (Rules(3, 2, feedback="black"), 3), (Rules(3, 3, feedback="black"), 4),
    (Rules(2, 3, feedback="positional"), 2), (Rules(3, 2, feedback="positional"), 1),
    (Rules(3, 3, feedback="positional"), 2),
    (Rules(3, 3, max_repeat=1), 4), (Rules(3, 4, max_repeat=1), 4), (Rules(3, 3, max_repeat=2), 3),
])
def test_static_equals_the_brute_force_and_is_checked(rules, k):
    assert brute_force(rules) == k
    found = static_search(rules)
    assert (len(found.guesses), found.optimal, found.lower_bound, found.checked) == (k, True, k, True)
    # the steps: every smaller k proved impossible (from the bound of the pairs only guessing tells apart on),
    # then k found
    first = max(1, found.guessed.bound)
    assert [(step[0], step[2]) for step in found.steps] == [(i, i == k) for i in range(first, k + 1)]


def test_goddards_two_peg_figures():
    # Goddard, "Static Mastermind": 2 pegs, 2..7 colours, the final guess counted apart
    assert [len(static_search(Rules(2, m)).guesses) for m in range(2, 8)] == [2, 2, 3, 4, 4, 5]


def test_the_rule_encodings_answers_are_the_feedback_rules():
    for feedback in ("standard", "black", "positional"):
        rules = Rules(3, 3, feedback=feedback)
        assert np.array_equal(answers(rules), code_space(rules).table.astype(np.int64)), feedback


def test_the_reference_check():
    rules = Rules(2, 2)
    assert check_guesses(rules, [(0, 0), (0, 1)])
    assert not check_guesses(rules, [(0, 0)])  # 01 and 10 both answer 1,0
    assert not check_guesses(rules, [(0, 1), (1, 0)])  # 00 and 11 answer alike
    assert alike_pairs(answers(rules), [0]) == [(1, 2)]


def test_orbits_start_at_the_canonical_openings():
    rules = Rules(4, 3)
    space = code_space(rules)
    assert sorted({space.code(r) for r in orbits(rules)}) == [(0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 1, 1),
                                                               (0, 0, 1, 2)]
    assert space.code(orbits(rules)[space.index_of([(2, 1, 2, 2)])[0]]) == (0, 0, 0, 1)


def test_static_cli_json(run):
    result = run("static", "--pegs", 2, "--colors", 3, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {k: data[k] for k in ("rules", "guesses", "count", "optimal", "lower_bound", "final_guess_counted",
                                 "with_final_guess", "checked")} == {
        "rules": {"pegs": 2, "colors": 3, "max_repeat": None, "feedback": "standard"}, "guesses": ["01", "21"],
        "count": 2, "optimal": True, "lower_bound": 2, "final_guess_counted": False, "with_final_guess": 3,
        "checked": True}
    assert [s["satisfiable"] for s in data["steps"]] == [False, True]


def test_static_cli_text(run):
    result = run("static", "--pegs", 2, "--colors", 4)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[:3] == ["3 guesses fixed in advance tell every code of 2x4 apart (optimal: 2 do not)",
                         "01 13 23",
                         "the final winning guess is counted apart: 4 guesses win (3 when the code is one of them)"]


@pytest.mark.parametrize("args, message", [
    (["--pegs", 5, "--colors", 6], "5x6 has 7,776 codes; static searches at most 4,096 (the answers are codes x "
                                   "codes facts)"),
    (["--time-limit", 0], "Invalid value for '--time-limit': 0.0 is not in the range x>0."),
])
def test_static_bad_input(run, args, message):
    one_line_error(run("static", *args), 2, message, stdout="")


def test_static_time_limit_prints_what_was_proved(run):
    result = run("static", "--pegs", 4, "--colors", 4, "--feedback", "black", "--time-limit", 1.5, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert (data["optimal"], data["guesses"], data["stopped"]) == (False, [], "time limit")
    # What it proved in 1.5 s depends on the machine's load: said as the JSON's bound says.
    proved = f"no {data['lower_bound'] - 1} guess" if data["lower_bound"] >= 2 else "nothing proved yet"
    assert result.stderr.startswith(f"error: the time limit of 1.5 s was reached: {proved}")


@pytest.mark.slow
def test_ctrl_c_prints_what_was_proved_and_exits_130():
    import signal
    import subprocess
    import time

    from conftest import MMLOGIC

    process = subprocess.Popen([MMLOGIC, "static", "--pegs", "4", "--colors", "4", "--feedback", "black", "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(4)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    data = json.loads(out)
    assert (data["stopped"], data["guesses"], data["optimal"]) == ("interrupted", [], False)
    assert data["lower_bound"] >= 2  # one guess never tells the 256 codes apart: proved within the first second
    assert err.startswith(f"note: stopped: no {data['lower_bound'] - 1} guess")
    assert err.endswith("interrupted\n")


def test_one_code_needs_no_guess(run):
    result = run("static", "--pegs", 1, "--colors", 1)
    assert (result.exit_code, result.stdout) == (0, "no guess is needed: 1x1 has one code, which the final guess "
                                                    "names\n")


#: Six guesses for 4x6 that the local search found (mmlogic static --guesses 6 --local-search 60): the
#: 2015 figure's six, the final guess apart (docs/results/static.md).
SIX_FOR_4X6 = ["1341", "2133", "2404", "3020", "3450", "5502"]


def test_six_guesses_tell_every_code_of_4x6_apart():
    rules = Rules(4, 6)
    space = code_space(rules)
    guesses = [tuple(int(c) for c in code) for code in SIX_FOR_4X6]
    assert check_guesses(rules, guesses)
    chosen = [int(i) for i in space.index_of(guesses)]
    table = space.table.astype(np.int64)
    assert classes(table, chosen) == 1296 and clingo_check(table, chosen)
    # one guess changed leaves codes alike: both checks see it
    changed = chosen[:-1] + [0]
    assert not check_guesses(rules, [space.code(g) for g in changed])
    assert classes(table, changed) < 1296 and not clingo_check(table, changed)


def test_the_local_search_finds_sets_and_gives_up_past_its_deadline():
    import time

    table = code_space(Rules(3, 4)).table.astype(np.int64)
    found = local_search(table, 3, seed=1)
    assert len(found) == 3 and classes(table, found) == 64
    assert local_search(table, 3, seed=1) == found  # the same seed, the same guesses
    # 2 guesses never tell the 64 codes apart (brute force: 3 are needed)
    assert local_search(table, 2, seed=1, deadline=time.monotonic() + 0.3) is None


def test_static_cli_local_search(run):
    result = run("static", "--pegs", 3, "--colors", 4, "--guesses", 3, "--local-search", 30, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["count"], data["found_by"], data["checked"], data["optimal"], data["calls"]) == (
        3, "local search", True, False, 1)
    result = run("static", "--pegs", 2, "--colors", 4, "--guesses", 3, "--local-search", 30)
    assert result.stdout.splitlines()[-1].endswith("found by a local search, checked by clingo (1 solver call); "
                                                   "checked by the reference engine: yes")
    one_line_error(run("static", "--local-search", 5), 2, "--local-search looks for --guesses K guesses: give K",
                   stdout="")


def test_static_local_search_hands_over_to_clingo(run):
    # 2 guesses cannot tell 2x4's 16 codes apart: the local search finds none, clingo's search proves it
    result = run("static", "--pegs", 2, "--colors", 4, "--guesses", 2, "--local-search", 0.3, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["guesses"], data["lower_bound"], data["found_by"]) == ([], 3, None)


# The exhaustive proof (mm_logic/static/proof.py): the same answers as the brute force and clingo.

BRUTE_FORCE_GAMES = [
    (Rules(2, 2), 2), (Rules(2, 3), 2), (Rules(2, 4), 3), (Rules(3, 2), 2), (Rules(3, 3), 3),
    (Rules(2, 3, feedback="black"), 3), (Rules(3, 3, feedback="black"), 4), (Rules(3, 3, feedback="positional"), 2),
    (Rules(3, 3, max_repeat=1), 4), (Rules(3, 3, max_repeat=2), 3),
]


@pytest.mark.parametrize("rules, k", BRUTE_FORCE_GAMES)
def test_the_exhaustive_proof_equals_the_brute_force(rules, k):
    from mm_logic.static.proof import fewest

    assert brute_force(rules) == k
    found, proofs = fewest(rules)
    assert found == k
    assert [p.possible for p in proofs] == [i == k for i in range(1, k + 1)]
    assert len(proofs[-1].guesses) == k and check_guesses(rules, proofs[-1].guesses)


@pytest.mark.parametrize("rules, k", [
    # clingo's figures (docs/results/static.md): k - 1 proved impossible by it, k found
    (Rules(3, 4), 3), (Rules(2, 7), 5), (Rules(3, 5), 4), (Rules(4, 3), 3), (Rules(4, 4), 4), (Rules(5, 2), 3),
    (Rules(5, 3), 4), (Rules(4, 4, feedback="positional"), 3), (Rules(4, 3, feedback="black"), 5),
    (Rules(4, 5, max_repeat=1), 5),
])
def test_the_exhaustive_proof_equals_clingos_answers(rules, k):
    from mm_logic.static.proof import prove

    assert prove(rules, k - 1).possible is False
    found = prove(rules, k)
    assert found.possible and len(found.guesses) == k and check_guesses(rules, found.guesses)


@pytest.mark.parametrize("rules, k", [
    (Rules(3, 4), 2), (Rules(3, 4), 3), (Rules(4, 3), 2), (Rules(4, 3), 3), (Rules(3, 5), 3),
    (Rules(3, 3, feedback="black"), 3), (Rules(3, 4, feedback="positional"), 2),
    (Rules(4, 3, feedback="positional"), 2), (Rules(3, 4, max_repeat=1), 3),
])
def test_the_symmetry_breaking_loses_no_set(rules, k):
    from mm_logic.static.proof import prove

    # every combination of k codes against one set per symmetry class: the same answer
    assert prove(rules, k).possible == prove(rules, k, symmetric=False).possible


def test_the_symmetries_and_the_class_bounds(monkeypatch):
    from mm_logic.static import proof as static_proof

    rules = Rules(3, 4)
    maps = static_proof.symmetry_group(rules)
    assert maps.shape == (24 * 6, 64) and np.array_equal(maps[0], np.arange(64))
    assert all(sorted(row) == list(range(64)) for row in maps.tolist())  # each map a permutation of the codes
    table = code_space(rules).table
    smallest = maps.min(axis=0)
    assert sorted(set(smallest.tolist())) == sorted(set(orbits(rules).tolist()))
    # 1 guess: 3x4 has 9 answers; 2 guesses: the most classes of any pair, by brute force
    pairs = max(len(set(zip(table[a].tolist(), table[b].tolist()))) for a in range(64) for b in range(64))
    assert static_proof.class_bounds(table, 3, smallest).tolist() == [1, 9, pairs, 64]
    # fewer colours renamed when the maps are too many to list: a subgroup, the same answers
    monkeypatch.setattr(static_proof, "MAX_GROUP_ENTRIES", 64 * 6 * 2)
    assert len(static_proof.symmetry_group(rules)) == 12
    assert [static_proof.prove(rules, k).possible for k in (2, 3)] == [False, True]


def test_the_exhaustive_search_pauses_and_resumes_alike(monkeypatch):
    from mm_logic.static import proof as static_proof

    whole = [static_proof.prove(Rules(4, 4), k) for k in (3, 4)]
    monkeypatch.setattr(static_proof, "BUDGET", 7)  # a slice of 7 guesses tried, then on where it was
    sliced = [static_proof.prove(Rules(4, 4), k) for k in (3, 4)]
    assert [(p.possible, p.guesses, p.nodes) for p in sliced] == [(p.possible, p.guesses, p.nodes) for p in whole]
    # more guesses than needed: the two of a branch may tell every code apart already
    assert static_proof.prove(Rules(2, 3), 3).possible and static_proof.prove(Rules(3, 4), 5).possible


def test_static_cli_prove_exhaustive(run):
    result = run("static", "--pegs", 3, "--colors", 4, "--prove-exhaustive", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["count"], data["optimal"], data["lower_bound"], data["checked"], data["method"], data["found_by"]) == (
        3, True, 3, True, "exhaustive", "exhaustive search")
    assert [(p["guesses"], p["possible"]) for p in data["proofs"]] == [(1, False), (2, False), (3, True)]
    assert "exhaustive" in data["proofs"][0]["method"]
    # --guesses K: a set of K (here by the local search), then K - 1 proved impossible: optimal
    result = run("static", "--pegs", 3, "--colors", 4, "--guesses", 3, "--local-search", 30, "--prove-exhaustive")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == ("3 guesses fixed in advance tell every code of 3x4 apart "
                                             "(optimal: 2 do not)")
    assert "found by a local search; 2 proved impossible by the exhaustive search" in result.stdout
    result = run("static", "--pegs", 3, "--colors", 4, "--guesses", 2, "--prove-exhaustive")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("no 2 guesses tell every code of 3x4 apart (proved by the exhaustive search")
    # past --time-limit (checked between branches): what was proved, exit 1
    result = run("static", "--pegs", 3, "--colors", 4, "--prove-exhaustive", "--time-limit", 0.001, "--json")
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert (data["stopped"], data["guesses"], data["lower_bound"], data["method"]) == (
        "time limit", [], 3, "exhaustive")
    assert data["proofs"][-1]["possible"] is None


def test_an_exhaustive_proof_of_many_guesses_caps_its_bounds_at_the_codes():
    # The bound on the classes k guesses make grows as a product: at 40 guesses it passed int64 (an
    # internal OverflowError); capped at the number of codes, 40 guesses are searched like 6.
    many = static_search(Rules(3, 3), guesses=40, exhaustive=True)
    assert many.lower_bound == 1 and not many.optimal
    assert 5 <= len(many.guesses) <= 40 and check_guesses(Rules(3, 3), many.guesses)
    assert many.proofs[0]["guesses"] == 40 and many.proofs[0]["possible"]


# -- pairs only guessing tells apart, and long searches said (issue 56, third audit) --------------------------
SHARED = ROOT / "examples" / "shared_colours.py"


def test_pairs_only_guessing_tells_apart_bound_the_search_from_below():
    # Under shared colours the orderings of a colour set differ only when one of them is guessed: each set of m
    # orderings needs m - 1 guessed, 44 on 3x4 (64 codes, 20 colour sets). The search asked for 1, 2, ...
    # guesses, proving each impossible, past five minutes; it starts at the bound.
    rules = Rules(3, 4, feedback=str(SHARED))
    found = static_search(rules)
    sets = {}
    for code in map(tuple, code_space(rules).codes.tolist()):
        sets.setdefault(tuple(sorted(code)), []).append(code)
    assert sum(len(codes) - 1 for codes in sets.values()) == 44 and len(sets) == 20
    assert (len(found.guesses), found.optimal, found.lower_bound, found.checked) == (44, True, 44, True)
    assert [(k, possible) for k, _, possible in found.steps] == [(44, True)]
    assert (found.guessed.bound, found.guessed.pairs) == (44, sum(len(c) * (len(c) - 1) // 2 for c in sets.values()))


def test_the_bound_is_the_brute_force_where_it_is_small():
    rules = Rules(2, 3, feedback=str(SHARED))
    found = static_search(rules)
    codes = [tuple(c) for c in code_space(rules).codes.tolist()]
    told = {g: [score(rules, g, s) for s in codes] for g in codes}
    fewest = next(k for k in range(1, 10) for guesses in itertools.combinations(codes, k)
                  if len(set(zip(*(told[g] for g in guesses)))) == len(codes))
    assert (len(found.guesses), found.guessed.bound, fewest) == (3, 3, 3)


def test_fewer_guesses_than_the_bound_are_refused_at_once(run, tmp_path):
    result = run("static", "--pegs", 3, "--colors", 4, "--feedback", SHARED, "--guesses", 10)
    assert (result.exit_code, re.sub(r"\d+\.\d\d s", "S s", result.stdout)) == (0, (
        "no 43 guesses tell every code of 3x4 feedback shared_colours.py apart (proved, S s)\n"
        "at least 44 guesses: 96 pairs of codes get the same answers but when one of them is guessed (001 and 010 "
        "the first), and each pair needs one of its codes guessed\n")), result.stderr


def test_the_bound_in_the_json(run_json):
    data = run_json("static", "--pegs", 2, "--colors", 3, "--feedback", SHARED)
    assert (data["guesses"], data["lower_bound"], data["guessed_bound"]) == (
        ["01", "20", "21"], 3, {"bound": 3, "pairs": 3, "example": ["01", "10"]})
    assert run_json("static", "--pegs", 2, "--colors", 3)["guessed_bound"] is None


def test_the_bound_is_a_bound_on_random_tables():
    # Any table of answers (a guess's own code answered apart): the pairs are those the brute force finds, and
    # the bound is at most the fewest codes holding one of each pair (groups that are not cliques included).
    rng = np.random.default_rng(5)
    for _ in range(200):
        n = int(rng.integers(2, 9))
        table = rng.integers(0, 2, size=(n, n))
        np.fill_diagonal(table, 9)
        found = guessed_bound(table)
        pairs = [(i, j) for i, j in itertools.combinations(range(n), 2)
                 if all(table[g, i] == table[g, j] for g in range(n) if g not in (i, j))]
        cover = min(len(chosen) for size in range(n + 1) for chosen in itertools.combinations(range(n), size)
                    if all(i in chosen or j in chosen for i, j in pairs))
        assert found.pairs == len(pairs) and found.bound <= cover and (found.bound > 0) == bool(pairs)


def test_a_search_past_its_first_seconds_is_said_to_be_long(monkeypatch):
    # Under 500 codes the note came never: 4x4 black-peg (256 codes) ran ten minutes, its progress alone said.
    import mm_logic.static.search as module
    monkeypatch.setattr(module, "NOTICE_AFTER", 0.0)
    told = []
    static_search(Rules(3, 3, feedback="black"), progress=lambda line: None, notice=told.append)
    assert told == ["static asks clingo for 1, 2, ... guesses in turn over the 27 codes of 3x3 black-peg, each number "
                    "proved impossible before the next: past 0 s it may take hours more; bound it with --time-limit "
                    "SECONDS (what was proved is printed), or find K guesses with --guesses K --local-search SECONDS "
                    "(with --prove-exhaustive to prove them optimal)"]
    told.clear()
    monkeypatch.undo()  # the documented 30 s: a search of a second is not said to be long
    static_search(Rules(3, 3, feedback="black"), progress=lambda line: None, notice=told.append)
    assert told == []
