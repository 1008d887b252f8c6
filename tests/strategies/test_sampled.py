"""sample-entropy: its name, reproducibility, its samplers, and games on every engine."""

from __future__ import annotations

import itertools
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from click.testing import CliRunner

from mm_logic.cli import cli
from mm_logic.engines import make_engine
from mm_logic.engines.reference import ReferenceEngine
from mm_logic.feedback import feedback
from mm_logic.game import play
from mm_logic.rules import Rules
from mm_logic.strategies import STRATEGIES, make_strategy, parse_strategy
from mm_logic.strategies import sampled as sampled_module
from mm_logic.strategies.sampled import EXACT_SPACE, SAMPLE_SIZE, SampleEntropy
from mm_logic.strategies.scoring import Entropy
from mm_logic.support.errors import BadInput

#: 7 pegs of 6 colours: 279,936 codes, above EXACT_SPACE, so every guess is sampled,
#: and small enough for the reference engine.
SEVEN = Rules(7, 6)
SECRET7 = (5, 0, 3, 3, 1, 4, 0)


def guesses(engine, strategy, secret):
    return [guess for guess, _ in play(engine, strategy, secret).guesses]


def sampled(rules, seed, k=10):
    strategy = SampleEntropy(rules, seed=seed, k=k)
    strategy.exact = False  # sample even where the space is small
    return strategy


def sources(engine, strategy, secret):
    """The sampler behind each guess of a game (``strategy.last`` after each choice)."""
    session, seen = engine.session(), []
    while True:
        guess = strategy.choose(session) if session.history else strategy.opening(session)
        seen.append(strategy.last["source"])
        fb = feedback(guess, secret)
        if fb[0] == engine.rules.pegs:
            return seen, guess
        session.push(guess, fb)


# -- the name --------------------------------------------------------------------------------
def test_the_name_carries_the_sample_size():
    assert "sample-entropy" in STRATEGIES and parse_strategy("sample-entropy:30").cls is SampleEntropy
    default, thirty = make_strategy("sample-entropy", SEVEN, 1), make_strategy("sample-entropy:30", SEVEN, 1)
    assert (default.k, default.name) == (SAMPLE_SIZE, "sample-entropy")
    assert (thirty.k, thirty.name) == (30, "sample-entropy:30")


@pytest.mark.parametrize("name, shown", [("sample-entropy:0", "'0'"), ("sample-entropy:abc", "'abc'"),
                                         ("sample-entropy:20001", "'20001'"), ("sample-entropy:", "''"),
                                         ("sample-entropy:-3", "'-3'"),
                                         # Internal failures: int() refuses '²' and 5,000 digits.
                                         ("sample-entropy:\u00b2", "'\u00b2'"),
                                         ("sample-entropy:" + "9" * 5000, f"{'9' * 40!r}... (5,000 characters)")])
def test_a_bad_sample_size_is_one_line(name, shown):
    message = f"sample-entropy:K needs a whole number 1 <= K <= 20,000, got {shown}"
    with pytest.raises(BadInput) as error:
        make_strategy(name, SEVEN, 1)
    assert str(error.value) == message
    result = CliRunner().invoke(cli, ["next", "--strategy", name])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == f"error: Invalid value for '--strategy': {message}"


