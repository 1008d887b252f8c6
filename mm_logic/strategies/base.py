"""What a strategy is: given a session (history + engine), the next guess."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np

from ..engines.base import Session
from ..notation import Code
from ..randomness import drawn_seed
from ..rules import Rules


class Strategy(ABC):
    """Chooses guesses; never knows which engine answers its questions.

    Parameters
    ----------
    rules:
        The game's rules.
    seed:
        Seed for every random choice (``--seed``).
    time_limit:
        Seconds a strategy that searches by itself may take (``--time-limit``).
    first_guess:
        The opening played instead of the strategy's own (``--first-guess``).
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
    #: Largest code space it plays under a rule of one's own (None: as any other rule).
    own_rule_max_codes: int | None = None
    #: The only number of pegs the strategy plays (None: any), for strategies whose parameters were fitted
    #: to the feedbacks of one code length.
    pegs_only: int | None = None
    #: The feedback rules it plays (``--feedback``): the engine's questions serve every rule; a strategy
    #: that reasons on black and white pegs itself plays the standard rule only.
    feedback_rules: tuple[str, ...] = ("standard", "black", "positional", "FILE.py")
    #: The groups of compiled kernels it plays with (:data:`mm_logic.kernels.warming.GROUPS`), made ready when
    #: it is made (start-up, before any game's clock) and by a bench's warm-up.
    kernels: tuple[str, ...] = ()

    def __init__(self, rules: Rules, seed: int | None = None, *, time_limit: float | None = None,
                 first_guess: Code | None = None):
        self.rules = rules
        self.seed = seed
        self.time_limit = time_limit
        self.first_guess = None if first_guess is None else tuple(first_guess)
        if self.kernels:
            from ..kernels.warming import warm  # imports numba: only for a strategy with kernels
            warm(*self.kernels)

    def opening(self, session: Session) -> Code:
        """The strategy's own first guess (played when ``first_guess`` is not given)."""
        return self.choose(session)

    @abstractmethod
    def choose(self, session: Session) -> Code | None:
        """The next guess for the session's history, or None if nothing is consistent."""

    def tree_below(self, session: Session, depth: int, limit: int) -> PlayedTree | None:
        """Every game from the session's history on at once (its next guess: ``first_guess`` or
        :meth:`opening` on the empty history, as a game plays them), guess ``depth`` next, each game
        within ``limit`` guesses, as :func:`mm_logic.studies.bench.play_tree` would play them node by
        node: for a deterministic strategy that can walk its own tree faster (compiled). None: it
        cannot; the caller walks the tree itself. The codes consistent with the history are the
        session's, asked once; below, the strategy splits them by feedback itself (so a caller whose
        engine is to be asked at every node walks the tree itself)."""
        return None


class SeededStrategy(Strategy):
    """A strategy whose random choices are a function of (seed, history).

    Without ``--seed`` every run draws its own seed, but the whole run is
    still one function of (seed, history), which keeps bench trees valid and
    lets worker processes (given ``strategy.seed``) play alike.
    """

    def __init__(self, rules: Rules, seed: int | None = None, **options):
        super().__init__(rules, seed, **options)
        self.seed = drawn_seed() if seed is None else seed


@dataclass
class PlayedTree:
    """The games below a history, as :meth:`Strategy.tree_below` plays them at once."""

    #: One row ``(guess, parent, feedback)`` per node, in the walk's order (depth first, the
    #: children by increasing feedback index): its guess (a position in the code space), its
    #: parent's row (-1: the node of the history itself) and the index of the feedback leading to it.
    nodes: np.ndarray
    #: One row ``(secret, attempts)`` per game (a position in the code space), in the walk's order.
    games: np.ndarray
    #: Whether some game needed the limit of guesses (the strategy is not making progress).
    too_deep: bool = False
