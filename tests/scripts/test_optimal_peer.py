"""py/tools/optimal_peer.py: arfst23/Mastermind's optimal tree read exactly, the recipe's edits, bad input, Ctrl-C,
and one real 4x6 run beside ``mmlogic optimal``.

The project holds none of arfst23's code. The tree reader and the recipe's edits are tested on hand-written text;
bad input and Ctrl-C on stand-ins of ``mastermind.c`` (the three ``#define`` lines the recipe edits and a ``main``
of the test's own). The real run needs a checkout of arfst23/Mastermind, named by ``$ARFST23_MASTERMIND`` alone (a
folder holding its ``mastermind.c``, or a git mirror): ``git clone https://github.com/arfst23/Mastermind DIR``, then
``ARFST23_MASTERMIND=DIR``. Unset, the real run is skipped, saying so (it is optional: CI's image has no copy);
set to a folder that is no checkout, it fails.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, py_path, py_script

SCRIPT = py_script("optimal_peer")
#: The variable that names a checkout of arfst23/Mastermind (see the module's docstring); nothing else is looked at.
PEER_VARIABLE = "ARFST23_MASTERMIND"
#: Why the real run is skipped without it.
NO_PEER = (f"{PEER_VARIABLE} is not set: the real run needs a checkout of arfst23/Mastermind (git clone "
           f"https://github.com/arfst23/Mastermind DIR, then {PEER_VARIABLE}=DIR)")

#: A strategy for 4 pegs of 2 colours in the peer's punch-card format, written by hand: row, guess number, guess,
#: then per feedback (---- O--- ... XXXX) the next row, nothing, or the one code left. Row 005 plays 0001, no longer
#: possible there: the peer still prints its guess in the last column, which must not count. Depths: 0011 at 1;
#: 1100 0000 0100 0001 0101 at 2; 1111 1000 0010 1010 0111 0110 at 3; 1110 1101 1011 1001 at 4.
TREE_4X2 = """\
           ---- O--- OO-- OOO- OOOO X--- XO-- XOO- XOOO XX-- XXO- XXOO XXX- XXXX
