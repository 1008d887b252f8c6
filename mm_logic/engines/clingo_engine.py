"""The clingo engine: the ASP encodings in ``encodings/*.lp`` answer the questions.

This module is only an adapter. It turns the rules into facts (``pegs/1``,
``colors/1``, ``max_repeat/1``) and each history entry into facts of one step
(``guess/3``, ``black/2``, ``white/2``), asks clingo, and reads codes back from
the shown ``secret/2`` atoms. What a consistent code is lives in the
encodings alone; how the solver searches is in ``encodings/search.lp`` and
:data:`CLINGO_ARGUMENTS`.

Design (numbers from ``py/clingo_speed.py``, see the README's clingo section):

* **One multi-shot Control per session.** ``base`` (the code space) is
  grounded once; every push adds the entry's facts and grounds the encoding's
  ``step(t)`` part for a fresh step number ``t``, whose constraints are guarded
  by the external atom ``active(t)``. ``pop`` releases that external, which
  voids the step's constraints for good. A fresh Control grounded from
  scratch for every question was 2.7 times slower on 5x8 no-repeat games
  (21 ms against 7.8 ms per game) and 5 times slower on 16x6 (0.22 s
  against 0.04 s). The encoding is parsed once per engine and each Control
  gets the parsed statements.
* **first** assumes the external ``lexicographic``, which switches on the
  ``#heuristic`` of ``search.lp`` (``--heuristic=Domain``): pegs are decided
  in order, each trying the smallest colour first. Every decision is then on
  the highest-priority open atom with its preferred sign and every other
  literal is implied, so the first model found is the lexicographically
  smallest (cross-checked against the reference engine by the tests).
* **any** assumes it false and *aims*: it draws a random code from the
  history, switches on that code's ``target(P,C)`` externals, and clasp
  decides the pegs first, each trying its target colour, within
  :data:`TARGET_CONFLICTS` conflicts. A random code made consistent tells as
  much as a uniformly random consistent one: 16x6 games take 11.7 guesses
  instead of 13.2 with clasp's plain order, whose guesses stay near the
  previous ones; a Z3 player takes 11.8 on the same secrets (README).
  If the budget runs out, and in games of more than :data:`AIM_MAX_PAIRS`
  (peg, colour) pairs, the plain order answers: clasp decides the colour
  counts first, then prefers giving pegs colours, and ``--save-progress=1``
  keeps each peg's last value. That option took 30x30 games from minutes to
  seconds.
* **enumerate** and **count** enumerate every consistent code (clingo does
  not count models otherwise); ``enumerate`` sorts them lexicographically.
  ``count`` enumerates in ``first``'s order and keeps the first model, so a
  strategy tree, which asks both at every node, solves once per node.
* **random** keeps the base class's rule (a uniform index into the
  lexicographic enumeration, hence the same draw as the reference engine for
  the same generator) whenever at most :data:`RANDOM_ENUMERATION_LIMIT` codes
  are consistent. Larger sets are not enumerated: clasp then decides at
  random with random signs, seeded from ``rng``: reproducible, anywhere in
  the set, but not exactly uniform.

Solver calls can be cancelled: ``time_limit`` raises :class:`SolverTimeout`
and Ctrl-C stops the search before :class:`KeyboardInterrupt` propagates
(see :meth:`ClingoEngine._run`).
"""

from __future__ import annotations

import os
import re
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from clingo import Control, Function, Number, SymbolType
from clingo.ast import ProgramBuilder, parse_files
from clingo.core import MessageCode

from ..errors import EncodingError, SolverTimeout
from ..notation import Code, Entry
from ..resources import encoding_path, encodings_dir
from ..sampling import history_rng, random_code
from .base import Engine, Session

