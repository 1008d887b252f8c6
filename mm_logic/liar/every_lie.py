"""Every way the codemaker may lie (``bench --lies K --liar every``): a strategy's worst case against any liar.

A deterministic strategy in a game with lies is walked as one tree whose
branches are the codemaker's answers: at each node every answer that leaves
some state (code, lies used, :mod:`mm_logic.lies`) is followed, truthful or
not, and the guess ends a game for the one state it is (the win is always
told). Each leaf is one *game*: a secret and one way of answering it with at
most K lies. The histogram is over those games; its largest number of guesses
is the strategy's worst case against every liar, which no random liar is sure
to meet.

>>> from mm_logic.engines.reference import ReferenceEngine
>>> from mm_logic.rules import Rules
>>> from mm_logic.strategies import make_strategy
>>> rules = Rules(2, 2, lies=1)
>>> result = every_lie(ReferenceEngine(rules), make_strategy("minimax", rules))
>>> dict(sorted(result.histogram.items())), result.games
({1: 1, 2: 4, 3: 12, 4: 2}, 19)
"""

from __future__ import annotations

import time

from ..codespace import code_space
from ..engines.base import Engine
from ..feedback import rule_of
from ..game import Game
from ..lies import split_states
from ..strategies.base import Strategy
from ..studies.bench import BenchResult, Progress
from ..support.errors import BadInput


def every_lie(engine: Engine, strategy: Strategy, progress: Progress | None = None) -> BenchResult:
    """The games of ``strategy`` against every secret and every way of answering it with at most ``K`` lies
    (``engine.rules.lies``): one ``(secret, guesses)`` per game. ``progress(n)`` hears of the games as
    each subtree of the opening ends."""
    rules = engine.rules
    if not rules.lies:
        raise BadInput("--liar every needs --lies K: without lies every secret is answered one way")
    if not strategy.deterministic:
        raise BadInput(f"--liar every walks a strategy's tree: --strategy {strategy.name} is not deterministic")
    space = code_space(rules)
    rule = rule_of(rules)
    win = rule.win(rules.pegs)
    result = BenchResult(rules, engine.name, strategy.name)
    start = time.perf_counter()
    with Game(engine, strategy) as game:
        def walk(depth: int) -> int:
            """The games below the game's history (``depth`` guesses made), added to ``result``."""
            guess = game.suggest()
            session = game.session
            # the guess's feedback to every code still possible, once: whether it can win, and its parts
            marks = space.feedback_to(guess, session.consistent_indices())
            games = 0
            if (marks == rule.win_index(rules.pegs)).any():
                result.games_played.append((tuple(guess), depth + 1))
                games += 1
            parts = split_states(rules, marks[None, :], session.lies_needed())[0]
            for index in range(parts.size):
                if parts[index] == 0:  # first: an index no state gives may be no feedback (mm_logic.lies.outside)
                    continue
                fb = rule.from_index(index, rules.pegs)
                if fb == win:
                    continue
                game.record(guess, fb, check=False)
                n = walk(depth + 1)
                game.undo()
                games += n
                if depth == 0 and progress:
                    progress(n)
            return games

        walk(0)
    result.seconds = time.perf_counter() - start
    return result


__all__ = ["every_lie"]
