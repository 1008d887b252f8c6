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

The module's code runs in mmlogic's process, watched (``mm_logic.feedback.watch``: a limit of its own for importing it
and for each call of ``score``, in any thread; what it prints goes to stderr; a table's progress and the
command's ``--time-limit``): a module that loops, waits, ends the interpreter (``sys.exit``), fails or
returns something else than the rule's numbers is one line naming the file and what it did (``BadInput``,
exit 2), what it said or gave quoted on one bounded line. So is a ``score`` that does not tell the same of
the same pair every time (``CustomRule._told``): it would lose the secret. Under a server's request the line
names the guess, and withholds the code it was scored against and the module's words (``withholding`` in
``mm_logic.feedback.watch``): in a codebreaker game that code is the secret. It is read as Python reads a
module (its encoding from a byte order mark or a ``coding`` line).
"""

from __future__ import annotations

import codecs
import contextlib
import inspect
import io
import math
import numbers
import os
import re
import sys
import threading
import time
import tokenize
import types
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..rules import Code, Feedback
from ..support.errors import BadInput, RuleFault
from ..support.files import read_bytes
from . import watch
from .rule import FeedbackRule
from .standard import _small_ints
from .watch import ROWS_GAP, TICK_CALLS, WITHHELD_CODE, Overdue, Rows, called, interrupted, said, watched

#: The feedback that says the guess is the code, as written; its numbers are all :data:`WIN_VALUE`.
WON = "won"
WIN_VALUE = -1
#: How many characters of the module's own text (an exception's message, a value returned) a line repeats.
QUOTED = 300
#: Calls of ``score`` asked twice: the first ones, then one in every ``SAME_EVERY`` (:meth:`CustomRule._told`).
SAME_FIRST, SAME_EVERY = 16, 4096
#: The answers ``score`` gave the codemaker kept (for so many guesses, and so many secrets a guess), each
#: checked when a row scores the pair again (:meth:`CustomRule._scored_row`).
KEPT_ANSWERS = 4096
#: How many codes a row lists as Python tuples at once (:meth:`CustomRule._scored_row`).
LISTED_CODES = 4096
#: The most of a module's text mmlogic reads (bytes; docs/encodings.md). Python's compiler, which no watch stops
#: midway, takes up to some 600 bytes of memory and 3 µs a byte of text (a literal list of zeros, a line of a
#: name a statement): a module of 256 KiB compiles within a second and 160 MB, one of 44 MB took 21 s and
#: 2.6 GB. A rule module is a few KiB; a large table is read from a file of its own as it is imported.
MODULE_BYTES = 256 * 1024


class CustomRule(FeedbackRule):
    """The rule of a user's module (see the module docstring)."""

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
        self.label = label or _name_of(module, path)
        self.summary = summary or _summary_of(module, path)
        self._score = None if module is None else module.__dict__.get("score")
        self.scored_by_calls = module is not None
        self._arity: int | None = None
        #: The arguments of the call of ``score`` begun last (what the watch looks at, :mod:`.watch`).
        self._asking: tuple | None = None
        #: Calls of ``score`` so far, and some answers given (``score``'s, by guess then secret): a rule must tell
        #: the same of the same pair every time (:meth:`_told`, :meth:`_scored_row`).
        self._calls = 0
        self._given: dict[Code, dict[Code, Feedback]] = {}
        #: The rows being scored over one array of codes (a table), for the progress and the time limit. (Names
        #: apart from :class:`~.encoded.EncodedRule`'s own: ``_rows`` and ``_row`` are its methods.)
        self._run: Rows | None = None

    @property
    def form(self) -> str:
        """How one feedback is written, for messages: as many numbers as the rule tells, once known."""
        if self._arity is None:
            return "whole numbers separated by commas (e.g. 2 or 1,2), or won"
        if self._arity == 1:
            return "one whole number (the rule's answers are one number, e.g. 2), or won"
        example = ",".join("1201"[:self._arity]) if self._arity <= 4 else ",".join(["1"] * self._arity)
        return (f"{self._arity} whole numbers separated by {'a comma' if self._arity == 2 else 'commas'} (the rule's "
                f"answers are {self._arity} numbers, e.g. {example}), or won")

    # -- the rule ------------------------------------------------------------------------
    def score(self, guess: Code, secret: Code) -> Feedback:
        guess, secret = _ints(guess), _ints(secret)
        return self._block(lambda: self._answer(guess, secret))

    def _block(self, call):
        """``call()``, a block of calls of the module's ``score``: watched (:func:`~.watch.watched`), in one
        process (:func:`_unforked`)."""
        return watched(self.path, self, lambda: _unforked(self.path, self, call))

    def _answer(self, guess: Code, secret: Code) -> Feedback:
        """:meth:`_scored`, kept: the codemaker's answers, which a row that scores the pair again must repeat."""
        told = self._scored(guess, secret)
        given = self._given.setdefault(guess, {})
        if len(given) < KEPT_ANSWERS:
            given[secret] = told
        if len(self._given) > KEPT_ANSWERS:  # the oldest guess's answers forgotten first
            self._given.pop(next(iter(self._given)), None)  # another thread may have taken it out (a server)
        return told

    def _scored(self, guess: Code, secret: Code) -> Feedback:
        if guess == secret:
            return self.win(len(guess))
        return self._told(guess, secret)

    def _told(self, guess: Code, secret: Code) -> Feedback:
        """What the module's ``score`` tells of ``guess`` against ``secret`` (tuples of ints, under a watch the
        caller holds), checked to be the rule's numbers; some calls are asked twice (the first ones, then one in
        :data:`SAME_EVERY`): a rule that draws at random is named, not left to lose the secret."""
        told = self._call(guess, secret)
        self._calls += 1
        if self._calls <= SAME_FIRST or not self._calls % SAME_EVERY:
            self._same((guess, secret), told, self._call(guess, secret))
        return told

    def _call(self, guess: Code, secret: Code) -> Feedback:
        """One call of the module's ``score``, its answer as a tuple of ints, every failure one line."""
        # A new object each call: the watch sees the calls go by, and names the one that does not end.
        self._asking = asked = (guess, secret)
        try:
            told = self._score(guess, secret)
        except Overdue:
            raise  # the watch's own stop, worded where the watch ends
        except KeyboardInterrupt as error:
            if interrupted():
                raise  # Ctrl-C
            raise RuleFault(said(f"{self.path}: score{asked} failed: {_failure(error)}",
                                f"{self.path}: {called(asked)} failed: KeyboardInterrupt (its message withheld)")) \
                from None
        except SystemExit as ended:  # it would end mmlogic, silently and with its code
            raise RuleFault(said(f"{self.path}: score{asked} raised SystemExit"
                                f"({'' if ended.code is None else _shown(ended.code)})",
                                f"{self.path}: {called(asked)} raised SystemExit (its code withheld)")) from None
        except BaseException as error:  # noqa: BLE001 - the user's code: its failure is their one line
            raise RuleFault(said(f"{self.path}: score{asked} failed: {_failure(error)}",
                                f"{self.path}: {called(asked)} failed: {type(error).__name__} (its message "
                                "withheld)")) from None
        numbers = _numbers(told, len(guess))
        if numbers is None:
            if isinstance(told, types.CoroutineType):  # closed: left, Python warns of it, never awaited, at its end
                with contextlib.suppress(Exception):  # one it started runs its code as it closes
                    told.close()
            raise RuleFault(said(f"{self.path}: score{asked} returned {_shown(told)}, not whole numbers from 0 to "
                                f"the {len(guess)} pegs",
                                f"{self.path}: {called(asked)} returned something else than whole numbers from 0 "
                                f"to the {len(guess)} pegs (what it returned withheld)"))
        if self._arity is None:
            self._arity = len(numbers)
        elif len(numbers) != self._arity:
            raise RuleFault(said(f"{self.path}: score returned {len(numbers)} numbers for {asked}, {self._arity} "
                                "before; it must always tell as many",
                                f"{self.path}: score returned {len(numbers)} numbers for ({guess}, {WITHHELD_CODE}), "
                                f"{self._arity} before; it must always tell as many"))
        return numbers

    def _same(self, pair: tuple[Code, Code], told: Feedback, again: Feedback) -> None:
        """One line unless ``score`` told ``told``, then ``again``, the same of ``pair``."""
        if told != again:
            rule = ("a rule must tell the same of the same pair every time (does it draw at random, or keep "
                    "count?)")
            raise RuleFault(said(f"{self.path}: score{pair} returned {_shown(told)}, then {_shown(again)}: {rule}",
                                f"{self.path}: {called(pair)} told two different answers: {rule}"))

    def written_count(self, pegs: int) -> int:
        return (pegs + 1) ** self.arity(pegs) + 1  # the numbers 0..pegs, and won

    def arity(self, pegs: int) -> int:
        """How many numbers the codemaker tells."""
        if self._arity is None:
            self._block(lambda: self._told((0,) * pegs, (1,) * pegs if pegs else ()))
        return self._arity

    def indices(self, guess: Code, codes: np.ndarray, counts: np.ndarray) -> np.ndarray:
        guess = _ints(guess)
        # One watch for the whole row (a table is a row per code).
        return self._block(lambda: self._scored_row(guess, codes))

    def _scored_row(self, guess: Code, codes: np.ndarray) -> np.ndarray:
        """The feedback indices of ``guess`` against every row of ``codes``, the answers given before checked;
        the rows over the same codes (:class:`~.watch.Rows`) told how they go."""
        pegs = codes.shape[1]
        run = self._run_over(codes)
        given = self._given.get(guess)
        out = []
        # The codes listed a slice at a time: ten million listed at once took 16 s and a gigabyte before the first
        # call, time the limit could not stop.
        for start in range(0, len(codes), LISTED_CODES):
            for i, code in enumerate(map(tuple, codes[start:start + LISTED_CODES].tolist()), start):
                told = self._scored(guess, code)
                if given is not None and code in given:
                    self._same((guess, code), given[code], told)
                out.append(self.index(told, pegs))
                if not i & TICK_CALLS:
                    run.tick(guess, i + 1)
        run.row_done()
        return np.array(out, dtype=np.int64)

    def _run_over(self, codes: np.ndarray) -> Rows:
        """The rows over ``codes`` the next row adds to: those so far, or new ones (other codes, every code
        done, or a pause)."""
        run, now = self._run, time.monotonic()
        if run is None or run.codes is not codes or run.done >= len(codes) or now - run.ended > ROWS_GAP:
            run = self._run = Rows(self.path, codes)
        return run

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

    def value_bounds(self, pegs: int) -> tuple[int, int]:
        return WIN_VALUE, pegs  # whole numbers from 0 to the pegs, and the win's

    # -- indices: the numbers in base pegs + 2, the win's -1 as pegs + 1 ----------------------
    def slots(self, pegs: int) -> int:
        return (pegs + 2) ** self.arity(pegs)

    def index(self, fb: Feedback, pegs: int) -> int:
        return numbers_index(fb, pegs)

    def from_index(self, index: int, pegs: int) -> Feedback:
        return index_numbers(index, pegs, self.arity(pegs))

    # -- text and JSON ---------------------------------------------------------------------
    def read(self, text: str, pegs: int) -> Feedback | None:
        arity = self.arity(pegs)  # known once read: a feedback refused says how many numbers (:attr:`form`)
        if text.strip().lower() == WON:
            return self.win(pegs)
        if "-" in text:  # whole numbers have no sign: -1, the win's number inside, was read as won
            return None
        return _small_ints(text, arity)

    def write(self, fb: Feedback) -> str:
        return WON if fb and fb[0] == WIN_VALUE else ",".join(map(str, fb))

    def impossible(self, fb: Feedback, pegs: int, colors: int) -> str | None:
        arity = self.arity(pegs)
        if len(fb) != arity:  # the reader of text makes as many; a program may give any list
            return f" has {len(fb)} numbers; the rule tells {'one' if arity == 1 else arity}"
        odd = [v for v in fb if not _whole(v)]
        if odd:
            return f" holds {odd[0]!r}, not a whole number"
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
    if size > MODULE_BYTES:  # not even read (the text is looked at again once read: the file may have grown)
        raise _too_large(path)
    source = _source(path)
    started = time.monotonic()
    try:
        code = compile(source, str(path), "exec")
    except SyntaxError as error:
        raise BadInput(f"{path}:{error.lineno}: {error.msg}" if error.lineno else f"{path}: {error.msg}") from None
    except (RecursionError, MemoryError) as error:  # the compiler's own, on expressions nested thousands deep
        raise BadInput(f"{path}: Python cannot compile it ({_failure(error)}): is an expression nested too "
                       "deeply?") from None
    # Compiling is part of importing, held to the same limit. Timed here, not by the watch: the compiler is C code
    # that keeps the interpreter to itself, which neither the watch's thread nor a signal's handler interrupts
    # (the size read bounds how long it may take).
    if time.monotonic() - started > watch.CALL_SECONDS:
        raise watch._overdue(path, None)
    with _importing(path) as module:
        watched(path, None, lambda: _unforked(path, None, lambda: _run(code, module, path)))
        score = module.__dict__.get("score")
        if not callable(score):
            raise BadInput(f"{path} defines no score(guess, secret): the numbers the codemaker tells of a guess")
        if inspect.iscoroutinefunction(score):  # its calls return coroutines, which nothing awaits
            raise BadInput(f"{path}: score is a coroutine function (async def): write def score(guess, secret)")
    return CustomRule(path, module)


