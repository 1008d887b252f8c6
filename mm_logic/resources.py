"""Where the shipped encodings live, installed or in a checkout.

One helper resolves encoding paths for the package, the ``py/`` scripts and the
tests alike. In an installed wheel the top-level ``encodings/`` folder is
shipped as ``mm_logic/encodings``; in a checkout (or an editable install) it is
the ``encodings/`` folder beside the package.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path


@cache
def encodings_dir() -> Path:
    """The folder holding the shipped ``.lp`` and ``.pl`` encodings."""
    installed = Path(str(files("mm_logic").joinpath("encodings")))
    if installed.is_dir():
        return installed
    return Path(__file__).resolve().parent.parent / "encodings"


def encoding_path(name: str) -> Path:
    """Path of a shipped encoding file, e.g. ``encoding_path("mastermind.lp")``."""
    return encodings_dir() / name
