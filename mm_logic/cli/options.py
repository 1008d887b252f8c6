"""The options the commands share, as decorators, and their parameter types.

A decorator defines its options once and passes the commands what they parse
into: :func:`rules_options` passes ``rules``. Files the commands write are
checked before any game runs (:func:`output_file_option`), and are never one
they read (:func:`distinct_outputs`). The options that
choose who plays (``--strategy``, and the engine and strategy built from them)
are :mod:`mm_logic.cli.strategy_options`'s: a command with none of them
(``optimal``, ``info``) loads no strategy.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable
from pathlib import Path

import click

from ..engines import BACKENDS, DEFAULT_BACKEND
from ..feedback.custom import is_rule_file, load_rule
from ..notation import SHOWN, quoted, shown, whole_number
from ..rules import DEFAULT_ALPHABET, FEEDBACK_RULES, MAX_COLORS, MAX_LIES, MAX_PEGS, make_rules
from ..support.errors import BadInput, MMLogicError, install_hint
from ..support.files import check_output, not_regular, same_file
from ..support.limits import MAX_GAMES  # noqa: F401  (bench's and compare's --games; the library's range too)


def _ascii(value, param, ctx, type_: click.ParamType) -> None:
    """Refuse a number typed with characters other than ASCII ones: int() and float() read every script's digits
    ('٤' and '４' as 4) and spaces, which mmlogic never does, in options as in codes; and Python's digit grouping,
    which they read too (``--pegs 1_0`` was 10 pegs)."""
    if isinstance(value, str) and (not value.isascii() or "_" in value):
        type_.fail(f"{quoted(value)} is not written with the digits 0-9", param, ctx)


class Integer(click.IntRange):
    """An integer option within bounds, written with the digits 0-9: ``'abc' is not a valid integer`` (click's
    own type says "integer range", and shows INTEGER RANGE in --help). Give a maximum wherever a larger number
    would run for ever, take the machine's memory, or overflow: ``--help`` then states it (``1<=x<=1000000``),
    and a number beyond is refused in click's words (``... is not in the range 1<=x<=1000000.``)."""

    name = "integer"

    def convert(self, value, param, ctx):
        _ascii(value, param, ctx, self)
        if isinstance(value, str) and len(value.strip()) > SHOWN:
            return self._long(value.strip(), param, ctx)
        return super().convert(value, param, ctx)

    def _long(self, text: str, param, ctx) -> int:
        """A long number typed: click's messages repeat it whole (5,000 digits on one line), these quote it by its
        start; and one of more digits than int() reads (4,300) is refused in one line, not as int()'s failure."""
        if not re.fullmatch(r"[+-]?[0-9]+", text):
            self.fail(f"{shown(text)} is not a valid integer.", param, ctx)
        beyond = self.min if text.startswith("-") else self.max  # the bound a number too long to read is beyond
        out_of_range = f"{shown(text)} is not in the range {self._describe_range()}."
        try:
            number = whole_number(text)
        except BadInput as error:
            self.fail(out_of_range if beyond is not None else f"{error}.", param, ctx)
        try:
            return super().convert(number, param, ctx)
        except click.BadParameter:
            self.fail(out_of_range, param, ctx)


class Processes(Integer):
    """A number of worker processes: 1 to the cores this process may run on (:func:`mm_logic.support.processes.cores`),
    refused beyond (``9999 is more than the 2 cores of this machine.``): a process more than the cores only
    takes memory, and thousands of them take the machine down."""

    def __init__(self):
        super().__init__(1)

    def convert(self, value, param, ctx):
        from ..support.processes import cores

        number = super().convert(value, param, ctx)
        if number > cores():
            self.fail(f"{shown(value) if isinstance(value, str) and len(value) > SHOWN else number} is more than the "
                      f"{cores()} cores of this machine.", param, ctx)
        return number




RULE_OPTIONS = ("pegs", "colors", "no_repeat", "max_repeat", "alphabet")

pegs_option = click.option("--pegs", type=Integer(1, MAX_PEGS), default=4, show_default=True, help="Code length.")
colors_option = click.option("--colors", type=Integer(1, MAX_COLORS), default=6, show_default=True,
                             help="Number of colours (symbols).")


