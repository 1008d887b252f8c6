"""``mmlogic puzzle`` on the game as written: an edited encoding's codes as the secrets, a rule of one's own.

Each drawn puzzle is checked by a brute force written apart: among the codes the variant admits, exactly
one gives every entry's feedback (the rule's ``score`` called directly, the win told apart), and each
entry is needed (without it, more than one code fits). The engine of each row counts as its backend says.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from generators import brute_feedback, own_score

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: A variant written once (docs/encodings.md, "A rule written once"): palindromes, and black pegs on the
#: first half of the pegs only, as the rule.
FIRST_HALF_PALINDROMES = '''#include "mastermind.lp".
#program base.
:- secret(P,C), pegs(N), not secret(N+1-P,C).
#program step(t).
#defined told/3.
:- active(t), told(t,1,B), pegs(N), not B = #count { P : guess(t,P,C), secret(P,C), P <= (N+1)/2 }.
'''


def palindrome(code) -> bool:
    return tuple(code) == tuple(code)[::-1]


def no_adjacent(code) -> bool:
    return all(a != b for a, b in zip(code, code[1:]))


def ascending(code) -> bool:
    return list(code) == sorted(code)


def read_code(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in text)


def read_feedback(text: str) -> tuple:
    return "won" if text == "won" else tuple(int(v) for v in text.split(","))


def answer(score, guess, code):
    return "won" if guess == code else score(guess, code)


def standard(guess, secret):
    return brute_feedback(guess, secret)


#: (what the encoding is, its file (written to a temporary folder when a string), the rule's score, the
#: options, pegs, colours, entries)
ROWS = [
    ("palindromes, clingo", EXAMPLES / "palindrome.lp", palindrome, standard,
     ["--backend", "clingo", "--encoding"], 4, 3, 2),
    ("no two adjacent alike, swipl", EXAMPLES / "no_adjacent.pl", no_adjacent, standard,
     ["--backend", "swipl", "--encoding"], 3, 4, 2),
    ("ascending codes, clingo", "ascending.lp", ascending, standard, ["--backend", "clingo", "--encoding"], 3, 4, 2),
    ("palindromes under a rule written once, python", "first_half.lp", palindrome, own_score("first_half"),
     ["--backend", "python", "--feedback"], 5, 3, 2),
]
WRITTEN = {"ascending.lp": '#include "mastermind.lp".\n#program base.\n:- secret(P,C), secret(P+1,D), D < C.\n',
           "first_half.lp": FIRST_HALF_PALINDROMES}


@pytest.mark.parametrize("what, file, admits, score, options, pegs, colors, entries", ROWS, ids=[r[0] for r in ROWS])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_drawn_puzzle_of_a_variant_has_one_code_and_needs_every_entry(
        tmp_path, run_json, what, file, admits, score, options, pegs, colors, entries, seed):
    if isinstance(file, str):
        (tmp_path / file).write_text(WRITTEN[file])
        file = tmp_path / file
    out = run_json("puzzle", *options, file, "--pegs", pegs, "--colors", colors, "--entries", entries,
                   "--seed", seed)
    history = [(read_code(g), read_feedback(f)) for g, f in (item.split(":") for item in out["history"])]
    secrets = [c for c in itertools.product(range(colors), repeat=pegs) if admits(c)]

    def fitting(entries_kept):
        return [c for c in secrets if all(answer(score, g, c) == fb for g, fb in entries_kept)]

    assert fitting(history) == [read_code(out["secret"])]
    for i in range(len(history)):
        assert len(fitting(history[:i] + history[i + 1:])) > 1
    assert out["remaining"][-1] == 1 and len(history) == entries


def test_puzzle_check_counts_the_encodings_codes(run):
    # 0000 answered 0,0 leaves 25 palindromes of 4x6 (no colour 0 on any peg), 625 codes of the whole game.
    out = run("puzzle", "--check", "--encoding", EXAMPLES / "palindrome.lp", "0000:0,0", "--json")
    assert out.exit_code == 1
    assert json.loads(out.stdout)["consistent"] == 25
