"""The ``mmlogic`` command line: a thin layer over the package.

Each command parses its options (shared groups are the decorators below),
calls one library function and prints the result object it gets back, as
text or as the JSON the contract fixes (``docs/cli.md``). Every user error
becomes one line on stderr and the contract's exit code: 2 bad usage or
input, 3 no consistent code, 1 any other failure, 130 interrupted (143 after
SIGTERM, 129 after SIGHUP: they stop a command as Ctrl-C does).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import math
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

import click

from . import __version__
from .engines import BACKENDS, DEFAULT_BACKEND, make_engine
from .errors import (
    BackendUnavailable,
    BadInput,
    MMLogicError,
    WrongAnswer,
    cannot_listen,
    host_port,
    install_hint,
    one_line,
)
from .files import check_output, not_regular
from .interrupts import endings_as_interrupts, interrupted_code, wrapped_interrupt
from .notation import amount, bytes_as_typed, parse_code, parse_entry, quoted
from .rules import DEFAULT_ALPHABET, MAX_COLORS, MAX_PEGS, make_rules
from .strategies import ALIASES, STRATEGIES, TreeStrategy, canonical_name, is_tree_name, make_strategy, open_tree
from .strategies.sampled import EXACT_SPACE, SampleEntropy, is_sample_name, sample_size
from .terminal import clock

EXIT_INTERRUPTED = 130
#: The errors of writing to a full or failing device: said as such, not as an internal failure.
OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
#: Said when ``optimal`` compiles its kernels (once: numba caches them).
COMPILING_OPTIMAL = "compiling the optimal search's kernels (once: they are cached for later runs, which start at once)"
COMPILING_UNCACHED = "compiling the optimal search's kernels (at every run: no folder for numba's cache can be written)"
#: ``compare --preset`` names (``mm_logic.compare.PRESETS``, not imported at start-up; a test keeps them equal).
PRESET_NAMES = ["seed000", "seed001", "seed003", "seed004"]


class Interrupted(Exception):
    """Ctrl-C, carried past click: click answers a KeyboardInterrupt with an empty line on stderr
    before its Abort, and the contract's answer is the one line ``interrupted``."""


