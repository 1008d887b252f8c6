"""Puzzles (``mmlogic puzzle``): a history with exactly one consistent code, every entry needed.

:func:`draw_puzzle` draws one reproducibly from a seed: a secret, then guesses
answered by the game's feedback rule, each chosen among a few random ones so that
the codes still possible shrink about evenly to one at the last entry (the python
engine's code space filters fast); a history of one code whose entries are all
needed is then checked by the chosen engine (:func:`check_history`), which counts
the codes consistent with it and with it less each entry in turn. The difficulty
knobs are the rules, the feedback rule and the number of entries.

:func:`check_history` is also ``puzzle --check``: is the code unique, and which
entries could be dropped with the code still unique (redundant)?

>>> from mm_logic.engines.reference import ReferenceEngine
>>> from mm_logic.rules import Rules
>>> puzzle = draw_puzzle(ReferenceEngine(Rules(3, 3)), entries=3, seed=1)
>>> puzzle.check.unique, puzzle.check.redundant
(True, [])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..codespace import MAX_CODES, code_space
from ..engines.base import Engine
from ..feedback import rule_of
from ..notation import Entry, format_code, format_entry, plural
from ..rules import RULE_FILE, Rules
from ..support.errors import BadInput, MMLogicError
from ..support.waiting import waiting
from .written_game import engine_secrets

#: Random guesses drawn for each entry; the one leaving the count nearest the schedule is kept.
CANDIDATES = 24
#: Histories drawn before giving up (``--tries``).
DEFAULT_TRIES = 200


class PuzzleNotFound(MMLogicError):
    """No puzzle of the asked size was found within the tries (exit 1)."""


@dataclass
class Check:
    """What an engine says of a history: how many codes fit it, and which entries it needs."""

    history: list[Entry]
    #: Codes consistent with the history (the engine's count).
    consistent: int
    #: The code, when exactly one fits.
    secret: tuple[int, ...] | None
    #: For each entry, the codes consistent with the history less that entry.
    without: list[int] = field(default_factory=list)

    @property
    def unique(self) -> bool:
        """Whether exactly one code fits the history."""
        return self.consistent == 1

    @property
    def redundant(self) -> list[int]:
        """Entries (from 1) whose removal leaves the same codes possible: not needed."""
        return [i + 1 for i, count in enumerate(self.without) if count == self.consistent]

    @property
    def puzzle(self) -> bool:
        """Whether the history is a puzzle: one code, every entry needed."""
        return self.unique and not self.redundant

    def as_dict(self, rules: Rules) -> dict:
        """``puzzle --check --json``'s object (``docs/cli.md``)."""
        return {"rules": rules.as_dict(), "history": [format_entry(e, rules) for e in self.history],
                "consistent": self.consistent, "unique": self.unique,
                "secret": None if self.secret is None else format_code(self.secret, rules),
                "without": self.without, "redundant": self.redundant, "puzzle": self.puzzle}

    def text(self, rules: Rules) -> str:
        """``puzzle --check``'s text: the codes left, each entry needed or not, the verdict."""
        lines = [f"{plural(self.consistent, 'code')} consistent with the history"
                 + (f": {format_code(self.secret, rules)}" if self.unique else "")]
        for i, (entry, left) in enumerate(zip(self.history, self.without), 1):
            verdict = "redundant" if left == self.consistent else "needed"
            lines.append(f"  {i}. {format_entry(entry, rules)}   {verdict} (without it: {amount_left(left)})")
        if self.puzzle:
            lines.append("a puzzle: one code, every entry needed")
        elif self.unique:
            lines.append(f"not a puzzle: entries {', '.join(map(str, self.redundant))} can each be dropped "
                         "(one at a time) with the code still unique")
        else:
            lines.append("not a puzzle: more than one code fits")
        return "\n".join(lines)


@dataclass
class Puzzle:
    """A drawn puzzle, with the engine's check and what the draw took."""

    rules: Rules
    check: Check
    seed: int | None
    tries: int
    backend: str
    #: Codes still possible after each entry (the engine's counts of the history's prefixes).
    remaining: list[int]
    #: The edited encoding whose codes are the secrets, if any.
    encoding: Path | None = None

    def as_dict(self) -> dict:
        """``puzzle --json``'s object (``docs/cli.md``)."""
        rules = self.rules
        return {"rules": rules.as_dict(), **({"encoding": str(self.encoding)} if self.encoding else {}),
                "history": [format_entry(e, rules) for e in self.check.history],
                "secret": format_code(self.check.secret, rules), "entries": len(self.check.history),
                "seed": self.seed, "tries": self.tries, "backend": self.backend, "remaining": self.remaining,
                "unique": True, "every_entry_needed": True, "prompt": prompt(self.check, rules)}

    def text(self) -> str:
        """The text output: the history to solve, then the answer."""
        rules = self.rules
        game = rules.describe() + (f", the codes of {self.encoding}" if self.encoding else "")
        lines = [f"{entries_word(len(self.check.history))}, one code fits, every entry needed ({game}):"]
        lines += [f"  {format_entry(e, rules)}   ({amount_left(n)})" for e, n in zip(self.check.history,
                                                                                 self.remaining)]
        lines.append(f"secret: {format_code(self.check.secret, rules)}")
        return "\n".join(lines)


def entries_word(n: int) -> str:
    """``1 entry`` / ``3 entries``."""
    return f"{n:,} entr{'y' if n == 1 else 'ies'}"


