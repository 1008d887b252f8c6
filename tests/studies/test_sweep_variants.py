"""mmlogic sweep and mmlogic openings on a game as written: an edited encoding, a rule of one's own.

Every row is checked against a replay written apart from the package: each secret the encoding admits
(its predicate written here in Python) played by the contract's pick over every code of the size
(:func:`generators.contract_pick`), the parts by the rule's own ``score`` called here. The openings are
checked against the symmetries found here by brute force: each map the ranking's classes use keeps the
secrets and every answer, and every code is one opening's image.
"""

from __future__ import annotations

import itertools
import json

import pytest

from mm_logic.rules import Rules
from mm_logic.studies.sweep_case import CASE_FIELDS, RESULT_FIELDS, Case
from mm_logic.studies.written_game import encoding_secrets
from mm_logic.support.errors import BadInput
from mm_logic.symmetry import game_symmetry

from conftest import ROOT
from generators import ADMITS, SCORER_RANKS, brute_replay, brute_score, contract_pick, own_rule_file, own_score

EXAMPLES = ROOT / "examples"
VOLATILE = ("seconds", "peak_rss_mb", "start_rss_mb", "host")


def replayed(pegs: int, colors: int, strategy: str, secrets, score=None, opening=None) -> dict[str, int]:
    """The histogram of ``strategy`` over every secret, by brute force (``score``: a rule of one's own)."""
    rules = Rules(pegs, colors)

    def answer(guess, code):
        return "won" if guess == code else (score or (lambda g, c: brute_score(rules, g, c)))(guess, code)

    first = [c for c in itertools.product(range(colors), repeat=pegs) if secrets(c)]

    def choose(codes, alive):
        if opening is not None and alive == first:
            return opening
        if strategy == "first" or len(alive) <= 2:
            return alive[0]
        return contract_pick(codes, alive, SCORER_RANKS[strategy], answer=answer)
    return {str(k): v for k, v in brute_replay(rules, choose, answer, secrets).items()}


def test_sweep_rows_of_a_rule_written_once_are_the_brute_force_replay(run_json):
    # One file states the code space (no two adjacent pegs alike) and the rule (how many colours are shared).
    rule = EXAMPLES / "shared_no_adjacent.lp"
    data = run_json("sweep", "--sizes", "3x3,4x3", "--feedback", rule, "--backend", "python,clingo",
                    "--strategy", "first,minimax,expected,entropy,parts", "--jobs", 2)
    rows = data["rows"]
    assert data["failures"] == []
    assert [(r["rules"]["pegs"], r["strategy"], r["backend"]) for r in rows] == [
        (p, s, b) for p in (3, 4) for s in ("first", "minimax", "expected", "entropy", "parts")
        for b in ("python", "clingo")]
    for row in rows:
        assert list(row) == [*CASE_FIELDS, *RESULT_FIELDS]
        assert row["rules"]["feedback"] == str(rule.resolve())
        assert list(row["variant"]) == ["feedback"] and row["variant"]["feedback"]["file"] == str(rule.resolve())
        expected = replayed(row["rules"]["pegs"], 3, row["strategy"], ADMITS["no_adjacent.lp"], own_score("shared"))
        assert row["histogram"] == expected, (row["strategy"], row["backend"])
        assert row["games"] == sum(expected.values()) == {3: 12, 4: 24}[row["rules"]["pegs"]]


def test_sweep_rows_of_an_edited_encoding_are_the_brute_force_replay(run_json):
    encoding = EXAMPLES / "palindrome.lp"
    data = run_json("sweep", "--sizes", "3x3,4x3", "--encoding", encoding, "--backend", "clingo",
                    "--strategy", "first,minimax,expected,entropy,parts", "--jobs", 2)
    assert data["failures"] == []
    for row in data["rows"]:
        assert row["variant"]["encoding"]["file"] == str(encoding.resolve()) and list(row["variant"]) == ["encoding"]
        expected = replayed(row["rules"]["pegs"], 3, row["strategy"], ADMITS["palindrome.lp"])
        assert row["histogram"] == expected, row["strategy"]
        assert row["games"] == {3: 9, 4: 9}[row["rules"]["pegs"]]


