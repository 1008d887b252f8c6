"""any-random-opening: random's opening, then the engine's any()."""

from __future__ import annotations

import pytest

from mm_logic.engines import make_engine
from mm_logic.feedback import feedback
from mm_logic.game import Game
from mm_logic.notation import parse_code
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy

from generators import consistent


@pytest.mark.parametrize("secret", [(5, 4, 3, 2), (0, 0, 1, 1), (3, 1, 3, 5)])
def test_after_the_opening_every_guess_is_the_engines_any(secret):
    """The reference engine's any() is its first(): every guess after the opening is the smallest
    consistent code, the opening is random's, and the game is won."""
    rules = Rules(4, 6)
    engine = make_engine("python", rules)
    game = Game(engine, make_strategy("any-random-opening", rules, seed=4), secret=secret)
    while not game.won:
        game.play_turn()
    history = list(game.history)
    with make_engine("python", rules).session() as session:
        assert history[0][0] == make_strategy("random", rules, seed=4).opening(session)
    for n in range(1, len(history)):
        assert history[n][0] == consistent(rules, history[:n])[0]
    assert history[-1] == (secret, (4, 0))
    game.close()


def test_on_30x30_it_opens_with_many_colours_where_any_opens_with_one(run_json):
    """clingo does not aim beyond 400 (peg, colour) pairs: any's opening is one colour throughout."""
    size = ("--pegs", 30, "--colors", 30, "--backend", "clingo")
    plain = run_json("next", *size, "--strategy", "any")["guess"]
    assert plain == "8" * 30
    openings = [run_json("next", *size, "--strategy", "any-random-opening", "--seed", seed)["guess"]
                for seed in (1, 2)]
    assert openings == [run_json("next", *size, "--strategy", "random", "--seed", seed)["guess"]
                        for seed in (1, 2)]
    assert openings[0] != openings[1]
    # A uniform 30x30 code has 30 * (1 - (29/30)**30) = 19.0 colours on average.
    assert min(len(set(code)) for code in openings) >= 15


def test_solve_plays_consistent_codes_after_the_opening_on_clingo(run_json):
    """12x12 on clingo: every guess after the first agrees with every earlier feedback."""
    rules = Rules(12, 12)
    secret = "0123456789AB"
    result = run_json("solve", "--pegs", 12, "--colors", 12, "--backend", "clingo",
                      "--strategy", "any-random-opening", "--seed", 3, "--secret", secret)
    history = [(parse_code(entry["guess"], rules), (entry["black"], entry["white"]))
               for entry in result["guesses"]]
    assert history[-1] == (parse_code(secret, rules), (12, 0))
    for n, (guess, _) in enumerate(history[1:], start=1):
        assert [feedback(g, guess) for g, _ in history[:n]] == [answer for _, answer in history[:n]]
    assert result["attempts"] == len(history) and result["strategy"] == "any-random-opening"
