"""The rules of one game: code length, colours, repetition, the feedback rule and the alphabet."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from math import comb

import numpy as np

from .support.errors import BadInput, shown_number
from .support.limits import given, is_whole

DEFAULT_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: The largest games any front end takes (colour counts are packed in bytes; 64 pegs is far
#: beyond what a solver plays in minutes). The CLI's option ranges and the server's checks use them.
MAX_PEGS = 64
MAX_COLORS = 255
#: The most wrong answers a game allows (``--lies``): beyond a few, nearly every code stays possible
#: for many guesses, and the states a scorer weighs (code, lies used) grow with each.
MAX_LIES = 3
#: The feedback rules (``--feedback``), each defined in :mod:`mm_logic.feedback`: black and white pegs,
#: black pegs only, one mark per peg.
FEEDBACK_RULES = ("standard", "black", "positional")
#: How each of them is named in a game's short label (:meth:`Rules.describe`), in that order.
RULE_LABELS = ("", "black-peg", "positional")
#: What engines and strategies list for the feedback rules of users' own files (``--feedback FILE.py``).
RULE_FILE = "FILE.py"

#: A code: one colour number per peg.
Code = tuple[int, ...]
#: What the codemaker tells of a guess, as the feedback rule writes it: ``(black, white)`` (standard),
#: ``(black,)`` (black-peg), one mark per peg (positional: 2 right place, 1 elsewhere, 0 neither).
Feedback = tuple[int, ...]
#: A history entry: a guess and its feedback.
Entry = tuple[Code, Feedback]


@dataclass(frozen=True)
class Naming:
    """How a front end names, in its messages, the rules' fields, its other choices and a rule of one's own.

    The command line names its options (``--max-repeat``, ``--strategy``, ``--feedback rule.py``:
    :data:`COMMAND_LINE`); the server a request's fields (``rules.max_repeat``, ``strategy``) and a variant by
    its name, never a file (:data:`REQUEST`, then :meth:`of_variant`). :class:`Rules` carry theirs, so a
    message made far from the front end, from the rules alone, is in its words.
    """

    #: Before a rules field's name: ``--`` on the command line (its ``_`` written ``-``), ``rules.`` in a request.
    rules_prefix: str = "--"
    #: Before another of the front end's choices (``strategy``, ``backend``): ``--``, or nothing in a request.
    prefix: str = "--"
    #: The variant the rules are played as, which messages name instead of its files (None: no variant).
    variant: str | None = None
    #: The backends that play the rules (None: any the front end offers).
    backends: tuple[str, ...] | None = None

    def rules_field(self, name: str) -> str:
        """A rules field as the front end names it: ``--max-repeat`` or ``rules.max_repeat``."""
        return self.rules_prefix + (name.replace("_", "-") if self.rules_prefix == "--" else name)

    def option(self, name: str) -> str:
        """Another of the front end's choices: ``--strategy`` or ``strategy``."""
        return self.prefix + name

    def feedback(self, feedback: str) -> str:
        """A game's feedback rule as the front end names it: ``--feedback rule.py``, ``rules.feedback black``;
        ``variant shared`` for a variant's, never its file."""
        return f"variant {self.variant}" if self.variant is not None else f"{self.rules_field('feedback')} {feedback}"

    def more_time(self) -> str:
        """What a line past a time limit advises: ``raise --time-limit`` on the command line; a request's limit is
        the server's, not the client's to raise."""
        return "raise --time-limit" if self.prefix == "--" else "the server sets that limit"

    def plays_on(self, backend: str) -> bool:
        """Whether ``backend`` plays the rules, as far as the front end knows (a variant names its backends)."""
        return self.backends is None or backend in self.backends

    def of_variant(self, name: str, backends: tuple[str, ...]) -> Naming:
        """These words for the rules of the variant ``name``, played on ``backends``."""
        return replace(self, variant=name, backends=backends)


#: The command line's words: its options.
COMMAND_LINE = Naming()
#: A request's words (the server's API): the fields of its JSON body.
REQUEST = Naming("rules.", "")


