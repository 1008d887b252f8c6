"""The server's JSON API, a Starlette application (``mmlogic serve`` runs it on uvicorn).

Routes (bodies and answers are JSON; the whole reference is ``docs/server.md``):

* ``POST /api/games`` creates a game: ``{"rules": {"pegs": 4, "colors": 6},
  "role": "codebreaker", "backend": "clingo", "strategy": "minimax"}``;
* ``GET /api/games/{id}`` its state (the secret only once the game is over);
* ``POST /api/games/{id}/guesses`` ``{"guess": "0123"}``: the client guesses,
  the server's secret answers (role ``codebreaker``);
* ``GET /api/games/{id}/next``: the computer's next guess, with the number of
  codes still possible (the guess to answer in role ``codemaker``, a hint in
  role ``codebreaker``);
* ``GET /api/games/{id}/split?guess=CODE``: how ``CODE`` splits the codes still possible (the parts
  by feedback, the largest, the expected size, the entropy; ``mmlogic split --json``'s object), the
  page's assistant beside its hint; at most the engine's counting budget of codes (clingo 100,000);
* ``POST /api/games/{id}/feedback`` ``{"black": 1, "white": 2}``: the client's
  answer to the computer's guess (role ``codemaker``); an answer that no code
  could give with the earlier ones is refused (409), naming them;
* under another feedback rule (``"rules": {"feedback": "black"}`` or ``"positional"``)
  every feedback, in replies, histories and answers, is in the rule's keys:
  ``{"black": 2}``, ``{"marks": "x-o-"}``;
* ``POST /api/games/{id}/diagnose``, an answer as for ``feedback``, not recorded: the fewest answers that
  would then be wrong and the fixes (``next --diagnose --json``'s object);
* ``POST /api/games/{id}/undo`` and ``POST /api/games/{id}/resign``;
* ``POST /api/races`` ``{"rules": {...}, "entrants": [{"backend": "python",
  "strategy": "minimax"}, ...], "secret": "0123"}`` starts a race: every
  entrant plays the same secret; ``POST /api/races/{id}/step`` plays one turn
  of each entrant still running, ``GET /api/races/{id}`` its state (winners and
  secret once over); with ``"games": N`` (and no ``secret``) a batch race: every entrant plays the
  same N secrets in its own worker process, by itself (no step), and the state gives each one's games
  done, running mean, seconds and place, and the finishing order (the secrets once over);
* ``GET /api/options``: the backends and strategies to choose from, those that play each feedback rule, and the
  variants the server serves (``serve --encoding FILE``), which a request names by name (``"rules": {"variant":
  "palindrome"}``), never by a file;
* ``GET /openapi.json``: the API's OpenAPI 3.1 document (:mod:`~mm_logic.server.openapi`), and ``GET /api/docs``
  a page that shows it (``static/reference.html``, nothing fetched from elsewhere);
* ``GET /`` the web page (``static/index.html``), its scripts and styles under ``/static/``.

Every error is a 4xx with ``{"error": "one line"}`` naming the request's fields
(``rules.max_repeat``, ``strategy``: the rules carry :data:`~mm_logic.rules.REQUEST` words) and a variant by its
name, never a file: 400 bad input, 403 a request from another site (:class:`SameOrigin`),
404 unknown game, race or route, 405 wrong method, 409 a request the game's
state refuses, 413 a body over :data:`MAX_BODY` bytes, 415 a body not sent as
``application/json``, 422 a question too hard within the time limit, 429 the
server is full; and 503 when the file of ``--db`` fails under the request
(damaged, a disk error, locked by another process), also one line in the log. A rule module's failure
(``serve --feedback FILE.py``) names the guess scored, never the code it was scored against, which may be the
game's secret (:class:`Withheld`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import mimetypes
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..diagnosis import diagnose
from ..engines import BACKENDS, DEFAULT_BACKEND, engine_class
from ..feedback import rule_of
from ..feedback.watch import withholding
from ..notation import SHOWN, Code, Feedback, abridged, check_feedback, format_code, shown, whole_number
from ..rules import FEEDBACK_RULES, Rules
from ..split import split_codes
from ..strategies import DEFAULT_STRATEGY, STRATEGIES
from ..support.errors import BadInput, MMLogicError, NoConsistentCode, RuleFault, SpaceTooLarge, host_port
from .batch_race import MAX_BATCH, HostedBatchRace, new_batch_race, refuse_step
from .openapi import openapi_schema
from .race import MAX_ENTRANTS, Race, new_race
from .store import Conflict, GameStore, HostedGame, StoreFault, TooManyGames, UnknownGame

#: The web page: plain HTML, JavaScript and CSS shipped in the package, no build step.
STATIC = Path(__file__).parent / "static"
# The page's scripts are ES modules, which browsers run only when served as JavaScript; the type is guessed from
# the system's tables (a Windows registry may map .js to text/plain): fixed here.
mimetypes.add_type("text/javascript", ".js")

#: The backends and the strategies that play each feedback rule (``/api/options``: the page offers those).
PLAYERS_BY_RULE = {rule: {"backends": [b for b in BACKENDS if rule in engine_class(b).feedback_rules],
                          "strategies": [s for s, cls in STRATEGIES.items() if rule in cls.feedback_rules]}
                   for rule in FEEDBACK_RULES}

#: The largest request body read, in bytes. The largest useful body is a race of 8 entrants
#: with a 64-peg secret in numbers (under 2 KB); 1 MiB leaves room for any client's layout.
MAX_BODY = 1 << 20


class TooLarge(MMLogicError):
    """A request body over :data:`MAX_BODY` bytes."""


class NotJson(MMLogicError):
    """A request body sent under another Content-Type than ``application/json``."""


class ClientGone(MMLogicError):
    """The client closed its connection before the end of its request body: nobody reads the answer."""


#: Status of each error kind, the first that fits; any other MMLogicError (a time limit, ...) is 422, as is a rule of
#: one's own that failed (a variant's: the question could not be answered, whatever the request).
STATUS = ((UnknownGame, 404), (TooManyGames, 429), (Conflict, 409), (NoConsistentCode, 409), (RuleFault, 422),
          (BadInput, 400), (TooLarge, 413), (NotJson, 415), (ClientGone, 400), (StoreFault, 503))
#: The server's log (uvicorn's), where a fault of the server's own, not the client's, is one line.
LOG = logging.getLogger("uvicorn.error")


def status_of(error: MMLogicError) -> int:
    """The HTTP status of an error."""
    return next((status for kind, status in STATUS if isinstance(error, kind)), 422)


def error_response(status: int, message: str) -> JSONResponse:
    """``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=status)


