"""An optimal search's journal with a rule of one's own belongs to the rule file, not to the name it was given by.

The journal's first line records the rule file's sha256 (``"variant"``, as saved trees and sweep rows do): the
same file named another way (an absolute path, from another folder, a hard link) resumes the search; a rule
edited since is refused in one line, before anything is searched, and the journal is left as it was. A journal
written before the first line recorded the digest is compared as before, by the rule's name.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from conftest import one_line_error

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SIZE = ["--pegs", 2, "--colors", 3]
FIGURES = ("games", "total_guesses", "histogram", "opening")


def figures(out: dict) -> dict:
    return {key: out[key] for key in FIGURES}


def file_digest(path: Path) -> str:
    """A Python rule's sha256 as its variant records it: its length, a line, its bytes."""
    data = path.read_bytes()
    return hashlib.sha256(f"{len(data)}\n".encode() + data).hexdigest()


@pytest.fixture
def searched(tmp_path, monkeypatch, run_json) -> dict:
    """jr.jsonl, the journal of a 2x3 search with r.py (examples/shared_colours.py), written in tmp_path."""
    shutil.copy(EXAMPLES / "shared_colours.py", tmp_path / "r.py")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    out = run_json("optimal", *SIZE, "--feedback", "r.py", "--journal", "jr.jsonl")
    assert out["journal"]["parts_read"] == 0 and out["journal"]["parts_written"] > 0
    return {"folder": tmp_path, "rule": tmp_path / "r.py", "journal": tmp_path / "jr.jsonl", "out": out}


def test_the_journal_records_the_rule_files_digest(searched):
    head = json.loads(searched["journal"].read_text().splitlines()[0])
    assert head == {"journal": "mmlogic optimal", "version": 2,
                    "rules": {"pegs": 2, "colors": 3, "max_repeat": None, "feedback": "r.py"},
                    "consistent_only": False,
                    "variant": {"feedback": {"file": str(searched["rule"]), "sha256": file_digest(searched["rule"])}}}


def test_the_same_file_by_any_name_resumes(searched, monkeypatch, run_json):
    folder = searched["folder"]
    os.link(folder / "r.py", folder / "hard.py")
    for where, rule, journal in [(folder, str(folder / "r.py"), "jr.jsonl"), (folder / "sub", "../r.py", "../jr.jsonl"),
                                 (folder, "hard.py", "jr.jsonl")]:
        monkeypatch.chdir(where)
        kept = searched["journal"].read_bytes()
        out = run_json("optimal", *SIZE, "--feedback", rule, "--journal", journal)
        assert figures(out) == figures(searched["out"])
        assert (out["journal"]["parts_read"], out["journal"]["parts_written"]) == (
            searched["out"]["journal"]["parts_written"], 0)
        assert searched["journal"].read_bytes() == kept


def test_an_edited_rule_is_refused_before_anything_is_searched(searched, run):
    rule, journal = searched["rule"], searched["journal"]
    before = file_digest(rule)[:12]
    rule.write_text(rule.read_text().replace("return (sum((Counter(guess) & Counter(secret)).values()),)",
                                             "return (min(1, sum((Counter(guess) & Counter(secret)).values())),)"))
    kept = journal.read_bytes()
    one_line_error(run("optimal", *SIZE, "--feedback", "r.py", "--journal", "jr.jsonl"), 2,
                   f"--journal jr.jsonl was written with feedback {rule} (sha256 {before}): the rule file changed "
                   f"since (sha256 {file_digest(rule)[:12]} now); give a new --journal to search with this rule",
                   stdout="")
    assert journal.read_bytes() == kept


def test_another_rule_file_is_refused_as_another_search(searched, run):
    (searched["folder"] / "other.py").write_text("def score(g, s):\n    return (sum(a == b for a, b in zip(g, s)),)\n")
    kept = searched["journal"].read_bytes()
    one_line_error(run("optimal", *SIZE, "--feedback", "other.py", "--journal", "jr.jsonl"), 2,
                   f"--journal jr.jsonl was written with feedback {searched['rule']} (sha256 "
                   f"{file_digest(searched['rule'])[:12]}): the rule file changed since, or other.py is another file "
                   f"(sha256 {file_digest(searched['folder'] / 'other.py')[:12]}); give a new --journal to search "
                   "with this rule", stdout="")
    one_line_error(run("optimal", *SIZE, "--journal", "jr.jsonl"), 2,
                   "--journal jr.jsonl is the journal of another search (2x3 feedback r.py), not of 2x3", stdout="")
    assert searched["journal"].read_bytes() == kept


def test_a_journal_without_the_digest_is_compared_by_the_rules_name_as_before(searched, run, run_json):
    journal = searched["journal"]
    lines = journal.read_text().splitlines(keepends=True)
    head = json.loads(lines[0])
    del head["variant"]
    journal.write_text(json.dumps(head) + "\n" + "".join(lines[1:]))
    kept = journal.read_bytes()
    out = run_json("optimal", *SIZE, "--feedback", "r.py", "--journal", "jr.jsonl")
    assert figures(out) == figures(searched["out"]) and out["journal"]["parts_written"] == 0
    assert journal.read_bytes() == kept  # its first line stays as it was
    one_line_error(run("optimal", *SIZE, "--feedback", str(searched["rule"]), "--journal", "jr.jsonl"), 2,
                   "--journal jr.jsonl is the journal of another search (2x3 feedback r.py), not of 2x3 feedback r.py",
                   stdout="")


@pytest.mark.parametrize("variant", [None, [], {"feedback": {"file": "r.py"}}, {"feedback": {"file": 1, "sha256": "0"}},
                                     {"feedback": {"file": "r.py", "sha256": "0"}, "encoding": {}}])
def test_a_first_line_whose_variant_is_damaged_is_refused(searched, run, variant):
    journal = searched["journal"]
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text(json.dumps({**json.loads(lines[0]), "variant": variant}) + "\n" + "".join(lines[1:]))
    kept = journal.read_bytes()
    one_line_error(run("optimal", *SIZE, "--feedback", "r.py", "--journal", "jr.jsonl"), 2,
                   '--journal jr.jsonl: its first line\'s "variant" is not {"feedback": {"file": PATH, "sha256": '
                   'DIGEST}}', stdout="")
    assert journal.read_bytes() == kept


def test_a_built_in_rules_journal_has_no_variant(tmp_path, run_json):
    journal = tmp_path / "j.jsonl"
    run_json("optimal", *SIZE, "--journal", journal)
    assert "variant" not in json.loads(journal.read_text().splitlines()[0])
