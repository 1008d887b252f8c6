"""Seed 003's line protocol: one request line per TCP connection, one answer line back.

Seed 003's report plays Mastermind against a socket server whose code it does
not give; its clients (``mastermind-client.pl``) show the protocol, which
``mmlogic serve --tcp-port N`` speaks beside the JSON API (``docs/line-protocol.md``):

* ``init_connexion`` starts a game and answers ``[GameNo,[Pegs,Letters,Doubles]]``,
  e.g. ``[1764138671000000,[5,8,non]]``: game 1764138671000000, codes of 5
  letters from ``a`` to ``h``, ``Doubles`` ``oui`` (a letter may repeat) or ``non`` (it may not);
* ``[GameNo,abcde]`` (or ``[GameNo,'abcde']``, spaces allowed) scores a guess
  against the game's secret: ``[-1,[Bulls,Cows]]`` (black, white);
* anything wrong answers ``[-2,'message']``: the message is one line in the
  command line's words, written as a quoted Prolog atom.

Colour ``i`` is the letter ``chr(97 + i)`` whatever the HTTP API's alphabet.
The games live in the same :class:`~mm_logic.server.store.GameStore` as the
API's (so ``--max-games`` and ``--idle-seconds`` count them too), numbered
from the server's start in microseconds, so never again after a restart.
:func:`answer_line` answers one line; :func:`start_line_server` serves it
on asyncio, reading at most :data:`MAX_LINE` bytes and waiting at most
:data:`READ_TIMEOUT` seconds for them, so a silent client cannot hold its
connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
import socket
import threading
import time
from collections.abc import Awaitable, Callable

from ..codespace import MAX_CODES
from ..feedback import STANDARD, rule_of
from ..notation import SHOWN, abridged, amount, parse_code
from ..rules import Rules
from ..support.errors import BadInput, MMLogicError, cannot_listen
from .store import Conflict, GameStore, HostedGame, StoreFault, UnknownGame

#: Colour ``i`` is written ``LETTERS[i]``.
LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: Longest request line read (bytes before the newline).
MAX_LINE = 1024
#: Seconds a connection may take to send its line.
READ_TIMEOUT = 10.0
#: ``[GameNo,guess]`` or ``[GameNo,'guess']``; a final ``.`` is tolerated, as after a Prolog term.
# [0-9], not \d: int() reads any script's digits (١ is 1), and the client meant no game of those.
REQUEST = re.compile(r"\[\s*(-?[0-9]+)\s*,\s*(?:'([^'\\\s,]*)'|([^'\\\s,\[\]]+))\s*\]\s*\.?")
INIT = re.compile(r"init_connexion\s*\.?")
#: Why a number below 1 is no game's: no run of a server ever gave one (a run numbers its games from the
#: microseconds of its start, as earlier versions did from 1): it is not "of an earlier run".
NO_NUMBER = "game numbers are 1 or more; init_connexion gives one"
UNREADABLE = "unreadable request: send init_connexion or [GAME,GUESS], e.g. [1,abcde]"


def protocol_rules(rules: Rules) -> Rules:
    """``rules`` written in letters from ``a``, or BadInput when the protocol cannot state them."""
    if rule_of(rules) is not STANDARD:
        # serve's rules options take no --feedback; a game of another rule never reaches the protocol.
        raise BadInput(f"--tcp-port: the line protocol answers black and white pegs only, not --feedback "
                       f"{rules.feedback}")
    if rules.colors > len(LETTERS):
        raise BadInput(f"--tcp-port: the line protocol writes colours as the letters a..z, "
                       f"so at most {len(LETTERS)} colours, not {rules.colors}")
    if rules.restricted and rules.repeat_limit > 1:
        raise BadInput(f"--tcp-port: the line protocol states repetition only as oui (any) or non "
                       f"(--no-repeat), not --max-repeat {rules.max_repeat}")
    if rules.size > MAX_CODES:
        raise BadInput(f"--tcp-port: the line protocol's games are kept by the python engine, which holds at most "
                       f"{MAX_CODES:,} codes; {rules.describe()} has {amount(rules.size)}")
    return dataclasses.replace(rules, alphabet=LETTERS)


def doubles(rules: Rules) -> str:
    """``non`` when no letter may repeat, else ``oui``."""
    return "non" if rules.max_repeat == 1 else "oui"


def prolog_atom(text: str) -> str:
    """``text`` as a quoted Prolog atom on one line (quotes and backslashes escaped)."""
    text = "".join(" " if ord(c) < 32 or c == "\x7f" else c for c in text)
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def error_line(message: str) -> str:
    """The answer to a bad request: ``[-2,'message']``."""
    return f"[-2,{prolog_atom(message)}]"


class LineGames:
    """The line protocol's games: numbers ``first``, ``first + 1``, ... mapped to games hosted in ``store``.

    ``rules`` are the server's (the ``serve`` command's rules options); every
    game of the protocol follows them. ``first`` is by default the store's
    start in microseconds since 1970: a run of the server makes fewer games
    than microseconds pass, so the next run's numbers are all above this one's,
    and a client still holding a number of an earlier run is told so, rather
    than playing a stranger's game of the same number.
    """

    def __init__(self, store: GameStore, rules: Rules, first: int | None = None):
        self.store = store
        self.rules = protocol_rules(rules)
        self._games: dict[int, HostedGame] = {}
        self.first = int(store.started * 1_000_000) if first is None else first
        self._next = self.first
        self._lock = threading.Lock()

    def new(self) -> int:
        """Start a game with a random secret; its number."""
        request_rules = {"pegs": self.rules.pegs, "colors": self.rules.colors, "alphabet": LETTERS}
        if self.rules.max_repeat is not None:
            request_rules["max_repeat"] = self.rules.max_repeat
        hosted = self.store.create({"rules": request_rules, "role": "codebreaker", "backend": "python",
                                    "strategy": "first"})
        with self._lock:
            # Forget the numbers of games the store has expired (the store's own test).
            now = time.monotonic()
            self._games = {n: g for n, g in self._games.items() if now - g.last_used <= self.store.idle_seconds}
            number = self._next
            self._next += 1
            self._games[number] = hosted
        return number

    def get(self, number: int) -> HostedGame:
        """The game ``number``, marked as used now."""
        with self._lock:
            hosted = self._games.get(number)
            issued = self.first <= number < self._next
        if hosted is None:
            # A request line may hold a thousand digits: quoted by the first ones.
            reason = (self.store.idle_text() if issued else NO_NUMBER if number < 1
                      else self.store.earlier_text() if number < self.first else "no game has that number yet")
            raise UnknownGame(f"no game {abridged(str(number), SHOWN)} ({reason})")
        try:
            return self.store.get(hosted.id)
        except UnknownGame:
            reason = self.store.why_unknown(hosted.id)
            if not self.store.evicted(hosted.id):
                # Idle: its number goes too. One forgotten to make room keeps its number until
                # it would have gone idle (new() prunes it), so asking again gets the same reason.
                with self._lock:
                    self._games.pop(number, None)
            raise UnknownGame(f"no game {number} ({reason})") from None


def answer_line(line: str, games: LineGames) -> str:
    """The answer line (without its newline) to one request line."""
    text = line.strip()
    try:
        if INIT.fullmatch(text):
            number = games.new()
            rules = games.rules
            return f"[{number},[{rules.pegs},{rules.colors},{doubles(rules)}]]"
        match = REQUEST.fullmatch(text)
        if match is None:
            raise BadInput(UNREADABLE)
        number = int(match[1])
        guess = match[2] if match[2] is not None else match[3]
        hosted = games.get(number)
        with hosted.lock:
            if hosted.over:
                raise Conflict(f"game {number} is over")
            # Read by the protocol's rules, the operator's (serve --no-repeat): its words, not a JSON request's.
            code = parse_code(guess, games.rules)
            black, white = hosted.game.score(code)
            hosted.game.record(code, (black, white), check=False)
            games.store.saved(hosted)  # a store on disk (--db) writes the guess
        return f"[-1,[{black},{white}]]"
    except MMLogicError as error:
        if isinstance(error, StoreFault):  # the server's fault, not the client's: one line in the log too
            logging.getLogger("uvicorn.error").warning("line protocol %s: %s", text[:80], error)
        return error_line(str(error))


async def _answer_connection(reader: asyncio.StreamReader, games: LineGames, read_timeout: float,
                             max_line: int) -> str | None:
    """The answer to a connection's line (None when it closed without sending anything)."""
    try:
        raw = await asyncio.wait_for(reader.readline(), read_timeout)
    except TimeoutError:
        return error_line(f"no request within {read_timeout:g} s")
    except ValueError:  # the line is longer than the reader's limit
        return error_line(f"request longer than {max_line} bytes")
    if not raw:
        return None
    try:
        return await asyncio.to_thread(answer_line, raw.decode("utf-8", "replace"), games)
    except Exception as error:  # noqa: BLE001 - a bug, not the client's fault; still one line
        return error_line(f"internal error: {type(error).__name__}: {error}")


