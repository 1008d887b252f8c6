"""The command-line contract: outputs, JSON shapes, exit codes, one-line errors."""

from __future__ import annotations

import errno
import json
import subprocess
from pathlib import Path

import pytest

from mm_logic.cli import cli
from mm_logic.game import GameRecord
from mm_logic.rules import Rules
from mm_logic.secret_codes import spaced_secrets
from mm_logic.support.errors import BadInput

from conftest import MMLOGIC, PY, ROOT, one_line_error


@pytest.mark.parametrize("args, code, message", [
    (["next", *PY, "001:1,0"], 2, "code '001' has 3 pegs, expected 4"),
    (["next", *PY, "0016:1,0"], 2, "symbol '6' in code '0016' is not one of the 6 colours 012345"),
    (["next", *PY, "--no-repeat", "--colors", 10, "0012:1,0"], 2,
     "code '0012' uses colour 0 2 times, which --no-repeat forbids"),
    (["next", *PY, "--max-repeat", 2, "0001:1,0"], 2,
     "code '0001' uses colour 0 3 times, which --max-repeat 2 forbids"),
    (["next", *PY, "0011:3,1"], 2,
     "feedback 3,1 in '0011:3,1' cannot occur: with 3 pegs right the last one cannot be a misplaced colour"),
    (["next", *PY, "0011:2,3"], 2, "feedback 2,3 in '0011:2,3': black + white exceeds the 4 pegs"),
    (["next", *PY, "0011:-1,0"], 2, "feedback -1,0 in '0011:-1,0' is negative"),
    (["next", *PY, "0011:x,0"], 2, "feedback 'x,0' in '0011:x,0' is not of the form B,W (e.g. 1,2)"),
    (["next", *PY, "0011"], 2, "history entry '0011' is not of the form GUESS:B,W (e.g. 0011:1,0)"),
    (["next", *PY, "--no-repeat", "--max-repeat", 2], 2, "--no-repeat contradicts --max-repeat 2"),
    (["next", *PY, "--pegs", 5, "--colors", 2, "--no-repeat"], 2,
     "no code of 5 pegs uses 2 colours at most 1 time(s) each"),
    (["solve", *PY, "--secret", "01234"], 2, "code '01234' has 5 pegs, expected 4"),
    (["solve", *PY, "--first-guess", "9999"], 2, "symbol '9' in code '9999' is not one of the 6 colours 012345"),
    (["bench", *PY], 2, "give exactly one of --all, --games N or --spaced N"),
    (["bench", *PY, "--all", "--games", 3], 2, "give exactly one of --all, --games N or --spaced N"),
    (["bench", *PY, "--spaced", 3, "--games", 3], 2, "give exactly one of --all, --games N or --spaced N"),
    (["bench", *PY, "--spaced", 3, "--no-repeat"], 2, ("Invalid value for '--spaced': evenly spaced secrets "
                                                       "need colours that may repeat (no --no-repeat, --max-repeat)")),
    (["bench", *PY, "--spaced", 37, "--pegs", 2], 2, ("Invalid value for '--spaced': 37 evenly spaced secrets "
                                                      "need a code space of at least 37 codes, 2x6 has 36")),
    (["next", "--backend", "python", "--pegs", 10, "--colors", 10], 2,
     "10x10 has 10,000,000,000 codes, more than the python engine enumerates (20,000,000); use --backend clingo"),
    (["next", *PY, "--colors", 40, "0123:1,0"], 2,
     "code '0123': with 40 colours (more than the alphabet's 36 symbols) write codes as comma-separated integers"),
    (["next", *PY, "--encoding", "pyproject.toml"], 2,
     "--encoding applies to --backend clingo (.lp) or swipl (.pl), not python"),
    # An empty value is a value: refused as such, not taken for "not given".
    (["solve", *PY, "--secret", ""], 2, "code '' has 0 pegs, expected 4"),
    (["solve", *PY, "--first-guess", ""], 2, "code '' has 0 pegs, expected 4"),
    (["play", *PY, "--secret", ""], 2, "code '' has 0 pegs, expected 4"),
    (["bench", *PY, "--all", "--out", ""], 2, "Invalid value for '--out': an empty name is not a file or a folder"),
    (["compare", *PY, "--all", "--plot", " "], 2,
     "Invalid value for '--plot': an empty name is not a file or a folder"),
    (["tree", ""], 2, "Invalid value for 'FILE': an empty name is not a file or a folder"),
    (["solve", *PY, "--time-limit", "nan"], 2, "Invalid value for '--time-limit': 'nan' is not a number of seconds"),
    # They said "'abc' is not a valid seconds." and "... a valid integer range.".
    (["solve", *PY, "--time-limit", "abc"], 2, "Invalid value for '--time-limit': 'abc' is not a number of seconds"),
    (["solve", *PY, "--pegs", "abc"], 2, "Invalid value for '--pegs': 'abc' is not a valid integer."),
    # It said "got null", and a link to /dev/zero was "no such encoding file".
    (["solve", "--encoding", "/dev/null"], 2, "--encoding for --backend clingo must be a .lp file, got /dev/null"),
    (["serve", "--idle-seconds", "inf"], 2, "Invalid value for '--idle-seconds': 'inf' is not a number of seconds"),
    (["serve", "--tcp-port", 0, "--alphabet", "xyzuvw"], 2, "--alphabet does not apply to serve: the line protocol "
     "writes letters from a, and an API game names its alphabet in its request"),
    # Without a "note: --alphabet has 3 symbols for 6 colours" first, about an option refused anyway.
    (["serve", "--alphabet", "abc"], 2, "--alphabet does not apply to serve: the line protocol "
     "writes letters from a, and an API game names its alphabet in its request"),
    # They said "mixes commas with non-numbers"; feedback in other scripts' digits was read.
    (["solve", *PY, "--secret", "0,1,2,3,"], 2, "code '0,1,2,3,' has an empty peg (a comma with no number before "
     "or after it)"),
    (["solve", *PY, "--secret", "\u0660,\u0661,\u0662,\u0663"], 2,
     "code '\u0660,\u0661,\u0662,\u0663' writes colour numbers with digits other than 0-9"),
    (["solve", *PY, "--secret", "0,1,x,3"], 2, "code '0,1,x,3' mixes commas with non-numbers"),
    (["solve", *PY, "--secret", "0,1,\u00e9,3"], 2, "code '0,1,\u00e9,3' mixes commas with non-numbers"),
    (["next", *PY, "0011:\uff14,0"], 2, "feedback '\uff14,0' in '0011:\uff14,0' is not of the form B,W (e.g. 1,2)"),
    # Spaces separate pegs: a symbol that is a space could not be read back.
    (["solve", *PY, "--alphabet", "ab cdef"], 2, "--alphabet must list distinct symbols, without ',', ':' or spaces"),
])
def test_bad_input_is_one_line_exit_2(run, args, code, message):
    one_line_error(run(*args), code, message)