def media_type(headers: Headers) -> str | None:
    """The request's Content-Type without its parameters (``; charset=utf-8``), lower case; None without one."""
    value = headers.get("content-type")
    return None if value is None else value.split(";")[0].strip().lower()


async def read_body(request: Request) -> bytes:
    """The request's body, refused (413) beyond :data:`MAX_BODY` bytes without reading more than that,
    and (415) when it is not sent as ``application/json``."""
    too_large = TooLarge(f"the request body is over the limit of {MAX_BODY:,} bytes")
    declared = request.headers.get("content-length", "")
    # A Content-Length over the limit is refused before anything is read.
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise too_large
    kind = media_type(request.headers)
    # A page of another site may post text/plain or a form without asking the browser first (no
    # preflight); application/json it may not. So a body under any other type is refused unread.
    not_json = NotJson(f"the request body must be sent as Content-Type: application/json, not {shown(kind)}"
                       if kind is not None else "the request body must be sent as Content-Type: application/json")
    if kind is not None and kind != "application/json":
        raise not_json
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:  # no Content-Length (chunked), or one that understates the body
                raise too_large
            chunks.append(chunk)
    except ClientDisconnect:
        # Not a bug of the server: its traceback would fill the log (the protocol logs one line).
        raise ClientGone("the client closed its connection before the end of its request body") from None
    body = b"".join(chunks)
    if body and kind is None:
        raise not_json
    return body


def served_hosts(host: str, port: int) -> frozenset[str] | None:
    """The ``Host`` headers a request to a server on ``host:port`` may carry (lower case), or None
    on a wildcard address (``0.0.0.0``, ``::``), whose names the server cannot know.

    ``localhost`` is one of a loopback server's names. A page of another site that a DNS
    rebinding points at the server names its own host: refused.
    """
    if host in ("", "0.0.0.0", "::"):
        return None
    names = {host.lower()}
    if host in ("127.0.0.1", "::1", "localhost"):
        names |= {"localhost", "127.0.0.1", "::1"} if host == "localhost" else {"localhost"}
    hosts = {host_port(name, port) for name in names}
    if port == 80:  # a browser leaves the default port out
        hosts |= {f"[{name}]" if ":" in name else name for name in names}
    return frozenset(hosts)


