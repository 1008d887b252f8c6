"""The certificates of docs/results: every saved strategy tree plays every secret of its game to the total and
worst case the results pages quote (on the python engine; the pages give the clingo and swipl replays)."""

from __future__ import annotations

import pytest

from conftest import ROOT

RESULTS = ROOT / "docs" / "results"

#: File, and what docs/results/optimal.md (feedback-rules.md for the black-peg tree) says it plays to.
QUOTED = {
    "4x9-optimal.json": (6561, 34666, 8),
    "4x9-worst-case.json": (6561, 35049, 7),
    "4x10-worst-case.json": (10000, 56424, 7),
    "5x6-optimal.json": (7776, 36721, 7),
    "5x6-worst-case.json": (7776, 37353, 6),
    "5x7-worst-case.json": (16807, 86779, 6),
    "hard-4x6-optimal.json": (1296, 5660, 6),
    "black-4x6-optimal.json": (1296, 8859, 9),
}


#: Strategies against every liar: trees of answers, checked by tests/studies/test_lies_within.py.
AGAINST_LIARS = {"lies-4x6-within-7.json"}


def test_every_certificate_is_quoted_here():
    assert {p.name for p in RESULTS.glob("*.json")} == set(QUOTED) | AGAINST_LIARS


@pytest.mark.parametrize("name", sorted(QUOTED))
def test_a_certificate_plays_every_secret_to_its_quoted_total(run_json, name):
    path = RESULTS / name
    rules = run_json("tree", path)["rules"]
    args = ["--pegs", rules["pegs"], "--colors", rules["colors"], "--feedback", rules["feedback"]]
    played = run_json("bench", "--backend", "python", "--strategy", f"tree:{path}", "--all", *args)
    assert (played["games"], played["total_guesses"], played["max"]) == QUOTED[name]
