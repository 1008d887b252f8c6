"""Strategies that score every possible guess by how it splits the consistent codes.

A guess partitions the consistent codes by the feedback each would give.
Knuth's *minimax* minimises the largest part, Irving's *expected* minimises
Σ part² (the expected size of the next consistent set), Neuwirth's *entropy*
maximises the partition's entropy and Kooi's *parts* maximises the number of
parts. Ties are broken as the contract says: prefer a code that is still
consistent, then the smallest code in lexicographic order.

Every valid code is a candidate guess, in every space the reference engine
enumerates (:data:`mm_logic.codespace.MAX_CODES`). No feedback table is
kept: :func:`mm_logic.kernels.scoring.best_guess` scores each candidate on the fly
against the consistent codes, drops it as soon as it cannot win, and stops
at the lower bound of the ranks. Only the smallest code of each orbit under
the symmetries of the history is a candidate (:mod:`mm_logic.symmetry`),
which changes no result: :func:`table_guess`, which ranks every code from
the feedback table, is the plain form that tests hold it to.
"""

from __future__ import annotations

import numpy as np

from ..codespace import MAX_CODES, MAX_TABLE_CODES, code_space
from ..feedback import feedback_block, index_lut, rule_of
from ..lies import split_states, volume_weights
from ..notation import Code
from ..rules import RULE_FILE
from ..support.errors import BadInput
from ..symmetry import MAX_MOVES, Symmetries, block_pool, moves_keep_feedback, symmetries
from .base import PlayedTree, Strategy

#: Largest space whose whole tree (the opening's too) :meth:`ScoringStrategy.tree_below` plays in one call.
TREE_FROM_THE_TOP = 1 << 14

#: Up to this many consistent codes, the consistent guesses are scored before
#: the symmetries are sought: one of them often splits the codes into
#: singletons, and then no other guess is looked at.
SMALL_SET = 32


def partition_counts(block: np.ndarray, slots: int, guess_axis: int = 1) -> np.ndarray:
    """How many secrets fall in each feedback slot, for each guess.

    ``block`` holds feedback indices between guesses and secrets, guesses
    along ``guess_axis``. Returns an array ``(guesses, slots)``: one
    ``bincount`` over ``guess * slots + feedback``.
    """
    guesses = block.shape[guess_axis]
    offsets = np.arange(0, guesses * slots, slots, dtype=np.intp)
    flat = block.astype(np.intp)
    flat += offsets if guess_axis == 1 else offsets[:, None]
    return np.bincount(flat.ravel(), minlength=guesses * slots).reshape(guesses, slots)


def squares(sizes) -> np.ndarray:
    """Irving's value of parts of the given sizes, ``s²`` (int64): summed over a guess's parts and divided
    by the codes, the expected size of the next consistent set (:func:`expected_size`)."""
    sizes = np.asarray(sizes, dtype=np.int64)
    return sizes * sizes


def information(sizes) -> np.ndarray:
    """Neuwirth's value of parts of the given sizes, ``s·log2 s`` (float; 0 for empty parts): over ``m``
    codes, the partition's entropy is ``log2 m - Σ s·log2 s / m`` (:func:`entropy_bits`)."""
    s = np.asarray(sizes, dtype=np.float64)
    return s * np.log2(np.maximum(s, 1))


def expected_size(sizes) -> float:
    """The expected number of codes left after a guess whose parts have these sizes (Σ s² / m): what
    ``expected`` minimises."""
    sizes = np.asarray(sizes, dtype=np.int64)
    total = int(sizes.sum())
    return float(squares(sizes).sum()) / total if total else 0.0


def entropy_bits(sizes) -> float:
    """The entropy, in bits, of a guess whose parts have these sizes (each code equally likely): what
    ``entropy`` maximises."""
    sizes = np.asarray(sizes, dtype=np.int64)
    total = int(sizes.sum())
    if total == 0:
        return 0.0
    # max(0, ...): one part of all m codes gives log2 m - log2 m, which rounding may leave at -1e-16.
    return max(0.0, float(np.log2(total) - information(sizes).sum() / total))


