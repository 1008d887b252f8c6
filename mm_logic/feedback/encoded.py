"""A feedback rule stated in an encoding: ``--feedback FILE.lp`` or ``--feedback FILE.pl``.

The user writes the rule once, in an edited encoding that states it with the ``told``/``won`` contract
(docs/encodings.md, "A feedback rule of your own"): ``told(T,I,V)`` and ``won(T)`` in ASP,
``feedback(Secret, told(Guess, Numbers))`` and ``won(Guess)`` in Prolog. The tools need the feedback
of every (guess, secret) pair, so the encoding's own engine derives it, once, as the whole table of
feedback indices: clingo for FILE.lp (``mm_logic.engines.clingo.told_table``), SWI-Prolog for
FILE.pl (``mm_logic.engines.swipl.told_table``). In every other way the rule is a
``CustomRule`` (``custom.py``): its numbers written ``1,2``, the win ``won``, indices in base pegs + 2.

* **Arity**: how many numbers the rule tells is found on the smallest code as the guess, asked with
  1, 2, ... numbers (at most the pegs, and ``MAX_ARITY``): the most with which every code the
  encoding admits gets exactly one answer. (In ASP a number the rule does not state is left free, every
  code then has several answers; fewer numbers than the rule states still get one each. In Prolog a
  clause of another arity tells nothing.)
* **Codes the encoding does not admit** (a variant may narrow the code space, examples/palindrome.lp):
  their columns of the table hold ``EncodedRule.not_admitted``, the index one past every real one
  (``EncodedRule.slots`` counts it), so that no feedback a player enters ever matches them; the
  python engine, which lists the whole space, then keeps only admitted codes after the first guess.
  ``EncodedRule.score`` against such a code is one line.
* **Time and progress**: the derivation is asked in calls of the engine (``BATCHES``); the command's
  ``--time-limit`` bounds it whole, as it bounds a rule module's table (``time_limit``), and once it has
  run ``SAY_AFTER`` s it says how it goes on stderr between two calls (never on stdout: a ``--json``
  answer stays whole); a call that does not return (a clause that loops) is said too, while it lasts
  (``mm_logic.support.waiting``), so that a command without a time limit never waits silently.
* **Cache**: the table is kept on disk (``cache_folder``, ``rules/`` under mmlogic's cache folder),
  named by a sha256 of the encoding's bytes, those of the files it includes, the shipped encodings, the
  rules and ``FORMAT_VERSION``; written whole (a temporary file, then renamed), and a file that does
  not read back is derived again. ``mm_logic.feedback.rule_of`` keeps the rules it built in process.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import tempfile
import time
from contextlib import suppress
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

import numpy as np

from ..rules import Code, Feedback, Rules, all_codes, code_keys
from ..support.errors import BadInput, SolverTimeout, clock, line_breaks_escaped
from ..support.waiting import Wait, waiting
from . import watch
from .custom import WIN_VALUE, CustomRule, index_numbers, numbers_index
from .rule import slots_dtype

#: The endings of an encoding that states a rule: clingo's and SWI-Prolog's.
ENCODED_SUFFIXES = (".lp", ".pl")
#: The largest code space whose table each engine derives: it asks codes x codes pairs. Measured on
#: examples/shared_colours.*, cold: clingo 1.8 s for 4x6 (1,296 codes), 8 s for 5x5 (3,125), 13 s for
#: 6x4 (4,096), so about 80 s and 100 MB of table at 10,000 codes; SWI-Prolog, about 12 microseconds a
#: pair, 20 s for 4x6 and 111 s for 5x5, the most it is given.
MAX_DERIVED_CODES = {"clingo": 10_000, "swipl": 3_125}
#: The most numbers a rule may tell.
MAX_ARITY = 4
#: Most guesses x codes asked of clingo at once: its models hold about that many numbers (4x6: every guess
#: at once; 5x5: 640 guesses a batch).
BATCH_CELLS = 2_000_000
#: How each engine's calls cut the table (:func:`derive`), and their most cells: clingo plays a batch of
#: guesses against every code at once (the models are the codes); the Prolog bridge sets up each code once
#: a call (about 2 ms, 4x6), then tells it every guess, so it gets every guess and a slice of the codes,
#: of a second or two each (about 10 microseconds a cell), between which the derivation says how it goes.
BATCHES = {"clingo": ("guesses", BATCH_CELLS), "swipl": ("codes", 100_000)}
#: Seconds a derivation runs before it says how it goes (then every ``PROGRESS_EVERY`` s).
SAY_AFTER = 2.0
#: The layout of the cached tables: a change derives every table again.
FORMAT_VERSION = 1

#: The cells of :class:`Told` that hold no feedback index: the encoding tells nothing of the guess
#: against the code, tells two answers, or was not asked (the rest of a batch clingo did not finish).
NO_ANSWER = -1
SEVERAL = -2
UNKNOWN = -3


@dataclass
class Told:
    """What an engine derived: ``index[g, s]``, the feedback index of guess ``g`` against the ``s``-th code
    the encoding admits (or :data:`NO_ANSWER`, :data:`SEVERAL`, :data:`UNKNOWN`), and for each
    :data:`SEVERAL` cell two of its answers' indices."""

    index: np.ndarray
    several: dict[tuple[int, int], tuple[int, int]]


