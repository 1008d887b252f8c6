"""Seed 003's CLP(FD) guesser against mmlogic's swipl engine, on the same secrets.

Both play 5 pegs of 8 colours without repetition (seed 003's own setting)
until they find each secret, in the same Python process, through the same
janus bridge to SWI-Prolog:

* **seed 003**: the report's ``ia - version 3.0.pl``, read from the report
  itself at run time (``--seed-doc``, by default
  ``../shared/seeds/003_fbc1ce64130a1d6a.txt`` beside the repository; the
  project holds no copy of it) with the adaptations of :data:`ADAPTATIONS`,
  the least SWI-Prolog 9 needs to load and run it. This script
  plays the part of the seed's client and server: before each game it sets
  ``parametres(5, 8, non)`` and clears ``guess/2``; for each move it calls
  ``bulls_and_cows/1``, scores the guess with mmlogic's feedback rule and
  asserts ``guess(Guess, [Black, White])``, as mastermind-client.pl does
  after asking the socket server. Its opening is random (Prolog's random,
  seeded from ``--seed``).
* **mmlogic**: :class:`~mm_logic.engines.swipl.SwiplEngine` with the
  ``first`` strategy (the smallest consistent code; opens with 01234),
  through :func:`mm_logic.game.play`.

A game's time is the wall time of its moves (not loading either program).
Goal (issue 4): mmlogic at least 10 times faster per game than the seed's
program, timed in the same run, with no more attempts on average. The
README's Seed 003 figures are one run's (the seed's program 192 ms per game
on this project's machine, mmlogic 24x faster); the times move with the
machine's load (an earlier run: 159 ms, 31x), the attempts do not.

**The report's own client** (``--client N``, and ``tests/frontends/test_seed003_client.py``):
:func:`play_client` runs the report's console client ``mastermind-client.pl``
in ``swipl``, with its ``ia - version 3.0.pl`` and its ``mastermind_stats.pl``
(which the client loads), all read from the report at run time and written
into a temporary folder under the names the client's ``use_module`` lines
expect, against a real ``mmlogic serve --tcp-port`` (seed 003's line
protocol, ``docs/line-protocol.md``) playing 5 pegs of 8 colours without
repetition. The client's changes (:func:`client_adaptations`) are, besides
``:- encoding(utf8).`` on top: ``library(lambda)`` replaced by
``library(yall)``, its lambda ``\\X^Y^(Y is X+97)`` written
``[X,Y]>>(Y is X+97)``, and ``Port=5000`` (twice) replaced by the server's
port. ``mastermind_stats.pl`` is used as it is; ``sformat/3`` (gone from the
core) still autoloads from ``library(backcomp)`` in SWI-Prolog 9.2, so it is
left alone.

The report's client has a bug, confirmed by running it against a server
whose game had expired: the "erreur de proposition" clause
``study_answer(_Len_Proposition, [-2, Mess], _Prop, 0)`` has 4 arguments
where the call has 5, so it is a separate predicate that is never called. A
``[-2, Message]`` answer makes ``study_answer/5`` fail, nothing is printed,
and ``repeat`` sends the same guess again forever (with 5 arguments it would
print the message, then loop all the same, since 0 bulls never ends the
game). It is left as it is: a correct server never answers ``-2`` to this
client.

Usage::

    .venv/bin/python py/tools/seed003_vs_swipl.py              # 200 random secrets
    .venv/bin/python py/tools/seed003_vs_swipl.py --games 1000 --seed 3
    .venv/bin/python py/tools/seed003_vs_swipl.py --all        # all 6720 secrets (about half an hour)
    .venv/bin/python py/tools/seed003_vs_swipl.py --seed-doc path/to/003_fbc1ce64130a1d6a.txt
    .venv/bin/python py/tools/seed003_vs_swipl.py --client 20  # the report's client against mmlogic serve
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from mm_logic.codespace import code_space
from mm_logic.engines.swipl import SwiplEngine
from mm_logic.engines.swipl.runtime import find_swipl, runtime
from mm_logic.feedback import feedback
from mm_logic.game import play
from mm_logic.rules import Rules
from mm_logic.secret_codes import random_secrets
from mm_logic.server.process import ServerProcess
from mm_logic.strategies import make_strategy
from mm_logic.support.errors import BackendUnavailable
from mm_logic.support.files import read_text
from mm_logic.support.scripting import count, natural, run

#: Where the report is, unless --seed-doc says otherwise: shared/ beside the repository.
SEED_DOC = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "003_fbc1ce64130a1d6a.txt"
#: The program is the report's text from this line (its first line, the module) ...
PROGRAM_START = ":- module('ia.pl', [bulls_and_cows/1])."
#: ... up to the heading of the next section.
PROGRAM_END = "IV-C. Quelques résultats."
#: What SWI-Prolog 9 needs changed, and why. library(lambda) is no longer
#: shipped: its one lambda is written with library(yall), where a variable of
#: the clause (Max) is shared with the lambda only when listed in {...}. The
#: source has accented letters: it is read as UTF-8.
ADAPTATIONS = [
    (":- use_module(library(lambda)).", ":- use_module(library(yall))."),
    ("maplist(\\X^(X is random(Max)), Solution)", "maplist({Max}/[X]>>(X is random(Max)), Solution)"),
]
RULES = Rules(5, 8, 1)
#: The seed's module, as its ``:- module`` line names it.
SEED_MODULE = "'ia.pl'"
GOAL_SPEEDUP = 10.0
#: The report's client runs in ``swipl`` itself (janus is not needed).
NO_SWIPL = "no SWI-Prolog >= 9.1.12 found: run scripts/install-swipl.sh"

#: The report's files, under the names the client's ``use_module`` lines give them.
IA_FILE = "ia - version 3.0.pl"
CLIENT_FILE = "mastermind-client.pl"
STATS_FILE = "mastermind_stats.pl"
#: The client is the report's text after this line up to the next heading ...
CLIENT_START = "Fichier 'mastermind-client.pl'\n"
CLIENT_END = "IV-B. L' I.A."
#: ... and the statistics module from its module line up to the next heading.
STATS_START = ":- module('mastermind_stats.pl', [etudie/1])."
STATS_END = "IV-C-2. Les résultats"
#: Where the client connects (twice: init_connexion and each guess); the server's port replaces 5000.
CLIENT_PORT = "Host='localhost', Port=5000,"
#: What the client prints: its rules line, one line per guess, and its line when it wins.
CLIENT_RULES_LINE = re.compile(r"'La proposition est composée de (\d+) lettres de a à ([a-z]), (sans|avec) doublons\.'")
CLIENT_GUESS_LINE = re.compile(r"(\d+) Proposition : ([a-z]+) Bulls= (\d+) Cows = (\d+)")
CLIENT_WIN_LINE = "J'ai trouvé !!!"


class MissingReport(Exception):
    """The report, or its program, is not where it was looked for."""


def report_file(document: Path, name: str, start_text: str, end_text: str,
                adaptations: list[tuple[str, str]], *, after_start: bool = False) -> str:
    """The report's file ``name``: its text from ``start_text`` (or just after it) to the heading
    ``end_text``, with each ``(old, new)`` of ``adaptations`` applied (each ``old`` must be there)."""
    if not document.is_file():
        raise MissingReport(f"seed 003's report is not at {document}: give its path with --seed-doc PATH "
                            "(it is shared/seeds/003_fbc1ce64130a1d6a.txt beside the repository)")
    text = read_text(document, "--seed-doc")  # bounded, as every file a user names
    start = text.find(start_text)
    end = text.find(end_text, start) if start >= 0 else -1
    if start < 0 or end < 0:
        raise MissingReport(f"{document} does not hold seed 003's {name!r} "
                            f"(from {start_text.strip()!r} to the heading {end_text!r})")
    program = text[start + (len(start_text) if after_start else 0):end]
    for old, new in adaptations:
        if old not in program:
            raise MissingReport(f"{document}: {name!r} no longer contains {old!r}")
        program = program.replace(old, new)
    return ":- encoding(utf8).\n" + program


def seed_program(document: Path = SEED_DOC) -> str:
    """The report's ``ia - version 3.0.pl``, adapted to SWI-Prolog 9 (see :data:`ADAPTATIONS`)."""
    return report_file(document, IA_FILE, PROGRAM_START, PROGRAM_END, ADAPTATIONS)


