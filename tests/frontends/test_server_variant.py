"""``mmlogic serve --encoding FILE [--feedback FILE]``: a variant served beside the built-in rules, by its name.

Real servers on free ports of 127.0.0.1 (:class:`~mm_logic.server.process.ServerProcess`), asked over HTTP: the
options list the variant; games of it (both roles, the assistant, the adversary, races) play the codes the
encoding admits, each answer checked against a brute force written here, apart from the package; a request that
names a file is refused and no file is read; a game kept in ``--db`` is refused (409) by a server restarted with
another variant, or none; a file that does not load is one line and exit 2 at start. Then the web page: the
Feedback list offers the variant, and a game of it is played to the end by clicking.
"""

from __future__ import annotations

import errno
import itertools
import json
import os
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from test_web_page import Page, driver  # noqa: F401 (the browser, shared)

from mm_logic.notation import shown
from mm_logic.server.process import ServerProcess
from mm_logic.strategies import STRATEGIES

from conftest import ROOT, api_error
from generators import OWN_RULES, own_rule_file, own_score

PALINDROME = ROOT / "examples" / "palindrome.lp"
SYMBOLS = "012345"
#: Every code of 4 pegs and 6 colours, in lexicographic order, as text.
CODES = ["".join(code) for code in itertools.product(SYMBOLS, repeat=4)]
#: The 36 codes palindrome.lp admits.
PALINDROMES = [code for code in CODES if code == code[::-1]]
WAIT = 60  # seconds a request may take at most (a game's first question grounds the encoding: milliseconds)


# -- the game as written here, apart from the package -----------------------------------------------------------
def black_white(guess: str, secret: str) -> tuple[int, int]:
    """Black: pegs right in colour and place; white: the further pegs of a right colour."""
    black = sum(g == s for g, s in zip(guess, secret))
    common = sum((Counter(guess) & Counter(secret)).values())
    return black, common - black


def still_possible(history: list[tuple[str, tuple[int, int]]], codes=PALINDROMES) -> list[str]:
    """The palindromes that give every guess of ``history`` its answer."""
    return [code for code in codes if all(black_white(guess, code) == fb for guess, fb in history)]


def shared(guess: str, secret: str) -> str:
    """The answer of OWN_RULES["shared"] as a server writes it: the colours shared, or won."""
    return "won" if guess == secret else str(own_score("shared")(tuple(map(int, guess)), tuple(map(int, secret)))[0])


# -- talking to a server ------------------------------------------------------------------------------------------
class Reply:
    """An HTTP answer as the tests read it (``status_code``, ``json()``, ``text``), as Starlette's client gives."""

    def __init__(self, status: int, text: str):
        self.status_code, self.text = status, text

    def json(self):
        return json.loads(self.text)


class Client:
    """JSON requests to a live server, each within :data:`WAIT` seconds."""

    def __init__(self, url: str):
        self.url = url

    def request(self, method: str, path: str, body: dict | None = None) -> Reply:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={} if body is None else {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=WAIT) as answer:
                return Reply(answer.status, answer.read().decode())
        except urllib.error.HTTPError as error:
            return Reply(error.code, error.read().decode())

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def post(self, path: str, body: dict | None = None) -> Reply:
        return self.request("POST", path, {} if body is None else body)

    def created(self, path: str, body: dict) -> dict:
        reply = self.post(path, body)
        assert reply.status_code == 201, reply.text
        return reply.json()


@pytest.fixture(scope="module")
def palindrome():
    """A server of the variant palindrome (examples/palindrome.lp, on clingo)."""
    with ServerProcess("--encoding", str(PALINDROME), "--max-games", "50") as live:
        yield Client(live.url)
    assert live.output[1].splitlines()[0] == f"mmlogic serve: variant palindrome ({PALINDROME}), on clingo"


@pytest.fixture(scope="module")
def own(tmp_path_factory):
    """A server of the variant shared: OWN_RULES["shared"] as a Python module, a rule of one's own (python)."""
    rule = own_rule_file(tmp_path_factory.mktemp("rule"), "shared")
    with ServerProcess("--feedback", rule) as live:
        yield Client(live.url)


