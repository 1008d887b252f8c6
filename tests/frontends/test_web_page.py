"""The web page of ``mmlogic serve`` in a real browser: headless Chromium driven by Selenium.

A real ``mmlogic serve`` runs on a free port; each test plays a whole game by clicking, as a
person would, and checks what the page shows against the same game played in process:
the guesses, the markers, the messages, the attempts, the winners. Each test saves a
screenshot in its tmp_path, and also in the folder named by ``MMLOGIC_SCREENSHOTS``
(``docs/screenshots`` holds the README's: ``MMLOGIC_SCREENSHOTS=docs/screenshots pytest
tests/frontends/test_web_page.py``).

The browser is Debian's ``chromium`` with its ``chromedriver`` (``bash
scripts/install-browser.sh``). Without them the tests are skipped, and fail under CI
(``CI`` set), where the README's test command has installed them.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from mm_logic.engines import make_engine
from mm_logic.feedback import feedback, rule_of, score
from mm_logic.game import Game, plural
from mm_logic.notation import format_code, parse_code
from mm_logic.rules import Rules
from mm_logic.secret_codes import random_secrets
from mm_logic.server.process import ServerProcess
from mm_logic.strategies import make_strategy

from conftest import played

RULES = Rules(4, 6)
WINDOW = (1100, 800)
WAIT = 20  # seconds a page may take to answer a click (a step is milliseconds on 4x6)


def missing(reason: str):
    """Skip, or fail under CI: there the browser must be installed."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must run the browser tests)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def server():
    """The URL of a real ``mmlogic serve`` on a free port, stopped with Ctrl-C at the end."""
    with ServerProcess() as live:
        yield live.url


@pytest.fixture(scope="module")
def driver():
    """Headless Chromium through its chromedriver, offline (no driver download)."""
    absent = [name for name in ("chromium", "chromedriver") if shutil.which(name) is None]
    if absent:
        missing(f"{' and '.join(absent)} not on PATH: bash scripts/install-browser.sh installs them")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing("selenium is not installed: pip install '.[test]'")
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager would look for a driver on the network
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars",
                     f"--window-size={WINDOW[0]},{WINDOW[1]}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
    # The window's frame takes some of --window-size: make the page itself WINDOW, as the screenshots are.
    inner = browser.execute_script("return [window.innerWidth, window.innerHeight]")
    browser.set_window_size(2 * WINDOW[0] - inner[0], 2 * WINDOW[1] - inner[1])
    yield browser
    browser.quit()


class Page:
    """The page in the browser, with what a test clicks and reads."""

    def __init__(self, driver, url: str):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select, WebDriverWait

        self.driver, self.By, self.Select = driver, By, Select
        self.wait = WebDriverWait(driver, WAIT)
        driver.get_log("browser")  # forget an earlier test's console
        driver.get(url)
        self.settle()
        self.wait.until(lambda d: len(self.select("backend").options) > 0)

    def find(self, testid: str):
        return self.driver.find_element(self.By.CSS_SELECTOR, f'[data-testid="{testid}"]')

    def all(self, css: str, within=None):
        return (within or self.driver).find_elements(self.By.CSS_SELECTOR, css)

    def select(self, testid: str):
        return self.Select(self.find(testid))

    def settle(self) -> None:
        """Wait until no request of the page is under way."""
        self.wait.until(lambda d: d.find_element(self.By.TAG_NAME, "body").get_attribute("data-pending") == "0")

    def click(self, testid: str) -> None:
        self.find(testid).click()
        self.settle()

    def text(self, testid: str) -> str:
        return self.find(testid).text

    def attribute(self, testid: str, name: str) -> str:
        return self.find(testid).get_attribute(name)

    def message(self) -> str:
        """The message area's text, empty when it is hidden."""
        box = self.find("message")
        return box.text if box.is_displayed() else ""

    def choose(self, backend: str = "python", strategy: str = "minimax", pegs: int = 4, colors: int = 6,
               feedback: str | None = None) -> None:
        for testid, value in (("pegs", pegs), ("colors", colors)):
            field = self.find(testid)
            field.clear()
            field.send_keys(str(value))
        if feedback is not None:  # first: the lists then offer what plays the rule
            self.select("feedback").select_by_value(feedback)
        self.select("backend").select_by_value(backend)
        self.select("strategy").select_by_value(strategy)

    def rows(self, prefix: str) -> list[dict]:
        """A board's rows as shown: the guess (its pegs' symbols), the markers, the feedback text."""
        rows = []
        for number in range(1, 100):
            found = self.all(f'[data-testid="{prefix}-row-{number}"]')
            if not found:
                return rows
            row = found[0]
            guess, text = "".join(p.text for p in self.all(".pegs .peg", row)), self.all(".feedback-text", row)[0].text
            if self.all(".marks", row):  # the positional rule: a mark per peg, x o or -
                rows.append({"guess": guess, "marks": "".join(m.text for m in self.all(".marks .mark", row)),
                             "text": text})
                continue
            rows.append({
                "guess": guess,
                "black": len(self.all(".marker.black", row)), "white": len(self.all(".marker.white", row)),
                "text": text,
            })
        return rows

    def console_errors(self) -> list[str]:
        """Errors of the page's scripts (the API's 4xx answers, logged by the browser too, are not)."""
        return [entry["message"] for entry in self.driver.get_log("browser")
                if entry["level"] == "SEVERE" and entry.get("source") != "network"]

    def png(self) -> bytes:
        """A screenshot of the page as it is now, from its top."""
        self.driver.execute_script("window.scrollTo(0, 0)")
        return self.driver.get_screenshot_as_png()

    @staticmethod
    def save(png: bytes, tmp_path: Path, name: str) -> None:
        """Into tmp_path, and into $MMLOGIC_SCREENSHOTS when it names a folder (the README's pictures)."""
        assert png.startswith(b"\x89PNG")
        folders = [tmp_path, *([Path(os.environ["MMLOGIC_SCREENSHOTS"])] if os.environ.get("MMLOGIC_SCREENSHOTS")
                               else [])]
        for folder in folders:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(png)


