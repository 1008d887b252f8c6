"""Who plays: an engine and a strategy, with every option that shapes their play.

A front end (the command line's options, a server's request, a comparison's
cell, a sweep's case) reads its input into one :class:`Player` and builds the
engine and the strategy from it; what runs below gets them built, each holding
its own options (``engine.time_limit``, ``strategy.first_guess``, ``strategy.seed``).
A bench's worker processes are sent the player (:meth:`Player.of` the built
pair) and build the same pair again: the solvers embedded in a process (clingo,
SWI-Prolog) cannot be sent, their spec can.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .engines import DEFAULT_BACKEND, Engine, make_engine
from .notation import Code
from .rules import Rules
from .strategies import Strategy, StrategyName, TreeStrategy, parse_strategy


@dataclass(frozen=True)
class Player:
    """Everything that decides how the computer plays one game of ``rules``.

    Examples
    --------
    >>> player = Player(Rules(4, 6), "python", "knuth", first_guess=(0, 0, 1, 2))
    >>> engine, strategy = player.build()
    >>> strategy.name, strategy.first_guess, engine.name
    ('minimax', (0, 0, 1, 2), 'python')
    """

    rules: Rules
    #: The ``--backend`` that answers the consistency questions.
    backend: str = DEFAULT_BACKEND
    #: The strategy, as :func:`~mm_logic.strategies.parse_strategy` reads it (a name is read without
    #: files: a ``tree:FILE`` comes read).
    strategy: StrategyName | str = "first"
    #: Seed of every random choice; a seeded strategy without one draws its own when built.
    seed: int | None = None
    #: The opening played instead of the strategy's own.
    first_guess: Code | None = None
    #: Bound on one solver call and on a strategy's own search, in seconds.
    time_limit: float | None = None
    #: An edited encoding read by the engine instead of the shipped one.
    encoding: Path | None = None
    #: swipl's labeling order.
    labeling: str | None = None

    def __post_init__(self):
        if not isinstance(self.strategy, StrategyName):
            object.__setattr__(self, "strategy", parse_strategy(self.strategy, files=False))
        if self.first_guess is not None:
            object.__setattr__(self, "first_guess", tuple(self.first_guess))
        if self.encoding is not None:
            object.__setattr__(self, "encoding", Path(self.encoding))

    def engine(self) -> Engine:
        """A new engine for this player (refused in one line when the options do not fit it)."""
        return make_engine(self.backend, self.rules, encoding=self.encoding, time_limit=self.time_limit,
                           labeling=self.labeling)

    def make_strategy(self) -> Strategy:
        """A new strategy for this player."""
        return self.strategy.make(self.rules, self.seed, time_limit=self.time_limit, first_guess=self.first_guess)

    def build(self) -> tuple[Engine, Strategy]:
        """The engine and the strategy, the strategy checked first (it refuses sizes before any solver starts)."""
        strategy = self.make_strategy()
        return self.engine(), strategy

    @classmethod
    def of(cls, engine: Engine, strategy: Strategy) -> Player:
        """The player of a built engine and strategy: building it again gives an equal pair, playing alike
        (the strategy's seed, drawn when it was made if none was given, included)."""
        tree = strategy.tree if isinstance(strategy, TreeStrategy) else None
        name = StrategyName(strategy.name, type(strategy), tree) if tree is not None else parse_strategy(
            strategy.name, files=False)
        return cls(engine.rules, engine.name, name, strategy.seed, strategy.first_guess, engine.time_limit,
                   engine.encoding, engine.labeling)