PALINDROME_RULES = {"pegs": 4, "colors": 6, "variant": "palindrome"}
STATE_RULES = {"pegs": 4, "colors": 6, "max_repeat": None, "feedback": "standard", "variant": "palindrome"}


# -- the options and the requests ---------------------------------------------------------------------------------
def test_the_options_list_the_variant_by_its_name(palindrome, own):
    assert palindrome.get("/api/options").json()["variants"] == [
        {"name": "palindrome", "feedback": "standard", "answer": '{"black": B, "white": W}', "backends": ["clingo"],
         "default_backend": "clingo", "strategies": list(STRATEGIES)}]
    # A rule of one's own: its answers are numbers (or won), and the strategies that rank codes by the game's
    # feedback table play it.
    assert own.get("/api/options").json()["variants"] == [
        {"name": "shared", "feedback": "own", "answer": '{"feedback": "2"}', "backends": ["python"],
         "default_backend": "python",
         "strategies": ["first", "any", "random", "any-random-opening", "minimax", "expected", "entropy", "parts",
                        "sample-entropy"]}]


def test_a_server_without_a_variant_lists_none_and_refuses_one(client):
    assert client.get("/api/options").json()["variants"] == []
    api_error(client.post("/api/games", json={"rules": PALINDROME_RULES}), 400,
              "unknown variant 'palindrome': this server serves none (mmlogic serve --encoding FILE serves one)")


@pytest.mark.parametrize("body, message", [
    ({"rules": {"variant": "palindrom"}}, "unknown variant 'palindrom'; choose from palindrome"),
    ({"rules": {"variant": 3}}, "rules field 'variant' must be str"),
    ({"rules": {"variant": "palindrome", "feedback": "positional"}},
     "variant palindrome plays the feedback rule standard: leave feedback out"),
    ({"rules": PALINDROME_RULES, "secret": "0120"},
     "secret 0120 is excluded by variant palindrome (the game's secrets are the codes it admits)"),
    ({"rules": PALINDROME_RULES, "backend": "python"}, "variant palindrome plays on backend clingo, not python"),
    ({"rules": PALINDROME_RULES, "backend": "swipl"}, "variant palindrome plays on backend clingo, not swipl"),
])
def test_bad_requests_of_a_variant(palindrome, body, message):
    api_error(palindrome.post("/api/games", body), 400, message)


def test_a_request_that_names_a_file_is_refused_and_no_file_is_read(palindrome, tmp_path):
    # Traps: a module that would leave a mark if it ran, and FIFOs, which would hold up a server that opened them
    # (no answer within WAIT) and which a writer can open at once only while a reader has them open.
    ran = tmp_path / "ran"
    module = tmp_path / "rule.py"
    module.write_text(f"open({str(ran)!r}, 'w').close()\ndef score(guess, secret):\n    return (0,)\n")
    fifos = [tmp_path / f"trap.{suffix}" for suffix in ("lp", "pl", "py", "json")]
    for fifo in fifos:
        os.mkfifo(fifo)
    lp, pl, py, tree = map(str, fifos)
    said = "unknown variant {}; choose from palindrome"
    unknown = "unknown feedback rule {}; choose from standard, black, positional"
    for path, rules, message in [
        ("/api/games", {"variant": lp}, said.format(shown(lp))),
        ("/api/games", {"variant": str(PALINDROME)}, said.format(shown(str(PALINDROME)))),
        ("/api/games", {"variant": "palindrome.lp"}, said.format("'palindrome.lp'")),
        ("/api/games", {"feedback": str(module)}, unknown.format(shown(str(module)))),
        ("/api/games", {"feedback": pl}, unknown.format(shown(pl))),
        ("/api/games", {"variant": "palindrome", "feedback": py},
         "variant palindrome plays the feedback rule standard: leave feedback out"),
        ("/api/races", {"variant": lp}, said.format(shown(lp))),
        ("/api/races", {"feedback": str(module)}, unknown.format(shown(str(module)))),
    ]:
        body = {"rules": rules} if path == "/api/games" else {"rules": rules, "entrants": [{}]}
        api_error(palindrome.post(path, body), 400, message)
    api_error(palindrome.post("/api/games", {"rules": PALINDROME_RULES, "strategy": f"tree:{tree}"}), 400,
              f"unknown strategy {shown('tree:' + tree)}; choose from {', '.join(STRATEGIES)}")
    assert not ran.exists()
    for fifo in fifos:
        with pytest.raises(OSError) as nobody:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        assert nobody.value.errno == errno.ENXIO  # no reader has it open


