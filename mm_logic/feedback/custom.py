"""A feedback rule of the user's own: ``--feedback FILE.py``.

FILE.py defines ``score(guess, secret)``, the numbers the codemaker tells of a guess (a tuple of
whole numbers from 0 to the pegs, always as many), and may set ``NAME``. The codemaker also says
when a guess is the code: that feedback, written ``won``, is the rule's own, whatever ``score``
gives (telling only the shared colours, 0123 and 1230 both get 4, and only one of them wins).

The module is the rule's reference, as :mod:`.standard` is the standard rule's: the python
engine filters with it, and every engine's answers are checked with it. The clingo and swipl
engines learn the rule from an edited encoding (``--encoding``) that states it: an entry is
``told(T,I,V)`` (the I-th number told of guess T is V) and ``won(T)`` in ASP, ``told(Guess,
Numbers)`` and ``won(Guess)`` in Prolog. ``mm_logic.engines.rule_check`` compares such an
encoding with the module on sample guesses when the engine is made.
"""

from __future__ import annotations

import os
import types
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..errors import BadInput
from ..files import read_bytes, read_text
from ..rules import Code, Feedback
from .rule import FeedbackRule
from .standard import _small_ints

#: The feedback that says the guess is the code, as written; its numbers are all :data:`WIN_VALUE`.
WON = "won"
WIN_VALUE = -1


class CustomRule(FeedbackRule):
    """The rule of a user's module (see the module docstring)."""

    form = "whole numbers separated by commas (e.g. 2 or 1,2), or won"
    json_keys = ("feedback",)
    typed = "the numbers the codemaker tells, e.g. 2 or 1,2 (won when the guess is the code)"
    prompt = "feedback"
    explained = "the numbers your rule tells of my guess (e.g. 2 or 1,2), or won when it is your code"
    # The user's encoding states told/3 in step(t) or told(t); the shipped told.lp states won (its part told(t)).
    asp_parts = ("step", "told")
    # diagnose.lp relaxes the built-in rules' entries; a rule of one's own is relaxed by dropping entries.
    diagnosed = False
    entry_form = "GUESS:NUMBERS (e.g. 0011:2, or 0011:won)"
    json_body = '{"feedback": "2"}'
    json_schema = {"feedback": {"type": "string", "pattern": "^([0-9]+(,[0-9]+)*|won)$"}}

    def __init__(self, path: Path, module: types.ModuleType | None = None, *, label: str | None = None,
                 summary: str | None = None):
        # A subclass that states the rule otherwise (an encoding, :mod:`.encoded`) gives no module.
        self.path = path
        self.name = str(path)
        self.label = label or str(getattr(module, "NAME", path.stem))
        self.summary = summary or (getattr(module, "__doc__", None) or "").strip().split("\n")[0] or \
            f"the rule of {path.name}"
        self._score = getattr(module, "score", None)
        self._arity: int | None = None

    # -- the rule ------------------------------------------------------------------------
    def score(self, guess: Code, secret: Code) -> Feedback:
        if tuple(guess) == tuple(secret):
            return self.win(len(guess))
        return self._told(guess, secret)

    def _told(self, guess: Code, secret: Code) -> Feedback:
        pegs = len(guess)
        try:
            told = self._score(tuple(int(c) for c in guess), tuple(int(c) for c in secret))
        except Exception as error:  # noqa: BLE001 - the user's code: its failure is their one line
            raise BadInput(f"{self.path}: score{tuple(guess), tuple(secret)} failed: "
                           f"{type(error).__name__}: {error}") from None
        if isinstance(told, int) and not isinstance(told, bool):
            told = (told,)
        if not isinstance(told, (tuple, list)) or not told or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= pegs for v in told):
            raise BadInput(f"{self.path}: score{tuple(guess), tuple(secret)} returned {told!r}, not whole numbers "
                           f"from 0 to the {pegs} pegs")
        if self._arity is None:
            self._arity = len(told)
        elif len(told) != self._arity:
            raise BadInput(f"{self.path}: score returned {len(told)} numbers for {tuple(guess), tuple(secret)}, "
                           f"{self._arity} before; it must always tell as many")
        return tuple(told)

    def written_count(self, pegs: int) -> int:
        return (pegs + 1) ** self.arity(pegs) + 1  # the numbers 0..pegs, and won

    def arity(self, pegs: int) -> int:
        """How many numbers the codemaker tells."""
        if self._arity is None:
            self._told((0,) * pegs, (1,) * pegs if pegs else ())
        return self._arity

    def indices(self, guess: Code, codes: np.ndarray, counts: np.ndarray) -> np.ndarray:
        pegs = codes.shape[1]
        return np.fromiter((self.index(self.score(guess, row), pegs) for row in codes.tolist()),
                           dtype=np.int64, count=codes.shape[0])

    def win(self, pegs: int) -> Feedback:
        return (WIN_VALUE,) * self.arity(pegs)

    def asp_facts(self, t: int, fb: Feedback) -> str:
        # The numbers told, or that the guess is the code.
        if fb and fb[0] == WIN_VALUE:
            return f"won({t})."
        return "".join(f"told({t},{i},{v})." for i, v in enumerate(fb, 1))

    def prolog_entries(self, guess: Code, fb: Feedback) -> list:
        if fb and fb[0] == WIN_VALUE:  # the guess is the code
            return [("won", list(guess), [])]
        # ... or the numbers the codemaker told, of a guess that is not the code
        return [("told", list(guess), [int(v) for v in fb]), ("missed", list(guess), [])]

    def right_place(self, fb: Feedback) -> int:
        return 0  # the rule tells nothing of places: only its win ends a game

    # -- indices: the numbers in base pegs + 2, the win's -1 as pegs + 1 ----------------------
    def slots(self, pegs: int) -> int:
        return (pegs + 2) ** self.arity(pegs)

    def index(self, fb: Feedback, pegs: int) -> int:
        return numbers_index(fb, pegs)

    def from_index(self, index: int, pegs: int) -> Feedback:
        return index_numbers(index, pegs, self.arity(pegs))

    # -- text and JSON ---------------------------------------------------------------------
    def read(self, text: str, pegs: int) -> Feedback | None:
        if text.strip().lower() == WON:
            return self.win(pegs)
        return _small_ints(text, self.arity(pegs))

    def write(self, fb: Feedback) -> str:
        return WON if fb and fb[0] == WIN_VALUE else ",".join(map(str, fb))

    def impossible(self, fb: Feedback, pegs: int, colors: int) -> str | None:
        if tuple(fb) == self.win(pegs):
            return None
        if any(v < 0 for v in fb):
            return " is negative"
        if any(v > pegs for v in fb):
            return f" exceeds the {pegs} pegs"
        return None

    def as_json(self, fb: Feedback) -> dict:
        return {"feedback": self.write(fb)}

    def from_json(self, obj: dict, pegs: int) -> Feedback | None:
        told = obj.get("feedback")
        return self.read(told, pegs) if isinstance(told, str) else None


