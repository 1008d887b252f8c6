"""``solve --server`` and ``bench --server`` against a real ``mmlogic serve`` on 127.0.0.1:
the same attempts as in process, and every failure one line with its exit code."""

from __future__ import annotations

import json
import pickle
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from mm_logic.client import RemoteServer, ServerError, ServerRefused, play_remote
from mm_logic.engines.reference import ReferenceEngine
from mm_logic.game import play
from mm_logic.notation import parse_code
from mm_logic.rules import Rules
from mm_logic.server.process import ServerProcess, free_port
from mm_logic.strategies import make_strategy
from mm_logic.support.errors import MMLogicError

from conftest import MMLOGIC, ROOT, mmlogic


@pytest.fixture(scope="module")
def server():
    with ServerProcess("--max-games", "500", tcp=True) as live:
        yield live


def test_solve_against_the_server_takes_the_guesses_it_takes_in_process(run_json, server):
    for options in (["--secret", "0123"], ["--secret", "5550", "--strategy", "expected"],
                    ["--pegs", "5", "--colors", "8", "--no-repeat", "--secret", "74120", "--backend", "swipl",
                     "--strategy", "first"]):
        remote = run_json("solve", "--server", server.url, *options)
        local = run_json("solve", *options)
        assert remote.pop("seconds") > 0 and local.pop("seconds") > 0
        assert remote == local


@pytest.mark.parametrize("rule", ["black", "positional"])
def test_solve_in_each_feedback_rule_takes_the_guesses_it_takes_in_process(run, run_json, server, rule):
    for options in (["--backend", "python", "--strategy", "first", "--secret", "2540"],
                    ["--backend", "clingo", "--strategy", "random", "--seed", "4", "--secret", "0123"],
                    ["--backend", "swipl", "--strategy", "any", "--pegs", "5", "--colors", "7", "--no-repeat",
                     "--secret", "61403"]):
        remote = run_json("solve", "--server", server.url, "--feedback", rule, *options)
        local = run_json("solve", "--feedback", rule, *options)
        # In process a game of first on python may round to 0.0 s; over the network it cannot.
        assert remote.pop("seconds") > 0 and local.pop("seconds") >= 0
        assert remote == local
        assert set(remote["guesses"][0]) == {"guess", {"black": "black", "positional": "marks"}[rule]}
    text = run("solve", "--server", server.url, "--feedback", rule, "--backend", "python", "--strategy", "first",
               "--secret", "1230")
    assert text.stdout == {
        "black": "1  0000  1\n2  0111  0\n3  1022  1\n4  1203  2\n5  1230  4\n5 guesses\n",
        "positional": "1  0000  ---x\n2  1110  x--x\n3  1220  xx-x\n4  1230  xxxx\n4 guesses\n"}[rule]


@pytest.mark.parametrize("rule", ["black", "positional"])
def test_bench_in_each_feedback_rule_against_the_server_equals_the_bench_in_process(run_json, server, rule):
    options = ["--feedback", rule, "--backend", "python", "--strategy", "random", "--games", "20", "--seed", "3",
               "--jobs", "2"]
    remote = run_json("bench", "--server", server.url, *options)
    local = run_json("bench", *options)
    assert remote.pop("seconds") > 0 and local.pop("seconds") > 0
    assert remote == local and remote["games"] == 20 and remote["rules"]["feedback"] == rule
    every = ["--feedback", rule, "--backend", "python", "--pegs", "3", "--colors", "3", "--all"]
    remote, local = run_json("bench", "--server", server.url, *every), run_json("bench", *every)
    assert remote.pop("seconds") > 0 and local.pop("seconds") >= 0
    assert remote == local and remote["games"] == 27