# -- games of the variant -------------------------------------------------------------------------------------------
def test_a_codebreaker_game_plays_a_secret_the_encoding_admits(palindrome):
    game = palindrome.created("/api/games", {"rules": PALINDROME_RULES, "strategy": "first", "secret": "1221"})
    assert {k: v for k, v in game.items() if k != "id"} == {
        "role": "codebreaker", "rules": STATE_RULES, "alphabet": "012345", "backend": "clingo", "strategy": "first",
        "history": [], "attempts": 0, "won": False, "over": False}
    url = f"/api/games/{game['id']}"
    history = []
    for guess in ("0011", "1122", "0120", "1221"):  # any code of the size may be guessed, a palindrome or not
        hint = palindrome.get(f"{url}/next").json()
        left = still_possible(history)
        assert hint == {"guess": left[0], "consistent": len(left)}  # first: the smallest still possible
        reply = palindrome.post(f"{url}/guesses", {"guess": guess}).json()
        black, white = black_white(guess, "1221")
        history.append((guess, (black, white)))
        assert reply == {"guess": guess, "black": black, "white": white, "won": guess == "1221",
                         "attempts": len(history), **({"secret": "1221"} if guess == "1221" else {})}
    assert history == [("0011", (1, 1)), ("1122", (2, 2)), ("0120", (1, 1)), ("1221", (4, 0))]
    state = palindrome.get(url).json()
    assert (state["rules"], state["won"], state["secret"]) == (STATE_RULES, True, "1221")


def test_a_random_secret_is_drawn_among_the_codes_the_encoding_admits(palindrome):
    secrets = []
    for seed in range(6):
        game = palindrome.created("/api/games", {"rules": PALINDROME_RULES, "seed": seed})
        secrets.append(palindrome.post(f"/api/games/{game['id']}/resign").json()["secret"])
    assert set(secrets) <= set(PALINDROMES) and len(set(secrets)) > 1
    again = palindrome.created("/api/games", {"rules": PALINDROME_RULES, "seed": 0})  # the seed draws it
    assert palindrome.post(f"/api/games/{again['id']}/resign").json()["secret"] == secrets[0]


def test_a_codemaker_game_the_computer_plays_on_the_codes_the_encoding_admits(palindrome):
    # first: each guess the smallest palindrome the answers leave; minimax: each count the brute force's.
    for strategy in ("first", "minimax"):
        game = palindrome.created("/api/games", {"rules": PALINDROME_RULES, "role": "codemaker",
                                                 "strategy": strategy})
        url = f"/api/games/{game['id']}"
        history = []
        for _ in range(10):
            hint = palindrome.get(f"{url}/next").json()
            left = still_possible(history)
            assert hint["consistent"] == len(left)
            if strategy == "first":
                assert hint["guess"] == left[0]
            black, white = black_white(hint["guess"], "3443")
            history.append((hint["guess"], (black, white)))
            state = palindrome.post(f"{url}/feedback", {"black": black, "white": white, "guess": hint["guess"]}).json()
            if state["won"]:
                break
        assert state["won"] and state["history"][-1] == {"guess": "3443", "black": 4, "white": 0}
        assert state["rules"] == STATE_RULES and "secret" not in state
        if strategy == "first":
            assert [guess for guess, _ in history] == ["0000", "1111", "2222", "3333", "3443"]


