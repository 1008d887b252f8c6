"""Static Mastermind (``mmlogic static``): the fewest guesses, fixed in advance, whose answers tell
every code apart, found and proved by clingo (``encodings/static.lp``).

Three steps:

1. :func:`answers`: the answer of every guess to every secret, from the game's own rule
   parts (``code.lp``, ``counts.lp``, ``repetition.lp``, ``feedback.lp`` or ``marks.lp``)
   with every code played and its feedback left open: one model per secret.
2. :func:`static_search`: satisfiability calls for k = 1, 2, ... guesses (part
   ``bound(k)``), the first satisfiable one giving the answer, the unsatisfiable ones
   proving that fewer do not suffice. The codes to tell apart arrive lazily: when the
   guesses found answer two codes alike, the pair becomes a constraint (part
   ``apart(s,t)``) and the same k is asked again. A constraint holds for every k, so
   clingo keeps what it learnt, and an unsatisfiable call over some pairs is a proof
   for all of them. (Every pair at once grounds pairs x guesses rules, about 10^9 on
   4x6; clingo's optimisation, which keeps improving a model, does not fit constraints
   that arrive once a model is found.)
3. :func:`check_guesses`: the reference check, through the game's feedback rule
   (:meth:`~mm_logic.feedback.FeedbackRule.indices`): the guesses' answers differ for
   every pair of codes.

The final winning guess is counted apart: k guesses tell the codes apart, and one more
names the code (unless it was among the k). Goddard's figures for 2 pegs
(2, 2, 3, 4, 4, 5 guesses for 2..7 colours) count the same way.

>>> from mm_logic.rules import Rules
>>> found = static_search(Rules(2, 4))
>>> len(found.guesses), found.optimal, found.checked
(3, True, True)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from clingo import Control, Function, Number

from ..codespace import code_space
from ..engines.clingo.solve import solve_within
from ..feedback import rule_of
from ..notation import Code, format_code, plural
from ..rules import Rules
from ..studies.written_game import encoding_secrets
from ..support.errors import BadInput, SolverTimeout
from ..support.resources import encoding_path
from ..symmetry import GameSymmetry, game_symmetry
from .bound import GuessedBound, guessed_bound

#: The shipped parts that state the code space and the feedback rules, in ``mastermind.lp``'s order.
GAME_PARTS = ("code.lp", "counts.lp", "repetition.lp", "feedback.lp", "marks.lp")
#: Largest code space searched: the answers are codes x codes facts (4x6: 1.7 million).
MAX_CODES = 4096
#: Pairs of codes made constraints after one model (the rest wait for the next round).
PAIRS_PER_ROUND = 2000
#: clasp options of the search: none, clasp's default configuration was the fastest measured
#: (docs/results/static.md: on 3x6 13 s, against 21 s to 119 s for trendy, crafty, handy, jumpy).
SEARCH_ARGUMENTS: tuple[str, ...] = ()
#: Most pegs whose moves the symmetry breaking uses (pegs! permutations).
MAX_MOVED_PEGS = 6
#: Codes to tell apart from which clingo's search for the fewest guesses is said at once to be long (``notice``):
#: 4x5's 625 did not end in 20 minutes, 4x6's 1,296 in an hour, where 4x4's 256 take seconds (docs/results/static.md).
LONG_SEARCH_CODES = 500
#: Seconds of clingo's search for the fewest guesses after which it is said to be long, on fewer codes
#: (``notice``): 3x4 black-peg takes 9 s, 4x4 black-peg had not ended in ten minutes.
NOTICE_AFTER = 30.0
#: Seconds between two progress lines while the answers are read (4x6: 10 to 40 s).
PROGRESS_EVERY = 5.0


@dataclass
class StaticResult:
    """What :func:`static_search` found and proved."""

    rules: Rules
    #: The guesses found (empty when none was found before the end).
    guesses: list[Code]
    #: Whether fewer guesses were proved not to suffice.
    optimal: bool
    #: The fewest guesses not yet proved insufficient (``len(guesses)`` once optimal).
    lower_bound: int
    seconds: float
    #: Satisfiability calls made, and pairs of codes that became constraints.
    calls: int = 0
    pairs: int = 0
    #: Whether the reference check passed (:func:`check_guesses`).
    checked: bool = False
    #: Why the search ended early ("interrupted", "time limit"), or None.
    stopped: str | None = None
    #: Seconds per k: (k, seconds, satisfiable).
    steps: list[tuple[int, float, bool]] = field(default_factory=list)
    #: What found the guesses: "clingo" (its search), "local search" (checked by clingo, or by the feedback
    #: rule alone with the exhaustive search) or "exhaustive search", or None.
    found_by: str | None = None
    #: What proves a number of guesses impossible: "clingo" or "exhaustive" (:mod:`mm_logic.static.proof`).
    method: str = "clingo"
    #: With the exhaustive search: its proofs in turn (:meth:`mm_logic.static.proof.ProofResult.as_dict`).
    proofs: list[dict] = field(default_factory=list)
    #: The edited encoding whose codes are to be told apart (every code may be a guess), if any.
    encoding: Path | None = None
    #: Those codes (indices into the rules' codes), None: every code.
    secrets: np.ndarray | None = None
    #: The bound of the pairs of codes only guessing one of them tells apart (:mod:`mm_logic.static.bound`).
    guessed: GuessedBound = GuessedBound(0, 0, None)

    @property
    def game(self) -> str:
        """What is told apart, for the text: ``4x6``, or ``4x6, the codes of FILE``."""
        return self.rules.describe() + (f", the codes of {self.encoding}" if self.encoding is not None else "")

    def as_dict(self) -> dict:
        """``static --json``'s object (``docs/cli.md``)."""
        k = len(self.guesses)
        return {"rules": self.rules.as_dict(), **({"encoding": str(self.encoding)} if self.encoding else {}),
                "guesses": [format_code(g, self.rules) for g in self.guesses],
                "count": k if self.guesses or self.optimal else None, "optimal": self.optimal,
                "lower_bound": self.lower_bound, "final_guess_counted": False,
                "with_final_guess": k + 1 if self.guesses or self.optimal else None,
                "checked": self.checked, "seconds": round(self.seconds, 3), "calls": self.calls,
                "pairs": self.pairs, "stopped": self.stopped, "found_by": self.found_by, "method": self.method,
                "proofs": self.proofs, "guessed_bound": self._guessed_dict(),
                "steps": [{"guesses": k, "seconds": round(s, 3), "satisfiable": sat} for k, s, sat in self.steps]}

    def _guessed_dict(self) -> dict | None:
        """The bound of the pairs only guessing tells apart, for the JSON (None without such pairs)."""
        g = self.guessed
        if g.example is None:
            return None
        space = code_space(self.rules)
        return {"bound": g.bound, "pairs": g.pairs,
                "example": [format_code(space.code(c), self.rules) for c in g.example]}

    def _guessed_line(self) -> list[str]:
        """The line that says the bound of the pairs only guessing tells apart, when there are such pairs."""
        g = self.guessed
        if g.bound < 2:  # at least one guess: nothing to say
            return []
        a, b = (format_code(code_space(self.rules).code(c), self.rules) for c in g.example)
        return [f"at least {plural(g.bound, 'guess')}: {plural(g.pairs, 'pair')} of codes get the same answers "
                f"but when one of them is guessed ({a} and {b} the first), and each pair needs one of its codes "
                "guessed"]

    def summary(self) -> str:
        """One line: what was proved and found (also the message of an interrupted search)."""
        proved = (f"no {self.lower_bound - 1} guesses suffice" if self.lower_bound > 1 else "nothing proved yet")
        if not self.guesses:
            return f"{proved}; no guesses found"
        return f"{proved}; {len(self.guesses)} found"

    def text(self) -> str:
        """The text output, a line per fact."""
        return "\n".join(self.lines())

    def lines(self) -> list[str]:
        """The text output."""
        return self._found_lines() + self._guessed_line()

    def _found_lines(self) -> list[str]:
        """The text output but the bound of the pairs only guessing tells apart."""
        if not self.guesses:
            if self.optimal:
                return [f"no guess is needed: {self.game} has one code, which the final guess names"]
            if self.stopped is None and self.lower_bound > 1:
                by = " by the exhaustive search" if self.method == "exhaustive" else ""
                return [f"no {plural(self.lower_bound - 1, 'guess')} tell every code of {self.game} "
                        f"apart (proved{by}, {self.seconds:.2f} s)"]
            return [self.summary()]
        k = len(self.guesses)
        head = (f"{plural(k, 'guess')} fixed in advance tell every code of {self.game} apart"
                f"{' (optimal: ' + str(k - 1) + ' do not)' if self.optimal and k > 1 else ''}"
                f"{'' if self.optimal else ' (not proved optimal: ' + self.summary() + ')'}")
        if self.method == "exhaustive":
            branches = sum(p["branches_done"] for p in self.proofs)
            proved = f"; {k - 1} proved impossible by the exhaustive search" if self.optimal and k > 1 else ""
            how = (f"found by {'a local search' if self.found_by == 'local search' else 'the exhaustive search'}"
                   f"{proved}"
                   f" ({plural(len(self.proofs), 'proof')}, {plural(branches, 'branch')} over the "
                   "symmetry classes)")
        elif self.found_by == "local search":
            how = f"found by a local search, checked by clingo ({plural(self.calls, 'solver call')})"
        else:
            how = (f"{plural(self.calls, 'solver call')}, {plural(self.pairs, 'pair')} of codes told apart as "
                   "constraints")
        return [head, " ".join(format_code(g, self.rules) for g in self.guesses),
                f"the final winning guess is counted apart: {k + 1} guesses win ({k} when the code is "
                "one of them)",
                f"{self.seconds:.2f} s, {how}; checked by the reference engine: {'yes' if self.checked else 'no'}"]


