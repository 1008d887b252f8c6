"""The library's stable names (mm_logic.library, exported by mm_logic): each returns the value its command
prints (``as_dict()`` is the command's ``--json``), for every rule, an edited encoding and lies; bad input is
the command's one line as BadInput; the version is one."""

from __future__ import annotations

import importlib.metadata
import json
import pkgutil
import subprocess
import sys
import tomllib

import pytest

import mm_logic
from mm_logic import BadInput, Rules
from mm_logic.support.errors import NoConsistentCode

from conftest import PY, ROOT

SHARED = str(ROOT / "examples" / "shared_colours.py")
PALINDROME = str(ROOT / "examples" / "palindrome.lp")


def without_seconds(value):
    """A result's JSON without its timings and its process's peak memory, which differ from run to run."""
    if isinstance(value, dict):
        return {k: without_seconds(v) for k, v in value.items()
                if k not in ("seconds", "ms_per_game", "memory", "peak_memory")}
    if isinstance(value, list):
        return [without_seconds(v) for v in value]
    return value


def test_every_stable_name_is_exported_and_none_is_a_module_of_the_package():
    # mm_logic.optimal is the search's package: a function of that name would be shadowed once it is imported.
    modules = {info.name for info in pkgutil.iter_modules(mm_logic.__path__)}
    names = [name for name in mm_logic.__all__ if name != "__version__"]
    assert set(names) == {"Rules", "Game", "BadInput", "MMLogicError", "new_game", "solve", "next_guess",
                          "split_codes", "bench", "compare", "optimal_strategy", "static_guesses", "puzzle",
                          "puzzle_set", "grade", "code", "history"}
    assert not set(names) & modules
    assert all(callable(getattr(mm_logic, name)) and getattr(mm_logic, name).__doc__ for name in names)
    with pytest.raises(AttributeError, match="^module 'mm_logic' has no attribute 'solver'$"):
        mm_logic.solver  # noqa: B018


def test_importing_the_package_loads_no_solver():
    code = "import sys, mm_logic; print(sorted(m for m in ('clingo', 'numba', 'janus_swi') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert (out.returncode, out.stdout, out.stderr) == (0, "[]\n", "")


def test_the_version_is_said_once():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["hatch"]["version"]["path"] == "mm_logic/__init__.py"
    assert importlib.metadata.version("mmlogic") == mm_logic.__version__


def test_the_command_prints_the_librarys_version(run):
    result = run("--version")
    assert (result.exit_code, result.stdout) == (0, f"mmlogic, version {mm_logic.__version__}\n")


@pytest.mark.parametrize("rules, options, secret", [
    (Rules(4, 6), ["--pegs", 4, "--colors", 6], "3215"),
    (Rules(4, 6, feedback="black"), ["--feedback", "black"], "0123"),
    (Rules(4, 4, feedback="positional"), ["--colors", 4, "--feedback", "positional"], "3201"),
    (Rules(4, 8, max_repeat=1), ["--colors", 8, "--no-repeat"], "0712"),
    (Rules(3, 4, feedback=SHARED), ["--pegs", 3, "--colors", 4, "--feedback", SHARED], "012"),
])
def test_solve_is_the_commands_game_under_every_rule(run_json, rules, options, secret):
    played = mm_logic.solve(rules, secret, strategy="minimax", backend="python")
    printed = run_json("solve", *options, *PY, "--strategy", "minimax", "--secret", secret)
    assert without_seconds(played.as_dict()) == without_seconds(printed)


def test_solve_with_lies_and_with_an_edited_encoding(run_json):
    lied = mm_logic.solve(Rules(4, 6, lies=1), "0123", strategy="minimax", backend="python", liar="2", seed=1)
    printed = run_json("solve", "--lies", 1, "--liar", 2, "--seed", 1, "--secret", "0123", *PY,
                       "--strategy", "minimax")
    assert without_seconds(lied.as_dict()) == without_seconds(printed)
    assert lied.attempts == 4
    edited = mm_logic.solve(Rules(4, 6), strategy="first", backend="clingo", encoding=PALINDROME, seed=1)
    printed = run_json("solve", "--backend", "clingo", "--strategy", "first", "--encoding", PALINDROME, "--seed", 1)
    assert without_seconds(edited.as_dict()) == without_seconds(printed)
    assert edited.secret == edited.secret[::-1] == edited.guesses[-1][0]  # a palindrome, as the encoding admits


def test_codes_as_numbers_or_as_written(run_json):
    assert mm_logic.code(Rules(4, 6), [0, 1, 2, 3]) == mm_logic.code(Rules(4, 6), "0123") == (0, 1, 2, 3)
    assert mm_logic.code(Rules(2, 40), [17, 33]) == (17, 33)
    numbers = mm_logic.solve(Rules(4, 6), [3, 2, 1, 5], strategy="minimax", backend="python")
    assert numbers.as_dict()["secret"] == "3215"


def test_next_guess_and_split_codes_are_the_commands(run_json):
    history = ["0011:1,0", "2345:0,2"]
    assert mm_logic.next_guess(history, Rules(), strategy="minimax", backend="python").as_dict() == \
        run_json("next", *history, *PY, "--strategy", "minimax") == {"guess": "0223", "consistent": 60}
    assert mm_logic.split_codes("0223", history, Rules(), backend="python").as_dict() == \
        run_json("split", "0223", *history, *PY)