def test_the_split_and_the_adversary_play_the_variants_codes(palindrome):
    game = palindrome.created("/api/games", {"rules": PALINDROME_RULES, "adversary": True})
    url = f"/api/games/{game['id']}"
    parts = Counter(black_white("0110", code) for code in PALINDROMES)
    split = palindrome.get(f"{url}/split?guess=0110").json()
    assert {(p["feedback"], p["size"]) for p in split["parts"]} == {(f"{b},{w}", n) for (b, w), n in parts.items()}
    assert (split["codes"], split["largest"], split["consistent"]) == (36, max(parts.values()), True)
    # The adversary answers so that the most palindromes stay possible.
    reply = palindrome.post(f"{url}/guesses", {"guess": "0110"}).json()
    assert parts[(reply["black"], reply["white"])] == max(parts.values())
    assert palindrome.get(f"{url}/next").json()["consistent"] == max(parts.values())


def test_a_race_on_the_variant_to_the_end(palindrome):
    entrants = [{"strategy": "minimax"}, {"strategy": "first"}]
    race = palindrome.created("/api/races", {"rules": PALINDROME_RULES, "entrants": entrants, "secret": "5225"})
    assert race["rules"] == STATE_RULES and [e["backend"] for e in race["entrants"]] == ["clingo", "clingo"]
    for _ in range(10):
        state = palindrome.post(f"/api/races/{race['id']}/step").json()
        if state["over"]:
            break
    assert state["secret"] == "5225" and state["winners"]
    for entrant in state["entrants"]:
        assert all((e["black"], e["white"]) == black_white(e["guess"], "5225") for e in entrant["history"])
    first = [e["guess"] for e in state["entrants"][1]["history"]]
    history = [(g, black_white(g, "5225")) for g in first]
    assert all(g == still_possible(history[:i])[0] for i, g in enumerate(first))  # the smallest palindrome left
    api_error(palindrome.post("/api/races", {"rules": PALINDROME_RULES, "entrants": entrants, "secret": "5220"}),
              400, "secret 5220 is excluded by variant palindrome (the game's secrets are the codes it admits)")
    api_error(palindrome.post("/api/races", {"rules": PALINDROME_RULES, "entrants": [{"backend": "python"}]}),
              400, "entrant 1: variant palindrome plays on backend clingo, not python")


def test_a_batch_race_on_the_variant_draws_its_secrets_among_its_codes(palindrome):
    race = palindrome.created("/api/races", {"rules": {**PALINDROME_RULES, "pegs": 3, "colors": 3}, "games": 5,
                                             "seed": 1, "entrants": [{"strategy": "first"}]})
    for _ in range(100):  # 20 s at most
        state = palindrome.get(f"/api/races/{race['id']}").json()
        if state["over"]:
            break
        time.sleep(0.2)
    assert state["rules"] == {**STATE_RULES, "pegs": 3, "colors": 3}
    three = ["".join(c) for c in itertools.product("012", repeat=3) if c == c[::-1]]
    assert len(state["secrets"]) == 5 and set(state["secrets"]) <= set(three)
    assert state["entrants"][0]["games"] == 5 and state["entrants"][0]["finished"]