def check_rules(rules: Rules) -> None:
    """Refuse (exit 2) a game the search does not take: too many codes."""
    if rules.size > MAX_CODES:
        raise BadInput(f"{rules.describe()} has {rules.size:,} codes; static searches at most {MAX_CODES:,} "
                       "(the answers are codes x codes facts)")


def answers(rules: Rules, deadline: float | None = None,
            progress: Callable[[str], None] | None = None) -> np.ndarray:
    """``table[g, s]``: the feedback index (the rule's :meth:`~mm_logic.feedback.FeedbackRule.index`) of
    code ``g`` played against secret ``s``, both numbered in lexicographic order, as the shipped rule
    encodings state it: one clingo model per secret (``static.lp``'s first program). Past ``deadline``
    (``time.monotonic``'s clock) raises :class:`~mm_logic.support.errors.SolverTimeout`; ``progress`` gets a line
    every :data:`PROGRESS_EVERY` seconds, the codes read so far. A rule of one's own states
    no open answer in the shipped parts: its answers are its feedback table (the rule itself, or derived
    from its encoding by that encoding's engine)."""
    space = code_space(rules)
    rule = rule_of(rules)
    if rule.open_parts is None:
        return space.table.astype(np.int64)
    n, pegs = space.size, rules.pegs
    ctl = Control(["0"], logger=_quiet)
    for name in (*GAME_PARTS, "static.lp"):
        ctl.load(str(encoding_path(name)))
    facts = f"pegs({pegs}).colours({rules.colors})." + (f"max_repeat({rules.repeat_limit})." if rules.restricted
                                                        else "")
    facts += "".join(f"guess({t},{p},{c})." for t in range(n) for p, c in enumerate(space.codes[t].tolist(), 1))
    ctl.add("base", [], facts + "#show secret/2. #show black/2. #show white/2. #show mark/3.")
    # The parts grounded for each guess t: the rule's constraints and its open answer.
    parts = (*rule.asp_parts, *rule.open_parts)
    ctl.ground([("base", []), *((part, [Number(t)]) for t in range(n) for part in parts)])
    for t in range(n):
        ctl.assign_external(Function("active", [Number(t)]), True)
    # Each feedback tuple as a number (value x base^slot), then the rule's index of it through a table.
    base, width = rule.answer_shape(pegs)
    lut = np.zeros(base**width, dtype=np.int64)
    for values in itertools.product(range(base), repeat=width):
        if rule.impossible(values, pegs, rules.colors) is None:  # the others never answer: left at 0
            lut[sum(v * base**i for i, v in enumerate(values))] = rule.index(tuple(values), pegs)
    where: dict = {}  # shown symbol -> (guess or -1 for the secret, slot, value)

    def spot(symbol) -> tuple[int, int, int]:
        a = symbol.arguments
        if symbol.name == "secret":
            return -1, a[0].number - 1, a[1].number
        return rule.answer_atom(symbol)  # the rule's own atoms of an answer

    table = np.zeros((n, n), dtype=np.int64)
    seen = np.zeros(n, dtype=bool)
    began = time.monotonic()
    said = began
    with ctl.solve(yield_=True) as handle:
        for read, model in enumerate(handle):
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                raise SolverTimeout("time limit")
            if progress is not None and now - said >= PROGRESS_EVERY:
                said = now
                progress(f"answers read for {read:,} of {n:,} codes ({now - began:.0f} s)")
            secret = [0] * pegs
            number = np.zeros(n, dtype=np.int64)
            for symbol in model.symbols(shown=True):
                place = where.get(symbol)
                if place is None:
                    place = where[symbol] = spot(symbol)
                guess, slot, value = place
                if guess < 0:
                    secret[slot] = value
                else:
                    number[guess] += value * base**slot
            s = int(space.index_of([secret])[0])
            table[:, s], seen[s] = lut[number], True
    if not seen.all():
        raise RuntimeError(f"the rule encodings gave no answers for {n - int(seen.sum())} secrets")
    return table


