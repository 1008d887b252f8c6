"""``mmlogic static --prove-exhaustive`` on an edited code space: the codes to tell apart are an encoding's
(palindromes, no two adjacent pegs alike, ascending codes), every code of the rules a guess, under the
standard rule and rules of one's own.

Each game's fewest guesses are found three ways that must agree: a brute force written here (every set of
k guesses, k = 1, 2, ...), the exhaustive search (``mm_logic.static.proof``, over the symmetry
classes of the maps that keep the feedback and map the secrets onto themselves) and clingo's search; the
sets found must tell the secrets apart by the rule's ``score`` called here.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from mm_logic.codespace import code_space
from mm_logic.rules import Rules
from mm_logic.static import proof as static_proof
from mm_logic.static.search import static_search
from mm_logic.studies.written_game import encoding_secrets

from generators import ADMITS, brute_feedback, edited_encoding, own_rule_file, own_score

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

def answer(score, guess, code):
    return "won" if guess == code else score(guess, code)


def brute_fewest(codes, secrets, score) -> int:
    """The fewest guesses (any codes) whose answers differ for every pair of secrets: every set of k guesses,
    k = 1, 2, ... (two guesses with the same answer to every secret are one guess: one of them is tried)."""
    rows = sorted({tuple(answer(score, g, s) for s in secrets) for g in codes}, key=repr)
    for k in itertools.count(1):
        if any(len(set(zip(*chosen))) == len(secrets) for chosen in itertools.combinations(rows, k)):
            return k


def tells_apart(score, guesses, secrets) -> bool:
    return len({tuple(answer(score, g, s) for g in guesses) for s in secrets}) == len(secrets)


#: (encoding, rule of one's own or None: standard, pegs, colours, secrets, maps of the group, fewest guesses).
GAMES = [
    ("palindrome.lp", None, 4, 3, 9, 48, 2),
    ("palindrome.lp", "parity", 4, 3, 9, 48, 4),
    ("palindrome.lp", "shared", 4, 3, 9, 48, 3),
    ("no_adjacent.lp", None, 3, 3, 12, 12, 2),
    ("no_adjacent.lp", "parity", 3, 3, 12, 12, 4),
    ("no_adjacent.lp", "shared", 3, 3, 12, 12, 7),
    ("no_adjacent.lp", "colour_zero", 3, 3, 12, 2, 3),
    ("ascending.lp", None, 3, 4, 20, 2, 3),
    ("ascending.lp", "parity", 3, 3, 10, 2, 3),
    ("ascending.lp", "shared", 3, 3, 10, 2, 2),
    ("ascending.lp", "colour_zero", 3, 4, 20, 1, 3),
]
IDS = [f"{g[0]}-{g[1] or 'standard'}-{g[2]}x{g[3]}" for g in GAMES]


def game(tmp_path, name, stem, pegs, colors):
    """The rules, the encoding's file, its secrets (indices) and the score the brute force calls."""
    rules = Rules(pegs, colors, feedback=own_rule_file(tmp_path, stem) if stem else "standard")
    encoding = edited_encoding(tmp_path, name)
    return rules, encoding, encoding_secrets(rules, encoding), own_score(stem) if stem else brute_feedback


@pytest.mark.parametrize("name, stem, pegs, colors, secrets, group, k", GAMES, ids=IDS)
def test_the_exhaustive_proof_equals_the_brute_force_and_clingo(tmp_path, name, stem, pegs, colors, secrets,
                                                                 group, k):
    rules, encoding, indices, score = game(tmp_path, name, stem, pegs, colors)
    codes = list(itertools.product(range(colors), repeat=pegs))
    admitted = [c for c in codes if ADMITS[name](c)]
    assert [tuple(int(c) for c in code_space(rules).codes[i]) for i in indices] == admitted
    assert (len(admitted), brute_fewest(codes, admitted, score)) == (secrets, k)
    # the exhaustive search, through static's own entry point: k found, k - 1 proved impossible
    exhaustive = static_search(rules, exhaustive=True, encoding=encoding)
    assert (len(exhaustive.guesses), exhaustive.optimal, exhaustive.lower_bound, exhaustive.checked) == (k, True, k,
                                                                                                      True)
    # (from the bound of the pairs only guessing tells apart on: fewer are impossible without a search)
    assert [(p["guesses"], p["possible"], p["group"], p["codes"]) for p in exhaustive.proofs] == [
        (j, j == k, group, secrets) for j in range(max(1, exhaustive.guessed.bound), k + 1)]
    assert tells_apart(score, exhaustive.guesses, admitted)
    # clingo's search: as many
    clingo = static_search(rules, encoding=encoding)
    assert (len(clingo.guesses), clingo.optimal, clingo.checked) == (k, True, True)
    assert tells_apart(score, clingo.guesses, admitted)


@pytest.mark.parametrize("name, stem, pegs, colors, secrets, group, k", GAMES, ids=IDS)
def test_the_group_keeps_the_feedback_and_the_secrets(tmp_path, name, stem, pegs, colors, secrets, group, k):
    rules, _, indices, _ = game(tmp_path, name, stem, pegs, colors)
    maps = static_proof.symmetry_group(rules, indices).astype(np.int64)
    n = code_space(rules).size
    assert len(maps) == group and np.array_equal(maps[0], np.arange(n))
    inside = np.zeros(n, dtype=bool)
    inside[indices] = True
    table = code_space(rules).table
    for row in maps:
        assert sorted(row.tolist()) == list(range(n))  # a permutation of the codes
        assert np.array_equal(inside[row], inside)  # the secrets onto themselves
        assert np.array_equal(table[np.ix_(row, row)], table)  # every answer kept
    # a group: closed under composition
    rows = {tuple(row) for row in maps.tolist()}
    assert all(tuple(a[b].tolist()) in rows for a in maps for b in maps)


