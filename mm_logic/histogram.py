"""Guesses per game as the contract writes them: a histogram's figures and its one-line form."""

from __future__ import annotations

from collections.abc import Mapping


def histogram_figures(histogram: Mapping[int, int]) -> dict:
    """Games, total guesses, mean (3 decimals), max and the histogram, as ``bench --json`` writes them; without a
    game the mean and max are None (``null``: no game has a number of guesses).

    >>> histogram_figures({4: 1, 5: 3})["mean"], histogram_figures({})["mean"], histogram_figures({})["max"]
    (4.75, None, None)
    """
    games = sum(histogram.values())
    total = sum(k * n for k, n in histogram.items())
    return {
        "games": games,
        "total_guesses": total,
        "mean": round(total / games, 3) if games else None,
        "max": max(histogram, default=None),
        "histogram": {str(k): histogram[k] for k in sorted(histogram)},
    }


def figure(value, spec: str = "") -> str:
    """A figure in text, ``-`` for None (a mean, min or max without a game won, a stdev below two).

    >>> figure(4.4758, ".3f"), figure(None, ".3f"), figure(5)
    ('4.476', '-', '5')
    """
    return "-" if value is None else format(value, spec)


def format_histogram(histogram: Mapping) -> str:
    """``1:1 2:6 3:62``: guesses:games, fewest guesses first (keys may be ints or their strings)."""
    return " ".join(f"{k}:{histogram[k]}" for k in sorted(histogram, key=int))