def test_an_encoding_that_is_no_regular_file_is_said_so(run, tmp_path):
    device = tmp_path / "zero.lp"
    device.symlink_to("/dev/zero")
    one_line_error(run("solve", "--encoding", device), 2,
                   f"--encoding {device} is a character device, not a regular file")


def test_spaced_colour_numbers_are_read_with_a_letter_alphabet(run):
    # "0 1 2 3" was "symbol '0' ... is not one of the 8 colours abcdefgh"; the docs say a spaced peg is a
    # symbol or a colour number.
    letters = ["--alphabet", "abcdefgh", "--colors", 8, *PY]
    assert run("next", *letters, "0 1 2 3:0,2").stdout == run("next", *letters, "a b c d:0,2").stdout \
        == "bcae  (936 codes still possible)\n"


def test_a_spaced_code_is_never_read_half_one_way_and_half_the_other(run, run_json):
    # With an alphabet holding digits, "2 3 4 5" was read half as symbols (2, 3: colours 4, 5) and half as
    # numbers (4, 5), and solved a secret nobody typed: 2323.
    digits = ["--alphabet", "ab0123", "--colors", 6, *PY]
    assert run_json("solve", *digits, "--secret", "2 3 4 5")["secret"] == "0123"
    assert run_json("solve", *digits, "--secret", "2 3 2 3")["secret"] == "2323"
    one_line_error(run("solve", *digits, "--secret", "a 2 5 b"), 2,
                   "code 'a 2 5 b' mixes symbols of the alphabet ab0123 with colour numbers "
                   "(write every peg one way)")
    one_line_error(run("solve", *digits, "--secret", "a b x 2"), 2,
                   "peg 'x' in code 'a b x 2' is not one of the 6 colours ab0123")
    # Where every peg has one meaning, a mix is read: a digit is the same colour either way in the
    # default alphabet, and abcdefgh has no digits.
    assert run_json("solve", *PY, "--colors", 12, "--secret", "10 A 3 B")["secret"] == "AA3B"
    assert run_json("solve", *PY, "--alphabet", "abcdefgh", "--colors", 8, "--secret", "a 0 1 2")["secret"] == "aabc"


