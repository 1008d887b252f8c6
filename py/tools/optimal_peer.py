"""The C optimal-search solver beside ``mmlogic optimal``, case by case, in one run.

arfst23/Mastermind (C99, one thread, 2023) computes optimal 4-peg strategies by
branch and bound: 4x6, 4x7 and 4x8, each within a depth fixed at compile time.
The project holds none of its code: give this script a checkout of it
(``--source``: a folder holding its ``mastermind.c``, or a git mirror of it,
read with ``git archive HEAD``). For each case it applies the build recipe of
``shared/notes/optimal-peer.md``: a copy of ``mastermind.c`` in ``--build/<case>``
with its ``POSITIONS``, ``COLORS`` and ``DEPTH_MAX`` set, built with ``gcc
-std=c99 -O3 -funroll-loops -march=native`` (``apt-get install gcc``), run from
its folder. It prints its optimal tree, one punch-card line per node, then
``cpu=Ns``; the script plays the tree against every secret (each column's
codes are computed, not trusted) and reads the total (the sum over secrets of
the guess that finds each) and the worst case. Then it runs ``mmlogic optimal
--pegs 4 --colors C [--max-depth D] --json`` right after, and prints both side
by side: total, worst case, the whole process's wall time (start-up included,
measured around the child), its own time (the peer's ``cpu=``, mmlogic's
``seconds``: the search), the child's peak memory (its ``ru_maxrss``, read by
``/usr/bin/time -f %M``; not measured without it: ``apt-get install time``) and
the ratio of the wall times (mmlogic / arfst23).

Cases (``--case``, repeatable): 4x6 and 4x6:5 (the default: about a second
each), 4x7 (the peer: 10 to 17 minutes), 4x8:6 and 4x8 (the peer: hours).
``4xC:D`` is every game within D guesses (the peer's ``DEPTH_MAX``; mmlogic's
``--max-depth``); ``4xC`` is unrestricted (the peer's ``DEPTH_MAX`` set to the
optimum's worst case, 6 for 6 and 7 colours, 7 for 8). The exit code is 0 when
both sides find the published total and worst case on every case, 1 if not.

Usage::

    .venv/bin/python py/tools/optimal_peer.py --source /tmp/Mastermind               # 4x6 and 4x6:5
    .venv/bin/python py/tools/optimal_peer.py --source /tmp/Mastermind --repeat 5    # each side 5 times, best kept
    .venv/bin/python py/tools/optimal_peer.py --source /tmp/Mastermind --case 4x7 --json rows.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from functools import partial
from itertools import product
from pathlib import Path

from mm_logic.support.errors import BackendUnavailable, BadInput, MMLogicError
from mm_logic.support.scripting import count, output_file, output_folder, run

#: case -> (colours, the peer's DEPTH_MAX, mmlogic's --max-depth or None, published total, published worst case).
CASES = {
    "4x6": (6, 6, None, 5625, 6),
    "4x6:5": (6, 5, 5, 5626, 5),
    "4x7": (7, 6, None, 11228, 6),
    "4x8:6": (8, 6, 6, 20473, 6),
    "4x8": (8, 7, None, 20471, 7),
}
DEFAULT_CASES = ["4x6", "4x6:5"]
#: What one run of the peer takes, said before it starts (on this project's shared 2-core machine;
#: its README: 4x7 150 s on an i7-9700K).
DURATION = {6: "about a second", 7: "10 to 17 minutes", 8: "hours"}
#: The build's compiler and the package that brings it.
INSTALL = "apt-get install gcc"
#: GNU time, which reads a child's own peak memory (Debian: apt-get install time).
TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
CFLAGS = ["-std=c99", "-O3", "-funroll-loops", "-march=native"]
#: The recipe's edits of mastermind.c: each constant's line, found exactly once.
CONSTANTS = ("POSITIONS", "COLORS", "DEPTH_MAX")
#: The peer's feedback columns, in its order: O a right colour in a wrong place, X a right place.
COLUMNS = ("----", "O---", "OO--", "OOO-", "OOOO", "X---", "XO--", "XOO-", "XOOO",
           "XX--", "XXO-", "XXOO", "XXX-", "XXXX")
HEADER = " " * 11 + " ".join(COLUMNS)
#: One node of the tree: line number, guess number (its depth from 1), guess, then per column
#: ``>NNN`` (the next line), ``----`` (no code gives that feedback) or the one code that does.
ROW = re.compile(r"(\d{3,}) (\d) (\d{4})((?: (?:>\d{3,}|----|\d{4})){14})")
CPU = re.compile(r"cpu=(\d+\.\d)s")


def constant_line(name: str) -> re.Pattern:
    return re.compile(rf"^#define {name} \d+$", re.MULTILINE)


def wrong_version(source: Path, name: str) -> str:
    return (f"--source {source}: its mastermind.c has no line '#define {name} N' (or more than one): "
            "not the version of arfst23/Mastermind the recipe was written for")


def is_git_dir(source: Path) -> bool:
    return (source / "HEAD").is_file() and (source / "objects").is_dir()


def read_source(source: Path) -> str:
    """The text of the checkout's mastermind.c; a folder without it is bad input (exit 2)."""
    if (source / "mastermind.c").is_file():
        return (source / "mastermind.c").read_text(errors="replace")
    if is_git_dir(source):
        if shutil.which("git") is None:
            raise BackendUnavailable(f"--source {source} is a git repository: reading it needs git: "
                                     "apt-get install git")
        done = subprocess.run(["git", "-C", str(source), "show", "HEAD:mastermind.c"], capture_output=True,
                              text=True, errors="replace")
        if done.returncode == 0:
            return done.stdout
    raise BadInput(f"--source {source} is not a checkout of arfst23/Mastermind (no mastermind.c)")