def test_solve_with_a_random_secret_on_the_server_and_its_text(run, server):
    result = run("solve", "--server", server.url.removeprefix("http://"), "--backend", "python", "--seed", "7",
                 "--json")
    assert result.exit_code == 0, result.stderr
    game = json.loads(result.stdout)
    # The server drew the secret; the last guess found it, and every answer was the secret's.
    local = play(ReferenceEngine(Rules()), make_strategy("minimax", Rules()), parse_code(game["secret"], Rules()))
    assert [g["guess"] + f":{g['black']},{g['white']}" for g in game["guesses"]] == \
        [f"{''.join(map(str, g))}:{b},{w}" for g, (b, w) in local.guesses]
    text = run("solve", "--server", server.url, "--backend", "python", "--secret", "0123")
    assert text.stdout == "1  0011  1,1\n2  0023  3,0\n3  0123  4,0\n3 guesses\n"


def test_solve_against_the_server_with_an_edited_encoding_plays_its_secrets(run, run_json, server):
    # The server plays the rules' game: a --secret the encoding excludes was sent there and the game
    # failed after a guess, blaming the server (exit 1); a random secret was the server's, any code.
    palindrome = ["--encoding", str(ROOT / "examples" / "palindrome.lp"), "--strategy", "first"]
    refused = run("solve", "--server", server.url, *palindrome, "--secret", "0123")
    assert (refused.exit_code, refused.stdout) == (2, "")
    assert refused.stderr == ("error: --secret 0123 is excluded by palindrome.lp (the game's secrets are "
                                     "the codes it admits)\n")
    for seed in ("3", "4", "5"):
        remote = run_json("solve", "--server", server.url, *palindrome, "--seed", seed)
        local = run_json("solve", *palindrome, "--seed", seed)
        assert remote.pop("seconds") > 0 and local.pop("seconds") > 0
        assert remote == local and remote["secret"] == remote["secret"][::-1]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_bench_against_the_server_equals_the_bench_in_process(run_json, server, jobs):
    options = ["--backend", "python", "--strategy", "minimax", "--games", "40", "--seed", "3"]
    remote = run_json("bench", "--server", server.url, "--jobs", jobs, *options)
    local = run_json("bench", *options)
    assert remote.pop("seconds") > 0 and local.pop("seconds") > 0
    assert remote == local
    assert remote["games"] == 40 and remote["total_guesses"] == sum(int(k) * n for k, n in
                                                                     remote["histogram"].items())


def test_bench_every_secret_against_the_server(run_json, server):
    remote = run_json("bench", "--server", server.url, "--backend", "python", "--pegs", "3", "--colors", "3",
                      "--all")
    local = run_json("bench", "--backend", "python", "--pegs", "3", "--colors", "3", "--all")
    # In process the 27 games round to 0.0 s; over the network they cannot.
    assert remote.pop("seconds") > 0 and local.pop("seconds") >= 0
    assert remote == local and remote["games"] == 27


@pytest.mark.parametrize("command", [["solve", "--secret", "0123"], ["bench", "--games", "3", "--jobs", "2"]])
def test_probing_strategies_under_a_repetition_rule_are_refused_before_any_game(run, server, command):
    # human1 opens with 0000, which the server's codemaker refuses under --no-repeat; in process it plays.
    options = ["--backend", "python", "--strategy", "human1", "--pegs", "4", "--colors", "8"]
    result = run(*command, "--server", server.url, *options, "--no-repeat")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == ("error: --strategy human1 probes with codes that repeat colours beyond --no-repeat, "
                             "which a server's codemaker refuses as guesses; play it without --server\n")
    assert run(command[0], *command[1:3], *options, "--no-repeat").exit_code == 0
    assert run(*command, "--server", server.url, *options).exit_code == 0  # without the rule it plays there


def test_an_unreachable_server_is_one_line_exit_1(run):
    port = free_port()
    result = run("solve", "--server", f"http://127.0.0.1:{port}", "--backend", "python")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"error: cannot reach the mmlogic server at http://127.0.0.1:{port}: Connection refused\n"


