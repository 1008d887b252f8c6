"""The terminal game: a person guesses, the game's secret answers.

The loop reads one line per turn; whatever it cannot use is explained on one
line and the person types again, so nothing typed is lost. It drives a
:class:`~mm_logic.game.Game` and so runs on any engine.
"""

from __future__ import annotations

from typing import Callable

from .errors import BadInput, MMLogicError
from .game import Game
from .notation import format_code, format_feedback, parse_code

#: Words that end the game.
QUIT = ("quit", "exit")


def play_codebreaker(game: Game, ask: Callable[[str], str | None], say: Callable[[str], None],
                     max_guesses: int | None = None) -> int:
    """Let a person find the game's secret; returns the exit code (0 found, 1 not).

    ``ask(prompt)`` returns the line typed, or None at the end of input;
    ``say(text)`` prints one line of the game. ``?`` says how many codes are
    still possible, ``hint`` what the strategy would play, ``quit`` gives up.
    """
    rules = game.rules
    alphabet = rules.alphabet[: rules.colors] if rules.symbolic else f"0..{rules.colors - 1}"
    say(f"Find the code of {rules.pegs} pegs over {alphabet} ({rules.describe()}).")
    while max_guesses is None or len(game.history) < max_guesses:
        text = ask(f"guess {len(game.history) + 1}")
        if text is None:
            break
        text = text.strip()
        if text in QUIT:
            break
        if text == "hint":
            try:
                say(f"try {format_code(game.suggest(), rules)} ({game.remaining()} codes still possible)")
            except MMLogicError as error:
                say(f"no hint: {error}")
            continue
        if text == "?":
            try:
                say(f"{game.remaining()} codes still possible")
            except MMLogicError as error:
                say(f"cannot count: {error}")
            continue
        try:
            guess = parse_code(text, rules)
        except BadInput as error:
            say(f"{error}; try again")
            continue
        fb = game.score(guess)
        game.record(guess, fb, check=False)
        say(f"{format_code(guess, rules)}  {format_feedback(fb)}")
        if game.won:
            say(f"found in {len(game.history)} guesses")
            return 0
    say(f"the secret was {format_code(game.secret, rules)}")
    return 1
