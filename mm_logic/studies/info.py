"""Seed 000's study done right: how many codes, feedbacks and guesses at least.

The seed bounded the worst case by ``ceil(log N / log F)`` with ``F`` every
pair ``b + w <= pegs`` but ``(pegs-1, 1)``, which cannot occur (the seed's
own remark, section 2.2). Two corrections: every feedback that cannot occur
under the rules is removed (more with few colours or without repetition,
found by asking the engine), and a guess that wins ends the game, so after
the first guess at most ``F - 1`` feedbacks lead on. With ``t`` guesses at most
``1 + (F-1) + ... + (F-1)**(t-1)`` secrets can be told apart.

The same count bounds the total of guesses over every secret: the best
conceivable strategy finds 1 code with its first guess, ``F - 1`` with its
second, ``(F-1)**2`` with its third... (:func:`fill_levels`). On spaces the
reference engine enumerates, two facts tighten both bounds
(:func:`partition_bound`): no guess splits the codes into more than ``K``
classes (``K`` the most any opening makes, found over the canonical
openings: every code is one of them up to symmetry), and the opening's
classes are known, so each class is filled on its own below the opening.

Beside the bounds, the optimal values where they are known: published ones
(:data:`PUBLISHED`, with their source) and those a search computed
(``computed`` in :func:`study`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..codespace import code_space
from ..engines.base import Engine
from ..feedback import rule_of
from ..notation import Feedback, amount, format_feedback, plural
from ..rules import Rules
from ..support.errors import SolverTimeout
from ..symmetry import canonical_openings, game_symmetry, opening_count
from .written_game import encoding_secrets, engine_secrets

#: Beyond this many (opening, feedback) questions the feedback set is not computed.
MAX_QUESTIONS = 20_000
#: Seconds the questions may take together: proving a feedback impossible can take a solver
#: minutes (20x30 without repetition asked 231 questions for over 100 s).
FEEDBACK_SECONDS = 10.0
#: Largest code space whose openings' partitions are computed (a second or so at most).
MAX_PARTITION_CODES = 1_000_000


def written_count(rules: Rules) -> int:
    """How many feedbacks the game's rule writes: pairs ``b + w <= pegs``, ``0..pegs``, ``3**pegs`` marks; a
    rule of one's own, its numbers and the win."""
    return rule_of(rules).written_count(rules.pegs)


def candidate_count(rules: Rules) -> int:
    """How many feedbacks :func:`candidate_feedbacks` lists, counted without listing them (3**40 marks):
    those written, but ``(pegs - 1, 1)`` and the positional marks with one ``o`` beside every other peg ``x``."""
    return rule_of(rules).classes(rules.pegs)


def candidate_feedbacks(rules: Rules) -> list[Feedback]:
    """Every feedback the game's rule writes that no counting argument excludes: under the standard rule
    every ``(b, w)`` with ``b + w <= pegs`` except ``(pegs - 1, 1)``; black pegs ``0..pegs``; positional
    marks but one ``o`` beside every other peg ``x``."""
    rule, pegs = rule_of(rules), rules.pegs
    return [fb for fb in (rule.from_index(i, pegs) for i in range(rule.slots(pegs)))
            if rule.impossible(fb, pegs, max(rules.colors, 2)) is None]


def table_feedbacks(rules: Rules, secrets: np.ndarray | None) -> list[Feedback]:
    """The feedbacks a rule of one's own gives between a code and a secret, read from its feedback table (the
    rule is its table: nothing to ask an engine), in index order."""
    table = code_space(rules).table
    met = np.unique(table if secrets is None else table[:, secrets])
    rule = rule_of(rules)
    return [rule.from_index(int(index), rules.pegs) for index in met]


def possible_feedbacks(engine: Engine, secrets: np.ndarray | None = None) -> list[Feedback] | None:
    """The feedbacks some guess and secret produce under the engine's rules.

    Asks the engine, for each opening up to symmetry and each candidate
    feedback, whether some secret gives it; None when that is too many questions,
    or when they take more than :data:`FEEDBACK_SECONDS` together (each question is
    bounded by what is left, within the engine's own ``time_limit``).
    """
    rules = engine.rules
    if opening_count(rules) * candidate_count(rules) > MAX_QUESTIONS:
        return None
    candidates = candidate_feedbacks(rules)
    # One guess per class of the maps that keep the feedback and the secrets (an edited encoding's codes).
    openings = canonical_openings(rules, game_symmetry(rules, secrets))
    deadline = time.monotonic() + FEEDBACK_SECONDS
    found = []
    try:
        for fb in candidates:
            for g in openings:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                with engine.time_limited(left):
                    if engine.satisfiable([(g, fb)]):
                        found.append(fb)
                        break
    except SolverTimeout:
        return None
    return found


