"""Benches: many games of one (rules, engine, strategy), and their summary.

Secrets come from :mod:`mm_logic.secret_codes` (random, evenly spaced, or the
whole code space). Work is cut into tasks that do not depend on each other:

* a :class:`GamesTask` plays one game per secret (:func:`play_games`);
* a :class:`TreeTask` plays every secret consistent with a history as one
  tree (:func:`play_tree`): for a strategy whose guess depends on the history
  alone, splitting the secrets by the feedback each gives the node's guess
  yields exactly the attempts of playing each game, at a fraction of the cost.
  Asked to, it records the guesses as a :class:`~mm_logic.strategies.tree.TreeNode`
  (``bench --all --save-tree FILE``).

Tasks run in this process or, with ``jobs > 1``, in worker processes; a
worker rebuilds the engine and strategy from their :class:`~mm_logic.player.Player` (solvers
embedded in a process cannot be sent to another), so the attempts are the
same whatever the number of jobs.

A game the strategy cannot finish (:class:`~mm_logic.support.errors.StrategyGaveUp`: a genetic
strategy's time limit) is counted as failed, not fatal: the figures are over the games won,
with the failures beside (seed 001 reports failure rates). An engine's error stays fatal.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import time
from collections import Counter
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from ..codespace import code_space
from ..engines.base import Engine
from ..feedback import rule_of
from ..game import EngineDisagreement, Game, GameRecord, NoProgress, attempts_limit, play
from ..histogram import Histogram, figure, format_histogram
from ..lies import Liar
from ..notation import Code, Entry, format_entry
from ..player import Player
from ..rules import Rules
from ..secret_codes import check_every_secret, secret_indices
from ..strategies import parse_strategy
from ..strategies.base import PlayedTree, Strategy
from ..strategies.tree import StrategyTree, TreeNode, played_root
from ..support.errors import BadInput, MMLogicError, StrategyGaveUp
from ..support.processes import portable, start_pool, start_worker, worker_count
from .statistics import summarize

#: Called with the number of games just finished (a progress bar's ``update``).
Progress = Callable[[int], None]
#: A bench's codemaker (the side that answers its guesses), as the game played against it:
#: ``codemaker(engine, strategy, secret)``, the game's record. The default plays against the secret here
#: (:func:`mm_logic.game.play`); a front end may hand another, e.g. a server's codemaker that keeps the secret
#: (:class:`mm_logic.client.RemoteCodemaker`). With ``jobs > 1`` it is sent to the workers: a module-level
#: function or a picklable object.
Codemaker = Callable[[Engine, Strategy, Code], GameRecord]


@dataclass(frozen=True)
class LyingCodemaker:
    """A bench's codemaker that uses its lies (``bench --liar``, :class:`mm_logic.lies.Liar`)."""

    liar: Liar

    def __call__(self, engine: Engine, strategy: Strategy, secret: Code) -> GameRecord:
        return play(engine, strategy, secret, liar=self.liar)


