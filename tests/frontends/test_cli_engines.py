"""Engine options on the command line: clingo by default, --encoding, --time-limit."""

from __future__ import annotations

import re

from conftest import ROOT


def test_clingo_is_the_default_backend(run_json):
    out = run_json("solve", "--secret", "0123", "--strategy", "first")
    assert out["backend"] == "clingo"
    assert [g["guess"] for g in out["guesses"]] == ["0000", "0111", "0122", "0123"]


def test_encoding_syntax_error_is_one_line_with_file_and_line(run, tmp_path):
    bad = tmp_path / "bad.lp"
    bad.write_text("#include \"code.lp\".\npegs(N) :- foo\n")
    result = run("next", "--encoding", bad)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {bad}:3:1")
    assert result.stderr.count("\n") == 1 and "syntax error" in result.stderr


def test_encoding_must_match_backend(run):
    result = run("next", "--backend", "clingo", "--encoding", ROOT / "mm_logic" / "encodings" / "mastermind.pl")
    assert result.exit_code == 2
    assert result.stderr == (f"error: --encoding for --backend clingo must be a .lp file, got "
                             f"{ROOT / 'mm_logic' / 'encodings' / 'mastermind.pl'}\n")


def test_time_limit_exceeded_exits_1(run):
    guess = ",".join(str(i) for i in range(30))
    # random counts up to 100 001 consistent codes before it draws: far more than 0.2 s on 30x30.
    result = run("next", "--pegs", 30, "--colors", 30, "--strategy", "random", "--time-limit", 0.2, "--json",
                 f"{guess}:0,3")
    assert result.exit_code == 1
    # The message names the question that ran out of time, and no option the command lacks (issue 11).
    # (Counting what is left, or random's count before it draws: whichever reaches the limit.)
    assert re.fullmatch(r"error: clingo did not answer within the time limit of 0\.2 s "
                        r"\(30x30, (count|random), mastermind\.lp\); raise --time-limit\n", result.stderr)


def test_palindrome_example_plays(run):
    result = run("solve", "--backend", "clingo", "--encoding", ROOT / "examples" / "palindrome.lp",
                 "--secret", "1221", "--strategy", "first")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "1  0000  0,0\n2  1111  2,0\n3  1221  4,0\n3 guesses\n"


def test_huge_game_with_any(run_json):
    from mm_logic.feedback import feedback
    from mm_logic.notation import parse_code
    from mm_logic.rules import Rules

    out = run_json("solve", "--pegs", 20, "--colors", 20, "--strategy", "any", "--seed", 4)
    rules = Rules(20, 20)
    secret = parse_code(out["secret"], rules)
    guesses = [parse_code(g["guess"], rules) for g in out["guesses"]]
    # Every reported feedback is the feedback rule's, and only the last guess wins.
    assert [(g["black"], g["white"]) for g in out["guesses"]] == [feedback(g, secret) for g in guesses]
    assert [g == secret for g in guesses] == [False] * (len(guesses) - 1) + [True]


def test_swipl_missing_is_one_line_with_the_install_command(run, monkeypatch):
    from mm_logic.engines.swipl import runtime
    monkeypatch.setattr(runtime, "_runtime", None)
    monkeypatch.setattr(runtime, "_candidates", lambda: [])
    result = run("solve", "--backend", "swipl", "--secret", "0123")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: the swipl backend needs SWI-Prolog >= 9.1.12 and janus-swi, "
                                    "but no swipl was found next to the Python interpreter or on PATH: run ")
    assert "bash scripts/install-swipl.sh" in result.stderr
