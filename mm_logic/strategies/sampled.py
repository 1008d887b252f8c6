"""``sample-entropy``: entropy over a sample, for spaces too large to enumerate.

The exact scorers (:mod:`mm_logic.strategies.scoring`) partition every
consistent code by every candidate guess: out of reach on 16x6 (6**16
codes). ``sample-entropy`` stands ``k`` consistent codes in for the
consistent set, scores candidates by the entropy of the partition they make
of that sample (the feedback rule, as :class:`~.scoring.Entropy` does on
the whole set), and plays the best.

Per guess:

1. The sample, ``k`` consistent codes. Before the first guess: ``k``
   uniform codes. Then, once the history leaves at most :data:`VECTORS`
   colour-count vectors (:func:`~mm_logic.kernels.sample.count_vectors`;
   on 16x6 from the second guess on), a sequential importance sampler
   (:func:`~mm_logic.kernels.sample.descend`) draws ``3 k`` weighted codes
   and ``k`` are drawn from them by weight: nearly uniform over the
   consistent set. A few hundred of its tries first estimate the set's size;
   a set of at most :data:`EXACT_CODES` codes is listed whole
   (:func:`~mm_logic.kernels.sample.codes_with_counts`) and is the sample
   (``k`` codes of it drawn uniformly when larger), marked *exact*. With more
   vectors than that (large games, early), or when the sampler draws too few
   codes, a Metropolis walk over all codes
   (:func:`~mm_logic.kernels.sample.metropolis`) collects ``k`` codes (a code
   may come twice). It starts at a code the sampler drew, else at the code of
   the previous guess's sample nearest to consistent (a uniform code when the
   strategy did not choose the previous guess). When it meets no consistent
   code, a focused local search (:func:`~mm_logic.kernels.sample.repair`)
   starts from the walk's nearest miss; only when that fails too is the
   engine asked (``near()``, aimed at that miss: it also says when nothing is
   consistent, and the strategy then returns None like the others). The walk
   then starts at the code found. Where the sampler, the listing or the
   repair failed at the history before, they do less (they fail again there).
2. The candidates: up to :data:`CANDIDATES` distinct sample codes, the best
   :data:`CLIMBS` of them improved one peg at a time on the entropy
   (:func:`~mm_logic.kernels.entropies.climb`, which may leave the consistent
   set), and as many uniform codes climbed the same way.
3. The guess: the largest entropy; where the sample is exact, a candidate
   that may win gets ``1 / |set|`` more (its chance to end the game); ties:
   the first found. When the sample holds one code (or two, exactly), the
   smallest is played.

Everything random comes from a generator derived from (seed, history), so
a game is reproducible with ``--seed`` on one engine (on large games a walk
may start at the engine's ``any()`` answer, or near the previous sample: a
``next`` from the same history without the game before it may then differ).
``--time-limit S`` bounds one guess's sampler to about S seconds (the
sample is then smaller, and runs may differ). Spaces of at most
:data:`EXACT_SPACE` codes are played by the exact ``entropy`` strategy.

Under the black and positional rules (:meth:`SampleEntropy.sample_rule`) step 1 differs, because
the colour-count vectors, the importance sampler and the repair reason on black + white: a space
of at most :data:`LIST_SPACE` codes is listed and filtered by the rule (exact: the whole set when it
has at most :data:`EXACT_CODES` codes, else ``k`` of it drawn uniformly, source "listing"), a
larger one is walked (:func:`~mm_logic.kernels.rule_sample.rule_metropolis`, whose energy is the
L1 distance of a code's feedbacks from those told), and the engine is asked when the walk meets
no consistent code. Steps 2 and 3 partition the sample by the rule's feedback
(:mod:`mm_logic.kernels.rule_sample`). A rule of the user's own (``--feedback FILE.py``) is refused:
it has no compiled feedback.

The sample follows the game's rules (feedback and repetition rules), not
constraints an edited encoding may add: on such an encoding, use a
strategy that asks the engine only (``any``, ``random``).
"""