@pytest.mark.parametrize("url", ["ftp://127.0.0.1", "http://", "http://127.0.0.1:8000/api", "http://x:notaport"])
def test_a_bad_server_url_is_bad_usage(run, url):
    result = run("bench", "--server", url, "--games", "1")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        f"error: Invalid value for '--server': must be a server's address such as http://127.0.0.1:8000, "
        f"not {url!r}")


def test_a_full_server_refuses_with_its_line_exit_1(run):
    with ServerProcess("--max-games", "1") as live:
        RemoteServer(live.url).new_game(Rules())  # fills it
        result = run("solve", "--server", live.url, "--backend", "python")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == ("error: the server refused: the server holds its maximum of 1 games and races; "
                             "try again later\n")


def test_a_server_refusing_the_rules_is_exit_2(server):
    # The server's 400 keeps its line and means bad input here too (exit 2).
    with pytest.raises(ServerRefused, match=r"^the server refused: rules\.pegs must be between 1 and 64, got 0$") \
            as refused:
        RemoteServer(server.url).request("POST", "/api/games", {"rules": {"pegs": 0}})
    assert refused.value.exit_code == 2 and refused.value.status == 400


def test_something_else_than_mmlogic_is_named(tmp_path):
    import http.server
    import threading

    class Plain(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"<html>hello</html>")

        def log_message(self, *args):
            pass

    httpd = http.server.HTTPServer(("127.0.0.1", 0), Plain)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        remote = RemoteServer(f"127.0.0.1:{httpd.server_port}")
        with pytest.raises(ServerError) as error:
            play_remote(ReferenceEngine(Rules()), make_strategy("first", Rules()), remote)
    finally:
        httpd.shutdown()
    assert str(error.value) == (f"http://127.0.0.1:{httpd.server_port} is not an mmlogic server: "
                                "POST /api/games answered HTTP 200 without the API's JSON")


class Answering:
    """A server that answers every guess with ``reply`` (what a broken or foreign server might send)."""

    url = "http://127.0.0.1:9"

    def __init__(self, reply: dict):
        self.reply = reply

    def request(self, method: str, path: str, body: dict | None = None) -> dict:
        return self.reply


@pytest.mark.parametrize("reply, message", [
    ({"black": "1", "white": 0, "won": False}, "answered a guess without the API's fields: "
                                               '{"black": "1", "white": 0, "won": false}'),
    ({"black": True, "white": 0, "won": False}, "answered a guess without the API's fields: "
                                                '{"black": true, "white": 0, "won": false}'),
    ({"black": 4, "white": 0, "won": True, "secret": 1234}, "answered a guess without the API's fields: "
                                                            '{"black": 4, "white": 0, "won": true, "secret": 1234}'),
    ({"black": "0", "white": 0, "won": False, "x": "y" * 300}, "answered a guess without the API's fields: "
     '{"black": "0", "white": 0, "won": false, "x": "' + "y" * 153 + "... (349 characters)"),
    ({"black": 9, "white": 9, "won": False}, "answered 0011 with feedback 9,9: black + white exceeds the 4 pegs"),
    ({"black": -1, "white": 0, "won": False}, "answered 0011 with feedback -1,0 is negative"),
    ({"black": 4, "white": 0, "won": True, "secret": "9"},
     "answered 0011 with symbol '9' in code '9' is not one of the 6 colours 012345"),
    ({"black": 4, "white": 0, "won": False}, "answered 0011 with 4,0 and won=false, which do not agree"),
    ({"black": 4, "white": 0, "won": True, "secret": "0123"}, "answered 0011 with 4,0 and won=true, which do not "
                                                              "agree"),
    ({"black": 1, "white": 0, "won": True, "secret": "0011"}, "answered 0011 with 1,0 and won=true, which do not "
                                                              "agree"),
])
def test_an_answer_no_mmlogic_server_gives_is_one_line(reply, message):
    from mm_logic.client import RemoteGame
    game = RemoteGame(Answering(reply), "g", Rules())
    with pytest.raises(ServerError) as error:
        game.answer((0, 0, 1, 1))
    assert str(error.value) == f"http://127.0.0.1:9 {message}"
    assert game.secret is None