def test_a_variant_with_its_own_rule_in_both_roles(own):
    rules = {"pegs": 4, "colors": 6, "max_repeat": None, "feedback": "own", "variant": "shared"}
    game = own.created("/api/games", {"rules": {"variant": "shared"}, "secret": "0123", "strategy": "first"})
    assert (game["rules"], game["backend"]) == (rules, "python")
    url = f"/api/games/{game['id']}"
    replies = [own.post(f"{url}/guesses", {"guess": guess}).json() for guess in ("0011", "1230", "0123")]
    assert replies == [{"guess": "0011", "feedback": "2", "won": False, "attempts": 1},
                       {"guess": "1230", "feedback": "4", "won": False, "attempts": 2},
                       {"guess": "0123", "feedback": "won", "won": True, "attempts": 3, "secret": "0123"}]
    # The computer guesses the code in mind, 5203; each guess the smallest code its answers leave.
    game = own.created("/api/games", {"rules": {"variant": "shared"}, "role": "codemaker", "strategy": "first"})
    url = f"/api/games/{game['id']}"
    history = []
    for _ in range(40):
        guess = own.get(f"{url}/next").json()["guess"]
        left = [c for c in CODES if all(shared(g, c) == told and g != c for g, told in history)]
        assert guess == left[0]
        history.append((guess, shared(guess, "5203")))
        state = own.post(f"{url}/feedback", {"feedback": history[-1][1]}).json()
        if state["won"]:
            break
    assert state["history"] == [{"guess": g, "feedback": told} for g, told in history]
    # 0000 0111 0222 0233 0234, then the orders of 0235 up to 5203: 26 guesses.
    assert (len(history), history[-1], state["rules"]) == (26, ("5203", "won"), rules)
    api_error(own.post(f"{url}/feedback", {"black": 1}), 409, f"game {game['id']} is over")
    other = own.created("/api/games", {"rules": {"variant": "shared"}, "role": "codemaker"})
    api_error(own.post(f"/api/games/{other['id']}/feedback", {"black": 1}), 400,
              'the body must be {"feedback": "2"}, optionally with "guess"')
    assert OWN_RULES["shared"].startswith("from collections import Counter")  # the rule the brute force states


# -- games kept in --db, and the start ------------------------------------------------------------------------------
def test_a_game_kept_in_db_is_refused_by_a_server_of_another_variant(tmp_path):
    db = str(tmp_path / "games.db")
    rule = own_rule_file(tmp_path, "shared")
    with ServerProcess("--db", db, "--encoding", str(PALINDROME)) as first:
        server = Client(first.url)
        game = server.created("/api/games", {"rules": PALINDROME_RULES, "secret": "2002", "strategy": "first"})
        assert server.post(f"/api/games/{game['id']}/guesses", {"guess": "0011"}).json() == {
            "guess": "0011", "black": 1, "white": 1, "won": False, "attempts": 1}
    url = f"/api/games/{game['id']}"
    with ServerProcess("--db", db) as bare:
        api_error(Client(bare.url).get(url), 409, f"game {game['id']} plays the variant palindrome, which this "
                                                  "server no longer serves (variants served: none)")
    with ServerProcess("--db", db, "--feedback", rule) as other:
        api_error(Client(other.url).post(f"{url}/guesses", {"guess": "2002"}), 409,
                  f"game {game['id']} plays the variant palindrome, which this server no longer serves (variants "
                  "served: shared)")
    with ServerProcess("--db", db, "--encoding", str(PALINDROME)) as same:  # the same variant: the game goes on
        reply = Client(same.url).post(f"{url}/guesses", {"guess": "2002"}).json()
        assert reply == {"guess": "2002", "black": 4, "white": 0, "won": True, "attempts": 2, "secret": "2002"}


def test_a_game_kept_in_db_is_refused_once_the_variants_file_has_changed(tmp_path):
    from starlette.testclient import TestClient

    from mm_logic.rules import Rules
    from mm_logic.server.api import create_app
    from mm_logic.server.db_store import SqliteStore
    from mm_logic.server.variant import Variant

    encoding = tmp_path / "mirror.lp"
    encoding.write_text(PALINDROME.read_text())
    db = str(tmp_path / "games.db")
    variant = Variant.load(encoding, None, None, Rules())
    with TestClient(create_app(SqliteStore(db, variants=(variant,)))) as client:
        game = client.post("/api/games", json={"rules": {"variant": "mirror"}}).json()
        race = client.post("/api/races", json={"rules": {"variant": "mirror"}, "entrants": [{}]}).json()
    encoding.write_text(PALINDROME.read_text() + "% a comment more\n")
    edited = Variant.load(encoding, None, None, Rules())
    with TestClient(create_app(SqliteStore(db, variants=(edited,)))) as client:
        api_error(client.get(f"/api/games/{game['id']}"), 409, f"game {game['id']} plays the variant mirror as its "
                  "files were when it began; they have changed since, and it cannot go on")
        api_error(client.post(f"/api/races/{race['id']}/step"), 409, f"race {race['id']} plays the variant mirror as "
                  "its files were when it began; they have changed since, and it cannot go on")


