"""``mmlogic split``: how a guess splits the codes still possible, checked by hand and by brute force."""

from __future__ import annotations

import math
from collections import Counter
from itertools import product

import pytest
import test_fuzz_cli as fuzz
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mm_logic.engines.reference import ReferenceEngine
from mm_logic.rules import Rules
from mm_logic.split import split_codes, split_limit
from mm_logic.support.errors import NoConsistentCode, SpaceTooLarge

from conftest import PY, ROOT, api_error, one_line_error

SPLIT_KEYS = {"guess", "codes", "parts", "number_of_parts", "largest", "expected_size", "entropy", "consistent"}


def feedback(g, s) -> tuple[int, int]:
    """Black and white written here from the contract's words (black: right colour right place; white:
    Σ min(counts) - black), not the package's."""
    black = sum(a == b for a, b in zip(g, s))
    return black, sum((Counter(g) & Counter(s)).values()) - black


def brute_force(guess: str, history: list[str], pegs: int = 4, colors: int = 6) -> dict[tuple[int, int], int]:
    """The parts by black and white of every code consistent with ``history``, by :func:`feedback`."""
    entries = [(tuple(map(int, e.split(":")[0])), tuple(map(int, e.split(":")[1].split(",")))) for e in history]
    codes = [c for c in product(range(colors), repeat=pegs) if all(feedback(g, c) == fb for g, fb in entries)]
    return dict(sorted(Counter(feedback(tuple(map(int, guess)), c) for c in codes).items()))


def test_a_hand_checked_history(run, run_json):
    """3 pegs, 2 colours, history 000:1,0: the codes with exactly one 0, 011 101 110. The guess 011 against
    011 is 3,0; against 101 the last peg is black and all three colours are shared, 1,2; against 110 the
    middle peg, 1,2. Parts {1,2: 2, 3,0: 1}; expected size (2² + 1²)/3 = 5/3; entropy
    log2 3 - (2·log2 2)/3 = 0.9183 bits; 011 is still possible."""
    out = run_json("split", *PY, "--pegs", 3, "--colors", 2, "011", "000:1,0")
    assert out == {"guess": "011", "codes": 3,
                   "parts": [{"feedback": "1,2", "size": 2}, {"feedback": "3,0", "size": 1}],
                   "number_of_parts": 2, "largest": 2, "expected_size": round(5 / 3, 4),
                   "entropy": round(math.log2(3) - 2 / 3, 4), "consistent": True}
    result = run("split", *PY, "--pegs", 3, "--colors", 2, "011", "000:1,0")
    assert result.exit_code == 0
    assert result.stdout == ("011 splits 3 codes by feedback:\n"
                             "  1,2  2\n"
                             "  3,0  1  (the guess itself: a win)\n"
                             "parts: 2\n"
                             "largest: 2 (1,2)\n"
                             "expected size: 1.6667\n"
                             "entropy: 0.9183 bits\n"
                             "consistent: yes (it may win now: a part of 1)\n")


def test_a_one_colour_guess_gets_few_parts(run_json):
    """Seed 000's point: 0000 on 4x6 is told only how many 0s the secret holds (never a white peg), so
    b black pegs are C(4,b)·5^(4-b) codes: 625, 500, 150, 20, 1; five parts where 0011 gets 13."""
    out = run_json("split", *PY, "0000")
    sizes = [math.comb(4, b) * 5 ** (4 - b) for b in range(5)]
    assert sizes == [625, 500, 150, 20, 1]
    assert out["parts"] == [{"feedback": f"{b},0", "size": n} for b, n in enumerate(sizes)]
    assert (out["codes"], out["number_of_parts"], out["largest"], out["consistent"]) == (1296, 5, 625, True)
    assert out["expected_size"] == round(sum(n * n for n in sizes) / 1296, 4) == 511.9799
    assert out["entropy"] == round(-sum(n / 1296 * math.log2(n / 1296) for n in sizes), 4) == 1.4984
    knuth = run_json("split", *PY, "0011")
    assert (knuth["number_of_parts"], knuth["largest"]) == (13, 256)
    assert knuth["parts"][0] == {"feedback": "0,0", "size": 256}  # the contract's example


@pytest.mark.parametrize(("guess", "history"), [
    ("0011", []), ("1234", ["0011:1,0", "2345:0,2"]), ("0000", ["0123:1,1"]), ("5555", ["0011:0,0", "2233:1,0"])])
