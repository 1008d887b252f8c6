"""``mmlogic info`` on the game as written: an edited encoding's codes as the secrets, a rule of one's own.

The figures are held to a brute force written apart: the codes the variant admits, the feedbacks some code
(every code may be a guess) gets against one of them, and the optimal values (the search's, asked by
``info``) against :class:`generators.BruteOptimum`.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from generators import BruteOptimum, brute_feedback, own_rule_file, own_score

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def written(fb) -> str:
    return "won" if fb == "won" else ",".join(map(str, fb))


def answer(score, guess, code):
    return "won" if guess == code else score(guess, code)


ROWS = [
    # (id, options before the file, file or rule stem, admits, score, pegs, colours)
    ("palindromes on clingo", ["--backend", "clingo", "--encoding"], EXAMPLES / "palindrome.lp",
     lambda c: c == c[::-1], brute_feedback, 4, 3),
    ("no two adjacent alike on swipl", ["--backend", "swipl", "--encoding"], EXAMPLES / "no_adjacent.pl",
     lambda c: all(a != b for a, b in zip(c, c[1:])), brute_feedback, 3, 4),
    ("a rule telling colour 0 apart", ["--backend", "python", "--feedback"], "colour_zero",
     lambda c: True, own_score("colour_zero"), 3, 3),
    ("a rule telling pegs apart", ["--backend", "python", "--feedback"], "first_half",
     lambda c: True, own_score("first_half"), 2, 4),
]


@pytest.mark.parametrize("what, options, file, admits, score, pegs, colors", ROWS, ids=[r[0] for r in ROWS])
def test_info_on_a_variant(tmp_path, run_json, what, options, file, admits, score, pegs, colors):
    if isinstance(file, str):
        file = own_rule_file(tmp_path, file)
    out = run_json("info", *options, file, "--pegs", pegs, "--colors", colors)
    codes = list(itertools.product(range(colors), repeat=pegs))
    secrets = [c for c in codes if admits(c)]
    assert out["codes"] == len(secrets)
    met = {answer(score, g, s) for g in codes for s in secrets}
    standard = score is brute_feedback
    # Under the standard rule the win is the pair (pegs, 0); under a rule of one's own it is told as won.
    expected = {written(fb) for fb in met if fb != "won"} | ({f"{pegs},0"} if standard else {"won"})
    assert set(out["feedback_list"]) == expected
    brute = BruteOptimum(codes, lambda g, s: score(g, s), secrets=admits)
    optimal = {(o["measure"], o["max_guesses"]): o["value"] for o in out["bounds"]["optimal"]}
    assert optimal[("worst_case", None)] == brute.worst()
    assert optimal[("total_guesses", None)] == brute.cost()
    assert all(o["status"] == "computed" for o in out["bounds"]["optimal"])
