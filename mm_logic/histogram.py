"""Guesses per game as the contract writes them: a histogram's figures, said once, and its one-line form.

A histogram maps a number of guesses (the winning one included) to the games that took that many. What every
report gives of one, its games, total, mean and worst case, and the figures ``bench --json`` writes, is
computed here by :class:`HistogramFigures`, for every value that holds a histogram: an optimal strategy
(:class:`~mm_logic.optimal.result.OptimalResult`), a saved tree played over every secret
(:class:`~mm_logic.strategies.tree.TreeFigures`), a liar's check (:class:`~mm_logic.liar.within.Check`) and a
bench's games won (:class:`~mm_logic.studies.bench.BenchResult`, through :class:`Histogram`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


class HistogramFigures:
    """The figures of the histogram a value holds as ``histogram`` (guesses -> games), one vocabulary for all:
    ``games``, ``total``, ``mean``, ``worst``, and :meth:`histogram_figures` as the contract writes them.

    >>> figures = Histogram({4: 1, 5: 3})
    >>> figures.games, figures.total, figures.mean, figures.worst
    (4, 19, 4.75, 5)
    """

    histogram: Mapping[int, int]

    @property
    def games(self) -> int:
        """The games the histogram counts."""
        return sum(self.histogram.values())

    @property
    def total(self) -> int:
        """The guesses of every game, summed."""
        return sum(k * n for k, n in self.histogram.items())

    @property
    def mean(self) -> float:
        """Guesses per game; 0.0 without a game (a chart's empty bar: the contract's figures write none)."""
        games = self.games
        return self.total / games if games else 0.0

    @property
    def worst(self) -> int:
        """The most guesses a game took; 0 without a game, as :attr:`mean`."""
        return max(self.histogram, default=0)

    def histogram_figures(self) -> dict:
        """Games, total guesses, mean (3 decimals), max and the histogram, as ``bench --json`` writes them; without
        a game the mean and max are None (``null``: no game has a number of guesses).

        >>> Histogram({4: 1, 5: 3}).histogram_figures()["mean"], Histogram({}).histogram_figures()["max"]
        (4.75, None)
        """
        games = self.games
        return {
            "games": games,
            "total_guesses": self.total,
            "mean": round(self.mean, 3) if games else None,
            "max": self.worst if self.histogram else None,
            "histogram": {str(k): self.histogram[k] for k in sorted(self.histogram)},
        }


@dataclass(frozen=True)
class Histogram(HistogramFigures):
    """A histogram on its own, with its figures (a bench's games won: the games failed took no number of
    guesses)."""

    histogram: Mapping[int, int]


def figure(value, spec: str = "") -> str:
    """A figure in text, ``-`` for None (a mean, min or max without a game won, a stdev below two).

    >>> figure(4.4758, ".3f"), figure(None, ".3f"), figure(5)
    ('4.476', '-', '5')
    """
    return "-" if value is None else format(value, spec)


def format_histogram(histogram: Mapping) -> str:
    """``1:1 2:6 3:62``: guesses:games, fewest guesses first (keys may be ints or their strings)."""
    return " ".join(f"{k}:{histogram[k]}" for k in sorted(histogram, key=int))
