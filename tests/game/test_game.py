"""The game object every front end drives, on every engine, and the package's layering."""

from __future__ import annotations

import ast
import re
from itertools import product
from pathlib import Path

import pytest

from mm_logic.engines import BACKENDS, make_engine
from mm_logic.game import Game, advise, play
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy
from mm_logic.support.errors import BadInput, NoConsistentCode

from generators import consistent, contract_pick

PACKAGE = Path(__file__).resolve().parents[2] / "mm_logic"
RULES = Rules(4, 6)


CODES = list(product(range(6), repeat=4))


def knuth(history) -> tuple[int, ...]:
    """Brute-force Knuth: smallest largest part, then a consistent code, then the smallest."""
    return contract_pick(CODES, consistent(RULES, history), max)


def game(backend: str, strategy: str = "minimax", first_guess=None, **options) -> Game:
    return Game(make_engine(backend, RULES), make_strategy(strategy, RULES, first_guess=first_guess), **options)


@pytest.mark.parametrize("backend", list(BACKENDS))
def test_every_engine_drives_the_same_game(backend):
    # Knuth's strategy on secret 0123: the engine must not change a single guess.
    record = play(make_engine(backend, RULES), make_strategy("minimax", RULES), (0, 1, 2, 3))
    assert record.guesses == [((0, 0, 1, 1), (1, 1)), ((0, 0, 2, 3), (3, 0)), ((0, 1, 2, 3), (4, 0))]
    assert record.as_dict()["guesses"] == [{"guess": "0011", "black": 1, "white": 1},
                                           {"guess": "0023", "black": 3, "white": 0},
                                           {"guess": "0123", "black": 4, "white": 0}]


@pytest.mark.parametrize("backend", list(BACKENDS))
def test_feedback_contradicting_the_history_is_refused_naming_the_entries(backend):
    with game(backend, "first") as g:
        g.record((0, 0, 1, 1), (1, 0))
        with pytest.raises(NoConsistentCode) as refused:
            g.record((0, 0, 1, 1), (0, 0))
        assert str(refused.value) == ("no code is consistent with the history: entries 1, 2 "
                                      "(0011:1,0 0011:0,0) contradict each other")
        assert refused.value.exit_code == 3
        assert g.history == [((0, 0, 1, 1), (1, 0))]  # the refused entry left nothing behind
        assert g.remaining() == 256


def test_feedback_that_cannot_occur_is_refused_before_the_engine_is_asked():
    with game("python") as g:
        with pytest.raises(BadInput, match=r"^feedback 3,1 cannot occur: with 3 pegs right"):
            g.record((0, 0, 1, 1), (3, 1))
        assert g.history == []


def test_undo_takes_back_the_last_entry():
    with game("python", "first") as g:
        g.record((0, 0, 1, 1), (1, 0))
        g.record((2, 2, 3, 3), (0, 1))
        assert g.remaining() == len(consistent(RULES, g.history))
        assert g.undo() == ((2, 2, 3, 3), (0, 1))
        assert g.remaining() == len(consistent(RULES, g.history)) == 256
        assert g.suggest() == consistent(RULES, g.history)[0]
        g.undo()
        with pytest.raises(BadInput, match="^nothing to undo$"):
            g.undo()


def test_score_and_play_turn_against_the_secret():
    with game("python", secret=(0, 1, 2, 3)) as g:
        assert g.score((0, 0, 1, 1)) == (1, 1)
        assert g.history == []  # scoring a guess does not play it
        assert g.play_turn() == ((0, 0, 1, 1), (1, 1))
        assert not g.won
        g.play_turn()
        assert g.play_turn() == ((0, 1, 2, 3), (4, 0))
        assert g.won and len(g.history) == 3
    with game("python") as g, pytest.raises(BadInput, match="^this game has no secret to score against$"):
        g.score((0, 0, 1, 1))


def test_first_guess_replaces_the_opening_only():
    with game("python", first_guess=(1, 2, 3, 4)) as g:
        assert g.suggest() == (1, 2, 3, 4)
        g.record((1, 2, 3, 4), (0, 0))
        assert g.suggest() == knuth(g.history)


