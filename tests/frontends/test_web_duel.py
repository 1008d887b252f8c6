"""The web page's Duel tab in headless Chromium: you break the computer's code in the Play tab,
then the computer breaks yours in the Codemaker tab, and the Duel tab keeps the score (the
board game's, as ``mmlogic play --role duel`` keeps it: tests/frontends/test_play_duel.py).

The browser, the server and the page's helpers are test_web_page.py's.
"""

from __future__ import annotations

import pytest
from test_web_page import RULES, Page, driver, server  # noqa: F401 (the fixtures, shared)

from mm_logic.engines import make_engine
from mm_logic.feedback import feedback
from mm_logic.game import Game, plural
from mm_logic.notation import format_code, parse_code
from mm_logic.strategies import make_strategy

from conftest import played


def guess_on_the_page(page: Page, code: str) -> None:
    for symbol in code:
        page.click(f"palette-{RULES.alphabet.index(symbol)}")
    page.click("play-submit")


def duel_tab(driver, server) -> Page:  # noqa: F811
    """The page with the python engine's minimax, in its Duel tab."""
    page = Page(driver, server)
    page.choose("python", "minimax")
    page.click("tab-duel")
    return page


def type_in(page: Page, testid: str, text: str) -> None:
    page.find(testid).clear()
    page.find(testid).send_keys(text)


def answer_on_the_page(page: Page, black: int, white: int) -> None:
    for _ in range(black):
        page.click("cm-black-plus")
    for _ in range(white):
        page.click("cm-white-plus")
    page.click("cm-send")


@pytest.mark.slow  # two whole games by clicks
def test_a_duel_of_two_rounds_to_the_winner(driver, server, tmp_path):  # noqa: F811
    page = duel_tab(driver, server)
    page.click("duel-start")
    assert page.attribute("tab-play", "aria-selected") == "true"
    assert page.text("play-duel") == ("Round 1 of 2: you break the computer's code in the Play tab (at most 10 "
                                      "guesses, no assistant).")
    # No assistant in a duel (the opponent's strategy), and no new game over the duel's.
    assert [page.find(i).is_enabled() for i in ("hint", "play-new")] == [False, False]
    # You play Knuth's game in process, from the answers the board shows.
    with Game(make_engine("python", RULES), make_strategy("minimax", RULES)) as game:
        for _ in range(10):
            code = format_code(game.suggest(), RULES)
            guess_on_the_page(page, code)
            row = page.rows("play")[-1]
            assert row["guess"] == code
            if row["black"] == RULES.pegs:
                break
            game.record(parse_code(code, RULES), (row["black"], row["white"]))
    turn = len(page.rows("play"))
    secret = page.text("play-status").split()[2]
    assert len(played("python", "minimax", secret, RULES)) == turn
    assert page.text("play-status") == f"You found {secret} in {plural(turn, 'guess')}."
    first = f"Round 1: the computer scores {turn} (you broke its code in {plural(turn, 'guess')})."
    assert page.text("play-duel") == f"{first} Next: round 2 of 2, in the Duel tab."
    page.click("tab-duel")
    assert page.text("duel-score") == f"Score: you 0, the computer {turn}."
    page.click("duel-next")
    assert page.attribute("tab-codemaker", "aria-selected") == "true"
    assert page.text("cm-duel").startswith("Round 2 of 2: the computer breaks your code")
    assert not page.find("cm-new").is_enabled()
    kept = parse_code("1234", RULES)
    for _ in range(10):
        answer_on_the_page(page, *feedback(parse_code(page.attribute("cm-guess", "data-code"), RULES), kept))
        if page.text("cm-status"):
            break
    assert page.rows("cm")[-1]["guess"] == "1234" and len(page.rows("cm")) == 5
    page.click("tab-duel")
    second = "Round 2: you score 5 (the computer broke your code in 5 guesses)."
    verdict = "The duel is a draw, 5 to 5." if turn == 5 else f"You win the duel, 5 to {turn}."
    assert page.text("duel-status") == f"{second} {verdict}"
    assert page.text("duel-score") == f"Score: you 5, the computer {turn}."
    assert [r.text for r in page.all('[data-testid^="duel-round-"]')] == [
        f"1 you {turn} {turn} to the computer", "2 the computer 5 5 to you"]
    assert [page.find(i).is_enabled() for i in ("duel-start", "duel-next", "duel-stop", "cm-new", "play-new")] == \
        [True, False, False, True, True]
    assert page.message() == "" and page.console_errors() == []
    page.save(page.png(), tmp_path, "duel.png")


