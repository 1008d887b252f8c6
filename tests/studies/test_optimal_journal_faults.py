"""An optimal search's journal that is damaged, in use, or another game's (issue 56): named and refused in one
line, before any part is searched or a kernel compiled, and left as it was; never half read."""

from __future__ import annotations

import json

import pytest

import mm_logic.optimal.objectives as optimal_module
from mm_logic.optimal.journal import Journal
from mm_logic.optimal.objectives import optimal
from mm_logic.rules import Rules
from mm_logic.support.errors import BadInput

from conftest import one_line_error

RULES = Rules(3, 3)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """The lines of a whole 3x3 search's journal (a header and 5 parts)."""
    journal = tmp_path_factory.mktemp("journal") / "whole.jsonl"
    optimal(RULES, "expected", journal=journal)
    return journal.read_text().splitlines(keepends=True)


@pytest.fixture
def no_compiling(monkeypatch):
    """The kernels' compilation made to fail at once: a journal that is refused must be refused before it."""
    def compiled(*args, **kwargs):
        raise AssertionError("the kernels were compiled before the journal was read")

    monkeypatch.setattr(optimal_module, "compile_kernels", compiled)


@pytest.mark.parametrize("damage, why", [
    ("garbage", "it is not JSON"),
    ('{"opening": "001"}', 'it has no "feedback"'),
    ('{"opening": "001", "feedback": "1,0", "depth": null, "budget": 99, "value": 5, "tree": {"guess": "9"}}',
     "its subtree: symbol '9' in code '9' is not one of the 3 colours 012 (at the root)"),
], ids=["garbage", "no-feedback", "tree-guess-9"])
def test_a_damaged_last_line_is_named_and_the_journal_refused(run, tmp_path, written, damage, why, no_compiling):
    journal = tmp_path / "j.jsonl"
    text = "".join(written[:3]) + damage + "\n"
    journal.write_text(text)
    one_line_error(run("optimal", "--pegs", 3, "--colors", 3, "--journal", journal), 2,
                   f"--journal {journal}: line 4 is not a part's result: {why}", stdout="")
    assert journal.read_text() == text  # nothing appended after it, nothing cut


def test_a_line_cut_short_is_never_read_and_is_cut_off(tmp_path, written):
    # Killed just before its end of line: the line reads as a part's result, but a kill may have cut any line
    # there; it is searched again, and the lines written next start on their own.
    journal = tmp_path / "j.jsonl"
    journal.write_text("".join(written[:3]) + written[3].rstrip("\n"))
    resumed = optimal(RULES, "expected", journal=journal)
    assert (resumed.journal_read, resumed.journal_written) == (2, 3)
    lines = journal.read_text().splitlines(keepends=True)
    assert lines[:3] == written[:3] and len(lines) == 6 and all(line.endswith("}\n") for line in lines)
    again = optimal(RULES, "expected", journal=journal)
    assert (again.journal_read, again.journal_written, again.total) == (5, 0, resumed.total)


def test_a_journal_in_use_by_another_search_is_refused_at_once(run, tmp_path, written, no_compiling):
    path = tmp_path / "j.jsonl"
    path.write_text("".join(written[:3]))
    other = Journal(path, RULES, False)  # another search holds it, as a running `optimal --journal` does
    try:
        one_line_error(run("optimal", "--pegs", 3, "--colors", 3, "--journal", path), 2,
                       f"--journal {path} is being written by another optimal search, still running; wait for it "
                       "to end (the same command then runs what it left), or name another file", stdout="")
        assert path.read_text() == "".join(written[:3])
    finally:
        other.close()
    holder = Journal(path, RULES, False)
    try:
        with pytest.raises(BadInput, match="is being written by another optimal search"):  # as the command
            Journal(path, RULES, False)
    finally:
        holder.close()


def test_a_journal_is_free_again_once_its_search_ends(tmp_path, written):
    path = tmp_path / "j.jsonl"
    optimal(RULES, "expected", journal=path)
    again = optimal(RULES, "expected", journal=path)
    assert (again.journal_read, again.journal_written) == (5, 0)
    assert len(path.read_text().splitlines()) == len(written)


def test_a_journal_of_another_alphabet_says_so_before_compiling(run, tmp_path, written, no_compiling):
    journal = tmp_path / "j.jsonl"
    journal.write_text("".join(written))
    one_line_error(run("optimal", "--pegs", 3, "--colors", 3, "--alphabet", "abc", "--journal", journal), 2,
                   f"--journal {journal} is the journal of another search (3x3, alphabet 012), not of 3x3, "
                   "alphabet abc", stdout="")
    assert journal.read_text() == "".join(written)


def test_a_journal_of_other_rules_is_refused_before_compiling(run, tmp_path, written, no_compiling):
    journal = tmp_path / "j.jsonl"
    journal.write_text("".join(written))
    one_line_error(run("optimal", "--pegs", 3, "--colors", 4, "--journal", journal), 2,
                   f"--journal {journal} is the journal of another search (3x3), not of 3x4", stdout="")


def test_a_journal_written_with_an_alphabet_resumes_with_it_alone(run, tmp_path):
    journal = tmp_path / "j.jsonl"
    first = run("optimal", "--pegs", 3, "--colors", 3, "--alphabet", "abc", "--journal", journal, "--json")
    assert first.exit_code == 0, first.stderr
    head, *parts = [json.loads(line) for line in journal.read_text().splitlines()]
    assert head["alphabet"] == "abc" and {part["opening"] for part in parts} <= {"aaa", "aab", "abc"}
    again = json.loads(run("optimal", "--pegs", 3, "--colors", 3, "--alphabet", "abc", "--journal", journal,
                           "--json").stdout)
    assert again["journal"]["parts_read"] == len(parts) and again["positions"] == 0
    # The default alphabet's journal names none: journals written before are read as they were.
    plain = tmp_path / "plain.jsonl"
    assert run("optimal", "--pegs", 3, "--colors", 3, "--journal", plain).exit_code == 0
    assert "alphabet" not in json.loads(plain.read_text().splitlines()[0])


def test_a_line_nested_thousands_deep_is_named_and_the_journal_refused(run, tmp_path, written, no_compiling):
    # json.loads gave up with a RecursionError, an internal failure; such a line is no part's result.
    journal = tmp_path / "j.jsonl"
    text = "".join(written[:2]) + "[" * 100_000 + "\n"
    journal.write_text(text)
    one_line_error(run("optimal", "--pegs", 3, "--colors", 3, "--journal", journal), 2,
                   f"--journal {journal}: line 3 is not a part's result: it is not JSON", stdout="")
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "\n")
    one_line_error(run("optimal", "--pegs", 3, "--colors", 3, "--journal", deep), 2,
                   f'--journal {deep} is not an optimal search\'s journal (no "journal": "mmlogic optimal" on its '
                   "first line): give a new file or one an earlier run of the same search wrote", stdout="")
    assert journal.read_text() == text and deep.read_text() == "[" * 100_000 + "\n"
