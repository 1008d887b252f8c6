"""Strategies that play a consistent code without scoring: first, any, random."""

from __future__ import annotations

from ..sampling import history_rng, random_code
from .base import SeededStrategy, Strategy


class First(Strategy):
    """The lexicographically smallest consistent code (Shapiro's simple strategy)."""

    name = "first"
    for_any_size = True
    summary = "smallest consistent code (Shapiro); opens with 0000…"

    def choose(self, session):
        return session.first()


class Any(Strategy):
    """Whichever consistent code the engine finds first: the fast choice for huge games."""

    name = "any"
    for_any_size = True
    summary = "whichever consistent code the engine finds first; opens with the engine's first find"
    # The engine's own order may depend on its solver state, not only on the history.
    deterministic = False

    def choose(self, session):
        return session.any()


class Random(SeededStrategy):
    """A uniformly random consistent code, reproducible with ``--seed``."""

    name = "random"
    for_any_size = True
    summary = "uniform random consistent code (reproducible with --seed); opens with a random code"

    def opening(self, session):
        return random_code(self.rules, history_rng(self.seed, session.history))

    def choose(self, session):
        return session.random(history_rng(self.seed, session.history))
