"""Positional feedback (Wordle's rule): one mark per peg, left to right.

``x``: the right colour in the right place. ``o``: the colour is elsewhere in the secret,
credited at most as often as the secret holds it beyond its right-place pegs, earlier pegs
first. ``-``: neither. A feedback is the tuple of marks, 2 for ``x``, 1 for ``o``, 0 for
``-``, written ``x-o-``; its index reads the marks as a number in base 3, the first peg
first, so the win (all ``x``) is the largest.

Counting the marks gives the standard feedback: ``x`` marks are the black pegs and ``o``
marks the white ones (the tests check it on every pair of small codes).
"""

from __future__ import annotations

import numbers

import numpy as np

from ..rules import Code, Feedback
from ..support.errors import shown
from .rule import ONE_MARK_PER_PEG, FeedbackRule

#: The mark atoms of positional feedback in the ASP encodings (marks.lp), by mark value (0 ``-``, 1 ``o``, 2 ``x``).
MARK_ATOMS = ("miss", "o", "x")

#: Marks as written, by value.
MARKS = "-ox"
RIGHT, ELSEWHERE, NEITHER = 2, 1, 0


class PositionalRule(FeedbackRule):
    """One mark per peg."""

    name = "positional"
    summary = ("one mark per peg: x right colour right place, o the colour elsewhere (as often as the "
               "secret holds it beyond its right pegs, earlier pegs first), - neither")
    moves_pegs = False
    renames_colours = True
    swaps_roles = False
    entry_form = "GUESS:MARKS (e.g. 0011:x-o-)"
    json_body = '{"marks": "x-o-"}'
    json_schema = {"marks": {"type": "string", "pattern": "^[xo-]+$"}}
    asp_parts = ("step", "marks")
    open_parts = ("tell_marks",)
    kernel = ONE_MARK_PER_PEG
    form = "one mark per peg, x o or - (e.g. x-o-)"
    json_keys = ("marks",)
    typed = "one mark per peg, x o or -, e.g. x-o-"
    prompt = "marks"
    explained = ("one mark per peg of my guess (e.g. x-o-: x right colour right place, o the colour is "
                 "elsewhere, - neither)")

    def classes(self, pegs: int) -> int:
        return self.slots(pegs) - pegs  # one o beside every other peg x never occurs

    def answer_shape(self, pegs: int) -> tuple[int, int]:
        return 3, pegs

    def answer_atom(self, symbol) -> tuple[int, int, int]:
        t, peg, mark = symbol.arguments
        return t.number, peg.number - 1, MARK_ATOMS.index(mark.name)  # mark(t,P,M)

    def asp_facts(self, t: int, fb: Feedback) -> str:
        return "".join(f"mark({t},{p},{MARK_ATOMS[m]})." for p, m in enumerate(fb, 1))

    def prolog_entries(self, guess: Code, fb: Feedback) -> list:
        return [("marks", list(guess), ["-ox"[m] for m in fb])]

    def json_problem(self, body: dict) -> str:
        if not isinstance(body.get("marks"), str):
            return 'marks must be a string, e.g. "x-o-"'
        return f"feedback {shown(body['marks'])} is not of the form {self.form}"

    def score(self, guess: Code, secret: Code) -> Feedback:
        """
        >>> POSITIONAL.write(POSITIONAL.score((0, 0, 1, 1), (1, 0, 2, 0)))
        'oxo-'
        """
        marks = [RIGHT if g == s else NEITHER for g, s in zip(guess, secret)]
        left: dict[int, int] = {}
        for mark, s in zip(marks, secret):
            if mark != RIGHT:
                left[s] = left.get(s, 0) + 1
        for p, g in enumerate(guess):
            if marks[p] != RIGHT and left.get(g, 0) > 0:
                marks[p] = ELSEWHERE
                left[g] -= 1
        return tuple(marks)

    def indices(self, guess: Code, codes: np.ndarray, counts: np.ndarray) -> np.ndarray:
        n, pegs = codes.shape
        g = np.asarray(guess, dtype=codes.dtype)
        right = codes == g
        # left[c]: the secret's pegs of colour c not matched in place, as credit for the o marks.
        left = counts.astype(np.int16)
        for p in range(pegs):
            hit = right[:, p]
            left[hit, g[p]] -= 1
        index = np.zeros(n, dtype=np.int64)
        rows = np.arange(n)
        for p in range(pegs):
            c = int(g[p])
            elsewhere = ~right[:, p] & (left[rows, c] > 0)
            left[elsewhere, c] -= 1
            index *= 3
            index += np.where(right[:, p], RIGHT, elsewhere.astype(np.int64))
        return index.astype(self.index_dtype(pegs))

    def win(self, pegs: int) -> Feedback:
        return (RIGHT,) * pegs

    def right_place(self, fb: Feedback) -> int:
        return sum(m == RIGHT for m in fb)

    def value_bounds(self, pegs: int) -> tuple[int, int]:
        return NEITHER, RIGHT  # a mark per peg, whatever the pegs

    def slots(self, pegs: int) -> int:
        return 3**pegs

    def index(self, fb: Feedback, pegs: int) -> int:
        index = 0
        for mark in fb:
            index = index * 3 + mark
        return index

    def from_index(self, index: int, pegs: int) -> Feedback:
        index = int(index)
        marks = []
        for _ in range(pegs):
            index, mark = divmod(index, 3)
            marks.append(mark)
        return tuple(reversed(marks))

    def read(self, text: str, pegs: int) -> Feedback | None:
        text = text.strip()
        if not text or any(m not in MARKS for m in text):
            return None
        return tuple(MARKS.index(m) for m in text)

    def write(self, fb: Feedback) -> str:
        """The marks as written (``x-o-``); a list that holds another value than a mark (one a program gave,
        which :meth:`impossible` refuses) as its numbers, for the line that refuses it."""
        if not all(map(is_mark, fb)):
            return repr(tuple(map(_plain, fb)))
        return "".join(MARKS[m] for m in fb)

    def impossible(self, fb: Feedback, pegs: int, colors: int) -> str | None:
        odd = [m for m in fb if not is_mark(m)]
        if odd:  # the readers of text make marks only; a program may give any value
            return f" holds {_plain(odd[0])!r}, not a mark (0 for -, 1 for o, 2 for x)"
        if len(fb) != pegs:
            return f" has {len(fb)} marks, expected one per peg ({pegs})"
        if colors == 1 and any(m != RIGHT for m in fb):
            return " cannot occur with a single colour"
        if sum(m != RIGHT for m in fb) == 1 and ELSEWHERE in fb:
            return " cannot occur: with every other peg right, the colour of the last one is nowhere else"
        return None

    def as_json(self, fb: Feedback) -> dict:
        return {"marks": self.write(fb)}

    def from_json(self, obj: dict, pegs: int) -> Feedback | None:
        marks = obj.get("marks")
        return self.read(marks, pegs) if isinstance(marks, str) else None


def is_mark(value) -> bool:
    """Whether ``value`` is a mark's number: 0 (``-``), 1 (``o``) or 2 (``x``), as an int or a numpy integer."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and 0 <= value < len(MARKS)


def _plain(value):
    """An integer as an int (a numpy integer's ``repr`` names its type), any other value as it is."""
    return int(value) if isinstance(value, numbers.Integral) and not isinstance(value, bool) else value


#: The positional rule.
POSITIONAL = PositionalRule()