def client_adaptations(port: int) -> list[tuple[str, str]]:
    """What the report's client needs changed: its lambda library and lambda, as in
    :data:`ADAPTATIONS`, and the server's port (``Port=5000`` in both places it connects)."""
    return [
        (":- use_module(library(lambda)).", ":- use_module(library(yall))."),
        ("maplist(\\X^Y^(Y is X+97), Suggestion, Ms)", "maplist([X,Y]>>(Y is X+97), Suggestion, Ms)"),
        (CLIENT_PORT, CLIENT_PORT.replace("5000", str(port))),
    ]


def client_program(port: int, document: Path = SEED_DOC) -> str:
    """The report's ``mastermind-client.pl``, connecting to ``port`` (see :func:`client_adaptations`)."""
    program = report_file(document, CLIENT_FILE, CLIENT_START, CLIENT_END, client_adaptations(port),
                          after_start=True)
    if program.count(f"Port={port},") != 2:
        raise MissingReport(f"{document}: {CLIENT_FILE!r} no longer connects twice with {CLIENT_PORT!r}")
    return program


def stats_program(document: Path = SEED_DOC) -> str:
    """The report's ``mastermind_stats.pl``, unchanged (the client loads it)."""
    return report_file(document, STATS_FILE, STATS_START, STATS_END, [])