def test_ascending_codes_keep_a_map_of_neither_kind(tmp_path):
    # Neither a peg order nor a renaming alone keeps the ascending codes; reversing both does.
    rules, _, indices, _ = game(tmp_path, "ascending.lp", None, 3, 4)
    maps = static_proof.symmetry_group(rules, indices)
    space = code_space(rules)
    assert [tuple(int(c) for c in space.codes[i]) for i in maps[1, space.index_of([[0, 1, 2], [1, 1, 3]])]] == [
        (1, 2, 3), (0, 2, 2)]


@pytest.mark.parametrize("name, stem, pegs, colors, ks", [
    ("no_adjacent.lp", "parity", 3, 3, (3, 4)),
    ("ascending.lp", None, 3, 4, (2, 3)),
    ("palindrome.lp", "shared", 4, 3, (2, 3)),
])
def test_symmetry_breaking_loses_no_set_of_an_edited_code_space(tmp_path, name, stem, pegs, colors, ks):
    rules, _, indices, _ = game(tmp_path, name, stem, pegs, colors)
    for k in ks:
        with_group = static_proof.prove(rules, k, secrets=indices)
        identity = static_proof.prove(rules, k, secrets=indices, symmetric=False)
        assert (with_group.possible, identity.possible, identity.group) == (k == ks[1], k == ks[1], 1)


def test_a_group_cut_to_fewer_colours_renamed_is_still_filtered(tmp_path, monkeypatch):
    rules, encoding, indices, _ = game(tmp_path, "palindrome.lp", None, 4, 3)
    # 81 codes x 4! peg orders x 2! renamings of colours 0 and 1: the largest group within the limit
    monkeypatch.setattr(static_proof, "MAX_GROUP_ENTRIES", 81 * 24 * 2)
    assert len(static_proof.symmetry_group(rules, indices)) == 8 * 2  # the 8 orders keeping palindromes
    assert [static_proof.prove(rules, k, secrets=indices).possible for k in (1, 2)] == [False, True]


def test_static_cli_proves_an_edited_code_space(tmp_path, run):
    rule = own_rule_file(tmp_path, "parity")
    encoding = EXAMPLES / "palindrome.lp"
    out = run("static", "--encoding", encoding, "--feedback", rule, "--pegs", 4, "--colors", 3, "--prove-exhaustive",
              "--json")
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    for step in (data, *data["proofs"], *data["steps"]):
        step.pop("seconds")
    method = "exhaustive branch and bound over the symmetry classes (mm_logic/static/proof.py)"
    proof = {"method": method, "found": [], "branches": 0, "branches_done": 0, "group": 48, "codes": 9}
    assert data == {
        "rules": {"pegs": 4, "colors": 3, "max_repeat": None, "feedback": rule}, "encoding": str(encoding),
        "guesses": ["0001", "0002", "0010", "0020"], "count": 4, "optimal": True, "lower_bound": 4,
        "final_guess_counted": False, "with_final_guess": 5, "checked": True, "calls": 0, "pairs": 0,
        "stopped": None, "found_by": "exhaustive search", "method": "exhaustive", "guessed_bound": None,
        "proofs": [{**proof, "guesses": 1, "possible": False, "nodes": [], "bounds": [1, 2]},
                   {**proof, "guesses": 2, "possible": False, "nodes": [], "bounds": [1, 2, 4]},
                   # 9 palindromes, at most 8 classes from 3 answers of a parity and no win among them
                   {**proof, "guesses": 3, "possible": False, "nodes": [0], "bounds": [1, 2, 4, 8]},
                   {**proof, "guesses": 4, "possible": True, "found": ["0001", "0002", "0010", "0020"],
                    "branches": 81, "branches_done": 4, "nodes": [76, 329], "bounds": [1, 2, 4, 8, 9]}],
        "steps": [{"guesses": j, "satisfiable": j == 4} for j in range(1, 5)]}
    text = run("static", "--encoding", encoding, "--pegs", 4, "--colors", 3, "--prove-exhaustive")
    assert text.exit_code == 0, text.stderr
    assert text.stdout.splitlines()[0] == (f"2 guesses fixed in advance tell every code of 4x3, the codes of "
                                           f"{encoding} apart (optimal: 1 do not)")
    assert "found by the exhaustive search; 1 proved impossible by the exhaustive search" in text.stdout


def test_guesses_k_with_the_local_search_on_an_edited_code_space(tmp_path, run_json):
    # --guesses K --local-search: a set of K searched over the secrets' columns, K - 1 proved impossible
    encoding = edited_encoding(tmp_path, "no_adjacent.lp")
    out = run_json("static", "--encoding", encoding, "--feedback", own_rule_file(tmp_path, "shared"), "--pegs", 3,
                   "--colors", 3, "--guesses", 7, "--local-search", 30, "--prove-exhaustive")
    assert (out["count"], out["optimal"], out["lower_bound"], out["found_by"], out["checked"]) == (
        7, True, 7, "local search", True)
    assert [(p["guesses"], p["possible"], p["codes"]) for p in out["proofs"]] == [(6, False, 12)]
    admitted = [c for c in itertools.product(range(3), repeat=3) if ADMITS["no_adjacent.lp"](c)]
    assert tells_apart(own_score("shared"), [tuple(int(c) for c in g) for g in out["guesses"]], admitted)