def test_serve_help_does_not_offer_the_alphabet_it_refuses(run):
    assert "--alphabet" not in run("serve", "--help").stdout
    assert "--alphabet" in run("solve", "--help").stdout


def test_click_usage_errors_are_one_line(run):
    result = run("next", "--strategy", "nope")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
    assert "'nope' is not one of" in result.stderr
    result = run("frobnicate")
    assert result.exit_code == 2 and result.stderr == "error: No such command 'frobnicate'.\n"


def test_contradictory_history_exits_3_naming_entries(run):
    result = run("next", *PY, "0123:0,0", "0000:0,0", "4455:0,0")
    one_line_error(result, 3, "no code is consistent with the history: entries 1, 3 "
                              "(0123:0,0 4455:0,0) contradict each other")
    result = run("next", *PY, "--colors", 2, "0011:0,0")
    one_line_error(result, 3, "no code is consistent with the history: entry 1 (0011:0,0) is impossible on its own")


def test_next_json_and_text(run, run_json):
    assert run_json("next", *PY, "0011:1,0", "2345:0,2") == {"guess": "0223", "consistent": 60}
    assert run_json("next", *PY, "--strategy", "first", "0011:1,0", "2345:0,2") == {"guess": "0223", "consistent": 60}
    result = run("next", *PY, "--strategy", "first", "0123:0,4")
    assert result.exit_code == 0 and result.stdout == "1032  (9 codes still possible)\n"
    assert run_json("next", *PY, "--no-repeat", "--colors", 10) == {"guess": "0123", "consistent": 5040}
    assert run_json("next", *PY, "--alphabet", "abcdefgh", "--colors", 8, "--strategy", "first",
                    "abcd:0,0") == {"guess": "eeee", "consistent": 256}


@pytest.mark.parametrize("backend", ["python", "clingo", "swipl"])
def test_next_after_the_winning_guess_says_the_game_is_solved(run, run_json, backend):
    # It used to suggest the winning code again, as if a fourth guess were needed.
    history = ("0011:1,1", "0123:2,2", "0132:4,0")
    assert run_json("next", "--backend", backend, *history) == {"guess": "0132", "consistent": 1, "solved": True}
    result = run("next", "--backend", backend, "--strategy", "human1", *history)
    assert (result.exit_code, result.stdout) == (0, "0132  (solved: history entry 3 scored 4,0)\n")
    result = run("next", "--backend", backend, "0132:4,0", "0011:1,0")
    one_line_error(result, 3, "no code is consistent with the history: entries 1, 2 "
                              "(0132:4,0 0011:1,0) contradict each other")


def test_next_reads_feedback_as_play_does_b_w_or_b_space_w(run, run_json):
    # next refused 0011:1 0, which play accepts as an answer: one reader for both.
    from mm_logic.terminal.play import parse_answer

    expected = run_json("next", *PY, "0011:1,0", "2345:0,2")
    for history in (["0011:1 0", "2345:0 2"], ["0011: 1 , 0", "2345:0  2"]):
        assert run_json("next", *PY, *history) == expected
    assert parse_answer("1 0", Rules()) == parse_answer("1,0", Rules()) == (1, 0)
    # What one refuses the other refuses too ("1,,0" was an answer to play).
    for text in ("1,,0", "1 0 0", "10"):
        one_line_error(run("next", *PY, f"0011:{text}"), 2,
                       f"feedback {text!r} in '0011:{text}' is not of the form B,W (e.g. 1,2)")
        with pytest.raises(BadInput):
            parse_answer(text, Rules())


