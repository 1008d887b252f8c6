"""The least worst case against every liar (``optimal --lies K --objective worst-case``), small games only.

With lies a guess does not split the codes: its answers move the states
(code, lies used, :mod:`mm_logic.lies`), a state true to the answer staying,
one with a lie left following every other answer but the win. The search asks
``within(S, d)``: can every state of ``S`` be found within ``d`` guesses,
whatever the codemaker answers? ``S`` is empty: yes; ``d`` is 0: no; ``d`` is
1: only if ``S`` holds one code (guess it: the win is always told).
Otherwise some guess, any code of the game, must leave every answer's states
within ``d - 1`` (a guess that leaves an answer all of ``S``, which gains
nothing, is skipped). Answers are tried from the largest set of states, and
sets already settled are remembered. The openings are one per class of the
game's symmetries (:func:`~mm_logic.symmetry.canonical_openings`); below the
opening, every code. ``d`` grows from 1 until it holds: the first that does
is the least worst case, and the one before is proved impossible.

>>> from mm_logic.rules import Rules
>>> least_worst_case(Rules(2, 2, lies=1)).worst_case
4
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..codespace import code_space
from ..feedback import rule_of
from ..notation import Code, format_code
from ..rules import Rules
from ..support.errors import BadInput
from ..symmetry import canonical_openings

#: The largest game searched (3x4, 2x8, 4x3): the search lists every set of states it settles.
MAX_CODES = 81

States = frozenset  # of (code index, lies used)


@dataclass
class LiesOptimum:
    """The least worst case and an opening that reaches it."""

    rules: Rules
    worst_case: int
    opening: Code
    seconds: float
    sets: int

    def as_dict(self) -> dict:
        """``optimal --lies K --json``'s object."""
        return {"worst_case": self.worst_case, "opening": format_code(self.opening, self.rules),
                "sets_settled": self.sets, "seconds": round(self.seconds, 3), "rules": self.rules.as_dict()}

    def text(self) -> str:
        return (f"rules       {self.rules.describe()}\n"
                f"worst case  {self.worst_case} (every secret within {self.worst_case} guesses against any liar; "
                f"not within {self.worst_case - 1}: proved)\n"
                f"opening     {format_code(self.opening, self.rules)}\n"
                f"sets        {self.sets:,} settled\n"
                f"seconds     {self.seconds:.3f}")


def least_worst_case(rules: Rules) -> LiesOptimum:
    """The least number of guesses that finds every secret of ``rules`` whatever the codemaker answers with at
    most ``rules.lies`` lies, proved by exhaustive search."""
    space = code_space(rules)
    if space.size > MAX_CODES:
        raise BadInput(f"optimal --lies searches games of at most {MAX_CODES} codes ({rules.describe()} has "
                       f"{space.size:,}): every set of states it meets is listed")
    rule = rule_of(rules)
    win = rule.win_index(rules.pegs)
    table = space.table.astype(np.int64)
    answers = [i for i in range(rule.slots(rules.pegs)) if i != win
               and rule.impossible(rule.from_index(i, rules.pegs), rules.pegs, rules.colors) is None]
    settled: dict[tuple[States, int], bool] = {}

    def follow(states: States, guess: int, answer: int) -> States:
        kept = set()
        for code, lies in states:
            truth = table[guess, code]
            if truth == answer:
                kept.add((code, lies))
            elif lies < rules.lies and truth != win:
                kept.add((code, lies + 1))
        return frozenset(kept)

    def within(states: States, depth: int) -> bool:
        if not states:
            return True
        codes = {code for code, _ in states}
        if depth == 0 or (depth == 1 and len(codes) > 1):
            return False
        if depth == 1:
            return True
        key = (states, depth)
        if key not in settled:
            settled[key] = any(works(states, guess, depth) for guess in sorted(range(space.size),
                                                                                key=lambda g: g not in codes))
        return settled[key]

    def works(states: States, guess: int, depth: int) -> bool:
        parts = [follow(states, guess, answer) for answer in answers]
        if any(part == states for part in parts):
            return False
        return all(within(part, depth - 1) for part in sorted(parts, key=len, reverse=True))

    start = time.perf_counter()
    everything = frozenset((code, 0) for code in range(space.size))
    openings = [int(space.index_of([code])[0]) for code in canonical_openings(rules)]
    depth = 1
    while True:
        for opening in openings:
            if works(everything, opening, depth) if depth > 1 else space.size == 1:
                return LiesOptimum(rules, depth, space.code(opening), time.perf_counter() - start, len(settled))
        depth += 1


__all__ = ["MAX_CODES", "LiesOptimum", "least_worst_case"]
