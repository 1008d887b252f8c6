"""Batch races (seed 000's race window): entrants play the same batch of secrets at once, each in its own
worker process, and the first to finish the batch wins.

Seed 000's report put each of its three strategies in a thread of its own, to watch live which one
solves the batch of codes fastest. Here each entrant, a :class:`~mm_logic.player.Player` (backend and
strategy), plays every secret of the batch, in order, in a worker process of its own: the solvers hold
the GIL (clingo, SWI-Prolog and numba's kernels do not release it), so threads would take turns on one
core instead of racing. Every worker builds its engine and strategy and warms them up (what a process
loads on first use is start-up, as :func:`~mm_logic.studies.bench.warm_up` says), then waits: the race
starts when every worker is ready, so nobody's clock counts another's start-up. Each game is played as a
bench plays it (:func:`~mm_logic.studies.bench.play_games`), so an entrant's totals are those of
``mmlogic bench`` with the same strategy on the same secrets.

A worker sends a message per game; :meth:`BatchRace.poll` reads them into each entrant's
:class:`Standing` (games done, running mean, seconds), and records the finishing order. A worker
ignores Ctrl-C (the process that started it stops it, :meth:`BatchRace.stop`) and ends with it.
Nothing here prints: the command line (``compare --race``) and the server (``POST /api/races`` with
``games``) show the standings each their own way.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading
import time
from dataclasses import dataclass, field

from ..notation import Code
from ..player import Player
from ..rules import Rules
from ..secret_codes import every_secret, random_secrets
from ..support.errors import MMLogicError
from ..support.interrupts import interrupts_held
from ..support.processes import portable, start_worker
from .bench import BenchResult, play_games, warm_up

#: How many entrants a race may have: each is a process of 100-300 MB.
MAX_RACERS = 8


@dataclass
class Standing:
    """One entrant's race so far, as the process that started it knows it."""

    backend: str
    strategy: str
    #: Games played (won or failed), games won and their guesses.
    games: int = 0
    won: int = 0
    total_guesses: int = 0
    #: Seconds from the start of the race to the end of the batch (set when it is finished), and the
    #: worker's CPU seconds over the batch.
    seconds: float | None = None
    cpu_seconds: float | None = None
    #: Ready: the worker has built and warmed up its engine and strategy.
    ready: bool = False
    finished: bool = False
    #: Why the entrant stopped before the end of the batch (an engine's error, a worker gone); None otherwise.
    stopped: str | None = None
    #: The finished batch, as a bench gives it.
    result: BenchResult | None = None

    @property
    def running(self) -> bool:
        """Still playing its batch (or getting ready to)."""
        return not self.finished and self.stopped is None

    @property
    def failed(self) -> int:
        """Games the strategy gave up (a genetic strategy at its time limit)."""
        return self.games - self.won

    @property
    def mean(self) -> float | None:
        """The running mean of the guesses of the games won; None before the first."""
        return round(self.total_guesses / self.won, 4) if self.won else None


def _race_worker(number: int, player: Player, secrets: list[Code], messages, go, parent: int) -> None:
    """A worker: build and warm up, say so, wait for the start, then play the batch, a message per game.

    Messages: ``("ready", number)``, ``("game", number, attempts)`` (None for a game given up),
    ``("done", number, result, finish, cpu_seconds)`` (``finish``: ``time.monotonic()``) and
    ``("error", number, message)``.
    """
    start_worker(parent)
    try:
        warm_up(player.backend, player.strategy.name, player.rules.max_repeat)
        engine, strategy = player.build()
    except Exception as error:  # noqa: BLE001 - the entrant stops with its one line; the others race on
        messages.put(("error", number, _one_line(error)))
        return
    try:
        messages.put(("ready", number))
        go.wait()
        start, cpu = time.perf_counter(), time.process_time()
        result = BenchResult(engine.rules, engine.name, strategy.name)
        for secret in secrets:
            game = play_games(engine, strategy, [secret])  # as a bench plays it
            result.merge(game)
            messages.put(("game", number, game.games_played[0][1] if game.games_played else None))
        result.seconds = time.perf_counter() - start
        # CLOCK_MONOTONIC is the machine's, not the process's: the parent reads the finish on its own clock.
        messages.put(("done", number, result, time.monotonic(), time.process_time() - cpu))
    except Exception as error:  # noqa: BLE001 - as above
        messages.put(("error", number, _one_line(error)))
    finally:
        engine.close()