def write_client(folder: Path, port: int, document: Path = SEED_DOC) -> Path:
    """Write the client, the guesser and the statistics module into ``folder``; the client's path."""
    for name, text in ((IA_FILE, seed_program(document)), (STATS_FILE, stats_program(document)),
                       (CLIENT_FILE, client_program(port, document))):
        (folder / name).write_text(text, encoding="utf-8")
    return folder / CLIENT_FILE


def query_once(janus, goal: str, inputs: dict | None = None) -> dict:
    """``janus.query_once`` for this script's own questions: Ctrl-C during one is :class:`KeyboardInterrupt`.

    Python raises it in a callback Prolog makes (janus's heartbeat), and janus hands it back as a
    ``PrologError`` (``Python 'KeyboardInterrupt'``), which :func:`~mm_logic.support.scripting.run` would show as a
    traceback, exit 1; :meth:`PrologRuntime.interrupted` tells it from Prolog's own errors.
    """
    try:
        return janus.query_once(goal, inputs or {})
    except janus.PrologError as error:
        if runtime().interrupted(error):
            raise KeyboardInterrupt from None
        raise


def load_seed(janus, seed: int, document: Path = SEED_DOC) -> None:
    """Consult the seed's guesser, read from its report, and seed Prolog's random generator."""
    with tempfile.NamedTemporaryFile("w", suffix=".pl", encoding="utf-8", delete=False) as file:
        file.write(seed_program(document))
    try:
        query_once(janus, "load_files(F, [])", {"F": file.name})
    finally:
        Path(file.name).unlink()
    query_once(janus, "set_random(seed(S))", {"S": seed})


