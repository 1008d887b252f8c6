"""The ``mmlogic`` command line: a thin layer over the package.

Each command parses options into :class:`Rules`, an engine and a strategy,
calls library functions and prints. Every user error becomes one line on
stderr and the contract's exit code (``shared/spec/cli.md``): 2 bad usage or
input, 3 no consistent code, 1 any other failure.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path

import click

from . import __version__
from .engines import BACKENDS, DEFAULT_BACKEND, check_encoding, make_engine
from .errors import BadInput, MMLogicError
from .game import (
    bench_all,
    bench_games,
    next_guess,
    play,
    random_secrets,
    spaced_secrets,
)
from .notation import format_code, format_feedback, parse_code, parse_entry
from .rules import DEFAULT_ALPHABET, make_rules
from .sampling import random_code
from .strategies import STRATEGIES, make_strategy

EXIT_INTERRUPTED = 130


class MMLogicGroup(click.Group):
    """A click group whose errors are one line each, never a traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            rv = super().main(args, prog_name or "mmlogic", complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else 0
        except click.exceptions.NoArgsIsHelpError as e:
            click.echo(e.ctx.get_help() if e.ctx else str(e))
            code = 2
        except click.ClickException as e:
            click.echo(f"error: {e.format_message()}", err=True)
            code = e.exit_code
        except MMLogicError as e:
            click.echo(f"error: {e}", err=True)
            code = e.exit_code
        except (KeyboardInterrupt, click.Abort):
            click.echo("interrupted", err=True)
            code = EXIT_INTERRUPTED
        except (BrokenPipeError, EOFError):
            code = 1
        except Exception as e:  # noqa: BLE001 - the contract: one line, never a traceback
            if os.environ.get("MMLOGIC_DEBUG"):
                raise
            click.echo(f"error: internal failure: {type(e).__name__}: {e} (set MMLOGIC_DEBUG=1 for details)", err=True)
            code = 1
        sys.exit(code)


# -- shared options --------------------------------------------------------------

def rules_options(f):
    """``--pegs --colors --no-repeat --max-repeat --alphabet``; passes ``rules``."""
    @click.option("--pegs", type=click.IntRange(1, 64), default=4, show_default=True, help="Code length.")
    @click.option("--colors", type=click.IntRange(1, 255), default=6, show_default=True,
                  help="Number of colours (symbols).")
    @click.option("--no-repeat", is_flag=True, help="Every colour at most once (bulls and cows).")
    @click.option("--max-repeat", type=click.IntRange(1), default=None,
                  help="Every colour at most M times.  [default: unlimited]")
    @click.option("--alphabet", default=DEFAULT_ALPHABET, show_default=True,
                  help="Symbols in order; the first K are used.")
    @functools.wraps(f)
    def wrapper(*args, pegs, colors, no_repeat, max_repeat, alphabet, **kwargs):
        rules = make_rules(pegs, colors, no_repeat, max_repeat, alphabet)
        return f(*args, rules=rules, **kwargs)
    return wrapper


def _strategy_help() -> str:
    lines = "; ".join(f"{name}: {cls.summary}" for name, cls in STRATEGIES.items())
    return f"Guess selection.  {lines}."


def engine_options(default_strategy: str = "minimax"):
    """``--backend --strategy --first-guess --seed --encoding --time-limit``."""
    def decorate(f):
        @click.option("--backend", type=click.Choice(list(BACKENDS)), default=DEFAULT_BACKEND,
                      show_default=True, help="Engine that finds consistent codes.")
        @click.option("--strategy", type=click.Choice(list(STRATEGIES)), default=default_strategy,
                      show_default=True, help=_strategy_help())
        @click.option("--first-guess", "first_guess_text", metavar="CODE", default=None,
                      help="Opening guess (default: the strategy's own, see --strategy).")
        @click.option("--seed", type=int, default=None, help="Makes every random choice reproducible.")
        @click.option("--encoding", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                      default=None, help="Edited .lp (clingo) or .pl (swipl) encoding to use instead of the shipped one.")
        @click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=None, metavar="SECONDS",
                      help="Bound on one solver call; exceeding it exits 1.")
        @functools.wraps(f)
        def wrapper(*args, rules, backend, strategy, first_guess_text, seed, encoding, time_limit, **kwargs):
            engine = make_engine(backend, rules, encoding=encoding, time_limit=time_limit)
            first_guess = parse_code(first_guess_text, rules) if first_guess_text else None
            return f(*args, rules=rules, engine=engine, strategy=make_strategy(strategy, rules, seed),
                     first_guess=first_guess, seed=seed, **kwargs)
        return wrapper
    return decorate


