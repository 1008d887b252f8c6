"""What an optimal search has proved, part by part, kept in a file so that an interrupted search resumes.

``mmlogic optimal --journal FILE`` appends one JSON line per part of an
opening searched (the sets of codes the opening's feedbacks leave, the
search's units of work, in one process or in workers): its exact cost and
subtree, or the lower bound a failed budget proved, or whether it can be
solved within a number of guesses. A run given the same file again reads
those lines and searches only what they do not answer, so a search killed
after hours loses at most the parts it was searching; the result is the
same as one run's. The first line names the game::

    {"journal": "mmlogic optimal", "version": 2, "rules": {...}, "consistent_only": false}
    {"opening": "0012", "feedback": "1,0", "depth": null, "budget": 1073741824, "value": 1234, "tree": {...}}
    {"opening": "0012", "feedback": "0,1", "depth": 4, "within": true}
    {"opening": "0012", "feedback": "1,0", "guess": "0134", "depth": null, "budget": 1250, "value": 1240, "tree": {...}}

``depth``: the guesses left below the opening (null: no limit). A line
whose ``value`` is below its ``budget`` is exact (its ``tree`` the subtree
found); otherwise ``value`` is a lower bound. A line with a ``guess`` is
one guess at a part searched guess by guess (``--split-above``,
:mod:`mm_logic.studies.optimal_split`): its cost there (the part's size
and its own parts' costs) and its subtree, rooted at the guess, or a bound,
or whether its parts can each be solved within ``depth - 1`` guesses. These
lines, the large parts' solved sets, are what the workers share: whichever
machine searched a guess, a run given the journal does not search it again.
Version 1 journals (none has a guess line) are read as before. Each line is
flushed and synced as it is written; a last line without its end of line (a
kill cut it short) is never read, and is cut off the file; any other line that
is no part's result refuses the journal, named (``line 7 is not a part's
result``), before anything is searched or written. The first line names the
alphabet too when the codes are not written with the default one. One search
holds the file at a time (``mm_logic.files.OutputLock``): a second
refuses at once.

A line of a part or guess that was searched (not read back) also says what it
took, ``"positions"`` and ``"seconds"`` (its search's CPU time): a long
search's rate and what is left of it can be read off its journal while it
runs (``py/tools/journal_effort.py``). Readers ignore them.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from ..errors import BadInput
from ..files import OutputLock, target_of
from ..notation import Code, Feedback, format_code, format_feedback
from ..rules import DEFAULT_ALPHABET, Rules
from ..strategies.tree import TreeNode, node_object, read_node

KIND = "mmlogic optimal"
VERSION = 2
#: The versions read: version 1 had no guess lines.
READABLE = (1, 2)


class Journal:
    """The parts a search of one game (and hard mode or not) has settled, read from and appended to a file."""

    def __init__(self, path: Path, rules: Rules, consistent_only: bool, secrets: np.ndarray | None = None):
        self.path = Path(path)
        self.rules = rules
        self.header = {"journal": KIND, "version": VERSION, "rules": rules.as_dict(),
                       "consistent_only": consistent_only}
        if rules.symbolic and rules.alphabet[: rules.colors] != DEFAULT_ALPHABET[: rules.colors]:
            # The lines write codes with the alphabet: another alphabet's journal would answer no part (and fail
            # on its first subtree). The default's is not named, as journals written before did not name it.
            self.header["alphabet"] = rules.alphabet[: rules.colors]
        if secrets is not None:
            # An edited encoding's secrets: named by their number and a digest of their indices, so that the
            # journal of another variant of the same rules is refused.
            self.header["secrets"] = secrets_name(secrets)
        #: (opening, feedback, depth, guess or None) -> (value, budget, subtree or None): the best known of a
        #: part, or of one guess at it.
        self.costs: dict[tuple[str, str, int | None, str | None], tuple[int, int, dict | None]] = {}
        #: (opening, feedback, depth, guess or None) -> whether the part (or the guess's parts) can be solved.
        self.within: dict[tuple[str, str, int, str | None], bool] = {}
        #: Lines read from an earlier run (the parts it spares this one), and written by this one.
        self.read = self.written = 0
        # Held while the search runs: a second search on the file refuses at once (both searched every part, and
        # their lines interleaved).
        self.lock = OutputLock.take(target_of(self.path), "--journal", "optimal search")
        try:
            existing = self.path.exists() and self.path.stat().st_size > 0
            if existing:
                self._load()
                existing = self._drop_cut_line()
            try:
                self.file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open while the search runs
            except OSError as error:
                raise BadInput(f"cannot write --journal {self.path}: {error.strerror or error}") from None
        except BaseException:
            self.lock.release()
            raise
        if not existing:
            self._write(self.header)

    def _load(self) -> None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = error.strerror if isinstance(error, OSError) else "not text"
            raise BadInput(f"cannot read --journal {self.path}: {reason}") from None
        lines = text.splitlines()
        if not text.endswith("\n") and len(lines) > 1:
            # The last part's line has no end: a kill cut it short while it was written, maybe just before its end
            # of line, where it still reads whole. Never read: it is searched again, and cut off the file. (A first
            # line is checked as the header all the same: a file of one's own is refused, and left as it was.)
            lines = lines[:-1]
        try:
            head = json.loads(lines[0])
        except (json.JSONDecodeError, RecursionError):  # RecursionError: nested thousands deep
            head = None
        if not isinstance(head, dict) or head.get("journal") != KIND:
            raise BadInput(f'--journal {self.path} is not an optimal search\'s journal (no "journal": "{KIND}" '
                           "on its first line): give a new file or one an earlier run of the same search wrote")
        if head.get("version") not in READABLE:
            raise BadInput(f"--journal {self.path} is journal version {json.dumps(head.get('version'))}; "
                           f"this mmlogic reads versions {' and '.join(map(str, READABLE))}")
        if {**head, "version": VERSION} != self.header:
            alphabets = head.get("alphabet") != self.header.get("alphabet")
            raise BadInput(f"--journal {self.path} is the journal of another search "
                           f"({_described(head, alphabets)}), not of {_described(self.header, alphabets)}")
        # A damaged line (an end of line after it: no kill cut it short) refuses the journal, named, before any
        # part is searched: none of it is used, and nothing is written after it.
        for number, line in enumerate(lines[1:], 2):
            try:
                self._take(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError, RecursionError,
                    BadInput):
                raise BadInput(f"--journal {self.path}: line {number} is not a part's result") from None
            self.read += 1

    def _drop_cut_line(self) -> bool:
        """Cut off a last line that a kill left unfinished (no newline), so that the lines written next start
        on their own; whether anything (the header) is left."""
        data = self.path.read_bytes()
        if not data.endswith(b"\n"):
            try:
                with open(self.path, "rb+") as file:
                    file.truncate(data.rfind(b"\n") + 1)
            except OSError as error:
                raise BadInput(f"cannot write --journal {self.path}: {error.strerror or error}") from None
        return self.path.stat().st_size > 0

    def _take(self, entry: dict) -> None:
        depth = entry["depth"]
        if depth is not None and not isinstance(depth, int):
            raise ValueError("depth")
        guess = entry.get("guess")
        key = (str(entry["opening"]), str(entry["feedback"]), depth, None if guess is None else str(guess))
        if "within" in entry:
            self.within[key] = bool(entry["within"])
            return
        value, budget, tree = int(entry["value"]), int(entry["budget"]), entry.get("tree")
        if value < budget:
            read_node(tree, self.rules)  # checked now: a bad subtree is one line, not a failure at the end
        known = self.costs.get(key)
        if known is None or _better((value, budget), known[:2]):
            self.costs[key] = (value, budget, tree)

    def _write(self, entry: dict) -> None:
        self.file.write(json.dumps(entry) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())
        self.written += "journal" not in entry

    def _key(self, opening: Code, feedback: Feedback, depth: int | None, guess: Code | None = None
             ) -> tuple[str, str, int | None, str | None]:
        return (format_code(opening, self.rules), format_feedback(feedback, self.rules), depth,
                None if guess is None else format_code(guess, self.rules))

    @staticmethod
    def _line(key: tuple) -> dict:
        """A line's head: the part (opening, feedback), the guess at it if any, the depth."""
        head = {"opening": key[0], "feedback": key[1]}
        if key[3] is not None:
            head["guess"] = key[3]
        return {**head, "depth": key[2]}

    # -- the parts' costs --------------------------------------------------------------------------
    def cost(self, opening: Code, feedback: Feedback, depth: int | None, budget: int, guess: Code | None = None
             ) -> tuple[int, TreeNode | None] | None:
        """What an earlier search settled of a part (or of ``guess`` at it) for ``budget``: ``(cost, subtree)``
        when exact, ``(bound, None)`` when a bound at least ``budget`` (the part fails it again); else None."""
        known = self.costs.get(self._key(opening, feedback, depth, guess))
        if known is None:
            return None
        value, was, tree = known
        if value < was:
            return value, read_node(tree, self.rules) if value < budget else None
        return (value, None) if value >= budget else None

    def record_cost(self, opening: Code, feedback: Feedback, depth: int | None, budget: int, value: int,
                    tree: TreeNode | None, guess: Code | None = None, effort: tuple[int, float] | None = None
                    ) -> None:
        """Keep a part's search (or that of ``guess`` at it): its exact cost and subtree (``value < budget``), or
        a lower bound; ``effort``: the positions and seconds the search took."""
        key = self._key(opening, feedback, depth, guess)
        subtree = node_object(tree, self.rules) if value < budget and tree is not None else None
        if value < budget and subtree is None:
            return  # an exact cost without its subtree would not spare the search of the tree
        known = self.costs.get(key)
        if known is not None and not _better((value, budget), known[:2]):
            return
        self.costs[key] = (value, budget, subtree)
        self._write({**self._line(key), "budget": budget, "value": value, "tree": subtree, **_effort(effort)})

    # -- feasibility ----------------------------------------------------------------------------
    def solvable(self, opening: Code, feedback: Feedback, depth: int, guess: Code | None = None) -> bool | None:
        """Whether an earlier search found the part solvable within ``depth`` guesses (with ``guess``: the parts
        that guess leaves, within ``depth - 1``); None: not searched."""
        return self.within.get(self._key(opening, feedback, depth, guess))

    def record_solvable(self, opening: Code, feedback: Feedback, depth: int, solvable: bool,
                        guess: Code | None = None, effort: tuple[int, float] | None = None) -> None:
        """Keep whether a part (or the parts ``guess`` leaves of it) can be solved in the guesses left, and
        ``effort``, the positions and seconds that took."""
        key = self._key(opening, feedback, depth, guess)
        if key in self.within:
            return
        self.within[key] = solvable
        self._write({**self._line(key), "within": solvable, **_effort(effort)})

    def close(self) -> None:
        """Close the file, and let another search have it."""
        self.file.close()
        self.lock.release()


