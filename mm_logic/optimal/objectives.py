"""Optimal strategies by exact search (``mmlogic optimal``).

The *expected* objective minimises the total number of guesses over every
secret (the mean times the number of codes), optionally with every game
finished within ``max_depth`` guesses; the *worst* objective minimises the
largest number of guesses first, then the total among the strategies that
reach it (Koyama and Lai's 5,626 on 4x6, where the least total, 5,625, needs
six guesses once).

The search is exact. The openings tried are one per class of codes that
the game's colour and position symmetry tell apart (:func:`mm_logic.symmetry.canonical_openings`;
only the symmetries the rule declares or its feedback table shows, :func:`mm_logic.symmetry.game_symmetry`:
0000 0001 0011 0012 0123 for 4x6; under black pegs with repetition, where a
colour may be renamed on one peg alone, every code is like 0000, the only
opening: :func:`mm_logic.optimal.searcher.per_peg_symmetry`); each splits the codes into parts, and
each part is searched by the compiled branch and bound of
:mod:`mm_logic.kernels.optimal.search`, which proves its cost, or that it cannot
let its opening beat the best one found. What the search proves is kept:
every opening with its exact cost or a lower bound no smaller than the
optimum (:attr:`mm_logic.optimal.result.OptimalResult.openings`), so the result says why it is
optimal.

The openings' parts are independent problems: with ``jobs > 1`` they are
searched in worker processes, or on a Dask cluster's workers
(:mod:`mm_logic.optimal.workers`), the most promising opening's first
(its cost is the budget the others must beat), then the others', each against
the best cost so far (each worker keeps its own transposition table). One
process's search, its bounds and the memory its tables take are
:mod:`mm_logic.optimal.searcher`; what a search settles is kept for
resuming by :mod:`mm_logic.optimal.journal`.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..notation import format_code, shown
from ..rules import Rules
from ..strategies.tree import TreeNode
from ..studies.written_game import encoding_secrets
from ..support.errors import BadInput
from ..support.memory import peak_memory
from ..support.processes import worker_count
from ..symmetry import NO_SYMMETRY, game_symmetry
from .journal import Journal
from .result import OpeningBound, OptimalResult, StoppedSearch
from .searcher import Searcher, Tick, capacity, compile_kernels, table_bits
from .tasks import Opening, openings, smallest_first
from .workers import DaskWorkers, Plan, Workers

OBJECTIVES = ("expected", "worst", "worst-case")
#: Called a few times a second with a one-line status of the search.
Progress = Callable[[str], None]


def optimal(rules: Rules, objective: str = "expected", max_depth: int | None = None, jobs: int = 1,
            progress: Progress | None = None, on_compile: Callable[[], None] | None = None,
            consistent_only: bool = False, memory: int | None = None, journal: Path | None = None,
            client=None, split_above: int | None = None, symmetric: bool = True,
            encoding: Path | None = None) -> OptimalResult:
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
        clock start (:func:`~mm_logic.optimal.searcher.compile_kernels`).
    consistent_only:
        Hard mode: every guess must be consistent with the answers so far (the strategies
        among which the optimum is sought).
    memory:
        Bytes the search may take in all (its processes' tables,
        :func:`~mm_logic.optimal.searcher.table_bits`); None: the sizes it picks, within
        :data:`~mm_logic.optimal.searcher.DEFAULT_SHARE` of the memory available.
    journal:
        A file where each part of an opening searched is kept as it is settled, and from which a
        search of the same game resumes (:mod:`mm_logic.optimal.journal`).
    client:
        A ``distributed.Client``: the openings' parts are searched as tasks on its cluster's
        workers (``jobs`` is then ignored; ``memory`` is what each worker thread's search may take).
    split_above:
        With workers: a part of an opening of more than this many codes is searched as one task per guess
        at it (:mod:`mm_logic.optimal.tasks`), so that the workers share a large part. None: the
        automatic threshold, :func:`split_threshold`. Ignored in one process.
    symmetric:
        Take the game's symmetries (:func:`mm_logic.symmetry.game_symmetry`: those its rule declares, or its
        feedback table shows) for the same; False: none (``--no-symmetry``), slower, the same optimum.
    encoding:
        An edited encoding (``.lp`` or ``.pl``) whose codes are the secrets, listed by its own engine, while
        every code of the rules may be a guess (:mod:`mm_logic.studies.written_game`); a rule stated in an
        encoding that narrows the code space (``--feedback FILE.lp``) narrows the secrets too.

    Returns
    -------
    OptimalResult or StoppedSearch
        The strategy as a tree (:attr:`~mm_logic.optimal.result.OptimalResult.tree`), its histogram
        over every secret, and what the search proved; or, stopped once the search began (Ctrl-C, SIGTERM: a
        ``KeyboardInterrupt``), what it had proved by then and the journal it resumes from
        (:class:`~mm_logic.optimal.result.StoppedSearch`). A stop while the kernels compile is raised.

    Raises
    ------
    BadInput
        A space whose tables do not fit in ``memory``, an unknown objective, ``max_depth`` with the
        worst objective, or a depth within which no strategy finishes.
    """
    if objective not in OBJECTIVES:
        raise BadInput(f"unknown objective {shown(objective)}; choose from {', '.join(OBJECTIVES)}")
    if max_depth is not None and objective != "expected":
        raise BadInput(f"--max-depth applies to --objective expected (--objective {objective} minimises the depth "
                       "itself)")
    if max_depth is not None and max_depth < 1:
        raise BadInput(f"--max-depth must be at least 1, got {max_depth}")
    jobs = worker_count(jobs) if client is None else 1
    # The driver holds a searcher too (the openings, the tree): jobs + 1 processes with workers. A cluster's
    # workers have their machines' memory: the bound is each worker thread's, as for one process here.
    bits = table_bits(rules, jobs + 1 if jobs > 1 else 1, memory)
    if progress is not None and encoding is not None:
        progress(f"listing the codes of {encoding}")
    secrets = encoding_secrets(rules, encoding)
    # Read (and held) before anything slow: another search's journal, a damaged one or one in use is refused
    # before the kernels compile.
    kept = Journal(journal, rules, consistent_only, secrets) if journal is not None else None
    workers: Workers | None = None
    known: _Stopped | None = None
    try:
        symmetry = game_symmetry(rules, secrets) if symmetric else NO_SYMMETRY
        compile_kernels(on_compile, worst=objective != "expected", rules=rules, symmetry=symmetry)
        started = time.perf_counter()
        # A limit of at least every code cannot bind: an optimal strategy's guesses each shrink the set (a
        # guess that splits nothing only adds one), so no game is longer. Searching without it spares
        # tables of (limit + 1) x codes: --max-depth 2147483648 asked for 448 GiB.
        limit = max_depth if max_depth is not None and max_depth < rules.size else None
        # The first searcher before the workers, which take their time to start: a stop meanwhile finds the
        # search's own bounds. Handed over in a list: this frame keeps no reference to it, so that the worst
        # objective's second search frees its table before making its own (_searched).
        first = [Searcher(rules, limit, consistent_only, bits, symmetry, secrets)]
        known = _known_before(first[0], objective, limit)  # what a stop from here on has proved at least
        if client is not None:
            workers = DaskWorkers(client)
            jobs = workers.jobs
        elif jobs > 1:
            workers = Workers(jobs)
        split = None if workers is None else (split_threshold(rules.size, workers.jobs) if split_above is None
                                              else split_above)
        setup = _Setup(rules, consistent_only, bits, symmetry, secrets, kept, progress, workers, split)
        found = _searched(setup, objective, limit, max_depth, first)
    except (_Stopped, KeyboardInterrupt) as stopped:
        if workers is not None:
            workers.close(interrupted=True)
        if isinstance(stopped, KeyboardInterrupt):
            if known is None:
                raise  # the kernels were compiling: nothing searched
            stopped = known  # before the objective's search said what it proved (the workers starting)
        return StoppedSearch(rules, objective, stopped.lower, stopped.best, stopped.impossible, journal,
                             time.perf_counter() - started)
    except BaseException:
        if workers is not None:
            workers.close(interrupted=True)
        raise
    finally:
        if kept is not None:
            kept.close()
    if workers is not None:
        workers.close(interrupted=False)
    peak, children = peak_memory()
    return OptimalResult(
        rules, found.objective, found.max_depth, found.tree, found.histogram, found.openings,
        impossible_depth=found.impossible, seconds=time.perf_counter() - started,
        positions=found.positions + (workers.positions if workers is not None else 0), jobs=jobs,
        consistent_only=consistent_only, table_entries=1 << bits, peak_memory=peak,
        # The search's worker processes only: a first run's build of the kernels is a child process too.
        worker_memory=children if workers is not None else 0,
        **({"journal": journal, "journal_read": kept.read, "journal_written": kept.written} if kept else {}),
        encoding=encoding,
        **({"split_above": split, "split_parts": workers.split_parts, "guess_tasks": workers.guess_tasks}
           if workers is not None else {}))


