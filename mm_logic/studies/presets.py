"""The presets of ``compare --preset NAME``, named once: each with its one line for ``--help``.

Light on purpose: the command line reads the names and lines at start-up, where the studies themselves
(:data:`mm_logic.studies.compare.PRESETS`, the same names in the same order) are not imported yet.
"""

from __future__ import annotations

#: Each preset's name and what it replays, in the order ``--help`` lists them.
PRESET_HELP = {
    "seed000": "human1-3 and first on 4x6, 4x8, 4x8 no-repeat, 4x20, 6x4, every secret",
    "seed001": "A1-A5 (a1..a5) and the genetic algorithms, n = 4..8, p = 2n, 20 games (every secret of 4x8); the "
               "p sweep at n = 5; two occurrences (a3, a4)",
    "seed003": "5 pegs of 8 colours, with and without repetition, every secret; random and minimax beside first",
    "seed004": "4x8: ga004 beside ga001-random, random, first, minimax, human3; 500 games",
    "ga001-population": "seed 001 figure 10: ga001-random by population (10, 20, 50, 100)",
    "ga001-mutation": "seed 001: ga001-random's mutation rate (1/n, fixed) and type",
    "ga004-sweep": "seed 004's sweep, 4x8: ratio 2-6 x mutation 3/5/15/30% x population 50/100/200, 50 games each "
                   "(--games N for fewer)",
    "ga004-mutation": "seed 004, 4x8: ga004 at mutation 5% and 15%, 500 games",
    "feedback-rules": "first and the four scorers under the standard, black and positional rules, every secret: 3x4 "
                      "on python and clingo, 4x6 on python",
}
#: The names alone, for ``--preset``'s choices.
PRESET_NAMES = list(PRESET_HELP)


def presets_help(width: int = 78) -> str:
    """The presets as ``compare --help`` lists them: a name, then its line wrapped under it."""
    import textwrap

    lines = []
    for name, text in PRESET_HELP.items():
        lines += textwrap.wrap(text, width, initial_indent=f"  {name}  ", subsequent_indent=" " * 11)
    return "\n".join(lines)