@pytest.mark.parametrize("rule, reply, message", [
    ("black", {"black": 1, "white": 0, "won": False}, "answered a guess without the API's fields: "
                                                      '{"black": 1, "white": 0, "won": false}'),
    ("black", {"marks": "x---", "won": False}, "answered a guess without the API's fields: "
                                               '{"marks": "x---", "won": false}'),
    ("black", {"black": 5, "won": False}, "answered 0011 with feedback 5 exceeds the 4 pegs"),
    ("black", {"black": 4, "won": False}, "answered 0011 with 4 and won=false, which do not agree"),
    ("positional", {"black": 1, "white": 0, "won": False}, "answered a guess without the API's fields: "
                                                           '{"black": 1, "white": 0, "won": false}'),
    ("positional", {"marks": "x-y-", "won": False}, "answered a guess without the API's fields: "
                                                    '{"marks": "x-y-", "won": false}'),
    ("positional", {"marks": 2, "won": False}, "answered a guess without the API's fields: "
                                               '{"marks": 2, "won": false}'),
    ("positional", {"marks": "x-", "won": False}, "answered 0011 with feedback x- has 2 marks, expected one per "
                                                  "peg (4)"),
    ("positional", {"marks": "xxxo", "won": False}, "answered 0011 with feedback xxxo cannot occur: with every "
                                                    "other peg right, the colour of the last one is nowhere else"),
    ("positional", {"marks": "xxxx", "won": True, "secret": "0123"}, "answered 0011 with xxxx and won=true, which "
                                                                     "do not agree"),
    ("positional", {"marks": "xx--", "won": True, "secret": "0011"}, "answered 0011 with xx-- and won=true, which "
                                                                     "do not agree"),
])
def test_an_answer_of_the_wrong_shape_for_the_rule_is_one_line(rule, reply, message):
    from mm_logic.client import RemoteGame
    game = RemoteGame(Answering(reply), "g", Rules(feedback=rule))
    with pytest.raises(ServerError) as error:
        game.answer((0, 0, 1, 1))
    assert str(error.value) == f"http://127.0.0.1:9 {message}"
    assert game.secret is None


@pytest.mark.parametrize("rule, reply, fb", [("black", {"black": 4, "won": True, "secret": "0011"}, (4,)),
                                             ("positional", {"marks": "xxxx", "won": True, "secret": "0011"},
                                              (2, 2, 2, 2)),
                                             ("positional", {"marks": "o-x-", "won": False}, (1, 0, 2, 0))])
def test_the_rules_keys_are_read(rule, reply, fb):
    from mm_logic.client import RemoteGame
    game = RemoteGame(Answering(reply), "g", Rules(feedback=rule))
    assert game.answer((0, 0, 1, 1)) == fb
    assert game.secret == ((0, 0, 1, 1) if reply["won"] else None)


STANDARD_4X6 = {"pegs": 4, "colors": 6, "max_repeat": None}


@pytest.mark.parametrize("rules, told, accepted", [
    # A server older than the feedback rules names none for the standard game: the game asked for.
    (Rules(), STANDARD_4X6, True),
    (Rules(), {**STANDARD_4X6, "feedback": "standard"}, True),
    (Rules(), {**STANDARD_4X6, "feedback": "black"}, False),
    (Rules(feedback="black"), STANDARD_4X6, False),
    (Rules(feedback="black"), {**STANDARD_4X6, "feedback": "black"}, True),
    (Rules(), None, False),
])
def test_a_created_game_s_rules_are_compared_by_value(rules, told, accepted):
    remote, sent = RemoteServer("127.0.0.1:9"), []

    def request(method: str, path: str, body: dict | None = None) -> dict:
        sent.append(body)
        return {"id": "g", "rules": told}

    remote.request = request
    if accepted:
        assert remote.new_game(rules).rules == rules
    else:
        with pytest.raises(ServerError) as error:
            remote.new_game(rules)
        assert str(error.value) == ("http://127.0.0.1:9 created a game that is not the one asked for: "
                                    f"{ {'id': 'g', 'rules': told} }")
    # The standard rule is not named in the request, as before the feedback rules (an older server refuses the key).
    assert sent[0]["rules"] == (STANDARD_4X6 if rules.feedback == "standard" else {**STANDARD_4X6, "feedback": "black"})