def shown(history) -> list[dict]:
    """In-process entries as the board shows them."""
    return [{"guess": format_code(g, RULES), "black": b, "white": w, "text": f"{b},{w}"} for g, (b, w) in history]


def answered_to_the_win(page: Page, code: str, answer) -> None:
    """The codemaker tab's game answered for ``code`` to the win, ``answer(black, white, turn)`` clicking each
    answer: the board and the last line are those of minimax on python in process."""
    secret = parse_code(code, RULES)
    for turn in range(1, 11):
        answer(*feedback(parse_code(page.attribute("cm-guess", "data-code"), RULES), secret), turn)
        assert page.message() == ""
        if page.text("cm-status"):
            break
    expected = played("python", "minimax", code, RULES)
    assert page.rows("cm") == shown(expected)
    assert page.text("cm-status") == f"The computer found your code {code} in {plural(len(expected), 'guess')}."


@pytest.mark.slow  # 4.0 and 4.8 s measured, after Chromium's start (1.6-1.9 s) as the file's first
def test_play_a_game_with_the_assistant_to_the_win(driver, server, tmp_path):
    page = Page(driver, server)
    page.choose("python", "minimax")
    page.click("play-new")
    assert page.text("play-info") == "4 pegs, 6 colours; assistant: minimax on python"
    hints = []
    for turn in range(1, 11):
        page.click("hint")
        code = page.attribute("hint-guess", "data-code")
        hints.append(page.text("hint-text"))
        assert "".join(p.text for p in page.all('[data-testid="hint-guess"] .peg')) == code
        if turn == 1:
            page.click("hint-use")                   # the assistant's button fills the row ...
        else:
            for symbol in code:                      # ... or the pegs, clicked one by one
                page.click(f"palette-{RULES.alphabet.index(symbol)}")
        assert page.attribute("play-guess", "data-code") == code
        picture = page.png()  # the last one shows the board, the assistant's hint and the guess it filled
        page.click("play-submit")
        assert len(page.rows("play")) == turn
        if page.text("play-status").startswith("You found"):
            break
    status = page.text("play-status")
    secret = status.split()[2]
    expected = played("python", "minimax", secret, RULES)
    assert page.rows("play") == shown(expected)
    assert status == f"You found {secret} in {plural(len(expected), 'guess')}."
    # Each hint was the strategy's guess, with the number of codes the earlier entries left.
    with Game(make_engine("python", RULES), make_strategy("minimax", RULES)) as game:
        counts = []
        for entry in expected:
            counts.append(game.remaining())
            game.record(*entry)
    assert hints == [f"Suggestion: {format_code(g, RULES)}; {n:,} code{'' if n == 1 else 's'} still possible."
                     for (g, _), n in zip(expected, counts)]
    assert [page.find(i).is_enabled() for i in ("play-submit", "hint", "play-resign", "palette-0")] == [False] * 4
    assert page.message() == "" and page.console_errors() == []
    page.save(picture, tmp_path, "play.png")


@pytest.mark.slow  # 4.1 and 3.8 s measured
def test_the_computer_guesses_your_code_with_a_contradiction_and_undo(driver, server, tmp_path):
    page = Page(driver, server)
    secret = parse_code("1234", RULES)
    page.choose("python", "minimax")
    page.click("tab-codemaker")
    page.click("cm-new")
    assert page.text("cm-info") == "4 pegs, 6 colours; the computer plays minimax on python"

    def answer(black: int, white: int, markers: bool = False) -> None:
        if markers:  # a click turns a marker empty -> black -> white
            for _ in range(black + white):
                page.click(f"cm-marker-{RULES.pegs - 1}")
            for _ in range(white):
                page.click("cm-marker-0")
        else:
            for _ in range(black):
                page.click("cm-black-plus")
            for _ in range(white):
                page.click("cm-white-plus")
        assert (page.text("cm-black"), page.text("cm-white")) == (str(black), str(white))
        kinds = [page.attribute(f"cm-marker-{i}", "class") for i in range(RULES.pegs)]
        assert kinds == [f"marker {k}" for k in ["black"] * black + ["white"] * white
                         + ["none"] * (RULES.pegs - black - white)]
        pictures.append(page.png())  # the last one shows the board, the computer's guess and the markers set
        page.click("cm-send")

    pictures = []

    assert (page.attribute("cm-guess", "data-code"), page.text("cm-left")) == ("0011", "(1,296 codes still possible)")
    answer(*feedback(parse_code("0011", RULES), secret))                   # 0,1: right
    assert (page.attribute("cm-guess", "data-code"), page.text("cm-left")) == ("1233", "(256 codes still possible)")
    answer(0, 4)                                          # wrong (1234 gives 3,0), and no code gives both
    assert page.message() == ("no code is consistent with the history: entries 1, 2 (0011:0,1 1233:0,4) "
                              "contradict each other; send the right answer for 1233, or undo. Fewest changes: "
                              "1 answer must be wrong (no code fits them all): answer 1 0011:0,1 should be 0011:1,0; "
                              "or answer 2 1233:0,4 should be 1233:0,0, 1233:0,1, 1233:0,2, 1233:0,3, 1233:1,0, "
                              "1233:1,1, 1233:1,2, 1233:1,3, 1233:2,0, 1233:2,1, 1233:2,2, 1233:3,0 or 1233:4,0")
    assert page.rows("cm") == [{"guess": "0011", "black": 0, "white": 1, "text": "0,1"}]
    page.click("cm-undo")
    assert page.message() == "" and page.rows("cm") == []
    assert page.attribute("cm-guess", "data-code") == "0011"
    answered_to_the_win(page, "1234", lambda black, white, turn: answer(black, white, markers=turn % 2 == 0))
    assert not page.find("cm-send").is_displayed()
    assert page.console_errors() == []
    page.save(pictures[-1], tmp_path, "codemaker.png")


