"""A game's or a race's row of ``mmlogic serve --db FILE`` read back, checked before it is played again.

A row holds a request (JSON) and its play (JSON: a game's history, pending guess and resignation; a race's
entrants), as :mod:`~mm_logic.server.db_store` writes them. A row changed by hand, or by another program, may
hold what this server never writes: text that is not JSON, values of the wrong type, codes of the wrong length
or colours, answers no rule gives, answers the game's secret never gave. Each check here raises
:class:`~mm_logic.support.errors.BadInput` with the one line that says what is wrong (the store words it as a damaged
row, HTTP 503): the form (:func:`loaded`, :func:`kept_code`, :func:`kept_answer`, :func:`game_entries`,
:func:`race_entries`), then the answers, checked as the game itself takes them (:func:`replay_scored`,
:func:`replay_answered`: :meth:`~mm_logic.game.Game.score` and :meth:`~mm_logic.game.Game.record`), never
computed here. A message never shows a game's secret.
"""

from __future__ import annotations

import json
import math
import re

from ..feedback import rule_of
from ..game import Game
from ..notation import abridged, check_feedback, format_code, format_feedback, parse_code, plural, shown
from ..rules import FEEDBACK_RULES, Code, Entry, Feedback, Rules
from ..support.errors import BadInput, NoConsistentCode, one_line

#: How much of a value read back a message quotes (a code of 64 pegs whole): one line still.
QUOTED = 240
#: A row's kinds, and the keys of its play (``played``) besides ``variant``, which a variant's game or race adds.
PLAYED_KEYS = {"game": ("history", "pending", "resigned"), "race": ("entrants",)}
#: A variant's digest as :meth:`~mm_logic.server.variant.Variant.identity` records it.
DIGEST = re.compile(r"[0-9a-f]{64}")


def column(name: str, value, expected: str) -> BadInput:
    """The error of a column whose value is not of its kind: ``its column version is 'abc', not ...``."""
    written = "NULL" if value is None else shown(value) if isinstance(value, str) else abridged(repr(value), QUOTED)
    return BadInput(f"its column {name} is {written}, {expected}")


def loaded(text: str, what: str) -> dict:
    """The JSON object of a row's request or play (``what``); BadInput when it is not one."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise BadInput(f"its {what} is not JSON ({one_line(error)})") from None
    if not isinstance(value, dict):
        raise BadInput(f"its {what} is not a JSON object")
    return value


def loaded_row(kind: str, stored_kind, request_text, played_text, version, over, last_used) -> tuple[dict, dict]:
    """A row's columns (asked for as a ``kind``) checked in their types, its request and play read as JSON, the
    play's keys those of a ``kind`` (a variant's record a name and a digest). Returns the request and the play."""
    if stored_kind not in PLAYED_KEYS:
        raise column("kind", stored_kind, "neither game nor race")
    for name, value in (("request", request_text), ("played", played_text)):
        if not isinstance(value, str):
            raise column(name, value, "not JSON text")
    if type(version) is not int or version < 0:
        raise column("version", version, "not a number of writes")
    if type(over) is not int or over not in (0, 1):
        raise column("over", over, "not 0 or 1")
    if type(last_used) not in (int, float) or not math.isfinite(last_used):
        raise column("last_used", last_used, "not a time")
    request, played = loaded(request_text, "request"), loaded(played_text, "play")
    missing = [name for name in PLAYED_KEYS[kind] if name not in played]
    if missing:
        raise BadInput(f"its play has no {missing[0]!r}")
    extra = sorted(set(played) - {*PLAYED_KEYS[kind], "variant"})
    if extra:
        raise BadInput(f"its play has {abridged(repr(extra[0]), QUOTED)}, which no {kind} of this server writes")
    kept = played.get("variant")
    if "variant" in played and not (isinstance(kept, dict) and set(kept) == {"name", "sha256"}
                                    and isinstance(kept["name"], str) and isinstance(kept["sha256"], str)
                                    and DIGEST.fullmatch(kept["sha256"])):
        raise BadInput(f"its variant is {quoted_json(kept)}, not a name and a sha256 digest")
    return request, played


def refused(error: BadInput, secret) -> BadInput:
    """A row's request refused (``error``, in the request's words), never showing its ``secret``: a game not over
    keeps it, and a damaged one may be one peg from it."""
    said = str(error)
    if isinstance(secret, str) and secret and secret in said:
        return BadInput("its request is refused (the reason would show its secret)")
    return BadInput(f"its request is refused: {said}")


def quoted_json(value) -> str:
    """A value of a row, as JSON, quoted by its start when it is long."""
    return abridged(json.dumps(value), QUOTED)


def kept_code(value, rules: Rules, *, check_repeat: bool) -> Code:
    """A code as a row of ``serve --db`` keeps it (a list of colour numbers), checked as the game checks a code:
    its pegs, its colours, and the repetition rule where the game holds its guesses to it (``check_repeat``: the
    client's guesses; the computer's may probe beyond it). BadInput says what is wrong, quoting the row's list."""
    if not isinstance(value, list) or not all(type(c) is int for c in value):
        raise BadInput(f"code {quoted_json(value)} is not a list of colour numbers")
    if len(value) != rules.pegs:
        raise BadInput(f"code {quoted_json(value)} has {len(value)} pegs, expected {rules.pegs}")
    bad = [c for c in value if not 0 <= c < rules.colors]
    if bad:
        raise BadInput(f"colour {bad[0]} in code {quoted_json(value)} is outside 0..{rules.colors - 1}")
    # The repetition rule in the notation's own words, on the code as the game writes it.
    return parse_code(format_code(tuple(value), rules), rules, check_repeat=check_repeat)