async def start_line_server(games: LineGames, host: str, port: int, *, read_timeout: float = READ_TIMEOUT,
                            max_line: int = MAX_LINE, sock: socket.socket | None = None) -> asyncio.Server:
    """Listen on ``host:port`` (or on ``sock``, bound already): per connection, read one line, write its
    answer line, close."""
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        stopping = False
        try:
            answer = await _answer_connection(reader, games, read_timeout, max_line)
            if answer is not None:
                writer.write(answer.encode("utf-8") + b"\n")
                await asyncio.wait_for(writer.drain(), read_timeout)
        except (ConnectionError, TimeoutError):
            pass
        except asyncio.CancelledError:
            # The server stops with this connection open. Ending without re-raising
            # keeps Python 3.11's stream callback from logging a traceback for it.
            stopping = True
        finally:
            writer.close()
            if not stopping:
                with contextlib.suppress(ConnectionError, TimeoutError):
                    await asyncio.wait_for(writer.wait_closed(), read_timeout)

    if sock is not None:
        return await asyncio.start_server(handle, sock=sock, limit=max_line)
    return await asyncio.start_server(handle, host, port, limit=max_line)


def listening_port(server: asyncio.Server) -> int:
    """The port ``server`` listens on (the one chosen when asked for port 0)."""
    return server.sockets[0].getsockname()[1]


async def serve_beside(main: Callable[[], Awaitable[None]], games: LineGames, host: str, port: int,
                       on_listen: Callable[[int], None] = lambda port: None, *,
                       read_timeout: float = READ_TIMEOUT, sock: socket.socket | None = None) -> None:
    """Run ``main()`` (the HTTP server) with the line server open beside it, closed when it ends.

    A port that cannot be listened on is one line (MMLogicError, exit 1)
    before ``main`` starts; ``on_listen`` gets the port listened on. With ``sock``
    (bound already, as ``mmlogic serve`` binds it) the line server takes it.
    """
    try:
        server = await start_line_server(games, host, port, read_timeout=read_timeout, sock=sock)
    except OSError as error:
        raise cannot_listen(host, port, error, " for the line protocol") from None
    try:
        on_listen(listening_port(server))
        await main()
    finally:
        server.close()
        # Connections still open end with the loop (a silent one would hold wait_closed up to its timeout).
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(server.wait_closed(), 1.0)
