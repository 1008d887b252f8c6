"""`mmlogic play --role duel` in a real pseudo-terminal (pexpect): you break the computer's code,
then it breaks yours, and the score follows each round.

Seeded (``--seed 1``): the computer's code of round 1 is 2345. In round 2 the person keeps 1234
in mind and the computer plays Knuth's game (minimax, python engine), as in
test_play_codemaker.py: 0011, 1233, 0224, 1223, 1234.
"""

from __future__ import annotations

import pexpect
import pytest

from conftest import MMLOGIC, PY, one_line_error

DUEL = ["play", "--role", "duel", *PY, "--strategy", "minimax", "--seed", "1"]
#: The computer's game against 1234, each guess with the answer the person types.
KNUTH_1234 = [("0011", "0,1"), ("1233", "3,0"), ("0224", "2,0"), ("1223", "2,1"), ("1234", "4,0")]


@pytest.fixture
def spawn():
    children = []

    def start(*extra):
        child = pexpect.spawn(MMLOGIC, [*DUEL, *extra], encoding="utf-8", timeout=30)
        children.append(child)
        return child

    yield start
    for child in children:
        child.close(force=True)


def ends_with(child, line: str) -> None:
    """The duel prints ``line``, then ends with exit status 0."""
    child.expect_exact(line)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def computer_breaks_1234(child, round_line: str) -> None:
    child.expect_exact(round_line)
    for guess, answer in KNUTH_1234:
        child.expect_exact(f"{guess}  black,white> ")
        child.sendline(answer)
    child.expect_exact("found your code in 5 guesses")


def test_a_seeded_duel_of_two_rounds_scores_each_round_and_names_the_winner(spawn):
    duel = spawn()
    duel.expect_exact("A duel of 2 rounds (4x6): you break the computer's code, then it breaks yours, in turn. "
                      "The codemaker scores a point per guess, and 1 more for a code not broken in 10 guesses; "
                      "the most points win.")
    duel.expect_exact("round 1 of 2: you break the computer's code")
    duel.expect_exact("guess 1> ")
    duel.sendline("hint")                      # the opponent's strategy does not guess for you
    duel.expect_exact("no hint in a duel: every guess counts; type a code")
    duel.sendline("0011")
    duel.expect_exact("0011  0,0")
    duel.sendline("undo")                      # nor is an answer seen taken back
    duel.expect_exact("no undo in a duel: every guess counts; type a code")
    duel.expect_exact("guess 2> ")
    duel.sendline("2345")
    duel.expect_exact("found in 2 guesses")
    duel.expect_exact("round 1: the computer scores 2 (you broke its code in 2 guesses)")
    duel.expect_exact("score after round 1 of 2: you 0, the computer 2")
    computer_breaks_1234(duel, "round 2 of 2: the computer breaks your code")
    duel.expect_exact("round 2: you score 5 (the computer broke your code in 5 guesses)")
    duel.expect_exact("score after round 2 of 2: you 5, the computer 2")
    ends_with(duel, "you win the duel, 5 to 2")


def test_a_code_not_broken_in_time_scores_the_extra_point_and_giving_up_too(spawn):
    duel = spawn("--rounds", "4", "--max-guesses", "2")
    duel.expect_exact("round 1 of 4: you break the computer's code")
    for guess in ("0011", "0123"):
        duel.expect_exact("> ")
        duel.sendline(guess)
    duel.expect_exact("out of guesses (--max-guesses 2)")
    duel.expect_exact("the secret was 2345")
    duel.expect_exact("round 1: the computer scores 3 (its code not broken in 2 guesses: 2 and 1 more)")
    duel.expect_exact("guess 1: 0011  black,white> ")
    duel.sendline("quit")                      # stopping the computer: its guesses so far, no extra point
    duel.expect_exact("what was your code? (Enter to skip)> ")
    duel.sendline("")
    duel.expect_exact("round 2: you score 0 (you stopped the computer after 0 guesses: no extra point)")
    duel.expect_exact("round 3 of 4: you break the computer's code")
    duel.expect_exact("guess 1> ")
    duel.sendline("quit")                      # giving up: as a code not broken
    duel.expect_exact("the secret was 0045")
    duel.expect_exact("round 3: the computer scores 3 (you gave up: 2 and 1 more, as for a code not broken)")
    duel.expect_exact("score after round 3 of 4: you 0, the computer 6")
    duel.expect_exact("guess 1: 0011  black,white> ")
    duel.sendline("0,1")
    duel.expect_exact("guess 2: 1233  black,white> ")
    duel.sendline("3,0")
    duel.expect_exact("out of guesses (--max-guesses 2)")
    duel.expect_exact("what was your code? (Enter to skip)> ")
    duel.sendline("1234")
    duel.expect_exact("every answer was right")
    duel.expect_exact("round 4: you score 3 (your code not broken in 2 guesses: 2 and 1 more)")
    duel.expect_exact("score after round 4 of 4: you 3, the computer 6")
    ends_with(duel, "the computer wins the duel, 6 to 3")


