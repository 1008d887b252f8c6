"""Where the openings' parts of ``mmlogic optimal`` are searched besides the driving process: worker
processes of this machine (:class:`Workers`, ``--jobs N``) or the workers of a Dask cluster
(:class:`DaskWorkers`, ``--executor dask``), each part a task (:func:`part_task`) searched by a
:class:`~mm_logic.optimal.searcher.Searcher` the worker keeps across its tasks.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..notation import Code, Feedback
from ..rules import Rules
from ..strategies.tree import TreeNode
from ..support.processes import start_pool, start_worker
from ..symmetry import GameSymmetry
from .journal import Journal
from .searcher import Searcher, default_table_bits
from .tasks import GuessTask, Split, guess_cost, guess_solvable, openings

#: Called a few times a second with a one-line status of the search.
Progress = Callable[[str], None]


#: Each worker thread's searcher (a process of the pool has one thread; a Dask worker may have several,
#: and a searcher's tables and buffers serve one search at a time).
_WORKER_SEARCHERS = threading.local()


def part_task(rules: Rules, max_depth: int | None, consistent_only: bool, bits: int, worst: bool, opening: int,
              part: np.ndarray, depth: int | None, budget: int, guess: int | None = None,
              symmetry: GameSymmetry | None = None
              ) -> tuple[int, TreeNode | None, int, float]:
    """A worker's task: one part of an opening, searched, and its subtree when it met the budget; or, with
    ``guess``, that guess at the part (its own parts searched: :func:`~mm_logic.optimal.tasks.guess_cost`).

    Returns ``(cost or bound, subtree or None, positions searched, CPU seconds)``;
    with ``worst`` (is the part solvable within ``depth``?) the value is 1
    or 0 and there is no subtree. The seconds are the task's own search's
    CPU time (not the time it waited for a core, or was stopped): what the
    journal keeps of its effort.
    """
    key = (rules, max_depth, consistent_only, bits, symmetry)
    kept = getattr(_WORKER_SEARCHERS, "searcher", None)
    if kept is None or kept[0] != key:
        # One per process and rule set, kept across tasks: its transposition table serves them all.
        _WORKER_SEARCHERS.searcher = None  # the last game's tables go before this one's are made
        _WORKER_SEARCHERS.searcher = (key, Searcher(rules, max_depth, consistent_only, bits, symmetry))
    searcher = _WORKER_SEARCHERS.searcher[1]
    before, started = searcher.positions, searcher.cpu_seconds
    if guess is not None:
        if worst:
            value, tree = int(guess_solvable(searcher, part, [opening], guess, depth)), None
        else:
            value, tree = guess_cost(searcher, part, [opening], guess, depth, budget)
    elif worst:
        value, tree = int(searcher.can_solve(part, [opening], depth)), None
    else:
        value = searcher.cost(part, [opening], depth, budget)
        tree = searcher.subtree(part, [opening], depth) if value < budget else None
    return value, tree, searcher.positions - before, searcher.cpu_seconds - started


@dataclass(frozen=True)
class Plan:
    """What the workers search in one :meth:`Workers.run`: the game and its limits (what each worker's searcher is
    made with), the driver's searcher (the guesses at a split part, the names of the parts), and where the driver
    keeps what they settle and says how it goes. A value: the driver makes another for another search (the worst
    objective's search within its depth), the workers and their processes stay."""

    rules: Rules
    max_depth: int | None
    searcher: Searcher
    consistent_only: bool = False
    bits: int | None = None
    #: The symmetries taken (None: the game's).
    symmetry: GameSymmetry | None = None
    #: Where the parts are kept (``--journal``), if anywhere.
    journal: Journal | None = None
    #: Parts of more than this many codes are searched as one task per guess (None: none); the guesses are the
    #: driver's searcher's (:func:`~mm_logic.optimal.tasks.openings`).
    split_above: int | None = None
    progress: Progress | None = None

    def task_bits(self) -> int:
        """The size of each worker's table of solved sets."""
        return default_table_bits(self.rules.size) if self.bits is None else self.bits

    def part_name(self, opening: int, fb: int) -> tuple[Code, Feedback]:
        """How the journal names a part: the driver's :meth:`~mm_logic.optimal.searcher.Searcher.part_name`."""
        return self.searcher.part_name(opening, fb)


class Workers:
    """Worker processes searching parts of openings (:func:`part_task`); Ctrl-C terminates them."""

    def __init__(self, jobs: int):
        # "spawn", as bench's workers: nothing of this process's state is inherited. Ctrl-C reaches
        # the whole process group: the workers leave it to this process, which terminates them; they
        # end with it if it is killed outright.
        self.pool = start_pool(multiprocessing.get_context("spawn"), jobs, start_worker, (os.getpid(),))
        self._count(jobs)

    def _count(self, jobs: int) -> None:
        """The workers' tallies, over every run: tasks at once, positions the finished tasks searched and their
        searches' CPU seconds (core-seconds), the parts searched guess by guess and their guesses searched."""
        self.jobs = jobs
        self.positions = 0
        self.seconds = 0.0
        self.finished: queue.Queue = queue.Queue()
        #: Parts settled so far in the run under way (its progress line).
        self.settled = 0
        self.split_parts = self.guess_tasks = 0

    def run(self, plan: Plan, tasks: list, skip: Callable, budget: Callable, done: Callable, depth: int | None,
            worst: bool = False, status: Callable[[], str] = str) -> None:
        """Search ``tasks`` (``(opening, feedback, part)``) of ``plan``, at most ``jobs`` at once, in order.

        A task is submitted only when ``skip(task)`` is false, with the budget
        ``budget(task)`` of that moment; ``done(task, value, subtree, budget)``
        gets each result as it comes. A part of more than the plan's ``split_above``
        codes is searched as one task per guess at it
        (:class:`~mm_logic.optimal.tasks.Split`), submitted in the
        order the search would try them, before the tasks after it.
        """
        pending: deque = deque(tasks)
        running = self.settled = 0
        while pending or running:
            while pending and running < self.jobs:
                item = pending.popleft()
                if isinstance(item, GuessTask):
                    running += self._start_guess(plan, item, skip, budget, done, depth, worst)
                    continue
                task = item
                if skip(task):
                    continue
                limit = budget(task)
                known = self._settled(plan, task, depth, limit, worst)
                if known is not None:
                    self.settled += 1
                    done(task, *known, limit)
                    continue
                opening, _, part = task
                if plan.split_above is not None and part.size > plan.split_above:
                    split = Split(task, openings(plan.searcher, depth, part, (opening.index,), worst), worst)
                    self.split_parts += 1
                    if split.tasks:
                        pending.extendleft(reversed(split.tasks))
                    else:
                        self._finish(plan, split, depth, done)
                    continue
                self._submit(plan, task, limit, (plan.rules, plan.max_depth, plan.consistent_only, plan.task_bits(),
                                                 worst, opening.index, part, depth, limit))
                running += 1
            if not running:
                break
            while True:
                if plan.progress is not None:
                    split = f" ({self.guess_tasks:,} guesses of {self.split_parts} large parts)" \
                        if self.split_parts else ""
                    plan.progress(f"{self.settled} of {len(tasks)} parts searched{split} in {self.jobs} processes, "
                                  f"{status()}{self._rate()}")
                try:
                    task, limit, result, error = self.finished.get(timeout=0.2)
                    break
                except queue.Empty:
                    continue
            running -= 1
            if error is not None:
                raise error
            value, tree, positions, seconds = result
            self.positions += positions
            self.seconds += seconds
            effort = (positions, seconds)
            if isinstance(task, GuessTask):
                self._keep_guess(plan, task, depth, limit, worst, value, tree, effort)
                if not task.split.closed and task.split.settle(task, value, tree, limit):
                    self._finish(plan, task.split, depth, done)
                continue
            self.settled += 1
            self._keep(plan, task, depth, limit, worst, value, tree, effort)
            done(task, value, tree, limit)

    def _rate(self) -> str:
        """The positions the finished tasks searched and how many a second a worker searched them."""
        if not self.seconds:
            return ""
        return f", {self.positions:,} positions ({self.positions / self.seconds:,.0f} a second a worker)"

    def _start_guess(self, plan: Plan, item: GuessTask, skip: Callable, budget: Callable, done: Callable,
                     depth: int | None, worst: bool) -> int:
        """Submit a guess of a split part, or settle it without a search (its bound, the journal): 1 if submitted."""
        split = item.split
        if split.closed:
            return 0
        if skip(split.task):
            split.closed = True  # its opening is lost: the part's other guesses are not searched
            return 0
        limit = 0 if worst else split.budget(budget(split.task))
        guess = item.guess
        if not worst and guess.bound >= limit:
            known = (guess.bound, None)  # the kernel's cut: its parts' sizes alone reach the budget
        else:
            known = self._settled_guess(plan, item, depth, limit, worst)
        if known is not None:
            if split.settle(item, *known, limit):
                self._finish(plan, split, depth, done)
            return 0
        opening, _, part = split.task
        self._submit(plan, item, limit, (plan.rules, plan.max_depth, plan.consistent_only, plan.task_bits(), worst,
                                         opening.index, part, depth, limit, guess.index))
        self.guess_tasks += 1
        return 1

    def _finish(self, plan: Plan, split: Split, depth: int | None, done: Callable) -> None:
        """A split part settled: kept as a part (the journal) and handed to ``done``."""
        split.closed = True
        self.settled += 1
        value, tree, limit = split.result()
        self._keep(plan, split.task, depth, limit, split.worst, value, tree)
        done(split.task, value, tree, limit)

    def _submit(self, plan: Plan, task, limit: int, args: tuple) -> None:
        """Start :func:`part_task` on ``args``; its result or error goes to :attr:`finished` with the task."""
        self.pool.apply_async(part_task, args, {"symmetry": plan.symmetry},
                              callback=lambda r, t=task, b=limit: self.finished.put((t, b, r, None)),
                              error_callback=lambda e, t=task, b=limit: self.finished.put((t, b, None, e)))

    @staticmethod
    def _settled(plan: Plan, task, depth: int | None, limit: int, worst: bool) -> tuple[int, TreeNode | None] | None:
        """What the journal says of a task for this budget (``(value, subtree)``), or None: search it."""
        if plan.journal is None:
            return None
        opening, fb, _ = task
        code, feedback = plan.part_name(opening.index, fb)
        if worst:
            known = plan.journal.solvable(code, feedback, depth)
            return None if known is None else (int(known), None)
        return plan.journal.cost(code, feedback, depth, limit)

    @staticmethod
    def _keep(plan: Plan, task, depth: int | None, limit: int, worst: bool, value: int, tree: TreeNode | None,
              effort: tuple[int, float] | None = None) -> None:
        if plan.journal is None:
            return
        opening, fb, _ = task
        code, feedback = plan.part_name(opening.index, fb)
        if worst:
            plan.journal.record_solvable(code, feedback, depth, bool(value), effort=effort)
        else:
            plan.journal.record_cost(code, feedback, depth, limit, value, tree, effort=effort)

    @staticmethod
    def _guess_name(plan: Plan, item: GuessTask) -> tuple[Code, Feedback, Code]:
        opening, fb, _ = item.split.task
        return (*plan.part_name(opening.index, fb), plan.searcher.code(item.guess.index))

    @staticmethod
    def _settled_guess(plan: Plan, item: GuessTask, depth: int | None, limit: int, worst: bool
                       ) -> tuple[int, TreeNode | None] | None:
        """What the journal says of a split part's guess for this budget, or None: search it."""
        if plan.journal is None:
            return None
        code, feedback, guess = Workers._guess_name(plan, item)
        if worst:
            known = plan.journal.solvable(code, feedback, depth, guess)
            return None if known is None else (int(known), None)
        return plan.journal.cost(code, feedback, depth, limit, guess)

    @staticmethod
    def _keep_guess(plan: Plan, item: GuessTask, depth: int | None, limit: int, worst: bool, value: int,
                    tree: TreeNode | None, effort: tuple[int, float]) -> None:
        if plan.journal is None:
            return
        code, feedback, guess = Workers._guess_name(plan, item)
        if worst:
            plan.journal.record_solvable(code, feedback, depth, bool(value), guess, effort=effort)
        else:
            plan.journal.record_cost(code, feedback, depth, limit, value, tree, guess, effort=effort)

    def close(self, interrupted: bool) -> None:
        if interrupted:
            self.pool.terminate()  # a part may take minutes: nothing of it is kept
        else:
            self.pool.close()
        self.pool.join()


class DaskWorkers(Workers):
    """The workers of a Dask cluster (``--executor dask``): each part a task, as many at once as the cluster has
    threads; each worker thread keeps its own table of solved sets across the tasks it runs."""

    def __init__(self, client):
        self.client = client
        self.futures: set = set()
        self._count(max(1, sum(client.nthreads().values())))

    def _submit(self, plan: Plan, task, limit: int, args: tuple) -> None:
        future = self.client.submit(part_task, *args, symmetry=plan.symmetry, pure=False)
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
