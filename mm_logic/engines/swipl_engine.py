"""The swipl engine: the CLP(FD) encoding in ``encodings/mastermind.pl`` answers the questions.

This module is only an adapter. SWI-Prolog runs in-process through janus
(:func:`mm_logic.engines.swipl_runtime.load_janus`); the history goes to
Prolog as a list of ``Guess-Black-White`` terms and codes come back as lists
of integers. What a consistent code is lives in the encoding alone: its
``secret/2`` posts the code space of the rules, ``feedback/2`` the constraint
of one history entry, and ``first/2``, ``any/2``, ``all/3``, ``count/2``
label the pegs (see the encoding's module documentation). The Prolog glue,
module ``mmlogic_swipl``, is in :mod:`mm_logic.engines.swipl_bridge`.

Design, measured with ``py/seed003_vs_swipl.py`` and the acceptance benches
(``tests/test_swipl_acceptance.py``; numbers in :data:`DESIGN`):

* **push/pop only keep the Python-side history; every question sends the
  whole history.** The bridge rebuilds the constraint store from what it
  kept: the code space (peg domains, colour indicators and counts) does not
  depend on the history, so the encoding's ``secret/2`` runs once per
  process and rules and questions start from a ``copy_term/2`` of it
  (copying is about 40 times cheaper than posting it); and the propagated
  store after each prefix of the previous question's history is kept, so
  the next guess of a game, or a child in a strategy tree, only posts its
  new entry. A question that shares no prefix (another session) posts its
  history on a fresh copy: always correct, only slower.
* **Answers are cached per history depth**: a strategy usually asks
  ``count`` and then ``enumerate`` of the same history, and ``bench_all``
  asks ``count`` at every node. Where the code space has at most
  :data:`COUNT_BY_ENUMERATION` codes, ``count`` enumerates (labeling costs the
  same whether the codes are counted or collected) and keeps the codes, so
  the following ``enumerate``, ``first`` and ``random`` are free.
* **One constant query text** (:data:`QUERY`); all data goes through janus'
  ``inputs``, so janus' per-query-text cache never grows.
* **Encodings are consulted once per process** and file (a later engine on
  the same file only has Prolog check that it did not change). The shipped one is
  module ``mastermind``; a user's file (``--encoding``) is loaded under a
  module name of its own (``mmlogic_encoding_N``), whatever its
  ``:- module`` line says, so an edited copy of ``mastermind.pl`` loads
  beside the shipped one. Every error or warning Prolog reports while loading
  becomes an :class:`EncodingError` whose one line starts with ``file:line``;
  nothing is printed.
* **time_limit** bounds each question (:class:`SolverTimeout`); Ctrl-C stops
  a running question and re-raises :class:`KeyboardInterrupt`. Both go
  through Prolog's heartbeat hook (see :mod:`mm_logic.engines.swipl_bridge`).
* **random** keeps the base class's rule: a uniform index into the
  lexicographic enumeration, the same draw as every other engine.
"""

from __future__ import annotations

import itertools
import re
import threading
from pathlib import Path

import numpy as np

from ..errors import EncodingError, SolverTimeout
from ..notation import Code, Entry
from ..resources import encoding_path, encodings_dir
from .base import Engine, Session
from .swipl_bridge import BRIDGE, HEARTBEAT
from .swipl_runtime import load_janus

#: The shipped encoding, used unless the engine is given ``encoding``.
ENTRY = "mastermind.pl"
#: Module name of the shipped encoding (its ``:- module`` line).
SHIPPED_MODULE = "mastermind"
#: The one query every question runs; data goes through janus' inputs.
QUERY = "mmlogic_swipl:ask(M, rules(P, K, R), H, Q, L, T, A)"
#: ``count`` enumerates (and keeps the codes) in code spaces up to this size.
COUNT_BY_ENUMERATION = 250_000
#: Measured when the design was chosen. Pure Prolog, 100 games of 5 pegs, 8
#: colours, no repetition, strategy first, ms per game: every question posts
#: the code space afresh, copies a template, or one Prolog engine per
#: session keeps the store between questions. Then through this adapter:
#: Knuth's bench (4x6 minimax, 1377 questions, seconds) and 300 games of
#: 5x8 no-repeat first (ms per game), with the template only and with the
#: kept prefixes too.
DESIGN = {
    "5x8 first, post afresh (ms/game, Prolog)": 25.0,
    "5x8 first, copy template (ms/game, Prolog)": 11.4,
    "5x8 first, engine per session (ms/game, Prolog)": 14.8,
    "knuth, template only (s)": 3.17,
    "knuth, template and kept prefixes (s)": 2.2,
    "5x8 first, template only (ms/game)": 10.2,
    "5x8 first, template and kept prefixes (ms/game)": 7.9,
}

