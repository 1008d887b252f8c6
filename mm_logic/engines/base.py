"""The one interface every engine implements.

An *engine* answers questions about the codes consistent with a history
(a list of ``(guess, (black, white))`` entries) under some :class:`Rules`:

* ``first``: the lexicographically smallest consistent code,
* ``any``: some consistent code, whichever the engine finds first (fast),
* ``near``: some consistent code, preferring the colours of a code it is given
  (clingo aims its search there; other engines answer as ``any``),
* ``random``: a uniformly random consistent code,
* ``enumerate``: all consistent codes in lexicographic order (with a limit),
* ``count``: how many consistent codes there are (exact), and
  ``count_within``: exact up to a budget, else a proven lower bound.

Questions are asked through a :class:`Session`, which holds one growing
history: a game pushes one entry per guess, and a search over a strategy tree
pushes and pops. Backends keep per-session solver state (clingo's multi-shot
``Control``, the reference engine's surviving indices) and implement the
questions as ``_first``, ``_enumerate``, ...; the public methods here check
every code an engine returns against the history with the feedback rule
before anyone uses it, so an edited encoding that admits a wrong code is
named at once (:class:`~mm_logic.support.errors.WrongAnswer`). Strategies and the
game loop only ever see this interface.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections import Counter
from contextlib import contextmanager
from itertools import combinations
from pathlib import Path

import numpy as np

from ..codespace import code_space
from ..counting import count_consistent, countable
from ..feedback import colour_counts, rule_of
from ..lies import broken, lies_of_rows, needs
from ..notation import Code, Entry, Feedback, format_code, format_entry, format_feedback
from ..rules import Rules
from ..support.errors import NoConsistentCode, WrongAnswer

#: Seconds ``count_within`` may spend before it settles for a lower bound.
COUNT_SECONDS = 1.0


class Session(ABC):
    """Consistent codes for one history that grows (``push``) and shrinks (``pop``)."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.history: list[Entry] = []
        #: Who answers, for messages (e.g. the encoding file); None: answers are not checked.
        self.checked_as: str | None = None
        #: Whether an edited encoding answers: its codes need not be every code of the rules, nor
        #: closed under the game's symmetries (strategies that assume either ask the session).
        self.edited = False
        # Each entry's guess with its colour counts, for checking codes one at a time;
        # and the last code found right at this history (asked again, it is not checked again).
        self._scored: list[tuple[Code, Counter, Feedback]] = []
        self._last_right: Code | None = None

    # -- history -----------------------------------------------------------
    def push(self, guess: Code, feedback: Feedback) -> None:
        """Add one played guess and the feedback it got."""
        self.history.append((tuple(guess), tuple(feedback)))
        try:
            self._push(self.history[-1])
        except BaseException:
            # A push that failed (time limit, Ctrl-C, a bad encoding) leaves the history as it was.
            self.history.pop()
            raise
        if self.checked_as is not None:
            self._scored.append((self.history[-1][0], Counter(guess), self.history[-1][1]))
        self._last_right = None

    def pop(self) -> Entry:
        """Remove the last entry (backtracking in a strategy tree)."""
        entry = self.history.pop()
        if self.checked_as is not None:
            self._scored.pop()
        self._last_right = None
        self._pop(entry)
        return entry

    @abstractmethod
    def _push(self, entry: Entry) -> None: ...

    @abstractmethod
    def _pop(self, entry: Entry) -> None: ...

    # -- questions ---------------------------------------------------------
    def first(self) -> Code | None:
        """The lexicographically smallest consistent code, or None."""
        return self._checked_code(self._first())

    def any(self) -> Code | None:
        """Some consistent code, in the engine's own (fastest) order, or None."""
        return self._checked_code(self._any())

    def near(self, code: Code) -> Code | None:
        """Some consistent code, found by a search that prefers the colours of ``code`` (an
        engine that cannot aim answers as :meth:`any` does), or None."""
        return self._checked_code(self._near(tuple(int(c) for c in code)))

    def random(self, rng: np.random.Generator) -> Code | None:
        """A uniformly random consistent code drawn with ``rng``, or None."""
        return self._checked_code(self._random(rng))

    def enumerate(self, limit: int | None = None) -> np.ndarray:
        """Consistent codes in lexicographic order, at most ``limit`` of them.

        Returns an integer array of shape ``(m, pegs)``.
        """
        return self._checked(self._enumerate(limit))

    def count(self) -> int:
        """Exact number of consistent codes."""
        return self._count()

    def count_within(self, limit: int, seconds: float = COUNT_SECONDS) -> tuple[int, bool]:
        """The number of consistent codes, ``(n, True)``, or ``(m, False)`` with ``m`` a proven lower bound.

        * The rules' own codes (no edited encoding) in a space the python
          engine enumerates: exact, always, whatever the engine and the
          machine's load (:func:`mm_logic.counting.count_consistent`, which
          counts without listing them).
        * An edited encoding in such a space: the engine counts up to
          ``limit`` codes; beyond, ``limit + 1`` codes were found. The same
          answer however busy the machine is.
        * Larger spaces: the engine first finds one code (its start-up, such
          as grounding, is not counted), then counts up to ``limit`` codes
          for at most ``seconds``: a count cut short gives the codes found so
          far (at least that one).
        """
        if countable(self.rules):
            if not self.edited:
                return count_consistent(self.rules, self.history), True
            n, _ = self._count_up_to(limit, None)
            return n, n <= limit
        if self.any() is None:
            return 0, True
        n, finished = self._count_up_to(limit, time.monotonic() + seconds)
        return (n, True) if finished and n <= limit else (max(n, 1), False)

    def lies_needed(self) -> np.ndarray:
        """For each consistent code, in :meth:`consistent_indices`' order, the lies it needs (``--lies``,
        :mod:`mm_logic.lies`): the entries it breaks; all zero in a game without lies."""
        indices = self.consistent_indices()
        if not self.rules.lies:
            return np.zeros(indices.size, dtype=np.int8)
        return lies_of_rows(self.rules, self.history, code_space(self.rules).codes[indices]).astype(np.int8)

    def consistent_indices(self) -> np.ndarray:
        """Positions of the consistent codes in :func:`mm_logic.codespace.code_space`, increasing.

        Scoring strategies read their feedback table by these positions. The
        default finds them from :meth:`enumerate`; an engine that works on the
        enumerated space (the reference engine) has them at hand.
        """
        return code_space(self.rules).index_of(self.enumerate())

    # -- what an engine implements --------------------------------------------
    @abstractmethod
    def _first(self) -> Code | None: ...

    def _any(self) -> Code | None:
        return self._first()

    def _near(self, code: Code) -> Code | None:
        return self._any()

    def _random(self, rng: np.random.Generator) -> Code | None:
        # A uniform index into the lexicographic enumeration: every engine
        # that enumerates the same set returns the same code for the same
        # generator state.
        n = self.count()
        if n == 0:
            return None
        k = int(rng.integers(n))
        return tuple(int(c) for c in self.enumerate(limit=k + 1)[k])

    @abstractmethod
    def _enumerate(self, limit: int | None) -> np.ndarray: ...

    @abstractmethod
    def _count(self) -> int: ...

    def _count_up_to(self, bound: int, deadline: float | None) -> tuple[int, bool]:
        """The number of consistent codes, or ``bound + 1`` if there are more, and True; or
        ``(m, False)`` when ``deadline`` (on ``time.monotonic``'s clock) stopped the count after
        ``m`` codes. An engine that cannot stop a count midway ignores the deadline."""
        return len(self.enumerate(bound + 1)), True

    # -- checking answers --------------------------------------------------------
    def _checked_code(self, code: Code | None) -> Code | None:
        # One code: the scalar rule is cheaper than numpy's set-up (a game asks this every turn).
        if code is None or self.checked_as is None or code == self._last_right:
            return code
        counts = Counter(code)
        if self.rules.lies:
            fits = needs(self.rules, self.history, code) is not None
        else:
            rule = rule_of(self.rules)
            fits = all(rule.fits(guess, guess_counts, code, counts, fb) for guess, guess_counts, fb in self._scored)
        if max(counts.values()) > self.rules.repeat_limit or not fits:
            self._checked_rows(np.asarray([code]))  # names the broken rule or entry
        self._last_right = code
        return code

    def _checked(self, codes: np.ndarray) -> np.ndarray:
        """``codes``, once each is a valid code that every history entry allows."""
        if self.checked_as is None or len(codes) == 0:
            return codes
        if len(codes) <= 4:  # a few codes (most nodes of a strategy tree): numpy's set-up costs more
            for code in np.asarray(codes).tolist():
                self._checked_code(tuple(code))
            return codes
        return self._checked_rows(codes)

    def _checked_rows(self, codes: np.ndarray) -> np.ndarray:
        rules = self.rules
        array = np.asarray(codes)
        counts = colour_counts(array, rules.colors)
        invalid = np.flatnonzero(counts.max(axis=1) > rules.repeat_limit)
        if invalid.size:
            code = tuple(int(c) for c in array[invalid[0]])
            raise WrongAnswer(f"{self.checked_as} admits {format_code(code, rules)}, "
                              f"which breaks the repetition rule of {rules.describe()}")
        rule = rule_of(rules)
        if rules.lies:
            return self._checked_lies(codes)
        for number, (guess, fb) in enumerate(self.history, 1):
            marks = rule.indices(guess, array, counts)
            wrong = np.flatnonzero(marks != rule.index(fb, rules.pegs))
            if wrong.size:
                code = tuple(int(c) for c in array[wrong[0]])
                raise WrongAnswer(
                    f"{self.checked_as} admits {format_code(code, rules)}, which breaks history entry "
                    f"{number} ({format_entry((guess, fb), rules)}): it scores "
                    f"{format_feedback(rule.score(guess, code), rules)}")
        return codes

    def _checked_lies(self, codes: np.ndarray) -> np.ndarray:
        """``codes``, once none needs more lies than the game allows (nor is a guess answered without the win)."""
        rules = self.rules
        needed = lies_of_rows(rules, self.history, codes)
        wrong = np.flatnonzero(needed > rules.lies)
        if wrong.size:
            code = tuple(int(c) for c in np.asarray(codes)[wrong[0]])
            entries = [i + 1 for i in broken(rules, self.history, code)]
            win = rule_of(rules).win(rules.pegs)
            told = [n for n, (guess, fb) in enumerate(self.history, 1) if (tuple(guess) == code) != (tuple(fb) == win)]
            why = (f"which entry {told[0]} rules out (the win is always told, and never claimed wrongly)" if told
                   else f"which breaks entries {', '.join(map(str, entries))}: more than --lies {rules.lies} allows")
            raise WrongAnswer(f"{self.checked_as} admits {format_code(code, rules)}, {why}")
        return codes

    def close(self) -> None:
        """Release solver resources (optional)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Engine(ABC):
    """A solver of consistency questions for one set of rules.

    Parameters
    ----------
    rules:
        The game's rules.
    encoding:
        Path of a user encoding replacing the shipped one (declarative engines).
    time_limit:
        Seconds one solver call may take before :class:`SolverTimeout`.
    labeling:
        The order in which ``any`` labels the pegs, one of :attr:`labelings`.
    """

    #: Name used by ``--backend``.
    name: str = "?"
    #: Suffix of the encoding files it reads (``--encoding``); None: it takes none.
    suffix: str | None = None

    #: Labeling orders the engine's ``any`` can follow (``--labeling``); empty: none.
    labelings: tuple[str, ...] = ()
    #: The feedback rules it answers for (``--feedback``).
    feedback_rules: tuple[str, ...] = ("standard", "black", "positional", "FILE.py")
    #: Whether it answers for games with lies (``--lies``), and under which feedback rules.
    lies: bool = True
    lies_rules: tuple[str, ...] = ("standard", "black", "positional", "FILE.py")

    def __init__(self, rules: Rules, *, encoding: Path | None = None,
                 time_limit: float | None = None, labeling: str | None = None):
        self.rules = rules
        self.encoding = encoding
        self.time_limit = time_limit
        self.labeling = labeling

    #: Codes the engine counts when a front end asks how many remain (``next``) and only the engine
    #: knows (an edited encoding, a huge game; see :meth:`Session.count_within`); beyond, a lower
    #: bound is reported. About a second on clingo (0.9 s for 52,068 codes of 7x7).
    count_budget: int = 100_000
    #: Whether answers are checked against the feedback rule (the reference
    #: engine *is* the feedback rule over the enumerated space: nothing to check).
    checked: bool = True

    @contextmanager
    def time_limited(self, seconds: float):
        """Within the block, no solver call takes more than ``seconds`` (nor the engine's own ``time_limit``):
        a caller with a deadline of its own (``info``'s feedback questions) bounds each question by what is
        left of it."""
        own = self.time_limit
        self.time_limit = seconds if own is None else min(own, seconds)
        try:
            yield self
        finally:
            self.time_limit = own

    def search_stats(self) -> dict[str, int] | None:
        """Effort of every search so far (e.g. ``{"nodes": ..., "checks": ...}``), or None
        when the engine does not count it (declarative solvers report their own)."""
        return None

    @property
    def edited(self) -> bool:
        """Whether the codes are a variant's own, not every code of the rules: an edited encoding answers, or the
        rule is stated in an encoding that narrows the code space (``--feedback FILE.lp``)."""
        return self.encoding is not None or rule_of(self.rules).admitted_codes() is not None

    @property
    def source(self) -> str:
        """Who answers, as messages name it: the encoding file for declarative engines."""
        return f"the {self.name} engine"

    def session(self, history: list[Entry] = ()) -> Session:
        """A new session, starting from ``history`` (replayed entry by entry)."""
        session = self._new_session()
        session.checked_as = self.source if self.checked else None
        session.edited = self.edited
        for guess, fb in history:
            session.push(guess, fb)
        return session

    @abstractmethod
    def _new_session(self) -> Session:
        """A session with an empty history."""

    # Convenience one-shot questions -------------------------------------
    def first(self, history: list[Entry]) -> Code | None:
        with self.session(history) as s:
            return s.first()

    def count(self, history: list[Entry]) -> int:
        with self.session(history) as s:
            return s.count()

    def enumerate(self, history: list[Entry], limit: int | None = None) -> np.ndarray:
        with self.session(history) as s:
            return s.enumerate(limit)

    def satisfiable(self, history: list[Entry]) -> bool:
        """Whether some code is consistent with ``history``."""
        return self.first(history) is not None

    def fewest_wrong(self, history: list[Entry]) -> list[tuple[int, ...]]:
        """Every smallest set of entries whose removal leaves ``history`` consistent (indices from 0).

        The sets all have the least size k (``[()]`` when the history is
        consistent; ``[]`` when no code exists at all, as under an encoding that
        admits none). Sets are tried by increasing size, each a question to this
        engine; an engine with an optimiser (clingo's ``#minimize``) answers
        at once instead.
        """
        n = len(history)
        for size in range(n + 1):
            found = [subset for subset in combinations(range(n), size)
                     if self.satisfiable([e for i, e in enumerate(history) if i not in subset])]
            if found:
                return found
        return []

    def conflict(self, history: list[Entry]) -> tuple[int, ...]:
        """Indices of a smallest subset of ``history`` with no consistent code.

        Subsets are tried by increasing size, so the answer is a minimum (not
        just minimal) conflict; beyond 12 entries the search would explode, so
        entries are dropped one at a time while the rest stays contradictory
        (a minimal conflict). Each test is a question to this engine.
        """
        n = len(history)
        if n <= 12:
            for size in range(1, n + 1):
                for subset in combinations(range(n), size):
                    if not self.satisfiable([history[i] for i in subset]):
                        return subset
            return ()
        keep = list(range(n))
        for i in range(n):
            trial = [j for j in keep if j != i]
            if not self.satisfiable([history[j] for j in trial]):
                keep = trial
        return tuple(keep)

    def no_solution(self, history: list[Entry]) -> NoConsistentCode:
        """The error to raise when ``history`` has no consistent code, naming a conflict."""
        if not history or (self.encoding is not None and not self.satisfiable([])):
            # An edited encoding that admits no code at all: no entry is to blame.
            under = f" under the encoding {self.encoding.name}" if self.encoding else ""
            return NoConsistentCode(f"no code of {self.rules.describe()} exists{under}", ())
        subset = self.conflict(history)
        entries = " ".join(format_entry(history[i], self.rules) for i in subset)
        if self.rules.lies:  # with lies, a set of entries conflicts when no code breaks few enough of them
            numbers = ", ".join(str(i + 1) for i in subset)
            return NoConsistentCode(f"no code is consistent with the history: none breaks at most --lies "
                                    f"{self.rules.lies} of entries {numbers} ({entries})", subset)
        if len(subset) == 1:
            message = (f"no code is consistent with the history: entry {subset[0] + 1} ({entries}) "
                       "is impossible on its own")
        else:
            numbers = ", ".join(str(i + 1) for i in subset)
            message = f"no code is consistent with the history: entries {numbers} ({entries}) contradict each other"
        return NoConsistentCode(message, subset)

    def close(self) -> None:
        """Release engine-wide resources (optional)."""
