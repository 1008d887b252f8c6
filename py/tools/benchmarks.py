#!/usr/bin/env python3
"""Regenerate the README's benchmark table by running the ``mmlogic`` commands it quotes.

Each row is one ``mmlogic bench ... --json`` run in a fresh process; the
figures printed are that run's own (``seconds`` is the wall time of the games,
not start-up). Prints a Markdown table on stdout, then a note naming the
README rows whose command is not one ``bench`` run (:data:`NOT_RERUN`), which
this script does not rerun.

With ``--beside DIR`` (a checkout of an earlier commit, e.g. ``git worktree add
/tmp/prev REV``), each row also runs that checkout's ``mm_logic`` right after
this one's (``PYTHONPATH=DIR``), so the two are compared in one run on this noisy
machine.

Usage:  python py/tools/benchmarks.py [--only SUBSTRING] [--skip-swipl] [--beside DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from mm_logic.support.errors import BadInput
from mm_logic.support.scripting import run

ROWS = [
    # (what the issue asks, goal, command)
    ("Knuth 4x6, every secret", "<= 0.3 s",
     "bench --backend python --strategy minimax --first-guess 0011 --all"),
    ("Kooi 4x8, every secret", "<= 5 s",
     "bench --backend python --strategy parts --colors 8 --all"),
    ("Knuth 5x8, every secret", "<= 30 s",
     "bench --backend python --strategy minimax --pegs 5 --colors 8 --all"),
    ("Knuth 4x6 on clingo", "5801",
     "bench --backend clingo --strategy minimax --first-guess 0011 --all"),
    ("first 5x8 no-repeat on clingo", "<= 8 ms/game",
     "bench --backend clingo --strategy first --pegs 5 --colors 8 --no-repeat --games 1000 --seed 1"),
    ("any 5x8 no-repeat on clingo", "<= 8 ms/game",
     "bench --backend clingo --strategy any --pegs 5 --colors 8 --no-repeat --games 1000 --seed 1"),
    ("any 16x6 on clingo", "<= 0.05 s/game",
     "bench --backend clingo --strategy any --pegs 16 --colors 6 --games 20 --seed 1"),
    ("any 16x6 on clingo, guesses", "Z3 player, same secrets: see below",
     "bench --backend clingo --strategy any --pegs 16 --colors 6 --games 500 --seed 1"),
    ("any 16x6 on clingo, published secrets", "Z3 published: 10.51",
     "bench --backend clingo --strategy any --pegs 16 --colors 6 --spaced 1000"),
    ("any 20x20 on clingo", "<= 0.5 s/game",
     "bench --backend clingo --strategy any --pegs 20 --colors 20 --games 20 --seed 1"),
    ("any 30x30 on clingo", "<= 5 s/game",
     "bench --backend clingo --strategy any --pegs 30 --colors 30 --games 20 --seed 1"),
    ("any 40x40 on clingo", "a figure per game, aim <= 60 s",
     "bench --backend clingo --strategy any --pegs 40 --colors 40 --games 10 --seed 1"),
    ("Knuth 4x6 on swipl", "5801",
     "bench --backend swipl --strategy minimax --first-guess 0011 --all"),
    ("first 5x8 no-repeat on swipl",
     "seed 003's program on this machine: 159-192 ms/game (`python py/tools/seed003_vs_swipl.py`; "
     "the report: ~66 ms over TCP on its own hardware)",
     "bench --backend swipl --strategy first --pegs 5 --colors 8 --no-repeat --games 1000 --seed 1"),
    # The other feedback rules (issue 37): the same scorers through the same compiled kernels.
    ("Knuth 4x6 black pegs, every secret", "compiled, as the standard rule",
     "bench --backend python --strategy minimax --feedback black --all"),
    ("Knuth 4x6 positional, every secret", "compiled, as the standard rule",
     "bench --backend python --strategy minimax --feedback positional --all"),
    ("Knuth 5x8 black pegs, every secret", "compiled, as the standard rule",
     "bench --backend python --strategy minimax --feedback black --pegs 5 --colors 8 --all"),
    ("Knuth 5x8 positional, every secret", "compiled, as the standard rule",
     "bench --backend python --strategy minimax --feedback positional --pegs 5 --colors 8 --all"),
    ("Knuth 4x6 black pegs on clingo", "9100, as python",
     "bench --backend clingo --strategy minimax --feedback black --all"),
    ("Knuth 4x6 positional on clingo", "4276, as python",
     "bench --backend clingo --strategy minimax --feedback positional --all"),
    ("Knuth 4x6 black pegs on swipl", "9100, as python",
     "bench --backend swipl --strategy minimax --feedback black --all"),
    ("Knuth 4x6 positional on swipl", "4276, as python",
     "bench --backend swipl --strategy minimax --feedback positional --all"),
]
#: README rows this script does not rerun: their command is not one ``mmlogic bench --json`` run
#: (``compare`` prints a row per strategy, and the row's figures set one strategy beside another).
NOT_RERUN = [
    ("any-random-opening 30x30 on clingo",
     "compare --backend clingo --strategy any,any-random-opening --pegs 30 --colors 30 --games 20 --seed 1"),
]


def mmlogic() -> str:
    local = Path(sys.executable).parent / "mmlogic"
    return str(local) if local.exists() else (shutil.which("mmlogic") or "mmlogic")


def checkout_mmlogic(checkout: Path) -> list[str]:
    """The command that runs ``checkout``'s own ``mmlogic`` (with ``PYTHONPATH=checkout``).

    Its entry point is read from its ``pyproject.toml``: the installed console script
    names today's (``mm_logic.__main__:main``), which an older checkout may not have.
    """
    try:
        entry = tomllib.loads((checkout / "pyproject.toml").read_text())["project"]["scripts"]["mmlogic"]
    except (KeyError, TypeError, tomllib.TOMLDecodeError) as error:
        raise BadInput(f"--beside {checkout}: its pyproject.toml names no mmlogic command "
                       f"([project.scripts] mmlogic = \"module:function\"): {error}") from None
    module, _, attribute = entry.partition(":")
    # -c puts the working directory first on sys.path: the checkout goes before it.
    return [sys.executable, "-c", f"import functools, importlib, sys; sys.path.insert(0, {str(checkout)!r}); "
                                  f"sys.exit(functools.reduce(getattr, {attribute.split('.')!r}, "
                                  f"importlib.import_module({module!r}))())"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="run only rows whose command contains this")
    parser.add_argument("--skip-swipl", action="store_true", help="leave out the swipl rows")
    parser.add_argument("--beside", type=Path, default=None,
                        help="a checkout of an earlier commit to run right after each row, for comparison")
    args = parser.parse_args()
    if args.beside and not ((args.beside / "mm_logic" / "__init__.py").is_file()
                            and (args.beside / "pyproject.toml").is_file()):
        # PYTHONPATH=DIR without a package there imports today's code: the "comparison" would be with itself.
        raise BadInput(f"--beside {args.beside} is not a checkout of mmlogic "
                       "(no mm_logic/__init__.py or pyproject.toml)")
    earlier = checkout_mmlogic(args.beside.resolve()) if args.beside else None  # refused before any row
    beside = f" {args.beside.name}, same run |" if args.beside else ""
    print(f"| benchmark | goal | games | mean | max | seconds | per game |{beside} command |")
    print("|---|---|---|---|---|---|---|" + ("---|" if args.beside else "") + "---|")
    for label, goal, command in ROWS:
        if args.only not in command or (args.skip_swipl and "swipl" in command):
            continue
        run = subprocess.run([mmlogic(), *command.split(), "--json"], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"| {label} | {goal} | failed: {run.stderr.strip()} | | | | |{' |' if beside else ''} "
                  f"`mmlogic {command}` |")
            continue
        out = json.loads(run.stdout)
        per_game = out["seconds"] / out["games"]
        per_game_text = f"{per_game * 1000:.2f} ms" if per_game < 1 else f"{per_game:.2f} s"
        other = ""
        if args.beside:
            env = {**os.environ, "PYTHONPATH": str(args.beside.resolve())}
            then = subprocess.run([*earlier, *command.split(), "--json"],
                                  capture_output=True, text=True, env=env)
            if then.returncode == 0:
                # Its own name: `earlier` is the checkout's command, run again for every row.
                earlier_out = json.loads(then.stdout)
                then_seconds = earlier_out["seconds"]
                # The same games are the point of the comparison: say where the figures differ.
                same = all(earlier_out.get(key) == out.get(key) for key in ("games", "total_guesses", "max"))
                differ = "" if same else (f", other games: {earlier_out.get('games')} games, total "
                                          f"{earlier_out.get('total_guesses')}, max {earlier_out.get('max')}")
                other = f" {then_seconds:.2f} s (x{out['seconds'] / max(then_seconds, 1e-9):.2f}{differ}) |"
            elif "--feedback" in command:
                other = " new: no --feedback there |"  # the option came with issue 37
            else:
                other = " failed |"
        print(f"| {label} | {goal} | {out['games']} | {out['mean']:.3f} | {out['max']} | "
              f"{out['seconds']:.2f} | {per_game_text} |{other} `mmlogic {command}` |", flush=True)
    skipped = [(label, command) for label, command in NOT_RERUN if args.only in command]
    if skipped:
        print("\nNot rerun here (run the command itself): "
              + "; ".join(f"{label}: `mmlogic {command}`" for label, command in skipped) + ".")
    return 0


if __name__ == "__main__":
    run(main)
