"""``--lies K`` where the game is written in an encoding: a rule stated once (``--feedback FILE.lp``, ``FILE.pl``),
an encoding compared with a rule module (``--feedback FILE.py --encoding FILE.lp``), ``optimal --encoding``.

A liar of a rule an encoding states answers under the rule's own table, over the codes the encoding admits:
examples/shared_no_adjacent.lp admits the codes with no colour on two adjacent pegs and tells the colours a
guess shares with the secret. The states (code, lies used) every engine keeps and the liar's wrong answers are
checked against a brute force written here from that definition; then each front end that takes ``--lies``
(next, solve, bench, play, the server) plays such a game, and ``optimal --lies``, which searches every code of
a game, refuses an encoding in one line.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import product

import pytest

from mm_logic.codespace import code_space
from mm_logic.engines import make_engine
from mm_logic.feedback import rule_of
from mm_logic.lies import lies_told, possible
from mm_logic.rules import Rules
from mm_logic.server.process import ServerProcess

from conftest import ROOT, http_json, http_post, one_line_error

EXAMPLES = ROOT / "examples"
SNA = EXAMPLES / "shared_no_adjacent.lp"
#: 3 pegs over 3 colours with one lie, the rule of shared_no_adjacent.lp.
RULES = Rules(3, 3, feedback=str(SNA), lies=1)
SMALL = ["--pegs", "3", "--colors", "3", "--lies", "1", "--feedback", SNA]


# -- the game as written here, apart from the package -----------------------------------------------------------
def admitted(pegs: int = 3, colors: int = 3) -> list[tuple[int, ...]]:
    """The codes shared_no_adjacent.lp admits: no colour on two adjacent pegs."""
    return [code for code in product(range(colors), repeat=pegs) if all(a != b for a, b in zip(code, code[1:]))]


def shared(guess, secret) -> int:
    """The colours ``guess`` shares with ``secret``, each pairing of pegs counted once."""
    return sum((Counter(guess) & Counter(secret)).values())


def brute_states(history, lies: int = 1) -> list[tuple[tuple[int, ...], int]]:
    """Each admitted code still possible after ``history`` (entries ``(guess, told)``, ``told`` a number or
    ``"won"``), with the entries it breaks: the win is always told and never claimed wrongly."""
    states = []
    for code in admitted():
        if any((guess == code) != (told == "won") for guess, told in history):
            continue
        broken = sum(told != "won" and shared(guess, code) != told for guess, told in history)
        if broken <= lies:
            states.append((code, broken))
    return states


#: The entries tried: guesses the encoding admits and one it does not (000), each told every answer.
GUESSES = [(0, 1, 2), (0, 1, 0), (0, 0, 0), (1, 2, 1)]
ANSWERS = [0, 1, 2, 3, "won"]
HISTORIES = [[]] + [[(g, a)] for g in GUESSES for a in ANSWERS] + [
    [(g, a), (h, b)] for g, h in product(GUESSES[:3], repeat=2) if g != h for a in ANSWERS[:4] for b in ANSWERS]


def as_entries(history) -> list:
    """A brute-force history as the package writes it: the win as the rule's win."""
    win = rule_of(RULES).win(RULES.pegs)
    return [(guess, win if told == "won" else (told,)) for guess, told in history]


# -- the states and the liar, against the brute force -------------------------------------------------------------
def test_the_states_are_the_admitted_codes_that_break_at_most_k_entries():
    for history in HISTORIES:
        assert list(possible(RULES, as_entries(history))) == brute_states(history), history


@pytest.mark.parametrize("backend", ["python", "clingo"])
def test_every_engine_keeps_the_brute_forces_states(backend):
    engine, space = make_engine(backend, RULES), code_space(RULES)
    try:
        for history in HISTORIES:
            with engine.session(as_entries(history)) as session:
                got = [(space.code(i), n) for i, n in zip(session.consistent_indices().tolist(),
                                                          session.lies_needed().tolist())]
            assert got == brute_states(history), (backend, history)
    finally:
        engine.close()


def test_a_liar_answers_every_number_of_the_rule_but_the_truth():
    for guess, secret in product(GUESSES, admitted()):
        expected = [] if guess == secret else [(v,) for v in range(RULES.pegs + 1) if v != shared(guess, secret)]
        assert lies_told(RULES, guess, secret) == expected, (guess, secret)


