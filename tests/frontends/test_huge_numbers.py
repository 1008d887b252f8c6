"""Whole numbers of thousands of digits typed or read from a file: Python's int() refuses more than 4,300
digits (sys.get_int_max_str_digits), which was an internal failure (exit 1). Each is refused in one line that
quotes the value by its start and its length, exit 2, as journals and sweep rows are read."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from mm_logic.support.processes import cores

from conftest import PY, ROOT, api_error, one_line_error

#: More digits than int() reads.
HUGE = "9" * 5000
#: Fewer, and still more than a message should repeat.
LONG = "9" * 100


def cut(text: str) -> str:
    """``text`` as an error message quotes a long value: its first 40 characters and its length."""
    return f"'{text[:40]}'... ({len(text):,} characters)"


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A folder of one's own, with a rule module (own.py) and a saved tree (to.json) of 3 pegs and 3 colours."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "examples" / "shared_colours.py", tmp_path / "own.py")
    tree = {"format": "mmlogic-tree", "version": 1,
            "rules": {"pegs": 3, "colors": 3, "max_repeat": None, "feedback": "standard"}, "alphabet": "012",
            "strategy": "minimax", "seed": None, "backend": "python", "first_guess": None,
            "tree": {"guess": "001", "next": {"0,0": {"guess": "222"}}}}
    (tmp_path / "to.json").write_text(json.dumps(tree))
    return tmp_path


def a_tree(here, name: str, *, seed: str = "null", key: str = "0,0") -> str:
    """to.json with its seed (a JSON value as written) or its one "next" key replaced, saved as ``name``."""
    text = (here / "to.json").read_text().replace('"seed": null', f'"seed": {seed}')
    (here / name).write_text(text.replace('"0,0"', json.dumps(key)))
    return name


FEEDBACK = [
    (["next", f"0011:{HUGE},0"],
     f"feedback {cut(HUGE + ',0')} in {cut(f'0011:{HUGE},0')}: a number of 5,000 digits exceeds the 4 pegs"),
    (["next", "--feedback", "black", f"0011:{HUGE}"],
     f"feedback {cut(HUGE)} in {cut(f'0011:{HUGE}')}: a number of 5,000 digits exceeds the 4 pegs"),
    (["next", "--pegs", 3, "--colors", 3, "--feedback", "own.py", *PY, f"000:{HUGE}"],
     f"feedback {cut(HUGE)} in {cut(f'000:{HUGE}')}: a number of 5,000 digits exceeds the 3 pegs"),
    (["next", f"0011:0,-{HUGE}"],
     f"feedback {cut('0,-' + HUGE)} in {cut(f'0011:0,-{HUGE}')}: a number of 5,000 digits exceeds the 4 pegs"),
    (["puzzle", "--check", f"0011:{HUGE},0"],
     f"feedback {cut(HUGE + ',0')} in {cut(f'0011:{HUGE},0')}: a number of 5,000 digits exceeds the 4 pegs"),
    # Not of the rule's form whatever the number's length.
    (["next", "--pegs", 3, "--colors", 3, "--feedback", "positional", f"000:{HUGE}"],
     f"feedback {cut(HUGE)} in {cut(f'000:{HUGE}')} is not of the form one mark per peg, x o or - (e.g. x-o-)"),
    (["next", f"0011:{HUGE},0,0"],
     f"feedback {cut(HUGE + ',0,0')} in {cut(f'0011:{HUGE},0,0')} is not of the form B,W (e.g. 1,2)"),
    # Fewer digits than int()'s limit: read, refused as too large, and quoted by their start too.
    (["next", f"0011:{LONG},0"],
     f"feedback {LONG[:40]}... (102 characters) in {cut(f'0011:{LONG},0')}: black + white exceeds the 4 pegs"),
    (["next", "--feedback", "black", f"0011:{LONG}"],
     f"feedback {LONG[:40]}... (100 characters) in {cut(f'0011:{LONG}')} exceeds the 4 pegs"),
]

SIZES = [
    (f"4x{HUGE}", "colours must be between 1 and 255"),
    (f"{HUGE}x4", "pegs must be between 1 and 64"),
    (f"4x4-{HUGE}", "colours must be between 1 and 255"),
    (f"{HUGE}-{HUGE}x4", "pegs must be between 1 and 64"),
    (f"4x{LONG}", "colours must be between 1 and 255"),
]


@pytest.mark.parametrize("args, message", FEEDBACK)
def test_feedback_with_a_huge_number(here, run, args, message):
    one_line_error(run(*args), 2, message, stdout="")


@pytest.mark.parametrize("sizes, why", SIZES)
def test_sweep_sizes_with_a_huge_number(here, run, sizes, why):
    one_line_error(run("sweep", "--sizes", sizes), 2, f"--sizes: {cut(sizes)}: {why}", stdout="")


TREES = [
    ({"seed": HUGE}, f"{cut(HUGE)} is a number too long to read (more than 4,300 digits)"),
    ({"seed": "-" + HUGE}, f"{cut('-' + HUGE)} is a number too long to read (more than 4,300 digits)"),
    ({"key": HUGE}, f"feedback {cut(HUGE)} in {cut('001:' + HUGE)} is not of the form B,W (e.g. 1,2)"),
    ({"key": "0," + HUGE},
     f"feedback {cut('0,' + HUGE)} in {cut('001:0,' + HUGE)}: a number of 5,000 digits exceeds the 3 pegs"),
]


@pytest.mark.parametrize("edit, message", TREES)
def test_tree_file_with_a_huge_number(here, run, edit, message):
    name = a_tree(here, "huge.json", **edit)
    one_line_error(run("tree", name), 2, f"{name}: {message}", stdout="")
    one_line_error(run("solve", "--pegs", 3, "--colors", 3, *PY, "--secret", "012", "--strategy", f"tree:{name}"),
                   2, f"Invalid value for '--strategy': {name}: {message}", stdout="")


OPTIONS = [
    (["solve", "--pegs", HUGE], "--pegs", f"{cut(HUGE)} is not in the range 1<=x<=64."),
    (["solve", "--pegs", LONG], "--pegs", f"{cut(LONG)} is not in the range 1<=x<=64."),
    (["solve", "--colors", HUGE], "--colors", f"{cut(HUGE)} is not in the range 1<=x<=255."),
    (["solve", "--seed", HUGE], "--seed", f"{cut(HUGE)} is a number too long to read (more than 4,300 digits)."),
    (["solve", "--seed", "-" + HUGE], "--seed", f"{cut('-' + HUGE)} is not in the range x>=0."),
    (["solve", "--seed", "-" + LONG], "--seed", f"{cut('-' + LONG)} is not in the range x>=0."),
    (["solve", "--seed", "1" + "0" * 60 + "x"], "--seed", f"{cut('1' + '0' * 60 + 'x')} is not a valid integer."),
    (["bench", "--games", HUGE], "--games", f"{cut(HUGE)} is not in the range 1<=x<=1000000."),
    (["optimal", "--memory", HUGE], "--memory", f"{cut(HUGE)} is more than 1024T, the largest memory size taken"),
    (["optimal", "--memory", HUGE + "G"], "--memory",
     f"{cut(HUGE + 'G')} is more than 1024T, the largest memory size taken"),
    (["solve", "--time-limit", HUGE], "--time-limit", f"{cut(HUGE)} is not a number of seconds"),
    (["serve", "--workers", HUGE], "--workers", f"{cut(HUGE)} is a number too long to read (more than 4,300 digits)."),
    (["serve", "--workers", LONG], "--workers", f"{cut(LONG)} is more than the {cores()} cores of this machine."),
]


@pytest.mark.parametrize("args, option, message", OPTIONS)
def test_option_with_a_huge_number(run, args, option, message):
    one_line_error(run(*args), 2, f"Invalid value for '{option}': {message}", stdout="")


def test_a_long_seed_within_the_limit_is_still_taken(run):
    """A seed of 100 digits is a seed (only the message of a refused one is cut short)."""
    result = run("solve", *PY, "--pegs", 2, "--colors", 2, "--secret", "01", "--seed", LONG, "--strategy", "random")
    assert result.exit_code == 0, result.output


def test_clicks_own_refusal_quotes_a_long_argument_cut_short(run):
    # click quotes a mistyped argument whole: a 5,000-digit entry made a line of 5,000 characters.
    result = run("play", "--pegs", 3, "--colors", 3, "000:" + "9" * 5000)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: Got unexpected extra argument (000:{'9' * 55}… (5,006 characters)\n"


def test_clicks_own_refusal_names_a_long_path_whole(run, tmp_path):
    # A file's name is the user's to read: a path of a deep folder (a test's own, 130 characters in CI) was cut
    # to its first 60 characters, and a name of 200 characters must be said whole too.
    folder = tmp_path / ("d" * 200)
    folder.mkdir()
    fifo = folder / "fifo"
    os.mkfifo(fifo)
    result = run("serve", "--port", 0, "--db", fifo)
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", f"error: Invalid value for '--db': cannot write {fifo} (a FIFO, not a regular file)\n")


#: More digits than a message should repeat, fewer than int() reads (a request's number is read whole).
MANY = "9" * 4000
#: Too long to read, as the command line says it.
UNREADABLE = f"{cut(HUGE)} is a number too long to read (more than 4,300 digits)"
#: Each numeric field of a request, with a huge number (written as JSON) in it: the route and the body.
REQUESTS = [
    ("/api/games", '{"rules": {"pegs": %s}}'),
    ("/api/games", '{"rules": {"colors": %s}}'),
    ("/api/games", '{"rules": {"lies": %s}}'),
    ("/api/games", '{"rules": {"max_repeat": %s}}'),
    ("/api/games", '{"seed": %s}'),
    ("/api/games", '{"rules": {"lies": 2}, "liar": [1, %s]}'),
    ("/api/races", '{"rules": {"pegs": %s}, "entrants": [{"backend": "python"}]}'),
    ("/api/races", '{"seed": %s, "entrants": [{"backend": "python"}]}'),
    ("/api/races", '{"games": %s, "entrants": [{"backend": "python"}]}'),
    ("{game}/feedback", '{"black": %s, "white": 0}'),
    ("{game}/diagnose", '{"black": 0, "white": %s}'),
]


def post(client, route: str, body: str):
    """POST ``body`` (JSON text) to ``route``; ``{game}`` in it is a new codemaker game's URL."""
    if "{game}" in route:
        game = client.post("/api/games", json={"role": "codemaker", "backend": "python"}).json()["id"]
        route = route.format(game=f"/api/games/{game}")
    return client.post(route, content=body.encode(), headers={"content-type": "application/json"})


