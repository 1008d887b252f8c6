"""The README's words for an option agree with the option (issue 56, item 9): ``--liar`` takes WHEN, the answers the
codemaker lies at, and is no switch that makes it lie."""

from __future__ import annotations

import re

import pytest

from mm_logic.cli import cli

from conftest import ROOT


@pytest.mark.parametrize("command", ["solve", "bench", "play"])
def test_the_readme_writes_liar_with_the_value_it_takes(command):
    (liar,) = [p for p in cli.commands[command].params if "--liar" in p.opts]
    assert not liar.is_flag and liar.metavar == "WHEN"
    mentions = re.findall(r"`--liar[^`]*`", (ROOT / "README.md").read_text())
    assert mentions and all(m == "`--liar WHEN`" for m in mentions), mentions
