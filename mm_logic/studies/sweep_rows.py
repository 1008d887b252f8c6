"""A sweep's output file: its rows, one JSON line each, read back on a rerun (resume), held by one sweep."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from ..errors import BadInput
from ..files import read_text, target_of
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


class OutputLock:
    """An output file held by one sweep at a time: an advisory lock (``flock``) on the file.

    Two sweeps on one ``--out`` each read it before the other wrote a row, and both ran every
    case: 12 rows for 6. The second now refuses at once (:meth:`take`). The lock follows the
    file when :func:`load_rows` replaces it (:meth:`replace`), and goes with the process, however
    it ends. Where there is no ``flock`` (Windows) nothing is held.
    """

    def __init__(self, path: Path, fd: int | None):
        self.path = path
        self.fd = fd

    @classmethod
    def take(cls, path: Path) -> OutputLock:
        """Hold ``path`` (made if missing), or refuse in one line (exit 2) where another process holds it."""
        try:
            import fcntl
        except ImportError:
            return cls(path, None)
        while True:
            try:
                fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o666)
            except OSError:
                return cls(path, None)  # not even readable: load_rows says so in its own line
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise BadInput(f"--out {path} is being written by another sweep, still running; wait for it to "
                               "end (the same command then runs what it left), or name another file") from None
            except OSError:  # a file system without locks (ENOLCK): written as before, unguarded
                os.close(fd)
                return cls(path, None)
            # The holder may have replaced the file (load_rows) between our open and our lock: the
            # file we hold must be the one the name gives.
            try:
                held, named = os.fstat(fd), os.stat(path)
                if (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino):
                    return cls(path, fd)
            except OSError:
                pass
            os.close(fd)

    def replace(self, source: str) -> None:
        """``os.replace(source, path)``, the lock moved to the new file before its name is."""
        if self.fd is None:
            os.replace(source, self.path)
            return
        import fcntl
        fd = os.open(source, os.O_RDONLY)
        fcntl.flock(fd, fcntl.LOCK_EX)  # a file nobody else knows yet: taken at once
        os.replace(source, self.path)
        os.close(self.fd)
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


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
        except (ValueError, KeyError, TypeError, AttributeError, BadInput):
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

