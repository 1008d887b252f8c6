"""Every command's ``--help`` examples read as commands a user can copy: one per line, or a line ending in a
backslash continued on the next (never two lines joined by a backslash-newline inside the docstring)."""

from __future__ import annotations

import re

import pytest

from mm_logic.cli import cli


def examples(text: str) -> list[str]:
    """The lines of a help's ``Examples:`` block (up to the options), stripped."""
    block = text.split("Example", 1)[1].split("\nOptions:", 1)[0]
    return [line.strip() for line in block.splitlines()[1:] if line.strip()]


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_no_help_example_has_a_run_of_spaces_inside_a_command(run, name):
    result = run(name, "--help")
    assert result.exit_code == 0
    lines = examples(result.stdout)
    assert lines, name
    assert [line for line in lines if re.search(r"\S {2,}\S", line)] == []


@pytest.mark.parametrize("name", ["sweep", "openings"])
def test_a_long_example_continues_on_the_next_line(run, name):
    lines = examples(run(name, "--help").stdout)
    long = next(index for index, line in enumerate(lines) if "shared_no_adjacent.lp --backend clingo" in line)
    assert lines[long].endswith(" --backend clingo \\")
    assert lines[long + 1].startswith("--feedback examples/shared_no_adjacent.lp")
