"""``info`` and ``optimal``: what the rules allow, and an optimal strategy by exact search."""

from __future__ import annotations

import click

from ..interrupts import end_quickly
from .options import Integer, backend_option, emit, jobs_option, json_option, output_file_option, rules_options

#: Said when ``optimal`` compiles its kernels (once: numba caches them).
COMPILING_OPTIMAL = "compiling the optimal search's kernels (once: they are cached for later runs, which start at once)"
COMPILING_UNCACHED = "compiling the optimal search's kernels (at every run: no folder for numba's cache can be written)"


@click.command(name="info")
@rules_options(feedback=True)
@backend_option(help="Engine that decides which feedbacks can occur.")
@json_option
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
      mmlogic info --feedback positional
    """
    from ..engines import make_engine
    from ..studies.analysis import computed_optima, study
    from ..terminal.progress import Spinner

    with Spinner("asking the engine"):
        result = study(make_engine(backend, rules), computed_optima(rules))
    emit(result, as_json)


@click.command(name="optimal")
@rules_options(feedback=True)
@click.option("--objective", type=click.Choice(["expected", "worst"]), default="expected", show_default=True,
              help="expected: least total guesses over every secret (the mean); worst: least worst case, then least "
                   "total among the strategies with that worst case.")
@click.option("--max-depth", type=Integer(1), default=None, metavar="D",
              help="With --objective expected: every game within D guesses.  [default: no limit]")
@click.option("--consistent-only", is_flag=True,
              help="Hard mode: every guess must be consistent with the answers so far (the optimum among such "
                   "strategies; 4x6: 5,660).")
@jobs_option(help="Worker processes (at most the cores) over which the openings' parts are searched; "
                  "the result is the same.")
@json_option
@output_file_option("--save-tree", "save_tree",
                    help="Also write the optimal strategy's tree to FILE as JSON (--strategy tree:FILE plays it, "
                         "mmlogic tree FILE draws it).")
def optimal_command(rules, objective, max_depth, consistent_only, jobs, as_json, save_tree):
    """An optimal strategy, by exact search, and the proof that it is optimal.

    Branch and bound over guesses and the parts their feedback splits the
    codes into: lower bounds on a part's cost, guesses ordered so that the
    bound stops the rest early, one guess per class of the history's
    colour and position symmetries, and a table of the sets already
    solved. Prints the total guesses over every secret, the mean, the
    worst case, the histogram, and what proves it: for the expected
    objective, every opening with its cost or a lower bound no smaller; for
    the worst, that no strategy finishes within one guess fewer, then the
    same proof of the least total within that worst case (as
    --max-depth; 4x6: worst case 5, total 5626). Spaces of at most 5,040
    codes.

    \b
    Examples:
      mmlogic optimal
      mmlogic optimal --max-depth 5
      mmlogic optimal --objective worst --json
      mmlogic optimal --pegs 4 --colors 10 --no-repeat --jobs 2
      mmlogic optimal --consistent-only
      mmlogic optimal --save-tree optimal.json && mmlogic tree optimal.json --dot
    """
    from ..studies.optimal import optimal
    from ..terminal.progress import Spinner

    with Spinner("searching") as spinner:
        def progress(text: str) -> None:
            spinner.label = text  # where the search is, drawn with the seconds spent

        def compiling() -> None:
            # A first run: 15-45 s before the search starts, which were silent.
            from ..kernels.numba_cache import CACHE

            spinner.tick()
            click.echo(f"note: {COMPILING_OPTIMAL if CACHE else COMPILING_UNCACHED}", err=True)
            spinner.label = "compiling"

        result = optimal(rules, objective, max_depth, jobs, progress=progress, on_compile=compiling,
                         consistent_only=consistent_only)
    if save_tree is not None:
        from ..strategies.tree import StrategyTree

        name = (f"optimal-{objective}" + (f"-depth{max_depth}" if max_depth else "")
                + ("-consistent" if consistent_only else ""))
        StrategyTree(rules, result.tree, strategy=name).save(save_tree)
    emit(result, as_json)
    end_quickly()  # the search's workers have ended, the tree is written: nothing left to tidy
