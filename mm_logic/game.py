"""One game of Mastermind: the object every front end drives.

A :class:`Game` holds the rules, an engine session, a strategy and the
history. It answers what a front end needs, whoever keeps the secret:

* the computer guesses (``solve``, ``next``, the codemaker mode of ``play``):
  :meth:`Game.suggest` gives the strategy's next guess and
  :meth:`Game.record` takes the feedback it got, refusing feedback that no
  code could give together with the earlier entries (the error names them);
* a person guesses (``play``): :meth:`Game.score` answers a guess with the
  feedback of the game's secret, and :meth:`Game.remaining` says how many
  codes are still possible;
* either side may take a move back (:meth:`Game.undo`).

:func:`play` plays a whole game against a known secret. Nothing here knows
which engine answers, which strategy chooses, or which front end asks.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .adversary import adversarial_answer
from .codespace import code_space
from .engines.base import Engine, Session
from .feedback import rule_of, score
from .lies import Liar, broken, needs
from .notation import Code, Entry, Feedback, code_of, feedback_of, format_code, format_feedback, plural
from .rules import Rules
from .strategies.base import PlayedTree, Strategy
from .support.errors import BadInput, MMLogicError, NoConsistentCode
from .support.interrupts import kernel_interrupts


class EngineDisagreement(MMLogicError):
    """An engine's answer contradicts the feedback rule (a bug in an engine or encoding)."""


class NoProgress(MMLogicError):
    """A game went on for longer than any sensible strategy needs."""


def attempts_limit(rules: Rules) -> int:
    """Guesses after which a game is declared stuck (far beyond any strategy's need)."""
    return max(50, 10 * rules.pegs * rules.colors)


