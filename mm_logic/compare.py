"""Compare engines and strategies on the same secrets, rule set by rule set.

Every (rule set, backend, strategy) combination plays the same secrets. For
strategies whose guess is a function of the history, every backend must give
the same number of attempts for every secret; any difference is reported as
a disagreement (an engine or encoding bug).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .codespace import MAX_CODES
from .engines import make_engine
from .errors import BadInput
from .game import BenchResult, bench_all, bench_games, random_secrets
from .rules import Rules
from .strategies import make_strategy

#: The seeds' rule sets (shared/seeds): 000 Java strategies and bound study,
#: 001 CSP and genetic algorithms, 003 SWI-Prolog CLP(FD) guesser.
PRESETS: dict[str, list[Rules]] = {
    "seed000": [Rules(4, 6), Rules(4, 8), Rules(4, 8, 1), Rules(4, 20), Rules(6, 4)],
    "seed001": [Rules(n, 2 * n, 1) for n in range(4, 9)],
    "seed003": [Rules(5, 8, 1), Rules(5, 8)],
}


@dataclass
class Row:
    """One (rule set, backend, strategy) bench."""

    rules: Rules
    backend: str
    strategy: str
    result: BenchResult

    def as_dict(self) -> dict:
        data = self.result.as_dict()
        return {"rules": self.rules.as_dict(), "backend": self.backend, "strategy": self.strategy,
                **{k: data[k] for k in ("games", "total_guesses", "mean", "max", "histogram", "seconds")},
                "ms_per_game": round(1000 * self.result.seconds / max(self.result.games, 1), 3)}


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


@dataclass
class Comparison:
    rows: list[Row] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    complete: bool = True

    def as_dict(self) -> dict:
        return {"rows": [r.as_dict() for r in self.rows],
                "disagreements": [d.as_dict() for d in self.disagreements]}


def check_plan(rule_sets: list[Rules], all_secrets: bool) -> None:
    """Refuse ``--all`` on a code space no engine can enumerate secret by secret."""
    if all_secrets:
        for rules in rule_sets:
            if rules.size > MAX_CODES:
                raise BadInput(f"--all: {rules.describe()} has {rules.size:,} codes; use --games N")


def compare(rule_sets: list[Rules], backends: list[str], strategies: list[str], *,
            all_secrets: bool, games: int | None, seed: int | None, jobs: int = 1,
            encoding=None, time_limit: float | None = None,
            progress: Callable[[int], None] | None = None,
            on_row: Callable[[Row], None] | None = None) -> Comparison:
    """Run the matrix; Ctrl-C keeps the rows finished so far (``complete`` False)."""
    from .notation import format_code

    check_plan(rule_sets, all_secrets)
    outcome = Comparison()
    try:
        for rules in rule_sets:
            secrets = None if all_secrets else random_secrets(rules, games, seed)
            for strategy_name in strategies:
                per_backend: dict[str, dict] = {}
                deterministic = True
                for backend in backends:
                    engine = make_engine(backend, rules, encoding=encoding, time_limit=time_limit)
                    strategy = make_strategy(strategy_name, rules, seed)
                    deterministic = strategy.deterministic
                    try:
                        if all_secrets:
                            result = bench_all(engine, strategy, progress=progress, jobs=jobs)
                        else:
                            result = bench_games(engine, strategy, secrets, progress=progress, jobs=jobs)
                    finally:
                        engine.close()
                    row = Row(rules, backend, strategy_name, result)
                    outcome.rows.append(row)
                    per_backend[backend] = result.by_secret()
                    if on_row:
                        on_row(row)
                if deterministic and len(per_backend) > 1:
                    reference = next(iter(per_backend.values()))
                    for secret in sorted(reference):
                        attempts = {b: per_backend[b][secret] for b in per_backend}
                        if len(set(attempts.values())) > 1:
                            outcome.disagreements.append(
                                Disagreement(rules, strategy_name, format_code(secret, rules), attempts))
    except KeyboardInterrupt:
        outcome.complete = False
    return outcome
