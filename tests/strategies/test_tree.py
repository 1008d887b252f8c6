"""Strategy trees (issue 16): saved by ``bench --all --save-tree``, played back by ``--strategy tree:FILE``
on every backend with the saving strategy's exact figures, summed up and drawn by ``mmlogic tree``."""

from __future__ import annotations

import itertools
import json
import os
import stat
from collections import Counter
from pathlib import Path

import pytest

from mm_logic.engines import make_engine
from mm_logic.rules import Rules
from mm_logic.strategies import STRATEGIES, TreeStrategy, make_strategy, parse_strategy
from mm_logic.strategies.tree import StrategyTree, TreeNode, to_dot, write_atomically
from mm_logic.studies.bench import bench_all
from mm_logic.support.errors import BadInput

from conftest import PY, one_line_error
from generators import brute_feedback, contract_pick

KNUTH = {"games": 1296, "total_guesses": 5801, "mean": 4.476, "max": 5,
         "histogram": {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}}
#: 2x2 minimax: 00, then 11 on 0,0 or 01 on 1,0, then 10.
TREE_2X2 = {"format": "mmlogic-tree", "version": 1,
            "rules": {"pegs": 2, "colors": 2, "max_repeat": None, "feedback": "standard"}, "alphabet": "01",
            "strategy": "minimax", "seed": None, "backend": "python", "first_guess": None,
            "tree": {"guess": "00", "next": {"0,0": {"guess": "11"},
                                             "1,0": {"guess": "01", "next": {"0,2": {"guess": "10"}}}}}}


def naive_bench(pegs: int, colors: int, rank) -> tuple[int, dict[str, int]]:
    """Total guesses and histogram of a scoring strategy over every secret, by brute force (the feedback
    rule's textbook definition, not the package's kernels): every code a guess, ranked by ``rank`` of its
    part sizes, ties to a consistent code, then the smallest."""
    codes = list(itertools.product(range(colors), repeat=pegs))
    histogram = Counter()
    for secret in codes:
        alive, turns = codes, 1
        while (guess := contract_pick(codes, alive, rank)) != secret:
            answer = brute_feedback(guess, secret)
            alive, turns = [code for code in alive if brute_feedback(guess, code) == answer], turns + 1
        histogram[str(turns)] += 1
    return sum(int(k) * v for k, v in histogram.items()), dict(sorted(histogram.items()))


def figures(out: dict) -> dict:
    return {k: out[k] for k in ("games", "total_guesses", "mean", "max", "histogram")}


@pytest.fixture(scope="module")
def knuth(tmp_path_factory) -> Path:
    """Knuth's tree (minimax, 4x6), saved by the command line."""
    from click.testing import CliRunner

    from mm_logic.cli import cli
    path = tmp_path_factory.mktemp("trees") / "knuth.json"
    result = CliRunner().invoke(cli, ["bench", *PY, "--strategy", "minimax", "--all", "--save-tree", str(path),
                                      "--json"])
    assert result.exit_code == 0, result.stderr
    assert figures(json.loads(result.stdout)) == KNUTH
    return path


def write_tree(path: Path, data: dict) -> Path:
    path.write_text(json.dumps(data))
    return path


# -- recording ---------------------------------------------------------------------------------
def test_a_recorded_tree_has_the_figures_of_its_bench():
    rules = Rules()
    strategy = make_strategy("minimax", rules)
    result = bench_all(make_engine("python", rules), strategy, record_tree=True)
    tree = result.strategy_tree(strategy)
    assert tree.root.guess == (0, 0, 1, 1) and tree.root.children[(0, 0)].guess == (2, 2, 3, 4)
    assert figures(tree.figures().as_dict()) == figures(result.figures()) == KNUTH
    assert tree.figures().nodes == 1378 and tree.figures().uncovered == 0


def test_a_bench_without_record_keeps_no_tree():
    rules = Rules(3, 3)
    assert bench_all(make_engine("python", rules), make_strategy("minimax", rules)).tree is None


