"""How long would ``mmlogic optimal`` take on PxC? An estimate from the game's own small parts, checked where known.

The search's time goes to the parts the first guess leaves, each solved exactly. This solves the parts of
one opening (by default the most promising, which the search settles first and exactly) from the smallest
up to ``--up-to`` codes, in one process, with the package's own search, and times each; fits
``seconds = a * codes ** b`` to those that took at least ``--least`` seconds (least squares on the
logarithms); and adds up the fit over the parts left. ``--check`` solves the parts left too and prints the
measured time beside the predicted one: on games whose search finishes (4x7, 4x8, 5x6) it tells how far
to trust the estimate where it does not (4x10, 5x7, 5x8).

The estimate is of the opening's exact cost alone, on one core; the other openings are searched against
it (a bound reached early stops one) and, on the sizes measured, took less.

Usage::

    .venv/bin/python py/experiments/optimal_estimate.py --pegs 4 --colors 8 --up-to 500 --check
    .venv/bin/python py/experiments/optimal_estimate.py --pegs 5 --colors 7 --up-to 1000 --json out.json

Its figures are in docs/results/optimal.md, "Beyond 5x6: how long".
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

from mm_logic.errors import BadInput
from mm_logic.notation import format_code, parse_code
from mm_logic.rules import Rules
from mm_logic.scripting import count, output_file, positive_seconds, run
from mm_logic.studies.optimal_search import Searcher, compile_kernels, table_bits
from mm_logic.studies.optimal_split import INF, openings


def fit(measured: list[tuple[int, float]]) -> tuple[float, float]:
    """``(a, b)`` of ``seconds = a * codes ** b``, least squares on the logarithms of ``(codes, seconds)``."""
    if len({n for n, _ in measured}) < 2:
        raise BadInput("too few parts took long enough to fit a curve: raise --up-to or lower --least")
    x = np.log([n for n, _ in measured])
    y = np.log([t for _, t in measured])
    b, log_a = np.polyfit(x, y, 1)
    return math.exp(log_a), float(b)


def estimate(rules: Rules, up_to: int, least: float, check: bool, opening: str | None, say=print) -> dict:
    """Solve the chosen opening's parts of at most ``up_to`` codes (all with ``check``) and predict the others."""
    compile_kernels(None, rules=rules)
    searcher = Searcher(rules, None, False, table_bits(rules, 1, None))
    candidates = openings(searcher, None)
    if opening is None:
        chosen = candidates[0]
    else:
        code = parse_code(opening, rules)
        chosen = next((o for o in candidates if searcher.code(o.index) == code), None)
        if chosen is None:
            raise BadInput(f"--opening {opening} is not one of the canonical openings "
                           f"({', '.join(format_code(searcher.code(o.index), rules) for o in candidates)})")
    name = format_code(searcher.code(chosen.index), rules)
    parts = sorted((p for _, p in chosen.parts if p.size > 2), key=lambda p: p.size)
    rows = []
    for part in parts:
        if part.size > up_to and not check:
            rows.append({"codes": int(part.size), "seconds": None, "positions": None, "cost": None})
            continue
        before, started = searcher.positions, time.perf_counter()
        cost = searcher.cost(part, [chosen.index], None, INF)
        seconds = time.perf_counter() - started
        rows.append({"codes": int(part.size), "seconds": round(seconds, 3), "positions": searcher.positions - before,
                     "cost": int(cost)})
        say(f"  part of {part.size:,} codes: cost {cost:,}, {seconds:,.2f} s, {searcher.positions - before:,} "
            "positions")
    a, b = fit([(r["codes"], r["seconds"]) for r in rows if r["codes"] <= up_to and r["seconds"] >= least])
    for row in rows:
        row["predicted"] = round(a * row["codes"] ** b, 3)
    small = sum(r["seconds"] for r in rows if r["codes"] <= up_to)
    left = sum(r["predicted"] for r in rows if r["codes"] > up_to)
    found = {"rules": rules.as_dict(), "opening": name, "up_to": up_to, "least": least, "a": a, "b": round(b, 3),
             "parts": rows, "measured_small": round(small, 3), "predicted_left": round(left, 3),
             "estimated": round(small + left, 3)}
    if check:
        found["measured_left"] = round(sum(r["seconds"] for r in rows if r["codes"] > up_to), 3)
    return found


def report(found: dict) -> str:
    lines = [f"opening {found['opening']}: seconds = {found['a']:.3g} * codes^{found['b']} "
             f"(fitted on the parts of at most {found['up_to']:,} codes that took {found['least']} s or more)"]
    for row in found["parts"]:
        if row["codes"] > found["up_to"]:
            measured = "" if row["seconds"] is None else f", measured {row['seconds']:,.1f} s"
            lines.append(f"  {row['codes']:>6,} codes: predicted {row['predicted']:,.1f} s{measured}")
    lines.append(f"measured {found['measured_small']:,.1f} s on the small parts; predicted {found['predicted_left']:,.0f} s "
                 f"for the parts left ({found['predicted_left'] / 3600:,.2f} hours of one core)")
    if "measured_left" in found:
        lines.append(f"measured {found['measured_left']:,.1f} s for the parts left: the prediction is "
                     f"{found['predicted_left'] / found['measured_left']:.2f} times the measure")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pegs", type=count, required=True)
    parser.add_argument("--colors", type=count, required=True)
    parser.add_argument("--up-to", type=count, required=True, metavar="CODES",
                        help="solve the parts of at most this many codes, fit, predict the others")
    parser.add_argument("--least", type=positive_seconds, default=0.05, metavar="SECONDS",
                        help="fit only the parts that took at least this long (default 0.05)")
    parser.add_argument("--opening", help="the opening whose parts are solved (default: the most promising)")
    parser.add_argument("--check", action="store_true", help="solve the parts left too, and compare")
    parser.add_argument("--json", type=output_file, help="write the figures as JSON to this file")
    args = parser.parse_args()
    found = estimate(Rules(args.pegs, args.colors), args.up_to, args.least, args.check, args.opening)
    print(report(found))
    if args.json is not None:
        args.json.write_text(json.dumps(found, indent=1) + "\n")


if __name__ == "__main__":
    run(main)
