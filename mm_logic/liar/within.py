"""A strategy that finds every secret within D guesses against every liar: a search, and its independent check.

``mm_logic.liar.optimal`` proves the least worst case of games of
at most 81 codes by trying every guess everywhere. Here the same question,
``within(S, d)``: can every state of the set ``S`` (code, lies used,
:mod:`mm_logic.lies`) be found within ``d`` guesses whatever the codemaker
answers?, is asked of larger games (4x6 with one lie) by an AND-OR
depth-first search that aims at finding a strategy rather than at proving
there is none:

* an OR node (a set of states, ``d`` guesses left) scores every guess at once
  over the states (``kernels.lies_within.child_counts``, from
  the code space's feedback table), drops the guesses that some answer leaves
  a set that cannot be finished (a part equal to ``S``, which gains nothing;
  more than one code with one guess left; with one lie, more states than
  ``kernels.lies_within.one_lie_bound`` allows, a counting bound
  over the fresh states (no lie used) and the used ones: with two guesses left,
  since every fresh state but the guess follows every answer, at most two fresh
  states and no used one, or one fresh and 13 used, or 14 used, for 4x6's 13
  answers a liar may give), and tries the others best first:
  the smallest ``Σ W log W`` over the answers' parts, a part weighing each
  state by one more than the lies it has left (entropy's ranking over the
  weighted states), a guess that may win first on ties;
* an AND node follows every answer that leaves a state, the heaviest part
  first, and fails at its first failing part;
* with ``d`` at most ``full`` every guess is tried: below that depth the
  search is exhaustive. Above it a node tries its ``width(d)`` best guesses
  only, and the search runs in passes, each wider than the last, until it
  finds a strategy, proves there is none (only when no node was cut), or its
  time runs out;
* guesses are taken one per orbit of the symmetries (colours renamed, pegs
  moved, as the rule allows) that fix every guess made so far, which map the
  node's states onto themselves;
* sets settled are remembered (by a digest): the subtree found, or the width
  under which the set failed (a failure with no node cut below is final).

:func:`check` walks a strategy's tree apart from the search, from the rule's
own feedback and :func:`~mm_logic.lies.lies_told`: every secret answered
every way with at most K lies, as ``mm_logic.liar.every_lie`` walks a
strategy. ``py/experiments/lies_within.py`` runs both: 4x6 with one lie, a
strategy within 7 guesses found in about 30 s (two passes, ``--full 3``) and
checked, and none within 6 (exhaustive, 6 s; docs/results/lies.md).

>>> from mm_logic.rules import Rules
>>> rules = Rules(2, 3, lies=1)
>>> search_within(rules, 4).found, search_within(rules, 5).found
(False, True)
>>> report = check(rules, search_within(rules, 5).tree)
>>> report.worst, report.games
(5, 48)
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from ..codespace import code_space
from ..feedback import rule_of
from ..histogram import HistogramFigures
from ..lies import answerable, lies_told
from ..notation import Code, format_code, format_feedback, parse_code
from ..rules import Rules
from ..support.errors import BadInput
from ..symmetry import canonical_openings, code_maps, game_symmetry, moves_keep_feedback

#: The largest game searched: every code is scored against every state from the whole feedback table.
MAX_CODES = 4096
#: The largest group of symmetries listed (pegs! x colours! maps of every code): past it, openings only.
MAX_SYMMETRIES = 50_000
#: The guesses left up to which the counting bound prunes a part (past it, the bound seldom binds).
BOUND_DEPTHS = 8
#: Fresh states up to which ``kernels.lies_within.one_lie_bound`` is tabled.
BOUND_CAP = 160

#: A tree: ``{"guess": code index, "answers": {feedback index: subtree}}``, no answers at a leaf.
Tree = dict


class OutOfTime(Exception):
    """The search's time ran out."""