def test_the_cli_plays_a_sample_size_and_reports_it():
    result = CliRunner().invoke(cli, ["bench", "--backend", "python", "--strategy", "sample-entropy:20",
                                       "--pegs", "7", "--colors", "6", "--games", "2", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "strategy   sample-entropy:20" in result.output


# -- choices ---------------------------------------------------------------------------------
def test_the_same_seed_plays_the_same_game():
    engine = ReferenceEngine(SEVEN)
    first, again = (guesses(engine, SampleEntropy(SEVEN, seed=4, k=50), SECRET7) for _ in range(2))
    assert first == again and first[-1] == SECRET7
    assert guesses(engine, SampleEntropy(SEVEN, seed=5, k=50), SECRET7) != first


def test_every_engine_plays_the_same_game():
    # After the opening the samples come from the feedback rule, not from the engine:
    # python, clingo and swipl see the same games.
    games = {backend: guesses(make_engine(backend, SEVEN), SampleEntropy(SEVEN, seed=2, k=100), SECRET7)
             for backend in ("python", "clingo", "swipl")}
    assert games["python"][-1] == SECRET7
    assert games["clingo"] == games["python"] and games["swipl"] == games["python"]


def test_it_wins_every_secret_of_a_small_space():
    rules = Rules(3, 4)
    engine = ReferenceEngine(rules)
    strategy = sampled(rules, 1)
    for secret in itertools.product(range(4), repeat=3):
        played = guesses(engine, strategy, secret)
        assert played[-1] == secret and len(played) <= 6 and len(set(played)) == len(played)


@pytest.mark.parametrize("rules", [Rules(5, 6, max_repeat=1), Rules(6, 4, max_repeat=2)])
def test_it_keeps_the_repetition_rule(rules):
    engine = ReferenceEngine(rules)
    rng = np.random.default_rng(0)
    codes = engine.enumerate([])
    for secret in codes[rng.choice(len(codes), 5, replace=False)]:
        played = guesses(engine, sampled(rules, 3, k=40), tuple(int(c) for c in secret))
        assert played[-1] == tuple(secret)
        assert all(max(np.bincount(guess)) <= rules.repeat_limit for guess in played)


def test_small_spaces_are_played_by_the_exact_entropy_scorer():
    rules = Rules(4, 6)
    assert rules.size <= EXACT_SPACE and SampleEntropy(rules, seed=1).exact
    assert not SampleEntropy(Rules(16, 6), seed=1).exact
    engine = ReferenceEngine(rules)
    for secret in [(0, 1, 2, 3), (5, 5, 1, 0), (2, 2, 2, 2)]:
        assert guesses(engine, SampleEntropy(rules, seed=1), secret) == guesses(engine, Entropy(rules), secret)


def test_nothing_consistent_is_none():
    engine = ReferenceEngine(SEVEN)
    # No 0 in the secret, yet two black pegs from a guess with one peg that is not 0.
    session = engine.session([((0,) * 7, (0, 0)), ((0, 0, 0, 0, 0, 0, 1), (2, 0))])
    assert SampleEntropy(SEVEN, seed=1, k=30).choose(session) is None


# -- samplers --------------------------------------------------------------------------------
def test_7x6_draws_by_importance_then_lists_the_set():
    seen, last = sources(ReferenceEngine(SEVEN), SampleEntropy(SEVEN, seed=1, k=100), SECRET7)
    assert last == SECRET7
    assert seen[0] == "uniform" and seen[-1] == "exact"
    # Once listed, the set stays listed; the importance sampler serves in between.
    first_exact = seen.index("exact")
    assert set(seen[1:first_exact]) <= {"descent"} and set(seen[first_exact:]) == {"exact"}


@pytest.mark.slow  # 16.3 s measured (6.2 s warm)
def test_a_16x6_game_on_clingo_walks_draws_and_lists():
    rules = Rules(16, 6)
    secret = (0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 5, 4, 3, 2)
    seen, last = sources(make_engine("clingo", rules), SampleEntropy(rules, seed=1, k=100), secret)
    assert last == secret
    assert seen[0] == "uniform" and "descent" in seen and seen[-1] == "exact"


def test_20x20_walks_early():
    # 20 colours leave too many colour-count vectors early: the walk samples there.
    rules = Rules(20, 20)
    session = make_engine("clingo", rules).session()
    strategy = SampleEntropy(rules, seed=1, k=30)
    secret = tuple(int(c) for c in np.random.default_rng(7).integers(20, size=20))
    session.push(strategy.opening(session), feedback(strategy.opening(session), secret))
    guess = strategy.choose(session)
    assert strategy.last["source"] == "walk" and 1 <= strategy.last["codes"] <= 30
    assert strategy.last["start"] == "walk"
    assert len(guess) == 20 and all(0 <= c < 20 for c in guess)


@pytest.mark.parametrize("repair_steps, start", [(300_000, "repair"), (0, "engine")])
def test_when_the_walk_finds_nothing_repair_then_the_engine_start_it(monkeypatch, repair_steps, start):
    # A walk of one step meets no consistent 20x20 code: the focused search finds one, or,
    # given no steps, the engine (aimed at the walk's nearest miss).
    monkeypatch.setattr(sampled_module, "MIN_WALK_STEPS", 1)
    monkeypatch.setattr(sampled_module, "STEPS_PER_CODE", 0)
    monkeypatch.setattr(sampled_module, "REPAIR_STEPS", repair_steps)
    rules = Rules(20, 20)
    session = make_engine("clingo", rules).session()
    strategy = SampleEntropy(rules, seed=1, k=30)
    secret = tuple(int(c) for c in np.random.default_rng(7).integers(20, size=20))
    for _ in range(3):
        guess = strategy.choose(session) if session.history else strategy.opening(session)
        session.push(guess, feedback(guess, secret))
    strategy.choose(session)
    assert strategy.last == {"source": "walk", "codes": 1, "start": start}


def test_a_listing_that_found_nothing_leaves_a_tenth_of_the_work_to_the_next(monkeypatch):
    # 20x20: once the colour counts are known the listing finds no code within its work,
    # guess after guess; each listing after such a one gets a tenth of the work.
    calls = []
    listing = sampled_module.exact_set

    def recorded(guesses, blacks, vectors, rules, share=1):
        found = listing(guesses, blacks, vectors, rules, share)
        calls.append((len(guesses), share, None if found is None else len(found)))
        return found

    monkeypatch.setattr(sampled_module, "exact_set", recorded)
    rules = Rules(20, 20)
    secret = tuple(int(c) for c in np.random.default_rng(7).integers(20, size=20))
    assert guesses(make_engine("clingo", rules), SampleEntropy(rules, seed=1, k=30), secret)[-1] == secret
    assert any(share == 10 for _, share, _ in calls)
    for (h0, _, found0), (h1, share, _) in zip(calls, calls[1:]):
        assert share == (10 if h1 == h0 + 1 and found0 == 0 else 1)
    assert calls[0][1] == 1


def test_a_time_limit_still_ends_the_game():
    strategy = SampleEntropy(SEVEN, seed=1, k=200, time_limit=1e-9)  # no time for any draw: one code at a time
    assert guesses(ReferenceEngine(SEVEN), strategy, SECRET7)[-1] == SECRET7


def test_under_a_time_limit_one_piece_of_repair_still_finds_a_code():
    # No time for draws or walk steps: one piece of the repair (30,000 steps) finds a
    # consistent code, which is the whole sample.
    strategy = SampleEntropy(SEVEN, seed=1, k=50, time_limit=1e-9)
    engine = ReferenceEngine(SEVEN)
    guess = (0, 0, 1, 1, 2, 2, 3)
    session = engine.session([(guess, feedback(guess, SECRET7))])
    chosen = strategy.choose(session)
    assert strategy.last == {"source": "walk", "codes": 1, "start": "repair"}
    assert chosen in {tuple(int(c) for c in row) for row in engine.enumerate(session.history)}


def test_the_cli_says_when_the_exact_scorer_plays():
    result = CliRunner().invoke(cli, ["solve", "--backend", "python", "--strategy", "sample-entropy:30",
                                      "--secret", "5501"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ("note: 4x6 has 1,296 codes (at most 50,000): sample-entropy:30 plays the exact "
                             "entropy scorer\n")
    exact = CliRunner().invoke(cli, ["solve", "--backend", "python", "--strategy", "entropy", "--secret", "5501"])
    assert result.stdout == exact.stdout


@pytest.mark.parametrize("caller", ["kernel", "game", "script"])
def test_ctrl_c_inside_a_kernel_is_ctrl_c_not_an_internal_failure(caller):
    # A kernel calls back into Python to unpickle a constant, at its first call in a process; Ctrl-C
    # landing there came out as "SystemError: CPUDispatcher(<function repair ...>) returned a result
    # with an exception set" (exit 1, "internal failure") on most Ctrl-Cs of a 30x30 bench. Here
    # Ctrl-C lands there always; in a child process, where no kernel has run yet.
    child = textwrap.dedent(f"""
        import sys
        import numba.core.serialize
        import numpy as np
        from mm_logic.kernels.sample import repair

        def ctrl_c(*args):
            raise KeyboardInterrupt
        numba.core.serialize._numba_unpickle = ctrl_c
        history = (np.array([[0, 0, 1, 1]]), np.array([1]), np.array([2]))
        if {caller!r} == "kernel":
            try:
                repair(np.array([0, 1, 2, 3]), *history, 6, 4, 100, 0.1, 1)
            except SystemError as error:  # what numba makes of it
                print(type(error.__cause__).__name__)
        elif {caller!r} == "game":  # what bench, compare, solve and play call
            from mm_logic.engines import make_engine
            from mm_logic.game import Game
            from mm_logic.rules import Rules
            from mm_logic.strategies.base import Strategy

            class Repairing(Strategy):
                def choose(self, session):
                    return tuple(repair(np.array([0, 1, 2, 3]), *history, 6, 4, 100, 0.1, 1)[0])
            try:
                Game(make_engine("python", Rules()), Repairing(Rules())).suggest()
            except KeyboardInterrupt:
                print("KeyboardInterrupt")
        else:
            from mm_logic.support.scripting import run
            run(lambda: repair(np.array([0, 1, 2, 3]), *history, 6, 4, 100, 0.1, 1))
    """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    expected = {"kernel": (0, "KeyboardInterrupt\n", ""), "game": (0, "KeyboardInterrupt\n", ""),
                "script": (130, "", "interrupted\n")}
    assert (done.returncode, done.stdout, done.stderr) == expected[caller]
