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

The module's code runs in mmlogic's process, under a limit of its own (``CALL_SECONDS`` for importing
it, and for each call of ``score``, kept by a timer): a module that loops, waits or ends the interpreter
(``sys.exit``) is one line naming the file and what it did (``BadInput``, exit 2). It is read as Python
reads a module (its encoding from a byte order mark or a ``coding`` line).
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import re
import signal
import sys
import threading
import time
import tokenize
import types
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..errors import BadInput
from ..files import read_bytes
from ..rules import Code, Feedback
from .rule import FeedbackRule
from .standard import _small_ints

#: The feedback that says the guess is the code, as written; its numbers are all :data:`WIN_VALUE`.
WON = "won"
WIN_VALUE = -1
#: How long the module's code may run at once (seconds): importing it, and each call of ``score``. The
#: rule's table calls ``score`` for every pair of codes (1,679,616 calls for 4x6), so a call that takes a
#: second is already a rule that cannot be played; this bounds one that never returns. mmlogic's own
#: limit, whatever ``--time-limit`` says (docs/encodings.md).
CALL_SECONDS = 10.0
#: How often the watch looks at the call running (seconds): a call is stopped at most this much late.
WATCH_TICK = 0.1


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
        #: The arguments of the call of ``score`` begun last (what the watch looks at, :class:`_Watch`).
        self._asking: tuple | None = None

    # -- the rule ------------------------------------------------------------------------
    def score(self, guess: Code, secret: Code) -> Feedback:
        with _Watch(self.path, self):
            return self._scored(guess, secret)

    def _scored(self, guess: Code, secret: Code) -> Feedback:
        if tuple(guess) == tuple(secret):
            return self.win(len(guess))
        return self._told(guess, secret)

    def _told(self, guess: Code, secret: Code) -> Feedback:
        """What the module's ``score`` tells of ``guess`` against ``secret`` (under a :class:`_Watch` the
        caller holds), checked to be the rule's numbers."""
        pegs = len(guess)
        # A new object each call: the watch sees the calls go by, and names the one that does not end.
        self._asking = asked = (tuple(int(c) for c in guess), tuple(int(c) for c in secret))
        try:
            told = self._score(*asked)
        except (KeyboardInterrupt, _Overdue):
            raise  # Ctrl-C; the watch's own stop, worded where the watch ends
        except SystemExit as ended:  # it would end mmlogic, silently and with its code
            raise BadInput(f"{self.path}: score{asked} raised SystemExit"
                           f"({'' if ended.code is None else repr(ended.code)})") from None
        except BaseException as error:  # noqa: BLE001 - the user's code: its failure is their one line
            raise BadInput(f"{self.path}: score{asked} failed: {type(error).__name__}: {error}") from None
        if isinstance(told, int) and not isinstance(told, bool):
            told = (told,)
        if not isinstance(told, (tuple, list)) or not told or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= pegs for v in told):
            raise BadInput(f"{self.path}: score{asked} returned {told!r}, not whole numbers "
                           f"from 0 to the {pegs} pegs")
        if self._arity is None:
            self._arity = len(told)
        elif len(told) != self._arity:
            raise BadInput(f"{self.path}: score returned {len(told)} numbers for {asked}, "
                           f"{self._arity} before; it must always tell as many")
        return tuple(told)

    def written_count(self, pegs: int) -> int:
        return (pegs + 1) ** self.arity(pegs) + 1  # the numbers 0..pegs, and won

    def arity(self, pegs: int) -> int:
        """How many numbers the codemaker tells."""
        if self._arity is None:
            with _Watch(self.path, self):
                self._told((0,) * pegs, (1,) * pegs if pegs else ())
        return self._arity

    def indices(self, guess: Code, codes: np.ndarray, counts: np.ndarray) -> np.ndarray:
        pegs = codes.shape[1]
        with _Watch(self.path, self):  # one watch for the whole row (a table is a row per code)
            return np.fromiter((self.index(self._scored(guess, row), pegs) for row in codes.tolist()),
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
        if "-" in text:  # whole numbers have no sign: -1, the win's number inside, was read as won
            return None
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
    module = types.ModuleType(f"mmlogic_feedback_{path.stem}")
    module.__file__ = str(path)
    try:
        code = compile(_source(path), str(path), "exec")
    except SyntaxError as error:
        raise BadInput(f"{path}:{error.lineno}: {error.msg}" if error.lineno else f"{path}: {error.msg}") from None
    # What the module prints while it loads goes to stderr: on stdout it would break a command's --json.
    with _Watch(path), contextlib.redirect_stdout(sys.stderr):
        _run(code, module, path)
    if not callable(getattr(module, "score", None)):
        raise BadInput(f"{path} defines no score(guess, secret): the numbers the codemaker tells of a guess")
    return CustomRule(path, module)


def _run(code: types.CodeType, module: types.ModuleType, path: Path) -> None:
    """Import the module: run its code in its namespace, every failure its one line."""
    try:
        exec(code, module.__dict__)  # noqa: S102 - the user's own rule
    except (KeyboardInterrupt, _Overdue):
        raise  # Ctrl-C; the watch's own stop, worded where the watch ends
    except SystemExit as ended:  # it would end mmlogic, silently and with its code
        raise BadInput(f"{path}: importing it called sys.exit({'' if ended.code is None else repr(ended.code)})") \
            from None
    except BaseException as error:  # noqa: BLE001 - the user's code: its failure is their one line
        raise BadInput(f"{path}: {type(error).__name__}: {error}") from None


#: A coding line, as Python finds it on the first or second line of a module (PEP 263).
_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.ASCII)
#: A line with no code (blank, or a comment), after which the second line may still declare the coding.
_BLANK = re.compile(rb"^[ \t\f]*(?:[#\r\n]|$)", re.ASCII)


