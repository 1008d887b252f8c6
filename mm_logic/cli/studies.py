"""``info`` and ``optimal``: what the rules allow, and an optimal strategy by exact search."""

from __future__ import annotations

import contextlib
import time

import click

from ..support.errors import BadInput
from ..support.interrupts import end_quickly
from .options import (
    Integer,
    MemorySize,
    backend_option,
    check_executor,
    distinct_outputs,
    emit,
    encoding_option,
    executor_options,
    input_files,
    jobs_option,
    json_option,
    output_file_option,
    rules_options,
)

#: Said when ``optimal`` compiles its kernels (once: numba caches them).
COMPILING_OPTIMAL = "compiling the optimal search's kernels (once: they are cached for later runs, which start at once)"
COMPILING_UNCACHED = "compiling the optimal search's kernels (at every run: no folder for numba's cache can be written)"
#: Seconds between two progress lines of a search whose stderr is no terminal (a log, a batch job), and before the
#: first (5x6's exact search, or 5x7's anytime one, said nothing for minutes).
LOGGED_EVERY = 300
FIRST_LOGGED = 10


@click.command(name="info")
@rules_options(feedback=True)
@backend_option(help="Engine that decides which feedbacks can occur.")
@encoding_option
@json_option
def info(rules, backend, encoding, as_json):
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
      mmlogic info --encoding examples/palindrome.lp
      mmlogic info --feedback examples/shared_colours.py --backend python
    """
    from ..engines import make_engine
    from ..studies.info import computed_optima, study
    from ..terminal.progress import Spinner

    with Spinner("asking the engine"):
        result = study(make_engine(backend, rules, encoding=encoding), computed_optima(rules, encoding))
    emit(result, as_json)


@click.command(name="optimal")
@rules_options(feedback=True, lies=True)
@click.option("--objective", type=click.Choice(["expected", "worst", "worst-case"]), default="expected",
              show_default=True,
              help="expected: least total guesses over every secret (the mean); worst: least worst case, then least "
                   "total among the strategies with that worst case; worst-case: the least worst case alone, with "
                   "a strategy within it (not the cheapest: far quicker where the least total is out of reach).")
@click.option("--max-depth", type=Integer(1), default=None, metavar="D",
              help="With --objective expected: every game within D guesses.  [default: no limit]")
@click.option("--consistent-only", is_flag=True,
              help="Hard mode: every guess must be consistent with the answers so far (the optimum among such "
                   "strategies; 4x6: 5,660).")
@encoding_option
@click.option("--no-symmetry", "symmetric", is_flag=True, default=True, flag_value=False,
              help="Search without the game's symmetries (the peg orders and colour renamings its rule keeps, "
                   "declared by a built-in rule or found on a rule of your own's feedback table): slower, the same "
                   "optimum; a check of the symmetries.")
@jobs_option(help="Worker processes (at most the cores) over which the openings' parts are searched; "
                  "the result is the same.")
@executor_options(local="--jobs processes on this machine")
@click.option("--split-above", type=Integer(1), default=None, metavar="N",
              help="With workers (--jobs 2 or more, or --executor dask): a part of an opening of more than N codes "
                   "is searched as one task per guess at it, so that the workers share it; the result is the "
                   "same.  [default: a tenth of the codes]")
@click.option("--memory", type=MemorySize(), default=None, metavar="SIZE",
              help="The most memory the search takes, all its processes together (e.g. 8G, 500M): each "
                   "process's feedback table (codes² bytes) and, in what is left, its table of solved sets.  "
                   "[default: a table sized for the game, within 3/4 of the memory available]")
@output_file_option("--journal", "journal",
                    help="Keep each part of an opening in FILE as the search settles it (a JSON line: its cost "
                         "and subtree, or a bound); run again with the same FILE after an interruption and the "
                         "search resumes where it stopped, to the same result.")
@click.option("--anytime", is_flag=True,
              help="Do not prove the optimum: improve a heuristic's tree toward it (look-ahead at large sets, the "
                   "exact search at small ones), writing the best tree so far to --save-tree every few minutes; "
                   "for games whose optimum is out of reach (5x8). Resumes from --journal.")
@click.option("--exact-below", type=Integer(3), default=None, metavar="N",
              help="With --anytime: search sets of at most N codes exactly.  [default: 400]")
@click.option("--look-ahead", type=Integer(1), default=None, metavar="K",
              help="With --anytime: guesses compared by look-ahead at a larger set.  [default: 16]")
@json_option
@output_file_option("--save-tree", "save_tree",
                    help="Also write the optimal strategy's tree to FILE as JSON (--strategy tree:FILE plays it, "
                         "mmlogic tree FILE draws it).")
def optimal_command(rules, objective, max_depth, consistent_only, encoding, symmetric, jobs, executor, scheduler,
                    split_above, memory, journal, anytime, exact_below, look_ahead, as_json, save_tree):
    """An optimal strategy, by exact search, and the proof that it is optimal.

    Branch and bound over guesses and the parts their feedback splits the
    codes into: lower bounds on a part's cost, guesses ordered so that the
    bound stops the rest early, one guess per class of the history's
    colour and position symmetries (those the feedback rule keeps: a rule
    of your own's are found on its feedback table), and a table of the sets already
    solved. Prints the total guesses over every secret, the mean, the
    worst case, the histogram, and what proves it: for the expected
    objective, every opening with its cost or a lower bound no smaller; for
    the worst, that no strategy finishes within one guess fewer, then the
    same proof of the least total within that worst case (as
    --max-depth; 4x6: worst case 5, total 5626). Any size whose feedback
    table fits in memory (codes² bytes: 60 MB for 5x6, 1 GiB for 5x8);
    the report gives the peak memory.

    \b
    Examples:
      mmlogic optimal
      mmlogic optimal --max-depth 5
      mmlogic optimal --objective worst --json
      mmlogic optimal --pegs 5 --colors 6 --objective worst-case
      mmlogic optimal --pegs 4 --colors 10 --no-repeat --jobs 2
      mmlogic optimal --consistent-only
      mmlogic optimal --pegs 4 --colors 8 --jobs 2 --journal 4x8.jsonl
      mmlogic optimal --pegs 4 --colors 7 --jobs 2 --split-above 200
      mmlogic optimal --pegs 5 --colors 6 --executor dask --scheduler tcp://10.0.0.5:8786 --journal 5x6.jsonl
      mmlogic optimal --save-tree optimal.json && mmlogic tree optimal.json --dot
      mmlogic optimal --pegs 3 --colors 3 --lies 1 --objective worst-case
      mmlogic optimal --pegs 3 --colors 4 --feedback examples/shared_colours.py
      mmlogic optimal --encoding examples/palindrome.lp
    """
    from ..optimal.objectives import optimal
    from ..optimal.result import StoppedSearch
    from ..terminal.progress import Spinner

    # The tree written over the journal lost it; either written over the rule module or the encoding, lost that.
    distinct_outputs(input_files(), journal=journal, save_tree=save_tree)
    if memory is not None and executor == "local":
        from ..support.memory import memory_text, total_memory

        # The tables would be made to the size given (2**30 solved sets: 33 GiB) and swap, then be killed. On a
        # cluster the size is each worker thread's, on its own machine: only mm_logic.support.memory.MAX_SIZE bounds it.
        if memory > total_memory():
            raise click.BadParameter(f"{memory_text(memory)} is more than this machine's memory "
                                     f"({memory_text(total_memory())})", param_hint="'--memory'")
    if anytime or exact_below is not None or look_ahead is not None:
        from ..rules import FEEDBACK_RULES

        given = {"--objective": objective != "expected", "--max-depth": max_depth is not None,
                 "--consistent-only": consistent_only, "--encoding": encoding is not None, "--lies": bool(rules.lies),
                 "--feedback FILE": rules.feedback not in FEEDBACK_RULES, "--no-symmetry": not symmetric,
                 "--jobs": jobs != 1, "--executor": executor != "local", "--scheduler": scheduler is not None,
                 "--split-above": split_above is not None}
        return _optimal_anytime(rules, anytime, exact_below, look_ahead, memory, journal, save_tree, as_json,
                                [name for name, on in given.items() if on])
    if rules.lies:
        return _optimal_with_lies(rules, objective, max_depth, consistent_only, encoding, jobs, executor, journal,
                                  save_tree, as_json)
    check_executor(executor, scheduler, "parts")
    if split_above is not None and executor == "local" and jobs == 1:
        raise BadInput("--split-above applies with workers (--jobs 2 or more, or --executor dask): one process "
                       "searches every part whole")
    client = None
    if executor == "dask":
        from ..studies.sweep_processes import dask_client

        client = dask_client(scheduler)
    with Spinner("searching") as spinner, _closing(client):
        progress = _logged(spinner)

        def compiling() -> None:
            # A first run: 10-45 s before the search starts, which were silent. (Importing numba here costs
            # nothing beside a compilation of seconds.)
            from ..kernels.numba_cache import CACHE as cached

            spinner.tick()
            click.echo(f"note: {COMPILING_OPTIMAL if cached else COMPILING_UNCACHED}", err=True)
            spinner.label = "compiling"

        try:
            result = optimal(rules, objective, max_depth, jobs, progress=progress, on_compile=compiling,
                             consistent_only=consistent_only, memory=memory, journal=journal, client=client,
                             split_above=split_above, symmetric=symmetric, encoding=encoding)
        except KeyboardInterrupt:  # before the search (its kernels compiling): nothing proved, the journal kept
            spinner.tick()
            _said_when_stopped(StoppedSearch(rules, objective, journal=journal))
            raise
        if isinstance(result, StoppedSearch):
            spinner.tick()
            _said_when_stopped(result)
            raise KeyboardInterrupt  # the contract's exit code of the signal that stopped it, after the notes
    if save_tree is not None:
        from ..strategies.tree import StrategyTree

        name = (f"optimal-{objective}" + (f"-depth{max_depth}" if max_depth else "")
                + ("-consistent" if consistent_only else ""))
        from ..feedback.variant import variant_of

        StrategyTree(rules, result.tree, strategy=name, variant=variant_of(rules, encoding)).save(save_tree)
    emit(result, as_json)
    end_quickly()  # the search's workers have ended, the tree is written: nothing left to tidy


def _said_when_stopped(stopped) -> None:
    """What a search stopped halfway proved (:class:`~mm_logic.optimal.result.StoppedSearch`), and where it
    resumes from."""
    for line in stopped.notes():
        click.echo(f"note: {line}", err=True)


@contextlib.contextmanager
def _closing(client):
    """Close a Dask client (None: nothing) when the search ends, however it ends."""
    try:
        yield client
    finally:
        if client is not None:
            client.close()


def _optimal_with_lies(rules, objective, max_depth, consistent_only, encoding, jobs, executor, journal, save_tree,
                       as_json):
    """``optimal --lies K``: the least worst case against every liar, in small games
    (:mod:`mm_logic.liar.optimal`)."""
    from ..feedback.encoded import ENCODED_SUFFIXES
    from ..liar.optimal import least_worst_case
    from ..terminal.progress import Spinner

    # The search reads every code of the game and its rule's feedback, never an encoding's codes: refused before
    # a rule stated in one is derived.
    if encoding is not None:
        raise BadInput("--encoding does not apply with --lies: optimal --lies searches every code of the game, "
                       "not the codes an encoding admits")
    if rules.feedback.endswith(ENCODED_SUFFIXES):
        raise BadInput(f"--lies does not apply with --feedback {rules.feedback}: optimal --lies searches every code "
                       "of the game under a built-in rule or a rule module (--feedback FILE.py), not an encoding")
    if objective != "worst-case":
        raise BadInput("--lies takes --objective worst-case: against a liar a mean needs a liar's odds, the "
                       "worst case does not")
    extra = [name for name, given in (("--max-depth", max_depth is not None), ("--consistent-only", consistent_only),
                                      ("--jobs", jobs != 1), ("--executor", executor != "local"),
                                      ("--journal", journal is not None), ("--save-tree", save_tree is not None))
             if given]
    if extra:
        raise BadInput(f"{extra[0]} does not apply with --lies: one process searches the states whole")
    with Spinner("searching"):
        result = least_worst_case(rules)
    emit(result, as_json)


def _optimal_anytime(rules, anytime, exact_below, look_ahead, memory, journal, save_tree, as_json, others):
    """``optimal --anytime``: a heuristic's tree improved toward the optimum
    (:mod:`mm_logic.optimal.anytime`)."""
    from ..optimal import anytime as anytime_search
    from ..optimal.searcher import table_bits
    from ..terminal.progress import Spinner

    if not anytime:
        raise BadInput(f"{'--exact-below' if exact_below is not None else '--look-ahead'} applies with --anytime")
    if others:
        raise BadInput(f"{others[0]} does not apply with --anytime: one process improves the expected case of the "
                       "game's own codes under a built-in rule")
    with Spinner("improving") as spinner:
        searcher_bits = table_bits(rules, 1, memory)
        run = anytime_search.Anytime(
            rules, exact_below=exact_below or anytime_search.EXACT_BELOW,
            candidates=look_ahead or anytime_search.CANDIDATES, journal=journal, save_tree=save_tree,
            bits=searcher_bits, progress=_logged(spinner))
        result = run.run()
    emit(result, as_json)
    if not result.finished:
        raise KeyboardInterrupt  # said and left with the contract's code, after the best tree so far


def _logged(spinner):
    """Where a search is, drawn by the spinner with the seconds spent; where stderr is no terminal (nohup, a
    batch job), also a line now and then, so that the log tells how a search of hours goes."""
    # The first line's wait starts at the search's first word, not before the kernels compiled (a minute on a
    # fresh install, after its own note).
    logged = {"at": None, "started": time.monotonic(), "lines": 0}

    def progress(text: str) -> None:
        spinner.label = text
        now = time.monotonic()
        logged["at"] = now if logged["at"] is None else logged["at"]
        every = LOGGED_EVERY if logged["lines"] else min(FIRST_LOGGED, LOGGED_EVERY)
        if not spinner.enabled and now - logged["at"] >= every:
            logged["at"] = now
            logged["lines"] += 1
            click.echo(f"progress ({(now - logged['started']) / 60:.0f} min): {text}", err=True)

    return progress
