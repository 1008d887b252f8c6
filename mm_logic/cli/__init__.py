"""The ``mmlogic`` command line: a thin layer over the package.

Each command parses its options (the shared ones are the decorators of
:mod:`mm_logic.cli.options`), calls one library function and prints the
result object it gets back, as text or as the JSON the contract fixes
(``docs/cli.md``). Every user error becomes one line on stderr and the
contract's exit code (:mod:`mm_logic.cli.group`): 2 bad usage or input, 3 no
consistent code, 1 any other failure, 130 interrupted (143 after SIGTERM, 129
after SIGHUP: they stop a command as Ctrl-C does).

The commands, a module per family: ``solve``, ``next``, ``split`` and ``play``
(:mod:`~mm_logic.cli.games`); ``bench`` and ``tree``
(:mod:`~mm_logic.cli.benches`); ``compare`` (:mod:`~mm_logic.cli.comparing`);
``sweep`` and ``openings`` (:mod:`~mm_logic.cli.sweeps`); ``info`` and
``optimal`` (:mod:`~mm_logic.cli.studies`); ``serve``
(:mod:`~mm_logic.cli.serving`); ``static`` and ``puzzle`` (:mod:`~mm_logic.cli.puzzles`).
``compare --race`` is :mod:`~mm_logic.cli.racing`, and ``--strategy`` with the
engine options that build a :class:`~mm_logic.player.Player` is
:mod:`~mm_logic.cli.strategy_options`, apart, so that the commands that play
nothing load no strategy.
"""

from __future__ import annotations

import click

from .. import __version__
from .group import MMLogicGroup

#: Each command's module (under :mod:`mm_logic.cli`) and function. A command's module is imported when
#: the command runs or is listed (``--help``): ``mmlogic optimal`` does not load what ``bench``,
#: ``play`` or ``serve`` need (the engines, the strategies, the server), and starts sooner.
COMMANDS = {
    "solve": "games:solve", "next": "games:next_command", "split": "games:split_command",
    "play": "games:play_command",
    "bench": "benches:bench", "tree": "benches:tree_command", "compare": "comparing:compare",
    "sweep": "sweeps:sweep", "openings": "sweeps:openings", "info": "studies:info",
    "optimal": "studies:optimal_command", "serve": "serving:serve",
    "static": "puzzles:static_command", "puzzle": "puzzles:puzzle_command",
}


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
      mmlogic split 0000
      mmlogic solve --secret 5432 --feedback positional
      mmlogic bench --backend python --strategy minimax --first-guess 0011 --all
      mmlogic info --pegs 5 --colors 8 --no-repeat
      mmlogic play --role codemaker
      mmlogic compare --preset seed000
      mmlogic sweep --sizes 4x2-10,5x6 --out table.jsonl --jobs 2
      mmlogic openings --strategy minimax,parts
      mmlogic solve --strategy sample-entropy --pegs 16 --colors 6
      mmlogic serve
      mmlogic static --pegs 3 --colors 4
      mmlogic puzzle --entries 5 --seed 1
      mmlogic solve --server http://127.0.0.1:8000
    """


for name, where in COMMANDS.items():
    cli.add_lazy_command(name, f"{__name__}.{where}")


def main() -> None:
    """Console-script entry point."""
    cli.main(prog_name="mmlogic")
