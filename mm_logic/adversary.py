"""A codemaker that keeps no secret: each guess gets the answer that leaves the most codes possible.

Knuth's worst case made playable, as Absurdle does for Wordle. The codemaker
never commits to a code: it splits the codes still consistent with its
answers by the feedback the guess would get from each
(:func:`mm_logic.split.split_codes`, the game's own feedback rule) and
answers with the feedback of the largest part. Ties go to a feedback that
does not end the game, then to the first in the rule's feedback order (for
black and white: fewest black pegs, then fewest white). So the game ends only
when the guess is the one code left; every answer is one some code gives, and
a code consistent with all of them exists at every moment: the one shown when
the codebreaker gives up.

>>> from mm_logic.engines.reference import ReferenceEngine
>>> from mm_logic.rules import Rules
>>> engine = ReferenceEngine(Rules(4, 6))
>>> adversarial_answer(engine, [], (0, 0, 1, 1))   # Knuth's opening: 0,0 0,1 and 1,0 keep 256 codes each
(0, 0)
>>> adversarial_answer(engine, [((0, 0, 1, 1), (0, 0))], (2, 2, 3, 4))   # 46 of the 256
(1, 1)
"""

from __future__ import annotations

from .engines.base import Engine
from .feedback import rule_of
from .notation import Code, Entry, Feedback, amount
from .rules import Rules
from .split import split_codes, split_limit
from .support.errors import BadInput


def check_adversary(rules: Rules, engine: type[Engine], edited: bool = False) -> None:
    """Refuse a game the adversary cannot answer on ``engine`` (an engine class): it lists the codes still
    possible at every guess, and at the first guess every code is (an ``edited`` encoding's are counted then)."""
    limit = split_limit(engine)  # an engine class's count_budget is the one its engines have
    if not edited and rules.size > limit:
        raise BadInput(f"the adversary lists the codes still possible, at most {amount(limit)} on the "
                       f"{engine.name} engine, and {rules.describe()} has {amount(rules.size)}: "
                       "play a smaller game, or with a secret")


def adversarial_answer(engine: Engine, history: list[Entry], guess: Code) -> Feedback:
    """The answer to ``guess`` that keeps the most codes consistent with ``history`` and it.

    Raises what :func:`~mm_logic.split.split_codes` raises: no code fits the
    history (never, for answers this function gave), or more codes are
    possible than the engine lists (a huge game's first guesses).
    """
    split = split_codes(engine, guess, history)
    win = rule_of(engine.rules).win(engine.rules.pegs)
    # max() keeps the first of equal keys: the rule's feedback order breaks the last ties.
    feedback, _ = max(split.parts, key=lambda part: (part[1], tuple(part[0]) != win))
    return tuple(feedback)