@dataclass
class WithinResult:
    """What a search for a strategy within ``depth`` guesses found."""

    rules: Rules
    depth: int
    found: bool
    #: ``found``: a strategy (code indices, :data:`Tree`); see :func:`tree_json`.
    tree: Tree | None
    #: Not found, and no node was cut: no strategy exists (a proof, as :mod:`mm_logic.liar.optimal`'s).
    proved: bool
    timed_out: bool
    seconds: float
    nodes: int
    passes: int
    #: Per pass: its width at the top, the nodes and seconds after it, and the openings that failed there
    #: (``(opening, answers finished, answers)``); the last, unfinished when the time ran out.
    log: list = field(default_factory=list)

    def text(self) -> str:
        verdict = ("found" if self.found else "none exists (proved)" if self.proved
                   else "not found (time out)" if self.timed_out else "not found")
        return (f"rules    {self.rules.describe()}\n"
                f"within   {self.depth} guesses: {verdict}\n"
                f"passes   {self.passes}\n"
                f"nodes    {self.nodes:,}\n"
                f"seconds  {self.seconds:.1f}")


class _Search:
    """One search: the table, the bound, the symmetries, the memory of sets settled."""

    def __init__(self, rules: Rules, full: int, widths: dict[int, int],
                 progress: Callable[[str], None] | None, deadline: float | None, bounded: int = BOUND_DEPTHS):
        space = code_space(rules)
        if space.size > MAX_CODES:
            raise BadInput(f"the search scores every code against every state: games of at most {MAX_CODES:,} codes "
                           f"({rules.describe()} has {space.size:,})")
        if not rules.lies:
            raise BadInput("the search is for games with lies (--lies K)")
        self.rules, self.space = rules, space
        rule = rule_of(rules)
        self.win = rule.win_index(rules.pegs)
        self.table = np.ascontiguousarray(space.table)
        self.lie_to = answerable(rules).copy()
        self.lie_to[self.win] = False
        self.weights = np.arange(rules.lies + 1, 0, -1, dtype=np.float64)  # lies left + 1
        self.bound = None
        if rules.lies == 1:
            from ..kernels.lies_within import one_lie_bound
            self.bound = one_lie_bound(max(bounded, 1), BOUND_CAP, int(self.lie_to.sum()))
        self.perms = symmetry_maps(rules)
        self.full, self.widths = full, widths
        self.progress, self.deadline = progress, deadline
        self.solved: dict[bytes, Tree] = {}
        self.failed: dict[bytes, float] = {}
        self.nodes = 0
        self.top = 0  # the guesses allowed: the opening's node
        self.openings: list = []  # this pass's openings that failed: (opening, answers finished, answers)
        self.cut = False  # some node tried fewer guesses than it had (the pass proves nothing)
        self.said = time.monotonic()

    # -- the necessary conditions ----------------------------------------------------------------------
    def fits(self, counts: np.ndarray, left: int) -> np.ndarray:
        """Per guess (``counts`` from ``child_counts``), whether every answer leaves a set that the counting
        conditions allow to finish within ``left`` guesses."""
        codes = counts.sum(axis=2)
        if left <= 1:
            return (codes <= left).all(axis=1)
        if self.bound is None or left >= self.bound.shape[0] or left < 2:
            return np.ones(len(counts), dtype=bool)
        fresh, used = counts[:, :, 0].astype(np.int64), counts[:, :, 1].astype(np.int64)
        row = self.bound[left]
        allowed = row[np.minimum(fresh, BOUND_CAP)] - np.maximum(fresh - BOUND_CAP, 0)
        allowed = np.where(row[np.minimum(fresh, BOUND_CAP)] < 0, -1, allowed)
        return (used <= allowed).all(axis=1)

    # -- the search --------------------------------------------------------------------------------------
    def width(self, left: int, spread: int) -> int | None:
        """How many guesses a node with ``left`` guesses tries in the pass of this ``spread`` (None: all)."""
        if left <= self.full:
            return None
        return max(1, self.widths.get(left, 1) * spread)

    def within(self, codes: np.ndarray, lies: np.ndarray, left: int, stab: np.ndarray | None, spread: int
               ) -> tuple[Tree | None, bool]:
        """A tree finishing the states within ``left`` guesses, or None, and whether a None is final."""
        if codes.size == 1:
            return {"guess": int(codes[0])}, True
        if left <= 1:
            return None, True
        key = hashlib.blake2b(bytes([left]) + codes.astype(np.int16).tobytes() + lies.tobytes(),
                              digest_size=16).digest()
        if key in self.solved:
            return self.solved[key], True
        width = self.width(left, spread)
        tried = self.failed.get(key, -1.0)
        if tried == np.inf or (width is not None and tried >= width):
            return None, tried == np.inf
        self.nodes += 1
        if time.monotonic() > self.said + 10:
            self.tell(f"{self.nodes:,} nodes, {len(self.solved):,} sets solved, {len(self.failed):,} failed")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfTime
        guesses = self.candidates(stab, codes, lies)
        counts = child_counts(self.table, guesses, codes, lies, self.rules.lies, self.win, self.lie_to)
        same = np.bincount(lies, minlength=self.rules.lies + 1)
        useless = (counts == same[None, None, :]).all(axis=2).any(axis=1)
        keep = self.fits(counts, left - 1) & ~useless
        guesses, counts = guesses[keep], counts[keep]
        order = self.ranked(guesses, counts, codes)
        final = True
        if width is not None and width < order.size:
            order, final = order[:width], False
        for k in order.tolist():
            tree, exact = self.answers(int(guesses[k]), codes, lies, left, stab, spread, counts[k])
            if tree is not None:
                self.solved[key] = tree
                return tree, True
            final = final and exact
        if final or width is not None:  # (below ``full`` every failure is final)
            self.failed[key] = np.inf if final else float(width)
        self.cut = self.cut or not final
        return None, final

    def answers(self, guess: int, codes: np.ndarray, lies: np.ndarray, left: int, stab: np.ndarray | None,
                spread: int, counts: np.ndarray) -> tuple[Tree | None, bool]:
        """The AND node: every answer's part finished within ``left - 1``, the heaviest part first."""
        truth = self.table[guess, codes]
        weight = counts.astype(np.float64) @ self.weights
        nxt = None
        if stab is not None:
            nxt = stab[self.perms[stab, guess] == guess]
            nxt = nxt if nxt.size > 1 else None
        node: Tree = {"guess": guess, "answers": {}}
        parts = int((counts.sum(axis=1) > 0).sum())
        for answer in np.argsort(-weight, kind="stable").tolist():
            if counts[answer].sum() == 0:
                break
            stays = truth == answer
            moves = ~stays & (truth != self.win) & (lies < self.rules.lies) & self.lie_to[answer]
            kept = stays | moves
            sub, exact = self.within(codes[kept], (lies + moves)[kept].astype(np.int8), left - 1, nxt, spread)
            if left == self.top:
                self.tell(f"opening {self.name(guess)}: answer {len(node['answers']) + 1} of {parts} "
                          f"({int(kept.sum())} states) {'finished' if sub else 'failed'}; {self.nodes:,} nodes")
                if sub is None:
                    self.openings.append((self.name(guess), len(node["answers"]), parts))
            if sub is None:
                return None, exact
            node["answers"][answer] = sub
        return node, True

    def name(self, guess: int) -> str:
        return format_code(self.space.code(guess), self.rules)

    def candidates(self, stab: np.ndarray | None, codes: np.ndarray, lies: np.ndarray) -> np.ndarray:
        """The guesses to score: one per orbit of the symmetries ``stab`` (indices into the maps); with no
        maps listed, the canonical openings at the start (every code fresh) and every code below."""
        if stab is None:
            if codes.size == self.space.size and not lies.any():  # the game's symmetries (game_symmetry)
                return self.space.index_of(canonical_openings(self.rules)).astype(np.int64)
            return np.arange(self.space.size, dtype=np.int64)
        return np.flatnonzero(self.perms[stab].min(axis=0) == np.arange(self.space.size)).astype(np.int64)

    def ranked(self, guesses: np.ndarray, counts: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """The guesses' order: the smallest Σ W log W over the weighted parts, then a guess that may win,
        then the heaviest part, then the smallest index."""
        weight = counts.astype(np.float64) @ self.weights
        entropy = (weight * np.log(np.maximum(weight, 1.0))).sum(axis=1)
        inside = np.isin(guesses, codes)
        return np.lexsort((guesses, weight.max(axis=1), ~inside, np.round(entropy, 9)))

    def tell(self, message: str) -> None:
        self.said = time.monotonic()
        if self.progress:
            self.progress(message)


def child_counts(*args) -> np.ndarray:
    """``mm_logic.kernels.lies_within.child_counts`` (imported when first asked: numba)."""
    from ..kernels.lies_within import child_counts as kernel
    return kernel(*args)


def symmetry_maps(rules: Rules) -> np.ndarray | None:
    """``maps[s, code]``: the code that symmetry ``s`` (pegs moved, then colours renamed, where the rule keeps
    its feedback under them) makes of each code, indices into the code space; None when the group is larger
    than :data:`MAX_SYMMETRIES` or the rule does not keep its answers under renamed colours
    (:func:`mm_logic.symmetry.game_symmetry`)."""
    if not game_symmetry(rules).renames_colours:
        return None
    move_pegs = moves_keep_feedback(rules)
    if math.factorial(rules.colors) * (math.factorial(rules.pegs) if move_pegs else 1) > MAX_SYMMETRIES:
        return None
    return code_maps(rules, move_pegs=move_pegs)


def search_within(rules: Rules, depth: int, *, full: int | None = None, widths: dict[int, int] | None = None,
                  seconds: float | None = None, progress: Callable[[str], None] | None = None,
                  bounded: int = BOUND_DEPTHS) -> WithinResult:
    """Look for a strategy that finds every secret of ``rules`` within ``depth`` guesses against every liar.

    ``full``: nodes with at most that many guesses left try every guess (None: every node, an exhaustive
    search that proves it when no strategy exists). Above it a node tries its ``widths[left]`` (default 1)
    best guesses times the pass's number; passes widen until a strategy is found, the search proves there
    is none, or ``seconds`` run out. ``bounded``: the counting bound prunes the parts left with at most that
    many guesses (and at least 2; 1: never), to check a proof with less of it."""
    if depth < 1:
        raise BadInput(f"a strategy needs at least one guess, got {depth}")
    start = time.monotonic()
    search = _Search(rules, depth if full is None else full, widths or {}, progress,
                     None if seconds is None else start + seconds, bounded)
    space = search.space
    codes = np.arange(space.size, dtype=np.int64)
    lies = np.zeros(space.size, dtype=np.int8)
    stab = None if search.perms is None else np.arange(len(search.perms))
    result = WithinResult(rules, depth, False, None, False, False, 0.0, 0, 0)
    spread = 1
    try:
        while True:
            search.cut, search.openings, search.top = False, [], depth
            result.passes = spread
            tree, final = search.within(codes, lies, depth, stab, spread)
            widest = search.width(depth, spread)
            result.log.append({"pass": spread, "width": widest, "nodes": search.nodes,
                               "seconds": round(time.monotonic() - start, 1), "failed": search.openings})
            search.tell(f"pass {spread} (width {widest} at {depth} left): {'found' if tree else 'no'}; "
                        f"{search.nodes:,} nodes")
            if tree is not None:
                result.found, result.tree = True, tree
                break
            if final and not search.cut:
                result.proved = True
                break
            spread += 1
    except OutOfTime:
        result.timed_out = True
        result.log.append({"pass": spread, "width": search.width(depth, spread), "nodes": search.nodes,
                           "seconds": round(time.monotonic() - start, 1), "failed": search.openings,
                           "out of time": True})
    result.seconds, result.nodes = time.monotonic() - start, search.nodes
    return result


def finishes(rules: Rules, codes, lies, depth: int, bounded: int = BOUND_DEPTHS) -> bool:
    """Whether some strategy finds each of these states (code indices, each with the lies it has used) within
    ``depth`` guesses whatever the codemaker answers: the exhaustive search from a set of states, with no
    symmetry (a set need not have any)."""
    search = _Search(rules, depth, {}, None, None, bounded)
    order = np.argsort(np.asarray(codes, dtype=np.int64), kind="stable")
    codes, lies = np.asarray(codes, dtype=np.int64)[order], np.asarray(lies, dtype=np.int8)[order]
    if codes.size == 0:
        return True
    return search.within(codes, lies, depth, None, 1)[0] is not None


# -- the strategy as JSON, and its check ---------------------------------------------------------------------
def tree_json(rules: Rules, tree: Tree) -> dict:
    """The tree as its JSON form: ``{"guess": "0011", "answers": {"1,0": {...}, ...}}`` (codes and feedback in
    the contract's notation), no ``answers`` where the guess is the one code left."""
    space, rule = code_space(rules), rule_of(rules)
    node: dict = {"guess": format_code(space.code(tree["guess"]), rules)}
    if tree.get("answers"):
        node["answers"] = {format_feedback(rule.from_index(a, rules.pegs), rules): tree_json(rules, sub)
                           for a, sub in sorted(tree["answers"].items())}
    return node


@dataclass
class Check(HistogramFigures):
    """A strategy walked against every secret and every way of answering it with at most K lies: a game a leaf
    (games, worst, mean: :class:`~mm_logic.histogram.HistogramFigures`)."""

    histogram: dict[int, int]
    #: Secrets the tree does not find, and answers it has no branch for (each: secret and guesses so far).
    missing: list

    def text(self) -> str:
        return (f"games      {self.games:,}\n"
                f"max        {self.worst}\n"
                f"mean       {self.mean:.3f}\n"
                f"histogram  {' '.join(f'{k}:{v:,}' for k, v in sorted(self.histogram.items()))}\n"
                f"missing    {len(self.missing)}")


def check(rules: Rules, tree: Tree | dict) -> Check:
    """Walk ``tree`` (:data:`Tree`, or :func:`tree_json`'s form) against every secret, answered every way
    with at most ``rules.lies`` lies: each answer read from the rule's own feedback and
    :func:`~mm_logic.lies.lies_told`, apart from the search's table and states. Each leaf is a game."""
    space, rule = code_space(rules), rule_of(rules)
    win = rule.win(rules.pegs)
    if isinstance(tree.get("guess"), str):
        node_code = lambda node: parse_code(node["guess"], rules)  # noqa: E731
        branch = lambda node, fb: node.get("answers", {}).get(format_feedback(fb, rules))  # noqa: E731
    else:
        node_code = lambda node: space.code(node["guess"])  # noqa: E731
        branch = lambda node, fb: node.get("answers", {}).get(rule.index(fb, rules.pegs))  # noqa: E731

    @cache
    def lies_for(guess: Code, secret: Code) -> tuple:
        return tuple(lies_told(rules, guess, secret))

    histogram: Counter = Counter()
    missing: list = []

    def walk(node: dict | None, secret: Code, left: int, guesses: list) -> None:
        if node is None:
            missing.append((secret, list(guesses)))
            return
        guess = tuple(node_code(node))
        truth = rule.score(guess, secret)
        guesses.append(guess)
        if truth == win:
            histogram[len(guesses)] += 1
        else:
            walk(branch(node, truth), secret, left, guesses)
            if left:
                for fb in lies_for(guess, secret):
                    walk(branch(node, fb), secret, left - 1, guesses)
        guesses.pop()

    for index in range(space.size):
        walk(tree, space.code(index), rules.lies, [])
    return Check(dict(sorted(histogram.items())), missing)


def parse_widths(text: str) -> dict[int, int]:
    """``--widths``: ``LEFT:WIDTH`` pairs, ``4:3,5:2``."""
    try:
        pairs = [part.split(":") for part in text.split(",") if part]
        return {int(left): int(width) for left, width in pairs}
    except ValueError:
        raise BadInput(f"widths are LEFT:WIDTH pairs (4:3,5:2), got {text!r}") from None


__all__ = ["BOUND_CAP", "BOUND_DEPTHS", "MAX_CODES", "MAX_SYMMETRIES", "Check", "OutOfTime", "Tree",
           "WithinResult", "check", "finishes", "parse_widths", "search_within", "symmetry_maps", "tree_json"]
