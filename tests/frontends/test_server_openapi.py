"""The API's OpenAPI document (``GET /openapi.json``): its routes and error statuses are those of
docs/server.md and of the application, its reference page fetches nothing from elsewhere, and
schemathesis fuzzes the application in process against it (no 5xx, every answer conforming, no
secret shown before the end)."""

from __future__ import annotations

import copy
import re

import pytest

from mm_logic.server.openapi import CODE, EVERY_ROUTE, error_statuses, openapi_schema

from conftest import ROOT

DOC = ROOT / "docs" / "server.md"


def doc_endpoints() -> dict[tuple[str, str], set[int]]:
    """docs/server.md's endpoints table: (method, path with ``{id}``) -> the error statuses of its last column."""
    section = DOC.read_text().split("## Endpoints", 1)[1].split("\n## ", 1)[0]
    endpoints = {}
    for line in section.splitlines():
        found = re.match(r"\| `(GET|POST) ([^` ?]+)[^`]*`[^|]*\|.*\| ([0-9, ]+) \|$", line)
        if found:
            statuses = {int(s) for s in found[3].split(",")}
            endpoints.setdefault((found[1], found[2]), set()).update(statuses)
    return endpoints


def doc_error_table() -> set[int]:
    """The statuses of docs/server.md's errors table."""
    section = DOC.read_text().split("## Errors", 1)[1].split("\n## ", 1)[0]
    return {int(s) for s in re.findall(r"^\| (\d{3}) \|", section, re.MULTILINE)}


def schema_endpoints(document: dict) -> dict[tuple[str, str], set[int]]:
    return {(method.upper(), re.sub(r"\{\w+_id\}", "{id}", path)): error_statuses(document, path, method)
            for path, methods in document["paths"].items() for method in methods}


def test_the_document_is_served_and_equals_the_module(client):
    response = client.get("/openapi.json")
    assert response.status_code == 200 and response.headers["content-type"] == "application/json"
    assert response.json() == openapi_schema()
    assert response.json()["openapi"] == "3.1.0"


def test_its_routes_and_error_statuses_are_the_documents():
    documented = doc_endpoints()
    assert schema_endpoints(openapi_schema()) == {route: statuses | set(EVERY_ROUTE)
                                                  for route, statuses in documented.items()}
    every = set().union(*schema_endpoints(openapi_schema()).values())
    # 405 (a method a route does not take) and the 404 of an unknown route are no operation's answers.
    assert every | {404, 405} == doc_error_table()


def test_its_routes_are_the_applications(client):
    from starlette.routing import Route
    routes = {(method, route.path) for route in client.app.routes if isinstance(route, Route)
              for method in route.methods - {"HEAD"}}
    assert routes == {(method.upper(), path) for path, methods in openapi_schema()["paths"].items()
                      for method in methods}


def test_every_link_names_an_operation_and_its_parameter():
    document = openapi_schema()
    operations = {op["operationId"]: op for methods in document["paths"].values() for op in methods.values()}
    for op in operations.values():
        for answer in op["responses"].values():
            for link in answer.get("links", {}).values():
                target = operations[link["operationId"]]
                assert set(link["parameters"]) <= {p["name"] for p in target.get("parameters", [])}