# -- the command line ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["python", "clingo"])
def test_next_plays_a_rule_written_once_with_lies(run, backend):
    # 4x6 as in the report: the 750 codes with no colour twice in a row (6 x 5 x 5 x 5)
    result = run("next", "--backend", backend, "--feedback", SNA, "--lies", "1")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "0101  (750 codes still possible)\n", "")
    assert len(admitted(4, 6)) == 750
    # 012 told 1, which no admitted code gives (each shares two colours at least): one lie each, then 021 true
    result = run("next", "--backend", backend, *SMALL, "012:1", "021:2", "--json")
    assert result.exit_code == 0, result.output
    assert result.stdout == '{"guess": "000", "consistent": 6}\n'
    assert len(brute_states([((0, 1, 2), 1), ((0, 2, 1), 2)])) == 6


def lines_of(game: str) -> list[tuple[tuple[int, ...], object, bool]]:
    """The guesses of ``solve``'s text: each code, its answer (a number or won) and whether it was a lie."""
    entries = []
    for line in game.splitlines()[:-1]:
        _, code, told, *lie = line.split()
        entries.append((tuple(map(int, code)), "won" if told == "won" else int(told), bool(lie)))
    return entries


@pytest.mark.parametrize("backend", ["python", "clingo"])
def test_solve_with_a_liar_finds_the_secret_and_lies_where_it_says(run, backend):
    result = run("solve", "--backend", backend, "--feedback", SNA, "--lies", "1", "--secret", "1210", "--liar", "2",
                 "--seed", "3")
    assert result.exit_code == 0, result.output
    assert result.stdout == ("1  0101  3\n2  0202  1  (a lie)\n3  2345  1\n4  0131  3\n5  1124  3\n6  0141  3\n"
                             "7  0121  4\n8  1012  4\n9  1021  4\n10  1201  4\n11  1210  won\n11 guesses\n")
    secret = (1, 2, 1, 0)
    for number, (guess, told, lie) in enumerate(lines_of(result.stdout), 1):
        truth = "won" if guess == secret else shared(guess, secret)
        assert (told != truth) == lie == (number == 2), (guess, told)


@pytest.mark.parametrize("liar", ["random", "every"])
def test_bench_with_a_liar_plays_the_admitted_codes_alike_on_both_engines(run, liar):
    outputs = {}
    for backend in ("python", "clingo"):
        result = run("bench", "--backend", backend, *SMALL, "--all", "--liar", liar, "--seed", "2", "--json")
        assert result.exit_code == 0, result.output
        outputs[backend] = re.sub(r'"seconds": [0-9.]+', "", result.stdout).replace('"backend": "python"', "")
    assert outputs["python"] == outputs["clingo"].replace('"backend": "clingo"', "")
    if liar == "every":
        assert '"games": 105' in outputs["python"]
        assert '"histogram": {"1": 1, "2": 4, "3": 10, "4": 28, "5": 39, "6": 20, "7": 2, "8": 1}' in outputs["python"]


def test_play_as_codemaker_takes_a_lie_of_a_rule_written_once(run):
    result = run("play", "--role", "codemaker", *SMALL, input="1\n1\n2\n0\n1\n2\n2\nwon\n")
    assert result.exit_code == 0, result.output
    refused = "no code is consistent with the history: none breaks at most --lies 1 of entries {}; type the right " \
              "answer for {}, or undo\n"
    assert result.stdout.split("\n", 1)[1] == (refused.format("1, 2 (012:1 021:1)", "021")
                                               + refused.format("1, 3, 4 (012:1 000:0 121:1)", "121")
                                               + refused.format("1, 2, 4, 5 (012:1 021:2 121:2 212:2)", "212")
                                               + "found your code in 5 guesses\n")
    # by brute force: each refused history has no state; the one kept finds 212, 012:1 its lie
    assert brute_states([((0, 1, 2), 1), ((0, 2, 1), 1)]) == []
    assert brute_states([((0, 1, 2), 1), ((0, 2, 1), 2), ((0, 0, 0), 0), ((1, 2, 1), 1)]) == []
    assert brute_states([((0, 1, 2), 1), ((0, 2, 1), 2), ((0, 0, 0), 0), ((1, 2, 1), 2), ((2, 1, 2), 2)]) == []
    kept = [((0, 1, 2), 1), ((0, 2, 1), 2), ((0, 0, 0), 0), ((1, 2, 1), 2)]
    assert brute_states(kept) == [((2, 1, 2), 1)]


