"""Black-peg feedback: the codemaker tells only how many pegs are the right colour in the right place.

Black-peg Mastermind (Goodrich 2009; Jäger & Peczarski 2009 and 2011 give the exact worst
cases up to 4 pegs). With no repetition and as many colours as pegs it is the black-peg
permutation game (El Ouali, Glazik, Sauerland and Srivastav 2018). A feedback is ``(black,)``,
written ``2``; its index is the number itself.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..rules import Code, Feedback
from .rule import BLACK_PEGS, FeedbackRule
from .standard import _small_ints


class BlackRule(FeedbackRule):
    """Black pegs only."""

    name = "black"
    summary = "black pegs only: how many pegs are the right colour in the right place"
    moves_pegs = True
    renames_colours = True
    renames_per_peg = True
    swaps_roles = True
    entry_form = "GUESS:B (e.g. 0011:1)"
    json_body = '{"black": B}'
    json_schema = {"black": {"type": "integer", "minimum": 0}}
    open_parts = ("tell_black",)
    kernel = BLACK_PEGS
    by_multiset = True
    form = "B (e.g. 2)"
    json_keys = ("black",)
    typed = "the black pegs, e.g. 2"
    prompt = "black"
    explained = "black for my guess (e.g. 2: the pegs of the right colour in the right place)"

    def classes(self, pegs: int) -> int:
        return self.slots(pegs)  # every count occurs

    def answer_shape(self, pegs: int) -> tuple[int, int]:
        return pegs + 1, 1

    def answer_atom(self, symbol) -> tuple[int, int, int]:
        t, value = symbol.arguments
        return t.number, 0, value.number  # black(t,B)

    def asp_facts(self, t: int, fb: Feedback) -> str:
        return f"black({t},{fb[0]})."

    def prolog_entries(self, guess: Code, fb: Feedback) -> list:
        # ("black", G, B) is -(black, G, B), which the bridge reads as black(G, B).
        return [("black", list(guess), int(fb[0]))]

    def json_problem(self, body: dict) -> str:
        return "black must be an integer"

    def score(self, guess: Code, secret: Code) -> Feedback:
        """
        >>> BLACK.score((0, 0, 1, 1), (0, 1, 1, 0))
        (2,)
        """
        return (sum(g == s for g, s in zip(guess, secret)),)

    def indices(self, guess: Code, codes: np.ndarray, counts: np.ndarray) -> np.ndarray:
        right = np.sum(codes == np.asarray(guess, dtype=codes.dtype), axis=1)
        return right.astype(self.index_dtype(codes.shape[1]))

    def win(self, pegs: int) -> Feedback:
        return (pegs,)

    def slots(self, pegs: int) -> int:
        return pegs + 1

    def index(self, fb: Feedback, pegs: int) -> int:
        return fb[0]

    def from_index(self, index: int, pegs: int) -> Feedback:
        return (int(index),)

    def read(self, text: str, pegs: int) -> Feedback | None:
        return _small_ints(text, 1)

    def write(self, fb: Feedback) -> str:
        return str(fb[0])

    def impossible(self, fb: Feedback, pegs: int, colors: int) -> str | None:
        if len(fb) != 1 or type(fb[0]) is bool or not isinstance(fb[0], numbers.Integral):
            return " is not one whole number (black)"  # the readers of text give one; a program may not
        (black,) = fb
        if black < 0:
            return " is negative"
        if black > pegs:
            return f" exceeds the {pegs} pegs"
        if colors == 1 and black != pegs:
            return " cannot occur with a single colour"
        return None

    def as_json(self, fb: Feedback) -> dict:
        return {"black": fb[0]}

    def from_json(self, obj: dict, pegs: int) -> Feedback | None:
        black = obj.get("black")
        return (black,) if type(black) is int and "white" not in obj else None


#: The black-peg rule.
BLACK = BlackRule()
