"""How long would ``mmlogic optimal`` take on PxC? An estimate from the game's own small parts, checked where known.

The search's time goes to the parts the first guess leaves, each solved exactly. This solves the parts of
one opening (by default the most promising, which the search settles first and exactly) from the smallest
up to ``--up-to`` codes, in one process, with the package's own search, and times each (a part stopped
by ``--part-limit`` or Ctrl-C ends the measuring: it took at least that long); fits ``seconds = a *
codes ** b`` to those that took at least ``--least`` seconds (least squares on the logarithms); and adds
up the fit over the parts left. ``--check`` solves the parts left too and prints the measured time beside
the predicted one: on games whose search finishes (4x7, 4x8) it tells how far to trust the estimate where
it does not (4x10, 5x7, 5x8). On 4x8 the fit predicts a quarter of what its two largest parts take: the
search's time grows faster than any fixed power of a part's size (the exponent grows with the guesses
left), so the estimate is a lower one, and where few parts are solved (5x8) it says little. The parts'
own times and positions a second are the measure; docs/results/optimal.md says how they are
extrapolated.

The estimate is of the opening's exact cost alone, on one core; the other openings are searched against
it (a bound reached early stops one) and, on the sizes measured, took less.

Usage::

    .venv/bin/python py/experiments/optimal_estimate.py --pegs 4 --colors 8 --up-to 500 --check
    .venv/bin/python py/experiments/optimal_estimate.py --pegs 5 --colors 7 --up-to 1000 --json out.json

Its figures are in docs/results/optimal.md, "Beyond 5x7: measured, and how long".
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

from mm_logic.notation import format_code, parse_code
from mm_logic.optimal.searcher import Searcher, compile_kernels, table_bits
from mm_logic.optimal.tasks import INF, openings
from mm_logic.rules import Rules
from mm_logic.support.errors import BadInput
from mm_logic.support.scripting import count, output_file, positive_seconds, run


def fit(measured: list[tuple[int, float]]) -> tuple[float, float]:
    """``(a, b)`` of ``seconds = a * codes ** b`` through ``(codes, seconds)``: least squares on the
    logarithms."""
    if len({n for n, _ in measured}) < 2:
        raise BadInput("too few parts took long enough to fit a curve: raise --up-to or lower --least")
    x = np.log([n for n, _ in measured])
    y = np.log([t for _, t in measured])
    b, log_a = np.polyfit(x, y, 1)
    return math.exp(log_a), float(b)


def _limit(started: float, seconds: float | None):
    """The searcher's tick that stops a part's search after ``seconds`` (None: never)."""
    def tick(_control) -> None:
        if seconds is not None and time.perf_counter() - started > seconds:
            raise KeyboardInterrupt
    return tick


def estimate(rules: Rules, up_to: int, least: float, check: bool, opening: str | None, say=print,
             part_limit: float | None = None) -> dict:
    """Solve the chosen opening's parts of at most ``up_to`` codes (all with ``check``) and predict the others.

    A part whose search is stopped (Ctrl-C, or ``part_limit`` seconds) ends the measuring: it and the larger
    parts are predicted, and its row says ``stopped`` with the seconds it ran, which it took at least.
    """
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
    stopped = False
    for part in parts:
        if stopped or (part.size > up_to and not check):
            rows.append({"codes": int(part.size), "seconds": None, "positions": None, "cost": None})
            continue
        before, started = searcher.positions, time.perf_counter()
        try:
            cost = int(searcher.cost(part, [chosen.index], None, INF, on_tick=_limit(started, part_limit)))
        except KeyboardInterrupt:
            # Ctrl-C or the part's time limit: this part took at least that long, the estimate is made of the
            # parts solved before it.
            stopped, cost = True, None
        seconds, positions = time.perf_counter() - started, searcher.positions - before
        rows.append({"codes": int(part.size), "seconds": round(seconds, 6), "positions": positions, "cost": cost,
                     **({"stopped": True} if stopped else {})})
        say(f"  part of {part.size:,} codes: " + (f"stopped after {seconds:,.0f} s" if stopped else
                                                   f"cost {cost:,}, {seconds:,.2f} s") + f", {positions:,} positions")
        if stopped:
            up_to = min(up_to, int(part.size) - 1)  # what is fitted, and what is predicted
    measured = [(r["codes"], r["seconds"]) for r in rows
                if r["codes"] <= up_to and r["cost"] is not None and r["seconds"] >= least]
    a, b = fit(measured)
    for row in rows:
        row["predicted"] = round(a * row["codes"] ** b, 3)
    found = {"rules": rules.as_dict(), "opening": name, "up_to": up_to, "least": least, "a": a, "b": b,
             "parts": rows, "measured_small": round(sum(r["seconds"] for r in rows if r["codes"] <= up_to), 3),
             "predicted_left": round(sum(r["predicted"] for r in rows if r["codes"] > up_to), 3)}
    if check and not stopped:
        found["measured_left"] = round(sum(r["seconds"] for r in rows if r["codes"] > up_to), 3)
    return found


def report(found: dict) -> str:
    """The estimate as lines for a person: the curve, each part left predicted (and measured), the sums."""
    lines = [f"opening {found['opening']}: seconds = {found['a']:.3g} * codes^{found['b']:.2f}, fitted on the parts "
             f"of at most {found['up_to']:,} codes that took {found['least']} s or more"]
    for row in found["parts"]:
        if row["codes"] > found["up_to"]:
            measured = "" if row["seconds"] is None else \
                f"; {'stopped after' if row.get('stopped') else 'measured'} {row['seconds']:,.1f} s"
            lines.append(f"  {row['codes']:>6,} codes: predicted {row['predicted']:,.1f} s{measured}")
    left = found["predicted_left"]
    lines.append(f"measured {found['measured_small']:,.1f} s on the small parts; predicted {left:,.0f} s for the "
                 f"parts left ({left / 3600:,.2f} hours of one core)")
    if found.get("measured_left"):
        lines.append(f"measured {found['measured_left']:,.1f} s for the parts left: the prediction is "
                     f"{left / found['measured_left']:.2f} times the measure")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pegs", type=count, required=True)
    parser.add_argument("--colors", type=count, required=True)
    parser.add_argument("--up-to", type=count, required=True, metavar="CODES",
                        help="solve the parts of at most this many codes, fit, predict the others")
    parser.add_argument("--least", type=positive_seconds, default=1.0, metavar="SECONDS",
                        help="fit only the parts that took at least this long (default 1)")
    parser.add_argument("--opening", help="the opening whose parts are solved (default: the most promising)")
    parser.add_argument("--check", action="store_true", help="solve the parts left too, and compare")
    parser.add_argument("--part-limit", type=positive_seconds, metavar="SECONDS",
                        help="stop a part's search after this long and estimate from the parts before it (Ctrl-C too)")
    parser.add_argument("--json", type=output_file, help="write the figures as JSON to this file")
    args = parser.parse_args()
    found = estimate(Rules(args.pegs, args.colors), args.up_to, args.least, args.check, args.opening,
                     part_limit=args.part_limit)
    print(report(found))
    if args.json is not None:
        args.json.write_text(json.dumps(found, indent=1) + "\n")


if __name__ == "__main__":
    run(main)