class MMLogicGroup(click.Group):
    """A click group whose errors are one line each, never a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted from None
        except SystemError as error:
            if wrapped_interrupt(error):  # Ctrl-C in a numba kernel called outside a game
                raise Interrupted from None
            raise

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        with endings_as_interrupts():  # SIGTERM, SIGHUP: the clean path of Ctrl-C, their own exit code
            sys.exit(self._run(args, prog_name, complete_var, **extra))

    def _run(self, args, prog_name, complete_var, **extra) -> int:
        """Run the command: its exit code, every error said in one line."""
        try:
            rv = super().main(args, prog_name or "mmlogic", complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else 0
        except click.exceptions.NoArgsIsHelpError as e:
            click.echo(e.ctx.get_help() if e.ctx else str(e))
            code = 2
        except click.ClickException as e:
            click.echo(f"error: {bytes_as_typed(e.format_message())}", err=True)  # click quotes with repr()
            code = e.exit_code
        except MMLogicError as e:
            click.echo(f"error: {bytes_as_typed(str(e))}", err=True)
            code = e.exit_code
        except (Interrupted, KeyboardInterrupt, click.Abort):
            code = interrupted_code()
            # A second Ctrl-C while this is said (one sent to the process and to its parent, as
            # `timeout` forwards it) printed a traceback.
            with contextlib.suppress(KeyboardInterrupt):
                # On a terminal the ^C ends a line first; elsewhere the line is alone.
                click.echo(("\n" if sys.stderr.isatty() else "") + "interrupted", err=True)
        except (BrokenPipeError, EOFError):
            code = 1
        except Exception as e:  # noqa: BLE001 - the contract: one line, never a traceback
            if os.environ.get("MMLOGIC_DEBUG"):
                raise
            if isinstance(e, OSError) and e.errno in OUTPUT_ERRNOS and not e.filename:
                # A full disk (or quota, or a failing device) under stdout is the system's failure, not ours.
                click.echo(f"error: cannot write the output: {(e.strerror or str(e)).lower()}", err=True)
            else:
                click.echo(f"error: internal failure: {type(e).__name__}: {one_line(str(e))} (set MMLOGIC_DEBUG=1 "
                           "for details)",
                           err=True)
            code = 1
        return code


# -- shared option groups --------------------------------------------------------------
class Integer(click.IntRange):
    """An integer option within bounds: ``'abc' is not a valid integer`` (click's own type says
    "integer range", and shows INTEGER RANGE in --help)."""

    name = "integer"


RULE_OPTIONS = ("pegs", "colors", "no_repeat", "max_repeat", "alphabet")


def rules_options(f=None, *, refuse_alphabet: str | None = None):
    """``--pegs --colors --no-repeat --max-repeat --alphabet``; passes ``rules``.

    ``refuse_alphabet``: the reason a command (``serve``) takes no ``--alphabet``; the
    option is then left out of its help and refused with that reason.
    """
    if f is None:
        return functools.partial(rules_options, refuse_alphabet=refuse_alphabet)

    @click.option("--pegs", type=Integer(1, MAX_PEGS), default=4, show_default=True, help="Code length.")
    @click.option("--colors", type=Integer(1, MAX_COLORS), default=6, show_default=True,
                  help="Number of colours (symbols).")
    @click.option("--no-repeat", is_flag=True, help="Every colour at most once (bulls and cows).")
    @click.option("--max-repeat", type=Integer(1), default=None,
                  help="Every colour at most M times.  [default: unlimited]")
    @click.option("--alphabet", default=DEFAULT_ALPHABET, show_default=True, hidden=refuse_alphabet is not None,
                  help="Symbols in order; the first K are used.")
    @functools.wraps(f)
    def wrapper(*args, pegs, colors, no_repeat, max_repeat, alphabet, **kwargs):
        if refuse_alphabet is not None and alphabet != DEFAULT_ALPHABET:
            raise BadInput(f"--alphabet does not apply to {click.get_current_context().info_name}: {refuse_alphabet}")
        rules = make_rules(pegs, colors, no_repeat, max_repeat, alphabet)
        if alphabet != DEFAULT_ALPHABET and not rules.symbolic:
            click.echo(f"note: --alphabet has {len(alphabet)} symbols for {colors} colours: codes are written "
                       "as comma-separated colour numbers (0,3,1,2)", err=True)
        return f(*args, rules=rules, **kwargs)
    return wrapper


#: The authors' names --strategy also takes (``knuth`` is ``minimax``).
_ALIAS_HELP = ("Authors' names work too: " + ", ".join(f"{alias} ({name})" for alias, name in ALIASES.items())
               + ".")


def _strategy_help() -> str:
    # A line, not each strategy's summary: those made a 40-line paragraph of every command's --help.
    return ("How the next guess is chosen (each strategy and its opening: docs/cli.md, "
            f"\"Engine and strategy options\").  {_ALIAS_HELP}")


class StrategyChoice(click.Choice):
    """A built-in strategy's name, ``sample-entropy:K``, or ``tree:FILE``: a saved tree, read at once
    (a bad file is one line)."""

    def __init__(self):
        super().__init__(list(STRATEGIES))

    def get_metavar(self, param, ctx):
        return super().get_metavar(param, ctx).replace("]", "|sample-entropy:K|tree:FILE]")

    def get_invalid_choice_message(self, value, ctx):
        return (super().get_invalid_choice_message(value, ctx).rstrip(".")
                + ", sample-entropy:K (a sample of K codes), or tree:FILE (a saved strategy tree).")

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            value = canonical_name(value)
        if isinstance(value, str) and is_sample_name(value):
            try:
                sample_size(value)
            except BadInput as error:
                self.fail(str(error), param, ctx)
            return value
        if isinstance(value, str) and is_tree_name(value):
            try:
                open_tree(value)
            except BadInput as error:
                self.fail(str(error), param, ctx)
            return value
        return super().convert(value, param, ctx)


def _open_trees(ctx, param, text: str | None) -> str | None:
    """Read the tree files a comma-separated ``--strategy`` list names (``tree:FILE``), at once."""
    for name in (text or "").split(","):
        if is_tree_name(name.strip()):
            try:
                open_tree(name.strip())
            except BadInput as error:
                raise click.BadParameter(str(error), ctx, param) from None
    return text


def backend_option(many: bool = False):
    """``--backend``: one engine, or (``many``) a comma-separated list of them."""
    if many:
        return click.option("--backend", "backends", default=DEFAULT_BACKEND, show_default=True,
                            metavar="A[,B...]",
                            help=f"Engines to compare, comma-separated ({', '.join(BACKENDS)}).")
    return click.option("--backend", type=click.Choice(list(BACKENDS)), default=DEFAULT_BACKEND,
                        show_default=True, help="Engine that finds consistent codes.")


def strategy_option(default: str, many: bool = False, trees: bool = False):
    """``--strategy``: one strategy, or (``many``) a comma-separated list of them.

    A single strategy may be ``tree:FILE``; in a list, only with ``trees`` (the
    commands whose games run in this process or in a bench's workers).
    """
    if many:
        listed = ", ".join([*STRATEGIES, "tree:FILE"] if trees else STRATEGIES)
        return click.option("--strategy", "strategies", default=default, show_default=True, metavar="X[,Y...]",
                            callback=_open_trees if trees else None,
                            help=f"Strategies to compare, comma-separated ({listed}).  {_ALIAS_HELP}")
    return click.option("--strategy", type=StrategyChoice(), default=default,
                        show_default=True, help=_strategy_help())


class FilePath(click.Path):
    """``click.Path`` that refuses an empty name (which would otherwise be the current folder, ".")."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("an empty name is not a file or a folder", param, ctx)
        return super().convert(value, param, ctx)


seed_option = click.option("--seed", type=Integer(0), default=None,
                           help="Makes every random choice reproducible (a number >= 0).")
encoding_option = click.option(
    "--encoding", type=FilePath(exists=True, dir_okay=False, path_type=Path), default=None,
    help="Edited .lp (clingo) or .pl (swipl) encoding to use instead of the shipped one.")
class Seconds(click.FloatRange):
    """A number of seconds above 0 (``nan`` and ``inf`` are not: every comparison with nan is false)."""

    name = "seconds"

    def __init__(self):
        super().__init__(0, min_open=True)

    def convert(self, value, param, ctx):
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{quoted(value)} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{quoted(value)} is not a number of seconds", param, ctx)
        return super().convert(value, param, ctx)


time_limit_option = click.option(
    "--time-limit", type=Seconds(), default=None, metavar="SECONDS",
    help="Bound on one solver call, and on a genetic strategy's search for a consistent code "
         "(ga001-*: 300 s when not given); exceeding it exits 1.")


#: Solver messages about an edited encoding shown at most (the rest are counted).
MAX_NOTES = 10


def show_encoding_notes(engine) -> None:
    """What the solver said about an edited encoding while it ran, one ``note:`` line each, on stderr.

    clingo goes on past an atom that no rule derives, which is how a typo
    (``secrt`` for ``secret``) silently turns a constraint off; it says so only
    as information (swipl stops at every warning instead).
    """
    notes = list(getattr(engine, "warnings", ()))
    for note in notes[:MAX_NOTES]:
        click.echo(f"note: {note}", err=True)
    if len(notes) > MAX_NOTES:
        click.echo(f"note: and {len(notes) - MAX_NOTES} more", err=True)


def engine_options(default_strategy: str = "minimax", beyond: str | None = None):
    """``--backend --strategy --first-guess --seed --encoding --time-limit``.

    Passes ``engine``, ``strategy``, ``first_guess`` (a code or None) and ``seed``.
    ``beyond``: the strategy played, with a note, where the default one cannot play the
    size and ``--strategy`` was not given (``play``: a game is not refused for its hints);
    without it such a size is refused, naming the strategies that can.
    """
    def decorate(f):
        @backend_option()
        @strategy_option(default_strategy)
        @click.option("--first-guess", "first_guess_text", metavar="CODE", default=None,
                      help="Opening guess (default: the strategy's own, see --strategy).")
        @seed_option
        @encoding_option
        @time_limit_option
        @click.option("--labeling", type=click.Choice(["leftmost", "ff", "ffc", "min", "max"]), default=None,
                      help="swipl only: the order in which `any` labels the pegs (ff: first-fail, the "
                           "option seed 003's guesser labels with).  [default: the encoding's own]")
        @functools.wraps(f)
        def wrapper(*args, rules, backend, strategy, first_guess_text, seed, encoding, time_limit, labeling,
                    **kwargs):
            engine = make_engine(backend, rules, encoding=encoding, time_limit=time_limit, labeling=labeling)
            if encoding is not None:
                click.get_current_context().call_on_close(lambda: show_encoding_notes(engine))
            limit = STRATEGIES[strategy].max_codes if strategy in STRATEGIES else None
            default = click.get_current_context().get_parameter_source("strategy") == click.core.ParameterSource.DEFAULT
            if beyond is not None and default and limit is not None and rules.size > limit:
                click.echo(f"note: {rules.describe()} has {amount(rules.size)} codes, more than {strategy} scores "
                           f"({amount(limit)}): {beyond} instead (choose another with --strategy)", err=True)
                strategy = beyond
            chosen = make_strategy(strategy, rules, seed, time_limit)
            first_guess = parse_code(first_guess_text, rules) if first_guess_text is not None else None
            if isinstance(chosen, TreeStrategy):
                chosen.check_opening(first_guess)
            if isinstance(chosen, SampleEntropy) and chosen.exact:
                click.echo(f"note: {rules.describe()} has {amount(rules.size)} codes (at most {EXACT_SPACE:,}): "
                           f"{chosen.name} plays the exact entropy scorer", err=True)
            return f(*args, rules=rules, engine=engine, strategy=chosen, first_guess=first_guess, seed=seed,
                     **kwargs)
        return wrapper
    return decorate


def _writable_file(ctx, param, path: Path | None) -> Path | None:
    """Check, before any game runs, that a result file can be written: a new path or a regular
    file (a link, its target), never a device or a FIFO (:func:`mm_logic.files.check_output`)."""
    if path is None:
        return None
    try:
        check_output(path)
    except OSError as error:
        raise click.BadParameter(f"cannot write {path} ({error.strerror})") from None
    return path


def _chart_folder(ctx, param, path: Path | None) -> Path | None:
    """Check, before any game runs, that charts can be drawn and written into ``path``."""
    if path is None:
        return None
    import importlib.util
    if importlib.util.find_spec("matplotlib") is None:
        raise click.BadParameter(f"charts need matplotlib: {install_hint('plot')}")
    kind = not_regular(path)
    if kind not in (None, "a folder") or path.is_file():
        raise click.BadParameter(f"cannot write into folder {path} ({kind or 'a file'}, not a folder)")
    # Every chart is a .png: one that stands there as a FIFO or a device would be waited on, or replaced.
    for chart in sorted(path.glob("*.png")) if path.is_dir() else []:
        if not_regular(chart) is not None:
            raise click.BadParameter(f"cannot write {chart} ({not_regular(chart)}, not a regular file)")
    made = [p for p in (path, *path.parents) if not p.exists()]
    try:
        path.mkdir(parents=True, exist_ok=True)
        import tempfile
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as error:
        raise click.BadParameter(f"cannot write into folder {path} ({error.strerror})") from None
    finally:
        for folder in made:  # made for the probe only: the charts make it again, after the games
            if folder.is_dir():
                folder.rmdir()
    return path


def output_file_option(*names: str, help: str):
    """An option naming a file the command writes, checked before any game runs."""
    return click.option(*names, type=FilePath(dir_okay=False, path_type=Path), default=None,
                        callback=_writable_file, help=help)


def distinct_outputs(**paths: Path | None) -> None:
    """Refuse, before any game, two options naming the same output (the second would overwrite the first)."""
    seen: dict[Path, str] = {}
    for option, path in paths.items():
        if path is None:
            continue
        key = path.resolve()
        if key in seen:
            raise BadInput(f"--{seen[key]} and --{option.replace('_', '-')} name the same file, {path}")
        seen[key] = option.replace("_", "-")


def write_output(path: Path, write: Callable[[Path], None]) -> None:
    """``write(path)``; a failure (a full disk, a folder removed meanwhile) is one line, exit 1, after the
    results were printed."""
    try:
        write(path)
    except OSError as error:
        raise MMLogicError(f"cannot write {path}: {(error.strerror or str(error)).lower()}") from None


json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
jobs_option = click.option("--jobs", type=Integer(1), default=1, show_default=True,
                           help="Worker processes (at most the cores); the attempts are the same as with one.")


def server_option(help: str):
    """``--server URL``: play against a codemaker on a ``mmlogic serve`` server."""
    def to_server(ctx, param, text: str | None):
        if text is None:
            return None
        from .client import RemoteServer
        try:
            return RemoteServer(text)
        except BadInput as error:
            raise click.BadParameter(str(error).removeprefix("--server "), ctx, param) from None
    return click.option("--server", metavar="URL", default=None, callback=to_server, help=help)


def emit(result, as_json: bool) -> None:
    """Print a result object: its contract JSON, or its text."""
    click.echo(json.dumps(result.as_dict()) if as_json else result.text())


def progress_bar(length: int, label: str):
    """A progress bar on stderr for a terminal (with --json too: stdout stays the JSON alone); a no-op
    context otherwise."""
    from .terminal import interactive

    return TickingBar(length, label) if interactive(sys.stderr) else _NoProgress()


class TickingBar:
    """click's progress bar, on a terminal's stderr, redrawn every second with the time spent.

    The bar itself moves only when a step ends: a 20x20 game on swipl takes
    minutes, and a bar frozen at 0% looked hung. A background thread redraws
    it with the minutes and seconds spent (the steps' own redraws take the
    same lock). Use it as click's bar: a context manager with
    :meth:`update`.
    """

    def __init__(self, length: int, label: str, stream: TextIO | None = None, every: float = 1.0):
        self._started = time.monotonic()
        self._every = every
        self._bar = click.progressbar(length=length, label=label, file=stream or sys.stderr,
                                      show_eta=False, item_show_func=self._times)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _times(self, _item) -> str:
        """"1:05 spent", then ", about 2:10 left" once a step has ended (at the steps' mean pace)."""
        spent = time.monotonic() - self._started
        done, length = self._bar.pos, self._bar.length
        text = f"{clock(spent)} spent"
        if 0 < done < length:
            text += f", about {clock(spent / done * (length - done))} left"
        return text

    def __enter__(self) -> TickingBar:
        self._started = time.monotonic()
        self._bar.__enter__()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            self._bar.__exit__(*exc)

    def update(self, n: int) -> None:
        """``n`` more steps are done."""
        with self._lock:
            self._bar.update(n)

    @contextlib.contextmanager
    def above(self):
        """Print lines above the bar: its line is wiped, the caller prints (to stdout or stderr), and the
        next redraw, within a second, draws the bar below them."""
        with self._lock:
            self._bar.file.write("\r\033[K")
            self._bar.file.flush()
            yield

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            with self._lock:
                self._bar.render_progress()


class _NoProgress:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n):
        pass

    def above(self):
        return contextlib.nullcontext()


