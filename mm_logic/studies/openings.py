"""``mmlogic openings``: every canonical opening of a size played against every secret, and ranked.

The openings are one code per class that colour and position symmetry tell
apart (:func:`mm_logic.symmetry.canonical_openings`); each is a case of a
sweep (:mod:`mm_logic.studies.sweep`), and the rows are ranked per strategy by total
guesses, then by the worst case, as the published initial-guess studies do.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..histogram import format_histogram
from ..notation import plural
from ..rules import Rules
from .sweep import Sweep
from .sweep_case import Case, plan


def rank_openings(rows: list[dict]) -> list[dict]:
    """Rows of one strategy, best first: fewest total guesses, then smallest max.

    Equal (total, max) share a rank (1, 2, 2, 4); the order among them is the
    canonical openings' own.
    """
    ordered = sorted(rows, key=lambda r: (r["total_guesses"], r["max"]))
    ranked = []
    for i, row in enumerate(ordered):
        same = i and (row["total_guesses"], row["max"]) == (ordered[i - 1]["total_guesses"], ordered[i - 1]["max"])
        ranked.append({"rank": ranked[-1]["rank"] if same else i + 1, **row})
    return ranked


@dataclass
class OpeningRanking:
    """``mmlogic openings``: every canonical opening of one rule set, ranked per strategy."""

    rules: Rules
    backend: str
    strategies: list[str]
    sweep: Sweep

    @property
    def openings(self) -> int:
        """How many canonical openings each strategy plays (those of the game's symmetries: a variant's own)."""
        return len({case.first_guess for case in self.sweep.cases if case.strategy == self.strategies[0]})

    def rankings(self) -> dict[str, list[dict]]:
        rows = self.sweep.finished()
        return {s: rank_openings([r for r in rows if r["strategy"] == s]) for s in self.strategies}

    def as_dict(self) -> dict:
        keep = ("rank", "opening", "games", "total_guesses", "mean", "max", "histogram", "seconds", "peak_rss_mb")
        return {"rules": self.rules.as_dict(), "backend": self.backend,
                **({"variant": self.sweep.cases[0].variant_dict()} if self.sweep.cases[0].variant else {}),
                "openings": self.openings,
                "rankings": {s: [{k: r[k] for k in keep} for r in ranked]
                             for s, ranked in self.rankings().items()},
                "failures": self.sweep.as_dict()["failures"]}

    def text(self) -> str:
        blocks = []
        count = self.openings
        encoding = self.sweep.cases[0].encoding if self.sweep.cases else None
        game = self.rules.describe() + (f" encoding {encoding.name}" if encoding is not None else "")
        for strategy, ranked in self.rankings().items():
            codes = plural(self.rules.size, "code")
            if ranked and ranked[0]["games"] != self.rules.size:  # a variant's secrets: fewer than the codes
                codes = f"{ranked[0]['games']:,} secrets of {codes}"
            lines = [f"{game} {strategy} ({codes}, "
                     f"{plural(count, 'canonical opening')}, best first: fewest guesses in "
                     "total, then smallest max)",
                     f"  {'rank':>4}  {'opening':<{max(7, self.rules.pegs)}}  {'total':>9} {'mean':>6} {'max':>4} "
                     f"{'seconds':>9} {'peak MB':>8}  histogram"]
            for r in ranked:
                lines.append(f"  {r['rank']:>4}  {r['opening']:<{max(7, self.rules.pegs)}}  {r['total_guesses']:>9} "
                             f"{r['mean']:>6.3f} {r['max']:>4} {r['seconds']:>9.3f} {r['peak_rss_mb']:>8.0f}  "
                             f"{format_histogram(r['histogram'])}")
            blocks.append("\n".join(lines))
        return "\n\n".join(blocks)


def opening_cases(rules: Rules, strategies: list[str], backend: str, seed: int | None,
                  encoding: Path | None = None) -> list[Case]:
    """Every canonical opening of ``rules`` (played on ``encoding``, an edited one) for each strategy (the
    cases ``openings`` runs)."""
    return plan([(rules.pegs, rules.colors)], max_repeat=rules.max_repeat, strategies=strategies, first_guesses=[],
                all_openings=True, backends=[backend], seed=seed, where="", player="openings",
                feedback=rules.feedback, encoding=encoding)
