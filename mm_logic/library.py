"""mmlogic from Python: the stable names, each what one command does, returning the value the command prints.

Every function takes the game's :class:`~mm_logic.rules.Rules` (any feedback rule, a rule of one's own as a
``FILE.py``/``.lp``/``.pl``, lies), an edited encoding where the command takes ``--encoding``, and the command's
options as keyword arguments of the same names (``--first-guess`` is ``first_guess``). Codes are written as the
command line writes them (``"0123"``, in the rules' alphabet) or given as sequences of colour numbers; a history
is a list of entries written ``"GUESS:B,W"`` (or the rule's own feedback) or ``(guess, feedback)`` tuples
values. What is returned is the command's result object: its ``as_dict()`` is the command's ``--json`` and its
``text()`` (or ``summary()``) its printed lines. Bad input raises :class:`~mm_logic.support.errors.BadInput`
with the command's one-line message; a search stopped by Ctrl-C returns what it proved (``optimal``: a
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
from .notation import Code, Entry, parse_code, parse_entry
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
    return parse_code(written if isinstance(written, str) else _written(written), rules)


def _written(colours: Sequence[int]) -> str:
    """Colour numbers as the command line writes them (commas always read as numbers)."""
    return ",".join(str(int(colour)) for colour in colours)


def history(rules: Rules, entries: Iterable[EntryLike]) -> list[Entry]:
    """The entries of a history (``"GUESS:B,W"`` each, or Entry values), read as ``next`` reads them."""
    return [parse_entry(entry, rules) if isinstance(entry, str) else entry for entry in entries]


_entries = history  # the function, where a parameter of the same name is the entries given


def _player(rules: Rules | None, strategy: str, backend: str, seed: int | None, first_guess: CodeLike | None,
            encoding: str | Path | None, time_limit: float | None) -> Player:
    rules = rules or Rules()
    opening = None if first_guess is None else code(rules, first_guess)
    return Player(rules, backend, strategy, seed, opening, time_limit, None if encoding is None else Path(encoding))


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
        chosen = None if secret is None else code(player.rules, secret)
        return Game(engine, built, secret=chosen, history=_entries(player.rules, history))
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
    told = None if liar is None else parse_liar(liar, player.rules, seed)
    engine, built = player.build()
    try:
        written = secret if secret is None or isinstance(secret, str) else _written(secret)
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
        entries = [parse_entry(entry, player.rules, check_repeat=not built.probes) if isinstance(entry, str)
                   else entry for entry in history]
        return advise(engine, built, entries)
    finally:
        engine.close()


def split_codes(guess: CodeLike, history: Iterable[EntryLike] = (), rules: Rules | None = None, *,
                backend: str = DEFAULT_BACKEND, encoding: str | Path | None = None,
                time_limit: float | None = None) -> Split:
    """``mmlogic split``: how ``guess`` splits the codes still possible after a history (a
    :class:`~mm_logic.split.Split`: its parts by feedback, the largest, the expected size, the entropy)."""
    from .engines import make_engine
    from .split import split_codes as split

    rules = rules or Rules()
    engine = make_engine(backend, rules, encoding=None if encoding is None else Path(encoding), time_limit=time_limit)
    try:
        return split(engine, code(rules, guess), _entries(rules, history))
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
    codemaker = None if liar is None else LyingCodemaker(parse_liar(liar, player.rules, seed))
    engine, built = player.build()
    try:
        secrets, every = bench_secrets(engine, games, None, seed)
        warm_up(engine.name, built.name, player.rules.max_repeat)  # `seconds` leaves start-up out, as bench's
        if secrets is None:
            return bench_all(engine, built, progress=progress, jobs=jobs, secrets=every, codemaker=codemaker)
        return bench_games(engine, built, secrets, progress=progress, jobs=jobs, codemaker=codemaker)
    finally:
        engine.close()


def compare(strategies: Sequence[str], rules: Rules | None = None, *, backends: Sequence[str] = (DEFAULT_BACKEND,),
            games: int | None = None, seed: int | None = None, jobs: int = 1, preset: str | None = None,
            progress: Callable[[int], None] | None = None) -> Comparison:
    """``mmlogic compare``: each strategy on each backend over the same secrets (every secret when ``games`` is
    None); with ``preset``, a preset's studies instead of ``rules`` (``mm_logic.studies.presets.PRESETS``).
    Returns the :class:`~mm_logic.studies.compare.Comparison` (its rows, the paired tests, disagreements)."""
    from .studies.compare import ComparePlan
    from .studies.compare import compare as run

    plan = ComparePlan.make(preset=preset, rules=rules or Rules(), explicit_rules=[], backends=",".join(backends),
                            strategies=",".join(strategies), all_secrets=games is None and preset is None,
                            games=games, seed=seed, jobs=jobs)
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

    rules = rules or Rules()
    if rules.lies:
        from .liar.optimal import least_worst_case

        return least_worst_case(rules)
    return search(rules, objective, max_depth, jobs, progress=progress, consistent_only=consistent_only,
                  memory=memory, journal=None if journal is None else Path(journal),
                  encoding=None if encoding is None else Path(encoding))


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

    try:
        return static_search(rules or Rules(), time_limit, progress=progress, guesses=guesses,
                             local_seconds=local_seconds, seed=seed, exhaustive=exhaustive,
                             encoding=None if encoding is None else Path(encoding))
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
    from .engines import make_engine
    from .studies.puzzle import draw_puzzle

    rules = rules or Rules()
    engine = make_engine(backend, rules, encoding=None if encoding is None else Path(encoding), time_limit=time_limit)
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
    from .engines import make_engine
    from .studies.puzzle_sets import draw_set

    rules = rules or Rules()
    engine = make_engine(backend, rules, encoding=None if encoding is None else Path(encoding), time_limit=time_limit)
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
    from .support.files import read_text

    def text(given, what: str) -> tuple[Path, str]:
        if isinstance(given, (str, Path)):
            return Path(given), read_text(Path(given), what)
        lines = [json.dumps({"answer": item} if isinstance(item, str) else item) for item in given]
        return Path(f"<{what}>"), "\n".join(lines) + "\n"

    return graded(*text(puzzles, "puzzles"), *text(answers, "answers"), feedback)
