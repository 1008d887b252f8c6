"""The client of ``mmlogic serve``: the computer's strategy plays against a remote codemaker.

Seed 003 played its guesser against a codemaker over TCP. Here the codemaker
is a server's codebreaker game (``docs/server.md``): the server keeps the
secret and answers each guess; the strategy and its engine run in this
process, exactly as in :func:`mm_logic.game.play`, so a deterministic
strategy takes the same attempts against a server as in process.

* :class:`RemoteServer` knows the server's address and speaks its JSON API
  over one kept-alive HTTP connection (the standard library's
  ``http.client``: the client needs no extra package);
* :meth:`RemoteServer.new_game` creates a game there (its secret random,
  reproducible with ``seed``, or given: benches send their own secrets so
  their figures compare with in-process benches);
* :func:`play_remote` plays one whole game and returns a
  :class:`~mm_logic.game.GameRecord`.

A server that cannot be reached, or that answers something else than the
API, is one clear line (exit 1); a request the server refuses is its
one-line error (exit 2 for a 400, as for bad input typed here).
"""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from .codespace import MAX_CODES
from .engines import DEFAULT_BACKEND
from .engines.base import Engine
from .feedback import rule_of
from .game import GameRecord, play_against
from .notation import Code, Entry, Feedback, abridged, check_feedback, format_code, parse_code, quoted
from .rules import DEFAULT_ALPHABET, Rules, rules_object
from .strategies.base import Strategy
from .support.errors import BadInput, MMLogicError, NoConsistentCode, host_port


class ServerError(MMLogicError):
    """The server cannot be reached, or did not answer as an mmlogic server (exit 1)."""


class ServerRefused(MMLogicError):
    """The server answered a request with an error (its one line; exit 2 for a 400)."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status
        self.exit_code = 2 if status == 400 else 1

    def __reduce__(self):
        # A bench worker's error is pickled to the parent process. The default rebuilds it
        # as cls(*args), and args hold the message alone: unpickling raised a TypeError in
        # the pool's result thread, which died there and left the bench waiting for ever.
        return type(self), (self.args[0], self.status)


def server_url(text: str) -> tuple[str, str, int]:
    """``(scheme, host, port)`` of a ``--server`` URL such as ``http://127.0.0.1:8000``.

    >>> server_url("http://127.0.0.1:8000")
    ('http', '127.0.0.1', 8000)
    >>> server_url("localhost:9000")
    ('http', 'localhost', 9000)
    """
    url = text if "://" in text else f"http://{text}"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        parts, port = None, None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        raise BadInput(f"--server must be a server's address such as http://127.0.0.1:8000, not {quoted(text)}")
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80)


def url_of(scheme: str, host: str, port: int) -> str:
    """The URL of ``(scheme, host, port)``, an IPv6 address in brackets as URLs write it.

    >>> url_of("http", "::1", 8000), url_of("http", "127.0.0.1", 8000)
    ('http://[::1]:8000', 'http://127.0.0.1:8000')
    """
    # urlsplit's hostname drops the brackets: they are put back here.
    return f"{scheme}://{host_port(host, port)}"


def server_backend(rules: Rules) -> str:
    """The backend a server's codebreaker game under ``rules`` is asked for.

    The game's engine on the server only serves hints, which the client never asks for, but
    the server refuses a game whose code space it cannot hold: so the cheapest that holds it,
    python up to the codes it enumerates (:data:`~mm_logic.codespace.MAX_CODES`), beyond it
    the default backend (clingo), which holds any.

    >>> server_backend(Rules(4, 6)), server_backend(Rules(10, 10))
    ('python', 'clingo')
    """
    return "python" if rules.size <= MAX_CODES else DEFAULT_BACKEND


@dataclass
class RemoteServer:
    """A ``mmlogic serve`` server at ``url``; requests go over one kept-alive connection.

    Not shared between threads: give each thread its own (it is cheap).
    It pickles as its address, so bench workers in other processes open their own.
    """

    url: str
    timeout: float = 60.0
    _connection: http.client.HTTPConnection | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.scheme, self.host, self.port = server_url(self.url)
        self.url = url_of(self.scheme, self.host, self.port)

    def __getstate__(self) -> dict:
        return {"url": self.url, "timeout": self.timeout}

    def __setstate__(self, state: dict) -> None:
        self.__init__(**state)

    def request(self, method: str, path: str, body: dict | None = None) -> dict:
        """One API call: the answer's JSON object; raises the server's error as :class:`ServerRefused`."""
        payload = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if payload is not None else {}
        for attempt in (1, 2):
            reused = self._connection is not None
            if self._connection is None:
                kind = http.client.HTTPSConnection if self.scheme == "https" else http.client.HTTPConnection
                self._connection = kind(self.host, self.port, timeout=self.timeout)
            try:
                self._connection.request(method, path, body=payload, headers=headers)
                response = self._connection.getresponse()
                status, data = response.status, response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as error:
                # A kept-alive connection the server closed while idle: the request never
                # reached it, so it is sent once more on a new connection.
                self.close()
                if not reused or attempt == 2:
                    raise ServerError(f"the server at {self.url} closed the connection: {error}") from None
            except (http.client.BadStatusLine, http.client.LineTooLong, http.client.UnknownProtocol):
                # Something listens there, but its answer is not HTTP (seed 003's line protocol on a
                # `serve --tcp-port` port answers `[-2,'unreadable request: ...']`): the error holds
                # that raw answer, newline and all, which is no reason to show.
                self.close()
                raise ServerError(f"{self.url} is not an mmlogic server: {method} {path} answered "
                                  "something else than HTTP") from None
            except (OSError, http.client.HTTPException) as error:
                self.close()
                reason = error.strerror if isinstance(error, OSError) and error.strerror else error
                if isinstance(error, socket.timeout):
                    reason = f"no answer within {self.timeout:g} s"
                raise ServerError(f"cannot reach the mmlogic server at {self.url}: {reason}") from None
        try:
            answer = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            answer = None
        if not isinstance(answer, dict) or (status >= 400 and not isinstance(answer.get("error"), str)):
            raise ServerError(f"{self.url} is not an mmlogic server: {method} {path} answered HTTP {status} "
                              "without the API's JSON")
        if status >= 400:
            raise ServerRefused(f"the server refused: {answer['error']}", status)
        return answer

    def new_game(self, rules: Rules, secret: Code | None = None, seed: int | None = None) -> RemoteGame:
        """A codebreaker game on the server: it keeps ``secret`` (random when None, from ``seed``)."""
        wire_rules = rules.as_dict()
        if rule_of(rules).default:
            del wire_rules["feedback"]  # as before the feedback rules: a server that predates them refuses the key
        if rules.alphabet != DEFAULT_ALPHABET:
            wire_rules["alphabet"] = rules.alphabet
        # The game's engine on the server must hold the code space, or the server refuses the game.
        body: dict = {"rules": wire_rules, "role": "codebreaker", "backend": server_backend(rules),
                      "strategy": "first"}
        if secret is not None:
            body["secret"] = format_code(secret, rules)
        if seed is not None:
            body["seed"] = seed
        state = self.request("POST", "/api/games", body)
        # The reply's rules by value: an older server names no feedback rule for the standard game.
        told = state.get("rules")
        if not isinstance(state.get("id"), str) or not isinstance(told, dict) or rules_object(told) != rules.as_dict():
            raise ServerError(f"{self.url} created a game that is not the one asked for: {state}")
        return RemoteGame(self, state["id"], rules)

    def close(self) -> None:
        """Close the connection (a later request opens a new one)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None