def orbits(rules: Rules, symmetry: GameSymmetry | None = None) -> np.ndarray:
    """``orbit[g]``: the smallest code that renaming colours and moving pegs turn code ``g`` into.

    Renaming colours in order of first appearance gives the smallest of the renamings; the smallest
    over every order of the pegs (up to :data:`MAX_MOVED_PEGS` pegs; colours alone beyond) is the orbit's.
    Both keep the answers of a set of guesses apart: a renamed game is the same game. Only the maps
    ``symmetry`` allows (default: the game's, :func:`mm_logic.symmetry.game_symmetry`): without the
    renamings every code is its own orbit, without the peg orders the renamings alone.
    """
    space = code_space(rules)
    codes = space.codes.astype(np.int64)
    n, pegs = codes.shape
    best = np.arange(n, dtype=np.int64)
    symmetry = game_symmetry(rules) if symmetry is None else symmetry
    if not symmetry.renames_colours:
        return best
    moves = itertools.permutations(range(pegs)) if pegs <= MAX_MOVED_PEGS and symmetry.moves_pegs \
        else [tuple(range(pegs))]
    rows = np.arange(n)
    for order in moves:
        moved = codes[:, list(order)]
        names = np.full((n, rules.colors), -1, dtype=np.int64)
        used = np.zeros(n, dtype=np.int64)
        renamed = np.empty_like(moved)
        for p in range(pegs):
            colour = moved[:, p]
            fresh = names[rows, colour] < 0
            names[rows[fresh], colour[fresh]] = used[fresh]
            used += fresh
            renamed[:, p] = names[rows, colour]
        best = np.minimum(best, space.index_of(renamed))
    return best


