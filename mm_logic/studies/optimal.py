"""Optimal strategies by exact search (``mmlogic optimal``).

The *expected* objective minimises the total number of guesses over every
secret (the mean times the number of codes), optionally with every game
finished within ``max_depth`` guesses; the *worst* objective minimises the
largest number of guesses first, then the total among the strategies that
reach it (Koyama and Lai's 5,626 on 4x6, where the least total, 5,625, needs
six guesses once).

The search is exact. The openings tried are one per class of codes that
colour and position symmetry tell apart (:func:`mm_logic.symmetry.canonical_openings`:
0000 0001 0011 0012 0123 for 4x6; under black pegs with repetition, where a
colour may be renamed on one peg alone, every code is like 0000, the only
opening: :func:`per_peg_symmetry`); each splits the codes into parts, and
each part is searched by the compiled branch and bound of
:mod:`mm_logic.kernels.optimal`, which proves its cost, or that it cannot
let its opening beat the best one found. What the search proves is kept:
every opening with its exact cost or a lower bound no smaller than the
optimum (:attr:`mm_logic.studies.optimal_result.OptimalResult.openings`), so the result says why it is
optimal.

The openings' parts are independent problems: with ``jobs > 1`` they are
searched in worker processes, the most promising opening's first (its cost
is the budget the others must beat), then the others' (each worker keeps
its own transposition table).
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..codespace import code_space
from ..errors import BadInput
from ..feedback import rule_of
from ..memory import available_memory, memory_text, peak_memory
from ..notation import Code, Feedback, amount, format_code, quoted
from ..processes import start_pool, start_worker, worker_count
from ..rules import RULE_FILE, Rules
from ..strategies.tree import TreeNode
from ..symmetry import canonical_openings, moves_keep_feedback, position_symmetries
from .optimal_journal import Journal
from .optimal_result import OpeningBound, OptimalResult

#: Bytes of one transposition-table entry: two 64-bit keys, a cost, a guess, a set size, an exact flag.
ENTRY_BYTES = 33
#: The most of the machine's available memory one search takes by default (all its processes).
DEFAULT_SHARE = 0.75
#: What a search process takes besides its tables (the interpreter, numpy, numba and the kernels).
PROCESS_BYTES = 200 << 20
#: The transposition table's least and largest sizes (entries, as powers of two).
MIN_TABLE_BITS, MAX_TABLE_BITS = 12, 30
OBJECTIVES = ("expected", "worst", "worst-case")
#: Called a few times a second with a one-line status of the search.
Progress = Callable[[str], None]


# -- bounds ------------------------------------------------------------------------------------
def perfect_split_bound(size: int, classes: int) -> np.ndarray:
    """``L[m]``: the least total cost any strategy can have on ``m`` codes, for ``m = 0..size``.

    Each guess finds at most one code (itself) and splits the others into at
    most ``classes`` parts (the non-winning feedbacks), so at most
    ``classes**(k-1)`` codes are found by the ``k``-th guess; filling the
    levels in order gives the bound (1 for one code, 3 for two, ``2m - 1``
    while one split can leave every part a single code).
    """
    bound = np.zeros(size + 1, dtype=np.int64)
    for m in range(1, size + 1):
        left, depth, width, total = m, 1, 1, 0
        while left:
            take = min(width, left)
            total += depth * take
            left -= take
            width *= classes
            depth += 1
        bound[m] = total
    return bound


def capacity(depth: int, classes: int) -> int:
    """The most codes ``depth`` guesses can tell apart (1 + classes + classes² + ...)."""
    return sum(classes**k for k in range(depth))


def per_peg_symmetry(rules: Rules) -> bool:
    """Whether a colour may be renamed on one peg alone: black pegs count the pegs where two codes agree, and
    with repetition allowed the codes renamed so are codes of the game (not so under a repetition limit)."""
    return rules.feedback == "black" and not rules.restricted


# -- one process's search ------------------------------------------------------------------------
class Searcher:
    """The compiled search over one rule set's codes, with its transposition table.

    Each call runs a kernel in a thread (it releases the GIL): Ctrl-C in the
    calling thread stops it at once (the kernel returns, the
    :class:`KeyboardInterrupt` goes on), and ``on_tick`` is called a few
    times a second meanwhile, for progress.
    """

    def __init__(self, rules: Rules, max_depth: int | None = None, consistent_only: bool = False,
                 bits: int | None = None):
        from ..kernels import node_symmetry, table
        from ..kernels import optimal as kernels
        self.node_symmetry = node_symmetry
        self.k = kernels
        self.transpositions = table
        self.rules = rules
        #: The feedback rule: the table's indices are its own, the largest the win.
        self.feedback = rule_of(rules)
        self.max_depth = max_depth
        #: Hard mode: every guess consistent with the history (the kernels' ``hard``).
        self.consistent_only = consistent_only
        space = code_space(rules)
        self.space = space
        self.size = space.size
        self.table = np.ascontiguousarray(space.table)
        self.codes = np.ascontiguousarray(space.codes)
        self.win = int(self.table[0, 0])
        # Parts a guess can make: the non-winning feedbacks that occur between two codes.
        self.classes = max(1, int(np.unique(self.table).size) - 1)
        self.bound = perfect_split_bound(self.size, self.classes)
        inf = kernels.INF
        if max_depth is None:
            self.bounds = self.bound[None, :].copy()
        else:
            # Row d: the bound with d guesses left, INF for a set too large for them.
            self.bounds = np.full((max_depth + 1, self.size + 1), inf, dtype=np.int64)
            for d in range(max_depth + 1):
                fits = min(capacity(d, self.classes), self.size)
                self.bounds[d, : fits + 1] = self.bound[: fits + 1]
        # outsides[d][n]: the least cost of a guess outside n codes (all n in the non-winning
        # parts, spread as evenly as the convex bound likes best) with d guesses left.
        self.outsides = np.full_like(self.bounds, inf)
        sizes = np.arange(self.size + 1)
        q, r = np.divmod(sizes, self.classes)
        for d in range(self.bounds.shape[0]):
            if max_depth is not None and d == 0:
                continue
            row = self.bounds[0 if max_depth is None else d - 1]
            spread = r * row[np.minimum(q + 1, self.size)] + (self.classes - r) * row[q]
            self.outsides[d] = np.minimum(sizes + spread, inf)
        self.capacity = np.array([min(capacity(d, self.classes), 1 << 40) for d in range(64)], dtype=np.int64)
        rng = np.random.default_rng(0x5EED)
        z1 = rng.integers(0, 2**63, size=self.size, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        z2 = rng.integers(0, 2**63, size=self.size, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        # The table by secret: the scoring reads the codes of a set as secrets, row by row. Black and
        # white pegs and black pegs alone are symmetric (the table itself); positional marks are not.
        by_secret = self.table if rules.feedback != "positional" else np.ascontiguousarray(self.table.T)
        # Black pegs with repetition: a colour may be renamed on one peg alone (the kernels' per-peg symmetry,
        # on peg-tagged colours); the symmetry kernels see codes of `sym_colours` colours.
        self.per_peg = per_peg_symmetry(rules)
        self.sym_colours = rules.colors * rules.pegs if self.per_peg else rules.colors
        self.sym_codes = node_symmetry.tagged_codes(self.codes, rules.colors) if self.per_peg else self.codes
        self.perms = node_symmetry.peg_permutations(rules.pegs, self.per_peg)
        self.game = (self.table, self.sym_codes, z1, z2, by_secret, self.perms, np.int64(consistent_only))
        self.scratch = kernels.new_scratch(self.size, self.win + 1)
        #: The transposition table's entries, a power of two (:func:`table_bits`).
        self.bits = default_table_bits(self.size) if bits is None else bits
        self.tt = table.new_table(self.bits)
        self.control = np.zeros(kernels.CONTROL_SLOTS, dtype=np.int64)
        self.hist = np.zeros((self.size + 2, rules.pegs), dtype=np.int64)
        self.on_tick: Callable[[np.ndarray], None] | None = None
        #: Where the parts of the openings searched are kept, if anywhere (``--journal``).
        self.journal: Journal | None = None

    @property
    def positions(self) -> int:
        return int(self.control[self.k.NODES])

    def code(self, index: int) -> Code:
        return tuple(int(c) for c in self.codes[index])

    def part_name(self, opening: int, fb: int) -> tuple[Code, Feedback]:
        """The opening's code and the feedback (an index of the table) that name one of its parts."""
        return self.code(opening), self.feedback.from_index(fb, self.rules.pegs)

    def moves(self, history: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The moves that fix every guess of a history (:func:`mm_logic.symmetry.position_symmetries`; per-peg
        symmetry: :func:`mm_logic.kernels.node_symmetry.peg_moves`)."""
        if self.per_peg:
            hist = self.sym_codes[np.array(history, dtype=np.int64)].reshape(len(history), self.rules.pegs)
            return self.node_symmetry.peg_moves(np.ascontiguousarray(hist), len(history), self.perms,
                                                self.sym_colours)
        # None where moving pegs changes the feedback (positional marks): colours alone are symmetric.
        found = position_symmetries(self.rules, [(self.code(g), None) for g in history]) \
            if moves_keep_feedback(self.rules) else []
        pegs, colors = self.rules.pegs, self.rules.colors
        sigmas = np.array([s for s, _ in found], dtype=np.int64).reshape(len(found), pegs)
        pis = np.array([p for _, p in found], dtype=np.int64).reshape(len(found), colors)
        return sigmas, pis

    def parts(self, guess: int, indices: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """The non-winning parts of ``indices`` under ``guess``: (feedback index, sorted indices), largest first."""
        row = self.table[guess, indices]
        found = [(int(f), indices[row == f]) for f in np.unique(row) if f != self.win]
        found.sort(key=lambda part: -part[1].size)
        return found

    def _run(self, kernel, indices: np.ndarray, history: list[int], *args):
        """Run a search kernel on the codes ``indices`` reached by ``history``, in a thread."""
        sigmas, pis = self.moves(history)
        for h, g in enumerate(history):
            self.hist[h] = self.sym_codes[g]
        part = np.ascontiguousarray(indices, dtype=np.int32)
        self.control[self.k.TRIED] = self.control[self.k.TRIED_BELOW] = 0
        out: list = []

        def work() -> None:
            try:
                out.append(kernel(part, self.hist, len(history), sigmas, pis, *args))
            except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread
                out.append(error)

        worker = threading.Thread(target=work, daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(0.1)
                if self.on_tick is not None:
                    self.on_tick(self.control)
        except KeyboardInterrupt:
            self.control[self.k.STOP] = 1  # the kernel returns at its next set
            worker.join()
            raise
        if isinstance(out[0], BaseException):
            raise out[0]
        return int(out[0])

    def cost(self, indices: np.ndarray, history: list[int], depth: int | None, budget: int) -> int:
        """The least total cost of the codes ``indices`` if below ``budget``, else a lower bound >= ``budget``.

        ``history``: the guesses (code indices) played to reach them; ``depth``:
        the guesses left (None: unlimited).
        """
        return self._run(self.k.search, indices, history, depth or 0, int(budget), 0, self.game, self.bounds,
                         self.outsides, depth is not None, self.scratch, self.tt, self.control)

    def can_solve(self, indices: np.ndarray, history: list[int], depth: int) -> bool:
        """Whether some strategy finds every code of ``indices`` within ``depth`` guesses."""
        return self._run(self.k.feasible, indices, history, depth, 0, self.game, self.bound, self.capacity,
                         self.scratch, self.tt, self.control) == 1

    def within_tree(self, indices: np.ndarray, history: list[int], depth: int) -> TreeNode:
        """A strategy that finds every code of ``indices`` within ``depth`` guesses, as :meth:`can_solve` found it
        (searched again where the table forgot it); the caller knows there is one."""
        indices = np.ascontiguousarray(indices, dtype=np.int32)
        if indices.size <= 2:
            return self._leaf(indices)
        salt = np.uint64(int(self.transpositions.FEASIBLE_SALT) * (depth + 1) % 2**64)
        found, _, value, guess = self.transpositions.probe(indices, salt, self.game[2], self.game[3], self.tt)
        if not (found and value == 1 and guess >= 0):
            self._run(self.k.feasible, indices, history, depth, 0, self.game, self.bound, self.capacity,
                      self.scratch, self.tt, self.control)
            found, _, value, guess = self.transpositions.probe(indices, salt, self.game[2], self.game[3], self.tt)
        if not (found and value == 1 and guess >= 0):
            raise AssertionError(f"no strategy within {depth} guesses where one was found")
        node = TreeNode(self.code(int(guess)))
        for fb, part in self.parts(int(guess), indices):
            node.children[self.feedback.from_index(fb, self.rules.pegs)] = self.within_tree(
                part, [*history, int(guess)], depth - 1)
        return node

    def _leaf(self, indices: np.ndarray) -> TreeNode:
        """One code: guess it. Two: guess the first, then the other."""
        node = TreeNode(self.code(indices[0]))
        if indices.size == 2:
            fb = int(self.table[indices[0], indices[1]])
            node.children[self.feedback.from_index(fb, self.rules.pegs)] = TreeNode(self.code(indices[1]))
        return node

    def subtree(self, indices: np.ndarray, history: list[int], depth: int | None) -> TreeNode:
        """The strategy :meth:`cost` found for the codes ``indices`` (searched again where forgotten)."""
        indices = np.ascontiguousarray(indices, dtype=np.int32)
        if indices.size <= 2:
            return self._leaf(indices)
        salt = self.transpositions.depth_salt(depth)
        found, exact, _, guess = self.transpositions.probe(indices, salt, self.game[2], self.game[3], self.tt)
        if not (found and exact and guess >= 0):
            # Replaced in the table by other sets since: search it again.
            self.cost(indices, history, depth, self.k.INF)
            found, exact, _, guess = self.transpositions.probe(indices, salt, self.game[2], self.game[3], self.tt)
        guess = int(guess)
        node = TreeNode(self.code(guess))
        below = None if depth is None else depth - 1
        for fb, part in self.parts(guess, indices):
            node.children[self.feedback.from_index(fb, self.rules.pegs)] = self.subtree(part, [*history, guess],
                                                                                         below)
        return node


# -- the openings ------------------------------------------------------------------------------
@dataclass
class Opening:
    """A canonical opening (code index), its non-winning parts and the bound their sizes give."""

    index: int
    parts: list[tuple[int, np.ndarray]]
    #: ``size + sum bound(part)``: no strategy with this opening costs less.
    bound: int


def openings(searcher: Searcher, depth: int | None) -> list[Opening]:
    """The canonical openings, the most promising first (smallest bound, then finest split)."""
    space = searcher.space
    row = searcher.bounds[0 if depth is None else depth - 1]
    everything = np.arange(space.size, dtype=np.int32)
    found = []
    # Per-peg symmetry maps every code onto every other: one opening stands for all.
    for code in [(0,) * space.rules.pegs] if searcher.per_peg else canonical_openings(searcher.rules):
        index = int(space.index_of([code])[0])
        parts = searcher.parts(index, everything)
        bound = min(space.size + sum(int(row[p.size]) for _, p in parts), searcher.k.INF)
        squares = sum(p.size**2 for _, p in parts)
        found.append((bound, squares, index, Opening(index, parts, bound)))
    return [opening for *_, opening in sorted(found, key=lambda item: item[:3])]


def table_bytes(rules: Rules) -> int:
    """Bytes of the feedback table a search process holds (size² bytes; positional marks read it both ways)."""
    return rules.size**2 * (2 if rules.feedback == "positional" else 1)


def default_table_bits(size: int) -> int:
    """The transposition table's entries (a power of two) for a space of ``size`` codes, memory allowing:
    0.5 MB for the smallest spaces, 280 MB for bulls and cows, 1.1 GB beyond, 2.2 GB from 5x7 on."""
    return 14 if size <= 256 else 18 if size < 1000 else 22 if size < 2000 else 23 if size <= 5040 \
        else 25 if size < 16_000 else 26


def table_bits(rules: Rules, jobs: int, memory: int | None) -> int:
    """The transposition table's size (``2**bits`` entries) for each of ``jobs`` search processes.

    ``memory``: the bytes the whole search may take (every process's feedback table, transposition
    table and interpreter); the transposition table gets what the rest leaves, up to 2**30 entries.
    None: :func:`default_table_bits`, within :data:`DEFAULT_SHARE` of the memory available now.
    Refuses, in one line, a game whose feedback tables alone do not fit.
    """
    budget = memory if memory is not None else int(available_memory() * DEFAULT_SHARE)
    fixed = table_bytes(rules) + PROCESS_BYTES
    room = budget // jobs - fixed
    fits = (room // ENTRY_BYTES).bit_length() - 1 if room >= ENTRY_BYTES else -1
    if fits < MIN_TABLE_BITS:
        given = f"--memory {memory_text(memory)}" if memory is not None else \
            f"{memory_text(budget)} ({DEFAULT_SHARE:.0%} of the memory available now; --memory sets it)"
        per = f" in each of {jobs} processes" if jobs > 1 else ""
        raise BadInput(f"mmlogic optimal on {rules.describe()} ({amount(rules.size)} codes) needs at least "
                       f"{memory_text(fixed + (ENTRY_BYTES << MIN_TABLE_BITS))}{per} (its feedback table "
                       f"{memory_text(table_bytes(rules))}) and has {given}")
    return min(fits, MAX_TABLE_BITS) if memory is not None else min(fits, default_table_bits(rules.size))


#: The game the kernels are made ready on before a search: its arguments have every game's types.
WARM_UP = Rules(2, 3)


def compile_kernels(on_compile: Callable[[], None] | None = None, worst: bool = False) -> None:
    """Load the search's kernels from numba's cache, or compile them (15-45 s, a first run's).

    Done before the clock starts, so that ``seconds`` is the search's own (4x6 reported 14-23 s
    cold for a search of 0.6 s). ``worst``: also the kernel of the worst objective. ``on_compile``
    is called when compilation actually starts (:func:`mm_logic.kernels.numba_cache.compilation_said`);
    a warm cache loads them silently.
    """
    from ..kernels.numba_cache import compilation_said

    with compilation_said(on_compile):
        searcher = Searcher(WARM_UP, max_depth=None)
        every = np.arange(searcher.size, dtype=np.int32)
        searcher.cost(every, [], None, searcher.k.INF)  # search
        searcher.subtree(every, [], None)  # probe
        if worst:
            searcher.can_solve(every, [], 3)  # feasible


def optimal(rules: Rules, objective: str = "expected", max_depth: int | None = None, jobs: int = 1,
            progress: Progress | None = None, on_compile: Callable[[], None] | None = None,
            consistent_only: bool = False, memory: int | None = None, journal: Path | None = None,
            client=None) -> OptimalResult:
    """An optimal strategy of ``rules`` for ``objective``, by exact search.

    Parameters
    ----------
    rules:
        The game: any size whose feedback table fits in ``memory`` (size² bytes: 1 GiB for 5x8).
    objective:
        ``"expected"``: least total guesses over every secret (with
        ``max_depth``, among strategies that finish every game within that
        many guesses); ``"worst"``: least worst case, then least total
        guesses among the strategies with that worst case; ``"worst-case"``:
        the least worst case alone, with a strategy that keeps within it
        (the first the search finds; its total is not the least).
    max_depth:
        Expected objective only: the most guesses any game may take.
    jobs:
        Worker processes over which the openings' parts are searched.
    progress:
        Called a few times a second with a one-line status.
    on_compile:
        Called if the search's kernels are compiled (a first run), before the search and its
        clock start (:func:`compile_kernels`).
    consistent_only:
        Hard mode: every guess must be consistent with the answers so far (the strategies
        among which the optimum is sought).
    memory:
        Bytes the search may take in all (its processes' tables, :func:`table_bits`); None: the
        sizes it picks, within :data:`DEFAULT_SHARE` of the memory available.
    journal:
        A file where each part of an opening searched is kept as it is settled, and from which a
        search of the same game resumes (:mod:`mm_logic.studies.optimal_journal`).
    client:
        A ``distributed.Client``: the openings' parts are searched as tasks on its cluster's
        workers (``jobs`` is then ignored; ``memory`` is what each worker thread's search may take).

    Returns
    -------
    OptimalResult
        The strategy as a tree (:attr:`~mm_logic.studies.optimal_result.OptimalResult.tree`), its histogram
        over every secret, and what the search proved.

    Raises
    ------
    BadInput
        A space whose tables do not fit in ``memory``, an unknown objective, ``max_depth`` with the
        worst objective, or a depth within which no strategy finishes.
    """
    if objective not in OBJECTIVES:
        raise BadInput(f"unknown objective {quoted(objective)}; choose from {', '.join(OBJECTIVES)}")
    if max_depth is not None and objective != "expected":
        raise BadInput(f"--max-depth applies to --objective expected (--objective {objective} minimises the depth "
                       "itself)")
    if max_depth is not None and max_depth < 1:
        raise BadInput(f"--max-depth must be at least 1, got {max_depth}")
    if rules.feedback_kind == RULE_FILE:
        # The search counts on renaming colours and, but for positional marks, moving pegs to keep the feedback.
        raise BadInput(f"optimal plays the standard, black and positional feedback rules, not --feedback "
                       f"{rules.feedback}: a rule of your own may tell colours or pegs apart")
    jobs = worker_count(jobs) if client is None else 1
    # The driver holds a searcher too (the openings, the tree): jobs + 1 processes with workers. A cluster's
    # workers have their machines' memory: the bound is each worker thread's, as for one process here.
    bits = table_bits(rules, jobs + 1 if jobs > 1 else 1, memory)
    compile_kernels(on_compile, worst=objective != "expected")
    started = time.perf_counter()
    # A limit of at least every code cannot bind: an optimal strategy's guesses each shrink the set (a
    # guess that splits nothing only adds one), so no game is longer. Searching without it spares
    # tables of (limit + 1) x codes: --max-depth 2147483648 asked for 448 GiB.
    limit = max_depth if max_depth is not None and max_depth < rules.size else None
    searcher = Searcher(rules, limit, consistent_only, bits)
    kept = Journal(journal, rules, consistent_only) if journal is not None else None
    searcher.journal = kept
    if client is not None:
        workers = _DaskWorkers(client, rules, limit, progress, consistent_only, bits)
        jobs = workers.jobs
    else:
        workers = _Workers(jobs, rules, limit, progress, consistent_only, bits) if jobs > 1 else None
    if workers is not None:
        workers.journal, workers.part_name = kept, searcher.part_name
    try:
        if objective == "worst-case":
            depth, opening = _least_worst_case(searcher, workers, progress)
            result = _within(searcher, opening, depth)
        elif objective == "worst":
            depth, _ = _least_worst_case(searcher, workers, progress)
            # Then the cheapest strategy within that depth. The least total overall is that strategy when it
            # keeps within the depth (bulls and cows: 26,274 within 7); only otherwise (4x6) is the search
            # done again depth-limited, which is slower where the limit prunes little, as it stores each set
            # once per depth it is met at (bulls and cows within 7: 31 minutes, against 9 without the limit,
            # the two run side by side on 2 cores).
            if progress is not None:
                report, progress = progress, lambda text: report(f"worst case {depth}; least total: {text}")
                if workers is not None:
                    workers.progress = progress
            result = _expected(searcher, None, workers, progress)
            if result.worst > depth:
                first = searcher.positions
                searcher = None  # its transposition table (up to 280 MB) goes before the next one's is made
                searcher = Searcher(rules, depth, consistent_only, bits)
                searcher.journal = kept
                if workers is not None:
                    workers.max_depth = depth
                result = _expected(searcher, depth, workers, progress)
                result.positions += first
            result.objective, result.max_depth, result.impossible_depth = "worst", None, depth - 1
        else:
            result = _expected(searcher, limit, workers, progress)
            result.max_depth = max_depth
    except BaseException:
        if workers is not None:
            workers.close(interrupted=True)
        raise
    finally:
        if kept is not None:
            kept.close()
    if workers is not None:
        workers.close(interrupted=False)
        result.positions += workers.positions
    result.positions += searcher.positions
    result.consistent_only = consistent_only
    result.table_entries = 1 << bits
    if kept is not None:
        result.journal, result.journal_read, result.journal_written = journal, kept.read, kept.written
    result.peak_memory, result.worker_memory = peak_memory()
    result.seconds = time.perf_counter() - started
    result.jobs = jobs
    return result


def _follow(progress: Progress | None, searcher: Searcher, head: str, tail: str = "") -> None:
    """Report the searcher's ticks to ``progress`` with ``head`` (where the driver is) in front, ``tail`` after."""
    if progress is None:
        return
    k = searcher.k

    def tick(control: np.ndarray) -> None:
        tried = f", guess {control[k.TRIED]}" if control[k.TRIED] else ""
        nodes = int(control[k.NODES])
        progress(f"{head}{tried}, {nodes:,} position{'' if nodes == 1 else 's'}{tail}")

    searcher.on_tick = tick


def _label(searcher: Searcher, opening: Opening, number: int, count: int, part: int, size: int) -> str:
    code = format_code(searcher.code(opening.index), searcher.rules)
    return f"opening {code} ({number} of {count}), part {part} of {len(opening.parts)} ({size:,} codes)"


def _result(searcher: Searcher, opening: Opening, subtrees: dict[int, TreeNode], depth: int | None
            ) -> tuple[TreeNode, Counter]:
    """The whole tree (the subtrees of the opening's parts rebuilt where not given: ``depth`` guesses
    left below it) and its histogram over every secret."""
    pegs = searcher.rules.pegs
    rule = searcher.feedback
    tree = TreeNode(searcher.code(opening.index))
    for fb, part in opening.parts:
        child = subtrees.get(fb) or searcher.subtree(part, [opening.index], depth)
        tree.children[rule.from_index(fb, pegs)] = child
    histogram: Counter = Counter()

    def play(node: TreeNode, indices: np.ndarray, guesses: int) -> None:
        # The tree played against the codes `indices`, reached at guess number `guesses`.
        row = searcher.table[int(searcher.space.index_of([node.guess])[0]), indices]
        histogram[guesses] += int((row == searcher.win).sum())
        for fb, child in node.children.items():
            part = indices[row == rule.index(fb, pegs)]
            if part.size:
                play(child, part, guesses + 1)

    play(tree, np.arange(searcher.size), 1)
    return tree, histogram


# -- the expected objective ----------------------------------------------------------------------
def _expected(searcher: Searcher, depth: int | None, workers: _Workers | None,
              progress: Progress | None) -> OptimalResult:
    inf = searcher.k.INF
    candidates = openings(searcher, depth)
    if workers is None:
        best, winner, proved, subtrees = _expected_here(searcher, candidates, depth, progress)
    else:
        best, winner, proved, subtrees = _expected_workers(searcher, candidates, depth, workers)
    if best >= inf:
        raise BadInput(f"no strategy finds every code of {searcher.rules.describe()} within {depth} guesses "
                       "(--objective worst gives the least number of guesses that can)")
    below = None if depth is None else depth - 1
    tree, histogram = _result(searcher, winner, subtrees, below)
    bounds = []
    for opening in [winner] + [o for o in candidates if o is not winner]:
        cost, exact = proved.get(opening.index, (opening.bound, False))
        bounds.append(OpeningBound(searcher.code(opening.index), None if cost >= inf else cost, exact))
    # The best first: the winner, then the others by what was proved of them (they came in search
    # order: 4x4 listed 0011 >=905, 0001 >=907, 0123 >=905).
    bounds[1:] = sorted(bounds[1:], key=lambda b: (b.cost is None, b.cost or 0, not b.exact))  # ties: search order
    return OptimalResult(searcher.rules, "expected", depth, tree, histogram, bounds)


def _expected_here(searcher: Searcher, candidates: list[Opening], depth: int | None, progress: Progress | None):
    """Branch and bound over the openings in this process: each part's budget is what is left of the best's."""
    inf = searcher.k.INF
    below = None if depth is None else depth - 1
    row = searcher.bounds[0 if depth is None else depth - 1]
    best, winner = inf, candidates[0]
    proved: dict[int, tuple[int, bool]] = {}
    # The subtrees of parts settled by the journal, or searched while keeping one (its lines carry them).
    subtrees: dict[int, dict[int, TreeNode]] = {}
    # What is proved of each opening so far: its bound, raised by each part settled (a search stopped
    # halfway reports the least of them: no strategy costs less).
    lows = {o.index: o.bound for o in candidates}
    try:
        for number, opening in enumerate(candidates, 1):
            cost = opening.bound
            trees = subtrees.setdefault(opening.index, {})
            for count, (fb, part) in enumerate(opening.parts, 1):
                if cost >= best:
                    break
                if part.size <= 2:
                    continue  # its bound is its cost
                label = _label(searcher, opening, number, len(candidates), count, part.size)
                _follow(progress, searcher, label, f"; total at least {min(lows.values()):,}, best {_shown(best)}")
                floor = int(row[part.size])
                budget = best - (cost - floor)
                value, tree = _settled_cost(searcher, opening, fb, part, below, budget)
                if tree is not None:
                    trees[fb] = tree
                cost += value - floor
                lows[opening.index] = cost
            # Below the best: every part met its budget, the cost is exact; else it is a bound.
            exact = cost < best
            if exact:
                best, winner = cost, opening
            proved[opening.index] = (cost, exact)
    except KeyboardInterrupt as stopped:
        stopped.proved = (min(lows.values()), None if best >= inf else best)  # said by the command line
        raise
    searcher.on_tick = None
    return best, winner, proved, subtrees[winner.index]


def _settled_cost(searcher: Searcher, opening: Opening, fb: int, part: np.ndarray, depth: int | None,
                  budget: int) -> tuple[int, TreeNode | None]:
    """A part's cost below ``budget`` (or a bound at least ``budget``), from the journal or searched, and its
    subtree when the journal gave it or keeps it (None: the tree is rebuilt from the transposition table)."""
    journal = searcher.journal
    if journal is None:
        return searcher.cost(part, [opening.index], depth, budget), None
    code, feedback = searcher.part_name(opening.index, fb)
    known = journal.cost(code, feedback, depth, budget)
    if known is not None:
        return known
    value = searcher.cost(part, [opening.index], depth, budget)
    tree = searcher.subtree(part, [opening.index], depth) if value < budget else None
    journal.record_cost(code, feedback, depth, budget, value, tree)
    return value, tree


def _expected_workers(searcher: Searcher, candidates: list[Opening], depth: int | None, workers: _Workers):
    """The openings' parts in worker processes: the most promising opening's exactly, then the others'
    against its cost (an opening's remaining parts are dropped once its sum reaches the best)."""
    inf = searcher.k.INF
    below = None if depth is None else depth - 1
    row = searcher.bounds[0 if depth is None else depth - 1]
    cost = {o.index: o.bound for o in candidates}
    subtrees: dict[int, dict[int, TreeNode]] = {o.index: {} for o in candidates}
    dead: set[int] = set()
    state = {"best": inf, "winner": candidates[0]}

    def budget(task) -> int:
        opening, _, part = task
        floor = int(row[part.size])
        return inf if state["best"] >= inf else state["best"] - (opening.bound - floor)

    def skip(task) -> bool:
        return task[0].index in dead or cost[task[0].index] >= state["best"]

    def done(task, value: int, tree: TreeNode | None, limit: int) -> None:
        opening, fb, part = task
        cost[opening.index] += value - int(row[part.size])
        if tree is not None:
            subtrees[opening.index][fb] = tree
        if value >= limit:
            dead.add(opening.index)

    waves = [candidates[:1], candidates[1:]]
    for wave in waves:
        tasks = [(o, fb, part) for o in wave if o.bound < state["best"] for fb, part in o.parts if part.size > 2]
        workers.run(tasks, skip, budget, done, below, status=lambda: f"best so far {_shown(state['best'])}")
        for opening in wave:
            if opening.index not in dead and cost[opening.index] < state["best"] \
                    and len(subtrees[opening.index]) == sum(p.size > 2 for _, p in opening.parts):
                state["best"], state["winner"] = cost[opening.index], opening
    best, winner = state["best"], state["winner"]
    proved = {o.index: (max(cost[o.index], best) if o is not winner else best, o is winner) for o in candidates}
    return best, winner, proved, subtrees[winner.index]


def _shown(cost: int) -> str:
    return "?" if cost >= 1 << 30 else str(cost)


# -- the worst objective ------------------------------------------------------------------------
def _least_worst_case(searcher: Searcher, workers: _Workers | None, progress: Progress | None
                      ) -> tuple[int, Opening]:
    """The least depth within which some opening leaves parts that can all be solved, and the first such opening."""
    depth = 1
    while capacity(depth, searcher.classes) < searcher.size:
        depth += 1  # fewer guesses cannot tell every code apart
    candidates = openings(searcher, None)
    while (found := _some_within(searcher, candidates, depth, workers, progress)) is None:
        depth += 1
    searcher.on_tick = None
    return depth, found


def _within(searcher: Searcher, opening: Opening, depth: int) -> OptimalResult:
    """``--objective worst-case``: the strategy the feasibility search found within ``depth`` guesses."""
    subtrees = {fb: searcher.within_tree(part, [opening.index], depth - 1) for fb, part in opening.parts}
    tree, histogram = _result(searcher, opening, subtrees, depth - 1)
    return OptimalResult(searcher.rules, "worst-case", None, tree, histogram, [], impossible_depth=depth - 1)


def _some_within(searcher: Searcher, candidates: list[Opening], depth: int, workers: _Workers | None,
                 progress: Progress | None) -> Opening | None:
    """The first opening that leaves parts that can each be solved within ``depth - 1`` guesses, if any."""
    fits = capacity(depth - 1, searcher.classes)
    for number, opening in enumerate(candidates, 1):
        if any(p.size > fits for _, p in opening.parts):
            continue
        parts = [(fb, part) for fb, part in opening.parts if part.size > 1]
        if workers is None:
            solved = True
            for count, (fb, part) in enumerate(parts, 1):
                _follow(progress, searcher, f"within {depth} guesses: "
                        + _label(searcher, opening, number, len(candidates), count, part.size))
                if not _settled_within(searcher, opening, fb, part, depth - 1):
                    solved = False
                    break
        else:
            solved = _all_solvable(workers, opening, parts, depth - 1,
                                   f"within {depth} guesses, opening {number} of {len(candidates)}")
        if solved:
            return opening
    return None


def _settled_within(searcher: Searcher, opening: Opening, fb: int, part: np.ndarray, depth: int) -> bool:
    """Whether a part can be solved within ``depth`` guesses, from the journal or searched."""
    journal = searcher.journal
    if journal is None:
        return searcher.can_solve(part, [opening.index], depth)
    code, feedback = searcher.part_name(opening.index, fb)
    known = journal.solvable(code, feedback, depth)
    if known is None:
        known = searcher.can_solve(part, [opening.index], depth)
        journal.record_solvable(code, feedback, depth, known)
    return known


def _all_solvable(workers: _Workers, opening: Opening, parts: list, depth: int, where: str) -> bool:
    """In the workers: whether every part can be solved within ``depth`` guesses (stops at the first that cannot)."""
    failed: list = []

    def done(task, value, tree, limit) -> None:
        if not value:
            failed.append(task)

    workers.run([(opening, fb, part) for fb, part in parts], lambda task: bool(failed), lambda task: 0, done,
                depth, worst=True, status=lambda: where)
    return not failed


# -- worker processes ----------------------------------------------------------------------------
#: Each worker thread's searcher (a process of the pool has one thread; a Dask worker may have several,
#: and a searcher's tables and buffers serve one search at a time).
_WORKER_SEARCHERS = threading.local()


def _part_task(rules: Rules, max_depth: int | None, consistent_only: bool, bits: int, worst: bool, opening: int,
               part: np.ndarray, depth: int | None, budget: int) -> tuple[int, TreeNode | None, int]:
    """A worker's task: one part of an opening, searched, and its subtree when it met the budget.

    Returns ``(cost or bound, subtree or None, positions searched)``; with
    ``worst`` (is the part solvable within ``depth``?) the value is 1 or 0 and
    there is no subtree.
    """
    key = (rules, max_depth, consistent_only, bits)
    kept = getattr(_WORKER_SEARCHERS, "searcher", None)
    if kept is None or kept[0] != key:
        # One per process and rule set, kept across tasks: its transposition table serves them all.
        _WORKER_SEARCHERS.searcher = None  # the last game's tables go before this one's are made
        _WORKER_SEARCHERS.searcher = (key, Searcher(rules, max_depth, consistent_only, bits))
    searcher = _WORKER_SEARCHERS.searcher[1]
    before = searcher.positions
    if worst:
        value, tree = int(searcher.can_solve(part, [opening], depth)), None
    else:
        value = searcher.cost(part, [opening], depth, budget)
        tree = searcher.subtree(part, [opening], depth) if value < budget else None
    return value, tree, searcher.positions - before


class _Workers:
    """Worker processes searching parts of openings (:func:`_part_task`); Ctrl-C terminates them."""

    def __init__(self, jobs: int, rules: Rules, max_depth: int | None, progress: Progress | None,
                 consistent_only: bool = False, bits: int | None = None):
        # "spawn", as bench's workers: nothing of this process's state is inherited. Ctrl-C reaches
        # the whole process group: the workers leave it to this process, which terminates them; they
        # end with it if it is killed outright.
        self.pool = start_pool(multiprocessing.get_context("spawn"), jobs, start_worker, (os.getpid(),))
        self._search(jobs, rules, max_depth, progress, consistent_only, bits)

    def _search(self, jobs: int, rules: Rules, max_depth: int | None, progress: Progress | None,
                consistent_only: bool, bits: int | None) -> None:
        """What the tasks are: the game, the depth limit, hard mode, the size of the workers' tables."""
        self.jobs = jobs
        self.rules = rules
        self.max_depth = max_depth
        self.consistent_only = consistent_only
        self.bits = default_table_bits(rules.size) if bits is None else bits
        self.progress = progress
        self.positions = 0
        self.finished: queue.Queue = queue.Queue()
        #: Where the parts are kept (``--journal``), and how a part is named there: the driver's
        #: :meth:`Searcher.part_name`.
        self.journal: Journal | None = None
        self.part_name: Callable[[int, int], tuple[Code, Feedback]] | None = None

    def run(self, tasks: list, skip: Callable, budget: Callable, done: Callable, depth: int | None,
            worst: bool = False, status: Callable[[], str] = str) -> None:
        """Search ``tasks`` (``(opening, feedback, part)``), at most ``jobs`` at once, in order.

        A task is submitted only when ``skip(task)`` is false, with the budget
        ``budget(task)`` of that moment; ``done(task, value, subtree, budget)``
        gets each result as it comes.
        """
        pending = deque(tasks)
        running = finished = 0
        while pending or running:
            while pending and running < self.jobs:
                task = pending.popleft()
                if skip(task):
                    continue
                limit = budget(task)
                known = self._settled(task, depth, limit, worst)
                if known is not None:
                    finished += 1
                    done(task, *known, limit)
                    continue
                opening, _, part = task
                self._submit(task, limit, (self.rules, self.max_depth, self.consistent_only, self.bits, worst,
                                           opening.index, part, depth, limit))
                running += 1
            if not running:
                break
            while True:
                if self.progress is not None:
                    self.progress(f"{finished} of {len(tasks)} parts searched in {self.jobs} processes, "
                                  f"{status()}")
                try:
                    task, limit, result, error = self.finished.get(timeout=0.2)
                    break
                except queue.Empty:
                    continue
            running -= 1
            finished += 1
            if error is not None:
                raise error
            value, tree, positions = result
            self.positions += positions
            self._keep(task, depth, limit, worst, value, tree)
            done(task, value, tree, limit)

    def _submit(self, task, limit: int, args: tuple) -> None:
        """Start :func:`_part_task` on ``args``; its result or error goes to :attr:`finished` with the task."""
        self.pool.apply_async(_part_task, args,
                              callback=lambda r, t=task, b=limit: self.finished.put((t, b, r, None)),
                              error_callback=lambda e, t=task, b=limit: self.finished.put((t, b, None, e)))

    def _settled(self, task, depth: int | None, limit: int, worst: bool) -> tuple[int, TreeNode | None] | None:
        """What the journal says of a task for this budget (``(value, subtree)``), or None: search it."""
        if self.journal is None:
            return None
        opening, fb, _ = task
        code, feedback = self.part_name(opening.index, fb)
        if worst:
            known = self.journal.solvable(code, feedback, depth)
            return None if known is None else (int(known), None)
        return self.journal.cost(code, feedback, depth, limit)

    def _keep(self, task, depth: int | None, limit: int, worst: bool, value: int, tree: TreeNode | None) -> None:
        if self.journal is None:
            return
        opening, fb, _ = task
        code, feedback = self.part_name(opening.index, fb)
        if worst:
            self.journal.record_solvable(code, feedback, depth, bool(value))
        else:
            self.journal.record_cost(code, feedback, depth, limit, value, tree)

    def close(self, interrupted: bool) -> None:
        if interrupted:
            self.pool.terminate()  # a part may take minutes: nothing of it is kept
        else:
            self.pool.close()
        self.pool.join()


class _DaskWorkers(_Workers):
    """The workers of a Dask cluster (``--executor dask``): each part a task, as many at once as the cluster has
    threads; each worker thread keeps its own table of solved sets across the tasks it runs."""

    def __init__(self, client, rules: Rules, max_depth: int | None, progress: Progress | None,
                 consistent_only: bool = False, bits: int | None = None):
        self.client = client
        self.futures: set = set()
        self._search(max(1, sum(client.nthreads().values())), rules, max_depth, progress, consistent_only, bits)

    def _submit(self, task, limit: int, args: tuple) -> None:
        future = self.client.submit(_part_task, *args, pure=False)
        self.futures.add(future)

        def arrived(f, t=task, b=limit) -> None:
            self.futures.discard(f)
            error = f.exception() if f.status == "error" else None
            if f.status == "cancelled":
                return
            self.finished.put((t, b, None if error is not None else f.result(), error))

        future.add_done_callback(arrived)

    def close(self, interrupted: bool) -> None:
        # The client is the caller's: only this search's tasks still running are cancelled.
        if self.futures:
            self.client.cancel(list(self.futures))
            self.futures.clear()
