"""``serve``: the server (codemaker or codebreaker, as a game's role asks), its web page and JSON API, and seed
003's line protocol."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from ..support.errors import BadInput
from ..support.files import target_of
from .options import (
    RULE_OPTIONS,
    FeedbackRuleChoice,
    FilePath,
    Integer,
    Processes,
    Seconds,
    _writable_file,
    rules_options,
    time_limit_option,
)


def store_file(ctx, param, path: Path | None) -> Path | None:
    """``--db``: checked as the other files a command writes (a new path or a regular file, never a FIFO or
    a device, in their words), and its folder too, where SQLite writes the store's journal."""
    path = _writable_file(ctx, param, path)
    if path is None:
        return None
    folder = target_of(path).absolute().parent
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise click.BadParameter(f"cannot write into folder {folder} ({error.strerror}): the store's journal, "
                                 f"{target_of(path).name}-wal, is written beside it") from None
    return path


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (127.0.0.1: this machine only; 0.0.0.0 or '': every address, which "
                   "exposes the server, and says so).")
@click.option("--port", type=Integer(0, 65535), default=8000, show_default=True, help="TCP port of the API.")
@click.option("--tcp-port", type=Integer(0, 65535), default=None,
              help="Also listen on this TCP port for seed 003's line protocol (docs/line-protocol.md); "
                   "its games follow the rules options.  [default: off]")
@rules_options(refuse_alphabet="the line protocol writes letters from a, and an API game names its alphabet in "
                               "its request")
@click.option("--max-games", type=Integer(1), default=1000, show_default=True,
              help="Games kept in memory at most; a new one beyond is refused (HTTP 429).")
@click.option("--idle-seconds", type=Seconds(), default=1800, show_default=True,
              help="A game unused this long is forgotten.")
@time_limit_option(default=10, help="Bound on one solver call of a request (HTTP 422 beyond).")
@click.option("--read-timeout", type=Seconds(), default=10, show_default=True, metavar="SECONDS",
              help="Time a request may take to come in whole, on both ports (HTTP 408 beyond, and the "
                   "connection closed).")
@click.option("--max-connections", type=Integer(1), default=500, show_default=True,
              help="HTTP connections open at once at the most; one beyond is closed at once (HTTP 503).")
@click.option("--db", type=FilePath(dir_okay=False, path_type=Path), default=None, metavar="FILE", callback=store_file,
              help="Keep games and races in this SQLite file (made if new): a restart, even kill -9, loses "
                   "none. A file of another schema version, not SQLite, damaged or read-only is refused.  "
                   "[default: in memory]")
@click.option("--workers", type=Processes(), default=1, show_default=True,
              help="Processes serving the API on the one port, sharing the games of --db (needed above 1).")
@click.option("--encoding", type=FilePath(exists=True, dir_okay=False, path_type=Path), default=None, metavar="FILE",
              help="Serve a variant: this edited .lp (clingo) or .pl (swipl) encoding, whose codes are the secrets; "
                   "requests and the page choose it by its name beside the built-in rules.")
@click.option("--feedback", "variant_feedback", type=FeedbackRuleChoice(), default=None,
              help="The variant's feedback rule: a built-in one, or a rule of your own, FILE.py (with an --encoding "
                   "that states it, or on the python engine), FILE.lp or FILE.pl (alone, the variant's encoding "
                   "too; docs/encodings.md).  [default: standard]")
@click.option("--variant-name", metavar="NAME", default=None,
              help="The name requests and the page choose the variant by (letters, digits, _ and -).  [default: "
                   "the --encoding file's name without its suffix, else the --feedback file's]")
