"""The secrets: which codes the codemaker keeps, game by game.

One secret for ``solve`` and ``play`` (:func:`chosen_secret`: the user's, or a
random one), many for a bench (:func:`bench_secrets`: random, evenly spaced,
or every one); an edited encoding's game draws among the codes it admits.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .codespace import MAX_CODES, code_space
from .engines.base import Engine
from .feedback import rule_of
from .notation import Code, amount, parse_code
from .randomness import random_code
from .rules import Rules
from .support.errors import BadInput, WrongAnswer


def random_secrets(rules: Rules, games: int, seed: int | None) -> list[Code]:
    """``games`` uniformly random secrets, reproducible with ``seed``."""
    rng = np.random.default_rng(seed)
    return [random_code(rules, rng) for _ in range(games)]


def secret_indices(engine: Engine) -> np.ndarray:
    """Positions in the code space of every secret of the engine's game, increasing: every code,
    or only those an edited encoding admits (``examples/palindrome.lp``: 36 of 1,296). Raises
    :class:`~mm_logic.support.errors.NoConsistentCode` when it admits none."""
    space = code_space(engine.rules)
    if not engine.edited:
        return np.arange(space.size)
    indices = space.index_of(engine.enumerate([]))
    if indices.size == 0:
        raise engine.no_solution([])
    return indices


#: Largest space whose edited encoding's codes are listed to draw secrets from (uniform); beyond,
#: each secret is the engine's random consistent code (listing millions of codes through a solver
#: would take minutes).
LISTED_SECRETS = 100_000


def game_secrets(engine: Engine, games: int, seed: int | None) -> list[Code]:
    """``games`` uniformly random secrets of the engine's game, reproducible with ``seed``: as
    :func:`random_secrets`, or drawn among the codes an edited encoding admits (a secret it
    excludes could never be found; beyond :data:`LISTED_SECRETS` codes, as the engine's
    ``random`` draws them)."""
    rules = engine.rules
    if not engine.edited:
        return random_secrets(rules, games, seed)
    rng = np.random.default_rng(seed)
    if rules.size <= LISTED_SECRETS:
        indices = secret_indices(engine)
        space = code_space(rules)
        return [space.code(int(i)) for i in rng.choice(indices, size=games)]
    with engine.session() as session:
        drawn = [session.random(rng) for _ in range(games)]
    if drawn and drawn[0] is None:
        raise engine.no_solution([])
    return drawn


def spaced_secrets(rules: Rules, games: int) -> list[Code]:
    """``games`` secrets evenly spaced over the code space in lexicographic order.

    Secret ``i`` is the code of index ``i * (size // games)`` (peg 1 most
    significant), the protocol of published large-game figures (e.g. 1000
    secrets of 16x6). Colours must be allowed to repeat, so that an index is
    just a number in base ``colors``.

    Examples
    --------
    >>> spaced_secrets(Rules(2, 3), 3)
    [(0, 0), (1, 0), (2, 0)]
    """
    if rules.restricted:
        raise BadInput("evenly spaced secrets need colours that may repeat (no --no-repeat, --max-repeat)")
    step = rules.size // games
    if step == 0:
        raise BadInput(f"{games} evenly spaced secrets need a code space of at least {games} codes, "
                       f"{rules.describe()} has {rules.size}")
    pegs, colors = rules.pegs, rules.colors
    return [tuple((i * step // colors ** (pegs - 1 - p)) % colors for p in range(pegs))
            for i in range(games)]


def check_every_secret(rules: Rules) -> None:
    """Refuse to play every secret of a space no engine lists code by code (before any game)."""
    if rules.size > MAX_CODES:
        raise BadInput(f"--all: {rules.describe()} has {amount(rules.size)} codes; use --games N")


def every_secret(rules: Rules) -> list[Code]:
    """Every code of the rules, in lexicographic order, as a list of codes (refused as
    :func:`check_every_secret` says)."""
    check_every_secret(rules)
    space = code_space(rules)
    return [space.code(i) for i in range(space.size)]


def chosen_secret(text: str | None, engine: Engine, seed: int | None, remote: bool = False,
                  name: str = "--secret", variant: str | None = None) -> Code | None:
    """The code the user gave (``text``), or a random one of the engine's game (an edited encoding's
    codes), reproducible with ``seed``.

    For a game against a server (``remote``) that plays the rules' game, the code given or None: the
    server draws it (from ``seed``). With an edited encoding the server, which plays the rules' game,
    is given one of the encoding's codes, checked or drawn here (as ``bench --server`` gives it its
    secrets). ``name``: the option or field that gave ``text``, as messages name it; ``variant``: what they
    call the game as written (default: the edited file's name).
    """
    if remote and not engine.edited:
        return parse_code(text, engine.rules) if text is not None else None
    if text is None:
        return game_secrets(engine, 1, seed)[0]
    secret = parse_code(text, engine.rules)
    # A code the edited game excludes could never be found: said now, not after the guesses.
    if engine.edited:
        try:
            admitted = engine.first([(secret, rule_of(engine.rules).win(engine.rules.pegs))]) is not None
        except WrongAnswer as error:  # the encoding is wrong, not the secret
            raise WrongAnswer(f"{error} (asked whether it admits {name} {text})") from None
        if not admitted:
            variant = variant or Path(engine.encoding or engine.rules.feedback).name
            raise BadInput(f"{name} {text} is excluded by {variant} (the game's secrets are the codes it admits)")
    return secret


def bench_secrets(engine: Engine, games: int | None, spaced: int | None, seed: int | None,
                  remote: bool = False) -> tuple[list[Code] | None, np.ndarray | None]:
    """A bench's secrets: ``games`` random ones, ``spaced`` evenly spaced ones, or (both None) every
    secret of the engine's game.

    Returns ``(codes, None)``, or ``(None, indices)`` for every secret played in
    this process (positions in the code space, as :func:`secret_indices`: the
    bench plays them as one tree). Against a server (``remote``) every secret is
    listed as codes, one remote game each.
    """
    if spaced is not None:
        return spaced_secrets(engine.rules, spaced), None
    if games is not None:
        return game_secrets(engine, games, seed), None
    if remote:
        return every_secret(engine.rules), None
    check_every_secret(engine.rules)
    return None, secret_indices(engine)