@dataclass(frozen=True)
class _Setup:
    """What every search of one :func:`optimal` shares: the game, hard mode, the size of the tables, the
    symmetries, the secrets, the journal (None: none), the progress, and the workers with their threshold of
    parts split guess by guess (None: one process)."""

    rules: Rules
    consistent_only: bool
    bits: int
    symmetry: object
    secrets: object
    journal: Journal | None
    progress: Progress | None
    workers: Workers | None
    split_above: int | None

    def run(self, max_depth: int | None, said: Callable[[str], str] | None = None,
            searcher: Searcher | None = None) -> _Run:
        """A search of the games within ``max_depth`` guesses (None: no limit): ``searcher``, or a searcher of its
        own (its tables made now), and the progress lines wrapped by ``said``."""
        if searcher is None:
            searcher = Searcher(self.rules, max_depth, self.consistent_only, self.bits, self.symmetry, self.secrets)
        plan = None if self.workers is None else Plan(self.rules, max_depth, searcher, self.consistent_only,
                                                      self.bits, self.symmetry, self.journal, self.split_above,
                                                      self.progress)
        run = _Run(searcher, self.journal, self.progress, self.workers, plan)
        return run if said is None else _said(run, said)


@dataclass(frozen=True)
class _Run:
    """One search: the driver's searcher, the journal (None: none), the progress, and, with workers, the workers
    and the plan of their search (:class:`~mm_logic.optimal.workers.Plan`)."""

    searcher: Searcher
    journal: Journal | None
    progress: Progress | None
    workers: Workers | None = None
    plan: Plan | None = None


