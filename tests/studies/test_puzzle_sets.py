"""Puzzle sets for evaluations (``puzzle --count N [--out FILE.jsonl]``) and their grader (``puzzle --grade``):
distinct puzzles, each with one code, every entry needed, redrawn alone from its own seed, with its difficulty (the
codes left and the guesses an optimal codebreaker still needs, checked here by a brute-force search); answers
sorted right / consistent / inconsistent / malformed / missing; bad sets refused by line number."""

from __future__ import annotations

import functools
import json
import shutil

import pytest

from mm_logic.feedback import rule_of
from mm_logic.notation import parse_code, parse_entry
from mm_logic.rules import Rules, all_codes
from mm_logic.studies import puzzle_sets

from conftest import PY, ROOT

SMALL = ["--pegs", 3, "--colors", 4]


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def worst_case(rules: Rules, alive: frozenset) -> int:
    """The least worst case (winning guess included) of finding a code among ``alive``, every code a guess:
    a plain minimax over the game's feedback, apart from the optimal search's kernels."""
    rule = rule_of(rules)
    codes = [tuple(c) for c in all_codes(rules).tolist()]

    @functools.cache
    def least(codes_left: frozenset) -> int:
        if len(codes_left) == 1:
            return 1
        best = None
        for guess in codes:
            parts: dict = {}
            for code in codes_left:
                parts.setdefault(tuple(rule.score(guess, code)), set()).add(code)
            if len(parts) == 1 and guess not in codes_left:
                continue  # tells nothing
            cost = 1 + max((0 if fb == rule.win(rules.pegs) else least(frozenset(part)))
                           for fb, part in parts.items())
            best = cost if best is None else min(best, cost)
        return best

    return least(alive)


def test_a_set_is_distinct_reproducible_puzzles_with_their_difficulty(run, here):
    result = run("puzzle", *SMALL, *PY, "--count", 6, "--seed", 1)
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    again = run("puzzle", *SMALL, *PY, "--count", 6, "--seed", 1)
    assert again.stdout == result.stdout
    drawn = lines(result.stdout)
    assert [p["id"] for p in drawn] == [1, 2, 3, 4, 5, 6]
    # Without --entries: three difficulties in turn, from the fewest that may single out a code of 64.
    assert [p["difficulty"]["entries"] for p in drawn] == [2, 3, 4, 2, 3, 4]
    assert len({frozenset(p["history"]) for p in drawn}) == 6
    rules = Rules(3, 4)
    codes = [tuple(c) for c in all_codes(rules).tolist()]
    rule = rule_of(rules)
    for puzzle in drawn:
        assert set(puzzle) == {"id", "rules", "history", "secret", "prompt", "seed", "difficulty"}
        # Its own seed draws it again, alone.
        alone = run("puzzle", *SMALL, *PY, "--entries", puzzle["difficulty"]["entries"], "--seed", puzzle["seed"],
                    "--json")
        assert {k: json.loads(alone.stdout)[k] for k in ("history", "secret", "prompt", "remaining")} == {
            "history": puzzle["history"], "secret": puzzle["secret"], "prompt": puzzle["prompt"],
            "remaining": puzzle["difficulty"]["remaining"]}
        checked = run("puzzle", *SMALL, *PY, "--check", *puzzle["history"])
        assert checked.exit_code == 0 and checked.stdout.endswith("a puzzle: one code, every entry needed\n")
        history = [parse_entry(e, rules) for e in puzzle["history"]]
        left = [frozenset(c for c in codes if all(tuple(rule.score(g, c)) == fb for g, fb in history[:i]))
                for i in range(1, len(history) + 1)]
        assert puzzle["difficulty"]["remaining"] == [len(part) for part in left]
        assert puzzle["difficulty"]["still_needed"] == [worst_case(rules, part) for part in left]
        assert left[-1] == {parse_code(puzzle["secret"], rules)}


def test_a_set_written_to_a_file_is_what_stdout_gets(run, here):
    shown = run("puzzle", *SMALL, *PY, "--count", 4, "--seed", 5, "--entries", 3)
    written = run("puzzle", *SMALL, *PY, "--count", 4, "--seed", 5, "--entries", 3, "--out", "set.jsonl")
    assert (written.exit_code, written.stdout, written.stderr) == (0, "4 puzzles written to set.jsonl\n", "")
    assert (here / "set.jsonl").read_text() == shown.stdout
    assert [p["difficulty"]["entries"] for p in lines(shown.stdout)] == [3, 3, 3, 3]


