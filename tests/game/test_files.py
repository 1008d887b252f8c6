"""Files a user names are read and written as found (issue 35, item 2).

An output option over a device node or a FIFO is refused before any game and
the node is left as it was (the rename that writes a file whole put a regular
file in its place; a FIFO hung the check); a link is written through to its
target. A file read (a tree file, a sweep's --out, an included part of an
encoding) is refused when it is no regular file, read with a bound, and a read
that fails names the file. Every case that could hang runs in a child process
with a timeout (conftest.mmlogic).
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import subprocess
import sys

import pytest

from mm_logic.support import files
from mm_logic.support.scripting import output_file, output_folder

from conftest import PY, ROOT, mmlogic, py_path

SMALL = ["--pegs", 2, "--colors", 2]

#: Each output option of each command, before its path; the games would be short, were they played.
OUTPUTS = [
    (["bench", *PY, *SMALL, "--games", 2, "--out"], "--out"),
    (["bench", *PY, *SMALL, "--all", "--save-tree"], "--save-tree"),
    (["compare", *PY, *SMALL, "--games", 2, "--csv"], "--csv"),
    (["sweep", "--sizes", "2x2", "--out"], "--out"),
    (["openings", *SMALL, "--out"], "--out"),
    (["optimal", *SMALL, "--save-tree"], "--save-tree"),
    (["tree", "no-such-tree.json", "--png"], "--png"),
]


def device(path):
    """A character device node like /dev/null (1, 3), where path is."""
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    return path


@pytest.mark.parametrize(("args", "option"), OUTPUTS)
@pytest.mark.parametrize("kind", ["a FIFO", "a character device"])
def test_an_output_that_is_no_regular_file_is_refused_before_any_game_and_left_as_it_was(tmp_path, args, option,
                                                                                         kind):
    path = tmp_path / "node"
    if kind == "a FIFO":
        os.mkfifo(path)
    else:
        device(path)
    done = mmlogic(*args, path, cwd=tmp_path, timeout=20)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: Invalid value for '{option}': cannot write {path} ({kind}, not a regular file)\n")
    mode = os.lstat(path).st_mode
    assert stat.S_ISFIFO(mode) if kind == "a FIFO" else stat.S_ISCHR(mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["node"]  # no probe or temporary file left


@pytest.mark.parametrize("chart", [None, "mean_attempts.png"])
def test_a_chart_folder_or_chart_that_is_a_fifo_is_refused_before_any_game(tmp_path, chart):
    folder = tmp_path / "charts"
    if chart is None:
        os.mkfifo(folder)
        message = f"cannot write into folder {folder} (a FIFO, not a folder)"
    else:
        folder.mkdir()
        os.mkfifo(folder / chart)
        message = f"cannot write {folder / chart} (a FIFO, not a regular file)"
    done = mmlogic("compare", *PY, *SMALL, "--games", 2, "--plot", folder, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: Invalid value for '--plot': {message}\n")
    assert stat.S_ISFIFO(os.lstat(folder if chart is None else folder / chart).st_mode)


@pytest.mark.parametrize("option", ["--out", "--save-tree"])
def test_an_output_that_is_a_link_is_written_through_to_its_target_and_the_link_stays(run, tmp_path, option):
    target = tmp_path / "data" / "result.json"
    target.parent.mkdir()
    target.write_text("old\n")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    result = run("bench", *PY, *SMALL, "--all", option, link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(target)
    written = json.loads(target.read_text())
    assert (written["games"] if option == "--out" else written["format"]) == (4 if option == "--out"
                                                                               else "mmlogic-tree")
    assert sorted(p.name for p in target.parent.iterdir()) == ["result.json"]


def test_a_dangling_link_names_a_new_file_its_target(run, tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "new.json")
    refused = run("bench", *PY, *SMALL, "--all", "--out", link, "--seed", "-1")  # refused after the check
    assert refused.exit_code == 2 and link.is_symlink() and not (tmp_path / "new.json").exists()
    assert run("bench", *PY, *SMALL, "--all", "--save-tree", link).exit_code == 0
    assert link.is_symlink() and json.loads((tmp_path / "new.json").read_text())["format"] == "mmlogic-tree"


def test_a_sweep_output_behind_a_link_is_resumed_through_it(run, tmp_path):
    target = tmp_path / "rows.jsonl"
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert run("sweep", "--sizes", "2x2", "--out", link).exit_code == 0
    row = target.read_text()
    target.write_text(row + row[:10])  # a writer killed mid-line: the rerun rewrites the file
    again = run("sweep", "--sizes", "2x2", "--out", link)
    assert again.exit_code == 0, again.output
    assert link.is_symlink() and target.read_text() == row


# -- files read -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["a FIFO", "a character device"])
def test_a_tree_file_that_is_no_regular_file_is_refused(tmp_path, kind):
    path = tmp_path / "tree.json"
    if kind == "a FIFO":
        os.mkfifo(path)
    else:
        device(path)
    done = mmlogic("tree", path, timeout=20)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: tree file {path} is {kind}, not a regular file\n")
    done = mmlogic("solve", *PY, *SMALL, "--strategy", f"tree:{path}", timeout=20)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: Invalid value for '--strategy': tree file {path} is {kind}, not a regular file\n")


def test_dev_zero_as_a_tree_file_is_refused_at_once(tmp_path):
    # It was read until memory ran out (2.7 GB), then "internal failure: MemoryError".
    done = mmlogic("tree", "/dev/zero", timeout=20)
    assert (done.returncode, done.stderr) == (2, "error: tree file /dev/zero is a character device, "
                                                 "not a regular file\n")


def test_files_read_are_bounded(run, tmp_path, monkeypatch):
    # The bound (1 GiB) made small: a file one byte over it is refused, one of its size is read.
    monkeypatch.setattr(files, "MAX_READ_BYTES", 1000)
    big = tmp_path / "big.json"
    big.write_text(" " * 1001)
    result = run("tree", big)
    assert (result.exit_code, result.stderr) == (
        2, f"error: tree file {big} is larger than 1,000 bytes, more than mmlogic reads\n")
    result = run("sweep", "--sizes", "2x2", "--out", big)
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", f"error: --out {big} is larger than 1,000 bytes, more than mmlogic reads\n")
    assert big.read_text() == " " * 1001  # left as it was
    big.write_text('{"format": "mmlogic-tree"' + " " * (1000 - 27) + "}\n")
    assert big.stat().st_size == 1000
    result = run("tree", big)
    assert (result.exit_code, result.stderr) == (2, f"error: {big} is tree format version null; "
                                                    "this mmlogic reads version 1\n")


def test_the_bound_is_1_gib_here_in_the_prolog_bridge_and_in_the_docs():
    assert files.MAX_READ_BYTES == 2**30
    assert "max_read_bytes(1073741824)." in (ROOT / "mm_logic" / "engines" / "swipl" / "bridge.pl").read_text()
    assert "is read up to **1 GiB**" in (ROOT / "docs" / "cli.md").read_text()


def test_the_scripts_refuse_a_fifo_to_write_or_to_read(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(argparse.ArgumentTypeError) as error:
        output_file(str(fifo))
    assert str(error.value) == f"cannot write {fifo}: a FIFO, not a regular file"
    with pytest.raises(argparse.ArgumentTypeError) as error:
        output_folder(str(fifo))
    assert str(error.value) == f"cannot write into {fifo}: '{fifo}' is a FIFO"
    done = subprocess.run([sys.executable, str(py_path("sample_returns")), "--replot", str(fifo)],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: --replot {fifo} is a FIFO, not a regular file\n")