def kept_answer(value, rules: Rules) -> Feedback:
    """An answer as a row of ``serve --db`` keeps it (a list of numbers), checked: one of the rule's answers (the
    rule's own numbering gives it back), and one that can occur (:func:`~mm_logic.notation.check_feedback`)."""
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise BadInput(f"answer {quoted_json(value)} is not a list of numbers")
    rule, fb = rule_of(rules), tuple(value)
    try:
        index = rule.index(fb, rules.pegs) if len(fb) == len(rule.win(rules.pegs)) else -1
        known = 0 <= index < rule.slots(rules.pegs) and rule.from_index(index, rules.pegs) == fb
    except BadInput:  # a rule an encoding states: the index of a code it does not admit
        known = False
    if not known:
        said = f"the feedback rule {rules.feedback}" if rules.feedback in FEEDBACK_RULES else "the game's own rule"
        raise BadInput(f"answer {quoted_json(value)} is not one of the answers of {said}")
    return check_feedback(fb, rules)


def kept_entries(history, rules: Rules, *, check_repeat: bool) -> list[Entry]:
    """A history as a row of ``serve --db`` keeps it (``[[guess], [answer]]`` entries), each entry's guess and
    answer checked (:func:`kept_code`, :func:`kept_answer`); BadInput names the first wrong entry."""
    if not isinstance(history, list):
        raise BadInput(f"its history is {quoted_json(history)}, not a list of entries")
    entries = []
    for number, entry in enumerate(history, 1):
        if not isinstance(entry, list) or len(entry) != 2:
            raise BadInput(f"entry {number} is {quoted_json(entry)}, not a pair [guess, answer]")
        try:
            entries.append((kept_code(entry[0], rules, check_repeat=check_repeat), kept_answer(entry[1], rules)))
        except BadInput as error:
            raise BadInput(f"entry {number}: {error}") from None
    return entries


def replay_scored(game: Game, entries: list[Entry], whose: str, where: str = "") -> None:
    """Record ``entries`` in a new ``game`` that keeps a secret, each answer checked to be the one the game gives
    (:meth:`~mm_logic.game.Game.score`, a function of the history so far where a liar answers); BadInput names the
    first entry that is not (``where``: before it, e.g. the entrant), never the secret."""
    for number, (guess, fb) in enumerate(entries, 1):
        if game.won:
            raise BadInput(f"{where}entry {number} follows the winning entry {number - 1}")
        if game.score(guess) != fb:
            raise BadInput(f"{where}entry {number}: the answer {format_feedback(fb, game.rules)} to "
                           f"{format_code(guess, game.rules)} is not the one {whose} gives")
        game.record(guess, fb, check=False)


def replay_answered(game: Game, entries: list[Entry]) -> None:
    """Record ``entries`` in a new ``game`` whose answers the client gave (or the adversary), each checked as
    :meth:`~mm_logic.game.Game.record` checked it then; BadInput names the first entry the game refuses."""
    for number, entry in enumerate(entries, 1):
        if game.won:
            raise BadInput(f"entry {number} follows the winning entry {number - 1}")
        try:
            game.record(*entry)
        except (BadInput, NoConsistentCode) as error:
            raise BadInput(f"entry {number}: {error}") from None


def game_entries(request: dict, played: dict, rules: Rules) -> list[Entry]:
    """A game's play (``played``, read back from a row) checked in its form, by its request's ``rules``: its
    history's entries (:func:`kept_entries`), its pending guess, its resignation. Returns the entries."""
    # The client's guesses keep to the repetition rule, as the game checks them; the computer's may probe.
    entries = kept_entries(played["history"], rules, check_repeat=request.get("role") in (None, "codebreaker"))
    if played["pending"] is not None:
        try:
            kept_code(played["pending"], rules, check_repeat=False)
        except BadInput as error:
            raise BadInput(f"its pending guess: {error}") from None
    if type(played["resigned"]) is not bool:
        raise BadInput(f"its resigned is {quoted_json(played['resigned'])}, not true or false")
    return entries


def race_entries(request: dict, played: dict, rules: Rules) -> list[list[Entry]]:
    """A race's play (``played``, read back from a row) checked in its form: as many entrants as its request has,
    each a history (:func:`kept_entries`), seconds and a stop. Returns each entrant's entries."""
    entrants = played["entrants"]
    if not isinstance(entrants, list):
        raise BadInput(f"its entrants are {quoted_json(entrants)}, not a list")
    if len(entrants) != len(request["entrants"]):
        raise BadInput(f"its play has {plural(len(entrants), 'entrant')}, its request {len(request['entrants'])}")
    histories = []
    for number, kept in enumerate(entrants, 1):
        if not isinstance(kept, dict) or set(kept) != {"history", "seconds", "stopped"}:
            raise BadInput(f"entrant {number} is {quoted_json(kept)}, not its history, seconds and stop")
        seconds = kept["seconds"]
        if type(seconds) not in (int, float) or not math.isfinite(seconds) or seconds < 0:
            raise BadInput(f"entrant {number}: its seconds {quoted_json(seconds)} are not a number of seconds")
        if kept["stopped"] is not None and not isinstance(kept["stopped"], str):
            raise BadInput(f"entrant {number}: its stop {quoted_json(kept['stopped'])} is not a reason")
        try:
            histories.append(kept_entries(kept["history"], rules, check_repeat=False))
        except BadInput as error:
            raise BadInput(f"entrant {number}, {error}") from None
    return histories
