"""Hypothesis strategies shared by the whole suite: rules, codes, histories, and
the brute-force filter and feedback rule the engines' answers are checked against.

One module so that every engine is tested on the same kinds of games: the
three repetition rules (unlimited, no-repeat, at most two), histories scored
by a hidden secret, and histories whose feedback was changed (possibly
contradictory, which every engine must answer with "no code").
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import product

import numpy as np
from hypothesis import strategies as st

from mm_logic.notation import Code, Entry, Feedback
from mm_logic.rules import FEEDBACK_RULES, Rules
from mm_logic.strategies.scoring import ENTROPY_BITS

#: ``max_repeat`` values drawn: unlimited, no-repeat (bulls and cows), at most two (seed 001's
#: A4), at most three (a limit above two is a rule of its own: an engine broken for k >= 3 passed).
REPEATS = (None, 1, 2, 3)


@st.composite
def small_rules(draw, min_pegs: int = 1, max_pegs: int = 5, max_colors: int = 6,
                feedbacks: tuple[str, ...] = ("standard",)) -> Rules:
    """Rules small enough to enumerate by brute force, under every repetition rule of :data:`REPEATS`
    and the feedback rules ``feedbacks`` (:data:`~mm_logic.rules.FEEDBACK_RULES`: all of them)."""
    pegs = draw(st.integers(min_pegs, max_pegs))
    repeat = draw(st.sampled_from(REPEATS))
    # The fewest colours that still make a code under the repetition rule.
    least = 2 if repeat is None else max(2, -(-pegs // repeat))
    colors = draw(st.integers(least, max(max_colors, least)))
    return Rules(pegs, colors, repeat, feedback=draw(st.sampled_from(feedbacks)))


@st.composite
def code_for(draw, rules: Rules) -> Code:
    """A valid code under ``rules``: colours drawn peg by peg among those still allowed."""
    code: list[int] = []
    for _ in range(rules.pegs):
        allowed = [c for c in range(rules.colors) if code.count(c) < rules.repeat_limit]
        code.append(draw(st.sampled_from(allowed)))
    return tuple(code)


@st.composite
def possible_feedback(draw, rules: Rules) -> Feedback:
    """Feedback the notation accepts under the game's rule (standard: ``b + w <= pegs``, never
    ``(pegs-1, 1)``; black: ``0..pegs``; positional: any marks but one o beside every other peg x)."""
    if rules.feedback == "black":
        return (draw(st.integers(0, rules.pegs)),)
    if rules.feedback == "positional":
        while True:
            marks = tuple(draw(st.lists(st.integers(0, 2), min_size=rules.pegs, max_size=rules.pegs)))
            if not (marks.count(2) == rules.pegs - 1 and 1 in marks):
                return marks
    while True:
        black = draw(st.integers(0, rules.pegs))
        white = draw(st.integers(0, rules.pegs - black))
        if (black, white) != (rules.pegs - 1, 1):
            return black, white


@st.composite
def entry_for(draw, rules: Rules, secret: Code, perturb: bool | None = None) -> Entry:
    """A valid guess with the feedback ``secret`` gives it, or (when perturbed) other feedback.

    ``perturb`` None lets hypothesis choose, about one entry in five.
    """
    # Now and then a probe that breaks the repetition rule (seed 000's 0000 under --no-repeat).
    probe = draw(st.integers(0, 5)) == 0
    guess = draw(code_for(Rules(rules.pegs, rules.colors) if probe else rules))
    changed = draw(st.integers(0, 4)) == 0 if perturb is None else perturb
    return guess, draw(possible_feedback(rules)) if changed else brute_score(rules, guess, secret)


@st.composite
def history_for(draw, rules: Rules, max_len: int = 4, consistent: bool | None = None) -> list[Entry]:
    """A history against a hidden secret: consistent (True), perturbed (False) or mixed (None)."""
    secret = draw(code_for(rules))
    perturb = None if consistent is None else not consistent
    return draw(st.lists(entry_for(rules, secret, perturb), max_size=max_len))


@st.composite
def game_for(draw, max_pegs: int = 5, max_colors: int = 6, max_len: int = 4,
             feedbacks: tuple[str, ...] = ("standard",)) -> tuple[Rules, list[Entry]]:
    """Rules (under the feedback rules ``feedbacks``) and a (mixed) history under them."""
    rules = draw(small_rules(max_pegs=max_pegs, max_colors=max_colors, feedbacks=feedbacks))
    return rules, draw(history_for(rules, max_len=max_len))


def consistent(rules: Rules, history) -> list[tuple[int, ...]]:
    """The consistent codes in lexicographic order, by brute force; with ``rules.lies``, those that break at
    most that many entries and are no guess answered without the win (which is always told)."""
    return [code for code in product(range(rules.colors), repeat=rules.pegs)
            if max(code.count(c) for c in code) <= rules.repeat_limit
            and brute_lies(rules, history, code) <= rules.lies]


def brute_lies(rules: Rules, history, code) -> float:
    """The entries ``code`` breaks (infinity when it is a guess answered without the win, or not the guess
    of an entry that told the win: the win is always told)."""
    win = brute_score(rules, code, code)
    if any((tuple(guess) == tuple(code)) != (tuple(fb) == win) for guess, fb in history):
        return float("inf")
    return sum(brute_score(rules, guess, code) != tuple(fb) for guess, fb in history)


def rows(codes) -> list[tuple[int, ...]]:
    """Codes as an engine or a kernel returns them (an array, or a list of tuples) as tuples of ints, in order."""
    return [tuple(int(c) for c in row) for row in np.asarray(codes).tolist()]


def brute_feedback(guess, secret):
    """Textbook definition: blacks, then whites matched greedily on the rest."""
    black = sum(g == s for g, s in zip(guess, secret))
    rest_g = [g for g, s in zip(guess, secret) if g != s]
    rest_s = [s for g, s in zip(guess, secret) if g != s]
    white = 0
    for g in rest_g:
        if g in rest_s:
            rest_s.remove(g)
            white += 1
    return black, white


def brute_marks(guess, secret):
    """Textbook positional marks (Wordle's rule): x in place; then, left to right, o while the
    secret has the colour left over beyond its x pegs; - otherwise (2, 1, 0)."""
    marks = [2 if g == s else 0 for g, s in zip(guess, secret)]
    left = [s for s, m in zip(secret, marks) if m != 2]
    for p, g in enumerate(guess):
        if marks[p] != 2 and g in left:
            left.remove(g)
            marks[p] = 1
    return tuple(marks)


def brute_score(rules: Rules, guess, secret) -> Feedback:
    """The feedback of ``guess`` against ``secret`` under the game's rule, from the textbook
    definitions of this module (no code shared with the package)."""
    if rules.feedback == "black":
        return (sum(g == s for g, s in zip(guess, secret)),)
    if rules.feedback == "positional":
        return brute_marks(guess, secret)
    return brute_feedback(guess, secret)


#: Every feedback rule, for the suites that draw it.
ALL_FEEDBACKS = FEEDBACK_RULES


def contract_pick(candidates, alive, rank, rules: Rules | None = None, answer=None):
    """The contract's guess among ``candidates`` against the codes ``alive``, by brute force: the lowest
    ``rank`` of its part sizes (``max``: Knuth's minimax), then a code of ``alive``, then the smallest.
    Parts are by :func:`brute_score` under ``rules``' feedback rule (None: the standard rule), or by
    ``answer(guess, code)``, a rule of one's own, whose win is a part of its own (the win is always told)."""
    def fb(guess, code):
        if answer is not None:
            return "won" if guess == code else answer(guess, code)
        return brute_feedback(guess, code) if rules is None else brute_score(rules, guess, code)

    members = set(alive)

    def key(guess):
        parts = Counter(fb(guess, code) for code in alive)
        return rank(parts.values()), guess not in members, guess
    return min(candidates, key=key)


#: Each scorer's rank of a partition from its part sizes, from the definitions (entropy in the same
#: fixed point as the strategy, so that equal partitions tie exactly), for :func:`contract_pick`.
SCORER_RANKS = {
    "minimax": max,
    "expected": lambda sizes: sum(s * s for s in sizes),
    "entropy": lambda sizes: sum(round(s * math.log2(s) * 2.0**ENTROPY_BITS) for s in sizes),
    "parts": lambda sizes: -len(list(sizes)),
}


def brute_replay(rules: Rules, choose, answer=None, secrets=None) -> dict[int, int]:
    """The histogram (guesses: games) of a deterministic strategy over every secret, by brute force:
    ``choose(codes, alive)`` picks the guess from the valid codes and the consistent ones, the parts by
    :func:`brute_score` (``first``: ``lambda codes, alive: alive[0]``; Knuth: :func:`contract_pick` with ``max``),
    or by ``answer(guess, code)`` (a rule of one's own; the game ends when the guess is the secret).
    ``secrets(code)``: which codes may be the secret (an edited encoding's), every code staying a guess."""
    answer = answer or (lambda guess, code: brute_score(rules, guess, code))
    codes = consistent(Rules(rules.pegs, rules.colors, rules.max_repeat), [])
    histogram: Counter = Counter()
    stack = [([c for c in codes if secrets is None or secrets(c)], 1)]
    while stack:
        alive, depth = stack.pop()
        guess = choose(codes, alive)
        parts: dict = {}
        for code in alive:
            parts.setdefault("won" if code == guess else answer(guess, code), []).append(code)
        for part in parts.values():
            if part == [guess]:
                histogram[depth] += 1
            else:
                stack.append((part, depth + 1))
    return dict(sorted(histogram.items()))


class BruteOptimum:
    """The least total and the least worst case by brute force: every code a guess at every set of secrets
    still possible, every part searched, no bound and no symmetry (a memo of the sets met; sets are bit
    masks over ``codes``). ``answer(guess, secret)`` is the rule's answer; a guess played against itself
    wins, in a part of its own (the win is always told). ``secrets``: which codes may be the secret (an
    edited encoding's; every code by default), every code remaining a guess; ``consistent_only``: a guess
    must be a secret still possible (hard mode). Exponential: spaces of a few dozen codes."""

    def __init__(self, codes, answer, consistent_only: bool = False, secrets=None):
        self.consistent_only = consistent_only
        self.codes = list(codes)
        # Per guess: (wins, mask of the codes giving one answer) for each answer.
        self.classes = []
        for guess in self.codes:
            by: dict = {}
            for i, secret in enumerate(self.codes):
                key = "won" if guess == secret else answer(guess, secret)
                by[key] = by.get(key, 0) | 1 << i
            self.classes.append([(key == "won", mask) for key, mask in by.items()])
        self.everything = sum(1 << i for i, code in enumerate(self.codes) if secrets is None or secrets(code))
        self.known: dict = {}
        self.deepest: dict = {}

    def _splits(self, codes: int):
        """For every guess that tells something apart: its non-winning parts."""
        for index, classes in enumerate(self.classes):
            if self.consistent_only and not codes >> index & 1:
                continue
            parts, won = [], False
            for wins, mask in classes:
                part = codes & mask
                if part:
                    won |= wins
                    if not wins:
                        parts.append(part)
            if won or len(parts) > 1:
                yield parts

    def cost(self, codes: int | None = None, depth: float = float("inf")) -> float:
        """Least total guesses over the codes, every game within ``depth`` guesses (inf: impossible)."""
        codes = self.everything if codes is None else codes
        if depth < 1:
            return float("inf")
        n = codes.bit_count()
        if n == 1:
            return 1
        # Remembered per set and depth (black pegs only split so little that the plain recursion takes minutes).
        if (codes, depth) not in self.known:
            self.known[codes, depth] = min(n + sum(self.cost(part, depth - 1) for part in parts)
                                           for parts in self._splits(codes))
        return self.known[codes, depth]

    def opening_cost(self, code: tuple) -> float:
        """Least total guesses over every code when ``code`` is the first guess: the opening's exact cost."""
        first = self.classes[self.codes.index(code)]
        return self.everything.bit_count() + sum(self.cost(mask & self.everything) for wins, mask in first
                                                 if not wins and mask & self.everything)

    def worst(self, codes: int | None = None) -> int:
        """Least worst case over the codes."""
        codes = self.everything if codes is None else codes
        if codes.bit_count() == 1:
            return 1
        if codes not in self.deepest:
            self.deepest[codes] = min(1 + max((self.worst(part) for part in parts), default=0)
                                      for parts in self._splits(codes))
        return self.deepest[codes]


#: Rules of one's own, as users write them (``--feedback FILE.py``), each telling something the built-in rules
#: do not: by file stem, the module's source.
OWN_RULES = {
    # Tells pegs apart: moving a peg from one half to the other changes the answer.
    "first_half": "def score(guess, secret):\n"
                  "    half = len(guess) // 2 + len(guess) % 2\n"
                  "    return (sum(g == s for g, s in zip(guess[:half], secret[:half])),)\n",
    # Keeps every peg order and every renaming of the colours.
    "shared": "from collections import Counter\n\n"
              "def score(guess, secret):\n"
              "    return (sum((Counter(guess) & Counter(secret)).values()),)\n",
    # Black pegs modulo 2: one bit of an answer.
    "parity": "def score(guess, secret):\n"
              "    return (sum(g == s for g, s in zip(guess, secret)) % 2,)\n",
    # Tells colour 0 apart from the others: black pegs, and whether the secret holds colour 0.
    "colour_zero": "def score(guess, secret):\n"
                   "    return (sum(g == s for g, s in zip(guess, secret)), int(0 in secret))\n",
}


def own_rule_file(folder, stem: str) -> str:
    """The rule ``stem`` of :data:`OWN_RULES` written to ``folder`` as a user's module; its path."""
    path = folder / f"{stem}.py"
    if not path.exists():
        path.write_text(OWN_RULES[stem])
    return str(path)


def own_score(stem: str):
    """The ``score`` of the rule ``stem``, run here apart from the package's loading of it."""
    namespace: dict = {}
    exec(OWN_RULES[stem], namespace)  # noqa: S102 - the tests' own rules
    return namespace["score"]



#: Edited code spaces as users write them: a constraint added to the shipped game, by file name.
EDITED_SPACES = {
    "palindrome.lp": ":- secret(P,C), pegs(N), not secret(N+1-P,C).",
    "no_adjacent.lp": ":- secret(P,C), secret(P+1,C).",
    "ascending.lp": ":- secret(P,C), secret(P+1,D), D < C.",
}
#: The codes each edited space admits, written apart for the brute forces (``.pl``: examples/no_adjacent.pl).
ADMITS = {
    "palindrome.lp": lambda code: code == code[::-1],
    "no_adjacent.lp": lambda code: all(a != b for a, b in zip(code, code[1:])),
    "no_adjacent.pl": lambda code: all(a != b for a, b in zip(code, code[1:])),
    "ascending.lp": lambda code: list(code) == sorted(code),
}


def edited_encoding(folder, name: str):
    """The encoding ``name`` of :data:`EDITED_SPACES` written to ``folder`` as a user writes it (a ``.pl``
    name: the shipped example, examples/no_adjacent.pl); its path."""
    from pathlib import Path

    if name.endswith(".pl"):
        return Path(__file__).resolve().parents[1] / "examples" / name
    path = Path(folder) / name
    path.write_text(f'#include "mastermind.lp".\n#program base.\n{EDITED_SPACES[name]}\n')
    return path
