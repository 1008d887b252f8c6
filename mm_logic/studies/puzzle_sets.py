"""Puzzle sets for evaluations (``puzzle --count N --out FILE.jsonl``) and their grader (``puzzle --grade``).

A set is a JSON Lines file: one puzzle a line, as a harness loads a dataset. Each is drawn by
:func:`~mm_logic.studies.puzzle.draw_puzzle` from a seed of its own (recorded: ``puzzle --entries N --seed S``
draws it again alone), no two with the same entries, and carries its difficulty: the entries, the codes left
after each, and the guesses an optimal codebreaker would still need from there (the least worst case over the
codes left, found by the optimal search's kernels; the last is 1, the answer itself).

The grader reads a set and the answers, one ``{"answer": "0123"}`` a line in the puzzles' order, and sorts
each answer: ``right`` (the code), ``consistent`` (fits every entry but is not the code: the puzzle had another
answer, which a set drawn here never has), ``inconsistent`` (contradicts an entry), ``malformed`` (not JSON,
no ``answer``, not a code of the puzzle's rules) or ``missing`` (a blank line, or the answers ended first). The
lines of both files end at ``\\n`` alone (:func:`~mm_logic.notation.json_lines`). The answers' checks
are the game's feedback rule's own.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ..codespace import code_space
from ..engines.base import Engine
from ..feedback import rule_of
from ..feedback.variant import variant_of
from ..lies import broken
from ..notation import Entry, format_code, json_lines, parse_code, parse_entry, plural, shown, whole_number
from ..rules import DEFAULT_ALPHABET, FEEDBACK_RULES, RULE_FILE, Rules, rules_from_json
from ..support.errors import BadInput
from ..support.files import from_here
from ..support.limits import MAX_COUNT  # the most puzzles one set holds (--count)
from ..support.waiting import waiting
from .puzzle import DEFAULT_TRIES, PuzzleNotFound, draw_puzzle, entries_word
from .written_game import engine_secrets

#: Codes left beyond which the guesses still needed are not searched (``null``): a worst case over more takes
#: the optimal search minutes.
NEEDED_UP_TO = 2_000
#: Code spaces beyond which they are not searched at all: the search's feedback table holds codes² bytes.
NEEDED_SPACE_UP_TO = 10_000
#: The verdicts of :func:`grade`, in the order the summary gives them.
VERDICTS = ("right", "consistent", "inconsistent", "malformed", "missing")


def default_entries(rules: Rules, secrets: int) -> tuple[int, ...]:
    """The entries a set's puzzles take in turn when ``--entries`` is not given: from the fewest that may single
    out a code among ``secrets`` (each entry tells at most the rule's number of feedbacks apart) to two more,
    three levels of difficulty (:func:`draw_set` leaves out the larger ones a game has no puzzle of).

    >>> default_entries(Rules(4, 6), 1296), default_entries(Rules(3, 4), 64)
    ((3, 4, 5), (2, 3, 4))
    """
    rule = rule_of(rules)
    # A rule of one's own does not count its classes: the answers it writes bound them.
    told = max(2, rule.classes(rules.pegs) or rule.written_count(rules.pegs))
    least = max(1, math.ceil(math.log(max(secrets, 2)) / math.log(told)))
    return least, least + 1, least + 2


class StillNeeded:
    """The guesses an optimal codebreaker still needs from the codes a history leaves (the least worst case,
    the winning guess included), by the optimal search's kernels; None where they are too many to search."""

    def __init__(self, rules: Rules, secrets: np.ndarray, on_compile: Callable[[], None] | None = None):
        self.space = code_space(rules)
        self.secrets = secrets
        self.searcher = None
        if self.space.size <= NEEDED_SPACE_UP_TO:
            from ..optimal.searcher import Searcher, compile_kernels

            compile_kernels(on_compile, worst=True, rules=rules)
            self.searcher = Searcher(rules, secrets=None if secrets.size == self.space.size else secrets)

    def after(self, history: list[Entry]) -> list[int | None]:
        """For each entry of ``history``, the guesses still needed after it."""
        needed: list[int | None] = []
        guesses = [int(g) for g in self.space.index_of(np.array([guess for guess, _ in history], dtype=np.int64))]
        alive = self.secrets
        for i, entry in enumerate(history, 1):
            alive = self.space.keep(alive, entry)  # each entry filters what the one before left
            needed.append(self._worst_case(np.asarray(alive, dtype=np.int32), guesses[:i]))
        return needed

    def _worst_case(self, alive: np.ndarray, guesses: list[int]) -> int | None:
        if alive.size == 1:
            return 1
        if self.searcher is None or alive.size > NEEDED_UP_TO:
            return None
        depth = 2
        while not self.searcher.can_solve(alive, guesses, depth):
            depth += 1
        return depth


def draw_set(engine: Engine, count: int, seed: int | None, entries: int | None = None, tries: int = DEFAULT_TRIES,
             on_compile: Callable[[], None] | None = None) -> Iterator[dict]:
    """``count`` distinct puzzles of the engine's game, each a set's line (:func:`puzzle_line`), drawn in turn.

    Puzzle ``i`` is drawn from a seed of its own, taken from ``seed``'s stream; one whose entries another
    puzzle of the set has already (in any order) is drawn again, up to ``tries`` times. Raises
    :class:`~mm_logic.studies.puzzle.PuzzleNotFound` as :func:`~mm_logic.studies.puzzle.draw_puzzle` does.
    """
    if not 1 <= count <= MAX_COUNT:
        raise BadInput(f"--count must be between 1 and {MAX_COUNT:,}, got {count}")
    rules = engine.rules
    secrets = engine_secrets(engine)
    secrets = np.arange(code_space(rules).size, dtype=np.int64) if secrets is None else secrets
    levels = (entries,) if entries is not None else default_entries(rules, secrets.size)
    needed = StillNeeded(rules, secrets, on_compile)
    seeds = np.random.default_rng(seed)
    seen: set[frozenset] = set()
    number = 0
    while number < count:
        size = levels[number % len(levels)]
        # Its draws and the guesses still needed after each entry: said on stderr when they take long (a progress
        # bar, on a terminal, moves only once a puzzle is drawn).
        with waiting(f"drawing puzzle {number + 1:,} of {count:,} ({rules.describe()})"):
            try:
                puzzle = _new_puzzle(engine, size, seeds, tries, seen, number)
            except PuzzleNotFound:
                if entries is not None or size == levels[0]:
                    raise
                # A default level the game has no puzzle of (few codes, a rule that tells little): left out.
                levels = tuple(level for level in levels if level != size)
                continue
            line = puzzle_line(number + 1, puzzle, needed.after(puzzle.check.history))
        number += 1
        seen.add(frozenset(puzzle.check.history))
        yield line


def _new_puzzle(engine: Engine, size: int, seeds: np.random.Generator, tries: int, seen: set, drawn: int):
    """A puzzle of ``size`` entries none of ``seen`` has, drawn from its own seed of the ``seeds`` stream."""
    for _ in range(tries):
        own = int(seeds.integers(2**63))
        puzzle = draw_puzzle(engine, size, own, tries)
        if frozenset(puzzle.check.history) not in seen:
            return puzzle
    raise PuzzleNotFound(f"no new puzzle of {entries_word(size)} found in {tries:,} draws after "
                         f"{plural(drawn, 'puzzle')} ({engine.rules.describe()}): the game has too few; "
                         "ask for fewer (--count) or other --entries")


def puzzle_line(number: int, puzzle, needed: list[int | None]) -> dict:
    """A set's line: the puzzle as ``puzzle --json`` writes it (``rules``, ``history``, ``secret``, ``prompt``,
    its own ``seed``), its ``id``, the rules' ``alphabet`` where it is not the default, the rule file it was
    drawn under (``variant``: path and sha256), and its ``difficulty``."""
    drawn = puzzle.as_dict()
    rules = puzzle.rules
    line = {"id": number, **{k: drawn[k] for k in ("rules", "history", "secret", "prompt", "seed")}}
    if rules.alphabet != DEFAULT_ALPHABET:
        line["alphabet"] = rules.alphabet
    variant = variant_of(rules, puzzle.encoding)
    if variant:
        line["variant"] = variant
    line["difficulty"] = {"entries": drawn["entries"], "remaining": drawn["remaining"], "still_needed": needed}
    return line


@dataclass
class Graded:
    """One answer's verdict (:data:`VERDICTS`), with the answer as given and, when malformed, why."""

    puzzle: int
    verdict: str
    answer: str | None = None
    why: str | None = None

    def as_dict(self) -> dict:
        found = {"puzzle": self.puzzle, "verdict": self.verdict, "answer": self.answer}
        return {**found, "why": self.why} if self.why else found


@dataclass
class Grading:
    """A set's answers graded: ``puzzle --grade``'s result."""

    puzzles: Path
    answers: Path
    graded: list[Graded] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        """Answers of each verdict, every verdict named."""
        found = Counter(g.verdict for g in self.graded)
        return {verdict: found[verdict] for verdict in VERDICTS}

    @property
    def score(self) -> float:
        """The share of puzzles answered right."""
        return self.counts["right"] / len(self.graded)

    def as_dict(self) -> dict:
        """``puzzle --grade --json``'s object (docs/cli.md)."""
        return {"puzzles": len(self.graded), **self.counts, "score": round(self.score, 4),
                "answers": [g.as_dict() for g in self.graded]}

    def text(self) -> str:
        """The summary, then each answer that is not right."""
        counts = self.counts
        lines = [f"{plural(len(self.graded), 'puzzle')} of {self.puzzles}, answers from {self.answers}: "
                 f"{counts['right']:,} right ({self.score:.1%})",
                 "  " + ", ".join(f"{verdict} {counts[verdict]:,}" for verdict in VERDICTS)]
        for g in self.graded:
            if g.verdict != "right":
                lines.append(f"  puzzle {g.puzzle}: {g.verdict}"
                             + (f" ({shown(g.answer)})" if g.answer is not None else "")
                             + (f": {g.why}" if g.why else ""))
        return "\n".join(lines)


@dataclass(frozen=True)
class SetPuzzle:
    """A puzzle of a set as the grader reads it: its rules, its history and its one code."""

    rules: Rules
    history: list[Entry]
    secret: tuple[int, ...]


def read_set(path: Path, text: str, feedback: str | None) -> list[SetPuzzle]:
    """The puzzles of a set's text, each line checked (its rules, history and code, the code fitting every
    entry); a bad line is one :class:`BadInput` naming the file and the line. A puzzle of a rule file of one's
    own is read only under ``feedback``, the command's ``--feedback`` naming that file (the same sha256): the
    file a set names is never loaded because the set names it."""
    puzzles = []
    for number, line in enumerate(json_lines(text), 1):
        if not line.strip():
            continue
        try:
            puzzles.append(_set_puzzle(line, feedback))
        except BadInput as error:
            raise BadInput(f"{path} line {number}: {error}") from None
    if not puzzles:
        raise BadInput(f"{path} holds no puzzle (one JSON object a line)")
    return puzzles


def _set_puzzle(line: str, feedback: str | None) -> SetPuzzle:
    try:
        data = json.loads(line, parse_int=whole_number)
    except (json.JSONDecodeError, RecursionError, ValueError):
        raise BadInput("not a JSON object") from None
    if not isinstance(data, dict) or not isinstance(data.get("history"), list) \
            or not isinstance(data.get("secret"), str) or not all(isinstance(e, str) for e in data["history"]):
        raise BadInput('a puzzle must be {"rules": {...}, "history": ["GUESS:B,W", ...], "secret": CODE}')
    rules = rules_from_json(data.get("rules"), data.get("alphabet"))
    if rules.feedback_kind == RULE_FILE:
        rules = _own_rule(rules, data.get("variant"), feedback)
    elif feedback is not None and feedback != rules.feedback:
        raise BadInput(f"the puzzle plays the {rules.feedback} rule, not --feedback {feedback}")
    history = [parse_entry(entry, rules, check_repeat=False) for entry in data["history"]]
    secret = parse_code(data["secret"], rules)
    broken = _first_broken(rules, history, secret)
    if broken is not None:
        raise BadInput(f"its secret {data['secret']} does not fit entry {broken + 1} ({data['history'][broken]})")
    return SetPuzzle(rules, history, secret)


def _own_rule(rules: Rules, variant, feedback: str | None) -> Rules:
    """The puzzle's rules under the command's ``--feedback`` file, checked to be the file the set records."""
    recorded = variant.get("feedback") if isinstance(variant, dict) else None
    if feedback is None or feedback in FEEDBACK_RULES:
        path = recorded.get("file") if isinstance(recorded, dict) else None
        raise BadInput(f"the puzzle plays {rules.describe()}, a rule of your own that only --feedback loads: give "
                       f"--feedback {from_here(path if isinstance(path, str) else rules.feedback)} (the same file)")
    if not isinstance(recorded, dict) or not isinstance(recorded.get("sha256"), str):
        raise BadInput('a puzzle of a rule of your own names it in "variant": {"feedback": {"file", "sha256"}}')
    found = variant_of(replace(rules, feedback=feedback), None)
    if found is None or found["feedback"]["sha256"] != recorded["sha256"]:
        raise BadInput(f"the puzzle was drawn under {recorded.get('file')} (sha256 {recorded['sha256'][:12]}), "
                       f"not --feedback {feedback}")
    return replace(rules, feedback=feedback)


def _first_broken(rules: Rules, history: list[Entry], code: tuple[int, ...]) -> int | None:
    """The first entry (from 0) whose feedback ``code`` would not get, None when it fits them all."""
    return next(iter(broken(rules, history, code)), None)


def grade(puzzles_file: Path, puzzles_text: str, answers_file: Path, answers_text: str,
          feedback: str | None = None) -> Grading:
    """Grade the answers (one ``{"answer": CODE}`` a line, in the puzzles' order: a blank line is its puzzle's,
    missing) to a set's puzzles; a bad puzzle line, or more answers than puzzles, is one :class:`BadInput` line
    (nothing is graded)."""
    puzzles = read_set(puzzles_file, puzzles_text, feedback)
    answers = json_lines(answers_text)
    while answers and not answers[-1].strip():
        answers.pop()  # blank lines after the last answer answer nothing; one before an answer is its puzzle's
    if len(answers) > len(puzzles):
        raise BadInput(f"{answers_file} holds {len(answers):,} answers for the {len(puzzles):,} puzzles of "
                       f"{puzzles_file}: one answer a line, in the puzzles' order")
    grading = Grading(puzzles_file, answers_file)
    for number, puzzle in enumerate(puzzles, 1):
        line = answers[number - 1] if number <= len(answers) else None
        grading.graded.append(_graded(number, puzzle, line))
    return grading


def _graded(number: int, puzzle: SetPuzzle, line: str | None) -> Graded:
    if line is None or not line.strip():
        return Graded(number, "missing")
    try:
        data = json.loads(line, parse_int=whole_number)
    except (json.JSONDecodeError, RecursionError, ValueError, BadInput):
        return Graded(number, "malformed", why="not a JSON object")
    if not isinstance(data, dict) or not isinstance(data.get("answer"), str):
        return Graded(number, "malformed", why='an answer must be {"answer": CODE}')
    answer = data["answer"]
    try:
        code = parse_code(answer, puzzle.rules)
    except BadInput as error:
        return Graded(number, "malformed", answer, str(error))
    if code == puzzle.secret:
        return Graded(number, "right", format_code(code, puzzle.rules))
    broken = _first_broken(puzzle.rules, puzzle.history, code)
    if broken is None:
        return Graded(number, "consistent", answer)
    return Graded(number, "inconsistent", answer, f"it does not fit entry {broken + 1}")
