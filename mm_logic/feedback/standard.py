"""The standard feedback rule: black and white pegs, with the duplicate rule.

black = pegs with the right colour in the right place;
white = sum over colours c of min(count_guess(c), count_secret(c)) - black.

Feedback is also used as a small integer, its *index*: feedbacks ordered by
black then white, numbered densely (``(0,0)=0, (0,1)=1, ..., (0,P)=P,
(1,0)=P+1, ...``), so that there are only ``(P+1)(P+2)/2`` slots, a feedback
table fits in ``uint8`` and a partition of codes by feedback is one
``bincount``.
"""

from __future__ import annotations

import numbers
import sys
from collections import Counter
from functools import lru_cache

import numpy as np

from ..rules import Code, Feedback
from .rule import PEGS_AND_COLOURS, FeedbackRule


def feedback(guess: Code, secret: Code) -> Feedback:
    """Black and white pegs for one guess against one secret.

    Examples
    --------
    >>> feedback((0, 0, 1, 1), (0, 1, 2, 3))
    (1, 1)
    >>> feedback((0, 0, 0, 1), (1, 0, 0, 0))
    (2, 2)
    """
    black = sum(g == s for g, s in zip(guess, secret))
    common = sum((Counter(guess) & Counter(secret)).values())
    return black, common - black


def gives(guess: Code, guess_counts: Counter, secret: Code, secret_counts: Counter, fb: Feedback) -> bool:
    """Whether ``secret`` gives ``guess`` the feedback ``fb``: :func:`feedback` with both codes'
    colour counts already at hand (checking many codes against one history).

    >>> gives((0, 0, 1, 1), Counter((0, 0, 1, 1)), (0, 1, 2, 3), Counter((0, 1, 2, 3)), (1, 1))
    True
    """
    black, white = fb
    return (sum(g == s for g, s in zip(guess, secret)) == black
            and sum(min(n, secret_counts[c]) for c, n in guess_counts.items()) == black + white)


def feedback_slots(pegs: int) -> int:
    """How many feedback indices there are: pairs with ``black + white <= pegs``."""
    return (pegs + 1) * (pegs + 2) // 2


def feedback_index(fb: Feedback, pegs: int) -> int:
    """The dense integer index of a feedback (see the module docstring)."""
    black, white = fb
    return black * (2 * pegs + 3 - black) // 2 + white


def index_feedback(index: int, pegs: int) -> Feedback:
    """Inverse of :func:`feedback_index`."""
    index = int(index)
    black = 0
    while index > pegs - black:
        index -= pegs + 1 - black
        black += 1
    return black, index


def win_index(pegs: int) -> int:
    """Index of the all-black feedback that ends a game (the largest)."""
    return feedback_slots(pegs) - 1


def index_dtype(pegs: int):
    """Smallest unsigned dtype holding every feedback index."""
    return np.uint8 if feedback_slots(pegs) <= 256 else np.uint16


@lru_cache(maxsize=64)
def _index_of_black_common(pegs: int) -> np.ndarray:
    # lut[black * pegs + common] = feedback index; black*pegs + common is what
    # the feature product yields, and it determines black (common lies in
    # black..pegs, so the ranges of consecutive blacks do not overlap).
    lut = np.zeros(pegs * pegs + pegs + 1, dtype=index_dtype(pegs))
    for black in range(pegs + 1):
        for common in range(black, pegs + 1):
            lut[black * pegs + common] = feedback_index((black, common - black), pegs)
    return lut


def index_lut(pegs: int) -> np.ndarray:
    """Feedback index by ``black * pegs + common`` (common = black + white): the compiled kernels' lookup."""
    return _index_of_black_common(pegs)


def colour_counts(codes: np.ndarray, colors: int) -> np.ndarray:
    """How often each colour occurs in each code: shape ``(n, colors)``, ``uint8``."""
    counts = np.empty((codes.shape[0], colors), dtype=np.uint8)
    for c in range(colors):
        np.sum(codes == c, axis=1, dtype=np.uint8, out=counts[:, c])
    return counts


