"""One process's exact search for ``mmlogic optimal``: the bounds, the memory its tables take, and the
:class:`Searcher` that runs the compiled branch and bound (:mod:`mm_logic.kernels.optimal.search`) on sets of codes.

The drivers over the openings are :mod:`mm_logic.optimal.objectives`; the worker processes and Dask tasks
that search the openings' parts elsewhere, :mod:`mm_logic.optimal.workers`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np

from ..codespace import code_space
from ..feedback import rule_of
from ..kernels.optimal import ahead, arrays
from ..notation import Code, Feedback, amount
from ..rules import Rules
from ..strategies.tree import TreeNode
from ..support.errors import BadInput, MMLogicError
from ..support.memory import address_space, available_memory, memory_text, total_memory
from ..symmetry import GameSymmetry, game_symmetry, position_symmetries

#: Bytes of one transposition-table entry: two 64-bit keys, a cost, a guess, a set size, an exact flag.
ENTRY_BYTES = 33
#: The most of the machine's available memory one search takes by default (all its processes).
DEFAULT_SHARE = 0.75
#: What a search process takes besides its tables (the interpreter, numpy, numba and the kernels).
PROCESS_BYTES = 200 << 20
#: The transposition table's least and largest sizes (entries, as powers of two).
MIN_TABLE_BITS, MAX_TABLE_BITS = 12, 30

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


def feedbacks_met(table: np.ndarray) -> int:
    """How many feedbacks occur in the table, read a block of rows at a time: numpy's counting of the whole
    table at once made an index array 8 times its size (5x8: 8 GiB beside the table's 1 GiB)."""
    seen = np.zeros(int(table.max()) + 1, dtype=bool)
    step = max(1, (1 << 22) // max(1, table.shape[1]))
    for start in range(0, table.shape[0], step):
        seen[table[start:start + step]] = True
    return int(seen.sum())


def hash_words(size: int, stream: int) -> np.ndarray:
    """``size`` odd random-looking 64-bit words, the same at every run (splitmix64 of the counter): the
    transposition table's keys of a set are the xors of its codes' words. (Written out rather than drawn
    from numpy's generators: importing numpy.random cost ``optimal`` 10 ms of a start of half a second.)"""
    with np.errstate(over="ignore"):
        z = (np.arange(size, dtype=np.uint64) + np.uint64(stream << 40)) * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    return z | np.uint64(1)


def per_peg_symmetry(rules: Rules, symmetry: GameSymmetry | None = None) -> bool:
    """Whether a colour may be renamed on one peg alone: black pegs count the pegs where two codes agree, and
    with repetition allowed the codes renamed so are codes of the game (not so under a repetition limit);
    what the rule declares (:func:`mm_logic.symmetry.game_symmetry`), or ``symmetry`` says."""
    return (game_symmetry(rules) if symmetry is None else symmetry).per_peg


#: Called a few times a second while a kernel runs, with its control array (``control[NODES]``: positions).
Tick = Callable[[np.ndarray], None]


# -- one process's search ------------------------------------------------------------------------
class Searcher:
    """The compiled search over one rule set's codes, with its transposition table.

    Each call runs a kernel in a thread (it releases the GIL): Ctrl-C in the
    calling thread stops it at once (the kernel returns, the
    :class:`KeyboardInterrupt` goes on), and the call's ``on_tick`` is called a
    few times a second meanwhile with the kernel's control array, for progress
    (it may stop the kernel too: ``control[STOP] = 1``).
    """

    def __init__(self, rules: Rules, max_depth: int | None = None, consistent_only: bool = False,
                 bits: int | None = None, symmetry: GameSymmetry | None = None, secrets: np.ndarray | None = None):
        self.rules = rules
        #: The maps of codes the search may take for the same (None: the game's,
        #: :func:`mm_logic.symmetry.game_symmetry`;
        #: :data:`~mm_logic.symmetry.NO_SYMMETRY` for ``--no-symmetry``).
        self.symmetry = game_symmetry(rules, secrets) if symmetry is None else symmetry
        #: The feedback rule: the table's indices are its own, the largest the win.
        self.feedback = rule_of(rules)
        self.max_depth = max_depth
        #: Hard mode: every guess consistent with the history (the kernels' ``hard``).
        self.consistent_only = consistent_only
        space = code_space(rules)
        self.space = space
        self.size = space.size
        #: The secrets: every code, or those an edited encoding admits (the guesses are every code).
        self.root = np.arange(space.size, dtype=np.int32) if secrets is None else np.asarray(secrets, dtype=np.int32)
        self.table = np.ascontiguousarray(space.table)
        win = self.feedback.win_index(rules.pegs)
        if (np.diagonal(self.table) != win).any():
            # The kernels read the win at table[0, 0]: a rule derived from an encoding that narrows the code space
            # writes its "not admitted" there for a code the encoding excludes (never a secret of the search).
            self.table = self.table.copy()
            np.fill_diagonal(self.table, win)
        self.codes = np.ascontiguousarray(space.codes)
        self._code_list: list | None = None
        self.win = int(self.table[0, 0])
        # Parts a guess can make: the non-winning feedbacks that occur between two codes.
        self.classes = max(1, feedbacks_met(self.table) - 1)
        self.bound = perfect_split_bound(self.size, self.classes)
        inf = arrays.INF
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
        z1, z2 = hash_words(self.size, 1), hash_words(self.size, 2)
        # The table by secret: the scoring reads the codes of a set as secrets, row by row. Black and
        # white pegs and black pegs alone swap roles (the table itself); positional marks do not.
        swaps = self.feedback.swaps_roles
        if swaps is None:  # a rule of one's own: as its table shows
            swaps = bool(np.array_equal(self.table, self.table.T))
        by_secret = self.table if swaps else np.ascontiguousarray(self.table.T)
        # Black pegs with repetition: a colour may be renamed on one peg alone (the kernels' per-peg symmetry,
        # on peg-tagged colours); the symmetry kernels see codes of `sym_colours` colours.
        self.per_peg = self.symmetry.per_peg
        self.sym_colours = rules.colors * rules.pegs if self.per_peg else rules.colors
        self.sym_codes = arrays.tagged_codes(self.codes, rules.colors) if self.per_peg else self.codes
        self.perms = arrays.peg_permutations(rules.pegs, self.per_peg)
        #: The compiled kernels: the module built ahead of time for these arrays' types if there is one, else
        #: numba's (:func:`mm_logic.kernels.optimal.ahead.kernels_for`).
        self.k = ahead.kernels_for(self.table.dtype, self.sym_codes.dtype)
        flags = (arrays.HARD if consistent_only else 0) | (0 if self.symmetry.renames_colours else arrays.FIXED_COLOURS)
        self.game = (self.table, self.sym_codes, z1, z2, by_secret, self.perms, np.int64(flags))
        self.scratch = arrays.new_scratch(self.size, self.win + 1)
        #: The transposition table's entries, a power of two (:func:`table_bits`).
        self.bits = default_table_bits(self.size) if bits is None else bits
        self.tt = new_table(self.bits)
        self.control = np.zeros(arrays.CONTROL_SLOTS, dtype=np.int64)
        self.hist = np.zeros((self.size + 2, rules.pegs), dtype=np.int64)
        #: CPU seconds the kernels have run (in their own threads: a Dask worker's other tasks not counted).
        self.cpu_seconds = 0.0

    @property
    def positions(self) -> int:
        return int(self.control[self.k.NODES])

    def code(self, index: int) -> Code:
        """The code of an index (from the codes as Python lists, made once: a tree of 4x6 names 1,386 codes,
        and reading each from numpy took 40 ms, a tenth of the whole run)."""
        if self._code_list is None:
            self._code_list = self.codes.tolist()
        return tuple(self._code_list[int(index)])

    def part_name(self, opening: int, fb: int) -> tuple[Code, Feedback]:
        """The opening's code and the feedback (an index of the table) that name one of its parts."""
        return self.code(opening), self.feedback.from_index(fb, self.rules.pegs)

    def moves(self, history: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The moves that fix every guess of a history (:func:`mm_logic.symmetry.position_symmetries`; per-peg
        symmetry: :func:`mm_logic.kernels.optimal.node_symmetry.peg_moves`)."""
        if self.per_peg:
            hist = self.sym_codes[np.array(history, dtype=np.int64)].reshape(len(history), self.rules.pegs)
            return self.k.peg_moves(np.ascontiguousarray(hist), len(history), self.perms,
                                                self.sym_colours)
        # None where moving pegs changes the feedback (positional marks): colours alone are symmetric. A move
        # renames colours too (it maps each guess onto itself): none where colours are told apart.
        found = position_symmetries(self.rules, [(self.code(g), None) for g in history]) \
            if self.symmetry.moves_pegs and self.symmetry.renames_colours else []
        pegs, colors = self.rules.pegs, self.rules.colors
        sigmas = np.array([s for s, _ in found], dtype=np.int64).reshape(len(found), pegs)
        pis = np.array([p for _, p in found], dtype=np.int64).reshape(len(found), colors)
        return sigmas, pis

    def parts(self, guess: int, indices: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """The non-winning parts of ``indices`` under ``guess``: (feedback index, sorted indices), largest first."""
        if indices.size == 0:
            return []
        row = self.table[guess, indices]
        # One stable sort by feedback (np.unique and a mask per feedback cost 4x6's tree a tenth of its run).
        order = np.argsort(row, kind="stable")
        feedbacks = row[order]
        starts = np.flatnonzero(np.diff(feedbacks)) + 1
        found = [(int(feedbacks[at]), part) for at, part in zip(np.r_[0, starts], np.split(indices[order], starts))
                 if feedbacks[at] != self.win]
        found.sort(key=lambda part: -part[1].size)  # stable: equal sizes by feedback
        return found

    def _run(self, kernel, indices: np.ndarray, history: list[int], *args, on_tick: Tick | None = None):
        """Run a search kernel on the codes ``indices`` reached by ``history``, in a thread; ``on_tick`` is called
        a few times a second while it runs."""
        sigmas, pis = self.moves(history)
        for h, g in enumerate(history):
            self.hist[h] = self.sym_codes[g]
        part = np.ascontiguousarray(indices, dtype=np.int32)
        self.control[self.k.TRIED] = self.control[self.k.TRIED_BELOW] = 0
        out: list = []

        def work() -> None:
            started = time.thread_time()
            try:
                out.append(kernel(part, self.hist, len(history), sigmas, pis, *args))
            except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread
                out.append(error)
            finally:
                self.cpu_seconds += time.thread_time() - started

        worker = threading.Thread(target=work, daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(0.1)
                if on_tick is not None:
                    on_tick(self.control)
        except KeyboardInterrupt:
            self.control[self.k.STOP] = 1  # the kernel returns at its next set
            worker.join()
            raise
        if isinstance(out[0], BaseException):
            raise out[0]
        return int(out[0])

    def cost(self, indices: np.ndarray, history: list[int], depth: int | None, budget: int, *,
             on_tick: Tick | None = None) -> int:
        """The least total cost of the codes ``indices`` if below ``budget``, else a lower bound >= ``budget``.

        ``history``: the guesses (code indices) played to reach them; ``depth``:
        the guesses left (None: unlimited); ``on_tick``: called a few times a second.
        """
        return self._run(self.k.search, indices, history, depth or 0, int(budget), 0, self.game, self.bounds,
                         self.outsides, depth is not None, self.scratch, self.tt, self.control, on_tick=on_tick)

    def can_solve(self, indices: np.ndarray, history: list[int], depth: int, *, on_tick: Tick | None = None) -> bool:
        """Whether some strategy finds every code of ``indices`` within ``depth`` guesses."""
        return self._run(self.k.feasible, indices, history, depth, 0, self.game, self.bound, self.capacity,
                         self.scratch, self.tt, self.control, on_tick=on_tick) == 1

    def within_tree(self, indices: np.ndarray, history: list[int], depth: int) -> TreeNode:
        """A strategy that finds every code of ``indices`` within ``depth`` guesses, as :meth:`can_solve` found it
        (searched again where the table forgot it); the caller knows there is one."""
        indices = np.ascontiguousarray(indices, dtype=np.int32)
        if indices.size <= 2:
            return self._leaf(indices)
        salt = np.uint64(int(arrays.FEASIBLE_SALT) * (depth + 1) % 2**64)
        found, _, value, guess = self.k.probe(indices, salt, self.game[2], self.game[3], self.tt)
        if not (found and value == 1 and guess >= 0):
            self._run(self.k.feasible, indices, history, depth, 0, self.game, self.bound, self.capacity,
                      self.scratch, self.tt, self.control)
            found, _, value, guess = self.k.probe(indices, salt, self.game[2], self.game[3], self.tt)
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
        salt = arrays.depth_salt(depth)
        found, exact, _, guess = self.k.probe(indices, salt, self.game[2], self.game[3], self.tt)
        if not (found and exact and guess >= 0):
            # Replaced in the table by other sets since: search it again.
            self.cost(indices, history, depth, self.k.INF)
            found, exact, _, guess = self.k.probe(indices, salt, self.game[2], self.game[3], self.tt)
        guess = int(guess)
        node = TreeNode(self.code(guess))
        below = None if depth is None else depth - 1
        for fb, part in self.parts(guess, indices):
            node.children[self.feedback.from_index(fb, self.rules.pegs)] = self.subtree(part, [*history, guess],
                                                                                         below)
        return node


def table_bytes(rules: Rules) -> int:
    """Bytes of the feedback table a search process holds (size² bytes; positional marks read it both ways)."""
    # A rule whose answers do not swap roles (positional marks) keeps its table by secret too.
    return rules.size**2 * (1 if rule_of(rules).swaps_roles else 2)


def default_table_bits(size: int) -> int:
    """The transposition table's entries (a power of two) for a space of ``size`` codes, memory allowing:
    0.5 MB for the smallest spaces, 35 MB for 4x6, 280 MB for bulls and cows, 1.1 GB beyond, 2.2 GB from 5x7
    on."""
    # 4x6 searches 48,290 sets (90,499 for the worst case): 2**20 entries hold them, and touching 2**22
    # (138 MB) cost its search a sixth more (0.31 s against 0.26-0.27 s, best of five).
    return 14 if size <= 256 else 18 if size < 1000 else 20 if size < 2000 else 23 if size <= 5040 \
        else 25 if size < 16_000 else 26


def table_bits(rules: Rules, jobs: int, memory: int | None) -> int:
    """The transposition table's size (``2**bits`` entries) for each of ``jobs`` search processes.

    ``memory``: the bytes the whole search may take (every process's feedback table, transposition
    table and interpreter); the transposition table gets what the rest leaves, up to 2**30 entries.
    None: :func:`default_table_bits`, within :data:`DEFAULT_SHARE` of the memory available now (and of
    what a container's cgroup holds the process to). Each process's share is within what its address
    space limit (``ulimit -v``) leaves it. Refuses, in one line, a game whose feedback tables alone do
    not fit, and a ``memory`` whose share is more than that limit leaves (numpy's MemoryError when the
    table was made, an internal failure, before).
    """
    budget = memory if memory is not None else int(min(available_memory(), total_memory()) * DEFAULT_SHARE)
    share, capped = budget // jobs, False
    held = address_space()
    if held is not None:
        # The machine may have the memory and the process may still not take it: checked before any table.
        # (A worker process starts with about what this one holds.)
        limit, used = held
        left = max(limit - used, 0)
        if memory is not None and share > left:
            each = f"is {memory_text(share)} for each of {jobs} processes, more than each" if jobs > 1 \
                else "is more than this process"
            raise BadInput(f"--memory {memory_text(memory)} {each} may take: its address space is limited to "
                           f"{memory_text(limit)} (ulimit -v), of which {memory_text(used)} in use")
        share, capped = min(share, left), share > left
    fixed = table_bytes(rules) + PROCESS_BYTES
    room = share - fixed
    fits = (room // ENTRY_BYTES).bit_length() - 1 if room >= ENTRY_BYTES else -1
    if fits < MIN_TABLE_BITS:
        per = f" in each of {jobs} processes" if jobs > 1 else ""
        if memory is not None:
            given = f"--memory {memory_text(memory)}"
        elif capped:
            given = f"{memory_text(share)}{' in each' if jobs > 1 else ''} (what its address space limit, ulimit -v, " \
                    "leaves)"
        else:
            given = f"{memory_text(budget)} ({DEFAULT_SHARE:.0%} of the memory available now; --memory sets it)"
        raise BadInput(f"mmlogic optimal on {rules.describe()} ({amount(rules.size)} codes) needs at least "
                       f"{memory_text(fixed + (ENTRY_BYTES << MIN_TABLE_BITS))}{per} (its feedback table "
                       f"{memory_text(table_bytes(rules))}) and has {given}")
    return min(fits, MAX_TABLE_BITS) if memory is not None else min(fits, default_table_bits(rules.size))


def new_table(bits: int) -> tuple[np.ndarray, ...]:
    """A search's empty transposition table of ``2**bits`` entries (:func:`mm_logic.kernels.optimal.arrays.new_table`);
    one line (exit 1) where the machine cannot allocate it, though :func:`table_bits` sized it to what was there."""
    try:
        return arrays.new_table(bits)
    except MemoryError:
        raise MMLogicError(f"cannot allocate the search's table of {amount(1 << bits)} entries "
                           f"({memory_text(ENTRY_BYTES << bits)}): out of memory; give a smaller --memory") from None


#: The game the kernels are made ready on before a search: its arguments have every game's types.
WARM_UP = Rules(2, 3)


def kernel_variant(rules: Rules, symmetry: GameSymmetry | None = None) -> str | None:
    """The variant of the kernels a game's search runs (:func:`mm_logic.kernels.optimal.ahead.variant`): the dtypes of
    its feedback table and of its codes (peg-tagged under per-peg symmetry)."""
    table = rule_of(rules).index_dtype(rules.pegs)
    codes = np.int64 if per_peg_symmetry(rules, symmetry) else np.uint8 if rules.colors <= 255 else np.uint16
    return ahead.variant(table, codes)


def compile_kernels(on_compile: Callable[[], None] | None = None, worst: bool = False,
                    rules: Rules | None = None, symmetry: GameSymmetry | None = None) -> None:
    """Make the search's kernels ready before the clock starts, so that ``seconds`` is the search's own.

    For ``rules``' game: load the kernels compiled ahead of time for its arrays, or build them (10-40 s, a
    first run's; :mod:`mm_logic.kernels.optimal.ahead`), and then numba is never imported. Where they cannot be
    built, or without ``rules``: load numba's kernels from its cache, or compile them (15-45 s); ``worst``:
    also the kernel of the worst objective (the groups ``"optimal"`` and ``"optimal-worst"`` of
    :func:`mm_logic.kernels.warming.warm`, once per process). ``on_compile`` is called, once, when compiling
    actually starts (:func:`mm_logic.kernels.numba_cache.compilation_said`); a warm cache loads them silently.
    """
    said = []

    def once() -> None:
        if not said and on_compile is not None:
            said.append(True)
            on_compile()

    kind = kernel_variant(rules, symmetry) if rules is not None else None
    if kind is not None and ahead.build(kind, once):
        return
    from ..kernels.warming import warm

    warm("optimal", *(["optimal-worst"] if worst else []), say=once)


def warm_up_search() -> None:
    """Run the search and its probe once on :data:`WARM_UP`'s codes, so that numba compiles them or loads them
    from its cache: the group ``"optimal"`` of :func:`mm_logic.kernels.warming.warm`."""
    searcher = Searcher(WARM_UP, max_depth=None)
    every = np.arange(searcher.size, dtype=np.int32)
    searcher.cost(every, [], None, searcher.k.INF)  # search
    searcher.subtree(every, [], None)  # probe


def warm_up_feasible() -> None:
    """Run the worst objective's feasibility search once on :data:`WARM_UP`'s codes: the group
    ``"optimal-worst"`` of :func:`mm_logic.kernels.warming.warm`."""
    searcher = Searcher(WARM_UP, max_depth=None)
    searcher.can_solve(np.arange(searcher.size, dtype=np.int32), [], 3)  # feasible