def scored_opening(strategy, session) -> Code:
    """The opening a scorer finds: ``strategy.best`` over every code of the empty history.

    Every code is consistent there, and the symmetries leave one code per class of
    openings (:func:`mm_logic.symmetry.canonical_openings`); an edited encoding's codes
    are scored as the engine lists them, with no symmetry to rely on.
    """
    space = code_space(strategy.rules)
    if strategy.rules.lies:
        return strategy.best_of_states(session)
    if session.edited:
        return strategy.best(space, [], np.asarray(session.consistent_indices(), dtype=np.int64), symmetric=False)
    return strategy.best(space, [], np.arange(space.size, dtype=np.int64))


#: The largest game a scorer plays with lies: it scores every code against every state, from the whole
#: feedback table (4x8's 4,096 codes: a 16 MB table).
LIES_MAX_CODES = 4_096


class ScoringStrategy(Strategy):
    """Base of the partition-scoring strategies: each states its score once, as two hooks.

    A guess splits the consistent codes into parts (one per feedback). A
    strategy says how one part of a given size counts (:meth:`part`) and how
    the parts combine into the guess's rank (:attr:`combine`, ``np.add`` or
    ``np.maximum``); the lower the rank, the better the guess. Every path
    derives its ranks from these two: the kernel's running ranks, partition
    counts and the lower bound. Part values are integers (entropy's in fixed
    point), so equal partitions tie exactly whatever the order of their
    parts. With ``np.maximum``, part values must not decrease with the size.
    """

    feedback_rules = ("standard", "black", "positional", RULE_FILE)
    kernels = ("scoring",)

    #: How part values combine into a rank.
    combine: np.ufunc = np.add
    #: Scoring needs the code space enumerated.
    max_codes = MAX_CODES
    #: A rule of one's own is scored from the feedback table (:func:`table_guess`).
    own_rule_max_codes = MAX_TABLE_CODES
    #: Part values are superadditive and convex (see :meth:`ScoringStrategy.rest_bound`)...
    superadditive = False
    #: ... up to this many units (values rounded to integers).
    rounding = 0

    def __init__(self, rules, seed=None, **options):
        super().__init__(rules, seed, **options)
        from ..kernels import scoring as kernels
        from ..kernels import scoring_tree
        self._kernels = kernels
        self._tree_kernel = scoring_tree
        self._tree_pools = None
        self._groups: tuple[np.ndarray, np.ndarray] | None = None
        #: The feedback rule, as the kernel knows it (:data:`mm_logic.kernels.scoring.STANDARD` and the others).
        self._rule = kernels.rule_code(rules)
        #: Searches, candidates scored and feedbacks computed so far (what the searches cost).
        self.effort = {"searches": 0, "candidates": 0, "feedbacks": 0}
        self._values = np.zeros(0, dtype=np.int64)
        self._rest = np.zeros(0, dtype=np.int64)
        self._bounds: dict[tuple[int, bool], int] = {}
        self._no_symmetry = Symmetries.of(rules, [], [])
        self._classes: int | None = None
        self._table: tuple[np.ndarray, int] | None = None

    def part(self, sizes: np.ndarray) -> np.ndarray:
        """The value (int64) of parts of the given sizes; a part of size 0 counts 0."""
        raise NotImplementedError

    def cost(self, counts: np.ndarray) -> np.ndarray:
        """Rank of each guess (lower is better) from its partition counts ``(guesses, slots)``."""
        return self.combine.reduce(self.part(counts), axis=1)

    @property
    def slots(self) -> int:
        return rule_of(self.rules).slots(self.rules.pegs)

    @property
    def classes(self) -> int:
        """How many feedbacks a consistent guess may get at most (slots that never occur left out), as the
        rule declares it (:meth:`mm_logic.feedback.FeedbackRule.classes`) or, for a rule of one's own, as the
        game's feedback table shows."""
        declared = rule_of(self.rules).classes(self.rules.pegs)
        if declared is not None:
            return declared
        if self._classes is None:
            table = code_space(self.rules).table
            self._classes = max(1, int(np.unique(table).size) - 1)  # the win is no part
        return self._classes

    def opening(self, session) -> Code:
        return scored_opening(self, session)

    def choose(self, session) -> Code | None:
        m = session.count()
        if m <= 2:
            # One or two codes left: the smallest consistent one splits them
            # perfectly and wins every tie-break.
            return session.first()
        if self.rules.lies:
            return self.best_of_states(session)
        alive = np.asarray(session.consistent_indices(), dtype=np.int64)
        return self.best(code_space(self.rules), session.history, alive, symmetric=not session.edited)

    def best_of_states(self, session) -> Code:
        """The contract's guess in a game with lies (``--lies``): guesses split the states (code, lies used,
        :mod:`mm_logic.lies`) rather than the codes, and are ranked by those parts, which overlap (a state
        with a lie left follows every answer), each state weighing one more than the lies it has left
        (:func:`~mm_logic.lies.volume_weights`); ties as the contract says: a code still possible, then the
        smallest. Every code is scored, from the whole feedback table."""
        space = code_space(self.rules)
        if space.size > LIES_MAX_CODES:
            name = self.rules.naming  # the front end's words: --lies and --strategy, or a request's fields
            raise BadInput(f"{name.rules_field('lies')} with {name.option('strategy')} {self.name} scores every code "
                           f"against every state: games of at most {LIES_MAX_CODES:,} codes ({self.rules.describe()} "
                           f"has {space.size:,}); use {name.option('strategy')} first, any or random")
        alive = np.asarray(session.consistent_indices(), dtype=np.int64)
        marks = space.table[:, alive]
        ranks = self.cost(split_states(self.rules, marks, session.lies_needed(), volume_weights(self.rules)))
        outside = np.ones(space.size, dtype=bool)
        outside[alive] = False
        # lexsort: the last key first
        return space.code(int(np.lexsort((np.arange(space.size), outside, ranks))[0]))

    def best(self, space, history, alive: np.ndarray, symmetric: bool = True) -> Code:
        """The contract's guess against the consistent codes ``alive`` (sorted indices) after ``history``.

        ``symmetric``: ``alive`` is every code the history allows, so the history's symmetries
        map it onto itself and one guess per class of them is enough; an edited encoding's codes
        need not be (palindromes are not closed under moving pegs): every code is then a candidate.
        """
        m = alive.size
        if self._rule == self._kernels.TABLE:
            return self._table_best(space, alive)
        self._tables(space, m)
        bounds = self._bounds_of(space, alive)
        if m <= SMALL_SET:
            # A consistent code that reaches the bound (say, splits them all
            # apart) is the answer: no symmetry needs to be sought.
            index, rank = self._search(space, alive, self._no_symmetry, _NO_CODES, bounds)
            if rank <= bounds[0]:
                return space.code(index)
        if not symmetric:
            index, _ = self._search(space, alive, self._no_symmetry, block_pool(space, ()), bounds)
            return space.code(index)
        sym = symmetries(space, history, alive)
        index, _ = self._search(space, alive, sym, block_pool(space, sym.blocks), bounds)
        return space.code(index)

    def _table_best(self, space, alive: np.ndarray) -> Code:
        """The contract's guess under a rule of one's own: the same search, the feedback read from the game's
        feedback table, every code a candidate (no symmetry assumed), with bounds that hold whatever the rule
        (none to end the search early; codes not yet counted add at least the smallest step of the part
        values). A space without a table is ranked the plain way (:func:`table_guess`)."""
        if not space.has_table:
            return table_guess(self, alive)
        self._tables(space, alive.size)
        rest = self._rest
        if self._mode == 1:
            sizes = np.arange(self._values.size)
            rest = np.minimum(np.diff(self._values).min(), 0) * sizes
        kernels = self._kernels
        table, slots = self._feedback_table(space)
        index, _, candidates, pairs = kernels.best_guess(
            (space.codes, _EMPTY_WORDS, _EMPTY_COUNT_WORDS, space.counts), (kernels.TABLE, False, table, slots),
            alive, block_pool(space, ()), True, (self._mode, self._values, rest), (_NO_BOUND, _NO_BOUND),
            (self._no_symmetry.sigmas, self._no_symmetry.pis, self._no_symmetry.block_of,
             self._no_symmetry.block_colors, self._no_symmetry.block_start), (_NO_MULTISETS, _NO_DISTINCT))
        self._count_effort(candidates, pairs)
        return space.code(int(index))

    def _feedback_table(self, space) -> tuple[np.ndarray, int]:
        """The feedback table and its slots (its largest index + 1) for the search under a rule of one's own
        (:data:`mm_logic.kernels.scoring.TABLE`); empty under the others."""
        if self._rule != self._kernels.TABLE:
            return _NO_TABLE, 0
        if self._table is None:
            table = space.table
            largest = int(table.max(initial=0))
            if largest < 256 and table.dtype != np.uint8:  # the table the kernel is compiled for at start-up
                table = table.astype(np.uint8)
            self._table = (np.ascontiguousarray(table), max(self.slots, largest + 1))
        return self._table

    def tree_below(self, session, depth: int, limit: int) -> PlayedTree | None:
        """The whole subtree below the session's history in one compiled call
        (:func:`mm_logic.kernels.scoring_tree.scoring_tree`): at every node the guess :meth:`choose`
        gives, found by the same search, bounds and symmetries, without a return to Python. From the
        empty history (the opening: ``first_guess``, else :meth:`opening`) only in spaces of at most
        :data:`TREE_FROM_THE_TOP` codes: a larger bench is played a subtree of the opening at a time,
        which its progress bar follows."""
        if session.edited or self._rule >= self._kernels.HASHED or self.rules.lies:
            return None  # node by node: an edited encoding, long positional codes, a rule of one's own, lies
        space = code_space(self.rules)
        first = -1
        if not session.history:
            if space.size > TREE_FROM_THE_TOP:
                return None
            opening = self.first_guess if self.first_guess is not None else self.opening(session)
            first = int(space.index_of([opening])[0])
            if first >= space.size or space.code(first) != tuple(opening):
                return None  # not a code of the space (a probe): the walk node by node plays it
        alive = np.ascontiguousarray(session.consistent_indices(), dtype=np.int64)
        self._tables(space, alive.size)
        kernels = self._kernels
        packed = space.packed if self._rule < kernels.POSITIONAL else None
        words, count_words = packed if packed is not None else (_EMPTY_WORDS, _EMPTY_COUNT_WORDS)
        history = np.array([guess for guess, _ in session.history], dtype=np.int64).reshape(-1, self.rules.pegs)
        rule = rule_of(self.rules)
        grouped = (self.superadditive or self._mode == 0) and rule.by_multiset
        multisets, distinct = self._colour_groups(space)
        if grouped and multisets.size == 0:
            multisets = space.multisets
        status, nodes, games, effort = self._tree_kernel.scoring_tree(
            space.codes, words, count_words, space.counts, multisets, distinct,
            packed is not None, self._rule, index_lut(self.rules.pegs), rule.win_index(self.rules.pegs), alive,
            history, depth, limit, self._mode, self._values, self._rest, self.rounding, self.classes,
            self._rule == kernels.STANDARD, grouped, SMALL_SET, moves_keep_feedback(self.rules), MAX_MOVES,
            self._pools(), first)
        for key, n in zip(("searches", "candidates", "feedbacks"), effort.tolist()):
            self.effort[key] += n
        return PlayedTree(nodes, games, status == self._tree_kernel.TOO_DEEP)

    def _colour_groups(self, space) -> tuple[np.ndarray, np.ndarray]:
        """The colour multiset of each code and every multiset of the space (``distinct``), for the
        search's bound by colours (:func:`mm_logic.kernels.scoring._colour_floors`: the standard rule,
        packed codes of up to 7 pegs); empty where it does not apply."""
        if self._groups is None:
            if self._rule == self._kernels.STANDARD and space.packed is not None and self.rules.pegs <= 7:
                self._groups = (space.multisets, np.unique(space.multisets).astype(np.int64))
            else:
                self._groups = (_NO_MULTISETS, _NO_DISTINCT)
        return self._groups

    def _pools(self):
        """The candidate pools the compiled walks keep (see :func:`mm_logic.kernels.scoring_tree.new_pools`)."""
        if self._tree_pools is None:
            self._tree_pools = self._tree_kernel.new_pools()
        return self._tree_pools

    def _tables(self, space, m: int) -> None:
        if self._values.size <= m:
            # Part values by size, for the largest set met so far, and what so many codes add at least.
            sizes = np.arange(min(max(m + 1, 2 * self._values.size, 64), space.size + 1))
            self._values = np.ascontiguousarray(self.part(sizes), dtype=np.int64)
            self._rest = self.rest_bound(sizes, self._values)

    def _bounds_of(self, space, alive: np.ndarray) -> tuple[int, int]:
        """Ranks no guess beats, and no inconsistent guess beats, on the consistent codes ``alive``."""
        group_bound = self._kernels.group_bound
        m = alive.size
        grouped = self.lower_bound(m)
        # Codes of one colour multiset get as many feedbacks as their differing pegs allow: true of black
        # pegs (a function of the standard feedback), not of positional marks (an o may move with them).
        if (self.superadditive or self._mode == 0) and rule_of(self.rules).by_multiset:
            grouped = max(grouped, int(group_bound(space.codes, space.multisets, alive, self._mode, self._values,
                                                   self.rounding)))
        return grouped, max(self.lower_bound(m, outside=True), grouped)

    @property
    def _mode(self) -> int:
        return 0 if self.combine is np.maximum else 1

    def _search(self, space, alive, sym: Symmetries, pool: np.ndarray, bounds: tuple[int, int]) -> tuple[int, int]:
        """Search the consistent codes, then the inconsistent ones of ``pool`` (from :func:`block_pool`)."""
        kernels = self._kernels
        packed = space.packed if self._rule < kernels.POSITIONAL else None  # positional: plain codes
        words, count_words = packed if packed is not None else (_EMPTY_WORDS, _EMPTY_COUNT_WORDS)
        table, slots = self._feedback_table(space)
        index, rank, candidates, pairs = kernels.best_guess(
            (space.codes, words, count_words, space.counts), (self._rule, packed is not None, table, slots), alive,
            pool, True, (self._mode, self._values, self._rest), bounds,
            (sym.sigmas, sym.pis, sym.block_of, sym.block_colors, sym.block_start), self._colour_groups(space))
        self._count_effort(candidates, pairs)
        return int(index), int(rank)

    def _count_effort(self, candidates, pairs) -> None:
        self.effort["searches"] += 1
        self.effort["candidates"] += int(candidates)
        self.effort["feedbacks"] += int(pairs)

    def rest_bound(self, sizes: np.ndarray, values: np.ndarray) -> np.ndarray:
        """What ``sizes`` codes not yet counted add to a partial rank at least (``np.add`` ranks).

        ``values`` is ``part(sizes)``. In general each code adds at least the
        smallest step of ``values``. When part values are *superadditive*
        (``part(a + b) >= part(a) + part(b)``, as convex values with
        ``part(0) = 0`` are) and convex, adding ``r`` codes to any parts adds at
        least ``part`` of them spread as evenly as possible over the
        feedbacks (less :attr:`rounding` twice per feedback).
        """
        if not self.superadditive:
            return np.minimum(np.diff(values).min(), 0) * sizes
        # r codes touch at most r parts: more classes than codes change nothing but the rounding.
        classes = self.classes if self._rule == self._kernels.STANDARD else min(self.classes, max(int(sizes[-1]), 1))
        q, r = np.divmod(sizes, classes)
        spread = r * values[np.minimum(q + 1, values.size - 1)] + (classes - r) * values[q]
        return spread - 2 * classes * self.rounding

    def lower_bound(self, m: int, outside: bool = False) -> int:
        """A rank no guess can beat on ``m`` consistent codes (parts as even as possible).

        With ``outside``, no inconsistent guess: it cannot win, so it has one feedback fewer.
        """
        key = (m, outside)
        if key not in self._bounds:
            classes = self.classes - outside  # an inconsistent guess never wins
            if self._rule != self._kernels.STANDARD:
                classes = min(classes, max(m, 1))  # parts beyond m would be empty
            q, r = divmod(m, classes)
            parts = np.array([q + 1] * r + [q] * (classes - r), dtype=np.int64)
            self._bounds[key] = int(self.cost(parts[None, :])[0])
        return self._bounds[key]


