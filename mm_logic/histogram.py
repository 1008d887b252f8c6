"""Guesses per game as the contract writes them: a histogram's figures and its one-line form."""

from __future__ import annotations

from collections.abc import Mapping


def histogram_figures(histogram: Mapping[int, int]) -> dict:
    """Games, total guesses, mean (3 decimals), max and the histogram, as ``bench --json`` writes them."""
    games = sum(histogram.values())
    total = sum(k * n for k, n in histogram.items())
    return {
        "games": games,
        "total_guesses": total,
        "mean": round(total / games, 3) if games else 0.0,
        "max": max(histogram, default=0),
        "histogram": {str(k): histogram[k] for k in sorted(histogram)},
    }


def format_histogram(histogram: Mapping) -> str:
    """``1:1 2:6 3:62``: guesses:games, fewest guesses first (keys may be ints or their strings)."""
    return " ".join(f"{k}:{histogram[k]}" for k in sorted(histogram, key=int))