def test_the_file_names_rules_strategy_and_the_tree_in_the_notation(run, tmp_path):
    path = tmp_path / "t.json"
    assert run("bench", *PY, "--pegs", 2, "--colors", 2, "--all", "--save-tree", path).exit_code == 0
    assert json.loads(path.read_text()) == TREE_2X2
    assert path.read_text().endswith("}\n")


def test_a_file_saved_before_the_rules_named_their_feedback_plays_the_standard_rule(run, run_json, tmp_path):
    # Files saved before every rules object named its feedback rule have none: they are standard trees.
    path = write_tree(tmp_path / "old.json", {**TREE_2X2, "rules": {"pegs": 2, "colors": 2, "max_repeat": None}})
    assert StrategyTree.load(path).rules == Rules(2, 2, alphabet="01")
    assert run_json("tree", path) == {"rules": {"pegs": 2, "colors": 2, "max_repeat": None, "feedback": "standard"},
                                      "strategy": "minimax", "seed": None, "backend": "python", "opening": "00",
                                      "games": 4, "total_guesses": 8, "mean": 2.0, "max": 3,
                                      "histogram": {"1": 1, "2": 2, "3": 1}, "nodes": 4, "uncovered": 0}
    played = run_json("bench", *PY, "--pegs", 2, "--colors", 2, "--strategy", f"tree:{path}", "--all")
    assert (played["total_guesses"], played["histogram"]) == (8, {"1": 1, "2": 2, "3": 1})
    one_line_error(run("next", *PY, "--pegs", 2, "--colors", 2, "--feedback", "black", "--strategy", f"tree:{path}"),
                   2, f"--strategy tree:{path} plays 2x2, not 2x2 black-peg: give the tree's rules options")


def test_jobs_save_the_same_tree_as_one_job(run, tmp_path, knuth):
    path = tmp_path / "jobs.json"
    result = run("bench", *PY, "--strategy", "minimax", "--all", "--jobs", 2, "--save-tree", path, "--json")
    assert figures(json.loads(result.stdout)) == KNUTH
    assert path.read_text() == knuth.read_text()


def test_a_seeded_strategy_saves_its_seed_and_plays_back_alike(run, run_json, tmp_path):
    path = tmp_path / "random.json"
    saved = run_json("bench", *PY, "--strategy", "random", "--seed", 7, "--pegs", 3, "--colors", 4, "--all",
                     "--save-tree", path)
    assert json.loads(path.read_text())["seed"] == 7
    played = run_json("bench", *PY, "--strategy", f"tree:{path}", "--pegs", 3, "--colors", 4, "--all")
    assert figures(played) == figures(saved)


# -- playing back ----------------------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["python", "clingo"])
def test_knuth_tree_plays_5801_on_every_backend(run_json, knuth, backend):
    out = run_json("bench", "--backend", backend, "--strategy", f"tree:{knuth}", "--all")
    assert figures(out) == KNUTH
    assert (out["backend"], out["strategy"]) == (backend, f"tree:{knuth}")


@pytest.mark.parametrize("strategy, total, histogram", [
    ("first", 7471, {"1": 1, "2": 4, "3": 25, "4": 108, "5": 305, "6": 602, "7": 196, "8": 49, "9": 6}),
    ("parts", 5668, {"1": 1, "2": 12, "3": 72, "4": 635, "5": 569, "6": 7}),
])
def test_other_strategies_trees_play_back_exactly_on_clingo(run_json, tmp_path, strategy, total, histogram):
    path = tmp_path / f"{strategy}.json"
    saved = run_json("bench", *PY, "--strategy", strategy, "--all", "--save-tree", path)
    played = run_json("bench", "--backend", "clingo", "--strategy", f"tree:{path}", "--all")
    assert (played["total_guesses"], played["histogram"]) == (saved["total_guesses"], saved["histogram"]) \
        == (total, histogram)


def test_a_tree_plays_back_on_swipl(run_json, tmp_path):
    path = tmp_path / "3x3.json"
    saved = run_json("bench", *PY, "--strategy", "expected", "--pegs", 3, "--colors", 3, "--all",
                     "--save-tree", path)
    played = run_json("bench", "--backend", "swipl", "--strategy", f"tree:{path}", "--pegs", 3, "--colors", 3,
                      "--all")
    assert figures(played) == figures(saved) == {"games": 27, "total_guesses": 73, "mean": 2.704, "max": 4,
                                                 "histogram": {"1": 1, "2": 7, "3": 18, "4": 1}}
    # Irving's expected size ranks by the sum of the squared part sizes.
    assert naive_bench(3, 3, lambda sizes: sum(size * size for size in sizes)) == (73, saved["histogram"])


