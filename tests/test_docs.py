"""The documentation keeps up with the tool: links resolve, every command and option is documented."""

from __future__ import annotations

import re

from mm_logic.cli import cli

from conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "examples").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def test_every_relative_link_resolves():
    broken = set()
    for page in PAGES:
        for target in LINK.findall(page.read_text()):
            if target.startswith(("http://", "https://", "#", "mailto:")):
                continue
            path = target.split("#")[0]
            if not (page.parent / path).exists():
                broken.add(f"{page.relative_to(ROOT)}: {target}")
    assert len(PAGES) >= 3
    assert broken == set()


def test_every_command_has_a_section_in_the_cli_reference():
    text = (ROOT / "docs" / "cli.md").read_text()
    missing = {name for name in cli.commands if f"## `mmlogic {name}`" not in text}
    assert missing == set()


def test_every_option_is_in_the_cli_reference():
    text = (ROOT / "docs" / "cli.md").read_text()
    missing = {f"{name} {option}" for name, command in cli.commands.items() for param in command.params
               for option in param.opts if option.startswith("--") and option != "--help"
               and not re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text)}
    assert missing == set()
