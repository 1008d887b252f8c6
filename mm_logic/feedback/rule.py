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

#: The compiled feedbacks a rule may declare (:attr:`FeedbackRule.kernel`), numbered as the kernels number
#: them (:func:`mm_logic.kernels.scoring.rule_code`): black and white pegs, black pegs, one mark per peg.
PEGS_AND_COLOURS, BLACK_PEGS, ONE_MARK_PER_PEG = 0, 1, 2


def slots_dtype(slots: int):
    """The smallest unsigned dtype holding ``slots`` indices (0 to ``slots - 1``)."""
    return np.uint8 if slots <= 2**8 else np.uint16 if slots <= 2**16 else np.uint32 if slots <= 2**32 \
        else np.uint64


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

    # -- what the rule declares of itself --------------------------------------------------
    # None: not declared; then found on the game's feedback table (:func:`mm_logic.symmetry.game_symmetry`),
    # as for a rule of one's own. A built-in rule's declarations are checked on its table by the tests.
    #: Every order of the pegs keeps every feedback: fb(sigma g, sigma s) = fb(g, s).
    moves_pegs: bool | None = None
    #: Every renaming of the colours keeps every feedback: fb(pi g, pi s) = fb(g, s).
    renames_colours: bool | None = None
    #: A colour may be renamed on one peg alone (black pegs: only the pegs where two codes agree count);
    #: a symmetry of the game where the repetition rule allows every code.
    renames_per_peg: bool = False
    #: fb(g, s) = fb(s, g) for every pair: the feedback table is its own transpose.
    swaps_roles: bool | None = None
    #: The compiled scorers' own feedback (:func:`mm_logic.kernels.scoring.rule_code`): ``PEGS_AND_COLOURS``,
    #: ``BLACK_PEGS`` or ``ONE_MARK_PER_PEG`` (this module's); None: none, the scorers read the game's
    #: feedback table.
    kernel: int | None = None
    #: Codes of one colour multiset get as many answers as the pegs where they differ allow (the feedback
    #: depends on the secret's colours and its black pegs): the scorers' bound by colour groups holds.
    by_multiset: bool = False
    #: The feedback is computed by calling code of the user's own in this process, a pair at a time (a rule
    #: module, ``--feedback FILE.py``): its table, every code against every code, may take minutes, and is
    #: derived under the watch that a command's ``--time-limit`` bounds (``limit_scoring`` in
    #: ``mm_logic.feedback.watch``).
    scored_by_calls: bool = False

    #: The rule a game plays when it names none: its JSON ``rules`` may leave ``feedback`` out.
    default: bool = False
    #: A history entry as the command line takes it, for messages: ``GUESS:B,W (e.g. 0011:1,0)``.
    entry_form: str = "GUESS:FEEDBACK"
    #: A codemaker's answer as the server's JSON body, for messages: ``{"black": B, "white": W}``.
    json_body: str = "{}"
    #: The JSON schema of a feedback's keys (the server's OpenAPI document).
    json_schema: dict = {}
    #: How the terminal game asks a person to answer (``play --role codemaker``).
    answer_with: str = ""
    #: The parts of the ASP encoding an entry grounds: ``step(t)`` (feedback.lp, and the rules a user's
    #: encoding adds) and the rule's own part, if any.
    asp_parts: tuple[str, ...] = ("step",)
    #: The parts of ``static.lp`` that leave one answer open per guess (:func:`mm_logic.static.search.answers`),
    #: after :attr:`asp_parts`; None: the static search reads the rule's answers from its feedback table.
    open_parts: tuple[str, ...] | None = None
    #: What ``info`` calls the feedbacks the rule writes (:meth:`slots` of them).
    written: str = "feedbacks the rule writes"
    #: Whether ``diagnose.lp`` relaxes the rule's entries (a rule of one's own is relaxed by dropping entries).
    diagnosed: bool = True

    def classes(self, pegs: int) -> int | None:
        """How many answers a guess that is a code may get at most (slots that never occur left out), or
        None: as the game's feedback table shows."""
        return None

    def answer_shape(self, pegs: int) -> tuple[int, int]:
        """How :attr:`open_parts`' models write an answer: as ``width`` numbers below ``base``, ``(base, width)``."""
        raise NotImplementedError

    def answer_atom(self, symbol) -> tuple[int, int, int]:
        """Where an atom of an answer in :attr:`open_parts`' models goes: ``(guess, slot, value)``, the answer
        being the values by slot in :meth:`answer_shape`'s base (``black(t,B)``: guess t, slot 0, B)."""
        raise NotImplementedError

    def written_count(self, pegs: int) -> int:
        """How many feedbacks the rule writes, the win included (seed 000's count): its indices."""
        return self.slots(pegs)

    def never(self, pegs: int) -> str:
        """Which of the feedbacks written never occur, as ``info`` says it."""
        return "every feedback but those that cannot occur"

    def admitted_codes(self) -> np.ndarray | None:
        """The codes the rule answers as secrets where it narrows the code space (a rule an encoding states):
        indices into the rules' codes, increasing; None: every code."""
        return None

    def kept_table(self) -> np.ndarray | None:
        """The rule's own table of feedback indices between every pair of codes (``[guess, secret]``), where it
        keeps one (a rule derived from an encoding); None: the code space computes it."""
        return None

    def asp_facts(self, t: int, fb: Feedback) -> str:
        """The facts of entry ``t``'s feedback, as the ASP encodings read them."""
        raise NotImplementedError

    def prolog_entries(self, guess: Code, fb: Feedback) -> list:
        """The entry as the Prolog bridge reads it: janus terms (a pair is a ``-`` term), one or two."""
        raise NotImplementedError

    def json_problem(self, body: dict) -> str:
        """Why a JSON answer with the rule's keys is no feedback of it (:meth:`from_json` gave None)."""
        return f"the feedback is not of the form {self.form}"

    def fits(self, guess: Code, guess_counts, code: Code, counts, fb: Feedback) -> bool:
        """Whether ``code`` gives ``guess`` the feedback ``fb`` (the colour counts of both given, as
        :class:`collections.Counter`, for the rules that use them)."""
        return self.score(guess, code) == tuple(fb)

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

    def value_bounds(self, pegs: int) -> tuple[int, int]:
        """The least and the most one number of a feedback may be, the win's included: what an array of the
        rule's feedbacks holds (the Gymnasium environment's observation). Counts of pegs by default."""
        return 0, pegs

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
        return slots_dtype(self.slots(pegs))

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