#: The shipped entry file, used unless the engine is given ``encoding``.
ENTRY = "mastermind.lp"
#: clasp options: ``Domain`` makes the ``#heuristic`` of ``search.lp`` count;
#: ``--save-progress=1`` makes every decision reuse the peg's last value.
CLINGO_ARGUMENTS = ("--heuristic=Domain", "--save-progress=1")
#: ``random`` enumerates (exactly uniform) consistent sets up to this size.
RANDOM_ENUMERATION_LIMIT = 100_000
#: Conflicts and models a question may spend in the calling thread (see ``_run``).
QUICK_CONFLICTS = 1000
QUICK_MODELS = 5000
#: Conflicts ``any`` gives clasp to find a code near its random target.
TARGET_CONFLICTS = 200
#: ``any`` aims at random codes up to this many (peg, colour) pairs. Random
#: guesses tell more, but they also make later questions harder: 30x30 games
#: went from 0.6 s to over a minute, while 20x20 stays within 0.25 s.
AIM_MAX_PAIRS = 400
#: Seconds between two checks for Ctrl-C and the time limit during a solve.
WAIT_SLICE = 0.05
#: Released steps a Control may carry before it is rebuilt from the live history.
MAX_RELEASED_STEPS = 32
_LOCATION = re.compile(r"^.+?:\d+:\d+")


def _one_line(message: str) -> str:
    """A clingo message on one line (clingo indents continuation lines)."""
    return " ".join(part.strip() for part in message.strip().splitlines() if part.strip())


