"""The web page's "Computer guesses your code" tab with your code typed (seed 003's interface), and the rules
chooser's max repeat and alphabet, in headless Chromium.

Your code stays in the page: each answer is checked against the feedback the page computes for it (feedback.js's
feedbackStandard, feedbackBlack, feedbackPositional, checked here against mm_logic.feedback on random pairs),
and no request carries it (the page's fetch is recorded). The browser, the server and the page's helpers are
test_web_page.py's.
"""

from __future__ import annotations

import json
import random

import pytest
from test_web_page import RULES, Page, driver, server, shown, shown_in  # noqa: F401 (the fixtures, shared)

from mm_logic.feedback import rule_of
from mm_logic.game import plural
from mm_logic.rules import Rules

from conftest import played

# Wraps the page's fetch: each request's method, path and body, in order, for the test to read.
RECORD_REQUESTS = """
window.requestsMade = [];
const original = window.fetch.bind(window);
window.fetch = (path, options = {}) => {
  window.requestsMade.push([options.method ?? "GET", String(path), options.body ?? ""]);
  return original(path, options);
};
"""


def requests_made(page: Page) -> list[list[str]]:
    return page.driver.execute_script("return window.requestsMade")


def type_into(page: Page, testid: str, text: str) -> None:
    field = page.find(testid)
    field.clear()
    field.send_keys(text)


def test_the_pages_feedback_functions_agree_with_mm_logic(driver, server):  # noqa: F811
    Page(driver, server)  # loads the page's modules, feedback.js among them
    draw = random.Random(3)
    pairs = []
    for _ in range(600):
        pegs, colors = draw.randint(1, 7), draw.randint(1, 9)
        pairs.append(([draw.randrange(colors) for _ in range(pegs)], [draw.randrange(colors) for _ in range(pegs)]))
    answers = driver.execute_script(
        "return arguments[0].map(([g, s]) => [feedbackStandard(g, s), feedbackBlack(g, s), "
        "feedbackPositional(g, s)])", pairs)
    for (guess, secret), found in zip(pairs, answers):
        expected = []
        for rule in ("standard", "black", "positional"):
            scoring = rule_of(Rules(len(guess), 9, feedback=rule))
            expected.append(scoring.as_json(scoring.score(tuple(guess), tuple(secret))))
        assert found == expected, (guess, secret)


@pytest.mark.slow  # a whole game by clicks, with a refused answer: about 3 s
def test_your_code_typed_checks_each_answer_and_is_never_sent(driver, server, tmp_path):  # noqa: F811
    page = Page(driver, server)
    driver.execute_script(RECORD_REQUESTS)
    page.choose("python", "minimax")
    page.click("tab-codemaker")
    type_into(page, "cm-secret", "1234")
    page.click("cm-new")
    assert page.attribute("cm-guess", "data-code") == "0011"
    page.click("cm-black-plus")  # 1,0: but 1234 answers 0011 with 0,1
    page.click("cm-send")
    assert page.message() == "Your code 1234 answers 0011 with 0,1, not 1,0: nothing sent."
    assert page.rows("cm") == [] and not any("/feedback" in path for _, path, _ in requests_made(page))
    page.save(page.png(), tmp_path, "codemaker-your-code.png")  # docs/screenshots' (test_web_page.py's docstring)
    for _ in range(10):
        page.click("cm-fill")  # the page sets the answer the code gives
        page.click("cm-send")
        assert page.message() == ""
        if page.text("cm-status"):
            break
    expected = played("python", "minimax", "1234", RULES)
    assert page.rows("cm") == shown(expected)
    assert [row["guess"] for row in shown(expected)] == ["0011", "1233", "0224", "1223", "1234"]
    assert page.text("cm-status") == f"The computer found your code 1234 in {plural(len(expected), 'guess')}."
    made = requests_made(page)
    answers = [json.loads(body) for _, path, body in made if path.endswith("/feedback")]
    assert answers == [{"black": row["black"], "white": row["white"], "guess": row["guess"]}
                       for row in shown(expected)]
    # The code is in no request: the answers only, and the computer's guesses, the last of which is the code
    # found (the last request is that answer).
    assert [body for _, _, body in made if "1234" in body] == [made[-1][2]]
    assert not any("1234" in path for _, path, _ in made)
    assert page.console_errors() == []