def test_every_rule_draws_sets_the_grader_reads(run, here):
    shutil.copy(ROOT / "examples" / "shared_colours.py", here / "own.py")
    for options in (["--feedback", "black", "--pegs", 3, "--colors", 3],
                    ["--feedback", "positional", "--pegs", 3, "--colors", 3],
                    ["--pegs", 3, "--colors", 5, "--no-repeat"],
                    ["--pegs", 3, "--colors", 3, "--feedback", "own.py"]):
        made = run("puzzle", *options, *PY, "--count", 3, "--seed", 2, "--out", "s.jsonl")
        assert made.exit_code == 0, made.output
        drawn = lines((here / "s.jsonl").read_text())
        (here / "a.jsonl").write_text("".join(json.dumps({"answer": p["secret"]}) + "\n" for p in drawn))
        feedback = ["--feedback", "own.py"] if "own.py" in options else []
        graded = run("puzzle", "--grade", "s.jsonl", "a.jsonl", *feedback, "--json")
        assert (graded.exit_code, json.loads(graded.stdout)["right"]) == (0, 3), graded.output
        (here / "s.jsonl").unlink()
    assert drawn[0]["variant"]["feedback"]["file"] == str(here / "own.py")


def test_an_edited_encodings_set_draws_its_codes(run, here):
    result = run("puzzle", "--pegs", 4, "--colors", 3, "--encoding", ROOT / "examples" / "palindrome.lp",
                 "--count", 3, "--seed", 1, "--entries", 2)
    assert result.exit_code == 0, result.output
    for puzzle in lines(result.stdout):
        assert puzzle["secret"] == puzzle["secret"][::-1]
        assert set(puzzle["variant"]) == {"encoding"}


TWO = {"rules": {"pegs": 3, "colors": 4, "max_repeat": None, "feedback": "standard"},
       "history": ["000:0,0", "111:0,0", "222:1,0"], "secret": "233"}  # 233, 323 and 332 fit it


def test_the_grader_sorts_every_answer(run, here):
    made = run("puzzle", *SMALL, *PY, "--count", 2, "--seed", 1, "--entries", 3, "--out", "p.jsonl")
    assert made.exit_code == 0
    with open(here / "p.jsonl", "a") as set_file:
        set_file.write(json.dumps(TWO) + "\n")
        set_file.write(json.dumps(TWO) + "\n")
    first, second = lines((here / "p.jsonl").read_text())[:2]
    (here / "a.jsonl").write_text(f'{{"answer": "{first["secret"]}"}}\n'
                                  '{"answer": "0123"}\n'
                                  '{"answer": "323"}\n'
                                  '{"answer": "000"}\n')
    result = run("puzzle", "--grade", "p.jsonl", "a.jsonl")
    assert (result.exit_code, result.stderr) == (0, "")
    wrong = "0123"
    assert result.stdout == (
        "4 puzzles of p.jsonl, answers from a.jsonl: 1 right (25.0%)\n"
        "  right 1, consistent 1, inconsistent 1, malformed 1, missing 0\n"
        f"  puzzle 2: malformed ('{wrong}'): code '{wrong}' has 4 pegs, expected 3\n"
        "  puzzle 3: consistent ('323')\n"
        "  puzzle 4: inconsistent ('000'): it does not fit entry 1\n")
    as_json = json.loads(run("puzzle", "--grade", "p.jsonl", "a.jsonl", "--json").stdout)
    assert as_json == {"puzzles": 4, "right": 1, "consistent": 1, "inconsistent": 1, "malformed": 1, "missing": 0,
                       "score": 0.25, "answers": [
                           {"puzzle": 1, "verdict": "right", "answer": first["secret"]},
                           {"puzzle": 2, "verdict": "malformed", "answer": wrong,
                            "why": f"code '{wrong}' has 4 pegs, expected 3"},
                           {"puzzle": 3, "verdict": "consistent", "answer": "323"},
                           {"puzzle": 4, "verdict": "inconsistent", "answer": "000",
                            "why": "it does not fit entry 1"}]}
    assert second["secret"] != first["secret"] or second["history"] != first["history"]
    # Fewer answers: the rest are missing; lines of no JSON, or without "answer", are malformed.
    (here / "a.jsonl").write_text('not json\n{"answer": 123}\n')
    counts = json.loads(run("puzzle", "--grade", "p.jsonl", "a.jsonl", "--json").stdout)
    assert [(a["verdict"], a.get("why")) for a in counts["answers"]] == [
        ("malformed", "not a JSON object"), ("malformed", 'an answer must be {"answer": CODE}'),
        ("missing", None), ("missing", None)]


