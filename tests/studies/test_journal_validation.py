"""An optimal search's journal edited by hand (issue 56, audit item 6): every line is checked against the search it
resumes before any part is searched or written, and a line that fails is named, with why, in one line (exit 2);
the journal is left as it was.

The 3x3 journals written here: the opening 001's parts (header first, so the parts are lines 2-6), each with its
exact total and subtree: ``1,0`` (6 codes, 11), ``2,0`` (6 codes, 12), ``0,1`` (4 codes, 7), ``1,1`` (4 codes, 7),
``0,2`` (3 codes: 120 210 110, 5).
"""

from __future__ import annotations

import json

import pytest

from mm_logic.optimal.journal import Journal
from mm_logic.optimal.objectives import optimal
from mm_logic.rules import Rules
from mm_logic.strategies.tree import StrategyTree

from conftest import one_line_error

RULES = Rules(3, 3)
GAME = ("optimal", "--pegs", 3, "--colors", 3)
#: A strategy for the part 001 0,2 that guesses 211 first (no code of the part) and then each code: total 6.
OUTSIDE = {"guess": "211", "next": {"0,2": {"guess": "120"}, "2,0": {"guess": "210"}, "1,1": {"guess": "110"}}}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """The lines of whole 3x3 searches' journals: ``expected``, ``worst`` and hard mode's."""
    folder = tmp_path_factory.mktemp("journals")
    found = {}
    for name, objective, hard in (("expected", "expected", False), ("worst", "worst", False),
                                  ("hard", "expected", True)):
        path = folder / f"{name}.jsonl"
        optimal(RULES, objective, consistent_only=hard, journal=path)
        found[name] = [json.loads(line) for line in path.read_text().splitlines()]
    return found


def text_of(entries: list[dict]) -> str:
    return "".join(json.dumps(entry) + "\n" for entry in entries)


def refused(run, path, entries: list[dict], line: int, why: str, *options) -> None:
    """The journal of ``entries`` is refused, line ``line`` named with ``why``, and left as it was."""
    text = text_of(entries)
    path.write_text(text)
    one_line_error(run(*GAME, *options, "--journal", path), 2,
                   f"--journal {path}: line {line} is not a part's result: {why}", stdout="")
    assert path.read_text() == text


def edited(entries: list[dict], line: int, **fields) -> list[dict]:
    """The journal with line ``line`` (1: the header) changed; a field given None is removed."""
    changed = {**entries[line - 1], **fields}
    return [*entries[: line - 1], {k: v for k, v in changed.items() if v is not None or k in ("depth", "tree")},
            *entries[line:]]


