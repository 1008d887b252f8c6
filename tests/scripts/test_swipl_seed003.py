"""Seed 003's guesser, read from its report at run time, runs through the speed script's own code.

Without duplicates the seed's pairwise counting is the feedback rule, so every
guess it makes must be consistent with the feedback of the previous ones. The
report lies beside the repository (``shared/seeds/``), as in CI.
"""

from __future__ import annotations

import pytest

from mm_logic.engines.reference import ReferenceEngine
from mm_logic.engines.swipl.runtime import load_janus
from mm_logic.feedback import feedback
from mm_logic.secret_codes import random_secrets

from conftest import load_seed003_script


def test_seed_guesser_plays_consistent_guesses_to_the_secret():
    script = load_seed003_script()
    janus = load_janus()
    script.load_seed(janus, 5)
    reference = ReferenceEngine(script.RULES)
    for secret in random_secrets(script.RULES, 3, 5):
        attempts, seconds = script.play_seed(janus, secret)
        assert 1 <= attempts <= 10 and seconds > 0
        # Replay the seed's game from its asserted guesses: each was consistent.
        played = janus.query_once("findall(_G-_F, 'ia.pl':guess(_G, _F), Gs)")["Gs"]
        assert len(played) == attempts - 1
        history = []
        for guess, (black, white) in played:
            assert feedback(tuple(guess), secret) == (black, white)
            if history:
                assert reference.count(history + [(tuple(guess), (black, white))]) >= 1
                assert tuple(guess) in {tuple(c) for c in reference.enumerate(history).tolist()}
            history.append((tuple(guess), (black, white)))
        assert reference.enumerate(history).tolist().count(list(secret)) == 1


def test_the_program_is_read_from_the_report_with_only_the_documented_changes():
    script = load_seed003_script()
    program = script.seed_program()
    report = script.SEED_DOC.read_text(encoding="utf-8")
    assert program.startswith(":- encoding(utf8).\n:- module('ia.pl', [bulls_and_cows/1]).\n")
    assert "library(lambda)" not in program and ":- use_module(library(yall))." in program
    assert "maplist({Max}/[X]>>(X is random(Max)), Solution)" in program
    # Undo the adaptations: what is left is the report's text, line for line.
    original = program.removeprefix(":- encoding(utf8).\n")
    for old, new in script.ADAPTATIONS:
        original = original.replace(new, old)
    assert original in report and original.rstrip().endswith("compte_bien_placees(T, T1, MPC, MPF).")


def test_a_missing_report_is_one_clear_line(tmp_path):
    script = load_seed003_script()
    with pytest.raises(script.MissingReport, match=r"^seed 003's report is not at .*nope\.txt: give its path"):
        script.seed_program(tmp_path / "nope.txt")
    other = tmp_path / "other.txt"
    other.write_text("no program here")
    with pytest.raises(script.MissingReport, match=r"does not hold seed 003's 'ia - version 3\.0\.pl'"):
        script.seed_program(other)