def secret_or_random(text: str | None, engine, seed: int | None):
    """The code the user gave, or a random one of the engine's game (an edited encoding's codes),
    reproducible with ``seed``."""
    from .bench import game_secrets
    if text is None:
        return game_secrets(engine, 1, seed)[0]
    secret = parse_code(text, engine.rules)
    # A code the edited game excludes could never be found: said now, not after the guesses.
    if engine.encoding is not None:
        try:
            admitted = engine.first([(secret, (engine.rules.pegs, 0))]) is not None
        except WrongAnswer as error:  # the encoding is wrong, not the secret
            raise WrongAnswer(f"{error} (asked whether it admits --secret {text})") from None
        if not admitted:
            raise BadInput(f"--secret {text} is excluded by {engine.encoding.name} (the game's secrets are the "
                           "codes it admits)")
    return secret


# -- commands ---------------------------------------------------------------------------
@click.group(cls=MMLogicGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mmlogic")
def cli():
    """Mastermind and bulls-and-cows solved with logic programming.

    The same game is written as an Answer-Set Program (clingo, the default
    engine), as CLP(FD) constraints (SWI-Prolog through janus) and as a numpy
    reference engine; strategies from Shapiro to Knuth and Kooi choose the
    guesses. The seeds' own algorithms play too: human-like strategies
    (human1..3), CSP searches (--backend a1..a5), genetic algorithms (ga001-*,
    ga004).

    \b
    Examples:
      mmlogic solve --secret 0123
      mmlogic next 0011:1,0 2345:0,2
      mmlogic bench --backend python --strategy minimax --first-guess 0011 --all
      mmlogic info --pegs 5 --colors 8 --no-repeat
      mmlogic play --role codemaker
      mmlogic compare --preset seed000
      mmlogic sweep --sizes 4x2-10,5x6 --out table.jsonl --jobs 2
      mmlogic openings --strategy minimax,parts
      mmlogic solve --strategy sample-entropy --pegs 16 --colors 6
      mmlogic serve
      mmlogic solve --server http://127.0.0.1:8000
    """


@cli.command()
@rules_options
@engine_options()
@click.option("--secret", "secret_text", metavar="CODE", default=None,
              help="The code to find (random when not given; reproducible with --seed).")
@server_option("Play against a codemaker on this mmlogic server, which keeps the secret "
               "(random unless --secret; reproducible with --seed).")
@json_option
def solve(rules, engine, strategy, first_guess, seed, secret_text, server, as_json):
    """The computer plays against a secret.

    Prints one line per guess with its feedback (black,white), then the number
    of guesses. With --server the secret is a remote codemaker's (seed 003's
    client and server): the strategy runs here and sees only its answers
    (with --encoding, the secret sent there is one of the encoding's codes).

    \b
    Examples:
      mmlogic solve --secret 0123
      mmlogic solve --backend swipl --strategy first --pegs 5 --colors 8 --no-repeat --seed 1
      mmlogic solve --strategy any --pegs 16 --colors 6 --json
      mmlogic solve --server http://127.0.0.1:8000 --pegs 5 --colors 8 --no-repeat
    """
    from .bench import warm_up
    from .game import play, turn_line
    from .terminal import Spinner

    if server is None or engine.encoding is not None:
        # With an edited encoding the server, which plays the rules' game, is given one of the
        # encoding's codes, checked or drawn here (as bench --server gives it its secrets).
        secret = secret_or_random(secret_text, engine, seed)
    else:
        secret = parse_code(secret_text, rules) if secret_text is not None else None
    warm_up(engine.name, strategy.name, rules.max_repeat)  # `seconds` leaves start-up out
    with Spinner("thinking") as spinner:
        def show(number, entry):
            # Each guess as soon as it is made: a long game is never silent.
            spinner.tick()
            if not as_json:
                click.echo(turn_line(number, entry, rules))

        if server is None:
            record = play(engine, strategy, secret, first_guess, on_turn=show)
        else:
            from .client import play_remote
            record = play_remote(engine, strategy, server, secret, seed, first_guess, on_turn=show)
    # The turns are printed already: the text ends with the summary line alone.
    click.echo(json.dumps(record.as_dict()) if as_json else record.summary())


@cli.command(name="next")
@rules_options
@engine_options()
@json_option
@click.argument("history", nargs=-1, metavar="HISTORY...")
def next_command(rules, engine, strategy, first_guess, seed, as_json, history):
    """Given what was played so far, the next guess.

    Each HISTORY item is GUESS:B,W (black, white). With no history, prints the
    strategy's opening; once an entry scored all black, that code, as solved.
    Exits 3, naming the entries that contradict each other, when no code fits
    the history.

    \b
    Examples:
      mmlogic next 0011:1,0 2345:0,2
      mmlogic next --strategy first --json 0123:0,2
      mmlogic next --no-repeat --colors 10 0123:1,1
    """
    from .game import advise
    from .terminal import Spinner

    entries = [parse_entry(item, rules, check_repeat=not strategy.probes) for item in history]
    with Spinner("thinking"):
        suggestion = advise(engine, strategy, entries, first_guess)
    emit(suggestion, as_json)


@cli.command()
@rules_options
@engine_options()
@click.option("--all", "all_secrets", is_flag=True, help="Play every secret of the code space once.")
@click.option("--games", type=Integer(1), default=None, help="Play N random secrets (see --seed).")
@click.option("--spaced", type=Integer(1), default=None, metavar="N",
              help="Play N secrets evenly spaced over the code space in lexicographic order "
                   "(code number i*(size//N)), as published large-game figures do.")
@server_option("Play each game against a codemaker on this mmlogic server, which keeps the secret; "
               "the secrets are the bench's own, so the attempts compare with a bench in process.")
@json_option
@output_file_option("--out", help="Also write the JSON object to FILE.")
@output_file_option("--save-tree", "save_tree",
                    help="With --all and a deterministic strategy: also write the strategy's tree (every guess "
                         "after every history) to FILE as JSON; --strategy tree:FILE plays it back, "
                         "mmlogic tree FILE sums it up and draws it.")
@jobs_option
def bench(rules, engine, strategy, first_guess, seed, all_secrets, games, spaced, server, as_json, out, save_tree,
          jobs):
    """Play many games and summarise the attempts.

    --all plays every secret exactly once (deterministic strategies are
    evaluated as one tree, which gives the same totals as playing each game,
    and checks the engine's count of consistent codes at every node); --games
    N plays N random secrets; --spaced N plays N secrets evenly spaced in
    lexicographic order. `seconds` is the wall time of the games alone.
    --save-tree FILE (with --all) writes the tree the strategy played.

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
    """
    from .bench import (
        bench_all,
        bench_games,
        check_every_secret,
        check_tree_recordable,
        game_secrets,
        secret_indices,
        spaced_secrets,
        warm_up,
    )
    from .codespace import code_space

    if all_secrets + (games is not None) + (spaced is not None) != 1:
        raise BadInput("give exactly one of --all, --games N or --spaced N")
    distinct_outputs(out=out, save_tree=save_tree)
    if save_tree is not None:
        # Refused before any game: a tree covers every secret, played here.
        if not all_secrets:
            raise BadInput("--save-tree needs --all: a strategy's tree covers every secret")
        if server is not None:
            raise BadInput("--save-tree does not apply with --server (each game is played against the server)")
        check_tree_recordable(strategy)
    if spaced is not None:
        if engine.encoding is not None:
            raise BadInput("--spaced plays evenly spaced codes of the rules, not an edited encoding's: "
                           "use --games N or --all")
        try:
            secrets = spaced_secrets(rules, spaced)
        except BadInput as error:
            raise click.BadParameter(str(error), param_hint="'--spaced'") from None
    else:
        secrets = None if all_secrets else game_secrets(engine, games, seed)
    if all_secrets and server is not None:
        # Every secret, one remote game each: the tree needs the secrets at hand.
        check_every_secret(rules)
        space = code_space(rules)
        secrets = [space.code(i) for i in range(space.size)]
    warm_up(engine.name, strategy.name, rules.max_repeat)  # `seconds` leaves start-up out
    if secrets is None:
        check_every_secret(rules)
        every = secret_indices(engine)  # listed once: the bar's length, then the games
    with progress_bar(len(every) if secrets is None else len(secrets), "games") as bar:
        if secrets is None:
            result = bench_all(engine, strategy, first_guess, progress=bar.update, jobs=jobs,
                               record_tree=save_tree is not None, secrets=every)
        else:
            result = bench_games(engine, strategy, secrets, first_guess, progress=bar.update, jobs=jobs,
                                 server=server)
    emit(result, as_json)  # first: a file that cannot be written loses nothing printed
    if out:
        write_output(out, lambda path: path.write_text(json.dumps(result.as_dict()) + "\n"))
    if save_tree:
        write_output(save_tree, result.strategy_tree(strategy, first_guess).save)


@cli.command()
@click.option("--preset", type=click.Choice(PRESET_NAMES), default=None,
              help="Replay a report's experiments (its rule sets, backends, strategies and games) "
                   "instead of the rules options; --backend, --strategy, --all or --games replace the preset's.")
@rules_options
@backend_option(many=True)
@strategy_option("first", many=True, trees=True)
@click.option("--all", "all_secrets", is_flag=True, help="Play every secret of each code space once.")
@click.option("--games", type=Integer(1), default=None, help="Play N random secrets per rule set.")
@seed_option
@encoding_option
@time_limit_option
@json_option
@output_file_option("--csv", "csv_file", help="Also write the rows to a CSV file.")
@click.option("--plot", "plot_dir", type=FilePath(file_okay=False, path_type=Path), default=None,
              callback=_chart_folder, help="Write PNG charts into DIR (needs matplotlib).")
@jobs_option
@click.pass_context
def compare(ctx, preset, rules, backends, strategies, all_secrets, games, seed, encoding, time_limit,
            as_json, csv_file, plot_dir, jobs):
    """Run every (rule set, backend, strategy) combination on the same secrets.

    Prints a table per rule set: games, mean and max attempts, histogram, time
    per game and total time (and the search effort of seed 001's engines
    a1..a5). For deterministic strategies every backend must give the same
    attempts for every secret; any disagreement is listed and the command
    exits 1. Ctrl-C stops and prints what was finished.

    \b
    Presets (each report's experiments; mmlogic compare --preset NAME alone):
      seed000  human1-3 and first on 4x6, 4x8, 4x8 no-repeat, 4x20, 6x4, every secret
      seed001  A1-A5 (a1..a5) and the genetic algorithms, n = 4..8, p = 2n, 20 games
               (every secret of 4x8); the p sweep at n = 5; two occurrences (a3, a4)
      seed003  5 pegs of 8 colours, with and without repetition, every secret;
               random and minimax beside first
      seed004  4x8: ga004 beside ga001-random, random, first, minimax, human3; 500 games

    \b
    Examples:
      mmlogic compare --preset seed000 --plot charts/
      mmlogic compare --preset seed000 --backend python --strategy first,minimax --all
      mmlogic compare --backend clingo,swipl,python --strategy first --games 200 --seed 1
      mmlogic compare --preset seed001 --backend clingo --strategy first,any --games 100 --plot charts/
    """
    from .compare import ComparePlan, column_widths, compare, table_header, table_row

    distinct_outputs(csv=csv_file, plot=plot_dir)
    typed = [f"--{p.replace('_', '-')}" for p in RULE_OPTIONS
             if ctx.get_parameter_source(p) != click.core.ParameterSource.DEFAULT]
    # Without a preset the options' defaults apply; with one, only what was typed replaces its own.
    default = click.core.ParameterSource.DEFAULT
    if preset is not None:
        backends = None if ctx.get_parameter_source("backends") == default else backends
        strategies = None if ctx.get_parameter_source("strategies") == default else strategies
    plan = ComparePlan.make(preset=preset, rules=rules, explicit_rules=typed, backends=backends,
                            strategies=strategies, all_secrets=all_secrets, games=games, seed=seed, jobs=jobs,
                            encoding=encoding, time_limit=time_limit)
    others = [b for b in plan.backends if not plan.reads(b)] if encoding is not None else []
    if others:
        reader = next(b for b in plan.backends if plan.reads(b))
        click.echo(f"note: {reader} plays the game of {encoding.name}; {', '.join(others)} "
                   f"{'plays' if len(others) == 1 else 'play'} the rules' game, on its secrets where "
                   f"{reader} plays too, so no disagreement with {reader} is checked", err=True)
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
        from .charts import plot_comparison
        write_output(plot_dir, lambda folder: plot_comparison(outcome, folder))
    if as_json:
        click.echo(json.dumps(outcome.as_dict()))
    else:
        for disagreement in outcome.disagreements:
            click.echo(disagreement.text())
    if not outcome.complete:
        click.echo("interrupted: the rows above are the finished ones", err=True)
        return interrupted_code()
    if outcome.disagreements:
        click.echo(f"error: {len(outcome.disagreements)} disagreement(s) between backends", err=True)
        return 1
    return 0


# -- sweeps ---------------------------------------------------------------------------------
def sweep_options(f):
    """``--out --jobs --executor --scheduler --json``: where a sweep's cases run and where its rows go.

    Passes ``run`` (runs a list of cases, returns the :class:`mm_logic.sweep.Sweep`), ``out`` and ``as_json``.
    """
    @output_file_option("--out", help="Append each finished case's row to FILE as one JSON line; "
                                      "a rerun skips the cases found there (resume).")
    @click.option("--jobs", type=Integer(1), default=1, show_default=True,
                  help="Cases run at once on this machine (at most its cores), each in a fresh process "
                       "(--executor local); the rows are the same as with one.")
    @click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                  help="local: processes on this machine; dask: the workers of a Dask cluster (see --scheduler).")
    @click.option("--scheduler", metavar="ADDRESS", default=None,
                  help="Address of the Dask scheduler, e.g. tcp://10.0.0.5:8786 (with --executor dask).")
    @json_option
    @functools.wraps(f)
    def wrapper(*args, out, jobs, executor, scheduler, as_json, **kwargs):
        from .sweep import check_dask, check_scheduler, run_sweep

        ctx = click.get_current_context()
        if executor == "dask":
            if scheduler is None:
                raise BadInput("--executor dask needs --scheduler ADDRESS (e.g. tcp://HOST:8786)")
            if ctx.get_parameter_source("jobs") != click.core.ParameterSource.DEFAULT:
                raise BadInput("--jobs applies to --executor local; on Dask the workers' threads set how many "
                               "cases run at once")
            check_dask()
            check_scheduler(scheduler)
        elif scheduler is not None:
            raise BadInput("--scheduler needs --executor dask")

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


