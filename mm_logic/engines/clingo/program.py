"""The encoding, parsed once, and the Controls built from it.

A :class:`Program` reads the entry file (the shipped ``mastermind.lp`` or a
user's ``--encoding``) into clingo AST statements once per engine, then
builds as many Controls as the sessions need: each gets the statements, the
rules as facts (``pegs/1``, ``colours/1``, ``max_repeat/1``) and its ``base``
part grounded. Whatever clingo reports as an error, while parsing or
grounding, becomes one :class:`~mm_logic.support.errors.EncodingError` line that
starts with ``file:line``.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from pathlib import Path

from clingo import Control
from clingo.ast import ASTType, ProgramBuilder, parse_files
from clingo.core import MessageCode

from ...feedback import RULES, rule_of
from ...feedback.custom import CustomRule
from ...rules import Rules
from ...support.errors import EncodingError, one_line
from ...support.files import read_bytes
from ...support.resources import encodings_dir
from .grounding import ground_watched

#: clasp options: ``Domain`` makes the ``#heuristic`` of ``search.lp`` count;
#: ``--save-progress=1`` makes every decision reuse the peg's last value.
CLINGO_ARGUMENTS = ("--heuristic=Domain", "--save-progress=1")
#: Added on games of at least :data:`LUBY_MIN_PAIRS` (pegs x colours), those ``any`` does
#: not aim (session.AIM_MAX_PAIRS): Luby restarts of unit 256 instead of clasp's default
#: here (``l,60``). Their hard calls are the last few of a game (near-unique codes under
#: many "exactly B of n" constraints), where the shorter runs kept restarting too soon:
#: 30x30, 20 games side by side, 0.87 s a game against 1.23 s, the same guesses (45.15 /
#: 45.20); 40x40 in docs/results/large-games.md. On 16x6 they change the guesses (12.35 against 12.0 on 20
#: games), so smaller games keep the default.
LARGE_GAME_ARGUMENTS = ("--restarts=L,256",)
LUBY_MIN_PAIRS = 401
_LOCATION = re.compile(r"^.+?:\d+:\d+")
_INCLUDE = re.compile(rb'#include\s*"([^"]*)"')
_INCLUDE_STATEMENT = re.compile(rb'#include\s*"[^"]*"\s*\.')
#: clingo's note on an atom of the old spelling: the number of colours was colors(K) before it was colours(K).
_OLD_SPELLING = re.compile(r"^(?P<where>.+?:\d+:\d+(?:-\d+)?): info: atom does not occur in any rule head:\s*colors\(")


def code_only(data: bytes) -> bytes:
    """``data`` (an encoding's bytes) with its comments blanked, their newlines kept so that line
    numbers stay right: ``% ...`` to the end of the line and ``%* ... *%``, which nest, outside
    strings (a ``%`` inside ``"..."`` starts no comment).

    >>> code_only(b'p("50%"). % one\\n%* a %* b *% c *%q.')
    b'p("50%"). \\nq.'
    """
    out = bytearray()
    i, size, depth, in_string = 0, len(data), 0, False
    while i < size:
        byte = data[i]
        if depth:  # inside a block comment
            if data.startswith(b"%*", i):
                depth, i = depth + 1, i + 2
            elif data.startswith(b"*%", i):
                depth, i = depth - 1, i + 2
            else:
                if byte == 0x0A:
                    out.append(byte)
                i += 1
        elif in_string:
            end = i + 2 if byte == 0x5C else i + 1  # a backslash escapes the next byte
            out += data[i:end]
            in_string = byte != 0x22
            i = end
        elif byte == 0x22:
            out.append(byte)
            in_string, i = True, i + 1
        elif data.startswith(b"%*", i):
            depth, i = 1, i + 2
        elif byte == 0x25:  # % to the end of the line
            newline = data.find(b"\n", i)
            i = size if newline < 0 else newline
        else:
            out.append(byte)
            i += 1
    return bytes(out)


def check_utf8(entry_file: Path) -> None:
    """Refuse (:class:`EncodingError`, ``file:line``) an encoding, or a file it includes, that
    is not UTF-8 outside its comments, an include that names no regular file (a FIFO), and one
    that cannot be read (an I/O error: clingo read it as an empty part) or is larger than
    :data:`mm_logic.support.files.MAX_READ_BYTES`.

    clingo reads UTF-8, and a message of clingo's that quotes such a byte (``x(\\xe9)`` in an
    error, or in a warning about an atom) ends the process: its Python logger cannot decode
    the message, inside a call that may not raise ("PANIC: exception in nothrow scope").
    A stray byte inside a comment reaches no message, and is left alone. Includes are
    followed as clingo finds them: in the working folder, beside the including file, then
    along ``CLINGOPATH`` (:func:`_include_path` has added the shipped parts' folder to it).
    """
    search = [Path.cwd().resolve(), *(Path(p) for p in os.environ.get("CLINGOPATH", "").split(os.pathsep) if p)]
    seen: set[Path] = set()
    todo: list[tuple[Path, str | None]] = [(entry_file, None)]  # a file, and the file:line that includes it
    while todo:
        file, origin = todo.pop()
        if file.resolve() in seen:
            continue
        seen.add(file.resolve())
        try:
            data = read_bytes(file, f"{origin}: the included" if origin else "--encoding")
        except OSError as error:
            # clingo would read a file whose read fails (an I/O error) as an empty part, silently.
            name = f"{origin}: cannot read the included {file}" if origin else f"cannot read {file}"
            raise EncodingError(f"{name}: {error.strerror or error}") from None
        try:
            data.decode("utf-8")
            code = data  # the common case: no scan needed but for includes
        except UnicodeDecodeError:
            code = code_only(data)
            try:
                code.decode("utf-8")
            except UnicodeDecodeError as error:
                line = code.count(b"\n", 0, error.start) + 1
                raise EncodingError(f"{file}:{line}: byte 0x{code[error.start]:02x} is not UTF-8 text, "
                                    "which clingo reads (save the file as UTF-8)") from None
        code = code_only(code) if code is data else code
        # the working folder first (named as the including file names it when that is its folder)
        first = [file.parent] if file.parent.resolve() == search[0] else [search[0], file.parent]
        for include in _INCLUDE.finditer(code):
            for folder in [*first, *search[1:]]:
                included = folder / os.fsdecode(include[1])
                line = code.count(b"\n", 0, include.start()) + 1
                if included.is_file():
                    todo.append((included, f"{file}:{line}"))
                    break
                if included.exists():
                    # clingo would open it and wait for ever (a FIFO), deaf to Ctrl-C.
                    raise EncodingError(f"{file}:{line}: the included {included} is not a regular file")


def shipped_parts(entry_file: Path) -> list[Path]:
    """The files the shipped entry file includes, by absolute path, if it says nothing else.

    clingo looks an include up in the working folder first: a ``code.lp`` of the user's
    there replaced a part of the shipped game itself, with no ``--encoding`` given.
    Parsed by absolute path, the shipped game is the same from any folder.
    """
    code = code_only(entry_file.read_bytes())
    parts = [entry_file.parent / os.fsdecode(include[1]) for include in _INCLUDE.finditer(code)]
    return parts if parts and not _INCLUDE_STATEMENT.sub(b"", code).strip() else [entry_file]


@contextmanager
def _include_path(folder: Path):
    """Let ``#include "mastermind.lp".`` in a user's entry file find the shipped game.

    clingo resolves an include relative to the working folder first, then to
    the including file, then along the ``CLINGOPATH`` environment variable, so
    a file beside the user's encoding still wins over the shipped one of the
    same name.
    """
    old = os.environ.get("CLINGOPATH")
    os.environ["CLINGOPATH"] = str(folder) if not old else f"{old}{os.pathsep}{folder}"
    try:
        yield
    finally:
        if old is None:
            del os.environ["CLINGOPATH"]
        else:
            os.environ["CLINGOPATH"] = old


#: The parts that belong to one feedback rule (marks.lp, told.lp), each given to a Control under its
#: rule only: every part a rule's entries ground (:attr:`mm_logic.feedback.FeedbackRule.asp_parts`) but
#: the shared ``step``.
RULE_OWN_PARTS = frozenset(part for rule in (*RULES.values(), CustomRule) for part in rule.asp_parts) - {"step"}


def rule_parts(rules: Rules) -> tuple[str, ...]:
    """The parts an entry of ``rules``' feedback rule grounds (``step`` and the rule's own part)."""
    return rule_of(rules).asp_parts


#: The diagnosis's part (``diagnose.lp``): given only to the Control of a diagnosis.
DIAGNOSIS_PART = "fewest_wrong"
#: The part of a game with lies (``lies.lp``): given only to the Controls of such a game.
LIES_PART = "lies"


def without_other_rules(statements: list, rules: Rules, diagnosis: bool = False) -> list:
    """``statements`` less the parts of the other feedback rules (``#program marks(t).`` ... under the
    standard rule).

    The entry file includes every rule's part, as the game's specification; a Control
    is given only its rule's. Rules of a part never grounded still cost: clingo's
    grounder goes through every statement of the program at each ``ground()``, and
    marks.lp and told.lp made the standard game's steps 8% slower to ground (the
    clingo benchmark rows 1.06 to 1.14 times slower), even in their own parts.
    The diagnosis's part is kept only for a diagnosis (``diagnosis``), the part of lies in a game with lies.
    """
    skipped = (RULE_OWN_PARTS - set(rule_parts(rules)) | (set() if diagnosis else {DIAGNOSIS_PART})
               | (set() if rules.lies else {LIES_PART}))
    kept, skipping = [], False
    for statement in statements:
        if statement.ast_type == ASTType.Program:
            skipping = statement.name in skipped
        if not skipping:
            kept.append(statement)
    return kept


class Program:
    """An encoding for some rules: parsed once, grounded into fresh Controls on demand.

    A user's encoding (``watched``) is grounded in a thread this one watches:
    clingo cannot interrupt grounding, and an edited rule may ground for ever
    (``n(X+1) :- n(X).`` grew to 22 GB, deaf to Ctrl-C and to the time
    limit). See :func:`~.grounding.ground_watched`: ``time_limit`` bounds each
    grounding, ``limit_said`` names that limit where it is not ``--time-limit``.
    """

    def __init__(self, entry_file: Path, rules: Rules, time_limit: float | None = None, watched: bool = False,
                 shipped: bool = False, limit_said: str | None = None):
        self.entry_file = entry_file
        self.limit_said = limit_said
        #: The shipped entry file: its parts are parsed by absolute path (:func:`shipped_parts`).
        self.shipped = shipped
        self.rules = rules
        self.time_limit = time_limit
        self.watched = watched
        #: clingo's warnings about the encoding (not shown to the user).
        self.warnings: list[str] = []
        self._errors: list[str] = []
        #: Where the encoding asks for colors(K), which no rule derives: the fact is colours(K).
        self._old_spelling: str | None = None
        self._statements: list | None = None

    def _log(self, code: MessageCode, message: str) -> None:
        # clingo writes errors as "file:line:col: error: ..." and everything
        # else (undefined atoms, included files) as info or warning.
        line = one_line(message)
        old = _OLD_SPELLING.match(line)
        if old:  # said by the error ground() raises, not as a note
            self._old_spelling = self._old_spelling or old["where"]
        elif ": error:" in line:
            self._errors.append(line)
        elif line not in self.warnings and len(self.warnings) < 100:
            self.warnings.append(line)  # every Control grounds again: keep each once

    @property
    def statements(self) -> list:
        """The encoding as clingo AST statements (includes resolved), parsed on first use."""
        if self._statements is None:
            if not self.entry_file.is_file():
                raise EncodingError(f"{self.entry_file}:1: no such encoding file")
            statements: list = []
            self._errors.clear()
            try:
                if self.shipped:
                    files = shipped_parts(self.entry_file)
                else:
                    check_utf8(self.entry_file)
                    files = [self.entry_file]
                with _include_path(encodings_dir()):
                    parse_files([str(f) for f in files], statements.append, logger=self._log, message_limit=100)
            except RuntimeError as error:
                raise self._encoding_error(error) from None
            self._parsed = statements
            self._statements = without_other_rules(statements, self.rules)
        return self._statements

    def control(self, diagnosis: bool = False) -> Control:
        """A new Control with the encoding, the rules' facts and ``base`` grounded (with ``diagnosis``, also the
        diagnosis's part, ungrounded)."""
        statements = self.statements
        if diagnosis:
            statements = without_other_rules(self._parsed, self.rules, diagnosis=True)
        arguments = list(CLINGO_ARGUMENTS)
        if self.rules.pegs * self.rules.colors >= LUBY_MIN_PAIRS:
            arguments += LARGE_GAME_ARGUMENTS
        ctl = Control(arguments, logger=self._log, message_limit=100)
        self._errors.clear()
        try:
            with ProgramBuilder(ctl) as builder:
                for statement in statements:
                    builder.add(statement)
        except RuntimeError as error:  # e.g. a #script block, where clingo was built without that language
            raise self._encoding_error(error) from None
        r = self.rules
        facts = f"pegs({r.pegs}).colours({r.colors})."
        if r.restricted:
            facts += f"max_repeat({r.repeat_limit})."
        if r.lies:
            facts += f"lies({r.lies})."
            # one model per secret shown, whichever entries it takes as lies (lies.lp)
            ctl.configuration.solve.project = "show"
        ctl.add("base", [], facts)
        self.ground(ctl, [("base", [])])
        return ctl

    def ground(self, ctl: Control, parts) -> None:
        """Ground ``parts`` of ``ctl``; an error names the encoding's file and line."""
        self._errors.clear()
        try:
            if self.watched:
                ground_watched(ctl, parts, self.time_limit, self.entry_file, self.limit_said)
            else:
                ctl.ground(parts)
        except RuntimeError as error:
            raise self._encoding_error(error) from None
        if self._old_spelling:
            # Left alone, the rule would never fire: an edited copy of code.lp admitted no code,
            # one of search.lp answered `first` with a code that was not the smallest.
            raise EncodingError(f"{self._old_spelling}: colors(K) never holds: the engine gives the number of "
                                "colours as colours(K) (rename colors to colours)")

    def misfit(self, detail: str) -> EncodingError:
        """An answer of the encoding that breaks the engine's expectations, as one line."""
        return EncodingError(f"{self.entry_file}:1: {detail}")

    def _encoding_error(self, error: RuntimeError) -> EncodingError:
        """The first error clingo logged, on one line starting with ``file:line``."""
        located = [line for line in self._errors if _LOCATION.match(line)] or [
            line for line in [one_line(str(error))] if _LOCATION.match(line)]
        if located:  # "file:3:5-9: error: syntax error, ..." -> "file:3:5-9: syntax error, ..."
            return EncodingError(located[0].replace(": error: ", ": ", 1))
        detail = self._errors[0] if self._errors else one_line(str(error))
        return EncodingError(f"{self.entry_file}:1: {detail}")