def _said(run: _Run, said: Callable[[str], str]) -> _Run:
    """``run`` with its progress lines wrapped by ``said`` (``worst case 6; least total: ...``)."""
    if run.progress is None:
        return run
    report = run.progress

    def progress(text: str) -> None:
        report(said(text))

    return replace(run, progress=progress, plan=None if run.plan is None else replace(run.plan, progress=progress))


@dataclass(frozen=True)
class _Found:
    """What an objective's search found: the strategy, its histogram and what was proved, and the positions the
    driver's searchers took (the workers count theirs)."""

    objective: str
    max_depth: int | None
    tree: TreeNode
    histogram: Counter
    openings: list[OpeningBound]
    impossible: int | None = None
    positions: int = 0


class _Stopped(Exception):
    """A search stopped (Ctrl-C, SIGTERM) with what it proved: the least total any strategy can have and the best
    found (expected objectives), the most guesses within which no strategy finishes (worst objectives)."""

    def __init__(self, lower: int | None = None, best: int | None = None, impossible: int | None = None):
        super().__init__("stopped")
        self.lower, self.best, self.impossible = lower, best, impossible


def _known_before(searcher: Searcher, objective: str, limit: int | None) -> _Stopped:
    """What is proved before any search: no strategy takes fewer guesses in all than the codes' perfect-split
    bound, and none finds every code within fewer guesses than tell so many codes apart."""
    if objective == "expected":
        return _Stopped(int(searcher.bounds[0 if limit is None else limit - 1][searcher.root.size]))
    depth = 1
    while capacity(depth, searcher.classes) < searcher.root.size:
        depth += 1
    return _Stopped(impossible=depth - 1)


