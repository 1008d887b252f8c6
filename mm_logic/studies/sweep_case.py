"""The cases of a sweep (:mod:`mm_logic.studies.sweep`): what one is, the grid's plan, and running one.

A :class:`Case` is one (rules, strategy, opening, backend) combination, and
running it (:func:`run_case`) is a bench over every secret
(:func:`mm_logic.studies.bench.bench_all`): its row has the attempts (games,
total, mean, max, histogram), the time and the peak memory of the case.
:func:`plan` builds and checks the cases of a grid before any of them runs.
"""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..codespace import MAX_CODES
from ..engines import check_feedback_rule
from ..feedback.variant import variant_of
from ..game import Game
from ..notation import Code, amount, format_code, parse_code, shown
from ..player import Player
from ..rules import MAX_COLORS, MAX_PEGS, Rules, rules_object
from ..strategies import make_strategy, parse_strategy
from ..strategies.base import SeededStrategy
from ..support.errors import BadInput, StrategyGaveUp
from ..support.memory import peak_memory
from ..symmetry import canonical_openings, game_symmetry
from .bench import bench_all, warm_up
from .written_game import encoding_secrets

#: The fields of a row that name its case (the key of a finished case in an output file).
CASE_FIELDS = ("rules", "strategy", "first_guess", "backend", "seed", "variant")
#: What a row has beyond its case, in order.
RESULT_FIELDS = ("opening", "games", "total_guesses", "mean", "max", "histogram", "seconds", "peak_rss_mb",
                 "start_rss_mb", "host")


@dataclass(frozen=True)
class Case:
    """One bench over every secret: rules, strategy, opening (None: the strategy's own), backend.

    ``seed`` is kept only for the strategies that use one (random, genetic);
    it is None for the others, whose rows do not depend on it. ``variant``: the
    files of a game as written (an edited encoding, a rule of one's own), each
    ``(part, path, sha256)`` as :func:`~mm_logic.feedback.variant.variant_of`
    finds them when the sweep is planned; a case process refuses to run when a
    file has changed since, and a rerun after an edit runs the cases again.
    """

    rules: Rules
    strategy: str
    first_guess: Code | None
    backend: str
    seed: int | None = None
    variant: tuple[tuple[str, str, str], ...] = ()

    def as_dict(self) -> dict:
        """The case's fields as a row writes them (codes in the contract's notation)."""
        return {"rules": self.rules.as_dict(), "strategy": self.strategy,
                "first_guess": None if self.first_guess is None else format_code(self.first_guess, self.rules),
                "backend": self.backend, "seed": self.seed, "variant": self.variant_dict()}

    def variant_dict(self) -> dict | None:
        """The ``variant`` of a row: ``{"encoding": {"file": PATH, "sha256": DIGEST}, "feedback": ...}``, or
        None for the rules' own game (the shape saved trees record)."""
        return {part: {"file": path, "sha256": digest} for part, path, digest in self.variant} or None

    @property
    def encoding(self) -> Path | None:
        """The edited encoding the case's engine reads, if any."""
        return next((Path(path) for part, path, _ in self.variant if part == "encoding"), None)

    @classmethod
    def from_dict(cls, data: dict) -> Case:
        """The case of a row (or of :meth:`as_dict`); rows written before every rules object named its
        feedback rule have none: the standard rule; rows written before sweeps played variants have no
        ``variant``: the rules' own game."""
        rules = Rules.from_dict(data["rules"])
        first = data["first_guess"]
        variant = data.get("variant") or {}
        if not isinstance(variant, dict) or not all(
                isinstance(v, dict) and isinstance(v.get("file"), str) and isinstance(v.get("sha256"), str)
                for v in variant.values()):
            raise BadInput('a case\'s "variant" is {PART: {"file": PATH, "sha256": DIGEST}} or null')
        return cls(rules, data["strategy"], None if first is None else parse_code(first, rules),
                   data["backend"], data["seed"], tuple((part, v["file"], v["sha256"]) for part, v in variant.items()))

    @property
    def key(self) -> str:
        return case_key(self.as_dict())

    def player(self) -> Player:
        """Who plays the case."""
        return Player(self.rules, self.backend, self.strategy, self.seed, self.first_guess, encoding=self.encoding)

    def check_files(self) -> None:
        """Refuse (one line) to run where a file of the variant is not the one the sweep planned with: edited
        since, or another file at that path on a Dask worker's machine."""
        found = variant_of(self.rules, self.encoding) or {}
        for part, path, digest in self.variant:
            if found.get(part, {}).get("sha256") != digest:
                raise BadInput(f"{path} is not the file this sweep was planned with (its sha256 was {digest[:12]}...): "
                               "edited since, or another file at that path on this machine; run the sweep again")

    def label(self) -> str:
        """``4x6 minimax 0011 python`` (``own opening`` when none is given; an encoding's name after the size)."""
        opening = self.as_dict()["first_guess"] or "own-opening"
        seed = f" seed {self.seed}" if self.seed is not None else ""
        encoding = f" encoding {self.encoding.name}" if self.encoding is not None else ""
        return f"{self.rules.describe()}{encoding} {self.strategy} {opening} {self.backend}{seed}"