def test_the_parts_are_the_brute_force_ones(run_json, guess, history):
    out = run_json("split", *PY, guess, *history)
    expected = brute_force(guess, history)
    assert {tuple(map(int, p["feedback"].split(","))): p["size"] for p in out["parts"]} == expected
    # In the feedback order: fewest black pegs first, then fewest white.
    assert [tuple(map(int, p["feedback"].split(","))) for p in out["parts"]] == sorted(expected)
    n = sum(expected.values())
    assert out["codes"] == n and out["number_of_parts"] == len(expected) and out["largest"] == max(expected.values())
    assert out["expected_size"] == pytest.approx(sum(s * s for s in expected.values()) / n, abs=1e-4)
    assert out["entropy"] == pytest.approx(-sum(s / n * math.log2(s / n) for s in expected.values()), abs=1e-4)
    assert out["consistent"] == ((4, 0) in expected)


def test_the_json_shape(run_json):
    out = run_json("split", *PY, "2345", "0011:1,1")
    assert set(out) == SPLIT_KEYS
    assert isinstance(out["parts"], list) and all(set(p) == {"feedback", "size"} for p in out["parts"])
    assert all(isinstance(p["feedback"], str) and isinstance(p["size"], int) for p in out["parts"])
    assert isinstance(out["expected_size"], float) and isinstance(out["entropy"], float)
    assert out["guess"] == "2345" and out["consistent"] is False and out["codes"] == 208


@pytest.mark.parametrize("backend", ["clingo", "swipl"])
def test_every_engine_lists_the_same_parts(run_json, backend):
    history = ["0011:1,0", "2345:0,2"]
    assert run_json("split", "--backend", backend, "0223", *history) == run_json("split", *PY, "0223", *history)


def test_every_feedback_rule(run_json):
    # Black pegs only: 0000 is told the same count of 0s, written B.
    black = run_json("split", *PY, "--feedback", "black", "0000")
    assert black["parts"] == [{"feedback": str(b), "size": math.comb(4, b) * 5 ** (4 - b)} for b in range(5)]
    # Positional marks tell where the 0s are: one part per set of places, 5^(4-b) codes each, 16 parts.
    marks = run_json("split", *PY, "--feedback", "positional", "0000")
    assert marks["number_of_parts"] == 16 and marks["largest"] == 625
    assert {p["feedback"]: p["size"] for p in marks["parts"]} == {
        "".join(m): 5 ** m.count("-") for m in product("-x", repeat=4)}
    # A positional history: after 0123:x-o-, the engines list the same codes.
    assert run_json("split", "--backend", "clingo", "--feedback", "positional", "0213", "0123:x-o-") \
        == run_json("split", *PY, "--feedback", "positional", "0213", "0123:x-o-")
    # A rule of one's own: shared colours, one number, and "won" for the code itself.
    own = run_json("split", *PY, "--feedback", ROOT / "examples" / "shared_colours.py", "0000")
    assert [(p["feedback"], p["size"]) for p in own["parts"]] == [("0", 625), ("1", 500), ("2", 150), ("3", 20),
                                                                 ("won", 1)]


def test_an_edited_encoding_splits_its_own_codes(run, run_json):
    # The palindromes abba, 6 x 6 = 36 of them: the encoding's codes, not the rules'.
    out = run_json("split", "--encoding", ROOT / "examples" / "palindrome.lp", "0110")
    palindromes = [c for c in product(range(6), repeat=4) if c == c[::-1]]
    parts = sorted(Counter(feedback((0, 1, 1, 0), c) for c in palindromes).items())
    assert out["codes"] == len(palindromes) == 36
    assert out["parts"] == [{"feedback": f"{b},{w}", "size": n} for (b, w), n in parts]
    one_line_error(run("split", *PY, "--encoding", ROOT / "examples" / "palindrome.lp", "0110"), 2,
                   "--encoding applies to --backend clingo (.lp) or swipl (.pl), not python", stdout="")


def test_a_probe_splits_but_is_never_consistent(run_json):
    # 0000 breaks --no-repeat: a question the codemaker answers all the same, 1,0 or 0,0.
    out = run_json("split", *PY, "--no-repeat", "0000")
    assert [(p["feedback"], p["size"]) for p in out["parts"]] == [("0,0", 120), ("1,0", 240)]
    assert out["consistent"] is False