class Game:
    """One game: rules, an engine session, a strategy and the history.

    Parameters
    ----------
    engine:
        Answers the consistency questions; the game opens one session on it.
    strategy:
        Chooses the computer's guesses (its ``first_guess``, when it has one, opens).
    secret:
        The code to find, when this side knows it (:meth:`score` needs it).
    history:
        Entries already played, replayed into the session (trusted: they are
        not checked, see :meth:`record`'s ``check``).
    adversary:
        With no ``secret``: :meth:`score` answers as the codemaker that keeps no
        secret (:func:`mm_logic.adversary.adversarial_answer`), the answer that
        leaves the most codes possible.
    liar:
        With a ``secret``: :meth:`score` answers as this codemaker, who uses its lies (``--liar``).

    Examples
    --------
    >>> from mm_logic.engines.reference import ReferenceEngine
    >>> from mm_logic.strategies import make_strategy
    >>> rules = Rules(4, 6)
    >>> game = Game(ReferenceEngine(rules), make_strategy("minimax", rules), secret=(0, 1, 2, 3))
    >>> game.suggest()
    (0, 0, 1, 1)
    >>> game.score((0, 0, 1, 1))
    (1, 1)
    >>> game.record((0, 0, 1, 1), (1, 1)); game.remaining()
    208
    """

    def __init__(self, engine: Engine, strategy: Strategy, *, secret: Code | None = None,
                 history: list[Entry] = (), adversary: bool = False, liar: Liar | None = None):
        if adversary and secret is not None:
            raise BadInput("an adversary keeps no secret: give one or the other")
        self._liar = liar if secret is not None else None
        self.engine = engine
        self.adversary = adversary
        self.rules = engine.rules
        self.strategy = strategy
        self.secret = secret
        self.session: Session = engine.session(history)
        # The winning entry is kept here, not pushed: nothing is asked after a
        # win, and a push costs a ground on clingo (13% of a 5x8 game).
        self._win: Entry | None = None
        # Trusted entries (a secret's answers) wait here until the engine is next asked: a
        # person's guesses are scored at once, never held up or refused by a solver's time limit.
        self._unpushed: list[Entry] = []
        self._closed = False

    # -- state ---------------------------------------------------------------
    @property
    def history(self) -> list[Entry]:
        """The entries played so far, oldest first."""
        played = [*self.session.history, *self._unpushed]
        return played if self._win is None else [*played, self._win]

    @property
    def won(self) -> bool:
        """Whether the last guess was the secret (all pegs black)."""
        return self._win is not None

    def remaining(self) -> int:
        """How many codes are still consistent with the history (exact)."""
        self._open()
        if self._win is not None:
            return 1
        session = self._synced()
        return session.count() if session.history or self._edited else self.rules.size

    def remaining_within(self, limit: int | None = None) -> tuple[int, bool]:
        """``(n, True)`` with the exact number of codes still possible when it is at most
        ``limit`` (default: the engine's ``count_budget``), else ``(m, False)`` with a
        proven lower bound ``m > limit`` (huge games)."""
        self._open()
        if self._win is not None:
            return 1, True
        session = self._synced()
        if not session.history and not self._edited:
            return self.rules.size, True
        return session.count_within(self.engine.count_budget if limit is None else limit)

    def consistent_indices(self) -> np.ndarray:
        """The positions (increasing) in the code space (:func:`~mm_logic.codespace.code_space`, lexicographic
        order) of the codes still possible, as the engine lists them (all of them: the caller bounds the count
        first, with :meth:`remaining_within`); the winning code alone once the game is won."""
        self._open()
        if self._win is not None:
            return code_space(self.rules).index_of([self._win[0]])
        return self._synced().consistent_indices()

    @property
    def _edited(self) -> bool:
        """Whether the codes are a variant's own, not every code of the rules (:attr:`Engine.edited`)."""
        return self.engine.edited

    # -- the computer guesses --------------------------------------------------
    def suggest(self) -> Code:
        """The strategy's next guess (its opening, or its ``first_guess``, on an empty history).

        Raises :class:`~mm_logic.support.errors.NoConsistentCode`, naming the entries
        that contradict each other, when no code fits the history.
        """
        self._open()
        if self._win is not None:
            return self._win[0]
        session = self._synced()
        played = session.history
        if not played and self.strategy.first_guess is not None:
            return self.strategy.first_guess
        with kernel_interrupts():  # the strategies' numba kernels
            guess = self.strategy.choose(session) if played else self.strategy.opening(session)
        if guess is None:
            raise self.engine.no_solution(played)
        return guess

    def tree_below(self, limit: int) -> PlayedTree | None:
        """Every game from the history on (its next guess included), played by the strategy at once when it can
        (:meth:`~mm_logic.strategies.base.Strategy.tree_below`), each within ``limit`` guesses; else None."""
        self._open()
        if self._win is not None:
            return None
        session = self._synced()
        with kernel_interrupts():
            return self.strategy.tree_below(session, len(session.history) + 1, limit)

    def record(self, guess: Code, fb: Feedback, *, check: bool = True) -> None:
        """Add a played guess with its feedback.

        With ``check`` (feedback typed by a person), feedback that cannot
        occur, or that leaves no code consistent with the history, is refused
        with the entries it contradicts, and the history is left as it was.
        Feedback computed from a secret needs no check; the engine then hears of
        the entry only when it is next asked (a person's guess is never held up
        by the solver, nor refused by its time limit).

        With ``check``, the guess and the feedback may be written as the command line writes them (``"0011"``,
        ``"1,0"``) or given as numbers, and are checked as it checks them (a code of the rules, feedback of the
        rule); either wrong is one :class:`~mm_logic.support.errors.BadInput` line.
        """
        self._open()
        if check:
            # A strategy that probes with one-colour codes (human1) plays codes the repetition rule forbids.
            guess = code_of(guess, self.rules, check_repeat=not self.strategy.probes)
            fb = feedback_of(fb, self.rules)
        entry = (tuple(guess), tuple(fb))
        if self._win is not None:
            raise BadInput("the game is won: undo the winning entry first")
        rule = rule_of(self.rules)
        if entry[1] == rule.win(self.rules.pegs):
            if check and needs(self.rules, [*self.history, entry], entry[0]) is None:  # with its lies, if any
                raise self.engine.no_solution([*self.history, entry])
            self._win = entry
            return
        if not check:
            self._unpushed.append(entry)
            return
        session = self._synced()
        session.push(*entry)
        if session.any() is None:
            error = self.engine.no_solution(session.history)
            session.pop()
            raise error

    def undo(self) -> Entry:
        """Take the last entry back and return it."""
        self._open()
        if self._win is not None:
            entry, self._win = self._win, None
            return entry
        if self._unpushed:
            return self._unpushed.pop()
        if not self.session.history:
            raise BadInput("nothing to undo")
        return self.session.pop()

    # -- a person guesses --------------------------------------------------------
    def score(self, guess: Code) -> Feedback:
        """The feedback the secret gives ``guess`` (the codemaker's answer); the adversary's answer in a game
        without a secret (``adversary``). ``guess`` is a code written as the command line writes it
        (``"0123"``) or colour numbers, checked as the command line checks a guess."""
        return self._answer(code_of(guess, self.rules, check_repeat=not self.strategy.probes))  # human1's probes repeat

    def _answer(self, guess: Code) -> Feedback:
        """:meth:`score` of a code already read and checked (the strategy's own guess: read again, it cost every
        computer turn a format and a parse)."""
        if self.secret is None:
            if self.adversary:
                self._open()
                return adversarial_answer(self.engine, self.history, guess)
            raise BadInput("this game has no secret to score against")
        if self._liar is not None:
            return self._liar.answer(self.secret, self.history, guess)
        return score(self.rules, guess, self.secret)

    def shown_secret(self) -> Code | None:
        """The code to show once the game is over: the secret; in an adversary's game, the winning guess, or
        else a code consistent with every answer (the adversary could have kept it from the start)."""
        if self.secret is not None or not self.adversary:
            return self.secret
        if self._win is not None:
            return self._win[0]
        return self._synced().first()

    def play_turn(self) -> Entry:
        """The computer guesses, the secret answers, and the entry is recorded."""
        guess = self.suggest()
        entry = (guess, self._answer(guess))
        self.record(*entry, check=False)
        return entry

    def _synced(self) -> Session:
        """The session, with the entries still waiting pushed (one at a time: an entry whose push
        fails, on a time limit, waits for the next question)."""
        self._open()
        while self._unpushed:
            self.session.push(*self._unpushed[0])
            del self._unpushed[0]
        return self.session

    def _open(self) -> None:
        """Refuse to go on once the game is closed: its solver's session is released (clingo's would fail inside)."""
        if self._closed:
            raise MMLogicError("the game is closed")

    def close(self) -> None:
        """Release the engine session; the game then answers nothing that needs it (``the game is closed``)."""
        if not self._closed:
            self._closed = True
            self.session.close()

    def __enter__(self) -> Game:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclass
class GameRecord:
    """One finished game: what ``solve`` prints."""

    rules: Rules
    secret: Code
    guesses: list[Entry]
    seconds: float
    backend: str
    strategy: str

    @property
    def attempts(self) -> int:
        return len(self.guesses)

    def as_dict(self) -> dict:
        """The contract's ``solve --json`` object."""
        lies = set(broken(self.rules, self.guesses, self.secret)) if self.rules.lies else set()
        return {
            "secret": format_code(self.secret, self.rules),
            "guesses": [{"guess": format_code(g, self.rules), **rule_of(self.rules).as_json(fb),
                         **({"lie": True} if i in lies else {})}
                        for i, (g, fb) in enumerate(self.guesses)],
            "attempts": self.attempts,
            "seconds": round(self.seconds, 3),  # milliseconds, as bench and the docs show
            "backend": self.backend,
            "strategy": self.strategy,
        }

    def summary(self) -> str:
        """The last line of ``solve``: how many guesses."""
        return plural(self.attempts, "guess")

    def text(self) -> str:
        """One line per guess with its feedback, then the number of guesses."""
        lies = set(broken(self.rules, self.guesses, self.secret)) if self.rules.lies else set()
        lines = [turn_line(i, entry, self.rules, lie=i - 1 in lies) for i, entry in enumerate(self.guesses, 1)]
        return "\n".join([*lines, self.summary()])


def codes_text(count: int, exact: bool) -> str:
    """``208 codes``, or ``at least 10,001 codes`` for a lower bound (:meth:`Game.remaining_within`)."""
    return plural(count, "code") if exact else f"at least {count:,} codes"


def turn_line(number: int, entry: Entry, rules: Rules, lie: bool = False) -> str:
    """One turn as ``solve`` prints it: number, guess, feedback (and ``(a lie)`` after a wrong answer)."""
    line = f"{number}  {format_code(entry[0], rules)}  {format_feedback(entry[1], rules)}"
    return line + "  (a lie)" if lie else line


