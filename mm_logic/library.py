"""mmlogic from Python: the stable names, each what one command does, returning the value the command prints.

Every function takes the game's :class:`~mm_logic.rules.Rules` (any feedback rule, a rule of one's own as a
``FILE.py``/``.lp``/``.pl``, lies), an edited encoding where the command takes ``--encoding``, and the command's
options as keyword arguments of the same names (``--first-guess`` is ``first_guess``). Codes are written as the
command line writes them (``"0123"``, in the rules' alphabet) or given as sequences of colour numbers; a history
is a list of entries written ``"GUESS:B,W"`` (or the rule's own feedback) or ``(guess, feedback)`` tuples
values. What is returned is the command's result object: its ``as_dict()`` is the command's ``--json`` and its
``text()`` (or ``summary()``) its printed lines. Bad input raises :class:`~mm_logic.support.errors.BadInput`
with the command's one-line message: every argument is checked here, at the library's boundary, as the command line
checks its options (the same ranges, ``mm_logic.support.limits``; a value of the wrong type is refused as a
typed one would be); a search stopped by Ctrl-C returns what it proved (``optimal``: a
:class:`~mm_logic.optimal.result.StoppedSearch`; ``static``: a result whose ``stopped`` says why).

The functions are named for the command they are, except where a module of the package has that name
(``optimal_strategy``, ``static_guesses``, ``split_codes``: ``mm_logic.optimal`` is the search's package, and an
attribute of the package cannot be both). These names are the library's promise (``import mm_logic;
mm_logic.solve(...)``); every other module of the package is internal and may change. docs/library.md walks through
them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from .engines import DEFAULT_BACKEND
from .game import Game, GameRecord, Suggestion
from .liar.optimal import LiesOptimum
from .notation import Code, Entry, code_of, entry_of, format_code
from .optimal.result import OptimalResult, StoppedSearch
from .player import Player
from .rules import Rules
from .split import Split
from .static.search import StaticResult
from .strategies import DEFAULT_STRATEGY
from .studies.bench import BenchResult
from .studies.compare import Comparison
from .studies.puzzle import Puzzle
from .studies.puzzle_sets import Grading
from .support.errors import BadInput
from .support.limits import MAX_COUNT, MAX_ENTRIES, MAX_GAMES, MAX_GUESSES, MAX_TRIES, given, seconds, whole

#: A code as the library takes it: written as the command line writes it, or colour numbers.
CodeLike = str | Sequence[int]
#: A history entry as the library takes it: ``"0011:1,0"`` or an Entry.
EntryLike = str | Entry


def code(rules: Rules, written: CodeLike) -> Code:
    """The code ``written`` (``"0123"``, ``"a,b,c,d"``, or colour numbers) of ``rules``' game, checked as the
    command line checks it.

    >>> code(Rules(4, 6), "0123"), code(Rules(4, 6), [0, 1, 2, 3])
    ((0, 1, 2, 3), (0, 1, 2, 3))
    """
    return code_of(written, _rules(rules))


def history(rules: Rules, entries: Iterable[EntryLike]) -> list[Entry]:
    """The entries of a history (``"GUESS:B,W"`` each, or ``(guess, feedback)`` pairs, each written or as
    numbers), read and checked as ``next`` reads them."""
    return _entries(_rules(rules), entries)


# -- the checks at the boundary: each argument as the command line checks its option --------------------------
def _rules(rules) -> Rules:
    """The game's rules: :class:`Rules` (the default game when None)."""
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise BadInput(f"rules must be mm_logic.Rules(...), got {given(rules)}")
    return rules


def _entries(rules: Rules, entries, check_repeat: bool = True) -> list[Entry]:
    """A history: a list (any iterable) of entries, each read by :func:`~mm_logic.notation.entry_of`."""
    if isinstance(entries, (str, bytes)):  # its characters would be read as entries
        raise BadInput(f"history {given(entries)} is one text: give a list of entries, 'GUESS:B,W' each")
    try:
        items = list(entries)
    except TypeError:
        raise BadInput(f"history {given(entries)} is not a list of entries") from None
    return [entry_of(entry, rules, check_repeat=check_repeat) for entry in items]


def _name(value, option: str) -> str:
    """A name the command line takes as ``option`` (``--strategy``): a string."""
    if not isinstance(value, str):
        raise BadInput(f"{option} must be a name (a string), got {given(value)}")
    return value


