"""An edited encoding that states a feedback rule of the user's own, compared with the rule's module.

The module (``--feedback FILE.py``) is the rule's reference: every code an engine returns is
checked with it during play, which catches an encoding that admits a code it should not. An
encoding that wrongly *excludes* codes would only play worse, unnoticed; so when an engine is
made for such a rule, a few guesses are asked here, each with every feedback it can get, and
the encoding must admit exactly the codes the module gives that feedback (among the codes the
encoding admits at all: a variant may narrow the code space). A disagreement is one line naming
a guess, a code and the two feedbacks. In a game with lies (``--lies K``) the rules are compared
without them, on an engine of the same encoding made for that: a rule says what an answer is, and
an answer that may be a lie admits nearly every code whatever it says.
"""

from __future__ import annotations

import numpy as np

from ..codespace import code_space
from ..feedback import rule_of
from ..notation import format_code, format_feedback
from ..support.errors import BadInput
from .base import Engine

#: Largest code space checked (a few guesses, each with every feedback it gets: about a second).
MAX_CHECKED_CODES = 20_000
#: Guesses asked: the smallest code, the largest, and a few drawn (always the same ones).
DRAWN_GUESSES = 4

_checked: set[tuple] = set()


def check_encoding_states_rule(engine: Engine) -> None:
    """Refuse (:class:`BadInput`, one line) an edited encoding that disagrees with the game's rule module."""
    rules = engine.rules.truthful
    if rules.size > MAX_CHECKED_CODES or engine.encoding is None:
        return
    key = (engine.name, rules, str(engine.encoding), engine.encoding.stat().st_mtime_ns)
    if key in _checked:
        return
    if engine.rules.lies:
        # The same encoding without lies: the sessions below ask what each answer, told truly, admits.
        truthful = type(engine)(rules, encoding=engine.encoding, time_limit=engine.time_limit,
                                labeling=engine.labeling)
        try:
            _compare(truthful)
        finally:
            truthful.close()
    else:
        _compare(engine)
    _checked.add(key)


def _compare(engine: Engine) -> None:
    """One line where the encoding of ``engine`` (a game without lies) and the rule module disagree."""
    rules = engine.rules
    rule = rule_of(rules)
    space = code_space(rules)
    with engine.session() as session:
        admitted = set(session.consistent_indices().tolist())  # the variant's own codes
    drawn = np.random.default_rng(0).integers(space.size, size=DRAWN_GUESSES).tolist()
    for index in dict.fromkeys([0, space.size - 1, *drawn]):
        guess = space.code(index)
        told = space.feedback_to_all(guess)
        # The values the encoding gives each code: those under which it admits the code.
        given: dict[int, list[int]] = {}
        for value in np.unique(told).tolist():
            with engine.session([(guess, rule.from_index(value, rules.pegs))]) as session:
                session.checked_as = None  # this compares the answers itself
                for code in session.consistent_indices().tolist():
                    given.setdefault(code, []).append(value)
        for code in sorted(admitted):
            if given.get(code, []) != [int(told[code])]:
                said = " or ".join(format_feedback(rule.from_index(v, rules.pegs), rules) for v in given.get(code, []))
                raise BadInput(f"{engine.encoding} disagrees with {rule.name} on {format_code(guess, rules)} against "
                               f"{format_code(space.code(code), rules)}: {rule.name} gives "
                               f"{format_feedback(rule.from_index(int(told[code]), rules.pegs), rules)}, "
                               f"the encoding {said or 'no feedback it was asked'}")
