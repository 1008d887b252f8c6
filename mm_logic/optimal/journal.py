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
:mod:`mm_logic.optimal.tasks`): its cost there (the part's size
and its own parts' costs) and its subtree, rooted at the guess, or a bound,
or whether its parts can each be solved within ``depth - 1`` guesses. These
lines, the large parts' solved sets, are what the workers share: whichever
machine searched a guess, a run given the journal does not search it again.
Version 1 journals (none has a guess line) are read as before. Each line is
flushed and synced as it is written; a last line without its end of line (a
kill cut it short) is never read, and is cut off the file; any other line that
is no part's result refuses the journal, named with why (``line 7 is not a
part's result: it is not JSON``), before anything is searched or written. A line edited by hand is not
trusted: each is checked against the search it resumes (:class:`LineChecks`:
its fields' types, its part, an exact total replayed on the part's codes, a
bound or a solvability within what the part's size allows, no two lines of a
part that disagree), and one that fails is named with why. The first line names the
alphabet too when the codes are not written with the default one, and a rule of
one's own (``--feedback FILE``) by the file's absolute path and sha256, as saved
trees and sweep rows name it (``"variant": {"feedback": {"file": PATH, "sha256":
DIGEST}}``): the same file by any name (another folder, a hard link) resumes the
search, and a rule edited since is refused in one line (``the rule file changed
since``) before anything is searched, where its lines would be read as results of
another game. A first line without ``"variant"`` (a journal written before first
lines recorded the digest) is compared as before: by the rule's name as given,
the file unchecked. One search
holds the file at a time (``mm_logic.support.files.OutputLock``): a second
refuses at once.

A line of a part or guess that was searched (not read back) also says what it
took, ``"positions"`` and ``"seconds"`` (its search's CPU time): a long
search's rate and what is left of it can be read off its journal while it
runs (``py/tools/journal_effort.py``). Readers check their types and ignore them.
Lines are written as strict JSON (no NaN or Infinity).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..codespace import code_space
from ..feedback import rule_of
from ..feedback.variant import variant_of
from ..kernels.optimal.arrays import INF
from ..notation import (
    Code,
    Feedback,
    abridged,
    format_code,
    format_feedback,
    json_line,
    json_lines,
    parse_code,
    parse_feedback,
    plural,
)
from ..rules import DEFAULT_ALPHABET, RULE_FILE, Rules
from ..strategies.tree import TreeNode, node_object, read_node
from ..support.errors import BadInput, shown
from ..support.files import OutputLock, same_json, target_of
from .searcher import feedbacks_met, perfect_split_bound

KIND = "mmlogic optimal"
VERSION = 2
#: The versions read: version 1 had no guess lines.
READABLE = (1, 2)


class Journal:
    """The parts a search of one game (and hard mode or not) has settled, read from and appended to a file."""

    def __init__(self, path: Path, rules: Rules, consistent_only: bool, secrets: np.ndarray | None = None):
        self.path = Path(path)
        self.rules = rules
        self.consistent_only = consistent_only
        self.secrets = secrets
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
        if rules.feedback_kind == RULE_FILE:
            # The rule file by its path and digest: the same file named otherwise resumes, an edited one is refused.
            self.header["variant"] = {"feedback": variant_of(rules, None)["feedback"]}
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
        lines = json_lines(text)
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
        if not any(same_json(head.get("version"), version) for version in READABLE):
            raise BadInput(f"--journal {self.path} is journal version {json.dumps(head.get('version'))}; "
                           f"this mmlogic reads versions {' and '.join(map(str, READABLE))}")
        # A first line without "variant" was written before first lines recorded a rule file's digest: compared
        # as it was, by the rule's name.
        mine = self.header if "variant" in head else {k: v for k, v in self.header.items() if k != "variant"}
        if not same_json(_game(head), _game(mine)):
            alphabets = head.get("alphabet") != self.header.get("alphabet")
            raise BadInput(f"--journal {self.path} is the journal of another search "
                           f"({_described(head, alphabets)}), not of {_described(self.header, alphabets)}")
        if "variant" in head:
            self._check_rule_file(head["variant"])
        # A damaged line (an end of line after it: no kill cut it short), or one that says what the search cannot
        # have found (edited), refuses the journal, named, before any part is searched: none of it is used, and
        # nothing is written after it.
        checks = LineChecks(self.rules, self.consistent_only, self.secrets)
        for number, line in enumerate(lines[1:], 2):
            try:
                self._take(checks.line(read_line(line), number))
            except LineRefused as why:
                raise BadInput(f"--journal {self.path}: line {number} is not a part's result: {why}") from None
            except (KeyError, TypeError, ValueError, AttributeError, RecursionError, BadInput):
                # What no check names (each above says why): still one line, never a traceback.
                raise BadInput(f"--journal {self.path}: line {number} is not a part's result") from None
            self.read += 1

    def _check_rule_file(self, variant) -> None:
        """Refuse a journal whose first line records another digest of the rule file than the command's own
        (edited since, or another file): its lines are results of another game."""
        theirs = variant.get("feedback") if isinstance(variant, dict) and set(variant) == {"feedback"} else None
        if not (isinstance(theirs, dict) and set(theirs) == {"file", "sha256"}
                and all(isinstance(value, str) for value in theirs.values())):
            raise BadInput(f'--journal {self.path}: its first line\'s "variant" is not {{"feedback": {{"file": PATH, '
                           '"sha256": DIGEST}}')
        ours = self.header["variant"]["feedback"]
        if theirs["sha256"] == ours["sha256"]:
            return
        try:
            edited = os.path.samefile(theirs["file"], ours["file"])
        except OSError:  # not there any more, or not readable: not the command's file
            edited = False
        other = "" if edited else f", or {self.rules.feedback} is another file"
        raise BadInput(f"--journal {self.path} was written with feedback {abridged(theirs['file'], 200)} (sha256 "
                       f"{theirs['sha256'][:12]}): the rule file changed since{other} (sha256 {ours['sha256'][:12]}"
                       f"{' now' if edited else ''}); give a new --journal to search with this rule")

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

    def _take(self, line: Line) -> None:
        if line.within is not None:
            self.within[line.key] = line.within
            return
        known = self.costs.get(line.key)
        if known is None or _better((line.value, line.budget), known[:2]):
            self.costs[line.key] = (line.value, line.budget, line.tree)

    def _write(self, entry: dict) -> None:
        # Strict JSON (no NaN or Infinity, which Python would write): other programs read journals.
        self.file.write(json.dumps(entry, allow_nan=False) + "\n")
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


def _game(header: dict) -> dict:
    """The search a journal's first line names, as two are compared: a rule file recorded with its digest
    (``"variant"``) stands for itself whatever name it was given (the digests are compared apart)."""
    game = {**header, "version": VERSION}
    recorded = "variant" in game  # whatever it holds: a damaged one is refused apart, named
    game.pop("variant", None)
    if recorded and isinstance(game.get("rules"), dict):
        game["rules"] = {**game["rules"], "feedback": None}
    return game


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


# -- the lines read back ------------------------------------------------------------------------
class LineRefused(ValueError):
    """Why a journal's line is no part's result the search can have written (said after the line's number)."""


#: The fields every line has, and those of a cost line (a line of ``within`` has it instead).
FIELDS, COST_FIELDS = ("opening", "feedback", "depth"), ("budget", "value")


def read_line(line: str):
    """A journal's line read as JSON; :class:`LineRefused` with why where it is none: blank, not JSON, a number
    too long to read."""
    try:
        return json_line(line)
    except ValueError as why:
        raise LineRefused(f"it {why}") from None


def check_fields(entry) -> None:
    """Refuse (:class:`LineRefused`, with why) a line that is no object of a part's fields, or lacks one (their
    values are checked apart: :meth:`LineChecks.line`)."""
    if not isinstance(entry, dict):
        raise LineRefused(f"it must be an object of a part's fields, not {_json(entry)}")
    missing = [name for name in (*FIELDS, *(() if "within" in entry else COST_FIELDS)) if name not in entry]
    if missing:
        raise LineRefused(f'it has no "{missing[0]}"')


@dataclass(frozen=True)
class Line:
    """One line of a journal, checked: its part (and guess) and depth, and what it says of it."""

    #: (opening, feedback, depth, guess or None), as :class:`Journal` keys them.
    key: tuple[str, str, int | None, str | None]
    #: Whether the part (or the guess's parts) can be solved within the depth; None: a cost line.
    within: bool | None = None
    value: int = 0
    budget: int = 0
    #: The subtree of an exact cost (``value < budget``), as the line writes it.
    tree: dict | None = None


class LineChecks:
    """What the lines of a journal are checked against: the search of ``rules`` (hard mode or not, the secrets of
    an edited encoding or every code) that wrote them.

    Each line must be one the search can have written: its fields of their types (whole numbers, not true for
    1; no NaN), its opening and guess codes of the game and its feedback a part's (as the journal writes them:
    any other spelling is never asked for); an exact cost must be its subtree's, replayed on the part's codes
    (every code found, within the depth, every guess consistent in hard mode); a bound must lie between the
    least the part's size allows and what guessing its codes in turn costs; whether a part can be solved within
    a depth must agree with what its size allows; and two lines of one part must not contradict each other.
    What no check sees: a subtree edited to another strategy with that strategy's total (a cost the search
    could have found), or a bound raised within its range (only a search again proves a bound).
    """

    def __init__(self, rules: Rules, consistent_only: bool, secrets: np.ndarray | None):
        self.rules = rules
        self.hard = consistent_only
        self.secrets = secrets
        self.rule = rule_of(rules)
        #: (key, kind) -> (what the line says, its number): kind "exact", "bound" (the highest) or "within".
        self.seen: dict[tuple, tuple[int | bool, int]] = {}
        self._ready = False

    def _prepare(self) -> None:
        """The game's codes, table and bounds, the first time a line needs them (a journal of no part reads none)."""
        if self._ready:
            return
        self.space = code_space(self.rules)
        self.table = self.space.table
        self.win = self.rule.win_index(self.rules.pegs)
        # Looked up for every node of every subtree replayed (5x7's journal: 310,000 nodes).
        self.indices = {code: index for index, code in enumerate(map(tuple, self.space.codes.tolist()))}
        self.answers: dict[int, Feedback] = {}
        self.root = np.arange(self.space.size) if self.secrets is None else np.asarray(self.secrets)
        # As the search counts them (a rule that narrows the code space may count one more, its "not admitted"
        # on the diagonal: the bounds below are then a little weaker, never wrong).
        self.classes = max(1, feedbacks_met(self.table) - 1)
        self.least = perfect_split_bound(int(self.root.size), self.classes)
        self._ready = True

    # -- a line's fields -------------------------------------------------------------------------
    def line(self, entry: dict, number: int) -> Line:
        """``entry`` (line ``number``, as :func:`read_line` reads it) checked; raises :class:`LineRefused` with
        why."""
        check_fields(entry)
        opening = self._code(entry["opening"], "opening")
        feedback = self._feedback(entry["feedback"])
        guess = entry.get("guess")
        guess = None if guess is None else self._code(guess, "guess")
        within = "within" in entry
        if within and "value" in entry:
            raise LineRefused('it has both "within" and "value"')
        depth = _whole(entry, "depth", null=not within)
        if "positions" in entry:
            _whole(entry, "positions")
        if "seconds" in entry and not (_number(entry["seconds"]) and entry["seconds"] >= 0):
            raise LineRefused(f'"seconds" must be a finite number of at least 0, not {_json(entry["seconds"])}')
        key = (entry["opening"], entry["feedback"], depth, None if guess is None else entry["guess"])
        self._prepare()
        part = self._part(opening, feedback)
        if within:
            solvable = entry["within"]
            if not isinstance(solvable, bool):
                raise LineRefused(f'"within" must be true or false, not {_json(solvable)}')
            self._check_within(part, depth, guess, solvable)
            self._agree(key, "within", solvable, number)
            return Line(key, within=solvable)
        value, budget = _whole(entry, "value"), _whole(entry, "budget")
        tree = entry.get("tree") if value < budget else None
        if value < budget:
            try:
                node = read_node(tree, self.rules)  # a bad subtree: one line, not a failure at the end
            except BadInput as error:
                raise LineRefused(f"its subtree: {error}") from None
            if guess is not None and node.guess != guess:
                raise LineRefused(f"its subtree starts with {format_code(node.guess, self.rules)}, not with its "
                                  f"guess {entry['guess']}")
            total = self._replay(node, part, depth)
            if total != value:
                raise LineRefused(f"its total {_json(value)} is not that of its subtree, {total}")
            self._agree(key, "exact", value, number)
        else:
            self._check_bound(part, depth, guess, value)
            self._agree(key, "bound", value, number)
        return Line(key, value=value, budget=budget, tree=tree)

    def _code(self, text, name: str) -> Code:
        if not isinstance(text, str):
            raise LineRefused(f'"{name}" must be a code, not {_json(text)}')
        try:
            code = parse_code(text, self.rules)
        except BadInput as error:
            raise LineRefused(f"{name}: {error}") from None
        if format_code(code, self.rules) != text:
            raise LineRefused(f"{name} {shown(text)} is not written as the journal writes it, "
                              f"{format_code(code, self.rules)}")
        return code

    def _feedback(self, text) -> Feedback:
        if not isinstance(text, str):
            raise LineRefused(f'"feedback" must be feedback, not {_json(text)}')
        try:
            feedback = parse_feedback(text, self.rules)
        except BadInput as error:
            raise LineRefused(str(error)) from None
        if format_feedback(feedback, self.rules) != text:
            raise LineRefused(f"feedback {shown(text)} is not written as the journal writes it, "
                              f"{format_feedback(feedback, self.rules)}")
        if feedback == self.rule.win(self.rules.pegs):
            raise LineRefused(f"feedback {text} is the win, no part")
        return feedback

    # -- against the game ------------------------------------------------------------------------
    def _index(self, code: Code) -> int | None:
        """The index of a code of the game, None for one that is none (a colour repeated too often)."""
        return self.indices.get(tuple(code))

    def _answer(self, index: int) -> Feedback:
        """The feedback of an index of the table."""
        if index not in self.answers:
            self.answers[index] = self.rule.from_index(index, self.rules.pegs)
        return self.answers[index]

    def _part(self, opening: Code, feedback: Feedback) -> np.ndarray:
        """The secrets the opening's answer leaves: the part a line is of."""
        row = self.table[self._index(opening), self.root]
        part = self.root[row == self.rule.index(feedback, self.rules.pegs)]
        if not part.size:
            raise LineRefused(f"no code answers {format_feedback(feedback, self.rules)} to the opening "
                              f"{format_code(opening, self.rules)}: no such part")
        return part

    def _leaves(self, guess: Code, part: np.ndarray) -> list[int]:
        """The sizes of the parts ``guess`` leaves of ``part`` (refused in hard mode where it is not one of them)."""
        index = self._index(guess)
        if self.hard and not (part == index).any():
            raise LineRefused(f"its guess {format_code(guess, self.rules)} is not consistent with the answers before "
                              "it (hard mode)")
        row = self.table[index, part]
        return [int(n) for n in np.bincount(row[row != self.win])] if (row != self.win).any() else []

    def _fits(self, size: int, depth: int | None) -> bool:
        """Whether ``depth`` guesses can tell ``size`` codes apart (1 + classes + classes² + ..., as the search)."""
        if depth is None or depth >= size:
            return depth is None or depth >= 0
        total, width = 0, 1
        for _ in range(depth):
            total += width
            if total >= size:
                return True
            width *= self.classes
        return False

    def _floor(self, size: int, depth: int | None) -> int:
        """The least ``size`` codes can cost with ``depth`` guesses left (INF: not enough guesses)."""
        return int(self.least[size]) if self._fits(size, depth) else INF

    def _check_within(self, part: np.ndarray, depth: int, guess: Code | None, solvable: bool) -> None:
        if guess is None:
            n = int(part.size)
            if solvable and not self._fits(n, depth):
                raise LineRefused(f"{plural(n, 'code')} cannot all be found within {plural(depth, 'guess')}")
            if not solvable and n <= depth:
                raise LineRefused(f"{plural(n, 'code')} are all found within {plural(depth, 'guess')} by guessing "
                                  "them in turn")
            return
        sizes, code = self._leaves(guess, part), format_code(guess, self.rules)
        left = depth - 1
        if solvable and (left < 0 or not all(self._fits(m, left) for m in sizes)):
            raise LineRefused(f"the parts its guess {code} leaves cannot all be found within "
                              f"{plural(max(left, 0), 'guess')}")
        if not solvable and left >= 0 and all(m <= left for m in sizes):
            raise LineRefused(f"the parts its guess {code} leaves are all found within {plural(left, 'guess')} by "
                              "guessing their codes in turn")

    def _check_bound(self, part: np.ndarray, depth: int | None, guess: Code | None, value: int) -> None:
        """A lower bound must be at least what the part's size (or the guess's parts') allows, and at most what
        a strategy there costs: guessing the codes in turn, each guess finding at least itself."""
        n = int(part.size)
        within = "" if depth is None else f" within {plural(depth, 'guess')}"
        if guess is None:
            floor = self._floor(n, depth)
            if value < floor:
                raise LineRefused(f"its bound {_json(value)} is below {floor}, the least {plural(n, 'code')} can cost"
                                  f"{within}")
            # Above INF: a part the guesses left cannot solve (a bound found below INF, plus more).
            most = n * (n + 1) // 2 if depth is None or depth >= n else None
            if most is not None and value > most:
                raise LineRefused(f"its bound {_json(value)} is above {most}, what guessing its {plural(n, 'code')} in "
                                  "turn costs")
            return
        sizes, code = self._leaves(guess, part), format_code(guess, self.rules)
        below = None if depth is None else depth - 1
        floor = min(n + sum(self._floor(m, below) for m in sizes), INF) if below is None or below >= 0 else INF
        if value < floor:
            raise LineRefused(f"its bound {_json(value)} is below {floor}, the least its guess {code} can cost at the "
                              f"part's {plural(n, 'code')}{within}")
        if below is None or all(m <= below for m in sizes):
            most = n + sum(m * (m + 1) // 2 for m in sizes)
            if value > most:
                raise LineRefused(f"its bound {_json(value)} is above {most}, what guessing the codes of the parts its "
                                  f"guess {code} leaves in turn costs")

    def _replay(self, node: TreeNode, part: np.ndarray, depth: int | None, level: int = 1) -> int:
        """The total of a subtree played against every code of ``part`` (its guess is guess number ``level`` of the
        part); refused where a code is not found, or found too late, or a guess is no code of the game or, in hard
        mode, not one of the codes left."""
        index = self._index(node.guess)
        if index is None:
            raise LineRefused(f"its subtree's guess {format_code(node.guess, self.rules)} is not a code of "
                              f"{self.rules.describe()}")
        if self.hard and not (part == index).any():
            raise LineRefused(f"its subtree's guess {format_code(node.guess, self.rules)} is not consistent with the "
                              "answers before it (hard mode)")
        if depth is not None and level > depth:
            raise LineRefused(f"its subtree takes more than {plural(depth, 'guess')}")
        if part.size == 1:  # most nodes: a scalar look-up, not numpy's masks
            answer = int(self.table[index, part[0]])
            if answer == self.win:
                return level
            return self._replay(self._child(node, self._answer(answer)), part, depth, level + 1)
        row = self.table[index, part]
        found = row == self.win
        total = level * int(found.sum())
        for answer in np.unique(row[~found]).tolist():
            here = row == answer
            total += self._replay(self._child(node, self._answer(answer)), part[here], depth, level + 1)
        return total

    def _child(self, node: TreeNode, answer: Feedback) -> TreeNode:
        """The subtree after ``answer`` to the node's guess, which a code of the part gives."""
        child = node.children.get(answer)
        if child is None:
            raise LineRefused(f"its subtree has no branch for {format_feedback(answer, self.rules)} after "
                              f"{format_code(node.guess, self.rules)}")
        return child

    def _agree(self, key: tuple, kind: str, said: int | bool, number: int) -> None:
        """Refuse a line that contradicts an earlier line of the same part (and guess, and depth)."""
        seen = self.seen
        if kind == "within":
            earlier = seen.get((key, "within"))
            if earlier is not None and earlier[0] != said:
                raise LineRefused(f"it says {_json(said)} where line {earlier[1]} says {_json(earlier[0])}")
            seen.setdefault((key, "within"), (said, number))
            return
        exact, bound = seen.get((key, "exact")), seen.get((key, "bound"))
        if kind == "exact":
            if exact is not None and exact[0] != said:
                raise LineRefused(f"its total {_json(said)} is not the total {_json(exact[0])} of line {exact[1]}")
            if bound is not None and bound[0] > said:
                raise LineRefused(f"its total {_json(said)} is below the bound {_json(bound[0])} of line {bound[1]}")
            seen.setdefault((key, "exact"), (said, number))
            return
        if exact is not None and said > exact[0]:
            raise LineRefused(f"its bound {_json(said)} is above the total {_json(exact[0])} of line {exact[1]}")
        if bound is None or said > bound[0]:
            seen[(key, "bound")] = (said, number)


def _json(value) -> str:
    """A field's value as the line writes it (``true``, ``"7"``, ``NaN``), cut short when long."""
    try:
        return abridged(json.dumps(value), 40)
    except (TypeError, ValueError, RecursionError):
        return "?"


def _number(value) -> bool:
    """A finite number (not true or false, not NaN or Infinity, which Python's json reads, nor a whole number
    too large for a float: 1 and 400 zeros, which ``math.isfinite`` and every reader of the seconds fail on)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _whole(entry: dict, name: str, null: bool = False) -> int | None:
    """A field that is a whole number of at least 0 (``null``: or null); KeyError where it is missing."""
    value = entry[name]
    if value is None and null:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        kind = "null or a whole number" if null else "a whole number"
        raise LineRefused(f'"{name}" must be {kind} of at least 0, not {_json(value)}')
    return value
