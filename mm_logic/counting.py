"""How many codes of the rules a history leaves, counted without listing them.

The count behind ``next``, play's ``?`` and every hint is a question about the
rules: wherever the python engine could enumerate the space (at most
:data:`~mm_logic.codespace.MAX_CODES` codes) it is answered here, exactly and
at once, whichever engine plays (an edited encoding, whose codes are its own,
is counted by its engine). A compiled depth-first search sets the pegs in
order and keeps, for every history entry, the black pegs and the common
colours so far: a branch is cut as soon as an entry's count has overshot, or
can no longer be reached with the pegs left (each peg adds at most one of
each). So it visits little more than the consistent codes and their
prefixes, in constant memory: 8x8 after one guess (2.6 million codes) in a
tenth of a second, where listing the space took 9 s and 1 GB.

The search runs one first colour at a time, so that Ctrl-C gets through
between two calls of the kernel (:func:`mm_logic.kernels.counting.count_from`).
"""

from __future__ import annotations

import numpy as np

from .codespace import MAX_CODES, code_space
from .feedback import colour_counts, rule_of
from .feedback.rule import PEGS_AND_COLOURS
from .notation import Entry
from .rules import Rules


def countable(rules: Rules) -> bool:
    """Whether :func:`count_consistent` answers for these rules (the python engine's spaces)."""
    return rules.size <= MAX_CODES


def count_consistent(rules: Rules, history: list[Entry]) -> int:
    """The number of valid codes of ``rules`` that give every entry of ``history`` its feedback.

    >>> count_consistent(Rules(4, 6), [((0, 0, 1, 1), (1, 0)), ((2, 3, 4, 5), (0, 2))])
    60
    """
    admitted = rule_of(rules).admitted_codes()
    if admitted is not None and not rules.lies:
        # A rule stated in an encoding that narrows the code space: its codes, filtered by the python engine's own.
        return int(code_space(rules).consistent(history, admitted).size)
    if not history:
        return rules.size
    if rules.lies:  # the codes that break at most that many entries (mm_logic.lies)
        from .lies import possible_indices
        return int(possible_indices(rules, history)[0].size)
    # numba (0.2-0.5 s) only where a count is asked: commands that count nothing, such as optimal, start without it.
    from .kernels.counting import count_from
    if rule_of(rules).kernel != PEGS_AND_COLOURS:
        # The search below cuts on black pegs and common colours: the other rules filter the listed codes,
        # with the python engine's own filter.
        return int(code_space(rules).consistent(history).size)
    guesses = np.array([guess for guess, _ in history], dtype=np.int64).reshape(len(history), rules.pegs)
    offered = colour_counts(guesses, rules.colors).astype(np.int64)  # pegs of each colour each guess offers
    blacks = np.array([black for _, (black, _) in history], dtype=np.int64)
    common = np.array([black + white for _, (black, white) in history], dtype=np.int64)
    return sum(count_from(first, rules.pegs, rules.colors, rules.repeat_limit, guesses, offered, blacks, common)
               for first in range(rules.colors))