def check_guesses(rules: Rules, guesses: list[Code], secrets: np.ndarray | None = None) -> bool:
    """Whether the guesses' answers, by the game's feedback rule, differ for every pair of codes (of
    ``secrets``: an edited encoding's; None: every code)."""
    from .proof import told_apart  # the exhaustive search's check too; that module needs no clingo

    return told_apart(rules, guesses, secrets)


def alike_pairs(table: np.ndarray, chosen: list[int], limit: int = PAIRS_PER_ROUND) -> list[tuple[int, int]]:
    """Pairs of codes the chosen guesses answer alike: consecutive codes of each class of one answer,
    at most ``limit``, spread over the classes (every class's first pair first)."""
    n = table.shape[1]
    keys = table[chosen].T if chosen else np.zeros((n, 1), dtype=np.int64)
    order = np.lexsort(keys.T[::-1])
    same = np.all(keys[order[1:]] == keys[order[:-1]], axis=1)
    starts = np.flatnonzero(same)
    if len(starts) == 0:
        return []
    # rank of each pair within its class, so that taking the smallest ranks spreads over the classes
    first = np.concatenate(([True], np.diff(starts) != 1))
    group = np.cumsum(first) - 1
    rank = np.arange(len(starts)) - np.flatnonzero(first)[group]
    picked = starts[np.argsort(rank, kind="stable")[:limit]]
    return [(int(min(order[i], order[i + 1])), int(max(order[i], order[i + 1]))) for i in picked]


