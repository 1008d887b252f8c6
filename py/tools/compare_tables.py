#!/usr/bin/env python3
"""Regenerate the README's comparison tables and charts from the seeds' presets.

Runs ``mmlogic compare --preset NAME`` for each preset (each report's
experiments: rule sets, backends, strategies and games), writes the charts into
``docs/charts/<preset>/`` (``--charts DIR``: ``DIR/<preset>/``) and prints Markdown tables (one row per rule set,
backend and strategy, with seed 001's search effort) with the agreement check's
result. Every figure comes from this run. Ctrl-C stops the run: the
interrupted preset's finished rows are printed, said to be so, and no chart of
it is written (exit 130).

Usage:  python py/tools/compare_tables.py [--preset NAME ...] [--jobs N] [--seed N] [--charts DIR]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from mm_logic.studies.charts import plot_comparison
from mm_logic.studies.compare import PRESETS, ComparePlan, compare, row_dict
from mm_logic.support.scripting import count, natural, output_folder, run

ROOT = Path(__file__).resolve().parents[2]


def markdown(outcome) -> str:
    """The rows as a Markdown table, then the agreement check's result (only when every row was played)."""
    lines = ["| rules | codes | backend | strategy | games | mean | max | ms/game | nodes/game |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in outcome.rows:
        d = row_dict(row)
        nodes = f"{row.search['nodes'] / row.games:,.0f}" if row.search else ""
        lines.append(f"| {row.rules.describe()} | {row.rules.size:,} | {row.backend} | {row.strategy} | "
                     f"{d['games']} | {d['mean']:.3f} | {d['max']} | {d['ms_per_game']:.3f} | {nodes} |")
    if not outcome.complete:  # the check saw only the rows played: it is no verdict on the preset
        return "\n".join(lines) + "\n\nInterrupted: the rows above are the finished ones; no agreement check.\n"
    verdict = ("every backend gave the same attempts for every secret (deterministic strategies)"
               if not outcome.disagreements else f"{len(outcome.disagreements)} DISAGREEMENTS")
    return "\n".join(lines) + f"\n\nAgreement: {verdict}.\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append", choices=list(PRESETS), help="presets to run (default all)")
    parser.add_argument("--jobs", type=count, default=1)
    parser.add_argument("--seed", type=natural, default=1)
    parser.add_argument("--charts", type=output_folder, default=ROOT / "docs" / "charts", metavar="DIR",
                        help="write each preset's charts into DIR/<preset>/ (default: the README's docs/charts)")
    args = parser.parse_args()
    for preset in args.preset or list(PRESETS):
        plan = ComparePlan.make(preset=preset, rules=None, explicit_rules=[], backends=None, strategies=None,
                                all_secrets=False, games=None, seed=args.seed, jobs=args.jobs)
        print(f"### {preset} (`mmlogic compare --preset {preset} --seed {args.seed}`)\n", flush=True)
        outcome = compare(plan)  # Ctrl-C in it returns the rows finished so far, complete False
        if not outcome.complete:
            # The finished rows, said to be so; no charts (they would replace the README's with part of the
            # data), no further preset, and the run ends as interrupted (run(): "interrupted", exit 130).
            if outcome.rows:
                print(markdown(outcome), flush=True)
            raise KeyboardInterrupt
        charts = plot_comparison(outcome, args.charts / preset)
        print(markdown(outcome))
        # Links relative to the repository, as the README has them, when the charts are in it.
        links = [c.resolve().relative_to(ROOT) if c.resolve().is_relative_to(ROOT) else c for c in charts]
        print(" ".join(f"![{c.stem}]({link})" for c, link in zip(charts, links)) + "\n", flush=True)
    return 0


if __name__ == "__main__":
    run(main)