_lock = threading.RLock()
_bridge_ready = False
#: Encoding file (resolved) -> module that holds it, for this process.
_modules: dict[Path, str] = {}
_numbers = itertools.count(1)
_LOCATION = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?:\d+:)?\s*")


def _one_line(text: str) -> str:
    """A Prolog message on one line."""
    return " ".join(part.strip() for part in str(text).strip().splitlines() if part.strip())


def _prolog():
    """janus, with the bridge consulted and the heartbeat on (once per process)."""
    global _bridge_ready
    janus = load_janus()
    if _bridge_ready:
        return janus
    with _lock:
        if not _bridge_ready:
            janus.consult("mmlogic_swipl", BRIDGE)
            janus.query_once(
                "( user:file_search_path(mmlogic, D) -> true"
                " ; assertz(user:file_search_path(mmlogic, D)) ),"
                " set_prolog_flag(heartbeat, N)",
                {"D": str(encodings_dir()), "N": HEARTBEAT},
            )
            _bridge_ready = True
    return janus


def _interrupted(janus, error) -> bool:
    """Whether a janus error is Ctrl-C, raised in Python during a Prolog call."""
    term = getattr(error, "term", None)
    if term is None:
        return False
    return janus.query_once(
        "E = error(python_error('KeyboardInterrupt', _), _)", {"E": term}
    )["truth"]


def load_encoding(path: Path | None) -> tuple[Path, str]:
    """Consult an encoding (the shipped one if ``path`` is None); its file and module.

    Raises :class:`EncodingError` (one line, ``file:line: ...``) when Prolog
    reports any error or warning while loading it, or when it lacks a
    predicate the engine calls.
    """
    janus = _prolog()
    shipped = encoding_path(ENTRY).resolve()
    file = Path(path).resolve() if path is not None else shipped
    shown = Path(path) if path is not None else file  # how messages name the file
    if not file.is_file():
        raise EncodingError(f"{shown}:1: no such encoding file")
    with _lock:
        wanted = _modules.get(file)
        if wanted is None:
            wanted = SHIPPED_MODULE if file == shipped else f"mmlogic_encoding_{next(_numbers)}"
            _modules[file] = wanted
        try:
            answer = janus.query_once(
                "mmlogic_swipl:load_encoding(F, W, M, Msgs)", {"F": str(file), "W": wanted}
            )
        except janus.PrologError as error:
            if _interrupted(janus, error):
                raise KeyboardInterrupt from None
            raise EncodingError(f"{shown}:1: {_one_line(error)}") from None
        if answer["Msgs"]:
            raise _load_error(file, shown, answer["Msgs"][0])
        module = answer["M"]
        missing = janus.query_once("mmlogic_swipl:undefined(M, Missing)", {"M": module})["Missing"]
        if missing:
            raise EncodingError(
                f"{shown}:1: the encoding does not define {', '.join(missing)}; a swipl encoding "
                "defines secret/2, feedback/2, first/2, any/2, all/3 and count/2 "
                "(see the shipped encodings/mastermind.pl)"
            )
        _modules[file] = module
        return file, module


def _load_error(file: Path, given: Path, message: list) -> EncodingError:
    """The first message Prolog reported while loading, as one ``file:line:`` line.

    The encoding's own file is named as the user gave it (``given``).
    """
    source, line, kind, text = message
    text = _one_line(text)
    located = _LOCATION.match(text)
    if located:  # syntax errors carry their own file:line:column
        source, line = located["file"], located["line"]
        text = text[located.end():]
    if not source:
        source, line = file, 1
    if Path(source) == file:
        source = given
    return EncodingError(f"{source}:{line}: {kind}: {text}")


