"""A Z3 solver against clingo's ``any`` on large games (16 pegs of 6 colours).

A finished experiment (issue 3's reference, then issue 15), kept runnable: its figures are in
``docs/results/large-games.md`` (until then the README), sections "Large games: clingo's `any`
against a Z3 solver" and "Large games: what the remaining figures of issue 15 ask".

The reference of issue 3 is a Z3-based player published with "10.51 guesses
and 6.6 s per game" on 16x6 (Z3 4.8.7, 1000 secrets evenly spaced over the
code space). This script plays that player and mmlogic on the *same*
secrets, so the two guess counts can be compared:

* **Z3**: the published player's idea, written here from its description.
  Boolean ``s[p][c]`` (peg ``p`` holds colour ``c``), exactly one per peg
  (pseudo-Boolean ``PbEq``); for every guess, fresh ``fm[p]`` (full match on
  peg ``p``) with ``PbEq(fm) == black``, and fresh ``sm[i][j]`` (the guess's
  peg ``i`` matches the secret's peg ``j``, both without a full match, with
  lower pegs matched first) with ``PbEq(sm) == white``. One incremental
  ``SolverFor("QF_FD")`` per game; each guess is whatever model Z3 returns.
* **mmlogic**: ``ClingoEngine`` with the ``any`` strategy (and any others
  named by ``--strategies``, e.g. ``any,sample-entropy``), through
  :func:`mm_logic.game.play`.

Both are scored by mmlogic's feedback rule. Z3 is not a dependency of
mmlogic; install the published version next to it first::

    .venv/bin/pip install z3-solver==4.8.7.0
    .venv/bin/python py/experiments/z3_baseline.py --games 100 --seed 1       # random secrets
    .venv/bin/python py/experiments/z3_baseline.py --spaced 1000 --every 10    # the published secrets 0, 10, 20, ...
    .venv/bin/python py/experiments/z3_baseline.py --games 60 --strategies any,sample-entropy

A game's time is the wall time of its guesses. The table is printed when every
game is played: Ctrl-C prints no row (``interrupted``, exit 130).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from itertools import permutations

from mm_logic.engines.clingo import ClingoEngine
from mm_logic.feedback import feedback
from mm_logic.game import play
from mm_logic.notation import Code, format_code
from mm_logic.rules import Rules
from mm_logic.secret_codes import random_secrets, spaced_secrets
from mm_logic.strategies import make_strategy
from mm_logic.support.errors import BackendUnavailable, BadInput, MMLogicError
from mm_logic.support.interrupts import interrupts_held
from mm_logic.support.scripting import count, natural, run

#: What ``Solver.reason_unknown()`` says when Ctrl-C stopped ``check()``: Z3 takes SIGINT itself while it
#: searches, so Python never sees it, and ``check()`` returns ``unknown``.
Z3_CTRL_C = "interrupted from keyboard"


def play_z3(z3, rules: Rules, secret: Code, between: Callable[[], None] = lambda: None) -> tuple[int, float]:
    """One game of the Z3 player: attempts and seconds. ``between`` is called before each guess
    (:meth:`mm_logic.support.interrupts.Held.check`)."""
    start = time.perf_counter()
    pegs, colors = rules.pegs, rules.colors
    solver = z3.SolverFor("QF_FD")
    s = [[z3.Bool(f"s_{p}_{c}") for c in range(colors)] for p in range(pegs)]
    for row in s:
        solver.add(z3.PbEq([(v, 1) for v in row], 1))
    attempts = 0
    while True:
        between()
        verdict = solver.check()
        if verdict == z3.unknown:
            # Not "no code": Z3 stopped searching. Ctrl-C while it searches is Z3's, which stops; say it as Ctrl-C.
            reason = solver.reason_unknown()
            if reason == Z3_CTRL_C:
                raise KeyboardInterrupt
            raise MMLogicError(f"Z3 gave up on secret {format_code(secret, rules)} after {attempts} guesses "
                               f"(check() returned unknown: {reason})")
        if verdict != z3.sat:
            raise RuntimeError(f"Z3 found no consistent code for secret {secret}")
        model = solver.model()
        guess = tuple(next(c for c in range(colors) if z3.is_true(model.eval(s[p][c])))
                      for p in range(pegs))
        attempts += 1
        black, white = feedback(guess, secret)
        if black == pegs:
            return attempts, time.perf_counter() - start
        fm = [z3.FreshBool() for _ in range(pegs)]
        sm = [[z3.FreshBool() for _ in range(pegs)] for _ in range(pegs)]
        for p in range(pegs):
            solver.add(s[p][guess[p]] == fm[p])
        solver.add(z3.PbEq([(v, 1) for v in fm], black))
        for i in range(pegs):
            # guess peg i pairs with secret peg j: same colour, neither a full
            # match, and neither already paired with a lower peg. One assertion
            # per guess peg, as the published player adds them (Z3's search, and
            # so its guesses, depend on how the constraints are asserted).
            pairs = []
            for j in range(pegs):
                if i == j:
                    continue
                body = [z3.Not(fm[i]), s[j][guess[i]], z3.Not(fm[j])]
                body += [z3.Not(sm[k][j]) for k in range(i) if k != j]
                body += [z3.Not(sm[i][k]) for k in range(j) if k != i]
                pairs.append(z3.And(body) == sm[i][j])
            solver.add(z3.And(pairs))
        solver.add(z3.PbEq([(sm[i][j], 1) for i, j in permutations(range(pegs), 2)], white))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pegs", type=int, default=16)
    parser.add_argument("--colors", type=int, default=6)
    parser.add_argument("--games", type=count, default=None, help="random secrets (default 100)")
    parser.add_argument("--seed", type=natural, default=1)
    parser.add_argument("--spaced", type=count, default=None, help="evenly spaced secrets, as published")
    parser.add_argument("--every", type=count, default=1, help="play every k-th of the spaced secrets")
    parser.add_argument("--offset", type=natural, default=0, help="first spaced secret played")
    parser.add_argument("--skip-z3", action="store_true", help="play mmlogic only")
    parser.add_argument("--strategies", default="any", help="mmlogic strategies on clingo, comma-separated "
                                                            "(default any)")
    args = parser.parse_args()
    z3 = None
    if not args.skip_z3:
        # Checked before mmlogic's games: without it they would be played, then the run would fail.
        try:
            import z3
        except ImportError:
            raise BackendUnavailable("the Z3 player needs Z3: pip install z3-solver==4.8.7.0 "
                                     "(or --skip-z3 to play mmlogic only)") from None
    rules = Rules(args.pegs, args.colors)
    if args.spaced is not None:
        if args.offset >= args.spaced:
            raise BadInput(f"--offset {args.offset} leaves none of the {args.spaced} spaced secrets "
                           f"(it must be below --spaced)")
        secrets = spaced_secrets(rules, args.spaced)[args.offset::args.every]
        label = f"{len(secrets)} of {args.spaced} evenly spaced secrets (from {args.offset}, every {args.every})"
    else:
        secrets = random_secrets(rules, 100 if args.games is None else args.games, args.seed)
        label = f"{len(secrets)} random secrets, seed {args.seed}"

    engine = ClingoEngine(rules)
    # Every name is checked before the first game.
    strategies = [(name, make_strategy(name, rules, seed=args.seed)) for name in args.strategies.split(",")]
    print(f"{rules.describe()}, {label}", flush=True)  # the table follows when every game is played
    rows = []
    for name, strategy in strategies:
        ours = [(r.attempts, r.seconds) for r in (play(engine, strategy, secret) for secret in secrets)]
        rows.append((f"mmlogic clingo {name}", ours))
    if z3 is not None:
        # Ctrl-C is held while the Z3 games run and raised between guesses: Python raises it in
        # whatever Python code runs when the signal comes; in z3's AstRef.__del__ it was printed
        # ("Exception ignored in ...") and lost, and the run went on to print a row; in z3's ctypes
        # calls it came out as ctypes.ArgumentError.
        with interrupts_held() as ctrl_c:
            games = [play_z3(z3, rules, secret, ctrl_c.check) for secret in secrets]
        rows.append((f"Z3 {z3.get_version_string()}", games))

    width = max(len(name) for name, _ in rows)
    print(f"{'player':<{width}} {'games':>5} {'mean':>7} {'max':>4} {'s/game':>8}")
    for name, games in rows:
        attempts = [a for a, _ in games]
        seconds = sum(t for _, t in games) / len(games)
        print(f"{name:<{width}} {len(games):>5} {sum(attempts) / len(games):>7.3f} {max(attempts):>4} "
              f"{seconds:>8.3f}")


if __name__ == "__main__":
    run(main)
