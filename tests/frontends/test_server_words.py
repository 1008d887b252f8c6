"""The server's refusals in the API's words: a request's fields, a variant's name; never an option or a file.

docs/server.md promises that a request names a variant by its name, never a file, and that the replies do too.
Refusals made far from the server (the rules' own checks, a strategy's or an engine's limits, a rule derived from
an encoding) said ``--max-repeat``, ``--strategy``, ``use --backend clingo`` (for a variant clingo does not play)
and ``64x255 feedback random.py``. They now name the request's fields (``rules.max_repeat``, ``strategy``) and the
variant (``64x255 variant random``); the command line still says its options
(:class:`~mm_logic.rules.Naming`).

The API in process (``client``, tests/conftest.py), and a store that serves two variants: ``random``, a rule module
of one's own (python only), and ``shared_colours``, a rule examples/shared_colours.lp states.
"""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from mm_logic.rules import Rules
from mm_logic.server.api import create_app
from mm_logic.server.store import GameStore
from mm_logic.server.variant import Variant

from conftest import ROOT, api_error, one_line_error

#: A rule of one's own, served as the variant ``random``: the colours the guess shares with the code.
RULE = """\
from collections import Counter


def score(guess, secret):
    return (sum((Counter(guess) & Counter(secret)).values()),)
"""
SHARED_LP = ROOT / "examples" / "shared_colours.lp"
#: Any entrant of a race, for the rules' refusals (made before any entrant plays).
ENTRANTS = [{"backend": "python", "strategy": "first"}]


@pytest.fixture(scope="module")
def rule_file(tmp_path_factory):
    """The rule module of the variant ``random``, as ``serve --feedback m/random.py`` names it."""
    path = tmp_path_factory.mktemp("m") / "random.py"
    path.write_text(RULE)
    return path


@pytest.fixture(scope="module")
def variants(rule_file):
    """The variants ``random`` (the module) and ``shared_colours`` (the .lp rule), loaded as ``serve`` loads them."""
    return (Variant.load(None, str(rule_file), None, Rules()), Variant.load(None, str(SHARED_LP), None, Rules()))


@pytest.fixture
def variant_client(variants):
    """The API over a store serving both variants."""
    with TestClient(create_app(GameStore(max_games=5, idle_seconds=60, time_limit=10, variants=variants))) as client:
        yield client


def refused(client, path: str, body: dict, status: int, message: str) -> None:
    """``body`` posted to ``path`` is refused with ``status`` and ``message``: no option, no file in it."""
    api_error(client.post(path, json=body), status, message)
    assert "--" not in message and ".py" not in message and ".lp" not in message


# -- the rules' fields ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("rules, message", [
    ({"pegs": 0}, "rules.pegs must be between 1 and 64, got 0"),
    ({"colors": 300}, "rules.colors must be between 1 and 255, got 300"),
    ({"max_repeat": 0}, "rules.max_repeat must be at least 1, got 0"),
    ({"lies": 9}, "rules.lies must be between 0 and 3, got 9"),
    ({"alphabet": "AAB"}, "rules.alphabet must list distinct symbols, without ',', ':' or spaces"),
    ({"no_repeat": True, "max_repeat": 2}, "rules.no_repeat contradicts rules.max_repeat 2"),
])
def test_a_rules_field_is_named_as_the_request_writes_it(client, variant_client, rules, message):
    refused(client, "/api/games", {"rules": rules}, 400, message)
    refused(client, "/api/races", {"rules": rules, "entrants": ENTRANTS}, 400, message)
    refused(client, "/api/races", {"rules": rules, "entrants": ENTRANTS, "games": 2}, 400, message)
    # A variant's rules alike (the request's size, repetition and alphabet are played as the variant).
    refused(variant_client, "/api/games", {"rules": {**rules, "variant": "random"}}, 400, message)


def test_a_guess_beyond_the_repetition_rule_names_the_field(client):
    game = client.post("/api/games", json={"rules": {"no_repeat": True}, "backend": "python", "strategy": "first"})
    assert game.status_code == 201, game.text
    refused(client, f"/api/games/{game.json()['id']}/guesses", {"guess": "0012"}, 400,
            "code '0012' uses colour 0 2 times, which rules.no_repeat forbids")