def test_compare_finds_every_secret_alike_across_backends_and_the_saving_strategy(run_json, tmp_path):
    path = tmp_path / "3x4.json"
    rules = ["--pegs", 3, "--colors", 4]
    run_json("bench", *PY, *rules, "--strategy", "minimax", "--all", "--save-tree", path)
    out = run_json("compare", *rules, "--backend", "python,clingo,swipl", "--strategy", f"tree:{path},minimax",
                   "--all")
    assert out["disagreements"] == []
    assert [(row["backend"], row["strategy"], row["total_guesses"], row["histogram"]) for row in out["rows"]] == [
        (backend, strategy, 216, {"1": 1, "2": 3, "3": 31, "4": 29})
        for strategy in (f"tree:{path}", "minimax") for backend in ("python", "clingo", "swipl")]
    assert naive_bench(3, 4, max) == (216, out["rows"][0]["histogram"])


@pytest.mark.parametrize("backend", ["python", "clingo", "swipl"])
def test_solve_and_next_follow_the_tree(run, run_json, knuth, backend):
    strategy = ["--backend", backend, "--strategy", f"tree:{knuth}"]
    played, knuths = run_json("solve", *strategy, "--secret", "0123"), run_json("solve", *PY, "--secret", "0123")
    assert isinstance(played.pop("seconds"), float) and isinstance(knuths.pop("seconds"), float)
    assert played == {**knuths, "backend": backend, "strategy": f"tree:{knuth}"}
    assert run_json("next", *strategy, "0011:1,0") == {"guess": "0233", "consistent": 256}
    assert run_json("next", *strategy) == {"guess": "0011", "consistent": 1296}


def test_play_as_codemaker_follows_the_tree(run, tmp_path):
    path = write_tree(tmp_path / "t.json", TREE_2X2)
    result = run("play", *PY, "--pegs", 2, "--colors", 2, "--role", "codemaker", "--strategy", f"tree:{path}",
                 input="1,0\n0,2\n2,0\n")
    assert result.exit_code == 0
    assert [line.split(":")[1].split()[0] for line in result.stderr.splitlines() if line.startswith("guess ")] \
        == ["00", "01", "10"]
    assert result.stdout.splitlines()[-1] == "found your code in 3 guesses"


def test_a_probing_strategy_tree_keeps_its_probes_in_next(run, run_json, tmp_path):
    path = tmp_path / "human1.json"
    rules = ["--pegs", 3, "--colors", 4, "--no-repeat"]
    saved = run_json("bench", *PY, *rules, "--strategy", "human1", "--all", "--save-tree", path)
    assert json.loads(path.read_text())["tree"]["guess"] == "000"
    assert figures(run_json("bench", "--backend", "clingo", *rules, "--strategy", f"tree:{path}", "--all")) \
        == figures(saved)
    assert run_json("next", *PY, *rules, "--strategy", f"tree:{path}", "000:1,0") \
        == run_json("next", *PY, *rules, "--strategy", "human1", "000:1,0")


def test_a_tree_is_played_in_bench_workers(run_json, knuth):
    # The workers get the tree with their task: they read no file.
    out = run_json("bench", *PY, "--strategy", f"tree:{knuth}", "--all", "--jobs", 2)
    assert figures(out) == KNUTH