@pytest.mark.parametrize("command", ["solve", "next", "bench", "play"])
def test_strategy_help_is_short_and_points_to_the_docs(run, command):
    # It was a 40-line paragraph, every strategy's summary; the docs describe them (a section this checks).
    lines = run(command, "--help").stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("--strategy"))
    block = lines[start + 1:next(i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("-"))]
    text = " ".join(line.strip() for line in block)
    assert len(block) <= 6 and text.startswith(
        'How the next guess is chosen (each strategy and its opening: docs/cli.md, "Engine and strategy options").')
    assert "\n## Engine and strategy options\n" in (ROOT / "docs" / "cli.md").read_text()


def test_solve_json_seconds_are_rounded_to_milliseconds_as_the_docs_show(run):
    # They had six decimals (0.004123) where docs/cli.md and the contract show three (0.004).
    record = GameRecord(Rules(), (0, 1, 2, 3), [((0, 1, 2, 3), (4, 0))], 0.0041234, "python", "first")
    assert record.as_dict()["seconds"] == 0.004
    result = run("solve", *PY, "--secret", "0123", "--json")
    seconds = json.loads(result.stdout)["seconds"]
    assert f'"seconds": {seconds},' in result.stdout and seconds == round(seconds, 3)


def test_solve_json_shape_and_text(run, run_json):
    out = run_json("solve", *PY, "--secret", "0123", "--strategy", "minimax")
    assert list(out) == ["secret", "guesses", "attempts", "seconds", "backend", "strategy"]
    assert out["secret"] == "0123" and out["attempts"] == len(out["guesses"]) == 3
    assert out["guesses"][0] == {"guess": "0011", "black": 1, "white": 1}
    assert out["guesses"][-1] == {"guess": "0123", "black": 4, "white": 0}
    assert (out["backend"], out["strategy"]) == ("python", "minimax")
    result = run("solve", *PY, "--secret", "0123", "--strategy", "first")
    assert result.exit_code == 0
    assert result.stdout == "1  0000  1,0\n2  0111  2,0\n3  0122  3,0\n4  0123  4,0\n4 guesses\n"


def test_solve_random_secret_is_reproducible(run_json):
    a = run_json("solve", *PY, "--strategy", "random", "--seed", 5)
    b = run_json("solve", *PY, "--strategy", "random", "--seed", 5)
    assert a["guesses"] == b["guesses"] and a["secret"] == b["secret"]


def test_integer_code_notation(run_json):
    out = run_json("solve", *PY, "--pegs", 3, "--colors", 40, "--secret", "0,17,39", "--strategy", "first")
    assert out["secret"] == "0,17,39" and out["guesses"][-1]["guess"] == "0,17,39"
    assert run_json("next", *PY, "--strategy", "first", "0,0,1,1:4,0")["guess"] == "0011"


def test_bench_games_json_and_out_file(run, tmp_path):
    out_file = tmp_path / "bench.json"
    result = run("bench", *PY, "--strategy", "minimax", "--games", 50, "--seed", 3, "--json", "--out", out_file)
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert json.loads(out_file.read_text()) == out
    assert list(out) == ["games", "total_guesses", "mean", "max", "histogram", "seconds", "min", "stdev", "ci95",
                         "failed", "failure_rate", "backend", "strategy", "rules"]
    assert out["games"] == 50 and out["rules"] == {"pegs": 4, "colors": 6, "max_repeat": None,
                                                  "feedback": "standard"}
    # The same secrets' attempts in the tree of every secret (another evaluation of the same games).
    from collections import Counter

    from mm_logic.engines.reference import ReferenceEngine
    from mm_logic.secret_codes import random_secrets
    from mm_logic.strategies import make_strategy
    from mm_logic.studies.bench import bench_all
    tree = bench_all(ReferenceEngine(Rules()), make_strategy("minimax", Rules())).by_secret()
    attempts = [tree[secret] for secret in random_secrets(Rules(), 50, 3)]
    assert out["histogram"] == {str(k): v for k, v in sorted(Counter(attempts).items())}
    assert out["total_guesses"] == sum(attempts)