def check_version(source: Path, text: str) -> None:
    """Refuse (:class:`BadInput`, exit 2) a mastermind.c whose size constants the recipe cannot set."""
    for name in CONSTANTS:
        if len(constant_line(name).findall(text)) != 1:
            raise BadInput(wrong_version(source, name))


def case_source(text: str, colors: int, depth: int) -> str:
    """mastermind.c for one case: 4 positions, ``colors`` colours, every game within ``depth`` guesses."""
    for name, value in zip(CONSTANTS, (4, colors, depth)):
        text = constant_line(name).sub(f"#define {name} {value}", text, count=1)
    return text


def build(text: str, folder: Path, colors: int, depth: int) -> Path:
    """The peer's binary for one case, built afresh in ``folder``."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    (folder / "mastermind.c").write_text(case_source(text, colors, depth))
    binary = folder / "mastermind"
    command = ["gcc", *CFLAGS, "-o", binary.name, "mastermind.c"]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    if done.returncode != 0:
        log = folder / "gcc.log"
        log.write_text(done.stdout + done.stderr)
        raise MMLogicError(f"{' '.join(command)} failed in {folder} (its output: {log})")
    return binary


def measured(command: list[str], cwd: Path, out: Path) -> tuple[float, float | None, int, str]:
    """Run ``command`` in ``cwd``, its stdout into ``out``: wall seconds around the whole process,
    its peak memory in MB (None without /usr/bin/time), its exit code, its stderr.

    The peak is the child's own ``ru_maxrss`` as ``/usr/bin/time -f %M`` reads it: measured from this
    process (``os.wait4``, or ``RUSAGE_CHILDREN``), it would be at least this Python's size, which a
    child started by fork or vfork carries through exec. The child runs in its own session: Ctrl-C (or
    any error) here kills it and what it started, and waits for it; none is left running.
    """
    with out.open("w") as stdout, tempfile.TemporaryDirectory() as scratch:
        peak_file = Path(scratch) / "peak"
        timed = [TIME, "-f", "%M", "-o", str(peak_file), *command] if TIME else command
        stderr_file = Path(scratch) / "stderr"
        with stderr_file.open("w") as stderr:
            start = time.perf_counter()
            child = subprocess.Popen(timed, cwd=cwd, stdout=stdout, stderr=stderr, start_new_session=True)
            try:
                code = child.wait()
            except BaseException:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
                raise
            wall = time.perf_counter() - start
        peak = None
        if TIME and code == 0:
            peak = int(peak_file.read_text().split()[-1]) / 1024
        return wall, peak, code, stderr_file.read_text()


def megabytes(peak: float | None) -> float | None:
    return None if peak is None else round(peak, 1)


def shown(peak: float | None) -> str:
    return "n/a" if peak is None else f"{peak:.1f}"


def feedback_column(guess: str, secret: str) -> int:
    """The peer's column of ``guess`` against ``secret`` (both strings of digits)."""
    right = sum(g == s for g, s in zip(guess, secret))
    common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return COLUMNS.index("X" * right + "O" * (common - right) + "-" * (4 - common))