def play_seed(janus, secret: tuple[int, ...]) -> tuple[int, float]:
    """One game of the seed's guesser; attempts and seconds."""
    start = time.perf_counter()
    query_once(janus, f"retractall({SEED_MODULE}:guess(_, _)), retractall({SEED_MODULE}:parametres(_, _, _)),"
               f" assertz({SEED_MODULE}:parametres(P, K, non))",
               {"P": RULES.pegs, "K": RULES.colors})
    attempts = 0
    while True:
        guess = query_once(janus, f"{SEED_MODULE}:bulls_and_cows(G)")["G"]
        if not isinstance(guess, list):  # the seed's "no solution" message
            raise RuntimeError(f"seed 003 found no code for secret {secret}: {guess}")
        attempts += 1
        black, white = feedback(tuple(guess), secret)
        if black == RULES.pegs:
            return attempts, time.perf_counter() - start
        query_once(janus, f"assertz({SEED_MODULE}:guess(G, [B, W]))", {"G": guess, "B": black, "W": white})


def run_client(client: Path, games: int, seed: int, timeout: float = 120.0) -> str:
    """Run the report's client ``games`` times in ``swipl`` (Prolog's random seeded); what it printed."""
    swipl = find_swipl()
    if swipl is None:
        raise BackendUnavailable(NO_SWIPL)
    command = [swipl, "-q", "-g", f"set_random(seed({seed}))", "-g", f"forall(between(1,{games},_), client_mastermind)",
               "-g", "halt", "-t", "halt(1)", client.name]
    done = subprocess.run(command, cwd=client.parent, capture_output=True, timeout=timeout,
                          env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    if done.returncode != 0 or err.strip():
        raise RuntimeError(f"the report's client exited {done.returncode}: {err.strip() or out[-500:]}")
    return out


def client_games(output: str) -> list[list[tuple[str, int, int]]]:
    """The games in the client's output: each a list of ``(guess, bulls, cows)``, checked to follow
    the client's lines (its rules line, numbered guesses, its win line after the last)."""
    games: list[list[tuple[str, int, int]]] = []
    won = True
    for line in output.splitlines():
        if CLIENT_RULES_LINE.fullmatch(line):
            if not won:
                raise ValueError(f"a game ended without {CLIENT_WIN_LINE!r}")
            games.append([])
            won = False
        elif (match := CLIENT_GUESS_LINE.fullmatch(line)) and games and not won:
            if int(match[1]) != len(games[-1]) + 1:
                raise ValueError(f"guess {match[1]} follows guess {len(games[-1])}: {line!r}")
            games[-1].append((match[2], int(match[3]), int(match[4])))
        elif line == CLIENT_WIN_LINE and games and games[-1] and not won:
            won = True
        else:
            raise ValueError(f"unexpected line from the client: {line!r}")
    if not won:
        raise ValueError(f"the last game ended without {CLIENT_WIN_LINE!r}")
    return games


def play_client(games: int, seed: int = 1, document: Path = SEED_DOC,
                timeout: float = 120.0) -> tuple[list[list[tuple[str, int, int]]], str, int]:
    """The report's client against ``mmlogic serve --tcp-port`` for ``games`` games.

    Returns the games (:func:`client_games`), the client's output, and the
    server's exit status (it is stopped as Ctrl-C does).
    """
    options = ("--pegs", str(RULES.pegs), "--colors", str(RULES.colors), "--no-repeat")
    with tempfile.TemporaryDirectory(prefix="seed003-client-") as folder, ServerProcess(*options, tcp=True) as server:
        client = write_client(Path(folder), server.tcp_port, document)
        output = run_client(client, games, seed, timeout)
    return client_games(output), output, server.process.returncode


def letters_code(guess: str) -> tuple[int, ...]:
    """``abcde`` as colours (0, 1, 2, 3, 4)."""
    return tuple(ord(letter) - ord("a") for letter in guess)


def summary(name: str, attempts: list[int], seconds: list[float]) -> tuple[float, float]:
    games = len(attempts)
    mean = sum(attempts) / games
    ms = 1000 * sum(seconds) / games
    histogram = " ".join(f"{k}:{v}" for k, v in sorted(Counter(attempts).items()))
    print(f"{name:<22} {games:>6} {mean:>13.3f} {max(attempts):>4} {ms:>11.2f}   {histogram}")
    return mean, ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=count, default=200, help="number of secrets (default 200)")
    parser.add_argument("--seed", type=natural, default=1, help="seed of the secrets and of the seed's opening")
    parser.add_argument("--all", action="store_true", help="play every secret once instead")
    parser.add_argument("--seed-doc", type=Path, default=SEED_DOC, help=f"seed 003's report (default {SEED_DOC})")
    parser.add_argument("--client", type=count, metavar="N", default=None,
                        help="instead: play N games of the report's own client against mmlogic serve --tcp-port")
    args = parser.parse_args()
    try:
        seed_program(args.seed_doc)
        if args.client is not None:
            client_program(5000, args.seed_doc)
            stats_program(args.seed_doc)
    except MissingReport as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    if args.client is not None:
        if find_swipl() is None:  # checked before the server starts
            raise BackendUnavailable(NO_SWIPL)
        main_client(args.client, args.seed, args.seed_doc)
        return
    # Without SWI-Prolog or janus: one line saying how to install them, before any line is printed.
    # The runtime (the engine's too) tells Ctrl-C from Prolog's errors in the script's own questions.
    janus = runtime().janus

    if args.all:
        secrets = [code_space(RULES).code(i) for i in range(RULES.size)]
        what = f"all {len(secrets)} secrets"
    else:
        secrets = random_secrets(RULES, args.games, args.seed)
        what = f"{args.games} random secrets (seed {args.seed})"
    print(f"SWI-Prolog: {find_swipl()}; rules: {RULES.describe()}; {what}")
    load_seed(janus, args.seed, args.seed_doc)
    engine = SwiplEngine(RULES)
    strategy = make_strategy("first", RULES)
    play(engine, strategy, secrets[0])  # warm up: the template secret is posted once per process

    seed_runs = [play_seed(janus, secret) for secret in secrets]
    ours = [play(engine, strategy, secret) for secret in secrets]

    print(f"{'program':<22} {'games':>6} {'mean attempts':>13} {'max':>4} {'ms per game':>11}   histogram")
    seed_mean, seed_ms = summary("seed 003 (CLP(FD), ff)", [a for a, _ in seed_runs], [s for _, s in seed_runs])
    our_mean, our_ms = summary("mmlogic swipl first", [r.attempts for r in ours], [r.seconds for r in ours])
    ratio = seed_ms / our_ms
    fast = ratio >= GOAL_SPEEDUP
    short = our_mean <= seed_mean
    print(f"per-game time ratio (seed / mmlogic): {ratio:.1f}x "
          f"({'meets' if fast else 'MISSES'} the goal of {GOAL_SPEEDUP:g}x); "
          f"mean attempts {our_mean:.3f} vs {seed_mean:.3f} "
          f"({'no more' if short else 'MORE'} than the seed)")


def main_client(games: int, seed: int, document: Path) -> None:
    """Play the report's client against mmlogic serve and check every answer it printed."""
    print(f"SWI-Prolog: {find_swipl()}; the report's {CLIENT_FILE} against mmlogic serve --tcp-port "
          f"({RULES.describe()}), {games} games (Prolog seed {seed})")
    started = time.perf_counter()
    played, _, status = play_client(games, seed, document, timeout=60 + 5 * games)
    seconds = time.perf_counter() - started
    for game in played:
        secret = letters_code(game[-1][0])
        wrong = [g for g, b, c in game if feedback(letters_code(g), secret) != (b, c)]
        if wrong:
            raise SystemExit(f"error: the server's answers to {wrong} disagree with the secret {game[-1][0]}")
    attempts = [len(game) for game in played]
    histogram = " ".join(f"{k}:{v}" for k, v in sorted(Counter(attempts).items()))
    print(f"{len(played)} games won, mean {sum(attempts) / len(attempts):.3f} attempts, max {max(attempts)}, "
          f"{1000 * seconds / len(played):.0f} ms per game (start-up included); histogram {histogram}; "
          f"every answer agrees with the feedback rule; server exit status {status}")


if __name__ == "__main__":
    run(main)
