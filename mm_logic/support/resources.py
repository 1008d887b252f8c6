"""Where the shipped encodings live: the ``mm_logic/encodings`` folder of the package.

One helper resolves encoding paths for the package, the ``py/`` scripts and the
tests alike. The encodings are package data: a checkout, an editable install
and a wheel all hold them beside this module.
"""

from __future__ import annotations

from pathlib import Path

#: The folder of the shipped ``.lp`` and ``.pl`` encodings.
ENCODINGS = Path(__file__).resolve().parent.parent / "encodings"  # mm_logic/encodings, beside support/


def encodings_dir() -> Path:
    """The folder holding the shipped ``.lp`` and ``.pl`` encodings."""
    return ENCODINGS


def encoding_path(name: str) -> Path:
    """Path of a shipped encoding file, e.g. ``encoding_path("mastermind.lp")``."""
    return ENCODINGS / name
