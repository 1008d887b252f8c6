"""The API's OpenAPI 3.1 document, served at ``GET /openapi.json`` (and read by ``GET /api/docs``).

Written by hand as a dict, beside the prose of ``docs/server.md``: Starlette generates no schema from its
routes. ``tests/frontends/test_server_openapi.py`` keeps its routes and each route's error statuses equal to
the document's table and to the application's routes, and fuzzes the application against it (schemathesis):
every answer must conform to it. OpenAPI *links* name where a game's or a race's id comes from (the answer of
``POST /api/games`` or ``POST /api/races``), so that a client generator, or schemathesis's state machine, can
chain create, guess, answer, undo and resign on one game.

>>> document = openapi_schema()
>>> document["openapi"], sorted(document["paths"])[:2]
('3.1.0', ['/', '/api/docs'])
>>> sorted(error_statuses(document, "/api/games/{game_id}/undo", "post"))
[403, 404, 408, 409, 503]
"""

from __future__ import annotations

import copy

from ..engines import BACKENDS
from ..feedback import RULES
from ..feedback.custom import CustomRule
from ..rules import FEEDBACK_RULES, MAX_LIES
from ..strategies import STRATEGIES
from .batch_race import MAX_BATCH
from .race import MAX_ENTRANTS
from .variant import OWN

#: Statuses any request may get: another site's (403), from the server before the application (408, 503).
EVERY_ROUTE = (403, 408, 503)

#: Why each status is answered (the errors table of ``docs/server.md``, in short).
WHY = {400: "bad input: JSON, fields, codes, feedback, rules, backend or strategy",
       403: "a request from another site", 404: "no such game or race (never created, expired or forgotten)",
       408: "no whole request within --read-timeout",
       409: "the game's or race's state refuses the request, or it plays a variant the server no longer serves",
       413: "a request body over 1 MiB", 415: "a body not sent as application/json",
       422: "a question the engine could not answer in time, or too large to answer in a request",
       429: "the server holds its maximum of games and races, or runs its maximum of batch races",
       503: "the server has its maximum of connections open, or its --db file failed (damaged, a disk error, "
            "locked by another process)"}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _obj(properties: dict, required: tuple | None = None, closed: bool = True, **more) -> dict:
    """A JSON object of ``properties`` (all required unless ``required`` names them), closed to others."""
    schema = {"type": "object", "properties": properties,
              "required": list(properties if required is None else required), **more}
    if closed:
        schema["additionalProperties"] = False
    return schema


CODE = {"type": "string", "minLength": 1, "description": "a code in the game's notation: `0123`, or "
        "comma-separated colour numbers beyond the alphabet"}
INT = {"type": "integer", "minimum": 0}
NAME = {"type": "string"}
NULLABLE_CODE = {"anyOf": [CODE, {"type": "null"}]}
#: A feedback, in each rule's keys (the schema each rule declares); a variant's own rule (``own``) tells numbers.
FEEDBACKS = {**{name: rule.json_schema for name, rule in RULES.items()}, OWN: CustomRule.json_schema}


