"""Guess-selection strategies, by ``--strategy`` name."""

from __future__ import annotations

from ..errors import BadInput
from ..rules import Rules
from .base import Strategy
from .genetic import Ga001Dissimilar, Ga001Random, Ga001Reduction, Ga001Similar, Ga004
from .human import Human1, Human2, Human3
from .scoring import Entropy, Expected, Minimax, Parts
from .simple import Any, First, Random

STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (First, Any, Random, Minimax, Expected, Entropy, Parts, Human1, Human2, Human3,
                            Ga001Random, Ga001Similar, Ga001Dissimilar, Ga001Reduction, Ga004)
}


def make_strategy(name: str, rules: Rules, seed: int | None = None, time_limit: float | None = None) -> Strategy:
    """Create the strategy ``name`` for ``rules``; ``time_limit`` bounds a strategy's own search."""
    try:
        cls = STRATEGIES[name]
    except KeyError:
        raise BadInput(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}") from None
    if cls.max_codes is not None and rules.size > cls.max_codes:
        # Refused at once, on every backend, before anything is computed.
        others = " or ".join(n for n, c in STRATEGIES.items() if c.for_any_size)
        raise BadInput(f"--strategy {name} scores guesses against every code and plays at most "
                       f"{cls.max_codes:,} codes; {rules.describe()} has {rules.size:,}: use --strategy {others}")
    strategy = cls(rules, seed)
    strategy.time_limit = time_limit
    return strategy


__all__ = ["STRATEGIES", "Strategy", "make_strategy"]