def test_play_as_codebreaker_hears_a_lie_of_a_rule_written_once(run):
    result = run("play", *SMALL, "--secret", "121", "--liar", "1", "--seed", "1", input="012\n010\n121\n")
    assert result.exit_code == 0, result.output
    told = int(result.stdout.splitlines()[2].split()[1])
    assert told != shared((0, 1, 2), (1, 2, 1)) and (told,) in lies_told(RULES, (0, 1, 2), (1, 2, 1))
    assert result.stdout.splitlines()[-1] == f"answer 1 was wrong: 012 gets 2, I said {told}"


# -- an encoding compared with the rule module, with lies ------------------------------------------------------------
def test_an_encoding_that_states_the_rule_module_plays_it_with_lies(run):
    rule = EXAMPLES / "shared_colours.py"
    # 3x3: the module's table at once (4x6's, 1.7 million calls, took 10 s for the same check).
    result = run("next", "--feedback", rule, "--backend", "clingo", "--encoding", EXAMPLES / "shared_colours.lp",
                 "--lies", "1", "--pegs", "3", "--colors", "3")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "000  (27 codes still possible)\n", "")


def test_an_encoding_that_disagrees_with_the_rule_module_is_refused_with_lies_as_without(run):
    rule, palindrome = EXAMPLES / "shared_colours.py", EXAMPLES / "palindrome.lp"
    message = (f"{palindrome} disagrees with {rule} on 0000 against 0110: {rule} gives 2, the encoding 0 or 1 or 2 "
               "or 3")
    for lies in ("0", "1"):
        one_line_error(run("next", "--feedback", rule, "--encoding", palindrome, "--lies", lies), 2, message,
                       stdout="")


# -- optimal --lies searches every code: an encoding is refused -----------------------------------------------------
def test_optimal_with_lies_refuses_an_encoding(run):
    one_line_error(run("optimal", "--pegs", "4", "--colors", "3", "--lies", "1", "--objective", "worst-case",
                       "--encoding", EXAMPLES / "palindrome.lp", "--json"), 2,
                   "--encoding does not apply with --lies: optimal --lies searches every code of the game, not the "
                   "codes an encoding admits", stdout="")


@pytest.mark.parametrize("name", ["shared_no_adjacent.lp", "shared_colours.pl"])
def test_optimal_with_lies_refuses_a_rule_written_in_an_encoding(run, name):
    rule = EXAMPLES / name
    one_line_error(run("optimal", "--pegs", "2", "--colors", "3", "--lies", "1", "--objective", "worst-case",
                       "--feedback", rule), 2,
                   f"--lies does not apply with --feedback {rule}: optimal --lies searches every code of the game "
                   "under a built-in rule or a rule module (--feedback FILE.py), not an encoding", stdout="")


# -- the server ------------------------------------------------------------------------------------------------------
def test_the_server_plays_a_variant_written_once_with_lies():
    with ServerProcess("--feedback", str(SNA), "--variant-name", "sna") as live:
        rules = {"variant": "sna", "lies": 1, "pegs": 3, "colors": 3}
        replies = []
        status, game = http_post(live.url + "/api/games", {"rules": rules, "backend": "python"})
        replies.append(game)
        assert status == 201, game
        status, hint = http_json(f"{live.url}/api/games/{game['id']}/next")
        assert (status, hint) == (200, {"guess": "012", "consistent": len(brute_states([]))})
        status, answer = http_post(f"{live.url}/api/games/{game['id']}/guesses", {"guess": "012"})
        # The secret is drawn: 2 or 3 colours shared, or 012 itself (a game in 1 of the admitted codes: CI met it).
        assert status == 200 and answer["feedback"] in {"2", "3", "won"}, answer
        # a liar at answer 1, against 121: a wrong number, then the truth and the win
        status, game = http_post(live.url + "/api/games", {"rules": rules, "secret": "121", "liar": [1]})
        assert status == 201, game
        told = [http_post(f"{live.url}/api/games/{game['id']}/guesses", {"guess": code})[1]["feedback"]
                for code in ("012", "010", "121")]
        assert told[0] in {"0", "1", "3"} and told[1:] == ["1", "won"]
        # as codemaker, the computer takes an answer no admitted code gives (a lie) and guesses on
        status, game = http_post(live.url + "/api/games", {"rules": rules, "role": "codemaker"})
        assert status == 201, game
        status, state = http_post(f"{live.url}/api/games/{game['id']}/feedback", {"feedback": "1"})
        assert status == 200 and state["history"] == [{"guess": "012", "feedback": "1"}], state
        replies += [hint, answer, state]
    assert not any(str(EXAMPLES) in str(reply) or "shared_no_adjacent" in str(reply) for reply in replies)