@pytest.mark.slow  # two server start-ups beside the browser: 5-8 s
def test_a_game_in_the_page_goes_on_across_a_kill_9_and_a_restart_of_the_server(driver, tmp_path):
    # serve --db: the server killed (-9) mid-game and started again on the same file and port; the page, left
    # as it was, answers on, and the computer finds the code with the guesses it plays in process.
    db = str(tmp_path / "games.db")
    first = ServerProcess("--db", db)
    try:
        page = Page(driver, first.url)
        page.choose("python", "minimax")
        page.click("tab-codemaker")
        page.click("cm-new")

        def answer(black: int, white: int, _turn: int = 0) -> None:
            for _ in range(black):
                page.click("cm-black-plus")
            for _ in range(white):
                page.click("cm-white-plus")
            page.click("cm-send")

        answer(*feedback(parse_code("0011", RULES), parse_code("1234", RULES)))
        assert page.attribute("cm-guess", "data-code") == "1233"
    finally:
        first.process.kill()  # kill -9: no clean shutdown
        first.process.wait()
    with ServerProcess("--db", db, port=first.port):
        answered_to_the_win(page, "1234", answer)
        assert page.console_errors() == []


def test_a_race_of_three_entrants_to_the_end(driver, server, tmp_path):
    page = Page(driver, server)
    entrants = [("python", "minimax"), ("python", "parts"), ("clingo", "first")]
    page.click("tab-race")
    assert len(page.all('[data-testid^="race-entrant-"]')) == 3
    for number, (backend, strategy) in enumerate(entrants, 1):
        page.select(f"race-backend-{number}").select_by_value(backend)
        page.select(f"race-strategy-{number}").select_by_value(strategy)
    page.find("race-secret-input").send_keys("2540")
    page.click("race-start")
    assert page.text("race-status") == "4 pegs, 6 colours; ready: the secret is hidden until the end."
    page.click("race-step")
    assert page.text("race-status") == "4 pegs, 6 colours; after 1 step: the secret is hidden until the end."
    assert [len(page.rows(f"race-{i}")) for i in (1, 2, 3)] == [1, 1, 1]
    page.click("race-run")                       # a step every 300 ms until the race is over
    page.wait.until(lambda d: page.text("race-status").startswith("Over"))
    page.settle()
    expected = [played(backend, strategy, "2540", RULES) for backend, strategy in entrants]
    assert [len(e) for e in expected] == [5, 4, 7]
    # Parts wins at the fourth step, which ends the race for all: the others stop there.
    for number, history in enumerate(expected, 1):
        assert page.rows(f"race-{number}") == shown(history[:4])
        assert page.text(f"race-attempts-{number}") == "4 guesses"
        assert re.fullmatch(r"\d+\.\d{3} ms", page.text(f"race-seconds-{number}"))
    assert [len(page.all(f'[data-testid="race-column-{n}"] .stopped')) for n in (1, 2, 3)] == [1, 0, 1]
    assert page.all('[data-testid="race-column-1"] .stopped')[0].text == \
        "stopped: another entrant found the secret first"
    assert [page.attribute(f"race-column-{n}", "data-winner") for n in (1, 2, 3)] == ["false", "true", "false"]
    assert [len(page.all(f'[data-testid="race-winner-{n}"]')) for n in (1, 2, 3)] == [0, 1, 0]
    assert page.text("race-winner-2") == "winner"
    assert page.text("race-status") == "Over: the secret was 2540. Winner: 2 (python / parts)."
    assert [page.find(i).is_enabled() for i in ("race-step", "race-run", "race-start")] == [False, False, True]
    assert page.message() == "" and page.console_errors() == []
    page.save(page.png(), tmp_path, "race.png")