def test_a_remote_server_pickles_as_its_address(server):
    remote = RemoteServer(server.url)
    remote.new_game(Rules())  # opens its connection
    copy = pickle.loads(pickle.dumps(remote))
    assert (copy.url, copy.timeout, copy._connection) == (server.url, 60.0, None)
    assert copy.new_game(Rules(), parse_code("0123", Rules())).answer((0, 1, 2, 3)) == (4, 0)


def test_serve_on_a_port_in_use_is_one_line_exit_1(run, server):
    result = run("serve", "--port", server.port)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"error: cannot listen on 127.0.0.1:{server.port}: address already in use\n"


def test_serve_on_an_address_that_does_not_resolve_is_one_line_exit_1(run):
    result = run("serve", "--port", 0, "--host", "999.1.1.1")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == ("error: cannot listen on 999.1.1.1:0: '999.1.1.1' is neither an IP address nor a "
                             "host name that resolves\n")


@pytest.mark.parametrize("status, exit_code", [(400, 2), (429, 1)])
def test_a_refusal_pickles_with_its_line_status_and_exit_code(status, exit_code):
    # A bench worker's refusal reaches the parent pickled; it could not be unpickled.
    copy = pickle.loads(pickle.dumps(ServerRefused("the server refused: no", status)))
    assert (type(copy), str(copy), copy.status, copy.exit_code) == (ServerRefused, "the server refused: no", status,
                                                                     exit_code)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_full_server_refuses_a_bench_with_its_line_whatever_the_jobs(jobs):
    # With --jobs 2 the refusal came from a worker: the pool's result thread died unpickling it,
    # with a traceback, and the bench spun for ever.
    with ServerProcess("--max-games", "1") as live:
        RemoteServer(live.url).new_game(Rules())  # fills it
        result = mmlogic("bench", "--server", live.url, "--backend", "python", "--games", "4", "--jobs", jobs)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == ("error: the server refused: the server holds its maximum of 1 games and races; "
                             "try again later\n")


class Unrebuildable(MMLogicError):
    """An error whose ``__init__`` does not take its ``args``: it pickles, but does not unpickle."""

    exit_code = 2

    def __init__(self, message: str, detail: str):
        super().__init__(message)
        self.detail = detail


@dataclass(frozen=True)
class FailingTask:
    """A bench task that fails with an :class:`Unrebuildable` in its worker."""

    size: int = 1

    def run(self, engine, strategy, progress=None):
        raise Unrebuildable("the task's line", "detail")


def test_a_worker_error_that_does_not_unpickle_reaches_the_bench_as_its_line():
    # Run in a process of its own, since without the guard the pool hangs; its workers import
    # this module (by the name pytest gives it) to unpickle FailingTask.
    script = (
        "import sys; sys.path[:0] = sys.argv[1:]\n"
        "from test_client import FailingTask\n"
        "from mm_logic.player import Player\n"
        "from mm_logic.studies.bench import BenchResult, run_in_processes\n"
        "from mm_logic.engines.reference import ReferenceEngine\n"
        "from mm_logic.rules import Rules\n"
        "from mm_logic.strategies import make_strategy\n"
        "engine = ReferenceEngine(Rules())\n"
        "strategy = make_strategy('first', Rules())\n"
        "try:\n"
        "    run_in_processes(Player.of(engine, strategy), [FailingTask(), FailingTask()], 2,\n"
        "                     BenchResult(Rules(), 'python', 'first'))\n"
        "except Exception as error:\n"
        "    print(type(error).__name__, error, error.exit_code, sep='|')\n"
    )
    done = subprocess.run([sys.executable, "-c", script, *map(str, Path(__file__).parents[:2])],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "MMLogicError|the task's line|2\n"), done.stderr