# -- refusals, each one line ------------------------------------------------------------------------
def test_save_tree_refusals_come_before_any_game(run, tmp_path):
    path = tmp_path / "t.json"
    one_line_error(run("bench", *PY, "--games", 3, "--save-tree", path), 2,
                   "--save-tree needs --all: a strategy's tree covers every secret")
    one_line_error(run("bench", *PY, "--all", "--strategy", "any", "--save-tree", path), 2,
                   "--save-tree: --strategy any is not deterministic (its guess is not a function of the history "
                   "alone), so it has no tree to save")
    one_line_error(run("bench", *PY, "--all", "--server", "http://127.0.0.1:9", "--save-tree", path), 2,
                   "--save-tree does not apply with --server (each game is played against the server)")
    one_line_error(run("bench", *PY, "--all", "--save-tree", "/proc/x/t.json"), 2,
                   "Invalid value for '--save-tree': cannot write /proc/x/t.json (No such file or directory)")
    assert not path.exists()


@pytest.mark.parametrize("content, message", [
    (None, "cannot read tree file {path}: No such file or directory"),
    ("{", "{path} is not a strategy tree file (not JSON: Expecting property name enclosed in double quotes "
          "at line 1)"),
    ('{"rows": []}', '{path} is not a strategy tree file (no "format": "mmlogic-tree")'),
    ({**TREE_2X2, "version": 2}, "{path} is tree format version 2; this mmlogic reads version 1"),
    ({**TREE_2X2, "version": "1"}, '{path} is tree format version "1"; this mmlogic reads version 1'),
    # true and 1.0 were read as version 1 (Python's == takes them for 1).
    ({**TREE_2X2, "version": True}, "{path} is tree format version true; this mmlogic reads version 1"),
    ({**TREE_2X2, "version": 1.0}, "{path} is tree format version 1.0; this mmlogic reads version 1"),
    ("[" * 3000 + "]" * 3000, "{path} is not a strategy tree file (not JSON: nested too deeply)"),
    ({**TREE_2X2, "rules": {"pegs": 2}},
     '{path}: "rules" must be {{"pegs": P, "colors": C, "max_repeat": M or null}} and an optional "feedback": RULE'),
    ({**TREE_2X2, "rules": {"pegs": 2, "colors": 2, "max_repeat": None, "feedback": None}},
     '{path}: "rules" must be {{"pegs": P, "colors": C, "max_repeat": M or null}} and an optional "feedback": RULE'),
    ({**TREE_2X2, "tree": {"guess": "00", "next": {"1,0": {"guess": "011"}}}},
     "{path}: code '011' has 3 pegs, expected 2 (at 00:1,0)"),
    ({**TREE_2X2, "tree": {"guess": "00", "next": {"3,0": {"guess": "01"}}}},
     "{path}: feedback 3,0 in '00:3,0': black + white exceeds the 2 pegs"),
    ({**TREE_2X2, "tree": {"guess": "00", "next": {"2,0": {"guess": "01"}}}},
     "{path}: the winning feedback 2,0 has no branch (at the root)"),
])
def test_a_bad_tree_file_is_one_line(run, tmp_path, content, message):
    path = tmp_path / "t.json"
    if content is not None:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    expected = message.format(path=path)
    one_line_error(run("tree", path), 2, expected)
    one_line_error(run("next", *PY, "--pegs", 2, "--colors", 2, "--strategy", f"tree:{path}"), 2,
                   f"Invalid value for '--strategy': {expected}")


def test_playing_a_tree_refuses_other_rules_openings_and_histories(run, knuth):
    tree = f"tree:{knuth}"
    one_line_error(run("bench", *PY, "--strategy", tree, "--pegs", 5, "--all"), 2,
                   f"--strategy {tree} plays 4x6, not 5x6: give the tree's rules options")
    one_line_error(run("solve", *PY, "--strategy", tree, "--first-guess", "0123"), 2,
                   f"--first-guess 0123: --strategy {tree} opens with 0011")
    one_line_error(run("next", *PY, "--strategy", tree, "0012:1,0"), 2,
                   f"--strategy {tree}: history entry 1 (0012) is not the tree's guess (0011)")
    assert run("solve", *PY, "--strategy", tree, "--first-guess", "0011", "--secret", "0011").exit_code == 0