def _names(value, option: str) -> str:
    """Names as the command line takes them, comma-separated (``"minimax,entropy"``), or a list of names."""
    if isinstance(value, str):
        return value
    try:
        items = list(value)
    except TypeError:
        raise BadInput(f"{option} must be names, comma-separated or a list, got {given(value)}") from None
    return ",".join(_name(item, option) for item in items)


def _optional(value, check, *args):
    """``check(value, *args)``, or None for None (an option not given)."""
    return None if value is None else check(value, *args)


def _path(value, option: str) -> Path | None:
    """A file the command line takes as ``option`` (``--encoding``): a path or None."""
    if value is None:
        return None
    if not isinstance(value, (str, Path)):
        raise BadInput(f"{option} must be a file's path, got {given(value)}")
    return Path(value)


def _function(value, what: str):
    """A function the caller gives (``on_turn``, ``progress``), or None."""
    if value is not None and not callable(value):
        raise BadInput(f"{what} must be a function, got {given(value)}")
    return value


def _player(rules: Rules | None, strategy: str, backend: str, seed: int | None, first_guess: CodeLike | None,
            encoding: str | Path | None, time_limit: float | None) -> Player:
    rules = _rules(rules)
    opening = None if first_guess is None else code_of(first_guess, rules)
    return Player(rules, _name(backend, "--backend"), _name(strategy, "--strategy"),
                  _optional(seed, whole, "--seed", 0), opening, _optional(time_limit, seconds, "--time-limit"),
                  _path(encoding, "--encoding"))


def new_game(rules: Rules | None = None, *, secret: CodeLike | None = None, history: Iterable[EntryLike] = (),
             strategy: str = DEFAULT_STRATEGY, backend: str = DEFAULT_BACKEND, seed: int | None = None,
             first_guess: CodeLike | None = None, encoding: str | Path | None = None,
             time_limit: float | None = None) -> Game:
    """A :class:`~mm_logic.game.Game` to drive step by step, as ``play`` and the web page do: ``suggest()``,
    ``record(guess, feedback)``, ``score(guess)`` (with a ``secret``), ``undo()``, ``remaining()``.

    Use it in a ``with`` block (or call ``close()``): it holds a solver's session.

    >>> with new_game(Rules(4, 6), secret="0123", backend="python", strategy="minimax") as game:
    ...     guess = game.suggest()
    ...     game.record(guess, game.score(guess))
    ...     game.history, game.remaining()
    ([((0, 0, 1, 1), (1, 1))], 208)
    """
    player = _player(rules, strategy, backend, seed, first_guess, encoding, time_limit)
    engine, built = player.build()
    try:
        chosen = None if secret is None else code_of(secret, player.rules)
        return Game(engine, built, secret=chosen, history=_entries(player.rules, history, not built.probes))
    except BaseException:
        engine.close()
        raise


def solve(rules: Rules | None = None, secret: CodeLike | None = None, *, strategy: str = DEFAULT_STRATEGY,
          backend: str = DEFAULT_BACKEND, seed: int | None = None, first_guess: CodeLike | None = None,
          encoding: str | Path | None = None, time_limit: float | None = None, liar: str | None = None,
          on_turn: Callable[[int, Entry], None] | None = None) -> GameRecord:
    """``mmlogic solve``: the computer plays against ``secret`` (random when None, drawn by ``seed``); returns
    the :class:`~mm_logic.game.GameRecord` (``secret``, ``guesses``, ``attempts``, ``seconds``). ``liar`` is ``--liar``
    (``"random"`` or the answers that lie, ``"2,5"``) with ``rules.lies``; ``on_turn(number, entry)`` is
    called after each guess.

    >>> solve(Rules(4, 6), "0123", strategy="minimax", backend="python", first_guess="0011").attempts
    3
    """
    from .game import play
    from .lies import parse_liar
    from .secret_codes import chosen_secret
    from .studies.bench import warm_up

    player = _player(rules, strategy, backend, seed, first_guess, encoding, time_limit)
    told = None if liar is None else parse_liar(_name(liar, "--liar"), player.rules, seed)
    _function(on_turn, "on_turn")
    engine, built = player.build()
    try:
        # Colour numbers are written as the command line writes them (an edited encoding's code is checked there).
        written = secret if secret is None or isinstance(secret, str) else format_code(code_of(secret, player.rules),
                                                                                      player.rules)
        chosen = chosen_secret(written, engine, seed)  # an edited encoding's code, or a random one
        warm_up(engine.name, built.name, player.rules.max_repeat)  # `seconds` leaves start-up out, as solve's
        return play(engine, built, chosen, on_turn=on_turn, liar=told)
    finally:
        engine.close()


