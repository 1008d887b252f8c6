"""``static`` and ``puzzle``: guesses fixed in advance, and histories with one code to find."""

from __future__ import annotations

import functools
import json
import time
from pathlib import Path

import click

from ..support.errors import BadInput
from ..support.limits import MAX_COUNT, MAX_ENTRIES, MAX_GUESSES, MAX_TRIES  # the library checks them too
from .options import (
    FilePath,
    Integer,
    Seconds,
    backend_option,
    emit,
    encoding_option,
    json_option,
    output_file_option,
    rules_options,
    seed_option,
    time_limit_option,
    write_output,
)

#: Seconds after which ``static`` writes its progress lines to stderr when it is no terminal (from the start when it
#: said at once that its search may take hours).
PROGRESS_AFTER = 5.0


@click.command(name="static")
@rules_options(feedback=True)
@time_limit_option(help="Bound on the whole search; past it, what was proved is printed and the exit code is 1. A "
                        "rule module's table (--feedback FILE.py) is derived first, within it too (past it, one "
                        "line and exit 1).")
@click.option("--guesses", type=Integer(1, MAX_GUESSES), default=None, metavar="K",
              help="Only ask whether K guesses (at most) suffice: the guesses found, not proved optimal, or the "
                   "proof that K do not suffice (exit 0 either way).")
@click.option("--local-search", "local_seconds", type=Seconds(), default=None, metavar="SECONDS",
              help="With --guesses K: first look for K guesses by a local search (hill climbing over the answers) "
                   "for up to SECONDS; a set it finds is checked by clingo and by the feedback rule (not proved "
                   "optimal), else clingo's search follows.")
@click.option("--seed", type=Integer(0), default=0, show_default=True,
              help="The local search's random draws: the same seed finds the same guesses.")
@encoding_option
@click.option("--prove-exhaustive", "exhaustive", is_flag=True,
              help="Settle each number of guesses by an exhaustive search over the symmetry classes (a compiled "
                   "branch and bound over the feedback rule's table) instead of clingo; with --guesses K, a set "
                   "of K found is then made optimal by proving K-1 impossible.")
@json_option
def static_command(rules, time_limit, guesses, local_seconds, seed, encoding, exhaustive, as_json):
    """The fewest guesses fixed in advance whose answers tell every code apart.

    Static Mastermind: every guess is chosen before any answer comes; the
    answers must then single out the code. The final winning guess is
    counted apart (k guesses tell the codes apart, k+1 win; k when the code
    was one of them), as Goddard counts (2 pegs, 2..7 colours: 2, 2, 3, 4,
    4, 5). The guesses found are checked by the game's feedback rule. Up to
    4,096 codes (the answers are codes x codes facts). With --encoding, the
    codes to tell apart are those the edited encoding admits (every code
    may be a guess); a rule of your own is answered by its feedback table.

    \b
    How it searches:
      (by default)          clingo (encodings/static.lp over the answers
                            the shipped rule encodings give) asks for 1, 2,
                            ... guesses in turn: each impossible number is
                            proved so, the first possible one is optimal;
                            4x4 takes seconds; 4x6 did not end in an hour
                            (from 500 codes on, a note says so at once;
                            on fewer, past 30 s); pairs of codes only
                            guessing tells apart bound it from below
      --local-search S      with --guesses K: a set of K by hill climbing
                            (4x6: 6 in under a second; the command about
                            13 s, most of it reading the answers), checked
                            by clingo, not proved optimal
      --prove-exhaustive    each number settled by an exhaustive search
                            over the symmetry classes instead (4x6: 5
                            guesses proved impossible in 4.5 minutes)
      Ctrl-C (exit 130) or --time-limit (exit 1) print what was proved.
      Off a terminal, progress lines go to stderr past 5 s (from the
      start after the note).

    \b
    Examples:
      mmlogic static --pegs 2 --colors 5
      mmlogic static --pegs 3 --colors 4 --json
      mmlogic static --pegs 3 --colors 4 --feedback black
      mmlogic static --time-limit 600
      mmlogic static --guesses 5 --time-limit 3600
      mmlogic static --guesses 6 --local-search 60
      mmlogic static --guesses 6 --local-search 60 --prove-exhaustive
      mmlogic static --encoding examples/palindrome.lp
      mmlogic static --pegs 3 --colors 4 --feedback examples/shared_colours.py
    """
    from ..static.search import StaticStopped, static_search
    from ..terminal.progress import Spinner

    with Spinner("the exhaustive search" if exhaustive else "reading the answers from the rule encodings") as spinner:
        _rule_table(rules)
        logged = {"from": time.monotonic() + PROGRESS_AFTER}

        def notice(text: str) -> None:
            # A search that may take hours: said before it starts, and its log kept from the start.
            spinner.tick()
            click.echo(f"note: {text}", err=True)
            logged["from"] = time.monotonic()

        def progress(line: str) -> None:
            spinner.tick()
            spinner.label = f"{line}; searching on"
            if not spinner.enabled and time.monotonic() >= logged["from"]:
                click.echo(f"static: {line}", err=True)  # a long run's log, off a terminal

        try:
            result = static_search(rules, time_limit, progress=progress, guesses=guesses,
                                   local_seconds=local_seconds, seed=seed, exhaustive=exhaustive, encoding=encoding,
                                   notice=notice)
        except StaticStopped as stopped:
            spinner.tick()
            partial = stopped.result
            click.echo(json.dumps(partial.as_dict()) if as_json else partial.text())
            if partial.stopped == "interrupted":
                click.echo(f"note: stopped: {partial.summary()}", err=True)
                raise KeyboardInterrupt from None
            click.echo(f"error: the time limit of {time_limit:g} s was reached: {partial.summary()}", err=True)
            return 1
    emit(result, as_json)


