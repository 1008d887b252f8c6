"""The duel: a person and the computer take turns as codebreaker and codemaker over an even
number of rounds, with a running score.

Each round is one of the terminal games of :mod:`.play`, unchanged: in odd rounds the person
breaks the computer's code (:func:`~.play.play_codebreaker`, without ``?``, ``hint`` or
``undo``), in even rounds the computer breaks the code the person keeps in mind
(:func:`~.play.play_codemaker`). The score is the board game's (Wikipedia, "Mastermind (board
game)", *Gameplay and rules*): the codemaker scores one point for each guess the codebreaker
makes, and one more when the code is not broken within the agreed number of guesses (the
board's rows); the players agree on an even number of games, so each makes as many codes as
it breaks, and the most points win.

Two cases the board game leaves open are settled so that giving up never pays: a person who
gives up breaking a code scores the computer as for a code not broken (the limit and the
extra point); a person who stops the computer breaking theirs scores the guesses made so
far, without the extra point; and the extra point for a code the computer did not break goes
only to a person who then shows it, with every answer right for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engines.base import Engine
from ..game import Game
from ..notation import Code, plural
from ..strategies.base import Strategy
from .play import Busy, play_codebreaker, play_codemaker, quiet

#: Guesses a codebreaker has in a duel unless told (``--max-guesses``): the rows of the common
#: boards (ten, as the 1970s' Invicta board; others have 8 or 12).
BOARD_ROWS = 10


@dataclass(frozen=True)
class Round:
    """One round of a duel, as it ended.

    ``person_breaks``: the person was the codebreaker; ``guesses``: the guesses the codebreaker
    made; ``broken``: the code was found; ``limit``: the guesses allowed; ``honest``, for the
    person's code the computer did not break: True when the person showed it and every answer
    was right, False when an answer was wrong, None when the code was not shown.
    """

    number: int
    person_breaks: bool
    guesses: int
    broken: bool
    limit: int
    honest: bool | None = True

    @property
    def points(self) -> int:
        """The codemaker's points: one per guess, and one more for a code not broken in time.

        >>> Round(1, True, 5, True, 10).points, Round(2, False, 10, False, 10).points
        (5, 11)
        >>> Round(1, True, 3, False, 10).points, Round(2, False, 3, False, 10).points  # given up, stopped
        (11, 3)
        >>> Round(2, False, 10, False, 10, honest=False).points  # an answer was wrong: no extra point
        10
        """
        if self.broken:
            return self.guesses
        if self.person_breaks:  # a person who gives up loses as if out of guesses
            return self.limit + 1
        if self.guesses >= self.limit and self.honest:
            return self.limit + 1
        # The person stopped the computer, or its code was not shown or not the one answered for.
        return self.guesses

    def line(self) -> str:
        """The round's result, one line: who scores what, and why.

        >>> Round(1, True, 5, True, 10).line()
        'round 1: the computer scores 5 (you broke its code in 5 guesses)'
        >>> Round(2, False, 3, False, 10).line()
        'round 2: you score 3 (you stopped the computer after 3 guesses: no extra point)'
        """
        maker = "you score" if not self.person_breaks else "the computer scores"
        if self.broken:
            why = (f"you broke its code in {plural(self.guesses, 'guess')}" if self.person_breaks
                   else f"the computer broke your code in {plural(self.guesses, 'guess')}")
        elif self.guesses >= self.limit and not self.person_breaks and not self.honest:
            unfit = "not shown" if self.honest is None else "your answers did not fit it"
            why = f"your code not broken in {plural(self.limit, 'guess')}, but {unfit}: no extra point"
        elif self.guesses >= self.limit:
            whose = "its" if self.person_breaks else "your"
            why = f"{whose} code not broken in {plural(self.limit, 'guess')}: {self.limit} and 1 more"
        elif self.person_breaks:
            why = f"you gave up: {self.limit} and 1 more, as for a code not broken"
        else:
            why = f"you stopped the computer after {plural(self.guesses, 'guess')}: no extra point"
        return f"round {self.number}: {maker} {self.points} ({why})"


def standing(person: int, computer: int, finished: bool) -> str:
    """The last line of a duel: who won (``finished``), or who leads.

    >>> standing(6, 5, True), standing(4, 5, True), standing(5, 5, True)
    ('you win the duel, 6 to 5', 'the computer wins the duel, 5 to 4', 'the duel is a draw, 5 to 5')
    >>> standing(0, 5, False)
    'the computer leads, 5 to 0'
    """
    high, low = max(person, computer), min(person, computer)
    if person == computer:
        return f"the duel is a draw, {high} to {low}" if finished else f"level, {high} to {low}"
    if finished:
        return f"{'you win' if person > computer else 'the computer wins'} the duel, {high} to {low}"
    return f"{'you lead' if person > computer else 'the computer leads'}, {high} to {low}"


def play_duel(engine: Engine, strategy: Strategy, secrets: Sequence[Code], ask: Callable[[str], str | None],
              say: Callable[[str], None], rounds: int = 2, max_guesses: int | None = None,
              busy: Busy = quiet) -> int:
    """A duel of ``rounds`` rounds (even); returns the exit code (0: the duel ended).

    ``secrets``: the computer's codes, one for each round the person breaks (rounds 1, 3, ...);
    ``ask``, ``say`` and ``busy`` as :func:`~.play.play_codebreaker` takes them; ``max_guesses``:
    the guesses a codebreaker has (default :data:`BOARD_ROWS`). After each round, its points and
    the score; at the end, who won. The end of input (Ctrl-D) ends the round as ``quit`` does,
    and the duel with it: the last line then says who leads.
    """
    limit = BOARD_ROWS if max_guesses is None else max_guesses
    say(f"A duel of {plural(rounds, 'round')} ({engine.rules.describe()}): you break the computer's code, then it "
        f"breaks yours, in turn. The codemaker scores a point per guess, and 1 more for a code not broken in "
        f"{plural(limit, 'guess')}; the most points win.")
    ended = False

    def asked(prompt: str) -> str | None:
        nonlocal ended
        text = ask(prompt)
        ended = ended or text is None  # no more input: no more rounds either
        return text

    person = computer = 0
    for number in range(1, rounds + 1):
        person_breaks = number % 2 == 1
        say(f"round {number} of {rounds}: " + ("you break the computer's code" if person_breaks
                                                else "the computer breaks your code"))
        if person_breaks:
            with Game(engine, strategy, secret=secrets[number // 2]) as game:
                play_codebreaker(game, asked, say, limit, busy=busy, assisted=False)
                played = Round(number, True, len(game.history), game.won, limit)
            computer += played.points
        else:
            with Game(engine, strategy) as game:
                shown: list[bool] = []  # whether the code the person shows fits every answer
                play_codemaker(game, asked, say, limit, busy=busy, honesty=shown)
                played = Round(number, False, len(game.history), game.won, limit, shown[0] if shown else None)
            person += played.points
        say(played.line())
        say(f"score after round {number} of {rounds}: you {person}, the computer {computer}")
        if ended and number < rounds:
            say(f"the duel stopped after round {number} of {rounds}: {standing(person, computer, False)}")
            return 0
    say(standing(person, computer, True))
    return 0
