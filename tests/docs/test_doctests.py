"""The docstrings' examples are part of the documentation: each module's run as a test.

The modules are imported as installed (a wheel in CI, the checkout in an
editable install), so the examples hold for what users run.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import mm_logic

MODULES = sorted(info.name for info in pkgutil.walk_packages(mm_logic.__path__, "mm_logic."))


def examples(name: str) -> int:
    return sum(len(test.examples) for test in doctest.DocTestFinder().find(importlib.import_module(name)))


#: The modules whose docstrings hold examples (a module without one has nothing to run here).
DOCUMENTED = [name for name in MODULES if examples(name)]


def test_the_package_has_documented_examples():
    assert "mm_logic.game" in DOCUMENTED and sum(examples(name) for name in DOCUMENTED) >= 10


@pytest.mark.parametrize("name", DOCUMENTED)
def test_examples_in_docstrings_hold(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted == examples(name)
