"""Every bad argument of the library is one BadInput (or MMLogicError) line in the command line's words, checked at
the library's boundary before any solver runs: never a TypeError, ValueError, IndexError or AttributeError from
the internals, never a hang nor a silent empty result (the eighth audit, issue 56)."""

from __future__ import annotations

import pytest

import mm_logic
from mm_logic import BadInput, MMLogicError, Rules

R36 = Rules(3, 6)
R34 = Rules(3, 4)
PY = {"backend": "python"}
LONG = "x" * 100_000


def refused(call) -> str:
    """The one line ``call()`` is refused with (BadInput and nothing else)."""
    with pytest.raises(BadInput) as raised:
        call()
    return str(raised.value)


# -- 1: a game's score and record read written codes and feedback, and refuse invalid ones --------------------
def test_score_reads_a_written_code_as_colour_numbers_do():
    with mm_logic.new_game(Rules(4, 6), secret="0123", **PY) as game:
        assert (game.score("0123"), game.score([0, 1, 2, 3]), game.score("0 1 2 3")) == ((4, 0), (4, 0), (4, 0))


@pytest.mark.parametrize("guess, message", [
    ((0, 0, 1, 9), "colour 9 in code (0, 0, 1, 9) is outside 0..5"),
    ((0, 0, 1, -1), "colour -1 in code (0, 0, 1, -1) is outside 0..5"),
    ((0, 0, 1), "code '001' has 3 pegs, expected 4"),
    ("01234", "code '01234' has 5 pegs, expected 4"),
    ([0, 1, 2, "x"], "code [0, 1, 2, 'x'] holds 'x', not a colour number"),
    (1234, "code 1234 is neither written as the command line writes it ('0123') nor a sequence of colour numbers"),
])
def test_score_and_record_refuse_a_code_not_of_the_game(guess, message):
    with mm_logic.new_game(Rules(4, 6), secret="0123", **PY) as game:
        assert refused(lambda: game.score(guess)) == message
        assert refused(lambda: game.record(guess, (1, 0))) == message
        assert game.history == [] and game.suggest() == (0, 0, 1, 1)  # the game goes on as it was


def test_record_reads_written_codes_and_feedback():
    with mm_logic.new_game(Rules(4, 6), **PY) as game:
        game.record("0011", "1,0")
        game.record([2, 3, 4, 5], (0, 2))
        assert game.history == [((0, 0, 1, 1), (1, 0)), ((2, 3, 4, 5), (0, 2))]
        assert refused(lambda: game.record("0011", "1,,")) == \
            "feedback '1,,' in '1,,' is not of the form B,W (e.g. 1,2)"
        assert refused(lambda: game.record("0011", (1,))) == "feedback 1 is not two whole numbers (black, white)"
        assert refused(lambda: game.record("0011", 5)) == \
            "feedback 5 is neither written as B,W (e.g. 1,2) nor a sequence of numbers"
        assert len(game.history) == 2


def test_a_recorded_colour_outside_the_game_never_reaches_a_solver():
    with mm_logic.new_game(Rules(4, 6), **PY) as game:
        assert refused(lambda: game.record((0, 0, 1, 9), (1, 0))) == "colour 9 in code (0, 0, 1, 9) is outside 0..5"
        assert game.suggest() == (0, 0, 1, 1)


# -- 2: a closed game says so, on every engine --------------------------------------------------------------
@pytest.mark.parametrize("backend", ["python", "clingo"])
def test_a_closed_game_says_it_is_closed(backend):
    game = mm_logic.new_game(Rules(4, 6), backend=backend)
    game.close()
    game.close()  # closing twice is no error
    for call in (lambda: game.record((0, 0, 1, 1), (1, 0)), game.suggest, game.remaining, game.undo):
        with pytest.raises(MMLogicError) as raised:
            call()
        assert str(raised.value) == "the game is closed"
    with mm_logic.new_game(Rules(4, 6), backend=backend) as game:
        pass
    with pytest.raises(MMLogicError, match="^the game is closed$"):
        game.suggest()


