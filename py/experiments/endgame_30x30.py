"""Why informative guesses make 30x30 games slow: the last consistent codes are hard to find.

A finished experiment (issue 15), kept runnable: its figures (the six hardest histories asked again)
are in ``docs/results/large-games.md`` (until then the README), section "Large games: `sample-entropy`".

Plays random 30x30 secrets with a player that chooses informative guesses
(``sample-entropy:10``, or ``drift:R``: the consistent code clingo finds
nearest the previous guess with R random pegs recoloured, via ``near()``),
records every history at which the engine took more than ``--hard`` seconds
to answer (``near()`` falls back to clasp's plain order there), then asks
each of the hardest histories again in several ways:

* ``plain``: clingo's plain order, a fresh session (as ``any`` asks);
* ``counts``: the same with the colour counts the history allows (every
  case here has exactly one count vector) given as assumptions on
  ``at_least(C, I)``;
* ``trendy`` / ``crafty``: clasp's other configurations;
* ``repair``: the package's focused local search (300,000 steps) from four
  uniform codes: the least energy reached, and how many pegs that code
  differs from the secret in;
* ``left -2`` / ``left -4``: consistent codes two and four entries earlier,
  counted by clingo within the cap (``>=`` when it did not finish).

Every solver call is capped at ``--cap`` seconds (shown as ``>cap``).

Usage::

    .venv/bin/python py/experiments/endgame_30x30.py --games 6 --seed 1                 # sample-entropy:10
    .venv/bin/python py/experiments/endgame_30x30.py --games 20 --player drift:15 --cases 0   # players only
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np
from clingo import Function, Number

from mm_logic.engines import make_engine
from mm_logic.engines.clingo import program
from mm_logic.game import Game
from mm_logic.kernels.sample import colour_counts, count_vectors, repair
from mm_logic.randomness import history_rng
from mm_logic.rules import Rules
from mm_logic.secret_codes import random_secrets
from mm_logic.strategies import make_strategy
from mm_logic.strategies.base import SeededStrategy
from mm_logic.strategies.sampled import history_arrays
from mm_logic.support.errors import BadInput
from mm_logic.support.scripting import count, natural, positive_seconds, run


class Drift(SeededStrategy):
    """The consistent code clingo finds nearest the previous guess with ``r`` random pegs recoloured."""

    for_any_size = True
    deterministic = False

    def __init__(self, rules, seed, r):
        super().__init__(rules, seed)
        self.r = r
        self.name = f"drift:{r}"

    def choose(self, session):
        if not session.history:
            return session.any()
        rng = history_rng(self.seed, session.history)
        target = list(session.history[-1][0])
        for p in rng.choice(len(target), self.r, replace=False):
            target[p] = int(rng.integers(self.rules.colors))
        return session.near(tuple(target))

    opening = choose


def player(name: str, rules: Rules, seed: int):
    """``drift:R`` or any strategy name of the package."""
    if name.startswith("drift:"):
        r = name.split(":", 1)[1]
        if not r.isdigit() or int(r) > rules.pegs:
            raise BadInput(f"--player {name!r}: drift:R needs R a number of pegs from 0 to {rules.pegs}")
        return Drift(rules, seed, int(r))
    return make_strategy(name, rules, seed)


def play(rules, engine, name, secrets, seed, hard):
    """Play every secret; return (guesses per game, seconds per game, hard calls).

    A hard call is (seconds, history, secret): an ``any()`` or ``near()`` that took more
    than ``hard`` seconds."""
    counts, seconds, calls = [], [], []
    for secret in secrets:
        game = Game(engine, player(name, rules, seed), secret=secret)
        session = game.session
        for question in ("near", "any"):
            asked = getattr(session, question)

            def timed(*args, asked=asked, session=session, secret=secret):
                start = time.perf_counter()
                answer = asked(*args)
                took = time.perf_counter() - start
                if took > hard:
                    calls.append((took, list(session.history), secret))
                return answer
            setattr(session, question, timed)
        start = time.perf_counter()
        while not game.won:
            game.play_turn()
        seconds.append(time.perf_counter() - start)
        counts.append(len(game.history))
        game.close()
        print(f"\r{name}: {len(counts)}/{len(secrets)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return counts, seconds, calls


def capped_solve(session, cap, assumptions=(), models=1):
    """(seconds, models found, finished) of one clingo search capped at ``cap`` seconds."""
    ctl = session._control.ctl
    ctl.configuration.solve.models = str(models)
    found = [0]

    def seen(_model):
        found[0] += 1
    start = time.perf_counter()
    base = [(session._control.lexicographic, False)]
    with ctl.solve(assumptions=base + list(assumptions), on_model=seen, async_=True) as handle:
        done = handle.wait(cap)
        if not done:
            handle.cancel()
    return time.perf_counter() - start, found[0], done


def count_assumptions(session, guesses, commons, rules):
    """``at_least(C, I)`` assumptions fixing each colour's count between its least and
    most over the count vectors the history (``guesses``, ``commons``) allows."""
    vectors, _ = count_vectors(colour_counts(guesses, rules.colors), commons, rules.pegs, rules.colors,
                               rules.repeat_limit, 5000, 200_000)
    low, high = vectors.min(0), vectors.max(0)
    atoms = session._control.ctl.symbolic_atoms
    out = []
    for c in range(rules.colors):
        for i in range(1, rules.pegs + 1):
            atom = Function("at_least", [Number(c), Number(i)])
            if atom in atoms and (i <= low[c] or i > high[c]):
                out.append((atom, bool(i <= low[c])))
    return out


def shown(seconds, done, cap):
    return f"{seconds:.2f}" if done else f">{cap:g}"


def examine(rules, calls, cases, cap, seed):
    """Ask the hardest ``cases`` histories again (see the module) and print one row each."""
    engines = {"plain": make_engine("clingo", rules)}
    saved = program.LARGE_GAME_ARGUMENTS
    for config in ("trendy", "crafty"):
        program.LARGE_GAME_ARGUMENTS = saved + (f"--configuration={config}",)
        engines[config] = make_engine("clingo", rules)
    program.LARGE_GAME_ARGUMENTS = saved
    rng = np.random.default_rng(seed)
    print(f"{'entries':>7} {'in game':>8} {'plain':>7} {'counts':>7} {'trendy':>7} {'crafty':>7} "
          f"{'repair (energy, pegs off)':>34} {'left -2':>8} {'left -4':>8}")
    for took, history, secret in sorted(calls, key=lambda c: -c[0])[:cases]:
        guesses, blacks, commons = history_arrays(history)
        row = {}
        for label, engine in engines.items():
            session = engine.session(history)
            seconds, _, done = capped_solve(session, cap)
            row[label] = shown(seconds, done, cap)
            if label == "plain":
                seconds, _, done = capped_solve(session, cap, count_assumptions(session, guesses, commons, rules))
                row["counts"] = shown(seconds, done, cap)
            session.close()
        misses = []
        for _ in range(4):
            start = rng.integers(rules.colors, size=rules.pegs)
            code, energy = repair(start, guesses, blacks, commons, rules.colors, rules.repeat_limit, 300_000,
                                  0.02, int(rng.integers(2**31)))
            misses.append(f"({energy},{int((code != np.asarray(secret)).sum())})")
        left = []
        for back in (2, 4):
            session = engines["plain"].session(history[:-back])
            _, found, done = capped_solve(session, cap, models=0)
            left.append(f"{'' if done else '>='}{found}")
            session.close()
        print(f"{len(history):>7} {took:>8.2f} {row['plain']:>7} {row['counts']:>7} {row['trendy']:>7} "
              f"{row['crafty']:>7} {' '.join(misses):>34} {left[0]:>8} {left[1]:>8}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=count, default=6)
    parser.add_argument("--seed", type=natural, default=1)
    parser.add_argument("--player", default="sample-entropy:10", help="sample-entropy:K, drift:R, any, ...")
    parser.add_argument("--hard", type=positive_seconds, default=0.5, help="seconds above which an engine call is hard")
    parser.add_argument("--cases", type=natural, default=8, help="hardest histories asked again (0: none)")
    parser.add_argument("--cap", type=positive_seconds, default=30, help="seconds per solver call when asked again")
    args = parser.parse_args(argv)
    rules = Rules(30, 30)
    player(args.player, rules, args.seed)  # a bad --player is refused now, not after the games of "any"
    secrets = random_secrets(rules, args.games, args.seed)
    engine = make_engine("clingo", rules)
    print(f"30x30, {args.games} random secrets, seed {args.seed}")
    print(f"{'player':<20} {'games':>5} {'mean':>7} {'max':>4} {'s/game':>8} {'hard calls':>10} {'in them':>8}")
    calls = []
    for name in ("any", args.player):
        counts, seconds, hard = play(rules, engine, name, secrets, args.seed, args.hard)
        print(f"{name:<20} {len(counts):>5} {statistics.mean(counts):>7.2f} {max(counts):>4} "
              f"{statistics.mean(seconds):>8.2f} {len(hard):>10} {sum(t for t, _, _ in hard):>8.1f}", flush=True)
        calls = hard
    if args.cases and calls:
        print()
        examine(rules, calls, args.cases, args.cap, args.seed)
    return 0


if __name__ == "__main__":
    run(main)
