"""The C++ speed reference beside ``mmlogic bench``, case by case, in one run.

mikemag/Mastermind plays every secret of a game with Knuth, Most Parts,
Expected Size and Entropy; its CPU solver ``SolverCPUFaster`` (single thread,
-O3 -march=native) is the speed reference of issue 14. The project holds none
of its code: give this script a checkout of it (``--source``; e.g. ``git clone
https://github.com/mikemag/Mastermind``). For each case it copies the source
into ``--build/<case>``, applies the build recipe of
``shared/notes/cpp-peer.md`` (CMake 3.25.1; nlohmann-json from the system:
``apt-get install nlohmann-json3-dev cmake g++``; libcpuid optional; no CUDA),
sets the case's compile-time constants in ``main.cpp`` (pins, colours,
algorithm, CPU solver, one game, no self-tests), builds, runs it and reads the
stats JSON it writes. Then it runs ``mmlogic bench --backend python
--strategy S --all --first-guess G --json`` with the C++ run's own initial
guess, right after, and prints both side by side: total guesses, max, seconds
(the game's time only, on both sides) and the ratio. Knuth and Most Parts rank
by integers, so their totals must be equal; the peer ranks Expected Size and
Entropy in single-precision floats, ours exactly (integers, entropy in fixed
point), so those totals may differ by a few guesses, and are printed, not held
to each other.

Usage::

    .venv/bin/python py/tools/cpp_peer.py --source /tmp/Mastermind                 # the default cases
    .venv/bin/python py/tools/cpp_peer.py --source /tmp/Mastermind --case 5x8:entropy --case 5x8:expected
    .venv/bin/python py/tools/cpp_peer.py --source /tmp/Mastermind --case 5x8:knuth --case 6x6:knuth
    .venv/bin/python py/tools/cpp_peer.py --source /tmp/Mastermind --repeat 3       # each side 3 times, best kept
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from mm_logic.support.errors import BackendUnavailable, BadInput, MMLogicError
from mm_logic.support.scripting import count, run

#: Our strategy names and the C++ solver's algorithm types.
ALGOS = {"knuth": ("minimax", "Algos::Knuth"), "parts": ("parts", "Algos::MostParts"),
         "expected": ("expected", "Algos::ExpectedSize"), "entropy": ("entropy", "Algos::Entropy")}
#: Knuth's and Most Parts' cases (issue 14), then Expected Size and Entropy (issue 58).
DEFAULT_CASES = ["4x6:knuth", "4x10:knuth", "5x8:knuth", "5x8:parts", "6x6:knuth",
                 "4x6:expected", "4x6:entropy", "5x8:expected", "5x8:entropy", "6x6:expected", "6x6:entropy"]
#: The algorithms both sides rank by integers: their totals and worst cases must be equal.
EXACT = {"knuth", "parts"}
#: The build's tools and the packages that bring them (the recipe's apt-get line).
INSTALL = "apt-get install nlohmann-json3-dev cmake g++"
#: The recipe's edits: (file, old, new). Each must apply exactly once.
RECIPE = [
    ("CMakeLists.txt", "cmake_minimum_required(VERSION 3.25.2)", "cmake_minimum_required(VERSION 3.25.1)"),
    ("CMakeLists.txt",
     "FetchContent_Declare(json URL https://github.com/nlohmann/json/releases/download/v3.10.5/json.tar.xz)\n"
     "FetchContent_MakeAvailable(json)",
     "find_package(nlohmann_json 3.10 REQUIRED)"),
    ("utils.cpp", "#if __linux__\n#include <libcpuid.h>",
     "#if __linux__ && __has_include(<libcpuid.h>)\n#include <libcpuid.h>\n#endif\n#if __linux__"),
    ("utils.cpp", "#if __linux__\n  struct cpu_raw_data_t raw {};",
     "#if __linux__ && __has_include(<libcpuid.h>)\n  struct cpu_raw_data_t raw {};"),
]


def case_constants(pegs: int, colors: int, algo: str) -> list[tuple[str, str]]:
    """main.cpp's compile-time settings for one game of ``pegs`` x ``colors`` with ``algo``."""
    return [
        (r"using SingleGameAlgo = [\w:]+;", f"using SingleGameAlgo = {algo};"),
        (r"singleGamePinCount = \d+;", f"singleGamePinCount = {pegs};"),
        (r"singleGameColorCount = \d+;", f"singleGameColorCount = {colors};"),
        (r"singleGameLog = \w+;", "singleGameLog = false;"),
        (r"shouldRunTests = \w+;", "shouldRunTests = false;"),
        (r"shouldPlaySingleGame = \w+;", "shouldPlaySingleGame = true;"),
        (r"shouldPlayMultipleGames = \w+;", "shouldPlayMultipleGames = false;"),
    ]