# -- bounds ------------------------------------------------------------------------------
def fill_levels(codes: int, branching: int, first_depth: int = 1) -> tuple[int, int]:
    """``(worst, total)`` of the best conceivable tree over ``codes`` secrets.

    Every node finds at most one code (its guess) and has at most
    ``branching`` subtrees, so at most ``branching**k`` codes are found at
    depth ``first_depth + k``; filling the shallowest depths first gives the
    fewest guesses, in the worst case and in total.

    Examples
    --------
    >>> fill_levels(1296, 13)      # 4x6: 1 + 13 + 169 codes, then 1113 at the 4th guess
    (4, 4986)
    >>> fill_levels(1, 13, first_depth=2)
    (2, 2)
    """
    total, depth, level, left = 0, first_depth, 1, codes
    while True:
        here = min(left, level)
        total += here * depth
        left -= here
        if left <= 0:
            return depth, total
        if branching < 1:
            raise ValueError(f"{codes} codes cannot be told apart with {branching} branches a guess")
        depth += 1
        level *= branching


def worst_case_lower_bound(codes: int, feedbacks: int) -> int:
    """Fewest guesses that can tell ``codes`` secrets apart in the worst case."""
    if codes <= 1 or feedbacks <= 1:
        return 1
    return fill_levels(codes, feedbacks - 1)[0]


@dataclass
class Bound:
    """Guesses the best strategy needs at least: in the worst case, and in total over every secret."""

    worst_case: int
    total_guesses: int | None = None
    codes: int = 0

    def as_dict(self) -> dict:
        out = {"worst_case": self.worst_case}
        if self.total_guesses is not None:
            out |= {"total_guesses": self.total_guesses, "mean": round(self.total_guesses / self.codes, 3)}
        return out


@dataclass
class PartitionBound(Bound):
    """:class:`Bound` from the openings' partitions; ``max_parts`` is the most classes a guess makes."""

    max_parts: int = 0
    openings: int = 0

    def as_dict(self) -> dict:
        return super().as_dict() | {"max_parts": self.max_parts, "openings": self.openings}


def partition_bound(rules: Rules, secrets: np.ndarray | None = None) -> PartitionBound | None:
    """The bounds from every canonical opening's partition of the codes; None on spaces too large.

    Each opening splits the codes into classes by feedback; below it, each
    class is filled as in :func:`fill_levels` with ``K - 1`` subtrees a node
    (``K`` the most classes any opening makes: a guess splits a part of the
    codes into no more classes than it splits them all, one of which is its
    own win). The bound is the best opening's. Guesses are valid codes; ``secrets``: an edited encoding's
    codes (None: every code), the openings those of the symmetries that keep them.
    """
    if rules.size > MAX_PARTITION_CODES:
        return None
    space = code_space(rules)
    rule = rule_of(rules)
    win = rule.win_index(rules.pegs)
    openings = canonical_openings(rules, game_symmetry(rules, secrets))
    parts = [np.bincount(space.feedback_to(opening, secrets), minlength=rule.slots(rules.pegs))
             for opening in openings]
    most = max(int(np.count_nonzero(p)) for p in parts)
    worst, total = math.inf, math.inf
    for sizes in parts:
        below = [fill_levels(int(size), most - 1, first_depth=2)
                 for index, size in enumerate(sizes) if size and index != win]
        worst = min(worst, max((depth for depth, _ in below), default=1))
        total = min(total, 1 + sum(guesses for _, guesses in below))
    n = rules.size if secrets is None else secrets.size
    return PartitionBound(int(worst), int(total), n, max_parts=most, openings=len(openings))


# -- optimal values ------------------------------------------------------------------------
@dataclass(frozen=True)
class Optimum:
    """An optimal value: the fewest guesses any strategy needs, in the worst case or in total.

    ``max_guesses`` restricts the strategies to those that never need more
    (Koyama and Lai's 5626 for 4x6 within 5 guesses); ``status`` is
    ``published`` (with its ``source``) or ``computed`` (by a search, e.g.
    ``mmlogic optimal``, named in ``source``).
    """

    measure: str  # "worst_case" or "total_guesses"
    value: int
    status: str
    source: str
    max_guesses: int | None = None

    def as_dict(self, codes: int) -> dict:
        out = {"measure": self.measure, "value": self.value}
        if self.measure == "total_guesses":
            out["mean"] = round(self.value / codes, 3)
        return out | {"max_guesses": self.max_guesses, "status": self.status, "source": self.source}


KNUTH = "Knuth, The computer as master mind, J. Recreational Mathematics 9(1), 1976"
KOYAMA_LAI = "Koyama & Lai, An optimal Mastermind strategy, J. Recreational Mathematics 25(4), 1993"
TANAKA = ("Tanaka 1996, as cited by Francis, Strategies for playing MOO, or Bulls and Cows, 2010, "
          "and Wikipedia's Bulls and Cows")
