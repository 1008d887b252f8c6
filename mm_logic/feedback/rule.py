"""What a feedback rule is: the codemaker's answer to a guess, as a value, an index and text.

Every rule gives a guess against a secret one :data:`~mm_logic.rules.Feedback` (a tuple of small
integers), numbers the feedbacks densely (their *index*, so that a partition of codes by
feedback is one ``bincount``), reads and writes them as people type them, and tells which
can occur. The engines' answer check, the reference engine, the scorers and every front end
ask the rule of the game (:func:`mm_logic.feedback.rule_of`); nothing else computes a feedback.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from ..rules import Code, Feedback


class FeedbackRule(ABC):
    """One feedback rule (``--feedback NAME``)."""

    #: The ``--feedback`` name.
    name: str = "?"
    #: One line for ``--help`` and the docs.
    summary: str = ""
    #: How one feedback is written, for messages: ``B,W (e.g. 1,2)``.
    form: str = ""
    #: The keys of a guess's feedback in JSON (``black`` and ``white``; ``black``; ``marks``).
    json_keys: tuple[str, ...] = ()
    #: What a person types as an answer, for the terminal game's messages.
    typed: str = ""
    #: The terminal game's prompt after the computer's guess, and its help on answering.
    prompt: str = ""
    explained: str = ""

    # -- the rule ------------------------------------------------------------------------
    @abstractmethod
    def score(self, guess: Code, secret: Code) -> Feedback:
        """The feedback of ``guess`` when the secret is ``secret``."""

    @abstractmethod
    def indices(self, guess: Code, codes: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """The feedback indices of ``guess`` against every row of ``codes`` (vectorised); ``counts`` is
        :func:`~mm_logic.feedback.colour_counts` of ``codes``."""

    @abstractmethod
    def win(self, pegs: int) -> Feedback:
        """The feedback of the secret itself, which ends a game."""

    def right_place(self, fb: Feedback) -> int:
        """How many pegs the feedback says are right (the black pegs, the ``x`` marks)."""
        return fb[0]

    # -- indices -------------------------------------------------------------------------
    @abstractmethod
    def slots(self, pegs: int) -> int:
        """How many feedback indices there are (some may never occur)."""

    @abstractmethod
    def index(self, fb: Feedback, pegs: int) -> int:
        """The dense index of a feedback."""

    @abstractmethod
    def from_index(self, index: int, pegs: int) -> Feedback:
        """Inverse of :meth:`index`."""

    def win_index(self, pegs: int) -> int:
        """The index of :meth:`win`."""
        return self.index(self.win(pegs), pegs)

    def index_dtype(self, pegs: int):
        """The smallest unsigned dtype holding every index."""
        slots = self.slots(pegs)
        return np.uint8 if slots <= 2**8 else np.uint16 if slots <= 2**16 else np.uint32 if slots <= 2**32 \
            else np.uint64

    # -- text and JSON ---------------------------------------------------------------------
    @abstractmethod
    def read(self, text: str, pegs: int) -> Feedback | None:
        """The feedback as people type it, unchecked; None when ``text`` is not of the rule's form."""

    @abstractmethod
    def write(self, fb: Feedback) -> str:
        """The feedback as the contract writes it."""

    @abstractmethod
    def impossible(self, fb: Feedback, pegs: int, colors: int) -> str | None:
        """Why no pair of codes gives ``fb``, as the end of the message ``feedback X`` starts (its own
        separator first: ``" is negative"``), or None when some pair may."""

    @abstractmethod
    def as_json(self, fb: Feedback) -> dict:
        """The feedback's keys in a JSON guess (:attr:`json_keys`)."""

    @abstractmethod
    def from_json(self, obj: dict, pegs: int) -> Feedback | None:
        """The feedback of a JSON guess, or None when its keys are not of the rule's form."""
