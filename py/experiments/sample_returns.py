"""Where the returns of ``sample-entropy`` stop: mean guesses against the sample size k.

A finished experiment (issue 15), kept runnable: its figures are in ``docs/results/large-games.md``
(until then the README), sections "Large games: `sample-entropy`" and "Large games: what the remaining
figures of issue 15 ask", its rows and chart in ``docs/sample-returns-16x6.json``,
``docs/sample-returns-20x20.json`` and ``docs/sample-returns.png``.

For each size of game and each k, the same random secrets (``--seed``) are
played with ``sample-entropy:K`` and, beside them, with ``any`` (k = 1 is a
sample of one code: close to ``any`` with extra sampling cost). Every game
goes through :func:`mm_logic.studies.bench.bench_games`, as ``mmlogic bench`` plays
it, one process; figures are the bench's mean and wall time per game.

Usage::

    .venv/bin/python py/experiments/sample_returns.py                          # 16x6 and 20x20, k = 1 to 1000
    .venv/bin/python py/experiments/sample_returns.py --sizes 16x6 --games 100 --ks 1,10,30,100,300,1000
    .venv/bin/python py/experiments/sample_returns.py --plot out.png --json out.json
    .venv/bin/python py/experiments/sample_returns.py --replot a.json,b.json --plot out.png   # no games
    .venv/bin/python py/experiments/sample_returns.py --sizes 20x20 --games 20 --ks 30 --then-any 4,7  # early guesses

The README's figures are not the default run's: they come from one run per
size, each with its own sample sizes (100 secrets on 16x6, 10 on 20x20, seed
1), and the chart is drawn from the two files (``--replot
docs/sample-returns-16x6.json,docs/sample-returns-20x20.json --plot
docs/sample-returns.png``)::

    python py/experiments/sample_returns.py --sizes 16x6 --ks 1,10,30,100,300,1000,3000 \\
        --json docs/sample-returns-16x6.json
    python py/experiments/sample_returns.py --sizes 20x20 --ks 10,30,100 --json docs/sample-returns-20x20.json

``--then-any G`` adds players that let ``sample-entropy:K`` choose the first G
guesses only (where its samples are good) and then play ``any``, named
``sample-entropy:K (G), any`` (in the table and JSON, not in the chart).
``--engine-sample`` adds, for each k, ``engine-sample-entropy:K``: the same
player with its sample drawn by the engine instead of the sampler's kernels
(K solver calls a guess, each aimed at a uniform random code; also left out
of the chart), to tell what the sample's quality buys from what the scoring
does.

Prints a table (size, player, games, mean, max, s/game), optionally writes it
as JSON and a chart (mean guesses against k, log scale, one line per size,
``any`` as a dashed line; time per game on the second axis).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
from pathlib import Path

import numpy as np

from mm_logic.cli.options import distinct_outputs
from mm_logic.engines import engine_class, make_engine
from mm_logic.randomness import random_code
from mm_logic.rules import Rules
from mm_logic.secret_codes import random_secrets
from mm_logic.strategies import make_strategy
from mm_logic.strategies.base import Strategy
from mm_logic.strategies.sampled import SampleEntropy
from mm_logic.studies.bench import bench_games
from mm_logic.studies.sweep_case import parse_sizes
from mm_logic.support.errors import BackendUnavailable, BadInput
from mm_logic.support.files import read_text
from mm_logic.support.scripting import count, natural, output_file, run

#: Games per size when --games is not given (the larger game is much slower per game).
DEFAULT_GAMES = {"16x6": 100, "20x20": 10}


def _sem(values: list[int]) -> float:
    """Standard error of the mean."""
    return statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0


def _counter(label: str, total: int):
    """A bench progress callback writing ``label: n/total`` on stderr."""
    done = 0

    def advance(games: int) -> None:
        nonlocal done
        done += games
        print(f"\r{label}: {done}/{total}", end="", file=sys.stderr, flush=True)
    return advance


class ThenAny(Strategy):
    """``inner`` chooses the first ``guesses`` guesses, then the engine's ``any()``."""

    deterministic = False

    def __init__(self, inner: Strategy, guesses: int):
        super().__init__(inner.rules, inner.seed)
        self.inner, self.guesses, self.k = inner, guesses, getattr(inner, "k", None)
        self.name = f"{inner.name} ({guesses}), any"

    def opening(self, session):
        return self.inner.opening(session) if self.guesses else session.any()

    def choose(self, session):
        return self.inner.choose(session) if len(session.history) < self.guesses else session.any()


