"""Playing games: one game against a secret, and benches over many secrets.

The game loop asks the strategy for a guess, scores it against the secret with
the feedback rule and tells the engine session. It never knows which engine or
strategy it runs.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

from .codespace import code_space
from .engines.base import Engine, Session
from .errors import MMLogicError
from .feedback import feedback, feedback_indices, index_feedback, win_index
from .notation import Code, Entry
from .rules import Rules
from .sampling import random_code
from .strategies.base import Strategy


class EngineDisagreement(MMLogicError):
    """An engine's answer contradicts the feedback rule (a bug in an engine or encoding)."""


@dataclass
class GameRecord:
    """One finished game."""

    secret: Code
    guesses: list[Entry]
    seconds: float

    @property
    def attempts(self) -> int:
        return len(self.guesses)


def next_guess(session: Session, strategy: Strategy, first_guess: Code | None = None) -> Code | None:
    """The guess to play after the session's history (the opening when it is empty)."""
    if not session.history:
        return first_guess if first_guess is not None else strategy.opening(session)
    return strategy.choose(session)


def play(engine: Engine, strategy: Strategy, secret: Code, first_guess: Code | None = None,
         max_attempts: int | None = None) -> GameRecord:
    """Play one game against ``secret`` and return every guess with its feedback."""
    rules = engine.rules
    limit = max_attempts or max(50, 10 * rules.pegs * rules.colors)
    start = time.perf_counter()
    guesses: list[Entry] = []
    with engine.session() as session:
        while True:
            guess = next_guess(session, strategy, first_guess)
            if guess is None:
                raise EngineDisagreement(
                    f"the {engine.name} engine found no consistent code, but the secret is one"
                )
            fb = feedback(guess, secret)
            guesses.append((guess, fb))
            if fb == (rules.pegs, 0):
                break
            if len(guesses) >= limit:
                raise MMLogicError(f"no win after {limit} guesses; the strategy is not making progress")
            session.push(guess, fb)
    return GameRecord(secret, guesses, time.perf_counter() - start)


@dataclass
class BenchResult:
    """Attempts over many games."""

    histogram: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return sum(self.histogram.values())

    @property
    def total_guesses(self) -> int:
        return sum(a * n for a, n in self.histogram.items())

    @property
    def mean(self) -> float:
        return self.total_guesses / self.games if self.games else 0.0

    @property
    def max(self) -> int:
        return max(self.histogram, default=0)

    def as_dict(self) -> dict:
        """The contract's bench JSON fields (without backend, strategy, rules)."""
        return {
            "games": self.games,
            "total_guesses": self.total_guesses,
            "mean": round(self.mean, 3),
            "max": self.max,
            "histogram": {str(k): self.histogram[k] for k in sorted(self.histogram)},
            "seconds": round(self.seconds, 3),
        }


def random_secrets(rules: Rules, games: int, seed: int | None) -> list[Code]:
    """``games`` uniformly random secrets, reproducible with ``seed``."""
    rng = np.random.default_rng(seed)
    return [random_code(rules, rng) for _ in range(games)]


def bench_games(engine: Engine, strategy: Strategy, secrets: Iterable[Code],
                first_guess: Code | None = None,
                progress: Callable[[int], None] | None = None) -> BenchResult:
    """Play one game per secret; ``seconds`` is the wall time of the games."""
    result = BenchResult()
    start = time.perf_counter()
    for secret in secrets:
        record = play(engine, strategy, secret, first_guess)
        result.histogram[record.attempts] += 1
        if progress:
            progress(1)
    result.seconds = time.perf_counter() - start
    return result


def bench_all(engine: Engine, strategy: Strategy, first_guess: Code | None = None,
              progress: Callable[[int], None] | None = None) -> BenchResult:
    """Play every secret of the code space exactly once.

    Strategies whose guess depends only on the history are evaluated as a
    tree: at each node the secrets still possible are split by the feedback
    they give to the node's guess, which yields exactly the histogram of
    playing each game. At every node the engine's count of consistent codes
    must equal the number of secrets in the node: a cross-check of the engine
    against the feedback rule. Other strategies play each game.
    """
    rules = engine.rules
    space = code_space(rules)
    if not strategy.deterministic:
        return bench_games(engine, strategy, (space.code(i) for i in range(space.size)),
                           first_guess, progress)
    result = BenchResult()
    win = win_index(rules.pegs)
    start = time.perf_counter()

    with engine.session() as session:
        def visit(secrets: np.ndarray, depth: int) -> None:
            if session.history:
                found = session.count()
                if found != secrets.size:
                    raise EngineDisagreement(
                        f"the {engine.name} engine counts {found} consistent codes after "
                        f"{session.history}, the feedback rule gives {secrets.size}"
                    )
            guess = next_guess(session, strategy, first_guess)
            marks = feedback_indices(guess, space.codes[secrets], space.counts[secrets])
            order = np.argsort(marks, kind="stable")
            marks, secrets = marks[order], secrets[order]
            bounds = np.flatnonzero(np.diff(marks)) + 1
            for group, mark in zip(np.split(secrets, bounds), marks[np.r_[0, bounds]]):
                if mark == win:
                    result.histogram[depth] += group.size
                    if progress:
                        progress(group.size)
                    continue
                if depth >= 10 * rules.pegs * rules.colors:
                    raise MMLogicError("the strategy is not making progress")
                session.push(guess, index_feedback(mark, rules.pegs))
                visit(group, depth + 1)
                session.pop()

        visit(np.arange(space.size), 1)
    result.seconds = time.perf_counter() - start
    return result