def repeat_options(metavar: str | None = None, where: str = ""):
    """``--no-repeat --max-repeat``: how often a colour may occur (``where``, e.g. ", in every size",
    ends their help)."""
    def decorate(f):
        f = click.option("--max-repeat", type=Integer(1), default=None, metavar=metavar,
                         help=f"Every colour at most M times{where}.  [default: unlimited]")(f)
        return click.option("--no-repeat", is_flag=True,
                            help=f"Every colour at most once{where or ' (bulls and cows)'}.")(f)
    return decorate


class FeedbackRuleChoice(click.Choice):
    """A built-in feedback rule's name, or ``FILE.py``: a rule of one's own, read at once (a file that
    cannot be read or states no rule is one line); converts to the rule's name or the file's path as
    given (worker processes start in the same folder and read the same file)."""

    def __init__(self):
        super().__init__(list(FEEDBACK_RULES))

    def get_metavar(self, param, ctx):
        return super().get_metavar(param, ctx).replace("]", "|FILE.py]")

    def get_invalid_choice_message(self, value, ctx):
        return super().get_invalid_choice_message(value, ctx).rstrip(".") + ", or FILE.py (a rule of your own)."

    def convert(self, value, param, ctx):
        if isinstance(value, str) and is_rule_file(value):
            path = Path(value)
            try:
                if (kind := not_regular(path)) is not None:
                    self.fail(f"{value} is {kind}, not a regular file", param, ctx)
                return str(load_rule(value).path)
            except BadInput as error:
                self.fail(str(error), param, ctx)
        return super().convert(value, param, ctx)


def feedback_option(f=None, *, where: str = ""):
    """``--feedback standard|black|positional|FILE``: what the codemaker tells of a guess (``where``, e.g.
    ", in every size", follows its first words in the help)."""
    if f is None:
        return functools.partial(feedback_option, where=where)
    return click.option("--feedback", type=FeedbackRuleChoice(), default="standard", show_default=True,
                        help=f"What the codemaker tells of a guess{where}: standard (black and white, B,W), black "
                             "(black pegs only, B), positional (one mark per peg, x o or -, e.g. x-o-), or FILE.py "
                             "(or FILE.lp, FILE.pl), a rule of your own (docs/encodings.md).")(f)


def rules_options(f=None, *, refuse_alphabet: str | None = None, feedback: bool = False, lies: bool = False):
    """``--pegs --colors --no-repeat --max-repeat --alphabet`` (and, with ``feedback``, ``--feedback``;
    with ``lies``, ``--lies K``); passes ``rules``.

    ``refuse_alphabet``: the reason a command (``serve``) takes no ``--alphabet``; the
    option is then left out of its help and refused with that reason. ``feedback``: the command
    plays every feedback rule (the others play the standard one). ``lies``: the command takes a
    history or plays, and plays games whose answers may be wrong.
    """
    if f is None:
        return functools.partial(rules_options, refuse_alphabet=refuse_alphabet, feedback=feedback, lies=lies)

    @pegs_option
    @colors_option
    @repeat_options()
    @click.option("--alphabet", default=DEFAULT_ALPHABET, show_default=True, hidden=refuse_alphabet is not None,
                  help="Symbols in order; the first K are used.")
    @functools.wraps(f)
    def wrapper(*args, pegs, colors, no_repeat, max_repeat, alphabet, feedback="standard", lies=0, **kwargs):
        if refuse_alphabet is not None and alphabet != DEFAULT_ALPHABET:
            raise BadInput(f"--alphabet does not apply to {click.get_current_context().info_name}: {refuse_alphabet}")
        rules = make_rules(pegs, colors, no_repeat, max_repeat, alphabet, feedback, lies)
        if alphabet != DEFAULT_ALPHABET and not rules.symbolic:
            click.echo(f"note: --alphabet has {len(alphabet)} symbols for {colors} colours: codes are written "
                       "as comma-separated colour numbers (0,3,1,2)", err=True)
        return f(*args, rules=rules, **kwargs)
    if lies:
        wrapper = lies_option(wrapper)
    return feedback_option(wrapper) if feedback else wrapper


liar_option = click.option(
    "--liar", "liar_text", metavar="WHEN", default=None,
    help="The codemaker uses its --lies: at the answers numbered WHEN (2,5), or at random ones (random: each "
         "answer with probability 1/2 while lies are left; reproducible with --seed); bench --all also takes "
         "every (every secret answered every way: the worst case against any liar). Wrong answers are drawn "
         "at random; the win is always told.")