def test_the_journals_as_written_resume(written, tmp_path):
    # What the checks below refuse is only what was edited: the journals as written read whole.
    for name, hard in (("expected", False), ("hard", True)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text(text_of(written[name]))
        again = optimal(RULES, "expected", consistent_only=hard, journal=path)
        assert (again.journal_read, again.journal_written, again.total, again.positions) == (5, 0, 73, 0)
    path = tmp_path / "worst.jsonl"
    path.write_text(text_of(written["worst"]))
    again = optimal(RULES, "worst", journal=path)
    assert (again.journal_read, again.journal_written, again.total, again.positions) == (14, 0, 73, 0)


@pytest.mark.parametrize("value", [5, 8])
def test_a_total_edited_alone_is_not_its_subtrees_and_is_refused(run, written, tmp_path, value):
    # It was read: "openings 001 71, ..." while the strategy printed took 73.
    refused(run, tmp_path / "j.jsonl", edited(written["expected"], 4, value=value), 4,
            f"its total {value} is not that of its subtree, 7")


@pytest.mark.parametrize("field, value, why", [
    ("value", True, '"value" must be a whole number of at least 0, not true'),
    ("value", 7.0, '"value" must be a whole number of at least 0, not 7.0'),
    ("value", -7, '"value" must be a whole number of at least 0, not -7'),
    ("value", "7", '"value" must be a whole number of at least 0, not "7"'),
    ("budget", False, '"budget" must be a whole number of at least 0, not false'),
    ("depth", True, '"depth" must be null or a whole number of at least 0, not true'),
    ("depth", -1, '"depth" must be null or a whole number of at least 0, not -1'),
    ("positions", -3, '"positions" must be a whole number of at least 0, not -3'),
    ("seconds", float("nan"), '"seconds" must be a finite number of at least 0, not NaN'),
    ("seconds", "fast", '"seconds" must be a finite number of at least 0, not "fast"'),
])
def test_a_field_of_the_wrong_type_is_refused(run, written, tmp_path, field, value, why):
    refused(run, tmp_path / "j.jsonl", edited(written["expected"], 3, **{field: value}), 3, why)


@pytest.mark.parametrize("value, why", [
    (1, '"within" must be true or false, not 1'),
    ("yes", '"within" must be true or false, not "yes"'),
])
def test_a_within_that_is_no_boolean_is_refused(run, written, tmp_path, value, why):
    refused(run, tmp_path / "j.jsonl", edited(written["worst"], 2, within=value), 2, why, "--objective", "worst")


def test_a_within_line_without_a_depth_is_refused(run, written, tmp_path):
    refused(run, tmp_path / "j.jsonl", edited(written["worst"], 2, depth=None), 2,
            '"depth" must be a whole number of at least 0, not null', "--objective", "worst")


def test_a_line_both_exact_and_within_is_refused(run, written, tmp_path):
    refused(run, tmp_path / "j.jsonl", edited(written["expected"], 3, within=True), 3,
            'it has both "within" and "value"')


@pytest.mark.parametrize("field, value, why", [
    ("opening", "0x1", "opening: symbol 'x' in code '0x1' is not one of the 3 colours 012"),
    ("opening", "0011", "opening: code '0011' has 4 pegs, expected 3"),
    ("opening", "0 0 1", "opening '0 0 1' is not written as the journal writes it, 001"),
    ("opening", 1, '"opening" must be a code, not 1'),
    ("feedback", "2,1", "feedback 2,1 cannot occur: with 2 pegs right the last one cannot be a misplaced colour"),
    ("feedback", "x", "feedback 'x' in 'x' is not of the form B,W (e.g. 1,2)"),
    ("feedback", "1, 0", "feedback '1, 0' is not written as the journal writes it, 1,0"),
    ("feedback", "3,0", "feedback 3,0 is the win, no part"),
    ("feedback", "0,3", "no code answers 0,3 to the opening 001: no such part"),
])
def test_an_opening_or_feedback_that_names_no_part_is_refused(run, written, tmp_path, field, value, why):
    # They were read, and never asked for: the part they stood for was searched again, silently.
    refused(run, tmp_path / "j.jsonl", edited(written["expected"], 2, **{field: value}), 2, why)


def test_a_subtree_that_leaves_a_code_unfound_is_refused(run, written, tmp_path):
    tree = {"guess": "120", "next": {"1,2": {"guess": "210"}}}  # 110 (2,0) has no branch
    refused(run, tmp_path / "j.jsonl", edited(written["expected"], 6, tree=tree, value=3), 6,
            "its subtree has no branch for 2,0 after 120")


def test_a_branch_no_code_reaches_is_never_played(written, tmp_path):
    tree = {"guess": "120", "next": {"1,2": {"guess": "210"}, "2,0": {"guess": "110", "next": {"1,0": {
        "guess": "000"}}}}}
    path = tmp_path / "j.jsonl"
    path.write_text(text_of(edited(written["expected"], 6, tree=tree)))
    assert optimal(RULES, "expected", journal=path).journal_read == 5


def test_a_subtree_guess_that_is_no_code_of_the_game_is_refused(run, written, tmp_path):
    header = {**written["expected"][0], "rules": Rules(3, 3, max_repeat=1).as_dict()}
    line = {"opening": "012", "feedback": "0,3", "depth": None, "budget": 99, "value": 3,
            "tree": {"guess": "112", "next": {}}}
    refused(run, tmp_path / "j.jsonl", [header, line], 2, "its subtree's guess 112 is not a code of 3x3 no-repeat",
            "--no-repeat")


def test_a_subtree_deeper_than_the_depth_is_refused(run, written, tmp_path):
    entry = {**written["expected"][5], "depth": 1}
    refused(run, tmp_path / "j.jsonl", [*written["expected"], entry], 7,
            "its subtree takes more than 1 guess", "--max-depth", 2)


def test_hard_mode_refuses_a_subtree_guess_that_is_not_consistent(run, written, tmp_path):
    # In hard mode every guess is one of the codes left; 211 is none of 120 210 110.
    refused(run, tmp_path / "j.jsonl", edited(written["hard"], 6, tree=OUTSIDE, value=6), 6,
            "its subtree's guess 211 is not consistent with the answers before it (hard mode)", "--consistent-only")


def test_a_worse_strategy_with_its_own_total_is_not_seen(written, tmp_path):
    # The limit of the checks, written down: a subtree edited to another strategy, with that strategy's total
    # (6 where the part's least is 5), is a cost the search could have met; only searching the part again shows
    # it is not the least. The search takes 001 to cost 74, proves 012 and 000 cost at least that, and says 74
    # is optimal where 73 is (docs/cli.md says so of --journal).
    path = tmp_path / "j.jsonl"
    path.write_text(text_of(edited(written["expected"], 6, tree=OUTSIDE, value=6)))
    result = optimal(RULES, "expected", journal=path)
    assert (result.journal_read, result.total) == (5, 74)


@pytest.mark.parametrize("value, why", [
    (10, "its bound 10 is below 11, the least 6 codes can cost"),
    (22, "its bound 22 is above 21, what guessing its 6 codes in turn costs"),
])
def test_a_bound_out_of_its_parts_range_is_refused(run, written, tmp_path, value, why):
    # 012 0,2: 6 codes; a part splits into at most 8 others, so 1 + 2 x 5 is the least they can cost.
    entry = {"opening": "012", "feedback": "0,2", "depth": None, "budget": 1, "value": value}
    refused(run, tmp_path / "j.jsonl", [*written["expected"], entry], 7, why)


def test_a_bound_above_the_total_another_line_gives_is_refused(run, written, tmp_path):
    entry = {"opening": "001", "feedback": "0,1", "depth": None, "budget": 8, "value": 8}
    refused(run, tmp_path / "j.jsonl", [*written["expected"], entry], 7,
            "its bound 8 is above the total 7 of line 4")
    refused(run, tmp_path / "k.jsonl", [written["expected"][0], entry, *written["expected"][1:]], 5,
            "its total 7 is below the bound 8 of line 2")


def test_two_totals_of_one_part_that_differ_are_refused(run, written, tmp_path):
    refused(run, tmp_path / "j.jsonl", [*written["expected"], edited(written["expected"], 6, tree=OUTSIDE,
                                                                      value=6)[5]], 7,
            "its total 6 is not the total 5 of line 6")


@pytest.mark.parametrize("depth, within, why", [
    (1, True, "6 codes cannot all be found within 1 guess"),
    (6, False, "6 codes are all found within 6 guesses by guessing them in turn"),
])
def test_a_within_out_of_its_parts_range_is_refused(run, written, tmp_path, depth, within, why):
    refused(run, tmp_path / "j.jsonl", edited(written["worst"], 2, depth=depth, within=within), 2, why,
            "--objective", "worst")


def test_two_withins_of_one_part_that_differ_are_refused(run, written, tmp_path):
    refused(run, tmp_path / "j.jsonl", [*written["worst"], edited(written["worst"], 2, within=False)[1]], 16,
            "it says false where line 2 says true", "--objective", "worst")


def test_a_guess_line_is_checked_as_its_guess_at_the_part(run, written, tmp_path):
    # 001 0,1 searched guess by guess: its guess 122's own subtree (total 7), read back; then edited.
    part = written["expected"][3]
    line = {**{k: part[k] for k in ("opening", "feedback", "depth", "budget", "value", "tree")}, "guess": "122"}
    path = tmp_path / "fine.jsonl"
    path.write_text(text_of([*written["expected"], line]))
    journal = Journal(path, RULES, False)
    journal.close()
    assert journal.read == 6
    refused(run, tmp_path / "j.jsonl", [*written["expected"], {**line, "guess": "220"}], 7,
            "its subtree starts with 122, not with its guess 220")
    refused(run, tmp_path / "k.jsonl", [*written["expected"], {**line, "value": 6}], 7,
            "its total 6 is not that of its subtree, 7")
    bound = {k: line[k] for k in ("opening", "feedback", "guess", "depth")}
    refused(run, tmp_path / "b.jsonl", [*written["expected"], {**bound, "budget": 1, "value": 5}], 7,
            "its bound 5 is below 7, the least its guess 122 can cost at the part's 4 codes")
    refused(run, tmp_path / "w.jsonl", [*written["worst"], {**bound, "depth": 1, "within": True}], 16,
            "the parts its guess 122 leaves cannot all be found within 0 guesses", "--objective", "worst")


def test_a_journal_is_written_as_strict_json(tmp_path):
    # Python writes NaN where JSON has none: a journal another program reads must not hold it.
    journal = Journal(tmp_path / "j.jsonl", RULES, False)
    try:
        with pytest.raises(ValueError, match="Out of range float values are not JSON compliant"):
            journal._write({"opening": "001", "seconds": float("nan")})
    finally:
        journal.close()
    assert (tmp_path / "j.jsonl").read_text().count("\n") == 1  # the header alone


def test_a_saved_tree_is_written_as_strict_json(tmp_path, monkeypatch):
    # optimal --save-tree: a tree file is read by other programs too; nothing is written rather than NaN.
    result = optimal(RULES, "expected")
    tree = StrategyTree(RULES, result.tree, "optimal")
    monkeypatch.setattr(StrategyTree, "as_json", lambda self: {"tree": {}, "mean": float("nan")})
    with pytest.raises(ValueError, match="Out of range float values are not JSON compliant"):
        tree.save(tmp_path / "tree.json")
    assert not (tmp_path / "tree.json").exists()


#: A whole number too large for a float (an audit's hand edit, issue 56), and how a message quotes it: cut short.
HUGE = 10 ** 400
HUGE_SHOWN = "1" + "0" * 39 + "... (401 characters)"


def test_a_seconds_too_large_for_a_float_is_refused_not_an_internal_failure(run, written, tmp_path):
    # It ended on "internal failure: OverflowError: int too large to convert to float" (exit 1), where 1e999
    # (Infinity) was refused.
    refused(run, tmp_path / "j.jsonl", edited(written["expected"], 2, seconds=HUGE), 2,
            f'"seconds" must be a finite number of at least 0, not {HUGE_SHOWN}')
    refused(run, tmp_path / "k.jsonl", edited(written["expected"], 2, seconds=1e999), 2,
            '"seconds" must be a finite number of at least 0, not Infinity')


@pytest.mark.parametrize("fields, why", [
    ({"value": HUGE, "budget": HUGE + 1}, f"its total {HUGE_SHOWN} is not that of its subtree, 11"),
    ({"value": HUGE, "budget": 1}, f"its bound {HUGE_SHOWN} is above 21, what guessing its 6 codes in turn costs"),
])
def test_a_huge_total_or_bound_is_quoted_cut_short(run, written, tmp_path, fields, why):
    refused(run, tmp_path / "j.jsonl", edited(written["expected"], 2, **fields), 2, why)


#: More digits than int() reads.
DIGITS = "9" * 5000


def line_text(written, text: str) -> list[str]:
    """The expected journal's lines with line 3 replaced by ``text`` (as written, not as JSON writes it)."""
    lines = [json.dumps(entry) for entry in written["expected"]]
    return [*lines[:2], text, *lines[3:]]


@pytest.mark.parametrize("text, why", [
    ("", "it is blank"),
    ("   ", "it is blank"),
    ("{not json", "it is not JSON"),
    ("[" * 100_000, "it is not JSON"),
    ("[1, 2]", "it must be an object of a part's fields, not [1, 2]"),
    ('{"feedback": "1,0", "depth": null, "budget": 99, "value": 5}', 'it has no "opening"'),
    ('{"opening": "001", "depth": null, "budget": 99, "value": 5}', 'it has no "feedback"'),
    ('{"opening": "001", "feedback": "1,0", "budget": 99, "value": 5}', 'it has no "depth"'),
    ('{"opening": "001", "feedback": "1,0", "depth": null, "value": 5}', 'it has no "budget"'),
    ('{"opening": "001", "feedback": "1,0", "depth": 3, "budget": 99}', 'it has no "value"'),
    ('{"opening": "001", "feedback": "1,0", "depth": null, "budget": 99, "value": ' + DIGITS + "}",
     f"it has '{DIGITS[:40]}'... (5,000 characters), a number too long to read (more than 4,300 digits)"),
    ('{"opening": "001", "feedback": "1,0", "depth": null, "budget": 99, "value": 5, "tree": {"guess": 123}}',
     'its subtree: a node must be {"guess": CODE, "next": {...}} (at the root)'),
    ('{"opening": "001", "feedback": "1,0", "depth": null, "budget": 99, "value": 5, "tree": '
     '{"guess": "012", "next": {"9,9": {"guess": "120"}}}}',
     "its subtree: feedback 9,9 in '012:9,9': black + white exceeds the 3 pegs"),
    ('{"opening": "001", "feedback": "1,0", "depth": null, "budget": 99, "value": 5}',
     'its subtree: a node must be {"guess": CODE, "next": {...}} (at the root)'),
], ids=["blank", "spaces", "not-json", "deep", "a-list", "no-opening", "no-feedback", "no-depth", "no-budget",
        "no-value", "huge-number", "tree-guess-123", "tree-feedback-9,9", "no-tree"])
def test_a_line_that_is_no_part_says_why(run, written, tmp_path, text, why):
    # Each was "line 3 is not a part's result", with no reason.
    path = tmp_path / "j.jsonl"
    content = "".join(line + "\n" for line in line_text(written, text))
    path.write_text(content)
    one_line_error(run(*GAME, "--journal", path), 2, f"--journal {path}: line 3 is not a part's result: {why}",
                   stdout="")
    assert path.read_text() == content


@pytest.mark.parametrize("breaks", ["\u2028", "\u0085"])
def test_a_line_break_inside_a_json_string_ends_no_line(written, tmp_path, breaks):
    # Valid raw inside a JSON string (a program that writes JSON with ensure_ascii=False, or JSON.stringify, leaves
    # it so): str.splitlines cut the line there, and the journal was refused ("line 2 ... is not JSON").
    path = tmp_path / "j.jsonl"
    entries = [written["expected"][0], {**written["expected"][1], "host": f"a{breaks}b"}, *written["expected"][2:]]
    path.write_text("".join(json.dumps(entry, ensure_ascii=False) + "\r\n" for entry in entries))
    again = optimal(RULES, "expected", journal=path)
    assert (again.journal_read, again.journal_written, again.total, again.positions) == (5, 0, 73, 0)
