"""The server's games: created from a JSON request, kept in memory, capped and expired.

Each :class:`HostedGame` wraps one :class:`~mm_logic.game.Game` with who plays
which side (``role`` is the *client's* side: ``codebreaker`` guesses a secret
the server keeps, ``codemaker`` keeps a code in mind and answers the
computer's guesses) and a lock, so requests on one game run one at a time
while different games run in parallel. :class:`GameStore` holds at most
``max_games`` games and forgets those idle for ``idle_seconds``. Nothing here
knows HTTP: the API module turns requests into these calls and errors into
statuses.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from ..engines import DEFAULT_BACKEND, make_engine
from ..errors import BadInput, MMLogicError
from ..game import Game
from ..notation import Code, format_code, parse_code
from ..rules import Rules, make_rules
from ..sampling import random_code
from ..strategies import make_strategy

ROLES = ("codebreaker", "codemaker")


class UnknownGame(MMLogicError):
    """No game has this id (never created, or expired)."""


class TooManyGames(MMLogicError):
    """The store is full."""


class Conflict(MMLogicError):
    """The request does not fit the game's state (over, wrong role, nothing to undo...)."""


def rules_from(request: dict) -> Rules:
    """Rules from a request's ``pegs``, ``colors``, ``no_repeat``, ``max_repeat``, ``alphabet``."""
    unknown = set(request) - {"pegs", "colors", "no_repeat", "max_repeat", "alphabet"}
    if unknown:
        raise BadInput(f"unknown rules field {sorted(unknown)[0]!r}")
    options = {}
    for name, kind in (("pegs", int), ("colors", int), ("no_repeat", bool), ("max_repeat", int),
                       ("alphabet", str)):
        value = request.get(name)
        if value is None:
            continue
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise BadInput(f"rules field {name!r} must be {'an integer' if kind is int else kind.__name__}")
        options[name] = value
    return make_rules(**options)


def code_of(text, rules: Rules) -> Code:
    """A code sent in a request (a JSON string in the game's notation)."""
    if not isinstance(text, str):
        raise BadInput("a code must be a string, e.g. \"0123\"")
    return parse_code(text, rules)


@dataclass
class HostedGame:
    """One game on the server and what it needs to answer requests about it."""

    id: str
    role: str
    game: Game
    backend: str
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_used: float = field(default_factory=time.monotonic)
    resigned: bool = False
    #: The computer's guess shown by ``next`` and not answered yet (the answer is for it).
    pending: Code | None = None

    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def over(self) -> bool:
        return self.game.won or self.resigned

    def code(self, text: str) -> Code:
        """A code from the request, in the game's notation."""
        return code_of(text, self.rules)

    def state(self) -> dict:
        """What anyone may know of the game: the secret only once it is over."""
        rules = self.rules
        state = {
            "id": self.id, "role": self.role, "rules": rules.as_dict(), "alphabet": rules.alphabet[: rules.colors],
            "backend": self.backend, "strategy": self.game.strategy.name,
            "history": [{"guess": format_code(g, rules), "black": b, "white": w} for g, (b, w) in self.game.history],
            "attempts": len(self.game.history), "won": self.game.won, "over": self.over,
        }
        if self.over and self.game.secret is not None:
            state["secret"] = format_code(self.game.secret, rules)
        return state

    def check_open(self, role: str | None = None) -> None:
        if self.over:
            raise Conflict(f"game {self.id} is over")
        if role is not None and self.role != role:
            raise Conflict(f"game {self.id} is a {self.role} game: this request is for a {role} game")


class GameStore:
    """The games in memory, at most ``max_games``, each forgotten after ``idle_seconds`` unused."""

    def __init__(self, max_games: int = 1000, idle_seconds: float = 1800.0, time_limit: float | None = 10.0):
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self.time_limit = time_limit
        self._games: dict[str, HostedGame] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._games)

    def expire(self, now: float | None = None) -> int:
        """Forget the games idle too long; returns how many."""
        now = time.monotonic() if now is None else now
        with self._lock:
            old = [i for i, g in self._games.items() if now - g.last_used > self.idle_seconds]
            for i in old:
                self._games.pop(i).game.close()
        return len(old)

    def create(self, request: dict) -> HostedGame:
        """A new game from a request: ``rules``, ``role``, ``backend``, ``strategy``, ``seed``, ``secret``."""
        if not isinstance(request, dict):
            raise BadInput("the request body must be a JSON object")
        unknown = set(request) - {"rules", "role", "backend", "strategy", "seed", "secret", "first_guess"}
        if unknown:
            raise BadInput(f"unknown field {sorted(unknown)[0]!r}")
        rules = rules_from(request.get("rules") or {})
        role = request.get("role", "codebreaker")
        if role not in ROLES:
            raise BadInput(f"unknown role {role!r}; choose from {', '.join(ROLES)}")
        seed = request.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise BadInput("seed must be an integer >= 0")
        backend = str(request.get("backend", DEFAULT_BACKEND))
        strategy = make_strategy(str(request.get("strategy", "minimax")), rules, seed, self.time_limit)
        first_guess = code_of(request["first_guess"], rules) if request.get("first_guess") else None
        if role == "codemaker":
            if request.get("secret") is not None:
                raise BadInput("secret applies to role codebreaker: as codemaker you keep the code")
            secret = None
        elif request.get("secret") is not None:
            secret = code_of(request["secret"], rules)
        else:
            secret = random_code(rules, np.random.default_rng(seed))
        self.expire()
        self._check_room()
        # The engine last: the request is valid, and there was room a moment ago.
        engine = make_engine(backend, rules, time_limit=self.time_limit)
        with self._lock:
            try:
                self._check_room()
            except TooManyGames:
                engine.close()
                raise
            hosted = HostedGame(secrets.token_urlsafe(9), role, Game(engine, strategy, secret=secret,
                                                                    first_guess=first_guess), backend)
            self._games[hosted.id] = hosted
        return hosted

    def _check_room(self) -> None:
        if len(self._games) >= self.max_games:
            raise TooManyGames(f"the server holds its maximum of {self.max_games} games; try again later")

    def get(self, game_id: str) -> HostedGame:
        """The game ``game_id``, marked as used now."""
        self.expire()
        with self._lock:
            hosted = self._games.get(game_id)
        if hosted is None:
            raise UnknownGame(f"no game {game_id!r} (games are forgotten after {self.idle_seconds:g} s unused)")
        hosted.last_used = time.monotonic()
        return hosted

    def close(self) -> None:
        with self._lock:
            for hosted in self._games.values():
                hosted.game.close()
            self._games.clear()
