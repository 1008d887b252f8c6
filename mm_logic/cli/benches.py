"""``bench`` and ``tree``: many games and their summary, and the strategy tree a bench saved."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..support.errors import BadInput
from ..terminal.progress import progress_bar
from .options import (
    MAX_GAMES,
    FeedbackRuleChoice,
    FilePath,
    Integer,
    distinct_outputs,
    emit,
    input_files,
    jobs_option,
    json_option,
    liar_option,
    output_file_option,
    rules_options,
    server_option,
    write_output,
)
from .strategy_options import engine_options


@click.command(name="bench")
@rules_options(feedback=True, lies=True)
@engine_options()
@click.option("--all", "all_secrets", is_flag=True, help="Play every secret of the code space once.")
@click.option("--games", type=Integer(1, MAX_GAMES), default=None, help="Play N random secrets (see --seed).")
@click.option("--spaced", type=Integer(1, MAX_GAMES), default=None, metavar="N",
              help="Play N secrets evenly spaced over the code space in lexicographic order "
                   "(code number i*(size//N)), as published large-game figures do.")
@liar_option
@server_option("Play each game against a codemaker on this mmlogic server, which keeps the secret; "
               "the secrets are the bench's own, so the attempts compare with a bench in process.")
@json_option
@output_file_option("--out", help="Also write the JSON object to FILE.")
@output_file_option("--save-tree", "save_tree",
                    help="With --all and a deterministic strategy: also write the strategy's tree (every guess "
                         "after every history) to FILE as JSON; --strategy tree:FILE plays it back, "
                         "mmlogic tree FILE sums it up and draws it.")
@jobs_option()
def bench(rules, engine, strategy, seed, all_secrets, games, spaced, liar_text, server, as_json, out, save_tree,
          jobs):
    """Play many games and summarise the attempts.

    --all plays every secret exactly once (deterministic strategies are
    evaluated as one tree, which gives the same totals as playing each game,
    and checks the engine's count of consistent codes at every node); --games
    N plays N random secrets; --spaced N plays N secrets evenly spaced in
    lexicographic order. `seconds` is the wall time of the games alone.
    --save-tree FILE (with --all) writes the tree the strategy played.

    Beside the mean: min, the standard deviation and the 95% interval of the
    mean (Student's t). A game the strategy gives up (a genetic strategy at
    its --time-limit) is counted as failed, not an error: the figures are over
    the games won, `failed N of M` beside them.

    \b
    Examples:
      mmlogic bench --backend python --strategy minimax --first-guess 0011 --all
      mmlogic bench --strategy first --pegs 5 --colors 8 --no-repeat --games 1000 --seed 1
      mmlogic bench --strategy any --pegs 16 --games 20 --seed 1 --json
      mmlogic bench --backend python --strategy expected --colors 8 --all --jobs 2
      mmlogic bench --strategy any --pegs 16 --colors 6 --spaced 1000
      mmlogic bench --server http://127.0.0.1:8000 --strategy minimax --games 100 --seed 1
      mmlogic bench --backend python --strategy minimax --all --save-tree knuth.json
      mmlogic bench --backend clingo --strategy tree:knuth.json --all
      mmlogic bench --backend python --strategy minimax --lies 1 --liar random --seed 1 --all
      mmlogic bench --backend python --strategy minimax --pegs 3 --colors 3 --lies 1 --liar every --all
    """
    from ..client import RemoteCodemaker
    from ..secret_codes import bench_secrets
    from ..studies.bench import bench_all, bench_games, check_tree_recordable, warm_up

    if all_secrets + (games is not None) + (spaced is not None) != 1:
        raise BadInput("give exactly one of --all, --games N or --spaced N")
    # Before --liar every, which writes --out too; the files it reads were read into rules, engine and strategy.
    distinct_outputs(input_files(), out=out, save_tree=save_tree)
    liar = None
    if liar_text == "every":
        if not all_secrets or server is not None or save_tree is not None:
            raise BadInput("--liar every applies to --all, played here: every secret, answered every way")
        from ..liar.every_lie import every_lie

        warm_up(engine.name, strategy.name, rules.max_repeat)
        from ..terminal.progress import Spinner

        with Spinner("every secret, every lie") as spinner:
            result = every_lie(engine, strategy, progress=lambda _: spinner.tick())
        emit(result, as_json)
        if out:
            write_output(out, lambda path: path.write_text(json.dumps(result.as_dict(), allow_nan=False) + "\n"))
        return
    if liar_text is not None:
        from ..lies import parse_liar
        from ..studies.bench import LyingCodemaker

        if server is not None:
            raise BadInput("--liar does not apply with --server: the server's codemaker answers")
        liar = LyingCodemaker(parse_liar(liar_text, rules, seed))
    if save_tree is not None and rules.lies:
        raise BadInput("--save-tree does not apply with --lies: a tree file follows truthful answers")
    if save_tree is not None:
        # Refused before any game: a tree covers every secret, played here.
        if not all_secrets:
            raise BadInput("--save-tree needs --all: a strategy's tree covers every secret")
        if server is not None:
            raise BadInput("--save-tree does not apply with --server (each game is played against the server)")
        check_tree_recordable(strategy)
    if spaced is not None and engine.encoding is not None:
        raise BadInput("--spaced plays evenly spaced codes of the rules, not an edited encoding's: "
                       "use --games N or --all")
    try:
        # Every secret is listed once (the bar's length, then the games); as codes against a server.
        secrets, every = bench_secrets(engine, games, spaced, seed, remote=server is not None)
    except BadInput as error:
        if spaced is None:
            raise
        raise click.BadParameter(str(error), param_hint="'--spaced'") from None
    warm_up(engine.name, strategy.name, rules.max_repeat)  # `seconds` leaves start-up out
    with progress_bar(len(every) if secrets is None else len(secrets), "games") as bar:
        if secrets is None:
            result = bench_all(engine, strategy, progress=bar.update, jobs=jobs,
                               record_tree=save_tree is not None, secrets=every, codemaker=liar)
        else:
            codemaker = liar if server is None else RemoteCodemaker(server)
            result = bench_games(engine, strategy, secrets, progress=bar.update, jobs=jobs,
                                 codemaker=codemaker)
    emit(result, as_json)  # first: a file that cannot be written loses nothing printed
    if out:
        write_output(out, lambda path: path.write_text(json.dumps(result.as_dict(), allow_nan=False) + "\n"))
    if save_tree:
        from ..feedback.variant import variant_of

        write_output(save_tree, result.strategy_tree(strategy, variant_of(rules, engine.encoding)).save)


@click.command(name="tree")
@click.argument("file", type=FilePath(dir_okay=False, path_type=Path))
@click.option("--dot", "as_dot", is_flag=True, help="Print the tree in Graphviz's DOT language instead of the summary.")
@output_file_option("--png", help="Also draw the tree into a PNG file (needs Graphviz's dot program).")
@click.option("--max-depth", type=Integer(1), default=None, metavar="N",
              help="Draw the first N guesses of every game (--dot, --png); a deeper subtree is one dashed box "
                   "with its number of codes.  [default: all]")
@click.option("--feedback", type=FeedbackRuleChoice(), default=None,
              help="The tree's feedback rule, where it is a FILE.py (or FILE.lp, FILE.pl) of your own: the same "
                   "file the tree names. A tree file never loads the rule it names; only this option does.  "
                   "[default: the tree's built-in rule]")
@click.option("--encoding", type=FilePath(exists=True, dir_okay=False, path_type=Path), default=None,
              help="The edited .lp or .pl encoding the tree was saved for (its \"variant\"): the same file, unedited; "
                   "its codes are the secrets the figures count.  [default: the rules' codes]")
@json_option
def tree_command(file, as_dot, png, max_depth, feedback, encoding, as_json):
    """Sum up or draw a strategy tree saved by bench --all --save-tree FILE.

    Prints the tree's rules, strategy and opening, and the figures of playing
    every secret with it (games, total guesses, mean, max, histogram, nodes),
    computed from the file alone. --dot prints it in Graphviz's DOT language,
    as the published pictures of Knuth's tree: a box per guess with the
    number of codes still possible, an edge per feedback, filled boxes where
    games end; --png draws it (Graphviz's dot program must be installed).

    A tree of a feedback rule of your own (saved with --feedback FILE.py)
    is read only with --feedback naming that same file (from any folder,
    by any name; refused once edited): the file a tree names is never run
    because the tree names it. A tree of an edited encoding (saved with
    --encoding FILE) is summed up with --encoding naming that file: its
    secrets are the codes the encoding admits.

    \b
    Examples:
      mmlogic bench --backend python --strategy minimax --all --save-tree knuth.json
      mmlogic tree knuth.json
      mmlogic tree knuth.json --dot --max-depth 2 > knuth.dot
      mmlogic tree knuth.json --png knuth.png --max-depth 3
      mmlogic tree shared.json --feedback examples/shared_colours.py
      mmlogic tree palindromes.json --encoding examples/palindrome.lp
    """
    from ..strategies.tree import StrategyTree, check_graphviz, to_dot, write_png
    from ..studies.written_game import encoding_secrets

    distinct_outputs([("FILE", file), *input_files()], png=png)  # input_files: the --feedback rule
    if as_dot and as_json:
        raise BadInput("give --dot or --json, not both")
    if max_depth is not None and not (as_dot or png):
        raise BadInput("--max-depth applies to the drawings (--dot, --png)")
    if png is not None:
        check_graphviz()  # before the file is read: a missing program is found at once
    # The rule a tree names is loaded only as the command's own --feedback (the same file), never from the file.
    loaded = StrategyTree.load(file).read_with(feedback, encoding)
    # The game's secrets, where not every code: an edited encoding's, or those a rule stated in an encoding admits.
    secrets = encoding_secrets(loaded.rules, encoding)
    drawing = to_dot(loaded, max_depth, secrets) if as_dot or png else None
    if png is not None:
        write_png(drawing, png)
    if as_dot:
        click.echo(drawing, nl=False)
    else:
        emit(loaded.figures(secrets), as_json)
