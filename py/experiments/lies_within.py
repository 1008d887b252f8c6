"""Is there a strategy that finds every secret within D guesses, whatever the codemaker answers with at most K lies?

The search of :mod:`mm_logic.liar.within` (an AND-OR depth-first search over the sets of states,
exhaustive with ``--full D``, heuristic and widening pass after pass above ``--full``), then, when it
finds a strategy, :func:`mm_logic.liar.within.check`'s walk of its tree against every secret
answered every way with at most K lies, apart from the search. Its figures are in
docs/results/lies.md (issue 40: 4x6 with one lie within 7 guesses).

Usage::

    .venv/bin/python py/experiments/lies_within.py --pegs 4 --colors 6 --depth 7 --full 3 --seconds 2400 \\
        --out docs/results/lies-4x6-within-7.json
    .venv/bin/python py/experiments/lies_within.py --pegs 3 --colors 3 --depth 4   # exhaustive: proved impossible

Prints the search's result (found, none exists (proved), or not found within the time), its passes,
nodes and seconds; when found, the check (games, max, mean, histogram, secrets or answers the tree
misses) and, with ``--out``, the tree's JSON (``{"guess": ..., "answers": {"B,W": {...}}}``) and its
size. Progress on stderr. Exit 0 when found or answered, 1 when the check fails; bad arguments 2,
Ctrl-C 130.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from mm_logic.liar.within import BOUND_DEPTHS, check, parse_widths, search_within, tree_json
from mm_logic.rules import Rules
from mm_logic.support.scripting import count, natural, output_file, positive_seconds, run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pegs", type=count, default=4)
    parser.add_argument("--colors", type=count, default=6)
    parser.add_argument("--lies", type=count, default=1, help="lies the codemaker may tell (default 1)")
    parser.add_argument("--depth", type=count, required=True, help="D: the guesses allowed, the winning one counted")
    parser.add_argument("--full", type=natural, default=None,
                        help="nodes with at most this many guesses left try every guess (default: D, exhaustive)")
    parser.add_argument("--widths", default="", help="LEFT:WIDTH pairs, the guesses a node tries per pass above "
                        "--full, times the pass's number (default 1 everywhere)")
    parser.add_argument("--bounded", type=count, default=BOUND_DEPTHS,
                        help="the counting bound prunes parts left with at most this many guesses (1: never; default "
                        f"{BOUND_DEPTHS}): a proof checked with less of it")
    parser.add_argument("--seconds", type=positive_seconds, default=None, help="time budget of the search")
    parser.add_argument("--out", type=output_file, default=None, help="the strategy's tree as JSON, when found")
    args = parser.parse_args()
    rules = Rules(args.pegs, args.colors, lies=args.lies)
    widths = parse_widths(args.widths)

    def say(message: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    result = search_within(rules, args.depth, full=args.full, widths=widths, seconds=args.seconds, progress=say,
                           bounded=args.bounded)
    print(result.text())
    for entry in result.log:
        failed = ", ".join(f"{opening} ({done} of {parts} answers finished)"
                           for opening, done, parts in entry["failed"])
        print(f"pass {entry['pass']}: width {entry['width']} at the top, {entry['nodes']:,} nodes after it, "
              f"{entry['seconds']} s{' (out of time)' if entry.get('out of time') else ''}"
              f"{'; failed: ' + failed if failed else ''}")
    if not result.found:
        return 0
    start = time.monotonic()
    tree = tree_json(rules, result.tree)
    report = check(rules, tree)
    print(f"check ({time.monotonic() - start:.1f} s, every secret answered every way with at most "
          f"{rules.lies} lie{'s' if rules.lies > 1 else ''}):")
    print(report.text())
    if args.out:
        text = json.dumps({"rules": rules.as_dict(), "within": args.depth, "tree": tree}, separators=(",", ":"))
        args.out.write_text(text + "\n")
        print(f"tree       {args.out} ({len(text) + 1:,} bytes)")
    return 0 if not report.missing and report.worst <= args.depth else 1


if __name__ == "__main__":
    run(main)
