"""How codes, feedback and history entries are written (``docs/cli.md``).

A code is a tuple of colour numbers. It is written as one symbol per peg
(``0011``) when the alphabet has enough symbols, otherwise as comma-separated
integers (``0,17,33,2``); the integer form is accepted everywhere, and so are
pegs separated by spaces (``0 1 2 3``, ``10 0 3 17``). Feedback is written as
the game's feedback rule says (:mod:`mm_logic.feedback`): ``B,W`` (standard),
``B`` (black-peg), one mark per peg ``x-o-`` (positional); a history entry is
``GUESS:FEEDBACK``.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from contextlib import suppress
from decimal import Decimal

from .feedback import rule_of
from .rules import Code, Entry, Feedback, Rules

# The quoting of what the user typed lives with the errors (the feedback rules' messages quote too); read from
# here as well.
from .support.errors import SHOWN, BadInput, bytes_as_typed, quoted, shown  # noqa: F401
from .support.limits import given, is_whole


def abridged(text: str, limit: int) -> str:
    """``text`` whole when short, else its first ``limit`` characters and its length."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def whole_number(text: str) -> int:
    """``int(text)`` of a number a person or a file wrote; one :class:`BadInput` line, quoting ``text`` by its
    start, when it has more digits than Python's ``int()`` reads (4,300: ``sys.get_int_max_str_digits``), which
    no count, size or seed comes near.

    >>> whole_number("-17")
    -17
    """
    limit = sys.get_int_max_str_digits()
    if limit and sum(c.isdigit() for c in text) > limit:
        raise BadInput(f"{shown(text)} is {_too_long(limit)}")
    return int(text)


def _too_long(limit: int) -> str:
    """Why a number is not read."""
    return f"a number too long to read (more than {limit:,} digits)"


#: Why a line is no JSON at all (:func:`json_line`): a reader tells it from a line cut short by a kill.
NOT_JSON = "is not JSON"


def json_lines(text: str) -> list[str]:
    """The lines of a JSON Lines text: split at ``\\n`` alone, each line's ``\\r`` before it dropped, no line after
    a last end of line (as ``str.splitlines`` gives them, but for the line breaks it also splits at: U+2028,
    U+0085 and the like are valid raw inside a JSON string, as JavaScript's JSON.stringify writes them).

    >>> json_lines('{"a": "x\\u2028y"}\\r\\n\\n{"b": 1}')
    ['{"a": "x\\u2028y"}', '', '{"b": 1}']
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the end of the last line, or an empty text: no line after it
    return [line.removesuffix("\r") for line in lines]


def json_line(text: str, **options):
    """One line of a file mmlogic writes (a journal's, a sweep's row) read as JSON (``options``: json.loads'
    own); where it is none, ValueError saying why, as the readers each say it after the line's number: ``is
    blank``, ``is not JSON`` (nested thousands deep too), or ``has '99...'... (5,000 characters), a number too
    long to read (more than 4,300 digits)``.

    >>> json_line('{"value": 7}')
    {'value': 7}
    """
    if not text.strip():
        raise ValueError("is blank")
    unread: list[str] = []

    def number(digits: str) -> int:
        try:
            return whole_number(digits)
        except BadInput:
            unread.append(digits)
            raise

    try:
        return json.loads(text, parse_int=number, **options)
    except BadInput:
        raise ValueError(f"has {shown(unread[0])}, {_too_long(sys.get_int_max_str_digits())}") from None
    except (ValueError, RecursionError):
        raise ValueError(NOT_JSON) from None


def _most_digits(text: str) -> int:
    """How many digits the longest number in ``text`` has."""
    return max(map(len, re.findall("[0-9]+", text)), default=0)


def format_code(code: Code, rules: Rules) -> str:
    """Write a code in the contract's notation (:meth:`mm_logic.rules.Rules.code_text`)."""
    return rules.code_text(code)


def format_feedback(feedback: Feedback, rules: Rules) -> str:
    """Write feedback as the game's rule does: ``B,W``, ``B`` or ``x-o-``."""
    return rule_of(rules).write(feedback)


def format_entry(entry: Entry, rules: Rules) -> str:
    """Write a history entry as ``GUESS:FEEDBACK``."""
    return f"{format_code(entry[0], rules)}:{format_feedback(entry[1], rules)}"