class EncodedRule(CustomRule):
    """The rule an encoding states (``path``, FILE.lp or FILE.pl), for the code space of ``rules`` (their
    pegs, colours and repetition; lies and the feedback field are not read). See the module docstring.

    The table is derived on first use (then read from the cache): :meth:`arity`, :meth:`score`,
    :meth:`indices`, :meth:`admitted` and :meth:`index_table` all need it.
    """

    def __init__(self, path: Path, rules: Rules, time_limit: float | None = None):
        path = Path(path)
        super().__init__(path, label=path.stem, summary=_summary(path))
        if path.suffix not in ENCODED_SUFFIXES:
            raise BadInput(f"--feedback {path}: a rule is derived from a FILE.lp or FILE.pl encoding")
        #: The game's code space (the standard rule's: the feedback is this rule's to derive).
        self.space_rules = Rules(rules.pegs, rules.colors, rules.max_repeat)
        #: The rules the encoding is read under (its engine grounds the parts of a rule of one's own).
        self.rules = Rules(rules.pegs, rules.colors, rules.max_repeat, feedback=str(path))
        self.time_limit = time_limit
        check_derivable(path, rules)
        self._table: np.ndarray | None = None
        self._admitted: np.ndarray | None = None
        self._keys: np.ndarray | None = None

    @property
    def engine(self) -> str:
        """The engine that derives the rule: ``clingo`` or ``swipl``."""
        return _engine_of(self.path)

    # -- the derived table --------------------------------------------------------------------------
    def admitted(self) -> np.ndarray:
        """The codes the encoding admits: sorted ``int64`` indices into the whole code space."""
        self._ensure()
        return self._admitted

    def index_table(self) -> np.ndarray:
        """``table[g, s]``: the feedback index of code ``g`` played against code ``s`` (both numbered in
        lexicographic order over the whole code space), :attr:`not_admitted` in the columns of codes the
        encoding does not admit. Read-only."""
        self._ensure()
        return self._table

    def admitted_codes(self) -> np.ndarray | None:
        admitted = self.admitted()
        return admitted if admitted.size < self.space_rules.size else None

    def kept_table(self) -> np.ndarray | None:
        return self.index_table()

    @property
    def not_admitted(self) -> int:
        """The index in the columns of codes the encoding does not admit: one past every real index."""
        return (self.rules.pegs + 2) ** self.arity(self.rules.pegs)

    def _ensure(self) -> None:
        """Derive the table, or read it from the cache, once."""
        if self._table is not None:
            return
        cached = read_cached(self)
        if cached is None:
            table, arity = derive(self)
            write_cached(self, table, arity)
        else:
            table, arity = cached
        table.setflags(write=False)
        self._arity, self._table = arity, table
        self._admitted = np.flatnonzero(table[0] != self.not_admitted).astype(np.int64)

    # -- the rule ------------------------------------------------------------------------------------
    def arity(self, pegs: int) -> int:
        self._pegs(pegs)
        self._ensure()
        return self._arity

    def score(self, guess: Code, secret: Code) -> Feedback:
        pegs = self._pegs(len(guess))
        value = int(self.index_table()[self._row(guess), self._rows(np.asarray([secret]))[0]])
        if value == self.not_admitted:
            raise BadInput(f"{self.path}: the encoding admits no code {self.space_rules.code_text(tuple(secret))}")
        return self.from_index(value, pegs)

    def indices(self, guess: Code, codes: np.ndarray, counts: np.ndarray) -> np.ndarray:
        return self.index_table()[self._row(guess), self._rows(codes)].astype(np.int64)

    def slots(self, pegs: int) -> int:
        return super().slots(pegs) + 1  # and not_admitted, the last

    def from_index(self, index: int, pegs: int) -> Feedback:
        """The feedback of an index (as a rule of one's own writes it); one line for :attr:`not_admitted`."""
        if int(index) == self.not_admitted:
            raise BadInput(f"{self.path}: no feedback: the encoding does not admit the code")
        return super().from_index(index, pegs)

    # -- finding codes in the table ------------------------------------------------------------------
    def _pegs(self, pegs: int) -> int:
        if pegs != self.rules.pegs:
            raise BadInput(f"{self.path}: the rule was derived for codes of {self.rules.pegs} pegs, not {pegs}")
        return pegs

    def _rows(self, codes: np.ndarray) -> np.ndarray:
        """The positions of ``codes`` (rows ``(m, pegs)``) in the whole space, by their base-colours numbers."""
        rows, stray = self._positions(codes)
        if stray is not None:
            raise BadInput(f"{self.space_rules.code_text(stray)} is not a code of {self.space_rules.describe()}")
        return rows

    def _positions(self, codes: np.ndarray) -> tuple[np.ndarray, tuple | None]:
        """The positions of ``codes`` in the whole space, and the first that is not in it (or None)."""
        if self._keys is None:
            self._keys = code_keys(all_codes(self.space_rules), self.rules.colors)
        codes = np.asarray(codes).reshape(-1, self.rules.pegs)
        keys = code_keys(codes, self.rules.colors)
        rows = np.minimum(np.searchsorted(self._keys, keys), len(self._keys) - 1)
        stray = np.flatnonzero(self._keys[rows] != keys)
        return rows, (tuple(codes[stray[0]].tolist()) if stray.size else None)

    def _row(self, guess: Code) -> int:
        return int(self._rows(np.asarray([guess]))[0])