@pytest.mark.parametrize("route, body", REQUESTS)
def test_a_number_too_long_to_read_in_a_request_is_said_so(client, route, body):
    # It was "the request body is not JSON": int() refuses its digits, which the JSON decoder reads with it.
    api_error(post(client, route, body % HUGE), 400, UNREADABLE)
    api_error(post(client, route, body % ("-" + HUGE)), 400, UNREADABLE.replace(cut(HUGE), cut("-" + HUGE)))


@pytest.mark.parametrize("field, sign, bounds", [("pegs", "", "between 1 and 64"), ("colors", "", "between 1 and 255"),
                                                 ("lies", "", "between 0 and 3"), ("max_repeat", "-", "at least 1")])
def test_a_long_number_in_a_request_is_quoted_cut_short(client, field, sign, bounds):
    # Quoted whole, the answer was a line of 4,053 bytes.
    rules = f'{{"rules": {{"{field}": {sign}{MANY}}}'
    for route, body in (("/api/games", rules + "}"), ("/api/races", rules + ', "entrants": [{"backend": "python"}]}')):
        api_error(post(client, route, body), 400, f"rules.{field} must be {bounds}, got {cut(sign + MANY)}")


def test_a_long_liar_in_a_request_is_quoted_cut_short(client):
    api_error(post(client, "/api/games", '{"rules": {"lies": 2}, "liar": [1, -' + MANY + "]}"), 400,
              f"liar numbers answers from 1, got {cut('1,-' + MANY)}")


def test_a_long_liar_on_the_command_line_is_quoted_cut_short(run):
    args = ["play", "--lies", 2, "--secret", "0123", "--liar"]
    one_line_error(run(*args, "-" + MANY), 2, f"--liar numbers answers from 1, got {cut('-' + MANY)}", stdout="")
    one_line_error(run(*args, HUGE), 2, f"--liar: {UNREADABLE}", stdout="")
    one_line_error(run(*args, "x" + MANY), 2, "--liar takes random or the answers that lie, by number (2,5), "
                                              f"got {cut('x' + MANY)}", stdout="")