def next_guess(history: Iterable[EntryLike] = (), rules: Rules | None = None, *,
               strategy: str = DEFAULT_STRATEGY, backend: str = DEFAULT_BACKEND, seed: int | None = None,
               first_guess: CodeLike | None = None, encoding: str | Path | None = None,
               time_limit: float | None = None) -> Suggestion:
    """``mmlogic next``: the strategy's next guess after a history, with the number of codes left (a
    :class:`~mm_logic.game.Suggestion`). Raises :class:`~mm_logic.support.errors.NoConsistentCode` (exit 3's
    error) when no code fits the history.

    >>> next_guess(["0011:1,0", "2345:0,2"], backend="python", strategy="minimax").as_dict()
    {'guess': '0223', 'consistent': 60}
    """
    from .game import advise

    player = _player(rules, strategy, backend, seed, first_guess, encoding, time_limit)
    engine, built = player.build()
    try:
        # A strategy that probes with one-colour codes (human1) may have played codes the rules' repetition forbids.
        return advise(engine, built, _entries(player.rules, history, not built.probes))
    finally:
        engine.close()


def split_codes(guess: CodeLike, history: Iterable[EntryLike] = (), rules: Rules | None = None, *,
                backend: str = DEFAULT_BACKEND, encoding: str | Path | None = None,
                time_limit: float | None = None) -> Split:
    """``mmlogic split``: how ``guess`` splits the codes still possible after a history (a
    :class:`~mm_logic.split.Split`: its parts by feedback, the largest, the expected size, the entropy)."""
    from .split import split_codes as split

    rules = _rules(rules)
    chosen, entries = code_of(guess, rules), _entries(rules, history)
    engine = _engine(rules, backend, encoding, time_limit)
    try:
        return split(engine, chosen, entries)
    finally:
        engine.close()


def bench(rules: Rules | None = None, *, strategy: str = DEFAULT_STRATEGY, backend: str = DEFAULT_BACKEND,
          games: int | None = None, seed: int | None = None, jobs: int = 1, first_guess: CodeLike | None = None,
          encoding: str | Path | None = None, time_limit: float | None = None, liar: str | None = None,
          progress: Callable[[int], None] | None = None) -> BenchResult:
    """``mmlogic bench``: one game per secret, every secret (``games`` None, ``--all``) or ``games`` random ones
    drawn by ``seed``; returns the :class:`~mm_logic.studies.bench.BenchResult` (``total_guesses``, ``mean``,
    ``max``, ``histogram``, ``by_secret()``). ``progress(n)`` is called as games end, with how many more did.

    >>> result = bench(Rules(4, 6), strategy="minimax", backend="python", first_guess="0011")
    >>> result.total_guesses, result.max
    (5801, 5)
    """
    from .lies import parse_liar
    from .secret_codes import bench_secrets
    from .studies.bench import LyingCodemaker, bench_all, bench_games, warm_up

    player = _player(rules, strategy, backend, seed, first_guess, encoding, time_limit)
    games, jobs = _optional(games, whole, "--games", 1, MAX_GAMES), whole(jobs, "--jobs", 1)
    _function(progress, "progress")
    codemaker = None if liar is None else LyingCodemaker(parse_liar(_name(liar, "--liar"), player.rules, seed))
    engine, built = player.build()
    try:
        secrets, every = bench_secrets(engine, games, None, seed)
        warm_up(engine.name, built.name, player.rules.max_repeat)  # `seconds` leaves start-up out, as bench's
        if secrets is None:
            return bench_all(engine, built, progress=progress, jobs=jobs, secrets=every, codemaker=codemaker)
        return bench_games(engine, built, secrets, progress=progress, jobs=jobs, codemaker=codemaker)
    finally:
        engine.close()