BULLS_SEVEN = "Wikipedia's Bulls and Cows: every number within 7 turns, no strategy solves all within 6"

#: Published optimal values by ``(pegs, colors, max_repeat)`` (None: colours may repeat freely).
PUBLISHED: dict[tuple[int, int, int | None], tuple[Optimum, ...]] = {
    (4, 6, None): (Optimum("worst_case", 5, "published", KNUTH),
                   Optimum("total_guesses", 5625, "published", KOYAMA_LAI),
                   Optimum("total_guesses", 5626, "published", KOYAMA_LAI, max_guesses=5)),
    (4, 10, 1): (Optimum("worst_case", 7, "published", BULLS_SEVEN),
                 Optimum("total_guesses", 26274, "published", TANAKA)),
}


def rules_key(rules: Rules) -> tuple[int, int, int | None]:
    """``(pegs, colors, max_repeat)`` with a repetition limit that excludes nothing written as None."""
    return rules.pegs, rules.colors, rules.repeat_limit if rules.restricted else None


#: Largest code space whose optimal values ``info`` computes when none is published (about a second).
COMPUTED_UP_TO = 1_000


def computed_optima(rules: Rules, encoding: Path | None = None) -> tuple[Optimum, ...]:
    """The optimal values of a small space with none published, found by :func:`mm_logic.optimal.objectives.optimal`:
    the least worst case, the least total, and (when the two strategies differ) the least total
    within that worst case. Nothing for spaces of more than :data:`COMPUTED_UP_TO` codes. ``encoding``: an
    edited encoding whose codes are the secrets.

    2 pegs of 2 colours: every guess leaves two codes together, which take guesses 2 and 3:

    >>> [(o.measure, o.value, o.max_guesses) for o in computed_optima(Rules(2, 2))]
    [('worst_case', 3, None), ('total_guesses', 8, None)]
    """
    if encoding is None and (rules.size > COMPUTED_UP_TO or published(rules)):
        return ()
    if encoding is not None and (rules.size > MAX_PARTITION_CODES
                                 or encoding_secrets(rules, encoding).size > COMPUTED_UP_TO):
        return ()
    from ..optimal.objectives import optimal
    least = optimal(rules, "expected", encoding=encoding)
    worst = optimal(rules, "worst", encoding=encoding)
    edited = f" --encoding {encoding}" if encoding is not None else ""
    found = [Optimum("worst_case", worst.worst, "computed", f"mmlogic optimal --objective worst{edited}"),
             Optimum("total_guesses", least.total, "computed", f"mmlogic optimal{edited}")]
    if worst.total != least.total:
        found.append(Optimum("total_guesses", worst.total, "computed", f"mmlogic optimal --objective worst{edited}",
                             max_guesses=worst.worst))
    return tuple(found)


def known_optima(rules: Rules, computed: tuple[Optimum, ...] = (), edited: bool = False) -> list[Optimum]:
    """The published optimal values for ``rules`` (none for an edited encoding's codes), then the computed ones
    given."""
    return [*(() if edited else published(rules)), *computed]


def published(rules: Rules) -> tuple[Optimum, ...]:
    """The published optimal values of the rules (the standard feedback rule's: none of the others here)."""
    return PUBLISHED.get(rules_key(rules), ()) if rule_of(rules).default else ()


