"""Seed 003's CLP(FD) guesser against mmlogic's swipl engine, on the same secrets.

Both play 5 pegs of 8 colours without repetition (seed 003's own setting)
until they find each secret, in the same Python process, through the same
janus bridge to SWI-Prolog:

* **seed 003**: the report's ``ia - version 3.0.pl``, read from the report
  itself at run time (``--seed-doc``, by default
  ``../shared/seeds/003_fbc1ce64130a1d6a.txt`` beside the repository; the
  project holds no copy of it) with the adaptations of :data:`ADAPTATIONS`,
  the least SWI-Prolog 9 needs to load and run it. This script
  plays the part of the seed's client and server: before each game it sets
  ``parametres(5, 8, non)`` and clears ``guess/2``; for each move it calls
  ``bulls_and_cows/1``, scores the guess with mmlogic's feedback rule and
  asserts ``guess(Guess, [Black, White])``, as mastermind-client.pl does
  after asking the socket server. Its opening is random (Prolog's random,
  seeded from ``--seed``).
* **mmlogic**: :class:`~mm_logic.engines.swipl.SwiplEngine` with the
  ``first`` strategy (the smallest consistent code; opens with 01234),
  through :func:`mm_logic.game.play`.

A game's time is the wall time of its moves (not loading either program).
Goal (issue 4): mmlogic at least 10 times faster per game than the seed's
program (about 240 ms per game), with no more attempts on average.

Usage::

    .venv/bin/python py/seed003_vs_swipl.py              # 200 random secrets
    .venv/bin/python py/seed003_vs_swipl.py --games 1000 --seed 3
    .venv/bin/python py/seed003_vs_swipl.py --all        # all 6720 secrets (about half an hour)
    .venv/bin/python py/seed003_vs_swipl.py --seed-doc path/to/003_fbc1ce64130a1d6a.txt
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from mm_logic.bench import random_secrets
from mm_logic.codespace import code_space
from mm_logic.engines.swipl import SwiplEngine
from mm_logic.engines.swipl.runtime import find_swipl, load_janus
from mm_logic.feedback import feedback
from mm_logic.game import play
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy

#: Where the report is, unless --seed-doc says otherwise: shared/ beside the repository.
SEED_DOC = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds" / "003_fbc1ce64130a1d6a.txt"
#: The program is the report's text from this line (its first line, the module) ...
PROGRAM_START = ":- module('ia.pl', [bulls_and_cows/1])."
#: ... up to the heading of the next section.
PROGRAM_END = "IV-C. Quelques résultats."
#: What SWI-Prolog 9 needs changed, and why. library(lambda) is no longer
#: shipped: its one lambda is written with library(yall), where a variable of
#: the clause (Max) is shared with the lambda only when listed in {...}. The
#: source has accented letters: it is read as UTF-8.
ADAPTATIONS = [
    (":- use_module(library(lambda)).", ":- use_module(library(yall))."),
    ("maplist(\\X^(X is random(Max)), Solution)", "maplist({Max}/[X]>>(X is random(Max)), Solution)"),
]
RULES = Rules(5, 8, 1)
#: The seed's module, as its ``:- module`` line names it.
SEED_MODULE = "'ia.pl'"
GOAL_SPEEDUP = 10.0


class MissingReport(Exception):
    """The report, or its program, is not where it was looked for."""


def seed_program(document: Path = SEED_DOC) -> str:
    """The report's ``ia - version 3.0.pl``, adapted to SWI-Prolog 9 (see :data:`ADAPTATIONS`)."""
    if not document.is_file():
        raise MissingReport(f"seed 003's report is not at {document}: give its path with --seed-doc PATH "
                            "(it is shared/seeds/003_fbc1ce64130a1d6a.txt beside the repository)")
    text = document.read_text(encoding="utf-8")
    start = text.find(PROGRAM_START)
    end = text.find(PROGRAM_END, start)
    if start < 0 or end < 0:
        raise MissingReport(f"{document} does not hold seed 003's 'ia - version 3.0.pl' "
                            f"(from {PROGRAM_START!r} to the heading {PROGRAM_END!r})")
    program = text[start:end]
    for old, new in ADAPTATIONS:
        if old not in program:
            raise MissingReport(f"{document}: the program no longer contains {old!r}")
        program = program.replace(old, new)
    return ":- encoding(utf8).\n" + program


