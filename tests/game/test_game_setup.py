"""The set-up of one game checked in one place (mm_logic/game_setup.py): every refusal, in the words of the
command line and of the server's API, and the front ends asking it rather than checking on their own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mm_logic.engines import make_engine
from mm_logic.game_setup import API, COMMAND_LINE, GameSetup
from mm_logic.rules import Rules
from mm_logic.support.errors import BadInput

from conftest import ROOT

RULES = Rules(4, 6)
LYING = Rules(4, 6, lies=1)


#: (set-up, the command line's message, the API's message).
REFUSED = [
    (GameSetup(RULES, role="umpire"), "unknown --role 'umpire'; choose from codebreaker, codemaker, duel",
     "unknown role 'umpire'; choose from codebreaker, codemaker"),
    (GameSetup(RULES, role="codemaker", rounds=4), "--rounds applies to --role duel",
     "rounds applies to role duel"),
    (GameSetup(RULES, role="codemaker", adversary=True),
     "--adversary applies to --role codebreaker: the computer then answers your guesses",
     "adversary applies to role codebreaker: the server then answers the guesses"),
    (GameSetup(RULES, secret="0123", adversary=True),
     "--adversary keeps no secret: give --secret or --adversary, not both",
     "an adversary keeps no secret: give secret or adversary, not both"),
    (GameSetup(LYING, role="codemaker", liar="2"),
     "--liar applies to --role codebreaker with a secret: the computer then answers your guesses",
     "liar applies to role codebreaker with a secret: the server then answers the guesses"),
    (GameSetup(LYING, adversary=True, liar="2"),
     "--liar applies to --role codebreaker with a secret: the computer then answers your guesses",
     "liar applies to role codebreaker with a secret: the server then answers the guesses"),
    (GameSetup(LYING, adversary=True), "an adversary tells no lies: its answers already keep the most codes",
     "an adversary tells no lies: its answers already keep the most codes"),
    (GameSetup(RULES, role="codemaker", secret="0123"),
     "--secret applies to --role codebreaker: as codemaker you keep the code in mind",
     "secret applies to role codebreaker: as codemaker you keep the code in mind"),
    (GameSetup(RULES, liar="2"), "--liar needs --lies K: the codemaker may tell at most K wrong answers",
     "liar needs rules.lies: the codemaker may tell at most K wrong answers"),
    (GameSetup(LYING, liar="2,5"), "--liar names 2 answers, more than --lies 1 allows",
     "liar names 2 answers, more than lies 1 allows"),
    (GameSetup(LYING, liar="soon"), "--liar takes random or the answers that lie, by number (2,5), got 'soon'",
     "liar takes random or the answers that lie, by number (2,5), got 'soon'"),
]


@pytest.mark.parametrize("setup, command_line, api", REFUSED)
def test_a_setup_that_does_not_hold_together_is_refused_in_the_words_of_each_front_end(setup, command_line, api):
    if setup.role != "umpire":  # the server plays no duel, so the command line's roles are more
        with pytest.raises(BadInput) as told:
            setup.check(COMMAND_LINE)
        assert str(told.value) == command_line
    with pytest.raises(BadInput) as told:
        setup.check(API)
    assert str(told.value) == api


@pytest.mark.parametrize("setup, message", [
    (GameSetup(RULES, role="duel", rounds=3),
     "--rounds 3 is odd: a duel has an even number of rounds, so that each side makes as many codes as it breaks"),
    (GameSetup(RULES, role="duel", secret="0123"),
     "--secret applies to --role codebreaker: in a duel the computer's codes are drawn (reproducible with --seed)"),
    (GameSetup(LYING, role="duel"), "--lies applies to --role codebreaker and codemaker"),
    (GameSetup(RULES, role="umpire"), "unknown --role 'umpire'; choose from codebreaker, codemaker, duel"),
])
def test_a_duel_is_the_command_lines_and_checked_there(setup, message):
    with pytest.raises(BadInput) as told:
        setup.check(COMMAND_LINE)
    assert str(told.value) == message
    with pytest.raises(BadInput) as told:
        setup.check(API)
    assert str(told.value).startswith("unknown role") if setup.role != "duel" else "duel" in str(told.value)


@pytest.mark.parametrize("setup", [GameSetup(RULES), GameSetup(RULES, secret="0123"), GameSetup(RULES, adversary=True),
                                   GameSetup(LYING, liar="random"), GameSetup(LYING, role="codemaker"),
                                   GameSetup(RULES, role="duel", rounds=4)])
def test_a_setup_that_holds_together_passes(setup):
    setup.check(COMMAND_LINE)


def test_the_secret_is_the_one_given_or_drawn_from_the_seed_and_none_for_the_computers_roles():
    engine = make_engine("python", RULES)
    try:
        assert GameSetup(RULES, secret="0123").secret_for(engine) == (0, 1, 2, 3)
        drawn = GameSetup(RULES, seed=7).secret_for(engine)
        assert drawn == GameSetup(RULES, seed=7).secret_for(engine) and len(drawn) == 4
        assert GameSetup(RULES, adversary=True).secret_for(engine) is None
        assert GameSetup(RULES, role="codemaker").secret_for(engine) is None
        assert len(GameSetup(RULES, role="duel", rounds=6, seed=1).duel_secrets(engine)) == 3
    finally:
        engine.close()


def test_a_secret_an_edited_encoding_excludes_is_named_in_each_front_ends_words():
    engine = make_engine("clingo", RULES, encoding=ROOT / "examples" / "palindrome.lp")
    try:
        assert GameSetup(RULES, secret="0110").secret_for(engine) == (0, 1, 1, 0)
        for words, field in ((COMMAND_LINE, "--secret"), (API, "secret")):
            with pytest.raises(BadInput) as told:
                GameSetup(RULES, secret="0123").secret_for(engine, words)
            assert str(told.value) == (f"{field} 0123 is excluded by palindrome.lp (the game's secrets are the codes "
                                       "it admits)")
    finally:
        engine.close()


#: Sentences of the set-up's refusals: no front end may raise them on its own.
SETUP_SENTENCES = ("applies to role", "applies to --role", "tells no lies", "is odd: a duel", "or adversary, not both",
                   "or --adversary, not both")


def test_no_front_end_checks_a_setup_on_its_own():
    written = {}
    for path in sorted((ROOT / "mm_logic").rglob("*.py")):
        if path.name == "game_setup.py":
            continue
        raised = [n for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Raise)]
        for node in (inner for r in raised for inner in ast.walk(r)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for sentence in SETUP_SENTENCES:
                    if sentence in node.value:
                        written.setdefault(str(Path(path).relative_to(ROOT)), []).append(sentence)
    assert written == {}


@pytest.mark.parametrize("role", ["codemaker", "codebreaker", "duel"])
def test_play_refuses_an_encoding_that_admits_no_code_in_every_role(run, tmp_path, role):
    # As codemaker the computer guessed 000, which the encoding excludes, and "found your code in 1 guess".
    none = tmp_path / "none.lp"
    none.write_text('#include "mastermind.lp".\n#program base.\n:- secret(1,C).\n')
    result = run("play", "--role", role, "--pegs", 3, "--colors", 3, "--encoding", none, "--backend", "clingo",
                 input="3,0\n")
    assert (result.exit_code, result.stdout) == (3, "")
    assert result.stderr == "error: no code of 3x3 exists under the encoding none.lp\n"