def repeat_rule(no_repeat: bool, max_repeat: int | None) -> int | None:
    if no_repeat and max_repeat not in (None, 1):
        raise BadInput(f"--no-repeat contradicts --max-repeat {max_repeat}")
    return 1 if no_repeat else max_repeat


@cli.command()
@click.option("--sizes", default="4x6", show_default=True, metavar="PxC[,...]",
              help="Rule sets: comma-separated PEGSxCOLORS, either side a number or a range A-B "
                   "(4x2-10,5x6-7,6-7x5).")
@click.option("--no-repeat", is_flag=True, help="Every colour at most once, in every size.")
@click.option("--max-repeat", type=Integer(1), default=None, metavar="M",
              help="Every colour at most M times, in every size.  [default: unlimited]")
@strategy_option("minimax,expected,entropy,parts", many=True)
@click.option("--backend", "backends", default="python", show_default=True, metavar="A[,B...]",
              help=f"Engines, comma-separated ({', '.join(BACKENDS)}).")
@click.option("--first-guess", "first_guesses", metavar="CODE", multiple=True,
              help="Opening to play in every size; repeat the option for several.  [default: each strategy's own]")
@click.option("--all-openings", is_flag=True, help="Play every canonical opening of each size (see mmlogic openings).")
@seed_option
@sweep_options
def sweep(sizes, no_repeat, max_repeat, strategies, backends, first_guesses, all_openings, seed, run, out,
          as_json):
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

    \b
    Examples:
      mmlogic sweep --sizes 4x2-10,5x6-7,6x5-6,7x4,8x3-4 --out table.jsonl --jobs 2
      mmlogic sweep --sizes 4x6,5x8 --no-repeat --strategy minimax,parts --json
      mmlogic sweep --sizes 4x6 --strategy minimax --first-guess 0011 --first-guess 0123
      mmlogic sweep --sizes 4x4-7 --all-openings --out openings.jsonl
      mmlogic sweep --sizes 4x2-10 --out table.jsonl --executor dask --scheduler tcp://10.0.0.5:8786
    """
    from .compare import strategy_names
    from .sweep import names, parse_sizes, plan

    cases = plan(parse_sizes(sizes), max_repeat=repeat_rule(no_repeat, max_repeat),
                 strategies=strategy_names(strategies, STRATEGIES.built_in()), first_guesses=list(first_guesses),
                 all_openings=all_openings, backends=names("backend", BACKENDS, backends), seed=seed)
    outcome = run(cases)
    if as_json:
        click.echo(json.dumps(outcome.as_dict()))
    elif outcome.rows:
        click.echo(outcome.text())
    return sweep_exit(outcome, out)


@cli.command()
@click.option("--pegs", type=Integer(1, MAX_PEGS), default=4, show_default=True, help="Code length.")
@click.option("--colors", type=Integer(1, MAX_COLORS), default=6, show_default=True,
              help="Number of colours (symbols).")
@click.option("--no-repeat", is_flag=True, help="Every colour at most once (bulls and cows).")
@click.option("--max-repeat", type=Integer(1), default=None, metavar="M",
              help="Every colour at most M times.  [default: unlimited]")
@strategy_option("minimax", many=True)
@click.option("--backend", type=click.Choice(list(BACKENDS)), default="python", show_default=True,
              help="Engine that finds consistent codes.")
@seed_option
@sweep_options
def openings(pegs, colors, no_repeat, max_repeat, strategies, backend, seed, run, out, as_json):
    """Play every canonical opening of a size and rank them.

    The canonical openings are one code per class that colour and position
    symmetry tell apart (0000 0001 0011 0012 0123 for 4x6). Each is played
    against every secret, the strategy choosing every later guess; they are
    ranked by total guesses, then by the worst case, as the published
    initial-guess studies do. Runs as a sweep: --out, --jobs and --executor
    dask apply alike.

    \b
    Examples:
      mmlogic openings --strategy minimax,parts
      mmlogic openings --pegs 5 --colors 8 --strategy entropy --jobs 2 --json
      mmlogic openings --pegs 4 --colors 10 --no-repeat --strategy expected
      mmlogic openings --pegs 6 --colors 6 --out 6x6.jsonl --executor dask --scheduler tcp://10.0.0.5:8786
    """
    from .compare import strategy_names
    from .sweep import OpeningRanking, opening_cases

    rules = make_rules(pegs, colors, max_repeat=repeat_rule(no_repeat, max_repeat))
    chosen = strategy_names(strategies, STRATEGIES.built_in())
    cases = opening_cases(rules, chosen, backend, seed)
    ranking = OpeningRanking(rules, backend, chosen, run(cases))
    if as_json:
        click.echo(json.dumps(ranking.as_dict()))
    elif ranking.sweep.rows:
        click.echo(ranking.text())
    return sweep_exit(ranking.sweep, out)


@cli.command()
@rules_options
@click.option("--backend", type=click.Choice(list(BACKENDS)), default=DEFAULT_BACKEND, show_default=True,
              help="Engine that decides which feedbacks can occur.")
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
    """
    from .analysis import computed_optima, study
    from .terminal import Spinner

    with Spinner("asking the engine"):
        result = study(make_engine(backend, rules), computed_optima(rules))
    emit(result, as_json)


