"""What a strategy is: given a session (history + engine), the next guess."""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from ..engines.base import Session
from ..notation import Code
from ..rules import Rules


class Strategy(ABC):
    """Chooses guesses; never knows which engine answers its questions.

    Parameters
    ----------
    rules:
        The game's rules.
    seed:
        Seed for every random choice (``--seed``).
    """

    #: Name used by ``--strategy``.
    name: str = "?"
    #: One line for ``--help``, including the default opening.
    summary: str = ""
    #: True when the guess is a function of the history alone, so that a bench
    #: over every secret may be evaluated as one tree.
    deterministic: bool = True
    #: True when its guesses may break the repetition rule (probes such as
    #: ``0000`` against a no-repeat secret): ``next`` then accepts such entries.
    probes: bool = False
    #: Named when a scoring strategy refuses a space too large for it.
    for_any_size: bool = False
    #: Largest code space the strategy can play (None: any size).
    max_codes: int | None = None

    def __init__(self, rules: Rules, seed: int | None = None):
        self.rules = rules
        self.seed = seed
        #: Seconds a strategy that searches by itself may take (``--time-limit``).
        self.time_limit: float | None = None

    def opening(self, session: Session) -> Code:
        """The first guess when ``--first-guess`` is not given."""
        return self.choose(session)

    @abstractmethod
    def choose(self, session: Session) -> Code | None:
        """The next guess for the session's history, or None if nothing is consistent."""


class SeededStrategy(Strategy):
    """A strategy whose random choices are a function of (seed, history).

    Without ``--seed`` every run draws its own seed, but the whole run is
    still one function of (seed, history), which keeps bench trees valid and
    lets worker processes (given ``strategy.seed``) play alike.
    """

    def __init__(self, rules: Rules, seed: int | None = None):
        super().__init__(rules, seed)
        self.seed = int(np.random.SeedSequence().entropy % 2**63) if seed is None else seed
