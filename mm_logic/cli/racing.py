"""``compare --race``: the compared entrants race over one batch of secrets, each in its own worker process.

The race itself is :class:`~mm_logic.studies.batch_race.BatchRace`; this module checks the options that
apply, draws the standings on a terminal as the race goes (stderr, redrawn in place: games done of
the batch, a bar, the running mean, the seconds), and prints the finishing order at the end (or
``--json``'s object). Without a terminal nothing is drawn while the race runs: logs get the final
table alone.
"""

from __future__ import annotations

import json
import shutil
import sys
import time

import click

from ..notation import plural
from ..player import Player
from ..studies.batch_race import MAX_RACERS, BatchRace, batch_secrets
from ..studies.compare import ComparePlan
from ..support.errors import BadInput
from ..support.interrupts import interrupted_code
from ..terminal.progress import clock, interactive

#: Seconds between two redraws of the standings on a terminal.
REDRAW_EVERY = 0.2
#: Characters of an entrant's bar.
BAR = 20


def check_race_options(preset, csv_file, plot_dir, jobs_typed: bool, encoding) -> None:
    """Refuse, in one line, the options of ``compare`` that a race does not take."""
    for given, option, why in ((preset, "--preset", "a race is of one rule set; give the rules options"),
                               (csv_file, "--csv", "a race's result is its table or --json"),
                               (plot_dir, "--plot", "a race's result is its table or --json"),
                               (jobs_typed, "--jobs", "each entrant is a worker process of its own"),
                               (encoding, "--encoding", "a race plays the rules' game")):
        if given:
            raise BadInput(f"--race does not take {option} ({why})")


def racers(plan: ComparePlan) -> tuple[list[Player], list]:
    """The entrants (every backend with every strategy) and the batch of a checked plan, refused in
    one line where the plan is not one race."""
    [study] = plan.studies  # no preset: one study
    if len(study.rule_sets) != 1:
        raise BadInput("--race races on one rule set: give one --feedback rule")
    [rules] = study.rule_sets
    players = [Player(rules, backend, strategy, plan.seed, time_limit=plan.time_limit)
               for backend in study.backends for strategy in study.strategies]
    if len(players) > MAX_RACERS:
        raise BadInput(f"--race takes at most {MAX_RACERS} entrants (backends x strategies), not {len(players)}")
    return players, batch_secrets(rules, None if study.every_secret(rules) else study.games, plan.seed)


def standing_line(race: BatchRace, number: int, width: int) -> str:
    """One entrant's line as the race goes: name, games done of the batch, bar, running mean, time."""
    s = race.standings[number]
    done = BAR * s.games // max(race.size, 1)
    mean = "-" if s.mean is None else f"{s.mean:.3f}"
    end = (f"  #{race.place(number)}" if s.finished else f"  stopped: {s.stopped}" if s.stopped else "")
    return (f"  {s.backend + ' ' + s.strategy:<{width}} {s.games:>{len(str(race.size))}}/{race.size} "
            f"[{'#' * done}{'.' * (BAR - done)}] mean {mean:>6} {race.elapsed(s):>8.3f} s{end}")


class Board:
    """The standings on a terminal's stderr, redrawn in place (a no-op without a terminal)."""

    def __init__(self, race: BatchRace, width: int):
        self.race, self.width = race, width
        self.enabled = interactive(sys.stderr)
        self.drawn = 0
        self.last = -REDRAW_EVERY

    def draw(self) -> None:
        """Draw the standings again, at most every :data:`REDRAW_EVERY` seconds (a game may end every
        millisecond: a redraw each would only flicker)."""
        now = time.monotonic()
        if not self.enabled or now - self.last < REDRAW_EVERY:
            return
        self.last = now
        lines = [f"racing: {clock(self.race.since_start())}" if self.race.started
                 else "racing: the workers are starting",
                 *(standing_line(self.race, n, self.width) for n in range(len(self.race.standings)))]
        # Back to the first line drawn, each line wiped and written again; each cut to one screen line
        # (a wrapped line would throw the count of lines to go back over).
        up = f"\033[{self.drawn}F" if self.drawn else ""
        columns = shutil.get_terminal_size().columns - 1
        sys.stderr.write(up + "".join(f"\033[K{line[:columns]}\n" for line in lines))
        sys.stderr.flush()
        self.drawn = len(lines)

    def wipe(self) -> None:
        """Wipe the standings: the final table replaces them."""
        if self.enabled and self.drawn:
            sys.stderr.write(f"\033[{self.drawn}F\033[J")
            sys.stderr.flush()
            self.drawn = 0


def race_dict(race: BatchRace, seed: int | None, complete: bool) -> dict:
    """``compare --race --json``'s object."""
    state = race.state()
    return {"rules": state["rules"], "games": race.size, "seed": seed, "entrants": state["entrants"],
            "order": state["order"], "complete": complete}


def race_table(race: BatchRace, width: int) -> str:
    """The final table: the entrants in finishing order (those stopped last), with their figures."""
    numbers = race.order + [n for n in range(len(race.standings)) if n not in race.order]
    lines = [f"race: {race.rules.describe()}, {plural(race.size, 'secret')}, "
             f"{plural(len(race.standings), 'entrant')}, each in its own worker process",
             f"  {'place':<5} {'entrant':<{width}} {'games':>7} {'failed':>6} {'mean':>6} {'max':>4} "
             f"{'seconds':>8} {'cpu s':>8}"]
    for number in numbers:
        s = race.standings[number]
        place = race.place(number)
        mean = "-" if s.mean is None else f"{s.mean:.3f}"
        most = "-" if s.result is None else str(s.result.max)
        cpu = "-" if s.cpu_seconds is None else f"{s.cpu_seconds:.3f}"
        lines.append(f"  {'-' if place is None else place:<5} {s.backend + ' ' + s.strategy:<{width}} "
                     f"{s.games:>7} {s.failed:>6} {mean:>6} {most:>4} {race.elapsed(s):>8.3f} {cpu:>8}"
                     + (f"  stopped: {s.stopped}" if s.stopped else ""))
    return "\n".join(lines)


def run_race(plan: ComparePlan, as_json: bool) -> int:
    """Race the plan's entrants over its batch, show it, and the exit code (1 when an entrant stopped on an
    error, the signal's on Ctrl-C)."""
    players, secrets = racers(plan)
    race = BatchRace(players[0].rules, players, secrets)
    width = max(len(f"{p.backend} {p.strategy.name}") for p in players)
    board = Board(race, width)
    complete = True
    try:
        race.run(REDRAW_EVERY, board.draw)
    except KeyboardInterrupt:
        complete = False
    board.wipe()
    if as_json:
        click.echo(json.dumps(race_dict(race, plan.seed, complete)))
    else:
        click.echo(race_table(race, width))
    if not complete:
        click.echo("interrupted: the race was stopped", err=True)
        return interrupted_code()
    stopped = [n + 1 for n, s in enumerate(race.standings) if s.stopped]
    if stopped:
        click.echo(f"error: entrant {', '.join(map(str, stopped))} stopped before the end of the batch", err=True)
        return 1
    return 0