# -- 5: grade's files and values ----------------------------------------------------------------------------
def test_grade_words_files_and_values_as_the_command_does(tmp_path):
    drawn = mm_logic.puzzle_set(R34, count=1, seed=1, **PY)
    (tmp_path / "bad.jsonl").write_bytes(b'{"answer": "\xff"}\n')
    missing = tmp_path / "nope.jsonl"
    assert refused(lambda: mm_logic.grade(drawn, missing)) == \
        f"cannot read answers file {missing}: No such file or directory"
    assert refused(lambda: mm_logic.grade(missing, [])) == \
        f"cannot read puzzle set {missing}: No such file or directory"
    assert refused(lambda: mm_logic.grade(drawn, tmp_path / "bad.jsonl")) == \
        f"answers file {tmp_path / 'bad.jsonl'} is not UTF-8 text"
    assert refused(lambda: mm_logic.grade([{"x": {1, 2}}], ["000"])) == "puzzles item 1 is not JSON: {'x': {1, 2}}"
    assert refused(lambda: mm_logic.grade(drawn, 5)) == "answers must be a file's path or a list, got 5"


# -- 6: the command line's ranges ---------------------------------------------------------------------------
@pytest.mark.parametrize("call, message", [
    (lambda: mm_logic.bench(R34, games=10**15, **PY), "--games 1000000000000000 is not in the range 1<=x<=1000000"),
    (lambda: mm_logic.bench(R34, games=0, **PY), "--games 0 is not in the range 1<=x<=1000000"),
    (lambda: mm_logic.bench(R34, games=-2, **PY), "--games -2 is not in the range 1<=x<=1000000"),
    (lambda: mm_logic.bench(R34, games=True, **PY), "--games True is not a valid integer"),
    (lambda: mm_logic.bench(R34, jobs=0, **PY), "--jobs 0 is not in the range x>=1"),
    (lambda: mm_logic.compare(["minimax"], R34, backends=["python"], games=10**9),
     "--games 1000000000 is not in the range 1<=x<=1000000"),
    (lambda: mm_logic.puzzle(R34, entries=3, tries=0, **PY), "--tries 0 is not in the range 1<=x<=100000"),
    (lambda: mm_logic.puzzle(R34, entries=3, tries=-5, **PY), "--tries -5 is not in the range 1<=x<=100000"),
    (lambda: mm_logic.puzzle(R34, entries=10**9, **PY), "--entries 1000000000 is not in the range 1<=x<=1000"),
    (lambda: mm_logic.puzzle_set(R34, count=0, **PY), "--count 0 is not in the range 1<=x<=100000"),
    (lambda: mm_logic.static_guesses(Rules(2, 5), guesses=0), "--guesses 0 is not in the range 1<=x<=4096"),
    (lambda: mm_logic.optimal_strategy(R34, max_depth=0), "--max-depth 0 is not in the range x>=1"),
])
def test_the_command_lines_ranges(call, message):
    assert refused(call) == message


def test_the_ranges_are_the_command_lines_own():
    from mm_logic.cli import benches, options, puzzles
    from mm_logic.support import limits

    games = {p.name: p.type for p in benches.bench.params}["games"]
    assert (options.MAX_GAMES, games.max) == (limits.MAX_GAMES, limits.MAX_GAMES)
    drawn = {p.name: p.type.max for p in puzzles.puzzle_command.params if p.name in ("tries", "entries", "count")}
    assert drawn == {"tries": limits.MAX_TRIES, "entries": limits.MAX_ENTRIES, "count": limits.MAX_COUNT}
    assert {p.name: p.type for p in puzzles.static_command.params}["guesses"].max == limits.MAX_GUESSES


