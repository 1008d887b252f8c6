"""Sphinx configuration of mmlogic's documentation site.

Build it with ``sphinx-build -W --keep-going -n -b html docs docs/_build/html``
(tests/docs/test_docs_site.py does, in strict mode). The pages are the Markdown of
``docs/`` as GitHub shows them, read by myst-parser; ``docs/README.md`` is the
root page, given its table of contents here (:func:`add_toctree`) so that the
page itself stays plain Markdown. ``reference/cli.md`` is generated from the
click group (sphinx-click) and ``api/`` from the docstrings (autodoc, napoleon).

The site is offline: no intersphinx, no MathJax, no web fonts; furo ships its
scripts, styles and fonts in ``_static``.
"""

from __future__ import annotations

project = "mmlogic"
author = "mmlogic"
copyright = "mmlogic's authors"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx_click",
]

root_doc = "README"
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "_templates", ".venv"]
# The JSON examples of cli.md and server.md elide with "...", as they mean to: Pygments
# then highlights them in its relaxed mode, and says so. Nothing else is suppressed.
suppress_warnings = ["misc.highlighting_failure"]

# -n (nitpicky): every cross-reference must resolve, except these. The site is offline,
# so there is no intersphinx: the standard library's and numpy's types in signatures (numpy as np too)
# have no page to link to. The short names are those some docstrings and string annotations
# use for a class or function of another module, which the Python domain cannot resolve.
nitpick_ignore_regex = [
    ("py:.*", r"(numpy|np|collections|pathlib|contextlib|typing|click|gymnasium)\..*"),
    ("py:class", r"<class 'mm_logic\..*'>}?"),  # the values of strategies.STRATEGIES, a dict of classes
    ("py:class", r"Path|BadInput|SolverTimeout|Rules|Entry|Code|StrategyTree|OptimalResult"),
]

# GitHub's anchors for headings: [text](page.md#a-heading) resolves to the heading.
myst_heading_anchors = 6
myst_enable_extensions: list[str] = []

# Options are typed as written: smart quotes would turn the click help's `--secret` into an en dash.
smartquotes = False

html_theme = "furo"
html_title = "mmlogic"
templates_path = ["_templates"]
# The home page is README.html (docs/README.md, as on GitHub); index.html, where a web
# server looks first, sends the browser there.
html_additional_pages = {"index": "index-redirect.html"}
# No CDN: no page has math (myst's dollarmath is off), so Sphinx never adds MathJax's script;
# tests/docs/test_docs_site.py checks that no page loads a script, style or font from the network.

autodoc_member_order = "bysource"
autodoc_typehints = "description"
napoleon_google_docstring = False
napoleon_numpy_docstring = True

#: The pages of the site in docs/README.md's order: its text is their index.
PAGES = [
    "install", "cli", "library", "server", "line-protocol", "gym",
    "encodings", "architecture", "testing",
    "results/README", "results/benchmarks", "results/classical", "results/optimal",
    "results/large-games", "results/feedback-rules", "results/variants", "results/static", "results/lies",
    "results/seed000", "results/seed001", "results/seed003", "results/seed004", "results/server",
    "reference/cli", "api/index",
]


def add_toctree(app, docname, source):
    """Give the root page (docs/README.md) the site's table of contents, hidden: its text is the index."""
    if docname == app.config.root_doc:
        entries = "\n".join(PAGES)
        source[0] += f"\n\n```{{toctree}}\n:hidden:\n\n{entries}\n```\n"


def napoleon_but_not_attributes(app):
    """Napoleon reads the docstrings of modules, classes and functions, not the ``#:`` comments of attributes.

    Those comments are prose ("Largest code space the strategy can play (None: any
    size)."), whose first colon napoleon would take for the end of a type.
    """
    from sphinx.ext.napoleon import _process_docstring

    listeners = app.events.listeners["autodoc-process-docstring"]
    for listener in [x for x in listeners if x.handler is _process_docstring]:
        app.disconnect(listener.id)

    def process(app, what, name, obj, options, lines):
        if what not in ("attribute", "data", "property"):
            _process_docstring(app, what, name, obj, options, lines)

    app.connect("autodoc-process-docstring", process)


def click_help_as_text(app, ctx, lines):
    """The commands' help is plain text (the terminal's --help): its asterisks ("ga001-*") are not emphasis."""
    lines[:] = [line.replace("*", "\\*") for line in lines]


def outside_links_as_files(app, doctree):
    """Links to Markdown files outside docs/ (../README.md, ../examples/README.md) become file links.

    myst-parser takes every existing ``.md`` file for a page of the site and fails
    the strict build when it is not one; these are files of the repository that
    the site does not render, so they are copied into the site as they are
    (``_downloads/``), like the other files outside docs/ the pages link to
    (``../examples/*.lp``, ``../py/...``). Runs before Sphinx collects the downloads.
    """
    import os
    from pathlib import Path

    from docutils import nodes
    from sphinx import addnodes

    env = app.env
    srcdir = Path(env.srcdir).resolve()
    for ref in list(doctree.findall(addnodes.pending_xref)):
        if ref.get("reftype") != "myst" or ref.get("refdomain") not in ("doc", None):
            continue
        if ref.get("refdomain") == "doc" and ref["reftarget"] in env.found_docs:
            continue
        here = Path(env.doc2path(env.docname)).parent
        if ref.get("refdomain") == "doc":
            target = Path(ref["reftarget"] + ".md")  # myst's reftarget: the absolute path without its suffix
        elif ref.get("reftarget"):
            target = (here / ref["reftarget"]).resolve()
        else:
            continue
        if target.is_file() and srcdir not in target.parents:
            ref.replace_self(addnodes.download_reference(
                "", "", *ref.children, refdomain=None, reftype="myst", reftarget=os.path.relpath(target, here),
                refdoc=env.docname, refexplicit=True))
        elif target.is_dir():
            # A folder (docs/screenshots/) has no page in the site: the words stay, unlinked.
            ref.replace_self(nodes.inline("", "", *ref.children))


def setup(app):
    for event in ("description", "options", "arguments", "epilog"):
        app.connect(f"sphinx-click-process-{event}", click_help_as_text)
    napoleon_but_not_attributes(app)
    app.connect("doctree-read", outside_links_as_files, priority=400)
    app.connect("source-read", add_toctree)
