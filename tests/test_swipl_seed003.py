"""Seed 003's transcribed guesser (``py/seed003/``) runs, through the speed script's own code.

Without duplicates the seed's pairwise counting is the feedback rule, so every
guess it makes must be consistent with the feedback of the previous ones.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from mm_logic.bench import random_secrets
from mm_logic.engines.reference import ReferenceEngine
from mm_logic.engines.swipl.runtime import load_janus
from mm_logic.feedback import feedback

SCRIPT = Path(__file__).resolve().parent.parent / "py" / "seed003_vs_swipl.py"


def load_script():
    spec = importlib.util.spec_from_file_location("seed003_vs_swipl", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_seed_guesser_plays_consistent_guesses_to_the_secret():
    script = load_script()
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
