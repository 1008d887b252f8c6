"""`mmlogic play --role codemaker` in a real pseudo-terminal (pexpect): the computer guesses a
code kept in mind; a wrong answer is caught at once, undone, and the game still ends.

The guesses are Knuth's (minimax, python engine) against the code 1234, so every prompt
is known in advance: 0011 (1234 gives 0,1), then the strategy's answer to each feedback.
"""

from __future__ import annotations

import pexpect
import pytest

from conftest import MMLOGIC


@pytest.fixture
def game():
    child = pexpect.spawn(MMLOGIC, ["play", "--role", "codemaker", "--backend", "python", "--strategy", "minimax"],
                          encoding="utf-8", timeout=30)
    yield child
    child.close(force=True)


def ends_with(game, line: str) -> None:
    """The game prints ``line``, then ends with exit status 0."""
    game.expect_exact(line)
    game.expect(pexpect.EOF)
    game.close()
    assert game.exitstatus == 0


def test_a_wrong_answer_is_caught_named_and_undone(game):
    game.expect_exact("guess 1: 0011  black,white> ")
    game.sendline("0,1")                       # right: 1234 has one 1, no 0
    game.expect_exact("guess 2: 1233  black,white> ")
    game.sendline("2,0")                       # wrong: 1234 gives 3,0; still possible on its own
    game.expect_exact("guess 3: 0434  black,white> ")
    game.sendline("2,0")                       # right
    game.expect_exact("guess 4: 1435  black,white> ")
    game.sendline("2,1")                       # right, and no code fits it with the wrong answer 2
    game.expect_exact("no code is consistent with the history: entries 1, 2, 3, 4 (0011:0,1 1233:2,0 0434:2,0 "
                      "1435:2,1) contradict each other; type the right answer for 1435, or undo")
    game.expect_exact("guess 4: 1435  black,white> ")
    game.sendline("undo")
    game.expect_exact("took back 0434 2,0")
    game.expect_exact("guess 3: 0434  black,white> ")
    game.sendline("undo")
    game.expect_exact("took back 1233 2,0")
    game.expect_exact("guess 2: 1233  black,white> ")
    # From here Knuth's game against 1234, as `mmlogic solve --secret 1234` plays it.
    for answer, prompt in [("3,0", "guess 3: 0224"), ("2 0", "guess 4: 1223"), ("2,1", "guess 5: 1234")]:
        game.sendline(answer)
        game.expect_exact(f"{prompt}  black,white> ")
    game.sendline("4,0")
    ends_with(game, "found your code in 5 guesses")


def test_after_quit_the_code_shows_which_answer_was_wrong(game):
    game.expect_exact("guess 1: 0011  black,white> ")
    game.sendline("0,1")
    game.expect_exact("guess 2: 1233  black,white> ")
    game.sendline("x")
    game.expect_exact("'x' is not an answer: type black and white, e.g. 1,2 or 1 2; try again (help for help)")
    game.expect_exact("guess 2: 1233  black,white> ")
    game.sendline("2,0")
    game.expect_exact("guess 3: 0434  black,white> ")
    game.sendline("quit")
    game.expect_exact("what was your code? (Enter to skip)> ")
    game.sendline("12x4")                      # a typo here is asked again too
    game.expect_exact("symbol 'x' in code '12x4' is not one of the 6 colours 012345; try again (Enter to skip)")
    game.expect_exact("what was your code? (Enter to skip)> ")
    game.sendline("1234")
    ends_with(game, "answer 2 was wrong: 1233 gets 3,0, you said 2,0")


def test_secret_is_refused_as_codemaker(run):
    result = run("play", "--role", "codemaker", "--secret", "0123")
    assert result.exit_code == 2
    assert result.stderr == "error: --secret applies to --role codebreaker: as codemaker you keep the code in mind\n"


@pytest.mark.parametrize("role, prompt", [("codemaker", "guess 2: 1233  black,white> "), ("codebreaker", "guess 2> ")])
def test_ctrl_c_at_a_prompt_is_interrupted_exit_130(role, prompt):
    # Ctrl-D gives up (exit 0, the secret shown); Ctrl-C interrupts, as in every command.
    child = pexpect.spawn(MMLOGIC, ["play", "--role", role, "--backend", "python", "--strategy", "minimax",
                                    *(["--secret", "1234"] if role == "codebreaker" else [])],
                          encoding="utf-8", timeout=30)
    try:
        child.expect_exact("guess 1")
        child.sendline("0,1" if role == "codemaker" else "0011")
        child.expect_exact(prompt)
        child.sendintr()
        child.expect_exact("interrupted")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 130
        assert "the secret was" not in child.before and "what was your code" not in child.before
    finally:
        child.close(force=True)
