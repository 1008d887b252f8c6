"""A sweep's output file edited by hand (issue 56, audit item 7): a row whose figures do not agree with each other,
whose opening is no code, or that holds NaN or Infinity (which Python's json reads, and wrote back as invalid
JSON) is named, with why, in one line (exit 2), and the file left as it was; rows are written as strict JSON."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from mm_logic.cli import cli
from mm_logic.studies.sweep_rows import RowWriter, load_rows
from mm_logic.support.errors import BadInput

#: The row of 2x2 minimax on python, as a sweep wrote it (its case is GRID's).
ROW = {"rules": {"pegs": 2, "colors": 2, "max_repeat": None, "feedback": "standard"}, "strategy": "minimax",
       "first_guess": None, "backend": "python", "seed": None, "variant": None, "opening": "00", "games": 4,
       "total_guesses": 8, "mean": 2.0, "max": 3, "histogram": {"1": 1, "2": 2, "3": 1}, "seconds": 0.005,
       "peak_rss_mb": 165.8, "start_rss_mb": 165.8, "host": "vm"}
GRID = ["--sizes", "2x2", "--strategy", "minimax", "--backend", "python"]


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def refused(tmp_path, rows: list[dict], line: int, why: str, last_newline: bool = True) -> None:
    """``sweep --out`` on a file of ``rows`` refuses it, naming line ``line`` and ``why``; the file is left as it
    was (also when its last line has no end of line: a row that reads whole is no kill's cut)."""
    refused_text(tmp_path, "\n".join(json.dumps(row) for row in rows) + ("\n" if last_newline else ""), line, why)


def refused_text(tmp_path, text: str, line: int, why: str) -> None:
    """As :func:`refused`, for a file of ``text`` (lines as written, not as JSON writes a dict)."""
    out = tmp_path / "rows.jsonl"
    out.write_text(text)
    result = invoke("sweep", *GRID, "--out", out, "--json")
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr == (f"error: --out {out} is not a sweep's output (line {line} is not one of its rows: "
                             f"{why}); name a new file, or one an earlier sweep wrote\n")
    assert out.read_text() == text


def test_a_row_as_written_is_read_and_its_case_not_run_again(tmp_path):
    out = tmp_path / "rows.jsonl"
    out.write_text(json.dumps(ROW) + "\n")
    result = invoke("sweep", *GRID, "--out", out, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["rows"] == [ROW]
    assert result.stderr == f"note: all 1 cases are in {out} already; nothing to run\n"


@pytest.mark.parametrize("fields, why", [
    ({"histogram": {"1": 1, "2": 2}}, "its histogram counts 3 games, not its 4"),
    ({"total_guesses": 9}, "its total_guesses 9 is not its histogram's, 8"),
    ({"max": 2}, "its max 2 is not its histogram's, 3"),
    ({"mean": 2.5}, "its mean 2.5 is not total_guesses / games, 2.0"),
    ({"histogram": {"0": 1, "2": 2, "3": 1}, "total_guesses": 7, "mean": 1.75},
     "its histogram's key '0' is no number of guesses"),
    ({"histogram": {"01": 1, "2": 2, "3": 1}}, "its histogram's key '01' is no number of guesses"),
])
def test_figures_that_disagree_are_refused(tmp_path, fields, why):
    refused(tmp_path, [{**ROW, **fields}], 1, why)


@pytest.mark.parametrize("field, value, why", [
    ("mean", math.nan, '"mean" must be a finite number, not NaN'),
    ("seconds", math.inf, '"seconds" must be a finite number of at least 0, not Infinity'),
    ("peak_rss_mb", -math.inf, '"peak_rss_mb" must be a finite number of at least 0, not -Infinity'),
    ("start_rss_mb", -1.0, '"start_rss_mb" must be a finite number of at least 0, not -1.0'),
])
def test_nan_infinity_and_negative_figures_are_refused(tmp_path, field, value, why):
    # NaN was read, and `sweep --json` printed it back: {"mean": NaN}, which no JSON reader takes.
    refused(tmp_path, [{**ROW, field: value}], 1, why)


@pytest.mark.parametrize("fields, why", [
    ({"opening": "0x"}, "opening: symbol 'x' in code '0x' is not one of the 2 colours 01"),
    ({"opening": "000"}, "opening: code '000' has 3 pegs, expected 2"),
    ({"opening": "0 0"}, "opening '0 0' is not written as a sweep writes it, 00"),
    ({"first_guess": "01"}, "its opening 00 is not its first_guess 01"),
    ({"strategy": 7}, '"strategy" must be a name, not 7'),
    ({"backend": None}, '"backend" must be a name, not null'),
    ({"seed": True}, '"seed" must be null or a whole number, not true'),
])
def test_an_opening_that_is_no_code_or_a_case_field_of_the_wrong_type_is_refused(tmp_path, fields, why):
    refused(tmp_path, [ROW, {**ROW, **fields}], 2, why)


def test_a_last_row_without_its_end_of_line_that_reads_whole_is_checked_not_dropped(tmp_path):
    # A kill cuts a row short of its end, where it reads as no JSON; a row that reads whole was written or edited:
    # dropping it (as a kill's) lost it.
    refused(tmp_path, [ROW, {**ROW, "strategy": "parts", "max": 2}], 2, "its max 2 is not its histogram's, 3",
            last_newline=False)


def test_load_rows_refuses_in_one_line(tmp_path):
    out = tmp_path / "rows.jsonl"
    out.write_text(json.dumps({**ROW, "total_guesses": 9}) + "\n")
    with pytest.raises(BadInput) as error:
        load_rows(out)
    assert str(error.value) == (f"--out {out} is not a sweep's output (line 1 is not one of its rows: its "
                                "total_guesses 9 is not its histogram's, 8); name a new file, or one an earlier sweep "
                                "wrote")


def test_rows_are_written_as_strict_json(tmp_path):
    out = tmp_path / "rows.jsonl"
    writer = RowWriter(out)
    try:
        writer.write(ROW)
        with pytest.raises(ValueError, match="Out of range float values are not JSON compliant"):
            writer.write({**ROW, "mean": math.nan})
    finally:
        writer.close()
    assert out.read_text() == json.dumps(ROW) + "\n"


#: A whole number too large for a float (an audit's hand edit, issue 56), and how a message quotes it: cut short.
HUGE = 10 ** 400
HUGE_SHOWN = "1" + "0" * 39 + "... (401 characters)"


@pytest.mark.parametrize("field, why", [
    ("seconds", f'"seconds" must be a finite number of at least 0, not {HUGE_SHOWN}'),
    ("peak_rss_mb", f'"peak_rss_mb" must be a finite number of at least 0, not {HUGE_SHOWN}'),
    ("start_rss_mb", f'"start_rss_mb" must be a finite number of at least 0, not {HUGE_SHOWN}'),
    ("mean", f'"mean" must be a finite number, not {HUGE_SHOWN}'),
])
def test_a_figure_too_large_for_a_float_is_refused_not_an_internal_failure(tmp_path, field, why):
    # It ended on "internal failure: OverflowError: int too large to convert to float" (exit 1), where 1e999
    # (Infinity) was refused.
    refused(tmp_path, [ROW, {**ROW, field: HUGE}], 2, why)


@pytest.mark.parametrize("fields, why", [
    ({"histogram": {"1": 1, "2": 2, "3": HUGE}}, f"its histogram counts {HUGE_SHOWN[:-20]}... (401 characters) games, "
                                                 "not its 4"),
    ({"games": HUGE}, f"its histogram counts 4 games, not its {HUGE_SHOWN}"),
    ({"total_guesses": HUGE}, f"its total_guesses {HUGE_SHOWN} is not its histogram's, 8"),
    ({"max": HUGE}, f"its max {HUGE_SHOWN} is not its histogram's, 3"),
    ({"histogram": {str(HUGE): 1}, "games": 1, "total_guesses": HUGE, "max": HUGE},
     f"its mean 2.0 is not total_guesses / games, {HUGE_SHOWN}"),
])
def test_huge_figures_are_refused_and_quoted_cut_short(tmp_path, fields, why):
    refused(tmp_path, [{**ROW, **fields}], 1, why)


#: More digits than int() reads.
DIGITS = "9" * 5000
#: What a "rules" object must be.
RULES_SHAPE = '"rules" must be {"pegs": P, "colors": C, "max_repeat": M or null} and an optional "feedback": RULE'


@pytest.mark.parametrize("fields, why", [
    ({"games": True}, '"games" must be a whole number of at least 0, not true'),
    ({"games": 4.0}, '"games" must be a whole number of at least 0, not 4.0'),
    ({"games": -1}, '"games" must be a whole number of at least 0, not -1'),
    ({"total_guesses": "8"}, '"total_guesses" must be a whole number of at least 0, not "8"'),
    ({"max": None}, '"max" must be a whole number of at least 0, not null'),
    ({"mean": "abc"}, '"mean" must be a finite number, not "abc"'),
    ({"seconds": "0.1"}, '"seconds" must be a finite number of at least 0, not "0.1"'),
    ({"peak_rss_mb": True}, '"peak_rss_mb" must be a finite number of at least 0, not true'),
    ({"histogram": [1, 2]}, '"histogram" must be an object of numbers of guesses and games, not [1, 2]'),
    ({"histogram": {"1": True, "2": 2, "3": 1}},
     "its histogram's games for '1' must be a whole number of at least 0, not true"),
    ({"histogram": {"x": 1, "2": 2, "3": 1}}, "its histogram's key 'x' is no number of guesses"),
    ({"opening": 17}, '"opening" must be a code, not 17'),
    ({"host": 1}, '"host" must be a name, not 1'),
    ({"first_guess": 3}, '"first_guess" must be null or a code, not 3'),
    ({"first_guess": "0x"}, "first_guess: symbol 'x' in code '0x' is not one of the 2 colours 01"),
    # As a tree file's or a puzzle set's rules are refused.
    ({"rules": {"pegs": 0, "colors": 2, "max_repeat": None}}, "--pegs must be between 1 and 64, got 0"),
    ({"rules": {"pegs": 2.0, "colors": 2, "max_repeat": None}}, RULES_SHAPE),
    ({"rules": "2x2"}, RULES_SHAPE),
    ({"variant": 3}, 'a case\'s "variant" is {PART: {"file": PATH, "sha256": DIGEST}} or null'),
    ({"host": None, "seconds": None}, '"seconds" must be a finite number of at least 0, not null'),
])
def test_a_field_of_the_wrong_type_says_which(tmp_path, fields, why):
    # Each was "line 2 is not one of its rows", with no reason.
    refused(tmp_path, [ROW, {**ROW, **fields}], 2, why)


@pytest.mark.parametrize("name", ["rules", "strategy", "first_guess", "backend", "seed", "opening", "games",
                                  "histogram", "host"])
def test_a_field_missing_is_named(tmp_path, name):
    refused(tmp_path, [ROW, {k: v for k, v in ROW.items() if k != name}], 2, f'it has no "{name}"')


@pytest.mark.parametrize("line, why", [
    ("{not json", "it is not JSON"),
    ("[1, 2]", "it must be an object of a row's fields, not [1, 2]"),
    ("[" * 100_000, "it is not JSON"),
    (json.dumps(ROW).replace('"games": 4', f'"games": {DIGITS}'),
     f"it has '{DIGITS[:40]}'... (5,000 characters), a number too long to read (more than 4,300 digits)"),
    (json.dumps(ROW).replace('"seed": null', f'"seed": -{DIGITS}'),
     f"it has '-{DIGITS[:39]}'... (5,001 characters), a number too long to read (more than 4,300 digits)"),
], ids=["not-json", "a-list", "deep", "huge-games", "huge-seed"])
def test_a_line_that_is_no_row_says_why(tmp_path, line, why):
    refused_text(tmp_path, f"{json.dumps(ROW)}\n{line}\n{json.dumps(ROW)}\n", 2, why)


@pytest.mark.parametrize("breaks", ["\u2028", "\u0085"])
def test_a_line_break_inside_a_json_string_ends_no_row(tmp_path, breaks):
    # Valid raw inside a JSON string (a program that rewrites the rows with ensure_ascii=False, or JSON.stringify,
    # leaves it so): str.splitlines cut the row there, and the file was refused as no sweep's output.
    out = tmp_path / "rows.jsonl"
    row = {**ROW, "host": f"vm{breaks}2"}
    out.write_text(json.dumps(row, ensure_ascii=False) + "\r\n")
    assert load_rows(out) == ({next(iter(load_rows(out)[0])): row}, 0)
    assert out.read_bytes() == (json.dumps(row, ensure_ascii=False) + "\r\n").encode()  # left as it was
