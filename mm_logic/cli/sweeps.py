"""``sweep`` and ``openings``: grids of cases, each a bench over every secret, run as a sweep."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import click

from ..engines import BACKENDS
from ..rules import make_rules, repeat_limit
from ..strategies import DEFAULT_STRATEGY, SCORERS, parse_strategies
from ..support.interrupts import interrupted_code
from ..terminal.progress import progress_bar
from .options import (
    backend_option,
    check_executor,
    colors_option,
    distinct_outputs,
    encoding_option,
    executor_options,
    feedback_option,
    input_files,
    jobs_option,
    json_option,
    output_file_option,
    pegs_option,
    repeat_options,
    seed_option,
)
from .strategy_options import strategy_option


# -- sweeps ---------------------------------------------------------------------------------
def sweep_options(f):
    """``--out --jobs --executor --scheduler --json``: where a sweep's cases run and where its rows go.

    Passes ``run`` (runs a list of cases, returns the :class:`mm_logic.studies.sweep.Sweep`), ``out`` and ``as_json``.
    """
    @output_file_option("--out", help="Append each finished case's row to FILE as one JSON line; "
                                      "a rerun skips the cases found there (resume).")
    @jobs_option(help="Cases run at once on this machine (at most its cores), each in a fresh process "
                      "(--executor local); the rows are the same as with one.")
    @executor_options(local="processes on this machine")
    @json_option
    @functools.wraps(f)
    def wrapper(*args, out, jobs, executor, scheduler, as_json, **kwargs):
        from ..studies.sweep import run_sweep

        distinct_outputs(input_files(), out=out)  # rows appended to the rule module or the encoding broke it
        check_executor(executor, scheduler, "cases")

        def run(cases):
            def bar(n):
                return progress_bar(n, "cases")

            return run_sweep(cases, out=out, executor=executor, jobs=jobs, scheduler=scheduler, progress=bar,
                             note=lambda text: click.echo(f"note: {text}", err=True))
        return f(*args, run=run, out=out, as_json=as_json, **kwargs)
    return wrapper


def sweep_exit(sweep, out: Path | None) -> int:
    """After the table: the failed cases and an interruption on stderr, and the exit code."""
    for case, message in sweep.failures:
        click.echo(f"failed: {case.label()}: {message}", err=True)
    kept = f"; their rows are in {out}, and the same command runs the rest" if out else ""
    if not sweep.complete:
        click.echo(f"interrupted: {len(sweep.rows)} of {len(sweep.cases)} cases finished{kept}", err=True)
        return interrupted_code()
    if sweep.failures:
        retry = f" (not written to {out}: a rerun tries them again)" if out else ""
        click.echo(f"error: {len(sweep.failures)} of {len(sweep.cases)} cases failed{retry}", err=True)
        return 1
    return 0


@click.command(name="sweep")
@click.option("--sizes", default="4x6", show_default=True, metavar="PxC[,...]",
              help="Rule sets: comma-separated PEGSxCOLORS, either side a number or a range A-B "
                   "(4x2-10,5x6-7,6-7x5).")
@repeat_options(metavar="M", where=", in every size")
@feedback_option(where=", in every size")
@encoding_option
@strategy_option(",".join(SCORERS), many=True)
@backend_option(many=True, default="python", help="Engines")
@click.option("--first-guess", "first_guesses", metavar="CODE", multiple=True,
              help="Opening to play in every size; repeat the option for several.  [default: each strategy's own]")
@click.option("--all-openings", is_flag=True, help="Play every canonical opening of each size (see mmlogic openings).")
@seed_option
@sweep_options
def sweep(sizes, no_repeat, max_repeat, feedback, encoding, strategies, backends, first_guesses, all_openings, seed,
          run, out, as_json):
    """Every secret of each case of a grid: sizes x strategies x openings x backends.

    Each case is a bench over every secret (as bench --all), run in a fresh
    process of its own: its row has games, total guesses, mean, max, the
    histogram, the seconds and the process's peak memory. Prints one table
    in the grid's order. With --out FILE each row is appended to FILE as its
    case finishes, and a rerun skips the cases already there: an interrupted
    or killed sweep resumes. --jobs N runs N cases at once; --executor dask
    --scheduler ADDRESS runs them on a Dask cluster (pip install
    'mmlogic[dask]'). The rows are the same either way (seconds and memory
    aside).

    --encoding FILE plays an edited encoding in every case (its codes are
    the secrets; .lp for --backend clingo, .pl for swipl), and --feedback
    FILE a rule of your own (docs/encodings.md); each row names the files
    with their sha256, and a case whose file changed since is refused.

    \b
    Examples:
      mmlogic sweep --sizes 4x2-10,5x6-7,6x5-6,7x4,8x3-4 --out table.jsonl --jobs 2
      mmlogic sweep --sizes 4x6,5x8 --no-repeat --strategy minimax,parts --json
      mmlogic sweep --sizes 4x6 --strategy minimax --first-guess 0011 --first-guess 0123
      mmlogic sweep --sizes 4x4-7 --all-openings --out openings.jsonl
      mmlogic sweep --sizes 3x2-6,4x2-6 --feedback black --strategy minimax,entropy
      mmlogic sweep --sizes 4x4-6 --encoding examples/shared_no_adjacent.lp --backend clingo \\
        --feedback examples/shared_no_adjacent.lp --strategy minimax,entropy
      mmlogic sweep --sizes 4x2-10 --out table.jsonl --executor dask --scheduler tcp://10.0.0.5:8786
    """
    from ..studies.sweep_case import names, parse_sizes, plan

    cases = plan(parse_sizes(sizes), max_repeat=repeat_limit(no_repeat, max_repeat),
                 strategies=[s.name for s in parse_strategies(strategies, files=False)],
                 first_guesses=list(first_guesses),
                 all_openings=all_openings, backends=names("backend", BACKENDS, backends), seed=seed,
                 feedback=feedback, encoding=encoding)
    outcome = run(cases)
    if as_json:
        click.echo(json.dumps(outcome.as_dict()))
    elif outcome.rows:
        click.echo(outcome.text())
    return sweep_exit(outcome, out)


@click.command(name="openings")
@pegs_option
@colors_option
@repeat_options(metavar="M")
@feedback_option
@encoding_option
@strategy_option(DEFAULT_STRATEGY, many=True)
@backend_option(default="python")
@seed_option
@sweep_options
def openings(pegs, colors, no_repeat, max_repeat, feedback, encoding, strategies, backend, seed, run, out, as_json):
    """Play every canonical opening of a size and rank them.

    The canonical openings are one code per class that colour and position
    symmetry tell apart (0000 0001 0011 0012 0123 for 4x6; colour symmetry
    alone under --feedback positional, where moving pegs changes the marks). Each is played
    against every secret, the strategy choosing every later guess; they are
    ranked by total guesses, then by the worst case, as the published
    initial-guess studies do. Runs as a sweep: --out, --jobs and --executor
    dask apply alike.

    With --encoding FILE (an edited encoding: its codes are the secrets) or
    --feedback FILE (a rule of your own), the openings are one per class of
    the symmetries that keep that game's codes and feedback, found on its
    feedback table (none assumed): every code when none does.

    \b
    Examples:
      mmlogic openings --strategy minimax,parts
      mmlogic openings --pegs 5 --colors 8 --strategy entropy --jobs 2 --json
      mmlogic openings --pegs 4 --colors 10 --no-repeat --strategy expected
      mmlogic openings --feedback positional --strategy entropy
      mmlogic openings --encoding examples/shared_no_adjacent.lp --backend clingo \\
        --feedback examples/shared_no_adjacent.lp
      mmlogic openings --pegs 6 --colors 6 --out 6x6.jsonl --executor dask --scheduler tcp://10.0.0.5:8786
    """
    from ..studies.openings import OpeningRanking, opening_cases

    rules = make_rules(pegs, colors, no_repeat, max_repeat, feedback=feedback)
    chosen = [s.name for s in parse_strategies(strategies, files=False)]
    cases = opening_cases(rules, chosen, backend, seed, encoding)
    ranking = OpeningRanking(rules, backend, chosen, run(cases))
    if as_json:
        click.echo(json.dumps(ranking.as_dict()))
    elif ranking.sweep.rows:
        click.echo(ranking.text())
    return sweep_exit(ranking.sweep, out)