def _components() -> dict:
    rules_request = _obj({
        "pegs": {"type": ["integer", "null"], "minimum": 1, "maximum": 64},
        "colors": {"type": ["integer", "null"], "minimum": 1, "maximum": 255},
        "no_repeat": {"type": ["boolean", "null"]},
        "max_repeat": {"type": ["integer", "null"], "minimum": 1},
        "alphabet": {"type": ["string", "null"], "minLength": 1},
        "feedback": {"anyOf": [{"enum": list(FEEDBACK_RULES)}, {"type": "null"},
                               {"const": OWN, "description": "with `variant`: a variant's own feedback rule"}],
                     "description": "with `variant`, left out or the variant's own"},
        "lies": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_LIES},
        "variant": {"type": ["string", "null"], "description": "a variant the server serves (`serve --encoding "
                    "FILE`), by the name `GET /api/options` lists; never a file"}}, required=())
    entrant = _obj({"backend": {"enum": list(BACKENDS)}, "strategy": {"enum": list(STRATEGIES)}}, required=())
    entries = [_obj({"guess": CODE, **keys}) for keys in FEEDBACKS.values()]
    rules = _obj({"pegs": {"type": "integer"}, "colors": {"type": "integer"},
                  "max_repeat": {"type": ["integer", "null"]}, "feedback": {"type": "string"},
                  "lies": {"type": "integer", "minimum": 1}, "variant": NAME},
                 required=("pegs", "colors", "max_repeat", "feedback"))
    common = {"id": NAME, "rules": _ref("Rules"), "alphabet": NAME}
    race_entrant = _obj({"backend": NAME, "strategy": NAME, "history": {"type": "array", "items": _ref("Entry")},
                         "attempts": INT, "seconds": {"type": "number"}, "won": {"type": "boolean"},
                         "stopped": {"type": ["string", "null"]}})
    batch_entrant = _obj({"backend": NAME, "strategy": NAME, "games": INT, "failed": INT, "total_guesses": INT,
                          "mean": {"type": ["number", "null"]}, "seconds": {"type": "number"},
                          "finished": {"type": "boolean"}, "stopped": {"type": ["string", "null"]},
                          "place": {"type": ["integer", "null"]}, "max": INT,
                          "histogram": {"type": "object", "additionalProperties": INT},
                          "cpu_seconds": {"type": "number"}},
                         required=("backend", "strategy", "games", "failed", "total_guesses", "mean", "seconds",
                                   "finished", "stopped", "place"))
    players = _obj({"backends": {"type": "array", "items": NAME}, "strategies": {"type": "array", "items": NAME}})
    variant = _obj({"name": NAME, "feedback": NAME, "answer": NAME, "backends": {"type": "array", "items": NAME},
                    "default_backend": NAME, "strategies": {"type": "array", "items": NAME}},
                   description="a variant the server serves: its name, its feedback rule (a built-in one, or "
                               "`own`), the body of an answer to the computer's guess, the backends and strategies "
                               "that play it")
    return {"schemas": {
        "Error": _obj({"error": {"type": "string", "pattern": "^[^\\n]*$"}}),
        "RulesRequest": rules_request,
        "Rules": rules,
        "Entry": {"anyOf": entries, "description": "a guess and its feedback in the rule's keys"},
        "GameRequest": _obj({"rules": _ref("RulesRequest"), "role": {"enum": ["codebreaker", "codemaker"]},
                             "backend": {"enum": list(BACKENDS)}, "strategy": {"enum": list(STRATEGIES)},
                             "seed": INT, "secret": NULLABLE_CODE, "first_guess": NULLABLE_CODE,
                             "adversary": {"type": ["boolean", "null"]},
                             "liar": {"anyOf": [{"const": "random"}, {"type": "null"},
                                                {"type": "array", "minItems": 1,
                                                 "items": {"type": "integer", "minimum": 1}}]}}, required=()),
        "Game": _obj({**common, "role": {"enum": ["codebreaker", "codemaker"]}, "backend": NAME, "strategy": NAME,
                      "history": {"type": "array", "items": _ref("Entry")}, "attempts": INT,
                      "won": {"type": "boolean"}, "over": {"type": "boolean"}, "adversary": {"const": True},
                      "secret": CODE, "lies": {"type": "array", "items": {"type": "integer", "minimum": 1}}},
                     required=("id", "role", "rules", "alphabet", "backend", "strategy", "history", "attempts",
                               "won", "over"),
                     description="a game's state; `secret` once over (codebreaker), and in a game with lies "
                                 "`lies`, the answers that were wrong"),
        "Guess": _obj({"guess": CODE}),
        "GuessReply": {"anyOf": [_obj({"guess": CODE, **keys, "won": {"type": "boolean"}, "attempts": INT,
                                       "secret": CODE}, required=("guess", *keys, "won", "attempts"))
                                 for keys in FEEDBACKS.values()]},
        "Answer": {"anyOf": [_obj({**keys, "guess": CODE}, required=tuple(keys)) for keys in FEEDBACKS.values()],
                   "description": "the codemaker's answer in the rule's keys, optionally with the guess answered"},
        "Next": _obj({"guess": CODE, "consistent": {"type": ["integer", "null"]}, "consistent_at_least": INT},
                     required=("guess", "consistent")),
        "Split": _obj({"guess": CODE, "codes": INT,
                       "parts": {"type": "array", "items": _obj({"feedback": NAME, "size": INT})},
                       "number_of_parts": INT, "largest": INT, "expected_size": {"type": "number"},
                       "entropy": {"type": "number"}, "consistent": {"type": "boolean"}}),
        "Diagnosis": _obj({"fewest_wrong": INT, "complete": {"type": "boolean"},
                           "sets": {"type": "array", "items": {"type": "array", "items": _obj(
                               {"entry": {"type": "integer", "minimum": 1}, "feedback": NAME})}},
                           "text": NAME}),
        "Entrant": entrant,
        "RaceRequest": _obj({"rules": _ref("RulesRequest"),
                             "entrants": {"type": "array", "items": _ref("Entrant"), "minItems": 1,
                                          "maxItems": MAX_ENTRANTS},
                             "secret": NULLABLE_CODE, "seed": INT, "first_guess": NULLABLE_CODE,
                             "games": {"type": "integer", "minimum": 1, "maximum": MAX_BATCH}},
                            required=("entrants",), description="a race; with `games` (and no `secret`) a batch race"),
        "Race": _obj({**common, "entrants": {"type": "array", "items": race_entrant}, "over": {"type": "boolean"},
                      "winners": {"type": "array", "items": INT}, "secret": CODE},
                     required=("id", "rules", "alphabet", "entrants", "over", "winners"),
                     description="a race on one secret; `secret` once over"),
        "BatchRace": _obj({**common, "seed": {"type": ["integer", "null"]}, "games": INT,
                           "started": {"type": "boolean"}, "entrants": {"type": "array", "items": batch_entrant},
                           "order": {"type": "array", "items": INT}, "over": {"type": "boolean"},
                           "secrets": {"type": "array", "items": CODE}},
                          required=("id", "rules", "alphabet", "seed", "games", "started", "entrants", "order",
                                    "over"),
                          description="a batch race; `secrets` once over"),
        "Options": _obj({"backends": {"type": "array", "items": NAME}, "default_backend": NAME,
                         "strategies": {"type": "array", "items": NAME}, "default_strategy": NAME,
                         "max_entrants": INT, "max_batch": INT,
                         "feedback_rules": _obj({rule: players for rule in FEEDBACK_RULES}),
                         "variants": {"type": "array", "items": variant}}),
    }}