@pytest.mark.slow  # 5.2 s measured: three worker processes start on the server (about 1 s each, on 2 cores)
def test_a_batch_race_to_the_end_shows_each_entrants_bench_totals(driver, server, tmp_path):
    page = Page(driver, server)
    page.choose("python", "minimax", pegs=3, colors=4)
    page.click("tab-race")
    page.select("race-mode").select_by_value("batch")
    assert [page.find(i).is_displayed() for i in ("race-step", "race-secret-input", "race-games", "race-seed",
                                                  "race-columns")] == [False, False, True, True, False]
    for testid, value in (("race-games", 6), ("race-seed", 3)):
        field = page.find(testid)
        field.clear()
        field.send_keys(str(value))
    page.click("race-start")                     # the page then looks at the race every 250 ms
    page.wait.until(lambda d: page.text("race-status").startswith("Over"))
    page.settle()
    # The three entrants of the page (python minimax, entropy, first) over six secrets of 3x4 drawn with seed 3:
    # `mmlogic bench --backend python --strategy S --pegs 3 --colors 4 --games 6 --seed 3` gives 21, 22 and 22.
    numbers = (1, 2, 3)
    assert [page.text(f"batch-games-{n}") for n in numbers] == ["6/6"] * 3
    assert [page.attribute(f"batch-bar-{n}", "value") for n in numbers] == ["6"] * 3
    assert [page.text(f"batch-guesses-{n}") for n in numbers] == ["21 guesses", "22 guesses", "22 guesses"]
    assert [page.text(f"batch-mean-{n}") for n in numbers] == ["mean 3.500", "mean 3.667", "mean 3.667"]
    assert all(re.fullmatch(r"\d+\.\d{3} s", page.text(f"batch-seconds-{n}")) for n in numbers)
    places = [page.text(f"batch-place-{n}") for n in numbers]
    assert sorted(places) == ["#1", "#2", "#3"]
    names = {1: "python / minimax", 2: "python / entropy", 3: "python / first"}
    order = sorted(numbers, key=lambda n: places[n - 1])
    times = [page.text(f"batch-seconds-{n}") for n in order]
    assert page.text("race-status") == ("Over: 6 secrets. Finishing order: " + ", ".join(
        f"{i}. {names[n]} ({t})" for i, (n, t) in enumerate(zip(order, times), 1)) + ".")
    secrets = [format_code(c, Rules(3, 4)) for c in random_secrets(Rules(3, 4), 6, 3)]
    assert page.text("race-batch-secrets") == f"The secrets: {' '.join(secrets)}"
    assert [page.find(i).is_enabled() for i in ("race-start", "race-mode")] == [True, True]
    assert page.message() == "" and page.console_errors() == []
    page.save(page.png(), tmp_path, "race-batch.png")
    page.select("race-mode").select_by_value("one")  # back to the race on one secret
    assert [page.find(i).is_displayed() for i in ("race-step", "race-secret-input", "race-batch")] == [
        True, True, False]


def test_an_api_error_is_shown_in_the_message_area(driver, server):
    page = Page(driver, server)
    page.choose("python", "minimax", pegs=0)
    page.click("play-new")
    assert page.message() == "Pegs must be between 1 and 64, got 0"
    page.click("tab-race")
    page.find("race-secret-input").send_keys("01234")
    page.click("race-start")
    assert page.message() == "Pegs must be between 1 and 64, got 0"
    page.choose("python", "minimax")
    page.click("race-start")
    assert page.message() == "code '01234' has 5 pegs, expected 4"
    page.find("pegs").clear()                     # an empty field is not sent as 0
    page.click("race-start")
    assert page.message() == "Pegs: enter a whole number"
    page.click("tab-codemaker")
    page.click("cm-new")
    assert page.message() == "Pegs: enter a whole number"
    assert page.console_errors() == []


def test_a_lost_request_leaves_the_codemaker_game_as_the_server_has_it(driver, server):
    page = Page(driver, server)
    page.choose("python", "minimax")
    page.click("tab-codemaker")
    page.click("cm-new")
    assert page.attribute("cm-guess", "data-code") == "0011"
    page.click("cm-white-plus")
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/next"]})  # the next guess does not come
    try:
        page.click("cm-send")
        assert page.message() == "cannot reach the server: Failed to fetch"
        # The answer was recorded: the board shows it, and Undo takes it back.
        assert page.rows("cm") == [{"guess": "0011", "black": 0, "white": 1, "text": "0,1"}]
        assert not page.find("cm-send").is_displayed() and page.find("cm-undo").is_enabled()
    finally:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    page.click("cm-undo")
    assert page.message() == "" and page.rows("cm") == []
    assert page.attribute("cm-guess", "data-code") == "0011" and page.find("cm-send").is_displayed()
    assert page.console_errors() == []


def test_play_against_the_adversary_and_give_up(driver, server):
    # No secret: each answer keeps the most codes (0011 0,0 then 2234 1,1, as mmlogic play --adversary answers),
    # and giving up shows the smallest code that fits them.
    page = Page(driver, server)
    page.choose("python", "first")
    page.click("play-adversary")
    page.click("play-new")
    for code in ("0011", "2234"):
        for symbol in code:
            page.click(f"palette-{RULES.alphabet.index(symbol)}")
        page.click("play-submit")
    assert page.rows("play") == shown([((0, 0, 1, 1), (0, 0)), ((2, 2, 3, 4), (1, 1))])
    page.click("play-resign")
    assert page.text("play-status") == "No secret was kept; 2353 fits every answer (you gave up after 2 guesses)."
    assert page.message() == "" and page.console_errors() == []