# -- deriving ----------------------------------------------------------------------------------------
def derive(rule: EncodedRule) -> tuple[np.ndarray, int]:
    """The rule's table (:meth:`EncodedRule.index_table`) and arity, from its encoding by its engine.

    Asked in calls of the engine (``BATCHES``), between which the derivation says how it goes on stderr
    once it is long (``_Pace``) and ends at its time limit (``time_limit``), which each call is
    bounded by too."""
    seconds = time_limit(rule)
    # A call of the engine may never end (a clause that loops): said on stderr while it lasts, as the
    # calls that return are (_Pace).
    with waiting(f"deriving the rule of {rule.path} by {rule.engine}", seconds) as wait:
        return _derived(rule, seconds, _Pace(rule, seconds, wait))


def _derived(rule: EncodedRule, seconds: float | None, pace: _Pace) -> tuple[np.ndarray, int]:
    """:func:`derive`'s table and arity, its calls paced by ``pace``."""
    codes = all_codes(rule.space_rules).astype(np.int64)
    teller = _engine_part(rule.engine)(rule.path, rule.rules, seconds)
    secrets = teller.admitted()
    if not len(secrets):
        raise BadInput(f"{rule.path} admits no code of {rule.space_rules.describe()}")
    admitted, stray = rule._positions(secrets)
    if stray is not None:  # a code the repetition rule forbids
        raise BadInput(f"{rule.path} admits {rule.space_rules.code_text(stray)}, which is not a code of "
                       f"{rule.space_rules.describe()}")
    arity = _arity(rule, teller, codes, secrets, admitted)
    pegs = rule.rules.pegs
    table = np.full((len(codes), len(codes)), (pegs + 2) ** arity, dtype=_table_dtype(pegs, arity))
    pace.begin(len(codes) * len(secrets))
    for rows, columns in _batches(rule.engine, len(codes), len(secrets)):
        pace.check()
        guesses, some = codes[rows], secrets[columns]
        told = teller.answers(guesses, arity, some)
        _refuse_problems(rule, told, guesses, some, arity)
        if (told.index == UNKNOWN).any():  # no cell of the code alone: only some guesses together
            code = rule.space_rules.code_text(some[np.argwhere(told.index == UNKNOWN)[0][1]])
            raise BadInput(f"{rule.path} tells no feedback against {code} of the guesses "
                           f"{rule.space_rules.code_text(guesses[0])} to {rule.space_rules.code_text(guesses[-1])} "
                           "played together")
        _check_wins(rule, told, guesses, rows.start, some, admitted[columns], arity)
        table[rows, admitted[columns]] = told.index
        pace.done += told.index.size
    return table, arity


