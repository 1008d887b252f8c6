"""``py/experiments/sample_returns.py --then-any G``: ``sample-entropy`` chooses the first G guesses, then ``any``."""

import json
import subprocess
import sys

from mm_logic.engines import make_engine
from mm_logic.feedback import feedback
from mm_logic.game import play
from mm_logic.randomness import history_rng, random_code
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy

from conftest import py_path, py_script

SCRIPT = py_path("sample_returns")


def test_then_any_plays_the_inner_strategys_first_guesses_then_the_engines_any():
    rules, secret = Rules(4, 6), (5, 4, 3, 1)
    engine = make_engine("python", rules)
    player = py_script("sample_returns").ThenAny(make_strategy("sample-entropy", rules, seed=1), 2)
    guesses = [guess for guess, _ in play(engine, player, secret).guesses]
    alone = [guess for guess, _ in play(engine, make_strategy("sample-entropy", rules, seed=1), secret).guesses]
    # 4x6 is small: sample-entropy plays the exact entropy strategy, which opens with 0123.
    assert guesses[:2] == alone[:2] and guesses[0] == (0, 1, 2, 3)
    history = play(engine, player, secret).guesses
    for turn in range(2, len(history)):
        assert history[turn][0] == engine.session(history[:turn]).any()
    assert guesses[-1] == secret and guesses != alone


def test_the_rows_name_the_players_and_the_guesses_sample_entropy_chose(tmp_path):
    out = tmp_path / "rows.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--sizes", "4x3", "--games", "3", "--ks", "5",
                           "--then-any", "0,2", "--backend", "python", "--json", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())
    assert [(r["player"], r["k"], r["then_any"], r["games"]) for r in rows] == [
        ("any", None, None, 3), ("sample-entropy:5", 5, None, 3),
        ("sample-entropy:5 (0), any", 5, 0, 3), ("sample-entropy:5 (2), any", 5, 2, 3)]
    # G = 0 is any from the first guess on: the same games as any.
    assert rows[2]["mean"] == rows[0]["mean"]


def test_engine_sample_draws_its_sample_from_the_engine_and_scores_it_as_sample_entropy():
    # 7x6 (279,936 codes) is above the exact scorer's 50,000: the sample is what the player says it is.
    rules = Rules(7, 6)
    engine = make_engine("clingo", rules)
    player = py_script("sample_returns").EngineSample(rules, seed=1, k=20)
    assert player.name == "engine-sample-entropy:20"
    record = play(engine, player, (5, 4, 3, 1, 0, 0, 2))
    assert record.guesses[-1][0] == (5, 4, 3, 1, 0, 0, 2)
    # Replayed turn by turn: every sample code is the engine's, consistent with the history.
    history = record.guesses[:2]
    with engine.session(history) as session:
        sample, exact = player.sample(session, history_rng(player.seed, history))
        assert (len(sample), exact, player.last["source"]) == (20, False, "engine")
        assert all(feedback(guess, tuple(code)) == fb for code in sample for guess, fb in history)
    # ... the codes clingo finds nearest the uniform codes of the same generator, asked in a fresh session.
    rng = history_rng(player.seed, history)
    with engine.session(history) as session:
        assert sample.tolist() == [list(session.near(random_code(rules, rng))) for _ in range(20)]
    # The opening is sample-entropy's (k uniform codes, the same generator).
    assert record.guesses[0][0] == play(engine, make_strategy("sample-entropy:20", rules, seed=1),
                                        (5, 4, 3, 1, 0, 0, 2)).guesses[0][0]