def _one_line(error: BaseException) -> str:
    """An error as the entrant's reason to stop: an MMLogicError's message, any other's type too."""
    error = portable(error)
    return str(error) if isinstance(error, MMLogicError) else f"{type(error).__name__}: {error}"


@dataclass
class BatchRace:
    """Entrants racing over ``secrets``, each in its worker process once :meth:`start` is called.

    Examples
    --------
    >>> from mm_logic.secret_codes import random_secrets
    >>> rules = Rules(3, 4)
    >>> race = BatchRace(rules, [Player(rules, "python", s, seed=1) for s in ("first", "minimax")],
    ...                  random_secrets(rules, 5, seed=1))
    >>> race.run()  # totals as `mmlogic bench --backend python --strategy S --pegs 3 --colors 4 --games 5 --seed 1`
    >>> [(s.strategy, s.games, s.total_guesses) for s in race.standings]
    [('first', 5, 20), ('minimax', 5, 17)]
    """

    rules: Rules
    players: list[Player]
    secrets: list[Code]
    standings: list[Standing] = field(init=False)
    #: Entrant numbers (from 0) in the order they finished the batch.
    order: list[int] = field(init=False, default_factory=list)
    #: When every worker was ready (time.monotonic()); None before.
    started: float | None = field(init=False, default=None)
    _processes: list = field(init=False, default_factory=list, repr=False)
    _messages: object = field(init=False, default=None, repr=False)
    _go: object = field(init=False, default=None, repr=False)
    # Standings change in the thread that polls and are read in others (the server's requests).
    _lock: threading.Lock = field(init=False, default_factory=threading.Lock, repr=False)

    def __post_init__(self):
        if not 1 <= len(self.players) <= MAX_RACERS:
            raise ValueError(f"a race has 1 to {MAX_RACERS} entrants")
        self.standings = [Standing(p.backend, p.strategy.name) for p in self.players]

    @property
    def size(self) -> int:
        """Games in the batch."""
        return len(self.secrets)

    @property
    def over(self) -> bool:
        """Every entrant has finished the batch or stopped."""
        return not any(s.running for s in self.standings)

    def start(self) -> None:
        """Start a worker process per entrant (each is its own: the race is about running at once, so
        not capped at the cores); they start racing once all are ready."""
        context = multiprocessing.get_context("spawn")  # solvers embedded in this process must not be forked
        self._messages, self._go = context.Queue(), context.Event()
        # A worker stopped in the middle of its start-up data printed a traceback: Ctrl-C waits for the starts.
        with interrupts_held():
            for number, player in enumerate(self.players):
                process = context.Process(target=_race_worker, name=f"mmlogic-race-{number}", daemon=True,
                                          args=(number, player, self.secrets, self._messages, self._go, os.getpid()))
                process.start()
                self._processes.append(process)

    def poll(self, timeout: float = 0.1) -> bool:
        """Read the workers' messages, waiting up to ``timeout`` seconds for the first; whether any came.

        A worker gone without a word (killed, out of memory) stops its entrant.
        """
        # The workers ended before the messages are read: a worker's last messages are in the pipe before it
        # ends, so any it sent are read below, and one still running after them ended without a word.
        ended = [(number, process.exitcode) for number, process in enumerate(self._processes)
                 if process.exitcode is not None]
        try:
            received = [self._messages.get(timeout=timeout)]
        except queue.Empty:
            received = []
        while True:
            try:
                received.append(self._messages.get_nowait())
            except queue.Empty:
                break
        with self._lock:
            for message in received:
                self._apply(message)
            for number, code in ended:
                if self.standings[number].running:
                    self.standings[number].stopped = f"its worker process ended unexpectedly (exit code {code})"
            self._start_when_ready()
        return bool(received)

    def _apply(self, message: tuple) -> None:
        kind, number, *rest = message
        standing = self.standings[number]
        if kind == "ready":
            standing.ready = True
        elif kind == "game":
            standing.games += 1
            if rest[0] is not None:
                standing.won += 1
                standing.total_guesses += rest[0]
        elif kind == "done":
            standing.result, finish, standing.cpu_seconds = rest
            standing.seconds = max(finish - self.started, 0.0)
            standing.finished = True
            # Messages of two workers may cross: the order is by the finishes themselves.
            self.order.append(number)
            self.order.sort(key=lambda n: self.standings[n].seconds)
        elif kind == "error":
            standing.stopped = rest[0]
            standing.seconds = self.since_start()  # its clock stops with it

    def _start_when_ready(self) -> None:
        """Set the workers off once every entrant still in the race is ready."""
        if self.started is None and all(s.ready or s.stopped for s in self.standings):
            self.started = time.monotonic()
            self._go.set()

    def run(self, every: float = 0.1, on_poll=None) -> None:
        """Start and play the race to its end, calling ``on_poll()`` after each look (about every ``every``
        seconds); Ctrl-C stops the workers (:meth:`stop`) and is raised again."""
        self.start()
        try:
            while not self.over:
                self.poll(every)
                if on_poll is not None:
                    on_poll()
        finally:
            self.stop()

    def since_start(self) -> float:
        """Seconds since the race started (0 while the workers get ready)."""
        return 0.0 if self.started is None else time.monotonic() - self.started

    def elapsed(self, standing: Standing) -> float:
        """Seconds of ``standing``'s race: its batch's time once finished, else the time since the start."""
        return standing.seconds if standing.seconds is not None else self.since_start()

    def place(self, number: int) -> int | None:
        """Where entrant ``number`` finished (1 first), None before it did."""
        return self.order.index(number) + 1 if number in self.order else None

    def entrant_state(self, number: int) -> dict:
        """One entrant's standing as JSON: games done, running mean, seconds, finished or why stopped."""
        s = self.standings[number]
        state = {"backend": s.backend, "strategy": s.strategy, "games": s.games, "failed": s.failed,
                 "total_guesses": s.total_guesses, "mean": s.mean, "seconds": round(self.elapsed(s), 3),
                 "finished": s.finished, "stopped": s.stopped, "place": self.place(number)}
        if s.result is not None:
            state.update(max=s.result.max, histogram=s.result.figures()["histogram"],
                         cpu_seconds=round(s.cpu_seconds, 3))
        return state

    def state(self) -> dict:
        """Every entrant's standing (:meth:`entrant_state`), the finishing order so far, started and over."""
        with self._lock:
            return {"rules": self.rules.as_dict(), "games": self.size, "started": self.started is not None,
                    "entrants": [self.entrant_state(n) for n in range(len(self.standings))],
                    "order": list(self.order), "over": self.over}

    def stop(self) -> None:
        """End the workers still running and release the queue (safe to call more than once)."""
        for process in self._processes:
            if process.is_alive():
                process.terminate()
        for process in self._processes:
            process.join()
        if self._messages is not None:
            self._messages.close()
            self._messages.cancel_join_thread()  # what a terminated worker left unread is not waited for
        self._processes = []
        with self._lock:
            for standing in self.standings:
                if standing.running:
                    standing.stopped = "the race was stopped"
                    standing.seconds = self.since_start()


def batch_secrets(rules: Rules, games: int | None, seed: int | None) -> list[Code]:
    """A race's batch: ``games`` random secrets drawn as ``compare`` and ``bench`` draw them (the same
    ``seed``, the same secrets), or every secret of the rules in order (``games`` None)."""
    return every_secret(rules) if games is None else random_secrets(rules, games, seed)
