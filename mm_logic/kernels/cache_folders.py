"""Folders a cache of compiled code may live in: numba's kernels (:mod:`mm_logic.kernels.numba_cache`) and the
modules compiled ahead of time (:mod:`mm_logic.kernels.optimal.ahead`). Without numba, so that either may ask."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def writable(folder: str | Path) -> bool:
    """Whether ``folder`` exists or can be made, and takes a file: numba's own test of a cache folder."""
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def user_cache_folder() -> Path:
    """mmlogic's folder in the user's cache: ``$XDG_CACHE_HOME/mmlogic``, by default ``~/.cache/mmlogic``
    (the modules compiled ahead of time, the tables of rules derived from encodings)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mmlogic"


def private_folder(parent: str | Path | None = None) -> Path | None:
    """``mmlogic-numba-UID`` under ``parent`` (the temporary directory), made if need be; None unless it is a
    folder of this account that no other account can write or read."""
    uid = os.getuid() if hasattr(os, "getuid") else 0  # no accounts to tell apart on Windows
    folder = Path(parent or tempfile.gettempdir()) / f"mmlogic-numba-{uid}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = folder.lstat()
    except OSError:
        return None
    # A cache holds code that numba runs: a folder another account made or can write into is not used.
    # (Windows reports neither owner nor permissions this way, and its temporary folder is the user's own.)
    shared = os.name != "nt" and (info.st_uid != uid or info.st_mode & 0o077)
    if not stat.S_ISDIR(info.st_mode) or shared:
        return None
    return folder if writable(folder) else None
