"""The documentation site builds from docs/ in strict mode, whole and offline.

``sphinx-build -W --keep-going -n`` (docs/conf.py): every warning fails the build,
a broken link or an unresolved reference included, which a copy of the pages with
one planted link proves. The CLI reference has a section for every command of
the click group, the API pages exist for the modules docs/api/ documents, and
no page loads a script, a stylesheet or a font from the network.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mm_logic.cli import cli

from conftest import ROOT

DOCS = ROOT / "docs"
#: The modules the API pages document: docs/api/NAME.md for mm_logic.NAME.
API_MODULES = ["adversary", "client", "codespace", "counting", "diagnosis", "engines", "engines.base",
               "engines.csp", "support.errors", "feedback", "feedback.variant", "game", "histogram", "kernels",
               "kernels.cache_folders", "kernels.counting",
               "kernels.entropies", "kernels.lies_within", "kernels.numba_cache", "kernels.optimal",
               "kernels.optimal.ahead", "kernels.optimal.ahead_build", "kernels.optimal.arrays",
               "kernels.optimal.guess_scores", "kernels.optimal.middling_sets", "kernels.optimal.node_symmetry",
               "kernels.optimal.search", "kernels.optimal.small_sets", "kernels.optimal.solved_sets",
               "kernels.orbits", "kernels.packed", "kernels.rule_sample", "kernels.sample", "kernels.scoring",
               "kernels.scoring_rank", "kernels.scoring_tree", "kernels.states", "kernels.static_proof",
               "kernels.weighted", "kernels.warming", "library",
               "liar", "liar.every_lie", "liar.optimal", "liar.within",
               "lies", "notation", "optimal", "optimal.anytime", "optimal.anytime_journal", "optimal.journal",
               "optimal.objectives", "optimal.result", "optimal.searcher", "optimal.tasks", "optimal.workers",
               "player", "rules", "secret_codes", "split", "static", "static.bound", "static.local_search",
               "static.proof", "static.search",
               "strategies", "strategies.base", "strategies.sampled", "strategies.scoring", "strategies.tree",
               "strategies.weighted", "studies", "studies.info", "studies.presets", "studies.bench",
               "studies.charts", "studies.compare", "studies.written_game", "studies.puzzle", "studies.puzzle_sets",
               "studies.batch_race",
               "studies.statistics", "symmetry", "terminal", "terminal.play", "terminal.duel", "server.openapi",
               "environment"]
#: A tag's attribute that makes the browser fetch: scripts, stylesheets, preloaded fonts, images.
FETCHED = re.compile(r"<(?:script|link|img)\b[^>]*?\b(?:src|href)\s*=\s*[\"']?\s*(https?:)?//", re.I)
#: What a stylesheet fetches: @import and url(), fonts included.
CSS_FETCHED = re.compile(r"(?:@import\s+[\"']?|url\(\s*[\"']?)\s*(?:https?:)?//", re.I)

#: Each build takes about 25 s of CPU on the 2-core machine: the tests that build are slow.
slow = pytest.mark.slow


def sphinx_build(source: Path, out: Path) -> subprocess.CompletedProcess:
    """The strict build of the site into ``out`` (a build there before: only the pages changed since)."""
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html",
                           str(source), str(out)], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def docs_copy(tmp_path_factory) -> Path:
    """docs/ copied beside what its pages link to outside it (links to the checkout's files), so that a test can
    plant a broken link in a page and build again, reading that page alone."""
    repo = tmp_path_factory.mktemp("repo")
    shutil.copytree(DOCS, repo / "docs", ignore=shutil.ignore_patterns("_build"))
    for outside in ["README.md", "examples", "py", "tests", "mm_logic"]:
        (repo / outside).symlink_to(ROOT / outside)
    return repo / "docs"


@pytest.fixture(scope="module")
def site(docs_copy, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    built = sphinx_build(docs_copy, out)
    assert (built.returncode, built.stderr) == (0, ""), built.stderr
    return out


@slow
def test_the_cli_reference_has_a_section_for_every_command(site):
    page = (site / "reference" / "cli.html").read_text()
    sections = set(re.findall(r'<section id="mmlogic-([\w-]+)"', page))
    assert sections == {name for name, command in cli.commands.items() if not command.hidden}
    assert {"solve", "serve", "sweep"} <= sections
    # Options as typed: smart quotes turned the examples' `--secret` into an en dash, which a shell refuses.
    assert "mmlogic solve --secret 0123" in page and "\u2013secret" not in page


@slow
def test_the_api_pages_document_their_modules(site):
    listed = {p.stem for p in (DOCS / "api").glob("*.md")} - {"index"}
    assert listed == set(API_MODULES)
    for name in API_MODULES:
        page = (site / "api" / f"{name}.html").read_text()
        assert f'id="module-mm_logic.{name}"' in page, name
    assert "mm_logic.game.Game" in (site / "api" / "game.html").read_text()
    index = (site / "api" / "index.html").read_text()
    assert all(f'href="{name}.html"' in index for name in API_MODULES)
    # A compiled kernel (numba's dispatcher, not a Python function) is documented as a function, with its docstring.
    optimal = (site / "api" / "kernels.optimal.search.html").read_text()
    kernel = re.search(r'<dl class="py function">\s*<dt class="sig[^>]*'
                       r'id="mm_logic\.kernels\.optimal\.search\.search">.*?</dt>\s*<dd><p>(.*?)</p>', optimal, re.S)
    assert kernel and kernel[1].startswith("The least total cost of the codes")


def test_every_kernel_module_has_an_api_page():
    kernels = {".".join(p.relative_to(ROOT / "mm_logic").with_suffix("").parts).removesuffix(".__init__")
               for p in (ROOT / "mm_logic" / "kernels").rglob("*.py")} - {"kernels"}
    assert {"kernels.optimal", "kernels.optimal.search"} <= kernels
    assert kernels - set(API_MODULES) == set()


@slow
def test_every_page_of_docs_is_in_the_site(site):
    pages = {p.relative_to(DOCS).with_suffix(".html") for p in DOCS.rglob("*.md") if "_build" not in p.parts}
    assert {p for p in pages if not (site / p).is_file()} == set()
    # docs/README.md is the home page; index.html, where a web server looks first, leads to it.
    assert 'url=README.html"' in (site / "index.html").read_text()
    home = (site / "README.html").read_text()
    assert all(f'href="{page.as_posix()}"' in home for page in pages if page.as_posix() != "README.html")


@slow
def test_links_outside_docs_are_files_the_site_copies(site):
    # ../README.md, ../examples/*.lp, ../py/tools/...: copied as they are, not rewritten to a web address.
    install = (site / "install.html").read_text()
    target = re.search(r'href="(_downloads/[0-9a-f]+/README\.md)"', install)
    assert target and (site / target[1]).read_text() == (ROOT / "README.md").read_text()
    assert re.search(r'href="_downloads/[0-9a-f]+/no_adjacent\.lp"', (site / "encodings.html").read_text())


def test_the_network_checks_see_a_cdn():
    assert FETCHED.search('<script src="https://cdn.example.org/mathjax.js"></script>')
    assert FETCHED.search("<link rel='stylesheet' href=//fonts.example.org/css>")
    assert CSS_FETCHED.search('@font-face { src: url("https://fonts.example.org/a.woff2") }')
    assert CSS_FETCHED.search("@import 'http://example.org/a.css';")
    assert not FETCHED.search('<script src="_static/furo.js"></script> <a href="https://example.org">a link</a>')
    assert not CSS_FETCHED.search('src: url("../fonts/a.woff2")')


@slow
def test_the_site_loads_nothing_from_the_network(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 30
    fetching = [str(p.relative_to(site)) for p in pages if FETCHED.search(p.read_text())]
    fetching += [str(p.relative_to(site)) for p in site.rglob("*.css") if CSS_FETCHED.search(p.read_text())]
    assert fetching == []
    assert not any("mathjax" in p.read_text().lower() for p in pages)


@slow
def test_a_broken_link_fails_the_build(site, docs_copy, tmp_path):
    # One link planted that leads nowhere; the build reads and writes that page again, the others kept from a copy
    # of the site's build (a whole second build took 23 s of the suite).
    shutil.copytree(site, tmp_path / "out")
    page = docs_copy / "testing.md"
    text = page.read_text()
    page.write_text(text + "\nSee [the missing page](no-such-page.md).\n")
    try:
        built = sphinx_build(docs_copy, tmp_path / "out")
    finally:
        page.write_text(text)
    assert built.returncode != 0
    warnings = [line for line in built.stderr.splitlines() if "WARNING" in line or "ERROR" in line]
    assert warnings and all("testing.md" in line and "no-such-page" in line for line in warnings), built.stderr