def black_common(guess: Code, codes: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Black pegs and colours in common (black + white) of one guess against many codes.

    ``counts`` is ``colour_counts(codes, colors)``. Both arrays are ``int32``.

    >>> codes = np.array([[0, 1, 2, 3], [1, 1, 0, 0]])
    >>> [a.tolist() for a in black_common((0, 0, 1, 1), codes, colour_counts(codes, 6))]
    [[1, 0], [2, 4]]
    """
    g = np.asarray(guess, dtype=codes.dtype)
    black = np.sum(codes == g, axis=1, dtype=np.int32)
    g_counts = np.bincount(np.asarray(guess), minlength=counts.shape[1]).astype(counts.dtype)
    common = np.sum(np.minimum(counts, g_counts), axis=1, dtype=np.int32)
    return black, common


def feedback_indices(guess: Code, codes: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Feedback indices of one guess against many codes (vectorised).

    Parameters
    ----------
    guess:
        The guess, a tuple of colours.
    codes:
        Array ``(n, pegs)`` of codes.
    counts:
        ``colour_counts(codes, colors)``, passed in because callers keep it.

    Returns
    -------
    numpy.ndarray
        Array of ``n`` feedback indices (dtype :func:`index_dtype`).
    """
    pegs = codes.shape[1]
    black, common = black_common(guess, codes, counts)
    black *= pegs
    black += common
    return _index_of_black_common(pegs)[black]


def feedback_features(codes: np.ndarray, colors: int) -> tuple[np.ndarray, np.ndarray]:
    """Two matrices whose product is the feedback-index table.

    ``left[g] @ right[s] == feedback index of guess g against secret s``.
    Both are the concatenation of a position one-hot (``[code[p] == c]``), which
    counts black pegs, and a count threshold (``[count(c) >= i]`` for
    ``i = 1..pegs``), whose dot product is ``sum_c min(count_g(c), count_s(c))``,
    the duplicate rule's common colours. The left one-hot is scaled by ``pegs``
    so the product is ``black * pegs + common``. This turns a whole table into
    one float32 matrix product (BLAS), exact because every value is below 2**24.
    """
    n, pegs = codes.shape
    onehot = np.zeros((n, pegs, colors), dtype=np.float32)
    onehot[np.arange(n)[:, None], np.arange(pegs)[None, :], codes] = 1.0
    counts = colour_counts(codes, colors)
    thresholds = (counts[:, :, None] >= np.arange(1, pegs + 1)[None, None, :]).astype(np.float32)
    onehot = onehot.reshape(n, pegs * colors)
    thresholds = thresholds.reshape(n, colors * pegs)
    left = np.concatenate([onehot * pegs, thresholds], axis=1)
    right = np.concatenate([onehot, thresholds], axis=1)
    return left, right


def feedback_block(left: np.ndarray, right: np.ndarray, pegs: int) -> np.ndarray:
    """Feedback indices of guesses (rows of ``left``) against secrets (rows of ``right``)."""
    product = left @ right.T
    # Products of small integers are exact in float32; rint only guards the cast.
    return _index_of_black_common(pegs)[np.rint(product, out=product).astype(np.intp)]


def _small_ints(text: str, count: int) -> tuple[int, ...] | None:
    """``count`` whole numbers separated by a comma or by spaces (ASCII digits, a sign allowed so that
    a negative number is named as such), else None (None too for a number of more digits than int() reads)."""
    parts = text.split(",") if "," in text else text.split()
    # ASCII digits only: int() reads other scripts' digits ("\uff14"), which codes refuse too.
    if len(parts) != count or not all(p.strip().removeprefix("-").isascii() and p.strip().removeprefix("-").isdigit()
                                      for p in parts):
        return None
    # int() refuses more than 4,300 digits (sys.get_int_max_str_digits): such a number is left unread, no count of
    # pegs (mm_logic.notation.parse_feedback names it).
    limit = sys.get_int_max_str_digits()
    if limit and any(len(p.strip().removeprefix("-")) > limit for p in parts):
        return None
    return tuple(int(p) for p in parts)


class StandardRule(FeedbackRule):
    """Black and white pegs, the duplicate rule (the module's functions, which the kernels mirror)."""

    name = "standard"
    summary = "black and white pegs: right colour right place, right colour elsewhere (duplicates paired once)"
    moves_pegs = True
    renames_colours = True
    swaps_roles = True
    default = True
    written = "pairs b+w<=pegs"
    entry_form = "GUESS:B,W (e.g. 0011:1,0)"
    json_body = '{"black": B, "white": W}'
    json_schema = {"black": {"type": "integer", "minimum": 0}, "white": {"type": "integer", "minimum": 0}}
    answer_with = "black,white (e.g. 1,2)"
    open_parts = ("tell_black", "tell_white")
    kernel = PEGS_AND_COLOURS
    by_multiset = True
    form = "B,W (e.g. 1,2)"
    json_keys = ("black", "white")
    typed = "black and white, e.g. 1,2 or 1 2"
    prompt = "black,white"
    explained = ("black,white for my guess (e.g. 1,2 or 1 2: black = right colour right place, white = right "
                 "colour wrong place)")

    def classes(self, pegs: int) -> int:
        return self.slots(pegs) - 1  # (pegs - 1, 1) never occurs

    def never(self, pegs: int) -> str:
        return f"every pair but {pegs - 1},1"

    def answer_shape(self, pegs: int) -> tuple[int, int]:
        return pegs + 1, 2

    def answer_atom(self, symbol) -> tuple[int, int, int]:
        t, value = symbol.arguments
        return t.number, int(symbol.name == "white"), value.number  # black(t,B), white(t,W)

    def asp_facts(self, t: int, fb: Feedback) -> str:
        return f"black({t},{fb[0]}).white({t},{fb[1]})."

    def prolog_entries(self, guess: Code, fb: Feedback) -> list:
        # janus turns a Python pair into a '-' term: ((G, B), W) is G-B-W.
        return [((list(guess), int(fb[0])), int(fb[1]))]

    def json_problem(self, body: dict) -> str:
        return "black and white must be integers"

    def fits(self, guess: Code, guess_counts, code: Code, counts, fb: Feedback) -> bool:
        return gives(guess, guess_counts, code, counts, fb)

    def score(self, guess: Code, secret: Code) -> Feedback:
        return feedback(guess, secret)

    def indices(self, guess: Code, codes: np.ndarray, counts: np.ndarray) -> np.ndarray:
        return feedback_indices(guess, codes, counts)

    def win(self, pegs: int) -> Feedback:
        return pegs, 0

    def slots(self, pegs: int) -> int:
        return feedback_slots(pegs)

    def index(self, fb: Feedback, pegs: int) -> int:
        return feedback_index(fb, pegs)

    def from_index(self, index: int, pegs: int) -> Feedback:
        return index_feedback(index, pegs)

    def index_dtype(self, pegs: int):
        return index_dtype(pegs)

    def read(self, text: str, pegs: int) -> Feedback | None:
        return _small_ints(text, 2)

    def write(self, fb: Feedback) -> str:
        return f"{fb[0]},{fb[1]}"

    def impossible(self, fb: Feedback, pegs: int, colors: int) -> str | None:
        if len(fb) != 2 or any(type(n) is bool or not isinstance(n, numbers.Integral) for n in fb):
            return " is not two whole numbers (black, white)"  # the readers of text give two; a program may not
        black, white = fb
        if black < 0 or white < 0:
            return " is negative"
        if black + white > pegs:
            return f": black + white exceeds the {pegs} pegs"
        if black == pegs - 1 and white == 1:
            return f" cannot occur: with {pegs - 1} pegs right the last one cannot be a misplaced colour"
        if colors == 1 and black != pegs:
            return " cannot occur with a single colour"
        return None

    def as_json(self, fb: Feedback) -> dict:
        return {"black": fb[0], "white": fb[1]}

    def from_json(self, obj: dict, pegs: int) -> Feedback | None:
        black, white = obj.get("black"), obj.get("white")
        if type(black) is not int or type(white) is not int:
            return None
        return black, white


#: The standard rule.
STANDARD = StandardRule()