# -- results -------------------------------------------------------------------------
@dataclass
class BenchResult:
    """Attempts over many games: one ``(secret, attempts)`` pair per game won, one ``(secret, why)`` per
    game failed (the strategy gave up: :class:`~mm_logic.support.errors.StrategyGaveUp`)."""

    rules: Rules
    backend: str
    strategy: str
    games_played: list[tuple[Code, int]] = field(default_factory=list)
    seconds: float = 0.0
    #: Search effort summed over the games, for engines that count it (seed 001's
    #: A1-A5: ``{"nodes": ..., "checks": ...}``); None for the others.
    search: dict[str, int] | None = None
    #: The guesses played, when the bench recorded them (``record_tree``): the tree below the
    #: history ``tree_at`` (empty: the whole strategy tree).
    tree: TreeNode | None = None
    tree_at: tuple[Entry, ...] = ()
    #: The games the strategy gave up: ``(secret, its message)``; not in ``games_played``.
    failed: list[tuple[Code, str]] = field(default_factory=list)

    @property
    def histogram(self) -> Counter:
        """Guesses -> games won."""
        return Counter(attempts for _, attempts in self.games_played)

    @property
    def won_figures(self) -> Histogram:
        """The figures of the games won (:class:`~mm_logic.histogram.Histogram`): a game failed took no number of
        guesses, so the bench's figures beside its games (won or failed) are these."""
        return Histogram(self.histogram)

    def by_secret(self) -> dict[Code, int]:
        """Attempts per secret won (a secret drawn twice was played alike twice)."""
        return dict(self.games_played)

    @property
    def games(self) -> int:
        """Games played, won or failed."""
        return len(self.games_played) + len(self.failed)

    @property
    def won(self) -> int:
        """Games won (the mean, the histogram and the statistics are over these)."""
        return len(self.games_played)

    @property
    def total_guesses(self) -> int:
        """The guesses of the games won, summed (``bench --json``'s ``total_guesses``)."""
        return self.won_figures.total

    @property
    def mean(self) -> float:
        """The mean of the games won; 0 without one (a chart's empty bar: the figures and the text have none)."""
        return self.won_figures.mean

    @property
    def max(self) -> int:
        """The most guesses of a game won (``bench --json``'s ``max``); 0 without one, as :attr:`mean`."""
        return self.won_figures.worst

    @property
    def ms_per_game(self) -> float:
        return 1000 * self.seconds / max(self.games, 1)

    def merge(self, other: BenchResult) -> None:
        """Add another part's games (a worker's task, or a later batch), and graft its subtree."""
        self.games_played.extend(other.games_played)
        self.failed.extend(other.failed)
        if other.search is not None:
            mine = self.search or {}
            self.search = {k: mine.get(k, 0) + n for k, n in other.search.items()}
        if other.tree is not None:
            self._graft(other.tree_at, other.tree)

    def _graft(self, at: tuple[Entry, ...], node: TreeNode) -> None:
        """Hang the subtree played after the history ``at`` under this result's tree."""
        if self.tree is None:
            self.tree, self.tree_at = node, at
            return
        below = at[len(self.tree_at):]
        if at[: len(self.tree_at)] != self.tree_at or not below:
            raise ValueError("a subtree is grafted below the tree it belongs to")
        parent = self.tree
        for _, fb in below[:-1]:
            parent = parent.children[fb]
        parent.children[below[-1][1]] = node

    def strategy_tree(self, strategy: Strategy, variant: dict | None = None) -> StrategyTree:
        """The recorded tree as a :class:`StrategyTree` (``--save-tree``); ``variant``: what it was played in,
        where not the rules' own game (:func:`mm_logic.feedback.variant.variant_of`)."""
        if self.failed:
            raise MMLogicError(f"--save-tree: {strategy.name} gave up on {len(self.failed)} of {self.games} "
                               f"games, so its tree has holes; not saved ({self.failed[0][1]})")
        if self.tree is None or self.tree_at:
            raise ValueError("the bench recorded no whole tree")
        return StrategyTree(self.rules, self.tree, strategy.name, strategy.seed, self.backend, strategy.first_guess,
                            variant=variant)

    def figures(self) -> dict:
        """Games (won or failed), total, mean (over the games won), max, histogram and seconds, as the
        contract writes them."""
        return {
            **self.won_figures.histogram_figures(),
            "games": self.games,
            "seconds": round(self.seconds, 3),
            **({"search": self.search} if self.search is not None else {}),
        }

    def statistics(self) -> dict:
        """``min`` (None without a game won), ``stdev`` (sample, n - 1) and ``ci95`` (``[low, high]``, Student's
        t) of the guesses of the games won, None below two games; ``failed`` (games the strategy gave up) and
        ``failure_rate`` (of every game played)."""
        summary = summarize(self.histogram)
        return {"min": summary.min,
                "stdev": None if summary.stdev is None else round(summary.stdev, 4),
                "ci95": None if summary.ci95 is None else [round(x, 4) for x in summary.ci95],
                "failed": len(self.failed),
                "failure_rate": round(len(self.failed) / self.games, 4) if self.games else 0.0}

    def as_dict(self) -> dict:
        """The contract's ``bench --json`` object."""
        return {**self.figures(), **self.statistics(), "backend": self.backend, "strategy": self.strategy,
                "rules": self.rules.as_dict()}

    def text(self) -> str:
        """The human summary of ``bench``."""
        histogram = format_histogram(self.histogram)
        summary = summarize(self.histogram)  # over the games won: no mean, min or max (-) without one
        return (f"rules      {self.rules.describe()}\n"
                f"backend    {self.backend}\n"
                f"strategy   {self.strategy}\n"
                f"games      {self.games}\n"
                f"failed     {format_failed(len(self.failed), self.games)}\n"
                f"mean       {figure(summary.mean, '.3f')}\n"
                f"ci95       {format_interval(summary.ci95)}\n"
                f"stdev      {figure(summary.stdev, '.3f')}\n"
                f"min        {figure(summary.min)}\n"
                f"max        {figure(summary.max)}\n"
                f"histogram  {histogram}\n"
                f"seconds    {self.seconds:.3f}"
                + "".join(f"\n{k:<10} {n:,} ({n / max(self.games, 1):,.0f} per game)"
                          for k, n in (self.search or {}).items()))