def test_a_history_the_tree_does_not_cover_is_one_line(run, tmp_path):
    partial = {**TREE_2X2, "tree": {"guess": "00", "next": {"0,0": {"guess": "11"}}}}
    path = write_tree(tmp_path / "t.json", partial)
    one_line_error(run("next", *PY, "--pegs", 2, "--colors", 2, "--strategy", f"tree:{path}", "00:1,0"), 2,
                   f"--strategy tree:{path} has no branch for history entry 1 (00:1,0): the tree does not cover "
                   "this history")
    one_line_error(run("bench", *PY, "--pegs", 2, "--colors", 2, "--strategy", f"tree:{path}", "--all"), 2,
                   f"--strategy tree:{path} has no branch for history entry 1 (00:1,0): the tree does not cover "
                   "this history")


def test_only_the_command_line_opens_tree_files(tmp_path):
    # A server reads a request's strategy name without files, and make_strategy reads none: neither reads one.
    path = write_tree(tmp_path / "t.json", TREE_2X2)
    name = f"tree:{path}"
    for refused in (lambda: make_strategy(name, Rules(2, 2)), lambda: parse_strategy(name, files=False)):
        with pytest.raises(BadInput, match=f"unknown strategy '{name}'"):
            refused()
    read = parse_strategy(name)
    assert (read.name, read.cls, read.tree.root.guess) == (name, TreeStrategy, (0, 0))
    assert make_strategy(read, Rules(2, 2)).choose(make_engine("python", Rules(2, 2)).session()) == (0, 0)
    # No registry: reading a tree leaves the table of names as it was, and a name alone still plays nothing.
    assert name not in STRATEGIES and list(STRATEGIES)[-1] == "sample-entropy"
    with pytest.raises(BadInput, match=f"unknown strategy '{name}'"):
        make_strategy(name, Rules(2, 2))


def test_sweep_does_not_take_trees(run, knuth):
    result = run("sweep", "--strategy", f"tree:{knuth}")
    assert result.exit_code == 2 and result.stderr.startswith(f"error: unknown strategy 'tree:{knuth}'; choose from")


# -- files are written whole -------------------------------------------------------------------------
def test_an_interrupted_save_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "t.json"
    target.write_text("old\n")

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, "new\n")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]


def test_a_saved_file_gets_the_usual_permissions(tmp_path):
    target = tmp_path / "t.json"
    StrategyTree(Rules(2, 2), TreeNode((0, 0))).save(target)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


# -- mmlogic tree ---------------------------------------------------------------------------------------
def test_tree_summary_text_and_json(run, run_json, knuth):
    result = run("tree", knuth)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "rules      4x6", "strategy   minimax (backend python)", "opening    0011", "games      1296",
        "total      5801", "mean       4.476", "max        5", "histogram  1:1 2:6 3:62 4:533 5:694",
        "nodes      1378"]
    assert run_json("tree", knuth) == {"rules": {"pegs": 4, "colors": 6, "max_repeat": None, "feedback": "standard"},
                                       "strategy": "minimax", "seed": None, "backend": "python",
                                       "opening": "0011", **KNUTH, "nodes": 1378, "uncovered": 0}


DOT_2X2 = """digraph "minimax 2x2" {
  graph [rankdir=LR, nodesep=0.08, ranksep=0.6];
  node [shape=box, fontname="Helvetica", fontsize=11, margin="0.06,0.03", height=0.3];
  edge [fontname="Helvetica", fontsize=9, arrowsize=0.5];
  n0 [label="00\\n4 codes", peripheries=2];
  n1 [label="11", peripheries=2, style=filled, fillcolor="#dcefdc"];
  n0 -> n1 [label="0,0"];
  n2 [label="01\\n2 codes", peripheries=2];
  n0 -> n2 [label="1,0"];
  n3 [label="10", peripheries=2, style=filled, fillcolor="#dcefdc"];
  n2 -> n3 [label="0,2"];
}
"""


def test_tree_dot_draws_a_box_per_guess_and_an_edge_per_feedback(run, tmp_path):
    path = write_tree(tmp_path / "t.json", TREE_2X2)
    result = run("tree", path, "--dot")
    assert (result.exit_code, result.stdout) == (0, DOT_2X2)
    cut = run("tree", path, "--dot", "--max-depth", 1).stdout.splitlines()
    assert cut[4:] == ['  n0 [label="00\\n4 codes", peripheries=2];',
                       '  n1 [label="1 code", style=dashed];', '  n0 -> n1 [label="0,0"];',
                       '  n2 [label="2 codes", style=dashed];', '  n0 -> n2 [label="1,0"];', "}"]