class BadTree(MMLogicError):
    """The peer's output is not a tree that finds every secret (a bug, or another version): exit 1."""


def read_tree(text: str, colors: int) -> tuple[int, int, int]:
    """Play the peer's printed tree against every secret of 4 pegs and ``colors`` colours:
    (total guesses, worst case, rows).

    Each row's parts are computed from its guess; a column must say what its part holds: ``----``
    nothing, a code that one code, ``>N`` the row that plays the rest. The last column (all right)
    holds the row's guess whether or not it is still possible: it counts only when it is.
    """
    rows = {}
    for number, line in enumerate(text.splitlines(), 1):
        match = ROW.fullmatch(line)
        if match:
            row = int(match.group(1))
            if row in rows:
                raise BadTree(f"the peer's tree: row {row:03d} twice (output line {number})")
            rows[row] = (int(match.group(2)), match.group(3), match.group(4).split())
        elif line != HEADER and not CPU.fullmatch(line):
            raise BadTree(f"the peer's output, line {number}, is not a row of its tree: {line[:80]!r}")
    if 0 not in rows:
        raise BadTree("the peer's output has no row 000 (the tree's root)")
    codes = ["".join(p) for p in product("0123456789"[:colors], repeat=4)]
    total = worst = 0
    reached = {0}
    stack = [(0, 1, codes)]
    while stack:
        row, depth, possible = stack.pop()
        printed_depth, guess, cells = rows[row]
        where = f"the peer's tree, row {row:03d} (guess {guess})"
        if printed_depth != depth:
            raise BadTree(f"{where}: says guess {printed_depth}, is guess {depth}")
        if max(guess) >= str(colors):
            raise BadTree(f"{where}: not a code of {colors} colours")
        parts: list[list[str]] = [[] for _ in COLUMNS]
        for secret in possible:
            parts[feedback_column(guess, secret)].append(secret)
        for column, (cell, part) in enumerate(zip(cells, parts)):
            said = f"{where}, feedback {COLUMNS[column]}: {len(part)} codes, the tree says {cell}"
            if cell.startswith(">"):
                child = int(cell[1:])
                if not part or child not in rows or child in reached:
                    raise BadTree(said)
                reached.add(child)
                stack.append((child, depth + 1, part))
            elif column == len(COLUMNS) - 1:  # the guess itself, printed even when no longer possible
                if cell not in ("----", guess):
                    raise BadTree(said)
                if part:
                    total += depth
                    worst = max(worst, depth)
            elif part != ([] if cell == "----" else [cell]):
                raise BadTree(said)
            elif part:
                total += depth + 1
                worst = max(worst, depth + 1)
    if reached != set(rows):
        raise BadTree(f"the peer's tree: {len(set(rows) - reached)} rows no guess leads to")
    return total, worst, len(rows)


def run_peer(binary: Path, colors: int) -> dict:
    """One run of the peer, from its folder: its tree's total and worst case, wall and CPU seconds, memory."""
    out = binary.parent / "tree.txt"
    wall, peak, code, errors = measured([str(binary)], binary.parent, out)
    if code != 0:
        raise MMLogicError(f"{binary} failed (exit {code}): {' '.join(errors.split())[-500:]}")
    text = out.read_text()
    cpu = CPU.findall(text)
    if len(cpu) != 1:
        raise BadTree(f"the peer's output ({out}) has no line cpu=Ns")
    total, worst, rows = read_tree(text, colors)
    return {"total_guesses": total, "max": worst, "rows": rows, "wall_seconds": round(wall, 3),
            "own_seconds": float(cpu[0]), "peak_mb": megabytes(peak)}


def mmlogic() -> str:
    """The console script beside this Python, as a user runs it."""
    return str(Path(sys.executable).parent / "mmlogic")


def run_ours(colors: int, max_depth: int | None, folder: Path) -> dict:
    """``mmlogic optimal`` in a fresh process: its result, the process's wall seconds and peak memory."""
    command = [mmlogic(), "optimal", "--pegs", "4", "--colors", str(colors),
               *(["--max-depth", str(max_depth)] if max_depth else []), "--json"]
    out = folder / "mmlogic.json"
    wall, peak, code, errors = measured(command, folder, out)
    if code != 0:
        raise MMLogicError(f"{' '.join(command)} failed (exit {code}): {' '.join(errors.split())[-500:]}")
    result = json.loads(out.read_text())
    return {"total_guesses": result["total_guesses"], "max": result["max"], "wall_seconds": round(wall, 3),
            "own_seconds": result["seconds"], "peak_mb": megabytes(peak), "compiled": "compiling" in errors}