class SwiplSession(Session):
    """The history on the Python side; every question re-posts it in Prolog."""

    def __init__(self, engine: "SwiplEngine"):
        super().__init__(engine.rules)
        self._engine = engine
        self._entries: list = []  # the history as the bridge takes it: Guess-Black-White
        self._known: list[dict] = [{}]  # per history depth: answers already computed

    # -- history -----------------------------------------------------------
    def _push(self, entry: Entry) -> None:
        guess, (black, white) = entry
        # janus turns a Python pair into a '-' term: ((G, B), W) is G-B-W.
        self._entries.append(((list(guess), int(black)), int(white)))
        self._known.append({})

    def _pop(self, entry: Entry) -> None:
        self._entries.pop()
        self._known.pop()

    # -- questions ---------------------------------------------------------
    def first(self) -> Code | None:
        known = self._known[-1]
        if "all" in known:
            codes = known["all"]
            return tuple(int(c) for c in codes[0]) if len(codes) else None
        if "first" not in known:
            known["first"] = self._engine._code(self._engine._ask("first", self._entries))
        return known["first"]

    def any(self) -> Code | None:
        known = self._known[-1]
        if "any" not in known:
            known["any"] = self._engine._code(self._engine._ask("any", self._entries))
        return known["any"]

    def enumerate(self, limit: int | None = None) -> np.ndarray:
        known = self._known[-1]
        if "all" not in known:
            codes = self._engine._codes(self._engine._ask("all", self._entries, limit))
            if limit is not None and len(codes) >= limit:
                return codes  # perhaps not all of them: nothing to keep
            known["all"] = codes
        codes = known["all"]
        return (codes if limit is None else codes[:limit]).copy()

    def count(self) -> int:
        known = self._known[-1]
        if "all" in known:
            return len(known["all"])
        if "count" not in known:
            if self.rules.size <= COUNT_BY_ENUMERATION:
                return len(self.enumerate())
            count = self._engine._ask("count", self._entries)
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise self._engine._misfit(f"count/2 gave {count!r}, not a number of codes")
            known["count"] = count
        return known["count"]


class SwiplEngine(Engine):
    """Answer consistency questions with SWI-Prolog's CLP(FD) and the shipped or a user's encoding."""

    name = "swipl"
    suffix = ".pl"

    def __init__(self, rules, **options):
        super().__init__(rules, **options)
        self._janus = _prolog()
        self.entry, self.module = load_encoding(self.encoding)
        self._shown = Path(self.encoding) if self.encoding is not None else self.entry
        self._dtype = np.uint8 if rules.colors <= 255 else np.uint16

    def _new_session(self) -> SwiplSession:
        return SwiplSession(self)

    # -- asking Prolog -----------------------------------------------------
    def _ask(self, question: str, entries: list, limit: int | None = None):
        """One question about ``entries``, bounded by ``time_limit``."""
        r = self.rules
        inputs = {
            "M": self.module, "P": r.pegs, "K": r.colors, "R": r.repeat_limit,
            "H": entries, "Q": question, "L": "inf" if limit is None else int(limit),
            "T": float(self.time_limit or 0),
        }
        try:
            answer = self._janus.query_once(QUERY, inputs)["A"]
        except self._janus.PrologError as error:  # e.g. an answer janus cannot convert
            if _interrupted(self._janus, error):
                raise KeyboardInterrupt from None
            raise self._misfit(f"the encoding failed on question {question}: {_one_line(error)}") from None
        if answer == "timeout":
            raise SolverTimeout(
                f"swipl did not answer within the time limit of {self.time_limit:g} s "
                f"({r.describe()}, {question}, {self.entry.name}); raise --time-limit "
                "or ask a cheaper question (strategy any)"
            )
        if answer == "interrupted":
            raise KeyboardInterrupt
        if isinstance(answer, tuple) and len(answer) == 2 and answer[0] == "error":
            raise self._misfit(f"the encoding failed on question {question}: {_one_line(answer[1])}")
        return answer

    def _misfit(self, detail: str) -> EncodingError:
        return EncodingError(f"{self._shown}:1: {detail}")

    def _code(self, answer) -> Code | None:
        """A code from the encoding, checked against the rules; None for ``none``."""
        if answer == "none":
            return None
        return tuple(int(c) for c in self._codes([answer])[0])

    def _codes(self, answer) -> np.ndarray:
        """Codes from the encoding as an array ``(m, pegs)``, checked against the rules.

        They must be valid codes and come in strictly increasing lexicographic order.
        """
        r = self.rules
        try:
            codes = np.array(answer, dtype=np.int64).reshape(len(answer), r.pegs)
        except (TypeError, ValueError):
            raise self._misfit(
                f"the encoding's codes must be lists of {r.pegs} colours, got {str(answer)[:80]}"
            ) from None
        if codes.size and (codes.min() < 0 or codes.max() >= r.colors):
            raise self._misfit(f"the encoding's codes must use the colours 0..{r.colors - 1}")
        if len(codes) > 1:
            step = np.diff(codes, axis=0)
            lead = step[np.arange(len(step)), np.argmax(step != 0, axis=1)]
            if (lead <= 0).any():
                raise self._misfit("all/3 must list codes in increasing lexicographic order")
        return codes.astype(self._dtype)
