"""The guesses of ``mmlogic optimal`` at a set of codes, and the next level as tasks: a large part searched
guess by guess in the workers (``--split-above N``).

:func:`openings` gives the guesses a search tries at a set, the most promising first: at the root, one
per class of codes that symmetry tells apart; at any other set, exactly those the compiled search
(:func:`mm_logic.kernels.optimal.search.search`) would try there, found by its own scoring and orbit kernels
(one per symmetry class of the history, hard mode's consistent guesses alone, in its order).

A part of an opening larger than the threshold is not one task but one per guess at it
(:class:`Split`): a guess's task searches that guess's own parts (history: the opening, then the guess)
against what is left of the part's budget, and its cost there is the part's size plus theirs. The part
costs the least of its guesses'; a guess is searched against the least of the part's budget and the best
guess's cost found so far, taken when the task is submitted, and the subtree of the winning guess comes
back with its task. For the worst objectives a large part is solvable within a depth when some guess's
parts all are: the first that works settles it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..strategies.tree import TreeNode
from ..symmetry import canonical_openings
from .searcher import Searcher, capacity

#: A cost no strategy reaches (:data:`mm_logic.kernels.optimal.arrays.INF`).
INF = 1 << 30


@dataclass
class Opening:
    """A guess at a set of codes (at the root: a canonical opening), its non-winning parts and the bound their
    sizes give."""

    index: int
    parts: list[tuple[int, np.ndarray]]
    #: ``size + sum bound(part)``: no strategy with this guess costs less.
    bound: int


def openings(searcher: Searcher, depth: int | None, indices: np.ndarray | None = None, history: tuple = (),
             worst: bool = False) -> list[Opening]:
    """The guesses tried at a set, the most promising first (smallest bound, then finest split).

    ``indices``: the set (None: every code, the root, where the canonical
    openings are the guesses); ``history``: the guesses that reached it;
    ``depth``: the guesses left at it, this one included (None: no limit).
    At a set other than the root they are the compiled search's own: those
    of its scoring kernel whose bound is finite, the smallest of each orbit
    of the history's symmetries, in its order (for a set of at most
    :data:`~mm_logic.kernels.optimal.search.SMALL_SET` codes the consistent guesses
    first; hard mode: those alone); ``worst``: the feasibility search's
    (every guess, none that leaves a part too large for ``depth - 1``
    guesses).
    """
    if indices is not None:
        return _guesses_at(searcher, np.ascontiguousarray(indices, dtype=np.int32), list(history), depth, worst)
    space = searcher.space
    row = searcher.bounds[0 if depth is None else depth - 1]
    everything = searcher.root
    found = []
    # Per-peg symmetry maps every code onto every other: one opening stands for all.
    for code in [(0,) * space.rules.pegs] if searcher.per_peg else canonical_openings(searcher.rules,
                                                                                       searcher.symmetry):
        index = int(space.index_of([code])[0])
        parts = searcher.parts(index, everything)
        bound = min(everything.size + sum(int(row[p.size]) for _, p in parts), searcher.k.INF)
        squares = sum(p.size**2 for _, p in parts)
        found.append((bound, squares, index, Opening(index, parts, bound)))
    return [opening for *_, opening in sorted(found, key=lambda item: item[:3])]


def _guesses_at(searcher: Searcher, part: np.ndarray, history: list[int], depth: int | None,
                worst: bool) -> list[Opening]:
    """:func:`openings` at a set below the root, by the search kernel's own scoring and orbits."""
    # numba's kernels themselves (the searcher's own may be the ones compiled ahead of time, which export the
    # search alone): loaded only where a part is split.
    from ..kernels.optimal import guess_scores as scoring
    from ..kernels.optimal import node_symmetry
    from ..kernels.optimal import search as k
    n = part.size
    if worst:
        # As the feasibility kernel: the unlimited bound orders them; a part above what the guesses left
        # can tell apart rules a guess out.
        phases, row, widest = [scoring.CONSISTENT if searcher.consistent_only else scoring.EVERY], searcher.bound, \
            capacity(depth - 1, searcher.classes)
    else:
        row, widest = searcher.bounds[0 if depth is None else depth - 1], -1
        # The search kernel's phases: small sets score their consistent guesses first, hard mode those alone.
        phases = [scoring.CONSISTENT] if searcher.consistent_only else \
            [scoring.CONSISTENT, scoring.INCONSISTENT] if n <= k.SMALL_SET else [scoring.EVERY]
    sigmas, pis = searcher.moves(history)
    hist = np.zeros_like(searcher.hist)
    for h, g in enumerate(history):
        hist[h] = searcher.sym_codes[g]
    blocks = node_symmetry.node_blocks(part, searcher.sym_codes, hist, len(history), pis.shape[1],
                                                searcher.perms.shape[0] > 0)
    found = []
    for which in phases:
        guesses, scored, _ = scoring.score_guesses(part, which, searcher.game, searcher.scratch, row, scoring.INF,
                                                   widest)
        i = 0
        while i < guesses.shape[0]:
            j = i
            while j < guesses.shape[0] and scored[j] == scored[i]:
                j += 1
            # One level of equal bounds at a time, as the kernel orders it (finer split, consistent, code).
            for g in k._order_level(guesses[i:j], part, searcher.table, searcher.sym_codes, sigmas, pis, blocks):
                found.append(Opening(int(g), searcher.parts(int(g), part), int(scored[i])))
            i = j
    return found