class EngineSample(SampleEntropy):
    """``sample-entropy:K`` whose sample is K consistent codes the engine finds, each nearest a
    uniform random code (``near()``; the sampler's kernels are not used): clingo aims its search
    at that code (an engine that cannot aim answers ``any()`` every time). The candidates, the
    climb and the guess are ``sample-entropy``'s."""

    def __init__(self, rules: Rules, seed: int, k: int):
        super().__init__(rules, seed, k)
        self.name = f"engine-sample-entropy:{k}"

    def sample(self, session, rng):
        if not session.history:
            return super().sample(session, rng)  # k uniform codes, as sample-entropy opens
        codes = []
        for _ in range(self.k):
            code = session.near(random_code(self.rules, rng))
            if code is None:
                return None, False
            codes.append(code)
        self.last = {"source": "engine", "codes": self.k}
        return np.asarray(codes, dtype=np.int64), False


def players(rules: Rules, ks: list[int], then_any: list[int], seed: int, engine_sample: bool = False
            ) -> list[Strategy]:
    """``any``, then ``sample-entropy:K`` for each k, each also followed by ``any`` after G guesses,
    and with ``engine_sample`` each also drawing its sample from the engine (:class:`EngineSample`)."""
    chosen = [make_strategy("any", rules, seed)]
    for k in ks:
        chosen.append(make_strategy(f"sample-entropy:{k}", rules, seed))
        chosen += [ThenAny(make_strategy(f"sample-entropy:{k}", rules, seed), g) for g in then_any]
        if engine_sample:
            chosen.append(EngineSample(rules, seed, k))
    return chosen


def play_size(rules: Rules, ks: list[int], games: int, seed: int, backend: str, rows: list[dict],
              save: Path | None, then_any: list[int] = (), engine_sample: bool = False) -> None:
    """Append one row per player (:func:`players`) to ``rows``; the rows so far are written
    to ``save`` after each player."""
    size = f"{rules.pegs}x{rules.colors}"
    secrets = random_secrets(rules, games, seed)
    engine = make_engine(backend, rules)
    for strategy in players(rules, ks, then_any, seed, engine_sample):
        name = strategy.name
        result = bench_games(engine, strategy, secrets, progress=_counter(f"{size} {name}", len(secrets)))
        print(file=sys.stderr)
        row = {"size": size, "player": name, "k": getattr(strategy, "k", None),
               "then_any": getattr(strategy, "guesses", None),
               "engine_sample": isinstance(strategy, EngineSample),
               "games": result.games, "mean": round(result.mean, 3), "max": result.max,
               "sem": round(_sem([a for _, a in result.games_played]), 3),
               "seconds_per_game": round(result.seconds / result.games, 3)}
        rows.append(row)
        print(f"{size:<6} {name:<28} {row['games']:>5} {row['mean']:>7.3f} {row['max']:>4} "
              f"{row['seconds_per_game']:>8.3f}", flush=True)
        if save:
            save.write_text(json.dumps(rows, indent=1) + "\n")


def sample_sizes(text: str) -> list[int]:
    """``--ks``: comma-separated counts, e.g. ``1,10,30``."""
    return [count(k.strip()) for k in text.split(",")]


def then_any_guesses(text: str) -> list[int]:
    """``--then-any``: comma-separated numbers of guesses, e.g. ``4,7``."""
    return [natural(g.strip()) for g in text.split(",")]


#: What a row of an earlier run's JSON must hold for the chart.
ROW_KEYS = {"size", "player", "k", "games", "mean", "seconds_per_game"}


def read_rows(name: str) -> list[dict]:
    """The rows of an earlier run's ``--json`` file (bad input, exit 2, when it is not one)."""
    try:
        rows = json.loads(read_text(Path(name), "--replot"))
    except OSError as error:
        raise BadInput(f"--replot: cannot read {name}: {(error.strerror or str(error)).lower()}") from None
    except ValueError:  # not JSON, or not UTF-8
        rows = None
    if not isinstance(rows, list) or not all(isinstance(r, dict) and r.keys() >= ROW_KEYS for r in rows):
        raise BadInput(f"--replot: {name} is not the JSON rows of an earlier run (--json)")
    return rows


