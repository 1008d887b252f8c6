"""mmlogic optimal under rules of one's own: the symmetries taken only where the feedback table shows them.

Each rule below is a Python module written to a file, as a user writes one (``--feedback FILE.py``), and its
``score`` is also called here directly by a brute force written apart from the package: every code a guess
at every set still possible, every part summed, no bound and no symmetry. The search must meet its optimum
with the game's symmetries and without them (``--no-symmetry``), and its tree must play every secret to a
win with the histogram it reports. The symmetries themselves are checked: what the built-in rules declare
holds on their tables, and what is found for a rule of one's own is what moving its pegs and renaming its
colours does to its answers.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest

from mm_logic.codespace import code_space
from mm_logic.optimal.objectives import optimal
from mm_logic.rules import Rules
from mm_logic.support.errors import BadInput
from mm_logic.symmetry import GameSymmetry, canonical_openings, game_symmetry, table_symmetry

from generators import ADMITS, BruteOptimum, edited_encoding, own_rule_file, own_score


def rule_file(folder: Path, stem: str) -> str:
    return own_rule_file(folder, stem)


class BruteForce(BruteOptimum):
    """Every code of ``pegs`` x ``colors`` a guess and a secret (``max_repeat``: the repetition rule)."""

    def __init__(self, pegs: int, colors: int, score, max_repeat: int | None = None, secrets=None):
        limit = pegs if max_repeat is None else max_repeat
        codes = [c for c in itertools.product(range(colors), repeat=pegs) if max(Counter(c).values()) <= limit]
        super().__init__(codes, score, secrets=secrets)


def played(result, score) -> Counter:
    """The result's tree played against every secret with the rule's own score: guesses per secret."""
    histogram: Counter = Counter()
    rules = result.rules
    limit = rules.repeat_limit
    for secret in itertools.product(range(rules.colors), repeat=rules.pegs):
        if max(Counter(secret).values()) > limit:
            continue
        node, guesses = result.tree, 1
        while node.guess != secret:
            fb = score(node.guess, secret)
            assert fb in node.children, f"no branch for {fb} after {node.guess}, secret {secret}"
            node, guesses = node.children[fb], guesses + 1
        histogram[guesses] += 1
    return histogram


#: (stem, pegs, colours, max_repeat, least total, least worst case): the brute force's figures, written here too
#: so that a change in both shows.
GAMES = [
    ("first_half", 3, 3, None, 102, 6),
    ("first_half", 2, 4, None, 64, 7),
    ("first_half", 4, 2, None, 56, 6),
    ("shared", 3, 3, None, 101, 6),
    ("shared", 3, 4, 1, 120, 9),
    ("parity", 3, 3, None, 110, 6),
    ("parity", 2, 4, None, 56, 5),
    ("colour_zero", 3, 3, None, 80, 4),
    ("colour_zero", 2, 4, None, 46, 4),
    ("colour_zero", 3, 4, 1, 71, 4),
]


@pytest.mark.parametrize("stem, pegs, colors, max_repeat, total, worst", GAMES,
                         ids=[f"{g[0]}-{g[1]}x{g[2]}{'' if g[3] is None else '-r' + str(g[3])}" for g in GAMES])
def test_optimum_of_a_rule_of_ones_own(tmp_path, stem, pegs, colors, max_repeat, total, worst):
    rules = Rules(pegs, colors, max_repeat, feedback=rule_file(tmp_path, stem))
    brute = BruteForce(pegs, colors, own_score(stem), max_repeat)
    assert (brute.cost(), brute.worst()) == (total, worst)
    for symmetric in (True, False):
        result = optimal(rules, symmetric=symmetric)
        assert (result.total, result.worst) == (total, max(played(result, own_score(stem))))
        assert played(result, own_score(stem)) == result.histogram
        least = optimal(rules, "worst-case", symmetric=symmetric)
        assert least.worst == worst
        assert max(played(least, own_score(stem))) == worst


def test_workers_search_a_rule_of_ones_own_as_one_process(tmp_path):
    rules = Rules(3, 3, feedback=rule_file(tmp_path, "first_half"))
    alone = optimal(rules)
    shared = optimal(rules, jobs=2, split_above=5)
    assert (shared.total, shared.histogram, shared.opening) == (alone.total, alone.histogram, alone.opening) \
        == (102, alone.histogram, alone.opening)
    unsymmetric = optimal(rules, jobs=2, symmetric=False)
    assert unsymmetric.total == 102


# -- the symmetries -----------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", [Rules(3, 4), Rules(4, 4), Rules(3, 4, max_repeat=1), Rules(3, 4, feedback="black"),
                                   Rules(4, 3, max_repeat=2, feedback="black"), Rules(3, 4, feedback="positional"),
                                   Rules(4, 3, feedback="positional")], ids=lambda r: r.describe())
def test_built_in_rules_declare_what_their_tables_show(rules):
    space = code_space(rules)
    declared = game_symmetry(rules)
    assert table_symmetry(space, space.table) == GameSymmetry(declared.moves_pegs, declared.renames_colours)


@pytest.mark.parametrize("stem, found", [("first_half", GameSymmetry(False, True)),
                                         ("shared", GameSymmetry(True, True)),
                                         ("parity", GameSymmetry(True, True)),
                                         ("colour_zero", GameSymmetry(True, False))])
def test_symmetries_of_a_rule_of_ones_own_found_on_its_table(tmp_path, stem, found):
    rules = Rules(3, 4, feedback=rule_file(tmp_path, stem))
    assert game_symmetry(rules) == found
    # By hand: the answers of every pair under a swap of the first and last pegs and of colours 0 and 1.
    score = own_score(stem)
    codes = list(itertools.product(range(4), repeat=3))

    def keeps(move) -> bool:
        return all(score(move(g), move(s)) == score(g, s) for g in codes for s in codes if g != s)

    assert keeps(lambda c: (c[2], c[1], c[0])) == found.moves_pegs
    assert keeps(lambda c: tuple({0: 1, 1: 0}.get(x, x) for x in c)) == found.renames_colours


def test_openings_follow_the_symmetries_found(tmp_path):
    # Pegs told apart, colours not: one opening per pattern of colours; colours told apart: every code
    # whose colours never decrease; nothing kept: every code.
    assert canonical_openings(Rules(3, 3, feedback=rule_file(tmp_path, "first_half"))) == [
        (0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (0, 1, 2)]
    assert canonical_openings(Rules(2, 3, feedback=rule_file(tmp_path, "colour_zero"))) == [
        (0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]
    assert len(canonical_openings(Rules(2, 3), GameSymmetry(False, False))) == 9


def test_cli_optimal_under_a_rule_of_ones_own(tmp_path, run):
    rule = rule_file(tmp_path, "first_half")
    out = run("optimal", "--pegs", 3, "--colors", 3, "--feedback", rule)
    assert out.exit_code == 0, out.stderr
    lines = dict(line.split(None, 1) for line in out.stdout.splitlines())
    assert (lines["total"], lines["opening"], lines["max"]) == ("102", "000", "6")
    # Pegs told apart, colours renamed: the five patterns of three pegs, none cheaper than 000.
    assert lines["openings"] == "000 102, 001 >=102, 010 >=102, 011 >=102, 012 >=102"
    plain = run("optimal", "--pegs", 3, "--colors", 3, "--feedback", rule, "--no-symmetry", "--json")
    assert plain.exit_code == 0, plain.stderr
    reply = json.loads(plain.stdout)
    assert (reply["total_guesses"], reply["opening"]) == (102, "000")
    # Without the symmetries every code is an opening.
    assert len(reply["openings"]) == 27


def test_no_symmetry_on_a_built_in_rule(run_json):
    # The built-in rules' declared symmetries, turned off: every code an opening, the same optimum.
    with_them = run_json("optimal", "--pegs", 2, "--colors", 3)
    without = run_json("optimal", "--pegs", 2, "--colors", 3, "--no-symmetry")
    assert (with_them["total_guesses"], without["total_guesses"]) == (21, 21)
    assert [o["opening"] for o in with_them["openings"]] == ["01", "00"]
    assert sorted(o["opening"] for o in without["openings"]) == ["00", "01", "02", "10", "11", "12", "20", "21", "22"]


def test_a_rule_that_fails_is_one_line(tmp_path, run):
    bad = tmp_path / "bad.py"
    bad.write_text("def score(guess, secret):\n    return (1 / 0,)\n")
    out = run("optimal", "--pegs", 2, "--colors", 2, "--feedback", bad)
    assert out.exit_code == 2
    assert out.stderr.strip().splitlines()[-1].startswith(f"error: {bad}: score")
    with pytest.raises(BadInput):
        optimal(Rules(2, 2, feedback=str(bad)))


# -- edited code spaces: the encoding's codes are the secrets, every code of the rules a guess -------------
def standard_marks(guess, secret):
    black = sum(g == s for g, s in zip(guess, secret))
    return black, sum(min(guess.count(c), secret.count(c)) for c in set(guess)) - black


def EditedBruteForce(pegs, colors, score, admits) -> BruteForce:  # noqa: N802 - a brute force, as the class
    """The brute force over the codes an encoding admits as secrets, every code a guess."""
    return BruteForce(pegs, colors, score, secrets=admits)


#: (encoding, rule of one's own or None, pegs, colours, least total, least worst case): the brute force's.
EDITED = [
    ("palindrome.lp", None, 3, 3, 20, 3),
    ("palindrome.lp", None, 4, 3, 20, 3),
    ("no_adjacent.lp", None, 3, 3, 29, 3),
    ("no_adjacent.pl", None, 3, 3, 29, 3),
    ("ascending.lp", None, 3, 4, 54, 3),
    ("palindrome.lp", "first_half", 3, 3, 25, 4),
    ("no_adjacent.lp", "parity", 3, 3, 37, 4),
    ("ascending.lp", "shared", 3, 3, 25, 3),
    ("ascending.lp", "colour_zero", 3, 3, 22, 3),
    ("no_adjacent.lp", "colour_zero", 2, 4, 31, 4),
]


@pytest.mark.parametrize("name, stem, pegs, colors, total, worst", EDITED,
                         ids=[f"{e[0]}-{e[1] or 'standard'}-{e[2]}x{e[3]}" for e in EDITED])
def test_optimum_of_an_edited_code_space(tmp_path, run_json, name, stem, pegs, colors, total, worst):
    score = standard_marks if stem is None else own_score(stem)
    brute = EditedBruteForce(pegs, colors, score, ADMITS[name])
    assert (brute.cost(), brute.worst()) == (total, worst)
    rule = ["--feedback", rule_file(tmp_path, stem)] if stem else []
    encoding = edited_encoding(tmp_path, name)
    for symmetry in ([], ["--no-symmetry"]):
        out = run_json("optimal", "--pegs", pegs, "--colors", colors, "--encoding", encoding, *rule, *symmetry)
        assert (out["total_guesses"], out["games"]) == (total, bin(brute.everything).count("1"))
        least = run_json("optimal", "--pegs", pegs, "--colors", colors, "--encoding", encoding, *rule, *symmetry,
                         "--objective", "worst-case")
        assert least["max"] == worst


def test_an_edited_code_space_keeps_only_the_symmetries_that_map_it_onto_itself(tmp_path):
    from mm_logic.studies.written_game import encoding_secrets
    rules = Rules(4, 3)
    palindromes = encoding_secrets(rules, edited_encoding(tmp_path, "palindrome.lp"))
    ascending = encoding_secrets(rules, edited_encoding(tmp_path, "ascending.lp"))
    assert palindromes.size == 9 and ascending.size == 15
    # Palindromes: colours renamed, pegs not moved (0012 moved is no palindrome); ascending codes: neither.
    assert game_symmetry(rules, palindromes) == GameSymmetry(False, True)
    assert game_symmetry(rules, ascending) == GameSymmetry(False, False)


def test_a_journal_names_the_edited_code_space(tmp_path, run):
    journal = tmp_path / "palindromes.jsonl"
    encoding = edited_encoding(tmp_path, "palindrome.lp")
    out = run("optimal", "--pegs", 4, "--colors", 3, "--encoding", encoding, "--journal", journal)
    assert out.exit_code == 0, out.stderr
    head = json.loads(journal.read_text().splitlines()[0])
    assert head["secrets"]["count"] == 9
    other = run("optimal", "--pegs", 4, "--colors", 3, "--journal", journal)
    assert other.exit_code == 2
    assert other.stderr == (f"error: --journal {journal} is the journal of another search (4x3, 9 secrets of an "
                            "edited encoding), not of 4x3\n")


def test_a_rule_written_once_in_an_encoding(tmp_path, run_json):
    # One file states the code space (no colour on two adjacent pegs) and the rule (the colours shared): the
    # search derives the rule's table from it by its engine, and meets the brute force's optimum.
    examples = Path(__file__).resolve().parents[2] / "examples"
    one = examples / "shared_no_adjacent.lp"
    brute = EditedBruteForce(3, 3, own_score("shared"), ADMITS["no_adjacent.lp"])
    out = run_json("optimal", "--pegs", 3, "--colors", 3, "--feedback", one)
    assert (out["total_guesses"], out["games"], brute.cost()) == (41, 12, 41)
    # The Prolog statement of the shared colours (every code), derived by SWI-Prolog.
    out = run_json("optimal", "--pegs", 3, "--colors", 3, "--feedback", examples / "shared_colours.pl")
    assert (out["total_guesses"], out["games"]) == (BruteForce(3, 3, own_score("shared")).cost(), 27) == (101, 27)
