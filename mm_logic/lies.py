"""Answers that may be wrong (``--lies K``): Ulam's liar game played on Mastermind.

The codemaker may answer at most K guesses of a game wrongly. The win is
always told: a guess that is the secret ends the game, and no wrong answer
claims a win. So after a history a code is still possible when

* it *breaks* at most K entries: its feedback to an entry's guess differs
  from the one told, which the codemaker would then have said wrongly; and
* it is no guess answered without the win, and every guess answered with
  the win: the win is always told, and never claimed wrongly; and
* it is a code of the game: a rule an encoding states (``--feedback FILE.lp``,
  ``FILE.pl``) may narrow the code space, and a code it does not admit is
  never the secret, however many lies are left (:func:`outside`).

A possible code comes with the lies it needs, and the pair (code, lies used)
is a *state* of the game: a guess's answer keeps a state true to it and, while
lies are left, moves every other state on by one lie (:func:`states_after`).
This module is the liar game's one definition over listed codes: the python
engine, the counts, the engines' answer check and the scorers ask it; clingo
(``lies.lp``) and SWI-Prolog (``mastermind.pl``'s ``lies/4``) state it in
their encodings, and the tests hold every engine to it.

>>> from mm_logic.rules import Rules
>>> rules = Rules(2, 3, lies=1)
>>> history = [((0, 1), (1, 0)), ((0, 0), (0, 0))]
>>> [(code, lies) for code, lies in possible(rules, history)]
[((0, 2), 1), ((1, 1), 0), ((1, 2), 1), ((2, 1), 0), ((2, 2), 1)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from .codespace import code_space
from .feedback import colour_counts, rule_of
from .notation import Code, Entry, Feedback, shown, whole_number
from .rules import Rules
from .support.errors import BadInput

#: The lies a state is given when it can never be the secret (a guess answered without the win).
NEVER = np.iinfo(np.int8).max


def tell(rules: Rules, alive: np.ndarray, lies: np.ndarray, entry: Entry) -> tuple[np.ndarray, np.ndarray]:
    """The codes of ``alive`` (indices into :func:`~mm_logic.codespace.code_space`, each having needed
    ``lies`` so far) that stay possible after ``entry``, with the lies each now needs: one more where
    the entry's feedback is not the code's, and out where that makes more than ``rules.lies``, where the
    code is the entry's guess answered without the win, or is not the guess of an entry of the win."""
    space = code_space(rules)
    guess, fb = entry
    rule = rule_of(rules)
    told = rule.index(fb, rules.pegs)
    marks = space.feedback_to(guess, alive)
    needed = lies + (marks != told)
    # the win is always told: a guess answered with it is the secret, one answered otherwise is not
    win = rule.win_index(rules.pegs)
    needed = np.where((marks == win) != (told == win), NEVER, needed)
    needed = np.where(outside(rules, marks), NEVER, needed)
    kept = needed <= rules.lies
    return alive[kept], needed[kept].astype(np.int8)


def possible_indices(rules: Rules, history: list[Entry]) -> tuple[np.ndarray, np.ndarray]:
    """The indices (increasing) of the codes still possible after ``history``, and the lies each needs."""
    space = code_space(rules)
    admitted = rule_of(rules).admitted_codes()  # a rule an encoding states may narrow the space
    alive = np.arange(space.size, dtype=np.int64) if admitted is None else admitted
    lies = np.zeros(alive.size, dtype=np.int8)
    for entry in history:
        alive, lies = tell(rules, alive, lies, entry)
    return alive, lies


def possible(rules: Rules, history: list[Entry]) -> Iterator[tuple[Code, int]]:
    """Every code still possible after ``history``, in lexicographic order, with the lies it needs."""
    alive, lies = possible_indices(rules, history)
    space = code_space(rules)
    for index, needed in zip(alive.tolist(), lies.tolist()):
        yield space.code(index), needed


def lies_of_rows(rules: Rules, history: list[Entry], codes: np.ndarray) -> np.ndarray:
    """For each row of ``codes`` (any size of game: no code space is listed), the lies it needs after
    ``history``: the entries it breaks, or :data:`NEVER` when it is a guess answered without the win or
    not the guess of an entry that told the win."""
    rule = rule_of(rules)
    array = np.asarray(codes)
    counts = colour_counts(array, rules.colors)
    win = rule.win_index(rules.pegs)
    needed = np.zeros(len(array), dtype=np.int64)
    admitted = rule.admitted_codes()
    if admitted is not None and len(array):  # a code the rule's encoding does not admit is never the secret
        needed[~np.isin(code_space(rules).index_of(array), admitted)] = NEVER
    for guess, fb in history:
        marks = rule.indices(guess, array, counts)
        told = rule.index(fb, rules.pegs)
        needed += marks != told
        needed[(marks == win) != (told == win)] = NEVER
    return np.minimum(needed, NEVER)