def play(engine: Engine, strategy: Strategy, secret: Code, max_attempts: int | None = None,
         on_turn: Callable[[int, Entry], None] | None = None, liar: Liar | None = None) -> GameRecord:
    """Play one game against ``secret`` and return every guess with its feedback.

    ``on_turn(number, entry)`` is called after each guess (``solve`` prints it at once). With a
    ``liar`` (``--liar``), the codemaker answers some guesses wrongly, as it says.
    """
    answer = liar.answers(secret) if liar is not None else lambda guess: score(engine.rules, guess, secret)
    try:
        guesses, seconds = play_against(engine, strategy, answer, max_attempts, on_turn)
    except NoConsistentCode:
        edited = f" (does {engine.encoding.name} exclude it?)" if engine.encoding else ""
        raise EngineDisagreement(
            f"the {engine.name} engine found no consistent code, but the secret "
            f"{format_code(secret, engine.rules)} is one{edited}"
        ) from None
    return GameRecord(engine.rules, secret, guesses, seconds, engine.name, strategy.name)


def play_against(engine: Engine, strategy: Strategy, answer: Callable[[Code], Feedback],
                 max_attempts: int | None = None,
                 on_turn: Callable[[int, Entry], None] | None = None) -> tuple[list[Entry], float]:
    """Play one game against a codemaker, ``answer(guess) -> (black, white)``, until it answers
    all black; return the entries and the seconds the game took.

    The answers are trusted (a secret's, or a server's): a codemaker whose answers
    contradict each other ends the game with :class:`~mm_logic.support.errors.NoConsistentCode`.
    """
    limit = max_attempts or attempts_limit(engine.rules)
    start = time.perf_counter()
    with Game(engine, strategy) as game:
        while not game.won:
            if len(game.history) >= limit:
                raise NoProgress(f"no win after {limit} guesses; the strategy is not making progress")
            guess = game.suggest()
            entry = (guess, tuple(answer(guess)))
            game.record(*entry, check=False)
            if on_turn:
                on_turn(len(game.history), entry)
        return list(game.history), time.perf_counter() - start


@dataclass
class Suggestion:
    """The assistant's answer (``next``): the guess and how many codes remain.

    ``exact`` is False when there are more than the counting budget: ``consistent``
    is then a proven lower bound.
    """

    rules: Rules
    guess: Code
    consistent: int
    exact: bool = True
    #: The number (from 1) of the history entry that found the code, if one did.
    solved_by: int | None = None

    def as_dict(self) -> dict:
        """The contract's ``next --json`` object (with ``"solved": true`` once the code is found)."""
        guess = format_code(self.guess, self.rules)
        if self.solved_by is not None:
            return {"guess": guess, "consistent": 1, "solved": True}
        if self.exact:
            return {"guess": guess, "consistent": self.consistent}
        return {"guess": guess, "consistent": None, "consistent_at_least": self.consistent}

    def text(self) -> str:
        guess = format_code(self.guess, self.rules)
        if self.solved_by is not None:
            win = format_feedback(rule_of(self.rules).win(self.rules.pegs), self.rules)
            return f"{guess}  (solved: history entry {self.solved_by} scored {win})"
        return f"{guess}  ({codes_text(self.consistent, self.exact)} still possible)"


def advise(engine: Engine, strategy: Strategy, history: list[Entry], budget: int | None = None) -> Suggestion:
    """The next guess after ``history``; exit 3 naming a conflict when nothing fits.

    The codes still possible are counted exactly up to ``budget`` (default:
    the engine's ``count_budget``); beyond, the suggestion carries a lower
    bound, so huge games answer at once.
    """
    with Game(engine, strategy, history=history) as game:
        # The game is won once an entry scored all black: the code is that guess, whatever the
        # strategy would play next (if the history allows it).
        win = rule_of(engine.rules).win(engine.rules.pegs)
        won = [number for number, (_, fb) in enumerate(history, 1) if tuple(fb) == win]
        # The guess first, as `solve` would play it: on huge games the count that follows stops
        # after a while, and the solver's state with it.
        guess = None if won else game.suggest()
        count, exact = game.remaining_within(budget)
        if count == 0:
            raise engine.no_solution(history)
        if won:
            return Suggestion(engine.rules, history[won[0] - 1][0], 1, True, solved_by=won[0])
        return Suggestion(engine.rules, guess, count, exact)