def test_play_with_a_lie_and_give_up_shows_which_answer_lied(driver, server):
    # Lies 1: the server's codemaker lies at a random answer; giving up shows the secret and the lie, as the
    # game's state says (GET /api/games/{id}); the duel plays without lies and says so.
    import json
    import urllib.request

    page = Page(driver, server)
    page.choose("python", "first")
    page.find("lies").send_keys("1")
    page.click("play-new")
    for code in ("0011", "2234", "4455"):
        for symbol in code:
            page.click(f"palette-{RULES.alphabet.index(symbol)}")
        page.click("play-submit")
    page.click("play-resign")
    game_id = driver.execute_script("return play.game.id")
    with urllib.request.urlopen(f"{server}/api/games/{game_id}") as reply:
        state = json.load(reply)
    assert state["rules"]["lies"] == 1 and state["over"]
    lied = f" Answer {state['lies'][0]} was a lie." if state["lies"] else " Every answer was true."
    assert page.text("play-status") == f"The secret was {state['secret']} (you gave up after 3 guesses).{lied}"
    truth = [score(RULES, parse_code(e["guess"], RULES), parse_code(state["secret"], RULES)) for e in state["history"]]
    assert [i + 1 for i, (e, t) in enumerate(zip(state["history"], truth)) if (e["black"], e["white"]) != t] \
        == state["lies"]
    page.click("tab-duel")
    page.click("duel-start")
    assert page.message() == "Lies: the duel plays without them; empty the field"
    assert page.console_errors() == []


def test_give_up_the_entrants_limits_and_the_rules_tab(driver, server):
    page = Page(driver, server)
    page.choose("python", "first")
    page.click("play-new")
    page.click("palette-5")
    page.click("guess-slot-0")                   # a click on a peg of the row takes it out
    assert page.attribute("play-guess", "data-code") == "" and page.find("play-clear").is_enabled() is False
    page.click("play-resign")
    secret = page.text("play-status").split()[3]
    assert page.text("play-status") == f"The secret was {secret} (you gave up after 0 guesses)."
    assert len(secret) == 4 and set(secret) <= set("012345")
    page.click("tab-race")
    page.click("race-add")
    assert len(page.all('[data-testid^="race-entrant-"]')) == 4 and not page.find("race-add").is_enabled()
    page.click("race-remove-1")
    page.click("race-remove-1")
    assert [page.select(f"race-strategy-{n}").first_selected_option.text for n in (1, 2)] == ["first", "minimax"]
    assert [page.find(f"race-remove-{n}").is_enabled() for n in (1, 2)] == [False, False]
    page.click("tab-rules")
    assert driver.find_element(page.By.ID, "panel-rules").is_displayed()
    assert not driver.find_element(page.By.ID, "panel-race").is_displayed()
    assert "a black marker for each peg of the right colour in the right place" in driver.find_element(
        page.By.ID, "panel-rules").text
    assert page.message() == "" and page.console_errors() == []


def test_huge_counts_one_colour_and_a_click_during_a_request(driver, server):
    page = Page(driver, server)
    page.choose("clingo", "first", pegs=20, colors=36)
    page.click("play-new")
    page.click("hint")
    # 36^20 codes: beyond what a JSON number holds exactly, so written as a size, not 1.3367494538843734e+31.
    assert page.text("hint-text") == ("Suggestion: 00000000000000000000; about 1.34 × 10^31 codes still "
                                      "possible.")
    page.choose("python", "first", pegs=4, colors=1)
    page.click("play-new")
    assert page.text("play-info") == "4 pegs, 1 colour; assistant: first on python"
    page.choose("python", "first")
    page.click("play-new")
    page.click("palette-0")
    page.click("palette-0")
    page.click("palette-0")
    page.click("palette-0")
    # A slow network: New game, then Guess before its reply. The guess waits for nothing: it is not
    # sent, so no row of the old game lands on the new one.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 800,
                                                               "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        page.find("play-new").click()
        page.find("play-submit").click()
        page.settle()
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0,
                                                                   "downloadThroughput": -1, "uploadThroughput": -1})
    assert page.rows("play") == [] and page.message() == ""
    assert page.console_errors() == []


@pytest.mark.slow  # 9.8 and 8.4 s measured
def test_long_codes_wrap_rather_than_widen_the_page(driver, server):
    # A 64-peg code as text (the hint, a status, the race's secret) is one unbreakable word: it
    # widened the page to 1,365 px at 1,100 and gave it a horizontal scrollbar.
    page = Page(driver, server)

    def fits() -> bool:
        return driver.execute_script("const d = document.documentElement; return d.scrollWidth <= d.clientWidth")

    page.choose("clingo", "first", pegs=64, colors=10)
    page.click("play-new")
    page.click("hint")
    assert page.text("hint-text") == f"Suggestion: {'0' * 64}; about 1.00 × 10^64 codes still possible."
    assert fits()
    page.choose("clingo", "first", pegs=64, colors=40)       # codes in numbers: 0,0,...: 127 characters
    page.click("play-new")
    page.click("hint")
    zeros = ",".join(["0"] * 64)
    assert page.attribute("hint-guess", "data-code") == zeros and fits()
    page.click("play-resign")
    assert re.fullmatch(r"The secret was \d+(,\d+){63} \(you gave up after 0 guesses\)\.", page.text("play-status"))
    assert fits()
    page.click("tab-race")
    for number in (1, 2, 3):
        page.select(f"race-backend-{number}").select_by_value("clingo")
        page.select(f"race-strategy-{number}").select_by_value("first")
    page.find("race-secret-input").send_keys(zeros)
    page.click("race-start")
    page.click("race-step")                       # first opens with 0,0,...,0: every entrant wins
    assert [page.text(f"race-attempts-{n}") for n in (1, 2, 3)] == ["1 guess"] * 3
    # The winner is the fastest of the three: the status names it after the secret.
    assert page.text("race-status").startswith(f"Over: the secret was {zeros}. Winner") and fits()
    assert page.message() == "" and page.console_errors() == []