def _searched(setup: _Setup, objective: str, limit: int | None, max_depth: int | None, first: list[Searcher]
              ) -> _Found:
    """The objective's search (:func:`optimal`): ``limit``, the depth searched within (``max_depth`` where it can
    bind); ``first``, the first search's searcher, taken out of the list."""
    run = setup.run(limit, searcher=first.pop())
    if objective == "worst-case":
        depth, opening = _least_worst_case(run)
        tree, histogram = _within(run.searcher, opening, depth)
        return _Found("worst-case", None, tree, histogram, [], depth - 1, run.searcher.positions)
    if objective == "expected":
        return replace(_expected(run, limit), max_depth=max_depth, positions=run.searcher.positions)
    depth, _ = _least_worst_case(run)
    positions = run.searcher.positions
    # Then the cheapest strategy within that depth. The least total overall is that strategy when it keeps within
    # the depth (bulls and cows: 26,274 within 7); only otherwise (4x6) is the search done again depth-limited,
    # which is slower where the limit prunes little, as it stores each set once per depth it is met at (bulls
    # and cows within 7: 31 minutes, against 9 without the limit, the two run side by side on 2 cores).
    try:
        run = _said(run, lambda text: f"worst case {depth}; least total: {text}")
        found = _expected(run, None)
        positions = run.searcher.positions
        if max(found.histogram) > depth:
            run = None  # the first searcher's table of solved sets goes before the next one's is made
            run = setup.run(depth, lambda text: f"worst case {depth}; least total: {text}")
            found = _expected(run, depth)
            positions += run.searcher.positions
    except _Stopped as stopped:
        raise _Stopped(stopped.lower, stopped.best, depth - 1) from None
    return replace(found, objective="worst", max_depth=None, impossible=depth - 1, positions=positions)


#: The automatic ``--split-above``: with workers, a part of more than this share of the codes is searched
#: guess by guess.
SPLIT_SHARE = 0.1


def split_threshold(size: int, jobs: int) -> int | None:
    """The automatic ``--split-above`` for a space of ``size`` codes and ``jobs`` workers: parts of more than a
    tenth of the codes (:data:`SPLIT_SHARE`) are split; None (no part) in one process.

    A part's search is one worker's: where one part holds a fifth of the codes (5x8's best opening leaves one
    of 7,051 of 32,768; bulls and cows' 1,440 of 5,040) it takes most of the time and the other workers
    wait for it. A tenth splits those few and leaves the many small parts whole, each still one task
    (splitting a small part costs a task per guess for little work each).
    """
    return None if jobs <= 1 else max(2, int(size * SPLIT_SHARE))


def _follow(progress: Progress | None, searcher: Searcher, head: str, tail: str = "") -> Tick | None:
    """What reports the searcher's ticks to ``progress`` with ``head`` (where the driver is) in front, ``tail``
    after (None: no progress)."""
    if progress is None:
        return None
    k = searcher.k

    def tick(control: np.ndarray) -> None:
        tried = f", guess {control[k.TRIED]}" if control[k.TRIED] else ""
        nodes = int(control[k.NODES])
        progress(f"{head}{tried}, {nodes:,} position{'' if nodes == 1 else 's'}{tail}")

    return tick


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

    play(tree, searcher.root, 1)
    return tree, histogram


# -- the expected objective ----------------------------------------------------------------------
def _expected(run: _Run, depth: int | None) -> _Found:
    """The least total within ``depth`` guesses (None: no limit), and what was proved of every opening."""
    searcher = run.searcher
    inf = searcher.k.INF
    candidates = openings(searcher, depth)
    if run.workers is None:
        best, winner, proved, subtrees = _expected_here(run, candidates, depth)
    else:
        best, winner, proved, subtrees = _expected_workers(run, candidates, depth)
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
    return _Found("expected", depth, tree, histogram, bounds)


def _expected_here(run: _Run, candidates: list[Opening], depth: int | None):
    """Branch and bound over the openings in this process: each part's budget is what is left of the best's.

    Once a best cost is known, an opening's parts are searched smallest first
    (:func:`~mm_logic.optimal.tasks.smallest_first`). Stopped (Ctrl-C), :class:`_Stopped` with what was proved.
    """
    searcher = run.searcher
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
            numbered = list(enumerate(opening.parts, 1))
            for count, (fb, part) in numbered if best >= inf else smallest_first(numbered):
                if cost >= best:
                    break
                if part.size <= 2:
                    continue  # its bound is its cost
                label = _label(searcher, opening, number, len(candidates), count, part.size)
                tick = _follow(run.progress, searcher, label,
                               f"; total at least {min(lows.values()):,}, best {_shown(best)}")
                floor = int(row[part.size])
                budget = best - (cost - floor)
                value, tree = _settled_cost(run, opening, fb, part, below, budget, tick)
                if tree is not None:
                    trees[fb] = tree
                cost += value - floor
                lows[opening.index] = cost
            # Below the best: every part met its budget, the cost is exact; else it is a bound.
            exact = cost < best
            if exact:
                best, winner = cost, opening
            proved[opening.index] = (cost, exact)
    except KeyboardInterrupt:
        raise _Stopped(min(lows.values()), None if best >= inf else best) from None
    return best, winner, proved, subtrees[winner.index]