def best_of(repeat: int, once, side: str, case: str, duration: str) -> dict:
    """The fastest (wall time) of ``repeat`` runs of ``once()``; a line on stderr before each."""
    runs = []
    for i in range(repeat):
        print(f"({case}: {side}, run {i + 1} of {repeat}, {duration})", file=sys.stderr, flush=True)
        result = once()
        if result.pop("compiled", False):  # the kernels' one compilation is no run: the cache is warm now
            print(f"({case}: mmlogic compiled its kernels (once per install): that run is not counted, "
                  "it runs again)", file=sys.stderr, flush=True)
            result = once()
            result.pop("compiled")
        runs.append(result)
    return min(runs, key=lambda r: r["wall_seconds"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, required=True,
                        help="a checkout of arfst23/Mastermind (its folder, or a git mirror of it)")
    parser.add_argument("--build", type=output_folder, default=Path("/tmp/mmlogic-optimal-peer"),
                        help="where each case is built and run (default /tmp/mmlogic-optimal-peer)")
    parser.add_argument("--case", action="append", default=None, metavar="4xC[:D]",
                        help=f"a case: {', '.join(CASES)}; default: {' '.join(DEFAULT_CASES)}")
    parser.add_argument("--repeat", type=count, default=1, help="runs of each side; the fastest is kept")
    parser.add_argument("--json", type=output_file, default=None, help="write the rows as JSON")
    args = parser.parse_args()
    # Checked before anything is built or printed: the source, the cases, the recipe's lines, gcc.
    text = read_source(args.source)
    cases = args.case or DEFAULT_CASES
    for case in cases:
        if case not in CASES:
            raise BadInput(f"--case {case!r}: expected one of {', '.join(CASES)} (4xC, or 4xC:D within D guesses)")
    check_version(args.source, text)
    if shutil.which("gcc") is None:
        raise BackendUnavailable(f"building arfst23/Mastermind needs gcc: {INSTALL}")
    if TIME is None:
        print("(no /usr/bin/time: peak memory is not measured; apt-get install time)", file=sys.stderr)
    rows = []
    print("| case | arfst23 total | worst | wall s | cpu s | peak MB | mmlogic total | worst | wall s | search s "
          "| peak MB | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for case in dict.fromkeys(cases):
        colors, depth, max_depth, published, published_worst = CASES[case]
        folder = args.build / case.replace(":", "-")
        start = time.perf_counter()
        binary = build(text, folder, colors, depth)
        print(f"(built {case} in {time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
        peer = best_of(args.repeat, partial(run_peer, binary, colors), "arfst23/Mastermind", case,
                       DURATION[colors] + " on one core")
        ours = best_of(args.repeat, partial(run_ours, colors, max_depth, folder), "mmlogic optimal", case,
                       "one core")
        ratio = ours["wall_seconds"] / peer["wall_seconds"]
        same = all((side["total_guesses"], side["max"]) == (published, published_worst) for side in (peer, ours))
        rows.append({"case": case, "colors": colors, "max_depth": max_depth, "published": published,
                     "published_max": published_worst, "agree": same, "arfst23": peer, "mmlogic": ours,
                     "ratio": round(ratio, 3)})
        print(f"| {case} | {peer['total_guesses']:,} | {peer['max']} | {peer['wall_seconds']:.3f} | "
              f"{peer['own_seconds']:.1f} | {shown(peer['peak_mb'])} | {ours['total_guesses']:,} | {ours['max']} | "
              f"{ours['wall_seconds']:.3f} | {ours['own_seconds']:.3f} | {shown(ours['peak_mb'])} | {ratio:.2f}x |",
              flush=True)
    same = all(row["agree"] for row in rows)
    print(f"\ntotals and worst cases {'equal the published ones' if same else 'DIFFER'} on every case; "
          "ratio = mmlogic wall s / arfst23 wall s (whole processes, start-up included)")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0 if same else 1


if __name__ == "__main__":
    run(main)