def format_failed(failed: int, games: int) -> str:
    """``3 of 20 (15.0%)``: games failed of games played.

    >>> format_failed(3, 20), format_failed(0, 0)
    ('3 of 20 (15.0%)', '0 of 0 (0.0%)')
    """
    return f"{failed} of {games} ({100 * failed / games if games else 0:.1f}%)"


def format_interval(interval: tuple[float, float] | None) -> str:
    """A 95% interval of the mean in text: ``4.452 to 4.500 (+-0.024)``; ``-`` for none (below two games).

    >>> format_interval((1.03684, 4.96316)), format_interval(None)
    ('1.037 to 4.963 (+-1.963)', '-')
    """
    if interval is None:
        return "-"
    low, high = interval
    return f"{low:.3f} to {high:.3f} (+-{(high - low) / 2:.3f})"


# -- playing ---------------------------------------------------------------------------
def _empty(engine: Engine, strategy: Strategy) -> BenchResult:
    return BenchResult(engine.rules, engine.name, strategy.name)


def _effort_since(engine: Engine, before: dict[str, int] | None) -> dict[str, int] | None:
    """The engine's search effort since ``before`` (None when it does not count it)."""
    now = engine.search_stats()
    return None if now is None else {k: n - (before or {}).get(k, 0) for k, n in now.items()}


def play_games(engine: Engine, strategy: Strategy, secrets: list[Code], progress: Progress | None = None,
                codemaker: Codemaker | None = None) -> BenchResult:
    """Play one game per secret: against the secret here, or through ``codemaker`` (e.g. a server's,
    which keeps it: the strategy sees only its answers; the attempts are the same)."""
    result = _empty(engine, strategy)
    before = engine.search_stats()
    for secret in secrets:
        try:
            record = play(engine, strategy, secret) if codemaker is None else codemaker(engine, strategy, secret)
        except StrategyGaveUp as gave_up:
            result.failed.append((secret, str(gave_up)))
        else:
            result.games_played.append((secret, record.attempts))
        if progress:
            progress(1)
    result.search = _effort_since(engine, before)
    return result


