"""The documentation keeps up with the repository and the tool.

Relative links and images in the Markdown pages resolve to files of the
repository (not to files that merely sit next to a checkout), in-page anchors
name real headings, and ``docs/cli.md`` has a section for every command and
mentions every option and argument each command takes, and none it does not.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from urllib.parse import unquote

import click

from mm_logic.cli import cli

from conftest import ROOT

CLI_DOC = ROOT / "docs" / "cli.md"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "examples").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")
INLINE_TARGET = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'][^\"']*[\"'])?\s*\)")  # [text](target "title")
REFERENCE_TARGET = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)", re.M)  # [label]: target
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto:
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
SHARED_SECTIONS = ("Conventions", "Rules options", "Engine and strategy options")


def prose(text: str) -> str:
    """The text without code blocks and code spans, where brackets are not links."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def link_targets(page: Path) -> list[str]:
    text = prose(page.read_text())
    return INLINE_TARGET.findall(text) + REFERENCE_TARGET.findall(text)


def repository_paths() -> set[Path] | None:
    """Files git knows (tracked, or new and not ignored) and their folders; None outside a git checkout."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                cwd=ROOT, capture_output=True, check=True).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        return None
    files = {ROOT / name for name in listed.split("\0") if name}
    return files | {folder for f in files for folder in f.parents if ROOT in folder.parents}


def resolve(page: Path, target: str) -> Path:
    path = unquote(target.split("#")[0].split("?")[0])
    return ((ROOT / path.lstrip("/")) if path.startswith("/") else (page.parent / path)).resolve()


def test_every_relative_link_and_image_resolves_to_a_file_of_the_repository():
    known = repository_paths()
    broken = set()
    for page in PAGES:
        for target in link_targets(page):
            if SCHEME.match(target) or target.startswith("#"):
                continue
            path = resolve(page, target)
            inside = path == ROOT or ROOT in path.parents
            if not inside or not path.exists() or (known is not None and path not in known):
                broken.add(f"{page.relative_to(ROOT)}: {target}")
    assert {p.relative_to(ROOT).as_posix() for p in PAGES} >= {"README.md", "docs/cli.md", "examples/README.md"}
    assert broken == set(), "links that do not resolve to a file of the repository:\n" + "\n".join(sorted(broken))


def slugs(page: Path) -> set[str]:
    """GitHub's anchors for the page's headings."""
    found: set[str] = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", FENCE.sub("", page.read_text()), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        n = 0
        while (slug if n == 0 else f"{slug}-{n}") in found:
            n += 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def test_every_anchor_names_a_heading():
    broken = set()
    for page in PAGES:
        for target in link_targets(page):
            if SCHEME.match(target) or "#" not in target:
                continue
            path, anchor = target.split("#", 1)
            linked = resolve(page, path) if path else page
            if linked.suffix == ".md" and linked.is_file() and anchor not in slugs(linked):
                broken.add(f"{page.relative_to(ROOT)}: {target}")
    assert broken == set(), "anchors that name no heading:\n" + "\n".join(sorted(broken))


def sections(text: str) -> dict[str, str]:
    """The level-2 sections of a page (``## heading`` outside code blocks): heading -> body."""
    found: dict[str, str] = {}
    heading, fenced = None, False
    for line in text.splitlines():
        if line.startswith(("```", "~~~")):
            fenced = not fenced
        if not fenced and line.startswith("## "):
            heading = line[3:].strip()
            found[heading] = ""
        elif heading is not None:
            found[heading] += line + "\n"
    return found


def command_sections() -> dict[str, str]:
    """The sections of docs/cli.md headed ``## `mmlogic NAME` ``: NAME -> body."""
    return {m[1]: body for heading, body in sections(CLI_DOC.read_text()).items()
            if (m := re.fullmatch(r"`mmlogic ([a-z-]+)`", heading))}


def test_every_command_has_a_section_in_the_cli_reference():
    missing = set(cli.commands) - set(command_sections())
    assert missing == set(), f"commands without a '## `mmlogic NAME`' section in docs/cli.md: {sorted(missing)}"


def test_the_cli_reference_documents_no_command_the_tool_lacks():
    stale = set(command_sections()) - set(cli.commands)
    assert stale == set(), f"sections of docs/cli.md for commands mmlogic does not have: {sorted(stale)}"


def command_words(command: click.Command) -> set[str]:
    """The options (every spelling but --help) and arguments (as NAME) a command takes."""
    words = set()
    for param in command.params:
        if isinstance(param, click.Argument):
            words.add(param.name.upper())
        else:
            words |= {o for o in [*param.opts, *param.secondary_opts] if o.startswith("--") and o != "--help"}
    return words


def test_every_option_and_argument_is_in_the_section_of_its_command():
    """In the command's own section, or in the shared sections (rules, engine options) it refers to."""
    own = command_sections()
    shared = "".join(body for heading, body in sections(CLI_DOC.read_text()).items() if heading in SHARED_SECTIONS)
    missing = set()
    for name, command in cli.commands.items():
        text = own.get(name, "") + shared
        missing |= {f"{name} {word}" for word in command_words(command)
                    if not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)}
    group = {o for p in cli.params for o in p.opts if o.startswith("--") and o != "--help"}
    missing |= {f"mmlogic {o}" for o in group if o not in CLI_DOC.read_text()}
    assert missing == set(), f"options and arguments docs/cli.md does not mention: {sorted(missing)}"


def test_no_command_section_names_an_option_its_command_lacks():
    stale = set()
    for name, body in command_sections().items():
        if name in cli.commands:
            stale |= {f"{name} {o}" for o in OPTION.findall(body)} - {f"{name} {o}" for o in
                                                                     command_words(cli.commands[name]) | {"--help"}}
    assert stale == set(), f"options docs/cli.md gives commands that do not take them: {sorted(stale)}"
