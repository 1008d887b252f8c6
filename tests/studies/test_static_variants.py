"""``mmlogic static`` on the game as written: an edited encoding's codes to tell apart, a rule of one's own.

The fewest guesses fixed in advance that tell every secret of the variant apart (every code of the rules
may be a guess; a guess played against itself tells the win) are found here by a brute force written
apart, trying every set of k guesses for k = 1, 2, ...; ``static`` must find as many, prove one fewer
impossible, and its guesses must tell the secrets apart by the rule's ``score`` called here.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from generators import brute_feedback, own_rule_file, own_score

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def answer(score, guess, code):
    return "won" if guess == code else score(guess, code)


def fewest(codes, secrets, score) -> int:
    """The fewest guesses (any codes) whose answers differ for every pair of secrets."""
    for k in itertools.count(1):
        for chosen in itertools.combinations(codes, k):
            if len({tuple(answer(score, g, s) for g in chosen) for s in secrets}) == len(secrets):
                return k


ROWS = [
    # (id, options, file or rule stem, admits, score, pegs, colours, methods)
    ("palindromes", ["--encoding"], EXAMPLES / "palindrome.lp", lambda c: c == c[::-1], brute_feedback, 4, 3,
     ["clingo", "exhaustive"]),
    ("no two adjacent alike (swipl lists them)", ["--encoding"], EXAMPLES / "no_adjacent.pl",
     lambda c: all(a != b for a, b in zip(c, c[1:])), brute_feedback, 3, 3, ["clingo", "exhaustive"]),
    ("a rule telling colour 0 apart", ["--feedback"], "colour_zero", lambda c: True, own_score("colour_zero"), 3, 3,
     ["clingo", "exhaustive"]),
    ("black pegs modulo 2", ["--feedback"], "parity", lambda c: True, own_score("parity"), 2, 3,
     ["clingo", "exhaustive"]),
]


@pytest.mark.parametrize("what, options, file, admits, score, pegs, colors, methods", ROWS, ids=[r[0] for r in ROWS])
def test_static_on_a_variant(tmp_path, run_json, what, options, file, admits, score, pegs, colors, methods):
    if isinstance(file, str):
        file = own_rule_file(tmp_path, file)
    codes = list(itertools.product(range(colors), repeat=pegs))
    secrets = [c for c in codes if admits(c)]
    least = fewest(codes, secrets, score)
    for method in methods:
        out = run_json("static", *options, file, "--pegs", pegs, "--colors", colors,
                       *(["--prove-exhaustive"] if method == "exhaustive" else []))
        assert (out["count"], out["optimal"], out["checked"]) == (least, True, True)
        chosen = [tuple(int(c) for c in g) for g in out["guesses"]]
        assert len({tuple(answer(score, g, s) for g in chosen) for s in secrets}) == len(secrets)


def test_static_names_the_encoding(run):
    out = run("static", "--encoding", EXAMPLES / "palindrome.lp", "--pegs", 4, "--colors", 3, "--json")
    assert json.loads(out.stdout)["encoding"] == str(EXAMPLES / "palindrome.lp")
    text = run("static", "--encoding", EXAMPLES / "palindrome.lp", "--pegs", 4, "--colors", 3)
    assert f"tell every code of 4x3, the codes of {EXAMPLES / 'palindrome.lp'} apart" in text.stdout


@pytest.mark.parametrize("method", [[], ["--prove-exhaustive"]], ids=["clingo", "exhaustive"])
def test_a_rule_written_once_names_its_codes(run, method):
    rule = EXAMPLES / "shared_no_adjacent.lp"
    out = run("static", "--pegs", 3, "--colors", 3, "--feedback", rule, *method)
    assert out.exit_code == 0, out.stderr
    assert out.stdout.splitlines()[0] == (f"7 guesses fixed in advance tell every code of 3x3 feedback "
                                          f"shared_no_adjacent.lp, the codes of {rule} apart (optimal: 6 do not)")
