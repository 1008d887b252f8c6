"""The feedback rules: what the codemaker tells of a guess (``--feedback``).

* ``standard``: black and white pegs with the duplicate rule (the default), with the
  vectorised and matrix forms the code space and the kernels use;
* ``black``: black pegs only (black-peg Mastermind, the permutation game);
* ``positional``: one mark per peg, Wordle's rule;
* ``custom``: a rule of the user's own, a Python module (``--feedback FILE.py``).

Each is a :class:`~.rule.FeedbackRule`; :func:`rule_of` gives a game's. The encodings state
the same rules for clingo (``feedback.lp``, ``marks.lp``) and SWI-Prolog
(``mastermind.pl``'s ``feedback/2``), and the engines' answers are checked against these.
"""

from __future__ import annotations

from ..rules import Code, Feedback, Rules
from .black import BLACK
from .custom import load_rule
from .positional import POSITIONAL
from .rule import FeedbackRule
from .standard import (
    STANDARD,
    black_common,
    colour_counts,
    feedback,
    feedback_block,
    feedback_features,
    feedback_index,
    feedback_indices,
    feedback_slots,
    gives,
    index_dtype,
    index_feedback,
    index_lut,
    win_index,
)

#: The feedback rules by ``--feedback`` name.
RULES: dict[str, FeedbackRule] = {rule.name: rule for rule in (STANDARD, BLACK, POSITIONAL)}


def rule_of(rules: Rules) -> FeedbackRule:
    """The feedback rule of a game: a built-in one, or the module of a ``--feedback FILE.py``."""
    rule = RULES.get(rules.feedback)
    return rule if rule is not None else load_rule(rules.feedback)


def score(rules: Rules, guess: Code, secret: Code) -> Feedback:
    """The feedback of ``guess`` against ``secret`` under the game's rule.

    >>> score(Rules(4, 6, feedback="positional"), (0, 0, 1, 1), (0, 1, 1, 2))
    (2, 0, 2, 1)
    """
    return rule_of(rules).score(guess, secret)


__all__ = ["BLACK", "POSITIONAL", "RULES", "STANDARD", "FeedbackRule", "black_common", "colour_counts",
           "feedback", "feedback_block", "feedback_features", "feedback_index", "feedback_indices", "feedback_slots",
           "gives", "index_dtype", "index_feedback", "index_lut", "rule_of", "score",
           "win_index"]
