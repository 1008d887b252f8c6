"""How a guess splits the codes still possible: ``mmlogic split`` and the page's assistant.

The engine lists the codes consistent with the history; the game's feedback
rule (:func:`mm_logic.feedback.rule_of`) gives the guess's feedback against
each of them, and the codes fall into parts, one per feedback. The figures of
the parts are the scoring strategies' own definitions
(``mm_logic.strategies.scoring``): the largest part (Knuth's minimax), the
expected size Σ s²/m (Irving), the entropy (Neuwirth) and the number of parts
(Kooi).

>>> from mm_logic.engines.reference import ReferenceEngine
>>> from mm_logic.rules import Rules
>>> part = split_codes(ReferenceEngine(Rules(4, 6)), (0, 0, 0, 0), [])
>>> [size for _, size in part.parts], part.largest, part.consistent
([625, 500, 150, 20, 1], 625, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .engines.base import Engine
from .feedback import colour_counts, rule_of
from .notation import Code, Entry, Feedback, amount, format_code, plural
from .rules import Rules
from .strategies.scoring import entropy_bits, expected_size
from .support.errors import SpaceTooLarge

#: How many times its counting budget (``count_budget``, about a second of counting) an engine lists
#: for a split: clingo and the python engine 1,000,000 codes, swipl 100,000.
LIST_FACTOR = 10


def split_limit(engine: Engine) -> int:
    """The most codes still possible that :func:`split_codes` lists on ``engine``."""
    return LIST_FACTOR * engine.count_budget


@dataclass
class Split:
    """How ``guess`` splits the codes still possible: ``parts``, ``(feedback, size)`` in the rule's
    feedback order (for black and white: fewest black pegs first, then fewest white; the win last)."""

    rules: Rules
    guess: Code
    parts: list[tuple[Feedback, int]]
    #: Whether the guess is one of the codes still possible (its part of the win then holds it alone).
    consistent: bool

    @property
    def codes(self) -> int:
        """How many codes are still possible (the parts' sizes summed)."""
        return sum(size for _, size in self.parts)

    @property
    def sizes(self) -> np.ndarray:
        """The parts' sizes, in ``parts``' order."""
        return np.array([size for _, size in self.parts], dtype=np.int64)

    @property
    def largest(self) -> int:
        """The largest part: the codes left at worst after the guess (what ``minimax`` minimises)."""
        return max(size for _, size in self.parts)

    @property
    def expected(self) -> float:
        """The expected number of codes left after the guess, Σ s²/m (what ``expected`` minimises)."""
        return expected_size(self.sizes)

    @property
    def entropy(self) -> float:
        """The entropy of the parts in bits (what ``entropy`` maximises)."""
        return entropy_bits(self.sizes)

    def as_dict(self) -> dict:
        """``split --json``'s object (``docs/cli.md``)."""
        rule = rule_of(self.rules)
        return {"guess": format_code(self.guess, self.rules), "codes": self.codes,
                "parts": [{"feedback": rule.write(fb), "size": size} for fb, size in self.parts],
                "number_of_parts": len(self.parts), "largest": self.largest,
                "expected_size": round(self.expected, 4), "entropy": round(self.entropy, 4),
                "consistent": self.consistent}

    def text(self) -> str:
        """One line per part (feedback and size), then the figures."""
        rule = rule_of(self.rules)
        win = rule.win(self.rules.pegs)
        written = [rule.write(fb) for fb, _ in self.parts]
        width = max(len(w) for w in written)
        digits = len(f"{self.largest:,}")
        lines = [f"{format_code(self.guess, self.rules)} splits {plural(self.codes, 'code')} by feedback:"]
        for text, (fb, size) in zip(written, self.parts):
            mark = "  (the guess itself: a win)" if tuple(fb) == win and self.consistent else ""
            lines.append(f"  {text:<{width}}  {size:>{digits},}{mark}")
        biggest = "; ".join(w for w, (_, size) in zip(written, self.parts) if size == self.largest)
        lines += [f"parts: {len(self.parts)}",
                  f"largest: {self.largest:,} ({biggest})",
                  f"expected size: {self.expected:.4f}",
                  f"entropy: {self.entropy:.4f} bits",
                  "consistent: yes (it may win now: a part of 1)" if self.consistent
                  else "consistent: no (it cannot win now)"]
        return "\n".join(lines)


def split_codes(engine: Engine, guess: Code, history: list[Entry], limit: int | None = None) -> Split:
    """How ``guess`` splits the codes ``engine`` finds consistent with ``history``.

    Raises :class:`~mm_logic.support.errors.NoConsistentCode` (naming the entries that contradict each other)
    when no code fits, and :class:`~mm_logic.support.errors.SpaceTooLarge` when more codes than ``limit``
    (default :func:`split_limit`) are still possible, or the engine cannot count them within its budget.
    """
    rules = engine.rules
    limit = split_limit(engine) if limit is None else limit
    with engine.session(history) as session:
        count, exact = session.count_within(limit)
        if count == 0:
            raise engine.no_solution(history)
        many = amount(count) if exact else f"at least {amount(count)}"
        if count > limit:  # exact, or an edited encoding counted up to the limit and one more
            raise SpaceTooLarge(f"{many} codes are still possible, more than split lists on the "
                                f"{engine.name} engine ({limit:,}): give more history entries")
        if not exact:  # a huge space, counted for a second
            raise SpaceTooLarge(f"{many} codes are still possible, and the {engine.name} engine counted no "
                                "further within its time: split lists them all; give more history entries")
        codes = np.asarray(session.enumerate(), dtype=np.int64).reshape(-1, rules.pegs)
    if codes.shape[0] == 0:  # an edited encoding that counts codes it does not list
        raise engine.no_solution(history)
    rule = rule_of(rules)
    indices = rule.indices(tuple(guess), codes, colour_counts(codes, rules.colors))
    # np.unique, not a bincount over every slot: positional marks have 3**pegs of them.
    found, sizes = np.unique(np.asarray(indices, dtype=np.int64), return_counts=True)
    parts = [(tuple(rule.from_index(int(i), rules.pegs)), int(n)) for i, n in zip(found, sizes)]
    consistent = bool((codes == np.asarray(guess, dtype=np.int64)).all(axis=1).any())
    return Split(rules, tuple(guess), parts, consistent)