def test_an_incomplete_tree_counts_and_draws_the_secrets_it_misses(run, run_json, tmp_path):
    partial = {**TREE_2X2, "tree": {"guess": "00", "next": {"1,0": TREE_2X2["tree"]["next"]["1,0"]}}}
    path = write_tree(tmp_path / "t.json", partial)
    out = run_json("tree", path)
    assert (out["games"], out["histogram"], out["uncovered"]) == (3, {"1": 1, "2": 1, "3": 1}, 1)
    assert "uncovered  1 secret (the tree has no branch for their feedback)" in run("tree", path).stdout.splitlines()
    dot = to_dot(StrategyTree.load(path))
    assert '  n0m [label="1 code: no branch", color=red, fontcolor=red];' in dot.splitlines()


def test_tree_option_mistakes_are_one_line(run, knuth):
    one_line_error(run("tree", knuth, "--dot", "--json"), 2, "give --dot or --json, not both")
    one_line_error(run("tree", knuth, "--max-depth", 2), 2, "--max-depth applies to the drawings (--dot, --png)")


def test_png_without_graphviz_is_one_line_before_reading(run, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    one_line_error(run("tree", tmp_path / "missing.json", "--png", tmp_path / "t.png"), 2,
                   "--png needs Graphviz's dot program on PATH (apt-get install graphviz, brew install graphviz); "
                   "--dot prints the DOT text without it")


def fake_dot(folder: Path, script: str) -> None:
    """A stand-in for Graphviz's dot on PATH (the tests do not need Graphviz)."""
    folder.mkdir()
    program = folder / "dot"
    program.write_text("#!/bin/sh\n" + script)
    program.chmod(0o755)


def test_png_is_drawn_by_dot_from_the_dot_text(run, tmp_path, monkeypatch):
    # The stand-in writes "PNG" and the DOT it reads into the file after -o.
    fake_dot(tmp_path / "bin", 'while [ "$1" != "-o" ]; do shift; done\n{ echo PNG; cat; } > "$2"\n')
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    path = write_tree(tmp_path / "t.json", TREE_2X2)
    result = run("tree", path, "--png", tmp_path / "t.png", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["total_guesses"] == 8
    assert (tmp_path / "t.png").read_text() == "PNG\n" + DOT_2X2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bin", "t.json", "t.png"]


def test_a_failing_dot_is_one_line_and_leaves_no_file(run, tmp_path, monkeypatch):
    fake_dot(tmp_path / "bin", 'echo "Warning: something" >&2\necho "Error: syntax error in line 1" >&2\nexit 1\n')
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    path = write_tree(tmp_path / "t.json", TREE_2X2)
    one_line_error(run("tree", path, "--png", tmp_path / "t.png"), 1,
                   "dot could not draw the tree: Error: syntax error in line 1")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bin", "t.json"]


def test_a_tree_read_under_another_alphabet_keeps_its_colours(run_json, tmp_path):
    path = write_tree(tmp_path / "t.json", TREE_2X2)
    assert run_json("next", *PY, "--pegs", 2, "--colors", 2, "--alphabet", "ab", "--strategy", f"tree:{path}",
                    "aa:1,0") == {"guess": "ab", "consistent": 2}


def test_a_tree_bench_warms_up_untimed_as_the_other_strategies(monkeypatch, tmp_path):
    # A tree is for its own rules, so the 2x3 warm-up could not play it and was skipped: the first
    # game then paid for loading the walk's compiled kernels (0.15 s of a 0.001 s game in `seconds`).
    import mm_logic.studies.bench as bench
    played = []
    monkeypatch.setattr(bench, "bench_all", lambda engine, strategy, **_: played.append(
        (engine.name, engine.rules.describe(), strategy.name)))
    bench.warm_up("python", f"tree:{tmp_path / 'knuth.json'}")
    bench.warm_up("clingo", "minimax")
    assert played == [("python", "2x3", "first"), ("clingo", "2x3", "minimax")]