def wrong_version(source: Path, name: str, old: str) -> str:
    return (f"--source {source}: its {name} does not contain the recipe's {old.splitlines()[0]!r} once: "
            "not the version of mikemag/Mastermind the recipe was written for")


def no_constant(source: Path, pattern: str) -> str:
    return (f"--source {source}: its main.cpp has no {pattern!r}: "
            "not the version of mikemag/Mastermind the recipe was written for")


def check_checkout(source: Path) -> None:
    """Refuse (:class:`BadInput`, exit 2) a folder without the files the recipe edits."""
    missing = [name for name in ("main.cpp", *dict.fromkeys(name for name, _, _ in RECIPE))
               if not (source / name).is_file()]
    if missing:
        raise BadInput(f"--source {source} is not a checkout of mikemag/Mastermind (no {', '.join(missing)})")


def check_version(source: Path) -> None:
    """Refuse (:class:`BadInput`, exit 2) a checkout the recipe's edits and the case constants do not fit.

    A checkout of another version of mikemag/Mastermind is bad input as much as a folder that is
    not a checkout at all, and is refused as early: before anything is built or printed.
    """
    for name, old, _ in RECIPE:
        if (source / name).read_text(errors="replace").count(old) != 1:
            raise BadInput(wrong_version(source, name, old))
    text = (source / "main.cpp").read_text(errors="replace")
    for pattern, _ in case_constants(4, 6, ALGOS["knuth"][1]):
        if re.search(pattern, text) is None:
            raise BadInput(no_constant(source, pattern))


def build(source: Path, folder: Path, pegs: int, colors: int, algo: str) -> Path:
    """The peer's binary for one case, built in ``folder`` (reused when already built)."""
    binary = folder / "build" / "mastermind"
    if binary.exists():
        return binary
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns(".git", "results", "docs", "*.gif"))
    for name, old, new in RECIPE:
        path = folder / name
        text = path.read_text()
        if text.count(old) != 1:  # check_version found it once in the source; it may have changed since
            raise BadInput(wrong_version(source, name, old))
        path.write_text(text.replace(old, new))
    main = folder / "main.cpp"
    text = main.read_text()
    for pattern, value in case_constants(pegs, colors, algo):
        text, n = re.subn(pattern, value, text, count=1)
        if n != 1:
            raise BadInput(no_constant(source, pattern))
    main.write_text(text)
    (folder / "build").mkdir()
    for command in (["cmake", "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CUDA_COMPILER=NOTFOUND", ".."],
                    ["make", f"-j{os.cpu_count() or 1}"]):
        done = subprocess.run(command, cwd=folder / "build", capture_output=True, text=True)
        if done.returncode != 0:
            # The tool's own output is tens of lines: it goes to a log, the error names it in one line.
            log = folder / "build" / f"{command[0]}.log"
            log.write_text(done.stdout + done.stderr)
            if "nlohmann_json" in done.stdout + done.stderr:
                raise BackendUnavailable(f"{command[0]} found no nlohmann-json (the recipe takes it from the system): "
                                         f"{INSTALL} (its output: {log})")
            raise MMLogicError(f"{' '.join(command)} failed in {folder / 'build'} (its output: {log})")
    return binary


def run_peer(binary: Path) -> dict:
    """One run of the peer (from its source folder: it reads JSON files there); its stats."""
    folder = binary.parent.parent
    for old in folder.glob("mastermind_run_stats*.json"):
        old.unlink()
    done = subprocess.run([str(binary)], cwd=folder, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"error: {binary} failed: {done.stderr[-2000:]}")
    (stats,) = folder.glob("mastermind_run_stats*.json")
    runs = [r["run"] for r in json.loads(stats.read_text()) if "Total Turns" in r.get("run", {})]
    if not runs:
        raise SystemExit(f"error: {stats} holds no run with 'Total Turns'")
    return runs[-1]