@dataclass(frozen=True)
class Rules:
    """What a valid code is.

    Parameters
    ----------
    pegs:
        Code length (``--pegs``).
    colors:
        Number of colours; colours are the integers ``0 .. colors-1``.
    max_repeat:
        Every colour at most this many times in a code; ``None`` is unlimited
        and ``1`` is bulls and cows (``--no-repeat``).
    alphabet:
        Symbols used to write colours; colour ``i`` is ``alphabet[i]``.
    feedback:
        What the codemaker tells of a guess (``--feedback``): one of :data:`FEEDBACK_RULES`, or the path
        of a file stating a rule of one's own: a Python module (``FILE.py``, :mod:`mm_logic.feedback.custom`)
        or an encoding whose ``told``/``won`` rule is derived by its own engine (``FILE.lp``, ``FILE.pl``,
        :mod:`mm_logic.feedback.encoded`).
    lies:
        How many answers of a game may be wrong (``--lies``, :mod:`mm_logic.lies`): a code is possible
        while it breaks at most this many history entries. The win is always told.
    naming:
        How the messages about these rules name their fields and rule (:class:`Naming`): the command line's
        options unless the rules came from elsewhere (a request's fields). Not part of the rules' value.
    """

    pegs: int = 4
    colors: int = 6
    max_repeat: int | None = None
    alphabet: str = DEFAULT_ALPHABET
    feedback: str = "standard"
    lies: int = 0
    naming: Naming = field(default=COMMAND_LINE, compare=False, repr=False)

    def __post_init__(self) -> None:
        name = self.naming.rules_field
        # Types first (a program's values: a front end's readers give these types): "4" or 4.5 pegs would fail
        # far inside, as a TypeError; a numpy integer is kept as the int it is.
        for field_name in ("pegs", "colors", "max_repeat", "lies"):
            value = getattr(self, field_name)
            if value is None and field_name == "max_repeat":
                continue
            if not is_whole(value):
                raise BadInput(f"{name(field_name)} must be a whole number, got {given(value)}")
            object.__setattr__(self, field_name, int(value))
        for field_name in ("alphabet", "feedback"):
            if not isinstance(getattr(self, field_name), str):
                raise BadInput(f"{name(field_name)} must be a string, got {given(getattr(self, field_name))}")
        if not 1 <= self.pegs <= MAX_PEGS:
            raise BadInput(f"{name('pegs')} must be between 1 and {MAX_PEGS}, got {shown_number(self.pegs)}")
        if not 1 <= self.colors <= MAX_COLORS:
            raise BadInput(f"{name('colors')} must be between 1 and {MAX_COLORS}, got {shown_number(self.colors)}")
        if self.max_repeat is not None and self.max_repeat < 1:
            raise BadInput(f"{name('max_repeat')} must be at least 1, got {shown_number(self.max_repeat)}")
        if not 0 <= self.lies <= MAX_LIES:
            raise BadInput(f"{name('lies')} must be between 0 and {MAX_LIES}, got {shown_number(self.lies)}")
        if self.feedback not in FEEDBACK_RULES and not self.feedback.endswith((".py", ".lp", ".pl")):
            raise BadInput(f"unknown feedback rule {given(self.feedback)}; choose from {', '.join(FEEDBACK_RULES)}, "
                           "or a FILE.py, FILE.lp or FILE.pl of your own")
        if (len(set(self.alphabet)) != len(self.alphabet) or "," in self.alphabet or ":" in self.alphabet
                or any(symbol.isspace() for symbol in self.alphabet)):
            # ',' ':' and spaces separate pegs and entries: a code using them could not be read back.
            raise BadInput(f"{name('alphabet')} must list distinct symbols, without ',', ':' or spaces")
        if self.size == 0:
            raise BadInput(
                f"no code of {self.pegs} pegs uses {self.colors} colours "
                f"at most {self.max_repeat} time(s) each"
            )

    @property
    def repeat_limit(self) -> int:
        """How often one colour may occur in a code (``pegs`` when unlimited)."""
        return self.pegs if self.max_repeat is None else min(self.max_repeat, self.pegs)

    @property
    def restricted(self) -> bool:
        """True when the repetition rule excludes some codes."""
        return self.repeat_limit < self.pegs

    @property
    def repeat_option(self) -> str:
        """The option that sets the repetition rule, for messages: ``--no-repeat`` or ``--max-repeat M``
        (in a request's words ``rules.no_repeat``, ``rules.max_repeat M``)."""
        name = self.naming.rules_field
        return name("no_repeat") if self.repeat_limit == 1 else f"{name('max_repeat')} {self.repeat_limit}"

    @property
    def symbolic(self) -> bool:
        """True when codes are written as symbols rather than comma-separated integers."""
        return self.colors <= len(self.alphabet)

    @cached_property
    def size(self) -> int:
        """Number of valid codes (exact, any size)."""
        limit = self.repeat_limit
        if limit >= self.pegs:
            return self.colors**self.pegs
        # ways[n] = number of words of length n over the colours seen so far,
        # each at most `limit` times; colours are added one at a time and
        # comb() places the new colour's occurrences among the n positions.
        ways = [1] + [0] * self.pegs
        for _ in range(self.colors):
            ways = [
                sum(ways[n - k] * comb(n, k) for k in range(0, min(limit, n) + 1))
                for n in range(self.pegs + 1)
            ]
        return ways[self.pegs]

    @property
    def feedback_kind(self) -> str:
        """The feedback rule's name, or ``FILE.py`` for a rule of the user's own (what engines and
        strategies list in their ``feedback_rules``)."""
        return self.feedback if self.feedback in FEEDBACK_RULES else RULE_FILE

    def as_dict(self) -> dict:
        """The rules as the contract's JSON ``rules`` object: ``pegs``, ``colors``, ``max_repeat`` and
        ``feedback`` (the rule's name, or the ``FILE.py`` path as given), ``"standard"`` included."""
        rules = {"pegs": self.pegs, "colors": self.colors, "max_repeat": self.max_repeat, "feedback": self.feedback}
        if self.lies:  # a game without lies writes what it always wrote
            rules["lies"] = self.lies
        return rules

    @classmethod
    def from_dict(cls, data: dict, alphabet: str = DEFAULT_ALPHABET) -> Rules:
        """The rules of a JSON ``rules`` object (:meth:`as_dict`); one without ``feedback`` (written before
        every object named its rule) plays the standard rule. Values are checked as :class:`Rules` checks
        them; the caller checks their types."""
        data = rules_object(data)
        return cls(data["pegs"], data["colors"], data["max_repeat"], alphabet=alphabet, feedback=data["feedback"],
                   lies=data.get("lies", 0))

    def code_text(self, code) -> str:
        """A code in the contract's notation: its colours' symbols, or its colour numbers with commas."""
        if self.symbolic:
            return "".join(self.alphabet[int(c)] for c in code)
        return ",".join(str(int(c)) for c in code)

    def describe(self) -> str:
        """Short human label, e.g. ``4x6``, ``4x10 no-repeat``, ``5x8 max-repeat 2``; a variant's rules
        (:attr:`Naming.variant`) by its name, never its files (``4x6 variant palindrome``)."""
        label = f"{self.pegs}x{self.colors}"
        if self.max_repeat == 1:
            label += " no-repeat"
        elif self.max_repeat is not None:
            label += f" max-repeat {self.max_repeat}"
        rule_label = (f"variant {self.naming.variant}" if self.naming.variant is not None
                      else RULE_LABELS[FEEDBACK_RULES.index(self.feedback)] if self.feedback in FEEDBACK_RULES
                      else "feedback " + self.feedback.rsplit("/", 1)[-1])
        if rule_label:  # the rule a game plays when it names none is not written
            label += f" {rule_label}"
        if self.lies:
            label += f" {self.lies} lie" + ("s" if self.lies > 1 else "")
        return label

    @property
    def truthful(self) -> Rules:
        """The same rules without lies (what one history entry's feedback means)."""
        return replace(self, lies=0) if self.lies else self