lies_option = click.option(
    "--lies", type=Integer(0, MAX_LIES), default=0, show_default=True, metavar="K",
    help=f"At most K answers may be wrong (0 to {MAX_LIES}; the win is always told): a code stays possible "
         "while it breaks at most K history entries.")


def backend_option(many: bool = False, default: str = DEFAULT_BACKEND, help: str | None = None):
    """``--backend``: one engine, or (``many``) a comma-separated list of them; ``help`` says what
    the engine does in the command."""
    if many:
        return click.option("--backend", "backends", default=default, show_default=True,
                            metavar="A[,B...]",
                            help=f"{help or 'Engines to compare'}, comma-separated ({', '.join(BACKENDS)}).")
    return click.option("--backend", type=click.Choice(list(BACKENDS)), default=default,
                        show_default=True, help=help or "Engine that finds consistent codes.")


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
class MemorySize(click.ParamType):
    """A size in bytes as typed (``8G``, ``500M``, ``1.5GiB``; :func:`mm_logic.support.memory.parse_memory`)."""

    name = "size"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        from ..support.memory import parse_memory

        try:
            return parse_memory(str(value))
        except BadInput as error:  # quoting a long size by its start (parse_memory quotes it whole)
            self.fail(str(error).replace(quoted(str(value)), shown(str(value))), param, ctx)


class Seconds(click.FloatRange):
    """A number of seconds above 0 (``nan`` and ``inf`` are not: every comparison with nan is false)."""

    name = "seconds"

    def __init__(self):
        super().__init__(0, min_open=True)

    def convert(self, value, param, ctx):
        _ascii(value, param, ctx, self)
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{shown(str(value))} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{shown(str(value))} is not a number of seconds", param, ctx)
        return super().convert(value, param, ctx)


TIME_LIMIT_HELP = ("Bound on one solver call, and on a genetic strategy's search for a consistent code "
                   "(ga001-*: 300 s when not given); exceeding it exits 1, except that bench and compare "
                   "count a genetic game over it as failed.")


def time_limit_option(default: float | None = None, help: str | None = None):
    """``--time-limit SECONDS``: a bound on one solver call (``help`` says where else it applies), and on a rule
    module's table derived in the command (:func:`mm_logic.feedback.watch.limit_scoring`)."""
    return click.option("--time-limit", type=Seconds(), default=default, show_default=default is not None,
                        metavar="SECONDS", help=help or TIME_LIMIT_HELP, callback=_limit_scoring)


def _limit_scoring(ctx, param, seconds: float | None) -> float | None:
    """A --time-limit given bounds a rule module's scoring, and a rule file's derivation, too while the command
    runs (put back when it ends). Not a default: serve's 10 s is per request, where a table takes longer."""
    from ..feedback.watch import limit_scoring

    given = ctx.get_parameter_source(param.name) not in (click.core.ParameterSource.DEFAULT,
                                                          click.core.ParameterSource.DEFAULT_MAP)
    ctx.with_resource(limit_scoring(seconds if given else None))
    return seconds




def _writable_file(ctx, param, path: Path | None) -> Path | None:
    """Check, before any game runs, that a result file can be written: a new path or a regular
    file (a link, its target), never a device or a FIFO (:func:`mm_logic.support.files.check_output`)."""
    if path is None:
        return None
    try:
        check_output(path)
    except OSError as error:
        raise click.BadParameter(f"cannot write {path} ({error.strerror})") from None
    return path


def chart_folder(ctx, param, path: Path | None) -> Path | None:
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


def input_files() -> list[tuple[str, Path]]:
    """The files the current command reads, each with the words that name it in a message: ``--feedback``
    (every FILE of a comma-separated list), ``--encoding`` and ``--strategy tree:FILE`` (every tree of a list),
    as its options were parsed (a ``--strategy`` name carrying a tree read from its file)."""
    params = click.get_current_context().params
    found: list[tuple[str, Path]] = []
    for rules in (params.get("feedback"), params.get("feedbacks")):
        if isinstance(rules, str):
            found += [("--feedback", Path(name.strip())) for name in rules.split(",") if is_rule_file(name.strip())]
    if params.get("encoding") is not None:
        found.append(("--encoding", Path(params["encoding"])))
    strategies = params.get("strategies") or [params.get("strategy")]
    for strategy in strategies if isinstance(strategies, list) else []:
        if getattr(strategy, "is_tree", False):  # a StrategyName read from tree:FILE (not imported: options only)
            found.append((f"--strategy {strategy.name}", Path(strategy.name.partition(":")[2])))
    return found