def _batches(engine: str, guesses: int, codes: int):
    """The calls of ``engine`` that ask every guess against every code, as ``(rows, columns)`` slices: the
    guesses and the codes of each (``BATCHES``)."""
    cut, cells = BATCHES[engine]
    if cut == "guesses":
        step = max(1, cells // codes)
        return [(slice(start, min(start + step, guesses)), slice(0, codes)) for start in range(0, guesses, step)]
    step = max(1, cells // guesses)
    return [(slice(0, guesses), slice(start, min(start + step, codes))) for start in range(0, codes, step)]


def time_limit(rule: EncodedRule) -> float | None:
    """What bounds deriving the rule's table (seconds; None: nothing): its own ``time_limit``, else, in the
    main thread, the command's ``--time-limit``, as it bounds a rule module's table
    (``limit_scoring``)."""
    if rule.time_limit is not None:
        return rule.time_limit
    return watch.scoring_time_limit()


class _Pace:
    """How a derivation goes: between two calls of its engine, a line on stderr once it has run
    ``SAY_AFTER`` s, then every ``PROGRESS_EVERY`` s (on a terminal, over a spinner's line,
    as a rule module's table says it); and its time limit (``seconds``, None: none)."""

    def __init__(self, rule: EncodedRule, seconds: float | None, wait: Wait | None = None):
        self.rule, self.seconds, self.wait = rule, seconds, wait
        self.started = self.asking = time.monotonic()
        self.said = self.started + SAY_AFTER - watch.PROGRESS_EVERY  # the first line SAY_AFTER s in
        #: The cells (guess, code) to ask in all, and asked so far.
        self.cells, self.done = 0, 0

    def begin(self, cells: int) -> None:
        """The table's ``cells`` are asked from now on (the load, the codes and the arity came first)."""
        self.cells, self.asking = cells, time.monotonic()

    def check(self) -> None:
        """Before the next call: :class:`SolverTimeout` past the time limit, else a line if one is due."""
        now = time.monotonic()
        spent = now - self.started
        rule = self.rule
        if self.wait is not None:
            self.wait.touch()  # a call returned: its lines say how the derivation goes
        if self.seconds is not None and spent >= self.seconds:
            raise SolverTimeout(f"{rule.engine} did not derive the rule of {rule.path} within the time limit of "
                                f"{self.seconds:g} s; raise --time-limit")
        if now - self.said < watch.PROGRESS_EVERY or not self.done:
            return

        self.said = now
        n = rule.space_rules.size
        left = (now - self.asking) * (self.cells - self.done) / self.done  # at the pace of the table's calls
        line = (f"{rule.path}: deriving the rule's table by {rule.engine}: {self.done / self.cells:.0%} of "
                f"{n:,} x {n:,} pairs ({clock(spent)} spent, about {clock(left)} left)")
        # On a terminal, over a spinner's line (it draws itself again below).
        sys.stderr.write(("\r\033[K" if sys.stderr.isatty() else "") + line_breaks_escaped(line) + "\n")
        sys.stderr.flush()


def _check_wins(rule: EncodedRule, told: Told, guesses: np.ndarray, start: int, secrets: np.ndarray,
                admitted: np.ndarray, arity: int) -> None:
    """One line unless the encoding tells the win exactly where the guess is the code (row ``start + i`` is
    guess ``i``)."""
    pegs = rule.rules.pegs
    is_win = told.index == numbers_index((WIN_VALUE,) * arity, pegs)
    should = np.arange(start, start + len(guesses))[:, None] == admitted[None, :]
    if (is_win != should).any():
        row, column = np.argwhere(is_win != should)[0]
        guess, code = rule.space_rules.code_text(guesses[row]), rule.space_rules.code_text(secrets[column])
        raise BadInput(f"{rule.path} tells {guess} won against {code}" if is_win[row, column] else
                       f"{rule.path} does not tell {guess} won against itself")


#: The engines' side of a derivation, by engine: "module:class" (imported by name when a table is derived:
#: the engines sit above the game's definitions and read them, as :data:`mm_logic.engines.BACKENDS` names them).
TELLERS = {"clingo": "mm_logic.engines.clingo.told_table:ClingoTold",
           "swipl": "mm_logic.engines.swipl.told_table:SwiplTold"}


def _engine_part(engine: str):
    """The object ``TELLERS`` names for an engine (a class or a function of its ``told_table`` module)."""
    module, name = TELLERS[engine].split(":")
    return getattr(import_module(module), name)


def _arity(rule: EncodedRule, teller, codes: np.ndarray, secrets: np.ndarray, admitted: np.ndarray) -> int:
    """How many numbers the rule tells: the most with which every admitted code but the guess gets one
    answer, the smallest code the guess (see the module docstring)."""
    others = admitted != 0
    if not others.any():
        return 1  # one code, the guess: nothing is told but the win
    outcomes = {k: teller.answers(codes[:1], k, secrets)
                for k in range(1, min(rule.rules.pegs, MAX_ARITY) + 1)}
    good = {k: int((told.index[0][others] >= 0).sum()) for k, told in outcomes.items()}
    fits = [k for k in outcomes if good[k] == others.sum()]
    if not fits:
        k = max(outcomes, key=lambda k: (good[k], -k))  # the closest to a rule, the fewest numbers first
        _refuse_problems(rule, outcomes[k], codes[:1], secrets, k)
        raise BadInput(f"{rule.path} tells no feedback of {rule.space_rules.code_text(codes[0])} against some "
                       "of the codes it admits")
    arity = max(fits)
    for k in range(arity + 1, max(outcomes) + 1):
        # More numbers than the rule tells leave some free (ASP: several answers) or match no clause
        # (Prolog: none at all); some codes answered and others not is a rule of k numbers with a gap.
        if not outcomes[k].several and good[k]:
            _refuse_problems(rule, outcomes[k], codes[:1], secrets, k)
    return arity


def _refuse_problems(rule: EncodedRule, told: Told, codes: np.ndarray, secrets: np.ndarray, arity: int) -> None:
    """One line for the first cell (guess order, then code order) where the encoding tells no answer or
    several."""
    problems = np.argwhere((told.index == NO_ANSWER) | (told.index == SEVERAL))
    if not problems.size:
        return
    row, column = (int(x) for x in problems[0])
    guess, code = rule.space_rules.code_text(codes[row]), rule.space_rules.code_text(secrets[column])
    if told.index[row, column] == NO_ANSWER:
        raise BadInput(f"{rule.path} tells no feedback of {guess} against {code}")
    pegs = rule.rules.pegs
    first, second = (rule.write(index_numbers(v, pegs, arity)) for v in told.several[(row, column)])
    raise BadInput(f"{rule.path} tells {guess} several feedbacks against {code}: {first} or {second}")


# -- the cache -----------------------------------------------------------------------------------------
def cache_folder() -> Path | None:
    """Where derived tables are kept: ``rules/`` under mmlogic's cache folder (``$XDG_CACHE_HOME/mmlogic``,
    by default ``~/.cache/mmlogic``, where the ahead-of-time kernels are kept too), else under the private
    folder of the temporary directory (:func:`mm_logic.kernels.cache_folders.private_folder`); None when
    neither can be written (the table is then derived in every process)."""
    from ..kernels.cache_folders import private_folder, user_cache_folder, writable

    folder = user_cache_folder() / "rules"
    if writable(folder):
        return folder
    private = private_folder()
    return private / "rules" if private is not None and writable(private / "rules") else None


def cache_key(rule: EncodedRule) -> str:
    """The sha256 the cached table is named by: what the table depends on."""
    from ..support.resources import encodings_dir

    digest = hashlib.sha256(f"mmlogic rule table {FORMAT_VERSION}\n".encode())
    r = rule.rules
    digest.update(f"{r.pegs} {r.colors} {r.repeat_limit} {rule.path.suffix}\n".encode())
    shipped = sorted(p for p in encodings_dir().iterdir() if p.is_file())
    digest_files(digest, [*file_sources(rule.path), *shipped])
    return digest.hexdigest()


def file_sources(path: Path) -> list[Path]:
    """The files a rule's or an encoding's file reads, as its engine finds them (a ``.lp`` file's includes,
    clingo's lookup); a Python module alone."""
    return _engine_part(_engine_of(path)).sources(path) if path.suffix in ENCODED_SUFFIXES else [path]


def check_derivable(path: Path, rules: Rules) -> None:
    """Refuse, in one line, a code space (``rules``' pegs, colours and repetition) beyond what the engine of
    ``path`` derives a rule's table for (:data:`MAX_DERIVED_CODES`), named in the words of the rules' front
    end: ``--feedback FILE`` on the command line, a request's variant by its name, never its file."""
    engine, space = _engine_of(Path(path)), Rules(rules.pegs, rules.colors, rules.max_repeat)
    most = MAX_DERIVED_CODES[engine]
    if space.size > most:
        naming = rules.naming
        advice = ("state it as a Python module (--feedback FILE.py)" if naming.variant is None
                  else "play fewer pegs or colours")
        raise BadInput(f"{naming.feedback(str(path))}: deriving the rule's table of {space.describe()} "
                       f"({space.size:,} codes) by {engine} is beyond {most:,} codes; {advice}")


def _engine_of(path: Path) -> str:
    """The engine that reads an encoding: clingo for ``.lp``, SWI-Prolog for ``.pl``."""
    return "clingo" if path.suffix == ".lp" else "swipl"


def digest_files(digest, files: list[Path], strict: bool = False) -> None:
    """Add each file's length and bytes to ``digest`` (a hashlib object). A file that cannot be read is one
    line when ``strict``, else adds ``unreadable`` (a cache key: the derivation names it next)."""
    for file in files:
        try:
            data = file.read_bytes()
        except OSError as error:
            if strict:
                raise BadInput(f"cannot read {file}: {error.strerror or error}") from None
            data = b"unreadable"
        digest.update(f"{len(data)}\n".encode())
        digest.update(data)


def cache_file(rule: EncodedRule) -> Path | None:
    """The cache file of the rule's table, or None without a cache folder."""
    folder = cache_folder()
    return None if folder is None else folder / f"{cache_key(rule)}.npz"


def read_cached(rule: EncodedRule) -> tuple[np.ndarray, int] | None:
    """The cached table and arity, or None when there is none or it does not read back whole."""
    path = cache_file(rule)
    if path is None or not path.is_file():
        return None
    n, pegs = rule.rules.size, rule.rules.pegs
    try:
        with np.load(path, allow_pickle=False) as data:
            table, arity = data["table"], int(data["arity"])
        if not 1 <= arity <= MAX_ARITY or table.shape != (n, n) or table.dtype != np.dtype(
                _table_dtype(pegs, arity)) or table.max(initial=0) > (pegs + 2) ** arity:
            return None
    except Exception:  # noqa: BLE001 - a cache file cut short or written by anything else: derived again
        return None
    return table, arity


def write_cached(rule: EncodedRule, table: np.ndarray, arity: int) -> None:
    """Keep the table on disk, written whole: a temporary file beside it, then renamed (a reader sees the
    old file or the new one). A cache that cannot be written is only a slower next run."""
    path = cache_file(rule)
    if path is None:
        return
    try:
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=".table-", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as out:
            np.savez(out, table=table, arity=np.int64(arity))
        os.replace(name, path)
    except OSError:
        with suppress(OSError):
            os.unlink(name)


# -- helpers -------------------------------------------------------------------------------------------
def _table_dtype(pegs: int, arity: int):
    """The dtype of a table of ``arity`` numbers: their indices and ``not_admitted``, one past them."""
    return slots_dtype((pegs + 2) ** arity + 1)


_COMMENT = re.compile(r"^\s*(?:%+|/\*\*?)\s*(?:<module>\s*)?(?P<text>\S.*?)\s*(?:\*/)?\s*$")


def _summary(path: Path) -> str:
    """The first comment line of the encoding (its title), for ``--help``-like listings."""
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            for _, line in zip(range(40), file):
                found = _COMMENT.match(line)
                if found:
                    return found["text"]
    except OSError:
        pass
    return f"the rule of {path.name}"


__all__ = ["BATCHES", "ENCODED_SUFFIXES", "MAX_ARITY", "MAX_DERIVED_CODES", "NO_ANSWER", "SEVERAL", "UNKNOWN",
           "EncodedRule", "Told", "cache_file", "cache_folder", "cache_key", "derive", "time_limit"]
