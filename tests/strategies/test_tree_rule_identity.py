"""Which rule file and which encoding a saved strategy tree belongs to, wherever the command runs.

A tree of a rule of one's own records the file's absolute path and its sha256 (``"variant"``): the same
file is accepted by any name, from any folder (a tree saved before the path was recorded absolute is
looked for from the tree file's folder too); another file, or the same file edited since, is refused in
one line, by ``mmlogic tree`` as by ``--strategy tree:FILE``, and the advice names a path that works from
where the command runs. A tree of an edited encoding is summed up over the codes that encoding admits
(``mmlogic tree FILE --encoding ENC``), never counting the other codes of the rules as uncovered.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from conftest import PY, one_line_error

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SIZE = ["--pegs", 3, "--colors", 3]
#: A rule of one's own that is not shared_colours.py: the black pegs alone.
OTHER_RULE = "def score(g, s):\n    return (sum(a == b for a, b in zip(g, s)),)\n"
FIGURES = ("games", "total_guesses", "max", "histogram")


def figures(out: dict) -> dict:
    return {key: out[key] for key in FIGURES}


@pytest.fixture
def saved(tmp_path, monkeypatch, run_json) -> dict:
    """w/t1.json, a 3x3 tree saved in w with ``--feedback sub/rule.py`` (examples/shared_colours.py), and
    o/, another folder with another file at sub/rule.py."""
    folder = tmp_path / "w"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(EXAMPLES / "shared_colours.py", folder / "sub" / "rule.py")
    (tmp_path / "o" / "sub").mkdir(parents=True)
    (tmp_path / "o" / "sub" / "rule.py").write_text(OTHER_RULE)
    monkeypatch.chdir(folder)
    out = run_json("bench", *PY, *SIZE, "--feedback", "sub/rule.py", "--strategy", "first", "--all",
                   "--save-tree", "t1.json")
    return {"folder": folder, "rule": folder / "sub" / "rule.py", "tree": folder / "t1.json",
            "other": tmp_path / "o", "figures": figures(out)}


def digest(tree: Path) -> str:
    """The first 12 digits of the rule file's sha256 the tree records."""
    return json.loads(tree.read_text())["variant"]["feedback"]["sha256"][:12]


def file_digest(path: Path) -> str:
    """The first 12 digits of a Python rule's sha256 as a tree records it: its length, a line, its bytes."""
    data = path.read_bytes()
    return hashlib.sha256(f"{len(data)}\n".encode() + data).hexdigest()[:12]


def test_the_tree_records_the_rule_files_absolute_path(saved):
    written = json.loads(saved["tree"].read_text())
    assert written["rules"]["feedback"] == "sub/rule.py"
    assert written["variant"]["feedback"]["file"] == str(saved["rule"])


def test_the_same_file_is_accepted_by_any_name_from_any_folder(saved, monkeypatch, run_json):
    monkeypatch.chdir(saved["folder"] / "sub")
    for name in ("rule.py", str(saved["rule"]), "../sub/rule.py"):
        assert figures(run_json("tree", "../t1.json", "--feedback", name)) == saved["figures"]
        played = run_json("bench", *PY, *SIZE, "--feedback", name, "--strategy", "tree:../t1.json", "--all")
        assert figures(played) == saved["figures"]


def test_a_tree_that_recorded_its_rule_path_as_given_is_read_from_its_own_folder(saved, monkeypatch, run_json):
    # As bench --save-tree wrote it before: the path as given, relative to the folder it was saved in.
    data = json.loads(saved["tree"].read_text())
    data["variant"]["feedback"]["file"] = "sub/rule.py"
    saved["tree"].write_text(json.dumps(data))
    monkeypatch.chdir(saved["folder"] / "sub")
    assert figures(run_json("tree", "../t1.json", "--feedback", "rule.py")) == saved["figures"]
    played = run_json("bench", *PY, *SIZE, "--feedback", "rule.py", "--strategy", "tree:../t1.json", "--all")
    assert figures(played) == saved["figures"]


def test_another_file_is_refused_and_the_advice_works_from_there(saved, monkeypatch, run, run_json):
    monkeypatch.chdir(saved["other"])
    tree = "../w/t1.json"
    one_line_error(run("tree", tree, "--feedback", "sub/rule.py"), 2,
                   f"{tree} plays 3x3 feedback rule.py, not --feedback sub/rule.py: give --feedback {saved['rule']} "
                   "(the same file)", stdout="")
    one_line_error(run("bench", *PY, *SIZE, "--feedback", "sub/rule.py", "--strategy", f"tree:{tree}", "--all"), 2,
                   f"--strategy tree:{tree} plays 3x3 feedback rule.py, not 3x3 feedback rule.py: give the tree's "
                   f"rules options (--feedback {saved['rule']}, the same file)", stdout="")
    assert figures(run_json("tree", tree, "--feedback", str(saved["rule"]))) == saved["figures"]
    # From the tree's own folder, the advice is the name there.
    monkeypatch.chdir(saved["folder"] / "sub")
    shutil.copy(saved["rule"], "copy.py")  # the same bytes, another file
    one_line_error(run("tree", "../t1.json", "--feedback", "copy.py"), 2,
                   "../t1.json plays 3x3 feedback rule.py, not --feedback copy.py: give --feedback rule.py "
                   "(the same file)", stdout="")


