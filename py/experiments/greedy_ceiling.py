"""How far is ``sample-entropy``'s guess from the most informative guess of all?

A finished experiment (issue 15), kept runnable: its figures are in ``docs/results/large-games.md``
(until then the README), section "Large games: what the remaining figures of issue 15 ask", its rows
in ``docs/greedy-ceiling-16x6.json``.

Plays ``sample-entropy`` (clingo engine) on random secrets and, before every
guess after the first, draws a large reference sample of the consistent codes
with a generator of its own (``--reference`` codes, the strategy's samplers;
the whole set when it is small enough). On that sample it measures

* ``played``: the entropy (bits) of the partition the guess actually played makes;
* ``best``: the largest entropy any code reached: ``--starts`` uniform codes and
  ``--starts`` sample codes, each improved one peg at a time on
  ``--climb-sample`` codes of the reference sample (the strategy's own climb,
  run to a local optimum), then scored with ``played`` on the rest of it.

``best`` is what a one-step (greedy) entropy player could gain per guess at
most, as far as a search from many starts finds; the table gives both by guess
number, and the gap summed over a game, in bits and in guesses at the rate the
late guesses carry. The conclusion for 16x6 is in the README ("Large games:
what the remaining figures of issue 15 ask").

Usage::

    .venv/bin/python py/experiments/greedy_ceiling.py --games 10 --seed 1
    .venv/bin/python py/experiments/greedy_ceiling.py --games 10 --json docs/greedy-ceiling-16x6.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys

import numpy as np

from mm_logic.engines import make_engine
from mm_logic.game import Game
from mm_logic.kernels.entropies import climb, partition_entropies
from mm_logic.randomness import random_code
from mm_logic.rules import Rules
from mm_logic.secret_codes import random_secrets
from mm_logic.strategies import make_strategy
from mm_logic.strategies.sampled import SampleEntropy
from mm_logic.support.scripting import count, natural, output_file, run


def entropy(code: np.ndarray, sample: np.ndarray, colors: int) -> float:
    """Bits of the partition ``code`` makes of ``sample``."""
    return float(partition_entropies(code[None, :], sample, colors)[0][0])


def best_found(sub: np.ndarray, held: np.ndarray, rules: Rules, starts: int,
               rng: np.random.Generator) -> float:
    """The largest entropy on ``held`` of the codes that climbs on ``sub`` reach from
    ``starts`` uniform codes and ``starts`` codes of ``sub`` (scored on codes the climbs
    did not see, so the search's own luck does not count)."""
    tops = [np.asarray(random_code(rules, rng), np.int64) for _ in range(starts)]
    tops += [sub[j] for j in rng.choice(len(sub), min(starts, len(sub)), replace=False)]
    return max(entropy(climb(top, sub, rules.colors, rules.repeat_limit, 200)[0], held, rules.colors)
               for top in tops)


def measure(rules: Rules, strategy: str, games: int, seed: int, reference: int, starts: int,
            climb_sample: int) -> tuple[list[int], list[dict]]:
    """Play the games; return the guesses per game and one row per measured guess."""
    engine = make_engine("clingo", rules)
    sampler = SampleEntropy(rules, seed + 1, k=reference)
    counts, rows = [], []
    for number, secret in enumerate(random_secrets(rules, games, seed)):
        game = Game(engine, make_strategy(strategy, rules, seed), secret=secret)
        while not game.won:
            turn = len(game.session.history) + 1
            sample = None
            if turn > 1:
                rng = np.random.default_rng([seed, number, turn])
                sample, exact = sampler.sample(game.session, rng)
                distinct = 0 if sample is None else len(np.unique(sample, axis=0))
                if distinct > 2:
                    # The whole set is split too, so both halves stay (nearly) uniform over it.
                    order = rng.permutation(len(sample))
                    cut = min(climb_sample, len(sample) // 2)
                    sub, sample = sample[order[:cut]], sample[order[cut:]]
                    best = best_found(sub, sample, rules, starts, rng)
                else:
                    sample = None
            game.play_turn()
            if sample is not None:
                played = entropy(np.asarray(game.history[-1][0], np.int64), sample, rules.colors)
                rows.append({"game": number, "guess": turn, "played": played, "best": max(best, played),
                             "exact": bool(exact), "distinct": distinct})
        counts.append(len(game.history))
        print(f"\rgame {number + 1}/{games}: {counts[-1]} guesses", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return counts, rows


def report(counts: list[int], rows: list[dict], late_from: int) -> None:
    """Print the table by guess number and the gap per game."""
    print(f"{'guess':>5} {'cases':>5} {'played (bits)':>13} {'best found':>10} {'gap':>6}")
    for turn in sorted({r["guess"] for r in rows}):
        these = [r for r in rows if r["guess"] == turn]
        played = statistics.mean(r["played"] for r in these)
        best = statistics.mean(r["best"] for r in these)
        print(f"{turn:>5} {len(these):>5} {played:>13.3f} {best:>10.3f} {best - played:>6.3f}")
    gap = sum(r["best"] - r["played"] for r in rows) / len(counts)
    late = [r["played"] for r in rows if r["guess"] >= late_from]
    summary = f"games {len(counts)}, mean {statistics.mean(counts):.2f} guesses; gap summed over a game {gap:.2f} bits"
    rate = statistics.mean(late) if late else 0.0
    if rate > 0:
        print(f"{summary} = {gap / rate:.2f} guesses at the {rate:.2f} bits a guess played from guess {late_from}")
    else:  # nothing to convert the bits with (it printed "nan guesses at the nan bits")
        print(f"{summary}; no guess from guess {late_from} on was measured (--late-from is past them): "
              "not converted to guesses")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pegs", type=int, default=16)
    parser.add_argument("--colors", type=int, default=6)
    parser.add_argument("--games", type=count, default=10)
    parser.add_argument("--seed", type=natural, default=1)
    parser.add_argument("--strategy", default="sample-entropy")
    parser.add_argument("--reference", type=count, default=20_000, help="codes in the reference sample")
    parser.add_argument("--starts", type=count, default=10,
                        help="climbs from uniform codes (and as many from the sample)")
    parser.add_argument("--climb-sample", type=count, default=4000, help="codes each climb is scored on")
    parser.add_argument("--late-from", type=count, default=6, help="first guess of the black-only phase")
    parser.add_argument("--json", type=output_file, help="write the rows to this file")
    args = parser.parse_args(argv)
    rules = Rules(args.pegs, args.colors)
    make_strategy(args.strategy, rules, args.seed)  # a bad --strategy is refused before any game
    counts, rows = measure(rules, args.strategy, args.games, args.seed, args.reference, args.starts,
                           args.climb_sample)
    print(f"{rules.pegs}x{rules.colors}, {args.strategy}, {args.games} random secrets, seed {args.seed}; "
          f"reference sample {args.reference}, {2 * args.starts} climbs a guess")
    report(counts, rows, args.late_from)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"counts": counts, "rows": rows, "args": vars(args)}, out, indent=1, default=str)
    return 0


if __name__ == "__main__":
    run(main)