# -- the strategy and the backend ------------------------------------------------------------------------------
@pytest.mark.parametrize("body, message", [
    ({"rules": {"pegs": 30, "colors": 30}}, "strategy minimax scores guesses against every code and plays at most "
     "20,000,000 codes; 30x30 has about 2.059e+44: use strategy first, any, random, any-random-opening or "
     "sample-entropy"),
    ({"rules": {"pegs": 10, "colors": 10}, "backend": "python", "strategy": "first"},
     "10x10 has 10,000,000,000 codes, more than the python engine enumerates (20,000,000); use backend clingo"),
    ({"rules": {"no_repeat": True}, "strategy": "human1"},
     "strategy human1 probes with codes that repeat colours beyond rules.no_repeat, which a codebreaker game "
     "refuses as guesses: its hints could not be played; choose another strategy"),
    # A genetic strategy's parameters: "--ga population=abc", an option the API has not.
    ({"strategy": "ga004:population=abc"}, "ga004 population=abc: a whole number from 2 to 100000"),
    ({"strategy": "ga004:size=3"}, "ga004: unknown parameter 'size'; choose from population, mutation, mutate, ratio, "
     "selection, tournament, eset, generations"),
    ({"rules": {"max_repeat": 2}, "strategy": "human3"},
     "strategy human3 probes with codes that repeat colours beyond rules.max_repeat 2, which a codebreaker game "
     "refuses as guesses: its hints could not be played; choose another strategy"),
])
def test_a_strategy_and_a_backend_are_named_as_fields(client, body, message):
    refused(client, "/api/games", body, 400, message)


def test_a_scorer_with_lies_names_the_fields(client):
    game = client.post("/api/games", json={"rules": {"pegs": 5, "colors": 6, "lies": 1}, "backend": "python",
                                           "strategy": "minimax", "role": "codemaker"})
    assert game.status_code == 201, game.text
    message = ("rules.lies with strategy minimax scores every code against every state: games of at most 4,096 codes "
               "(5x6 1 lie has 7,776); use strategy first, any or random")
    api_error(client.get(f"/api/games/{game.json()['id']}/next"), 409, message)


# -- a variant by its name, never its file -----------------------------------------------------------------------
TOO_LARGE = ("64x255 variant random has about 1.044e+154 codes, more than the python engine enumerates "
             "(20,000,000); play fewer pegs or colours")


def test_a_variant_too_large_for_its_engine_is_named_and_no_other_backend_offered(variant_client):
    # The audit's case: the file was named, and clingo offered, which does not play a rule module.
    rules = {"variant": "random", "pegs": 64, "colors": 255}
    refused(variant_client, "/api/games", {"rules": rules, "strategy": "first"}, 400, TOO_LARGE)
    refused(variant_client, "/api/races", {"rules": rules, "entrants": ENTRANTS}, 400, f"entrant 1: {TOO_LARGE}")
    refused(variant_client, "/api/races", {"rules": rules, "entrants": ENTRANTS, "games": 2}, 400,
            f"entrant 1: {TOO_LARGE}")


def test_a_scorer_on_a_large_variant_is_offered_only_strategies_that_play_it(variant_client):
    # sample-entropy scores a rule of one's own up to 40,000 codes only: it is not offered for 1e+154.
    refused(variant_client, "/api/games", {"rules": {"variant": "random", "pegs": 64, "colors": 255}}, 400,
            "strategy minimax scores guesses against every code and plays at most 20,000,000 codes; 64x255 variant "
            "random has about 1.044e+154: use strategy first, any, random or any-random-opening")


def test_the_adversary_names_the_variant(variant_client):
    refused(variant_client, "/api/games", {"rules": {"variant": "random", "pegs": 8, "colors": 9},
                                           "adversary": True, "strategy": "first"}, 400,
            "the adversary lists the codes still possible, at most 1,000,000 on the python engine, and 8x9 variant "
            "random has 43,046,721: play a smaller game, or with a secret")