def test_a_probing_strategy_is_refused_for_play_under_no_repetition(driver, server):
    # The assistant's hint (0000) would be refused as a guess by the same server: the game is refused
    # at once, with the reason; as codemaker the computer plays its probes.
    page = Page(driver, server)
    page.choose("python", "human1")
    page.find("no-repeat").click()
    page.click("play-new")
    assert page.message() == ("The strategy human1 probes with codes that repeat colours beyond what \u201cNo "
                              "repetition\u201d allows, which a codebreaker game refuses as guesses: its hints could "
                              "not be played; choose another strategy")
    assert page.text("play-info") == "" and not page.find("hint").is_enabled()
    page.click("tab-codemaker")
    page.click("cm-new")
    assert page.message() == ""
    assert page.text("cm-info") == "4 pegs, 6 colours, no repetition; the computer plays human1 on python"
    assert page.attribute("cm-guess", "data-code") == "0000"
    assert page.console_errors() == []


def test_errors_are_in_the_pages_words(driver, server):
    # The API's message names the command line's options (--pegs, --strategy): the page's fields here.
    page = Page(driver, server)
    page.choose("python", "minimax", pegs=65)
    page.click("play-new")
    assert page.message() == "Pegs must be between 1 and 64, got 65"
    page.choose("python", "minimax", pegs=4, colors=300)
    page.click("play-new")
    assert page.message() == "Colours must be between 1 and 255, got 300"
    page.choose("python", "minimax", pegs=30, colors=30)
    page.click("play-new")
    assert page.message() == ("The strategy minimax scores guesses against every code and plays at most 20,000,000 "
                              "codes; 30x30 has about 2.059e+44: choose the strategy first, any, random, "
                              "any-random-opening or sample-entropy")
    assert "--" not in page.message() and page.console_errors() == []


def test_the_page_at_420_px(driver, server):
    # At 420 px the tabs broke inside their words (Pla|y, Ra|ce) and an empty pill stood beside Clear.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 420, "height": 900,
                                                                 "deviceScaleFactor": 1, "mobile": False})
    try:
        page = Page(driver, server)
        assert driver.execute_script("return window.innerWidth") == 420
        split = driver.execute_script("""
            const split = [];
            for (const tab of document.querySelectorAll("[role=tab]")) {
              const node = tab.firstChild, text = node.textContent;
              let at = 0;
              for (const word of text.split(" ")) {
                const start = text.indexOf(word, at), range = document.createRange();
                range.setStart(node, start);
                range.setEnd(node, start + word.length);
                if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) split.push(word);
                at = start + word.length;
              }
            }
            return split;""")
        assert split == []
        assert [page.find(f"tab-{t}").is_displayed() for t in ("play", "codemaker", "race", "rules")] == [True] * 4
        assert not page.find("play-guess").is_displayed()     # no game: no row
        page.choose("python", "minimax")
        page.click("play-new")
        assert page.find("play-guess").is_displayed()         # its four empty slots
        assert len(page.all('[data-testid^="guess-slot-"]')) == 4
        assert driver.execute_script("const d = document.documentElement; return d.scrollWidth <= d.clientWidth")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


# -- the feedback rules (issue 37) ----------------------------------------------------------------------
def shown_in(rules: Rules, history) -> list[dict]:
    """In-process entries as the board shows them under ``rules``' feedback rule."""
    rule = rule_of(rules)
    if rules.feedback == "positional":
        return [{"guess": format_code(g, rules), "marks": rule.write(fb), "text": rule.write(fb)} for g, fb in history]
    return [{"guess": format_code(g, rules), "black": fb[0], "white": 0 if len(fb) == 1 else fb[1],
             "text": rule.write(fb)} for g, fb in history]


def test_choosing_a_feedback_rule_offers_what_plays_it(driver, server):
    page = Page(driver, server)
    page.select("strategy").select_by_value("human1")
    page.select("backend").select_by_value("a1")
    page.select("feedback").select_by_value("positional")
    # human1..3 and the genetic algorithms reason on black and white, and so do a1..a5: the lists offer the others.
    assert [o.text for o in page.select("backend").options] == ["clingo", "swipl", "python"]
    assert [o.text for o in page.select("strategy").options] == ["first", "any", "random", "any-random-opening",
                                                                 "minimax", "expected", "entropy", "parts",
                                                                 "sample-entropy"]
    assert page.select("strategy").first_selected_option.text == "minimax"  # the default, which plays it
    assert page.select("backend").first_selected_option.text == "clingo"
    page.click("tab-race")
    assert [(page.select(f"race-backend-{n}").first_selected_option.text,
             page.select(f"race-strategy-{n}").first_selected_option.text) for n in (1, 2, 3)] == [
        ("python", "minimax"), ("python", "entropy"), ("python", "first")]  # the race's own, which play it
    page.select("feedback").select_by_value("standard")      # back: every one is offered again, the choice kept
    assert len(page.select("strategy").options) > 9 and page.select("strategy").first_selected_option.text == "minimax"
    assert "a1" in [o.text for o in page.select("backend").options]
    assert page.message() == "" and page.console_errors() == []


