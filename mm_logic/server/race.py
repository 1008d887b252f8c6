"""Races: several (backend, strategy) entrants play the same secret, move by move.

A :class:`Race` holds one :class:`~mm_logic.game.Game` per entrant, each on
its own engine, all against one secret that the server keeps. Every
:meth:`Race.step` plays one turn of every entrant still running and times
it. The race is over for all at the end of the step in which an entrant
wins: its winning guess is the secret, which anyone reading the state would
then know, so nobody plays on (the others stop with :data:`BEATEN`). It is
over too when every entrant has stopped: a game that has not won after
:func:`~mm_logic.game.attempts_limit` guesses, or whose engine failed (a time
limit), stops with its reason, so a race always ends. The winners are the
entrants that won with the fewest attempts (those that won in the last step),
ties broken by the least total time; the secret is in the state only once the
race is over.
Like :mod:`~mm_logic.server.store`, nothing here knows HTTP.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np

from ..engines import DEFAULT_BACKEND, engine_class
from ..game import Game, attempts_limit
from ..notation import Code, format_code
from ..player import Player
from ..randomness import random_code
from ..rules import Rules
from ..strategies import DEFAULT_STRATEGY, parse_strategy
from ..support.errors import BackendUnavailable, BadInput, MMLogicError
from .store import Conflict, code_of, first_guess_of, history_of, name_of, quoting, rules_from, strategy_of
from .variant import Variant, rules_json

#: How many entrants a race may have.
MAX_ENTRANTS = 8
#: Why an entrant still playing stops when another wins.
BEATEN = "another entrant found the secret first"


@dataclass
class Entrant:
    """One side of a race: a game on its own engine, and the time its turns took."""

    backend: str
    game: Game
    seconds: float = 0.0
    #: Why the entrant stopped without winning (no progress, an engine error); None while it runs or once won.
    stopped: str | None = None

    @property
    def running(self) -> bool:
        return not self.game.won and self.stopped is None

    def turn(self) -> None:
        """Play one turn, timed; a failure or a game gone on too long stops this entrant only."""
        rules = self.game.rules
        limit = attempts_limit(rules)
        if len(self.game.history) >= limit:
            self.stopped = f"no win after {limit} guesses; the strategy is not making progress"
            return
        start = time.perf_counter()
        try:
            self.game.play_turn()
        except MMLogicError as error:
            self.stopped = str(error)
        finally:
            self.seconds += time.perf_counter() - start

    def close(self) -> None:
        """Release the game's session and the engine, which is this entrant's own."""
        self.game.close()
        self.game.engine.close()

    def state(self) -> dict:
        return {
            "backend": self.backend, "strategy": self.game.strategy.name,
            "history": history_of(self.game),
            "attempts": len(self.game.history), "seconds": round(self.seconds, 6), "won": self.game.won,
            "stopped": self.stopped,
        }


@dataclass
class Race:
    """Entrants playing one secret, a turn each per :meth:`step`."""

    id: str
    rules: Rules
    secret: Code
    entrants: list[Entrant]
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_used: float = field(default_factory=time.monotonic)
    #: The variant the race plays (``rules.variant``), None for the built-in rules.
    variant: Variant | None = None

    @property
    def over(self) -> bool:
        return not any(e.running for e in self.entrants)

    def step(self) -> None:
        """One turn of every entrant still running (409 once the race is over)."""
        if self.over:
            raise Conflict(f"race {self.id} is over")
        for entrant in self.entrants:
            if entrant.running:
                entrant.turn()
        if any(e.game.won for e in self.entrants):
            # A winning entry shows the secret: playing on would be playing a known code.
            for entrant in self.entrants:
                if entrant.running:
                    entrant.stopped = BEATEN

    @staticmethod
    def winners(states: list[dict]) -> list[int]:
        """Indices of the entrants that won with the fewest attempts, then the least time (as shown)."""
        scores = [(s["attempts"], s["seconds"]) for s in states if s["won"]]
        best = min(scores, default=None)
        return [i for i, s in enumerate(states) if s["won"] and (s["attempts"], s["seconds"]) == best]

    def state(self) -> dict:
        """What anyone may know of the race: winners and secret only once it is over."""
        entrants = [e.state() for e in self.entrants]
        over = self.over
        state = {"id": self.id, "rules": rules_json(self.rules, self.variant),
                 "alphabet": self.rules.alphabet[: self.rules.colors],
                 "entrants": entrants, "over": over, "winners": self.winners(entrants) if over else []}
        if over:
            state["secret"] = format_code(self.secret, self.rules)
        return state

    def close(self) -> None:
        for entrant in self.entrants:
            entrant.close()


def _entrant_names(entrants, rules: Rules, default_backend: str = DEFAULT_BACKEND) -> list[tuple[str, str]]:
    """(backend, strategy) of each entrant of a request, checked before any engine is built
    (``default_backend``: an entrant's when it names none)."""
    if not isinstance(entrants, list) or not 1 <= len(entrants) <= MAX_ENTRANTS:
        raise BadInput(f'entrants must be a list of 1 to {MAX_ENTRANTS} objects such as '
                       '{"backend": "python", "strategy": "minimax"}')
    names = []
    for number, entrant in enumerate(entrants, 1):
        if not isinstance(entrant, dict):
            raise BadInput(f'entrant {number} must be an object such as {{"backend": "python", "strategy": "minimax"}}')
        unknown = set(entrant) - {"backend", "strategy"}
        if unknown:
            raise BadInput(f"entrant {number}: unknown field {sorted(unknown)[0]!r}")
        try:
            backend = name_of(entrant, "backend", default_backend)
            strategy = strategy_of(entrant, rules, DEFAULT_STRATEGY)
            quoting(backend, engine_class, backend)
        except BadInput as error:
            raise BadInput(f"entrant {number}: {error}") from None
        names.append((backend, strategy))
    return names


def race_request(request: dict, time_limit: float | None, fields: frozenset[str],
                 variants: tuple[Variant, ...] = ()) -> tuple[Rules, int | None, list[Player], list, Variant | None]:
    """A race request's rules, seed, entrants (as players), their strategies and its variant (``rules.variant``,
    one of ``variants``; None without), checked: refused in one line before any engine is built. ``fields``: the
    request's fields that this kind of race takes."""
    if not isinstance(request, dict):
        raise BadInput("the request body must be a JSON object")
    unknown = set(request) - fields
    if unknown:
        raise BadInput(f"unknown field {sorted(unknown)[0]!r}")
    rules, variant = rules_from(request.get("rules"), variants)
    seed = request.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise BadInput("seed must be an integer >= 0")
    names = _entrant_names(request.get("entrants"), rules,
                           DEFAULT_BACKEND if variant is None else variant.backends[0])
    chosen = []
    for number, (backend, strategy) in enumerate(names, 1):
        try:
            chosen.append(quoting(strategy, parse_strategy, strategy, files=False))
            if variant is not None:
                variant.check_player(backend, chosen[-1])
        except BadInput as error:
            raise BadInput(f"entrant {number}: {error}") from None
    first_guess = first_guess_of(request, rules)
    encoding = None if variant is None else variant.encoding
    players = [Player(rules, backend, strategy, seed, first_guess, time_limit, encoding)
               for (backend, _), strategy in zip(names, chosen)]
    strategies = []
    for number, player in enumerate(players, 1):
        try:
            strategies.append(player.make_strategy())  # refuses a size it cannot play
        except BadInput as error:
            raise BadInput(f"entrant {number}: {error}") from None
    return rules, seed, players, strategies, variant


def new_race(request: dict, time_limit: float | None, variants: tuple[Variant, ...] = ()):
    """Check a race request; returns a function building the race (its engines) under an id, called once
    there is room.

    ``request``: ``rules``, ``entrants`` (1 to 8 ``{"backend", "strategy"}``), optional ``secret``,
    ``seed`` (the random secret's and the strategies'), ``first_guess`` (every entrant's opening);
    ``variants``: those the server serves, which ``rules.variant`` may name.
    """
    rules, seed, players, strategies, variant = race_request(
        request, time_limit, frozenset({"rules", "entrants", "secret", "seed", "first_guess"}), variants)
    given = None if request.get("secret") is None else code_of(request["secret"], rules)

    def build(key: str) -> Race:
        engines = []
        entrants: list[Entrant] = []
        try:
            for number, player in enumerate(players, 1):
                try:
                    engines.append(player.engine())
                except (BadInput, BackendUnavailable) as error:  # a space it refuses, a solver not installed
                    raise type(error)(f"entrant {number}: {error}") from None
            if variant is not None:  # one of the codes the variant admits, as its engine lists them
                secret = variant.secret(engines[0], given, seed)
            else:
                secret = given if given is not None else random_code(rules, np.random.default_rng(seed))
            for player, strategy, engine in zip(players, strategies, engines):
                entrants.append(Entrant(player.backend, Game(engine, strategy, secret=secret)))
        except BaseException:
            for entrant in entrants:
                entrant.game.close()
            for engine in engines:
                engine.close()
            raise
        return Race(key, rules, secret, entrants, variant=variant)

    return build