def test_a_rule_an_encoding_states_is_refused_beyond_its_table_by_the_variants_name(variant_client):
    refused(variant_client, "/api/games", {"rules": {"variant": "shared_colours", "pegs": 8, "colors": 8},
                                           "backend": "python", "strategy": "first"}, 400,
            "variant shared_colours: deriving the rule's table of 8x8 (16,777,216 codes) by clingo is beyond 10,000 "
            "codes; play fewer pegs or colours")


# -- the command line keeps its options ----------------------------------------------------------------------------
def test_the_command_line_still_names_its_options(run, rule_file):
    one_line_error(run("next", "--backend", "python", "--no-repeat", "--max-repeat", 2), 2,
                   "--no-repeat contradicts --max-repeat 2")
    one_line_error(run("next", "--backend", "python", "--alphabet", "AAB"), 2,
                   "--alphabet must list distinct symbols, without ',', ':' or spaces")
    one_line_error(run("next", "--backend", "python", "--strategy", "first", "--pegs", 30, "--colors", 30,
                       "--feedback", rule_file), 2,
                   "30x30 feedback random.py has about 2.059e+44 codes, more than the python engine enumerates "
                   "(20,000,000); use --backend clingo")
    one_line_error(run("next", "--backend", "python", "--strategy", "first", "--pegs", 8, "--colors", 8,
                       "--feedback", SHARED_LP), 2,
                   f"--feedback {SHARED_LP}: deriving the rule's table of 8x8 (16,777,216 codes) by clingo is beyond "
                   "10,000 codes; state it as a Python module (--feedback FILE.py)")


# -- a time limit is the server's ------------------------------------------------------------------------------------
def test_a_question_past_the_time_limit_says_the_limit_is_the_servers():
    # It said "raise --time-limit", an option of the command that started the server, which the client cannot set.
    with TestClient(create_app(GameStore(max_games=5, idle_seconds=60, time_limit=1e-9))) as tight:
        game = tight.post("/api/games", json={"rules": {"pegs": 9, "colors": 6}, "role": "codemaker",
                                              "backend": "python", "strategy": "first"})
        assert game.status_code == 201, game.text
        path = f"/api/games/{game.json()['id']}"
        assert tight.get(f"{path}/next").json()["guess"] == "000000000"
        api_error(tight.post(f"{path}/feedback", json={"black": 1, "white": 0}), 422,
                  "python did not answer within the time limit of 1e-09 s (9x6, 10,077,696 codes to filter); the "
                  "server sets that limit")


# -- a variant's rule that fails: one status, whatever the request ------------------------------------------------
FAILING = """\
def score(guess, secret):
    if len(guess) == 3:
        raise ValueError("no rule for three pegs")
    return (sum(g == s for g, s in zip(guess, secret)),)
"""


def test_a_variants_rule_that_fails_is_422_on_every_request(tmp_path):
    # /guesses and /split said 400 (the request's fault), /next 409 (the game's state) for the same fault of the
    # operator's rule module: it is a question the variant's rule could not answer.
    path = tmp_path / "failing.py"
    path.write_text(FAILING)
    variant = Variant.load(None, str(path), None, Rules())
    said = f"{path}: score((0, 0, 0), <a code withheld>) failed: ValueError (its message withheld)"
    with TestClient(create_app(GameStore(max_games=5, idle_seconds=60, time_limit=10, variants=(variant,)))) as api:
        rules = {"variant": "failing", "pegs": 3, "colors": 3}
        breaker = api.post("/api/games", json={"rules": rules, "backend": "python", "strategy": "first",
                                               "secret": "012"})
        maker = api.post("/api/games", json={"rules": rules, "backend": "python", "strategy": "minimax",
                                             "role": "codemaker"})  # it scores every code: the rule at /next
        assert (breaker.status_code, maker.status_code) == (201, 201), (breaker.text, maker.text)
        breaking, making = (f"/api/games/{game.json()['id']}" for game in (breaker, maker))
        api_error(api.post(f"{breaking}/guesses", json={"guess": "000"}), 422, said)
        api_error(api.get(f"{breaking}/split", params={"guess": "000"}), 422, said)
        api_error(api.get(f"{making}/next"), 422, said)
