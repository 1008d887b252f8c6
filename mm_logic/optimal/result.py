"""What ``mmlogic optimal`` finds (:func:`mm_logic.optimal.objectives.optimal`): an optimal strategy, its
figures over every secret, and what proves it optimal, as text and as the contract's JSON."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..histogram import HistogramFigures, format_histogram
from ..notation import Code, format_code, plural
from ..rules import Rules
from ..strategies.tree import TreeNode
from ..support.memory import memory_text


@dataclass
class OpeningBound:
    """What the search proved about one opening: its exact cost, or a lower bound (``exact`` False)."""

    opening: Code
    #: Exact total, or a lower bound of it; None: it cannot finish every game within the depth limit.
    cost: int | None
    exact: bool


@dataclass(frozen=True)
class StoppedSearch:
    """A search stopped before its end (Ctrl-C, SIGTERM), as a value: what it proved by then, and where it resumes.

    :func:`~mm_logic.optimal.objectives.optimal` returns it instead of an :class:`OptimalResult`; the command line
    says it (:meth:`notes`) and exits as an interrupted command does.
    """

    rules: Rules
    objective: str
    #: The expected objectives: no strategy takes fewer guesses in all; the best strategy found takes ``best``
    #: (None: none found yet, or not known).
    lower_bound: int | None = None
    best: int | None = None
    #: The worst objectives: no strategy finishes every game within this many guesses (None: not known).
    impossible_depth: int | None = None
    #: The ``--journal`` file, from which the same search resumes (None: none).
    journal: Path | None = None
    seconds: float = 0.0

    def notes(self) -> list[str]:
        """What the search proved, and where it resumes from, a line each."""
        lines = []
        if self.lower_bound is not None:
            found = f", the best strategy found so far takes {self.best}" if self.best is not None else ""
            lines.append(f"stopped: no strategy takes fewer than {self.lower_bound} guesses in all{found}")
        if self.impossible_depth is not None and self.impossible_depth > 0:
            lines.append(f"stopped: no strategy finds every code within {self.impossible_depth} "
                         f"{'guess' if self.impossible_depth == 1 else 'guesses'}")
        if self.journal is not None:
            lines.append(f"what was settled is in {self.journal}: the same command resumes from it")
        return lines


@dataclass
class OptimalResult(HistogramFigures):
    """An optimal strategy, its figures over every secret (games, total, mean, worst:
    :class:`~mm_logic.histogram.HistogramFigures`), and what proves it optimal."""

    rules: Rules
    objective: str
    max_depth: int | None
    #: The strategy: the guess at each history and the subtree after each non-winning feedback.
    tree: TreeNode
    #: Guesses taken (the winning one included) -> number of secrets.
    histogram: Counter
    #: Every canonical opening with what the search proved about its total (worst objective: within the
    #: least worst case), the best first.
    openings: list[OpeningBound] = field(default_factory=list)
    #: Worst objective: the most guesses within which no strategy finishes every game.
    impossible_depth: int | None = None
    seconds: float = 0.0
    #: Sets of codes searched, summed over every process.
    positions: int = 0
    jobs: int = 1
    #: Hard mode: the optimum among strategies whose every guess is consistent with the answers so far.
    consistent_only: bool = False
    #: Entries of each process's transposition table (the sets of codes solved it keeps).
    table_entries: int = 0
    #: Peak resident memory in bytes of the searching process, and of its largest worker (0: none).
    peak_memory: int = 0
    worker_memory: int = 0
    #: The ``--journal`` file, the parts read from it (settled by an earlier run) and written to it.
    journal: Path | None = None
    journal_read: int = 0
    journal_written: int = 0
    #: With workers: parts of more than ``split_above`` codes were searched guess by guess
    #: (:mod:`mm_logic.optimal.tasks`): ``split_parts`` of them, ``guess_tasks`` guesses searched as
    #: tasks. None: one process, nothing split.
    #: The edited encoding whose codes are the secrets (``--encoding``), if any.
    encoding: Path | None = None
    split_above: int | None = None
    split_parts: int = 0
    guess_tasks: int = 0

    @property
    def opening(self) -> Code:
        return self.tree.guess

    @property
    def optimal_figure(self) -> str:
        """Which figure is proved optimal: ``total_guesses`` or ``max``."""
        return "total_guesses" if self.objective == "expected" else "max"

    def proof(self) -> str:
        """One sentence: what is optimal and the bound that proves it."""
        others = ("; every other opening proved to cost at least as much" if len(self.openings) > 1
                  else "; every opening is this one up to symmetry")
        if self.objective == "worst-case":
            return (f"worst case {self.worst} is optimal: no strategy finds every code within "
                    f"{self.impossible_depth} guesses; this strategy keeps within {self.worst} (its total is not "
                    "the least: --objective worst finds that)")
        if self.objective == "worst":
            return (f"worst case {self.worst} is optimal: no strategy finds every code within "
                    f"{self.impossible_depth} guesses; total {self.total} is the least among strategies within "
                    f"{self.worst} guesses: lower bound {self.total} met{others}")
        within = f" among strategies within {self.max_depth} guesses" if self.max_depth else ""
        return f"total {self.total} is optimal{within}: lower bound {self.total} met{others}"

    def as_dict(self) -> dict:
        """The ``optimal --json`` object."""
        rules = self.rules
        return {
            "rules": rules.as_dict(), **({"encoding": str(self.encoding)} if self.encoding is not None else {}),
            "objective": self.objective, "max_depth": self.max_depth,
            "consistent_only": self.consistent_only,
            "optimal": self.optimal_figure,
            "lower_bound": self.total if self.objective == "expected" else self.worst,
            **self.histogram_figures(),
            "opening": format_code(self.opening, rules),
            "openings": [{"opening": format_code(b.opening, rules), "cost": b.cost, "exact": b.exact}
                         for b in self.openings],
            "impossible_depth": self.impossible_depth,
            "seconds": round(self.seconds, 3), "positions": self.positions, "jobs": self.jobs,
            "table_entries": self.table_entries, "peak_memory": self.peak_memory,
            "worker_peak_memory": self.worker_memory,
            "journal": None if self.journal is None else {
                "file": str(self.journal), "parts_read": self.journal_read, "parts_written": self.journal_written},
            "split": None if self.split_above is None else {
                "above": self.split_above, "parts": self.split_parts, "guess_tasks": self.guess_tasks},
        }

    def text(self) -> str:
        """The human summary of ``mmlogic optimal``."""
        rules = self.rules
        histogram = format_histogram(self.histogram)
        goal = {"expected": "least total guesses", "worst": "least worst case, then least total guesses",
                "worst-case": "least worst case"}[self.objective]
        if self.max_depth:
            goal += f", every game within {self.max_depth} guesses"
        if self.consistent_only:
            goal += ", every guess consistent (hard mode)"
        lines = [f"rules      {rules.describe()}",
                 *([f"encoding   {self.encoding} (its codes are the secrets)"] if self.encoding is not None else []),
                 f"objective  {goal}",
                 f"opening    {format_code(self.opening, rules)}",
                 f"games      {self.games}",
                 f"total      {self.total}",
                 f"mean       {self.mean:.3f}",
                 f"max        {self.worst}",
                 f"histogram  {histogram}",
                 f"optimal    {self.proof()}"]
        if len(self.openings) > 1:
            shown = [f"{format_code(b.opening, rules)} "
                     + ("impossible" if b.cost is None else f"{'' if b.exact else '>='}{b.cost}")
                     for b in self.openings]
            lines.append(f"openings   {', '.join(shown)}")
        lines.append(f"seconds    {self.seconds:.3f}")
        lines.append(f"positions  {self.positions:,}" + (f" ({self.jobs} processes)" if self.jobs > 1 else ""))
        workers = f", {memory_text(self.worker_memory)} in the largest worker" if self.worker_memory else ""
        lines.append(f"memory     peak {memory_text(self.peak_memory)}{workers}; room for "
                     f"{self.table_entries:,} solved sets in each process's table")
        if self.split_above is not None:
            lines.append(f"split      parts above {self.split_above:,} codes searched guess by guess: "
                         f"{plural(self.split_parts, 'part')}, {plural(self.guess_tasks, 'guess task')}")
        if self.journal is not None:
            lines.append(f"journal    {self.journal}: {plural(self.journal_read, 'part')} read from an earlier "
                         f"run, {self.journal_written} written")
        return "\n".join(lines)