from __future__ import annotations

import time

import numpy as np

from ..codespace import MAX_TABLE_CODES, code_space
from ..notation import Code, shown
from ..randomness import history_rng, random_code
from ..rules import RULE_FILE
from ..support.errors import BadInput
from .base import SeededStrategy
from .scoring import Entropy

#: Code spaces up to this size are played by the exact ``entropy`` scorer.
EXACT_SPACE = 50_000
#: Under the black and positional rules, code spaces up to this size are listed and filtered (the code
#: space's own filter, as the python engine's): the consistent set is then known exactly. A game's first
#: filter, measured: 7x6 (279,936 codes) 0.02 s black, 0.06 s positional; 8x6 (1.7 million) 0.16 s and
#: 0.45 s, which a bench would pay every game: larger spaces are walked.
LIST_SPACE = 1_000_000
#: Consistent codes in the sample (``k``) unless the name says ``sample-entropy:K``.
SAMPLE_SIZE = 1000
#: Largest ``K`` a name may ask for.
MAX_SAMPLE_SIZE = 20_000
#: Walk steps per code wanted (the walk stops earlier once it has ``k`` codes).
STEPS_PER_CODE = 100
#: ... and at least this many: from a start far from consistent the walk needs them.
MIN_WALK_STEPS = 20_000
#: Steps between two codes recorded by the walk.
THIN = 20
#: The importance sampler and exact listing run once the colour counts allow at most this many
#: vectors (before: the walk).
VECTORS = 5_000
#: ... found within this many steps of their search (else: as if there were more).
VECTOR_NODES = 200_000
#: Tries that estimate the consistent set's size.
PROBE = 300
#: A set estimated at most this large is listed whole, within :data:`EXACT_WORK` / (guesses x
#: colours) search nodes (a node checks every guess's bound over every colour; 16x6 after 8
#: guesses: 20 million nodes, about 0.3 s).
EXACT_CODES = 20_000
#: The work of listing a set whole: search nodes times guesses times colours.
EXACT_WORK = 1_000_000_000
#: Importance-sampler draws per sample code, tries per draw, and the last pegs it completes
#: by an exact search (of at most :data:`TAIL_NODES` nodes). (On 30x30, late, with the colour
#: counts known, every try meets a dead end, with 8 pegs or 15: the walk serves there.)
DRAWS_PER_CODE = 3
TRIES_PER_DRAW = 50
TAIL = 8
#: Nodes of the exact search that completes an importance-sampler draw's last pegs.
TAIL_NODES = 100_000
#: Fewer draws than this (or than ``k``) and the walk samples instead.
MIN_DRAWS = 100
#: Distinct sample codes scored as candidates.
CANDIDATES = 300
#: Best candidates, and uniform codes, improved by a one-peg climb.
CLIMBS = 3
#: Rounds of that climb.
CLIMB_ROUNDS = 60
#: Steps of the focused search that runs when the walk finds nothing, and its share of random
#: moves. On histories of 20-35 uniform 30x30 guesses, 300,000 steps at noise 0.02 found a
#: consistent code in 31 of 32 cases, 0.02-0.4 s each (noise 0.2: 12 of 32; 0.5: none).
REPAIR_STEPS = 300_000
REPAIR_NOISE = 0.02
#: Walk steps run between two looks at the clock under ``--time-limit``.
STEPS_PER_LOOK = 20_000
#: Repair steps run between two looks at the clock under ``--time-limit``.
REPAIR_PER_LOOK = 30_000
#: Importance-sampler draws run between two looks at the clock under ``--time-limit``.
DRAWS_PER_LOOK = 300


