"""A sweep's output file: its rows, one JSON line each, read back on a rerun (resume), held by one sweep."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import tempfile
from pathlib import Path

from ..notation import NOT_JSON, abridged, format_code, json_line, json_lines, parse_code
from ..rules import rules_from_json, rules_object
from ..support.errors import BadInput, shown
from ..support.files import OutputLock, read_text, target_of
from .sweep_case import CASE_FIELDS, RESULT_FIELDS, Case, case_key

#: A histogram's key: a number of guesses, as a row writes it.
GUESSES = re.compile(r"[1-9][0-9]*")


class RowRefused(ValueError):
    """Why a line of an output file is no row a sweep can have written (said after the line's number)."""


def check_fields(row) -> None:
    """Refuse (:class:`RowRefused`, with why) a line that is no object of a finished case's fields, each of its
    type (what the tables read: a row edited by hand to ``"mean": "abc"`` ended a resumed sweep on an internal
    failure); :func:`check_row` then checks what they say."""
    if not isinstance(row, dict):
        raise RowRefused(f"it must be an object of a row's fields, not {_json(row)}")
    missing = [name for name in (*CASE_FIELDS, *RESULT_FIELDS) if name not in row and name != "variant"]
    if missing:
        raise RowRefused(f'it has no "{missing[0]}"')
    try:
        rules = rules_from_json(row["rules"])
    except BadInput as error:
        raise RowRefused(str(error)) from None
    first = row["first_guess"]
    if first is not None and not isinstance(first, str):
        raise RowRefused(f'"first_guess" must be null or a code, not {_json(first)}')
    try:
        if first is not None:
            parse_code(first, rules)
    except BadInput as error:
        raise RowRefused(f"first_guess: {error}") from None
    try:
        Case.from_dict(row)
    except BadInput as error:  # its variant
        raise RowRefused(str(error)) from None
    _check_figures(row)


def _check_figures(row: dict) -> None:
    """The types of a row's result fields (:func:`check_fields`)."""
    if not isinstance(row["opening"], str):
        raise RowRefused(f'"opening" must be a code, not {_json(row["opening"])}')
    for name in ("games", "total_guesses", "max"):
        if not _natural(row[name]):
            raise RowRefused(f'"{name}" must be a whole number of at least 0, not {_json(row[name])}')
    if not _number(row["mean"]):
        raise RowRefused(f'"mean" must be a finite number, not {_json(row["mean"])}')
    histogram = row["histogram"]
    if not isinstance(histogram, dict):
        raise RowRefused(f'"histogram" must be an object of numbers of guesses and games, not {_json(histogram)}')
    for key, games in histogram.items():
        if not GUESSES.fullmatch(key):
            raise RowRefused(f"its histogram's key {shown(key)} is no number of guesses")
        if not _natural(games):
            raise RowRefused(f"its histogram's games for {shown(key)} must be a whole number of at least 0, not "
                             f"{_json(games)}")
    for name in ("seconds", "peak_rss_mb", "start_rss_mb"):
        if not _number(row[name]):
            raise RowRefused(f'"{name}" must be a finite number of at least 0, not {_json(row[name])}')
    if not isinstance(row["host"], str):
        raise RowRefused(f'"host" must be a name, not {_json(row["host"])}')


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _natural(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def check_row(row: dict) -> None:
    """Refuse (:class:`RowRefused`, with why) a row that has its fields (:func:`check_fields`) but is none a sweep
    can have written: figures that disagree (the histogram, its games, total, mean and max), NaN or Infinity
    (which Python's json reads), or an opening that is no code of its rules (or not its first guess)."""
    for name in ("strategy", "backend"):
        if not isinstance(row[name], str) or not row[name]:
            raise RowRefused(f'"{name}" must be a name, not {_json(row[name])}')
    seed = row["seed"]
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RowRefused(f'"seed" must be null or a whole number, not {_json(seed)}')
    if not _finite(row["mean"]):
        raise RowRefused(f'"mean" must be a finite number, not {_json(row["mean"])}')
    for name in ("seconds", "peak_rss_mb", "start_rss_mb"):
        if not (_finite(row[name]) and row[name] >= 0):
            raise RowRefused(f'"{name}" must be a finite number of at least 0, not {_json(row[name])}')
    histogram = row["histogram"]
    games, total = row["games"], row["total_guesses"]
    counted = sum(histogram.values())
    if counted != games:
        raise RowRefused(f"its histogram counts {_json(counted)} games, not its {_json(games)}")
    if not games:
        raise RowRefused("it has no game: a sweep writes the row of a case that played every secret")
    if total != sum(int(k) * n for k, n in histogram.items()):
        raise RowRefused(f"its total_guesses {_json(total)} is not its histogram's, "
                         f"{_json(sum(int(k) * n for k, n in histogram.items()))}")
    most = max(int(k) for k, n in histogram.items() if n)
    if row["max"] != most:
        raise RowRefused(f"its max {_json(row['max'])} is not its histogram's, {_json(most)}")
    try:
        mean = round(total / games, 3)
    except OverflowError:  # a mean too large for a float (a histogram's key edited to 400 digits): none written
        mean = total // games
    if row["mean"] != mean:
        raise RowRefused(f"its mean {_json(row['mean'])} is not total_guesses / games, {_json(mean)}")
    case = Case.from_dict(row)
    rules = case.rules
    try:
        # A strategy's own opening may be a probe outside a no-repeat game's codes (0000): the sweep writes it.
        opening = parse_code(row["opening"], rules, check_repeat=False)
    except BadInput as error:
        raise RowRefused(f"opening: {error}") from None
    if format_code(opening, rules) != row["opening"]:
        raise RowRefused(f"opening {shown(row['opening'])} is not written as a sweep writes it, "
                         f"{format_code(opening, rules)}")
    if case.first_guess is not None and opening != case.first_guess:
        raise RowRefused(f"its opening {row['opening']} is not its first_guess {row['first_guess']}")


def _finite(value: int | float) -> bool:
    """Whether a number is finite as a float: not NaN or Infinity (which Python's json reads), nor a whole number
    too large for a float (1 and 400 zeros, which ``math.isfinite`` and the tables fail on)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _json(value) -> str:
    """A field's value as the row writes it (``true``, ``"7"``, ``NaN``), cut short when long."""
    try:
        return abridged(json.dumps(value), 40)
    except (TypeError, ValueError, RecursionError):
        return "?"


def load_rows(path: Path, lock: OutputLock | None = None) -> tuple[dict[str, dict], int]:
    """The rows of an output file by case key, and how many unreadable lines were dropped from it.

    The last line, when it does not read as JSON and has no end of line (a
    writer killed mid-line), is removed from the file, so that new rows start
    on a line of their own; the other rows, of this grid or not, are kept. Any
    other line that is not a row (:func:`check_fields`, :func:`check_row`: edited by
    hand, say) means the file is not a sweep's output: it is refused
    (:class:`~mm_logic.support.errors.BadInput`, naming the line and why), and left
    as it is. A blank line is passed over (and left out when the file is rewritten).
    ``lock``: the sweep's hold on the file, moved to the file that replaces it.
    """
    if not path.exists():
        return {}, 0
    rows: dict[str, dict] = {}
    kept: list[str] = []
    try:
        text = read_text(path, "--out")
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"--out {path} cannot be read as a sweep's output: {error}") from None
    lines = json_lines(text)
    bad = 0

    def refused(number: int, why: str = "") -> BadInput:
        return BadInput(f"--out {path} is not a sweep's output (line {number} is not one of its rows"
                        f"{': ' + why if why else ''}); name a new file, or one an earlier sweep wrote")

    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json_line(line)
        except ValueError as why:  # not JSON (nested thousands deep too), or a number too long to read
            if number < len(lines) or text.endswith("\n") or not line.startswith("{") or str(why) != NOT_JSON:
                raise refused(number, f"it {why}") from None
            # A kill cut the last row short: it reads as no JSON. (One that reads whole was written whole, or
            # edited: it is checked as any other.)
            bad += 1
            continue
        try:
            check_fields(row)
            key = case_key(row)
            check_row(row)
        except RowRefused as why:
            raise refused(number, str(why)) from None
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError, BadInput):
            # What no check names (each above says why): still one line, never a traceback.
            raise refused(number) from None
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
            # Strict JSON (no NaN or Infinity, which Python would write): other programs read the rows.
            self.file.write(json.dumps(row, allow_nan=False) + "\n")
            self.file.flush()
            os.fsync(self.file.fileno())

    def close(self) -> None:
        if self.file is not None:
            self.file.close()

