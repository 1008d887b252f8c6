"""The expected case of the frontier sizes: the bounds proved on their optimum, size by size.

An experiment of issue 38 (sizes whose optimal total nobody has published), kept runnable; its
figures are in ``docs/results/optimal.md``, section "The frontier". For each size it gives:

* **below**: the least total any strategy can reach, as ``mmlogic optimal`` starts from it: for each
  canonical opening, the codes plus the perfect-split bound of each part it leaves (one code found
  by each guess, the rest split into every feedback class there is), the least over the openings;
  then raised, ``--rounds`` times: each part of each opening searched (``Searcher.cost``) with a
  budget one above its bound, which returns a higher bound when no strategy meets the budget (every
  guess of the part scored by its own parts' bounds, the most promising searched as far as the
  budget lets them): a bound proved by the search itself, as it would stand after that much of it;
* **above**: the total of a strategy tree played against every secret (``mmlogic bench --backend
  python --strategy S --all``, entropy by default): an optimal strategy takes no more;
* the seconds and the peak memory of each, the feedback table's size and the openings' count.

Each number is computed here, in this run; nothing is read from a results page.

Usage::

    .venv/bin/python py/experiments/frontier_bounds.py                       # 5x6, 4x9, 4x10, 5x7, 5x8
    .venv/bin/python py/experiments/frontier_bounds.py --sizes 4x6,4x7 --strategy expected
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from mm_logic.rules import Rules
from mm_logic.support.errors import MMLogicError
from mm_logic.support.memory import memory_text
from mm_logic.support.scripting import count, run

SIZES = "5x6,4x9,4x10,5x7,5x8"


def sizes(text: str) -> list[Rules]:
    """``PxC`` sizes, comma-separated."""
    found = []
    for item in text.split(","):
        pegs, _, colours = item.strip().partition("x")
        if not (pegs.isdigit() and colours.isdigit()):
            raise argparse.ArgumentTypeError(f"{item!r} is not a size PxC (e.g. 5x6)")
        found.append(Rules(int(pegs), int(colours)))
    return found


#: A round's child process: the openings' bound, then each part's raised ``rounds`` times (``RAISE``).
RAISE = """
import json, sys, time
from mm_logic.rules import Rules
from mm_logic.support.memory import peak_memory
from mm_logic.optimal.searcher import Searcher
from mm_logic.optimal.objectives import openings
pegs, colors, rounds = map(int, sys.argv[1:4])
t = time.perf_counter()
s = Searcher(Rules(pegs, colors))
found = openings(s, None)
row = s.bounds[0]
lows = [[int(row[p.size]) for _, p in o.parts] for o in found]
steps = [[min(o.bound for o in found), time.perf_counter() - t, s.positions]]
for _ in range(rounds):
    for o, low in zip(found, lows):
        for i, (_, part) in enumerate(o.parts):
            if part.size > 2:
                low[i] = max(low[i], s.cost(part, [o.index], None, low[i] + 1))
    totals = [s.size + sum(low) for low in lows]
    steps.append([min(totals), time.perf_counter() - t, s.positions])
print(json.dumps([len(found), steps, peak_memory()[0]]))
"""


def below(rules: Rules, rounds: int) -> tuple[int, list[tuple[int, float, int]], int]:
    """The openings' count, the least bound after each round (``(total, seconds, sets searched)``, round 0 the
    partition bound), and the peak bytes (a child process per size, so that each peak is the size's own)."""
    done = subprocess.run([sys.executable, "-c", RAISE, str(rules.pegs), str(rules.colors), str(rounds)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise MMLogicError(f"{rules.describe()}: {done.stderr.strip().splitlines()[-1]}")
    openings, steps, peak = json.loads(done.stdout)
    return openings, steps, peak


def above(rules: Rules, strategy: str) -> tuple[int, int, float]:
    """Total and worst case of ``strategy``'s tree against every secret (python engine), and the seconds."""
    mmlogic = Path(sys.executable).parent / "mmlogic"
    started = time.perf_counter()
    done = subprocess.run([str(mmlogic), "bench", "--backend", "python", "--strategy", strategy, "--all",
                           "--pegs", str(rules.pegs), "--colors", str(rules.colors), "--json"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise MMLogicError(f"{rules.describe()}: {done.stderr.strip().splitlines()[-1]}")
    report = json.loads(done.stdout)
    return report["total_guesses"], report["max"], time.perf_counter() - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=sizes, default=sizes(SIZES), help=f"PxC,... (default {SIZES})")
    parser.add_argument("--strategy", default="entropy", help="the strategy whose tree bounds from above")
    parser.add_argument("--rounds", type=count, default=1, help="rounds raising each part's bound (0: none)")
    args = parser.parse_args(argv)
    print(f"| size | codes | openings | below: partitions | below: {args.rounds} round(s), s, sets | peak "
          f"| above: {args.strategy}, worst, s |")
    print("|---|---|---|---|---|---|---|")
    for rules in args.sizes:
        openings, steps, peak = below(rules, args.rounds)
        high, worst, high_s = above(rules, args.strategy)
        n = rules.size
        (first, _, _), (low, low_s, sets) = steps[0], steps[-1]
        print(f"| {rules.pegs}x{rules.colors} | {n:,} | {openings} | {first:,} ({first / n:.3f}) | "
              f"{low:,} ({low / n:.3f}), {low_s:.1f}, {sets:,} | {memory_text(peak)} | "
              f"{high:,} ({high / n:.3f}), {worst}, {high_s:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    run(main)