class SampleEntropy(SeededStrategy):
    """Largest entropy of the partition of ``k`` sampled consistent codes."""

    # Every rule; a rule of the user's own has no compiled feedback to sample with: played in the spaces whose
    # feedback table the exact scorer reads (where sample-entropy is entropy itself).
    feedback_rules = ("standard", "black", "positional", RULE_FILE)
    own_rule_max_codes = min(EXACT_SPACE, MAX_TABLE_CODES)

    name = "sample-entropy"
    for_any_size = True
    summary = (f"largest entropy over a sample of k consistent codes (sample-entropy:K, default "
               f"{SAMPLE_SIZE}), drawn by importance sampling or a walk, exact once few codes are left; "
               f"spaces of at most {EXACT_SPACE:,} codes: exact entropy")
    # On large games a walk may start at the engine's any(), which differs between engines,
    # or near the previous guess's sample: the guess is not a function of the history alone.
    deterministic = False
    # Its exact scorer's (an Entropy): the sampler's own kernels are loaded at their first call.
    kernels = ("scoring",)

    def __init__(self, rules, seed=None, k: int = SAMPLE_SIZE, **options):
        super().__init__(rules, seed, **options)
        #: Consistent codes in the sample.
        self.k = checked_size(k)
        if k != SAMPLE_SIZE:
            self.name = f"{SampleEntropy.name}:{k}"
        self._scorer = Entropy(rules, self.seed)
        #: True when the space is small enough for the exact scorer.
        self.exact = rules.size <= EXACT_SPACE
        #: What the last guess was chosen from: "uniform", "descent", "exact" or "walk" (and where
        #: the walk found its first consistent code: "walk", "repair" or "engine"), and sizes.
        self.last: dict = {}
        #: The last sample and its history: the next walk starts near it.
        self._pool: tuple[tuple, np.ndarray | None] = ((), None)
        #: The last history at which each step failed: "sampler" (neither the exact listing
        #: nor the importance sampler served), "listing" (it found no code within its work),
        #: "repair" (the focused search found no consistent code).
        self._failed: dict[str, tuple] = {}
        #: The feedback rule as the kernels know it (:func:`mm_logic.kernels.scoring.rule_code`), and whether
        #: it is black and white pegs, which the sampler's own kernels cut on.
        from ..kernels.scoring import STANDARD, rule_code
        self._rule = rule_code(rules)
        self._pegs_and_colours = self._rule == STANDARD
        #: Under another rule than the standard one: the last history listed and its consistent codes
        #: (indices into the code space), which the next guess's listing filters further.
        self._listed: tuple[tuple, np.ndarray | None] = ((), None)

    # -- choosing -------------------------------------------------------------------------
    def opening(self, session) -> Code:
        return self._scorer.opening(session) if self.exact else self.choose(session)

    def choose(self, session) -> Code | None:
        if self.exact:
            return self._scorer.choose(session)
        rng = history_rng(self.seed, session.history)
        sample, exact = self.sample(session, rng) if self._pegs_and_colours else self.sample_rule(session, rng)
        if sample is None:
            return None
        distinct = np.unique(sample, axis=0)
        if len(distinct) == 1 or (exact and len(distinct) == 2):
            return tuple(int(c) for c in distinct[0])
        return self.best(distinct, sample, exact, rng)

    def best(self, distinct: np.ndarray, sample: np.ndarray, exact: bool, rng: np.random.Generator) -> Code:
        """The candidate whose partition of ``sample`` has the largest entropy (see the module)."""
        from ..kernels.entropies import climb, partition_entropies
        from ..kernels.rule_sample import rule_climb, rule_entropies
        rules = self.rules
        if len(distinct) > CANDIDATES:
            distinct = distinct[np.sort(rng.choice(len(distinct), CANDIDATES, replace=False))]
        if self._pegs_and_colours:
            entropy, wins = partition_entropies(distinct, sample, rules.colors)
        else:
            entropy, wins = rule_entropies(distinct, sample, rules.colors, self._rule)
        bonus = 1.0 / len(sample) if exact else 1e-9
        score = entropy + (wins > 0) * bonus
        order = np.argsort(-score, kind="stable")
        best, best_score = distinct[order[0]], score[order[0]]
        starts = [distinct[r] for r in order[:CLIMBS]]
        starts += [np.asarray(random_code(rules, rng), dtype=np.int64) for _ in range(CLIMBS)]
        for start in starts:
            if self._pegs_and_colours:
                guess, value = climb(start, sample, rules.colors, rules.repeat_limit, CLIMB_ROUNDS)
            else:
                guess, value = rule_climb(start, sample, rules.colors, rules.repeat_limit, CLIMB_ROUNDS, self._rule)
            if value > best_score + 1e-9:
                best, best_score = guess, value
        return tuple(int(c) for c in best)

    # -- sampling ---------------------------------------------------------------------------
    def uniform(self, rng: np.random.Generator) -> np.ndarray:
        """``k`` codes drawn uniformly: the sample of the empty history, where every code is consistent."""
        self.last = {"source": "uniform", "codes": self.k}
        return np.asarray([random_code(self.rules, rng) for _ in range(self.k)], dtype=np.int64)

    def sample(self, session, rng: np.random.Generator) -> tuple[np.ndarray | None, bool]:
        """(sample, exact): ``k`` consistent codes (rows), or the whole consistent set when
        exact; (None, False) when the engine finds no consistent code."""
        from ..kernels.sample import colour_counts, count_vectors, descend
        rules, k = self.rules, self.k
        if not session.history:
            return self.uniform(rng), False
        history = tuple(session.history)
        guesses, blacks, commons = history_arrays(history)
        vectors, count = count_vectors(colour_counts(guesses, rules.colors), commons, rules.pegs, rules.colors,
                                       rules.repeat_limit, VECTORS, VECTOR_NODES)
        drawn = np.empty((0, rules.pegs), np.int64)
        if count <= VECTORS and count:
            # A few hundred tries estimate the set's size (Knuth's estimator: the mean weight,
            # failed tries weighing 0, times the number of vectors); a small set is listed.
            _, weights, tries = descend(guesses, blacks, vectors, rules.colors, PROBE, PROBE, TAIL, TAIL_NODES,
                                        int(rng.integers(2**31)))
            estimate = count * float(np.exp(weights).sum()) / max(tries, 1)
            # Where no probe try succeeds and the sampler failed at the history before this one
            # (30x30 late, 20x20 mid-game: dead ends everywhere), it makes no draws. (The listing
            # keeps its work: 16x6 sets of 5-50 codes late in a game need all of it.)
            futile = len(weights) == 0 and self._failed_before("sampler", history)
            if estimate <= EXACT_CODES:
                # (No try succeeding estimates 0: a tiny set, or tries that all met dead ends.)
                # A listing that found no code at all in its work at the history before this one
                # (20x20 and 30x30 once the colour counts are known: 0.2 s a guess, every guess)
                # gets a tenth of it. (16x6's late sets are listed in full or overflow.)
                whole = exact_set(guesses, blacks, vectors, rules, 10 if self._failed_before("listing", history) else 1)
                if whole is not None and len(whole):
                    self.last = {"source": "exact", "codes": len(whole)}
                    if len(whole) > k:
                        whole = whole[np.sort(rng.choice(len(whole), k, replace=False))]
                    return self._keep(history, whole), True
                if whole is not None:
                    self._failed["listing"] = history
            if not futile:
                drawn, weights = self.descend(guesses, blacks, vectors, rng)
            if len(drawn) >= min(MIN_DRAWS, k):
                # Resampled by weight: k codes drawn (nearly) uniformly from the consistent set.
                chance = np.exp(weights - weights.max())
                picked = rng.choice(len(drawn), k, p=chance / chance.sum())
                self.last = {"source": "descent", "codes": k, "draws": len(drawn), "estimate": estimate}
                return self._keep(history, drawn[np.sort(picked)]), False
            self._failed["sampler"] = history
        # The walk finds consistent codes by itself from most starts (best: a consistent one the
        # sampler drew); the engine is asked only when neither it nor the repair finds one (a
        # solver call on a history of such guesses can be slow: 30x30, 31 s of a 36 s game went
        # to any() when every walk started there).
        start = drawn[0] if len(drawn) else self.walk_start(history, guesses, blacks, commons, rng)
        codes, nearest = self.walk(start, guesses, blacks, commons, rng)
        how = "walk"
        if not len(codes):
            # A focused search from the walk's nearest miss usually finds a consistent code in a
            # fraction of a second where a solver takes seconds to minutes (see REPAIR_STEPS).
            # (Where it failed at the history before this one, it fails again: a tenth of the steps.)
            steps = REPAIR_STEPS // 10 if self._failed_before("repair", history) else REPAIR_STEPS
            found, energy = self.repair(nearest, guesses, blacks, commons, steps, rng)
            if energy == 0:
                how = "repair"
                codes, _ = self.walk(found, guesses, blacks, commons, rng)
                codes = codes if len(codes) else found[None, :]
            else:
                nearest = found
                self._failed["repair"] = history
        if not len(codes):
            # The engine decides whether anything is consistent; aimed at the walk's nearest
            # miss, clingo answers in a fraction of the time its own order takes on such histories.
            start = session.near(nearest)
            if start is None:
                return None, False
            how = "engine"
            start = np.asarray(start, dtype=np.int64)
            codes, _ = self.walk(start, guesses, blacks, commons, rng)
            codes = codes if len(codes) else start[None, :]
        self.last = {"source": "walk", "codes": len(codes), "start": how}
        return self._keep(history, np.concatenate([drawn, codes])), False

    def _failed_before(self, step: str, history: tuple) -> bool:
        """Whether ``step`` failed at the history just before ``history`` (it fails again there)."""
        return self._failed.get(step) == history[:-1]

    def _keep(self, history: tuple, codes: np.ndarray) -> np.ndarray:
        """Remember the sample of ``history`` (the next walk may start near it); return it."""
        self._pool = (history, codes)
        return codes

    def walk_start(self, history, guesses, blacks, commons, rng) -> np.ndarray:
        """Where the walk starts: in a game, the code of the previous guess's sample nearest
        to consistent with the new entry (fewest pegs of feedback off); else a uniform code."""
        from ..kernels.sample import feedback_distance
        before, codes = self._pool
        if codes is not None and len(history) == len(before) + 1 and tuple(history[:-1]) == before:
            off = feedback_distance(codes, guesses[-1:], blacks[-1:], commons[-1:], self.rules.colors)
            return codes[int(np.argmin(off))].copy()
        return np.asarray(random_code(self.rules, rng), dtype=np.int64)

    def descend(self, guesses, blacks, vectors, rng) -> tuple[np.ndarray, np.ndarray]:
        """Codes and log-weights from the importance sampler: ``DRAWS_PER_CODE * k`` draws
        (within ``TRIES_PER_DRAW`` tries each), or what ``--time-limit`` leaves time for."""
        from ..kernels.sample import descend
        rules = self.rules
        draws = DRAWS_PER_CODE * self.k
        if self.time_limit is None:
            codes, weights, _ = descend(guesses, blacks, vectors, rules.colors, draws, TRIES_PER_DRAW * draws,
                                        TAIL, TAIL_NODES, int(rng.integers(2**31)))
            return codes, weights
        deadline = time.monotonic() + self.time_limit
        found, logs, tries = [], [], TRIES_PER_DRAW * draws
        while draws > 0 and tries > 0 and time.monotonic() < deadline:
            piece = min(draws, DRAWS_PER_LOOK)
            codes, weights, taken = descend(guesses, blacks, vectors, rules.colors, piece, TRIES_PER_DRAW * piece,
                                            TAIL, TAIL_NODES, int(rng.integers(2**31)))
            found.append(codes)
            logs.append(weights)
            draws -= len(codes)
            tries -= taken
            if not len(codes):
                break
        if not found:
            return np.empty((0, rules.pegs), np.int64), np.empty(0)
        return np.concatenate(found), np.concatenate(logs)

    def repair(self, start, guesses, blacks, commons, steps, rng) -> tuple[np.ndarray, int]:
        """(code, energy) from the focused search started at ``start``: energy 0 is a consistent
        code. Under ``--time-limit``, in pieces of :data:`REPAIR_PER_LOOK` steps while time is left
        (one piece at least)."""
        from ..kernels.sample import repair
        rules = self.rules
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        while True:
            piece = steps if deadline is None else min(steps, REPAIR_PER_LOOK)
            start, energy = repair(start, guesses, blacks, commons, rules.colors, rules.repeat_limit, piece,
                                   REPAIR_NOISE, int(rng.integers(2**31)))
            steps -= piece
            if energy == 0 or steps <= 0 or deadline is None or time.monotonic() >= deadline:
                return start, energy

    def walk(self, start, guesses, blacks, commons, rng) -> tuple[np.ndarray, np.ndarray]:
        """Up to ``k`` consistent codes from a Metropolis walk started at ``start``, and the
        code of least energy it met (consistent or nearest to it)."""
        from ..kernels.sample import metropolis
        rules = self.rules

        def run(x, want, steps, beta, seed):
            return metropolis(x, guesses, blacks, commons, rules.colors, rules.repeat_limit, want, THIN, steps, beta,
                              seed)
        return self._walk(start, run, rng)

    def _walk(self, start, run, rng) -> tuple[np.ndarray, np.ndarray]:
        """The walk of ``run(start, want, steps, beta, seed)`` (a Metropolis kernel): at once, or under
        ``--time-limit`` in pieces while time is left."""
        rules, k = self.rules, self.k
        steps, beta = max(STEPS_PER_CODE * k, MIN_WALK_STEPS), 2.0
        if self.time_limit is None:
            codes, _, _, nearest = run(start, k, steps, beta, int(rng.integers(2**31)))
            return codes, nearest
        # Under a time limit: the same walk in pieces, each going on from the last one's last
        # consistent code, else from its nearest miss.
        deadline = time.monotonic() + self.time_limit
        found: list[np.ndarray] = []
        have, x = 0, start
        while steps > 0 and have < k and time.monotonic() < deadline:
            piece = min(steps, STEPS_PER_LOOK)
            codes, taken, beta, x = run(x, k - have, piece, beta, int(rng.integers(2**31)))
            steps -= taken
            if len(codes):
                found.append(codes)
                have += len(codes)
                x = codes[-1]
        return (np.concatenate(found) if found else np.empty((0, rules.pegs), np.int64)), x

    # -- sampling under the black and positional rules -----------------------------------------
    def sample_rule(self, session, rng: np.random.Generator) -> tuple[np.ndarray | None, bool]:
        """:meth:`sample` under another rule than the standard one.

        The standard sampler's colour-count vectors come from black + white, which the black-peg rule
        does not tell and positional marks do not reduce to, and its walk and repair update black and
        common counts peg by peg: neither holds here. So a space of at most :data:`LIST_SPACE` codes
        is listed and filtered by the rule (the consistent set, exactly: the whole of it when it has at
        most :data:`EXACT_CODES` codes, marked exact, else ``k`` of it drawn uniformly); a larger one is
        walked with the rule's own distance to consistency
        (:func:`~mm_logic.kernels.rule_sample.rule_metropolis`), and the engine is asked (``near()``) only
        when the walk meets no consistent code.
        """
        from ..kernels.rule_sample import rule_distance, rule_metropolis
        rules, k = self.rules, self.k
        if not session.history:
            return self.uniform(rng), False
        history = tuple(session.history)
        if rules.size <= LIST_SPACE:
            alive = self.listed(history)
            if not alive.size:
                return None, False
            exact = alive.size <= EXACT_CODES
            self.last = {"source": "exact" if exact else "listing", "codes": int(min(alive.size, k))}
            if alive.size > k:
                alive = alive[np.sort(rng.choice(alive.size, k, replace=False))]
            return self._keep(history, code_space(rules).codes[alive].astype(np.int64)), exact
        guesses = np.asarray([g for g, _ in history], dtype=np.int64)
        told = np.asarray([fb for _, fb in history], dtype=np.int64)

        def run(x, want, steps, beta, seed):
            return rule_metropolis(x, guesses, told, rules.colors, rules.repeat_limit, want, THIN, steps, beta, seed,
                                   self._rule)
        before, pool = self._pool
        if pool is not None and len(history) == len(before) + 1 and history[:-1] == before:
            # The previous sample's code nearest to consistent with the new entry.
            start = pool[int(np.argmin(rule_distance(pool, guesses[-1:], told[-1:], rules.colors, self._rule)))].copy()
        else:
            start = np.asarray(random_code(rules, rng), dtype=np.int64)
        codes, nearest = self._walk(start, run, rng)
        how = "walk"
        if not len(codes):
            found = session.near(nearest)
            if found is None:
                return None, False
            how = "engine"
            found = np.asarray(found, dtype=np.int64)
            codes, _ = self._walk(found, run, rng)
            codes = codes if len(codes) else found[None, :]
        self.last = {"source": "walk", "codes": len(codes), "start": how}
        return self._keep(history, codes), False

    def listed(self, history: tuple) -> np.ndarray:
        """The indices of the codes consistent with ``history`` in the code space, filtered from those of
        the history before it when this strategy listed that one (a game's guesses, one after the other)."""
        before, alive = self._listed
        space = code_space(self.rules)
        if alive is not None and len(history) == len(before) + 1 and history[:-1] == before:
            alive = space.keep(alive, history[-1])
        else:
            alive = space.consistent(history)
        self._listed = (history, alive)
        return alive