def _progress(enabled: bool, length: int, label: str):
    """A progress bar on stderr for a terminal; a no-op context otherwise."""
    if enabled and sys.stderr.isatty() and not os.environ.get("CI"):
        return click.progressbar(length=length, label=label, file=sys.stderr)
    return _NoProgress()


class _NoProgress:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n):
        pass


def _dump(obj) -> str:
    return json.dumps(obj)


# -- commands ---------------------------------------------------------------------

@click.group(cls=MMLogicGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mmlogic")
def cli():
    """Mastermind and bulls-and-cows solved with logic programming.

    The same game is written as an Answer-Set Program (clingo, the default
    engine), as CLP(FD) constraints (SWI-Prolog through janus) and as a numpy
    reference engine; strategies from Shapiro to Knuth and Kooi choose the
    guesses.

    \b
    Examples:
      mmlogic solve --secret 0123
      mmlogic next 0011:1,0 2345:0,2
      mmlogic bench --backend python --strategy minimax --first-guess 0011 --all
      mmlogic info --pegs 5 --colors 8 --no-repeat
    """


@cli.command()
@rules_options
@engine_options()
@click.option("--secret", "secret_text", metavar="CODE", default=None,
              help="The code to find (random when not given; reproducible with --seed).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def solve(rules, engine, strategy, first_guess, seed, secret_text, as_json):
    """The computer plays against a secret.

    Prints one line per guess with its feedback (black,white), then the number
    of guesses.

    \b
    Examples:
      mmlogic solve --secret 0123
      mmlogic solve --backend swipl --strategy first --pegs 5 --colors 8 --no-repeat --seed 1
      mmlogic solve --strategy any --pegs 16 --colors 6 --json
    """
    import numpy as np

    secret = parse_code(secret_text, rules) if secret_text else random_code(rules, np.random.default_rng(seed))
    record = play(engine, strategy, secret, first_guess)
    if as_json:
        click.echo(_dump({
            "secret": format_code(secret, rules),
            "guesses": [{"guess": format_code(g, rules), "black": b, "white": w} for g, (b, w) in record.guesses],
            "attempts": record.attempts,
            "seconds": round(record.seconds, 6),
            "backend": engine.name,
            "strategy": strategy.name,
        }))
        return
    width = len(str(record.attempts))
    for i, (guess, fb) in enumerate(record.guesses, 1):
        click.echo(f"{i:>{width}}  {format_code(guess, rules)}  {format_feedback(fb)}")
    click.echo(f"{record.attempts} guesses")


@cli.command(name="next")
@rules_options
@engine_options()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.argument("history", nargs=-1, metavar="HISTORY...")
def next_command(rules, engine, strategy, first_guess, seed, as_json, history):
    """Given what was played so far, the next guess.

    Each HISTORY item is GUESS:B,W (black, white). With no history, prints the
    strategy's opening. Exits 3, naming the entries that contradict each
    other, when no code fits the history.

    \b
    Examples:
      mmlogic next 0011:1,0 2345:0,2
      mmlogic next --strategy first --json 0123:0,2
      mmlogic next --no-repeat --colors 10 0123:1,1
    """
    entries = [parse_entry(item, rules) for item in history]
    with engine.session(entries) as session:
        count = session.count() if entries else rules.size
        if count == 0:
            raise engine.no_solution(entries)
        guess = next_guess(session, strategy, first_guess)
    if as_json:
        click.echo(_dump({"guess": format_code(guess, rules), "consistent": count}))
    else:
        click.echo(f"{format_code(guess, rules)}  ({count} code{'s' if count != 1 else ''} still possible)")


@cli.command()
@rules_options
@engine_options()
@click.option("--all", "all_secrets", is_flag=True, help="Play every secret of the code space once.")
@click.option("--games", type=click.IntRange(1), default=None, help="Play N random secrets (see --seed).")
@click.option("--spaced", type=click.IntRange(1), default=None, metavar="N",
              help="Play N secrets evenly spaced over the code space in lexicographic order "
                   "(code number i*(size//N)), as published large-game figures do.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--out", type=click.Path(dir_okay=False, writable=True, path_type=Path), default=None,
              help="Also write the JSON object to FILE.")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="Worker processes; the attempts are the same as with one.")
def bench(rules, engine, strategy, first_guess, seed, all_secrets, games, spaced, as_json, out, jobs):
    """Play many games and summarise the attempts.

    --all plays every secret exactly once (deterministic strategies are
    evaluated as one tree, which gives the same totals as playing each game,
    and checks the engine's count of consistent codes at every node); --games
    N plays N random secrets; --spaced N plays N secrets evenly spaced in
    lexicographic order. `seconds` is the wall time of the games alone.

    \b
    Examples:
      mmlogic bench --backend python --strategy minimax --first-guess 0011 --all
      mmlogic bench --strategy first --pegs 5 --colors 8 --no-repeat --games 1000 --seed 1
      mmlogic bench --strategy any --pegs 16 --games 20 --seed 1 --json
      mmlogic bench --backend python --strategy expected --colors 8 --all --jobs 2
      mmlogic bench --strategy any --pegs 16 --colors 6 --spaced 1000
    """
    if all_secrets + (games is not None) + (spaced is not None) != 1:
        raise click.UsageError("give exactly one of --all, --games N or --spaced N")
    secrets = None
    if games is not None:
        secrets = random_secrets(rules, games, seed)
    elif spaced is not None:
        try:
            secrets = spaced_secrets(rules, spaced)
        except MMLogicError as error:
            raise click.BadParameter(str(error), param_hint="'--spaced'") from None
    total = rules.size if all_secrets else len(secrets)
    with _progress(not as_json, total, "games") as bar:
        if all_secrets:
            result = bench_all(engine, strategy, first_guess, progress=bar.update, jobs=jobs)
        else:
            result = bench_games(engine, strategy, secrets, first_guess, progress=bar.update, jobs=jobs)
    summary = {**result.as_dict(), "backend": engine.name, "strategy": strategy.name, "rules": rules.as_dict()}
    if out:
        out.write_text(_dump(summary) + "\n")
    if as_json:
        click.echo(_dump(summary))
        return
    histogram = " ".join(f"{k}:{v}" for k, v in summary["histogram"].items())
    click.echo(f"rules      {rules.describe()}\n"
               f"backend    {engine.name}\n"
               f"strategy   {strategy.name}\n"
               f"games      {summary['games']}\n"
               f"mean       {summary['mean']:.3f}\n"
               f"max        {summary['max']}\n"
               f"histogram  {histogram}\n"
               f"seconds    {summary['seconds']:.3f}")


def _names(kind: str, choices, text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in choices]
    if unknown or not names:
        raise BadInput(f"unknown {kind} {unknown[0] if unknown else text!r}; choose from {', '.join(choices)}")
    return list(dict.fromkeys(names))


@cli.command()
@click.option("--preset", type=click.Choice(["seed000", "seed001", "seed003"]), default=None,
              help="The seeds' rule sets instead of the rules options.")
@rules_options
@click.option("--backend", "backends", default=DEFAULT_BACKEND, show_default=True, metavar="A[,B...]",
              help=f"Engines to compare, comma-separated ({', '.join(BACKENDS)}).")
@click.option("--strategy", "strategies", default="first", show_default=True, metavar="X[,Y...]",
              help=f"Strategies to compare, comma-separated ({', '.join(STRATEGIES)}).")
@click.option("--all", "all_secrets", is_flag=True, help="Play every secret of each code space once.")
@click.option("--games", type=click.IntRange(1), default=None, help="Play N random secrets per rule set.")
@click.option("--seed", type=int, default=None, help="Makes the secrets and random choices reproducible.")
@click.option("--encoding", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Edited encoding for the one declarative backend compared.")
@click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=None, metavar="SECONDS",
              help="Bound on one solver call; exceeding it exits 1.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False, writable=True, path_type=Path), default=None,
              help="Also write the rows to a CSV file.")
@click.option("--plot", "plot_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write PNG charts into DIR.")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="Worker processes; the attempts are the same as with one.")
@click.pass_context
def compare(ctx, preset, rules, backends, strategies, all_secrets, games, seed, encoding, time_limit,
            as_json, csv_file, plot_dir, jobs):
    """Run every (rule set, backend, strategy) combination on the same secrets.

    Prints a table per rule set: games, mean and max attempts, histogram, time
    per game and total time. For deterministic strategies every backend must
    give the same attempts for every secret; any disagreement is listed and
    the command exits 1. Ctrl-C stops and prints what was finished.

    \b
    Presets:
      seed000  4x6, 4x8, 4x8 no-repeat, 4 pegs x 20 colours, 6 pegs x 4 colours
      seed001  n = 4..8 pegs, 2n colours, no repetition
      seed003  5 pegs of 8 colours, with and without repetition

    \b
    Examples:
      mmlogic compare --preset seed000 --backend python --strategy first,minimax --all
      mmlogic compare --backend clingo,swipl,python --strategy first --games 200 --seed 1
      mmlogic compare --preset seed001 --backend clingo --strategy first,any --games 100 --plot charts/
    """
    from .compare import PRESETS
    from .compare import compare as run_compare

    if all_secrets == (games is not None):
        raise click.UsageError("give exactly one of --all or --games N")
    rule_params = ("pegs", "colors", "no_repeat", "max_repeat", "alphabet")
    explicit = [p for p in rule_params if ctx.get_parameter_source(p) != click.core.ParameterSource.DEFAULT]
    if preset and explicit:
        raise click.UsageError(f"give --preset or rules options, not both (--{explicit[0].replace('_', '-')})")
    rule_sets = PRESETS[preset] if preset else [rules]
    backend_list = _names("backend", BACKENDS, backends)
    strategy_list = _names("strategy", STRATEGIES, strategies)
    if encoding is not None:
        declarative = [b for b in backend_list if b != "python"]
        if len(declarative) != 1:
            raise BadInput("--encoding needs exactly one of the clingo or swipl backends")
        check_encoding(declarative[0], encoding)
    from .compare import check_plan
    check_plan(rule_sets, all_secrets)
    total = sum(r.size if all_secrets else games for r in rule_sets) * len(backend_list) * len(strategy_list)
    printed: list = []

    def show_row(row) -> None:
        # Text mode prints each row as soon as it is finished: long runs show
        # their results as they go, and an interrupted run keeps them.
        if not printed or printed[-1].rules != row.rules:
            click.echo(("\n" if printed else "") + _table_header(row.rules))
        click.echo(_table_row(row))
        printed.append(row)

    with _progress(not as_json, total, "games") as bar:
        outcome = run_compare(rule_sets, backend_list, strategy_list, all_secrets=all_secrets, games=games,
                              seed=seed, jobs=jobs, encoding=encoding, time_limit=time_limit,
                              progress=bar.update, on_row=None if as_json else show_row)
    data = outcome.as_dict()
    if csv_file:
        _write_csv(csv_file, data["rows"])
    if plot_dir and outcome.rows:
        from .charts import plot_comparison
        plot_comparison(outcome, plot_dir)
    if as_json:
        click.echo(_dump(data))
    else:
        for d in outcome.disagreements:
            attempts = ", ".join(f"{b} {a}" for b, a in d.attempts.items())
            click.echo(f"disagreement: {d.rules.describe()} {d.strategy} secret {d.secret}: {attempts}")
    if not outcome.complete:
        click.echo("interrupted: the rows above are the finished ones", err=True)
        return EXIT_INTERRUPTED
    if outcome.disagreements:
        click.echo(f"error: {len(outcome.disagreements)} disagreement(s) between backends", err=True)
        return 1
    return 0


