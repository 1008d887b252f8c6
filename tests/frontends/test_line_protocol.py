"""Seed 003's line protocol (``mmlogic serve --tcp-port``): every answer of :func:`answer_line`
exactly, the asyncio server through real sockets, and the ``serve`` command's wiring."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import time
import urllib.error
import urllib.request

import pytest

from mm_logic.rules import Rules
from mm_logic.server.line_protocol import (
    LineGames,
    answer_line,
    error_line,
    prolog_atom,
    protocol_rules,
    serve_beside,
    start_line_server,
)
from mm_logic.server.process import ServerProcess
from mm_logic.server.store import GameStore
from mm_logic.support.errors import BadInput, MMLogicError

SEED003 = Rules(5, 8, 1)
#: The secret the tests give game 1: h a d f b.
SECRET = (7, 0, 3, 5, 1)


@pytest.fixture
def games():
    return LineGames(GameStore(max_games=3, idle_seconds=60), SEED003, first=1)


FULL_3 = "[-2,'the server holds its maximum of 3 games and races; try again later']"


def started(games: LineGames, secret=SECRET) -> int:
    """A new game whose secret the test knows."""
    number = int(answer_line("init_connexion\n", games).split(",")[0].lstrip("["))
    games.get(number).game.secret = secret
    return number


def test_init_answers_the_game_number_and_the_rules(games):
    assert answer_line("init_connexion\n", games) == "[1,[5,8,non]]"
    assert answer_line("  init_connexion \r\n", games) == "[2,[5,8,non]]"
    assert answer_line("init_connexion.", games) == "[3,[5,8,non]]"
    assert games.get(2).rules == Rules(5, 8, 1, "abcdefghijklmnopqrstuvwxyz")
    repeating = LineGames(GameStore(), Rules(4, 6), first=1)
    assert answer_line("init_connexion", repeating) == "[1,[4,6,oui]]"


def test_guesses_are_scored_to_the_win_then_the_game_is_over(games):
    assert started(games) == 1
    assert answer_line("[1,abcde]\n", games) == "[-1,[0,3]]"  # a, b, d elsewhere
    assert answer_line("[ 1 , 'hadbf' ]", games) == "[-1,[3,2]]"
    assert answer_line("[1,hadfb]", games) == "[-1,[5,0]]"
    assert answer_line("[1,abcde]", games) == "[-2,'game 1 is over']"
    hosted = games.get(1)
    assert [(g, f) for g, f in hosted.game.history] == [
        ((0, 1, 2, 3, 4), (0, 3)), ((7, 0, 3, 1, 5), (3, 2)), ((7, 0, 3, 5, 1), (5, 0))]
    # Each game has its own secret and history.
    assert started(games, (0, 1, 2, 3, 4)) == 2
    assert answer_line("[2,abcde].", games) == "[-1,[5,0]]"


@pytest.mark.parametrize("line, answer", [
    ("[1,abcd]", r"[-2,'code \'abcd\' has 4 pegs, expected 5']"),
    ("[1,abcdef]", r"[-2,'code \'abcdef\' has 6 pegs, expected 5']"),
    ("[1,abcdi]", r"[-2,'symbol \'i\' in code \'abcdi\' is not one of the 8 colours abcdefgh']"),
    ("[1,'ab1de']", r"[-2,'symbol \'1\' in code \'ab1de\' is not one of the 8 colours abcdefgh']"),
    ("[1,aabcd]", r"[-2,'code \'aabcd\' uses colour a 2 times, which --no-repeat forbids']"),
    ("[1,'']", r"[-2,'code \'\' has 0 pegs, expected 5']"),
    ("[7,abcde]", "[-2,'no game 7 (no game has that number yet)']"),
    # No run of a server gives a number below 1 (they were said to be "of an earlier run").
    ("[0,abcde]", "[-2,'no game 0 (game numbers are 1 or more; init_connexion gives one)']"),
    ("[-1,abcde]", "[-2,'no game -1 (game numbers are 1 or more; init_connexion gives one)']"),
    ("[\u0661,abcde]", "[-2,'unreadable request: send init_connexion or [GAME,GUESS], e.g. [1,abcde]']"),  # ١: 1
    *[(line, "[-2,'unreadable request: send init_connexion or [GAME,GUESS], e.g. [1,abcde]']")
      for line in ["", "hello", "init", "[1,abcde", "[1,abc de]", "[1,'abc de']", "[1,]", "[x,abcde]",
                   "[1,abcde,2]", "[1,'ab\\'cde']", "[1,[a,b]]", "1,abcde"]],
])
def test_every_bad_request_is_one_exact_line(games, line, answer):
    started(games)
    assert answer_line(line, games) == answer


def test_a_full_server_and_an_expired_game(games):
    for _ in range(3):
        started(games)
    assert answer_line("init_connexion", games) == FULL_3
    assert games.store.expire(now=time.monotonic() + 61) == 3
    assert answer_line("[1,abcde]", games) == "[-2,'no game 1 (games are forgotten after 60 s unused)']"
    assert answer_line("init_connexion", games) == "[4,[5,8,non]]"  # numbers are never reused


def test_a_game_forgotten_to_make_room_is_named_so(games):
    assert started(games) == 1
    assert answer_line("[1,hadfb]", games) == "[-1,[5,0]]"  # won: the store may forget it for a new game
    started(games)
    started(games)
    assert answer_line("init_connexion", games) == "[4,[5,8,non]]"
    # It said "games are forgotten after 60 s unused", untrue a moment after the win; asked again, the same.
    for _ in range(2):
        assert answer_line("[1,abcde]", games) == ("[-2,'no game 1 (it was over, and forgotten to make room for new "
                                                   "games)']")
    assert answer_line("[2,abcde]", games) == "[-1,[0,3]]"


def test_a_long_game_number_is_quoted_by_its_start(games):
    digits = "9" * 1000
    assert answer_line(f"[{digits},abcde]", games) == (
        f"[-2,'no game {'9' * 40}... (1,000 characters) (no game has that number yet)']")


def test_line_games_share_the_store_with_the_api(games):
    games.store.create({"rules": {"pegs": 4, "colors": 6}, "backend": "python"})
    started(games)
    started(games)
    assert len(games.store) == 3
    assert answer_line("init_connexion", games) == FULL_3


def test_messages_are_quoted_prolog_atoms_that_swipl_reads_back():
    from mm_logic.engines.swipl.runtime import load_janus

    assert prolog_atom("it's a \\ b\nc") == "'it\\'s a \\\\ b c'"
    janus = load_janus()
    for message in ["game 1 is over", "code 'abcd' has 4 pegs, expected 5", "a \\ b", "it's\ton two\nlines", "é"]:
        line = error_line(message)
        assert "\n" not in line
        term = janus.query_once("term_to_atom(T, A)", {"A": line})["T"]
        assert term == [-2, message.replace("\n", " ").replace("\t", " ")]


@pytest.mark.parametrize("rules, message", [
    (Rules(5, 8, 2), "--tcp-port: the line protocol states repetition only as oui (any) or non (--no-repeat), "
                     "not --max-repeat 2"),
    (Rules(4, 27), "--tcp-port: the line protocol writes colours as the letters a..z, so at most 26 colours, not 27"),
    (Rules(10, 26), "--tcp-port: the line protocol's games are kept by the python engine, which holds at most "
                    "20,000,000 codes; 10x26 has 141,167,095,653,376"),
    # Seed 003's answers are [B,W]: serve takes no --feedback, and a game of another rule is refused here too.
    (Rules(4, 6, feedback="positional"), "--tcp-port: the line protocol answers black and white pegs only, not "
                                         "--feedback positional"),
    (Rules(4, 6, feedback="black"), "--tcp-port: the line protocol answers black and white pegs only, not "
                                    "--feedback black"),
])
def test_rules_the_protocol_cannot_state_are_refused(rules, message):
    with pytest.raises(BadInput) as error:
        protocol_rules(rules)
    assert str(error.value) == message


def test_a_max_repeat_that_allows_any_code_is_doubles_oui():
    games = LineGames(GameStore(), Rules(4, 6, 4), first=1)
    assert answer_line("init_connexion", games) == "[1,[4,6,oui]]"


@pytest.mark.parametrize("options, message", [
    (["--max-repeat", "2"], "error: --tcp-port: the line protocol states repetition only as oui (any) or non "
                            "(--no-repeat), not --max-repeat 2\n"),
    (["--colors", "30"], "error: --tcp-port: the line protocol writes colours as the letters a..z, so at most 26 "
                         "colours, not 30\n"),
])
def test_serve_refuses_such_rules_at_start_up(run, options, message):
    result = run("serve", "--port", "0", "--tcp-port", "0", *options)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message)


def test_serve_takes_no_feedback_rule_for_the_line_protocol(run):
    # The API's games choose their rule each; the rules options are the line protocol's, which speaks B,W.
    # serve's --feedback is the rule of a variant it serves (test_server_variant.py), never the line protocol's.
    result = run("serve", "--port", "0", "--tcp-port", "0", "--feedback", "positional")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == ("error: --feedback positional alone serves no variant: a variant is an --encoding "
                             "FILE, or a --feedback FILE.py, FILE.lp or FILE.pl of your own (the built-in rules are "
                             "served to every request)\n")


def test_one_port_for_both_servers_is_a_usage_error(run):
    # Both would bind it, the second failing: it said "address already in use", exit 1.
    result = run("serve", "--port", "8123", "--tcp-port", "8123")
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "error: --tcp-port 8123 is the API's --port too: the line protocol needs a port of its own\n")


# -- through real sockets ---------------------------------------------------------------------
async def exchange(port: int, data: bytes, *, close_write: bool = False) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    await writer.drain()
    if close_write:
        writer.write_eof()
    answer = await reader.read()  # the server closes after its one line
    writer.close()
    await writer.wait_closed()
    return answer


def test_the_server_answers_one_line_per_connection():
    games = LineGames(GameStore(max_games=10, idle_seconds=60), SEED003, first=1)

    async def scenario():
        server = await start_line_server(games, "127.0.0.1", 0, read_timeout=0.5, max_line=64)
        port = server.sockets[0].getsockname()[1]
        try:
            assert await exchange(port, b"init_connexion\n") == b"[1,[5,8,non]]\n"
            games.get(1).game.secret = SECRET
            # Two clients at once, each answered on its own connection.
            first, second = await asyncio.gather(exchange(port, b"[1,abcde]\n"), exchange(port, b"init_connexion\n"))
            assert (first, second) == (b"[-1,[0,3]]\n", b"[2,[5,8,non]]\n")
            assert await exchange(port, b"[1,hadfb]") == b"[-2,'no request within 0.5 s']\n"  # no newline, no EOF
            assert await exchange(port, b"[1,hadfb]", close_write=True) == b"[-1,[5,0]]\n"  # EOF ends the line
            assert await exchange(port, b"[1,abcde]\nextra lines\nignored\n") == b"[-2,'game 1 is over']\n"
            assert await exchange(port, b"x" * 200 + b"\n") == b"[-2,'request longer than 64 bytes']\n"
            assert await exchange(port, b"\xff\xfe\n") == (
                b"[-2,'unreadable request: send init_connexion or [GAME,GUESS], e.g. [1,abcde]']\n")
            assert await exchange(port, b"", close_write=True) == b""  # nothing asked, nothing answered
            started_at = time.monotonic()
            assert await exchange(port, b"") == b"[-2,'no request within 0.5 s']\n"  # a silent client
            assert time.monotonic() - started_at < 3
        finally:
            server.close()
            await server.wait_closed()

    asyncio.run(asyncio.wait_for(scenario(), 20))


def test_serve_beside_runs_the_line_server_while_main_runs_and_closes_it_after():
    games = LineGames(GameStore(), SEED003, first=1)
    ports = []

    async def main():
        assert await exchange(ports[0], b"init_connexion\n") == b"[1,[5,8,non]]\n"

    asyncio.run(asyncio.wait_for(serve_beside(main, games, "127.0.0.1", 0, ports.append), 20))
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", ports[0]), timeout=2).close()


def test_serve_beside_says_when_the_port_is_taken():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]

        async def main():
            raise AssertionError("main must not run")

        with pytest.raises(MMLogicError) as error:
            asyncio.run(serve_beside(main, LineGames(GameStore(), SEED003), "127.0.0.1", port))
    assert str(error.value) == f"cannot listen on 127.0.0.1:{port} for the line protocol: address already in use"


def ask(port: int, line: str) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(line.encode() + b"\n")
        return sock.makefile(encoding="utf-8").readline()


def new_game_number(port: int) -> int:
    """``init_connexion``'s game number; the rules must be seed 003's."""
    answer = ask(port, "init_connexion")
    assert re.fullmatch(r"\[[0-9]+,\[5,8,non\]\]\n", answer), answer
    return int(answer[1:].split(",")[0])


def test_mmlogic_serve_listens_for_both_and_ctrl_c_stops_it():
    with ServerProcess("--pegs", "5", "--colors", "8", "--no-repeat", "--max-games", "2", tcp=True) as server:
        number = new_game_number(server.tcp_port)
        assert ask(server.tcp_port, f"[{number},abcdf]").startswith("[-1,[")
        # The API's games and the line protocol's share the cap.
        request = urllib.request.Request(f"{server.url}/api/games", method="POST",
                                         data=b'{"rules": {"pegs": 4, "colors": 6}, "backend": "python"}',
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 201
        assert ask(server.tcp_port, "init_connexion") == \
            "[-2,'the server holds its maximum of 2 games and races; try again later']\n"
        # Ctrl-C with a silent client still connected: it is dropped, quietly.
        silent = socket.create_connection(("127.0.0.1", server.tcp_port), timeout=10)
        time.sleep(0.3)
    http_port, tcp_port, out, err = server.port, server.tcp_port, *server.output
    assert silent.recv(100) == b""
    silent.close()
    assert server.process.returncode == 0
    assert (out, err) == ("", f"mmlogic serve: http://127.0.0.1:{http_port}/ (the web page; the API under /api) "
                              "(Ctrl-C stops)\n"
                              f"mmlogic serve: line protocol on 127.0.0.1:{tcp_port} "
                              "(5 letters from a to h, doubles non)\n")


def test_numbers_and_ids_of_an_earlier_run_are_told_so_after_a_restart():
    seed003 = ("--pegs", "5", "--colors", "8", "--no-repeat")
    api = {"Content-Type": "application/json"}
    with ServerProcess(*seed003, tcp=True) as server:
        before = time.time()
        old_numbers = [new_game_number(server.tcp_port) for _ in range(3)]
        request = urllib.request.Request(f"{server.url}/api/games", method="POST", data=b"{}", headers=api)
        with urllib.request.urlopen(request, timeout=10) as response:
            old_id = json.loads(response.read())["id"]
    # Numbered from the server's start in microseconds, one by one (they were 1, 2, 3 at every start).
    assert old_numbers == list(range(old_numbers[0], old_numbers[0] + 3))
    assert old_numbers[0] / 1e6 < before
    with ServerProcess(*seed003, tcp=True) as server:
        number = new_game_number(server.tcp_port)
        assert number > max(old_numbers)
        earlier = "it is of an earlier run of the server, whose games were lost when it stopped"
        assert ask(server.tcp_port, f"[{old_numbers[0]},abcde]") == f"[-2,'no game {old_numbers[0]} ({earlier})']\n"
        assert ask(server.tcp_port, f"[{number + 1},abcde]") == \
            f"[-2,'no game {number + 1} (no game has that number yet)']\n"
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(f"{server.url}/api/games/{old_id}", timeout=10)
        # It said "games are forgotten after 1800 s unused", which they had not been.
        assert (answer.value.code, json.loads(answer.value.read())) == (
            404, {"error": f"no game '{old_id}' ({earlier})"})


def test_read_timeout_bounds_the_line_protocol_too():
    with ServerProcess("--read-timeout", "0.5", tcp=True) as server, \
            socket.create_connection(("127.0.0.1", server.tcp_port), timeout=5) as silent:
        start = time.monotonic()
        assert silent.makefile(encoding="utf-8").readline() == "[-2,'no request within 0.5 s']\n"
        assert 0.5 <= time.monotonic() - start < 2.5