def distinct_outputs(inputs: list[tuple[str, Path]] | None = None, /, **paths: Path | None) -> None:
    """Refuse, before any game, two options naming the same output (the second would overwrite the first),
    and an output naming one of ``inputs`` (:func:`input_files`: the command would write over what it reads).
    A link is the file it leads to; a hard link, the file it is another name of
    (:func:`~mm_logic.support.files.same_file`). An output that is an existing folder (``--plot``) takes PNG charts: an
    input .png in it may be written over."""
    written = [(f"--{option.replace('_', '-')}", path, path.resolve()) for option, path in paths.items()
               if path is not None]
    for number, (option, path, _) in enumerate(written):
        for earlier, other, _ in written[:number]:
            if same_file(other, path):
                raise BadInput(f"{earlier} and {option} name the same file, {path}")
    read = [(label, path, path.resolve()) for label, path in inputs or []]
    for option, path, key in written:
        for label, given, other in read:
            if same_file(given, path):  # a hard link too: bench --out wrote over the rule module it played
                raise BadInput(f"{option} and {label} name the same file, {path}")
            if key.is_dir() and other.parent == key and other.suffix.lower() == ".png":
                raise BadInput(f"{option} may write a chart over {label} (the charts are the .png files of {path})")


def write_output(path: Path, write: Callable[[Path], None]) -> None:
    """``write(path)``; a failure (a full disk, a folder removed meanwhile) is one line, exit 1, after the
    results were printed."""
    try:
        write(path)
    except OSError as error:
        raise MMLogicError(f"cannot write {path}: {(error.strerror or str(error)).lower()}") from None


json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


def jobs_option(help: str = "Worker processes (at most the cores); the attempts are the same as with one."):
    """``--jobs N``: worker processes (``help``: what they share, and what stays the same)."""
    return click.option("--jobs", type=Integer(1), default=1, show_default=True, help=help)


def executor_options(local: str):
    """``--executor local|dask --scheduler ADDRESS``: where the work runs (``local``: what runs on this machine)."""
    def decorate(f):
        f = click.option("--scheduler", metavar="ADDRESS", default=None,
                         help="Address of the Dask scheduler, e.g. tcp://10.0.0.5:8786 (with --executor dask).")(f)
        return click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                            help=f"local: {local}; dask: the workers of a Dask cluster (see --scheduler).")(f)
    return decorate


def check_executor(executor: str, scheduler: str | None, what: str) -> None:
    """Refuse, in one line, a Dask executor without a scheduler (or with --jobs), or a scheduler without it;
    ``what`` says what the workers' threads run at once (``cases``)."""
    ctx = click.get_current_context()
    if executor == "dask":
        from ..studies.sweep_processes import check_dask, check_scheduler  # sweep's module only where Dask is asked for
        if scheduler is None:
            raise BadInput("--executor dask needs --scheduler ADDRESS (e.g. tcp://HOST:8786)")
        if ctx.get_parameter_source("jobs") != click.core.ParameterSource.DEFAULT:
            raise BadInput(f"--jobs applies to --executor local; on Dask the workers' threads set how many {what} "
                           "run at once")
        check_dask()
        check_scheduler(scheduler)
    elif scheduler is not None:
        raise BadInput("--scheduler needs --executor dask")


def server_option(help: str):
    """``--server URL``: play against a codemaker on a ``mmlogic serve`` server."""
    def to_server(ctx, param, text: str | None):
        if text is None:
            return None
        from ..client import RemoteServer
        try:
            return RemoteServer(text)
        except BadInput as error:
            raise click.BadParameter(str(error).removeprefix("--server "), ctx, param) from None
    return click.option("--server", metavar="URL", default=None, callback=to_server, help=help)


def emit(result, as_json: bool) -> None:
    """Print a result object: its contract JSON, or its text."""
    click.echo(json.dumps(result.as_dict()) if as_json else result.text())