# -- the study -------------------------------------------------------------------------------
@dataclass
class Study:
    """The figures ``mmlogic info`` prints."""

    rules: Rules
    codes: int
    feedbacks: list[Feedback] | None
    naive_feedbacks: int
    lower_bound: int
    seed_bound: int
    #: Both bounds from the number of feedbacks; None for a space of one code.
    feedback_bound: Bound | None = None
    #: The feedbacks no counting argument excludes (seed 000's F).
    candidates: int = 0
    #: The tighter bounds from the openings' partitions (None beyond MAX_PARTITION_CODES codes).
    partitions: PartitionBound | None = None
    optima: list[Optimum] = field(default_factory=list)
    #: The edited encoding whose codes are the secrets, if any.
    encoding: Path | None = None

    def as_dict(self) -> dict:
        """The ``info --json`` object."""
        return {
            "rules": self.rules.as_dict(),
            **({"encoding": str(self.encoding)} if self.encoding is not None else {}),
            "codes": self.codes,
            "feedbacks": len(self.feedbacks) if self.feedbacks is not None else None,
            "feedback_list": ([format_feedback(fb, self.rules) for fb in self.feedbacks]
                              if self.feedbacks is not None else None),
            "naive_feedbacks": self.naive_feedbacks,
            "lower_bound": self.lower_bound,
            "seed000_bound": self.seed_bound,
            "bounds": {
                "seed000": {"worst_case": self.seed_bound},
                "feedbacks": self.feedback_bound.as_dict() if self.feedback_bound else None,
                "partitions": self.partitions.as_dict() if self.partitions else None,
                "optimal": [optimum.as_dict(self.codes) for optimum in self.optima],
            },
        }

    def text(self) -> str:
        """The human output of ``info``."""
        written = rule_of(self.rules).written
        feedbacks = (f"{len(self.feedbacks)} of {self.naive_feedbacks} {written} "
                     f"({' '.join(format_feedback(fb, self.rules) for fb in self.feedbacks)})"
                     if self.feedbacks is not None
                     else f"at most {self.candidates} (too many to check, or over {FEEDBACK_SECONDS:g} s)")
        f = len(self.feedbacks) if self.feedbacks is not None else self.candidates
        but = rule_of(self.rules).never(self.rules.pegs)
        rows = [("seed 000's bound", f"ceil(log N / log F), F = {self.candidates}: {but}",
                 f">= {self.seed_bound}", "")]
        if self.feedback_bound:
            by_feedbacks = self.feedback_bound
            counted = f"{f} feedback{'s' * (f != 1)}"  # plain numbers, as in the powers that follow
            rows.append(("feedbacks", f"{counted}: 1, {f - 1}, {f - 1}^2... codes found at guess 1, 2, 3...",
                         f">= {by_feedbacks.worst_case}", f">= {self._total(by_feedbacks.total_guesses)}"))
        if self.partitions:
            p = self.partitions
            rows.append(("partitions", f"the best opening's partition (of {p.openings} canonical), at most "
                                       f"{plural(p.max_parts, 'class')} a guess", f">= {p.worst_case}",
                         f">= {self._total(p.total_guesses)}"))
        for o in self.optima:
            limit = f", within {plural(o.max_guesses, 'guess')}" if o.max_guesses else ""
            worst, total = (str(o.value), "") if o.measure == "worst_case" else ("", self._total(o.value))
            rows.append((f"optimal ({o.status})", f"{o.source}{limit}", worst, total))
        rows.insert(0, ("", "how", "worst", "total (mean)"))
        wide = max(len(total) for _, _, _, total in rows)
        # The headline is the strongest proved bound (the JSON's lower_bound stays the feedbacks'; its key is stable).
        if self.partitions and self.partitions.worst_case > self.lower_bound:
            needs = f"{plural(self.partitions.worst_case, 'guess')} (the partitions bound below)"
        else:
            needs = plural(self.lower_bound, "guess")
        table = "\n".join(f"  {name:<20} {worst:<6} {total:<{wide}}  {how}" for name, how, worst, total in rows)
        encoding = f"encoding               {self.encoding} (its codes are the secrets)\n" if self.encoding else ""
        return (f"rules                  {self.rules.describe()}\n"
                f"{encoding}codes                  {amount(self.codes)}\n"
                f"feedbacks              {feedbacks}\n"
                f"worst case needs >=    {needs}\n"
                f"bounds on the best strategy (guessing valid codes):\n"
                f"{table}")

    def _total(self, total: int) -> str:
        return f"{amount(total)} ({total / self.codes:.3f})"


def study(engine: Engine, computed: tuple[Optimum, ...] = ()) -> Study:
    """Number of codes, possible feedbacks, lower bounds and known optima for the engine's rules.

    ``computed`` adds optimal values a search found (status ``computed``).
    """
    rules = engine.rules
    # The secrets: an edited encoding's codes (every code may still be a guess).
    secrets = engine_secrets(engine)
    # Every feedback the rule writes, the win included (seed 000's count; the standard rule's pairs).
    naive = written_count(rules)
    if rule_of(rules).classes(rules.pegs) is None:
        # A rule of one's own is its feedback table: the feedbacks that occur are read there.
        fbs = table_feedbacks(rules, secrets)
        candidates = len(fbs)
    else:
        candidates = candidate_count(rules)
        fbs = possible_feedbacks(engine, secrets)
    f = len(fbs) if fbs is not None else candidates
    n = rules.size if secrets is None else int(secrets.size)
    seed = math.ceil(math.log2(n) / math.log2(candidates)) if n > 1 and candidates > 1 else 1
    by_feedbacks = Bound(*fill_levels(n, f - 1), codes=n) if n == 1 or f > 1 else None
    return Study(rules=rules, codes=n, feedbacks=fbs, naive_feedbacks=naive, candidates=candidates,
                 lower_bound=worst_case_lower_bound(n, f), seed_bound=seed, feedback_bound=by_feedbacks,
                 partitions=partition_bound(rules, secrets),
                 optima=known_optima(rules, computed, edited=engine.encoding is not None), encoding=engine.encoding)
