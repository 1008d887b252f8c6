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
    """Attempts over many games: one ``(secret, attempts)`` pair per game played."""

    games_played: list[tuple[Code, int]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def histogram(self) -> Counter:
        return Counter(attempts for _, attempts in self.games_played)

    def by_secret(self) -> dict[Code, int]:
        """Attempts per secret (a secret drawn twice was played alike twice)."""
        return dict(self.games_played)

    @property
    def games(self) -> int:
        return len(self.games_played)

    @property
    def total_guesses(self) -> int:
        return sum(attempts for _, attempts in self.games_played)

    @property
    def mean(self) -> float:
        return self.total_guesses / self.games if self.games else 0.0

    @property
    def max(self) -> int:
        return max((attempts for _, attempts in self.games_played), default=0)

    def merge(self, other: "BenchResult") -> None:
        """Add another part's games (parallel workers, or a later batch)."""
        self.games_played.extend(other.games_played)

    def as_dict(self) -> dict:
        """The contract's bench JSON fields (without backend, strategy, rules)."""
        histogram = self.histogram
        return {
            "games": self.games,
            "total_guesses": self.total_guesses,
            "mean": round(self.mean, 3),
            "max": self.max,
            "histogram": {str(k): histogram[k] for k in sorted(histogram)},
            "seconds": round(self.seconds, 3),
        }


def random_secrets(rules: Rules, games: int, seed: int | None) -> list[Code]:
    """``games`` uniformly random secrets, reproducible with ``seed``."""
    rng = np.random.default_rng(seed)
    return [random_code(rules, rng) for _ in range(games)]


def spaced_secrets(rules: Rules, games: int) -> list[Code]:
    """``games`` secrets evenly spaced over the code space in lexicographic order.

    Secret ``i`` is the code of index ``i * (size // games)`` (peg 1 most
    significant), the protocol of published large-game figures (e.g. 1000
    secrets of 16x6). Colours must be allowed to repeat, so that an index is
    just a number in base ``colors``.
    """
    if rules.restricted:
        raise MMLogicError("evenly spaced secrets need colours that may repeat (no --no-repeat, --max-repeat)")
    step = rules.size // games
    if step == 0:
        raise MMLogicError(f"{games} evenly spaced secrets need a code space of at least {games} codes, "
                           f"{rules.describe()} has {rules.size}")
    pegs, colors = rules.pegs, rules.colors
    return [tuple((i * step // colors ** (pegs - 1 - p)) % colors for p in range(pegs))
            for i in range(games)]


def play_games(engine: Engine, strategy: Strategy, secrets: Iterable[Code],
               first_guess: Code | None = None,
               progress: Callable[[int], None] | None = None) -> BenchResult:
    """Play one game per secret."""
    result = BenchResult()
    for secret in secrets:
        result.games_played.append((secret, play(engine, strategy, secret, first_guess).attempts))
        if progress:
            progress(1)
    return result


def play_tree(engine: Engine, strategy: Strategy, history: list[Entry], secrets: np.ndarray,
              first_guess: Code | None = None,
              progress: Callable[[int], None] | None = None) -> BenchResult:
    """Play every secret of ``secrets`` (indices into the code space), which must be
    exactly the codes consistent with ``history``, as one tree.

    At each node the secrets still possible are split by the feedback they
    give to the node's guess, which yields exactly the attempts of playing
    each game. At every node the engine's count of consistent codes must equal
    the number of secrets there: a cross-check of the engine against the
    feedback rule.
    """
    rules = engine.rules
    space = code_space(rules)
    result = BenchResult()
    win = win_index(rules.pegs)
    limit = 10 * rules.pegs * rules.colors

    def visit(session: Session, secrets: np.ndarray, depth: int) -> None:
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
                result.games_played.extend((space.code(i), depth) for i in group)
                if progress:
                    progress(group.size)
                continue
            if depth >= limit:
                raise MMLogicError("the strategy is not making progress")
            session.push(guess, index_feedback(mark, rules.pegs))
            visit(session, group, depth + 1)
            session.pop()

    with engine.session(history) as session:
        visit(session, secrets, len(history) + 1)
    return result


def bench_games(engine: Engine, strategy: Strategy, secrets: list[Code],
                first_guess: Code | None = None,
                progress: Callable[[int], None] | None = None, jobs: int = 1) -> BenchResult:
    """Play one game per secret; ``seconds`` is the wall time of the games."""
    start = time.perf_counter()
    if jobs > 1:
        from .parallel import run_parallel
        chunks = [("games", secrets[i::jobs]) for i in range(jobs)]
        result = run_parallel(engine, strategy, first_guess, chunks, jobs, progress)
    else:
        result = play_games(engine, strategy, secrets, first_guess, progress)
    result.seconds = time.perf_counter() - start
    return result


def bench_all(engine: Engine, strategy: Strategy, first_guess: Code | None = None,
              progress: Callable[[int], None] | None = None, jobs: int = 1) -> BenchResult:
    """Play every secret of the code space exactly once.

    Strategies whose guess depends only on the history are evaluated as a
    tree (:func:`play_tree`); others play each game. With ``jobs > 1`` the
    tree is cut below the opening, one task per feedback class, and the tasks
    run in worker processes: the attempts are the same as with one job.
    """
    space = code_space(engine.rules)
    if not strategy.deterministic:
        return bench_games(engine, strategy, [space.code(i) for i in range(space.size)],
                           first_guess, progress, jobs)
    start = time.perf_counter()
    if jobs > 1:
        from .parallel import run_parallel, split_below_opening
        opening, tasks, won = split_below_opening(engine, strategy, first_guess)
        result = run_parallel(engine, strategy, first_guess, tasks, jobs, progress)
        result.merge(won)
        if progress and won.games:
            progress(won.games)
    else:
        result = play_tree(engine, strategy, [], np.arange(space.size), first_guess, progress)
    result.seconds = time.perf_counter() - start
    return result