def compare(strategies: str | Sequence[str], rules: Rules | None = None, *,
            backends: str | Sequence[str] = (DEFAULT_BACKEND,), games: int | None = None, seed: int | None = None,
            jobs: int = 1, preset: str | None = None, progress: Callable[[int], None] | None = None) -> Comparison:
    """``mmlogic compare``: each strategy on each backend over the same secrets (every secret when ``games`` is
    None); with ``preset``, a preset's studies instead of ``rules`` (``mm_logic.studies.presets.PRESETS``).
    Returns the :class:`~mm_logic.studies.compare.Comparison` (its rows, the paired tests, disagreements).
    ``strategies`` and ``backends`` are lists of names, or comma-separated as the command line takes them."""
    from .studies.compare import ComparePlan
    from .studies.compare import compare as run

    plan = ComparePlan.make(preset=_optional(preset, _name, "--preset"), rules=_rules(rules), explicit_rules=[],
                            backends=_names(backends, "--backend"), strategies=_names(strategies, "--strategy"),
                            all_secrets=games is None and preset is None,
                            games=_optional(games, whole, "--games", 1, MAX_GAMES),
                            seed=_optional(seed, whole, "--seed", 0), jobs=whole(jobs, "--jobs", 1))
    _function(progress, "progress")
    return run(plan, progress=progress)


def optimal_strategy(rules: Rules | None = None, *, objective: str = "expected", max_depth: int | None = None,
                     jobs: int = 1, consistent_only: bool = False, journal: str | Path | None = None,
                     memory: int | None = None, encoding: str | Path | None = None,
                     progress: Callable[[str], None] | None = None) -> OptimalResult | StoppedSearch | LiesOptimum:
    """``mmlogic optimal``: an optimal strategy by exact search and its proof (an
    :class:`~mm_logic.optimal.result.OptimalResult`: its ``tree``; ``as_dict()`` with ``total_guesses``, ``max``,
    ``histogram``).
    ``objective`` is ``expected``, ``worst`` or ``worst-case``; ``journal`` a file a stopped search resumes
    from; ``progress(text)`` hears where the search is. Ctrl-C returns a
    :class:`~mm_logic.optimal.result.StoppedSearch` (its ``notes()``) instead. With ``rules.lies``, the least worst
    case against every liar (``optimal --lies``: a :class:`~mm_logic.liar.optimal.LiesOptimum`).

    >>> optimal_strategy(Rules(3, 3)).as_dict()["total_guesses"]
    73
    """
    from .optimal.objectives import optimal as search

    rules = _rules(rules)
    objective, max_depth = _name(objective, "--objective"), _optional(max_depth, whole, "--max-depth", 1)
    jobs, memory = whole(jobs, "--jobs", 1), _optional(memory, whole, "--memory", 1)
    journal, encoding, progress = _path(journal, "--journal"), _path(encoding, "--encoding"), \
        _function(progress, "progress")
    if rules.lies:
        from .liar.optimal import least_worst_case

        return least_worst_case(rules)
    return search(rules, objective, max_depth, jobs, progress=progress, consistent_only=consistent_only,
                  memory=memory, journal=journal, encoding=encoding)


def static_guesses(rules: Rules | None = None, *, guesses: int | None = None, time_limit: float | None = None,
                   local_seconds: float | None = None, seed: int = 0, exhaustive: bool = False,
                   encoding: str | Path | None = None, progress: Callable[[str], None] | None = None) -> StaticResult:
    """``mmlogic static``: the fewest guesses fixed in advance whose answers tell every code apart (a
    :class:`~mm_logic.static.search.StaticResult`); past ``time_limit`` or on Ctrl-C, what was proved (its
    ``stopped`` says which).

    >>> static_guesses(Rules(2, 5)).as_dict()["guesses"]
    ['01', '02', '14', '43']
    """
    from .static.search import StaticStopped, static_search

    rules, time_limit = _rules(rules), _optional(time_limit, seconds, "--time-limit")
    guesses, seed = _optional(guesses, whole, "--guesses", 1, MAX_GUESSES), whole(seed, "--seed", 0)
    local_seconds, progress = _optional(local_seconds, seconds, "--local-search"), _function(progress, "progress")
    try:
        return static_search(rules, time_limit, progress=progress, guesses=guesses, local_seconds=local_seconds,
                             seed=seed, exhaustive=exhaustive, encoding=_path(encoding, "--encoding"))
    except StaticStopped as stopped:
        return stopped.result


