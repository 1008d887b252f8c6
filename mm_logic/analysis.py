"""Seed 000's study done right: how many codes, feedbacks and guesses at least.

The seed bounded the worst case by ``ceil(log N / log F)`` with ``F`` every
pair ``b + w <= pegs``. Two corrections: feedbacks that cannot occur under the
rules are removed (``(pegs-1, 1)`` always, more with few colours or without
repetition), and a guess that wins ends the game, so after the first guess at
most ``F - 1`` feedbacks lead on. With ``t`` guesses at most
``1 + (F-1) + ... + (F-1)**(t-1)`` secrets can be told apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .engines.base import Engine
from .notation import Feedback
from .rules import Rules
from .symmetry import canonical_openings

#: Beyond this many (opening, feedback) questions the feedback set is not computed.
MAX_QUESTIONS = 20_000


def candidate_feedbacks(pegs: int) -> list[Feedback]:
    """Every ``(b, w)`` with ``b + w <= pegs`` except ``(pegs - 1, 1)``."""
    return [(b, w) for b in range(pegs + 1) for w in range(pegs + 1 - b) if (b, w) != (pegs - 1, 1)]


def possible_feedbacks(engine: Engine) -> list[Feedback] | None:
    """The feedbacks some guess and secret produce under the engine's rules.

    Asks the engine, for each opening up to symmetry and each candidate
    feedback, whether some secret gives it; None when that is too many questions.
    """
    rules = engine.rules
    openings = canonical_openings(rules)
    candidates = candidate_feedbacks(rules.pegs)
    if len(openings) * len(candidates) > MAX_QUESTIONS:
        return None
    return [fb for fb in candidates
            if any(engine.satisfiable([(g, fb)]) for g in openings)]


def worst_case_lower_bound(codes: int, feedbacks: int) -> int:
    """Fewest guesses that can tell ``codes`` secrets apart in the worst case."""
    if codes <= 1:
        return 1
    reach, guesses, level = 0, 0, 1
    while reach < codes:
        reach += level
        level *= feedbacks - 1
        guesses += 1
        if feedbacks <= 1:
            break
    return guesses


@dataclass
class Study:
    """The figures ``mmlogic info`` prints."""

    rules: Rules
    codes: int
    feedbacks: list[Feedback] | None
    naive_feedbacks: int
    lower_bound: int
    seed_bound: int

    def as_dict(self) -> dict:
        """The ``info --json`` object."""
        return {
            "rules": self.rules.as_dict(),
            "codes": self.codes,
            "feedbacks": len(self.feedbacks) if self.feedbacks is not None else None,
            "feedback_list": [f"{b},{w}" for b, w in self.feedbacks] if self.feedbacks is not None else None,
            "naive_feedbacks": self.naive_feedbacks,
            "lower_bound": self.lower_bound,
            "seed000_bound": self.seed_bound,
        }

    def text(self) -> str:
        """The human output of ``info``."""
        feedbacks = (f"{len(self.feedbacks)} of {self.naive_feedbacks} pairs b+w<=pegs "
                     f"({' '.join(f'{b},{w}' for b, w in self.feedbacks)})" if self.feedbacks is not None
                     else f"at most {self.naive_feedbacks - 1} (too many to check)")
        return (f"rules                  {self.rules.describe()}\n"
                f"codes                  {self.codes}\n"
                f"feedbacks              {feedbacks}\n"
                f"worst case needs >=    {self.lower_bound} guesses\n"
                f"seed 000's bound       {self.seed_bound} (ceil(log N / log F), all pairs counted)")


def study(engine: Engine) -> Study:
    """Number of codes, possible feedbacks and worst-case lower bounds for the engine's rules."""
    rules = engine.rules
    naive = (rules.pegs + 1) * (rules.pegs + 2) // 2
    fbs = possible_feedbacks(engine)
    f = len(fbs) if fbs is not None else naive - 1
    n = rules.size
    seed = math.ceil(math.log2(n) / math.log2(naive - 1)) if n > 1 and naive > 2 else 1
    return Study(rules=rules, codes=n, feedbacks=fbs, naive_feedbacks=naive,
                 lower_bound=worst_case_lower_bound(n, f), seed_bound=seed)