_NO_CODES = np.zeros(0, dtype=np.int32)
_NO_MULTISETS = np.zeros(0, dtype=np.int32)
_NO_DISTINCT = np.zeros(0, dtype=np.int64)
_EMPTY_WORDS = np.zeros(0, dtype=np.uint64)
_EMPTY_COUNT_WORDS = np.zeros((0, 2), dtype=np.uint64)
_NO_TABLE = np.zeros((0, 0), dtype=np.uint8)
#: A rank below every rank: a search given it as its bounds never ends early.
_NO_BOUND = -(1 << 62)


def table_guess(strategy: ScoringStrategy, alive: np.ndarray) -> Code:
    """The contract's guess the plain way: every code ranked from the feedback table.

    Lowest rank, then consistent, then smallest: what :meth:`ScoringStrategy.best`
    must give (the tests hold it to this), and how a rule of one's own is scored (no compiled
    feedback, no symmetry assumed: every code of a space with a table, :data:`~mm_logic.codespace.MAX_TABLE_CODES`).
    """
    space = code_space(strategy.rules)
    block = space.table[:, alive] if space.has_table else feedback_block(
        space.features[0], space.features[1][alive], space.rules.pegs)
    # A rule of one's own writes its indices in as many slots as its numbers allow, most never met.
    slots = max(strategy.slots, int(block.max(initial=0)) + 1)
    costs = strategy.cost(partition_counts(block, slots, guess_axis=0))
    consistent = np.zeros(space.size, dtype=bool)
    consistent[alive] = True
    best = int(np.lexsort((np.arange(space.size), ~consistent, costs))[0])
    return space.code(best)