def _json(schema: dict, description: str, links: dict | None = None) -> dict:
    answer = {"description": description, "content": {"application/json": {"schema": schema}}}
    if links:
        answer["links"] = links
    return answer


def _op(operation_id: str, summary: str, answer: dict, errors: tuple, body: str | None = None,
        params: tuple = (), status: int = 200) -> dict:
    operation = {"operationId": operation_id, "summary": summary, "responses": {str(status): answer}}
    for code in sorted({*errors, *EVERY_ROUTE}):
        operation["responses"][str(code)] = _json(_ref("Error"), WHY[code])
    if body is not None:
        operation["requestBody"] = {"required": False, "content": {"application/json": {"schema": _ref(body)}}}
    if params:
        operation["parameters"] = list(params)
    return operation


def _path_param(name: str) -> dict:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


#: The operations on one game, each reached from a game's id (the links below).
GAME_OPERATIONS = ("getGame", "guess", "nextGuess", "split", "answer", "diagnose", "undo", "resign")
RACE_OPERATIONS = ("getRace", "stepRace")


def _links(operations: tuple, parameter: str, source: str) -> dict:
    return {operation: {"operationId": operation, "parameters": {parameter: source}} for operation in operations}


def openapi_schema() -> dict:
    """The API's OpenAPI 3.1 document (a new dict each call)."""
    from_game = _links(GAME_OPERATIONS, "game_id", "$request.path.game_id")
    from_race = _links(RACE_OPERATIONS, "race_id", "$request.path.race_id")
    game_id, race_id = (_path_param("game_id"),), (_path_param("race_id"),)
    game = _json(_ref("Game"), "the game's state", from_game)
    bad = (400, 413, 415)  # a body read

    def on_game(operation_id, summary, answer, errors, body=None, params=game_id):
        return _op(operation_id, summary, answer, errors, body, params)

    paths = {
        "/api/games": {"post": _op("createGame", "create a game", _json(
            _ref("Game"), "the new game's state", _links(GAME_OPERATIONS, "game_id", "$response.body#/id")),
            (*bad, 422, 429), "GameRequest", status=201)},
        "/api/games/{game_id}": {"get": on_game("getGame", "a game's state", game, (404, 409))},
        "/api/games/{game_id}/guesses": {"post": on_game(
            "guess", "the client's guess (codebreaker)", _json(_ref("GuessReply"), "its feedback", from_game),
            (*bad, 404, 409, 422), "Guess")},
        "/api/games/{game_id}/next": {"get": on_game(
            "nextGuess", "the computer's next guess", _json(_ref("Next"), "the guess", from_game), (404, 409, 422))},
        "/api/games/{game_id}/split": {"get": on_game(
            "split", "how a guess splits the codes left", _json(_ref("Split"), "the parts", from_game),
            (400, 404, 409, 422),
            params=(*game_id, {"name": "guess", "in": "query", "required": True, "schema": CODE}))},
        "/api/games/{game_id}/feedback": {"post": on_game(
            "answer", "the client's answer to the computer's guess (codemaker)", game, (*bad, 404, 409, 422),
            "Answer")},
        "/api/games/{game_id}/diagnose": {"post": on_game(
            "diagnose", "what an answer would make of the answers so far (codemaker), not recorded",
            _json(_ref("Diagnosis"), "the diagnosis", from_game), (*bad, 404, 409, 422), "Answer")},
        "/api/games/{game_id}/undo": {"post": on_game("undo", "take back the last entry", game, (404, 409))},
        "/api/games/{game_id}/resign": {"post": on_game("resign", "give up: the game is over", game, (404, 409))},
        "/api/races": {"post": _op("createRace", "start a race, or a batch race with `games`", _json(
            {"anyOf": [_ref("Race"), _ref("BatchRace")]}, "the new race's state",
            _links(RACE_OPERATIONS, "race_id", "$response.body#/id")), (*bad, 422, 429), "RaceRequest", status=201)},
        "/api/races/{race_id}": {"get": _op("getRace", "a race's state", _json(
            {"anyOf": [_ref("Race"), _ref("BatchRace")]}, "the race's state", from_race), (404, 409), params=race_id)},
        "/api/races/{race_id}/step": {"post": _op("stepRace", "one turn of every entrant still playing", _json(
            _ref("Race"), "the race's state", from_race), (404, 409), params=race_id)},
        "/api/options": {"get": _op("options", "the backends and strategies to choose from",
                                    _json(_ref("Options"), "what the page offers"), ())},
        "/openapi.json": {"get": _op("openapi", "this document", _json({"type": "object"}, "OpenAPI 3.1"), ())},
        "/api/docs": {"get": _op("reference", "this document as a page (no CDN: read from /openapi.json)",
                                 _html("the reference page"), ())},
        "/": {"get": _op("page", "the web page", _html("the page; its script and style under /static/"), ())},
    }
    return {"openapi": "3.1.0",
            "info": {"title": "mmlogic codemaker server", "version": "1",
                     "description": "The JSON API of `mmlogic serve` (docs/server.md). Every error is "
                                    "`{\"error\": \"one line\"}` with a 4xx status (503 for one connection too "
                                    "many); a request body is JSON sent as `application/json`. Integers are sent as "
                                    "integers: `4`, not `4.0` (which JSON Schema counts as an integer; the server "
                                    "refuses it, 400)."},
            "paths": paths, "components": copy.deepcopy(_components())}


def _html(description: str) -> dict:
    return {"description": description, "content": {"text/html": {"schema": {"type": "string"}}}}


def error_statuses(document: dict, path: str, method: str) -> set[int]:
    """The error statuses (4xx, 5xx) of an operation of ``document``."""
    return {int(code) for code in document["paths"][path][method]["responses"] if int(code) >= 400}