def test_bench_spaced_plays_codes_evenly_spaced_in_lexicographic_order(run_json):
    # 1296 // 4 = 324: codes number 0, 324, 648, 972 in base 6 (peg 1 most significant)
    assert spaced_secrets(Rules(4, 6), 4) == [(0, 0, 0, 0), (1, 3, 0, 0), (3, 0, 0, 0), (4, 3, 0, 0)]
    out = run_json("bench", *PY, "--strategy", "first", "--spaced", 4)
    attempts = [len(run_json("solve", *PY, "--strategy", "first", "--secret", s)["guesses"])
                for s in ("0000", "1300", "3000", "4300")]
    assert attempts[0] == 1
    assert out["games"] == 4 and out["total_guesses"] == sum(attempts)
    assert out["histogram"] == {str(k): attempts.count(k) for k in sorted(set(attempts))}


def test_bench_text(run):
    result = run("bench", *PY, "--strategy", "first", "--first-guess", "0000", "--all")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    # stdev: sum (k - 7471/1296)^2 n_k / 1295 = 1.10056 = 1.04907^2; ci95: 7471/1296 = 5.76466 -+ t(0.975, 1295)
    # 1.96180 * 1.04907 / 36 = 0.05717
    assert lines[:11] == ["rules      4x6", "backend    python", "strategy   first", "games      1296",
                          "failed     0 of 1296 (0.0%)", "mean       5.765", "ci95       5.707 to 5.822 (+-0.057)",
                          "stdev      1.049", "min        1", "max        9",
                          "histogram  1:1 2:4 3:25 4:108 5:305 6:602 7:196 8:49 9:6"]
    assert lines[11].startswith("seconds    ")


def test_info(run, run_json):
    out = run_json("info", *PY, "--pegs", 5, "--colors", 8, "--no-repeat")
    assert out["codes"] == 6720 and out["feedbacks"] == 17 and out["naive_feedbacks"] == 21
    assert out["feedback_list"][:2] == ["0,2", "0,3"]  # 5 of 8 distinct colours share at least 2
    assert out["lower_bound"] == 5 and out["seed000_bound"] == 3
    out = run_json("info", *PY)
    assert (out["codes"], out["feedbacks"], out["lower_bound"]) == (1296, 14, 4)
    out = run_json("info", *PY, "--pegs", 2, "--colors", 2)
    assert out["feedback_list"] == ["0,0", "0,2", "1,0", "2,0"]


def test_play_survives_typos(run):
    result = run("play", "--backend", "python", "--secret", "0123", input="01\n0129\n?\n0123\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "Find the code of 4 pegs over 012345 (4x6). Type help for help.",
        "code '01' has 2 pegs, expected 4; try again (help for help)",
        "symbol '9' in code '0129' is not one of the 6 colours 012345; try again (help for help)",
        "1,296 codes still possible",
        "0123  4,0",
        "found in 1 guess",
    ]


def test_every_command_has_help_with_examples_and_is_in_readme(run):
    from conftest import ROOT
    readme = (ROOT / "README.md").read_text()
    for name in cli.commands:
        result = run(name, "--help")
        assert result.exit_code == 0
        assert "Example" in result.stdout, name
        assert f"mmlogic {name}" in readme, name


def test_a_command_imports_its_own_module_alone():
    # The group names its commands before importing them: `mmlogic optimal` does not load the modules of
    # bench, play, compare, sweep or serve (issue 38, item 8: its start-up); cli.commands imports them all.
    import sys

    probe = ("import sys; from mm_logic.cli import cli; import click; "
             "cli.get_command(click.Context(cli), 'optimal'); "
             "print(sorted(m for m in sys.modules if m.startswith('mm_logic.cli.'))); "
             "print(sorted(cli.list_commands(None)) == sorted(cli.commands))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines() == ["['mm_logic.cli.group', 'mm_logic.cli.options', 'mm_logic.cli.studies']",
                                        "True"], done.stderr
    assert sorted(cli.commands) == ["bench", "compare", "info", "next", "openings", "optimal", "play", "puzzle",
                                    "serve", "solve", "split", "static", "sweep", "tree"]


