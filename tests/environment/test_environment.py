"""The Gymnasium environment (``mm_logic.environment``): Gymnasium's checks, minimax's total played through it,
masks equal to the codes still possible, the episode's ends, reproducible seeds, and one line for every bad option."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mm_logic.environment as environment
from mm_logic.codespace import code_space
from mm_logic.environment import ENV_ID, MastermindEnv
from mm_logic.feedback import rule_of
from mm_logic.game import Game
from mm_logic.player import Player
from mm_logic.rules import Rules
from mm_logic.studies.bench import bench_all
from mm_logic.support.errors import BackendUnavailable, BadInput, SpaceTooLarge

from conftest import ROOT
from generators import consistent

SHARED = str(ROOT / "examples" / "shared_colours.py")
#: The games check_env plays: the standard rule, black pegs, a mark per peg, bulls and cows, lies, a rule of one's own.
CHECKED = {
    "standard 4x6": {},
    "black": {"feedback": "black"},
    "positional": {"feedback": "positional"},
    "bulls and cows 4x10": {"colors": 10, "no_repeat": True},
    "one lie": {"lies": 1},
    "shared colours": {"feedback": SHARED},
}


def make(**options) -> MastermindEnv:
    """The environment as a user makes it (Gymnasium's wrappers and checks around it), unwrapped."""
    return gymnasium.make(ENV_ID, **options).unwrapped


def history_of(observation) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The entries an observation holds, read as an agent reads them: the first ``turns`` rows."""
    turns = int(observation["turns"])
    return [(tuple(map(int, guess)), tuple(map(int, fb)))
            for guess, fb in zip(observation["guesses"][:turns], observation["feedback"][:turns])]


@pytest.mark.parametrize("options", CHECKED.values(), ids=CHECKED.keys())
def test_gymnasiums_check_env_passes_without_a_warning(options):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Gymnasium's checker says what it dislikes as warnings
        env = make(render_mode="ansi", **options)
        check_env(env)
        env.close()


def test_the_spaces_hold_the_rules_feedback():
    env = make()
    assert env.action_space == gymnasium.spaces.Discrete(1296)
    assert env.observation_space["guesses"] == gymnasium.spaces.Box(-1, 5, (10, 4), dtype=np.int64)
    assert env.observation_space["feedback"] == gymnasium.spaces.Box(-1, 4, (10, 2), dtype=np.int64)
    assert env.observation_space["turns"] == gymnasium.spaces.Discrete(11)
    widths = {name: (make(**options).observation_space["feedback"].shape[1],
                     int(make(**options).observation_space["feedback"].high.max()))
              for name, options in CHECKED.items()}
    assert widths == {"standard 4x6": (2, 4), "black": (1, 4), "positional": (4, 2), "bulls and cows 4x10": (2, 4),
                      "one lie": (2, 4), "shared colours": (1, 4)}
    assert make(feedback="positional", pegs=1, max_guesses=3).observation_space["feedback"].shape == (3, 1)


def test_every_rules_numbers_are_within_its_declared_bounds():
    # The observation's Box is the rule's value_bounds: every feedback of a small table, the win's included.
    for feedback, pegs in [("standard", 3), ("black", 3), ("positional", 3), ("positional", 1), (SHARED, 3)]:
        rules = Rules(pegs, 3, feedback=feedback)
        rule = rule_of(rules)
        numbers = {v for i in np.unique(code_space(rules).table) for v in rule.from_index(int(i), pegs)}
        low, high = rule.value_bounds(pegs)
        assert low <= min(numbers) and max(numbers) <= high, feedback
        assert {low, high} <= numbers | {-1}, feedback  # as tight as the rule allows


def test_actions_are_codes_in_lexicographic_order():
    env = make()
    assert env.action("0123") == 51 and env.code(51) == (0, 1, 2, 3) and env.codes[51].tolist() == [0, 1, 2, 3]
    assert env.action((5, 5, 5, 5)) == 1295 and env.code(np.int64(0)) == (0, 0, 0, 0)
    bulls = make(colors=10, no_repeat=True)
    assert bulls.action_space.n == 5040 and bulls.code(0) == (0, 1, 2, 3) and bulls.action("9876") == 5039
    for code, message in [("0012", "code '0012' uses colour 0 2 times, which no_repeat forbids"),
                          ((0, 1, 2, 10), "colour 10 in code '0,1,2,10' is outside 0..9"),
                          ("012", "code '012' has 3 pegs, expected 4")]:
        with pytest.raises(BadInput) as refused:
            bulls.action(code)
        assert str(refused.value) == message


def bench_total() -> tuple[int, dict]:
    """``mmlogic bench --backend python --strategy minimax --first-guess 0011 --all``: the total, by secret."""
    result = bench_all(*Player(Rules(4, 6), "python", "minimax", first_guess=(0, 0, 1, 1)).build())
    return result.as_dict()["total_guesses"], result.by_secret()


def test_minimax_played_through_the_environment_totals_the_bench():
    # An agent outside the environment: mmlogic's minimax reading each observation, over every secret of 4x6.
    total, by_secret = bench_total()
    assert total == 5801
    env = gymnasium.make(ENV_ID, pegs=4, colors=6)
    engine, strategy = Player(Rules(4, 6), "python", "minimax", first_guess=(0, 0, 1, 1)).build()
    played, returns = {}, 0.0
    for secret in env.unwrapped.codes.tolist():
        observation, info = env.reset(options={"secret": "".join(map(str, secret))})
        with Game(engine, strategy) as agent:
            done = False
            while not done:
                for entry in history_of(observation)[len(agent.history):]:
                    agent.record(*entry, check=False)
                observation, reward, terminated, truncated, info = env.step(env.unwrapped.action(agent.suggest()))
                returns += reward
                done = terminated or truncated
        assert terminated and info["secret"] == "".join(map(str, secret))
        played[tuple(secret)] = int(observation["turns"])
    assert (sum(played.values()), -returns, played) == (5801, 5801.0, by_secret)


def test_the_environments_own_suggestion_plays_minimax_alike():
    env = make(strategy="minimax")
    total = 0
    for index in range(env.rules.size):
        env.reset(options={"secret": env.rules.code_text(env.code(index))})
        terminated = False
        while not terminated:
            _, _, terminated, _, _ = env.step(env.suggest())
            total += 1
    assert total == 5801


@pytest.mark.parametrize("options", [{}, {"feedback": "black"}, {"feedback": "positional"},
                                     {"pegs": 3, "colors": 5, "no_repeat": True}, {"lies": 1},
                                     {"pegs": 3, "colors": 4, "max_repeat": 2, "lies": 1}],
                         ids=["standard", "black", "positional", "no-repeat", "lies", "max-repeat lies"])
def test_masks_are_the_codes_still_possible_on_random_histories(options):
    env = make(max_guesses=6, **options)
    rng = np.random.default_rng(59)
    codes = [tuple(code) for code in env.codes.tolist()]
    for seed in range(8):
        observation, _ = env.reset(seed=seed)
        assert env.action_masks().all()
        done = False
        while not done:
            observation, _, terminated, truncated, info = env.step(int(rng.integers(env.action_space.n)))
            done = terminated or truncated
            masked = [codes[i] for i in np.flatnonzero(env.action_masks())]
            expected = consistent(env.rules, history_of(observation)) if not terminated else [codes[info[
                "secret_action"]]]
            assert masked == expected
            assert info.get("consistent") == len(expected)


def test_clingo_masks_the_same_codes_as_the_reference_engine():
    python, clingo = make(), make(backend="clingo")
    for seed in range(3):
        python.reset(seed=seed), clingo.reset(seed=seed)
        for action in (7, 300, 901):
            a, b = python.step(action), clingo.step(action)
            assert history_of(a[0]) == history_of(b[0]) and (python.action_masks() == clingo.action_masks()).all()


def test_an_episode_is_truncated_at_max_guesses_and_tells_the_secret_then_only():
    env = make(max_guesses=3)
    observation, info = env.reset(seed=3, options={"secret": "5555"})
    assert info == {"consistent": 1296}
    rewards = []
    for turn in range(3):
        observation, reward, terminated, truncated, info = env.step(env.action("0000"))
        rewards.append(reward)
        assert not terminated and truncated == (turn == 2)
        assert ("secret" in info) == (turn == 2)
    assert sum(rewards) == -3.0 and int(observation["turns"]) == 3
    assert info == {"consistent": 625, "secret": "5555", "secret_action": 1295}
    with pytest.raises(BadInput, match="^the episode is over: reset the environment$"):
        env.step(0)


def test_a_win_terminates_and_the_return_counts_the_guesses():
    env = make(render_mode="ansi")
    env.reset(options={"secret": "0123"})
    results = [env.step(env.action(code)) for code in ("0011", "0023", "0123")]
    assert [r[1:4] for r in results] == [(-1.0, False, False), (-1.0, False, False), (-1.0, True, False)]
    assert [sorted(r[4]) for r in results] == [["consistent"], ["consistent"],
                                               ["consistent", "secret", "secret_action"]]
    assert results[-1][4] == {"consistent": 1, "secret": "0123", "secret_action": 51}
    assert env.render() == "1  0011  1,1\n2  0023  3,0\n3  0123  4,0\nsecret 0123 found in 3 guesses"
    assert history_of(results[-1][0])[-1] == ((0, 1, 2, 3), (4, 0))


def test_rules_of_their_own_fill_the_rows_with_their_numbers():
    positional = make(feedback="positional")
    positional.reset(options={"secret": "0123"})
    observation = positional.step(positional.action("0321"))[0]
    assert observation["feedback"][0].tolist() == [2, 1, 2, 1]
    shared = make(feedback=SHARED)
    shared.reset(options={"secret": "0123"})
    assert shared.step(shared.action("1230"))[0]["feedback"][0].tolist() == [4]
    observation, _, terminated, _, _ = shared.step(shared.action("0123"))
    assert terminated and observation["feedback"][:2].tolist() == [[4], [-1]]  # the win, "won", as -1


def episode(env: MastermindEnv, seed: int | None, actions=(0, 7, 44, 300, 901, 1200)) -> list:
    observation, info = env.reset(seed=seed)
    steps = [(observation, info)]
    for action in actions:
        steps.append(env.step(action))
        if steps[-1][2] or steps[-1][3]:
            break
    return steps


def same(a, b) -> bool:
    return gymnasium.utils.env_checker.data_equivalence(a, b, exact=True)


def test_seeded_resets_are_reproducible_liar_included():
    first, second = make(lies=1, max_guesses=6), make(lies=1, max_guesses=6)
    runs = {seed: episode(first, seed) for seed in range(6)}
    assert all(same(episode(second, seed), runs[seed]) for seed in range(6))
    secrets = {runs[seed][-1][4]["secret"] for seed in runs}
    assert len(secrets) > 3
    lied = [runs[seed][-1][4]["lies"] for seed in runs]
    assert lied == [[2], [2], [1], [3], [1], [5]]  # the random liar: its one lie, at an answer of its seed's
    # Without a seed, resets go on from the last seeded one alike.
    assert same(episode(first, 11)[-1], episode(second, 11)[-1])
    assert same(episode(first, None), episode(second, None))


def test_a_liar_by_numbers_lies_at_those_answers():
    env = make(lies=1, liar="2")
    env.reset(seed=1, options={"secret": "0123"})
    answers = [env.step(env.action(code))[0]["feedback"] for code in ("0011", "2222", "4444")]
    observation, _, _, truncated, info = env.step(env.action("0123"))
    assert answers[0][0].tolist() == [1, 1] and answers[1][1].tolist() != [1, 0] and answers[2][2].tolist() == [0, 0]
    assert info["lies"] == [2] and not truncated
    assert info["consistent"] == 1


def test_reset_options_fix_the_secret_and_refuse_others():
    env = make()
    assert env.reset(options={"secret": "0123"})[1] == {"consistent": 1296}
    for options, message in [
        ({"code": "0123"}, "unknown reset option 'code'; reset takes secret"),
        ({"secret": 51}, 'the secret is a code as mmlogic writes it ("0123"), got 51'),
        ({"secret": "01234"}, None),
    ]:
        with pytest.raises(BadInput) as refused:
            env.reset(options=options)
        assert message is None or str(refused.value) == message
        assert "\n" not in str(refused.value)


@pytest.mark.parametrize(("options", "message"), [
    ({"pegs": 0}, "pegs must be between 1 and 64, got 0"),
    ({"pegs": 4.0}, "pegs must be a whole number, got 4.0"),
    ({"colors": True}, "colors must be a whole number, got True"),
    ({"feedback": "grey"}, "unknown feedback rule 'grey'; choose from standard, black, positional, or a FILE.py, "
                           "FILE.lp or FILE.pl of your own"),
    ({"max_guesses": 0}, "max_guesses must be between 1 and 1000, got 0"),
    ({"liar": "random"}, "liar needs lies: the codemaker may tell at most K wrong answers"),
    ({"lies": 1, "liar": "2,3"}, "liar names 2 answers, more than lies 1 allows"),
    ({"no_repeat": True, "max_repeat": 2}, "no_repeat contradicts max_repeat 2"),
    ({"backend": "prolog"}, "unknown backend 'prolog'; choose from clingo, swipl, python, a1, a2, a3, a4, a5"),
    ({"render_mode": "rgb_array"}, "unknown render_mode 'rgb_array'; choose from ansi, human, or None"),
    ({"pegs": 10, "colors": 10}, "10x10 has 10,000,000,000 codes, more than the environment's actions (20,000,000: "
                                 "a code each); play fewer pegs or colours"),
])
@pytest.mark.filterwarnings("ignore:.*initialised with render_mode")  # Gymnasium's word, before the environment's
def test_bad_options_are_one_line(options, message):
    with pytest.raises(BadInput) as refused:
        gymnasium.make(ENV_ID, **options)
    assert str(refused.value) == message


def test_bad_actions_and_calls_out_of_turn_are_one_line():
    env = make()
    with pytest.raises(BadInput, match="^the environment has no episode: reset it first$"):
        env.step(0)
    env.reset(seed=0)
    for action, message in [(1296, "action 1296 is no code of 4x6: actions are 0 to 1295"),
                            (-1, "action -1 is no code of 4x6: actions are 0 to 1295"),
                            (True, "an action is a code's number from 0 to 1295, got True"),
                            (2.5, "an action is a code's number from 0 to 1295, got '2.5'"),
                            ("0123", "an action is a code's number from 0 to 1295, got \"'0123'\"")]:
        with pytest.raises(BadInput) as refused:
            env.step(action)
        assert str(refused.value) == message
    assert env.step(np.array(51))[0]["guesses"][0].tolist() == [0, 1, 2, 3]  # numpy's integers are actions


def test_masks_beyond_what_the_engine_lists_are_refused_in_one_line(monkeypatch):
    # The limit is split's (1,000,000 codes on python and clingo): a smaller one here, to list 4x6 past it.
    monkeypatch.setattr(environment, "split_limit", lambda engine: 100)
    env = make()
    env.reset(seed=0, options={"secret": "5555"})
    assert env.action_masks().sum() == 1296  # before the first guess: every code, listing nothing
    env.step(env.action("0000"))
    with pytest.raises(SpaceTooLarge) as refused:
        env.action_masks()
    assert str(refused.value) == ("action_masks lists the codes still possible, at most 100 on the python engine, "
                                  "and 625 are: play a guess more first")
    env.step(env.action("1111"))
    env.step(env.action("2222"))
    assert env.action_masks().sum() == 81


def test_make_imports_the_module_by_its_name_and_a_missing_extra_is_one_line():
    made = subprocess.run([sys.executable, "-c", "import gymnasium; env = gymnasium.make("
                           "'mm_logic.environment:mmlogic/Mastermind-v0', pegs=3, colors=4); "
                           "print(env.unwrapped.rules.describe(), env.action_space)"],
                          capture_output=True, text=True, cwd=ROOT)
    assert (made.returncode, made.stdout) == (0, "3x4 Discrete(64)\n"), made.stderr
    missing = subprocess.run([sys.executable, "-c", "import sys; sys.modules['gymnasium'] = None\n"
                              "from mm_logic.support.errors import BackendUnavailable\n"
                              "try:\n import mm_logic.environment\nexcept BackendUnavailable as e:\n print(e)"],
                             capture_output=True, text=True, cwd=ROOT)
    assert missing.stdout.startswith("mm_logic.environment needs Gymnasium: ") and "[gym]'" in missing.stdout
    assert BackendUnavailable.exit_code == 2


def test_render_shows_the_lies_once_the_episode_is_over():
    env = make(lies=1, liar="1", render_mode="ansi", max_guesses=2)
    env.reset(seed=5, options={"secret": "0123"})
    env.step(env.action("0011"))
    assert "lie" not in env.render()
    env.step(env.action("2345"))
    lines = env.render().splitlines()
    assert lines[0].endswith("(a lie)") and lines[1] == "2  2345  0,2" and lines[2] == (
        "secret 0123 not found in 2 guesses")


def test_a_reset_after_close_plays_again():
    # Gymnasium's own environments may be reset after close (close frees what a reset builds again).
    env = gymnasium.make(ENV_ID)
    env.reset(seed=1, options={"secret": "0123"})
    env.close()
    with pytest.raises(BadInput, match="^the environment has no episode: reset it first$"):
        env.step(0)
    observation, info = env.reset(seed=1, options={"secret": "0123"})
    assert info == {"consistent": 1296} and int(observation["turns"]) == 0
    assert env.step(env.unwrapped.action("0123"))[2:4] == (True, False)
    env.close()
    env.close()  # twice: harmless


LONG = "y" * 100_000


@pytest.mark.parametrize(("options", "message"), [
    ({"pegs": "x" * 10**6}, "pegs must be a whole number, got 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... "
                            "(1,000,000 characters)"),
    ({"pegs": [1] * 100_000}, "pegs must be a whole number, got '[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, '... "
                              "(300,000 characters)"),
    ({"no_repeat": LONG}, f"no_repeat must be True or False, got '{'y' * 40}'... (100,000 characters)"),
    ({"no_repeat": 10**5000}, "no_repeat must be True or False, got a number of about 5,001 digits"),
    ({"strategy": LONG}, f"unknown strategy '{'y' * 40}'... (100,000 characters); choose from "),
    ({"backend": LONG}, f"unknown backend '{'y' * 40}'... (100,000 characters); choose from "),
    ({"feedback": LONG}, f"unknown feedback rule '{'y' * 40}'... (100,000 characters); choose from "),
    ({"feedback": LONG + ".py"}, f"cannot read --feedback '{'y' * 40}'... (100,003 characters): "),
    ({"render_mode": LONG}, f"unknown render_mode '{'y' * 40}'... (100,000 characters); choose from ansi, human, "
                            "or None"),
    ({"max_guesses": 10**5000}, "max_guesses must be between 1 and 1000, got a number of about 5,001 digits"),
    ({"pegs": 10**5000}, "pegs must be between 1 and 64, got a number of about 5,001 digits"),
], ids=["pegs", "pegs list", "no_repeat", "no_repeat number", "strategy", "backend", "feedback",
        "feedback file", "render_mode",
        "max_guesses number", "pegs number"])
@pytest.mark.filterwarnings("ignore:.*render_mode")  # Gymnasium's word, before the environment's
def test_long_options_are_quoted_cut_short(options, message):
    with pytest.raises(BadInput) as refused:
        gymnasium.make(ENV_ID, **options)
    assert str(refused.value).startswith(message) and len(str(refused.value)) < 400  # the strategies listed: 324


def test_bad_codes_and_reset_options_are_one_short_line():
    env = make()
    env.reset(seed=0)
    for call, message in [
        (lambda: env.step(10**5000), "action a number of about 5,001 digits is no code of 4x6: actions are 0 to 1295"),
        (lambda: env.action(5), 'a code is written as mmlogic writes it ("0123") or as its colours, got 5'),
        (lambda: env.action([0, 1, 2, "x"]), 'a code is written as mmlogic writes it ("0123") or as its colours, '
                                             "got [0, 1, 2, 'x']"),
        (lambda: env.action([0, 1, 2, 10**5000]), "colour a number of about 5,001 digits is outside 0..5"),
        (lambda: env.reset(options=5), 'reset\'s options are a dict ({"secret": "0123"}), got 5'),
        (lambda: env.reset(options="secret"), 'reset\'s options are a dict ({"secret": "0123"}), got \'secret\''),
        (lambda: env.reset(options={"secret": list(range(100_000))}),
         'the secret is a code as mmlogic writes it ("0123"), got \'[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1\'... '
         "(688,890 characters)"),
    ]:
        with pytest.raises(BadInput) as refused:
            call()
        assert str(refused.value) == message
