"""A feedback rule of the user's own (``--feedback FILE.py``): the example played by every engine that
reads it, edited encodings that disagree with the module refused naming a pair, bad modules one line."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mm_logic.engines import make_engine
from mm_logic.rules import Rules
from mm_logic.support.errors import BadInput

from conftest import ROOT, one_line_error

EXAMPLES = ROOT / "examples"
RULE = EXAMPLES / "shared_colours.py"
ENCODINGS = {"python": None, "clingo": EXAMPLES / "shared_colours.lp", "swipl": EXAMPLES / "shared_colours.pl"}


def shared(guess, secret) -> tuple:
    """The example's rule from its definition, written again here: the codemaker says won, else the shared colours."""
    if tuple(guess) == tuple(secret):
        return (-1,)
    return (sum(min(guess.count(c), secret.count(c)) for c in set(guess)),)


def rules(pegs=3, colors=4) -> Rules:
    return Rules(pegs, colors, feedback=str(RULE))


@pytest.mark.parametrize("backend", list(ENCODINGS))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_engine_answers_the_example_rule_as_a_brute_force_filter(backend, data):
    game = rules()
    codes = list(product(range(game.colors), repeat=game.pegs))
    secret = data.draw(st.sampled_from(codes))
    history = [(g, shared(g, secret)) for g in data.draw(st.lists(st.sampled_from(codes), max_size=3))]
    expected = [c for c in codes if all(shared(g, c) == fb for g, fb in history)]
    engine = make_engine(backend, game, encoding=ENCODINGS[backend])
    with engine.session(history) as session:
        assert [tuple(int(x) for x in c) for c in session.enumerate()] == expected
        assert session.count() == len(expected)


@pytest.mark.parametrize("backend", list(ENCODINGS))
def test_bench_plays_the_example_alike_on_every_engine(run_json, backend):
    encoding = ["--encoding", ENCODINGS[backend]] if ENCODINGS[backend] else []
    out = run_json("bench", "--backend", backend, *encoding, "--strategy", "first", "--feedback", RULE,
                   "--pegs", 3, "--colors", 4, "--all")
    # first's games by brute force: the smallest code the answers so far allow, until won.
    codes = list(product(range(4), repeat=3))
    histogram: Counter = Counter()
    for secret in codes:
        history = []
        while not history or history[-1][1] != (-1,):
            guess = next(c for c in codes if all(shared(g, c) == fb for g, fb in history))
            history.append((guess, shared(guess, secret)))
        histogram[len(history)] += 1
    assert out["histogram"] == {str(k): v for k, v in sorted(histogram.items())}
    assert out["rules"] == {"pegs": 3, "colors": 4, "max_repeat": None, "feedback": str(RULE)}


def test_solve_writes_what_the_rule_tells_and_won(run):
    result = run("solve", "--backend", "python", "--strategy", "first", "--feedback", RULE, "--secret", "0123")
    assert result.stdout == "1  0000  1\n2  0111  2\n3  0122  3\n4  0123  won\n4 guesses\n"


@pytest.mark.parametrize("backend, suffix, edit", [
    ("clingo", ".lp", ("not S = #count", "not S+1 = #count")),
    ("swipl", ".pl", ("sum(Pairs, #=, Shared)", "sum(Pairs, #=, Shared0), Shared #= min(Shared0, 2)")),
])
def test_an_encoding_that_disagrees_with_the_module_is_refused_naming_a_pair(run, tmp_path, backend, suffix, edit):
    wrong = tmp_path / f"wrong{suffix}"
    wrong.write_text(ENCODINGS[backend].read_text().replace(*edit))
    result = run("next", "--backend", backend, "--encoding", wrong, "--strategy", "first", "--feedback", RULE,
                 "--pegs", 3, "--colors", 4)
    assert result.exit_code == 2 and result.stdout == ""
    line = result.stderr.strip()
    assert "\n" not in line and line.startswith(f"error: {wrong} disagrees with {RULE} on ")
    # The pair it names gets from the module the feedback it quotes, and another from the encoding.
    pair, _, said = line.partition(": ")[2].partition(" on ")[2].partition(": ")
    guess, _, code = pair.partition(" against ")
    module_says = said.split(f"{RULE} gives ")[1].split(",")[0]
    assert module_says == str(shared(tuple(map(int, guess)), tuple(map(int, code)))[0])
    assert said.split("the encoding ")[1] != module_says


def test_the_shipped_encodings_do_not_know_a_rule_of_ones_own(run):
    one_line_error(run("next", "--backend", "clingo", "--strategy", "first", "--feedback", RULE), 2,
                   f"--feedback {RULE}: the shipped encodings do not state your rule; give --backend clingo an "
                   "--encoding .lp file that does (docs/encodings.md)")
    one_line_error(run("next", "--backend", "a3", "--strategy", "first", "--feedback", RULE), 2,
                   f"--backend a3 plays the standard feedback rule only; with --feedback {RULE} use --backend "
                   "clingo, swipl or python")


@pytest.mark.parametrize("source, message", [
    ("def score(guess, secret)\n    return (0,)\n", "{path}:1: expected ':'"),
    ("X = 1\n", "{path} defines no score(guess, secret): the numbers the codemaker tells of a guess"),
    ("raise RuntimeError('no')\n", "{path}: RuntimeError: no"),
])
def test_a_module_that_states_no_rule_is_one_line(run, tmp_path, source, message):
    path = tmp_path / "rule.py"
    path.write_text(source)
    result = run("next", "--backend", "python", "--strategy", "first", "--feedback", path)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip().endswith(message.format(path=path)) and "\n" not in result.stderr.strip()


def test_a_score_that_returns_no_numbers_is_one_line(tmp_path):
    path = tmp_path / "rule.py"
    path.write_text("def score(guess, secret):\n    return 'many'\n")
    engine = make_engine("python", Rules(feedback=str(path)))
    with pytest.raises(BadInput, match=r"rule\.py: score\(\(0, 0, 0, 0\), \(1, 1, 1, 1\)\) returned 'many', not "
                                       r"whole numbers from 0 to the 4 pegs$"):
        engine.count([((0, 0, 0, 0), (1,))])