def _symbol_value(symbol: str, rules: Rules, text: str) -> int:
    alphabet = rules.alphabet[: rules.colors]
    index = alphabet.find(symbol)
    if index < 0 and symbol.upper() != symbol.lower():
        # Letters are accepted in either case when that is unambiguous.
        folded = [i for i, a in enumerate(alphabet) if a.lower() == symbol.lower()]
        index = folded[0] if len(folded) == 1 else -1
    if index < 0:
        raise BadInput(
            f"symbol {quoted(symbol)} in code {shown(text)} is not one of the {rules.colors} colours {alphabet}"
        )
    return index


def _readings(token: str, rules: Rules, text: str) -> tuple[int | None, int | None]:
    """(as a symbol, as a colour number) of one space-separated peg: None where it is not one."""
    symbol = None
    if rules.symbolic and len(token) == 1:
        with suppress(BadInput):
            symbol = _symbol_value(token, rules, text)
    number = int(token) if token.isascii() and token.isdigit() and int(token) < rules.colors else None
    return symbol, number


def _spaced_code(tokens: list[str], rules: Rules, text: str) -> Code:
    """Pegs separated by spaces: symbols of the alphabet where every token is one, else colour
    numbers where every token is one (with the alphabet abcdefgh, "0 1 2 3" is colours 0..3),
    else each token as the one thing it can be. A token whose two readings differ is never read
    beside tokens of the other kind: with the alphabet ab0123, "2 3 4 5" is colours 2..5, not
    4, 5, 4, 5, and "a 2 5 b" is refused ("2" is colour 4 as a symbol, 2 as a number)."""
    readings = [_readings(token, rules, text) for token in tokens]
    if all(symbol is not None for symbol, _ in readings):
        return tuple(symbol for symbol, _ in readings)
    if all(number is not None for _, number in readings):
        return tuple(number for _, number in readings)
    for token, (symbol, number) in zip(tokens, readings):
        if symbol is None and number is None:
            raise BadInput(f"peg {quoted(token)} in code {shown(text)} is not one of the {rules.colors} colours "
                           + (rules.alphabet[: rules.colors] if rules.symbolic else f"0..{rules.colors - 1}"))
    if any(symbol is not None and number is not None and symbol != number for symbol, number in readings):
        raise BadInput(f"code {shown(text)} mixes symbols of the alphabet {rules.alphabet[: rules.colors]} "
                       f"with colour numbers (write every peg one way)")
    return tuple(number if symbol is None else symbol for symbol, number in readings)


def parse_code(text: str, rules: Rules, *, check_repeat: bool = True) -> Code:
    """Read a code, checking its length, its symbols and the repetition rule.

    Examples
    --------
    >>> parse_code("0011", Rules())
    (0, 0, 1, 1)
    >>> parse_code("0,17,33,2", Rules(colors=40))
    (0, 17, 33, 2)
    >>> parse_code("0 1 2 3", Rules())
    (0, 1, 2, 3)
    """
    text = text.strip()
    # Ten times what a peg takes (its digits, a separator and spaces) is no slip of the keyboard:
    # such a text is refused before it is split, and its message does not repeat it whole.
    if len(text) > 10 * rules.pegs * (len(str(rules.colors - 1)) + 3) + 100:
        raise BadInput(f"code {shown(text)} is too long for {rules.pegs} pegs")
    if "," in text:
        parts = [p.strip() for p in text.split(",")]
        if "" in parts:
            raise BadInput(f"code {shown(text)} has an empty peg (a comma with no number before or after it)")
        if any(p.isdecimal() and not p.isascii() for p in parts):  # int() reads them: codes are ASCII
            raise BadInput(f"code {shown(text)} writes colour numbers with digits other than 0-9")
        try:
            if not all(p.isascii() for p in parts):
                raise ValueError  # '²' and the like, which int() reads in part or not at all
            code = tuple(int(p) for p in parts)
        except ValueError:
            raise BadInput(f"code {shown(text)} mixes commas with non-numbers") from None
        bad = [c for c in code if not 0 <= c < rules.colors]
        if bad:
            raise BadInput(f"colour {bad[0]} in code {shown(text)} is outside 0..{rules.colors - 1}")
    elif len(text.split()) > 1 or (rules.pegs == 1 and not rules.symbolic):
        # Spaces separate pegs: symbols of the alphabet or colour numbers (a code of one peg
        # written as a number, e.g. 17 of 40 colours, has neither comma nor space).
        code = _spaced_code(text.split(), rules, text)
    elif not rules.symbolic:
        raise BadInput(
            f"code {shown(text)}: with {rules.colors} colours (more than the alphabet's "
            f"{len(rules.alphabet)} symbols) write codes as comma-separated integers"
        )
    else:
        code = tuple(_symbol_value(s, rules, text) for s in text)
    if len(code) != rules.pegs:
        raise BadInput(f"code {shown(text)} has {len(code)} pegs, expected {rules.pegs}")
    if check_repeat and rules.restricted:
        colour, times = Counter(code).most_common(1)[0]
        if times > rules.repeat_limit:
            raise BadInput(
                f"code {shown(text)} uses colour {format_code((colour,), rules) if rules.symbolic else colour} "
                f"{times} times, which {rules.repeat_option} forbids"
            )
    return code