def test_bench_compare_and_puzzle_are_the_commands(run_json):
    result = mm_logic.bench(Rules(4, 6), strategy="minimax", backend="python", first_guess="0011")
    assert (result.total_guesses, result.max, result.games) == (5801, 5, 1296)
    assert without_seconds(result.as_dict()) == without_seconds(
        run_json("bench", *PY, "--strategy", "minimax", "--first-guess", "0011", "--all"))
    drawn = mm_logic.bench(Rules(5, 8), strategy="first", backend="python", games=20, seed=3)
    assert without_seconds(drawn.as_dict()) == without_seconds(
        run_json("bench", "--pegs", 5, "--colors", 8, *PY, "--strategy", "first", "--games", 20, "--seed", 3))
    compared = mm_logic.compare(["minimax", "entropy"], Rules(3, 4), backends=["python"], seed=1)
    printed = run_json("compare", "--pegs", 3, "--colors", 4, "--backend", "python",
                       "--strategy", "minimax,entropy", "--all", "--seed", 1)
    assert without_seconds(compared.as_dict()) == without_seconds(printed)
    drawn = mm_logic.puzzle(Rules(3, 4), entries=3, seed=7)
    assert drawn.as_dict() == run_json("puzzle", "--pegs", 3, "--colors", 4, "--entries", 3, "--seed", 7)


def test_optimal_and_static_are_the_commands(run_json):
    best = mm_logic.optimal_strategy(Rules(3, 4), objective="worst-case")
    assert without_seconds(best.as_dict()) == without_seconds(
        run_json("optimal", "--pegs", 3, "--colors", 4, "--objective", "worst-case"))
    assert (best.as_dict()["max"], best.as_dict()["total_guesses"]) == (4, 208)
    liar = mm_logic.optimal_strategy(Rules(2, 2, lies=1), objective="worst-case")
    assert without_seconds(liar.as_dict()) == without_seconds(
        run_json("optimal", "--pegs", 2, "--colors", 2, "--lies", 1, "--objective", "worst-case"))
    fixed = mm_logic.static_guesses(Rules(2, 5))
    assert without_seconds(fixed.as_dict()) == without_seconds(run_json("static", "--pegs", 2, "--colors", 5))


@pytest.mark.parametrize("call, message", [
    (lambda: mm_logic.solve(Rules(4, 6), "01234", backend="python"), "code '01234' has 5 pegs, expected 4"),
    (lambda: Rules(0, 6), "--pegs must be between 1 and 64, got 0"),
    (lambda: mm_logic.next_guess(["0011:5,0"], backend="python"),
     "feedback 5,0 in '0011:5,0': black + white exceeds the 4 pegs"),
    (lambda: mm_logic.bench(Rules(4, 6), strategy="nonesuch", backend="python"),
     "unknown strategy 'nonesuch'; choose from first, any, random, any-random-opening, minimax, expected, entropy, "
     "parts, weighted-entropy, weighted-entropy-stages, human1, human2, human3, ga001-random, ga001-similar, "
     "ga001-dissimilar, ga001-reduction, ga004, sample-entropy"),
    (lambda: mm_logic.puzzle(Rules(3, 4), entries=3, backend="nonesuch"),
     "unknown backend 'nonesuch'; choose from clingo, swipl, python, a1, a2, a3, a4, a5"),
])
def test_bad_input_is_the_commands_one_line(call, message):
    with pytest.raises(BadInput) as raised:
        call()
    assert str(raised.value) == message


def test_a_game_driven_step_by_step_keeps_the_rules():
    with mm_logic.new_game(Rules(4, 6), secret="3215", strategy="minimax", backend="python") as game:
        guess = game.suggest()
        game.record(guess, game.score(guess))
        assert (guess, game.history, game.remaining()) == ((0, 0, 1, 1), [((0, 0, 1, 1), (1, 0))], 256)
        with pytest.raises(NoConsistentCode, match=r"entries 1, 2 \(0011:1,0 0011:4,0\) contradict each other$"):
            game.record((0, 0, 1, 1), (4, 0))  # a person's answer that contradicts the history is refused
        assert game.history == [((0, 0, 1, 1), (1, 0))]
    assert json.dumps(mm_logic.history(Rules(), ["0011:1,0"])) == "[[[0, 0, 1, 1], [1, 0]]]"


def test_a_puzzle_set_and_its_grading_are_the_commands(run, tmp_path):
    drawn = mm_logic.puzzle_set(Rules(3, 4), count=3, seed=1, backend="python")
    printed = run("puzzle", "--pegs", 3, "--colors", 4, *PY, "--count", 3, "--seed", 1)
    assert [json.dumps(p) for p in drawn] == printed.stdout.splitlines()
    (tmp_path / "p.jsonl").write_text(printed.stdout)
    (tmp_path / "a.jsonl").write_text('{"answer": "232"}\n{"answer": "000"}\n')
    from_files = mm_logic.grade(tmp_path / "p.jsonl", tmp_path / "a.jsonl")
    from_values = mm_logic.grade(drawn, ["232", {"answer": "000"}])
    graded = run("puzzle", "--grade", tmp_path / "p.jsonl", tmp_path / "a.jsonl", "--json")
    assert from_files.as_dict() == from_values.as_dict() == json.loads(graded.stdout)
    assert from_values.counts == {"right": 1, "consistent": 0, "inconsistent": 1, "malformed": 0, "missing": 1}