def _rule_table(rules) -> None:
    """A rule module's table (``--feedback FILE.py``), derived before the search, within ``--time-limit``:
    past it, the watch's one line (exit 1), as every command ends it. Inside the search, the limit's stop would
    be taken for the search's own, and its report would say nothing of the rule's table."""
    from ..codespace import code_space
    from ..feedback import rule_of
    from ..static.search import check_rules

    if rule_of(rules).scored_by_calls:
        check_rules(rules)  # a size static does not play, said as static says it, before any table
        code_space(rules).table  # noqa: B018 - derived (and kept) for the search


def _grade_alone(f):
    """Refuse, with ``--grade``, every option but ``--feedback`` and ``--json`` alike (one line, exit 2), before the
    rules options are read: they say notes of their own (``--alphabet abcd`` for 6 colours)."""
    @functools.wraps(f)
    def wrapper(**kwargs):
        ctx = click.get_current_context()
        if kwargs.get("grade_files") is None:
            return f(**kwargs)
        unset = (click.core.ParameterSource.DEFAULT, click.core.ParameterSource.DEFAULT_MAP, None)
        given = [param for param in ctx.command.params if param.name not in GRADE_TAKES
                 and ctx.get_parameter_source(param.name) not in unset]
        if kwargs.get("history"):
            raise BadInput("--grade scores a set's answers: a HISTORY is verified with --check")
        if given:
            raise BadInput(f"{given[0].opts[0]} does not apply with --grade: the grader reads each puzzle's rules "
                           "and history from the set, and runs no engine")
        return f(**kwargs)
    return wrapper


#: What ``puzzle --grade`` takes: a rule file of one's own (a set drawn under it names it; never loaded for it).
GRADE_TAKES = ("grade_files", "feedback", "as_json", "history")


@click.command(name="puzzle")
@_grade_alone
@rules_options(feedback=True)
@backend_option(help="Engine that counts the codes consistent with the history (the final check).")
@encoding_option
@click.option("--entries", type=Integer(1, MAX_ENTRIES), default=None, metavar="N",
              help="Entries of the history to draw (the difficulty, with the rules).")
@seed_option
@click.option("--tries", type=Integer(1, MAX_TRIES), default=200, show_default=True,
              help="Histories drawn before giving up (exit 1).")
@time_limit_option(help="Bound on one solver call, and on a rule module's rows of calls (--feedback FILE.py); "
                        "exceeding it exits 1.")
@click.option("--check", "check", is_flag=True,
              help="Verify the HISTORY given instead: one code? every entry needed? which are redundant?")
@click.option("--count", type=Integer(1, MAX_COUNT), default=None, metavar="N",
              help="Draw a set of N distinct puzzles, one JSON object a line (to --out, else stdout), each with "
                   "its difficulty; without --entries, the puzzles take three numbers of entries in turn.")
@output_file_option("--out", help="With --count: write the set to FILE (JSON Lines) instead of stdout.")
@click.option("--grade", "grade_files", type=FilePath(exists=True, dir_okay=False, path_type=Path), nargs=2,
              default=None, metavar="PUZZLES.jsonl ANSWERS.jsonl",
              help='Score answers, one {"answer": CODE} a line in the puzzles\' order: right, consistent (not the '
                   "code), inconsistent, malformed, missing. Each puzzle names its rules.")