class Minimax(ScoringStrategy):
    """Knuth (1977): minimise the largest part."""

    name = "minimax"
    summary = "Knuth: smallest worst-case part; opens with the best canonical code (0011 for 4x6)"
    combine = np.maximum

    def part(self, sizes):
        return np.asarray(sizes, dtype=np.int64)


class Expected(ScoringStrategy):
    """Irving (1979): minimise the expected size of the next consistent set, Σ part²."""

    name = "expected"
    summary = "Irving: smallest sum of squared parts; opens with the best canonical code (0012 for 4x6)"
    superadditive = True

    def part(self, sizes):
        return squares(sizes)


#: Entropy's part values are s·log2(s) in fixed point with this many fractional bits:
#: integer sums make equal partitions tie exactly, and 2**-32 keeps distinct ones apart.
ENTROPY_BITS = 32


class Entropy(ScoringStrategy):
    """Neuwirth (1982): maximise the entropy of the partition."""

    name = "entropy"
    summary = "Neuwirth: largest entropy of the parts; opens with the best canonical code (0123 for 4x6)"
    superadditive = True
    rounding = 1

    def part(self, sizes):
        # Entropy = log m - Σ s log s / m, so minimising Σ s log2 s maximises it (entropy_bits).
        return np.rint(information(sizes) * 2.0**ENTROPY_BITS).astype(np.int64)


class Parts(ScoringStrategy):
    """Kooi (2005): maximise the number of parts."""

    name = "parts"
    summary = "Kooi: most feedback classes; opens with the best canonical code (0012 for 4x6)"
    # -(s > 0) is not convex, but r more codes open at most min(r, classes) parts: the same bound.
    superadditive = True

    def part(self, sizes):
        return -(np.asarray(sizes) > 0).astype(np.int64)
