"""A saved strategy tree records the variant it was made for, and is refused in another.

The variant is the edited encoding and the rule of one's own, each named with a digest of its files
(``variant_of``): a tree of palindromes replays on palindromes to the optimum it was saved with, and
is refused on the rules' own game, on another encoding, and on the same file once edited.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_variants_tree_replays_in_it_and_is_refused_elsewhere(tmp_path, run, run_json):
    encoding = tmp_path / "palindrome.lp"
    shutil.copy(EXAMPLES / "palindrome.lp", encoding)
    tree = tmp_path / "palindromes.json"
    found = run_json("optimal", "--pegs", 4, "--colors", 3, "--encoding", encoding, "--save-tree", tree)
    saved = json.loads(tree.read_text())
    assert saved["variant"]["encoding"]["file"] == str(encoding) and len(saved["variant"]["encoding"]["sha256"]) == 64
    assert set(saved["variant"]) == {"encoding"}
    played = run_json("bench", "--backend", "clingo", "--pegs", 4, "--colors", 3, "--encoding", encoding,
                      "--strategy", f"tree:{tree}", "--all")
    assert (played["games"], played["total_guesses"]) == (found["games"], found["total_guesses"]) == (9, 20)
    plain = run("bench", "--backend", "python", "--pegs", 4, "--colors", 3, "--strategy", f"tree:{tree}", "--all")
    digest = saved["variant"]["encoding"]["sha256"][:12]
    assert plain.exit_code == 2
    assert plain.stderr == (f"error: --strategy tree:{tree} was saved for encoding {encoding} (sha256 {digest}), "
                            "not for the rules' own game\n")
    encoding.write_text(encoding.read_text() + "% edited since\n")
    edited = run("bench", "--backend", "clingo", "--pegs", 4, "--colors", 3, "--encoding", encoding,
                 "--strategy", f"tree:{tree}", "--all")
    assert edited.exit_code == 2 and "was saved for encoding" in edited.stderr
    assert f"not for encoding {encoding} (sha256 " in edited.stderr


def test_a_rule_of_ones_own_is_part_of_the_variant(tmp_path, run, run_json):
    rule = tmp_path / "shared.py"
    shutil.copy(EXAMPLES / "shared_colours.py", rule)
    tree = tmp_path / "shared.json"
    run_json("optimal", "--pegs", 3, "--colors", 3, "--feedback", rule, "--save-tree", tree)
    assert set(json.loads(tree.read_text())["variant"]) == {"feedback"}
    replay = run_json("bench", "--backend", "python", "--pegs", 3, "--colors", 3, "--feedback", rule,
                      "--strategy", f"tree:{tree}", "--all")
    assert replay["total_guesses"] == 101


def test_a_built_in_games_tree_is_written_as_before(tmp_path, run_json):
    tree = tmp_path / "3x3.json"
    run_json("optimal", "--pegs", 3, "--colors", 3, "--save-tree", tree)
    assert "variant" not in json.loads(tree.read_text())