@dataclass
class RemoteGame:
    """One codebreaker game on a server: it answers guesses; its secret is known once won."""

    server: RemoteServer
    id: str
    rules: Rules
    secret: Code | None = None

    def answer(self, guess: Code) -> Feedback:
        """The server's feedback for ``guess``, read from the rule's keys (``black`` and ``white``; ``black``;
        ``marks``)."""
        reply = self.server.request("POST", f"/api/games/{self.id}/guesses",
                                    {"guess": format_code(guess, self.rules)})
        rule = rule_of(self.rules)
        won = reply.get("won")
        fb = rule.from_json(reply, self.rules.pegs) if all(key in reply for key in rule.json_keys) else None
        if not (fb is not None and type(won) is bool and (not won or isinstance(reply.get("secret"), str))):
            raise ServerError(f"{self.server.url} answered a guess without the API's fields: "
                              f"{abridged(json.dumps(reply), 200)}")
        try:
            check_feedback(fb, self.rules)
            secret = parse_code(reply["secret"], self.rules) if won else None
        except BadInput as error:
            raise ServerError(f"{self.server.url} answered {format_code(guess, self.rules)} with {error}") from None
        if won != (fb == rule.win(self.rules.pegs)) or (won and secret != tuple(guess)):
            raise ServerError(f"{self.server.url} answered {format_code(guess, self.rules)} with {rule.write(fb)} "
                              f"and won={str(won).lower()}, which do not agree")
        if won:
            self.secret = secret
        return fb


def play_remote(engine: Engine, strategy: Strategy, server: RemoteServer, secret: Code | None = None,
                seed: int | None = None, on_turn: Callable[[int, Entry], None] | None = None) -> GameRecord:
    """Play one game against a codemaker on ``server``: its secret is ``secret``, or random from ``seed``.

    ``seconds`` in the record includes the network's time.
    """
    rules = engine.rules
    if strategy.probes and rules.restricted:
        # Checked before a game is opened there: its codemaker takes guesses under the game's rules.
        raise BadInput(f"--strategy {strategy.name} probes with codes that repeat colours beyond "
                       f"{rules.repeat_option}, which a server's codemaker refuses as guesses; "
                       "play it without --server")
    start = time.perf_counter()
    game = server.new_game(rules, secret, seed)
    try:
        guesses, _ = play_against(engine, strategy, game.answer, on_turn=on_turn)
    except NoConsistentCode as error:
        raise ServerError(f"the answers of the server at {server.url} contradict each other: {error}") from None
    return GameRecord(engine.rules, game.secret, guesses, time.perf_counter() - start, engine.name, strategy.name)


@dataclass(frozen=True)
class RemoteCodemaker:
    """A bench's codemaker on ``server`` (:data:`mm_logic.studies.bench.Codemaker`): each game is opened there
    with its secret, which the server keeps; picklable, so a bench's workers play through it too."""

    server: RemoteServer

    def __call__(self, engine: Engine, strategy: Strategy, secret: Code) -> GameRecord:
        return play_remote(engine, strategy, self.server, secret)