def rules_object(data: dict) -> dict:
    """A JSON ``rules`` object as :meth:`Rules.as_dict` writes it today, to compare by value: the objects
    written before every one named its feedback rule (tree files, sweep outputs, an older server's replies)
    have no ``feedback``, which means the standard rule.

    >>> rules_object({"pegs": 4, "colors": 6, "max_repeat": None}) == Rules().as_dict()
    True
    >>> rules_object({"pegs": 4, "colors": 6, "max_repeat": None, "lies": 0}) == Rules().as_dict()
    True
    """
    data = {**data, "feedback": data.get("feedback", "standard")}
    if data.get("lies") == 0:  # no lies is what an object without the key says
        del data["lies"]
    return data


def rules_from_json(data, alphabet=None) -> Rules:
    """The rules of a file's JSON ``rules`` object (and its ``alphabet``, null or missing for the default), each
    value's type checked: anything else is one :class:`BadInput` line (a tree file's, a puzzle set's).

    >>> rules_from_json({"pegs": 4, "colors": 6, "max_repeat": None}) == Rules()
    True
    """
    shape = '"rules" must be {"pegs": P, "colors": C, "max_repeat": M or null} and an optional "feedback": RULE'
    # "feedback" may be missing: a file saved before every rules object named its rule plays the standard one.
    if not isinstance(data, dict) or not {"pegs", "colors", "max_repeat"} <= data.keys() \
            or not data.keys() <= {"pegs", "colors", "max_repeat", "feedback"}:
        raise BadInput(shape)
    values = [data["pegs"], data["colors"], data["max_repeat"]]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values[:2]) or not (
            values[2] is None or isinstance(values[2], int) and not isinstance(values[2], bool)) \
            or not isinstance(data.get("feedback", "standard"), str):
        raise BadInput(shape)
    if alphabet is not None and not isinstance(alphabet, str):
        raise BadInput('"alphabet" must be a string or null')
    return Rules.from_dict(data, alphabet=alphabet or DEFAULT_ALPHABET)


