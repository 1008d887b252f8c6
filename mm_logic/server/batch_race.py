"""Batch races on the server: ``POST /api/races`` with ``games`` (seed 000's race window).

Every entrant plays the same batch of ``games`` secrets, each in a worker process of its own
(:class:`~mm_logic.studies.batch_race.BatchRace`): the solvers hold the GIL (clingo, SWI-Prolog and the
reference engine's numba kernels do not release it), so entrants in threads of the server would take
turns on one core instead of racing, and would stall the server's other requests. A thread of the
server per race reads the workers' messages as they come, so ``GET /api/races/{id}`` answers at once
with each entrant's games done, running mean, seconds, whether it finished, and the finishing order.
The batch's secrets are in the state only once the race is over.

Such a race is kept in the store as the single-secret races are (the same cap and idle expiry; a race
forgotten stops its workers), and at most :data:`MAX_RUNNING` run at once: each holds a process per
entrant.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..notation import format_code
from ..secret_codes import game_secrets
from ..studies.batch_race import BatchRace, batch_secrets
from ..support.errors import BackendUnavailable, BadInput
from .race import race_request
from .store import Conflict, TooManyGames
from .variant import Variant, rules_json

#: The largest batch a request may ask for.
MAX_BATCH = 1000
#: Batch races running at once (each is a process per entrant, 100-300 MB each).
MAX_RUNNING = 2
#: Seconds the following thread waits for the workers' messages at a time.
FOLLOW_EVERY = 0.1


@dataclass
class HostedBatchRace:
    """A batch race in the store: its id, lock and last use, and the thread that follows its workers."""

    id: str
    race: BatchRace
    seed: int | None
    #: The variant the race plays (``rules.variant``), None for the built-in rules.
    variant: Variant | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_used: float = field(default_factory=time.monotonic)
    _closed: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    @property
    def over(self) -> bool:
        """Every entrant has finished the batch or stopped (the store may then forget it first)."""
        return self.race.over

    def start(self) -> None:
        """Start the thread that starts the workers and reads their messages until the race is over."""
        self._thread = threading.Thread(target=self._follow, name=f"mmlogic-race-{self.id}", daemon=True)
        self._thread.start()

    def _follow(self) -> None:
        try:
            # Started from this thread, which lives as long as the race: a worker ends when the thread that
            # started it does (processes.die_with_parent), and a request's thread may end before the race.
            self.race.start()
            while not self._closed.is_set() and not self.race.over:
                self.race.poll(FOLLOW_EVERY)
        finally:
            self.race.stop()  # the workers have ended (or are ended): their processes are joined

    def state(self) -> dict:
        """What anyone may know of the race: every entrant's standing; the secrets once it is over."""
        state = self.race.state()
        rules = self.race.rules
        state.pop("rules")
        state = {"id": self.id, "rules": rules_json(rules, self.variant), "alphabet": rules.alphabet[: rules.colors],
                 "seed": self.seed, **state}
        if state["over"]:
            state["secrets"] = [format_code(secret, rules) for secret in self.race.secrets]
        return state

    def close(self) -> None:
        """Stop the workers (a race forgotten, the server stopping)."""
        self._closed.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        self.race.stop()


def new_batch_race(request: dict, time_limit: float | None, running: Callable[[], int],
                   variants: tuple[Variant, ...] = ()):
    """Check a batch race request; returns a function starting the race under an id, called once there is room.

    ``request``: ``rules``, ``entrants`` (1 to 8 ``{"backend", "strategy"}``), ``games`` (1 to
    :data:`MAX_BATCH`), optional ``seed`` (the batch's secrets, drawn as ``mmlogic bench --games N --seed S``
    draws them, and the strategies'; a variant's, among the codes it admits), ``first_guess``. ``running()``: how
    many batch races run now; ``variants``: those the server serves, which ``rules.variant`` may name.
    """
    if isinstance(request, dict) and "secret" in request:
        raise BadInput("secret is for a race on one secret; a batch race draws its games' secrets (see seed)")
    rules, seed, players, _, variant = race_request(
        request, time_limit, frozenset({"rules", "entrants", "games", "seed", "first_guess"}), variants)
    games = request.get("games")
    if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= MAX_BATCH:
        raise BadInput(f"games must be an integer from 1 to {MAX_BATCH}")

    def build(key: str) -> HostedBatchRace:
        if running() >= MAX_RUNNING:
            raise TooManyGames(f"the server runs its maximum of {MAX_RUNNING} batch races; try again when one ends")
        secrets = batch_secrets(rules, games, seed) if variant is None else None
        for number, player in enumerate(players, 1):
            try:
                engine = player.engine()  # a space it refuses, a solver not installed: said now, not in the worker
            except (BadInput, BackendUnavailable) as error:
                raise type(error)(f"entrant {number}: {error}") from None
            try:
                if secrets is None:  # a variant's: among the codes it admits, as the first engine lists them
                    secrets = game_secrets(engine, games, seed)
            finally:
                engine.close()
        hosted = HostedBatchRace(key, BatchRace(rules, players, secrets), seed, variant)
        hosted.start()
        return hosted

    return build


def refuse_step(hosted: HostedBatchRace) -> dict:
    """A batch race plays by itself: there is no step to ask for (409)."""
    raise Conflict(f"race {hosted.id} is a batch race: its entrants play by themselves; GET its state")
