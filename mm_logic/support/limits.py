"""The ranges of the numbers the commands take, said once: the command line's options declare them from here
(``--games`` is ``Integer(1, MAX_GAMES)``), and the library (:mod:`mm_logic.library`) checks its keyword
arguments against the same ranges, in the command line's words (``--games 10 is not in the range 1<=x<=5``).

Nothing here imports more than the errors: the command line reads it at start-up.
"""

from __future__ import annotations

import math
import numbers

from .errors import SHOWN, BadInput, shown, shown_number

#: The most games ``bench --games`` and ``--spaced``, and ``compare --games``, play: each secret is listed before
#: the first game (1,000,000 codes of 64 pegs take 0.5 GB), and a million games take hours already.
MAX_GAMES = 1_000_000
#: The most guesses ``static --guesses K`` asks about: as many as the largest game static searches has codes
#: (``mm_logic.static.search.MAX_CODES``, not imported at start-up; a test keeps them equal), which always do.
MAX_GUESSES = 4096
#: The most entries ``puzzle --entries N`` draws: a puzzle of more is no puzzle for a person, and a draw of 10**8
#: took 20 s and 1 GB for each of its --tries.
MAX_ENTRIES = 1000
#: The most histories ``puzzle --tries`` draws before it gives up.
MAX_TRIES = 100_000
#: The most puzzles one set holds (``puzzle --count``, ``mm_logic.puzzle_set``).
MAX_COUNT = 100_000


def given(value) -> str:
    """A value a caller passed, as a message quotes it: a text by :func:`shown`, a whole number by
    :func:`shown_number`, anything else by its ``repr`` cut as :func:`shown` cuts a text.

    >>> given("x"), given(7), given(2.5), given(None)
    ("'x'", '7', '2.5', 'None')
    """
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return shown_number(value)
    try:
        text = repr(value)
    except ValueError:  # it holds an int of more digits than Python writes
        return f"a {type(value).__name__}"
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}... ({len(text):,} characters)"


def is_whole(value) -> bool:
    """Whether ``value`` is a whole number (a numpy integer too), not True or False (``bool`` is an ``int`` in
    Python; the JSON readers refuse it as a count too)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def whole(value, option: str, low: int, high: int | None = None) -> int:
    """``value`` as the whole number ``option`` (``--games``) takes, ``low <= value <= high`` (no maximum when
    ``high`` is None); else one :class:`BadInput` line in click's words for the option.

    >>> whole(3, "--games", 1, 10)
    3
    >>> whole(0, "--games", 1, 10)
    Traceback (most recent call last):
    ...
    mm_logic.support.errors.BadInput: --games 0 is not in the range 1<=x<=10
    """
    if not is_whole(value):
        raise BadInput(f"{option} {given(value)} is not a valid integer")
    if value < low or (high is not None and value > high):
        limits = f"x>={low}" if high is None else f"{low}<=x<={high}"
        raise BadInput(f"{option} {shown_number(value)} is not in the range {limits}")
    return int(value)


def seconds(value, option: str) -> float:
    """``value`` as a number of seconds above 0 (``--time-limit``); nan, infinity, a text or True are one
    :class:`BadInput` line, as the command line's ``Seconds`` words them.

    >>> seconds(2, "--time-limit")
    2.0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise BadInput(f"{option} {given(value)} is not a number of seconds")
    if value <= 0:
        raise BadInput(f"{option} {given(value)} is not in the range x>0")
    return float(value)