def static_search(rules: Rules, time_limit: float | None = None,
                  progress: Callable[[str], None] | None = None, guesses: int | None = None,
                  local_seconds: float | None = None, seed: int = 0, exhaustive: bool = False,
                  encoding: Path | None = None, notice: Callable[[str], None] | None = None) -> StaticResult:
    """The fewest guesses fixed in advance whose answers tell every code apart (final guess apart).

    With ``guesses``, only that many (at most) are asked for: the guesses found, not proved
    optimal, or the proof that no set of that many tells every code apart. With ``local_seconds``
    too, a local search (:mod:`~mm_logic.static.local_search`, drawn from ``seed``) looks for them
    first for up to that long; a set it finds is checked by clingo and kept, otherwise clingo's
    search follows.

    With ``exhaustive``, the numbers of guesses are settled by the exhaustive search of
    :mod:`mm_logic.static.proof` over the feedback rule's table instead of clingo (see ``_exhaustive``).

    ``progress`` gets a line per solver call and per k (and while the answers are read). Past ``time_limit``
    seconds, or on Ctrl-C, the result so far is kept in the exception's ``result`` (:class:`StaticStopped`).
    ``notice`` is told once, before a search that may take hours begins (clingo's, for the fewest guesses, from
    :data:`LONG_SEARCH_CODES` codes), what it does and how to bound it.

    ``encoding``: an edited encoding whose codes (listed by its own engine) are the codes to tell apart,
    every code of the rules a guess; a rule stated in an encoding (``--feedback FILE.lp``) that narrows the
    code space narrows them too. The symmetry breaking keeps only the maps that also map them onto
    themselves; so does the exhaustive search's group (:func:`mm_logic.static.proof.symmetry_group`).
    """
    check_rules(rules)
    if local_seconds is not None and guesses is None:
        raise BadInput("--local-search looks for --guesses K guesses: give K")
    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    space = code_space(rules)
    secrets = encoding_secrets(rules, encoding, time_limit)  # listed within the time limit too
    if encoding is None and secrets is not None:
        encoding = Path(rules.feedback)  # a rule written once in an encoding that narrows the code space
    result = StaticResult(rules, [], False, 1, 0.0, encoding=encoding, secrets=secrets)
    _bounded(result)
    say = progress or (lambda line: None)
    if exhaustive:
        result.method = "exhaustive"
        return _exhaustive(result, guesses, local_seconds, seed, start, deadline, say)
    told = space.size if secrets is None else secrets.size  # the codes to tell apart
    tick = None
    if notice is not None and guesses is None:
        say = _Notice(result, told, start, notice, say)
        tick = say.tick
    try:
        say(f"reading the answers of {space.size:,} guesses to {space.size:,} codes from the rule encodings")
        table = answers(rules, deadline, say)
        if secrets is not None:
            table = np.ascontiguousarray(table[:, secrets])  # the codes to tell apart: the secrets
        say(f"answers of {space.size:,} guesses to {table.shape[1]:,} codes from the rule encodings: "
            f"{time.monotonic() - start:.2f} s")
        if local_seconds is not None and table.shape[1] > 1 and _local(table, guesses, local_seconds, seed,
                                                                       deadline, result, say):
            result.seconds = time.monotonic() - start
            return _checked(result)
        ctl = Control(list(SEARCH_ARGUMENTS), logger=_quiet)
        ctl.load(str(encoding_path("static.lp")))
        n = space.size
        orbit = orbits(rules, game_symmetry(rules, secrets))
        facts = [f"code({g}).orbit({g},{orbit[g]})." for g in range(n)]
        # The codes to tell apart are the table's columns (every code, or the secrets numbered in order).
        facts += [f"answer({g},{s},{table[g, s]})." for g in range(n) for s in range(table.shape[1])]
        ctl.add("search", [], "".join(facts))
        ctl.ground([("search", [])])
        if table.shape[1] == 1:
            result.optimal, result.checked, result.lower_bound = True, True, 0
            return result
        k = max(guesses or 1, result.lower_bound)  # fewer are proved impossible by the pairs only guessing tells apart
        if guesses is not None and guesses < k:
            say(f"{plural(guesses, 'guess')}: impossible, proved by the pairs only guessing tells apart")
        while guesses is None or guesses >= result.lower_bound:
            ctl.ground([("bound", [Number(k)])])
            within = Function("within", [Number(k)])
            ctl.assign_external(within, True)
            began = time.monotonic()
            while True:
                result.calls += 1
                chosen = _solve(ctl, deadline, tick)
                if chosen is None:
                    break
                pairs = alike_pairs(table, chosen)
                if not pairs:
                    break
                ctl.ground([("apart", [Number(s), Number(t)]) for s, t in pairs])
                result.pairs += len(pairs)
                say(f"{plural(k, 'guess')}: call {result.calls}, {plural(result.pairs, 'pair')} of codes told apart "
                    f"so far ({time.monotonic() - began:.0f} s)")
            seconds = time.monotonic() - began
            result.steps.append((k, seconds, chosen is not None))
            if chosen is not None:
                result.guesses, result.found_by = [space.code(g) for g in sorted(chosen)], "clingo"
                # at most k: a set of fewer may be found; optimal when k - 1 was proved impossible
                result.optimal = result.lower_bound == len(chosen)
                say(f"{plural(k, 'guess')}: found ({seconds:.2f} s)")
                break
            # at most k guesses are impossible: so are fewer
            result.lower_bound = k + 1
            say(f"{plural(k, 'guess')}: impossible, proved ({seconds:.2f} s, {plural(result.pairs, 'pair')} so far)")
            if guesses is not None:
                break
            ctl.release_external(within)
            k += 1
    except (KeyboardInterrupt, SolverTimeout) as error:
        result.stopped = "interrupted" if isinstance(error, KeyboardInterrupt) else "time limit"
        result.seconds = time.monotonic() - start
        raise StaticStopped(result) from None
    result.seconds = time.monotonic() - start
    return _checked(result)