def test_optimal_ends_at_once_with_its_whole_output():
    # After the result is printed the process ends without the interpreter's shutdown (os._exit, the streams
    # flushed first): stdout must still hold the whole JSON object, and the exit code be 0.
    done = subprocess.run([MMLOGIC, "optimal", "--pegs", "3", "--colors", "3", "--json"], capture_output=True,
                          text=True, timeout=300)
    assert (done.returncode, done.stderr.replace(
        "note: compiling the optimal search's kernels (once: they are cached for later runs, which start at once)\n",
        "")) == (0, "")
    result = json.loads(done.stdout)
    assert (result["total_guesses"], result["max"], done.stdout.endswith("}\n")) == (73, 4, True)


def test_jobs_give_the_same_results(run_json):
    one = run_json("bench", *PY, "--strategy", "expected", "--colors", 5, "--all")
    two = run_json("bench", *PY, "--strategy", "expected", "--colors", 5, "--all", "--jobs", 2)
    figures = ("games", "total_guesses", "histogram")
    assert [two[k] for k in figures] == [one[k] for k in figures]
    one = run_json("bench", *PY, "--strategy", "random", "--games", 40, "--seed", 2)
    two = run_json("bench", *PY, "--strategy", "random", "--games", 40, "--seed", 2, "--jobs", 2)
    assert two["histogram"] == one["histogram"] and two["games"] == 40


def test_authors_names_play_the_built_in_strategies(run_json):
    # Knuth's strategy under his name, in any case: played and reported as minimax (Knuth's 5,801).
    out = run_json("bench", *PY, "--strategy", "Knuth", "--all")
    assert (out["strategy"], out["total_guesses"], out["max"]) == ("minimax", 5801, 5)
    # In a list, an author's name and the strategy's own are one strategy, played once.
    rows = run_json("compare", *PY, "--strategy", "kooi,parts,neuwirth,irving,shapiro", "--games", 5,
                    "--seed", 1)["rows"]
    assert [row["strategy"] for row in rows] == ["parts", "entropy", "expected", "first"]
    plain = run_json("compare", *PY, "--strategy", "parts,entropy,expected,first", "--games", 5, "--seed", 1)["rows"]
    assert [row["histogram"] for row in rows] == [row["histogram"] for row in plain]


def test_a_mistyped_authors_name_lists_the_names(run):
    result = run("solve", *PY, "--strategy", "knut")
    assert result.exit_code == 2
    assert "'knut' is not one of 'first', 'any', 'random'" in result.stderr
    assert result.stderr.count("\n") == 1


def test_two_options_naming_one_file_are_refused_before_any_game(run, tmp_path):
    same = tmp_path / "same.json"
    one_line_error(run("bench", *PY, "--all", "--pegs", 2, "--colors", 2, "--out", same, "--save-tree", same), 2,
                   f"--out and --save-tree name the same file, {same}")
    one_line_error(run("compare", *PY, "--strategy", "first", "--all", "--pegs", 2, "--colors", 2,
                       "--csv", same, "--plot", same), 2, f"--csv and --plot name the same file, {same}")
    assert list(tmp_path.iterdir()) == []  # the probes left nothing behind, not even a folder