def _settled_cost(run: _Run, opening: Opening, fb: int, part: np.ndarray, depth: int | None, budget: int,
                  tick: Tick | None) -> tuple[int, TreeNode | None]:
    """A part's cost below ``budget`` (or a bound at least ``budget``), from the journal or searched, and its
    subtree when the journal gave it or keeps it (None: the tree is rebuilt from the transposition table)."""
    searcher, journal = run.searcher, run.journal
    if journal is None:
        return searcher.cost(part, [opening.index], depth, budget, on_tick=tick), None
    code, feedback = searcher.part_name(opening.index, fb)
    known = journal.cost(code, feedback, depth, budget)
    if known is not None:
        return known
    before, started = searcher.positions, searcher.cpu_seconds
    value = searcher.cost(part, [opening.index], depth, budget, on_tick=tick)
    tree = searcher.subtree(part, [opening.index], depth) if value < budget else None
    journal.record_cost(code, feedback, depth, budget, value, tree,
                        effort=(searcher.positions - before, searcher.cpu_seconds - started))
    return value, tree


def _expected_workers(run: _Run, candidates: list[Opening], depth: int | None):
    """The openings' parts in worker processes: the most promising opening's exactly, then the others'
    against the best cost so far (an opening's remaining parts are dropped once its sum reaches it).

    An opening settled below the best becomes the best at once, so the openings still searched get its
    tighter budgets; one before it in search order needs only to tie it, which keeps the winner the
    first of the least cost, as in one process, whatever order the workers finish in.
    """
    searcher, workers = run.searcher, run.workers
    inf = searcher.k.INF
    below = None if depth is None else depth - 1
    row = searcher.bounds[0 if depth is None else depth - 1]
    order = {o.index: number for number, o in enumerate(candidates)}
    cost = {o.index: o.bound for o in candidates}
    subtrees: dict[int, dict[int, TreeNode]] = {o.index: {} for o in candidates}
    # The parts each opening searches (those of one or two codes cost their bound): all settled, it is complete.
    searched = {o.index: sum(p.size > 2 for _, p in o.parts) for o in candidates}
    dead: set[int] = set()
    state = {"best": inf, "winner": candidates[0]}

    def target(opening: Opening) -> int:
        # The least cost the opening must stay under to win: one more than the best's if it comes first.
        return state["best"] + (order[opening.index] < order[state["winner"].index])

    def budget(task) -> int:
        # What is left of the target once the opening's other parts are counted: the costs (or bounds) of
        # those settled so far, the others' floors.
        opening, _, part = task
        floor = int(row[part.size])
        return inf if state["best"] >= inf else target(opening) - (cost[opening.index] - floor)

    def skip(task) -> bool:
        return task[0].index in dead or cost[task[0].index] >= target(task[0])

    def complete(opening: Opening) -> bool:
        # Every part met its budget, so the cost is exact (an opening searched whole, then beaten, keeps it:
        # 5x7's 00123 costs 85,828, as one process says).
        return opening.index not in dead and len(subtrees[opening.index]) == searched[opening.index]

    def consider(opening: Opening) -> None:
        if complete(opening) and cost[opening.index] < target(opening):
            state["best"], state["winner"] = cost[opening.index], opening

    def done(task, value: int, tree: TreeNode | None, limit: int) -> None:
        opening, fb, part = task
        cost[opening.index] += value - int(row[part.size])
        if tree is not None:
            subtrees[opening.index][fb] = tree
        if value >= limit:
            dead.add(opening.index)
        consider(opening)

    waves = [candidates[:1], candidates[1:]]
    try:
        for wave in waves:
            tasks = [(o, fb, part) for o in wave if o.bound < target(o)
                     for fb, part in (o.parts if wave is waves[0] else smallest_first(o.parts)) if part.size > 2]
            workers.run(run.plan, tasks, skip, budget, done, below,
                        status=lambda: f"best so far {_shown(state['best'])}")
            for opening in wave:
                consider(opening)  # an opening whose parts are all of two codes or fewer has no task
    except KeyboardInterrupt:
        # As in one process: each opening's bound, raised by its parts settled so far; the least is proved.
        raise _Stopped(min(cost.values()), None if state["best"] >= inf else state["best"]) from None
    best, winner = state["best"], state["winner"]
    proved = {o.index: (cost[o.index], True) if complete(o) else (max(cost[o.index], best), False)
              for o in candidates}
    return best, winner, proved, subtrees[winner.index]