@cli.command(name="tree")
@click.argument("file", type=FilePath(dir_okay=False, path_type=Path))
@click.option("--dot", "as_dot", is_flag=True, help="Print the tree in Graphviz's DOT language instead of the summary.")
@output_file_option("--png", help="Also draw the tree into a PNG file (needs Graphviz's dot program).")
@click.option("--max-depth", type=Integer(1), default=None, metavar="N",
              help="Draw the first N guesses of every game (--dot, --png); a deeper subtree is one dashed box "
                   "with its number of codes.  [default: all]")
@json_option
def tree_command(file, as_dot, png, max_depth, as_json):
    """Sum up or draw a strategy tree saved by bench --all --save-tree FILE.

    Prints the tree's rules, strategy and opening, and the figures of playing
    every secret with it (games, total guesses, mean, max, histogram, nodes),
    computed from the file alone. --dot prints it in Graphviz's DOT language,
    as the published pictures of Knuth's tree: a box per guess with the
    number of codes still possible, an edge per feedback, filled boxes where
    games end; --png draws it (Graphviz's dot program must be installed).

    \b
    Examples:
      mmlogic bench --backend python --strategy minimax --all --save-tree knuth.json
      mmlogic tree knuth.json
      mmlogic tree knuth.json --dot --max-depth 2 > knuth.dot
      mmlogic tree knuth.json --png knuth.png --max-depth 3
    """
    from .strategies.tree import StrategyTree, check_graphviz, to_dot, write_png

    if as_dot and as_json:
        raise BadInput("give --dot or --json, not both")
    if max_depth is not None and not (as_dot or png):
        raise BadInput("--max-depth applies to the drawings (--dot, --png)")
    if png is not None:
        check_graphviz()  # before the file is read: a missing program is found at once
    loaded = StrategyTree.load(file)
    drawing = to_dot(loaded, max_depth) if as_dot or png else None
    if png is not None:
        write_png(drawing, png)
    if as_dot:
        click.echo(drawing, nl=False)
    else:
        emit(loaded.figures(), as_json)


