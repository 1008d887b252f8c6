"""The questions, asked of a session's Control: first, any, random, enumerate, count.

* **first** assumes the external ``lexicographic``, which switches on the
  ``#heuristic`` of ``search.lp`` (``--heuristic=Domain``): pegs are decided
  in order, each trying the smallest colour first. Every decision is then on
  the highest-priority open atom with its preferred sign and every other
  literal is implied, so the first model found is the lexicographically
  smallest (cross-checked against the brute-force filter by the tests).
* **any** assumes it false and *aims*: it draws a random code from the
  history, switches on that code's ``target(P,C)`` externals, and clasp
  decides the pegs first, each trying its target colour, within
  :data:`TARGET_CONFLICTS` conflicts. A random code made consistent tells as
  much as a uniformly random consistent one: 16x6 games take 11.7 guesses
  instead of 13.2 with clasp's plain order, whose guesses stay near the
  previous ones; a Z3 player takes 11.8 on the same secrets (docs/results/large-games.md). If the
  budget runs out, and in games of more than :data:`AIM_MAX_PAIRS` (peg,
  colour) pairs, the plain order answers: clasp decides the colour counts
  first, then prefers giving pegs colours, and ``--save-progress=1`` keeps
  each peg's last value. That option took 30x30 games from minutes to
  seconds.
* **enumerate** and **count** enumerate every consistent code (clingo does
  not count models otherwise); ``enumerate`` sorts them lexicographically.
  ``count`` enumerates in ``first``'s order and keeps the first model, so a
  strategy tree, which asks both at every node, solves once per node.
* **random** keeps the base class's rule (a uniform index into the
  lexicographic enumeration, hence the same draw as every other engine for
  the same generator) whenever at most :data:`RANDOM_ENUMERATION_LIMIT`
  codes are consistent. Larger sets are not enumerated: the answer aims at a
  random code drawn with the generator, as ``any`` does, or comes from a
  search with random decisions and signs seeded from it: reproducible,
  anywhere in the set, but not exactly uniform.
"""

from __future__ import annotations

import numpy as np

from ...notation import Code, Entry
from ...randomness import history_rng, random_code
from ..base import Session
from .control import StepControl
from .solve import CodeReader, solve

#: ``count`` keeps the codes it reads, for a following ``enumerate``, up to this many.
KEEP_CODES = 50_000
#: ``random`` enumerates (exactly uniform) consistent sets up to this size.
RANDOM_ENUMERATION_LIMIT = 100_000
#: Conflicts ``any`` gives clasp to find a code near its random target.
TARGET_CONFLICTS = 200
#: Conflicts ``near`` gives clasp to find a code near the one it is given (0.04 s on 30x30:
#: late in sample-entropy's games it answered there in 0.01 s where ``any`` took 2-44 s).
NEAR_CONFLICTS = 2000
#: ``any`` aims at random codes up to this many (peg, colour) pairs. Random
#: guesses tell more, but they also make later questions harder: 30x30 games
#: went from 0.6 s to over a minute, while 20x20 stays within 0.25 s.
AIM_MAX_PAIRS = 400