def broken(rules: Rules, history: list[Entry], code: Code) -> list[int]:
    """The entries (from 0) whose feedback ``code`` breaks, the win's entries included."""
    rule = rule_of(rules)
    return [i for i, (guess, fb) in enumerate(history) if rule.score(guess, code) != tuple(fb)]


def needs(rules: Rules, history: list[Entry], code: Code) -> int | None:
    """The lies ``code`` needs to be the secret after ``history``, or None when it cannot be (more than
    ``rules.lies``, a guess answered without the win, or not the guess of an entry that told the win)."""
    rule = rule_of(rules)
    win = rule.win(rules.pegs)
    if any((tuple(guess) == tuple(code)) != (tuple(fb) == win) for guess, fb in history):
        return None  # the win is always told
    if rule.admitted_codes() is not None and int(lies_of_rows(rules, [], np.asarray([code]))[0]) == NEVER:
        return None  # not a code of the game
    n = len(broken(rules, history, code))
    return n if n <= rules.lies else None


def lies_told(rules: Rules, guess: Code, secret: Code) -> list[Feedback]:
    """Every answer a liar may give ``guess`` instead of the true one: each feedback of the rule that some
    code can give, but the truth and the win."""
    rule = rule_of(rules)
    truth, win = rule.score(guess, secret), rule.win(rules.pegs)
    if truth == win:
        return []  # the win is always told
    answers = (rule.from_index(i, rules.pegs) for i in np.flatnonzero(answerable(rules)).tolist())
    return [fb for fb in answers if fb not in (truth, win)]


def states_after(rules: Rules, guess: Code, codes: np.ndarray, lies: np.ndarray) -> np.ndarray:
    """How ``guess`` splits the states (``codes`` as rows, each with the ``lies`` it has needed): for each
    feedback index, the states an answer of that index leaves. A state stays true to its own feedback
    and, with a lie left, follows every other answer but the win, one lie more. Lies make the parts
    overlap: their sizes add up to more than the states."""
    space = code_space(rules)
    marks = space.feedback_to(guess, space.index_of(codes))
    return split_states(rules, marks[None, :], np.asarray(lies))[0]


@dataclass(frozen=True)
class Liar:
    """A codemaker that uses its lies (``--liar``): at the answers numbered in ``turns`` (from 1), or,
    with no ``turns``, at each answer with probability one half while lies are left. Each wrong answer
    is drawn among :func:`lies_told`; every draw is reproducible from ``seed`` and the secret. The
    win is always told: a guess that is the secret gets no lie, and a turn of ``turns`` that falls on
    it is skipped.

    >>> liar = Liar(Rules(4, 6, lies=1), turns=(2,), seed=1)
    >>> answer = liar.answers((0, 1, 2, 3))
    >>> answer((0, 0, 1, 1)), answer((0, 1, 2, 4)) != (3, 0), answer((0, 1, 2, 5))
    ((1, 1), True, (3, 0))
    """

    rules: Rules
    turns: tuple[int, ...] = ()
    seed: int | None = None

    def answer(self, secret: Code, history: list[Entry], guess: Code) -> Feedback:
        """The answer to ``guess`` after ``history`` (this game's, against ``secret``): a function of them and
        the seed alone, so that a game rebuilt from its history (a server's, after a restart) answers on
        as it would have."""
        rules = self.rules
        rule = rule_of(rules)
        truth = rule.score(guess, secret)
        wrong = lies_told(rules, guess, secret)
        number = len(history) + 1
        rng = np.random.default_rng(None if self.seed is None else [self.seed, number, *secret])
        told = len(broken(rules, history, secret))
        lie = told < rules.lies and wrong and (number in self.turns if self.turns else rng.random() < 0.5)
        return wrong[int(rng.integers(len(wrong)))] if lie else truth

    def answers(self, secret: Code) -> Callable[[Code], Feedback]:
        """The answers of one game against ``secret``, one call per guess in order."""
        history: list[Entry] = []

        def answer(guess: Code) -> Feedback:
            fb = self.answer(secret, history, tuple(guess))
            history.append((tuple(guess), fb))
            return fb
        return answer