def _effort(effort: tuple[int, float] | None) -> dict:
    """A line's record of what its search took (nothing for a result not searched here)."""
    if effort is None:
        return {}
    positions, seconds = effort
    return {"positions": int(positions), "seconds": round(float(seconds), 3)}


def _better(new: tuple[int, int], old: tuple[int, int]) -> bool:
    """Whether a part's result ``(value, budget)`` says more than ``old``: exact beats a bound, a higher
    bound a lower one."""
    new_exact, old_exact = new[0] < new[1], old[0] < old[1]
    if old_exact:
        return False
    return new_exact or new[0] > old[0]


def _described(header: dict, alphabet: bool = False) -> str:
    """The search a journal's first line names: ``4x6``, ``3x3, alphabet abc``, ``4x6, hard mode``
    (``alphabet``: name the alphabet its codes are written with, also the default one)."""
    rules = header.get("rules")
    try:
        game = Rules.from_dict(rules) if isinstance(rules, dict) else None
        text = game.describe() if game is not None else "?"
    except (BadInput, KeyError, TypeError, ValueError):
        game, text = None, json.dumps(rules)
    if alphabet:
        written = header.get("alphabet") or (DEFAULT_ALPHABET[: game.colors] if game is not None else "?")
        text += f", alphabet {written}"
    secrets = header.get("secrets")
    if isinstance(secrets, dict):
        text += f", {secrets.get('count')} secrets of an edited encoding"
    return text + (", hard mode" if header.get("consistent_only") else "")


def secrets_name(secrets: np.ndarray) -> dict:
    """An edited encoding's secrets (indices into the rules' codes) as a journal names them: their number
    and the sha256 of their indices as 64-bit integers."""
    indices = np.ascontiguousarray(secrets, dtype="<i8")
    return {"count": int(indices.size), "sha256": hashlib.sha256(indices.tobytes()).hexdigest()}