@pytest.mark.parametrize("backend, encoding", [("swipl", "no_adjacent.pl"), ("clingo", "no_adjacent.lp")])
def test_sweep_plays_an_edited_encoding_on_its_own_engine(run_json, backend, encoding):
    data = run_json("sweep", "--sizes", "3x3", "--encoding", EXAMPLES / encoding, "--backend", backend,
                    "--strategy", "minimax,parts")
    for row in data["rows"]:
        assert row["histogram"] == replayed(3, 3, row["strategy"], ADMITS[encoding])
        assert row["games"] == 12 and row["variant"] == {"encoding": {
            "file": str((EXAMPLES / encoding).resolve()), "sha256": row["variant"]["encoding"]["sha256"]}}


def test_sweep_text_names_the_encoding(run):
    result = run("sweep", "--sizes", "3x3", "--encoding", EXAMPLES / "palindrome.lp", "--backend", "clingo",
                 "--strategy", "first")
    assert result.exit_code == 0, result.output
    line = result.stdout.splitlines()[1].split()
    assert line[:8] == ["3x3", "encoding", "palindrome.lp", "first", "000", "clingo", "9",
                        str(sum(int(k) * n for k, n in replayed(3, 3, "first", ADMITS["palindrome.lp"]).items()))]


def test_an_encoding_the_backend_cannot_read_is_refused_before_any_case(run):
    result = run("sweep", "--sizes", "3x3", "--encoding", EXAMPLES / "no_adjacent.pl", "--backend", "python")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "error: --encoding applies to --backend clingo (.lp) or swipl (.pl), not python\n"


def test_a_file_edited_after_the_plan_fails_its_case_and_a_rerun_plays_the_new_file(tmp_path, run_json, run):
    encoding = tmp_path / "mine.lp"
    encoding.write_text((EXAMPLES / "palindrome.lp").read_text())  # includes the shipped mastermind.lp
    out = tmp_path / "rows.jsonl"
    args = ["sweep", "--sizes", "3x3", "--encoding", encoding, "--backend", "clingo", "--strategy", "first",
            "--out", out]
    first = run_json(*args, "--json")
    case = Case.from_dict(first["rows"][0])
    case.check_files()  # unchanged: runs
    encoding.write_text(encoding.read_text() + "\n% edited\n")
    with pytest.raises(BadInput) as refused:
        case.check_files()
    assert str(refused.value) == (f"{encoding.resolve()} is not the file this sweep was planned with (its sha256 was "
                                  f"{case.variant[0][2][:12]}...): edited since, or another file at that path on "
                                  "this machine; run the sweep again")
    # The rerun plans with the new digest: the row of the old file is another case's, and stays in the file.
    again = run(*args, "--json")
    assert again.exit_code == 0 and "already" not in again.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 2 and lines[0]["variant"] != lines[1]["variant"]
    assert {k: v for k, v in lines[0].items() if k not in VOLATILE + ("variant",)} == {
        k: v for k, v in lines[1].items() if k not in VOLATILE + ("variant",)}


def test_a_row_written_before_sweeps_played_variants_is_the_rules_own_game(run_json):
    data = run_json("sweep", "--sizes", "2x2", "--strategy", "first")
    row = data["rows"][0]
    assert row["variant"] is None
    old = {k: v for k, v in row.items() if k != "variant"}
    assert Case.from_dict(old).key == Case.from_dict(row).key


def group_used(rules: Rules, secrets) -> list:
    """The maps (peg order, colour renaming) of the kinds the game's symmetry allows, each as a function."""
    found = game_symmetry(rules, secrets)
    orders = list(itertools.permutations(range(rules.pegs))) if found.moves_pegs else [tuple(range(rules.pegs))]
    names = list(itertools.permutations(range(rules.colors))) if found.renames_colours else [tuple(range(rules.colors))]
    return [lambda code, o=o, n=n: tuple(n[code[i]] for i in o) for o in orders for n in names]