@pytest.mark.parametrize("line, message", [
    ("{", "p.jsonl line 2: not a JSON object"),
    ('{"rules": {"pegs": true, "colors": 4, "max_repeat": null}, "history": [], "secret": "012"}',
     'p.jsonl line 2: "rules" must be {"pegs": P, "colors": C, "max_repeat": M or null} and an optional '
     '"feedback": RULE'),
    (json.dumps({**TWO, "secret": "012"}), "p.jsonl line 2: its secret 012 does not fit entry 1 (000:0,0)"),
    (json.dumps({**TWO, "history": ["000:4,0"]}), "p.jsonl line 2: feedback 4,0 in '000:4,0': black + white exceeds "
                                                  "the 3 pegs"),
    (json.dumps({**TWO, "secret": "9" * 5000}), None),
    (json.dumps({**TWO, "rules": {**TWO["rules"], "feedback": "own.py"}}),
     "p.jsonl line 2: the puzzle plays 3x4 feedback own.py, a rule of your own that only --feedback loads: give "
     "--feedback own.py (the same file)"),
])
def test_a_bad_puzzle_line_is_named_by_its_number(run, here, line, message):
    (here / "own.py").write_text("raise SystemExit('a rule a set names must never be run')\n")
    (here / "p.jsonl").write_text(json.dumps(TWO) + "\n" + line + "\n")
    (here / "a.jsonl").write_text('{"answer": "233"}\n')
    result = run("puzzle", "--grade", "p.jsonl", "a.jsonl")
    assert (result.exit_code, result.stdout) == (2, "")
    if message is None:  # a number of 5,000 digits: one line, quoted by its start
        assert result.stderr.startswith("error: p.jsonl line 2: ") and len(result.stderr) < 300
    else:
        assert result.stderr == f"error: {message}\n"


def test_a_set_of_a_rule_of_ones_own_is_graded_only_under_that_file(run, here):
    shutil.copy(ROOT / "examples" / "shared_colours.py", here / "own.py")
    assert run("puzzle", "--pegs", 3, "--colors", 3, "--feedback", "own.py", *PY, "--count", 2, "--seed", 2,
               "--out", "s.jsonl").exit_code == 0
    (here / "a.jsonl").write_text('{"answer": "000"}\n')
    result = run("puzzle", "--grade", "s.jsonl", "a.jsonl")
    assert result.stderr == ("error: s.jsonl line 1: the puzzle plays 3x3 feedback own.py, a rule of your own that "
                             "only --feedback loads: give --feedback own.py (the same file)\n")
    (here / "own.py").write_text((here / "own.py").read_text() + "\n# edited\n")
    result = run("puzzle", "--grade", "s.jsonl", "a.jsonl", "--feedback", "own.py")
    assert result.exit_code == 2 and result.stderr.startswith(
        f"error: s.jsonl line 1: the puzzle was drawn under {here / 'own.py'} (sha256 ")
    assert result.stderr.endswith("), not --feedback own.py\n")


@pytest.mark.parametrize("args, message", [
    (["--grade", "p.jsonl", "a.jsonl", "--pegs", 5],
     "--pegs does not apply with --grade: each puzzle of the set names its rules and history"),
    (["--grade", "p.jsonl", "a.jsonl", "--seed", 1],
     "--seed does not apply with --grade: each puzzle of the set names its rules and history"),
    (["--grade", "p.jsonl", "a.jsonl", "0011:1,0"],
     "--grade scores a set's answers: a HISTORY is verified with --check"),
    (["--count", 3, "--json"], "--json does not apply with --count: a set is JSON already, one puzzle a line"),
    (["--count", 3, "--check", "000:0,0"], "--count draws a set of puzzles: --check and a HISTORY verify one"),
    (["--out", "x.jsonl", "--entries", 3], "--out applies with --count (a set of puzzles)"),
    (["--count", 0], "Invalid value for '--count': 0 is not in the range 1<=x<=100000."),
])
def test_options_that_do_not_go_together_are_refused(run, here, args, message):
    (here / "p.jsonl").write_text(json.dumps(TWO) + "\n")
    (here / "a.jsonl").write_text("")
    result = run("puzzle", *args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"error: {message}\n")
    assert not (here / "x.jsonl").exists()


def test_more_answers_than_puzzles_and_an_empty_set_are_refused(run, here):
    (here / "p.jsonl").write_text(json.dumps(TWO) + "\n")
    (here / "a.jsonl").write_text('{"answer": "233"}\n{"answer": "233"}\n')
    result = run("puzzle", "--grade", "p.jsonl", "a.jsonl")
    assert result.stderr == ("error: a.jsonl holds 2 answers for the 1 puzzles of p.jsonl: one answer a line, in "
                             "the puzzles' order\n")
    (here / "p.jsonl").write_text("\n")
    assert run("puzzle", "--grade", "p.jsonl", "a.jsonl").stderr == (
        "error: p.jsonl holds no puzzle (one JSON object a line)\n")


def test_a_game_with_too_few_puzzles_says_so(run, here):
    result = run("puzzle", "--pegs", 2, "--colors", 2, *PY, "--count", 50, "--seed", 1, "--entries", 1,
                 "--tries", 20)
    assert (result.exit_code, result.stderr) == (1, (
        "error: no new puzzle of 1 entry found in 20 draws after 4 puzzles (2x2): the game has too few; ask for "
        "fewer (--count) or other --entries\n"))


def test_the_commands_limit_is_the_modules():
    from mm_logic.cli.puzzles import MAX_COUNT

    assert MAX_COUNT == puzzle_sets.MAX_COUNT