def test_the_reference_page_is_offline(client):
    page = client.get("/api/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    script = client.get("/static/reference.js")
    assert script.status_code == 200
    for text in (page.text, script.text):
        # Nothing from another site: every URL is the server's own.
        assert not re.search(r"(src|href)=\"(https?:)?//", text) and "https://" not in text
    assert 'fetch("/openapi.json")' in script.text


# -- fuzzing -----------------------------------------------------------------------------------------------
#: What the fuzzing plays: small games (3 pegs, 3 or 4 colours, codes every game takes) on the python engine,
#: quick strategies, no batch race (a process per entrant); the served document allows more, these are
#: narrowed so that a run takes seconds and most requests are ones a game can take.
FUZZ_STRATEGIES = ["first", "random", "minimax", "entropy", "human1"]
FUZZ_CODE = "^[0-2]{3}$"


def narrowed(document: dict) -> dict:
    document = copy.deepcopy(document)

    def codes(node):
        if isinstance(node, dict):
            if node.get("description") == CODE["description"]:
                node["pattern"] = FUZZ_CODE
            for value in node.values():
                codes(value)
        elif isinstance(node, list):
            for value in node:
                codes(value)
    schemas = document["components"]["schemas"]
    # The codes a request sends; every game is of the narrowed rules on the python engine.
    for node in (schemas["GameRequest"], schemas["Guess"], schemas["Answer"], schemas["RaceRequest"],
                 document["paths"]["/api/games/{game_id}/split"]["get"]["parameters"]):
        codes(node)
    # A seed given: the same request makes the same secret, so a scenario replayed meets the same answers.
    schemas["GameRequest"]["required"] = ["rules", "backend", "seed"]
    schemas["Entrant"]["required"] = ["backend"]
    schemas["RaceRequest"]["required"] = ["rules", "entrants", "seed"]
    schemas["RulesRequest"]["required"] = ["pegs", "colors"]
    rules = schemas["RulesRequest"]["properties"]
    rules.update(pegs={"enum": [3]}, colors={"enum": [3, 4]}, max_repeat={"enum": [None, 1, 2, 3]})
    del rules["alphabet"]
    for name in ("GameRequest", "Entrant"):
        schemas[name]["properties"].update(backend={"enum": ["python"]}, strategy={"enum": FUZZ_STRATEGIES})
    for answer in schemas["Answer"]["anyOf"]:
        for key in ("black", "white"):
            if key in answer["properties"]:
                answer["properties"][key] = {"type": "integer", "minimum": 0, "maximum": 3}
    race = schemas["RaceRequest"]
    del race["properties"]["games"]
    race["properties"]["entrants"]["maxItems"] = 3
    return document


def fuzzed_schema(app):
    import schemathesis
    from starlette.testclient import TestClient

    with TestClient(app) as client:
        document = client.get("/openapi.json").json()
    schema = schemathesis.openapi.from_dict(narrowed(document))
    schema.app = app
    return schema


def secret_kept(store):
    """A schemathesis check: no answer shows a game's or a race's secret before it is over."""
    from mm_logic.notation import format_code

    def secrets_of(key: str) -> tuple[set[str], bool] | None:
        """The secrets of the game or race ``key`` in the store, and whether it is over (None: no such)."""
        with store._lock:
            hosted = store._games.get(key) or store._races.get(key)
        if hosted is None:
            return None
        if hasattr(hosted, "game"):  # a game; a codemaker or adversary game has no secret
            secret = hosted.game.secret
            return ({format_code(secret, hosted.rules)} if secret is not None else set()), hosted.over
        if hasattr(hosted, "race"):  # a batch race
            return {format_code(secret, hosted.race.rules) for secret in hosted.race.secrets}, hosted.over
        return {format_code(hosted.secret, hosted.rules)}, hosted.over

    def values(data, key=None):
        if isinstance(data, dict):
            for k, v in data.items():
                yield from values(v, k)
        elif isinstance(data, list):
            for v in data:
                yield from values(v, key)
        else:
            yield key, data

    def check(ctx, response, case):
        try:
            body = response.json()
        except ValueError:
            return None
        if not isinstance(body, dict):
            return None
        over = body.get("over", body.get("won"))
        shown = {"secret", "secrets"} & set(body)
        assert not shown or over is True, f"{sorted(shown)} shown before the end: {body}"
        key = case.path_parameters.get("game_id") or case.path_parameters.get("race_id") or body.get("id")
        found = secrets_of(key) if isinstance(key, str) else None
        if found is None or found[1]:
            return None
        secrets, _ = found
        # An echo of a guess (the client's own, the computer's hint, a split's) may be the secret;
        # the alphabet may be written as a code is. Nothing else may.
        leaked = [(k, v) for k, v in values(body) if k not in ("guess", "alphabet") and v in secrets]
        assert not leaked, f"the secret in an answer before the end: {leaked}"
        if "entrants" in body:  # a race: no entrant's history holds the secret before the end
            assert not any(entry["guess"] in secrets for e in body["entrants"] for entry in e.get("history", []))
        return None

    return check


def checks_for(store):
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        response_schema_conformance,
        status_code_conformance,
    )
    return [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
            secret_kept(store)]


@pytest.fixture
def fuzzed_app():
    from mm_logic.server.api import create_app
    from mm_logic.server.store import GameStore

    store = GameStore(time_limit=5.0)
    app = create_app(store)
    yield app, store
    store.close()


@pytest.mark.slow
def test_fuzz_the_api_statefully(fuzzed_app):
    """Create a game or a race, then guess, answer, undo, resign, step on it in any order: no 5xx, every answer
    as the document says, no secret before the end."""
    from hypothesis import HealthCheck, settings

    app, store = fuzzed_app
    checks = checks_for(store)
    machine = fuzzed_schema(app).as_state_machine()

    class Machine(machine):
        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=checks)

        def teardown(self):
            # Each scenario on an empty server: replayed, it meets the answers it met (Hypothesis needs so).
            store.close()

    Machine.run(settings=settings(max_examples=60, stateful_step_count=8, deadline=None, derandomize=True,
                                  suppress_health_check=list(HealthCheck), database=None))


@pytest.mark.slow
def test_fuzz_each_operation(fuzzed_app):
    """Each operation alone, on bodies and parameters the document allows: no 5xx, every answer conforming."""
    from hypothesis import HealthCheck, given, settings

    app, store = fuzzed_app
    checks = checks_for(store)

    @given(case=fuzzed_schema(app).as_strategy())
    @settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
              database=None)
    def run(case):
        case.call_and_validate(checks=checks)

    run()
