"""The options that choose who plays: ``--strategy`` and :func:`engine_options`, which reads who plays into one
:class:`~mm_logic.player.Player` and passes the ``engine`` and ``strategy`` built from it, and the ``seed``.

Apart from :mod:`mm_logic.cli.options` because they load every strategy (and, through them, the
engines' modules): the commands that play nothing start without them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace

import click

from ..notation import amount, parse_code
from ..player import Player
from ..rules import rule_names
from ..strategies import (
    ALIASES,
    DEFAULT_STRATEGY,
    STRATEGIES,
    Strategy,
    StrategyName,
    is_tree_name,
    parse_strategy,
    with_ga,
)
from ..strategies.genetic import GA_KEYS, GENETIC_NAMES
from ..strategies.sampled import EXACT_SPACE, SampleEntropy
from ..support.errors import BadInput
from .options import backend_option, encoding_option, seed_option, time_limit_option

#: The authors' names --strategy also takes (``knuth`` is ``minimax``).
_ALIAS_HELP = ("Authors' names work too: " + ", ".join(f"{alias} ({name})" for alias, name in ALIASES.items())
               + ".")


def _strategy_help() -> str:
    # A line, not each strategy's summary: those made a 40-line paragraph of every command's --help.
    return ("How the next guess is chosen (each strategy and its opening: docs/cli.md, "
            f"\"Engine and strategy options\").  {_ALIAS_HELP}")


class StrategyChoice(click.Choice):
    """A built-in strategy's name, ``sample-entropy:K``, or ``tree:FILE``: a saved tree, read at once
    (a bad file is one line). Converts to the :class:`~mm_logic.strategies.StrategyName` read."""

    def __init__(self):
        super().__init__(list(STRATEGIES))

    def get_metavar(self, param, ctx):
        return super().get_metavar(param, ctx).replace("]", "|sample-entropy:K|tree:FILE]")

    def get_invalid_choice_message(self, value, ctx):
        return (super().get_invalid_choice_message(value, ctx).rstrip(".")
                + ", sample-entropy:K (a sample of K codes), or tree:FILE (a saved strategy tree).")

    def convert(self, value, param, ctx):
        if isinstance(value, StrategyName):
            return value
        try:
            return parse_strategy(value)
        except BadInput as error:
            if value.partition(":")[0] in ("sample-entropy", "tree", *GENETIC_NAMES):
                self.fail(str(error), param, ctx)
        # click's own message, listing the choices.
        return parse_strategy(super().convert(value, param, ctx))


def _open_trees(ctx, param, text: str | None) -> list[str | StrategyName] | None:
    """Read the tree files a comma-separated ``--strategy`` list names (``tree:FILE``), at once: the
    list with each ``tree:FILE`` read (a :class:`~mm_logic.strategies.StrategyName`), the other names
    as typed (the command checks them)."""
    if text is None:
        return None
    items: list[str | StrategyName] = []
    for name in text.split(","):
        if is_tree_name(name.strip()):
            try:
                items.append(parse_strategy(name.strip()))
            except BadInput as error:
                raise click.BadParameter(str(error), ctx, param) from None
        else:
            items.append(name)
    return items


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


def ga_option(f):
    """``--ga KEY=VALUE[,KEY=VALUE...]``: the genetic strategies' parameters.

    One option with keys rather than a ``--ga-*`` option per parameter: the eight keys would be
    eight lines in every playing command's ``--help`` although they mean something for five
    strategies only, and one value is what a strategy's name carries (``ga004:population=50``),
    which ``compare`` prints and a bench's workers read back.
    """
    keys = "; ".join(f"{key}: {meaning}" for key, meaning in GA_KEYS.items())
    return click.option("--ga", "ga", metavar="KEY=VALUE[,...]", default=None,
                        help=f"A genetic strategy's parameters, comma-separated: {keys}.  [default: the "
                             "reports' values, in parentheses; docs/cli.md \"Genetic algorithms' parameters\"]")(f)


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


@dataclass(frozen=True)
class UnbuiltStrategy:
    """A strategy checked and built only if the command comes to play it (``next --diagnose``: a history no
    code fits is diagnosed without one, so the strategy's refusal of the size waits until it plays)."""

    #: The strategy as read (``--strategy`` or the default; the default may give way to another when built).
    name: StrategyName
    #: Checks it against the rules (one line, exit 2, as when it is built at once) and builds it.
    build: Callable[[], Strategy]

    @property
    def probes(self) -> bool:
        """Whether its guesses may break the repetition rule (how the history's guesses are read)."""
        return self.name.cls.probes


def engine_options(default_strategy: str = DEFAULT_STRATEGY, beyond: str | None = None,
                   unbuilt_with: str | None = None):
    """``--backend --strategy --ga --first-guess --seed --encoding --time-limit``.

    Passes ``engine`` and ``strategy``, built from one :class:`~mm_logic.player.Player`
    (the strategy holds the first guess), and ``seed``.
    ``beyond``: the strategy played, with a note, where the default one cannot play the
    size and ``--strategy`` was not given (``play``: a game is not refused for its hints);
    without it such a size is refused, naming the strategies that can.
    ``unbuilt_with``: a flag of the command under which it may not play at all (``next``'s
    ``diagnose``): when given, ``strategy`` is an :class:`UnbuiltStrategy`, checked and built when called.
    """
    def decorate(f):
        @backend_option()
        @strategy_option(default_strategy)
        @ga_option
        @click.option("--first-guess", "first_guess_text", metavar="CODE", default=None,
                      help="Opening guess (default: the strategy's own, see --strategy).")
        @seed_option
        @encoding_option
        @time_limit_option()
        @click.option("--labeling", type=click.Choice(["leftmost", "ff", "ffc", "min", "max"]), default=None,
                      help="swipl only: the order in which `any` labels the pegs (ff: first-fail, the "
                           "option seed 003's guesser labels with).  [default: the encoding's own]")
        @functools.wraps(f)
        def wrapper(*args, rules, backend, strategy, ga, first_guess_text, seed, encoding, time_limit, labeling,
                    **kwargs):
            if ga is not None:
                strategy = with_ga(strategy, ga)
            player = Player(rules, backend, strategy, seed, None, time_limit, encoding, labeling)
            # The engine first: a size, encoding or labeling it refuses is named before the strategy's checks.
            engine = player.engine()
            if encoding is not None:
                click.get_current_context().call_on_close(lambda: show_encoding_notes(engine))
            limit = strategy.cls.max_codes
            default = click.get_current_context().get_parameter_source("strategy") == click.core.ParameterSource.DEFAULT

            def build() -> Strategy:
                nonlocal player
                if beyond is not None and default and limit is not None and rules.size > limit:
                    click.echo(f"note: {rules.describe()} has {amount(rules.size)} codes, more than {strategy} "
                               f"scores ({amount(limit)}): {beyond} instead (choose another with --strategy)", err=True)
                    player = replace(player, strategy=parse_strategy(beyond))
                elif default and rules.feedback_kind not in strategy.cls.feedback_rules:
                    instead = beyond or "first"
                    click.echo(f"note: {strategy} plays {rule_names(strategy.cls.feedback_rules)} only: {instead} "
                               "instead (choose another with --strategy)", err=True)
                    player = replace(player, strategy=parse_strategy(instead))
                # What the strategy refuses (a size, a feedback rule, a tree's other rules) is named before the
                # first guess is read; the strategy is then built once, with its opening.
                player.strategy.check(rules)
                if player.strategy.tree is not None:
                    from ..feedback.variant import variant_of

                    player.strategy.tree.check_variant(variant_of(rules, engine.encoding), str(player.strategy))
                first_guess = parse_code(first_guess_text, rules) if first_guess_text is not None else None
                chosen = replace(player, first_guess=first_guess).make_strategy()
                if isinstance(chosen, SampleEntropy) and chosen.exact:
                    click.echo(f"note: {rules.describe()} has {amount(rules.size)} codes (at most {EXACT_SPACE:,}): "
                               f"{chosen.name} plays the exact entropy scorer", err=True)
                return chosen

            if unbuilt_with is not None and kwargs.get(unbuilt_with):
                return f(*args, rules=rules, engine=engine, strategy=UnbuiltStrategy(player.strategy, build),
                         seed=seed, **kwargs)
            return f(*args, rules=rules, engine=engine, strategy=build(), seed=seed, **kwargs)
        return wrapper
    return decorate
