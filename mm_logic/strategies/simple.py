"""Strategies that play a consistent code without scoring: first, any, random, any-random-opening."""

from __future__ import annotations

from ..randomness import history_rng, random_code
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
        rng = history_rng(self.seed, session.history)
        # Every code is consistent before the first guess, unless an edited encoding answers.
        return session.random(rng) if session.edited else random_code(self.rules, rng)

    def choose(self, session):
        return session.random(history_rng(self.seed, session.history))


class AnyRandomOpening(SeededStrategy):
    """A uniformly random opening, then whichever consistent code the engine finds first.

    ``any`` on clingo aims at a random code only in games of up to
    ``AIM_MAX_PAIRS`` (peg, colour) pairs; beyond, its first find is one
    colour throughout (``888…8`` on 30x30), and the plain order that follows
    keeps each guess near the previous one, so the game counts colours almost
    one by one. One random opening spreads the colours at once: 30x30 games
    take about 10% fewer guesses. Only one: with two random guesses the later
    questions get much harder (30x30: 38.4 guesses at 23 s a game, against 39.8
    at 2.8 s with one; docs/results/large-games.md).
    """

    name = "any-random-opening"
    for_any_size = True
    summary = "a random opening (reproducible with --seed), then whichever consistent code the engine finds first"
    # After the opening it plays any(), whose order may depend on the engine's solver state.
    deterministic = False

    opening = Random.opening

    def choose(self, session):
        return session.any()
