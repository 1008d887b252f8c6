"""The examples of the documentation's pages run, and print what the page shows under them.

A page's ```python blocks run in order in one namespace, as a notebook would run them; the ```text block
that follows a block is what it prints, exactly (a block followed by none prints nothing).
"""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from conftest import ROOT

#: The pages whose examples run here.
PAGES = ["docs/gym.md"]
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)


def examples(page: str) -> list[tuple[str, str | None]]:
    """The page's Python blocks, each with the text block right after it (None: none)."""
    text = (ROOT / page).read_text()
    blocks = [(m[1], m[2], m.start(), m.end()) for m in BLOCK.finditer(text)]
    found = []
    for i, (kind, code, _, end) in enumerate(blocks):
        if kind != "python":
            continue
        after = blocks[i + 1] if i + 1 < len(blocks) else None
        shown = after[1] if after and after[0] == "text" and not text[end:after[2]].strip() else None
        found.append((code, shown))
    return found


def test_the_pages_have_examples():
    assert len(examples("docs/gym.md")) >= 5


@pytest.mark.parametrize("page", PAGES)
def test_every_example_prints_what_the_page_shows(page):
    namespace: dict = {"__name__": "__main__"}
    for number, (code, shown) in enumerate(examples(page), 1):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"{page} example {number}", "exec"), namespace)
        assert printed.getvalue() == (shown or ""), f"{page}, example {number}"
