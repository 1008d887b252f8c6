"""A swipl session: the history on the Python side, and the answers already given per depth."""

from __future__ import annotations

import time

import numpy as np

from ...feedback import rule_of
from ...notation import Code, Entry
from ..base import Session

#: ``count`` enumerates (and keeps the codes) in code spaces up to this size.
COUNT_BY_ENUMERATION = 250_000
#: Measured when the design was chosen. Pure Prolog, 100 games of 5 pegs, 8
#: colours, no repetition, strategy first, ms per game: every question posts
#: the code space afresh, copies a template, or one Prolog engine per
#: session keeps the store between questions. Then through this adapter:
#: Knuth's bench (4x6 minimax, 1377 questions, seconds) and 300 games of
#: 5x8 no-repeat first (ms per game), with the template only and with the
#: kept prefixes too.
DESIGN = {
    "5x8 first, post afresh (ms/game, Prolog)": 25.0,
    "5x8 first, copy template (ms/game, Prolog)": 11.4,
    "5x8 first, engine per session (ms/game, Prolog)": 14.8,
    "knuth, template only (s)": 3.17,
    "knuth, template and kept prefixes (s)": 2.2,
    "5x8 first, template only (ms/game)": 10.2,
    "5x8 first, template and kept prefixes (ms/game)": 7.9,
}


class SwiplSession(Session):
    """The history on the Python side; every question re-posts it in Prolog."""

    def __init__(self, engine):
        super().__init__(engine.rules)
        self._engine = engine
        self._entries: list = []  # the history as the bridge takes it: Guess-Black-White
        self._known: list[dict] = [{}]  # per history depth: answers already computed
        self._pushed_twice: list[int] = []  # the depths whose entry is two bridge entries (told and missed)

    # -- history -----------------------------------------------------------
    def _push(self, entry: Entry) -> None:
        guess, fb = entry
        # The rule's terms for the bridge: one, or under a rule of one's own the numbers told and that
        # the guess is not the code (told and missed).
        terms = rule_of(self.rules).prolog_entries(guess, fb)
        self._entries.extend(terms)
        if len(terms) == 2:
            self._pushed_twice.append(len(self._known))
        self._known.append({})

    def _pop(self, entry: Entry) -> None:
        if self._pushed_twice and self._pushed_twice[-1] == len(self._known) - 1:
            self._pushed_twice.pop()
            self._entries.pop()
        self._entries.pop()
        self._known.pop()

    # -- questions ---------------------------------------------------------
    def _first(self) -> Code | None:
        known = self._known[-1]
        if "all" in known:
            codes = known["all"]
            return tuple(int(c) for c in codes[0]) if len(codes) else None
        if "first" not in known:
            known["first"] = self._engine.code(self._engine.ask("first", self._entries))
        return known["first"]

    def _any(self) -> Code | None:
        known = self._known[-1]
        if "any" not in known:
            engine = self._engine
            if engine.labeling is None:
                known["any"] = engine.code(engine.ask("any", self._entries))
            else:  # the first code labeling([Option]) finds (the encoding's labeled/3)
                known["any"] = engine.code(engine.ask("labeled", self._entries, engine.labeling))
        return known["any"]

    def _enumerate(self, limit: int | None) -> np.ndarray:
        known = self._known[-1]
        if "all" not in known:
            codes = self._engine.codes(self._engine.ask("all", self._entries, limit))
            if limit is not None and len(codes) >= limit:
                return codes  # perhaps not all of them: nothing to keep
            known["all"] = codes
        codes = known["all"]
        return (codes if limit is None else codes[:limit]).copy()

    def _count(self) -> int:
        known = self._known[-1]
        if "all" in known:
            return len(known["all"])
        if "count" not in known:
            if self.rules.size <= COUNT_BY_ENUMERATION:
                return len(self.enumerate())
            count = self._engine.ask("count", self._entries)
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise self._engine.misfit(f"count/2 gave {count!r}, not a number of codes")
            known["count"] = count
        return known["count"]

    def _count_up_to(self, bound: int, deadline: float | None) -> tuple[int, bool]:
        known = self._known[-1]
        if "all" in known or "count" in known:
            return min(self._count(), bound + 1), True
        # Without a deadline the engine's time limit bounds the count (0: none of its own); with one,
        # the count keeps its own, which ends it with the codes found so far.
        seconds = 0 if deadline is None else max(deadline - time.monotonic(), 0.001)
        count, finished = self._engine.ask("counted", self._entries, (bound + 1, seconds), timed=deadline is None)
        return int(count), finished in (True, "true")
