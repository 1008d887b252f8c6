"""The journal of ``mmlogic optimal --anytime`` (:mod:`mm_logic.optimal.anytime`): one JSON line per
decision, read back to resume.

The first line names the run (the rules, the heuristic, the settings); each other line is one set's decision,
keyed by its history (``"at"``, entries as the command line writes them):

* ``{"at": [...], "guess": CODE, "parts": [...], "value": N, "seconds": S}``: the guess chosen there by
  look-ahead, the heuristic's cost of each of its parts (in the order the search lists them) and their sum
  with the set's size;
* ``{"at": [...], "optimum": N, "heuristic": H, "seconds": S}``: the exact search's least total there (at
  most the heuristic's ``H``);
* ``{"at": [...], "stopped": S}``: the exact search there was stopped after ``S`` CPU seconds.

A line is checked when read (its form here, its figures against the sets as the run meets them:
:class:`~mm_logic.optimal.anytime.Anytime`); anything wrong is one line naming the file and the line,
and the file is left as it is. A last line cut short (the run killed while writing it) is dropped.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..notation import format_code, format_entry, json_line, parse_code, parse_entry, whole_number
from ..rules import DEFAULT_ALPHABET, Rules
from ..support.errors import BadInput
from ..support.files import OutputLock, read_text, same_json

#: The journal's first line names it and what it was run with.
KIND = "mmlogic optimal --anytime"
VERSION = 1
#: The most seconds a line may say a decision took (a year: more is an edit, and 10**400 is no float).
MAX_SECONDS = 366 * 24 * 3600
#: The keys of each kind of line (besides ``at``).
SHAPES = {"guess": {"guess", "parts", "value", "seconds"}, "optimum": {"optimum", "heuristic", "seconds"},
          "stopped": {"stopped"}}


class AnytimeJournal:
    """The decisions of an anytime run, read back to resume: :meth:`get` by history, :meth:`record` appends."""

    def __init__(self, path: Path | None, rules: Rules, settings: dict):
        self.path, self.rules = path, rules
        self.header = {"kind": KIND, "version": VERSION, "rules": rules.as_dict(), **settings}
        if rules.symbolic and rules.alphabet[: rules.colors] != DEFAULT_ALPHABET[: rules.colors]:
            # The lines write codes with the alphabet: another alphabet's journal named no set of the game, or
            # seemed edited by hand (as the exact search's journal, mm_logic.optimal.journal).
            self.header["alphabet"] = rules.alphabet[: rules.colors]
        #: History (entries as written) -> each kind of line about its set -> (line number, the line).
        self.lines: dict[tuple[str, ...], dict[str, tuple[int, dict]]] = {}
        self._count = 1
        self._lock = None
        if path is None:
            return
        self._lock = OutputLock.take(path, "--journal", "optimal --anytime")
        try:
            if path.stat().st_size:
                self._load(path)
            else:
                self._append(self.header)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Let another run take the journal."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _load(self, path: Path) -> None:
        """Read and check every line; only then drop a last line cut short, or end a last line left without
        its end, so that a file refused is left exactly as it was."""
        try:
            text = read_text(path, "--journal")
        except UnicodeDecodeError:
            raise BadInput(f"cannot read --journal {path}: not text") from None
        rows = text.split("\n")
        cut = end = False
        if rows[-1]:  # the last line has no end: cut short as the run was killed writing it, unless complete
            try:
                json.loads(rows[-1], parse_int=whole_number)
            except BadInput:  # whole, with a number too long to read: refused below, as any line
                end = True
            except ValueError:
                cut = len(rows) > 1  # a file of one line cut short is no journal: said as such below
                if cut:
                    rows[-1] = ""
            else:
                end = True
        for number, line in enumerate(rows if rows[-1] else rows[:-1], 1):
            entry = self._parsed(line, number)
            if number == 1:
                self._check_header(path, entry)
                continue
            at = self._checked(entry, number)
            kind = next(kind for kind in SHAPES if kind in entry)
            known = self.lines.setdefault(at, {})
            # A set is decided once: its optimum, or a search stopped there and then the guess chosen instead.
            clash = kind in known or "optimum" in known or (kind == "optimum" and known)
            if clash:
                earlier = min(n for n, _ in known.values())
                raise BadInput(f"--journal {path}: line {number} decides again the set of line {earlier}; the "
                               "journal is left as it is")
            known[kind] = (number, entry)
            self._count = number
        if cut:
            self._cut(path, len(text) - len(text.split("\n")[-1]))
        elif end:
            self._append_text("\n")  # complete: the next line starts on a line of its own

    def _check_header(self, path: Path, entry) -> None:
        """The first line must name an anytime search of these rules and settings."""
        if not isinstance(entry, dict) or entry.get("kind") != KIND:
            raise BadInput(f"--journal {path} is not the journal of an anytime search (its first line); the file "
                           "is left as it is: name another file")
        if not same_json(entry.get("rules"), self.header["rules"]):
            theirs = entry.get("rules")
            try:
                described = Rules.from_dict(theirs).describe()
            except Exception:  # noqa: BLE001 - a header edited by hand: said as unreadable
                described = "rules not readable"
            raise BadInput(f"--journal {path} is the journal of an anytime search of {described}, not of "
                           f"{self.rules.describe()}")
        if not same_json(entry, self.header):
            raise BadInput(f"--journal {path} is the journal of another run: {_differences(entry, self.header)}; "
                           "the file is left as it is")

    @staticmethod
    def _cut(path: Path, length: int) -> None:
        """Drop a last line cut short (``length``: the characters before it, the file read as UTF-8)."""
        kept = path.read_text(encoding="utf-8")[:length].encode("utf-8")
        with open(path, "r+b") as out:
            out.truncate(len(kept))

    def _parsed(self, line: str, number: int):
        try:
            return json_line(line, parse_constant=_no_constant)
        except ValueError as why:  # blank, not JSON, a number too long to read
            raise self.damaged(number, str(why)) from None

    def _checked(self, entry, number: int) -> tuple[str, ...]:
        """The history of a decision line whose form is right; else BadInput naming the line."""
        if not isinstance(entry, dict) or not isinstance(entry.get("at"), list):
            raise self.damaged(number, "is not a decision of an anytime search")
        kinds = [kind for kind in SHAPES if kind in entry]
        if len(kinds) != 1 or set(entry) - {"at"} != SHAPES[kinds[0]]:
            raise self.damaged(number, "is not a decision of an anytime search (its keys)")
        try:
            at = tuple(format_entry(parse_entry(e, self.rules), self.rules) if isinstance(e, str) else None
                       for e in entry["at"])
            if None in at:
                raise BadInput("an entry is not text")
            if "guess" in entry:
                if not isinstance(entry["guess"], str):
                    raise BadInput("its guess is not a code")
                format_code(parse_code(entry["guess"], self.rules, check_repeat=False), self.rules)
        except BadInput as error:
            raise self.damaged(number, f"names no set of the game ({error})") from None
        numbers = [entry[key] for key in ("value", "optimum", "heuristic") if key in entry]
        if "parts" in entry:
            numbers += entry["parts"] if isinstance(entry["parts"], list) and entry["parts"] else [None]
        if any(type(n) is not int or n < 1 for n in numbers):
            raise self.damaged(number, "has a figure that is not a positive whole number")
        seconds = entry.get("seconds", entry.get("stopped"))
        if type(seconds) not in (int, float) or not 0 <= seconds <= MAX_SECONDS:  # NaN fails too
            raise self.damaged(number, "has seconds that are not a number of seconds")
        if "optimum" in entry and entry["optimum"] > entry["heuristic"]:
            raise self.damaged(number, "has an optimum above the heuristic's cost")
        return at

    def damaged(self, number: int, why: str) -> BadInput:
        """The error of a line: ``--journal FILE: line N is not JSON; the journal is left as it is``."""
        return BadInput(f"--journal {self.path}: line {number} {why}; the journal is left as it is")

    def _append(self, entry: dict) -> None:
        self._append_text(json.dumps(entry, allow_nan=False) + "\n")

    def _append_text(self, text: str) -> None:
        if self.path is not None:
            with open(self.path, "a", encoding="utf-8") as out:
                out.write(text)

    def get(self, at: tuple[str, ...]) -> dict[str, tuple[int, dict]]:
        """What is recorded of the set reached by ``at``: each kind of line (``guess``, ``optimum``,
        ``stopped``) with its line number."""
        return self.lines.get(at, {})

    def record(self, at: tuple[str, ...], **entry) -> None:
        """Append a decision."""
        line = {"at": list(at), **entry}
        self._count += 1
        kind = next(kind for kind in SHAPES if kind in entry)
        self.lines.setdefault(at, {})[kind] = (self._count, line)
        self._append(line)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number")


def _differences(theirs: dict, ours: dict) -> str:
    """What a journal's first line says otherwise than this run's, key by key, values as JSON writes them
    (``its version is true, this run's 1; its alphabet is edcba, this run's none``)."""
    said = []
    for key in [*ours, *(k for k in theirs if k not in ours)]:
        mine, given = key in ours, key in theirs
        if mine and given and same_json(theirs[key], ours[key]):
            continue
        written = _shown(theirs[key]) if given else "none"
        said.append(f"its {key} is {written}, this run's {_shown(ours[key]) if mine else 'none'}")
    return "; ".join(said)


def _shown(value) -> str:
    """A header's value as JSON writes it, shortened (a text without its quotes)."""
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 60 else f"{text[:60]}…"
