#!/usr/bin/env python3
"""Regenerate the README's comparison tables and charts from the seeds' presets.

Runs ``mm_logic.compare`` for each preset below (the same matrix as
``mmlogic compare --preset ...``), writes the charts into ``docs/charts/<preset>/``
and prints Markdown tables (one row per rule set, backend and strategy) with
the agreement check's result. Every figure comes from this run.

Usage:  python py/compare_tables.py [--preset NAME ...] [--backends python,clingo,swipl] [--jobs N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mm_logic.charts import plot_comparison
from mm_logic.compare import PRESETS, compare

ROOT = Path(__file__).resolve().parent.parent

# preset -> (strategies, --all or number of random games): exhaustive where
# every engine can enumerate the space, sampled where the seeds' spaces explode.
PLANS = {
    "seed000": (["first"], None),
    "seed003": (["first", "minimax"], None),
    "seed001": (["first", "any"], 100),
}


def markdown(outcome) -> str:
    lines = ["| rules | codes | backend | strategy | games | mean | max | ms/game | seconds |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in outcome.rows:
        d = row.as_dict()
        lines.append(f"| {row.rules.describe()} | {row.rules.size:,} | {row.backend} | {row.strategy} | "
                     f"{d['games']} | {d['mean']:.3f} | {d['max']} | {d['ms_per_game']:.3f} | {d['seconds']:.2f} |")
    verdict = ("every backend gave the same attempts for every secret (deterministic strategies)"
               if not outcome.disagreements else f"{len(outcome.disagreements)} DISAGREEMENTS")
    return "\n".join(lines) + f"\n\nAgreement: {verdict}.\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append", choices=list(PLANS), help="presets to run (default all)")
    parser.add_argument("--backends", default="python,clingo,swipl")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for preset in args.preset or list(PLANS):
        strategies, games = PLANS[preset]
        backends = args.backends.split(",")
        rule_sets = PRESETS[preset]
        if games is None:
            from mm_logic.codespace import MAX_CODES
            rule_sets = [r for r in rule_sets if r.size <= MAX_CODES]
        else:
            # The reference engine stops at 2*10**7 codes (seed001's 8x16 has 5*10**8).
            backends = [b for b in backends if b != "python"] or backends
        outcome = compare(rule_sets, backends, strategies, all_secrets=games is None, games=games,
                          seed=args.seed, jobs=args.jobs)
        charts = plot_comparison(outcome, ROOT / "docs" / "charts" / preset)
        how = "every secret" if games is None else f"{games} random secrets (seed {args.seed})"
        print(f"### {preset}: {how}\n")
        print(markdown(outcome))
        print(" ".join(f"![{c.stem}](docs/charts/{preset}/{c.name})" for c in charts) + "\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
