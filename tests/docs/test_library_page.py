"""docs/library.md is run as it reads: every example of the library's page, as a notebook would run them, with
the values the commands print."""

from __future__ import annotations

import doctest

from conftest import ROOT


def test_the_library_page_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the page names examples/ files from the checkout's root
    result = doctest.testfile(str(ROOT / "docs" / "library.md"), module_relative=False, globs={"tmp": tmp_path},
                              optionflags=doctest.ELLIPSIS, report=True)
    assert (result.failed, result.attempted) == (0, 42)
    assert (tmp_path / "bench.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