#: (--encoding, --feedback: an example file or a rule of OWN_RULES by stem, backend, the secrets, the rule's stem).
OPENING_GAMES = [
    ("palindrome.lp", None, "clingo", ADMITS["palindrome.lp"], None),
    ("no_adjacent.pl", None, "swipl", ADMITS["no_adjacent.pl"], None),
    (None, "shared_no_adjacent.lp", "clingo", ADMITS["no_adjacent.lp"], "shared"),
    (None, "first_half", "python", lambda code: True, "first_half"),
]


@pytest.mark.parametrize("encoding, feedback, backend, admits, stem", OPENING_GAMES)
def test_openings_of_a_variant_are_classes_of_its_own_symmetries_each_ranked_by_its_replay(
        tmp_path, run_json, encoding, feedback, backend, admits, stem):
    rule = None if feedback is None else (str(EXAMPLES / feedback) if "." in feedback
                                          else own_rule_file(tmp_path, feedback))
    options = [*(["--encoding", EXAMPLES / encoding] if encoding else []), *(["--feedback", rule] if rule else [])]
    data = run_json("openings", "--pegs", 3, "--colors", 3, "--backend", backend, *options, "--strategy", "minimax")
    rules = Rules(3, 3, feedback=rule or "standard")
    score = own_score(stem) if stem else (lambda g, c: brute_score(Rules(3, 3), g, c))
    codes = list(itertools.product(range(3), repeat=3))
    secrets = encoding_secrets(rules, EXAMPLES / encoding if encoding else None)
    assert [codes[i] for i in (range(len(codes)) if secrets is None else secrets)] == [c for c in codes if admits(c)]
    maps = group_used(rules, secrets)
    # Each map used keeps the secrets and every answer (checked here on every pair of codes).
    for g in maps:
        assert {g(c) for c in codes if admits(c)} == {c for c in codes if admits(c)}
        assert all(score(g(x), g(y)) == score(x, y) for x in codes for y in codes)
    openings = [tuple(int(ch) for ch in row["opening"]) for row in data["rankings"]["minimax"]]
    assert sorted(openings) == sorted({min(g(c) for g in maps) for c in codes})
    assert data["openings"] == len(openings)
    for row in data["rankings"]["minimax"]:
        opening = tuple(int(ch) for ch in row["opening"])
        assert row["histogram"] == replayed(3, 3, "minimax", admits, own_score(stem) if stem else None, opening)


def test_a_rule_module_that_writes_to_the_processs_stdout_leaves_the_row_readable(tmp_path, run_json, run):
    # A score that writes to file descriptor 1 (below sys.stdout) wrote onto the case's row: the case was said to
    # fail ("the process running the case exited 0"), exit 1. Its writes go to the case's stderr; the row is read.
    quiet = tmp_path / "quiet.py"
    quiet.write_text("def score(guess, secret):\n    return (sum(g == s for g, s in zip(guess, secret)),)\n")
    writing = tmp_path / "writing.py"
    writing.write_text("import os\n\n\ndef score(guess, secret):\n    os.write(1, b'X')\n"
                       "    return (sum(g == s for g, s in zip(guess, secret)),)\n")
    args = ["sweep", "--sizes", "2x3", "--strategy", "first", "--json"]
    expected, = run_json(*args, "--feedback", quiet)["rows"]
    done = run(*args, "--feedback", writing)
    assert done.exit_code == 0, done.stderr
    row, = json.loads(done.stdout)["rows"]
    assert {k: v for k, v in row.items() if k not in VOLATILE + ("variant", "rules", "case")} == {
        k: v for k, v in expected.items() if k not in VOLATILE + ("variant", "rules", "case")}