def amount_left(n: int) -> str:
    """``12 codes left`` / ``1 code left``."""
    return f"{plural(n, 'code')} left"


def prompt(check: Check, rules: Rules) -> str:
    """The puzzle as one question in words, in the spirit of MastermindEval's deductive
    setting (arXiv:2503.05891: the history of a game with one code left, the code asked).

    A built-in rule's summary is a phrase said within the first sentence; a rule of one's own describes itself
    as its author wrote it (its docstring's first line, an encoding's first comment): a sentence of its own.
    """
    rule = rule_of(rules)
    said = "; ".join(f"guess {format_code(g, rules)} got {rule.write(fb)}" for g, fb in check.history)
    game = f"A secret code of {rules.pegs} pegs over the colours {rules.alphabet[:rules.colors]}"
    told = (f"each guess is answered by the game's own rule. {sentence(rule.summary)}"
            if rules.feedback_kind == RULE_FILE else f"each guess is answered with {rule.summary}.")
    return f"{game}; {told} G{said[1:]}. Exactly one code fits: which?"


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter a capital, one full stop at its end (unless it asks or exclaims;
    a ``:`` or ``;`` it ends with dropped).

    >>> sentence("shared colours: black + white;"), sentence("How many are shared?")
    ('Shared colours: black + white.', 'How many are shared?')
    """
    text = text.strip().rstrip(":;,").rstrip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else f"{text}."


def check_history(engine: Engine, history: list[Entry]) -> Check:
    """The engine's counts: codes consistent with ``history``, and with it less each entry in turn.

    Raises the engine's :class:`~mm_logic.support.errors.NoConsistentCode` (exit 3) when no code fits.
    """
    with engine.session(history) as session:
        consistent = session.count()
        secret = session.first() if consistent == 1 else None
    if consistent == 0:
        raise engine.no_solution(history)
    without = [engine.count(history[:i] + history[i + 1:]) for i in range(len(history))]
    return Check(list(history), consistent, secret, without)


def draw_puzzle(engine: Engine, entries: int, seed: int | None = None, tries: int = DEFAULT_TRIES) -> Puzzle:
    """A history of ``entries`` entries with exactly one consistent code, every entry needed.

    The same seed draws the same puzzle (of the same rules and engine answers). Raises
    :class:`PuzzleNotFound` when no draw of ``tries`` succeeds.
    """
    rules = engine.rules
    if rules.size > MAX_CODES:
        raise BadInput(f"{rules.describe()} has more codes than puzzles are drawn from ({MAX_CODES:,})")
    if entries < 1:
        raise BadInput("--entries must be at least 1")
    space = code_space(rules)
    rule = rule_of(rules)
    # The secrets: an edited encoding's codes (every code remains a guess).
    secrets = engine_secrets(engine)
    secrets = np.arange(space.size, dtype=np.int64) if secrets is None else secrets
    rng = np.random.default_rng(seed)
    drawing = f"drawing a puzzle of {entries_word(entries)} ({rules.describe()})"
    # A draw of many entries takes minutes (1,000 entries, 100,000 tries: 9): said on stderr, which try it is at.
    with waiting(drawing) as wait:
        for attempt in range(1, tries + 1):
            wait.what = f"{drawing}, try {attempt:,} of {tries:,}"
            history = _draw(space, rule, rng, entries, secrets)
            if history is None:
                continue
            check = check_history(engine, history)
            if check.puzzle:
                remaining = [engine.count(history[:i]) for i in range(1, len(history) + 1)]
                return Puzzle(rules, check, seed, attempt, engine.name, remaining, engine.encoding)
    tries_word = f"{tries:,} tr{'y' if tries == 1 else 'ies'}"
    raise PuzzleNotFound(f"no puzzle of {entries_word(entries)} with one code and every entry needed found in "
                         f"{tries_word} ({rules.describe()}); try another --entries, --seed or --tries")


def _draw(space, rule, rng: np.random.Generator, entries: int, secrets: np.ndarray) -> list[Entry] | None:
    """One history drawn towards one code at the last entry, or None when the draw missed: a secret among
    ``secrets`` (indices), guesses among every code."""
    n = space.size
    secret_index = int(secrets[rng.integers(secrets.size)])
    secret = space.code(secret_index)
    alive = secrets
    history: list[Entry] = []
    for i in range(entries):
        # the count the schedule aims at after this entry: n^(1 - (i+1)/entries), one at the end
        target = math.log(secrets.size) * (1 - (i + 1) / entries)
        best = None
        for g in rng.integers(n, size=CANDIDATES):
            guess = space.code(int(g))
            if int(g) == secret_index:
                continue
            entry = (guess, rule.score(guess, secret))
            kept = space.keep(alive, entry)
            if len(kept) == len(alive):
                continue  # tells nothing new: never needed
            miss = abs(math.log(len(kept)) - target)
            if best is None or miss < best[0]:
                best = (miss, entry, kept)
        if best is None:
            return None
        history.append(best[1])
        alive = best[2]
        if len(alive) == 1 and i + 1 < entries:
            return None  # solved too soon
    if len(alive) != 1:
        return None
    # every entry needed: the history less any one entry leaves more than one code
    for i in range(entries):
        if len(space.consistent(history[:i] + history[i + 1:], secrets)) == 1:
            return None
    return history