# -- a guess's task --------------------------------------------------------------------------------
def smallest_first(parts: list) -> list:
    """Parts (largest first, as :meth:`~mm_logic.optimal.searcher.Searcher.parts` gives them) in the order a
    search against a known best takes them: smallest first.

    Most such searches fail the best's cost. The small parts' costs, cheap to find, leave the large ones
    budgets tight enough to fail fast; searched first, a large part is solved nearly exactly against the
    whole slack (:func:`guess_cost`; the openings after the first, in :mod:`mm_logic.optimal.objectives`).
    """
    return parts[::-1]


def guess_cost(searcher: Searcher, part: np.ndarray, history: list[int], guess: int, depth: int | None,
               budget: int) -> tuple[int, TreeNode | None]:
    """``guess`` at the set ``part`` (reached by ``history``, ``depth`` guesses left there): the set's size plus
    its parts' costs if below ``budget`` (with the subtree from the guess), else a lower bound >= ``budget``.

    The parts are searched smallest first, each against what is left of the budget. Most guesses at a split
    part fail its budget, and the small parts' exact costs, cheap, leave the largest a tight budget that fails
    fast: 4x10's 0123 0,1 (3,048 codes), guess 1415 against 14,864: 21 s instead of 94 s searched largest first
    (the part of 964 codes solved exactly, 86 s), 4456 77 s instead of 149 s; a guess that meets its budget
    costs a little more (1245: 96 s against 88 s). The kernel does the same at sets of
    :data:`~mm_logic.kernels.optimal.search.SMALLEST_FIRST` codes or more.
    """
    below = None if depth is None else depth - 1
    row = searcher.bounds[0 if depth is None else depth - 1]
    parts = searcher.parts(guess, part)
    cost = min(part.size + sum(int(row[p.size]) for _, p in parts), searcher.k.INF)
    trail = [*history, guess]
    for _, sub in smallest_first(parts):
        if cost >= budget:
            break
        if sub.size <= 2:
            continue  # its bound is its cost
        floor = int(row[sub.size])
        cost += searcher.cost(sub, trail, below, budget - (cost - floor)) - floor
    if cost >= budget:
        return cost, None
    node = TreeNode(searcher.code(guess))
    for fb, sub in parts:
        node.children[searcher.feedback.from_index(fb, searcher.rules.pegs)] = searcher.subtree(sub, trail, below)
    return cost, node


def guess_solvable(searcher: Searcher, part: np.ndarray, history: list[int], guess: int, depth: int) -> bool:
    """Whether ``guess`` at the set ``part`` leaves parts that can each be solved within ``depth - 1`` guesses."""
    trail = [*history, guess]
    return all(searcher.can_solve(sub, trail, depth - 1) for _, sub in searcher.parts(guess, part) if sub.size > 1)


# -- a part searched guess by guess ---------------------------------------------------------------
@dataclass
class GuessTask:
    """One guess at a split part: the guess and the bound its parts' sizes give."""

    split: Split
    guess: Opening


class Split:
    """A part searched as one task per guess (:class:`GuessTask`), and what its guesses settled.

    ``task`` is the part's own task, ``(opening, feedback, part)``. For the
    expected objective the part's result is the least guess cost found; it
    is exact when below the least budget any of its guesses was searched
    against (a guess that failed its budget costs at least that), else a
    lower bound; for the worst objectives, whether some guess made it.
    """

    def __init__(self, task: tuple, guesses: list[Opening], worst: bool):
        self.task = task
        self.worst = worst
        self.tasks = [GuessTask(self, g) for g in guesses]
        #: Guesses not yet settled (searched, answered by the journal, or dropped by their bound).
        self.left = len(self.tasks)
        #: The least guess cost, the first guess (in search order) to reach it, and its subtree.
        self.best: tuple[int, int, TreeNode | None] | None = None
        #: The least budget of the part any guess was searched against (its budget, before the best guess's).
        self.limit = 1 << 62
        self.solved = False
        #: Dropped (its opening lost) or settled early (a guess that works): the guesses left are not searched.
        self.closed = False

    def budget(self, part_budget: int) -> int:
        """A guess's budget: the least of the part's and the best guess cost found so far."""
        self.limit = min(self.limit, part_budget)
        return part_budget if self.best is None else min(part_budget, self.best[0])

    def settle(self, task: GuessTask, value: int, tree: TreeNode | None, limit: int) -> bool:
        """Take a guess's result (``value < limit``: exact, with ``tree``); whether the part is now settled."""
        self.left -= 1
        if self.worst:
            if value and not self.solved:
                self.solved = self.closed = True
                return True
            return not self.left and not self.solved
        order = self.tasks.index(task)
        exact = value < limit
        if self.best is None or value < self.best[0] or (value == self.best[0] and exact and order < self.best[1]):
            # Ties go to the guess searched first, as in the kernel (a later one that equals it has failed
            # the budget it set).
            self.best = (value, order, tree if exact else None)
        return not self.left

    def result(self) -> tuple[int, TreeNode | None, int]:
        """The part's ``(value, subtree or None, budget)``: exact when ``value < budget``."""
        if self.worst:
            return int(self.solved), None, 0
        if self.best is None:
            return INF, None, min(self.limit, INF)  # no guess at all: the part cannot be solved in the guesses left
        value, _, tree = self.best
        if value < self.limit and tree is not None:
            return value, tree, self.limit
        # Every guess costs at least its value: the least is a bound (at least the budget but for a guess
        # that failed the best's cost, which a best guess with its tree always comes with).
        bound = min(value, self.limit)
        return bound, None, bound