def play_tree(engine: Engine, strategy: Strategy, history: list[Entry], secrets: np.ndarray,
              progress: Progress | None = None, record: bool = False) -> BenchResult:
    """Play every secret of ``secrets`` (indices into the code space), which must be
    exactly the codes consistent with ``history``, as one tree.

    The tree is walked as one game that records a guess's feedback and undoes
    it. At every node the engine's count of consistent codes must equal the
    number of secrets there: a cross-check of the engine against the feedback
    rule. With ``record`` the result's ``tree`` holds the guesses played
    below ``history`` (one small object per node: the walk costs the same).
    """
    rules = engine.rules
    space = code_space(rules)
    result = _empty(engine, strategy)
    rule = rule_of(rules)
    win = rule.win_index(rules.pegs)
    limit = attempts_limit(rules)
    # An engine whose answers are the feedback rule itself (not checked: the python engine) has nothing to
    # cross-check below a node, so a strategy that walks its own tree faster plays the subtree at once.
    # The other engines are asked at every node: a bench on them measures them.
    at_once = not engine.checked

    def add_played(below: PlayedTree) -> TreeNode | None:
        """The games of a subtree the strategy played at once, added; its root node when recording."""
        if below.too_deep:
            raise NoProgress(f"no win after {limit} guesses; the strategy is not making progress")
        codes, attempts = below.games[:, 0], below.games[:, 1]
        result.games_played.extend(zip(map(tuple, space.codes[codes].tolist()), attempts.tolist()))
        if progress:
            progress(codes.size)
        return played_root(below, rules) if record else None

    def visit(game: Game, secrets: np.ndarray, depth: int) -> TreeNode | None:
        if game.history:
            found = game.remaining()
            if found != secrets.size:
                played = " ".join(format_entry(entry, rules) for entry in game.history)
                raise EngineDisagreement(
                    f"the {engine.name} engine counts {found} consistent codes after {played}, "
                    f"the feedback rule gives {secrets.size}"
                )
        if at_once and (below := game.tree_below(limit)) is not None:
            return add_played(below)
        try:
            guess = game.suggest()
        except StrategyGaveUp as gave_up:
            # Every secret here meets this same history, and the strategy's guess is a function of it: each
            # of their games would have stopped here.
            why = str(gave_up)  # one message for the node's secrets, not a copy each
            result.failed.extend((space.code(int(i)), why) for i in secrets.tolist())
            if progress:
                progress(int(secrets.size))
            return None
        node = TreeNode(guess) if record else None
        if secrets.size == 1 and space.code(secrets[0]) == guess:  # a leaf: won here
            result.games_played.append((guess, depth))
            if progress:
                progress(1)
            return node
        marks = space.feedback_to(guess, secrets)
        order = np.argsort(marks, kind="stable")
        marks, secrets = marks[order], secrets[order]
        bounds = (np.flatnonzero(np.diff(marks)) + 1).tolist()
        for start, stop in zip([0, *bounds], [*bounds, secrets.size]):
            mark, group = int(marks[start]), secrets[start:stop]
            if mark == win:  # the guess itself, won here
                result.games_played.append((tuple(space.codes[group[0]].tolist()), depth))
                if progress:
                    progress(1)
                continue
            if depth >= limit:
                raise NoProgress(f"no win after {limit} guesses; the strategy is not making progress")
            fb = rule.from_index(mark, rules.pegs)
            game.record(guess, fb, check=False)
            child = visit(game, group, depth + 1)
            if node is not None:
                node.children[fb] = child
            game.undo()
        return node

    before = engine.search_stats()
    with Game(engine, strategy, history=history) as game:
        result.tree = visit(game, secrets, len(history) + 1)
    result.tree_at = tuple(history)
    result.search = _effort_since(engine, before)
    return result


# -- tasks and where they run ----------------------------------------------------------
@dataclass(frozen=True)
class GamesTask:
    """Play one game per secret (through ``codemaker`` when it is set, e.g. a server's)."""

    secrets: list[Code]
    codemaker: Codemaker | None = None

    @property
    def size(self) -> int:
        return len(self.secrets)

    def run(self, engine: Engine, strategy: Strategy, progress: Progress | None = None) -> BenchResult:
        return play_games(engine, strategy, self.secrets, progress, self.codemaker)


@dataclass(frozen=True)
class TreeTask:
    """Play, as one tree, the secrets (code-space indices) consistent with ``history``."""

    history: list[Entry]
    secrets: np.ndarray
    #: Send the guesses back as a tree (``--save-tree``).
    record: bool = False

    @property
    def size(self) -> int:
        return int(self.secrets.size)

    def run(self, engine: Engine, strategy: Strategy, progress: Progress | None = None) -> BenchResult:
        return play_tree(engine, strategy, self.history, self.secrets, progress, self.record)


Task = GamesTask | TreeTask


#: In a worker process: games finished per task, which the parent reads for its progress bar.
_games_done = None


def _start_worker(parent: int, games_done) -> None:
    """A worker's initializer (:func:`~mm_logic.support.processes.start_worker`), keeping where it counts its games."""
    global _games_done
    start_worker(parent)
    _games_done = games_done


def _work(job: tuple[Player, Task, int]) -> tuple[int, BenchResult]:
    """A worker process: rebuild the engine and strategy, run one task; ``(its number, its games)``."""
    player, task, number = job
    counts = _games_done

    def count(n: int) -> None:
        counts[number] += n  # this task's slot: written by this process alone

    try:
        engine, strategy = player.build()
        try:
            with _long_lived_objects_frozen():
                return number, task.run(engine, strategy, None if counts is None else count)
        finally:
            engine.close()
    except Exception as error:
        # Sent to the parent pickled: one that cannot be unpickled there would hang the bench.
        raise portable(error) from None