def case_key(row: dict) -> str:
    """The key of the case a row (or a case's dict) belongs to: its rules by value, so that a row written
    before every rules object named its feedback rule is the standard rule's case it was (and one written
    before sweeps played variants, the rules' own game's)."""
    return json.dumps([rules_object(row[k]) if k == "rules" else row.get(k) for k in CASE_FIELDS], sort_keys=True)


SIZE = re.compile(r"([0-9]+)(?:-([0-9]+))?x([0-9]+)(?:-([0-9]+))?")


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """``--sizes``: comma-separated ``PEGSxCOLORS`` items, either side a number or a range ``A-B``.

    Examples
    --------
    >>> parse_sizes("4x2-4, 5x6,6-7x5")
    [(4, 2), (4, 3), (4, 4), (5, 6), (6, 5), (7, 5)]
    """
    sizes: list[tuple[int, int]] = []
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise BadInput(f"--sizes {shown(text)} names no size; write PEGSxCOLORS items, e.g. 4x6,4x2-10,5-6x6")
    for item in items:
        m = SIZE.fullmatch(item.lower())
        if not m:
            raise BadInput(f"--sizes: {shown(item)} is not PEGSxCOLORS (e.g. 4x6, 4x2-10, 5-6x6)")
        # A number with more digits than its bound is beyond it, said before int() reads it (int() refuses more
        # than 4,300 digits).
        for group, (kind, most) in zip(m.groups(), [("pegs", MAX_PEGS)] * 2 + [("colours", MAX_COLORS)] * 2):
            if group and len(group.lstrip("0")) > len(str(most)):
                raise BadInput(f"--sizes: {shown(item)}: {kind} must be between 1 and {most}")
        p1, p2, c1, c2 = (int(g) if g else None for g in m.groups())
        pegs, colors = range(p1, (p2 or p1) + 1), range(c1, (c2 or c1) + 1)
        if not pegs or not colors:
            raise BadInput(f"--sizes: {shown(item)} has an empty range")
        # Checked before the range is listed: 4x1-100000000 is refused at once.
        for kind, values, most in (("pegs", pegs, MAX_PEGS), ("colours", colors, MAX_COLORS)):
            if values[0] < 1 or values[-1] > most:
                raise BadInput(f"--sizes: {shown(item)}: {kind} must be between 1 and {most}")
        sizes += [(p, c) for p in pegs for c in colors]
    return list(dict.fromkeys(sizes))


def names(kind: str, choices: Iterable[str], text: str) -> list[str]:
    """A comma-separated list of names, each one of ``choices``, without repeats."""
    from .compare import names as listed
    return listed(kind, list(choices), text)


def uses_seed(strategy: str) -> bool:
    return issubclass(parse_strategy(strategy, files=False).cls, SeededStrategy)