@pytest.mark.slow
def test_play_a_positional_game_with_the_assistant_to_the_win(driver, server, tmp_path):
    rules = Rules(4, 6, feedback="positional")
    page = Page(driver, server)
    page.choose("python", "first", feedback="positional")
    page.click("play-new")
    assert page.text("play-info") == "4 pegs, 6 colours, one mark per peg; assistant: first on python"
    for symbol in "0011":                                  # a guess of ours first, then the assistant's
        page.click(f"palette-{rules.alphabet.index(symbol)}")
    page.click("play-submit")
    for _ in range(10):
        page.click("hint")
        page.click("hint-use")
        page.click("play-submit")
        if page.text("play-status").startswith("You found"):
            break
    secret = page.text("play-status").split()[2]
    code = parse_code(secret, rules)
    history = [((0, 0, 1, 1), score(rules, (0, 0, 1, 1), code))]
    with Game(make_engine("python", rules), make_strategy("first", rules)) as game:
        game.record(*history[0])
        while history[-1][1] != (2, 2, 2, 2):
            guess = game.suggest()
            history.append((guess, score(rules, guess, code)))
            game.record(*history[-1])
    assert page.rows("play") == shown_in(rules, history)
    assert page.rows("play")[-1] == {"guess": secret, "marks": "xxxx", "text": "xxxx"}
    assert [m.get_attribute("class") for m in page.all('[data-testid="play-row-1"] .mark')] == [
        f"mark {'x' if m == 2 else 'o' if m == 1 else 'none'}" for m in history[0][1]]
    assert page.text("play-status") == f"You found {secret} in {plural(len(history), 'guess')}."
    assert page.message() == "" and page.console_errors() == []
    page.save(page.png(), tmp_path, "play-positional.png")


@pytest.mark.slow
def test_the_computer_guesses_your_code_with_marks_a_contradiction_and_undo(driver, server, tmp_path):
    rules = Rules(4, 6, feedback="positional")
    page = Page(driver, server)
    page.choose("python", "first", feedback="positional")
    page.click("tab-codemaker")
    page.click("cm-new")
    assert page.text("cm-info") == "4 pegs, 6 colours, one mark per peg; the computer plays first on python"
    assert page.text("cm-explain").startswith("Think of a code and keep it to yourself. For each of the computer's "
                                              "guesses, click the mark under each peg until it says x")
    assert not page.find("cm-markers").is_displayed() and not page.find("cm-black-plus").is_displayed()

    def answer(marks: str) -> None:
        for i, mark in enumerate(marks):                   # a click turns a mark - -> o -> x
            for _ in range("-ox".index(mark)):
                page.click(f"cm-mark-{i}")
        assert page.attribute("cm-marks", "data-marks") == marks
        assert [page.text(f"cm-mark-{i}") for i in range(4)] == list(marks)
        pictures.append(page.png())  # the last one shows the board, the computer's guess and the marks set
        page.click("cm-send")

    pictures = []

    assert (page.attribute("cm-guess", "data-code"), page.text("cm-left")) == ("0000", "(1,296 codes still possible)")
    answer("---x")
    assert (page.attribute("cm-guess", "data-code"), page.text("cm-left")) == ("1110", "(125 codes still possible)")
    answer("---o")                       # 0000 said the only 0 is the last peg: 1110's 0 cannot be elsewhere
    assert page.message() == ("no code is consistent with the history: entries 1, 2 (0000:---x 1110:---o) "
                              "contradict each other; send the right answer for 1110, or undo. Fewest changes: "
                              "1 answer must be wrong (no code fits them all): answer 1 0000:---x should be "
                              "0000:--x-, 0000:-x--, 0000:-xx-, 0000:x---, 0000:x-x-, 0000:xx-- or 0000:xxx-; or "
                              "answer 2 1110:---o should be 1110:---x, 1110:--xx, 1110:-x-x, 1110:-xxx, 1110:x--x, "
                              "1110:x-xx, 1110:xx-x or 1110:xxxx")
    assert page.rows("cm") == [{"guess": "0000", "marks": "---x", "text": "---x"}]
    page.click("cm-undo")
    assert page.message() == "" and page.rows("cm") == []
    assert page.attribute("cm-marks", "data-marks") == "----"
    lefts = []
    for marks in ("---x", "x--x", "xx-x", "xxxx"):          # the code in mind: 1230
        lefts.append(page.text("cm-left"))
        answer(marks)
        assert page.message() == ""
    assert lefts == ["(1,296 codes still possible)", "(125 codes still possible)", "(16 codes still possible)",
                     "(3 codes still possible)"]
    assert page.rows("cm") == shown_in(rules, played("python", "first", "1230", rules))
    assert page.rows("cm") == [{"guess": "0000", "marks": "---x", "text": "---x"},
                               {"guess": "1110", "marks": "x--x", "text": "x--x"},
                               {"guess": "1220", "marks": "xx-x", "text": "xx-x"},
                               {"guess": "1230", "marks": "xxxx", "text": "xxxx"}]
    assert page.text("cm-status") == "The computer found your code 1230 in 4 guesses."
    assert page.console_errors() == []
    page.save(pictures[-1], tmp_path, "codemaker-positional.png")