class Withheld:
    """ASGI middleware: while a request runs, a rule module's failure (``serve --feedback FILE.py``) is said
    naming its guess only, never the code it was scored against nor the module's words, which may show it:
    in a codebreaker game that code is the secret the client plays against
    (:func:`mm_logic.feedback.watch.withholding`; the whole line goes to the server's log)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        # The request's context goes with it into the threads its work runs in (run_in_threadpool copies it).
        with withholding():
            await self.app(scope, receive, send)


class SameOrigin:
    """ASGI middleware: a request from another site is refused (403, one JSON line).

    Any page in the user's browser may send requests to 127.0.0.1; the browser
    names the page's site in ``Origin`` (refused unless it is this server), and
    a name made to resolve to 127.0.0.1 (DNS rebinding) in ``Host`` (refused
    unless it is one of ``hosts``; None takes any). A request without
    ``Origin`` (curl, mmlogic's client, the page's own GETs) passes.
    """

    def __init__(self, app, hosts: frozenset[str] | None):
        self.app = app
        self.hosts = hosts

    def refusal(self, headers: Headers) -> str | None:
        """Why a request with these headers is refused; None if it is not."""
        host = headers.get("host")
        if host is not None and self.hosts is not None and host.lower() not in self.hosts:
            return (f"the Host header {shown(host)} names no address of this server "
                    f"({', '.join(sorted(self.hosts))}): refused")
        origin = headers.get("origin")
        if origin is not None and (host is None or origin.lower() != f"http://{host.lower()}"):
            return f"a request from another site ({shown(origin)}) is refused"
        return None

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            message = self.refusal(Headers(scope=scope))
            if message is not None:
                await error_response(403, message)(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def body_of(request: Request) -> dict:
    """The request's JSON object (400 when it is not one, 413 when it is too large)."""
    try:
        # A number of more digits than int() reads is said so (whole_number), not as a body that is not JSON.
        body = json.loads(await read_body(request) or b"{}", parse_int=whole_number)
    except (ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: JSON nested deeper than the decoder goes is not a body we take either.
        raise BadInput("the request body is not JSON") from None
    if not isinstance(body, dict):
        raise BadInput("the request body must be a JSON object")
    return body


def create_app(store: GameStore | None = None, hosts: frozenset[str] | None = None) -> Starlette:
    """The application, over ``store`` (a new default one if not given); ``hosts``, the ``Host``
    headers it answers (:func:`served_hosts`; None: any)."""
    store = GameStore() if store is None else store

    async def under_lock(hosted, action, *args):
        """``action(hosted, *args)`` for a game or a race, under its lock, in a worker thread."""
        def locked():
            with hosted.lock:
                try:
                    return action(hosted, *args)
                finally:
                    store.saved(hosted)  # a store on disk writes what the request changed
        return JSONResponse(await run_in_threadpool(locked))

    async def on_game(request: Request, action, body: dict | None = None):
        """Run ``action(hosted, body)`` on the game of the URL."""
        return await under_lock(store.get(request.path_params["game_id"]), action, body)

    async def create(request: Request):
        body = store.seeded(await body_of(request))
        hosted = await run_in_threadpool(store.create, body)
        return JSONResponse(hosted.state(), status_code=201)

    async def state(request: Request):
        return await on_game(request, lambda hosted, _: hosted.state())

    async def guess(request: Request):
        return await on_game(request, _guess, await body_of(request))

    async def next_guess(request: Request):
        return await on_game(request, _next)

    async def split_guess(request: Request):
        return await on_game(request, _split, request.query_params.get("guess"))

    async def answer(request: Request):
        return await on_game(request, _answer, await body_of(request))

    async def diagnose_answer(request: Request):
        return await on_game(request, _diagnose, await body_of(request))

    async def undo(request: Request):
        return await on_game(request, _undo)

    async def resign(request: Request):
        return await on_game(request, _resign)

    def running_batches() -> int:
        return sum(isinstance(r, HostedBatchRace) and not r.over for r in store.races())

    #: Held from counting the batch races running to hosting the new one: two requests at once would both
    #: count one running and start a third (their workers' engines take a while to check).
    batch_admission = threading.Lock()

    def add_batch_race(build, body: dict):
        with batch_admission:
            return store.add_race(build, body)

    async def create_race(request: Request):
        body = await body_of(request)
        if "games" in body:  # a batch race: every entrant plays `games` secrets in its own worker process
            build = await run_in_threadpool(new_batch_race, body, store.time_limit, running_batches, store.variants)
            race = await run_in_threadpool(add_batch_race, build, body)
        else:
            body = store.seeded(body)
            build = await run_in_threadpool(new_race, body, store.time_limit, store.variants)
            race = await run_in_threadpool(store.add_race, build, body)
        return JSONResponse(race.state(), status_code=201)

    async def on_race(request: Request, action):
        """Run ``action(race)`` on the race of the URL."""
        return await under_lock(store.get_race(request.path_params["race_id"]), action)

    async def race_state(request: Request):
        return await on_race(request, lambda race: race.state())

    async def race_step(request: Request):
        return await on_race(request, lambda race: _step(race) if isinstance(race, Race) else refuse_step(race))

    async def options(request: Request):
        return JSONResponse({"backends": list(BACKENDS), "default_backend": DEFAULT_BACKEND,
                             "strategies": list(STRATEGIES), "default_strategy": DEFAULT_STRATEGY,
                             "max_entrants": MAX_ENTRANTS, "max_batch": MAX_BATCH, "feedback_rules": PLAYERS_BY_RULE,
                             "variants": [variant.option() for variant in store.variants]})

    async def page(request: Request):
        return FileResponse(STATIC / "index.html")

    async def specification(request: Request):
        return JSONResponse(openapi_schema())

    async def reference(request: Request):
        return FileResponse(STATIC / "reference.html")

    async def mmlogic_error(request: Request, error: MMLogicError):
        if isinstance(error, StoreFault):  # the operator's to know, in one line (it was a 50-line traceback)
            LOG.warning("%s %s: %s", request.method, request.url.path[:80], error)
        return error_response(status_of(error), str(error))

    async def http_error(request: Request, error: HTTPException):
        # A path of 70 KB comes back as one short line.
        path = abridged(request.url.path, SHOWN)
        messages = {404: f"no route {path}", 405: f"{abridged(request.method, SHOWN)} is not allowed on {path}"}
        return error_response(error.status_code, messages.get(error.status_code, str(error.detail)))

    async def unexpected(request: Request, error: Exception):
        # A bug, not the client's fault; still one JSON line.
        return error_response(500, f"internal error: {type(error).__name__}: {error}")

    routes = [
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{game_id}", state, methods=["GET"]),
        Route("/api/games/{game_id}/guesses", guess, methods=["POST"]),
        Route("/api/games/{game_id}/next", next_guess, methods=["GET"]),
        Route("/api/games/{game_id}/split", split_guess, methods=["GET"]),
        Route("/api/games/{game_id}/feedback", answer, methods=["POST"]),
        Route("/api/games/{game_id}/diagnose", diagnose_answer, methods=["POST"]),
        Route("/api/games/{game_id}/undo", undo, methods=["POST"]),
        Route("/api/games/{game_id}/resign", resign, methods=["POST"]),
        Route("/api/races", create_race, methods=["POST"]),
        Route("/api/races/{race_id}", race_state, methods=["GET"]),
        Route("/api/races/{race_id}/step", race_step, methods=["POST"]),
        Route("/api/options", options, methods=["GET"]),
        Route("/openapi.json", specification, methods=["GET"]),
        Route("/api/docs", reference, methods=["GET"]),
        Route("/", page, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        store.close()  # the engines' solver state

    app = Starlette(routes=routes, exception_handlers={MMLogicError: mmlogic_error, HTTPException: http_error,
                                                       Exception: unexpected}, lifespan=lifespan,
                    middleware=[Middleware(SameOrigin, hosts=hosts), Middleware(Withheld)])
    # /api/games/ is no route: a JSON 404 like any unknown path, not a bodyless 307 to /api/games.
    app.router.redirect_slashes = False
    app.state.store = store
    return app


# -- actions, each under the game's lock ---------------------------------------------
def _guess(hosted: HostedGame, body: dict) -> dict:
    """The client's guess against the server's secret; the feedback in the rule's keys."""
    hosted.check_open("codebreaker")
    if set(body) != {"guess"}:
        raise BadInput('the body must be {"guess": CODE}')
    code = hosted.code(body["guess"])
    fb = hosted.game.score(code)
    hosted.game.record(code, fb, check=False)
    hosted.pending = None
    reply = {"guess": format_code(code, hosted.rules), **rule_of(hosted.rules).as_json(fb),
             "won": hosted.game.won, "attempts": len(hosted.game.history)}
    if hosted.game.won:
        reply["secret"] = format_code(hosted.game.shown_secret(), hosted.rules)
    return reply


def _suggest(hosted: HostedGame) -> Code:
    """The computer's next guess for the game's history.

    A strategy that plays its own sequence of probes (``human1``...) cannot go on from a history that left it
    (a guess of the client's, a ``first_guess``): the game's state refuses the request (409), as for an
    answer no code could give; the request itself (a GET) was not bad input.
    """
    try:
        return hosted.game.suggest()
    except RuleFault:
        raise  # the variant's rule failed: not the game's state
    except BadInput as error:
        raise Conflict(str(error)) from None


def _next(hosted: HostedGame, _body) -> dict:
    """The computer's next guess and how many codes are still possible."""
    hosted.check_open()
    if hosted.pending is None:
        hosted.pending = _suggest(hosted)
    count, exact = hosted.game.remaining_within()
    return {"guess": format_code(hosted.pending, hosted.rules), "consistent": count if exact else None,
            **({} if exact else {"consistent_at_least": count})}


def _split(hosted: HostedGame, guess: str | None) -> dict:
    """How ``guess`` splits the codes the game's history leaves (``mmlogic split --json``'s object): listed
    up to the engine's counting budget, about a second, as a request should answer."""
    if guess is None:
        raise BadInput("the query must name a guess: ?guess=CODE")
    code = hosted.code(guess)
    engine = hosted.game.engine
    try:
        return split_codes(engine, code, hosted.game.history, limit=engine.count_budget).as_dict()
    except SpaceTooLarge as error:
        # Not the request's fault (400): a question too large to answer within a request (422).
        raise MMLogicError(str(error)) from None


def answer_of(body: dict, rules: Rules) -> Feedback:
    """The feedback of a codemaker's answer in the rule's keys (``black`` and ``white``; ``black``;
    ``marks``, one mark per peg), checked: it can occur under the rules."""
    rule = rule_of(rules)
    keys = set(rule.json_keys)
    if not set(body) <= keys | {"guess"} or not keys <= set(body):
        raise BadInput(f'the body must be {rule.json_body}, optionally with "guess"')
    fb = rule.from_json(body, rules.pegs)
    if fb is None:
        raise BadInput(rule.json_problem(body))
    return check_feedback(fb, rules)


def _answered(hosted: HostedGame, body: dict) -> tuple[Code, Feedback]:
    """The computer's guess and the client's answer to it in ``body`` (role codemaker), checked: the body's
    ``guess``, when given, must be the guess answered."""
    hosted.check_open("codemaker")
    fb = answer_of(body, hosted.rules)
    guess = hosted.pending if hosted.pending is not None else _suggest(hosted)
    if "guess" in body and hosted.code(body["guess"]) != guess:
        raise Conflict(f"the computer's guess is {format_code(guess, hosted.rules)}, not {body['guess']}")
    return guess, fb


def _answer(hosted: HostedGame, body: dict) -> dict:
    """The client's answer to the computer's guess (role codemaker), in the feedback rule's keys."""
    guess, fb = _answered(hosted, body)
    try:
        hosted.game.record(guess, fb)
    except NoConsistentCode as error:
        raise NoConsistentCode(f"{error}; send the right answer for {format_code(guess, hosted.rules)}, or undo",
                               error.conflict) from None
    hosted.pending = None
    return hosted.state()


def _diagnose(hosted: HostedGame, body: dict) -> dict:
    """What an answer to the computer's guess would make of the answers so far (role codemaker), not recorded:
    the fewest answers that must then be wrong and the fixes (:func:`mm_logic.diagnosis.diagnose`), with the
    line ``play`` says."""
    guess, fb = _answered(hosted, body)
    hosted.pending = guess
    if hosted.rules.lies:
        raise BadInput("diagnose does not apply with lies: it finds the fewest wrong answers, where the rules' "
                       "lies say how many may be")
    found = diagnose(hosted.game.engine, [*hosted.game.history, (guess, fb)])
    return {**found.as_dict(), "text": found.text("answer")}


def _undo(hosted: HostedGame, _body) -> dict:
    # A game that is over stays over: a won codebreaker game has shown its secret.
    hosted.check_open()
    if not hosted.game.history:
        raise Conflict("nothing to undo")
    hosted.game.undo()
    hosted.pending = None
    return hosted.state()


def _step(race: Race) -> dict:
    race.step()
    return race.state()


def _resign(hosted: HostedGame, _body) -> dict:
    hosted.check_open()
    hosted.resigned = True
    return hosted.state()