@pytest.mark.parametrize(("args", "code", "message"), [
    (["001"], 2, "code '001' has 3 pegs, expected 4"),
    (["0016"], 2, "symbol '6' in code '0016' is not one of the 6 colours 012345"),
    (["0011", "0123"], 2, "history entry '0123' is not of the form GUESS:B,W (e.g. 0011:1,0)"),
    (["0011", "0123:3,1"], 2,
     "feedback 3,1 in '0123:3,1' cannot occur: with 3 pegs right the last one cannot be a misplaced colour"),
    (["0011", "0123:x-o-"], 2, "feedback 'x-o-' in '0123:x-o-' is not of the form B,W (e.g. 1,2)"),
    (["0011", "0123:0,0", "0000:0,0", "4455:0,0"], 3,
     "no code is consistent with the history: entries 1, 3 (0123:0,0 4455:0,0) contradict each other"),
    (["--pegs", 8, "--colors", 8, "01234567"], 2,
     "16,777,216 codes are still possible, more than split lists on the python engine (1,000,000): give more "
     "history entries"),
])
def test_refusals_are_one_line(run, args, code, message):
    one_line_error(run("split", *PY, *args), code, message, stdout="")


def test_the_library_answers_as_the_command():
    engine = ReferenceEngine(Rules(4, 6))
    assert split_limit(engine) == 1_000_000
    split = split_codes(engine, (0, 0, 1, 1), [((0, 1, 2, 3), (0, 4))])
    assert split.codes == 9 and not split.consistent
    with pytest.raises(NoConsistentCode):
        split_codes(engine, (0, 0, 1, 1), [((0, 1, 2, 3), (0, 0)), ((4, 5, 4, 5), (0, 0))])
    with pytest.raises(SpaceTooLarge):
        split_codes(ReferenceEngine(Rules(8, 8)), (0,) * 8, [])


# -- the server's route, the page's assistant -------------------------------------------------------------
def test_the_server_splits_a_games_codes(client, run_json):
    game = client.post("/api/games", json={"rules": {"pegs": 4, "colors": 6}, "backend": "python",
                                           "secret": "0123"}).json()
    url = f"/api/games/{game['id']}"
    opening = client.get(f"{url}/split", params={"guess": "0000"})
    assert opening.status_code == 200 and opening.json() == run_json("split", *PY, "0000")
    client.post(f"{url}/guesses", json={"guess": "0011"})  # 1,1
    after = client.get(f"{url}/split", params={"guess": "0223"}).json()
    assert after == run_json("split", *PY, "0223", "0011:1,1")
    assert after["codes"] == 208 and set(after) == SPLIT_KEYS


def test_the_servers_split_refusals(client):
    game = client.post("/api/games", json={"rules": {"pegs": 4, "colors": 6}, "backend": "python"}).json()
    url = f"/api/games/{game['id']}/split"
    api_error(client.get(url), 400, "the query must name a guess: ?guess=CODE")
    api_error(client.get(url, params={"guess": "001"}), 400, "code '001' has 3 pegs, expected 4")
    assert client.get("/api/games/nope/split", params={"guess": "0011"}).status_code == 404
    api_error(client.post(url, params={"guess": "0011"}), 405, f"POST is not allowed on /api/games/{game['id']}/split")
    big = client.post("/api/games", json={"rules": {"pegs": 8, "colors": 8}, "backend": "python"}).json()
    api_error(client.get(f"/api/games/{big['id']}/split", params={"guess": "01234567"}), 422,
              "16,777,216 codes are still possible, more than split lists on the python engine (100,000): give "
              "more history entries")


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(args=st.tuples(fuzz.RULES.map(fuzz.flatten), fuzz.option("--backend", ["python", "clingo", "swipl"], ["nope"]),
                      fuzz.option("--encoding", fuzz.PATHS[3:], fuzz.PATHS[:3]), fuzz.flag("--json"),
                      st.sampled_from(fuzz.CODES * 2 + fuzz.BAD_CODES).map(lambda c: [c]), fuzz.HISTORY)
       .map(fuzz.flatten))
def test_any_split_command_line_gets_an_exit_code_of_the_contract_and_one_line(run, args):
    # The command line fuzz's rules, codes and histories (tests/frontends/test_fuzz_cli.py), on split.
    result = run("split", *args)
    assert result.exit_code in (0, 1, 2, 3), (args, result.output)
    assert "Traceback" not in result.output and "internal failure" not in result.stderr, (args, result.stderr)
    if result.exit_code:
        errors = [line for line in result.stderr.splitlines() if not line.startswith("note: ")]
        assert len(errors) == 1 and errors[0].startswith("error: "), (args, result.stderr)