# -- the module among Python's, as importlib puts it ------------------------------------------------------------
#: Held while a module is put in ``sys.modules`` or taken out (a server loads rules in many threads).
_naming = threading.Lock()
#: The module of each rule file loaded (by the file's absolute path) that is in ``sys.modules``: its latest version.
_MODULES: dict[str, types.ModuleType] = {}


@contextlib.contextmanager
def _importing(path: Path) -> Iterator[types.ModuleType]:
    """A new module for the file's code, in ``sys.modules`` while the block runs, as importlib puts a module it
    imports (``dataclasses`` and ``typing`` look a class's module up there: a module that defined a dataclass
    could not be loaded). Kept there once loaded, in place of the file's version loaded before; taken out if the
    block fails.

    Its name is ``mmlogic_feedback_STEM``, or ``_2``, ``_3``... after it when a module has that name (another
    file of the same name, or the same file's version loaded before): never a name of Python's or the user's
    own modules (a rule file named ``random.py`` does not replace the standard library's ``random``).
    """
    base = f"mmlogic_feedback_{path.stem}"
    with _naming:
        name, n = base, 1
        while name in sys.modules:
            n += 1
            name = f"{base}_{n}"
        module = types.ModuleType(name)
        module.__file__ = str(path)
        sys.modules[name] = module
    try:
        yield module
    except BaseException:
        _unlisted(module)
        raise
    with _naming:
        before = _MODULES.get(key := os.path.abspath(path))
        _MODULES[key] = module
    if before is not None:
        _unlisted(before)


