"""The codemaker without a secret (issue 40, item 5): each answer keeps the most codes possible.

Checked against an adversary written apart (every code scored by brute force, the largest class
of codes by feedback, ties to a feedback that does not win, then to the smallest feedback), on
every engine and rule; then through ``mmlogic play --adversary`` and the server's API.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mm_logic.adversary import adversarial_answer
from mm_logic.engines import engine_class
from mm_logic.engines.reference import ReferenceEngine
from mm_logic.feedback import rule_of
from mm_logic.game import Game
from mm_logic.notation import format_entry
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy

from conftest import api_error


def brute_force_answer(rules: Rules, history, guess):
    """The adversary's answer from its definition alone: scores of every code of the space."""
    rule = rule_of(rules)
    codes = [c for c in itertools.product(range(rules.colors), repeat=rules.pegs)
             if max(Counter(c).values()) <= rules.repeat_limit
             and all(rule.score(g, c) == fb for g, fb in history)]
    sizes = Counter(rule.score(guess, c) for c in codes)
    win = rule.win(rules.pegs)
    return max(sorted(sizes, key=lambda fb: rule.index(fb, rules.pegs)), key=lambda fb: (sizes[fb], fb != win))


RULES = [Rules(3, 3), Rules(3, 4, feedback="black"), Rules(3, 3, feedback="positional"), Rules(3, 4, max_repeat=1)]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(RULES), st.data())
def test_every_engine_answers_as_the_definition(rules, data):
    # A random game against the adversary: random guesses, answered by the brute force, checked on
    # every engine at each step.
    draw_code = st.tuples(*[st.integers(0, rules.colors - 1)] * rules.pegs)
    history = []
    for _ in range(data.draw(st.integers(1, 4))):
        guess = data.draw(draw_code.filter(lambda c: max(Counter(c).values()) <= rules.repeat_limit))
        expected = brute_force_answer(rules, history, guess)
        for name in ("python", "clingo", "swipl"):
            engine = engine_class(name)(rules)
            try:
                assert adversarial_answer(engine, history, guess) == expected, name
            finally:
                engine.close()
        history.append((guess, expected))
        if expected == rule_of(rules).win(rules.pegs):
            break


@pytest.mark.parametrize("backend", ["python", "clingo", "swipl"])
def test_knuths_minimax_needs_five_guesses_against_it_and_entropy_six(backend):
    rules = Rules(4, 6)
    played = {}
    for name in ("minimax", "entropy"):
        engine = engine_class(backend)(rules)
        with Game(engine, make_strategy(name, rules), adversary=True) as game:
            while not game.won:
                guess = game.suggest()
                game.record(guess, game.score(guess), check=False)
            played[name] = ([format_entry(e, rules) for e in game.history], game.shown_secret())
        engine.close()
    assert played == {
        "minimax": (["0011:0,0", "2234:1,1", "2525:0,0", "3433:0,2", "4344:4,0"], (4, 3, 4, 4)),
        "entropy": (["0123:0,2", "1245:0,2", "2535:1,1", "4332:0,0", "5501:2,2", "5510:4,0"], (5, 5, 1, 0))}


def test_a_game_given_up_shows_a_code_that_fits_every_answer():
    rules = Rules(4, 6)
    with Game(ReferenceEngine(rules), make_strategy("minimax", rules), adversary=True) as game:
        for guess in [(0, 0, 1, 1), (2, 2, 3, 4)]:
            game.record(guess, game.score(guess), check=False)
        assert game.history == [((0, 0, 1, 1), (0, 0)), ((2, 2, 3, 4), (1, 1))]
        assert game.shown_secret() == (2, 3, 5, 3)  # the first of the 46 codes left
        game.undo()
        assert game.shown_secret() == (2, 2, 2, 2)


def test_play_adversary_in_the_terminal(run):
    result = run("play", "--adversary", "--backend", "python", input="0011\n2234\n?\nq\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "Find the code of 4 pegs over 012345 (4x6). Type help for help.",
        "The computer keeps no secret: each answer is the one that leaves the most codes possible.",
        "0011  0,0", "2234  1,1", "46 codes still possible", "no secret was kept; 2353 fits every answer"]


@pytest.mark.parametrize("args, message", [
    (["--role", "codemaker"], "--adversary applies to --role codebreaker: the computer then answers your guesses"),
    (["--secret", "0123"], "--adversary keeps no secret: give --secret or --adversary, not both"),
    (["--pegs", "8", "--colors", "10", "--strategy", "any"],
     "the adversary lists the codes still possible, at most 1,000,000 on the clingo engine, and 8x10 has "
     "100,000,000: play a smaller game, or with a secret"),
])
def test_play_adversary_bad_input(run, args, message):
    result = run("play", "--adversary", *args, input="")
    assert (result.exit_code, result.stderr) == (2, f"error: {message}\n")


def test_the_server_answers_as_the_adversary(client):
    created = client.post("/api/games", json={"rules": {"pegs": 4, "colors": 6}, "backend": "clingo",
                                              "adversary": True})
    assert created.status_code == 201
    game = created.json()
    assert game["adversary"] is True and "secret" not in game
    url = f"/api/games/{game['id']}"
    replies = [client.post(f"{url}/guesses", json={"guess": g}).json()
               for g in ("0011", "2234", "2525", "3433", "4344")]
    assert [(r["black"], r["white"], r["won"]) for r in replies] == [
        (0, 0, False), (1, 1, False), (0, 0, False), (0, 2, False), (4, 0, True)]
    assert replies[-1]["secret"] == "4344"
    # Given up instead: a code consistent with every answer.
    other = client.post("/api/games", json={"rules": {"pegs": 4, "colors": 6}, "backend": "python",
                                            "adversary": True}).json()
    client.post(f"/api/games/{other['id']}/guesses", json={"guess": "0011"})
    resigned = client.post(f"/api/games/{other['id']}/resign").json()
    assert (resigned["over"], resigned["secret"]) == (True, "2222")


@pytest.mark.parametrize("request_body, message", [
    ({"adversary": "yes"}, "adversary must be true or false"),
    ({"adversary": 1}, "adversary must be true or false"),
    ({"adversary": True, "role": "codemaker"},
     "adversary applies to role codebreaker: the server then answers the guesses"),
    ({"adversary": True, "secret": "0123"}, "an adversary keeps no secret: give secret or adversary, not both"),
    ({"adversary": True, "rules": {"pegs": 8, "colors": 10}, "strategy": "any"},
     "the adversary lists the codes still possible, at most 1,000,000 on the python engine, and 8x10 has "
     "100,000,000: play a smaller game, or with a secret"),
])
def test_bad_adversary_requests(client, request_body, message):
    assert client.post("/api/games", json={"rules": {"pegs": 4, "colors": 6}, "adversary": None}).status_code == 201
    body = {"rules": {"pegs": 4, "colors": 6}, "backend": "python", **request_body}
    api_error(client.post("/api/games", json=body), 400, message)