@pytest.mark.slow
def test_a_black_peg_game_in_both_roles(driver, server, tmp_path):
    rules = Rules(4, 6, feedback="black")
    page = Page(driver, server)
    page.choose("python", "first", feedback="black")
    page.click("tab-codemaker")
    page.click("cm-new")
    assert page.text("cm-info") == "4 pegs, 6 colours, black pegs only; the computer plays first on python"
    assert not page.find("cm-white-plus").is_displayed() and page.find("cm-markers").is_displayed()
    lefts = []
    for black in range(5):                                  # the code in mind: 1234
        lefts.append(page.text("cm-left"))
        if black % 2:
            for _ in range(black):
                page.click("cm-black-plus")
        else:                                               # a click turns a marker empty -> black
            for i in range(black):
                page.click(f"cm-marker-{i}")
        assert page.text("cm-black") == str(black)
        assert [page.attribute(f"cm-marker-{i}", "class") for i in range(4)] == [
            "marker black"] * black + ["marker none"] * (4 - black)
        page.click("cm-send")
        assert page.message() == ""
    assert lefts == ["(1,296 codes still possible)", "(625 codes still possible)", "(256 codes still possible)",
                     "(39 codes still possible)", "(4 codes still possible)"]
    assert page.rows("cm") == [{"guess": g, "black": b, "white": 0, "text": str(b)}
                               for g, b in (("0000", 0), ("1111", 1), ("1222", 2), ("1233", 3), ("1234", 4))]
    assert page.text("cm-status") == "The computer found your code 1234 in 5 guesses."
    page.save(page.png(), tmp_path, "codemaker-black.png")
    # You guess: the board shows the black pegs alone.
    page.click("tab-play")
    page.click("play-new")
    assert page.text("play-info") == "4 pegs, 6 colours, black pegs only; assistant: first on python"
    for _ in range(12):
        page.click("hint")
        page.click("hint-use")
        page.click("play-submit")
        if page.text("play-status").startswith("You found"):
            break
    secret = page.text("play-status").split()[2]
    expected = played("python", "first", secret, rules)
    assert page.rows("play") == shown_in(rules, expected)
    assert page.text("play-status") == f"You found {secret} in {plural(len(expected), 'guess')}."
    assert page.message() == "" and page.console_errors() == []


def test_a_positional_race_to_the_end(driver, server, tmp_path):
    rules = Rules(4, 6, feedback="positional")
    page = Page(driver, server)
    page.choose("python", "first", feedback="positional")
    page.click("tab-race")
    entrants = [("python", "first"), ("clingo", "any"), ("swipl", "first")]
    for number, (backend, strategy) in enumerate(entrants, 1):
        page.select(f"race-backend-{number}").select_by_value(backend)
        page.select(f"race-strategy-{number}").select_by_value(strategy)
    page.find("race-secret-input").send_keys("2540")
    page.click("race-start")
    assert page.text("race-status") == "4 pegs, 6 colours, one mark per peg; ready: the secret is hidden until the end."
    page.click("race-run")
    page.wait.until(lambda d: page.text("race-status").startswith("Over"))
    page.settle()
    # clingo's any finds it at the third step: 5521 -xo-, 2503 xxo-, 2540 xxxx.
    assert page.rows("race-2") == [{"guess": "5521", "marks": "-xo-", "text": "-xo-"},
                                   {"guess": "2503", "marks": "xxo-", "text": "xxo-"},
                                   {"guess": "2540", "marks": "xxxx", "text": "xxxx"}]
    for number, (backend, strategy) in enumerate(entrants, 1):
        assert page.rows(f"race-{number}") == shown_in(rules, played(backend, strategy, "2540", rules)[:3])
    assert page.text("race-status") == "Over: the secret was 2540. Winner: 2 (clingo / any)."
    assert page.message() == "" and page.console_errors() == []
    page.save(page.png(), tmp_path, "race-positional.png")


def test_the_assistant_shows_how_a_guess_splits_the_codes(driver, server):
    # Beside the hint, the suggestion's split; then the player's own guess (0000, seed 000's one-colour
    # guess), as `mmlogic split` gives them; a guess played clears it.
    page = Page(driver, server)
    page.choose("python", "minimax")
    page.click("play-new")
    assert not page.find("split").is_enabled()
    page.click("hint")
    assert page.text("split-text") == ("0011 splits 1,296 codes into 13 parts: the largest 256, expected size "
                                       "204.54, entropy 2.89 bits; it may win now.")
    parts = page.all('[data-testid="split-parts"] li')
    assert len(parts) == 13 and parts[0].text == "0,0: 256" and parts[-1].text == "4,0: 1"
    for _ in range(4):
        page.click("palette-0")
    page.click("split")
    assert page.text("split-text") == ("0000 splits 1,296 codes into 5 parts: the largest 625, expected size "
                                       "511.98, entropy 1.50 bits; it may win now.")
    assert [p.text for p in page.all('[data-testid="split-parts"] li')] == [
        "0,0: 625", "1,0: 500", "2,0: 150", "3,0: 20", "4,0: 1"]
    assert [p.text for p in page.all('[data-testid="split-parts"] li.largest')] == ["0,0: 625"]
    page.click("play-submit")
    assert page.text("split-text") == "" and page.all('[data-testid="split-parts"] li') == []
    assert page.message() == "" and page.console_errors() == []


def test_the_api_reference_page_shows_every_operation(driver, server):
    # GET /api/docs reads /openapi.json from the server (nothing from elsewhere) and shows each operation.
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from mm_logic.server.openapi import openapi_schema

    document = openapi_schema()
    driver.get_log("browser")
    driver.get(f"{server}/api/docs")
    operations = [op["operationId"] for methods in document["paths"].values() for op in methods.values()]
    WebDriverWait(driver, WAIT).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "section.operation")) > 0)
    shown = [s.get_attribute("id") for s in driver.find_elements(By.CSS_SELECTOR, "section.operation")]
    assert shown == operations
    assert driver.find_element(By.ID, "createGame").find_element(By.TAG_NAME, "h3").text == "POST /api/games"
    assert driver.find_element(By.ID, "schema-Game").text == "Game"
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