def _unlisted(module: types.ModuleType) -> None:
    """Take ``module`` out of ``sys.modules`` (if it is there still: its code may have put another in its place)."""
    with _naming:
        if sys.modules.get(module.__name__) is module:
            del sys.modules[module.__name__]


# -- a process that stays one -----------------------------------------------------------------------------------
class _Forks(threading.local):
    """The forks a thread made (counted by :func:`_forked`), and made it in (counted by :func:`_born`: the child
    of a fork is the thread that forked, alone in a copy of the process); the rule whose block it runs, and the
    call of its ``score`` under way at the last fork."""

    made = 0
    born = 0
    rule: CustomRule | None = None
    asked: tuple | None = None


_FORKS = _Forks()


def _forked() -> None:
    """After a fork made in Python (``os.fork``, multiprocessing's ``fork``), in the process that forked: counted
    for the thread that forked."""
    forks = _FORKS
    forks.made += 1
    forks.asked = None if forks.rule is None else forks.rule._asking


def _born() -> None:
    """After a fork made in Python, in the child: counted for its thread, the one that forked."""
    _FORKS.born += 1


# Counts, not os.getpid() (a system call): looked at per block, they cost a fraction of a microsecond.
os.register_at_fork(after_in_parent=_forked, after_in_child=_born)