#: Seconds between two looks at the workers' game counts.
PROGRESS_EVERY = 0.1


def run_in_processes(player: Player, tasks: list[Task], jobs: int, into: BenchResult,
                     progress: Progress | None = None) -> None:
    """Run ``tasks`` in ``jobs`` worker processes, each building ``player``'s engine and strategy, merging
    their games into ``into``.

    ``progress`` hears of each game as the workers finish it (a task is a worker's whole share
    with --games: the bar sat at 0% until one ended), from a count per task in shared memory.
    """
    context = multiprocessing.get_context("spawn")  # solvers embedded in this process must not be forked
    counts = context.RawArray("q", len(tasks)) if progress else None
    shown = [0] * len(tasks)
    # The workers leave Ctrl-C (which reaches the whole process group) to this process, which
    # terminates them, as optimal's workers; they end with it if it is killed outright.
    pool = start_pool(context, worker_count(jobs, len(tasks)), _start_worker, (os.getpid(), counts))

    def show(number: int, done: int) -> None:
        if done > shown[number]:
            progress(done - shown[number])
            shown[number] = done

    try:
        results = pool.imap_unordered(_work, [(player, task, i) for i, task in enumerate(tasks)])
        left = set(range(len(tasks)))
        while left:
            try:
                number, result = results.next(timeout=PROGRESS_EVERY)
            except multiprocessing.TimeoutError:
                if progress:
                    for running in left:
                        show(running, counts[running])
                continue
            left.discard(number)
            into.merge(result)
            if progress:
                show(number, tasks[number].size)
        pool.close()
    except BaseException:
        pool.terminate()  # a task may take minutes: nothing of it is kept
        raise
    finally:
        pool.join()


def split_below_opening(engine: Engine, strategy: Strategy, record: bool = False,
                        secrets: np.ndarray | None = None) -> tuple[list[TreeTask], BenchResult]:
    """One tree task per feedback class of the opening over ``secrets`` (default: every secret of the
    engine's game), biggest first, and the game it wins (with ``record``, under a tree of the opening
    alone that the tasks' subtrees are grafted to)."""
    rules = engine.rules
    space = code_space(rules)
    with Game(engine, strategy) as game:
        opening = game.suggest()
    secrets = secret_indices(engine) if secrets is None else secrets
    marks = space.feedback_to(opening, secrets)
    tasks = []
    won = _empty(engine, strategy)
    if record:
        won.tree = TreeNode(opening)
    for mark in np.unique(marks):
        group = secrets[marks == mark]
        if mark == rule_of(rules).win_index(rules.pegs):
            won.games_played.append((space.code(group[0]), 1))
        else:
            tasks.append(TreeTask([(opening, rule_of(rules).from_index(mark, rules.pegs))], group, record))
    # Biggest subtrees first keeps the workers busy until the end.
    tasks.sort(key=lambda task: -task.size)
    return tasks, won


# -- benches ------------------------------------------------------------------------
def warm_up(backend: str, strategy: str, max_repeat: int | None = None) -> None:
    """Make a player (``backend`` and ``strategy``) ready, untimed: the strategy's compiled kernels (the groups
    it declares, :attr:`~mm_logic.strategies.base.Strategy.kernels`, through
    :func:`mm_logic.kernels.warming.warm`), then the rest of what a process loads on first use (the engine's
    solver library, its compiled feedback, the code space's tables), by playing ``strategy`` on ``backend`` over
    every secret of 2 pegs of 3 colours.

    That is start-up, which the figures leave out (0.17 s for the python engine's first game of 4x6, against
    0.2 ms for its second). The kernels are warmed even where the strategy refuses 2x3 (the weighted entropy
    plays 4 pegs only), and their errors propagate: only the game's own refusals are let pass.
    """
    from ..kernels.warming import warm  # numba: imported by the commands that bench, not by this module's readers

    if strategy.startswith("tree:"):
        strategy = "first"  # a saved tree plays its own rules only; its walk loads the same kernels
    warm(*parse_strategy(strategy, files=False).cls.kernels)
    try:
        engine, played = Player(Rules(2, 3, max_repeat), backend, strategy, seed=0).build()
        try:
            bench_all(engine, played)
        finally:
            engine.close()
    except (MMLogicError, StrategyGaveUp, NoProgress, EngineDisagreement):
        # The game's own refusals (a strategy or engine that does not play 2x3, a solver missing): the games
        # themselves say them. Anything else is a fault of mmlogic's, reported as such, not swallowed.
        pass


