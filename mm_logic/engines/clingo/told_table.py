"""A feedback rule stated in an ASP encoding, derived by clingo: what it tells of every guess against
every code it admits (``--feedback FILE.lp``, :mod:`mm_logic.feedback.encoded`).

The encoding is read as the engine reads it (:class:`~.program.Program`: ``#include "mastermind.lp".``
finds the shipped game, an error is one ``file:line`` line, grounding is watched for Ctrl-C, memory and
the time limit, :data:`GROUND_SECONDS` without one: :mod:`.grounding`). A batch of guesses is then
played at once, each guess t with its ``guess(t,P,C)`` facts, ``active(t)`` true, the parts ``step(t)``
and ``told(t)`` the engine grounds for a rule of one's own, and :data:`OPEN`, which leaves its answer
open: ``won(t)``, or one number from 0 to the pegs for each I = 1..k. The encoding's told/3 constraints
then admit one answer per guess for each code, so each model is a code the encoding admits with its
answer to every guess of the batch: static.lp's way with the built-in rules, the rule written once.

Measured on examples/shared_colours.lp (one number), a Control per batch: grounding is a small part
(4x6: 0.2 s of the guesses' parts in all), reading the models the rest, a few symbols per guess and
code: :data:`BATCH_CELLS` bounds a batch's guesses x codes, the most its models hold at once.
"""

from __future__ import annotations

import os
import re
import time
from array import array
from itertools import repeat
from operator import attrgetter
from pathlib import Path

import numpy as np
from clingo import Function, Number

from ...feedback.encoded import NO_ANSWER, SEVERAL, UNKNOWN, Told
from ...rules import Rules, code_keys
from ...support.errors import SolverTimeout
from ...support.resources import encodings_dir
from .program import Program, code_only, rule_parts
from .solve import solve_within

#: The part that leaves the answer to guess t open, with k numbers (the rule's arity, or a guess at it).
OPEN_PART = "mmlogic_told_open"
OPEN = f"""#program {OPEN_PART}(t,k).
% the codemaker's answer to guess t, left open: the win, or one number from 0 to the pegs for each I = 1..k
{{ won(t) }}.
1 {{ told(t,I,V) : V = 0..N }} 1 :- pegs(N), I = 1..k, not won(t).
#show told/3.
#show won/1.
"""
#: The part of a batch's guess/3 facts.
GUESSES_PART = "mmlogic_told_guesses"
#: How long one grounding of a rule's encoding may take when the derivation has no time limit (a command
#: without ``--time-limit``, or none given), in seconds: an endless rule still stops, as a rule module's
#: code does after ``CALL_SECONDS`` (:mod:`mm_logic.feedback.watch`). Grounding is the small part of a
#: derivation: 0.5 s for 4x6's batch of every guess, 0.1 s for 4x10's (10,000 codes, the most clingo derives).
GROUND_SECONDS = 60.0
#: Models a code may have in one batch before the search stops (see :meth:`ClingoTold._batch`).
MAX_MODELS_PER_CODE = 2
_INCLUDE = re.compile(rb'#include\s*"([^"]*)"')


def included_files(entry_file: Path) -> list[Path]:
    """``entry_file`` and the files it includes, as clingo finds them (the working folder, the including
    file's folder, ``CLINGOPATH``, then the shipped encodings): what the derived table depends on."""
    search = [Path.cwd(), *(Path(p) for p in os.environ.get("CLINGOPATH", "").split(os.pathsep) if p),
              encodings_dir()]
    found: list[Path] = []
    todo = [entry_file]
    while todo:
        file = todo.pop()
        if file.resolve() in found:
            continue
        found.append(file.resolve())
        try:
            code = code_only(file.read_bytes())
        except OSError:
            continue  # the derivation names it
        for include in _INCLUDE.finditer(code):
            for folder in [search[0], file.parent, *search[1:]]:
                if (folder / os.fsdecode(include[1])).is_file():
                    todo.append(folder / os.fsdecode(include[1]))
                    break
    return found