def _exhaustive(result: StaticResult, guesses: int | None, local_seconds: float | None, seed: int, start: float,
                deadline: float | None, say: Callable[[str], None]) -> StaticResult:
    """``static --prove-exhaustive``: every number of guesses settled by
    :func:`mm_logic.static.proof.prove`.

    Without ``guesses``: 1, 2, ... guesses, each proved impossible until a set is found (optimal).
    With ``guesses`` K: a set of K (by the local search first, with ``local_seconds``; else by the
    exhaustive search), then K - 1 proved impossible (optimal) or a set of K - 1 found (kept, not
    proved optimal); or the proof that K do not suffice. The answers are the feedback rule's table, its
    columns the codes to tell apart (``result.secrets``: an edited code space's; every code otherwise)."""
    from .local_search import local_search
    from .proof import ProofStopped, prove

    rules, space, secrets = result.rules, code_space(result.rules), result.secrets
    told = space.size if secrets is None else secrets.size  # codes to tell apart

    def settle(k: int) -> bool:
        began = time.monotonic()
        proof = prove(rules, k, say, deadline, secrets=secrets)
        result.proofs.append(proof.as_dict())
        result.steps.append((k, time.monotonic() - began, bool(proof.possible)))
        if proof.possible:
            result.guesses, result.found_by = proof.guesses, "exhaustive search"
            result.optimal = result.lower_bound >= len(proof.guesses)
            say(f"{plural(k, 'guess')}: found ({time.monotonic() - began:.2f} s)")
        else:
            result.lower_bound = max(result.lower_bound, k + 1)
            result.optimal = bool(result.guesses) and result.lower_bound >= len(result.guesses)
            say(f"{plural(k, 'guess')}: impossible, proved ({time.monotonic() - began:.2f} s)")
        return bool(proof.possible)

    try:
        if told == 1:
            result.optimal, result.checked, result.lower_bound = True, True, 0
        elif guesses is None:
            k = result.lower_bound
            while not settle(k):
                k += 1
        elif guesses < result.lower_bound:
            say(f"{plural(guesses, 'guess')}: impossible, proved by the pairs only guessing tells apart")
        else:
            found = None
            if local_seconds is not None:
                began = time.monotonic()
                until = began + local_seconds if deadline is None else min(deadline, began + local_seconds)
                table = space.table if secrets is None else space.table[:, secrets]
                found = local_search(np.ascontiguousarray(table, dtype=np.int64), guesses, seed, until)
                if found is not None:
                    result.guesses, result.found_by = [space.code(g) for g in found], "local search"
                    result.steps.append((len(found), time.monotonic() - began, True))
                    say(f"local search: {plural(len(found), 'guess')} found")
            if (found is not None or settle(guesses)) and len(result.guesses) > result.lower_bound:
                settle(len(result.guesses) - 1)
            elif result.guesses:
                result.optimal = result.lower_bound >= len(result.guesses)
    except (KeyboardInterrupt, ProofStopped) as error:
        result.stopped = "interrupted" if isinstance(error, KeyboardInterrupt) else "time limit"
        if isinstance(error, ProofStopped):
            result.proofs.append(error.result.as_dict())
        result.seconds = time.monotonic() - start
        raise StaticStopped(result) from None
    result.seconds = time.monotonic() - start
    return _checked(result)


