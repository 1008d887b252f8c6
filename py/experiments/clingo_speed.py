"""Speed of the clingo engine playing whole games through the engine API.

A finished experiment (issue 3's speed goals), kept runnable. Its goals are rows of the benchmark
table (``docs/results/benchmarks.md``, until then the README's "Benchmarks"), where ``mmlogic bench``
measures them today (``py/tools/benchmarks.py`` reruns them); this script's own figures are
documented nowhere else.

Each game is the minimal loop ``guess = session.any()`` (or ``first()``),
``fb = feedback(guess, secret)``, ``session.push(guess, fb)`` until the secret
is found; a game's time includes opening its session (Control, grounding
``base``). Secrets are drawn from a fixed seed, so runs are comparable.

Usage::

    .venv/bin/python py/experiments/clingo_speed.py                 # every setting below
    .venv/bin/python py/experiments/clingo_speed.py --only 30x30    # settings whose label contains 30x30
    .venv/bin/python py/experiments/clingo_speed.py --fresh         # a fresh Control per question instead

Goals (issue 3): ``any`` 16x6 <= 0.05 s, 20x20 <= 0.5 s, 30x30 <= 5 s per game
(20 games, repetition allowed); 5x8 no-repeat ``first`` and ``any`` <= 8 ms
per game (1000 games).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from mm_logic.engines.base import Session
from mm_logic.engines.clingo import ClingoEngine, ClingoSession
from mm_logic.feedback import feedback
from mm_logic.rules import Rules
from mm_logic.support.scripting import count, natural, run

#: (label, rules, strategy, games, goal in seconds per game)
SETTINGS = [
    ("5x8 no-repeat first", Rules(5, 8, 1), "first", 1000, 0.008),
    ("5x8 no-repeat any", Rules(5, 8, 1), "any", 1000, 0.008),
    ("16x6 any", Rules(16, 6), "any", 20, 0.05),
    ("20x20 any", Rules(20, 20), "any", 20, 0.5),
    ("30x30 any", Rules(30, 30), "any", 20, 5.0),
]


class FreshControlSession(Session):
    """The alternative design: a new Control, grounded from scratch, for every question."""

    def __init__(self, engine: ClingoEngine):
        super().__init__(engine.rules)
        self.engine = engine

    def _push(self, entry):
        pass

    def _pop(self, entry):
        pass

    def _ask(self, question: str):
        with ClingoSession(self.engine) as s:
            for guess, fb in self.history:
                s.push(guess, fb)
            return getattr(s, question)()

    def _first(self):
        return self._ask("first")

    def _any(self):
        return self._ask("any")

    def _enumerate(self, limit):
        raise NotImplementedError

    def _count(self):
        return self._ask("count")


def random_secret(rules: Rules, rng: np.random.Generator) -> tuple[int, ...]:
    """A uniformly random valid code."""
    while True:
        code = tuple(int(c) for c in rng.integers(rules.colors, size=rules.pegs))
        if max(np.bincount(code)) <= rules.repeat_limit:
            return code


def play(session: Session, strategy: str, secret) -> int:
    """Play one game; the number of guesses."""
    ask = getattr(session, strategy)
    guesses = 0
    while True:
        guess = ask()
        guesses += 1
        fb = feedback(guess, secret)
        if fb[0] == len(secret):
            return guesses
        session.push(guess, fb)


def measure(rules: Rules, strategy: str, games: int, seed: int, fresh: bool) -> tuple[float, float]:
    """Mean guesses and mean seconds per game."""
    engine = ClingoEngine(rules)
    rng = np.random.default_rng(seed)
    secrets = [random_secret(rules, rng) for _ in range(games)]
    total_guesses = 0
    start = time.perf_counter()
    for secret in secrets:
        session = FreshControlSession(engine) if fresh else engine.session()
        with session:
            total_guesses += play(session, strategy, secret)
    seconds = time.perf_counter() - start
    return total_guesses / games, seconds / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=natural, default=1)
    parser.add_argument("--games", type=count, help="games per setting (default: each setting's own)")
    parser.add_argument("--only", help="run the settings whose label contains this text")
    parser.add_argument("--fresh", action="store_true", help="a fresh Control per question")
    args = parser.parse_args()
    print(f"{'setting':<22} {'games':>6} {'mean guesses':>13} {'s/game':>10} {'goal':>8}")
    for label, rules, strategy, games, goal in SETTINGS:
        if args.only and args.only not in label:
            continue
        games = games if args.games is None else args.games
        guesses, seconds = measure(rules, strategy, games, args.seed, args.fresh)
        verdict = "ok" if seconds <= goal else "SLOW"
        print(f"{label:<22} {games:>6} {guesses:>13.3f} {seconds:>10.5f} {goal:>8g} {verdict}", flush=True)


if __name__ == "__main__":
    run(main)