def check_feedback(feedback: Feedback, rules: Rules, where: str = "") -> Feedback:
    """Reject feedback that no pair of codes can produce under these rules."""
    rule = rule_of(rules)
    why = rule.impossible(tuple(feedback), rules.pegs, rules.colors)
    if why is not None:
        context = f" in {shown(where)}" if where else ""
        try:
            written = rule.write(feedback)
            again = rule.read(written, rules.pegs)
            if again is not None and again != tuple(feedback):
                raise ValueError(written)  # written as another answer (numbers left out): as given
        except (IndexError, TypeError, ValueError):  # not of the rule's form (a program's value): as numbers
            written = ",".join(map(str, feedback))
        # A number of thousands of digits is quoted by its start, as the text it was read from.
        raise BadInput(f"feedback {abridged(written, SHOWN)}{context}{why}")
    return tuple(feedback)


def read_feedback(text: str, rules: Rules) -> Feedback | None:
    """Feedback as people type it under the game's rule (``B,W`` or ``B W``; ``B``; ``x-o-``),
    unchecked; None when ``text`` is not of the rule's form. The one reader of ``next``'s history
    and ``play``'s answers."""
    return rule_of(rules).read(text, rules.pegs)


def parse_feedback(text: str, rules: Rules, where: str = "") -> Feedback:
    """Read feedback of the game's rule and check that it can occur."""
    feedback = read_feedback(text, rules)
    if feedback is None:
        digits, limit = _most_digits(text), sys.get_int_max_str_digits()
        # Of the rule's form but for a number left unread (int() refuses it): too many pegs, whatever its value.
        if limit and digits > limit and read_feedback(re.sub(f"[0-9]{{{limit + 1},}}", "0", text), rules) is not None:
            raise BadInput(f"feedback {shown(text)} in {shown(where or text)}: a number of {digits:,} digits "
                           f"exceeds the {rules.pegs} pegs")
        form = rule_of(rules).form
        raise BadInput(f"feedback {shown(text)} in {shown(where or text)} is not of the form {form}")
    return check_feedback(feedback, rules, where)


def parse_entry(text: str, rules: Rules, *, check_repeat: bool = True) -> Entry:
    """Read a history entry ``GUESS:FEEDBACK`` (``GUESS:B,W`` or ``GUESS:B W``, as ``play`` reads an
    answer, under the standard rule).

    ``check_repeat=False`` accepts a guess that breaks the repetition rule
    (the probes of strategies that ask with one-colour codes, such as
    ``human1``).

    Examples
    --------
    >>> parse_entry("0011:1,0", Rules())
    ((0, 0, 1, 1), (1, 0))
    """
    if ":" not in text:
        raise BadInput(f"history entry {shown(text)} is not of the form {rule_of(rules).entry_form}")
    guess_text, _, feedback_text = text.rpartition(":")
    # A guess that breaks the repetition rule cannot have been played, unless
    # the strategy probes with such codes.
    guess = parse_code(guess_text, rules, check_repeat=check_repeat)
    return guess, parse_feedback(feedback_text, rules, where=text)