def _unforked(path: Path, rule: CustomRule | None, call):
    """``call()``, a block of the module's code (importing it when ``rule`` is None, else a block of ``rule``'s
    calls), whose process stays one: a module that forked is one line, and the child it made, back in mmlogic, ends
    at once (going on, it ran the command a second time: two answers, two JSON objects). Run in the thread that
    runs the module's code. Cost: two counts looked at per block."""
    forks = _FORKS
    made, born, forks.rule = forks.made, forks.born, rule
    try:
        result = call()
    finally:
        if forks.born != born:  # the child: nothing of the command's is its to do or say, not even a failure
            os._exit(2)
    if forks.made != made:
        if rule is None:
            raise BadInput(f"{path}: importing it forked the process")
        asked = forks.asked or rule._asking
        raise RuleFault(said(f"{path}: score{asked} forked the process", f"{path}: {called(asked)} forked the process"))
    return result


def _run(code: types.CodeType, module: types.ModuleType, path: Path) -> None:
    """Import the module: run its code in its namespace, every failure its one line."""
    try:
        exec(code, module.__dict__)  # noqa: S102 - the user's own rule
    except Overdue:
        raise  # the watch's own stop, worded where the watch ends
    except KeyboardInterrupt as error:
        if interrupted():
            raise  # Ctrl-C
        raise BadInput(f"{path}: {_failure(error)}") from None
    except SystemExit as ended:  # it would end mmlogic, silently and with its code
        raise BadInput(f"{path}: importing it called sys.exit({'' if ended.code is None else _shown(ended.code)})") \
            from None
    except BaseException as error:  # noqa: BLE001 - the user's code: its failure is their one line
        raise BadInput(f"{path}: {_failure(error)}") from None


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
    if len(data) > MODULE_BYTES:
        raise _too_large(path)
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