def test_advise_counts_and_suggests():
    suggestion = advise(make_engine("python", RULES), make_strategy("minimax", RULES),
                        [((0, 0, 1, 1), (1, 0)), ((2, 3, 4, 5), (0, 2))])
    assert suggestion.as_dict() == {"guess": "0223", "consistent": 60}
    assert suggestion.text() == "0223  (60 codes still possible)"


def _imports(path: Path) -> set[str]:
    """The mm_logic modules a file imports, anywhere in it (lazy imports too)."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = f"{base}.{node.module}" if node.level and node.module else base if node.level else node.module
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("mm_logic")}


def _graph() -> dict[str, set[str]]:
    modules = {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__"): p
               for p in PACKAGE.rglob("*.py")}
    return {name: {m for m in _imports(path) if m in modules and m != name} for name, path in modules.items()}


def test_no_import_cycle_in_the_package():
    graph = _graph()
    assert "mm_logic.game" in graph and "mm_logic.studies.bench" in graph
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    # A package __init__ that imports its own submodules is not a cycle between modules.
    real = [c for c in cycles if not all(m == c[0] or m.startswith(c[0] + ".") or c[0].startswith(m + ".")
                                         for m in c)]
    assert real == []


def test_the_bench_never_imports_the_http_client():
    # A front end hands the bench a codemaker function (bench --server: mm_logic.client.RemoteCodemaker).
    graph = _graph()
    reached, todo = set(), ["mm_logic.studies.bench"]
    while todo:
        for name in graph[todo.pop()] - reached:
            reached.add(name)
            todo.append(name)
    assert "mm_logic.client" not in reached


def _layers() -> dict[str, set[str]]:
    """The table of docs/architecture.md's "The layers", from the bottom up: each layer's modules and packages of
    mm_logic, the code spans of its second column (the page lists the layers from the top down)."""
    page = (PACKAGE.parent / "docs" / "architecture.md").read_text()
    section = page.split("\n## The layers\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1:-1] for line in section.splitlines() if line.startswith("|")][2:]
    return {layer.strip(): set(re.findall(r"`([\w.]+)`", modules)) for layer, modules, _ in reversed(rows)}


#: The package's layers, from the bottom up: a module imports its own layer and those below. The page that
#: describes them (docs/architecture.md) is their one source.
LAYERS = _layers()


def test_the_layers_are_read_from_the_architecture_page():
    assert list(LAYERS) == ["the game itself", "the encodings", "engines", "strategies", "one game", "studies",
                            "front ends"]
    assert {"rules", "feedback", "kernels"} <= LAYERS["the game itself"] and LAYERS["the encodings"] == set()
    assert LAYERS["front ends"] == {"cli", "terminal", "server", "client", "library", "environment", "__main__"}
    named = [name for names in LAYERS.values() for name in names]
    assert len(named) == len(set(named)), "a module in two layers"


def _layer(module: str) -> int:
    top = module.split(".")[1]
    return next(i for i, names in enumerate(LAYERS.values()) if top in names)


def test_no_module_imports_a_layer_above_its_own():
    graph = {name: deps for name, deps in _graph().items() if name != "mm_logic"}
    modules = {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
               for p in PACKAGE.rglob("*.py")}
    # An import that names no module of the package (a relative import one dot short) is no arrow at all.
    unresolved = sorted(f"{p.name}: {name}" for p in PACKAGE.rglob("*.py") for name in _imports(p)
                        if name not in modules and name.rpartition(".")[0] not in modules)
    assert unresolved == []
    assert {name.split(".")[1] for name in graph} == set().union(*LAYERS.values()), "every module has a layer"
    up = sorted((name, dep) for name, deps in graph.items() for dep in deps
                if dep != "mm_logic" and _layer(dep) > _layer(name))
    assert up == []


#: Most lines a module of the package may have: past it, a module holds more than one concern.
MAX_MODULE_LINES = 700


def test_no_module_of_the_package_is_over_700_lines():
    sizes = {p.relative_to(PACKAGE.parent).as_posix(): len(p.read_text().splitlines()) for p in PACKAGE.rglob("*.py")}
    assert "mm_logic/game.py" in sizes
    over = {name: lines for name, lines in sizes.items() if lines > MAX_MODULE_LINES}
    assert over == {}, f"modules over {MAX_MODULE_LINES} lines (split them by concern): {over}"


def test_no_module_of_the_web_page_is_over_700_lines():
    # The page's JavaScript (ES modules served as they are) holds to the same rule as the package's Python.
    sizes = {p.relative_to(PACKAGE.parent).as_posix(): len(p.read_text().splitlines())
             for p in (PACKAGE / "server" / "static").glob("*.js")}
    assert "mm_logic/server/static/main.js" in sizes
    over = {name: lines for name, lines in sizes.items() if lines > MAX_MODULE_LINES}
    assert over == {}, f"web page modules over {MAX_MODULE_LINES} lines (split them by concern): {over}"


def test_nothing_below_the_front_ends_knows_click():
    # The command line (a package of commands) and the terminal's spinner and progress bar.
    front_ends = {"mm_logic.cli", "mm_logic.terminal"}
    users = {name for name, path in
             ((".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts[:2]), p) for p in PACKAGE.rglob("*.py"))
             if "click" in {n.split(".")[0] for n in _raw_imports(path)}}
    assert users == front_ends


def _raw_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module)
    return names


def test_a_win_ends_the_game_and_can_be_undone():
    with game("python", "first") as g:
        g.record((0, 0, 1, 1), (1, 0))
        g.record((0, 2, 2, 2), (4, 0))
        assert g.won and g.history == [((0, 0, 1, 1), (1, 0)), ((0, 2, 2, 2), (4, 0))]
        assert g.remaining() == 1 and g.suggest() == (0, 2, 2, 2)
        with pytest.raises(BadInput, match="^the game is won: undo the winning entry first$"):
            g.record((1, 1, 1, 1), (0, 0))
        assert g.undo() == ((0, 2, 2, 2), (4, 0))
        assert not g.won and g.remaining() == 256


def test_a_win_the_history_excludes_is_refused():
    with game("python", "first") as g:
        g.record((0, 0, 1, 1), (1, 0))
        with pytest.raises(NoConsistentCode, match=r"entries 1, 2 \(0011:1,0 1111:4,0\) contradict each other"):
            g.record((1, 1, 1, 1), (4, 0))
        assert not g.won and g.history == [((0, 0, 1, 1), (1, 0))]


def test_a_persons_guesses_wait_for_no_solver():
    # The secret's answers are trusted: they are recorded at once and pushed when the engine is
    # next asked, so a time limit fails the hint, not the guess, and the guess stays played.
    from mm_logic.support.errors import SolverTimeout
    rules = Rules(9, 6)
    secret = (0, 1, 2, 3, 4, 5, 0, 1, 2)
    with Game(make_engine("python", rules, time_limit=0.001), make_strategy("first", rules), secret=secret) as g:
        entry = ((0, 0, 1, 1, 2, 2, 3, 3, 4), (1, 7))
        assert g.score(entry[0]) == entry[1]
        g.record(*entry, check=False)
        assert g.history == [entry] and not g.won
        with pytest.raises(SolverTimeout, match=r"^python did not answer within the time limit of 0\.001 s "
                                                r"\(9x6, 10,077,696 codes to filter\); raise --time-limit$"):
            g.remaining()
        assert g.history == [entry]
        g.record(secret, (9, 0), check=False)
        assert g.won and g.history == [entry, (secret, (9, 0))]
        assert g.undo() == (secret, (9, 0)) and g.undo() == entry
        assert g.history == [] and g.remaining() == 6**9


def test_trusted_and_checked_entries_mix_in_order():
    with game("python", "first") as g:
        g.record((0, 0, 1, 1), (1, 0), check=False)     # waits
        g.record((2, 2, 3, 3), (0, 1))                  # checked: the first is pushed before it
        assert g.history == [((0, 0, 1, 1), (1, 0)), ((2, 2, 3, 3), (0, 1))]
        assert g.remaining() == len(consistent(RULES, g.history)) == 48
        g.record((4, 4, 5, 5), (0, 0), check=False)
        assert g.undo() == ((4, 4, 5, 5), (0, 0)) and g.remaining() == 48
        with pytest.raises(NoConsistentCode, match=r"entries 1, 3 \(0011:1,0 0011:0,0\) contradict each other"):
            g.record((0, 0, 1, 1), (0, 0))
        assert g.history == [((0, 0, 1, 1), (1, 0)), ((2, 2, 3, 3), (0, 1))]
