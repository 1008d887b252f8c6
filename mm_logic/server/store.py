"""The server's games: created from a JSON request, kept in memory, capped and expired.

Each :class:`HostedGame` wraps one :class:`~mm_logic.game.Game` with who plays
which side (``role`` is the *client's* side: ``codebreaker`` guesses a secret
the server keeps, ``codemaker`` keeps a code in mind and answers the
computer's guesses) and a lock, so requests on one game run one at a time
while different games run in parallel. :class:`GameStore` holds at most
``max_games`` games and forgets those idle for ``idle_seconds``; races
(:mod:`~mm_logic.server.race`) share that cap and that expiry. Nothing here
knows HTTP: the API module turns requests into these calls and errors into
statuses.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from ..engines import DEFAULT_BACKEND, engine_class
from ..feedback import rule_of
from ..game import Game
from ..game_setup import API, GameSetup
from ..lies import broken
from ..notation import SHOWN, Code, format_code, parse_code, shown
from ..player import Player
from ..rules import FEEDBACK_RULES, REQUEST, Entry, Rules, make_rules
from ..strategies import DEFAULT_STRATEGY, STRATEGIES, parse_strategy
from ..strategies.base import Strategy
from ..support.errors import BadInput, MMLogicError
from .kept_rows import replay_answered, replay_scored
from .variant import Variant, find_variant, rules_json

#: A game's or a race's id: the store's start (:attr:`GameStore.run`, milliseconds since 1970 in hex),
#: then a random part. An id of an earlier run is told from one never issued after a restart.
ID = re.compile(r"([0-9a-f]{11})[A-Za-z0-9_-]{12}")
#: How many ids of games and races forgotten to make room the store remembers, to say so when asked.
REMEMBERED_EVICTIONS = 10_000


class Hosted(Protocol):
    """What the store keeps: a game or a race, with an id, a last use and resources to release."""

    id: str
    last_used: float
    lock: threading.Lock

    @property
    def over(self) -> bool: ...

    def close(self) -> None: ...


class UnknownGame(MMLogicError):
    """No game has this id (never created, expired, or forgotten to make room)."""


class TooManyGames(MMLogicError):
    """The store is full."""


class Conflict(MMLogicError):
    """The request does not fit the game's state (over, wrong role, nothing to undo...)."""


class StoreFault(MMLogicError):
    """The file that keeps the games (``serve --db``) failed under a request: damaged, a disk error, locked
    by another process longer than the store waits. Not the client's fault: HTTP 503, and one line in the
    server's log."""


def rules_from(request: dict, variants: tuple[Variant, ...] = ()) -> tuple[Rules, Variant | None]:
    """Rules from a request's ``pegs``, ``colors``, ``no_repeat``, ``max_repeat``, ``alphabet``,
    ``feedback`` (``None``: the default rules); a field absent or null takes its default, so a request
    without ``feedback`` (a client older than the feedback rules) plays the standard rule. With ``variant``,
    the name of one of ``variants`` (those the server serves), the rules are played as that variant's; the
    variant is returned beside them (None without). The rules name the request's fields in their messages
    (:data:`~mm_logic.rules.REQUEST`: ``rules.max_repeat``), never an option of the command line."""
    if request is None:
        request = {}
    if not isinstance(request, dict):
        raise BadInput('rules must be a JSON object, e.g. {"pegs": 4, "colors": 6}')
    unknown = set(request) - {"pegs", "colors", "no_repeat", "max_repeat", "alphabet", "feedback", "lies", "variant"}
    if unknown:
        raise BadInput(f"unknown rules field {sorted(unknown)[0]!r}")
    options = {}
    for name, kind in (("pegs", int), ("colors", int), ("no_repeat", bool), ("max_repeat", int),
                       ("alphabet", str), ("feedback", str), ("lies", int)):
        value = request.get(name)
        if value is None:
            continue
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise BadInput(f"rules field {name!r} must be {'an integer' if kind is int else kind.__name__}")
        options[name] = value
    # A variant by its name alone: the files are the operator's, named when the server started.
    variant = None if request.get("variant") is None else find_variant(request["variant"], variants)
    feedback = options.pop("feedback", None)
    if variant is not None:
        return variant.rules(make_rules(**options, naming=REQUEST), feedback), variant
    if feedback is not None and feedback not in FEEDBACK_RULES:
        # Only the rules the package ships: a rule of one's own is a file, and a request must never make the
        # server read a file, let alone run one (the operator serves one as a variant). A long name is quoted by
        # its start.
        raise BadInput(f"unknown feedback rule {shown(feedback)}; choose from {', '.join(FEEDBACK_RULES)}")
    return make_rules(**options, **({} if feedback is None else {"feedback": feedback}), naming=REQUEST), None