def parse_liar(text: str, rules: Rules, seed: int | None) -> Liar:
    """``--liar WHEN``: ``random`` (each answer a lie with probability one half while lies are left) or the
    answers that lie, by number (``2,5``); at most ``--lies`` of them. (``every``, every way of lying, is
    ``bench --all``'s, in ``mm_logic.liar.every_lie``.)"""
    if not rules.lies:
        raise BadInput("--liar needs --lies K: the codemaker may tell at most K wrong answers")
    if text == "every":
        raise BadInput("--liar every applies to bench --all: every secret, answered every way")
    if text == "random":
        return Liar(rules, (), seed)
    try:
        if not text.isascii() or "_" in text:
            raise ValueError  # int() reads other scripts' digits ('٢' as 2) and 1_0 as 10: numbers are 0-9 alone
        turns = tuple(sorted({whole_number(part) for part in text.split(",")}))
    except ValueError:
        raise BadInput(f"--liar takes random or the answers that lie, by number (2,5), got {shown(text)}") from None
    except BadInput as error:  # more digits than int() reads
        raise BadInput(f"--liar: {error}") from None
    if not turns or turns[0] < 1:
        raise BadInput(f"--liar numbers answers from 1, got {shown(text)}")
    if len(turns) > rules.lies:
        raise BadInput(f"--liar names {len(turns)} answers, more than --lies {rules.lies} allows")
    return Liar(rules, turns, seed)


def split_states(rules: Rules, marks: np.ndarray, lies: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """:func:`states_after` for many guesses at once: ``marks[g, i]`` is the feedback index guess ``g`` gets
    from the ``i``-th state's code, which has needed ``lies[i]``; row ``g`` of the result gives, per feedback
    index, the states its answer leaves, each counted ``weights[lies it then has needed]`` (None: 1)."""
    rule = rule_of(rules)
    slots, win = rule.slots(rules.pegs), rule.win_index(rules.pegs)
    weights = np.ones(rules.lies + 2, dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
    lies = np.asarray(lies, dtype=np.int64)
    stays = weights[lies]  # what a state weighs when its answer is the truth
    # ... and when it is a lie: one lie more, for the states with one left (the others weigh 0)
    moved = np.where(lies < rules.lies, weights[np.minimum(lies + 1, rules.lies + 1)], 0).astype(np.int64)
    from .kernels.states import weighted_parts
    true_parts, liars = weighted_parts(np.ascontiguousarray(marks), stays, moved, slots)
    # every state with a lie left follows each answer but its own and the win; one that is the guess
    # itself (its own answer the win) follows none: the win is always told
    followers = int(moved.sum()) - liars[:, win]
    parts = true_parts + followers[:, None] - liars
    parts[:, win] = true_parts[:, win]
    return np.where(answerable(rules)[None, :], parts, true_parts)


def volume_weights(rules: Rules) -> np.ndarray:
    """What a state counts in a scorer's parts, by the lies it has needed: one more than the lies it has
    left (Berlekamp's volume with one question to go), so that a part of fresh codes weighs more than
    one of codes that have used their lies. Without it every first answer of a game with one lie
    leaves as many states (all but the guess), and every opening ties.

    >>> volume_weights(Rules(4, 6, lies=2)).tolist()
    [3, 2, 1, 0]
    """
    return np.arange(rules.lies + 1, -1, -1, dtype=np.int64)


def answerable(rules: Rules) -> np.ndarray:
    """Per feedback index, whether the rule takes it as an answer (``rule.impossible`` finds nothing against
    it): a liar's answer is one of these. With few colours some are given by no pair of codes (3x2's 0,1: no
    black peg means every peg differs); a liar may still give them, as a person may type them, and every
    front end takes them."""
    rule = rule_of(rules)
    outsiders = outside(rules, np.arange(rule.slots(rules.pegs)))
    return np.array([not out and rule.impossible(rule.from_index(i, rules.pegs), rules.pegs, rules.colors) is None
                     for i, out in enumerate(outsiders.tolist())])


def outside(rules: Rules, marks: np.ndarray) -> np.ndarray:
    """Per feedback index of ``marks``, whether it is the one a rule an encoding states (``--feedback FILE.lp``,
    ``FILE.pl``) gives the codes it does not admit (``EncodedRule.not_admitted``, :mod:`mm_logic.feedback.encoded`):
    no answer, so that no lie gives it, and such a code is never the secret. All False under other rules."""
    from .feedback.encoded import EncodedRule

    rule = rule_of(rules)
    if not isinstance(rule, EncodedRule):
        return np.zeros(np.shape(marks), dtype=bool)
    return np.asarray(marks) == rule.not_admitted


__all__ = ["NEVER", "Liar", "answerable", "broken", "lies_of_rows", "lies_told", "needs", "outside", "parse_liar",
           "possible", "possible_indices", "split_states", "states_after", "tell", "volume_weights"]