def test_a_full_disk_under_stdout_is_one_line_not_an_internal_failure():
    # It said "internal failure: OSError: [Errno 28] ... (set MMLOGIC_DEBUG=1 for details)".
    with open("/dev/full", "w") as full:
        done = subprocess.run([MMLOGIC, "solve", "--backend", "python", "--secret", "0123"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (1, "error: cannot write the output: no space left on device\n")


@pytest.mark.parametrize("error, message", [
    (OSError(errno.ENOSPC, "No space left on device"), "cannot write the output: no space left on device"),
    # Not about the output (workers that cannot start): named as what it is, not as a write.
    (OSError(errno.EMFILE, "Too many open files"),
     "internal failure: OSError: [Errno 24] Too many open files (set MMLOGIC_DEBUG=1 for details)"),
    # A solver's message of several lines (clingo's end in a newline) is said on one.
    (RuntimeError("x.lp:3:1-5: error: something\n  more\n"),
     "internal failure: RuntimeError: x.lp:3:1-5: error: something more (set MMLOGIC_DEBUG=1 for details)"),
])
def test_only_the_errors_of_writing_are_called_so(run, monkeypatch, error, message):
    def fail(*args, **kwargs):
        raise error
    monkeypatch.setattr("mm_logic.game.advise", fail)
    one_line_error(run("next", *PY), 1, message)


def test_ctrl_c_that_a_numba_kernel_wrapped_is_interrupted(run, monkeypatch):
    # What numba makes of Ctrl-C in its call back into Python (tests/strategies/test_sampled.py): it was
    # "internal failure: SystemError: CPUDispatcher(...) returned a result with an exception set".
    def kernel(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as ctrl_c:
            raise SystemError("CPUDispatcher(<function repair>) returned a result with an exception set") from ctrl_c
    monkeypatch.setattr("mm_logic.game.advise", kernel)
    result = run("next", *PY)
    assert (result.exit_code, result.stdout, result.stderr) == (130, "", "interrupted\n")


def test_a_second_ctrl_c_while_interrupted_is_said_is_no_traceback(run, monkeypatch):
    import click

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    said = []

    def echo(message=None, *args, **kwargs):
        said.append(message)
        raise KeyboardInterrupt  # the second Ctrl-C, in the middle of saying the first
    monkeypatch.setattr("mm_logic.game.advise", interrupted)
    monkeypatch.setattr(click, "echo", echo)
    result = run("next", *PY)
    assert (result.exit_code, said, result.stderr) == (130, ["interrupted"], "")


def test_a_file_that_cannot_be_written_after_the_games_keeps_the_results_printed(run, tmp_path, monkeypatch):
    # A disk that fills during the games (/dev/full did it, until devices were refused before them).
    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    out = tmp_path / "out.json"
    monkeypatch.setattr(Path, "write_text", full)
    result = run("bench", *PY, "--strategy", "first", "--games", 3, "--seed", 1, "--json", "--out", out)
    monkeypatch.undo()
    assert result.exit_code == 1 and result.stderr == f"error: cannot write {out}: no space left on device\n"
    assert not out.exists()
    alone = run("bench", *PY, "--strategy", "first", "--games", 3, "--seed", 1, "--json")
    printed, expected = json.loads(result.stdout), json.loads(alone.stdout)
    assert (printed["total_guesses"], printed["histogram"]) == (expected["total_guesses"], expected["histogram"])


def test_one_peg_codes_written_as_numbers_are_read(run_json):
    # More colours than symbols: codes are colour numbers, and one peg has no comma to write.
    assert run_json("next", *PY, "--pegs", 1, "--colors", 40, "--strategy", "first", "0:0,0", "39:0,0") == {
        "guess": "1", "consistent": 38}
    assert run_json("solve", *PY, "--pegs", 1, "--colors", 40, "--strategy", "first", "--secret", 5)["guesses"][-1] \
        == {"guess": "5", "black": 1, "white": 0}



def test_a_command_builds_its_strategy_once(run, monkeypatch):
    # engine_options checks what the strategy refuses before the first guess is read, then builds it once,
    # holding that guess (it built a throwaway strategy first).
    from mm_logic.strategies import StrategyName
    made = []
    make = StrategyName.make

    def counted(self, rules, seed=None, **options):
        made.append((self.name, options["first_guess"]))
        return make(self, rules, seed, **options)

    monkeypatch.setattr(StrategyName, "make", counted)
    result = run("next", *PY, "--strategy", "minimax", "--first-guess", "0012")
    assert (result.exit_code, result.stdout) == (0, "0012  (1,296 codes still possible)\n")
    assert made == [("minimax", (0, 0, 1, 2))]


def test_a_refused_strategy_is_named_before_a_bad_first_guess(run):
    # The order kept when the strategy is built once: the feedback rule it refuses first, then the code.
    result = run("next", *PY, "--feedback", "black", "--strategy", "human1", "--first-guess", "99")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --strategy human1 plays the standard feedback rule only; ")
    assert len(result.stderr.splitlines()) == 1