def plot(rows: list[dict], path: Path) -> None:
    """Mean guesses against k (log axis) per size, ``any`` dashed; seconds per game in grey."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = list(dict.fromkeys(r["size"] for r in rows))
    fig, axes = plt.subplots(1, len(sizes), figsize=(5.5 * len(sizes), 4), squeeze=False)
    for ax, size in zip(axes[0], sizes):
        mine = [r for r in rows if r["size"] == size and r["k"] is not None and r.get("then_any") is None
                and not r.get("engine_sample")]
        anyrow = next(r for r in rows if r["size"] == size and r["k"] is None)
        ks = [r["k"] for r in mine]
        if all("sem" in r for r in mine):
            ax.errorbar(ks, [r["mean"] for r in mine], yerr=[r["sem"] for r in mine], fmt="o-", capsize=3,
                        label="sample-entropy:k (± 1 s.e.)")
        else:  # rows of a run that did not record standard errors
            ax.plot(ks, [r["mean"] for r in mine], "o-", label="sample-entropy:k")
        ax.axhline(anyrow["mean"], linestyle="--", color="C1", label=f"any ({anyrow['mean']:.2f})")
        ax.set_xscale("log")
        ax.set_xlabel("k (consistent codes in the sample)")
        ax.set_ylabel("mean guesses")
        ax.set_title(f"{size}, {anyrow['games']} random secrets")
        right = ax.twinx()
        right.plot(ks, [r["seconds_per_game"] for r in mine], "s:", color="grey", label="s/game")
        right.set_ylim(bottom=0)
        right.set_ylabel("seconds per game (grey)")
        ax.legend(loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="16x6,20x20", help="comma-separated PxC (default 16x6,20x20)")
    parser.add_argument("--ks", type=sample_sizes, default="1,10,30,100,300,1000",
                        help="sample sizes (default 1,10,30,100,300,1000)")
    parser.add_argument("--games", type=count, default=None, help="random secrets per size (default 100 on 16x6, "
                                                                  "10 on 20x20)")
    parser.add_argument("--then-any", type=then_any_guesses, default=[], metavar="G[,G...]",
                        help="also let each sample-entropy:K choose the first G guesses only, then play any")
    parser.add_argument("--engine-sample", action="store_true",
                        help="also play each k with its sample drawn by the engine, K codes each nearest "
                             "a uniform code (engine-sample-entropy:K; slow: K solver calls a guess)")
    parser.add_argument("--seed", type=natural, default=1)
    parser.add_argument("--backend", default="clingo")
    parser.add_argument("--json", type=output_file, default=None, help="write the rows as JSON")
    parser.add_argument("--plot", type=output_file, default=None, help="write the chart (PNG)")
    parser.add_argument("--replot", default=None, help="comma-separated JSON files of earlier runs: plot them, "
                                                       "play nothing")
    args = parser.parse_args()
    # The chart written over the rows it draws (an earlier run's, or this run's --json) lost them.
    replotted = [("--replot", Path(name)) for name in args.replot.split(",")] if args.replot else []
    distinct_outputs(replotted, json=None if args.replot else args.json, plot=args.plot)
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        raise BackendUnavailable("the chart needs matplotlib: pip install 'mmlogic[plot]'")
    rows: list[dict] = []
    if args.replot:
        for name in args.replot.split(","):
            rows += read_rows(name)
    else:
        # Every size is checked before the first game: a bad one would otherwise stop the run hours in.
        sizes = [Rules(pegs, colors) for pegs, colors in parse_sizes(args.sizes)]
        engine_class(args.backend)  # an unknown --backend is refused too
        print(f"{'size':<6} {'player':<28} {'games':>5} {'mean':>7} {'max':>4} {'s/game':>8}")
        for rules in sizes:
            games = DEFAULT_GAMES.get(f"{rules.pegs}x{rules.colors}", 10) if args.games is None else args.games
            play_size(rules, args.ks, games, args.seed, args.backend, rows, args.json, args.then_any,
                      args.engine_sample)
    if args.plot:
        plot(rows, args.plot)


if __name__ == "__main__":
    run(main)