def _shown(cost: int) -> str:
    return "?" if cost >= 1 << 30 else str(cost)


# -- the worst objective ------------------------------------------------------------------------
def _least_worst_case(run: _Run) -> tuple[int, Opening]:
    """The least depth within which some opening leaves parts that can all be solved, and the first such opening.
    Stopped (Ctrl-C), :class:`_Stopped` with the depth proved impossible so far."""
    searcher = run.searcher
    depth = 1
    while capacity(depth, searcher.classes) < searcher.root.size:
        depth += 1  # fewer guesses cannot tell every code apart
    candidates = openings(searcher, None)
    try:
        while (found := _some_within(run, candidates, depth)) is None:
            depth += 1
    except KeyboardInterrupt:
        raise _Stopped(impossible=depth - 1) from None
    return depth, found


def _within(searcher: Searcher, opening: Opening, depth: int) -> tuple[TreeNode, Counter]:
    """``--objective worst-case``: the strategy the feasibility search found within ``depth`` guesses, and its
    histogram."""
    subtrees = {fb: searcher.within_tree(part, [opening.index], depth - 1) for fb, part in opening.parts}
    return _result(searcher, opening, subtrees, depth - 1)


def _some_within(run: _Run, candidates: list[Opening], depth: int) -> Opening | None:
    """The first opening that leaves parts that can each be solved within ``depth - 1`` guesses, if any."""
    searcher = run.searcher
    fits = capacity(depth - 1, searcher.classes)
    for number, opening in enumerate(candidates, 1):
        if any(p.size > fits for _, p in opening.parts):
            continue
        parts = [(fb, part) for fb, part in opening.parts if part.size > 1]
        if run.workers is None:
            solved = True
            for count, (fb, part) in enumerate(parts, 1):
                tick = _follow(run.progress, searcher, f"within {depth} guesses: "
                               + _label(searcher, opening, number, len(candidates), count, part.size))
                if not _settled_within(run, opening, fb, part, depth - 1, tick):
                    solved = False
                    break
        else:
            solved = _all_solvable(run, opening, parts, depth - 1,
                                   f"within {depth} guesses, opening {number} of {len(candidates)}")
        if solved:
            return opening
    return None


def _settled_within(run: _Run, opening: Opening, fb: int, part: np.ndarray, depth: int, tick: Tick | None) -> bool:
    """Whether a part can be solved within ``depth`` guesses, from the journal or searched."""
    searcher, journal = run.searcher, run.journal
    if journal is None:
        return searcher.can_solve(part, [opening.index], depth, on_tick=tick)
    code, feedback = searcher.part_name(opening.index, fb)
    known = journal.solvable(code, feedback, depth)
    if known is None:
        before, started = searcher.positions, searcher.cpu_seconds
        known = searcher.can_solve(part, [opening.index], depth, on_tick=tick)
        journal.record_solvable(code, feedback, depth, known,
                                effort=(searcher.positions - before, searcher.cpu_seconds - started))
    return known


def _all_solvable(run: _Run, opening: Opening, parts: list, depth: int, where: str) -> bool:
    """In the workers: whether every part can be solved within ``depth`` guesses (stops at the first that cannot)."""
    failed: list = []

    def done(task, value, tree, limit) -> None:
        if not value:
            failed.append(task)

    run.workers.run(run.plan, [(opening, fb, part) for fb, part in parts], lambda task: bool(failed),
                    lambda task: 0, done, depth, worst=True, status=lambda: where)
    return not failed