#: The endings of a rule file: a Python module, or an encoding the rule is derived from (:mod:`.encoded`).
RULE_FILE_SUFFIXES = (".py", ".lp", ".pl")


def numbers_index(numbers: Feedback, pegs: int) -> int:
    """The index of the numbers a rule of one's own tells: base ``pegs + 2``, the win's numbers as ``pegs + 1``."""
    index = 0
    for value in numbers:
        index = index * (pegs + 2) + (pegs + 1 if value == WIN_VALUE else value)
    return index


def index_numbers(index: int, pegs: int, arity: int) -> Feedback:
    """Inverse of :func:`numbers_index` for ``arity`` numbers."""
    index = int(index)
    values = []
    for _ in range(arity):
        index, value = divmod(index, pegs + 2)
        values.append(WIN_VALUE if value == pegs + 1 else value)
    return tuple(reversed(values))


def is_rule_file(name: str) -> bool:
    """Whether a ``--feedback`` value names a rule file (``FILE.py``, ``FILE.lp`` or ``FILE.pl``) rather than
    a built-in rule."""
    return name.endswith(RULE_FILE_SUFFIXES)


@dataclass(frozen=True)
class RuleFile:
    """An encoding that states a rule (``FILE.lp``, ``FILE.pl``), found readable: its rule depends on the
    game's size, and is built by :func:`mm_logic.feedback.rule_of` once the rules are known."""

    path: Path


def load_rule(name: str) -> CustomRule | RuleFile:
    """The rule of the module file ``name`` (read again when the file changes); for an encoding, the file
    once it can be read (its rule is derived for a game's rules: :class:`~.encoded.EncodedRule`)."""
    path = Path(name)
    try:
        stat = os.stat(path)
    except OSError as error:
        raise BadInput(f"cannot read --feedback {path}: {error.strerror or error}") from None
    if not name.endswith(".py"):
        try:
            read_bytes(path, "--feedback")
        except OSError as error:
            raise BadInput(f"cannot read --feedback {path}: {error.strerror or error}") from None
        return RuleFile(path)
    return _load(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)
def _load(name: str, mtime: int, size: int) -> CustomRule:
    path = Path(name)
    try:
        source = read_text(path, "--feedback")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not UTF-8 text"
        raise BadInput(f"cannot read --feedback {path}: {reason}") from None
    module = types.ModuleType(f"mmlogic_feedback_{path.stem}")
    module.__file__ = str(path)
    try:
        exec(compile(source, str(path), "exec"), module.__dict__)  # noqa: S102 - the user's own rule
    except SyntaxError as error:
        raise BadInput(f"{path}:{error.lineno}: {error.msg}") from None
    except Exception as error:  # noqa: BLE001 - the user's code: its failure is their one line
        raise BadInput(f"{path}: {type(error).__name__}: {error}") from None
    if not callable(getattr(module, "score", None)):
        raise BadInput(f"{path} defines no score(guess, secret): the numbers the codemaker tells of a guess")
    return CustomRule(path, module)
