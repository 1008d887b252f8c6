"""The scripts under py/ refuse bad input in one line and a non-zero exit, before any work.

Each case runs a script as a subprocess with a bad argument that must be
refused before a game is played (so each takes about a second), and checks
the last line of stderr, that stdout is empty and the exit code. The argument
types and :func:`~mm_logic.support.scripting.run` of ``mm_logic/support/scripting.py`` are
tested on their own below.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from mm_logic.support.errors import BadInput, MMLogicError, NoConsistentCode
from mm_logic.support.scripting import count, natural, output_file, output_folder, positive_seconds, run

from conftest import ROOT, py_path, py_script


def script(name: str, *args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(py_path(name)), *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


@pytest.mark.parametrize(("name", "args", "last_line", "code"), [
    # argparse refuses a bad value of a type of mm_logic.support.scripting (usage line first, exit 2).
    ("clingo_speed.py", ["--games", "0"], "clingo_speed.py: error: argument --games: '0' is not a count "
                                          "(an integer >= 1)", 2),
    ("clingo_speed.py", ["--seed", "-1"], "clingo_speed.py: error: argument --seed: '-1' is not a natural number "
                                          "(an integer >= 0)", 2),
    ("serve_load.py", ["--max-seconds", "nan"], "serve_load.py: error: argument --max-seconds: 'nan' is not a "
                                                "number of seconds (finite, > 0)", 2),
    ("sample_returns.py", ["--ks", "1,abc"], "sample_returns.py: error: argument --ks: 'abc' is not an integer", 2),
    ("sample_returns.py", ["--json", "/nonexistent-dir/x.json"],
     "sample_returns.py: error: argument --json: cannot write /nonexistent-dir/x.json: no folder '/nonexistent-dir'",
     2),
    # The package's errors, one line through run().
    ("sample_returns.py", ["--sizes", "4by4"], "error: --sizes: '4by4' is not PEGSxCOLORS (e.g. 4x6, 4x2-10, 5-6x6)",
     2),
    ("sample_returns.py", ["--replot", "/nonexistent.json"],
     "error: --replot: cannot read /nonexistent.json: no such file or directory", 2),
    ("sample_returns.py", ["--replot", str(ROOT / "pyproject.toml")],
     f"error: --replot: {ROOT / 'pyproject.toml'} is not the JSON rows of an earlier run (--json)", 2),
    ("greedy_ceiling.py", ["--pegs", "0"], "error: --pegs must be between 1 and 64, got 0", 2),
    ("optimal_dask_workers.py", ["--workers", "1", "0"], "optimal_dask_workers.py: error: argument --workers: '0' "
                                                         "is not a count (an integer >= 1)", 2),
    ("optimal_dask_workers.py", ["--colors", "300"], "error: --colors must be between 1 and 255, got 300", 2),
    ("seed003_openings.py", ["--backend", "nope"],
     "error: unknown backend 'nope'; choose from clingo, swipl, python, a1, a2, a3, a4, a5", 2),
    ("seed003_openings.py", ["--seed", "-1"], "seed003_openings.py: error: argument --seed: '-1' is not a natural "
                                              "number (an integer >= 0)", 2),
    ("z3_baseline.py", ["--spaced", "10", "--offset", "20", "--skip-z3"],
     "error: --offset 20 leaves none of the 10 spaced secrets (it must be below --spaced)", 2),
    ("endgame_30x30.py", ["--player", "drift:x"], "error: --player 'drift:x': drift:R needs R a number of pegs "
                                                  "from 0 to 30", 2),
    ("serve_load.py", ["--url", "ftp://127.0.0.1:8000"],
     "error: --url must be a server's address such as http://127.0.0.1:8000, not 'ftp://127.0.0.1:8000'", 2),
    ("serve_load.py", ["--url", "http://8.8.8.8:80"],
     "error: --url must be a loopback address (127.0.0.1, ::1, localhost), not 'http://8.8.8.8:80'", 2),
    ("serve_load.py", ["--url", "http://127.0.0.1:9"],
     "error: cannot reach the mmlogic server at http://127.0.0.1:9: Connection refused", 1),
    ("benchmarks.py", ["--beside", "/nonexistent"],
     "error: --beside /nonexistent is not a checkout of mmlogic (no mm_logic/__init__.py or pyproject.toml)", 2),
    ("cpp_peer.py", ["--source", str(ROOT / "py")],
     f"error: --source {ROOT / 'py'} is not a checkout of mikemag/Mastermind (no main.cpp, CMakeLists.txt, "
     "utils.cpp)", 2),
])
def test_bad_input_is_one_line_before_any_work(name, args, last_line, code, tmp_path):
    result = script(name, *args, cwd=tmp_path)
    assert (result.returncode, result.stderr.splitlines()[-1:], result.stdout) == (code, [last_line], "")
    assert "Traceback" not in result.stderr
    if last_line.startswith("error: "):
        assert result.stderr == last_line + "\n"


def test_a_bad_case_is_refused_before_the_table(tmp_path):
    source = tmp_path / "Mastermind"
    source.mkdir()
    for name in ("main.cpp", "CMakeLists.txt", "utils.cpp"):
        (source / name).write_text("")
    result = script("cpp_peer.py", "--source", str(source), "--case", "4x6:bogus", "--build", str(tmp_path / "b"))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "error: --case '4x6:bogus': expected PxC:ALGO with ALGO one of knuth, parts, expected, " \
                            "entropy\n"
    assert not (tmp_path / "b").exists()



def mastermind_source(folder, main_cpp: str):
    """A stand-in checkout of mikemag/Mastermind: the text the recipe edits, and ``main_cpp``."""
    folder.mkdir()
    (folder / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.25.2)\n"
        "FetchContent_Declare(json URL https://github.com/nlohmann/json/releases/download/v3.10.5/json.tar.xz)\n"
        "FetchContent_MakeAvailable(json)\n")
    (folder / "utils.cpp").write_text("#if __linux__\n#include <libcpuid.h>\n#endif\n"
                                      "#if __linux__\n  struct cpu_raw_data_t raw {};\n#endif\n")
    (folder / "main.cpp").write_text(main_cpp)
    return folder


@pytest.mark.parametrize(("edit", "message"), [
    # Another version: a file the recipe edits lacks the recipe's text (it said so with exit 1, after the table's
    # header and with the first case's build folder made).
    (lambda source: (source / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.10)\n"),
     "its CMakeLists.txt does not contain the recipe's 'cmake_minimum_required(VERSION 3.25.2)' once"),
    (lambda source: None, "its main.cpp has no 'using SingleGameAlgo = [\\\\w:]+;'"),
])
def test_a_checkout_of_another_version_is_bad_input_before_the_table(tmp_path, edit, message):
    source = mastermind_source(tmp_path / "Mastermind", "int main() {}\n")
    edit(source)
    result = script("cpp_peer.py", "--source", str(source), "--case", "4x6:knuth", "--build", str(tmp_path / "b"))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"error: --source {source}: {message}: not the version of mikemag/Mastermind the " \
                            "recipe was written for\n"
    assert not (tmp_path / "b").exists()


# -- the argument types ---------------------------------------------------------------------------------

def test_count_is_an_integer_from_one():
    assert count("1") == 1 and count("12") == 12
    for text, message in [("0", "'0' is not a count (an integer >= 1)"),
                          ("-3", "'-3' is not a count (an integer >= 1)"),
                          ("1.5", "'1.5' is not an integer"), ("", "'' is not an integer")]:
        with pytest.raises(argparse.ArgumentTypeError) as error:
            count(text)
        assert str(error.value) == message


def test_natural_is_an_integer_from_zero():
    assert natural("0") == 0 and natural("7") == 7
    with pytest.raises(argparse.ArgumentTypeError, match=r"^'-1' is not a natural number \(an integer >= 0\)$"):
        natural("-1")
    with pytest.raises(argparse.ArgumentTypeError, match=r"^'x' is not an integer$"):
        natural("x")


def test_positive_seconds_are_finite_and_above_zero():
    assert positive_seconds("0.25") == 0.25 and positive_seconds("300") == 300.0
    for text in ("0", "-1", "nan", "inf", "-inf", "soon"):
        with pytest.raises(argparse.ArgumentTypeError) as error:
            positive_seconds(text)
        assert str(error.value) == f"{text!r} is not a number of seconds (finite, > 0)"


def test_output_file_needs_a_writable_folder_and_creates_nothing(tmp_path):
    target = tmp_path / "out.json"
    assert output_file(str(target)) == target and not target.exists()
    for text, message in [(str(tmp_path / "no" / "x.json"), f"cannot write {tmp_path}/no/x.json: no folder "
                                                               f"'{tmp_path}/no'"),
                          (str(tmp_path), f"'{tmp_path}' is a folder, not a file name"),
                          ("", "an empty file name")]:
        with pytest.raises(argparse.ArgumentTypeError) as error:
            output_file(text)
        assert str(error.value) == message


def test_output_folder_may_be_made_later_but_not_under_a_file(tmp_path):
    assert output_folder(str(tmp_path / "a" / "b")) == tmp_path / "a" / "b"
    assert not (tmp_path / "a").exists()
    (tmp_path / "f").write_text("")
    with pytest.raises(argparse.ArgumentTypeError) as error:
        output_folder(str(tmp_path / "f" / "charts"))
    assert str(error.value) == f"cannot write into {tmp_path}/f/charts: '{tmp_path}/f' is a file"


# -- run() ----------------------------------------------------------------------------------------------

def exit_of(main, capsys) -> tuple[int, str]:
    with pytest.raises(SystemExit) as stop:
        run(main)
    return stop.value.code, capsys.readouterr().err


def failing(error: BaseException):
    def main():
        raise error
    return main


def test_run_exits_with_mains_value(capsys):
    assert exit_of(lambda: None, capsys) == (0, "")
    assert exit_of(lambda: 1, capsys) == (1, "")


def test_run_turns_errors_into_one_line(capsys):
    assert exit_of(failing(BadInput("--games: no")), capsys) == (2, "error: --games: no\n")
    assert exit_of(failing(MMLogicError("it broke\n  here")), capsys) == (1, "error: it broke here\n")
    assert exit_of(failing(NoConsistentCode("none")), capsys) == (3, "error: none\n")
    assert exit_of(failing(FileNotFoundError(2, "No such file or directory", "/x.json")), capsys) == \
        (1, "error: /x.json: no such file or directory\n")
    assert exit_of(failing(ConnectionRefusedError(111, "Connection refused")), capsys) == \
        (1, "error: connection refused\n")
    assert exit_of(failing(KeyboardInterrupt()), capsys) == (130, "interrupted\n")


def test_run_leaves_a_bug_its_traceback():
    with pytest.raises(ZeroDivisionError):
        run(failing(ZeroDivisionError("a bug")))


def earlier_checkout(tmp_path, report: dict):
    """A stand-in checkout of an earlier commit whose pyproject.toml names an entry point
    (``mm_logic.old_cli:main``) that prints ``report`` as a bench's JSON."""
    checkout = tmp_path / "earlier"
    (checkout / "mm_logic").mkdir(parents=True)
    (checkout / "pyproject.toml").write_text('[project]\nname = "mmlogic"\n\n'
                                             '[project.scripts]\nmmlogic = "mm_logic.old_cli:main"\n')
    (checkout / "mm_logic" / "__init__.py").write_text("")
    (checkout / "mm_logic" / "old_cli.py").write_text(
        f"import json\ndef main():\n    print(json.dumps({report!r}))\n    return 0\n")
    return checkout