def liar_text(request: dict) -> str | None:
    """A request's ``liar`` (the server's codemaker uses its lies, as ``--liar``) as ``--liar`` writes it:
    ``"random"`` or the answers that lie, by number (``[2, 5]``: ``2,5``); None when absent or null."""
    value = request.get("liar")
    if value is None:
        return None
    if value != "random" and not (isinstance(value, list) and value
                                  and all(isinstance(n, int) and not isinstance(n, bool) for n in value)):
        raise BadInput('liar must be "random" or a list of answer numbers, e.g. [2, 5]')
    return value if value == "random" else ",".join(map(str, value))


def history_of(game: Game) -> list[dict]:
    """A game's entries as the API writes them: the guess, then the feedback rule's keys (``black`` and
    ``white``; ``black``; ``marks``)."""
    rules = game.rules
    rule = rule_of(rules)
    return [{"guess": format_code(guess, rules), **rule.as_json(fb)} for guess, fb in game.history]


def strategy_of(request: dict, rules: Rules, default: str) -> str:
    """A request's ``strategy`` (``default`` when absent); absent, under a feedback rule the default does
    not play, the first strategy that plays it (``first``), as the command line plays it with a note."""
    if "strategy" not in request:
        cls = STRATEGIES.get(default)
        if cls is not None and rules.feedback_kind not in cls.feedback_rules:
            return next(name for name, c in STRATEGIES.items() if rules.feedback_kind in c.feedback_rules)
    return name_of(request, "strategy", default)


def code_of(text, rules: Rules) -> Code:
    """A code sent in a request (a JSON string in the game's notation)."""
    if not isinstance(text, str):
        raise BadInput("a code must be a string, e.g. \"0123\"")
    return parse_code(text, rules)


def first_guess_of(request: dict, rules: Rules) -> Code | None:
    """A request's ``first_guess``: None when absent or null (as ``secret``); else a code, and
    an error names the field (an empty string or ``0`` is refused, not taken for "no opening")."""
    if request.get("first_guess") is None:
        return None
    try:
        return code_of(request["first_guess"], rules)
    except BadInput as error:
        raise BadInput(f"first_guess: {error}") from None


def name_of(request: dict, field: str, default: str) -> str:
    """A request's ``backend``, ``strategy`` or ``role``: a string (``default`` when absent)."""
    value = request.get(field, default)
    if not isinstance(value, str):
        # Not str(value): 5 would then be named as the unknown backend '5'.
        raise BadInput(f"{field} must be a string")
    return value


def quoting(name: str, call: Callable, *args, **kwargs):
    """``call(*args, **kwargs)``; a BadInput naming ``name`` (an unknown backend or strategy) quotes only
    its start when it is long: a megabyte's name comes back as one short line."""
    try:
        return call(*args, **kwargs)
    except BadInput as error:
        if len(name) <= SHOWN:
            raise
        raise BadInput(str(error).replace(repr(name), shown(name))) from None


def check_probes(strategy: Strategy, rules: Rules) -> None:
    """Refuse a strategy whose probes break the repetition rule in a game where the client guesses.

    Such a game's codemaker (the server) checks every guess against the rules, so the
    strategy's hints (``0000`` under ``no_repeat``) could not be played; ``solve --server``
    refuses them for the same reason. As codemaker, or in a race, the server scores the
    probes itself, as ``solve`` does in process, and they play.
    """
    if strategy.probes and rules.restricted:
        raise BadInput(f"strategy {strategy.name} probes with codes that repeat colours beyond "
                       f"{rules.repeat_option}, which a codebreaker game refuses as guesses: its hints could "
                       "not be played; choose another strategy")


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
    #: The variant the game plays (``rules.variant``), None for the built-in rules.
    variant: Variant | None = None

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
            "id": self.id, "role": self.role, "rules": rules_json(rules, self.variant),
            "alphabet": rules.alphabet[: rules.colors],
            "backend": self.backend, "strategy": self.game.strategy.name,
            "history": history_of(self.game),
            "attempts": len(self.game.history), "won": self.game.won, "over": self.over,
        }
        if self.game.adversary:
            state["adversary"] = True
        shown = self.game.shown_secret() if self.over else None
        if shown is not None:
            state["secret"] = format_code(shown, rules)
            if rules.lies and not self.game.adversary:  # the answers that were wrong, once it is over
                state["lies"] = [i + 1 for i in broken(rules, self.game.history, shown)]
        return state

    def close(self) -> None:
        """Release the game's session and its engine (each game has its own)."""
        self.game.close()
        self.game.engine.close()

    def check_open(self, role: str | None = None) -> None:
        if self.over:
            raise Conflict(f"game {self.id} is over")
        if role is not None and self.role != role:
            raise Conflict(f"game {self.id} is a {self.role} game: this request is for a {role} game")

    def replay(self, entries: list[Entry]) -> None:
        """Record ``entries`` (read back from ``serve --db``) in this new game, each checked as the game took it
        when it was played: a guess at the server's secret must have the answer the game gives it
        (:meth:`~mm_logic.game.Game.score`: its rule, its liar); an answer of the client's (codemaker), or of the
        adversary, one the game accepts with the earlier ones (:meth:`~mm_logic.game.Game.record`'s check: some
        code, with the lies allowed, still fits). BadInput names the first entry that is not."""
        if self.role == "codebreaker" and not self.game.adversary:
            replay_scored(self.game, entries, "the game's secret")
        else:
            replay_answered(self.game, entries)


