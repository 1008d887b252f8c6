"""Guess-selection strategies, by ``--strategy`` name."""

from __future__ import annotations

from ..errors import BadInput
from ..rules import Rules
from .base import Strategy
from .human import Human1, Human2, Human3
from .scoring import Entropy, Expected, Minimax, Parts
from .simple import Any, First, Random

STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (First, Any, Random, Minimax, Expected, Entropy, Parts, Human1, Human2, Human3)
}


def make_strategy(name: str, rules: Rules, seed: int | None = None) -> Strategy:
    """Create the strategy ``name`` for ``rules``."""
    try:
        cls = STRATEGIES[name]
    except KeyError:
        raise BadInput(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}") from None
    if cls.max_codes is not None and rules.size > cls.max_codes:
        # Refused at once, on every backend, before anything is computed.
        others = " or ".join(n for n, c in STRATEGIES.items() if c.for_any_size)
        raise BadInput(f"--strategy {name} scores guesses against every code and plays at most "
                       f"{cls.max_codes:,} codes; {rules.describe()} has {rules.size:,}: use --strategy {others}")
    return cls(rules, seed)


__all__ = ["STRATEGIES", "Strategy", "make_strategy"]