def test_a_game_larger_than_the_python_engine_holds_plays_on_the_server(run_json, server):
    # 10x10 has 10**10 codes: the client asked the server for a python game, which it refused.
    options = ["--backend", "clingo", "--strategy", "first", "--pegs", "10", "--colors", "10"]
    remote = run_json("solve", "--server", server.url, *options, "--secret", "4579018923")
    local = run_json("solve", *options, "--secret", "4579018923")
    assert remote.pop("seconds") > 0 and local.pop("seconds") > 0
    assert remote == local and remote["attempts"] == 13
    remote = run_json("bench", "--server", server.url, *options, "--games", "3", "--seed", "5")
    local = run_json("bench", *options, "--games", "3", "--seed", "5")
    assert remote.pop("seconds") > 0 and local.pop("seconds") > 0
    assert remote == local and remote["games"] == 3


def test_a_server_that_does_not_speak_http_is_one_line_exit_1(run, server):
    # seed 003's line protocol answers the request with its own line, which the message showed.
    url = f"http://127.0.0.1:{server.tcp_port}"
    result = run("solve", "--server", url, "--backend", "python")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (f"error: {url} is not an mmlogic server: POST /api/games answered something else "
                             "than HTTP\n")


def ipv6_port() -> int:
    """A free port of the IPv6 loopback (the test is skipped where there is none)."""
    try:
        with socket.socket(socket.AF_INET6) as sock:
            sock.bind(("::1", 0))
            return sock.getsockname()[1]
    except OSError as error:
        pytest.skip(f"no IPv6 loopback here: {error}")


def test_serve_listens_on_an_ipv6_address_and_the_client_plays_there():
    # It said "cannot listen on ::1:PORT: '::1' is neither an IP address nor a host name that resolves".
    port = ipv6_port()
    server = subprocess.Popen([MMLOGIC, "serve", "--host", "::1", "--port", str(port)], stderr=subprocess.PIPE,
                              text=True)
    try:
        assert server.stderr.readline() == (f"mmlogic serve: http://[::1]:{port}/ (the web page; the API under /api) "
                                            "(Ctrl-C stops)\n")
        done = mmlogic("solve", "--server", f"http://[::1]:{port}", "--backend", "python", "--strategy", "first",
                       "--secret", "0123", "--json")
        assert done.returncode == 0, done.stderr
        assert [g["guess"] for g in json.loads(done.stdout)["guesses"]] == ["0000", "0111", "0122", "0123"]
    finally:
        server.kill()
        server.communicate(timeout=10)


def test_an_ipv6_server_keeps_its_brackets_in_messages(run):
    port = ipv6_port()
    assert RemoteServer(f"http://[::1]:{port}").url == f"http://[::1]:{port}"
    result = run("solve", "--server", f"http://[::1]:{port}", "--backend", "python")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"error: cannot reach the mmlogic server at http://[::1]:{port}: Connection refused\n"


def test_serve_writes_an_ipv6_address_in_brackets_in_every_line():
    # The line protocol's line and a port in use said "::1:PORT", where the port is not told from the address.
    port, line_port = ipv6_port(), ipv6_port()
    server = subprocess.Popen([MMLOGIC, "serve", "--host", "::1", "--port", str(port), "--tcp-port", str(line_port)],
                              stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr.readline().startswith(f"mmlogic serve: http://[::1]:{port}/ ")
        assert server.stderr.readline() == (f"mmlogic serve: line protocol on [::1]:{line_port} (4 letters from a "
                                            "to f, doubles oui)\n")
        taken = mmlogic("serve", "--host", "::1", "--port", str(port))
        assert (taken.returncode, taken.stdout) == (1, "")
        assert taken.stderr == f"error: cannot listen on [::1]:{port}: address already in use\n"
    finally:
        server.kill()
        server.communicate(timeout=10)