def plan(sizes: list[tuple[int, int]], *, max_repeat: int | None, strategies: list[str],
         first_guesses: list[str], all_openings: bool, backends: list[str], seed: int | None,
         where: str = "--sizes", player: str = "a sweep", feedback: str = "standard",
         encoding: Path | None = None) -> list[Case]:
    """The cases of a grid, in order (size, strategy, opening, backend), all checked before any runs.

    ``first_guesses`` are codes each size must accept; none means each
    strategy's own opening; ``all_openings`` plays every canonical opening
    of each size (:func:`mm_logic.symmetry.canonical_openings`). ``where``
    starts the message of a size refused (the option that gave it), and
    ``player`` names the command that plays every secret. ``feedback``: the
    feedback rule of every size, a built-in one or a file stating a rule of
    one's own; ``encoding``: an edited encoding every case's engine reads. A
    case runs in a process of its own, which reads the files again: they are
    named by their absolute paths, and their digests are kept in the case
    (:meth:`Case.check_files`). With a variant, one engine per size and
    backend is built here first: a file the engine refuses is named before
    any case runs, and a rule stated in an encoding has its table derived once,
    in its cache, for every case.
    """
    if all_openings and first_guesses:
        raise BadInput("give --first-guess or --all-openings, not both")
    if feedback.endswith((".py", ".lp", ".pl")):
        feedback = str(Path(feedback).resolve())
    encoding = None if encoding is None else Path(encoding).resolve()
    cases: list[Case] = []
    for pegs, colors in sizes:
        try:
            rules = Rules(pegs, colors, max_repeat, feedback=feedback)
        except BadInput as error:
            raise BadInput(f"{where} {pegs}x{colors}: {error}" if where else f"{error}") from None
        if rules.size > MAX_CODES:
            told = f"{where}: " if where else ""
            raise BadInput(f"{told}{rules.describe()} has {amount(rules.size)} codes; {player} plays every secret, "
                           f"at most {MAX_CODES:,}")
        found = variant_of(rules, encoding)
        variant = tuple((part, v["file"], v["sha256"]) for part, v in (found or {}).items())
        for backend in backends:
            check_feedback_rule(backend, rules, encoding)  # an engine that does not play the rule, at once
            if variant:
                Player(rules, backend, encoding=encoding).engine().close()
        if all_openings:
            # Under a variant, the symmetries that keep its codes and its feedback (none assumed).
            symmetry = game_symmetry(rules, encoding_secrets(rules, encoding)) if variant else None
            openings: list[Code | None] = list(canonical_openings(rules, symmetry))
        elif first_guesses:
            openings = []
            for text in first_guesses:
                try:
                    openings.append(parse_code(text, rules))
                except BadInput as error:
                    raise BadInput(f"--first-guess {text} for {rules.describe()}: {error}") from None
        else:
            openings = [None]
        for strategy in strategies:
            make_strategy(strategy, rules)  # refuses a space too large for it, or the rule, at once
            for opening in dict.fromkeys(openings):
                for backend in backends:
                    cases.append(Case(rules, strategy, opening, backend, seed if uses_seed(strategy) else None,
                                      variant))
    return list(dict.fromkeys(cases))


# -- running one case -------------------------------------------------------------------
def rss_mb() -> float:
    """Peak resident set size of this process so far, in MB (:func:`mm_logic.support.memory.peak_memory`)."""
    return peak_memory()[0] / 2**20


def run_case(case: Case) -> dict:
    """Run one case in this process: its row.

    ``seconds`` is the wall time from building the engine to the last game
    (after :func:`warm_up`); ``peak_rss_mb`` is this process's peak so far,
    ``start_rss_mb`` the same just before the case: in a fresh process
    (:func:`~mm_logic.studies.sweep_processes.run_isolated`) the first is the case's peak, imports included.
    """
    case.check_files()
    warm_up(case.backend, case.strategy, case.rules.max_repeat)
    start_rss = rss_mb()
    start = time.perf_counter()
    player = case.player()
    engine, strategy = player.build()
    try:
        result = bench_all(engine, strategy)
        if result.failed:  # a sweep's row has no column for failed games: a case that has some fails whole
            raise StrategyGaveUp(f"{len(result.failed)} of {result.games} games failed: {result.failed[0][1]}")
        opening = case.first_guess or next((secret for secret, n in result.games_played if n == 1), None)
        if opening is None:
            # The opening is no code of the space (a probe such as 0000 under --no-repeat): ask again.
            with Game(engine, Player.of(engine, strategy).make_strategy()) as game:
                opening = game.suggest()
    finally:
        engine.close()
    seconds = time.perf_counter() - start
    figures = result.figures()
    return {**case.as_dict(), "opening": format_code(opening, case.rules),
            **{k: v for k, v in figures.items() if k != "seconds"}, "seconds": round(seconds, 3),
            "peak_rss_mb": round(rss_mb(), 1), "start_rss_mb": round(start_rss, 1), "host": socket.gethostname()}


