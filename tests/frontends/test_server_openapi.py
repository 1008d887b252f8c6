"""The API's OpenAPI document (``GET /openapi.json``): its routes and error statuses are those of
docs/server.md and of the application, its reference page fetches nothing from elsewhere, and
schemathesis fuzzes the application in process against it (no 5xx, every answer conforming, no
secret shown before the end)."""

from __future__ import annotations

import copy
import re

import pytest

from mm_logic.rules import FEEDBACK_RULES
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
    # No variant is served here (serve --encoding FILE): the built-in rules' requests and answers alone.
    del rules["variant"]
    rules["feedback"] = {"anyOf": [{"enum": list(FEEDBACK_RULES)}, {"type": "null"}]}
    schemas["Answer"]["anyOf"] = [a for a in schemas["Answer"]["anyOf"] if "feedback" not in a["properties"]]
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


def fuzzed_schema(app, narrow: bool = True):
    """The served document (``narrow``: as :func:`narrowed`) as a schemathesis schema on ``app``, in process."""
    import schemathesis
    from starlette.testclient import TestClient

    with TestClient(app) as client:
        document = client.get("/openapi.json").json()
    schema = schemathesis.openapi.from_dict(narrowed(document) if narrow else document)
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


# -- the codemaker's answers and the races, reached ----------------------------------------------------------
#: The random fuzzing above almost never sends an answer that a codemaker game accepts (the right black and
#: white for the computer's guess), nor steps a race to its end. Here the client keeps a code in mind and
#: answers the computer's guesses with its feedback (the package's own :func:`mm_logic.feedback.score`), or
#: with a wrong one (another code's feedback, or one drawn from the document), and undoes, resigns and
#: diagnoses; beside it races run step by step, interleaved with the games. Every request is one of
#: schemathesis's cases of the narrowed document, every answer passes the same checks.
#: Batch races are not fuzzed: each starts a worker process per entrant (about a second each, at most 2 at
#: once), so a run of tens of scenarios would take minutes; a deterministic test of concurrent requests on
#: running batch races follows instead.
#:
#: The least of each count the run must reach, far under what it reaches (docs/server.md gives a run's counts;
#: derandomized, they change only with this code or with hypothesis's and schemathesis's generation): a fuzz
#: that stopped reaching accepted answers, the computer's wins or races' ends would fail, not pass unseen.
REACHED = {"accepted": 20, "won": 3, "race_steps": 20, "races_over": 5}