def rule_names(names: tuple[str, ...]) -> str:
    """Feedback rules as messages name them: ``the standard feedback rule``, ``the standard, black and
    positional feedback rules`` (``FILE.py``: ``rules of your own``).

    >>> rule_names(("standard",)), rule_names(("standard", "black", "positional"))
    ('the standard feedback rule', 'the standard, black and positional feedback rules')
    """
    built_in = [n for n in names if n != RULE_FILE]
    text = "the " + (built_in[0] if len(built_in) == 1 else ", ".join(built_in[:-1]) + " and " + built_in[-1])
    text += " feedback rule" + ("s" if len(built_in) > 1 else "")
    return text + (" and rules of your own" if RULE_FILE in names else "")


def make_rules(pegs: int = 4, colors: int = 6, no_repeat: bool = False, max_repeat: int | None = None,
               alphabet: str = DEFAULT_ALPHABET, feedback: str = "standard", lies: int = 0,
               naming: Naming = COMMAND_LINE) -> Rules:
    """Build :class:`Rules` from the command-line options (or a request's fields, named by ``naming``),
    checking they agree."""
    return Rules(pegs=pegs, colors=colors, max_repeat=repeat_limit(no_repeat, max_repeat, naming), alphabet=alphabet,
                 feedback=feedback, lies=lies, naming=naming)


def repeat_limit(no_repeat: bool, max_repeat: int | None, naming: Naming = COMMAND_LINE) -> int | None:
    """The most times a colour may occur, from ``--no-repeat`` and ``--max-repeat`` (None: no limit), refused
    in one line where they contradict each other.

    >>> repeat_limit(True, None), repeat_limit(False, 2), repeat_limit(False, None)
    (1, 2, None)
    """
    if no_repeat and max_repeat not in (None, 1):
        name = naming.rules_field
        raise BadInput(f"{name('no_repeat')} contradicts {name('max_repeat')} {max_repeat}")
    return 1 if no_repeat else max_repeat


def all_codes(rules: Rules) -> np.ndarray:
    """Array ``(size, pegs)`` of every valid code of ``rules``, lexicographic order (colour 0 < colour 1 < ...,
    peg 1 most significant): what :attr:`mm_logic.codespace.CodeSpace.codes` keeps."""
    r = rules
    dtype = np.uint8 if r.colors <= 255 else np.uint16
    if not r.restricted:
        n = r.size
        digits = np.arange(n, dtype=np.int64)
        codes = np.empty((n, r.pegs), dtype=dtype)
        for p in range(r.pegs - 1, -1, -1):
            codes[:, p] = digits % r.colors
            digits //= r.colors
        return codes
    # Extend prefixes one peg at a time, dropping those that already break
    # the repetition rule, so we never materialise colours**pegs rows.
    codes = np.zeros((1, 0), dtype=dtype)
    counts = np.zeros((1, r.colors), dtype=np.uint8)
    for _ in range(r.pegs):
        m = codes.shape[0]
        new_colour = np.tile(np.arange(r.colors, dtype=dtype), m)
        parent = np.repeat(np.arange(m), r.colors)
        new_counts = counts[parent]
        new_counts[np.arange(parent.size), new_colour] += 1
        keep = new_counts[np.arange(parent.size), new_colour] <= r.repeat_limit
        codes = np.concatenate([codes[parent[keep]], new_colour[keep, None]], axis=1)
        counts = new_counts[keep]
    return codes


def code_keys(codes: np.ndarray, colors: int) -> np.ndarray:
    """Each code's number in base ``colors`` (``int64``; peg 1 most significant): increasing along
    :func:`all_codes`' order, so that ``searchsorted`` finds a code's position among them."""
    pegs = codes.shape[1]
    return np.asarray(codes, dtype=np.int64) @ (colors ** np.arange(pegs - 1, -1, -1, dtype=np.int64))
