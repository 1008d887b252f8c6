"""``py/tools/seed003_openings.py``: seed 003's opening experiments, each followed by ``first``."""

import json
import subprocess
import sys

from mm_logic.codespace import code_space
from mm_logic.engines import make_engine
from mm_logic.game import play
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy
from mm_logic.studies.bench import bench_all, bench_games

from conftest import mmlogic, py_path, py_script

SCRIPT = py_path("seed003_openings")


def test_fixed_codes_are_played_whatever_the_answers_then_first():
    module = py_script("seed003_openings")
    rules = Rules(4, 6, 1)
    engine = make_engine("python", rules)
    player = module.Opened(make_strategy("first", rules), [(0, 1, 2, 3), (2, 3, 4, 5)], seed=1)
    assert player.deterministic and player.name == "0123 2345, first"
    for secret in [(5, 4, 3, 2), (0, 1, 2, 4), (1, 0, 3, 2)]:
        guesses = [g for g, _ in play(engine, player, secret).guesses]
        # 2345 is played even where it cannot be the secret (0124 answers 0123 with 3,0: no 5 in it).
        assert guesses[:2] == [(0, 1, 2, 3), (2, 3, 4, 5)]
        history = play(engine, player, secret).guesses
        for turn in range(2, len(history)):
            assert history[turn][0] == engine.session(history[:turn]).first()
    # Its tree (bench_all) and its games one by one agree.
    every = [code_space(rules).code(i) for i in range(rules.size) if len(set(code_space(rules).code(i))) == 4]
    assert bench_all(engine, player).by_secret() == bench_games(engine, player, every).by_secret()


def test_a_random_code_is_drawn_afresh_for_each_game():
    module = py_script("seed003_openings")
    rules = Rules(5, 8, 1)
    engine = make_engine("python", rules)
    player = module.Opened(make_strategy("first", rules), [module.RANDOM], seed=3)
    assert not player.deterministic and player.name == "random, first"
    openings = [play(engine, player, (0, 1, 2, 3, 4)).guesses[0][0] for _ in range(20)]
    assert len(set(openings)) > 15 and all(len(set(code)) == 5 for code in openings)
    again = module.Opened(make_strategy("first", rules), [module.RANDOM], seed=3)
    assert [play(engine, again, (0, 1, 2, 3, 4)).guesses[0][0] for _ in range(20)] == openings


def test_the_rows_replay_the_report_beside_firsts_own_opening(tmp_path):
    out = tmp_path / "rows.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--json", str(out)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())
    assert [(r["opening"], r["games"], r["report"]) for r in rows] == [
        ("first's own (abcde)", 6720, None), ("a random first code", 6720, 5.43364),
        ("abcde, then a random second code", 6720, 5.43594), ("abcde, then defgh", 6720, 5.48188)]
    # first's own row is mmlogic's bench of first over every secret.
    bench = json.loads(mmlogic("bench", "--backend", "python", "--strategy", "first", "--pegs", "5", "--colors", "8",
                               "--no-repeat", "--all", "--json").stdout)
    assert rows[0]["histogram"] == bench["histogram"] and round(rows[0]["mean"], 3) == bench["mean"]
    for row in rows:
        assert sum(row["histogram"].values()) == 6720
        assert row["mean"] == round(sum(int(k) * n for k, n in row["histogram"].items()) / 6720, 5)
