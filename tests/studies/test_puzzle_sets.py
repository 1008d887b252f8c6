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

from conftest import PY, ROOT, one_line_error

SMALL = ["--pegs", 3, "--colors", 4]
#: Why an option of drawing or solving is refused with --grade.
NOT_WITH_GRADE = "the grader reads each puzzle's rules and history from the set, and runs no engine"


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
     f"--pegs does not apply with --grade: {NOT_WITH_GRADE}"),
    (["--grade", "p.jsonl", "a.jsonl", "--seed", 1],
     f"--seed does not apply with --grade: {NOT_WITH_GRADE}"),
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



def set_of_three(run, here) -> list[str]:
    """A set of 3x4 in ``p.jsonl`` (secrets 232, 012 and 122): its secrets."""
    made = run("puzzle", *SMALL, *PY, "--count", 3, "--seed", 1, "--out", "p.jsonl")
    assert made.exit_code == 0, made.output
    return [p["secret"] for p in lines((here / "p.jsonl").read_text())]


@pytest.mark.parametrize("breaks", ["\u2028", "\u2029", "\u0085"])
def test_a_line_break_inside_a_json_string_ends_no_line(run, here, breaks):
    # Raw U+2028 and the like are valid inside a JSON string (JSON.stringify and ensure_ascii=False write them so):
    # str.splitlines cut the line there, and the grader counted 4 answers for 3 puzzles.
    secrets = set_of_three(run, here)
    (here / "a.jsonl").write_text(json.dumps({"answer": secrets[0], "note": f"a{breaks}b"}, ensure_ascii=False)
                                  + "\n" + "".join(json.dumps({"answer": s}) + "\r\n" for s in secrets[1:]))
    result = run("puzzle", "--grade", "p.jsonl", "a.jsonl", "--json")
    assert (result.exit_code, result.stderr, json.loads(result.stdout or "{}").get("right")) == (0, "", 3)
    # A set whose prompt holds one is read too, its lines numbered as the file's.
    drawn = lines((here / "p.jsonl").read_text())
    drawn[0]["prompt"] += breaks
    drawn[2]["secret"] = "000"
    (here / "p.jsonl").write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in drawn))
    one_line_error(run("puzzle", "--grade", "p.jsonl", "a.jsonl"), 2,
                   f"p.jsonl line 3: its secret 000 does not fit entry 1 ({drawn[2]['history'][0]})", stdout="")


@pytest.mark.parametrize("answers, graded", [
    ('{"answer": "232"}\n\n{"answer": "122"}\n', ["right", "missing", "right"]),
    ('{"answer": "232"}\n  \n{"answer": "122"}\n\n\n', ["right", "missing", "right"]),
    ('\n\n{"answer": "122"}', ["missing", "missing", "right"]),
    ('{"answer": "232"}\n\n', ["right", "missing", "missing"]),
])
def test_a_blank_answer_line_is_that_puzzles_answer(run, here, answers, graded):
    # A blank line moved every later answer onto the puzzle before it: 122 was graded against puzzle 2
    # (inconsistent), and puzzle 3 was missing.
    set_of_three(run, here)
    (here / "a.jsonl").write_text(answers)
    result = run("puzzle", "--grade", "p.jsonl", "a.jsonl", "--json")
    assert (result.exit_code, result.stderr) == (0, "")
    assert [a["verdict"] for a in json.loads(result.stdout)["answers"]] == graded
    text = run("puzzle", "--grade", "p.jsonl", "a.jsonl").stdout
    if graded == ["right", "missing", "right"]:
        assert text == ("3 puzzles of p.jsonl, answers from a.jsonl: 2 right (66.7%)\n"
                        "  right 2, consistent 0, inconsistent 0, malformed 0, missing 1\n"
                        "  puzzle 2: missing\n")


def test_a_blank_line_counts_among_the_answers(run, here):
    set_of_three(run, here)
    (here / "a.jsonl").write_text('{"answer": "232"}\n\n{"answer": "012"}\n{"answer": "122"}\n\n')
    one_line_error(run("puzzle", "--grade", "p.jsonl", "a.jsonl"), 2,
                   "a.jsonl holds 4 answers for the 3 puzzles of p.jsonl: one answer a line, in the puzzles' order",
                   stdout="")


