"""A sweep's output file: its rows, one JSON line each, read back on a rerun (resume), held by one sweep."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from ..errors import BadInput
from ..files import OutputLock, read_text, target_of
from ..rules import rules_object
from .sweep_case import Case, case_key


def is_row(row: dict) -> bool:
    """Whether ``row`` has a finished case's fields, each of its type (what the tables read: a row
    edited by hand to ``"mean": "abc"`` ended a resumed sweep on an internal failure).

    Raises what :meth:`Case.from_dict` raises for a case that is no case.
    """
    Case.from_dict(row)

    def number(value) -> bool:
        return isinstance(value, (int, float)) and not isinstance(value, bool)

    def natural(value) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0

    histogram = row.get("histogram")
    return (isinstance(row.get("opening"), str) and natural(row.get("games")) and natural(row.get("total_guesses"))
            and number(row.get("mean")) and natural(row.get("max")) and isinstance(histogram, dict)
            and all(k.isdigit() and natural(n) for k, n in histogram.items())
            and all(number(row.get(k)) for k in ("seconds", "peak_rss_mb", "start_rss_mb"))
            and isinstance(row.get("host"), str))


def load_rows(path: Path, lock: OutputLock | None = None) -> tuple[dict[str, dict], int]:
    """The rows of an output file by case key, and how many unreadable lines were dropped from it.

    The last line, when it does not read as a row and has no end of line (a
    writer killed mid-line), is removed from the file, so that new rows start
    on a line of their own; the other rows, of this grid or not, are kept. Any
    other line that is not a row means the file is not a sweep's output: it is
    refused (:class:`~mm_logic.errors.BadInput`), and left as it is. ``lock``: the sweep's hold
    on the file, moved to the file that replaces it.
    """
    if not path.exists():
        return {}, 0
    rows: dict[str, dict] = {}
    kept: list[str] = []
    try:
        text = read_text(path, "--out")
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"--out {path} cannot be read as a sweep's output: {error}") from None
    lines = text.splitlines()
    bad = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            key = case_key(row)
            if not is_row(row):
                raise ValueError
        # RecursionError: a line of JSON nested thousands deep, which no row is.
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError, BadInput):
            if number < len(lines) or text.endswith("\n") or not line.startswith("{"):
                raise BadInput(f"--out {path} is not a sweep's output (line {number} is not one of its rows); "
                               "name a new file, or one an earlier sweep wrote") from None
            bad += 1
            continue
        # The rules object as this version writes it (an older row has no "feedback"), so that sweep --json
        # prints every row alike; the file keeps its lines as they are.
        row["rules"] = rules_object(row["rules"])
        rows.setdefault(key, row)
        kept.append(line)
    if bad or (text and not text.endswith("\n")):
        target = target_of(path)  # a link stays a link: its target is rewritten
        with tempfile.NamedTemporaryFile("w", dir=target.parent, delete=False, prefix=f".{target.name}.") as f:
            f.write("".join(line + "\n" for line in kept))
        shutil.copymode(target, f.name)  # the file keeps its permissions
        if lock is not None:  # held on the target (sweep): the lock moves with the file
            lock.replace(f.name)
        else:
            os.replace(f.name, target)
    return rows, bad


class RowWriter:
    """Appends rows to the output file, one JSON line each, on disk as soon as written."""

    def __init__(self, path: Path | None):
        self.file = path.open("a") if path is not None else None

    def write(self, row: dict) -> None:
        if self.file is not None:
            self.file.write(json.dumps(row) + "\n")
            self.file.flush()
            os.fsync(self.file.fileno())

    def close(self) -> None:
        if self.file is not None:
            self.file.close()