class ClingoSession(Session):
    """One multi-shot clingo ``Control`` whose steps follow the history."""

    def __init__(self, engine):
        super().__init__(engine.rules)
        self._engine = engine
        self._control = StepControl(engine.program)
        self._where: dict = {}  # shown atom -> (peg index, colour), filled as models come
        self._known: tuple[int, Code | None] | None = None  # (count, first) at this history
        self._codes: list | np.ndarray | None = None  # every consistent code at this history, when count kept them
        # `any` aims if the encoding has search.lp's target(P,C) externals and the game is small enough.
        self._aim = self._control.has_targets and self.rules.pegs * self.rules.colors <= AIM_MAX_PAIRS

    @property
    def controls_built(self) -> int:
        """Controls this session has built (one, plus one per rebuild)."""
        return self._control.controls_built

    # -- history -----------------------------------------------------------
    def _push(self, entry: Entry) -> None:
        self._known = self._codes = None
        self._control.push(entry, self.history)

    def _pop(self, entry: Entry) -> None:
        self._known = self._codes = None
        self._control.pop()

    # -- questions ---------------------------------------------------------
    def _first(self) -> Code | None:
        if self._control.lexicographic is None:  # an edited encoding may leave out search.lp: sort
            codes = self.enumerate(limit=1).tolist()
        elif self._known is not None:
            return self._known[1]  # found by count() at this history
        else:
            codes = self._ask("first", models=1, lexicographic=True).codes
        return tuple(codes[0]) if codes else None

    def _any(self) -> Code | None:
        """Some consistent code: first the one clasp finds nearest a random target.

        The target is drawn from the history, and clasp gets
        :data:`TARGET_CONFLICTS` conflicts to honour it; a harder question
        goes on in the plain order, without the target.
        """
        if self._aim:
            found = self._aimed(random_code(self.rules, history_rng(0, self.history)))
            if found is not None:
                return found[0] if found else None
        codes = self._ask("any", models=1).codes
        return tuple(codes[0]) if codes else None

    def _near(self, code: Code) -> Code | None:
        """The consistent code clasp finds nearest ``code`` within :data:`NEAR_CONFLICTS`
        conflicts (at any size of game: the caller knows ``code`` is close), else :meth:`_any`'s."""
        if self._control.has_targets:
            found = self._aimed(code, NEAR_CONFLICTS)
            if found is not None:
                return found[0] if found else None
        return self._any()

    def _aimed(self, code: Code, budget: int | None = None) -> list[Code] | None:
        """The consistent code clasp finds nearest ``code`` (as a list of zero or
        one code), or None if that took more than ``budget`` conflicts
        (default :data:`TARGET_CONFLICTS`)."""
        budget = TARGET_CONFLICTS if budget is None else budget
        literals = self._control.target_literals()
        target = [literals[p][c] for p, c in enumerate(code)]
        ctl = self._control.ctl
        for atom in target:
            ctl.assign_external(atom, True)
        try:
            reader = self._ask("any", models=1, budget=budget)
        finally:
            for atom in target:
                ctl.assign_external(atom, False)
        return None if reader is None else [tuple(c) for c in reader.codes]

    def _enumerate(self, limit: int | None) -> np.ndarray:
        if self._codes is not None:  # read, and checked, by count() at this history; sorted when first asked
            if isinstance(self._codes, list):
                self._codes = self._sorted(self._codes)
            return self._codes[:limit]
        codes = self._sorted(self._ask("enumerate", models=0).codes)
        return codes if limit is None else codes[:limit]

    def _count(self) -> int:
        if self._known is not None:
            return self._known[0]
        # Enumerating in lexicographic order costs the same and its first model
        # is first()'s answer: a strategy tree asks both at every node. Every
        # model is read and checked against the history (5-15% of a count:
        # Knuth 4x6 --all 1.61 s against 1.52 s, first 4x8 --all 4.9 against 4.3).
        # A set of at most KEEP_CODES codes is kept for the enumerate() a
        # scoring strategy asks next: one solve per node instead of two.
        lexicographic = self._control.lexicographic is not None
        reader = self._ask("count", models=0, lexicographic=lexicographic, collect=KEEP_CODES, check=True)
        if lexicographic:
            self._known = (reader.count, tuple(reader.codes[0]) if reader.codes else None)
        if reader.count <= KEEP_CODES:
            self._codes = reader.codes
        return reader.count

    def _count_up_to(self, bound: int, deadline: float | None) -> tuple[int, bool]:
        if self._known is not None:
            return min(self._known[0], bound + 1), True
        # Every model read is checked. Without a deadline (spaces the python engine enumerates) in
        # first's order, so a wrong code an edited encoding admits is named as the smallest; with
        # one (huge games) in clasp's own order: the lexicographic one must find the smallest code
        # first, which can take for ever (30x30: no eleventh model in 100 s; this order: at once).
        lexicographic = deadline is None and self._control.lexicographic is not None
        reader = self._ask("count", models=bound + 1, lexicographic=lexicographic, collect=False, check=True,
                           stop_at=deadline)
        return reader.count, not reader.stopped

    def _random(self, rng: np.random.Generator) -> Code | None:
        """A consistent code drawn with ``rng`` (see the module's notes)."""
        limit = RANDOM_ENUMERATION_LIMIT
        # Counting (no codes read) up to limit + 1 is cheap; only a small set is read.
        n = self._known[0] if self._known is not None else \
            self._ask("random", models=limit + 1, collect=False).count
        if n == 0:
            return None
        if n <= limit:
            k = int(rng.integers(n))
            return tuple(int(c) for c in self.enumerate(limit=k + 1)[k])
        if self._aim:
            found = self._aimed(random_code(self.rules, rng))
            if found:
                return found[0]
        solver = self._control.ctl.configuration.solver
        saved = solver.seed, solver.rand_freq, solver.sign_def
        solver.seed = str(int(rng.integers(2**31 - 1)))
        solver.rand_freq, solver.sign_def = "1.0", "rnd"
        try:
            codes = self._ask("random", models=1).codes
        finally:
            solver.seed, solver.rand_freq, solver.sign_def = saved
        return tuple(codes[0]) if codes else None

    def close(self) -> None:
        if self._control is not None:
            self._control.release()
        self._control = None

    # -- one call --------------------------------------------------------------
    def _sorted(self, codes: list[list[int]]) -> np.ndarray:
        """Codes as an array in lexicographic order (peg 1 most significant)."""
        dtype = np.uint8 if self.rules.colors <= 255 else np.uint16
        array = np.array(codes, dtype=dtype).reshape(len(codes), self.rules.pegs)
        if len(array) > 1:
            array = array[np.lexsort(array.T[::-1])]
        return array

    def _ask(self, question: str, models: int, lexicographic: bool = False, collect: bool = True,
             budget: int | None = None, check: bool = False, stop_at: float | None = None) -> CodeReader | None:
        """One solver call for up to ``models`` models (0: all): the reader holding them.

        With a ``budget`` of conflicts, None if the search needed more. With
        ``check``, every model is checked against the history as it is read.
        A search still running at ``stop_at`` (``time.monotonic``) stops: the
        reader holds the models found, and says ``stopped``.
        """
        control = self._control
        reader = CodeReader(self.rules, self._where, collect, self._checked if check else None)
        # The free external is assumed either way, so that it never doubles a model.
        assumptions = [] if control.lexicographic is None else [(control.lexicographic, lexicographic)]
        engine = self._engine
        what = f"{self.rules.describe()}, {question}, {engine.entry_file.name}"
        if not solve(control.ctl, reader, assumptions, models, budget=budget, time_limit=engine.time_limit,
                     stop_at=stop_at, what=what):
            if budget is not None:
                return None
            reader.stopped = True
        if reader.misfit is not None:
            raise engine.program.misfit(
                f"the encoding's models must show one secret(P,C) per peg P = 1..{self.rules.pegs} "
                f"with a colour C = 0..{self.rules.colors - 1} (got {reader.misfit})")
        reader.finish()
        return reader



