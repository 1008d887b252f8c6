"""Sweeps: every secret of a grid of cases, on this machine or on a Dask cluster.

A case (:class:`~mm_logic.studies.sweep_case.Case`) is one (rules, strategy, opening, backend)
combination, and running it is a bench over every secret: its row has the attempts
(games, total, mean, max, histogram), the time and the peak memory of the case.
:func:`~mm_logic.studies.sweep_case.plan` builds and checks the cases of a grid before any
of them runs; :func:`run_sweep` runs those not yet finished.

**Where a case runs.** Always in a fresh Python process of its own
(:func:`~mm_logic.studies.sweep_processes.run_isolated` starts
``python -m mm_logic.studies.sweep_processes CASE``), so that its
peak memory, ``getrusage(RUSAGE_SELF).ru_maxrss`` of that process when it
ends, is the case's own: the interpreter, numpy, mmlogic and its compiled
kernels (``start_rss_mb``, measured just before the case, after an untimed
warm-up game: :func:`~mm_logic.studies.bench.warm_up`) plus what the case added. A long-lived
worker's peak would be its largest case so far; a process costs about half a
second of start-up per case, outside ``seconds``. The executors only
decide where those processes start: ``local`` supervises up to ``--jobs`` of
them from threads of this process; ``dask`` submits the same function to a
``dask.distributed`` scheduler, and each worker starts the process on its
machine. Either way a case computes exactly what it computes alone, so the
rows are the same whatever the executor and the number of jobs (the time,
memory and host aside).

**Resuming.** With an output file, each row is appended as one JSON line as
soon as its case finishes (flushed to disk); on a rerun, cases whose row is
in the file are not run again. A line cut off by a kill is dropped (its case
runs again). One sweep at a time writes a file
(:class:`~mm_logic.support.files.OutputLock`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from ..histogram import format_histogram
from ..rules import Rules
from ..support.files import OutputLock, target_of
from .sweep_case import Case
from .sweep_processes import dask_client, run_dask, run_local
from .sweep_rows import RowWriter, load_rows


# -- the sweep ------------------------------------------------------------------------
@dataclass
class Sweep:
    """The cases of a grid, their rows (from the output file and from this run) and failures."""

    cases: list[Case]
    rows: dict[str, dict] = field(default_factory=dict)
    failures: list[tuple[Case, str]] = field(default_factory=list)
    #: Cases found finished in the output file.
    skipped: int = 0
    complete: bool = True

    def finished(self) -> list[dict]:
        """The rows of the finished cases, in the plan's order."""
        return [self.rows[c.key] for c in self.cases if c.key in self.rows]

    def as_dict(self) -> dict:
        """``sweep --json``."""
        return {"rows": self.finished(),
                "failures": [{**case.as_dict(), "error": message} for case, message in self.failures]}

    def text(self) -> str:
        return sweep_table(self.finished())


def run_sweep(cases: list[Case], *, out: Path | None = None, executor: str = "local", jobs: int = 1,
              scheduler: str | None = None, progress: Callable[[int], AbstractContextManager] | None = None,
              note: Callable[[str], None] | None = None) -> Sweep:
    """Run the cases not yet in ``out``; Ctrl-C keeps the rows finished (``complete`` False).

    ``progress(n)`` makes a progress bar for the n cases to run (its
    ``update(1)`` is called as each ends); ``note`` gets one-line notes (cases
    skipped, lines dropped). On Dask the scheduler is reached before any case
    runs (one line, exit 1, when it cannot be). ``out`` is held by this sweep alone while it runs
    (:class:`~mm_logic.support.files.OutputLock`: another on it refuses, exit 2).
    """
    sweep = Sweep(cases)
    # On the file written: a link's target, which load_rows rewrites (the link stays).
    lock = OutputLock.take(target_of(out)) if out is not None else None
    try:
        _run_sweep(sweep, out, lock, executor, jobs, scheduler, progress, note)
    finally:
        if lock is not None:
            lock.release()
    return sweep


def _run_sweep(sweep: Sweep, out: Path | None, lock: OutputLock | None, executor: str, jobs: int,
               scheduler: str | None, progress, note) -> None:
    cases = sweep.cases
    if out is not None:
        found, dropped = load_rows(out, lock)
        if dropped and note:
            note(f"dropped {dropped} unreadable line(s) of {out} (cut off by a kill); their cases run again")
        sweep.rows = {c.key: found[c.key] for c in cases if c.key in found}
        sweep.skipped = len(sweep.rows)
        if sweep.skipped and note:
            left = len(cases) - sweep.skipped
            note(f"all {len(cases)} cases are in {out} already; nothing to run" if not left else
                 f"{sweep.skipped} of {len(cases)} cases are in {out} already; running the other {left}")
    todo = [c for c in cases if c.key not in sweep.rows]
    # Biggest spaces first: the long cases start at once and the short ones fill in at the end.
    todo.sort(key=lambda c: -c.rules.size)
    if not todo:
        return
    client = dask_client(scheduler) if executor == "dask" else None
    writer = RowWriter(out)
    try:
        with progress(len(todo)) if progress else nullcontext() as bar:
            def on_result(case: Case, row: dict) -> None:
                if "error" in row:
                    sweep.failures.append((case, row["error"]))
                else:
                    writer.write(row)
                    sweep.rows[case.key] = row
                if bar is not None:
                    bar.update(1)

            if client is not None:
                run_dask(todo, client, on_result)
            else:
                run_local(todo, jobs, on_result)
    except KeyboardInterrupt:
        sweep.complete = False
        if out is not None:
            # A Ctrl-C between a row's write and its count leaves the file a row ahead of
            # sweep.rows; the file, which the message names and a rerun reads, is what counts.
            writer.close()
            found, _ = load_rows(out, lock)
            sweep.rows = {c.key: found[c.key] for c in cases if c.key in found}
    finally:
        writer.close()
        if client is not None:
            client.close()


# -- tables ---------------------------------------------------------------------------
def _histogram(row: dict) -> str:
    return format_histogram(row["histogram"])


def _rules_label(row: dict) -> str:
    """The rules of a row, and the name of its edited encoding (``4x6 encoding palindrome.lp``)."""
    encoding = ((row.get("variant") or {}).get("encoding") or {}).get("file")
    return Rules.from_dict(row["rules"]).describe() + (f" encoding {Path(encoding).name}" if encoding else "")


def sweep_table(rows: list[dict]) -> str:
    """One line per case: rules, strategy, opening, backend, attempts, seconds, peak memory."""
    head = ("rules", "strategy", "opening", "backend")
    cells = [(_rules_label(r), r["strategy"], r["opening"], r["backend"]) for r in rows]
    widths = [max([len(h)] + [len(c[i]) for c in cells]) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths))
             + f"  {'games':>8} {'total':>9} {'mean':>6} {'max':>4} {'seconds':>9} {'peak MB':>8}  histogram"]
    for row, cell in zip(rows, cells):
        lines.append("  ".join(c.ljust(w) for c, w in zip(cell, widths))
                     + f"  {row['games']:>8} {row['total_guesses']:>9} {row['mean']:>6.3f} {row['max']:>4} "
                       f"{row['seconds']:>9.3f} {row['peak_rss_mb']:>8.0f}  {_histogram(row)}")
    return "\n".join(lines)