000 1 0011 ---- ---- ---- ---- 1100 ---- ---- >002 ---- >001 ---- >004 >003 0011
001 2 0000 1111 ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- 0000
002 2 0100 ---- ---- ---- ---- ---- ---- ---- ---- ---- >005 ---- 1000 ---- 0100
005 3 0001 ---- ---- 1110 ---- ---- ---- ---- ---- ---- 1101 ---- ---- ---- 0001
003 2 0001 ---- ---- ---- ---- ---- ---- ---- ---- ---- >006 ---- 0010 ---- 0001
006 3 0111 ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- 1011 ---- 0111
004 2 0101 ---- ---- ---- ---- 1010 ---- ---- ---- ---- ---- ---- >007 ---- 0101
007 3 0110 ---- ---- ---- ---- 1001 ---- ---- ---- ---- ---- ---- ---- ---- 0110
cpu=0.0s
"""


def stand_in(folder: Path, main: str = "int main(void) { return 0; }\n", defines: str | None = None) -> Path:
    """A folder holding a mastermind.c of the test's own: the recipe's three lines, then ``main``."""
    folder.mkdir()
    if defines is None:
        defines = "#define POSITIONS 4\n#define COLORS 6\n#define DEPTH_MAX 5\n"
    (folder / "mastermind.c").write_text("// >>> config\n\n// 4 6 5\n\n" + defines + "\n#include <stdio.h>\n" + main)
    return folder


def peer_checkout() -> Path:
    """The checkout ``$ARFST23_MASTERMIND`` names: skips the test when it is unset, fails it when it names no
    checkout (a folder holding ``mastermind.c``, or a git mirror)."""
    named = os.environ.get(PEER_VARIABLE)
    if not named:
        pytest.skip(NO_PEER)
    peer = Path(named)
    if not (peer / "mastermind.c").is_file() and not (peer / "HEAD").is_file():
        pytest.fail(f"{PEER_VARIABLE}={named} is no checkout of arfst23/Mastermind (no mastermind.c, no git HEAD)")
    return peer


def script(*args: str, env: dict | None = None, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(py_path("optimal_peer")), *args], capture_output=True, text=True,
                          timeout=600, cwd=cwd, env={**os.environ, **(env or {})})


# -- the tree ---------------------------------------------------------------------------------------------

def test_the_tree_is_played_on_every_secret_and_read_exactly():
    # 1 + 5 x 2 + 6 x 3 + 4 x 4 = 45 over the 16 secrets, the worst case 4; the last column of row 005 (0001,
    # already found at row 003's branch, impossible at row 005) does not count.
    assert SCRIPT.read_tree(TREE_4X2, 2) == (45, 4, 8)


@pytest.mark.parametrize(("edit", "message"), [
    # A code the feedback does not leave: 1000 answers 0100 with XXOO, not XX--.
    (("005 3 0001 ---- ---- 1110 ---- ---- ---- ---- ---- ---- 1101",
      "005 3 0001 ---- ---- 1110 ---- ---- ---- ---- ---- ---- 1000"),
     "the peer's tree, row 005 (guess 0001), feedback XX--: 1 codes, the tree says 1000"),
    # A part said empty that holds a code.
    (("000 1 0011 ---- ---- ---- ---- 1100", "000 1 0011 ---- ---- ---- ---- ----"),
     "the peer's tree, row 000 (guess 0011), feedback OOOO: 1 codes, the tree says ----"),
    # A row at the wrong depth.
    (("006 3 0111", "006 4 0111"), "the peer's tree, row 006 (guess 0111): says guess 4, is guess 3"),
    # A row that is no row.
    (("cpu=0.0s", "cpu=0.0s\nsegmentation fault"),
     "the peer's output, line 11, is not a row of its tree: 'segmentation fault'"),
])
def test_a_tree_that_does_not_find_every_secret_is_refused(edit, message):
    old, new = edit
    assert TREE_4X2.count(old) == 1
    with pytest.raises(SCRIPT.BadTree) as error:
        SCRIPT.read_tree(TREE_4X2.replace(old, new), 2)
    assert str(error.value) == message


def test_the_columns_are_the_peers():
    # X a right colour in its place, O a right colour elsewhere; the columns' order is the peer's header's.
    assert [SCRIPT.COLUMNS[SCRIPT.feedback_column("0012", s)] for s in ("3345", "0012", "0120", "2100", "0003")] \
        == ["----", "XXXX", "XOOO", "OOOO", "XX--"]
    assert TREE_4X2.splitlines()[0] == SCRIPT.HEADER


# -- the recipe -------------------------------------------------------------------------------------------

def test_the_recipe_sets_the_three_sizes_and_nothing_else():
    text = "// 4 6 5\n#define POSITIONS 4\n#define COLORS 6\n#define DEPTH_MAX 5\n#if COLORS >= 8\n#define COLORS_8\n"
    assert SCRIPT.case_source(text, 8, 7) == ("// 4 6 5\n#define POSITIONS 4\n#define COLORS 8\n#define DEPTH_MAX 7\n"
                                              "#if COLORS >= 8\n#define COLORS_8\n")
    # The cases: the peer's DEPTH_MAX, mmlogic's --max-depth (None: unrestricted) and the published figures.
    assert {case: SCRIPT.CASES[case] for case in SCRIPT.DEFAULT_CASES} == {"4x6": (6, 6, None, 5625, 6),
                                                                          "4x6:5": (6, 5, 5, 5626, 5)}


# -- bad input ---------------------------------------------------------------------------------------------

def test_a_folder_without_mastermind_c_is_refused(tmp_path):
    result = script("--source", str(ROOT / "py"), "--build", str(tmp_path / "b"))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"error: --source {ROOT / 'py'} is not a checkout of arfst23/Mastermind (no mastermind.c)\n"
    assert not (tmp_path / "b").exists()


def test_a_bad_case_is_refused_before_the_table(tmp_path):
    source = stand_in(tmp_path / "Mastermind")
    result = script("--source", str(source), "--case", "4x6", "--case", "4x9", "--build", str(tmp_path / "b"))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == ("error: --case '4x9': expected one of 4x6, 4x6:5, 4x7, 4x8:6, 4x8 (4xC, or 4xC:D within "
                             "D guesses)\n")
    assert not (tmp_path / "b").exists()


def test_a_mastermind_c_without_a_recipe_line_is_another_version(tmp_path):
    source = stand_in(tmp_path / "Mastermind", defines="#define POSITIONS 4\n#define COLORS 6\n")
    result = script("--source", str(source), "--build", str(tmp_path / "b"))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (f"error: --source {source}: its mastermind.c has no line '#define DEPTH_MAX N' (or more "
                             "than one): not the version of arfst23/Mastermind the recipe was written for\n")
    assert not (tmp_path / "b").exists()


def test_without_gcc_the_script_says_what_to_install(tmp_path):
    source = stand_in(tmp_path / "Mastermind")
    (tmp_path / "bin").mkdir()  # a PATH with no gcc
    result = script("--source", str(source), "--build", str(tmp_path / "b"), env={"PATH": str(tmp_path / "bin")})
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "error: building arfst23/Mastermind needs gcc: apt-get install gcc\n"


needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc (apt-get install gcc)")


@needs_gcc
def test_ctrl_c_stops_the_peer_and_says_interrupted(tmp_path):
    # The stand-in writes its pid and waits: Ctrl-C to the script must end it too (it runs in its own session,
    # which the terminal's Ctrl-C does not reach), then "interrupted", exit 130, no row.
    pid_file = tmp_path / "peer.pid"
    source = stand_in(tmp_path / "Mastermind", "#include <unistd.h>\nint main(void) {\n"
                      f'  FILE *f = fopen("{pid_file}", "w"); fprintf(f, "%d", (int)getpid()); fclose(f);\n'
                      "  for (;;) sleep(1);\n}\n")
    child = subprocess.Popen([sys.executable, str(py_path("optimal_peer")), "--source", str(source), "--case", "4x6",
                              "--build", str(tmp_path / "b")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        deadline = time.monotonic() + 60
        while not pid_file.is_file() or not pid_file.read_text():
            assert time.monotonic() < deadline and child.poll() is None, child.stderr.read() if child.poll() else ""
            time.sleep(0.05)
        peer = int(pid_file.read_text())
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert (child.returncode, stderr.splitlines()[-1]) == (130, "interrupted"), stderr
    assert "Traceback" not in stderr
    assert stdout.count("\n") == 2  # the table's header, no row
    assert gone(peer)


def gone(pid: int, within: float = 10) -> bool:
    """Whether process ``pid`` has ended within ``within`` seconds: no such process, or a zombie (killed with
    its parent, /usr/bin/time, it waits for whoever reaps orphans here)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