@contextmanager
def _include_path(folder: Path):
    """Let ``#include "code.lp".`` in a user's entry file find the shipped parts.

    clingo resolves an include relative to the including file first and then
    along the ``CLINGOPATH`` environment variable, so a file beside the user's
    encoding still wins over the shipped one of the same name.
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


class ClingoSession(Session):
    """One multi-shot clingo ``Control`` whose steps follow the history."""

    def __init__(self, engine: "ClingoEngine"):
        super().__init__(engine.rules)
        self._engine = engine
        self._ctl = engine._control()
        self._steps: list[int] = []  # step number of each history entry
        self._where: dict = {}  # shown atom -> (peg index, colour), filled as models come
        self._next_step = 1
        self._released = 0  # steps released in the current Control
        #: Controls this session has built (one, plus one per rebuild).
        self.controls_built = 1
        self._known: tuple[int, Code | None] | None = None  # (count, first) at this history
        lexicographic = Function("lexicographic")
        # An edited encoding may leave out search.lp; `first` then sorts instead.
        self._lexicographic = lexicographic if lexicographic in self._ctl.symbolic_atoms else None
        # `any` aims if the encoding has search.lp's target(P,C) externals and the game is small enough.
        self._aim = (Function("target", [Number(1), Number(0)]) in self._ctl.symbolic_atoms
                     and self.rules.pegs * self.rules.colors <= AIM_MAX_PAIRS)
        # Program literals of those externals, by peg and colour: looked up once per Control.
        self._targets: list[list[int]] | None = None

    # -- history -----------------------------------------------------------
    def _push(self, entry: Entry) -> None:
        self._known = None
        if self._released > MAX_RELEASED_STEPS:
            # A strategy tree pushes and pops thousands of steps; released ones
            # stay in the Control and slow every later ground and solve
            # (Knuth's 4x6 tree: 17 s instead of 2 s). Start afresh instead.
            self._ctl = self._engine._control()
            self._targets = None
            self._steps.clear()
            self._released = 0
            self.controls_built += 1
            for earlier in self.history[:-1]:
                self._add_step(earlier)
        self._add_step(entry)

    def _add_step(self, entry: Entry) -> None:
        guess, (black, white) = entry
        t = self._next_step
        self._next_step += 1
        facts = "".join(f"guess({t},{p},{c})." for p, c in enumerate(guess, 1))
        part = f"mmlogic_entry_{t}"
        self._ctl.add(part, [], f"{facts}black({t},{black}).white({t},{white}).")
        self._engine._ground(self._ctl, [(part, []), ("step", [Number(t)])])
        self._ctl.assign_external(Function("active", [Number(t)]), True)
        self._steps.append(t)

    def _pop(self, entry: Entry) -> None:
        self._known = None
        # Released, active(t) is false for good: the step's constraints are void.
        self._ctl.release_external(Function("active", [Number(self._steps.pop())]))
        self._released += 1

    # -- questions ---------------------------------------------------------
    def first(self) -> Code | None:
        if self._lexicographic is None:
            codes = self.enumerate(limit=1).tolist()
        elif self._known is not None:
            return self._known[1]  # found by count() at this history
        else:
            codes, _ = self._solve(models=1, lexicographic=True)
        return tuple(codes[0]) if codes else None

    def any(self) -> Code | None:
        """Some consistent code: first the one clasp finds nearest a random target.

        A code found near a random code is as informative as a random
        consistent one, while the solver's plain order stays close to earlier
        guesses and learns little from each (16x6: 11.7 against 13.2 guesses,
        see the README). The target is drawn from the history, and clasp gets
        :data:`TARGET_CONFLICTS` conflicts to honour it; a harder question
        goes on in the plain order, without the target.
        """
        if self._aim:
            found = self._aimed(random_code(self.rules, history_rng(0, self.history)))
            if found is not None:
                return found[0] if found else None
        codes, _ = self._solve(models=1)
        return tuple(codes[0]) if codes else None

    def _aimed(self, code: Code) -> list[Code] | None:
        """The consistent code clasp finds nearest ``code`` (as a list of zero or
        one code), or None if that took more than :data:`TARGET_CONFLICTS` conflicts."""
        if self._targets is None:
            atoms = self._ctl.symbolic_atoms
            self._targets = [[atoms[Function("target", [Number(p), Number(c)])].literal
                              for c in range(self.rules.colors)]
                             for p in range(1, self.rules.pegs + 1)]
        target = [self._targets[p][c] for p, c in enumerate(code)]
        for atom in target:
            self._ctl.assign_external(atom, True)
        try:
            found = self._solve(models=1, budget=TARGET_CONFLICTS)
        finally:
            for atom in target:
                self._ctl.assign_external(atom, False)
        return None if found is None else [tuple(c) for c in found[0]]

    def enumerate(self, limit: int | None = None) -> np.ndarray:
        codes = self._sorted(self._solve(models=0)[0])
        return codes if limit is None else codes[:limit]

    def count(self) -> int:
        if self._known is not None:
            return self._known[0]
        # Enumerating in lexicographic order costs the same and its first model
        # is first()'s answer: a strategy tree asks both at every node.
        lexicographic = self._lexicographic is not None
        codes, n = self._solve(models=0, lexicographic=lexicographic, collect=False)
        if lexicographic:
            self._known = (n, tuple(codes[0]) if codes else None)
        return n

    def random(self, rng: np.random.Generator) -> Code | None:
        """A consistent code drawn with ``rng``.

        Uniform, and the same draw as the base class (and so as the reference
        engine), when at most :data:`RANDOM_ENUMERATION_LIMIT` codes are
        consistent. Larger sets are not enumerated: the code returned is the
        one clasp finds nearest a random code drawn with ``rng`` (as ``any``
        does), or, when that takes too long or the game is too big to aim,
        the first model of a search with random decisions and signs seeded
        from ``rng``: reproducible and covering the set, but not uniform.
        """
        limit = RANDOM_ENUMERATION_LIMIT
        # Counting (no codes read) up to limit + 1 is cheap; only a small set is read.
        n = self._known[0] if self._known is not None else \
            self._solve(models=limit + 1, collect=False)[1]
        if n == 0:
            return None
        if n <= limit:
            k = int(rng.integers(n))
            return tuple(int(c) for c in self.enumerate(limit=k + 1)[k])
        if self._aim:
            found = self._aimed(random_code(self.rules, rng))
            if found:
                return found[0]
        solver = self._ctl.configuration.solver
        saved = solver.seed, solver.rand_freq, solver.sign_def
        solver.seed = str(int(rng.integers(2**31 - 1)))
        solver.rand_freq, solver.sign_def = "1.0", "rnd"
        try:
            codes, _ = self._solve(models=1)
        finally:
            solver.seed, solver.rand_freq, solver.sign_def = saved
        return tuple(codes[0]) if codes else None

    def close(self) -> None:
        self._ctl = None

    # -- solving -----------------------------------------------------------
    def _spot(self, symbol) -> tuple[int, int]:
        """(peg index, colour) of a shown ``secret(P,C)`` atom; (-1, -1) for other atoms."""
        args = symbol.arguments
        if symbol.name == "secret" and len(args) == 2 and all(a.type == SymbolType.Number for a in args):
            peg, colour = args[0].number, args[1].number
            if 0 < peg <= self.rules.pegs and 0 <= colour < self.rules.colors:
                return peg - 1, colour
        return -1, -1

    def _sorted(self, codes: list[list[int]]) -> np.ndarray:
        """Codes as an array in lexicographic order (peg 1 most significant)."""
        dtype = np.uint8 if self.rules.colors <= 255 else np.uint16
        array = np.array(codes, dtype=dtype).reshape(len(codes), self.rules.pegs)
        if len(array) > 1:
            array = array[np.lexsort(array.T[::-1])]
        return array

    def _solve(self, models: int, lexicographic: bool = False, collect: bool = True,
               budget: int | None = None) -> tuple[list[list[int]], int] | None:
        """Solve once for up to ``models`` models (0 = all): their codes and number.

        With ``collect`` false only the first model's code is read (counting).
        With a ``budget`` of conflicts, None if the search needed more.
        Symbols are copied out of each model inside the callback, while the
        model is alive.
        """
        pegs = self.rules.pegs
        codes: list[list[int]] = []
        count = 0
        misfit = None
        where = self._where

        def on_model(model) -> None:
            nonlocal count, misfit
            count += 1
            if not collect and count > 1:
                return  # counting: the first model was checked
            code = [-1] * pegs
            for symbol in model.symbols(shown=True):
                spot = where.get(symbol)
                if spot is None:  # first sight of this atom: check it once
                    spot = where[symbol] = self._spot(symbol)
                if spot[0] >= 0 and code[spot[0]] == -1:
                    code[spot[0]] = spot[1]
                elif spot[0] >= 0 or symbol.name == "secret":
                    misfit = str(symbol)
            if -1 in code:
                misfit = f"peg {code.index(-1) + 1} has no colour"
            codes.append(code)

        def restart() -> None:
            nonlocal count, misfit
            codes.clear()
            count, misfit = 0, None

        self._ctl.configuration.solve.models = str(models)
        # The free external is assumed either way, so that it never doubles a model.
        assumptions = [] if self._lexicographic is None else [(self._lexicographic, lexicographic)]
        if not self._engine._run(self._ctl, on_model, assumptions, restart, models, budget):
            return None
        if misfit is not None:
            raise EncodingError(
                f"{self._engine.entry}:1: the encoding's models must show one secret(P,C) "
                f"per peg P = 1..{pegs} with a colour C = 0..{self.rules.colors - 1} "
                f"(got {misfit})"
            )
        return codes, count


class ClingoEngine(Engine):
    """Answer consistency questions with clingo (ASP) and the shipped or a user's encoding."""

    name = "clingo"
    suffix = ".lp"

    def __init__(self, rules, **options):
        super().__init__(rules, **options)
        self.entry = Path(self.encoding) if self.encoding else encoding_path(ENTRY)
        #: clingo's warnings about the encoding (not shown to the user).
        self.warnings: list[str] = []
        self._errors: list[str] = []
        self._statements: list | None = None

    def _new_session(self) -> ClingoSession:
        return ClingoSession(self)

    # -- loading and grounding ----------------------------------------------
    def _log(self, code: MessageCode, message: str) -> None:
        # clingo writes errors as "file:line:col: error: ..." and everything
        # else (undefined atoms, included files) as info or warning.
        line = _one_line(message)
        if ": error:" in line:
            self._errors.append(line)
        elif line not in self.warnings and len(self.warnings) < 100:
            self.warnings.append(line)  # every session grounds again: keep each once

    @property
    def _program(self) -> list:
        """The encoding parsed once per engine (includes resolved), as clingo AST statements."""
        if self._statements is None:
            if not self.entry.is_file():
                raise EncodingError(f"{self.entry}:1: no such encoding file")
            statements: list = []
            self._errors.clear()
            try:
                with _include_path(encodings_dir()):
                    parse_files([str(self.entry)], statements.append, logger=self._log,
                                message_limit=100)
            except RuntimeError as error:
                raise self._encoding_error(error) from None
            self._statements = statements
        return self._statements

    def _control(self) -> Control:
        """A Control with the encoding, the rules' facts and ``base`` grounded."""
        program = self._program
        ctl = Control(list(CLINGO_ARGUMENTS), logger=self._log, message_limit=100)
        with ProgramBuilder(ctl) as builder:
            for statement in program:
                builder.add(statement)
        r = self.rules
        facts = f"pegs({r.pegs}).colors({r.colors})."
        if r.restricted:
            facts += f"max_repeat({r.repeat_limit})."
        ctl.add("base", [], facts)
        self._ground(ctl, [("base", [])])
        return ctl

    def _ground(self, ctl: Control, parts) -> None:
        self._errors.clear()
        try:
            ctl.ground(parts)
        except RuntimeError as error:
            raise self._encoding_error(error) from None

    def _encoding_error(self, error: RuntimeError) -> EncodingError:
        """The first error clingo logged, on one line starting with ``file:line``."""
        located = [line for line in self._errors if _LOCATION.match(line)]
        if located:  # "file:3:5-9: error: syntax error, ..." -> "file:3:5-9: syntax error, ..."
            return EncodingError(located[0].replace(": error: ", ": ", 1))
        detail = self._errors[0] if self._errors else str(error)
        return EncodingError(f"{self.entry}:1: {detail}")

    # -- solving -----------------------------------------------------------
    def _run(self, ctl: Control, on_model, assumptions, restart, models: int,
             budget: int | None = None) -> bool:
        """One solver call, bounded by ``time_limit`` and interruptible by Ctrl-C.

        With a ``budget``, the call stops after that many conflicts and returns
        False if the search was not finished; otherwise it returns True.

        The search runs in clingo's own thread; this thread waits on an event
        that the search sets when it finishes (much quicker to wake than
        clingo's timed wait), in slices so that Ctrl-C gets through.

        Every question is first tried in this thread with at most
        :data:`QUICK_CONFLICTS` conflicts and :data:`QUICK_MODELS` models:
        most answers come that way, without waking a second thread (which
        costs up to a millisecond on a busy machine, and a strategy tree asks
        thousands of questions); Ctrl-C waits for those few milliseconds. Only
        an unfinished search goes on in the background, after ``restart()``
        has dropped the models the first try collected.
        """
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        limits = ctl.configuration.solve
        bounded = 0 < models <= QUICK_MODELS
        limits.solve_limit = str(QUICK_CONFLICTS if budget is None else budget)
        limits.models = str(models if bounded else QUICK_MODELS)
        try:
            result = ctl.solve(on_model=on_model, assumptions=assumptions)
            if not result.unknown and (bounded or result.exhausted):
                return True
        finally:
            limits.solve_limit = "umax"
            limits.models = str(models)
        restart()
        if budget is not None:
            return False
        finished = threading.Event()
        with ctl.solve(on_model=on_model, on_finish=lambda _: finished.set(),
                       assumptions=assumptions, async_=True) as handle:
            try:
                while not finished.wait(WAIT_SLICE if deadline is None
                                        else max(0.0, min(WAIT_SLICE, deadline - time.monotonic()))):
                    if deadline is not None and time.monotonic() >= deadline:
                        handle.cancel()
                        raise SolverTimeout(
                            f"clingo did not answer within the time limit of {self.time_limit:g} s "
                            f"({self.rules.describe()}, {self.entry.name}); raise --time-limit "
                            "or ask a cheaper question (strategy any)"
                        )
            except KeyboardInterrupt:
                handle.cancel()
                raise
            handle.get()
        return True
