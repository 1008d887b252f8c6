"""Compare engines and strategies on the same secrets, rule set by rule set.

A :class:`ComparePlan` says what to run: rule sets (a preset or the rules
options), backends, strategies, and which secrets (every one, or N random
ones); :meth:`ComparePlan.make` checks it all before any game runs. Every
(rule set, backend, strategy) combination then plays the same secrets. For
strategies whose guess is a function of the history, every backend must give
the same number of attempts for every secret; any difference is reported as
a disagreement (an engine or encoding bug).
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .bench import BenchResult, Progress, bench_all, bench_games, check_every_secret, random_secrets
from .engines import BACKENDS, check_encoding, engine_class, make_engine
from .errors import BadInput
from .notation import format_code
from .rules import Rules
from .strategies import STRATEGIES, make_strategy

#: The seeds' rule sets (shared/seeds): 000 Java strategies and bound study,
#: 001 CSP and genetic algorithms, 003 SWI-Prolog CLP(FD) guesser.
PRESETS: dict[str, list[Rules]] = {
    "seed000": [Rules(4, 6), Rules(4, 8), Rules(4, 8, 1), Rules(4, 20), Rules(6, 4)],
    "seed001": [Rules(n, 2 * n, 1) for n in range(4, 9)],
    "seed003": [Rules(5, 8, 1), Rules(5, 8)],
}
#: One line per preset for ``--help``.
PRESET_HELP = {
    "seed000": "4x6, 4x8, 4x8 no-repeat, 4 pegs x 20 colours, 6 pegs x 4 colours",
    "seed001": "n = 4..8 pegs, 2n colours, no repetition",
    "seed003": "5 pegs of 8 colours, with and without repetition",
}


def names(kind: str, choices, text: str) -> list[str]:
    """A comma-separated list of names, each one of ``choices``, without repeats.

    Examples
    --------
    >>> names("strategy", ["first", "any"], "first, any,first")
    ['first', 'any']
    """
    listed = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in listed if n not in choices]
    if unknown or not listed:
        raise BadInput(f"unknown {kind} {unknown[0] if unknown else text!r}; choose from {', '.join(choices)}")
    return list(dict.fromkeys(listed))


@dataclass(frozen=True)
class ComparePlan:
    """What ``compare`` runs; :meth:`make` validates it."""

    rule_sets: list[Rules]
    backends: list[str]
    strategies: list[str]
    all_secrets: bool
    games: int | None
    seed: int | None = None
    jobs: int = 1
    encoding: Path | None = None
    time_limit: float | None = None

    @classmethod
    def make(cls, *, preset: str | None, rules: Rules, explicit_rules: list[str], backends: str,
             strategies: str, all_secrets: bool, games: int | None, **options) -> ComparePlan:
        """Check a plan given as the command line gives it, before any game runs.

        ``explicit_rules`` names the rules options the user typed (they
        conflict with a preset); ``backends`` and ``strategies`` are
        comma-separated names.
        """
        if all_secrets == (games is not None):
            raise BadInput("give exactly one of --all or --games N")
        if preset and explicit_rules:
            raise BadInput(f"give --preset or rules options, not both ({explicit_rules[0]})")
        if preset is not None and preset not in PRESETS:
            raise BadInput(f"unknown preset {preset!r}; choose from {', '.join(PRESETS)}")
        plan = cls(PRESETS[preset] if preset else [rules], names("backend", BACKENDS, backends),
                   names("strategy", STRATEGIES, strategies), all_secrets, games, **options)
        if plan.encoding is not None:
            readers = [b for b in plan.backends if engine_class(b).suffix is not None]
            if len(readers) != 1:
                raise BadInput("--encoding needs exactly one of the clingo or swipl backends")
            check_encoding(readers[0], plan.encoding)
        if all_secrets:
            for r in plan.rule_sets:
                check_every_secret(r)
        return plan

    @property
    def total_games(self) -> int:
        """Games the whole plan plays (for a progress bar)."""
        per_set = sum(r.size if self.all_secrets else self.games for r in self.rule_sets)
        return per_set * len(self.backends) * len(self.strategies)


@dataclass
class Disagreement:
    """Two backends, one deterministic strategy, different attempts for one secret."""

    rules: Rules
    strategy: str
    secret: str
    attempts: dict[str, int]

    def as_dict(self) -> dict:
        return {"rules": self.rules.as_dict(), "strategy": self.strategy, "secret": self.secret,
                "attempts": self.attempts}

    def text(self) -> str:
        attempts = ", ".join(f"{b} {a}" for b, a in self.attempts.items())
        return f"disagreement: {self.rules.describe()} {self.strategy} secret {self.secret}: {attempts}"


#: Fields of a row in ``--json`` and ``--csv``, in order.
ROW_FIELDS = ("games", "total_guesses", "mean", "max", "histogram", "seconds")


def row_dict(row: BenchResult) -> dict:
    """One (rule set, backend, strategy) row as ``compare --json`` writes it."""
    figures = row.figures()
    return {"rules": row.rules.as_dict(), "backend": row.backend, "strategy": row.strategy,
            **{k: figures[k] for k in ROW_FIELDS}, "ms_per_game": round(row.ms_per_game, 3),
            **({"search": row.search} if row.search is not None else {})}


def table_header(rules: Rules) -> str:
    """The heading of one rule set's table."""
    return (f"{rules.describe()} ({rules.size:,} codes)\n"
            f"  {'backend':<8} {'strategy':<9} {'games':>7} {'mean':>6} {'max':>4} {'ms/game':>9} "
            f"{'seconds':>8}  histogram")