def _write_csv(path: Path, rows: list[dict]) -> None:
    import csv
    fields = ["pegs", "colors", "max_repeat", "backend", "strategy", "games", "total_guesses", "mean", "max",
              "histogram", "seconds", "ms_per_game"]
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        for row in rows:
            writer.writerow({**row["rules"], **{k: v for k, v in row.items() if k != "rules"},
                             "histogram": " ".join(f"{k}:{v}" for k, v in row["histogram"].items())})


def _table_header(rules) -> str:
    return (f"{rules.describe()} ({rules.size:,} codes)\n"
            f"  {'backend':<8} {'strategy':<9} {'games':>7} {'mean':>6} {'max':>4} {'ms/game':>9} "
            f"{'seconds':>8}  histogram")


def _table_row(row) -> str:
    d = row.as_dict()
    histogram = " ".join(f"{k}:{v}" for k, v in d["histogram"].items())
    return (f"  {row.backend:<8} {row.strategy:<9} {d['games']:>7} {d['mean']:>6.3f} {d['max']:>4} "
            f"{d['ms_per_game']:>9.3f} {d['seconds']:>8.3f}  {histogram}")


@cli.command()
@rules_options
@click.option("--backend", type=click.Choice(list(BACKENDS)), default=DEFAULT_BACKEND, show_default=True,
              help="Engine that decides which feedbacks can occur.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def info(rules, backend, as_json):
    """How many codes and feedbacks, and how many guesses at least.

    Seed 000's study done right: feedbacks that cannot occur under the rules
    are removed (found by asking the engine), and the bound counts that a
    winning guess ends the game: with F feedbacks, t guesses tell apart at
    most 1 + (F-1) + ... + (F-1)^(t-1) codes.

    \b
    Examples:
      mmlogic info
      mmlogic info --pegs 5 --colors 8 --no-repeat --json
    """
    from .analysis import study

    result = study(make_engine(backend, rules))
    data = {"rules": rules.as_dict(), **result.as_dict()}
    if as_json:
        click.echo(_dump(data))
        return
    feedbacks = (f"{data['feedbacks']} of {result.naive_feedbacks} pairs b+w<=pegs "
                 f"({' '.join(data['feedback_list'])})" if result.feedbacks is not None
                 else f"at most {result.naive_feedbacks - 1} (too many to check)")
    click.echo(f"rules                  {rules.describe()}\n"
               f"codes                  {result.codes}\n"
               f"feedbacks              {feedbacks}\n"
               f"worst case needs >=    {result.lower_bound} guesses\n"
               f"seed 000's bound       {result.seed_bound} (ceil(log N / log F), all pairs counted)")


@cli.command(name="play")
@rules_options
@click.option("--secret", "secret_text", metavar="CODE", default=None, help="The code to find (random by default).")
@click.option("--seed", type=int, default=None, help="Makes the random secret reproducible.")
@click.option("--max-guesses", type=click.IntRange(1), default=None, help="Give up after this many guesses.")
def play_command(rules, secret_text, seed, max_guesses):
    """You guess, the computer answers with black,white.

    Type a code per line; a typo is explained and you type again. Type `?`
    for how many codes are still possible, `quit` to give up.

    \b
    Example:
      mmlogic play --pegs 4 --colors 6
    """
    import numpy as np

    from .engines.reference import ReferenceEngine
    from .feedback import feedback

    secret = parse_code(secret_text, rules) if secret_text else random_code(rules, np.random.default_rng(seed))
    alphabet = rules.alphabet[: rules.colors] if rules.symbolic else f"0..{rules.colors - 1}"
    click.echo(f"Find the code of {rules.pegs} pegs over {alphabet} ({rules.describe()}).")
    history = []
    while max_guesses is None or len(history) < max_guesses:
        try:
            text = click.prompt(f"guess {len(history) + 1}", prompt_suffix="> ", err=True)
        except click.Abort:
            break
        text = text.strip()
        if text in ("quit", "exit"):
            break
        if text == "?":
            try:
                click.echo(f"{ReferenceEngine(rules).count(history)} codes still possible")
            except MMLogicError as e:
                click.echo(f"cannot count: {e}")
            continue
        try:
            guess = parse_code(text, rules)
        except BadInput as e:
            click.echo(f"{e}; try again")
            continue
        fb = feedback(guess, secret)
        history.append((guess, fb))
        click.echo(f"{format_code(guess, rules)}  {format_feedback(fb)}")
        if fb == (rules.pegs, 0):
            click.echo(f"found in {len(history)} guesses")
            return 0
    click.echo(f"the secret was {format_code(secret, rules)}")
    return 1


def main() -> None:
    """Console-script entry point."""
    cli.main(prog_name="mmlogic")


if __name__ == "__main__":
    main()
