"""Seed 003's opening experiments, replayed on every secret.

The report (section IV-C-2, 5 letters of 8, no doubles, 50,000 random games
each) tried three openings before its CLP(FD) guesser, which then plays the
first consistent code it labels:

========================================  ===========  ===================
opening                                   its mean     its histogram
========================================  ===========  ===================
a random first code                       5.43364      1 to 9 guesses
abcde, then a random second code          5.43594      1 to 9
abcde, then "de e f g h" (read: defgh)    5.48188      1 to 8
========================================  ===========  ===================

and concluded that a random first code or not changes little, but that the
second guess had better take the first one's answer into account. This
script plays the same openings, each followed by mmlogic's ``first``
(the smallest consistent code), over every one of the 6,720 secrets instead
of 50,000 random games, beside ``first``'s own opening (01234, which is
abcde: the letters are colours 0-7) and the report's figures. A random code
is a uniform code without repeats, drawn afresh for each game from one
generator seeded with ``--seed`` (the games are played in lexicographic
order of their secrets, so a run is reproducible); a fixed code is played
whatever the answers were, as the report's modified guesser did. The report
writes its second fixed code "de e f g h", five letters if "de" is the word
"of"; it is read here as defgh (34567).

The report's own guesser differs from ``first`` after the openings (its
clause order tries keeping each letter in place before labeling, see
``py/tools/seed003_vs_swipl.py``), so the figures compare the openings with each
other, not the two guessers.

Usage::

    .venv/bin/python py/tools/seed003_openings.py                    # python engine, every secret
    .venv/bin/python py/tools/seed003_openings.py --backend swipl    # the report's solver (about 4 minutes)
    .venv/bin/python py/tools/seed003_openings.py --json rows.json
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from mm_logic.engines import engine_class, make_engine
from mm_logic.histogram import format_histogram
from mm_logic.notation import Code, format_code
from mm_logic.randomness import random_code
from mm_logic.rules import Rules
from mm_logic.strategies import make_strategy
from mm_logic.strategies.base import Strategy
from mm_logic.studies.bench import bench_all
from mm_logic.support.scripting import natural, output_file, run

#: Seed 003's setting: 5 pegs of 8 colours (letters a-h), no doubles.
RULES = Rules(5, 8, 1, "abcdefgh")
#: A random code in an opening.
RANDOM = None
#: The openings (None: a random code), and the report's mean for each (None: not in the report).
OPENINGS: list[tuple[str, list[Code | None], float | None]] = [
    ("first's own (abcde)", [], None),
    ("a random first code", [RANDOM], 5.43364),
    ("abcde, then a random second code", [(0, 1, 2, 3, 4), RANDOM], 5.43594),
    ("abcde, then defgh", [(0, 1, 2, 3, 4), (3, 4, 5, 6, 7)], 5.48188),
]


class Opened(Strategy):
    """``codes`` first, whatever their answers (:data:`RANDOM`: a random code, drawn afresh each
    game), then ``inner``. A code that would be played after the secret is found is not."""

    def __init__(self, inner: Strategy, codes: list[Code | None], seed: int):
        super().__init__(inner.rules, seed)
        self.inner, self.codes = inner, codes
        # Random codes change from game to game; fixed ones leave a tree (bench_all walks it).
        self.deterministic = RANDOM not in codes and inner.deterministic
        self.name = f"{' '.join('random' if c is RANDOM else format_code(c, self.rules) for c in codes)}, " \
                    f"{inner.name}"
        self._rng = np.random.default_rng(seed)
        self._game: list[Code] = []

    def opening(self, session) -> Code:
        # A new game: its random codes are drawn now, so that each game has its own.
        self._game = [random_code(self.rules, self._rng) if c is RANDOM else c for c in self.codes]
        return self._game[0] if self._game else self.inner.opening(session)

    def choose(self, session) -> Code | None:
        turn = len(session.history)
        return self._game[turn] if turn < len(self._game) else self.inner.choose(session)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", default="python", help="the engine that answers first (default python)")
    parser.add_argument("--seed", type=natural, default=1, help="seed of the random codes (default 1)")
    parser.add_argument("--json", type=output_file, default=None, help="write the rows as JSON")
    args = parser.parse_args()
    engine_class(args.backend)  # an unknown --backend is refused before any game
    engine = make_engine(args.backend, RULES)
    print(f"{RULES.describe()}, every secret ({RULES.size:,}), {args.backend}, then first", flush=True)
    print(f"{'opening':<34} {'games':>5} {'mean':>7} {'max':>4} {'report':>8}  histogram")
    rows = []
    for label, codes, reported in OPENINGS:
        first = make_strategy("first", RULES, args.seed)
        player = Opened(first, codes, args.seed) if codes else first
        result = bench_all(engine, player)
        row = {"opening": label, "games": result.games, "mean": round(result.mean, 5), "max": result.max,
               "histogram": {str(k): v for k, v in sorted(result.histogram.items())}, "report": reported}
        rows.append(row)
        print(f"{label:<34} {row['games']:>5} {row['mean']:>7.3f} {row['max']:>4} "
              f"{'' if reported is None else f'{reported:.3f}':>8}  {format_histogram(result.histogram)}",
              flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    run(main)