# -- a real run ----------------------------------------------------------------------------------------------

def test_the_peers_checkout_is_named_by_its_variable_alone(monkeypatch, tmp_path):
    # Unset: skipped with how to get a checkout, whatever lies beside the repository (no folder is guessed).
    monkeypatch.delenv(PEER_VARIABLE, raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        peer_checkout()
    assert str(skipped.value) == NO_PEER
    # Named: that folder, a checkout or a git mirror; a folder that is neither is a mistake, not a skip.
    stand_in(tmp_path / "Mastermind")
    monkeypatch.setenv(PEER_VARIABLE, str(tmp_path / "Mastermind"))
    assert peer_checkout() == tmp_path / "Mastermind"
    monkeypatch.setenv(PEER_VARIABLE, str(tmp_path))
    with pytest.raises(pytest.fail.Exception) as failed:
        peer_checkout()
    assert str(failed.value) == (f"{PEER_VARIABLE}={tmp_path} is no checkout of arfst23/Mastermind (no mastermind.c, "
                                 "no git HEAD)")


@needs_gcc
@pytest.mark.slow  # the peer's build and run, mmlogic's search: about 5 s
def test_4x6_beside_arfst23(tmp_path):
    peer = peer_checkout()
    rows = tmp_path / "rows.json"
    result = script("--source", str(peer), "--case", "4x6", "--build", str(tmp_path / "b"), "--json", str(rows))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[2].startswith("| 4x6 | 5,625 | 6 | ")
    assert lines[-1].startswith("totals and worst cases equal the published ones on every case")
    (row,) = json.loads(rows.read_text())
    assert (row["arfst23"]["total_guesses"], row["arfst23"]["max"]) == (5625, 6)
    assert (row["mmlogic"]["total_guesses"], row["mmlogic"]["max"]) == (5625, 6)
    assert row["agree"] is True