def test_another_file_at_a_relative_path_recorded_as_given_is_refused_by_its_digest(saved, monkeypatch, run):
    data = json.loads(saved["tree"].read_text())
    data["variant"]["feedback"]["file"] = "sub/rule.py"
    saved["tree"].write_text(json.dumps(data))
    monkeypatch.chdir(saved["other"])
    other = saved["other"] / "sub" / "rule.py"
    ours, theirs = digest(saved["tree"]), file_digest(other)
    one_line_error(run("tree", "../w/t1.json", "--feedback", "sub/rule.py"), 2,
                   f"../w/t1.json was saved for feedback sub/rule.py (sha256 {ours}), not for feedback {other} "
                   f"(sha256 {theirs})", stdout="")
    one_line_error(run("bench", *PY, *SIZE, "--feedback", "sub/rule.py", "--strategy", "tree:../w/t1.json", "--all"),
                   2, f"--strategy tree:../w/t1.json was saved for feedback sub/rule.py (sha256 {ours}), not for "
                      f"feedback {other} (sha256 {theirs})", stdout="")


def test_an_edited_rule_is_refused_by_tree_as_by_bench(saved, run):
    before = digest(saved["tree"])
    rule = saved["rule"]
    rule.write_text(rule.read_text().replace("return (sum((Counter(guess) & Counter(secret)).values()),)",
                                             "return (min(2, sum((Counter(guess) & Counter(secret)).values())),)"))
    after = file_digest(rule)
    told = f"was saved for feedback {rule} (sha256 {before}), not for feedback {rule} (sha256 {after})"
    kept = saved["tree"].read_bytes()
    one_line_error(run("tree", "t1.json", "--feedback", "sub/rule.py"), 2, f"t1.json {told}", stdout="")
    one_line_error(run("tree", "t1.json", "--feedback", "sub/rule.py", "--dot"), 2, f"t1.json {told}", stdout="")
    one_line_error(run("bench", *PY, *SIZE, "--feedback", "sub/rule.py", "--strategy", "tree:t1.json", "--all"), 2,
                   f"--strategy tree:t1.json {told}", stdout="")
    one_line_error(run("compare", *PY, *SIZE, "--feedback", "sub/rule.py", "--strategy", "tree:t1.json,first",
                       "--all"), 2, f"--strategy tree:t1.json {told}")
    assert saved["tree"].read_bytes() == kept


# -- an edited encoding ------------------------------------------------------------------------------------------
@pytest.fixture
def palindromes(tmp_path, run_json) -> dict:
    """A 4x3 tree of palindromes (examples/palindrome.lp: 9 codes), saved by a clingo bench."""
    pytest.importorskip("clingo")
    encoding = tmp_path / "palindrome.lp"
    shutil.copy(EXAMPLES / "palindrome.lp", encoding)
    tree = tmp_path / "tpal.json"
    out = run_json("bench", "--backend", "clingo", "--pegs", 4, "--colors", 3, "--encoding", encoding,
                   "--strategy", "first", "--all", "--save-tree", tree)
    variant = json.loads(tree.read_text())["variant"]
    return {"encoding": encoding, "tree": tree, "figures": figures(out), "variant": variant,
            "digest": variant["encoding"]["sha256"][:12]}


def test_an_encodings_tree_is_summed_up_over_the_codes_it_admits(palindromes, run, run_json):
    tree, encoding = palindromes["tree"], palindromes["encoding"]
    out = run_json("tree", tree, "--encoding", encoding)
    assert figures(out) == palindromes["figures"] and out["games"] == 9
    assert (out["uncovered"], out["variant"]) == (0, palindromes["variant"])
    text = run("tree", tree, "--encoding", encoding)
    assert text.exit_code == 0 and "uncovered" not in text.stdout
    assert text.stdout.splitlines()[:2] == ["rules      4x3",
                                            f"variant    encoding {encoding} (sha256 {palindromes['digest']})"]
    drawn = run("tree", tree, "--encoding", encoding, "--dot", "--max-depth", 1)
    assert drawn.exit_code == 0 and '  n0 [label="0000\\n9 codes"' in drawn.stdout


def test_an_encodings_tree_needs_that_encoding(palindromes, tmp_path, run):
    tree, encoding, digest12 = palindromes["tree"], palindromes["encoding"], palindromes["digest"]
    one_line_error(run("tree", tree), 2,
                   f"{tree} was saved for encoding {encoding} (sha256 {digest12}), whose codes are its secrets: "
                   f"give --encoding {encoding} (the same file)", stdout="")
    other = tmp_path / "no_adjacent.lp"
    shutil.copy(EXAMPLES / "no_adjacent.lp", other)
    result = run("tree", tree, "--encoding", other)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: {tree} was saved for encoding {encoding} (sha256 {digest12}), not for "
                                    f"encoding {other} (sha256 ")
    encoding.write_text(encoding.read_text() + "% edited since\n")
    result = run("tree", tree, "--encoding", encoding)
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {tree} was saved for encoding {encoding} "
                                                               f"(sha256 {digest12}), not for encoding {encoding} ")


def test_a_rules_own_tree_refuses_an_encoding(tmp_path, run, run_json):
    pytest.importorskip("clingo")
    tree = tmp_path / "plain.json"
    run_json("bench", *PY, "--pegs", 2, "--colors", 2, "--strategy", "first", "--all", "--save-tree", tree)
    encoding = tmp_path / "palindrome.lp"
    shutil.copy(EXAMPLES / "palindrome.lp", encoding)
    result = run("tree", tree, "--encoding", encoding)
    assert result.exit_code == 2 and result.stderr.startswith(
        f"error: {tree} was saved for the rules' own game, not for encoding {encoding} (sha256 ")
    assert "variant" not in run_json("tree", tree)
