"""The terminal game, both roles.

:func:`play_codebreaker`: a person guesses, the game's secret answers.
:func:`play_codemaker`: the computer guesses the code a person keeps in mind,
from the black/white answers typed.

Each loop reads one line per turn; whatever it cannot use is explained on one
line and the person types again, so nothing typed is lost. Both drive a
:class:`~mm_logic.game.Game` and so run on any engine and strategy.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

from ..feedback import rule_of, score
from ..game import Game, codes_text
from ..notation import (
    Code,
    Entry,
    check_feedback,
    format_code,
    format_feedback,
    parse_code,
    plural,
    read_feedback,
    shown,
)
from ..rules import Rules
from ..support.errors import BadInput, MMLogicError, NoConsistentCode

#: Words that end the game.
QUIT = ("quit", "exit", "q")
HELP = ("help", "h")


def help_text(game: Game, assisted: bool = True) -> str:
    """What can be typed, in the game's own notation (without ``assisted``, as in a duel: no ``?``,
    ``hint`` or ``undo``)."""
    rules = game.rules
    example = tuple(c % rules.colors for c in range(rules.pegs))
    spaced = " ".join(format_code((c,), rules) for c in example)
    helpers = ("? how many codes are still possible; hint the computer's guess; undo takes your last guess back; "
               if assisted else "")
    return (f"type a code of {plural(rules.pegs, 'peg')}, e.g. {format_code(example, rules)} or {spaced}; "
            f"{helpers}quit (or q) to give up; "
            "a line that is a code is played as a guess, even one that spells a command")


def is_code(text: str, rules: Rules) -> bool:
    """Whether ``text`` reads as a code of ``rules`` (then it is a guess, not a command)."""
    try:
        parse_code(text, rules)
    except BadInput:
        return False
    return True


def codes_left(game: Game) -> str:
    """How many codes are still possible, exact when the count is quick ("at least N" beyond, as
    ``next`` says it: an exact count of a huge game would take hours)."""
    return codes_text(*game.remaining_within())


Busy = Callable[[str], AbstractContextManager]


def quiet(_label: str) -> AbstractContextManager:
    """No sign of work: the default ``busy`` of the loops below."""
    return nullcontext()


def take_back(game: Game, say: Callable[[str], None]) -> None:
    """``undo`` in either role: the last entry of the history taken back (a guess and its
    feedback, or an answer), and said; ``nothing to undo`` before the first."""
    if not game.history:
        say("nothing to undo")
        return
    played, given = game.undo()
    say(f"took back {format_code(played, game.rules)} {format_feedback(given, game.rules)}")


def play_codebreaker(game: Game, ask: Callable[[str], str | None], say: Callable[[str], None],
                     max_guesses: int | None = None, busy: Busy = quiet, assisted: bool = True) -> int:
    """Let a person find the game's secret; returns the exit code (0: the game ended).

    ``ask(prompt)`` returns the line typed, or None at the end of input
    (Ctrl-D); ``say(text)`` prints one line of the game. ``?`` says how many
    codes are still possible, ``hint`` what the strategy would play, ``undo``
    takes the last guess back (it counts no more), ``help`` what can be typed,
    ``quit`` gives up. ``busy(label)`` is entered around
    the engine's work (the command line's spinner). Without ``assisted`` (a duel,
    where the guesses are the score) ``?``, ``hint`` and ``undo`` are refused.
    """
    rules = game.rules
    alphabet = rules.alphabet[: rules.colors] if rules.symbolic else f"0..{rules.colors - 1}"
    say(f"Find the code of {plural(rules.pegs, 'peg')} over {alphabet} ({rules.describe()}). Type help for help.")
    if rules.lies:
        say(f"At most {plural(rules.lies, 'answer')} may be wrong; the win is always told.")
    if game.adversary:
        say("The computer keeps no secret: each answer is the one that leaves the most codes possible.")
    while max_guesses is None or len(game.history) < max_guesses:
        text = ask(f"guess {len(game.history) + 1}")
        if text is None:
            break
        text = text.strip()
        if not text:
            continue
        command = None if is_code(text, rules) else text.lower()
        if command in QUIT:
            break
        if command in HELP:
            say(help_text(game, assisted))
            continue
        if not assisted and command in ("?", "hint", "undo"):
            # The opponent's strategy must not guess for the person, nor a seen answer be taken back.
            say(f"no {command} in a duel: every guess counts; type a code")
            continue
        if command == "undo":  # as the codemaker's undo: a mistyped guess need not stand
            take_back(game, say)
            continue
        if command in ("?", "hint"):
            try:
                with busy("thinking"):
                    left = codes_left(game)
                    guess = game.suggest() if command == "hint" else None
                say(f"try {format_code(guess, rules)} ({left} still possible)" if command == "hint"
                    else f"{left} still possible")
            except MMLogicError as error:
                say(f"cannot answer: {error}")
            continue
        try:
            guess = parse_code(text, rules)
        except BadInput as error:
            say(f"{error}; try again (help for help)")
            continue
        if game.adversary:
            try:
                with busy("thinking"):  # it lists the codes still possible
                    fb = game.score(guess)
            except MMLogicError as error:
                say(f"cannot answer: {error}")
                continue
        else:
            fb = game.score(guess)
        game.record(guess, fb, check=False)
        say(f"{format_code(guess, rules)}  {format_feedback(fb, rules)}")
        if game.won:
            say(f"found in {plural(len(game.history), 'guess')}")
            for line in contradicted_answers(game.history, game.secret, rules) if rules.lies and game.secret else ():
                say(line.replace("you said", "I said"))  # the lies told, once the game is over
            return 0
    if max_guesses is not None and len(game.history) >= max_guesses:
        say(f"out of guesses (--max-guesses {max_guesses})")
    if game.adversary:
        try:
            with busy("thinking"):
                kept = game.shown_secret()
        except MMLogicError as error:
            say(f"cannot show a code: {error}")
        else:
            say(f"no secret was kept; {format_code(kept, rules)} fits every answer")
    else:
        say(f"the secret was {format_code(game.secret, rules)}")
        for line in contradicted_answers(game.history, game.secret, rules) if rules.lies else ():
            say(line.replace("you said", "I said"))  # the lies told, once the game is over
    return 0


def parse_answer(text: str, rules) -> tuple[int, int]:
    """A person's feedback: ``B,W`` or ``B W`` (black, white), checked against the rules.

    >>> from mm_logic.rules import Rules
    >>> parse_answer("1 2", Rules()), parse_answer(" 0,0 ", Rules())
    ((1, 2), (0, 0))
    """
    answer = read_feedback(text, rules)  # the reader of next's GUESS:FEEDBACK too
    if answer is None:
        raise BadInput(f"{shown(text.strip())} is not an answer: type {rule_of(rules).typed}")
    return check_feedback(answer, rules)


def contradicted_answers(history: list[Entry], secret: Code, rules: Rules) -> list[str]:
    """The answers of ``history`` that ``secret`` contradicts, one line each.

    >>> contradicted_answers([((0, 0, 1, 1), (1, 1)), ((0, 1, 2, 3), (0, 0))], (0, 1, 4, 5), Rules())
    ['answer 2 was wrong: 0123 gets 2,0, you said 0,0']
    """
    lines = []
    for number, (guess, given) in enumerate(history, 1):
        right = score(rules, guess, secret)
        if right != given:
            lines.append(f"answer {number} was wrong: {format_code(guess, rules)} gets "
                         f"{format_feedback(right, rules)}, you said {format_feedback(given, rules)}")
    return lines


def fewest_changes(game: Game, refused: Entry, busy: Busy = quiet) -> str:
    """The diagnosis of the answers with the one refused (:func:`mm_logic.diagnosis.diagnose`): the fewest
    answers to change, this one among them, and to what; one line."""
    from ..diagnosis import diagnose

    try:
        with busy("diagnosing"):
            found = diagnose(game.engine, [*game.history, refused])
    except MMLogicError as error:  # a time limit: the refusal above stands alone
        return f"(no diagnosis: {error})"
    return f"fewest changes: {found.text('answer')}"


def play_codemaker(game: Game, ask: Callable[[str], str | None], say: Callable[[str], None],
                   max_guesses: int | None = None, busy: Busy = quiet, honesty: list[bool] | None = None) -> int:
    """The computer guesses the code a person keeps in mind; returns the exit code (0).

    Each guess is answered with ``B,W`` (or ``B W``). An answer that no code
    could give together with the earlier ones is refused at once, naming the
    answers it conflicts with, and the history stays as it was: type the
    right answer, or ``undo`` to take the previous one back. ``quit`` (or
    Ctrl-D) gives up; the person may then type the code, and the answers it
    contradicts are shown. ``busy(label)`` is entered around the engine's
    work (the command line's spinner). ``honesty``, a list, gets whether the
    code typed at the end fits every answer (a duel's extra point).
    """
    rules = game.rules
    alphabet = rules.alphabet[: rules.colors] if rules.symbolic else f"0..{rules.colors - 1}"
    rule = rule_of(rules)
    answer_with = rule.answer_with or rule.typed
    say(f"Think of a code of {plural(rules.pegs, 'peg')} over {alphabet} ({rules.describe()}); I guess it. "
        f"Answer each guess with {answer_with}; undo takes your last answer back; help for help.")
    while max_guesses is None or len(game.history) < max_guesses:
        with busy("thinking"):
            guess = game.suggest()  # an engine that fails here is the command's error (stderr, its exit code)
        text = ask(f"guess {len(game.history) + 1}: {format_code(guess, rules)}  {rule.prompt}")
        if text is None or text.strip().lower() in QUIT:
            break
        text = text.strip()
        if not text:
            continue
        if text.lower() in HELP:
            say(f"type {rule.explained}; undo takes your last answer back; quit to stop")
            continue
        if text.lower() == "undo":
            take_back(game, say)
            continue
        try:
            answer = parse_answer(text, rules)
            with busy("checking the answers"):
                game.record(guess, answer)
        except BadInput as error:
            say(f"{error}; try again (help for help)")
            continue
        except NoConsistentCode as error:
            say(f"{error}; type the right answer for {format_code(guess, rules)}, or undo")
            if not rules.lies:  # with lies allowed, a diagnosis would count them as wrong
                say(fewest_changes(game, (guess, answer), busy))
            continue
        if game.won:
            say(f"found your code in {plural(len(game.history), 'guess')}")
            return 0
    if max_guesses is not None and len(game.history) >= max_guesses:
        say(f"out of guesses (--max-guesses {max_guesses})")
    while True:  # a typo in the code is explained and asked again, as every other line is
        text = ask("what was your code? (Enter to skip)")
        if text is None or not text.strip():
            return 0
        try:
            secret = parse_code(text, rules)
        except BadInput as error:
            say(f"{error}; try again (Enter to skip)")
            continue
        wrong = contradicted_answers(game.history, secret, rules)
        for line in wrong or ["every answer was right"]:
            say(line)
        if honesty is not None:  # the duel's extra point
            honesty.append(not wrong)
        return 0