@contextmanager
def _long_lived_objects_frozen():
    """Keep the objects that exist before a bench out of the garbage collector's passes.

    A tree walk allocates many small objects, so the collector runs often, and
    each full pass scanned every module, function and constant loaded so far:
    at the command line this tripled Knuth 4x6's time (0.09 s against 0.02 s).
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def bench_games(engine: Engine, strategy: Strategy, secrets: list[Code],
                progress: Progress | None = None, jobs: int = 1, codemaker: Codemaker | None = None) -> BenchResult:
    """Play one game per secret; ``seconds`` is the wall time of the games.

    With ``codemaker``, each game is played through it (``bench --server``: a codemaker on the
    server keeps each secret; see :data:`Codemaker`).
    """
    with _long_lived_objects_frozen():
        return _bench_games(engine, strategy, secrets, progress, jobs, codemaker)


def _bench_games(engine, strategy, secrets, progress, jobs, codemaker) -> BenchResult:
    start = time.perf_counter()
    jobs = worker_count(jobs, len(secrets))  # --jobs 10**26 made as many tasks, most of them empty, for ever
    if jobs > 1:
        result = _empty(engine, strategy)
        tasks = [GamesTask(secrets[i::jobs], codemaker) for i in range(jobs)]
        run_in_processes(Player.of(engine, strategy), tasks, jobs, result, progress)
    else:
        result = play_games(engine, strategy, secrets, progress, codemaker)
    result.seconds = time.perf_counter() - start
    return result


def check_tree_recordable(strategy: Strategy) -> None:
    """Refuse, before any game, to record the tree of a strategy that has none."""
    if not strategy.deterministic:
        raise BadInput(f"--save-tree: --strategy {strategy.name} is not deterministic (its guess is not a "
                       "function of the history alone), so it has no tree to save")


def bench_all(engine: Engine, strategy: Strategy,
              progress: Progress | None = None, jobs: int = 1, record_tree: bool = False,
              secrets: np.ndarray | None = None, codemaker: Codemaker | None = None) -> BenchResult:
    """Play every secret of the code space exactly once.

    Strategies whose guess depends only on the history are evaluated as a
    tree (:func:`play_tree`); others play each game. With ``jobs > 1`` the
    tree is cut below the opening, one task per feedback class, and the tasks
    run in worker processes: the attempts are the same as with one job.
    With ``record_tree`` (deterministic strategies only) the result's
    ``tree`` is the whole strategy tree, the workers' subtrees grafted
    under the opening (:meth:`BenchResult.strategy_tree`). ``secrets``:
    :func:`~mm_logic.secret_codes.secret_indices`, when the caller has them already. ``codemaker``: who
    answers each game (a :class:`LyingCodemaker`), played one game per secret.
    """
    check_every_secret(engine.rules)
    if record_tree:
        check_tree_recordable(strategy)
    space = code_space(engine.rules)  # built (and cached) before the clock starts
    if secrets is None:
        secrets = secret_indices(engine)
    if not strategy.deterministic or engine.rules.lies or codemaker is not None:
        # With lies a node's codes are more than the secrets the truth leads there: one game each.
        return bench_games(engine, strategy, [space.code(int(i)) for i in secrets], progress, jobs, codemaker)
    with _long_lived_objects_frozen():
        return _bench_tree(engine, strategy, secrets, progress, jobs, record_tree)


def _bench_tree(engine, strategy, secrets, progress, jobs, record) -> BenchResult:
    start = time.perf_counter()
    if jobs > 1:
        tasks, result = split_below_opening(engine, strategy, record, secrets)
        if progress and result.games:
            progress(result.games)
        run_in_processes(Player.of(engine, strategy), tasks, jobs, result, progress)
    else:
        result = play_tree(engine, strategy, [], secrets, progress, record)
    result.seconds = time.perf_counter() - start
    return result