# -- 7: values of the wrong type, and long names ------------------------------------------------------------
@pytest.mark.parametrize("call, message", [
    (lambda: Rules("4", 6), "--pegs must be a whole number, got '4'"),
    (lambda: Rules(4.5, 6), "--pegs must be a whole number, got 4.5"),
    (lambda: Rules(4, 6.0), "--colors must be a whole number, got 6.0"),
    (lambda: Rules(True, 6), "--pegs must be a whole number, got True"),
    (lambda: Rules(4, 6, feedback=None), "--feedback must be a string, got None"),
    (lambda: Rules(4, 6, max_repeat="1"), "--max-repeat must be a whole number, got '1'"),
    (lambda: mm_logic.solve(R36, "012", seed=-5, **PY), "--seed -5 is not in the range x>=0"),
    (lambda: mm_logic.puzzle(R34, entries=3, seed=-5, **PY), "--seed -5 is not in the range x>=0"),
    (lambda: mm_logic.bench(R34, seed=-5, **PY), "--seed -5 is not in the range x>=0"),
    (lambda: mm_logic.solve(R36, "012", seed="x", **PY), "--seed 'x' is not a valid integer"),
    (lambda: mm_logic.solve(R36, "012", time_limit="x", **PY), "--time-limit 'x' is not a number of seconds"),
    (lambda: mm_logic.solve(R36, "012", time_limit=-1, **PY), "--time-limit -1 is not in the range x>0"),
    (lambda: mm_logic.solve(R36, "012", time_limit=float("nan"), **PY), "--time-limit nan is not a number of seconds"),
    (lambda: mm_logic.solve(R36, 1234, **PY),
     "code 1234 is neither written as the command line writes it ('0123') nor a sequence of colour numbers"),
    (lambda: mm_logic.solve(R36, [0, 1, "x"], **PY), "code [0, 1, 'x'] holds 'x', not a colour number"),
    (lambda: mm_logic.solve(6, "012", **PY), "rules must be mm_logic.Rules(...), got 6"),
    (lambda: mm_logic.solve(R36, "012", strategy=5, **PY), "--strategy must be a name (a string), got 5"),
    (lambda: mm_logic.next_guess([("0011", "1,0"), ((0, 0, 1, 1), (1,))], **PY),
     "feedback 1 is not two whole numbers (black, white)"),
    (lambda: mm_logic.next_guess("0011:1,0", **PY),
     "history '0011:1,0' is one text: give a list of entries, 'GUESS:B,W' each"),
    (lambda: mm_logic.next_guess([(0, 0, 1)], **PY),
     "history entry (0, 0, 1) is neither of the form GUESS:B,W (e.g. 0011:1,0) nor a pair (guess, feedback)"),
    (lambda: mm_logic.new_game(Rules(4, 6), history=[((0, 0, 1, 9), (1, 0))], **PY),
     "colour 9 in code (0, 0, 1, 9) is outside 0..5"),
    (lambda: mm_logic.history(Rules(4, 6), [((0, 0, 1, 1), (1,))]),
     "feedback 1 is not two whole numbers (black, white)"),
    (lambda: mm_logic.split_codes((0, 0, 9), [], R36, **PY), "colour 9 in code (0, 0, 9) is outside 0..5"),
    (lambda: mm_logic.solve(R36, "012", strategy=LONG, **PY),
     "unknown strategy 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (100,000 characters); choose from first, any, "
     "random, any-random-opening, minimax, expected, entropy, parts, weighted-entropy, weighted-entropy-stages, "
     "human1, human2, human3, ga001-random, ga001-similar, ga001-dissimilar, ga001-reduction, ga004, sample-entropy"),
    (lambda: mm_logic.solve(R36, "012", backend=LONG),
     "unknown backend 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (100,000 characters); choose from clingo, swipl, "
     "python, a1, a2, a3, a4, a5"),
    (lambda: mm_logic.optimal_strategy(R34, objective=LONG),
     "unknown objective 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (100,000 characters); choose from expected, "
     "worst, worst-case"),
])
def test_a_value_of_the_wrong_type_is_one_line(call, message):
    assert refused(call) == message


def test_compare_takes_names_comma_separated_as_the_command_line_does():
    listed = mm_logic.compare(["minimax", "entropy"], Rules(2, 3), backends=["python"])
    written = mm_logic.compare("minimax,entropy", Rules(2, 3), backends="python")
    assert [row["total_guesses"] for row in written.as_dict()["rows"]] == \
        [row["total_guesses"] for row in listed.as_dict()["rows"]]
    assert refused(lambda: mm_logic.compare(["minimax", 5], Rules(2, 3), backends="python")) == \
        "--strategy must be a name (a string), got 5"


def test_the_checks_leave_a_valid_call_as_it_was():
    assert mm_logic.code(Rules(4, 6), "0123") == mm_logic.code(Rules(4, 6), [0, 1, 2, 3]) == (0, 1, 2, 3)
    assert mm_logic.history(Rules(4, 6), ["0011:1,0", ("2345", "0,2"), ((0, 1, 2, 3), (1, 1))]) == \
        [((0, 0, 1, 1), (1, 0)), ((2, 3, 4, 5), (0, 2)), ((0, 1, 2, 3), (1, 1))]