def history_arrays(history) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The guesses (rows), their black counts and their shared colours (black + white) of a
    history, as the kernels take them."""
    guesses = np.asarray([g for g, _ in history], dtype=np.int64)
    blacks = np.asarray([b for _, (b, _w) in history], dtype=np.int64)
    commons = np.asarray([b + w for _, (b, w) in history], dtype=np.int64)
    return guesses, blacks, commons


def is_sample_name(name) -> bool:
    """Whether ``name`` is of the form ``sample-entropy:K`` (K not checked)."""
    return str(name).startswith(SampleEntropy.name + ":")


def checked_size(k) -> int:
    """``k`` if it is a sample size (1 <= k <= :data:`MAX_SAMPLE_SIZE`); else :class:`BadInput`
    (one line), which shows ``k`` as it was written."""
    text = str(k)
    # ASCII digits only (int() refuses '²', which isdigit() takes), and few of them: int() refuses
    # more than 4,300 digits, and a long K is quoted by its start.
    if not (text.isascii() and text.isdigit() and len(text) <= 9 and 1 <= int(text) <= MAX_SAMPLE_SIZE):
        raise BadInput(f"sample-entropy:K needs a whole number 1 <= K <= {MAX_SAMPLE_SIZE:,}, got {shown(text)}")
    return int(text)


def sample_size(name: str) -> int:
    """K of a ``sample-entropy:K`` name (:data:`SAMPLE_SIZE` for ``sample-entropy``), checked."""
    _, colon, k = name.partition(":")
    return checked_size(k) if colon else SAMPLE_SIZE


def exact_set(guesses: np.ndarray, blacks: np.ndarray, vectors: np.ndarray, rules,
              share: int = 1) -> np.ndarray | None:
    """Every code with colour counts among ``vectors`` that gets ``blacks`` from ``guesses``
    (rows), or None when there are more than :data:`EXACT_CODES` of them, or an empty array
    when the search found none within its work (:data:`EXACT_WORK` / ``share``)."""
    from ..kernels.sample import codes_with_counts
    out = np.empty((EXACT_CODES, rules.pegs), np.int64)
    nodes = EXACT_WORK // (share * len(guesses) * rules.colors)
    got, complete = codes_with_counts(guesses, blacks, vectors, rules.colors, out, nodes)
    return out[:got] if complete or not got else None
