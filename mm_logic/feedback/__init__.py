"""The feedback rules: what the codemaker tells of a guess (``--feedback``).

* ``standard``: black and white pegs with the duplicate rule (the default), with the
  vectorised and matrix forms the code space and the kernels use;
* ``black``: black pegs only (black-peg Mastermind, the permutation game);
* ``positional``: one mark per peg, Wordle's rule;
* ``custom``: a rule of the user's own, a Python module (``--feedback FILE.py``), whose code ``watch``
  runs bounded (a limit a call, in any thread; a long table's progress; the command's ``--time-limit``),
  ``module_output`` keeping mmlogic's streams and saying once what its threads and ``__del__`` raise,
  ``module_settings`` putting back the process's settings it changed (recursion limit, umask, folder...);
* ``encoded``: a rule of the user's own stated in an encoding (``--feedback FILE.lp`` or ``FILE.pl``),
  its table derived by the encoding's engine and cached.

Each is a :class:`~.rule.FeedbackRule`; :func:`rule_of` gives a game's. The encodings state
the same rules for clingo (``feedback.lp``, ``marks.lp``) and SWI-Prolog
(``mastermind.pl``'s ``feedback/2``), and the engines' answers are checked against these.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from ..rules import Code, Feedback, Rules
from ..support.errors import BadInput
from .black import BLACK
from .custom import load_rule
from .encoded import ENCODED_SUFFIXES, EncodedRule, check_derivable
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
    """The feedback rule of a game: a built-in one, the module of a ``--feedback FILE.py``, or the rule an
    encoding states (``FILE.lp``, ``FILE.pl``), derived for the game's code space."""
    rule = RULES.get(rules.feedback)
    if rule is not None:
        return rule
    if rules.feedback.endswith(ENCODED_SUFFIXES):
        path = Path(rules.feedback)
        try:
            stat = os.stat(path)
        except OSError as error:
            raise BadInput(f"cannot read --feedback {path}: {error.strerror or error}") from None
        check_derivable(path, rules)  # refused in the words of the rules' front end (a request names no file)
        return _encoded(rules.feedback, stat.st_mtime_ns, stat.st_size, rules.pegs, rules.colors, rules.max_repeat)
    return load_rule(rules.feedback)


@lru_cache(maxsize=16)
def _encoded(name: str, mtime: int, size: int, pegs: int, colors: int, max_repeat: int | None) -> EncodedRule:
    """The rule of an encoding for a code space, built once a process for each version of the file (the
    table itself is cached on disk too)."""
    return EncodedRule(Path(name), Rules(pegs, colors, max_repeat))


def score(rules: Rules, guess: Code, secret: Code) -> Feedback:
    """The feedback of ``guess`` against ``secret`` under the game's rule.

    >>> score(Rules(4, 6, feedback="positional"), (0, 0, 1, 1), (0, 1, 1, 2))
    (2, 0, 2, 1)
    """
    return rule_of(rules).score(guess, secret)


__all__ = ["BLACK", "POSITIONAL", "RULES", "STANDARD", "EncodedRule", "FeedbackRule", "black_common", "colour_counts",
           "feedback", "feedback_block", "feedback_features", "feedback_index", "feedback_indices", "feedback_slots",
           "gives", "index_dtype", "index_feedback", "index_lut", "rule_of", "score",
           "win_index"]
