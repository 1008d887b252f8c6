"""Compare engines and strategies on the same secrets, rule set by rule set.

A :class:`ComparePlan` says what to run: rule sets (a preset or the rules
options), backends, strategies, and which secrets (every one, or N random
ones); :meth:`ComparePlan.make` checks it all before any game runs. Every
(rule set, backend, strategy) combination then plays the same secrets. For
strategies whose guess is a function of the history, every backend must give
the same number of attempts for every secret; any difference is reported as
a disagreement (an engine or encoding bug). Strategies that played the same
secrets on the same engine are compared pair by pair on them (:class:`Paired`:
the mean difference, its 95% interval, a paired t-test and a sign test).
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..codespace import MAX_CODES, code_space
from ..engines import BACKENDS, check_encoding, check_feedback_rule, engine_class, make_engine
from ..feedback import rule_of
from ..feedback.custom import is_rule_file
from ..histogram import figure, format_histogram
from ..notation import Code, amount, format_code, quoted
from ..player import Player
from ..randomness import drawn_seed
from ..rules import FEEDBACK_RULES, Rules
from ..secret_codes import check_every_secret, game_secrets, random_secrets, secret_indices
from ..strategies import StrategyName, parse_strategies, with_ga
from ..strategies.genetic import GENETIC_NAMES
from ..support.errors import BadInput
from .bench import BenchResult, Progress, bench_all, bench_games, warm_up
from .presets import PRESETS, Study
from .statistics import PairedTest, format_p, paired_test


def feedback_names(text: str) -> list[str]:
    """A comma-separated list of feedback rules: built-in names, or files stating a rule of one's own
    (``FILE.py``, ``FILE.lp``, ``FILE.pl``), without repeats.

    >>> feedback_names("standard, examples/shared_colours.py,standard")
    ['standard', 'examples/shared_colours.py']
    """
    listed = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in listed if n not in FEEDBACK_RULES and not is_rule_file(n)]
    if unknown or not listed:
        raise BadInput(f"unknown feedback rule {quoted(unknown[0] if unknown else text)}; choose from "
                       f"{', '.join(FEEDBACK_RULES)}, or a FILE.py, FILE.lp or FILE.pl of your own")
    return list(dict.fromkeys(listed))


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
        raise BadInput(f"unknown {kind} {quoted(unknown[0] if unknown else text)}; choose from {', '.join(choices)}")
    return list(dict.fromkeys(listed))


@dataclass(frozen=True)
class ComparePlan:
    """What ``compare`` runs (one or more studies); :meth:`make` validates it."""

    studies: tuple[Study, ...]
    #: The preset's name, when the plan replays one.
    preset: str | None = None
    seed: int | None = None
    jobs: int = 1
    encoding: Path | None = None
    time_limit: float | None = None

    @classmethod
    def make(cls, *, preset: str | None, rules: Rules, explicit_rules: list[str], backends: str | None,
             strategies: str | None, all_secrets: bool, games: int | None, feedbacks: str | None = None,
             ga: str | None = None, **options) -> ComparePlan:
        """Check a plan given as the command line gives it, before any game runs.

        ``explicit_rules`` names the rules options the user typed (they
        conflict with a preset); ``backends`` and ``strategies`` are
        comma-separated names, None where not typed (a preset's own apply,
        else ``clingo`` and ``first``). ``--all`` or ``--games N`` is needed
        without a preset; with one, either replaces the studies' own choice.
        ``feedbacks``: comma-separated feedback rules, each rule set played under
        each (None: the rule sets' own, the standard rule unless a preset names another).
        ``ga``: ``--ga``'s parameters, over the genetic strategies' own (refused where none is genetic).
        """
        if all_secrets and games is not None:
            raise BadInput("give exactly one of --all or --games N")
        if preset and explicit_rules:
            raise BadInput(f"give --preset or rules options, not both ({explicit_rules[0]})")
        if preset is not None and preset not in PRESETS:
            raise BadInput(f"unknown preset {quoted(preset)}; choose from {', '.join(PRESETS)}")
        if preset is None:
            if not all_secrets and games is None:
                raise BadInput("give exactly one of --all or --games N")
            studies = (Study(rules.describe(), "rules", (rules,), ("clingo",), ("first",)),)
        else:
            studies = PRESETS[preset]
        chosen_backends = tuple(names("backend", BACKENDS, backends)) if backends is not None else None
        if feedbacks is not None:
            axis = feedback_names(feedbacks)
            # (A preset's rule sets that differ by their rule only become one per rule typed.)
            studies = tuple(replace(study, rule_sets=tuple(dict.fromkeys(replace(r, feedback=f) for r in study.rule_sets
                                                                             for f in axis))) for study in studies)
        # Every strategy is read once, here (a ``tree:FILE`` of --strategy with its tree): the studies then
        # hold what was read, and nothing parses a name again per study, rule set or backend.
        chosen_strategies = tuple(parse_strategies(strategies)) if strategies is not None else ()
        read: dict[str, StrategyName] = {}
        for study in studies:
            for name in study.strategies if not chosen_strategies else ():
                if name not in read:
                    read[name] = parse_strategies([name], files=False)[0]
        studies = tuple(replace(
            study,
            backends=chosen_backends or study.backends,
            strategies=chosen_strategies or tuple({read[n].name: read[n] for n in study.strategies}.values()),
            games=games if games is not None else study.games,
            every_secret_up_to=MAX_CODES if all_secrets else 0 if games is not None else study.every_secret_up_to,
        ) for study in studies)
        if ga is not None:
            if not any(s.name.partition(":")[0] in GENETIC_NAMES for study in studies for s in study.strategies):
                raise BadInput("--ga sets a genetic algorithm's parameters; no strategy compared is one "
                               f"(choose from {', '.join(GENETIC_NAMES)})")
            studies = tuple(replace(study, strategies=tuple(dict.fromkeys(
                with_ga(s, ga) if s.name.partition(":")[0] in GENETIC_NAMES else s for s in study.strategies)))
                for study in studies)
        if options.get("seed") is None:
            # One seed for the whole plan: each backend drawing its own, a random strategy played other games on
            # each, reported as disagreements.
            options["seed"] = drawn_seed()
        plan = cls(studies, preset, **options)
        if plan.encoding is not None:
            readers = {b for s in studies for b in s.backends if engine_class(b).suffix is not None}
            if len(readers) != 1:
                raise BadInput("--encoding needs exactly one of the clingo or swipl backends")
            check_encoding(readers.pop(), plan.encoding)
        if all_secrets:
            for study in studies:
                for r in study.rule_sets:
                    check_every_secret(r)
        for study in studies:  # every engine and strategy plays its rule sets' feedback rule, before any game
            for r in study.rule_sets:
                for backend in study.backends:
                    if study.plays(r, backend):
                        check_feedback_rule(backend, r, plan.encoding if plan.reads(backend) else None)
                for strategy in study.strategies:
                    if r.feedback_kind not in strategy.cls.feedback_rules:
                        strategy.check(r)
        return plan

    def reads(self, backend: str) -> bool:
        """Whether ``backend`` plays the game of ``--encoding`` (it reads such files); the others
        play the rules' game."""
        return self.encoding is not None and engine_class(backend).suffix is not None

    def unchecked(self) -> str | None:
        """With ``--encoding``: which backends play the rules' game, so that no disagreement with the
        encoding's reader is checked (None when every backend reads it, or without an encoding)."""
        others = [b for b in self.backends if not self.reads(b)] if self.encoding is not None else []
        if not others:
            return None
        reader = next(b for b in self.backends if self.reads(b))
        return (f"{reader} plays the game of {self.encoding.name}; {', '.join(others)} "
                f"{'plays' if len(others) == 1 else 'play'} the rules' game, on its secrets where "
                f"{reader} plays too, so no disagreement with {reader} is checked")

    @property
    def backends(self) -> list[str]:
        """Every backend of the plan, once, in the order of its studies."""
        return list(dict.fromkeys(b for study in self.studies for b in study.backends))

    @property
    def total_games(self) -> int:
        """Games the whole plan plays (for a progress bar)."""
        return sum((r.size if s.every_secret(r) else s.games) * len(s.strategies)
                   for s in self.studies for r in s.rule_sets for b in s.backends if s.plays(r, b))


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
#: The statistics after them (:meth:`~mm_logic.studies.bench.BenchResult.statistics`; in CSV ``ci95`` is two
#: columns, ``ci95_low`` and ``ci95_high``).
STATISTICS_FIELDS = ("min", "stdev", "ci95", "failed", "failure_rate")


def row_dict(row: BenchResult) -> dict:
    """One (rule set, backend, strategy) row as ``compare --json`` writes it."""
    figures = row.figures()
    return {"rules": row.rules.as_dict(), "backend": row.backend, "strategy": row.strategy,
            **{k: figures[k] for k in ROW_FIELDS}, "ms_per_game": round(row.ms_per_game, 3),
            **row.statistics(), **({"search": row.search} if row.search is not None else {})}


#: Least widths of the backend and strategy columns of the tables.
COLUMN_WIDTHS = (8, 9)


def column_widths(plan: ComparePlan) -> tuple[int, int]:
    """Widths of the backend and strategy columns: the longest name of the plan (rows are
    printed as they finish, so the widths are fixed before the first one), at least
    :data:`COLUMN_WIDTHS`."""
    backends = [b for study in plan.studies for b in study.backends]
    strategies = [str(s) for study in plan.studies for s in study.strategies]
    return (max([COLUMN_WIDTHS[0], *map(len, backends)]), max([COLUMN_WIDTHS[1], *map(len, strategies)]))


def table_header(rules: Rules, widths: tuple[int, int] = COLUMN_WIDTHS) -> str:
    """The heading of one rule set's table."""
    b, s = widths
    admitted = rule_of(rules).admitted_codes()  # a rule stated in an encoding that narrows the code space
    codes = rules.size if admitted is None else admitted.size
    return (f"{rules.describe()} ({amount(codes)} codes)\n"
            f"  {'backend':<{b}} {'strategy':<{s}} {'games':>7} {'failed':>6} {'mean':>6} {'+-95%':>6} "
            f"{'stdev':>6} {'min':>4} {'max':>4} {'ms/game':>9} {'seconds':>8}  histogram")


def table_row(row: BenchResult, widths: tuple[int, int] = COLUMN_WIDTHS) -> str:
    """One line of a rule set's table."""
    b, s = widths
    d = row_dict(row)
    histogram = format_histogram(d["histogram"])
    effort = "".join(f"  {k}/game {n / max(row.games, 1):,.0f}" for k, n in (row.search or {}).items())
    # The interval's half width: the mean's noise at a glance (- below two games won).
    half = "-" if d["ci95"] is None else f"{(d['ci95'][1] - d['ci95'][0]) / 2:.3f}"
    # - where there is no figure: no spread below two games won, no mean, min or max without one.
    mean, stdev, least, most = figure(d["mean"], ".3f"), figure(d["stdev"], ".3f"), figure(d["min"]), figure(d["max"])
    return (f"  {row.backend:<{b}} {row.strategy:<{s}} {d['games']:>7} {d['failed']:>6} {mean:>6} "
            f"{half:>6} {stdev:>6} {least:>4} {most:>4} {d['ms_per_game']:>9.3f} {d['seconds']:>8.3f}  "
            f"{histogram}{effort}")


def _rounded_p(p: float | None) -> float | None:
    """A p-value with 4 significant digits (rounding to decimals would turn 1e-20 into 0)."""
    return None if p is None else float(f"{p:.4g}")


@dataclass
class Paired:
    """Two strategies on one engine and the same secrets: a's guesses minus b's, secret by secret.

    ``n`` counts the games both won; ``excluded`` the games either failed (no difference to take).
    """

    rules: Rules
    backend: str
    a: str
    b: str
    test: PairedTest
    excluded: int = 0

    def as_dict(self) -> dict:
        """One entry of ``compare --json``'s ``paired``."""
        t = self.test
        return {"rules": self.rules.as_dict(), "backend": self.backend, "a": self.a, "b": self.b, "n": t.n,
                "excluded": self.excluded, "mean_difference": round(t.mean_difference, 4),
                "ci95": None if t.ci95 is None else [round(x, 4) for x in t.ci95],
                "t": None if t.t is None else round(t.t, 4), "p_value": _rounded_p(t.p_value),
                "fewer": t.fewer, "more": t.more, "sign_p_value": _rounded_p(t.sign_p_value)}

    def text(self) -> str:
        """One line under the tables."""
        t = self.test
        interval = "" if t.ci95 is None else f", 95% CI {t.ci95[0]:+.3f} to {t.ci95[1]:+.3f}"
        excluded = f", {self.excluded} failed left out" if self.excluded else ""
        return (f"paired: {self.rules.describe()} {self.backend} {self.a} - {self.b}: {t.mean_difference:+.3f} "
                f"guesses{interval} ({t.n} secrets{excluded}); t-test p {format_p(t.p_value)}; "
                f"sign test p {format_p(t.sign_p_value)} ({self.a} fewer on {t.fewer}, more on {t.more})")


def _attempts_by_secret(row: BenchResult) -> dict:
    """Each secret's attempts in ``row``, None for a game failed (a secret drawn twice has two)."""
    found = defaultdict(list)
    for secret, attempts in row.games_played:
        found[secret].append(attempts)
    for secret, _ in row.failed:
        found[secret].append(None)
    return found


def pair(a: BenchResult, b: BenchResult) -> Paired | None:
    """The paired comparison of two rows, None unless they played the same secrets (as often each)."""
    first, second = _attempts_by_secret(a), _attempts_by_secret(b)
    if first.keys() != second.keys() or any(len(first[k]) != len(second[k]) for k in first):
        return None
    differences, excluded = [], 0
    for secret, attempts in first.items():
        for x, y in zip(attempts, second[secret]):
            if x is None or y is None:
                excluded += 1
            else:
                differences.append(x - y)
    return Paired(a.rules, a.backend, a.strategy, b.strategy, paired_test(differences), excluded)


def paired_rows(studies: list[tuple[Study, list[BenchResult]]]) -> list[Paired]:
    """Every pair of strategies that played the same secrets on the same engine and rule set, within a study,
    in the order of the study's strategies (a row shared by two studies is paired once)."""
    found, seen = [], set()
    for _, rows in studies:
        groups: dict[tuple, list[BenchResult]] = defaultdict(list)
        for row in rows:
            groups[(row.rules, row.backend)].append(row)
        for group in groups.values():
            for i, a in enumerate(group):
                for b in group[i + 1:]:
                    if a.strategy == b.strategy or (id(a), id(b)) in seen:
                        continue
                    seen.add((id(a), id(b)))
                    if (paired := pair(a, b)) is not None:
                        found.append(paired)
    return found


@dataclass
class Comparison:
    """The rows run so far, the disagreements found, and whether the plan finished."""

    rows: list[BenchResult] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    #: The rows again, by study, in the plan's order (for charts).
    studies: list[tuple[Study, list[BenchResult]]] = field(default_factory=list)
    #: The preset replayed, if any.
    preset: str | None = None
    #: The seed of every random choice (``--seed``, or the one drawn for the run).
    seed: int | None = None
    complete: bool = True
    #: Pairs of strategies on the same secrets (:func:`paired_rows`).
    paired: list[Paired] = field(default_factory=list)

    def as_dict(self) -> dict:
        """The contract's ``compare --json`` object, with ``paired``."""
        return {"rows": [row_dict(r) for r in self.rows],
                "disagreements": [d.as_dict() for d in self.disagreements],
                "paired": [p.as_dict() for p in self.paired], "seed": self.seed}

    def write_csv(self, path: Path) -> None:
        """The rows as CSV: the rules' fields (``feedback`` included), then the row's, the histogram as ``k:v`` pairs;
        the statistics (``ci95`` as ``ci95_low`` and ``ci95_high``, empty below two games won); ``nodes`` and
        ``checks`` columns when an engine counted its search (a1..a5)."""
        rows = [row_dict(r) for r in self.rows]
        searched = ["nodes", "checks"] if any("search" in row for row in rows) else []
        statistics = [f for k in STATISTICS_FIELDS for f in (("ci95_low", "ci95_high") if k == "ci95" else (k,))]
        fields = ["pegs", "colors", "max_repeat", "feedback", "backend", "strategy", *ROW_FIELDS, "ms_per_game",
                  *statistics, *searched]
        with path.open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            for row in rows:
                low, high = row.pop("ci95") or (None, None)
                writer.writerow({**row.pop("rules"), **row.pop("search", {}), **row, "ci95_low": low,
                                 "ci95_high": high, "histogram": format_histogram(row["histogram"])})


def compare(plan: ComparePlan, progress: Progress | None = None,
            on_row: Callable[[BenchResult], None] | None = None) -> Comparison:
    """Run the plan; Ctrl-C keeps the rows finished so far (``complete`` False)."""
    outcome = Comparison(preset=plan.preset, seed=plan.seed)
    done: dict[tuple, BenchResult] = {}
    try:
        for study in plan.studies:
            outcome.studies.append((study, []))
            for rules in study.rule_sets:
                every = study.every_secret(rules)
                secrets = None if every else random_secrets(rules, study.games, plan.seed)
                edited = _edited_secrets(plan, study, rules, every)
                for chosen in study.strategies:
                    per_backend: dict[str, dict] = {}
                    deterministic = True
                    for backend in study.backends:
                        if not study.plays(rules, backend):
                            continue
                        # Studies may share a setting (typed options make them alike): play it once.
                        key = (rules, backend, chosen.name, every or study.games)
                        if key in done:
                            outcome.studies[-1][1].append(done[key])
                            continue
                        warm_up(backend, chosen.name, rules.max_repeat)  # start-up is not the row's time
                        reader = plan.reads(backend)
                        player = Player(rules, backend, chosen, plan.seed, time_limit=plan.time_limit,
                                        encoding=plan.encoding if reader else None)
                        engine, strategy = player.build()
                        deterministic = strategy.deterministic
                        try:
                            if edited is not None and not reader:
                                # The edited game's secrets, played without its constraints.
                                row = bench_games(engine, strategy, edited, progress=progress, jobs=plan.jobs)
                            elif every:
                                row = bench_all(engine, strategy, progress=progress, jobs=plan.jobs)
                            else:
                                row = bench_games(engine, strategy, edited or secrets, progress=progress,
                                                  jobs=plan.jobs)
                        finally:
                            engine.close()
                        outcome.rows.append(row)
                        outcome.studies[-1][1].append(row)
                        done[key] = row
                        if not reader:  # the others play another game: no disagreement with them is a bug
                            per_backend[backend] = row.by_secret()
                        if on_row:
                            on_row(row)
                    if deterministic and len(per_backend) > 1:
                        outcome.disagreements.extend(_disagreements(rules, chosen.name, per_backend))
    except KeyboardInterrupt:
        outcome.complete = False
    outcome.paired = paired_rows(outcome.studies)
    return outcome


def _edited_secrets(plan: ComparePlan, study, rules: Rules, every: bool) -> list[Code] | None:
    """With ``--encoding``, the secrets every backend plays: the codes the edited encoding admits
    (all of them, or ``study.games`` drawn among them), also for the backends that cannot read it
    and play the rules' game on them. None without ``--encoding`` or its reader in the study, and
    where every secret is played by readers only (each lists them itself)."""
    playing = [b for b in study.backends if study.plays(rules, b)]
    readers = [b for b in playing if plan.reads(b)]
    if not readers or (every and readers == playing):
        return None
    engine = make_engine(readers[0], rules, time_limit=plan.time_limit, encoding=plan.encoding)
    try:
        if every:
            space = code_space(rules)
            return [space.code(int(i)) for i in secret_indices(engine)]
        return game_secrets(engine, study.games, plan.seed)
    finally:
        engine.close()


def _disagreements(rules: Rules, strategy: str, per_backend: dict[str, dict]) -> list[Disagreement]:
    """Secrets on which the backends' attempts differ (among those every backend won: a game a strategy gave
    up on its time limit says nothing of the engine)."""
    found = []
    for secret in sorted(set.intersection(*(set(won) for won in per_backend.values()))):
        attempts = {b: per_backend[b][secret] for b in per_backend}
        if len(set(attempts.values())) > 1:
            found.append(Disagreement(rules, strategy, format_code(secret, rules), attempts))
    return found