def bad_files(folder: Path) -> dict[str, Path]:
    """Files that do not load as a variant, by a key the options and messages below name them by."""
    files = {"syntax": ("syntax.lp", '#include "mastermind.lp".\n#program base.\n:- secret(P,C) secret(P+1,C).\n'),
             "nothing": ("nothing.lp", '#include "mastermind.lp".\n#program base.\n:- secret(P,C).\n'),
             "broken": ("broken.py", "def score(guess, secret)\n    return (0,)\n"),
             "notes": ("notes.txt", "a note\n"), "spaced": ("my variant.lp", PALINDROME.read_text())}
    for name, text in files.values():
        (folder / name).write_text(text)
    return {key: folder / name for key, (name, _) in files.items()}


@pytest.mark.parametrize("options, message", [
    (["--encoding", "{syntax}"], "{syntax}:3:16-22: syntax error, unexpected <IDENTIFIER>"),
    (["--encoding", "{nothing}"], "no code of 4x6 exists under the encoding nothing.lp (--pegs 4 --colors 6: the "
                                     "size the variant is checked at)"),
    (["--encoding", "{notes}"], "--encoding must be a .lp or .pl file, got {notes}"),
    (["--encoding", "{notes}.lp"], "Invalid value for '--encoding': File '{notes}.lp' does not exist."),
    (["--feedback", "{broken}"], "Invalid value for '--feedback': {broken}:1: expected ':'"),
    (["--feedback", "positional"], "--feedback positional alone serves no variant: a variant is an --encoding FILE, "
                                   "or a --feedback FILE.py, FILE.lp or FILE.pl of your own (the built-in rules are "
                                   "served to every request)"),
    (["--variant-name", "x"], "--variant-name 'x' names no variant: a variant is an --encoding FILE, or a --feedback "
                              "FILE.py, FILE.lp or FILE.pl of your own (the built-in rules are served to every "
                              "request)"),
    (["--encoding", str(PALINDROME), "--variant-name", "../x"],
     "--variant-name '../x': a variant's name is 1 to 40 letters, digits, '_' or '-' (a request carries it; it "
     "names no file)"),
    (["--encoding", "{spaced}"], "the name of my variant.lp 'my variant': a variant's name is 1 to 40 "
                                        "letters, digits, '_' or '-' (a request carries it; it names no file); give "
                                        "one with --variant-name NAME"),
    (["--encoding", str(PALINDROME), "--feedback", str(ROOT / "examples" / "shared_colours.pl")],
     f"{PALINDROME} disagrees with {ROOT / 'examples' / 'shared_colours.pl'} on 0000 against 0110: "
     f"{ROOT / 'examples' / 'shared_colours.pl'} gives 2, the encoding 0 or 1 or 2 or 3"),
])
def test_a_variant_that_does_not_load_is_one_line_and_exit_2_at_start(run, tmp_path, options, message):
    files = {name: str(path) for name, path in bad_files(tmp_path).items()}
    result = run("serve", "--port", "0", *(option.format_map(files) for option in options))
    assert (result.exit_code, result.stdout) == (2, "")
    # Beside the error, only a long derivation's notes (a .pl rule's table, with no cache: 5 to 30 s): whether they
    # come depends on whether the other test process derived the same file first.
    said = [line for line in result.stderr.splitlines()
            if ": deriving the rule's table by " not in line and not line.startswith("note: deriving the rule of ")]
    assert said == [f"error: {message.format_map(files)}"]


