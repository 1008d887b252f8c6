"""The terminal game: a person guesses, the game's secret answers.

The loop reads one line per turn; whatever it cannot use is explained on one
line and the person types again, so nothing typed is lost. It drives a
:class:`~mm_logic.game.Game` and so runs on any engine.
"""

from __future__ import annotations

from collections.abc import Callable

from .errors import BadInput, MMLogicError
from .game import Game, plural
from .notation import format_code, format_feedback, parse_code

#: Words that end the game.
QUIT = ("quit", "exit", "q")
HELP = ("help", "h")


def help_text(game: Game) -> str:
    """What can be typed, in the game's own notation."""
    rules = game.rules
    example = tuple(c % rules.colors for c in range(rules.pegs))
    spaced = " ".join(format_code((c,), rules) for c in example)
    return (f"type a code of {rules.pegs} pegs, e.g. {format_code(example, rules)} or {spaced}; "
            "? how many codes are still possible; hint the computer's guess; quit to give up")


def play_codebreaker(game: Game, ask: Callable[[str], str | None], say: Callable[[str], None],
                     max_guesses: int | None = None) -> int:
    """Let a person find the game's secret; returns the exit code (0: the game ended).

    ``ask(prompt)`` returns the line typed, or None at the end of input
    (Ctrl-D); ``say(text)`` prints one line of the game. ``?`` says how many
    codes are still possible, ``hint`` what the strategy would play, ``help``
    what can be typed, ``quit`` gives up.
    """
    rules = game.rules
    alphabet = rules.alphabet[: rules.colors] if rules.symbolic else f"0..{rules.colors - 1}"
    say(f"Find the code of {rules.pegs} pegs over {alphabet} ({rules.describe()}). Type help for help.")
    while max_guesses is None or len(game.history) < max_guesses:
        text = ask(f"guess {len(game.history) + 1}")
        if text is None:
            break
        text = text.strip()
        if text.lower() in QUIT:
            break
        if not text:
            continue
        if text.lower() in HELP:
            say(help_text(game))
            continue
        if text in ("?", "hint"):
            try:
                left = plural(game.remaining(), "code")
                say(f"try {format_code(game.suggest(), rules)} ({left} still possible)" if text == "hint"
                    else f"{left} still possible")
            except MMLogicError as error:
                say(f"cannot answer: {error}")
            continue
        try:
            guess = parse_code(text, rules)
        except BadInput as error:
            say(f"{error}; try again (help for help)")
            continue
        fb = game.score(guess)
        game.record(guess, fb, check=False)
        say(f"{format_code(guess, rules)}  {format_feedback(fb)}")
        if game.won:
            say(f"found in {plural(len(game.history), 'guess')}")
            return 0
    say(f"the secret was {format_code(game.secret, rules)}")
    return 0
