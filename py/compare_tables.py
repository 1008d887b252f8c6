#!/usr/bin/env python3
"""Regenerate the README's comparison tables and charts from the seeds' presets.

Runs ``mmlogic compare --preset NAME`` for each preset (each report's
experiments: rule sets, backends, strategies and games), writes the charts into
``docs/charts/<preset>/`` and prints Markdown tables (one row per rule set,
backend and strategy, with seed 001's search effort) with the agreement check's
result. Every figure comes from this run.

Usage:  python py/compare_tables.py [--preset NAME ...] [--jobs N] [--seed N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mm_logic.charts import plot_comparison
from mm_logic.compare import PRESETS, ComparePlan, compare, row_dict

ROOT = Path(__file__).resolve().parent.parent


def markdown(outcome) -> str:
    lines = ["| rules | codes | backend | strategy | games | mean | max | ms/game | nodes/game |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in outcome.rows:
        d = row_dict(row)
        nodes = f"{row.search['nodes'] / row.games:,.0f}" if row.search else ""
        lines.append(f"| {row.rules.describe()} | {row.rules.size:,} | {row.backend} | {row.strategy} | "
                     f"{d['games']} | {d['mean']:.3f} | {d['max']} | {d['ms_per_game']:.3f} | {nodes} |")
    verdict = ("every backend gave the same attempts for every secret (deterministic strategies)"
               if not outcome.disagreements else f"{len(outcome.disagreements)} DISAGREEMENTS")
    return "\n".join(lines) + f"\n\nAgreement: {verdict}.\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append", choices=list(PRESETS), help="presets to run (default all)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for preset in args.preset or list(PRESETS):
        plan = ComparePlan.make(preset=preset, rules=None, explicit_rules=[], backends=None, strategies=None,
                                all_secrets=False, games=None, seed=args.seed, jobs=args.jobs)
        outcome = compare(plan)
        charts = plot_comparison(outcome, ROOT / "docs" / "charts" / preset)
        print(f"### {preset} (`mmlogic compare --preset {preset} --seed {args.seed}`)\n")
        print(markdown(outcome))
        print(" ".join(f"![{c.stem}](docs/charts/{preset}/{c.name})" for c in charts) + "\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