def serve(host, port, tcp_port, rules, max_games, idle_seconds, time_limit, read_timeout, max_connections, db,
          workers, encoding, variant_feedback, variant_name):
    """The codemaker server: a web page and a JSON API, games kept in memory or in --db (docs/server.md).

    --db FILE keeps the games and races in an SQLite file, so a restart (even
    kill -9) loses none; --workers N serves from N processes sharing it.

    The page at http://HOST:PORT/ plays in a browser: you guess (with an
    assistant), the computer guesses your code, strategies race. The API
    creates a game (rules, role, backend, strategy), guesses against its
    secret, asks the computer's next guess or answers it, undoes, resigns,
    reads the state, races; solve/bench --server play against it. The secret
    is never sent before the game is over. Ctrl-C stops it.

    --tcp-port also serves seed 003's line protocol (docs/line-protocol.md):
    init_connexion starts a game of the rules options (letters from a), and
    [GAME,abcde] scores a guess. The rules options apply to it alone (an API
    game names its rules in its request).

    --encoding FILE and --feedback FILE serve a variant beside the built-in
    rules: the page's Feedback list offers it by its name, and a request names
    it in its rules ("variant": "palindrome"), never a file. The files are
    checked at start, at the size of the rules options (4x6 by default): one
    that does not load is one line, exit 2.

    \b
    Examples:
      mmlogic serve
      mmlogic serve --port 8080 --max-games 200 --idle-seconds 600
      mmlogic serve --tcp-port 5000 --pegs 5 --colors 8 --no-repeat
      mmlogic serve --db games.db --workers 2
      mmlogic serve --encoding examples/palindrome.lp
      mmlogic serve --feedback examples/shared_no_adjacent.lp --variant-name shared
      curl -s -X POST localhost:8000/api/games -H 'Content-Type: application/json' \\
        -d '{"rules": {"pegs": 4, "colors": 6}}'
    """
    from ..server.line_protocol import LineGames
    from ..server.serving import require_serve_extra, run_server
    from ..server.store import GameStore

    require_serve_extra()
    if tcp_port is not None and tcp_port == port != 0:
        # Both servers would bind it: the second would fail as "address already in use".
        raise BadInput(f"--tcp-port {tcp_port} is the API's --port too: the line protocol needs a port of its own")
    if workers > 1 and db is None:
        raise BadInput(f"--workers {workers} needs --db FILE: the worker processes share their games through it")
    if workers > 1 and tcp_port is not None:
        raise BadInput("--tcp-port serves from one process: the line protocol's games are numbered by it; "
                       "leave --workers at 1")
    ctx = click.get_current_context()
    variants = ()
    if encoding is not None or variant_feedback is not None or variant_name is not None:
        from ..server.variant import Variant

        # Checked before the server listens: a file that does not load is one line, exit 2.
        variants = (Variant.load(encoding, variant_feedback, variant_name, rules, time_limit),)
    if db is None:
        store = GameStore(max_games=max_games, idle_seconds=idle_seconds, time_limit=time_limit, variants=variants)
    else:
        from ..server.db_store import SqliteStore

        store = SqliteStore(str(db), max_games=max_games, idle_seconds=idle_seconds, time_limit=time_limit,
                            workers=workers, variants=variants)
        if store.start_note is not None:  # rows damaged by hand: said once, the others served
            click.echo(f"mmlogic serve: {store.start_note}", err=True)
    for variant in variants:
        click.echo(f"mmlogic serve: variant {variant.name} ({', '.join(variant.files)}), "
                   f"on {', '.join(variant.backends)}", err=True)
    if tcp_port is None:
        line_games = None
        # With a variant, the rules options are the size it is checked at.
        if not variants and any(ctx.get_parameter_source(p) != click.core.ParameterSource.DEFAULT
                                for p in RULE_OPTIONS):
            click.echo("note: the rules options apply to the line protocol (--tcp-port) only; "
                       "an API game names its rules in its request", err=True)
    else:
        line_games = LineGames(store, rules)  # BadInput (exit 2) for rules the protocol cannot state
    return run_server(store, host, port, line_games, tcp_port, read_timeout=read_timeout,
                      max_connections=max_connections, say=lambda line: click.echo(line, err=True), workers=workers)