@json_option
@click.argument("history", nargs=-1, metavar="[HISTORY...]")
@click.pass_context
def puzzle_command(ctx, rules, backend, encoding, entries, seed, tries, time_limit, check, count, out, grade_files,
                   as_json, history):
    """Draw a history with exactly one consistent code, every entry needed; or check one.

    The same --seed draws the same puzzle. A secret is drawn, then guesses
    answered by the game's feedback rule, chosen so that the codes still
    possible shrink to one at the last entry; the history must need every
    entry (dropping any leaves more than one code). The engine of --backend
    counts the codes for the final check. With --encoding, the secrets are
    the codes the edited encoding admits (every code may be a guess). Exits 1 when no such history of N
    entries is found within --tries draws (too few entries to single out a
    code, or too many to all be needed).

    With --check, HISTORY (GUESS:B,W items, or the feedback of --feedback)
    is verified: the codes consistent with it (exit 3 when none), and the
    entries that could be dropped with the same codes left (redundant).
    Exits 0 when it is a puzzle (one code, no redundant entry), 1 when not.

    With --count N, a set for evaluations: N distinct puzzles, one JSON
    object a line (rules, history, secret, prompt, the puzzle's own seed,
    and its difficulty: entries, codes left after each, and the guesses an
    optimal codebreaker would still need after each). --grade scores a
    harness's answers to such a set (exit 0; a bad puzzle line, exit 2).

    \b
    Examples:
      mmlogic puzzle --entries 5 --seed 1
      mmlogic puzzle --pegs 3 --colors 4 --entries 3 --seed 7 --json
      mmlogic puzzle --feedback black --entries 6 --seed 2
      mmlogic puzzle --check 0011:1,0 2345:0,2 1124:2,1
      mmlogic puzzle --encoding examples/palindrome.lp --entries 2 --seed 1
      mmlogic puzzle --count 100 --seed 1 --out puzzles.jsonl
      mmlogic puzzle --grade puzzles.jsonl answers.jsonl --json
    """
    from ..engines import make_engine
    from ..notation import parse_entry

    if grade_files is not None:
        return _grade(ctx, rules, grade_files, as_json)
    if count is not None:
        return _draw_set(rules, backend, encoding, entries, seed, tries, time_limit, count, out, check, history,
                         as_json)
    if out is not None:
        raise BadInput("--out applies with --count (a set of puzzles)")
    if check:
        if entries is not None or seed is not None:
            raise BadInput("--check verifies the HISTORY given: --entries and --seed draw one")
        if not history:
            raise BadInput("--check needs a HISTORY to verify (GUESS:B,W ...)")
        parsed = [parse_entry(item, rules) for item in history]
    else:
        if history:
            raise BadInput("a HISTORY is verified with --check; without it, puzzle draws one (--entries N)")
        if entries is None:
            raise BadInput("puzzle needs --entries N (or --check HISTORY...)")
    from ..studies.puzzle import check_history, draw_puzzle

    engine = make_engine(backend, rules, encoding=encoding, time_limit=time_limit)
    try:
        if check:
            found = check_history(engine, parsed)
            click.echo(json.dumps(found.as_dict(rules)) if as_json else found.text(rules))
            return 0 if found.puzzle else 1
        emit(draw_puzzle(engine, entries, seed, tries), as_json)
    finally:
        engine.close()


def _draw_set(rules, backend, encoding, entries, seed, tries, time_limit, count, out, check, history, as_json):
    """``puzzle --count N [--out FILE]``: a set of puzzles, each line printed (or written at the end) as drawn."""
    from ..engines import make_engine
    from ..studies.puzzle_sets import draw_set
    from ..terminal.progress import progress_bar
    from .options import distinct_outputs, input_files

    if check or history:
        raise BadInput("--count draws a set of puzzles: --check and a HISTORY verify one")
    if as_json:
        raise BadInput("--json does not apply with --count: a set is JSON already, one puzzle a line")
    distinct_outputs(input_files(), out=out)
    engine = make_engine(backend, rules, encoding=encoding, time_limit=time_limit)
    lines = []
    try:
        with progress_bar(count, "puzzles") as bar:
            for line in draw_set(engine, count, seed, entries, tries, on_compile=_compiling):
                text = json.dumps(line, allow_nan=False)
                if out is None:
                    click.echo(text)
                lines.append(text)
                bar.update(1)
    finally:
        engine.close()
    if out is not None:
        write_output(out, lambda path: path.write_text("\n".join(lines) + "\n"))
        click.echo(f"{len(lines):,} puzzles written to {out}")


def _compiling() -> None:
    """A first run compiles the optimal search's kernels (the guesses still needed): said, not silent."""
    from ..kernels.numba_cache import CACHE as cached
    from .studies import COMPILING_OPTIMAL, COMPILING_UNCACHED

    click.echo(f"note: {COMPILING_OPTIMAL if cached else COMPILING_UNCACHED}", err=True)


def _grade(ctx, rules, files, as_json):
    """``puzzle --grade PUZZLES ANSWERS``: the answers scored against the set."""
    from ..studies.puzzle_sets import grade
    from ..support.files import read_named_text

    source = click.core.ParameterSource.DEFAULT
    texts = [read_named_text(path, what) for path, what in zip(files, ("puzzle set", "answers file"))]
    feedback = rules.feedback if ctx.get_parameter_source("feedback") != source else None
    grading = grade(files[0], texts[0], files[1], texts[1], feedback)
    click.echo(json.dumps(grading.as_dict()) if as_json else grading.text())