class _Notice:
    """The progress of clingo's search for the fewest guesses, ``notice`` told first what it does and how to bound
    it: at once from :data:`LONG_SEARCH_CODES` codes, else once it has run :data:`NOTICE_AFTER` s (at a progress
    line, or at a :meth:`tick` while a solver call goes on).

    Under another rule than the standard one fewer codes take long too: ``static --pegs 4 --colors 4 --feedback
    black`` (256 codes) had not ended in ten minutes, nothing said but its progress."""

    def __init__(self, result: StaticResult, told: int, start: float, notice: Callable[[str], None],
                 say: Callable[[str], None]):
        first = result.lower_bound
        codes = f"{told:,} codes of {result.rules.describe()}" + (
            "" if result.encoding is None else f" that {result.encoding} admits")
        self.how = (f"static asks clingo for {first}, {first + 1}, ... guesses in turn over the {codes}, each number "
                    "proved impossible before the next")
        self.bound = ("bound it with --time-limit SECONDS (what was proved is printed), or find K guesses with "
                      "--guesses K --local-search SECONDS (with --prove-exhaustive to prove them optimal)")
        self.start, self.notice, self.say, self.told = start, notice, say, False
        if told >= LONG_SEARCH_CODES:
            self.told = True
            notice(f"{self.how}: on this many codes it may take hours (4x5 did not end in 20 minutes, 4x6 in an "
                   f"hour); {self.bound}")

    def tick(self) -> None:
        """Tell the notice once the search has run long enough."""
        if not self.told and time.monotonic() - self.start >= NOTICE_AFTER:
            self.told = True
            self.notice(f"{self.how}: past {NOTICE_AFTER:g} s it may take hours more; {self.bound}")

    def __call__(self, line: str) -> None:
        self.tick()
        self.say(line)