def load_seed(janus, seed: int, document: Path = SEED_DOC) -> None:
    """Consult the seed's guesser, read from its report, and seed Prolog's random generator."""
    with tempfile.NamedTemporaryFile("w", suffix=".pl", encoding="utf-8", delete=False) as file:
        file.write(seed_program(document))
    try:
        janus.query_once("load_files(F, [])", {"F": file.name})
    finally:
        Path(file.name).unlink()
    janus.query_once("set_random(seed(S))", {"S": seed})


def play_seed(janus, secret: tuple[int, ...]) -> tuple[int, float]:
    """One game of the seed's guesser; attempts and seconds."""
    start = time.perf_counter()
    janus.query_once(f"retractall({SEED_MODULE}:guess(_, _)), retractall({SEED_MODULE}:parametres(_, _, _)),"
                     f" assertz({SEED_MODULE}:parametres(P, K, non))",
                     {"P": RULES.pegs, "K": RULES.colors})
    attempts = 0
    while True:
        guess = janus.query_once(f"{SEED_MODULE}:bulls_and_cows(G)")["G"]
        if not isinstance(guess, list):  # the seed's "no solution" message
            raise RuntimeError(f"seed 003 found no code for secret {secret}: {guess}")
        attempts += 1
        black, white = feedback(tuple(guess), secret)
        if black == RULES.pegs:
            return attempts, time.perf_counter() - start
        janus.query_once(f"assertz({SEED_MODULE}:guess(G, [B, W]))", {"G": guess, "B": black, "W": white})


def summary(name: str, attempts: list[int], seconds: list[float]) -> tuple[float, float]:
    games = len(attempts)
    mean = sum(attempts) / games
    ms = 1000 * sum(seconds) / games
    histogram = " ".join(f"{k}:{v}" for k, v in sorted(Counter(attempts).items()))
    print(f"{name:<22} {games:>6} {mean:>13.3f} {max(attempts):>4} {ms:>11.2f}   {histogram}")
    return mean, ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="number of secrets (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the secrets and of the seed's opening")
    parser.add_argument("--all", action="store_true", help="play every secret once instead")
    parser.add_argument("--seed-doc", type=Path, default=SEED_DOC, help=f"seed 003's report (default {SEED_DOC})")
    args = parser.parse_args()
    try:
        seed_program(args.seed_doc)
    except MissingReport as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)

    if args.all:
        secrets = [code_space(RULES).code(i) for i in range(RULES.size)]
        what = f"all {len(secrets)} secrets"
    else:
        secrets = random_secrets(RULES, args.games, args.seed)
        what = f"{args.games} random secrets (seed {args.seed})"
    print(f"SWI-Prolog: {find_swipl()}; rules: {RULES.describe()}; {what}")
    janus = load_janus()
    load_seed(janus, args.seed, args.seed_doc)
    engine = SwiplEngine(RULES)
    strategy = make_strategy("first", RULES)
    play(engine, strategy, secrets[0])  # warm up: the template secret is posted once per process

    seed_runs = [play_seed(janus, secret) for secret in secrets]
    ours = [play(engine, strategy, secret) for secret in secrets]

    print(f"{'program':<22} {'games':>6} {'mean attempts':>13} {'max':>4} {'ms per game':>11}   histogram")
    seed_mean, seed_ms = summary("seed 003 (CLP(FD), ff)", [a for a, _ in seed_runs], [s for _, s in seed_runs])
    our_mean, our_ms = summary("mmlogic swipl first", [r.attempts for r in ours], [r.seconds for r in ours])
    ratio = seed_ms / our_ms
    fast = ratio >= GOAL_SPEEDUP
    short = our_mean <= seed_mean
    print(f"per-game time ratio (seed / mmlogic): {ratio:.1f}x "
          f"({'meets' if fast else 'MISSES'} the goal of {GOAL_SPEEDUP:g}x); "
          f"mean attempts {our_mean:.3f} vs {seed_mean:.3f} "
          f"({'no more' if short else 'MORE'} than the seed)")


if __name__ == "__main__":
    main()