class GameStore:
    """The games in memory, at most ``max_games``, each forgotten after ``idle_seconds`` unused.

    Races are kept beside the games, under the same cap and expiry: a race counts as one game. ``variants``: those
    the server serves beside the built-in rules (``serve --encoding FILE``), which a request names by name.
    """

    def __init__(self, max_games: int = 1000, idle_seconds: float = 1800.0, time_limit: float | None = 10.0,
                 variants: tuple[Variant, ...] = ()):
        #: When the store was made (time.time()): ids and the line protocol's numbers start from it,
        #: so those of an earlier run of the server are never issued again, and are told apart.
        self.started = time.time()
        self.run = f"{int(self.started * 1000):011x}"
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self.time_limit = time_limit
        self.variants = tuple(variants)
        self._games: dict[str, HostedGame] = {}
        self._races: dict[str, Hosted] = {}
        #: Ids forgotten to make room (oldest first, at most REMEMBERED_EVICTIONS): a request for
        #: one is told so, not that it was idle.
        self._evicted: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """How many games and races are held."""
        return len(self._games) + len(self._races)

    def expire(self, now: float | None = None) -> int:
        """Forget the games and races idle too long; returns how many."""
        now = time.monotonic() if now is None else now
        forgotten = 0
        with self._lock:
            for table in (self._games, self._races):
                old = [i for i, g in table.items() if now - g.last_used > self.idle_seconds]
                for i in old:
                    table.pop(i).close()
                forgotten += len(old)
        return forgotten

    def create(self, request: dict) -> HostedGame:
        """A new game from a request: ``rules``, ``role``, ``backend``, ``strategy``, ``seed``, ``secret``,
        ``adversary`` (a codemaker without a secret: :mod:`mm_logic.adversary`)."""
        return self._admit(self._games, self.game_builder(request))

    def seeded(self, request):
        """``request`` as the store plays it: unchanged here (a store that rebuilds games fixes the seed)."""
        return request

    def saved(self, hosted: Hosted) -> None:
        """Called after each request on ``hosted``, under its lock: nothing to do in memory."""

    def game_builder(self, request: dict) -> Callable[[str], HostedGame]:
        """Check a game request; returns a function building the game (its engine) under an id."""
        if not isinstance(request, dict):
            raise BadInput("the request body must be a JSON object")
        unknown = set(request) - {"rules", "role", "backend", "strategy", "seed", "secret", "first_guess",
                                  "adversary", "liar"}
        if unknown:
            raise BadInput(f"unknown field {sorted(unknown)[0]!r}")
        rules, variant = rules_from(request.get("rules"), self.variants)
        role = name_of(request, "role", "codebreaker")
        seed = request.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise BadInput("seed must be an integer >= 0")
        adversary = request.get("adversary")
        adversary = False if adversary is None else adversary  # null means absent, as for secret
        if not isinstance(adversary, bool):
            raise BadInput("adversary must be true or false")
        secret = request.get("secret")
        if secret is not None:
            code_of(secret, rules)  # a code of the rules, said before any engine is built
        # The set-up's parts checked together, as the command line's play checks them (mm_logic/game_setup.py).
        setup = GameSetup(rules, role, secret, adversary, liar_text(request), seed=seed)
        setup.check(API)
        backend = name_of(request, "backend", DEFAULT_BACKEND if variant is None else variant.backends[0])
        quoting(backend, engine_class, backend)  # an unknown backend is bad input even when full
        name = strategy_of(request, rules, DEFAULT_STRATEGY)
        chosen = quoting(name, parse_strategy, name, files=False)  # a request never makes the server read a file
        if variant is not None:
            variant.check_player(backend, chosen)
        player = Player(rules, backend, chosen, seed, first_guess_of(request, rules), self.time_limit,
                        None if variant is None else variant.encoding)
        strategy = player.make_strategy()  # refuses a size it cannot play
        if role == "codebreaker":
            check_probes(strategy, rules)
        setup.check_engine(engine_class(backend), variant is not None and variant.edited)
        liar = setup.make_liar(API)

        def build(key: str) -> HostedGame:
            engine = player.engine()
            try:
                # The one given (refused when the variant excludes it) or one drawn among the game's codes.
                chosen_secret = setup.secret_for(engine, API, None if variant is None else f"variant {variant.name}")
                game = Game(engine, strategy, secret=chosen_secret, adversary=adversary, liar=liar)
            except BaseException:
                engine.close()
                raise
            return HostedGame(key, role, game, backend, variant=variant)
        return build

    def add_race(self, build: Callable[[str], Hosted], request: dict | None = None) -> Hosted:
        """Host the race ``build(id)`` makes (a checked request's engines), if there is room (``request``:
        the race's request, for a store that keeps it)."""
        return self._admit(self._races, build)

    def _admit(self, table: dict, build: Callable[[str], Hosted]) -> Hosted:
        """Host what ``build(id)`` makes (a new :data:`ID`), if there is room before and after building it.

        Building (the engines) comes last, once the request is known valid and
        there was room a moment ago; it is released if the room went meanwhile.
        """
        self.expire()
        self._check_room()
        hosted = build(self.run + secrets.token_urlsafe(9))
        with self._lock:
            try:
                self._check_room(evict=True)
            except TooManyGames:
                hosted.close()
                raise
            table[hosted.id] = hosted
        return hosted

    def races(self) -> list[Hosted]:
        """The races held now."""
        with self._lock:
            return list(self._races.values())

    def get_race(self, race_id: str) -> Hosted:
        """The race ``race_id``, marked as used now."""
        return self._lookup(self._races, race_id, "race")

    def _check_room(self, evict: bool = False) -> None:
        """Refuse a new game when the store is full of games in play.

        Finished games and races (won, resigned, over) make room: with
        ``evict`` (under the store's lock) the least recently used of them are
        forgotten, so a bench of many games fills a server only with the games
        it is playing. One in use by a request at this moment is kept.
        """
        excess = len(self) - self.max_games + 1
        if excess <= 0:
            return
        finished = sorted((h for table in (self._games, self._races) for h in list(table.values()) if h.over),
                          key=lambda h: h.last_used)
        if len(finished) < excess:
            raise TooManyGames(f"the server holds its maximum of {self.max_games} games and races; try again later")
        if not evict:
            return
        for hosted in finished:
            if excess == 0:
                break
            if hosted.lock.acquire(blocking=False):
                try:
                    (self._games if hosted.id in self._games else self._races).pop(hosted.id).close()
                finally:
                    hosted.lock.release()
                self._remember_eviction(hosted.id)
                excess -= 1
        if excess > 0:
            raise TooManyGames(f"the server holds its maximum of {self.max_games} games and races; try again later")

    def _remember_eviction(self, key: str) -> None:
        """Note ``key`` as forgotten to make room (under the store's lock); the oldest notes go first."""
        self._evicted[key] = None
        while len(self._evicted) > REMEMBERED_EVICTIONS:
            self._evicted.popitem(last=False)

    def evicted(self, key: str) -> bool:
        """Whether the game or race ``key`` was forgotten to make room (as far as the store remembers)."""
        with self._lock:
            return key in self._evicted

    def why_unknown(self, key: str, kind: str = "game") -> str:
        """Why no ``kind`` (game or race) has the id ``key``, for its 404: forgotten to make room
        when the store remembers doing so, else the idle expiry (or it never was)."""
        if self.evicted(key):
            return "it was over, and forgotten to make room for new games"
        issued = ID.fullmatch(key)
        if issued and issued[1] < self.run:
            return self.earlier_text()
        return self.idle_text(kind)

    def earlier_text(self) -> str:
        """What a 404 says of a game of an earlier run of the server."""
        return "it is of an earlier run of the server, whose games were lost when it stopped"

    def idle_text(self, kind: str = "game") -> str:
        """How long an unused game (or race) is kept, as a 404 says it."""
        return f"{kind}s are forgotten after {self.idle_seconds:g} s unused"

    def get(self, game_id: str) -> HostedGame:
        """The game ``game_id``, marked as used now."""
        return self._lookup(self._games, game_id, "game")

    def _lookup(self, table: dict, key: str, kind: str) -> Hosted:
        self.expire()
        with self._lock:
            hosted = table.get(key)
        if hosted is None:
            # shown(): an id of 70,000 characters is quoted by its start and its length.
            raise UnknownGame(f"no {kind} {shown(key)} ({self.why_unknown(key, kind)})")
        hosted.last_used = time.monotonic()
        return hosted

    def close(self) -> None:
        with self._lock:
            for table in (self._games, self._races):
                for hosted in table.values():
                    hosted.close()
                table.clear()