@pytest.mark.parametrize("args", [
    ["--backend", "swipl"], ["--backend", "python"], ["--time-limit", 1], ["--tries", 5], ["--alphabet", "abcd"],
    ["--colors", 6], ["--no-repeat"], ["--max-repeat", 2], ["--count", 2], ["--out", "x.jsonl"],
    ["--encoding", "p.jsonl"], ["--entries", 3], ["--check"],
])
def test_every_option_that_does_not_apply_with_grade_is_refused_alike(run, here, args):
    # --backend swipl and --time-limit 1 were taken in silence (exit 0); --alphabet abcd said a note about 6
    # colours before its refusal.
    set_of_three(run, here)
    (here / "a.jsonl").write_text('{"answer": "232"}\n')
    result = run("puzzle", "--grade", "p.jsonl", "a.jsonl", *args)
    option = str(args[0])
    one_line_error(result, 2, f"{option} does not apply with --grade: {NOT_WITH_GRADE}", stdout="")
    assert not (here / "x.jsonl").exists()


def test_the_standard_prompt_is_sentences(run, here):
    set_of_three(run, here)
    assert lines((here / "p.jsonl").read_text())[0]["prompt"] == (
        "A secret code of 3 pegs over the colours 0123; each guess is answered with black and white pegs: right "
        "colour right place, right colour elsewhere (duplicates paired once). Guess 100 got 0,0; guess 313 got 0,1. "
        "Exactly one code fits: which?")


@pytest.mark.parametrize("first_line, said", [
    (None, "The codemaker tells only how many colours the guess and the secret share: black + white as one number."),
    ("shared colours: black + white as one number", "Shared colours: black + white as one number."),
    ("the colours shared, as one number;", "The colours shared, as one number."),
    ("How many colours are shared?", "How many colours are shared?"),
])
def test_a_rule_of_ones_own_is_said_in_a_sentence_of_its_own(run, here, first_line, said):
    # Its description came mid-sentence: "each guess is answered with The codemaker tells ... as one number.. guess
    # 302 got 1".
    text = (ROOT / "examples" / "shared_colours.py").read_text()
    if first_line is not None:
        text = '"""' + first_line + text[text.index("\n"):]
    (here / "own.py").write_text(text)
    result = run("puzzle", *SMALL, *PY, "--feedback", "own.py", "--entries", 3, "--seed", 1, "--json")
    assert result.exit_code == 0, result.output
    drawn = json.loads(result.stdout)
    entries = "; ".join("guess {} got {}".format(*entry.split(":")) for entry in drawn["history"])
    assert drawn["prompt"] == ("A secret code of 3 pegs over the colours 0123; each guess is answered by the game's "
                               f"own rule. {said} G{entries[1:]}. Exactly one code fits: which?")


def test_a_long_draw_is_said(run, here, monkeypatch):
    # `puzzle --entries 1000 --tries 100000` said nothing for 9 minutes.
    import time

    from mm_logic.studies import puzzle
    from mm_logic.support import waiting

    monkeypatch.setattr(waiting, "FIRST", 0.2)
    monkeypatch.setattr(puzzle, "_draw", lambda *args: time.sleep(0.5))
    result = run("puzzle", "--pegs", 3, "--colors", 3, *PY, "--entries", 3, "--tries", 1)
    assert (result.exit_code, result.stderr) == (1, (
        "note: drawing a puzzle of 3 entries (3x3), try 1 of 1: 0:00 so far (no time limit; Ctrl-C stops it)\n"
        "error: no puzzle of 3 entries with one code and every entry needed found in 1 try (3x3); try another "
        "--entries, --seed or --tries\n"))
    result = run("puzzle", "--pegs", 3, "--colors", 3, *PY, "--entries", 3, "--tries", 1, "--count", 1)
    assert (result.exit_code, result.stderr) == (1, (
        "note: drawing puzzle 1 of 1 (3x3): 0:00 so far (no time limit; Ctrl-C stops it)\n"
        "error: no puzzle of 3 entries with one code and every entry needed found in 1 try (3x3); try another "
        "--entries, --seed or --tries\n"))