def test_out_of_guesses_a_stopped_round_and_a_bad_number_of_rounds(driver, server):  # noqa: F811
    page = duel_tab(driver, server)
    for rounds in ("3", "x"):
        type_in(page, "duel-rounds", rounds)
        page.click("duel-start")
        assert page.message() == ("Rounds: enter an even number, at least 2 (each side makes as many codes as it "
                                  "breaks)" if rounds == "3" else "Rounds: enter a whole number")
    type_in(page, "duel-rounds", "2")
    type_in(page, "duel-limit", "1")
    page.click("duel-start")
    assert page.message() == ""
    guess_on_the_page(page, "0000")               # not the secret (then: a 1-guess round, broken)
    if page.rows("play")[-1]["black"] == RULES.pegs:
        pytest.skip("the secret drawn was 0000")
    assert page.text("play-status").startswith("The secret was ")
    assert page.text("play-status").endswith(" (out of guesses: 1 allowed in the duel).")
    assert page.text("play-duel") == ("Round 1: the computer scores 2 (its code not broken in 1 guess: 1 and 1 more). "
                                      "Next: round 2 of 2, in the Duel tab.")
    page.click("tab-duel")
    page.click("duel-next")
    assert page.attribute("cm-guess", "data-code") == "0011"
    page.click("tab-duel")
    page.click("duel-stop")                       # stopping the computer: its guesses so far, no extra point
    assert page.text("duel-status") == ("Round 2: you score 0 (you stopped the computer after 0 guesses: no extra "
                                        "point). The computer wins the duel, 2 to 0.")
    page.click("tab-codemaker")
    assert page.text("cm-status") == "You stopped the round."
    assert not page.find("cm-send").is_displayed() and not page.find("cm-undo").is_enabled()
    assert page.console_errors() == []


@pytest.mark.slow  # six rounds by clicks
def test_your_code_not_broken_earns_the_extra_point_only_shown_with_every_answer_right(driver, server):  # noqa: F811
    """As `play --role duel` asks: the round waits for your code; shown and fitting every answer, the extra point;
    not fitting, or not shown (the round stopped), none."""
    page = duel_tab(driver, server)
    type_in(page, "duel-rounds", "6")
    type_in(page, "duel-limit", "1")
    page.click("duel-start")

    def your_round(number: int, answer: tuple[int, int]) -> None:
        if number > 2:
            page.click("tab-duel")
            page.click("duel-next")
        guess_on_the_page(page, "0000")  # the computer's code: broken or not, the round is over in one guess
        page.click("tab-duel")
        page.click("duel-next")
        assert page.attribute("cm-guess", "data-code") == "0011"
        answer_on_the_page(page, *answer)
        assert page.find("cm-show").is_displayed() is (number != 4)

    kept = feedback(parse_code("0011", RULES), parse_code("1234", RULES))
    your_round(2, kept)
    assert page.text("cm-status") == ("Out of guesses: 1 allowed in the duel. For the extra point, show your code: "
                                      "type it in Your code, then Show your code.")
    assert page.text("cm-duel") == ("Round 2 of 6: the computer did not break your code in 1 guess; show it in the "
                                    "Computer guesses your code tab for the extra point.")
    page.click("cm-show")
    assert page.message() == "Your code: type it first, then show it"
    page.find("cm-secret").send_keys("5555")  # 0011 answers 5555 with 0,0, not the 0,1 given
    page.click("cm-show")
    assert page.text("cm-status") == "Your code 5555 does not fit answer 1 (to 0011): no extra point."
    assert page.text("cm-duel") == ("Round 2: you score 1 (your code not broken in 1 guess, but your answers did not "
                                    "fit it: no extra point). Next: round 3 of 6, in the Duel tab.")
    assert not page.find("cm-show").is_displayed()
    # Your code typed before the end is shown at once.
    your_round(4, feedback(parse_code("0011", RULES), parse_code("5555", RULES)))
    assert page.text("cm-status") == "Your code 5555 fits every answer: the extra point is yours."
    assert page.text("cm-duel") == ("Round 4: you score 2 (your code not broken in 1 guess: 1 and 1 more). "
                                    "Next: round 5 of 6, in the Duel tab.")
    page.find("cm-secret").clear()
    your_round(6, kept)
    page.click("tab-duel")
    page.click("duel-stop")
    assert page.text("duel-status").startswith("Round 6: you score 1 (your code not broken in 1 guess, but not shown: "
                                               "no extra point). ")
    assert page.text("duel-score").startswith("Score: you 4, the computer ")
    page.click("tab-codemaker")
    assert page.text("cm-status") == "You did not show your code: no extra point."
    assert not page.find("cm-show").is_displayed()
    assert page.console_errors() == []
