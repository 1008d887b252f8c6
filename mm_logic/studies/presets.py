"""The presets of ``compare --preset NAME``, each named once: its one line for ``--help`` and the studies it replays.

Light on purpose: the command line reads the names and lines when it builds ``compare``'s help, where the
games' modules (:mod:`mm_logic.studies.compare` and what it plays) are not imported yet; a preset's studies are
plain values (rules, names) beside its line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules import FEEDBACK_RULES, Rules
from ..strategies import SCORERS
from ..strategies.genetic import GENETIC_NAMES

if TYPE_CHECKING:
    from ..strategies import StrategyName


@dataclass(frozen=True)
class Study:
    """One experiment of a report: rule sets x backends x strategies, on how many secrets.

    ``games`` random secrets per rule set, or every secret where the space has
    at most ``every_secret_up_to`` codes.
    """

    title: str
    #: Short name for chart files.
    slug: str
    rule_sets: tuple[Rules, ...]
    backends: tuple[str, ...]
    #: Names in a preset; read once (:class:`~mm_logic.strategies.StrategyName`) in a plan that
    #: :meth:`~mm_logic.studies.compare.ComparePlan.make` checked.
    strategies: tuple[str | StrategyName, ...]
    games: int = 20
    every_secret_up_to: int = 0
    #: (backend, most pegs) pairs: where the report stopped a slow algorithm (A1 at n = 6).
    stops: tuple[tuple[str, int], ...] = ()

    def every_secret(self, rules: Rules) -> bool:
        return rules.size <= self.every_secret_up_to

    def plays(self, rules: Rules, backend: str) -> bool:
        """Whether this study runs ``backend`` on ``rules`` (see ``stops``)."""
        return all(rules.pegs <= most for name, most in self.stops if name == backend)


def _preset(line: str, *studies: Study) -> tuple[str, tuple[Study, ...]]:
    """A preset: its line for ``--help``, then the studies it replays."""
    return line, studies


#: Seed 001's figure 10: the populations tried (the figure's own are not in the text).
_GA001_POPULATIONS = (10, 20, 50, 100)
#: ``first`` and the four scorers: what the feedback-rules preset plays under every rule.
_FIRST_AND_SCORERS = ("first", *SCORERS)

#: The seeds' experiments (shared/seeds), replayed by ``compare --preset NAME``, in the order ``--help`` lists
#: them: 000 human-like strategies (every secret, where the report sampled 10**6 games),
#: 001 CSP algorithms A1-A5 and genetic algorithms (20 games per setting as the
#: report; every secret of 4x8), 003 the CLP(FD) guesser's settings, 004 the
#: genetic algorithm of 4x8 over 500 games. The declarative engines play beside them.
#: ``feedback-rules`` (issue 37) names the feedback rule in its rule sets: the standard, black-peg and
#: positional games side by side, checked across engines on the small size.
_PRESETS: dict[str, tuple[str, tuple[Study, ...]]] = {
    "seed000": _preset(
        "human1-3 and first on 4x6, 4x8, 4x8 no-repeat, 4x20, 6x4, every secret",
        Study("strategies 1-3 beside the consistent-code players", "human",
              (Rules(4, 6), Rules(4, 8), Rules(4, 8, 1), Rules(4, 20), Rules(6, 4)),
              ("python",), ("human1", "human2", "human3", "first"), every_secret_up_to=10**6),),
    "seed001": _preset(
        "A1-A5 (a1..a5) and the genetic algorithms, n = 4..8, p = 2n, 20 games (every secret of 4x8); the p "
        "sweep at n = 5; two occurrences (a3, a4)",
        Study("A1-A5 against n, p = 2n (A1 stopped at n = 6 as in the report)", "csp",
              tuple(Rules(n, 2 * n, 1) for n in range(4, 9)), ("a1", "a2", "a3", "a4", "a5", "clingo"), ("any",),
              every_secret_up_to=2000, stops=(("a1", 6),)),
        # The genetic strategies search by themselves (a2 answers only when E stays
        # empty); a2's own `any` is the report's "RAC" of figures 14-15.
        Study("genetic algorithms against chronological backtracking, n = 4..8, p = 2n", "genetic",
              tuple(Rules(n, 2 * n, 1) for n in range(4, 9)), ("a2",), ("any", *GENETIC_NAMES)),
        Study("A1-A3 against p, n = 5", "alphabet", tuple(Rules(5, p, 1) for p in range(5, 16)),
              ("a1", "a2", "a3"), ("any",)),
        Study("two occurrences allowed (question 1.2), n = 4, p = 8", "two-occurrences",
              (Rules(4, 8, 1), Rules(4, 8, 2)), ("a3", "a4"), ("any",), games=40),
    ),
    "seed003": _preset(
        "5 pegs of 8 colours, with and without repetition, every secret; random and minimax beside first",
        Study("the CLP(FD) guesser's settings", "settings", (Rules(5, 8, 1), Rules(5, 8)),
              ("swipl", "clingo", "python"), ("first",), every_secret_up_to=10**6),
        Study("beside the scoring strategies", "strategies", (Rules(5, 8, 1), Rules(5, 8)),
              ("python",), ("random", "minimax"), every_secret_up_to=10**6),),
    "seed004": _preset(
        "4x8: ga004 beside ga001-random, random, first, minimax, human3; 500 games",
        Study("the genetic algorithm beside the other strategies, 4x8", "genetic", (Rules(4, 8),),
              ("python",), ("ga004", "ga001-random", "random", "first", "minimax", "human3"), games=500),),
    # Issue 39: the reports' parameter studies (docs/results/seed001.md, seed004.md), as --ga names.
    # Seed 001's figure 10: ga001-random's time by population, maxgen 50, maxsize 6, p 0.25 (question 2.1).
    "ga001-population": _preset(
        "seed 001 figure 10: ga001-random by population (10, 20, 50, 100)",
        Study("seed 001 figure 10: ga001-random by population (50 generations, E of 6, mutation 0.25), "
              "n = 4..8, p = 2n", "population", tuple(Rules(n, 2 * n, 1) for n in range(4, 9)), ("a2",),
              tuple(f"ga001-random:population={p}:eset=6:generations=50" for p in _GA001_POPULATIONS)),),
    # Question 2.1's other trials: the rate 1/n or fixed, and the mutation's type.
    "ga001-mutation": _preset(
        "seed 001: ga001-random's mutation rate (1/n, fixed) and type",
        Study("seed 001 question 2.1: ga001-random's mutation, 1/n or fixed, each peg or one peg, "
              "n = 4..8, p = 2n", "mutation", tuple(Rules(n, 2 * n, 1) for n in range(4, 9)), ("a2",),
              tuple(f"ga001-random:mutation={m}" for m in ("1/n", "0.1", "0.25", "0.5"))
              + ("ga001-random:mutation=1:mutate=one-peg",)),),
    # Seed 004's sweep: 5 ratios x 4 rates x 3 populations, 50 games each (its 3,000 runs).
    "ga004-sweep": _preset(
        "seed 004's sweep, 4x8: ratio 2-6 x mutation 3/5/15/30% x population 50/100/200, 50 games each "
        "(--games N for fewer)",
        Study("seed 004's sweep: ratio 2-6 x mutation 3, 5, 15, 30% x population 50, 100, 200, 4x8", "sweep",
              (Rules(4, 8),), ("python",), tuple(f"ga004:population={p}:mutation={m}%:ratio={r}"
                                                 for r in range(2, 7) for m in (3, 5, 15, 30)
                                                 for p in (50, 100, 200)), games=50),),
    # Its choice (ratio 3, population 200, 5%) over 500 games, then the rerun at 15%.
    "ga004-mutation": _preset(
        "seed 004, 4x8: ga004 at mutation 5% and 15%, 500 games",
        Study("seed 004: ratio 3, population 200, mutation 5% (its choice) and 15% (its rerun), 4x8", "rerun",
              (Rules(4, 8),), ("python",), ("ga004", "ga004:mutation=15%"), games=500),),
    "feedback-rules": _preset(
        "first and the four scorers under the standard, black and positional rules, every secret: 3x4 on "
        "python and clingo, 4x6 on python",
        Study("first and the scorers under each feedback rule, python beside clingo", "rules-3x4",
              tuple(Rules(3, 4, feedback=f) for f in FEEDBACK_RULES), ("python", "clingo"), _FIRST_AND_SCORERS,
              every_secret_up_to=10**6),
        Study("first and the scorers under each feedback rule, 4x6", "rules-4x6",
              tuple(Rules(4, 6, feedback=f) for f in FEEDBACK_RULES), ("python",), _FIRST_AND_SCORERS,
              every_secret_up_to=10**6),),
}
#: Each preset's studies, by name.
PRESETS: dict[str, tuple[Study, ...]] = {name: studies for name, (_, studies) in _PRESETS.items()}
#: Each preset's line for ``--help``, by name.
PRESET_HELP: dict[str, str] = {name: line for name, (line, _) in _PRESETS.items()}
#: The names alone, for ``--preset``'s choices.
PRESET_NAMES = list(_PRESETS)


def presets_help(width: int = 78) -> str:
    """The presets as ``compare --help`` lists them: a name, then its line wrapped under it."""
    import textwrap

    lines = []
    for name, text in PRESET_HELP.items():
        lines += textwrap.wrap(text, width, initial_indent=f"  {name}  ", subsequent_indent=" " * 11)
    return "\n".join(lines)