def _source(path: Path) -> str:
    """The module's text, read as Python reads a module: in the encoding its first lines declare (a byte
    order mark, a ``# -*- coding: NAME -*-`` line), else UTF-8. One line where Python would not read it."""
    try:
        data = read_bytes(path, "--feedback")
    except OSError as error:
        raise BadInput(f"cannot read --feedback {path}: {error.strerror or error}") from None
    bom = data.startswith(codecs.BOM_UTF8)
    declared = None  # (line, name): the coding line Python reads, the first or a second after a comment
    for number, line in enumerate(data.removeprefix(codecs.BOM_UTF8).splitlines()[:2], 1):
        if found := _CODING.match(line):
            declared = number, found[1].decode()
            break
        if not _BLANK.match(line):
            break
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        if declared is None:
            encoding = "utf-8"  # a first line that is not UTF-8, and no coding line: said below, with its byte
        elif bom:
            raise BadInput(f"{path}:{declared[0]}: the file starts with a UTF-8 byte order mark but declares the "
                           f"encoding {declared[1]}") from None
        else:  # unknown encoding: NAME
            raise BadInput(f"{path}:{declared[0]}: {error.msg}") from None
    skip = len(codecs.BOM_UTF8) if bom else 0
    try:
        return data[skip:].decode("utf-8" if bom else encoding)
    except UnicodeDecodeError as error:
        at = skip + error.start
        line = data.count(b"\n", 0, at) + 1
        said = (f"not {declared[1]} text, the encoding the file declares" if declared else
                "not UTF-8 text, and the file declares no other encoding (a first line # -*- coding: NAME -*-)")
        raise BadInput(f"{path}:{line}: byte 0x{data[at]:02x} is {said}") from None


class _Overdue(BaseException):
    """Raised by the watch where the module's code runs (:class:`_Watch`): a BaseException, so that the
    module's own ``except Exception`` does not take it for one of its errors."""


#: The watch holding the timer (None between watches): :func:`_on_alarm` looks at it.
_watching: _Watch | None = None


class _Watch:
    """While the block runs in the main thread, the module's code may run :data:`CALL_SECONDS` at once:
    importing it (the block that runs it), or one call of ``score`` (a block of ``rule``'s calls).

    A timer (``SIGALRM`` every :data:`WATCH_TICK` s, :func:`_on_alarm`) looks at the call the rule began
    last (:attr:`CustomRule._asking`): one that has not changed for the limit is stopped where it runs,
    as Ctrl-C would stop it (Python runs the handler there, between two instructions, also in a sleep or
    a wait on a file), and the block ends in one :class:`BadInput` line naming the file, the call and the
    limit. A call the module catches the stop in is stopped again at the next tick. Cost: the timer
    started and stopped per block (a row of the rule's table, or one ``score``), and one attribute set per
    call.

    Not watched: other threads (signals reach the main thread only: the server's), a block inside
    another (the outer one watches), and a process whose timer someone else holds. Code that computes in C
    without returning to Python (``10 ** 10 ** 10``) is not stopped either, by this or by Ctrl-C.
    """

    def __init__(self, path: Path, rule: CustomRule | None = None):
        self.path = path
        self.rule = rule
        self.armed = False
        self.seen: object = None
        self.since = 0.0

    def __enter__(self) -> _Watch:
        global _watching
        if _watching is not None or threading.current_thread() is not threading.main_thread():
            return self
        handler = signal.getsignal(signal.SIGALRM)
        if handler is not _on_alarm:
            if handler not in (signal.SIG_DFL, signal.SIG_IGN) or signal.getitimer(signal.ITIMER_REAL)[0]:
                return self  # someone else's alarm
            # Left in place after the block (it does nothing then): an alarm already on its way when the
            # timer stops must not meet the default action, which ends the process.
            signal.signal(signal.SIGALRM, _on_alarm)
        self.seen, self.since = self._progress(), time.monotonic()
        _watching, self.armed = self, True
        signal.setitimer(signal.ITIMER_REAL, WATCH_TICK, WATCH_TICK)
        return self

    def __exit__(self, kind, error, trace) -> None:
        global _watching
        if not self.armed:
            return
        self.armed = False
        signal.setitimer(signal.ITIMER_REAL, 0, 0)
        _watching = None
        if kind is _Overdue:
            if self.rule is None:
                raise BadInput(f"{self.path}: importing it did not end within {CALL_SECONDS:g} s") from None
            raise BadInput(f"{self.path}: score{self.rule._asking} did not return within {CALL_SECONDS:g} s") \
                from None

    def _progress(self) -> object:
        """What changes with each call the rule begins (nothing while the module is imported)."""
        return None if self.rule is None else self.rule._asking


def _on_alarm(number: int, frame) -> None:
    """The watch's tick (:class:`_Watch`): stop the module's code once its call has run past the limit."""
    watch = _watching
    if watch is None or not watch.armed:
        return
    now, progress = time.monotonic(), watch._progress()
    if progress is not watch.seen:
        watch.seen, watch.since = progress, now
    elif now - watch.since >= CALL_SECONDS:
        raise _Overdue