def codemaker_machine(schema, store, checks, counts: dict):
    """A hypothesis state machine of codemaker games (the client keeps a code) and races on ``schema``'s app."""
    import numpy as np
    from hypothesis import strategies as st
    from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

    from mm_logic.feedback import rule_of, score
    from mm_logic.notation import format_code, parse_code
    from mm_logic.randomness import random_code
    from mm_logic.strategies import STRATEGIES

    def integral(data):
        """``data`` with its integral floats (``4.0``) as integers."""
        if isinstance(data, dict):
            return {key: integral(value) for key, value in data.items()}
        if isinstance(data, list):
            return [integral(value) for value in data]
        return int(data) if isinstance(data, float) and data.is_integer() else data

    def operation(path: str, method: str):
        return schema[path][method]

    create_game, create_race = operation("/api/games", "POST"), operation("/api/races", "POST")

    def call(case):
        response = case.call()
        case.validate_response(response, checks=checks)
        return response

    #: What ``play`` does to a game, right answers thrice as often as the rest.
    ACTIONS = ["right", "wrong", "right", "undo", "right", "diagnose", "resign"]

    class Kept:
        """A codemaker game as the client sees it: the code in mind, and whether each answer recorded was right."""

        def __init__(self, rules, code):
            self.rules, self.code, self.right, self.over = rules, code, [], False

        def truth(self, guess: str):
            # A probe may repeat colours beyond the rules: the computer plays it as codemaker.
            return score(self.rules, parse_code(guess, self.rules, check_repeat=False), self.code)

    class Codemaker(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.games: dict[str, Kept] = {}
            self.races: dict[str, bool] = {}  # id -> over

        def teardown(self):
            store.close()  # each scenario on an empty server, as above

        # -- games ---------------------------------------------------------------------------------------
        # Two games and two races, created first, then played interleaved (more creating would spend the steps).
        @initialize(case=create_game.as_strategy(), seed=st.integers(0, 1 << 16))
        def first_game(self, case, seed):
            self.create(case, seed)

        @initialize(case=create_game.as_strategy(), seed=st.integers(0, 1 << 16))
        def second_game(self, case, seed):
            self.create(case, seed)

        @initialize(case=create_race.as_strategy())
        def first_race(self, case):
            self.race(case)

        @initialize(case=create_race.as_strategy())
        def second_race(self, case):
            self.race(case)

        @precondition(lambda self: all(kept.over for kept in self.games.values()))
        @rule(case=create_game.as_strategy(), seed=st.integers(0, 1 << 16))
        def another_game(self, case, seed):
            """A new game once every game is over (or none could be created)."""
            self.create(case, seed)

        def create(self, case, seed):
            # A game the client can answer: the body (optional) as drawn, but of role codemaker, integers sent as
            # integers (schemathesis sends some as 4.0, refused: the fuzzing above has those), a strategy that
            # plays the drawn feedback rule, and one lie at most (lies make the computer's search slow).
            drawn = integral(case.body) if isinstance(case.body, dict) else {}
            body = {k: v for k, v in drawn.items() if k not in ("secret", "adversary", "liar")}
            rules = dict(body.get("rules") or {}, lies=min((body.get("rules") or {}).get("lies") or 0, 1))
            if (rules.get("feedback") or "standard") not in STRATEGIES[body.get("strategy", "minimax")].feedback_rules:
                body["strategy"] = "first"
            case = create_game.Case(body={**body, "rules": rules, "role": "codemaker"}, media_type="application/json")
            response = call(case)
            counts["games"] += response.status_code == 201
            if response.status_code == 201:
                state = response.json()
                with store._lock:
                    game_rules = store._games[state["id"]].rules
                self.games[state["id"]] = Kept(game_rules, random_code(game_rules, np.random.default_rng(seed)))

        def game(self, data) -> tuple[str, Kept]:
            key = data.draw(st.sampled_from(list(self.games)))  # in order of creation: ids are random
            return key, self.games[key]

        def on_game(self, path: str, method: str, key: str, **kwargs):
            return call(operation(path, method).Case(path_parameters={"game_id": key}, **kwargs))

        def next_guess(self, key: str, kept: Kept) -> str | None:
            response = self.on_game("/api/games/{game_id}/next", "GET", key)
            # Not over: 409 only from a strategy whose probes left its plan (human1 after a first_guess).
            assert response.status_code == (409 if kept.over else 200) or (
                response.status_code == 409 and "plays its own sequence of probes" in response.text), response.text
            return response.json()["guess"] if response.status_code == 200 else None

        @precondition(lambda self: not all(kept.over for kept in self.games.values()))
        @rule(data=st.data(), action=st.sampled_from(ACTIONS))
        def play(self, data, action):
            """An action on one of the games (one rule, so that right answers come most often)."""
            key, kept = self.game(data)
            counts["action_" + action] += 1
            getattr(self, action)(data, key, kept)

        def right(self, data, key: str, kept: Kept):
            """A few right answers, often to the game's end (named: with the guess answered)."""
            named, times = data.draw(st.booleans()), data.draw(st.integers(1, 4))
            for _ in range(times):
                if not self.answer(key, kept, named):
                    return

        def answer(self, key: str, kept: Kept, named: bool) -> bool:
            """Answer the computer's next guess right; whether the game goes on."""
            guess = self.next_guess(key, kept)
            if guess is None:
                return False
            body = rule_of(kept.rules).as_json(kept.truth(guess)) | ({"guess": guess} if named else {})
            response = self.on_game("/api/games/{game_id}/feedback", "POST", key, body=body,
                                    media_type="application/json")
            if all(kept.right):  # every answer so far was right: this one must be taken
                assert response.status_code == 200, response.text
            if response.status_code == 200:
                kept.right.append(True)
                counts["accepted"] += 1
                state = response.json()
                assert state["history"][-1]["guess"] == guess
                if state["won"]:
                    assert state["over"] and guess == format_code(kept.code, kept.rules)
                    kept.over = True
                    counts["won"] += 1
            return response.status_code == 200 and not kept.over

        def wrong(self, data, key: str, kept: Kept):
            """Another code's feedback (often one an earlier answer still allows), or an answer of the document."""
            other, drawn = data.draw(st.integers(0, 1 << 16)), data.draw(st.booleans())
            guess = self.next_guess(key, kept)
            if guess is None:
                return
            path = "/api/games/{game_id}/feedback"
            if drawn:
                case = data.draw(operation(path, "POST").as_strategy(path_parameters={"game_id": key}))
                response = call(case)
                body = case.body
            else:
                another = random_code(kept.rules, np.random.default_rng(other))
                body = rule_of(kept.rules).as_json(score(kept.rules, parse_code(guess, kept.rules, check_repeat=False),
                                                         another))
                response = self.on_game(path, "POST", key, body=body, media_type="application/json")
            if response.status_code == 200:
                right = isinstance(body, dict) and body.get("guess", guess) == guess and \
                    rule_of(kept.rules).from_json(body, kept.rules.pegs) == kept.truth(guess)
                kept.right.append(right)
                counts["accepted"] += 1
                counts["accepted_wrong"] += not right
                if response.json()["over"]:  # the computer's guess taken as all black
                    kept.over = True

        def diagnose(self, data, key: str, kept: Kept):
            guess = self.next_guess(key, kept)
            if guess is not None:
                self.on_game("/api/games/{game_id}/diagnose", "POST", key,
                             body=rule_of(kept.rules).as_json(kept.truth(guess)), media_type="application/json")

        def undo(self, data, key: str, kept: Kept):
            response = self.on_game("/api/games/{game_id}/undo", "POST", key)
            assert response.status_code == (200 if kept.right and not kept.over else 409), response.text
            if response.status_code == 200:
                kept.right.pop()
                counts["undone"] += 1

        def resign(self, data, key: str, kept: Kept):
            response = self.on_game("/api/games/{game_id}/resign", "POST", key)
            assert response.status_code == (409 if kept.over else 200), response.text
            kept.over = True

        # -- races ---------------------------------------------------------------------------------------
        def race(self, case):
            # As for a game: integers as integers, entrants that play the rule.
            body = integral(case.body) if isinstance(case.body, dict) else {}
            rule_name = (body.get("rules") or {}).get("feedback") or "standard"
            for entrant in body.get("entrants", []):
                if rule_name not in STRATEGIES[entrant.get("strategy", "minimax")].feedback_rules:
                    entrant["strategy"] = "first"
            response = call(create_race.Case(body=body, media_type="application/json"))
            if response.status_code == 201:
                counts["races"] += 1
                self.races[response.json()["id"]] = False

        @precondition(lambda self: self.races)
        @rule(data=st.data(), steps=st.integers(1, 8))
        def step(self, data, steps):
            """A few steps of a race (often to its end), then one more once it is over (409)."""
            key = data.draw(st.sampled_from(list(self.races)))
            for _ in range(steps):
                response = call(operation("/api/races/{race_id}/step", "POST").Case(path_parameters={"race_id": key}))
                assert response.status_code == (409 if self.races[key] else 200), response.text
                if response.status_code == 409:
                    break
                counts["race_steps"] += 1
                state = response.json()
                if state["over"]:
                    self.races[key] = True
                    counts["races_over"] += 1
                    counts["races_won"] += bool(state["winners"])
            call(operation("/api/races/{race_id}", "GET").Case(path_parameters={"race_id": key}))

    return Codemaker


@pytest.mark.slow
def test_fuzz_codemaker_answers_and_races(fuzzed_app):
    """Codemaker games answered right (the client's code's feedback) and wrong, undone, resigned, beside races
    stepped to their end: no 5xx, every answer as the document says, no secret before the end; and the run
    does reach accepted answers, games the computer wins, and race steps."""
    from collections import Counter

    from hypothesis import HealthCheck, Phase, settings
    from hypothesis.stateful import run_state_machine_as_test

    app, store = fuzzed_app
    counts = Counter()
    machine = codemaker_machine(fuzzed_schema(app), store, checks_for(store), counts)
    # No shrinking: a failure is reported as found (derandomized, the same each run), not after minutes.
    run_state_machine_as_test(machine, settings=settings(
        max_examples=12, stateful_step_count=20, deadline=None, derandomize=True,
        suppress_health_check=list(HealthCheck), database=None, phases=[Phase.explicit, Phase.generate]))
    # What the run reaches (docs/server.md gives this run's counts): answers the games took, right and wrong,
    # games the computer won, undos, race steps and races run to their end.
    reached = {key: counts[key] for key in REACHED}
    print("reached:", dict(counts))
    assert all(reached[key] >= least for key, least in REACHED.items()), reached


@pytest.mark.slow
def test_concurrent_requests_on_batch_races(fuzzed_app, monkeypatch):
    """Batch races and requests on them at once (two clients and more): at most 2 run, the third is a 429, also
    when the requests come together; the states asked for meanwhile are never a 5xx, conform, and show no
    secret (the fuzzing above leaves batch races out: see there)."""
    import threading
    import time

    from starlette.testclient import TestClient

    from mm_logic.player import Player

    app, store = fuzzed_app
    schema, checks = fuzzed_schema(app, narrow=False), checks_for(store)
    create, state, step = (schema[path][method] for path, method in (
        ("/api/races", "POST"), ("/api/races/{race_id}", "GET"), ("/api/races/{race_id}/step", "POST")))
    # A slow engine's start (clingo reads its encoding) in each request's check of its entrants: the requests
    # that come together are then all between counting the batch races running and hosting theirs.
    engine = Player.engine

    def slow_engine(player, *args, **kwargs):
        time.sleep(0.2)
        return engine(player, *args, **kwargs)
    monkeypatch.setattr(Player, "engine", slow_engine)
    body = {"rules": {"pegs": 4, "colors": 6}, "entrants": [{"backend": "python", "strategy": "entropy"}],
            "games": 1000, "seed": 1}
    answers, lock = {}, threading.Lock()

    def send(client, operation, name, **request):
        """Send ``request`` as ``operation``'s case, check its answer; kept under ``name``."""
        case = operation.Case(**request)
        response = client.request(case.method, case.formatted_path, json=request.get("body"))
        case.validate_response(response, checks=checks)
        with lock:
            answers.setdefault(name, []).append(response)
        return response

    with TestClient(app) as client:
        together = threading.Barrier(3)

        def start():
            together.wait()
            send(client, create, "create", body=body, media_type="application/json")
        clients = [threading.Thread(target=start) for _ in range(3)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join()
        assert sorted(r.status_code for r in answers["create"]) == [201, 201, 429]
        races = [r.json()["id"] for r in answers["create"] if r.status_code == 201]
        monkeypatch.setattr(Player, "engine", engine)

        def follow():
            """A client reading both races until each has played a game (its workers started and report)."""
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                games = [send(client, state, "state", path_parameters={"race_id": key}).json()["entrants"][0]["games"]
                         for key in races]
                send(client, step, "step", path_parameters={"race_id": races[0]})
                if all(games):
                    return
                time.sleep(0.02)
        clients = [threading.Thread(target=follow) for _ in range(2)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join()
    assert {r.status_code for r in answers["state"]} == {200} and {r.status_code for r in answers["step"]} == {409}
    assert all(not r.json()["over"] for r in answers["state"])