@cli.command(name="optimal")
@rules_options
@click.option("--objective", type=click.Choice(["expected", "worst"]), default="expected", show_default=True,
              help="expected: least total guesses over every secret (the mean); worst: least worst case, then least "
                   "total among the strategies with that worst case.")
@click.option("--max-depth", type=Integer(1), default=None, metavar="D",
              help="With --objective expected: every game within D guesses.  [default: no limit]")
@click.option("--jobs", type=Integer(1), default=1, show_default=True,
              help="Worker processes (at most the cores) over which the openings' parts are searched; "
                   "the result is the same.")
@json_option
@output_file_option("--save-tree", "save_tree",
                    help="Also write the optimal strategy's tree to FILE as JSON (--strategy tree:FILE plays it, "
                         "mmlogic tree FILE draws it).")
def optimal_command(rules, objective, max_depth, jobs, as_json, save_tree):
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
      mmlogic optimal --save-tree optimal.json && mmlogic tree optimal.json --dot
    """
    from .optimal import optimal
    from .terminal import Spinner

    with Spinner("searching") as spinner:
        def progress(text: str) -> None:
            spinner.label = text  # where the search is, drawn with the seconds spent

        def compiling() -> None:
            # A first run: 15-45 s before the search starts, which were silent.
            from .numba_cache import CACHE

            spinner.tick()
            click.echo(f"note: {COMPILING_OPTIMAL if CACHE else COMPILING_UNCACHED}", err=True)
            spinner.label = "compiling"

        result = optimal(rules, objective, max_depth, jobs, progress=progress, on_compile=compiling)
    if save_tree is not None:
        from .strategies.tree import StrategyTree

        name = f"optimal-{objective}" + (f"-depth{max_depth}" if max_depth else "")
        StrategyTree(rules, result.tree, strategy=name).save(save_tree)
    emit(result, as_json)


@cli.command(name="play")
@rules_options
@engine_options(beyond="any")
@click.option("--role", type=click.Choice(["codebreaker", "codemaker"]), default="codebreaker", show_default=True,
              help="codebreaker: you guess; codemaker: you keep a code in mind and the computer guesses it.")
@click.option("--secret", "secret_text", metavar="CODE", default=None,
              help="The code to find (codebreaker; random by default).")
@click.option("--max-guesses", type=Integer(1), default=None, help="Give up after this many guesses.")
def play_command(rules, engine, strategy, first_guess, seed, role, secret_text, max_guesses):
    """Play in the terminal: you guess (codebreaker), or the computer guesses your code (codemaker).

    Codebreaker: type a code per line (0123, or 0 1 2 3); a typo is explained
    and you type again. Type `?` for how many codes are still possible (asked
    of --backend), `hint` for the guess --strategy would play, `help` for help,
    `quit` (or Ctrl-D) to give up and see the secret.

    Codemaker: think of a code; answer each of the computer's guesses with
    black,white (1,2 or 1 2). An answer that contradicts earlier ones is
    refused at once, naming them; `undo` takes your last answer back; at the
    end (or after `quit`) type your code to see which answers were wrong.

    \b
    Examples:
      mmlogic play --pegs 4 --colors 6
      mmlogic play --role codemaker --strategy minimax
    """
    from .game import Game
    from .play import play_codebreaker, play_codemaker
    from .terminal import Spinner

    def ask(prompt: str) -> str | None:
        try:
            return click.prompt(prompt, prompt_suffix="> ", default="", show_default=False, err=True)
        except click.Abort as abort:
            if isinstance(abort.__context__, KeyboardInterrupt):
                raise KeyboardInterrupt from None  # Ctrl-C: "interrupted", exit 130, as everywhere
            click.echo("", err=True)  # Ctrl-D: end the prompt's line; the game ends as after quit
            return None

    if role == "codemaker":
        if secret_text is not None:
            raise BadInput("--secret applies to --role codebreaker: as codemaker you keep the code in mind")
        with Game(engine, strategy, first_guess=first_guess) as game:
            return play_codemaker(game, ask, click.echo, max_guesses, busy=Spinner)
    game = Game(engine, strategy, secret=secret_or_random(secret_text, engine, seed), first_guess=first_guess)
    with game:
        return play_codebreaker(game, ask, click.echo, max_guesses, busy=Spinner)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (127.0.0.1: this machine only; 0.0.0.0 exposes the server).")
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
@click.option("--time-limit", type=Seconds(), default=10, show_default=True,
              metavar="SECONDS", help="Bound on one solver call of a request (HTTP 422 beyond).")
@click.option("--read-timeout", type=Seconds(), default=10, show_default=True, metavar="SECONDS",
              help="Time a request may take to come in whole, on both ports (HTTP 408 beyond, and the "
                   "connection closed).")
@click.option("--max-connections", type=Integer(1), default=500, show_default=True,
              help="HTTP connections open at once at the most; one beyond is closed at once (HTTP 503).")
def serve(host, port, tcp_port, rules, max_games, idle_seconds, time_limit, read_timeout, max_connections):
    """The codemaker server: a web page and a JSON API, games kept in memory (docs/server.md).

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

    \b
    Examples:
      mmlogic serve
      mmlogic serve --port 8080 --max-games 200 --idle-seconds 600
      mmlogic serve --tcp-port 5000 --pegs 5 --colors 8 --no-repeat
      curl -s -X POST localhost:8000/api/games -H 'Content-Type: application/json' \\
        -d '{"rules": {"pegs": 4, "colors": 6}}'
    """
    import asyncio
    import socket

    try:
        import uvicorn

        from .server.api import create_app
    except ImportError:
        raise BackendUnavailable(f"mmlogic serve needs Starlette and uvicorn: {install_hint('serve')}") from None
    from .client import url_of
    from .server.api import served_hosts
    from .server.connections import bounded_protocol
    from .server.line_protocol import LineGames, doubles, serve_beside
    from .server.store import GameStore

    if tcp_port is not None and tcp_port == port != 0:
        # Both servers would bind it: the second would fail as "address already in use".
        raise BadInput(f"--tcp-port {tcp_port} is the API's --port too: the line protocol needs a port of its own")
    ctx = click.get_current_context()
    store = GameStore(max_games=max_games, idle_seconds=idle_seconds, time_limit=time_limit)
    if tcp_port is None:
        line_games = None
        if any(ctx.get_parameter_source(p) != click.core.ParameterSource.DEFAULT for p in RULE_OPTIONS):
            click.echo("note: the rules options apply to the line protocol (--tcp-port) only; "
                       "an API game names its rules in its request", err=True)
    else:
        line_games = LineGames(store, rules)  # BadInput (exit 2) for rules the protocol cannot state
    try:
        # Bound here, not by uvicorn: a port in use is then one line and exit 1 (uvicorn would exit 3).
        # An IPv6 address (::1) needs its family: create_server's default, IPv4, cannot resolve it.
        sock = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except OSError as error:
        raise cannot_listen(host, port, error) from None
    port = sock.getsockname()[1]
    # Accepted connections inherit it. uvicorn sets it only on sockets it creates: without it, a
    # response's headers and body wait on the client's delayed ACK, 40 ms a request.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    # The Host headers are those of the port bound (port 0 chooses one).
    server = uvicorn.Server(uvicorn.Config(create_app(store, served_hosts(host, port)), host=host, port=port,
                                           log_level="warning", http=bounded_protocol(read_timeout, max_connections)))

    def listening(line_port: int | None = None) -> None:
        click.echo(f"mmlogic serve: {url_of('http', host, port)}/ (the web page; the API under /api) "
                   "(Ctrl-C stops)", err=True)
        if line_port is not None:
            r = line_games.rules
            click.echo(f"mmlogic serve: line protocol on {host_port(host, line_port)} ({r.pegs} letters from a to "
                       f"{chr(ord('a') + r.colors - 1)}, doubles {doubles(r)})", err=True)

    try:
        if line_games is None:
            listening()
            asyncio.run(server.serve(sockets=[sock]))
        else:
            asyncio.run(serve_beside(lambda: server.serve(sockets=[sock]), line_games, host, tcp_port, listening,
                                     read_timeout=read_timeout))
    except KeyboardInterrupt:
        # Ctrl-C: uvicorn has shut down (and the line server is closed); exit 0, as uvicorn.run does.
        # SIGTERM, SIGHUP: the same shut-down, and their exit code, 143 or 129, as when they killed it.
        return 0 if interrupted_code() == EXIT_INTERRUPTED else interrupted_code()
    return 0


def main() -> None:
    """Console-script entry point."""
    cli.main(prog_name="mmlogic")


if __name__ == "__main__":
    main()
