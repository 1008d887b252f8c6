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


def test_the_package_has_documented_examples():
    found = sum(len(doctest.DocTestFinder().find(importlib.import_module(name))) for name in MODULES)
    assert "mm_logic.game" in MODULES and found >= 10


@pytest.mark.parametrize("name", MODULES)
def test_examples_in_docstrings_hold(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