def test_a_code_typed_mid_game_checks_the_answers_given_before(driver, server):  # noqa: F811
    page = Page(driver, server)
    page.choose("python", "minimax")
    page.click("tab-codemaker")
    page.find("cm-secret").clear()
    page.click("cm-new")
    page.click("cm-black-plus")  # 1,0 to 0011, sent: no code typed yet
    page.click("cm-send")
    type_into(page, "cm-secret", "1234")
    page.click("cm-fill")
    page.click("cm-send")
    assert page.message() == "Your code 1234 answers 0011 (guess 1) with 0,1, not 1,0: undo to it."
    assert page.rows("cm") == [{"guess": "0011", "black": 1, "white": 0, "text": "1,0"}]
    page.click("cm-undo")
    page.click("cm-fill")
    page.click("cm-send")
    assert page.message() == "" and page.rows("cm") == [{"guess": "0011", "black": 0, "white": 1, "text": "0,1"}]


@pytest.mark.parametrize("feedback, secret, wrong, message", [
    ("black", "1203", ("cm-black-plus", "cm-black-plus"), "Your code 1203 answers 0000 with 1, not 2: nothing sent."),
    pytest.param("positional", "5402", ("cm-mark-0",), "Your code 5402 answers 0000 with --x-, not o---: nothing sent.",
                 marks=pytest.mark.slow),  # six guesses: about 3 s
])
def test_your_code_checks_the_other_feedback_rules(driver, server, feedback, secret, wrong, message):  # noqa: F811
    page = Page(driver, server)
    page.choose("python", "first", feedback=feedback)
    page.click("tab-codemaker")
    type_into(page, "cm-secret", secret)
    page.click("cm-new")
    for testid in wrong:
        page.click(testid)
    page.click("cm-send")
    assert page.message() == message
    for _ in range(12):
        page.click("cm-fill")
        page.click("cm-send")
        assert page.message() == ""
        if page.text("cm-status"):
            break
    rules = Rules(4, 6, feedback=feedback)
    expected = played("python", "first", secret, rules)
    assert page.rows("cm") == shown_in(rules, expected)
    assert [row["guess"] for row in page.rows("cm")] == GUESSES[feedback]


GUESSES = {"black": ["0000", "0111", "1022", "1203"], "positional": ["0000", "1101", "2202", "3302", "4402", "5402"]}


def test_max_repeat_and_alphabet_from_the_rules_chooser(driver, server):  # noqa: F811
    page = Page(driver, server)
    page.choose("python", "first")
    page.click("tab-codemaker")
    for testid, value, refused in (
            ("max-repeat", "0", "Max repeat: enter at least 1, or nothing for any"),
            ("alphabet", "AAB", "Alphabet: enter distinct symbols, without ',', ':' or spaces")):
        type_into(page, testid, value)
        page.click("cm-new")
        assert page.message() == refused
        page.find(testid).clear()
    type_into(page, "max-repeat", "2")
    type_into(page, "alphabet", "ABCDEF")
    type_into(page, "cm-secret", "AAAB")
    page.click("cm-new")
    assert page.text("cm-info") == "4 pegs, 6 colours, at most 2 of each colour; the computer plays first on python"
    page.click("cm-send")
    assert page.message() == "Your code: at most 2 of each colour in this game"
    type_into(page, "cm-secret", "FEDA")
    for _ in range(12):
        page.click("cm-fill")
        page.click("cm-send")
        if page.text("cm-status"):
            break
    rules = Rules(4, 6, max_repeat=2, alphabet="ABCDEF")
    expected = played("python", "first", "FEDA", rules)
    rows = page.rows("cm")
    assert rows == shown_in(rules, expected)
    assert [row["guess"] for row in rows] == ["AABB", "BCCD", "CEAE", "CFFA", "FEDA"]
    assert all(max(row["guess"].count(c) for c in row["guess"]) <= 2 for row in rows)
    assert page.text("cm-status") == f"The computer found your code FEDA in {plural(len(rows), 'guess')}."
    # The server refuses what the page cannot check: no repetition and max repeat 2 together.
    page.find("no-repeat").click()
    page.click("cm-new")
    assert page.message() == "\u201cNo repetition\u201d contradicts Max repeat 2"
