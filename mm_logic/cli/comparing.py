"""``compare``: every (rule set, backend, strategy) on the same secrets."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import click

from ..studies.presets import PRESET_NAMES, presets_help
from ..support.interrupts import interrupted_code
from ..terminal.progress import progress_bar
from .options import (
    MAX_GAMES,
    RULE_OPTIONS,
    FilePath,
    Integer,
    backend_option,
    chart_folder,
    distinct_outputs,
    encoding_option,
    input_files,
    jobs_option,
    json_option,
    output_file_option,
    rules_options,
    seed_option,
    time_limit_option,
    write_output,
)
from .strategy_options import ga_option, strategy_option


def _presets_listed(command):
    """The command's help with the presets listed where it says ``{presets}`` (:mod:`mm_logic.studies.presets`,
    which names them once)."""
    command.__doc__ = command.__doc__.replace("    {presets}", textwrap.indent(presets_help(), "    "))
    return command


@click.command(name="compare")
@_presets_listed
@click.option("--preset", type=click.Choice(PRESET_NAMES), default=None,
              help="Replay a report's experiments (its rule sets, backends, strategies and games) "
                   "instead of the rules options; --backend, --strategy, --all or --games replace the preset's.")
@rules_options
@click.option("--feedback", "feedbacks", default=None, metavar="RULE[,RULE...]",
              help="Feedback rules to compare, comma-separated (standard, black, positional, or a FILE.py, "
                   "FILE.lp or FILE.pl of your own): each rule set is played under each.  [default: standard, or "
                   "the preset's]")
@backend_option(many=True)
@strategy_option("first", many=True, trees=True)
@ga_option
@click.option("--all", "all_secrets", is_flag=True, help="Play every secret of each code space once.")
@click.option("--games", type=Integer(1, MAX_GAMES), default=None, help="Play N random secrets per rule set.")
@seed_option
@encoding_option
@time_limit_option()
@json_option
@output_file_option("--csv", "csv_file", help="Also write the rows to a CSV file.")
@click.option("--plot", "plot_dir", type=FilePath(file_okay=False, path_type=Path), default=None,
              callback=chart_folder, help="Write PNG charts into DIR (needs matplotlib).")
@jobs_option()
@click.option("--race", is_flag=True,
              help="Race the entrants (every backend with every strategy, at most 8) over the same batch of "
                   "secrets (--games N or --all), each in its own worker process: live standings on a terminal, "
                   "then the finishing order and each entrant's mean.")
@click.pass_context
def compare(ctx, preset, rules, feedbacks, backends, strategies, ga, all_secrets, games, seed, encoding, time_limit,
            as_json, csv_file, plot_dir, jobs, race):
    """Run every (rule set, backend, strategy) combination on the same secrets.

    Prints a table per rule set: games, mean and max attempts, histogram, time
    per game and total time (and the search effort of seed 001's engines
    a1..a5). For deterministic strategies every backend must give the same
    attempts for every secret; any disagreement is listed and the command
    exits 1. Ctrl-C stops and prints what was finished.

    Each row also gives the games failed (a genetic strategy at its
    --time-limit), the half width of the mean's 95% interval, the standard
    deviation and min; strategies that played the same secrets on the same
    engine are compared pair by pair (`paired:` lines: the mean difference,
    its 95% interval, a paired t-test and a sign test).

    \b
    Presets (each report's experiments; mmlogic compare --preset NAME alone):
    {presets}

    --race (seed 000's race window) runs every entrant at once, each playing
    the whole batch in its own worker process, and shows who finishes the
    batch first: games done, running mean attempts and seconds as the race
    goes, then the finishing order with the times and the means.

    \b
    Examples:
      mmlogic compare --preset seed000 --plot charts/
      mmlogic compare --preset seed000 --backend python --strategy first,minimax --all
      mmlogic compare --backend clingo,swipl,python --strategy first --games 200 --seed 1
      mmlogic compare --preset seed001 --backend clingo --strategy first,any --games 100 --plot charts/
      mmlogic compare --backend python,clingo --strategy first,random --feedback standard,black,positional --all
      mmlogic compare --preset feedback-rules --csv rows.csv
      mmlogic compare --race --backend python --strategy minimax,entropy,random --games 20 --seed 1
    """
    from ..studies.compare import ComparePlan, column_widths, compare, table_header, table_row

    default_source = click.core.ParameterSource.DEFAULT

    distinct_outputs(input_files(), csv=csv_file, plot=plot_dir)
    if race:
        from .racing import check_race_options
        check_race_options(preset, csv_file, plot_dir, ctx.get_parameter_source("jobs") != default_source, encoding)
    typed = [f"--{p.replace('_', '-')}" for p in RULE_OPTIONS if ctx.get_parameter_source(p) != default_source]
    # Without a preset the options' defaults apply; with one, only what was typed replaces its own.
    default = click.core.ParameterSource.DEFAULT
    if preset is not None:
        backends = None if ctx.get_parameter_source("backends") == default else backends
        strategies = None if ctx.get_parameter_source("strategies") == default else strategies
    plan = ComparePlan.make(preset=preset, rules=rules, explicit_rules=typed, backends=backends,
                            strategies=strategies, all_secrets=all_secrets, games=games, seed=seed, jobs=jobs,
                            encoding=encoding, time_limit=time_limit, feedbacks=feedbacks, ga=ga)
    if race:
        from .racing import run_race
        return run_race(plan, as_json)
    if (unchecked := plan.unchecked()) is not None:
        click.echo(f"note: {unchecked}", err=True)
    printed: list = []
    widths = column_widths(plan)

    with progress_bar(plan.total_games, "games") as bar:
        def show_row(row) -> None:
            # Each row is printed as soon as it is finished: long runs show their
            # results as they go, and an interrupted run keeps them.
            with bar.above():
                if not printed or printed[-1].rules != row.rules:
                    click.echo(("\n" if printed else "") + table_header(row.rules, widths))
                click.echo(table_row(row, widths))
            printed.append(row)

        outcome = compare(plan, bar.update, on_row=None if as_json else show_row)
    if csv_file:
        write_output(csv_file, outcome.write_csv)
    if plot_dir and outcome.rows:
        from ..studies.charts import plot_comparison
        write_output(plot_dir, lambda folder: plot_comparison(outcome, folder))
    if as_json:
        click.echo(json.dumps(outcome.as_dict()))
    else:
        for number, paired in enumerate(outcome.paired):
            click.echo(("\n" if number == 0 and printed else "") + paired.text())
        for disagreement in outcome.disagreements:
            click.echo(disagreement.text())
    if not outcome.complete:
        click.echo("interrupted: the rows above are the finished ones", err=True)
        return interrupted_code()
    if outcome.disagreements:
        click.echo(f"error: {len(outcome.disagreements)} disagreement(s) between backends", err=True)
        return 1
    return 0
