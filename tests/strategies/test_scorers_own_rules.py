"""The scorers (minimax, expected, entropy, parts, sample-entropy) under a rule of one's own, against a brute force.

A rule of one's own has no compiled feedback: the scorers rank every code from the game's feedback
table, with no symmetry assumed. The reference here replays every secret with the rule's ``score``
called directly, the win told apart, and picks each guess by the contract (lowest rank, then a code
still possible, then the smallest) from the scorers' textbook ranks.
"""

from __future__ import annotations

from collections import Counter

import pytest

from mm_logic.rules import Rules

from generators import SCORER_RANKS, brute_replay, own_rule_file, own_score


def answer(score, guess, code):
    return "won" if guess == code else score(guess, code)


def pick(score, codes, alive, rank):
    members = set(alive)

    def key(guess):
        parts = Counter(answer(score, guess, code) for code in alive)
        return rank(parts.values()), guess not in members, guess
    return min(codes, key=key)


def brute_histogram(score, pegs, colors, rank) -> dict[str, int]:
    """Every secret replayed by the contract's pick, the parts by the rule's answers."""
    replayed = brute_replay(Rules(pegs, colors), lambda codes, alive: alive[0] if len(alive) <= 2 else
                            pick(score, codes, alive, rank), lambda guess, code: answer(score, guess, code))
    return {str(k): v for k, v in replayed.items()}


@pytest.mark.parametrize("stem", ["first_half", "shared", "colour_zero"])
@pytest.mark.parametrize("scorer", ["minimax", "expected", "entropy", "parts", "sample-entropy"])
def test_scorers_play_a_rule_of_ones_own(tmp_path, run_json, stem, scorer):
    path = own_rule_file(tmp_path, stem)
    out = run_json("bench", "--backend", "python", "--strategy", scorer, "--pegs", 3, "--colors", 3,
                   "--feedback", path, "--all")
    # sample-entropy is the exact entropy scorer in spaces this small.
    rank = SCORER_RANKS["entropy" if scorer == "sample-entropy" else scorer]
    assert out["histogram"] == brute_histogram(own_score(stem), 3, 3, rank)


def test_a_scorer_refuses_a_rule_of_ones_own_beyond_its_table(tmp_path, run):
    path = own_rule_file(tmp_path, "shared")
    out = run("next", "--backend", "python", "--strategy", "minimax", "--pegs", 7, "--colors", 5,
              "--feedback", path)
    assert out.exit_code == 2
    assert out.stderr == ("error: --strategy minimax scores a rule of your own from its feedback table, in games of "
                          "at most 40,000 codes; 7x5 feedback shared.py has 78,125: use --strategy first, any or "
                          "random\n")