def test_the_extra_point_goes_only_to_a_code_shown_that_fits_the_answers(spawn):
    duel = spawn("--rounds", "4", "--max-guesses", "2")
    for round_number in (1, 3):
        duel.expect_exact(f"round {round_number} of 4: you break the computer's code")
        duel.expect_exact("guess 1> ")
        duel.sendline("quit")
        if round_number == 1:
            # 1234 gives 0011 0,1: answered 0,0, then 2234 as 1234 gives it, the code shown does not fit.
            duel.expect_exact("guess 1: 0011  black,white> ")
            duel.sendline("0,0")
            duel.expect_exact("guess 2: 2234  black,white> ")
            duel.sendline("3,0")
            duel.expect_exact("what was your code? (Enter to skip)> ")
            duel.sendline("1234")
            duel.expect_exact("answer 1 was wrong: 0011 gets 0,1, you said 0,0")
            duel.expect_exact("round 2: you score 2 (your code not broken in 2 guesses, but your answers did not "
                              "fit it: no extra point)")
        else:
            duel.expect_exact("guess 1: 0011  black,white> ")
            duel.sendline("0,0")
            duel.expect_exact("guess 2: 2234  black,white> ")
            duel.sendline("0,0")
            duel.expect_exact("what was your code? (Enter to skip)> ")
            duel.sendline("")                  # not shown: no extra point either
            duel.expect_exact("round 4: you score 2 (your code not broken in 2 guesses, but not shown: no extra "
                              "point)")
    ends_with(duel, "the computer wins the duel, 6 to 4")


def test_end_of_input_ends_the_duel_with_who_leads(spawn):
    duel = spawn()
    duel.expect_exact("guess 1> ")
    duel.sendline("0011")
    duel.expect_exact("guess 2> ")
    duel.sendeof()
    duel.expect_exact("the secret was 2345")
    duel.expect_exact("round 1: the computer scores 11 (you gave up: 10 and 1 more, as for a code not broken)")
    duel.expect_exact("score after round 1 of 2: you 0, the computer 11")
    ends_with(duel, "the duel stopped after round 1 of 2: the computer leads, 11 to 0")


def test_ctrl_c_in_a_duel_is_interrupted_exit_130(spawn):
    duel = spawn()
    duel.expect_exact("guess 1> ")
    duel.sendintr()
    duel.expect_exact("interrupted")
    duel.expect(pexpect.EOF)
    duel.close()
    assert duel.exitstatus == 130
    assert "round 1:" not in duel.before


@pytest.mark.parametrize("args, message", [
    (["--rounds", 3], "--rounds 3 is odd: a duel has an even number of rounds, so that each side makes as many "
                      "codes as it breaks"),
    (["--rounds", 0], "Invalid value for '--rounds': 0 is not in the range 2<=x<=100."),
    (["--rounds", "two"], "Invalid value for '--rounds': 'two' is not a valid integer."),
    (["--secret", "0123"], "--secret applies to --role codebreaker: in a duel the computer's codes are drawn "
                           "(reproducible with --seed)"),
])
def test_bad_duel_options_are_one_line_exit_2(run, args, message):
    one_line_error(run("play", "--role", "duel", *PY, *args, input=""), 2, message, stdout="")


@pytest.mark.parametrize("role", ["codebreaker", "codemaker"])
def test_rounds_is_refused_outside_a_duel(run, role):
    one_line_error(run("play", "--role", role, *PY, "--rounds", 2, input=""), 2, "--rounds applies to --role duel",
                   stdout="")


def test_a_duel_read_from_a_pipe_plays_to_the_end(run):
    # Lines typed ahead (a pipe): the prompts go to stderr, the duel alone to stdout, line for line.
    typed = "2345\n" + "".join(f"{answer}\n" for _, answer in KNUTH_1234)
    result = run(*DUEL, input=typed)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "A duel of 2 rounds (4x6): you break the computer's code, then it breaks yours, in turn. The codemaker "
        "scores a point per guess, and 1 more for a code not broken in 10 guesses; the most points win.",
        "round 1 of 2: you break the computer's code",
        "Find the code of 4 pegs over 012345 (4x6). Type help for help.",
        "2345  4,0",
        "found in 1 guess",
        "round 1: the computer scores 1 (you broke its code in 1 guess)",
        "score after round 1 of 2: you 0, the computer 1",
        "round 2 of 2: the computer breaks your code",
        "Think of a code of 4 pegs over 012345 (4x6); I guess it. Answer each guess with black,white (e.g. 1,2); "
        "undo takes your last answer back; help for help.",
        "found your code in 5 guesses",
        "round 2: you score 5 (the computer broke your code in 5 guesses)",
        "score after round 2 of 2: you 5, the computer 1",
        "you win the duel, 5 to 1",
    ]


def test_help_in_a_duel_offers_no_helpers(run):
    result = run(*DUEL, input="help\n")
    assert ("type a code of 4 pegs, e.g. 0123 or 0 1 2 3; quit (or q) to give up; a line that is a code is played "
            "as a guess, even one that spells a command") in result.stdout.splitlines()