def test_benchmarks_beside_runs_the_checkouts_own_code_by_its_own_entry_point(tmp_path):
    # The installed console script imports today's entry point (mm_logic.__main__), which older checkouts
    # lack; and `python -c` puts the working directory (today's checkout) first on sys.path.
    checkout = earlier_checkout(tmp_path, {'games': 2, 'mean': 1.5, 'max': 2, 'seconds': 4.0})
    result = script("benchmarks.py", "--beside", str(checkout), "--only", "parts --colors 8 --all", cwd=ROOT)
    assert result.returncode == 0, result.stderr
    row = result.stdout.splitlines()[2].split(" | ")
    assert row[0] == "| Kooi 4x8, every secret" and row[2:5] == ["4096", "5.102", "7"]
    assert row[7].startswith("4.00 s (x0.")


def test_benchmarks_beside_refuses_a_checkout_that_names_no_command_before_the_table(tmp_path):
    checkout = tmp_path / "earlier"
    (checkout / "mm_logic").mkdir(parents=True)
    (checkout / "mm_logic" / "__init__.py").write_text("")
    (checkout / "pyproject.toml").write_text('[project]\nname = "mmlogic"\n')
    result = script("benchmarks.py", "--beside", str(checkout), cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (f"error: --beside {checkout}: its pyproject.toml names no mmlogic command "
                             "([project.scripts] mmlogic = \"module:function\"): 'scripts'\n")


def test_benchmarks_beside_runs_the_checkout_for_every_row(tmp_path, monkeypatch, capsys):
    # The checkout's command is used for each row: after the first it was overwritten with that row's
    # seconds (TypeError: Value after * must be an iterable, not float, on the second row).
    checkout = earlier_checkout(tmp_path, {'games': 10, 'mean': 2.5, 'max': 3, 'seconds': 4.0})
    # Today's mmlogic too is a stand-in, so that the three python rows take no time.
    today = tmp_path / "mmlogic"
    today.write_text(f"#!{sys.executable}\n"
                     "import json\n"
                     "print(json.dumps({'games': 10, 'mean': 2.0, 'max': 3, 'seconds': 2.0}))\n")
    today.chmod(0o755)
    benchmarks = py_script("benchmarks")
    monkeypatch.setattr(benchmarks, "mmlogic", lambda: str(today))
    monkeypatch.setattr(sys, "argv", ["benchmarks.py", "--beside", str(checkout), "--only", "--backend python"])
    assert benchmarks.main() == 0
    rows = capsys.readouterr().out.splitlines()[2:]
    assert [row.split(" | ")[0] for row in rows] == [
        "| Knuth 4x6, every secret", "| Kooi 4x8, every secret", "| Knuth 5x8, every secret",
        "| Knuth 4x6 black pegs, every secret", "| Knuth 4x6 positional, every secret",
        "| Knuth 5x8 black pegs, every secret", "| Knuth 5x8 positional, every secret"]
    assert [row.split(" | ")[2:8] for row in rows] == [["10", "2.000", "3", "2.00", "200.00 ms", "4.00 s (x0.50)"]] * 7


def test_benchmarks_beside_a_checkout_without_feedback_rules_says_the_row_is_new(tmp_path, monkeypatch, capsys):
    checkout = earlier_checkout(tmp_path, {})
    (checkout / "mm_logic" / "old_cli.py").write_text(  # an mmlogic before issue 37: --feedback unknown
        "import json, sys\ndef main():\n"
        "    if '--feedback' in sys.argv:\n"
        "        print('error: no such option: --feedback', file=sys.stderr)\n        return 2\n"
        "    print(json.dumps({'games': 10, 'mean': 2.5, 'max': 3, 'seconds': 4.0}))\n    return 0\n")
    today = tmp_path / "mmlogic"
    today.write_text(f"#!{sys.executable}\nimport json\n"
                     "print(json.dumps({'games': 10, 'mean': 2.0, 'max': 3, 'seconds': 2.0}))\n")
    today.chmod(0o755)
    benchmarks = py_script("benchmarks")
    monkeypatch.setattr(benchmarks, "mmlogic", lambda: str(today))
    monkeypatch.setattr(sys, "argv", ["benchmarks.py", "--beside", str(checkout), "--only=--all"])
    assert benchmarks.main() == 0
    rows = [row.split(" | ") for row in capsys.readouterr().out.splitlines()[2:] if row.startswith("| ")]
    beside = {row[0][2:]: row[7] for row in rows}
    assert beside["Knuth 4x6, every secret"] == "4.00 s (x0.50)"
    assert beside["Knuth 4x6 black pegs on clingo"] == "new: no --feedback there"
    assert [label for label, text in beside.items() if text.startswith("new")] == [
        label for label, _, command in benchmarks.ROWS if "--all" in command and "--feedback" in command]
