"""A file a command writes is never one it reads (issue 56): ``--out``, ``--csv``, ``--save-tree``, ``--journal``,
``--png`` and ``--plot`` naming the ``--feedback`` rule, the ``--encoding`` or a ``--strategy tree:FILE`` were
refused by nothing, and the input was replaced by the result, exit 0. Each case is exit 2, one line, nothing
printed, the input's bytes as they were."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from conftest import PY, ROOT, one_line_error, py_path

RULE = ROOT / "examples" / "shared_colours.py"
ENCODING = ROOT / "examples" / "palindrome.lp"
CLINGO = ["--backend", "clingo"]


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A folder of one's own, the current one: the files are named as a user types them (``myrule.py``)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def rule(here):
    shutil.copy(RULE, here / "myrule.py")
    return "myrule.py"


@pytest.fixture
def encoding(here):
    shutil.copy(ENCODING, here / "pal.lp")
    return "pal.lp"


@pytest.fixture
def tree(run, here):
    """A saved strategy tree of 3x3 (minimax, python): what ``--strategy tree:t.json`` plays."""
    assert run("bench", *PY, "--pegs", 3, "--colors", 3, "--all", "--save-tree", "t.json").exit_code == 0
    return "t.json"


def refused(result, message: str, here, name: str, before: bytes) -> None:
    """Exit 2 with the one line ``message``, nothing on stdout, and the file ``name`` untouched."""
    one_line_error(result, 2, message, stdout="")
    assert (here / name).read_bytes() == before


def test_bench_out_naming_the_rule_module_is_refused(run, here, rule):
    before = (here / rule).read_bytes()
    result = run("bench", *PY, "--pegs", 3, "--colors", 3, "--feedback", rule, "--all", "--out", rule)
    refused(result, "--out and --feedback name the same file, myrule.py", here, rule, before)


def test_bench_out_naming_the_encoding_is_refused(run, here, encoding):
    before = (here / encoding).read_bytes()
    result = run("bench", *CLINGO, "--pegs", 4, "--colors", 3, "--encoding", encoding, "--all", "--out", encoding)
    refused(result, "--out and --encoding name the same file, pal.lp", here, encoding, before)


def test_bench_every_lie_out_naming_the_rule_module_is_refused(run, here, rule):
    # --liar every writes --out on a path of its own, which the check of two outputs did not reach either.
    before = (here / rule).read_bytes()
    result = run("bench", *PY, "--pegs", 3, "--colors", 3, "--feedback", rule, "--lies", 1, "--liar", "every",
                 "--all", "--out", rule)
    refused(result, "--out and --feedback name the same file, myrule.py", here, rule, before)


@pytest.mark.parametrize("output", ["--out", "--save-tree"])
def test_bench_outputs_naming_the_tree_it_plays_are_refused(run, here, tree, output):
    before = (here / tree).read_bytes()
    result = run("bench", *PY, "--pegs", 3, "--colors", 3, "--strategy", f"tree:{tree}", "--all", output, tree)
    refused(result, f"{output} and --strategy tree:t.json name the same file, t.json", here, tree, before)


def test_a_link_to_the_input_is_the_same_file(run, here, rule):
    (here / "link.py").symlink_to(here / rule)
    before = (here / rule).read_bytes()
    result = run("bench", *PY, "--pegs", 3, "--colors", 3, "--feedback", rule, "--all", "--out", "link.py")
    refused(result, "--out and --feedback name the same file, link.py", here, rule, before)


@pytest.mark.parametrize("command, output", [
    (["bench", *PY, "--pegs", 2, "--colors", 3, "--all"], "--out"),
    (["compare", *PY, "--pegs", 2, "--colors", 3, "--strategy", "first", "--all"], "--csv"),
], ids=["bench", "compare"])
def test_a_hard_link_to_the_input_is_the_same_file(run, here, rule, command, output):
    # Another name of the same file, which no path shows: bench --out and compare --csv wrote over the rule
    # module they played, exit 0 (the fifth audit).
    (here / "hl.txt").hardlink_to(here / rule)
    before = (here / rule).read_bytes()
    result = run(*command, "--feedback", rule, output, "hl.txt")
    refused(result, f"{output} and --feedback name the same file, hl.txt", here, rule, before)


@pytest.mark.parametrize("output, message", [
    ("--csv", "--csv and --encoding name the same file, pal.lp"),
    ("--plot", "Invalid value for '--plot': Directory 'pal.lp' is a file.")], ids=["csv", "plot"])
def test_compare_output_naming_the_encoding_is_refused(run, here, encoding, output, message):
    before = (here / encoding).read_bytes()
    result = run("compare", *CLINGO, "--pegs", 4, "--colors", 3, "--encoding", encoding, "--strategy", "first",
                 "--all", output, encoding)
    refused(result, message, here, encoding, before)


@pytest.mark.parametrize("listed, option, named", [
    ("--strategy", "tree", "--strategy tree:t.json"), ("--feedback", "rule", "--feedback")], ids=["tree", "rule"])
def test_compare_csv_naming_a_file_of_its_lists_is_refused(run, here, request, listed, option, named):
    # A file among --strategy's or --feedback's comma-separated names.
    path = request.getfixturevalue(option)
    given = f"first,tree:{path}" if option == "tree" else f"standard, {path}"
    before = (here / path).read_bytes()
    result = run("compare", *PY, "--pegs", 3, "--colors", 3, listed, given, "--all", "--csv", path)
    refused(result, f"--csv and {named} name the same file, {path}", here, path, before)


def test_compare_plot_into_the_folder_of_a_png_tree_is_refused(run, here, tree):
    # The charts are PNG files written into the folder: a tree saved there as .png may be written over.
    (here / "charts").mkdir()
    shutil.move(here / tree, here / "charts" / "3x3-attempts.png")
    before = (here / "charts" / "3x3-attempts.png").read_bytes()
    result = run("compare", *PY, "--pegs", 3, "--colors", 3, "--strategy", "tree:charts/3x3-attempts.png",
                 "--all", "--plot", "charts")
    refused(result, "--plot may write a chart over --strategy tree:charts/3x3-attempts.png (the charts are the "
                    ".png files of charts)", here, "charts/3x3-attempts.png", before)
    assert sorted(p.name for p in (here / "charts").iterdir()) == ["3x3-attempts.png"]


def test_optimal_save_tree_naming_the_rule_module_is_refused(run, here, rule):
    before = (here / rule).read_bytes()
    result = run("optimal", "--pegs", 3, "--colors", 3, "--feedback", rule, "--save-tree", rule)
    refused(result, "--save-tree and --feedback name the same file, myrule.py", here, rule, before)


def test_optimal_journal_naming_the_encoding_is_refused(run, here, encoding):
    before = (here / encoding).read_bytes()
    result = run("optimal", "--pegs", 4, "--colors", 3, "--encoding", encoding, "--journal", encoding)
    refused(result, "--journal and --encoding name the same file, pal.lp", here, encoding, before)


def test_optimal_journal_with_a_tree_of_its_own_still_resumes(run, here):
    # The journal is read and written, as it was: only a file the command reads as something else is refused.
    assert run("optimal", "--pegs", 2, "--colors", 3, "--journal", "j.jsonl").exit_code == 0
    again = run("optimal", "--pegs", 2, "--colors", 3, "--journal", "j.jsonl", "--json")
    assert again.exit_code == 0, again.output


def test_sweep_out_naming_the_rule_module_is_refused(run, here, rule):
    before = (here / rule).read_bytes()
    result = run("sweep", "--sizes", "3x3", "--feedback", rule, "--strategy", "minimax", "--out", rule)
    refused(result, "--out and --feedback name the same file, myrule.py", here, rule, before)


def test_openings_out_naming_the_encoding_is_refused(run, here, encoding):
    before = (here / encoding).read_bytes()
    result = run("openings", "--pegs", 4, "--colors", 3, "--encoding", encoding, "--backend", "clingo",
                 "--out", encoding)
    refused(result, "--out and --encoding name the same file, pal.lp", here, encoding, before)


def test_tree_png_naming_the_tree_is_refused(run, here, tree):
    before = (here / tree).read_bytes()
    result = run("tree", tree, "--png", tree)
    refused(result, "--png and FILE name the same file, t.json", here, tree, before)


@pytest.mark.parametrize("args, message", [
    (["--replot", "rows.json", "--plot", "rows.json"], "--plot and --replot name the same file, rows.json"),
    (["--sizes", "4x3", "--games", 1, "--ks", 5, "--json", "rows.json", "--plot", "rows.json"],
     "--json and --plot name the same file, rows.json"),
])
def test_sample_returns_chart_over_its_rows_is_refused(here, args, message):
    rows = here / "rows.json"
    rows.write_text("[]\n")
    done = subprocess.run([sys.executable, str(py_path("sample_returns")), *map(str, args)], capture_output=True,
                          text=True, timeout=120, cwd=here)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: {message}\n")
    assert rows.read_text() == "[]\n"
