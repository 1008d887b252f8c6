"""Reading a strategy tree runs nothing, and a tree plays only the game it follows.

A tree file names its feedback rule; where that is a file of one's own (``FILE.py``, ``.lp``, ``.pl``), only
the command line's ``--feedback`` loads it: a tree is played (``--strategy tree:FILE``) or summed up
(``mmlogic tree FILE --feedback RULE``) only where the command names that same file, and is otherwise refused
in one line, exit 2, before any rule is loaded. A tree follows truthful answers: with ``--lies`` it is refused
before any game, in every command that plays a strategy.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from mm_logic.rules import Rules
from mm_logic.strategies import TreeStrategy, parse_strategy
from mm_logic.support.errors import BadInput

from conftest import PY, mmlogic, one_line_error

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: A rule file that says, when it is run, that it ran (a line on stderr and a file beside it).
EVIL = '''import sys
sys.stderr.write("EVIL CODE RAN\\n")
open("evil_ran", "w").write("x")
def score(g, s):
    return (sum(a == b for a, b in zip(g, s)),)
'''
#: 2x2 minimax (00, then 11 on 0,0 or 01 on 1,0, then 10), its rule a file of one's own.
TREE_2X2 = {"format": "mmlogic-tree", "version": 1,
            "rules": {"pegs": 2, "colors": 2, "max_repeat": None, "feedback": "evil.py"}, "alphabet": "01",
            "strategy": "minimax", "seed": None, "backend": "python", "first_guess": None,
            "tree": {"guess": "00", "next": {"0,0": {"guess": "11"},
                                             "1,0": {"guess": "01", "next": {"0,2": {"guess": "10"}}}}}}
SIZE = ["--pegs", 2, "--colors", 2]
#: What a 3x3 minimax bench of examples/shared_colours.py plays (its saved tree sums up alike).
SHARED_3X3 = {"games": 27, "total_guesses": 105, "max": 8,
              "histogram": {"1": 1, "2": 3, "3": 8, "4": 7, "5": 5, "6": 1, "7": 1, "8": 1}}


def figures(out: dict) -> dict:
    return {key: out[key] for key in SHARED_3X3}


@pytest.fixture
def evil_folder(tmp_path) -> Path:
    """A folder with evil.py and x.json, a tree whose rules name evil.py (as the audit's repro)."""
    (tmp_path / "evil.py").write_text(EVIL)
    (tmp_path / "x.json").write_text(json.dumps(TREE_2X2))
    (tmp_path / "other.py").write_text("def score(g, s):\n    return (sum(a == b for a, b in zip(g, s)),)\n")
    (tmp_path / "sub").mkdir()
    shutil.copy(tmp_path / "other.py", tmp_path / "sub" / "evil.py")  # the same name, another file
    return tmp_path


NOT_HERE = "--strategy tree:x.json plays 2x2 feedback evil.py, not {rules}: give the tree's rules options " \
           "(--feedback evil.py, the same file)"


@pytest.mark.parametrize("args, message", [
    (["tree", "x.json"],
     "x.json plays 2x2 feedback evil.py, a rule of your own that only --feedback loads: give --feedback evil.py "
     "(the same file)"),
    (["tree", "x.json", "--dot"],
     "x.json plays 2x2 feedback evil.py, a rule of your own that only --feedback loads: give --feedback evil.py "
     "(the same file)"),
    (["tree", "x.json", "--feedback", "other.py"],
     "x.json plays 2x2 feedback evil.py, not --feedback other.py: give --feedback evil.py (the same file)"),
    (["next", *PY, *SIZE, "--strategy", "tree:x.json", "00:1,0"], NOT_HERE.format(rules="2x2")),
    (["solve", *PY, *SIZE, "--strategy", "tree:x.json", "--secret", "01"], NOT_HERE.format(rules="2x2")),
    (["bench", *PY, *SIZE, "--strategy", "tree:x.json", "--all"], NOT_HERE.format(rules="2x2")),
    (["bench", *PY, *SIZE, "--strategy", "tree:x.json", "--all", "--jobs", 2], NOT_HERE.format(rules="2x2")),
    (["next", *PY, *SIZE, "--feedback", "other.py", "--strategy", "tree:x.json"],
     NOT_HERE.format(rules="2x2 feedback other.py")),
    # The same name in another folder is another file.
    (["next", *PY, *SIZE, "--feedback", "sub/evil.py", "--strategy", "tree:x.json"],
     NOT_HERE.format(rules="2x2 feedback evil.py")),
])
def test_a_tree_naming_a_rule_file_loads_it_nowhere(evil_folder, args, message):
    done = mmlogic(*args, cwd=evil_folder)
    assert (done.returncode, done.stderr, done.stdout) == (2, f"error: {message}\n", "")
    assert not (evil_folder / "evil_ran").exists()


def test_compare_loads_no_rule_a_tree_names(evil_folder):
    done = mmlogic("compare", *PY, *SIZE, "--strategy", "tree:x.json", "--all", cwd=evil_folder)
    assert "EVIL" not in done.stderr and done.returncode == 2
    assert not (evil_folder / "evil_ran").exists()


def test_reading_a_tree_file_reads_no_rule(evil_folder, monkeypatch):
    monkeypatch.chdir(evil_folder)
    read = parse_strategy("tree:x.json")
    assert read.tree.rules == Rules(2, 2, alphabet="01", feedback="evil.py") and read.tree.root is None
    with pytest.raises(BadInput, match="^--strategy tree:x.json plays 2x2 feedback evil.py, not 2x2 feedback "
                                       "other.py: "):
        read.make(Rules(2, 2, feedback="other.py"))
    assert not (evil_folder / "evil_ran").exists()


@pytest.fixture
def shared_tree(tmp_path, monkeypatch, run_json) -> Path:
    """A 3x3 minimax tree of a rule of one's own (examples/shared_colours.py, copied as shared.py), saved by the
    command line in the folder the tests run in (the tree names the rule shared.py)."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLES / "shared_colours.py", tmp_path / "shared.py")
    out = run_json("bench", *PY, "--pegs", 3, "--colors", 3, "--feedback", "shared.py", "--strategy", "minimax",
                   "--all", "--save-tree", "s.json")
    assert figures(out) == SHARED_3X3
    assert json.loads((tmp_path / "s.json").read_text())["rules"]["feedback"] == "shared.py"
    return tmp_path / "s.json"


def test_a_rule_file_tree_plays_and_sums_up_where_the_command_names_the_same_file(shared_tree, run, run_json):
    folder = shared_tree.parent
    for spelling in ("shared.py", "./shared.py", str(folder / "shared.py")):
        assert figures(run_json("tree", "s.json", "--feedback", spelling)) == SHARED_3X3
        played = run_json("bench", *PY, "--pegs", 3, "--colors", 3, "--feedback", spelling, "--strategy",
                          "tree:s.json", "--all")
        assert figures(played) == SHARED_3X3
    assert figures(run_json("bench", *PY, "--pegs", 3, "--colors", 3, "--feedback", "shared.py", "--strategy",
                            "tree:s.json", "--all", "--jobs", 2)) == SHARED_3X3
    drawn = run("tree", "s.json", "--feedback", "shared.py", "--dot", "--max-depth", 1)
    assert drawn.exit_code == 0 and drawn.stdout.startswith('digraph "minimax 3x3 feedback shared.py" {')
    one_line_error(run("tree", "s.json"), 2,
                   "s.json plays 3x3 feedback shared.py, a rule of your own that only --feedback loads: "
                   "give --feedback shared.py (the same file)", stdout="")
    one_line_error(run("tree", "s.json", "--feedback", "standard"), 2,
                   "s.json plays 3x3 feedback shared.py, not --feedback standard: give --feedback shared.py "
                   "(the same file)", stdout="")
    rule = (folder / "shared.py").read_bytes()
    one_line_error(run("tree", "s.json", "--feedback", "shared.py", "--png", "shared.py"), 2,
                   "--png and --feedback name the same file, shared.py", stdout="")
    assert (folder / "shared.py").read_bytes() == rule
    # A copy, even with the same bytes, is another file.
    shutil.copy(folder / "shared.py", folder / "copy.py")
    one_line_error(run("next", *PY, "--pegs", 3, "--colors", 3, "--feedback", "copy.py", "--strategy",
                       "tree:s.json"), 2,
                   "--strategy tree:s.json plays 3x3 feedback shared.py, not 3x3 feedback copy.py: give the tree's "
                   "rules options (--feedback shared.py, the same file)", stdout="")


def test_tree_takes_the_feedback_of_a_built_in_rule_tree(tmp_path, run, run_json):
    path = tmp_path / "t.json"
    path.write_text(json.dumps({**TREE_2X2, "rules": {**TREE_2X2["rules"], "feedback": "standard"}}))
    assert run_json("tree", path, "--feedback", "standard")["total_guesses"] == run_json("tree", path)[
        "total_guesses"] == 8
    one_line_error(run("tree", path, "--feedback", "black"), 2,
                   f"{path} plays 2x2, not --feedback black: give --feedback standard", stdout="")


# -- lies ---------------------------------------------------------------------------------------------------
@pytest.fixture
def truthful_tree(tmp_path) -> Path:
    path = tmp_path / "t.json"
    path.write_text(json.dumps({**TREE_2X2, "rules": {**TREE_2X2["rules"], "feedback": "standard"}}))
    return path


@pytest.mark.parametrize("command", [
    ["bench", *PY, *SIZE, "--all", "--lies", 1, "--liar", 1, "--seed", 1],
    ["bench", *PY, *SIZE, "--all", "--lies", 1, "--liar", "every"],
    ["bench", *PY, *SIZE, "--games", 5, "--lies", 2, "--seed", 1],
    ["solve", *PY, *SIZE, "--secret", "10", "--lies", 1, "--liar", 1],
    ["next", *PY, *SIZE, "--lies", 1],
    ["next", *PY, *SIZE, "--lies", 1, "00:1,0"],
    ["play", *PY, *SIZE, "--role", "codemaker", "--lies", 1],
])
def test_a_tree_with_lies_is_refused_before_any_game(run, truthful_tree, command):
    lies = command[command.index("--lies") + 1]
    one_line_error(run(*command, "--strategy", f"tree:{truthful_tree}", input="1,0\n"), 2,
                   f"--strategy tree:{truthful_tree} plays the answers of a game without lies; --lies {lies} does "
                   "not apply to a saved tree", stdout="")


def test_the_audits_knuth_bench_with_a_liar_is_refused_before_any_game(tmp_path, run):
    knuth = tmp_path / "knuth.json"
    assert run("bench", *PY, "--strategy", "minimax", "--all", "--save-tree", knuth).exit_code == 0
    one_line_error(run("bench", *PY, "--all", "--strategy", f"tree:{knuth}", "--lies", 1, "--liar", 1, "--seed", 1),
                   2, f"--strategy tree:{knuth} plays the answers of a game without lies; --lies 1 does not apply "
                      "to a saved tree", stdout="")


def test_a_tree_strategy_refuses_lies_in_the_library_too(truthful_tree):
    read = parse_strategy(f"tree:{truthful_tree}")
    message = "^" + re.escape(f"--strategy tree:{truthful_tree} plays the answers of a game without lies; --lies 1 ")
    with pytest.raises(BadInput, match=message):
        read.check(Rules(2, 2, lies=1))
    with pytest.raises(BadInput, match=message):
        TreeStrategy(Rules(2, 2, lies=1), read.tree)
    assert TreeStrategy(Rules(2, 2), read.tree).opening(None) == (0, 0)