class ClingoTold:
    """The told numbers of an ASP encoding (``path``) for the code space of ``rules`` (the truthful rules,
    the feedback the encoding's path)."""

    @staticmethod
    def sources(path: Path) -> list[Path]:
        """The files the encoding reads, as clingo finds its includes (:func:`included_files`)."""
        return included_files(path)

    def __init__(self, path: Path, rules: Rules, time_limit: float | None = None):
        self.rules = rules
        self.time_limit = time_limit
        # Each grounding bounded by the time limit given, else by GROUND_SECONDS; and by memory, always.
        self.program = Program(path, rules, GROUND_SECONDS if time_limit is None else time_limit, watched=True,
                               limit_said=f"{GROUND_SECONDS:g} s, the bound on grounding a rule's encoding"
                               if time_limit is None else None)

    # -- the codes the encoding admits --------------------------------------------------------
    def admitted(self) -> np.ndarray:
        """The codes the encoding admits before any guess, ``(m, pegs)`` in lexicographic order."""
        ctl = self._control()
        pegs, colors = self.rules.pegs, self.rules.colors
        reader = ModelReader({Function("secret", [Number(p + 1), Number(c)]): p * colors + c
                              for p in range(pegs) for c in range(colors)}, MAX_MODELS_PER_CODE * self.rules.size + 16)
        self._solve(ctl, reader)
        if reader.stopped:
            raise self._free_atom()
        keys = self._secret_keys(reader.ids(), reader.lengths())
        return _codes_of(np.unique(keys), pegs, colors)

    # -- the answers ---------------------------------------------------------------------------
    def answers(self, guesses: np.ndarray, arity: int, secrets: np.ndarray) -> Told:
        """What the encoding tells of each of ``guesses`` (codes, ``(b, pegs)``) against each of ``secrets``
        (the codes it admits, :meth:`admitted`), with ``arity`` numbers: one Control, all the guesses
        played at once."""
        rules = self.rules
        b = len(guesses)
        told = Told(np.full((b, len(secrets)), UNKNOWN, dtype=np.int64), {})
        ctl = self._control()
        ctl.add(OPEN_PART, ["t", "k"], OPEN)
        ctl.add(GUESSES_PART, [], "".join(f"guess({t},{p},{c})." for t, code in enumerate(guesses.tolist(), 1)
                                          for p, c in enumerate(code, 1)))
        parts = [(GUESSES_PART, [])]
        for t in range(1, b + 1):
            parts += [(name, [Number(t)]) for name in rule_parts(rules)]
            parts.append((OPEN_PART, [Number(t), Number(arity)]))
        self.program.ground(ctl, parts)
        for t in range(1, b + 1):
            ctl.assign_external(Function("active", [Number(t)]), True)
        # A code told two answers to some guess has a model for each (and more numbers than the rule
        # states leave some free: a model for every value): the models stop at twice the codes, which an
        # atom of the encoding's own left free would fill alike, with the same answers.
        reader = ModelReader(self._where(b, arity), MAX_MODELS_PER_CODE * len(secrets) + 16)
        self._solve(ctl, reader)
        self._store(reader.ids(), reader.lengths(), b, arity, secrets, told)
        if reader.stopped and not told.several:
            raise self._free_atom()
        missing = np.flatnonzero((told.index == UNKNOWN).all(axis=0))
        if missing.size and not reader.stopped:
            self._none(ctl, b, secrets, int(missing[0]), told)
        return told

    def _where(self, b: int, arity: int) -> dict:
        """Shown atom -> its number: ``secret(P,C)`` below ``pegs*colors``, then ``told(t,I,V)`` and
        ``won(t)`` as cells of (guess, I) with the value (``pegs+1`` for the win, in the cell of I = 1)."""
        pegs, colors = self.rules.pegs, self.rules.colors
        base = pegs * colors
        where = {Function("secret", [Number(p + 1), Number(c)]): p * colors + c
                 for p in range(pegs) for c in range(colors)}
        for t in range(b):
            where[Function("won", [Number(t + 1)])] = base + t * arity * (pegs + 2) + pegs + 1
            for i in range(arity):
                for v in range(pegs + 1):
                    where[Function("told", [Number(t + 1), Number(i + 1), Number(v)])] = \
                        base + (t * arity + i) * (pegs + 2) + v
        return where

    def _store(self, ids: np.ndarray, lengths: np.ndarray, b: int, arity: int, secrets: np.ndarray,
               told: Told) -> None:
        """The models read (their atoms' numbers, model after model) as feedback indices in ``told``."""
        pegs, colors = self.rules.pegs, self.rules.colors
        models = len(lengths)
        if models == 0:
            return
        keys = self._secret_keys(ids, lengths)
        secret_keys = code_keys(secrets, colors)
        columns = np.minimum(np.searchsorted(secret_keys, keys), len(secrets) - 1)
        if (secret_keys[columns] != keys).any():
            raise self.program.misfit("with a guess played, the encoding admits a code it does not admit before")
        owner = np.repeat(np.arange(models), lengths)
        answer = (ids >= pegs * colors)
        cells = ids[answer] - pegs * colors
        slot, value = cells // (pegs + 2), cells % (pegs + 2)
        values = np.full((models, b * arity), -1, dtype=np.int64)
        values[owner[answer], slot] = value
        won = values[:, ::arity] == pegs + 1
        values = values.reshape(models, b, arity)
        values[won] = pegs + 1
        if (values < 0).any():
            raise self.program.misfit("a model tells some guess neither won/1 nor every told/3 number")
        index = values @ ((pegs + 2) ** np.arange(arity - 1, -1, -1, dtype=np.int64))  # (models, b)
        rows = told.index
        order = np.argsort(columns, kind="stable")
        first = np.ones(models, dtype=bool)
        first[1:] = columns[order][1:] != columns[order][:-1]
        rows[:, columns[order[first]]] = index[order[first]].T
        for again in order[~first]:  # a code of two models: two answers to some guess
            column = columns[again]
            differ = np.flatnonzero(rows[:, column] != index[again])
            if differ.size:
                row = int(differ[0])
                told.several.setdefault((row, int(column)), (int(rows[row, column]), int(index[again][row])))
                rows[row, column] = SEVERAL

    def _none(self, ctl, b: int, secrets: np.ndarray, column: int, told: Told) -> None:
        """A code the encoding admits has no model with the batch: the first guess of the batch that has no
        answer against it, alone (its cell :data:`NO_ANSWER`)."""
        pegs = self.rules.pegs
        atoms = ctl.symbolic_atoms
        code = secrets[column].tolist()
        assumptions = [(atom, True) for atom in (Function("secret", [Number(p + 1), Number(c)])
                                                 for p, c in enumerate(code)) if atom in atoms]
        for t in range(1, b + 1):
            ctl.assign_external(Function("active", [Number(t)]), False)
        ctl.configuration.solve.models = 1
        for t in range(1, b + 1):
            ctl.assign_external(Function("active", [Number(t)]), True)
            if len(assumptions) < pegs or not ctl.solve(assumptions=assumptions).satisfiable:
                told.index[t - 1, column] = NO_ANSWER
                return
            ctl.assign_external(Function("active", [Number(t)]), False)

    # -- helpers ---------------------------------------------------------------------------------
    def _free_atom(self):
        """The line for models that repeat a code and its answers past :data:`MAX_MODELS_PER_CODE`."""
        return self.program.misfit(f"the encoding gives some code the same answers in more than "
                                   f"{MAX_MODELS_PER_CODE} models: an atom of its own is left free")

    def _control(self):
        """A Control with the encoding and ``base`` grounded, enumerating every model once per shown atoms."""
        ctl = self.program.control()
        lexicographic = Function("lexicographic")
        if lexicographic in ctl.symbolic_atoms:
            ctl.assign_external(lexicographic, False)  # search.lp's [free] external would double every model
        # All models, unprojected: projecting on the shown atoms made 4x6 take 4.2 s instead of 2.5.
        ctl.configuration.solve.models = 0
        return ctl

    def _solve(self, ctl, on_model) -> None:
        """Every model of ``ctl`` to ``on_model``, bounded by the time limit and Ctrl-C."""
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        if solve_within(ctl, on_model, deadline) is None:
            raise SolverTimeout(f"clingo did not derive the rule of {self.program.entry_file} within the time limit "
                                f"of {self.time_limit:g} s; raise --time-limit")

    def _secret_keys(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """The code of each model (its ``secret(P,C)`` atoms) as its base-colours number."""
        pegs, colors = self.rules.pegs, self.rules.colors
        models = len(lengths)
        owner = np.repeat(np.arange(models), lengths)
        own = (ids >= 0) & (ids < pegs * colors)
        peg, colour = ids[own] // colors, ids[own] % colors
        per_peg = np.bincount(owner[own] * pegs + peg, minlength=models * pegs).reshape(models, pegs)
        if models and (per_peg != 1).any():
            bad = np.argwhere(per_peg != 1)[0]
            said = "no colour" if per_peg[bad[0], bad[1]] == 0 else "two colours"
            raise self.program.misfit(f"a model gives peg {bad[1] + 1} {said} (secret/2 must be shown, "
                                      "one colour a peg)")
        weights = colors ** (pegs - 1 - peg)
        return np.bincount(owner[own], weights=(colour * weights).astype(np.float64), minlength=models).astype(
            np.int64)


class ModelReader:
    """Model handler: the numbers (``where``) of each model's shown atoms, model after model in one flat
    array (-1 for an atom it does not number), until ``most`` models.

    Atoms are looked up by the symbol's own number where clingo's Python API keeps one (``_rep``: clingo
    interns symbols, so equal symbols have equal numbers): 4x6's 1.7 million shown atoms took 1.1 s so,
    2.3 s by the symbols themselves (their hash and equality are calls into clingo).
    """

    def __init__(self, where: dict, most: int):
        self.most = most
        self.stopped = False
        self._ids, self._lengths = array("q"), array("q")
        probe = next(iter(where), None)
        if probe is not None and isinstance(getattr(probe, "_rep", None), int):
            self._key = attrgetter("_rep")
            self._where = {symbol._rep: number for symbol, number in where.items()}
        else:
            self._key = None
            self._where = dict(where)

    def __call__(self, model) -> bool:
        shown = model.symbols(shown=True)
        keys = shown if self._key is None else map(self._key, shown)
        self._ids.extend(map(self._where.get, keys, repeat(-1)))
        self._lengths.append(len(shown))
        if len(self._lengths) >= self.most:
            self.stopped = True
            return False
        return True

    def ids(self) -> np.ndarray:
        return np.frombuffer(self._ids, dtype=np.int64) if self._ids else np.zeros(0, dtype=np.int64)

    def lengths(self) -> np.ndarray:
        return np.frombuffer(self._lengths, dtype=np.int64) if self._lengths else np.zeros(0, dtype=np.int64)


def _codes_of(keys: np.ndarray, pegs: int, colors: int) -> np.ndarray:
    """The codes of base-colours numbers, ``(m, pegs)``."""
    codes = np.empty((len(keys), pegs), dtype=np.int64)
    rest = keys.copy()
    for p in range(pegs - 1, -1, -1):
        codes[:, p] = rest % colors
        rest //= colors
    return codes


__all__ = ["ClingoTold", "included_files"]