# -- the web page ------------------------------------------------------------------------------------------------
@pytest.mark.slow  # a server's start, the browser and a game of 4-6 guesses on clingo: 6 s
def test_the_page_offers_the_variant_and_plays_it_to_the_end(driver, tmp_path):  # noqa: F811
    with ServerProcess("--encoding", str(PALINDROME)) as live:
        page = Page(driver, live.url)
        names = [o.get_attribute("value") for o in page.select("feedback").options]
        assert names == ["standard", "black", "positional", "variant:palindrome"]
        assert page.select("feedback").options[-1].text == "variant palindrome"
        page.choose("clingo", "minimax", feedback="variant:palindrome")
        assert [o.text for o in page.select("backend").options] == ["clingo"]
        page.click("play-new")
        assert page.text("play-info") == "4 pegs, 6 colours, variant palindrome; assistant: minimax on clingo"
        history = []
        for _ in range(10):
            page.click("hint")
            hint = page.attribute("hint-guess", "data-code")
            assert page.text("hint-text").endswith(f"{len(still_possible(history)):,} code"
                                                   f"{'' if len(still_possible(history)) == 1 else 's'} still "
                                                   "possible.")
            page.click("hint-use")
            page.click("play-submit")
            row = page.rows("play")[-1]
            history.append((hint, (row["black"], row["white"])))
            if page.text("play-status").startswith("You found"):
                break
        secret = page.text("play-status").split()[2]
        assert secret in PALINDROMES and history[-1] == (secret, (4, 0))
        assert page.rows("play") == [{"guess": g, "black": b, "white": w, "text": f"{b},{w}"}
                                     for g, (b, w) in ((g, black_white(g, secret)) for g, _ in history)]
        assert page.text("play-status") == f"You found {secret} in {len(history)} guesses."
        page.save(page.png(), tmp_path, "play-variant.png")
        page.click("tab-rules")
        assert page.text("rules-variants").startswith("Variants (Feedback, at the top). This server also serves "
                                                      "palindrome: a game of its own")
        assert page.message() == "" and page.console_errors() == []


@pytest.mark.slow  # a server's start, the browser and a game of 6 answers typed: 6 s
def test_the_page_answers_a_variants_own_rule_with_its_numbers(driver, tmp_path):  # noqa: F811
    rule = own_rule_file(tmp_path, "shared")
    with ServerProcess("--feedback", rule) as live:
        page = Page(driver, live.url)
        page.choose("python", "first", feedback="variant:shared")
        page.click("tab-codemaker")
        page.click("cm-new")
        assert page.text("cm-info") == ("4 pegs, 6 colours, variant shared, its own feedback rule; the computer "
                                        "plays first on python")
        assert page.text("cm-explain").startswith("Think of a code the variant admits")
        assert not page.find("cm-markers").is_displayed() and page.find("cm-told").is_displayed()
        history = []
        for _ in range(12):
            guess = page.attribute("cm-guess", "data-code")
            history.append((guess, shared(guess, "0035")))
            page.find("cm-told").send_keys(history[-1][1])
            page.click("cm-send")
            assert page.message() == ""
            if page.text("cm-status"):
                break
        left = []
        for i in range(len(history)):  # first: each guess the smallest code the answers before it leave
            left.append([c for c in CODES if all(shared(g, c) == t and g != c for g, t in history[:i])][0])
        assert [g for g, _ in history] == left and (len(history), history[-1]) == (6, ("0035", "won"))
        texts = [r.text for r in page.all('[data-testid="cm-board"] .feedback-text')]
        assert texts == [told for _, told in history]
        assert page.text("cm-status") == "The computer found your code 0035 in 6 guesses."
        page.save(page.png(), tmp_path, "codemaker-variant.png")
        # A code typed in the page is checked by the page's own feedback, which a rule of one's own has not.
        page.click("cm-new")
        page.find("cm-secret").send_keys("0035")
        page.find("cm-told").send_keys("2")
        page.click("cm-send")
        assert page.message() == ("Your code: the page cannot compute the answers of this variant's own feedback "
                                  "rule; empty the field and answer as the rule tells")
        assert page.console_errors() == []