def run_ours(pegs: int, colors: int, strategy: str, opening: str) -> dict:
    """``mmlogic bench`` on every secret, with the same opening, in a fresh process."""
    mmlogic = Path(sys.executable).parent / "mmlogic"
    command = [str(mmlogic), "bench", "--backend", "python", "--strategy", strategy, "--pegs", str(pegs),
               "--colors", str(colors), "--all", "--first-guess", opening, "--json"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"error: {' '.join(command)}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, required=True, help="a checkout of mikemag/Mastermind")
    parser.add_argument("--build", type=Path, default=Path("/tmp/mmlogic-cpp-peer"),
                        help="where each case is built (default /tmp/mmlogic-cpp-peer)")
    parser.add_argument("--case", action="append", default=None, metavar="PxC:ALGO",
                        help=f"a case, e.g. 5x8:knuth (algorithms {', '.join(ALGOS)}); default: "
                             f"{' '.join(DEFAULT_CASES)}")
    parser.add_argument("--repeat", type=count, default=1, help="runs of each side; the fastest is kept")
    args = parser.parse_args()
    # Checked before anything is built or printed: the files the recipe edits are there (else --source
    # is not a checkout), the cases, and the files' text fits the recipe (else it is another version).
    check_checkout(args.source)
    cases = []
    for case in args.case or DEFAULT_CASES:
        match = re.fullmatch(r"(\d+)x(\d+):(\w+)", case)
        if not match or match.group(3) not in ALGOS:
            raise BadInput(f"--case {case!r}: expected PxC:ALGO with ALGO one of {', '.join(ALGOS)}")
        cases.append((case, int(match.group(1)), int(match.group(2)), match.group(3)))
    check_version(args.source)
    if shutil.which("cmake") is None or shutil.which("make") is None:
        raise BackendUnavailable(f"building the C++ peer needs cmake and make: {INSTALL} make")
    rows = []
    print("| case | C++ total | C++ max | C++ s | mmlogic total | mmlogic max | mmlogic s | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for case, pegs, colors, name in cases:
        strategy, algo = ALGOS[name]
        start = time.perf_counter()
        binary = build(args.source.resolve(), args.build / f"{pegs}x{colors}-{name}", pegs, colors, algo)
        print(f"(built {case} in {time.perf_counter() - start:.0f} s)", file=sys.stderr)
        peer = min((run_peer(binary) for _ in range(args.repeat)), key=lambda r: r["Elapsed (s)"])
        # The peer writes its initial guess with colours from 1.
        opening = "".join(str(int(c) - 1) for c in str(peer["Initial Guess"]))
        ours = min((run_ours(pegs, colors, strategy, opening) for _ in range(args.repeat)),
                   key=lambda r: r["seconds"])
        ratio = ours["seconds"] / peer["Elapsed (s)"]
        rows.append((case, peer, ours))
        print(f"| {pegs}x{colors} {name}, opening {opening} | {peer['Total Turns']:,} | {peer['Max Turns']} | "
              f"{peer['Elapsed (s)']:.3f} | {ours['total_guesses']:,} | {ours['max']} | {ours['seconds']:.3f} | "
              f"{ratio:.2f}x |", flush=True)
    exact = [(p, o) for case, p, o in rows if case.split(":")[1] in EXACT]
    same = all(p["Total Turns"] == o["total_guesses"] and p["Max Turns"] == o["max"] for p, o in exact)
    if exact:
        print(f"\ntotals and max {'equal' if same else 'DIFFER'} on every Knuth and Most Parts case", end="")
    if len(exact) < len(rows):
        print(f"{'; ' if exact else chr(10)}Expected Size and Entropy: the peer ranks in single-precision floats, "
              "mmlogic exactly (totals may differ by a few guesses)", end="")
    print("; ratio = mmlogic seconds / C++ seconds")
    return 0 if same else 1


if __name__ == "__main__":
    run(main)