def _bounded(result: StaticResult) -> None:
    """Put in ``result`` the bound of the pairs of codes only guessing tells apart
    (:mod:`mm_logic.static.bound`)."""
    table = code_space(result.rules).table
    result.guessed = guessed_bound(table if result.secrets is None else table[:, result.secrets], result.secrets)
    result.lower_bound = max(result.lower_bound, result.guessed.bound)


def _checked(result: StaticResult) -> StaticResult:
    """The result, its guesses checked by the game's feedback rule (raises when they fail)."""
    if not result.guesses:
        return result
    result.checked = check_guesses(result.rules, result.guesses, result.secrets)
    if not result.checked:
        raise RuntimeError("the guesses found do not tell every code apart by the game's feedback rule")
    return result


def _local(table: np.ndarray, k: int, seconds: float, seed: int, deadline: float | None, result: StaticResult,
           say: Callable[[str], None]) -> bool:
    """The local search for k guesses, for up to ``seconds``; a set found is checked by clingo and put in
    ``result`` (True), or nothing was found (False)."""
    from .local_search import clingo_check, local_search

    began = time.monotonic()
    until = began + seconds if deadline is None else min(deadline, began + seconds)
    found = local_search(table, k, seed, until)
    if found is None:
        say(f"local search: no {plural(k, 'guess')} found in {time.monotonic() - began:.0f} s; clingo's search")
        return False
    result.calls += 1
    if not clingo_check(table, found, deadline):
        raise RuntimeError("clingo finds codes alike under the guesses of the local search")
    space = code_space(result.rules)
    result.guesses, result.found_by = [space.code(g) for g in found], "local search"
    result.optimal = result.lower_bound == len(found)  # one guess, when it does; else not proved
    result.steps.append((len(found), time.monotonic() - began, True))
    say(f"local search: {plural(len(found), 'guess')} found and checked by clingo")
    return True


def _quiet(code, message) -> None:
    """clingo's notes on the shipped parts (atoms of a part not grounded here): nothing to tell."""


class StaticStopped(Exception):
    """The search stopped early (Ctrl-C or the time limit); ``result`` holds what was proved."""

    def __init__(self, result: StaticResult):
        super().__init__(result.summary())
        self.result = result


def _solve(ctl: Control, deadline: float | None, tick: Callable[[], None] | None = None) -> list[int] | None:
    """The chosen guesses of a model, or None when unsatisfiable; bounded by ``deadline`` and Ctrl-C; ``tick`` called
    every second while it runs."""
    found: list[list[int]] = []

    def on_model(model) -> None:
        found.append([s.arguments[0].number for s in model.symbols(shown=True) if s.name == "chosen"])

    outcome = solve_within(ctl, on_model, deadline, tick=tick)
    if outcome is None:
        raise SolverTimeout("time limit")
    if outcome.unsatisfiable:
        return None
    return found[-1]