def _items(value) -> list | None:
    """The items of a sequence a program gives (a list, a tuple, a numpy array); None for what is none (a number,
    bytes, a dict)."""
    if isinstance(value, (bytes, bytearray, dict)):
        return None
    try:
        return list(value)
    except TypeError:
        return None


def code_of(value, rules: Rules, *, check_repeat: bool = True) -> Code:
    """A code a program gives: written as the command line writes it (``"0123"``, :func:`parse_code`) or as colour
    numbers (``[0, 1, 2, 3]``), checked as the command line checks a code; anything else is one :class:`BadInput`
    line.

    >>> code_of("0123", Rules()), code_of([0, 1, 2, 3], Rules())
    ((0, 1, 2, 3), (0, 1, 2, 3))
    """
    if isinstance(value, str):
        return parse_code(value, rules, check_repeat=check_repeat)
    colours = _items(value)
    if colours is None:
        raise BadInput(f"code {given(value)} is neither written as the command line writes it ('0123') nor a "
                       "sequence of colour numbers")
    odd = [colour for colour in colours if not is_whole(colour)]
    if odd:
        raise BadInput(f"code {given(value)} holds {given(odd[0])}, not a colour number")
    outside = [colour for colour in colours if not 0 <= colour < rules.colors]
    if outside:
        raise BadInput(f"colour {given(int(outside[0]))} in code {given(value)} is outside 0..{rules.colors - 1}")
    # Written in the rules' notation and read back: the length and the repetition checked, and worded, as typed.
    return parse_code(format_code(colours, rules), rules, check_repeat=check_repeat)


def feedback_of(value, rules: Rules, where: str = "") -> Feedback:
    """Feedback a program gives: written as the game's rule writes it (``"1,0"``, :func:`parse_feedback`) or as
    numbers (``(1, 0)``), checked as the command line checks feedback (:func:`check_feedback`)."""
    if isinstance(value, str):
        return parse_feedback(value, rules, where)
    numbers = _items(value)
    if numbers is None:
        raise BadInput(f"feedback {given(value)} is neither written as {rule_of(rules).form} nor a sequence of "
                       "numbers")
    return check_feedback(tuple(numbers), rules, where)


def entry_of(value, rules: Rules, *, check_repeat: bool = True) -> Entry:
    """A history entry a program gives: ``"GUESS:FEEDBACK"`` (:func:`parse_entry`) or a pair ``(guess,
    feedback)``, each written or as numbers (:func:`code_of`, :func:`feedback_of`).

    >>> entry_of(("0011", "1,0"), Rules()), entry_of(((0, 0, 1, 1), (1, 0)), Rules())
    (((0, 0, 1, 1), (1, 0)), ((0, 0, 1, 1), (1, 0)))
    """
    if isinstance(value, str):
        return parse_entry(value, rules, check_repeat=check_repeat)
    pair = _items(value)
    if pair is None or len(pair) != 2:
        raise BadInput(f"history entry {given(value)} is neither of the form {rule_of(rules).entry_form} nor a pair "
                       "(guess, feedback)")
    return code_of(pair[0], rules, check_repeat=check_repeat), feedback_of(pair[1], rules)


#: Counts from here on are printed as a mantissa and an exponent: 10**154 spelt out is no help to read.
SPELT_OUT_BELOW = 10**15


def amount(n: int) -> str:
    """A count for people: ``1,296``; ``about 1.044e+154`` from :data:`SPELT_OUT_BELOW` on (JSON stays exact).

    >>> amount(1296), amount(6**16), amount(255**64)
    ('1,296', '2,821,109,907,456', 'about 1.044e+154')
    """
    return f"{n:,}" if n < SPELT_OUT_BELOW else f"about {Decimal(n):.3e}"


def plural(n: int, word: str) -> str:
    """``1 guess``, ``2 guesses``, ``1 code``, ``1,296 codes`` (the number as :func:`amount` writes it).

    >>> plural(1, "guess"), plural(5, "code"), plural(131072, "code"), plural(30**30, "code")
    ('1 guess', '5 codes', '131,072 codes', 'about 2.059e+44 codes')
    """
    if n == 1:
        return f"{n} {word}"
    return f"{amount(n)} {word}es" if word.endswith(("s", "sh", "ch", "x")) else f"{amount(n)} {word}s"