def puzzle(rules: Rules | None = None, *, entries: int, seed: int | None = None, backend: str = DEFAULT_BACKEND,
           encoding: str | Path | None = None, tries: int = 200, time_limit: float | None = None) -> Puzzle:
    """``mmlogic puzzle``: a history of ``entries`` entries with exactly one consistent code, every entry
    needed (a :class:`~mm_logic.studies.puzzle.Puzzle`: ``history``, ``secret``), the same for the same
    ``seed``.

    >>> puzzle(Rules(3, 4), entries=3, seed=7).as_dict()["history"]
    ['220:1,0', '130:2,0', '021:0,1']
    """
    from .studies.puzzle import draw_puzzle

    rules, entries = _rules(rules), whole(entries, "--entries", 1, MAX_ENTRIES)
    seed, tries = _optional(seed, whole, "--seed", 0), whole(tries, "--tries", 1, MAX_TRIES)
    engine = _engine(rules, backend, encoding, time_limit)
    try:
        return draw_puzzle(engine, entries, seed, tries)
    finally:
        engine.close()


def puzzle_set(rules: Rules | None = None, *, count: int, seed: int | None = None, entries: int | None = None,
               backend: str = DEFAULT_BACKEND, encoding: str | Path | None = None, tries: int = 200,
               time_limit: float | None = None) -> list[dict]:
    """``mmlogic puzzle --count N``: ``count`` distinct puzzles, each a set's line as a dict (``rules``,
    ``history``, ``secret``, ``prompt``, its own ``seed``, ``difficulty``), the same for the same ``seed``.

    >>> [p["difficulty"]["entries"] for p in puzzle_set(Rules(3, 4), count=4, seed=1, backend="python")]
    [2, 3, 4, 2]
    """
    from .studies.puzzle_sets import draw_set

    rules, count = _rules(rules), whole(count, "--count", 1, MAX_COUNT)
    entries, seed = _optional(entries, whole, "--entries", 1, MAX_ENTRIES), _optional(seed, whole, "--seed", 0)
    tries = whole(tries, "--tries", 1, MAX_TRIES)
    engine = _engine(rules, backend, encoding, time_limit)
    try:
        return list(draw_set(engine, count, seed, entries, tries))
    finally:
        engine.close()


def grade(puzzles: str | Path | Sequence[dict], answers: str | Path | Sequence[str | dict],
          feedback: str | None = None) -> Grading:
    """``mmlogic puzzle --grade``: the answers to a set's puzzles sorted right, consistent, inconsistent,
    malformed or missing (a ``Grading``: ``counts``, ``score``,
    ``as_dict()``). ``puzzles``: a set's file or its lines as dicts; ``answers``: a file of ``{"answer": CODE}``
    lines, or the answers as codes (or such dicts), in the puzzles' order. ``feedback``: the rule file of one's
    own a set was drawn under.

    >>> drawn = puzzle_set(Rules(3, 4), count=2, seed=1, backend="python")
    >>> grade(drawn, [drawn[0]["secret"], "000"]).as_dict()["answers"][1]
    {'puzzle': 2, 'verdict': 'inconsistent', 'answer': '000', 'why': 'it does not fit entry 1'}
    """
    import json

    from .studies.puzzle_sets import grade as graded
    from .support.files import read_named_text

    def text(values, what: str, file: str) -> tuple[Path, str]:
        if isinstance(values, (str, Path)):
            return Path(values), read_named_text(Path(values), file)
        try:
            items = list(values)
        except TypeError:
            raise BadInput(f"{what} must be a file's path or a list, got {given(values)}") from None
        lines = []
        for number, item in enumerate(items, 1):
            try:  # a value JSON has no form for (a set, an object) is refused as a line that is not JSON would be
                lines.append(json.dumps({"answer": item} if isinstance(item, str) else item, allow_nan=False))
            except (TypeError, ValueError, RecursionError):
                raise BadInput(f"{what} item {number} is not JSON: {given(item)}") from None
        return Path(f"<{what}>"), "\n".join(lines) + "\n"

    return graded(*text(puzzles, "puzzles", "puzzle set"), *text(answers, "answers", "answers file"),
                  _optional(feedback, _name, "--feedback"))


def _engine(rules: Rules, backend, encoding, time_limit):
    """The engine ``backend`` for ``rules`` (an edited ``encoding``, a ``time_limit``), its arguments checked."""
    from .engines import make_engine

    return make_engine(_name(backend, "--backend"), rules, encoding=_path(encoding, "--encoding"),
                       time_limit=_optional(time_limit, seconds, "--time-limit"))