def table_row(row: BenchResult) -> str:
    """One line of a rule set's table."""
    d = row_dict(row)
    histogram = " ".join(f"{k}:{v}" for k, v in d["histogram"].items())
    effort = "".join(f"  {k}/game {n / max(row.games, 1):,.0f}" for k, n in (row.search or {}).items())
    return (f"  {row.backend:<8} {row.strategy:<9} {d['games']:>7} {d['mean']:>6.3f} {d['max']:>4} "
            f"{d['ms_per_game']:>9.3f} {d['seconds']:>8.3f}  {histogram}{effort}")


@dataclass
class Comparison:
    """The rows run so far, the disagreements found, and whether the plan finished."""

    rows: list[BenchResult] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    complete: bool = True

    def as_dict(self) -> dict:
        """The contract's ``compare --json`` object."""
        return {"rows": [row_dict(r) for r in self.rows],
                "disagreements": [d.as_dict() for d in self.disagreements]}

    def write_csv(self, path: Path) -> None:
        """The rows as CSV: the rules' fields, then the row's, the histogram as ``k:v`` pairs."""
        fields = ["pegs", "colors", "max_repeat", "backend", "strategy", *ROW_FIELDS, "ms_per_game",
                  "nodes", "checks"]
        with path.open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            for row in map(row_dict, self.rows):
                writer.writerow({**row.pop("rules"), **row.pop("search", {}), **row,
                                 "histogram": " ".join(f"{k}:{v}" for k, v in row["histogram"].items())})


def compare(plan: ComparePlan, progress: Progress | None = None,
            on_row: Callable[[BenchResult], None] | None = None) -> Comparison:
    """Run the plan; Ctrl-C keeps the rows finished so far (``complete`` False)."""
    outcome = Comparison()
    try:
        for rules in plan.rule_sets:
            secrets = None if plan.all_secrets else random_secrets(rules, plan.games, plan.seed)
            for strategy_name in plan.strategies:
                per_backend: dict[str, dict] = {}
                deterministic = True
                for backend in plan.backends:
                    engine = make_engine(backend, rules, time_limit=plan.time_limit,
                                         encoding=plan.encoding if engine_class(backend).suffix else None)
                    strategy = make_strategy(strategy_name, rules, plan.seed, plan.time_limit)
                    deterministic = strategy.deterministic
                    try:
                        if plan.all_secrets:
                            row = bench_all(engine, strategy, progress=progress, jobs=plan.jobs)
                        else:
                            row = bench_games(engine, strategy, secrets, progress=progress, jobs=plan.jobs)
                    finally:
                        engine.close()
                    outcome.rows.append(row)
                    per_backend[backend] = row.by_secret()
                    if on_row:
                        on_row(row)
                if deterministic and len(per_backend) > 1:
                    outcome.disagreements.extend(_disagreements(rules, strategy_name, per_backend))
    except KeyboardInterrupt:
        outcome.complete = False
    return outcome


def _disagreements(rules: Rules, strategy: str, per_backend: dict[str, dict]) -> list[Disagreement]:
    """Secrets on which the backends' attempts differ."""
    found = []
    for secret in sorted(next(iter(per_backend.values()))):
        attempts = {b: per_backend[b][secret] for b in per_backend}
        if len(set(attempts.values())) > 1:
            found.append(Disagreement(rules, strategy, format_code(secret, rules), attempts))
    return found