def _too_large(path: Path) -> BadInput:
    """The line of a module larger than :data:`MODULE_BYTES`."""
    return BadInput(f"{path} is larger than {MODULE_BYTES // 1024} KiB, more than mmlogic reads of a rule module "
                    "(it may read a large table from a file of its own)")


# -- the module's values, said on one bounded line ------------------------------------------------------------
def _ints(code) -> Code:
    """A code as a tuple of ints (what ``score`` is given)."""
    return tuple(int(c) for c in code)


def _whole(value) -> bool:
    """Whether ``value`` is a whole number (an int, a numpy integer...), not a bool."""
    return type(value) is int or (isinstance(value, numbers.Integral) and not isinstance(value, bool))


def _numbers(told, pegs: int) -> Feedback | None:
    """``told``, what ``score`` returned, as the rule's numbers (one whole number, or a tuple, list or 1-D
    array of them, each from 0 to ``pegs``; a tuple or list of a kind of the module's own too, as a named tuple);
    None when it is not."""
    if isinstance(told, np.ndarray) and told.ndim <= 1:
        told = told.tolist()
    if _whole(told):
        told = (told,)
    kind = type(told)
    if kind is not tuple and kind is not list:
        # Read as the tuple or list it is: the kind's own methods (an __iter__, a __len__) are the module's code.
        if isinstance(told, tuple):
            told = tuple(tuple.__iter__(told))
        elif isinstance(told, list):
            told = list(list.__iter__(told))
        else:
            return None
    if not told:
        return None
    try:
        if not all(_whole(v) and 0 <= v <= pegs for v in told):
            return None
        return tuple(int(v) for v in told)
    except Exception:  # noqa: BLE001 - a number of the module's own kind that does not compare
        return None


def _shown(value) -> str:
    """``repr(value)`` on one bounded line, whatever the module returned: a number too long to write said by its
    digits, an object whose ``repr()`` fails said as such (the module's failure is the line, not mmlogic's)."""
    if _whole(value) and int(value).bit_length() > 64:
        try:
            return f"<a {len(str(abs(int(value))))}-digit number>"
        except ValueError:  # beyond Python's limit of digits written (sys.set_int_max_str_digits)
            return f"<a number of about {int(math.log10(abs(int(value)))) + 1:,} digits>"
    if type(value) in (tuple, list) and len(value) <= 16:
        inner = [_shown(v) for v in value]
        if type(value) is list:
            return f"[{', '.join(inner)}]"
        return f"({inner[0]},)" if len(inner) == 1 else f"({', '.join(inner)})"
    said, failed = _said(value, repr)
    return said if failed is None else f"<{_a(type(value).__name__)} whose repr() raised {failed}>"


def _failure(error: BaseException) -> str:
    """An exception of the module's as one bounded line: ``Kind: message``."""
    kind = type(error).__name__
    said, failed = _said(error, str)
    if failed is not None:
        return f"{kind} (its str() raised {failed})"
    return f"{kind}: {said}" if said else kind


def _said(value, show) -> tuple[str, str | None]:
    """``show(value)`` (``str`` or ``repr``) cut to :data:`QUOTED` characters, and None; or ``""`` and the kind
    of exception it raised (the module's ``__str__`` or ``__repr__`` may fail like any of its code)."""
    try:
        text = show(value)
    except Overdue:
        raise
    except KeyboardInterrupt:
        if interrupted():
            raise  # Ctrl-C; else the module's own, as any of its failures
        return "", "KeyboardInterrupt"
    except BaseException as error:  # noqa: BLE001 - the module's own object
        return "", type(error).__name__
    return (text if len(text) <= QUOTED else f"{text[:QUOTED]}… ({len(text):,} characters)"), None


def _a(noun: str) -> str:
    return f"an {noun}" if noun[:1].lower() in "aeiou" else f"a {noun}"


def _name_of(module: types.ModuleType | None, path: Path) -> str:
    """The rule's name: the module's ``NAME`` (said as ``str`` says it), else the file's."""
    name = None if module is None else module.__dict__.get("NAME")
    said, failed = ("", "") if name is None else _said(name, str)
    return said if failed is None and said else path.stem


def _summary_of(module: types.ModuleType | None, path: Path) -> str:
    """The rule's summary: the first line of the module's docstring, else the file's name."""
    doc = None if module is None else module.__dict__.get("__doc__")
    first = doc.strip().split("\n")[0] if isinstance(doc, str) else ""
    return first or f"the rule of {path.name}"
