"""What a new user hits first (issue 11): each case with its exit code and its one line."""

from __future__ import annotations

import importlib.util
import io
import re
import subprocess

import pytest

from mm_logic.rules import Rules

from conftest import MMLOGIC, PY, ROOT, one_line_error


@pytest.mark.parametrize("command", [["solve", *PY], ["bench", *PY, "--games", 2], ["compare", *PY, "--games", 2]])
def test_a_negative_seed_is_bad_input(run, command):
    one_line_error(run(*command, "--seed", -5), 2, "Invalid value for '--seed': -5 is not in the range x>=0.",
                   stdout="")


@pytest.mark.parametrize("args, message", [
    (["compare", *PY, "--games", 2, "--plot", "/proc/x"],
     "Invalid value for '--plot': cannot write into folder /proc/x (No such file or directory)"),
    (["compare", *PY, "--games", 2, "--csv", "/proc/x/a.csv"],
     "Invalid value for '--csv': cannot write /proc/x/a.csv (No such file or directory)"),
    (["bench", *PY, "--games", 2, "--out", "/proc/x/a.json"],
     "Invalid value for '--out': cannot write /proc/x/a.json (No such file or directory)"),
])
def test_unwritable_outputs_are_refused_before_the_games(run, args, message):
    one_line_error(run(*args), 2, message, stdout="")


def test_a_result_file_is_not_left_behind_by_the_check(run, tmp_path):
    target = tmp_path / "rows.csv"
    result = run("compare", *PY, "--games", 2, "--csv", target, "--seed", "-1")  # the seed fails after the check
    assert result.exit_code == 2
    assert not target.exists()


def test_plot_without_matplotlib_is_refused_before_the_games(run, monkeypatch, tmp_path, index_install):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    one_line_error(run("compare", *PY, "--games", 2, "--plot", tmp_path / "charts"), 2,
                   "Invalid value for '--plot': charts need matplotlib: pip install 'mmlogic[plot]'", stdout="")


def test_all_on_a_space_too_large_names_games_not_a_backend(run):
    one_line_error(run("bench", "--backend", "clingo", "--strategy", "first", "--pegs", 12, "--colors", 12, "--all"),
                   2, "--all: 12x12 has 8,916,100,448,256 codes; use --games N", stdout="")
    # From 10**15 codes on, a mantissa and an exponent: 30x30 spelt out was 59 characters.
    one_line_error(run("bench", "--backend", "clingo", "--strategy", "first", "--pegs", 30, "--colors", 30, "--all"),
                   2, "--all: 30x30 has about 2.059e+44 codes; use --games N", stdout="")


@pytest.mark.parametrize("backend", ["clingo", "swipl"])
def test_a_scoring_strategy_refuses_a_space_it_cannot_score_at_once(run, backend):
    # The default strategy (minimax) on 12x12: refused before anything is computed, on every backend.
    one_line_error(run("bench", "--backend", backend, "--pegs", 12, "--colors", 12, "--all"), 2,
                   "--strategy minimax scores guesses against every code and plays at most 20,000,000 codes; "
                   "12x12 has 8,916,100,448,256: use --strategy first, any, random, any-random-opening or "
                   "sample-entropy", stdout="")


def test_play_is_not_refused_for_the_hints_of_its_default_strategy(run):
    # `play --pegs 8 --colors 10` was refused: minimax, the default, gives the hints and scores at most
    # 20,000,000 codes. A strategy typed is still refused where it cannot play.
    result = run("play", "--pegs", 8, "--colors", 10, "--seed", 1, input="hint\nq\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1:] == ["try 99424054 (100,000,000 codes still possible)",
                                              "the secret was 45790189"]
    assert result.stderr.startswith("note: 8x10 has 100,000,000 codes, more than minimax scores (20,000,000): any "
                                    "instead (choose another with --strategy)\n")
    one_line_error(run("play", "--pegs", 8, "--colors", 10, "--strategy", "minimax", input="q\n"), 2,
                   "--strategy minimax scores guesses against every code and plays at most 20,000,000 codes; "
                   "8x10 has 100,000,000: use --strategy first, any, random, any-random-opening or sample-entropy",
                   stdout="")


def test_one_guess_is_singular(run):
    result = run("solve", *PY, "--secret", "0000", "--strategy", "first")
    assert result.stdout == "1  0000  4,0\n1 guess\n"


@pytest.mark.parametrize("typed", ["quit\n", ""])  # quit, or Ctrl-D (end of input)
def test_play_quit_and_end_of_input_exit_0_with_the_secret_on_its_own_line(run, typed):
    result = run("play", *PY, "--secret", "0123", input=f"0011\n{typed}")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1:] == ["0011  1,1", "the secret was 0123"]


def test_play_reaching_the_guess_limit_shows_the_secret_and_exits_0(run):
    # It went from the last feedback to the secret without a word.
    result = run("play", *PY, "--secret", "0123", "--max-guesses", 1, input="0011\n")
    assert (result.exit_code, result.stdout.splitlines()[1:]) == (0, ["0011  1,1", "out of guesses (--max-guesses 1)",
                                                                      "the secret was 0123"])
    result = run("play", "--role", "codemaker", *PY, "--strategy", "first", "--max-guesses", 1, input="1,0\n\n")
    assert (result.exit_code, result.stdout.splitlines()[1:]) == (0, ["out of guesses (--max-guesses 1)"])


def test_play_undo_takes_the_guessers_last_guess_back(run):
    # It was "symbol 'u' in code 'undo' is not one of the 6 colours 012345".
    result = run("play", *PY, "--secret", "0123", input="undo\n0011\n0 0 2 2\nundo\n?\n0123\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1:] == [
        "nothing to undo",
        "0011  1,1",
        "0022  2,0",
        "took back 0022 2,0",
        "208 codes still possible",  # as after 0011 alone: the guess taken back counts no more
        "0123  4,0",
        "found in 2 guesses",
    ]
    # On 36 colours UNDO is a code: played, as QUIT is.
    result = run("play", *PY, "--pegs", 4, "--colors", 36, "--secret", "UNDO", input="undo\n")
    assert result.stdout.splitlines()[1:] == ["UNDO  4,0", "found in 1 guess"]


def test_play_help_hint_and_spaced_codes(run):
    result = run("play", *PY, "--secret", "0123", "--strategy", "first", input="help\nhint\n0 0 1 1\n0,1,2,3\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1:] == [
        "type a code of 4 pegs, e.g. 0123 or 0 1 2 3; ? how many codes are still possible; "
        "hint the computer's guess; undo takes your last guess back; quit (or q) to give up; a line that is a "
        "code is played as a guess, even one that spells a command",
        "try 0000 (1,296 codes still possible)",
        "0011  1,1",
        "0123  4,0",
        "found in 2 guesses",
    ]


def test_play_a_code_that_spells_a_command_is_a_guess(run):
    # QUIT is a code of 4 pegs of 36 colours; q is not, and still quits.
    result = run("play", *PY, "--pegs", 4, "--colors", 36, "--secret", "QUIT", input="quit\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1:] == ["QUIT  4,0", "found in 1 guess"]
    result = run("play", *PY, "--pegs", 1, "--colors", 20, "--secret", "H", input="h\nq\n")
    assert result.stdout.splitlines()[1:] == ["H  1,0", "found in 1 guess"]


@pytest.mark.parametrize("typed", ["0 1 2 1\u00b2", "0,1,2,\u2460", "\u0661\u0662\u0663\u0664"])
def test_play_digits_of_other_scripts_are_a_typo(run, typed):
    result = run("play", *PY, "--secret", "0123", input=f"{typed}\n0123\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[2:] == ["0123  4,0", "found in 1 guess"]
    assert result.stdout.splitlines()[1].endswith("; try again (help for help)")


def test_play_codemaker_answers_in_other_scripts_are_a_typo_quoted_short(run):
    result = run("play", "--role", "codemaker", *PY, "--strategy", "first",
                 input="\u00b2,0\n" + "1," * 100 + "\nquit\n\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1:3] == [
        "'\u00b2,0' is not an answer: type black and white, e.g. 1,2 or 1 2; try again (help for help)",
        f"{'1,' * 20!r}... (200 characters) is not an answer: type black and white, e.g. 1,2 or 1 2; try again "
        "(help for help)"]


def test_bytes_that_are_not_utf8_are_quoted_as_the_bytes_typed():
    # They were quoted as the surrogates Python reads them as: 'ab\udcffc', '\udcff\udcfe'.
    done = subprocess.run([MMLOGIC, "play", *PY, "--secret", "0123"], input=b"ab\xffc\n\xff\n0123\n",
                          capture_output=True, timeout=60)
    assert done.stdout.decode().splitlines()[1:3] == [
        r"symbol 'a' in code 'ab\xffc' is not one of the 6 colours 012345; try again (help for help)",
        r"symbol '\xff' in code '\xff' is not one of the 6 colours 012345; try again (help for help)"]
    done = subprocess.run([MMLOGIC, "play", "--role", "codemaker", *PY], input=b"\xff\xfe\nquit\n\n",
                          capture_output=True, timeout=60)
    assert done.stdout.decode().splitlines()[1] == (
        r"'\xff\xfe' is not an answer: type black and white, e.g. 1,2 or 1 2; try again (help for help)")
    for args, message in [
            ([b"next", *PY, b"0011:\xff,0"], r"feedback '\xff,0' in '0011:\xff,0' is not of the form B,W (e.g. 1,2)"),
            # click's own message, and a file name as it came
            ([b"solve", b"--backend", b"\xff"],
             r"Invalid value for '--backend': '\xff' is not one of 'clingo', 'swipl', 'python', 'a1', 'a2', 'a3', "
             r"'a4', 'a5'."),
            ([b"tree", b"/nonexistent/\xff"], r"cannot read tree file /nonexistent/\xff: No such file or directory")]:
        done = subprocess.run([MMLOGIC, *args], capture_output=True, timeout=60)
        assert (done.returncode, done.stderr.decode()) == (2, f"error: {message}\n")


def test_play_hint_on_a_huge_game_answers_with_a_bound(run):
    # 36^5 = 60 million codes: `?` answers at once with a proven lower bound, as `next` does.
    result = run("play", "--backend", "clingo", "--pegs", 5, "--colors", 36, "--strategy", "any", "--seed", 1,
                 input="01234\n?\n")
    assert result.exit_code == 0
    # Counted for about a second, up to 100,001 codes: the bound is the codes found by then.
    found = re.fullmatch(r"at least ([\d,]+) codes still possible", result.stdout.splitlines()[2])
    assert found and 1 <= int(found[1].replace(",", "")) <= 100_001


def test_play_advice_names_an_option_play_has(run):
    result = run("play", *PY, "--pegs", 12, "--colors", 12, input="?\n")
    one_line_error(result, 2, "12x12 has 8,916,100,448,256 codes, more than the python engine enumerates "
                              "(20,000,000); use --backend clingo", stdout="")
    assert "--backend [clingo|swipl|python|a1|a2|a3|a4|a5]" in run("play", "--help").stdout


def test_an_alphabet_shorter_than_the_colours_is_said(run):
    result = run("next", *PY, "--alphabet", "abc", "--strategy", "first", "0,1,2,3:0,0")
    assert result.exit_code == 0
    assert result.stderr == ("note: --alphabet has 3 symbols for 6 colours: codes are written as "
                             "comma-separated colour numbers (0,3,1,2)\n")
    assert result.stdout == "4,4,4,4  (16 codes still possible)\n"


def test_solve_reports_each_guess_as_it_is_made():
    from mm_logic.engines import make_engine
    from mm_logic.game import play
    from mm_logic.strategies import make_strategy
    seen = []
    rules = Rules()
    record = play(make_engine("python", rules), make_strategy("first", rules), (0, 1, 2, 3),
                  on_turn=lambda number, entry: seen.append((number, entry, len(seen))))
    assert seen == [(i, entry, i - 1) for i, entry in enumerate(record.guesses, 1)]


def test_the_python_backend_honours_the_time_limit(run):
    result = run("next", *PY, "--pegs", 9, "--colors", 6, "--time-limit", 0.001, "--strategy", "first",
                 "001122334:1,0")
    one_line_error(result, 1, "python did not answer within the time limit of 0.001 s (9x6, 10,077,696 codes to "
                              "filter); raise --time-limit", stdout="")


def test_a_push_that_fails_leaves_the_history_as_it_was():
    from mm_logic.engines import make_engine
    from mm_logic.support.errors import SolverTimeout
    session = make_engine("python", Rules(9, 6), time_limit=0.001).session()
    with pytest.raises(SolverTimeout):
        session.push((0, 0, 1, 1, 2, 2, 3, 3, 4), (1, 0))
    assert session.history == [] and session.count() == 6**9


def test_the_spinner_shows_only_for_slow_steps_and_wipes_itself():
    import time

    from mm_logic.terminal.progress import Spinner
    stream = io.StringIO()
    with Spinner("thinking", stream, enabled=True, show_after=0.05, frame=0.01) as spinner:
        spinner.tick()  # a quick step: nothing drawn
        assert stream.getvalue() == ""
        time.sleep(0.2)  # a slow one
        drawn = stream.getvalue()
        spinner.tick()
        assert stream.getvalue().endswith("\r\033[K")
    frames = [part for part in drawn.split("\r") if part]
    assert frames and all(f[0] in "|/-\\" and f[1:].startswith(" thinking... 0.") for f in frames)
    quiet = io.StringIO()
    with Spinner("thinking", quiet, enabled=False, show_after=0.0, frame=0.01):
        time.sleep(0.05)
    assert quiet.getvalue() == ""


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_progress_bar_shows_time_spent_while_no_game_ends():
    import time

    from mm_logic.terminal.progress import TickingBar
    stream = _Terminal()
    with TickingBar(4, "games", stream, every=0.01) as bar:
        bar._started -= 65  # a game that has taken 65 s so far
        time.sleep(0.2)  # no step ends: the redraws alone show the time
        waiting = stream.getvalue()
        bar._started -= 60
        bar.update(1)
        after_one = stream.getvalue()
        with bar.above():  # a finished row of compare's table
            stream.write("row\n")
        time.sleep(0.2)
    lines = [line.strip().removeprefix("\033[?25l") for line in waiting.split("\r") if line.strip()]
    assert lines[-1] == "games  [" + "-" * 36 + "]    0%  1:05 spent"
    # 125 s for one game of four: about 3 x 125 s left
    assert "25%  2:05 spent, about 6:15 left" in after_one
    # the row replaces the bar's line, and the bar is drawn again below it
    below = stream.getvalue()[len(after_one):]
    assert below.startswith("\r\033[Krow\n") and "25%  2:05 spent, about 6:1" in below
@pytest.mark.parametrize("backend", ["clingo", "swipl"])
def test_next_on_a_huge_game_answers_with_a_lower_bound(run_json, backend):
    out = run_json("next", "--backend", backend, "--pegs", 16, "--colors", 6, "--strategy", "any",
                   "0000111122223333:3,5")
    from mm_logic.feedback import feedback
    from mm_logic.notation import parse_code
    guess = parse_code(out["guess"], Rules(16, 6))
    assert feedback((0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3), guess) == (3, 5)
    assert out["consistent"] is None and list(out) == ["guess", "consistent", "consistent_at_least"]
    # Counting stops after about a second, or at 100,001 codes: the codes found by then.
    assert 1 <= out["consistent_at_least"] <= 100_001


def test_next_says_at_least_in_words(run):
    result = run("next", "--pegs", 16, "--colors", 6, "--strategy", "any", "0000111122223333:3,5")
    assert result.exit_code == 0
    found = re.fullmatch(r"[0-5]{16}  \(at least ([\d,]+) codes still possible\)\n", result.stdout)
    assert found and 1 <= int(found[1].replace(",", "")) <= 100_001, result.stdout


def wrong_encoding(tmp_path, suffix: str):
    """The shipped encoding with its feedback constraints taken out: satisfiable, and wrong."""
    from mm_logic.support.resources import encoding_path
    path = tmp_path / f"nofeedback{suffix}"
    if suffix == ".lp":
        text = encoding_path("mastermind.lp").read_text().replace('#include "feedback.lp".', "")
    else:
        text = encoding_path("mastermind.pl").read_text().replace(
            "feedback(secret(_Pegs, Marks, Counts), guess(Guess, Black, White)) :-",
            "feedback(_, _) :- true.\nunused_feedback(secret(_Pegs, Marks, Counts), guess(Guess, Black, White)) :-")
    path.write_text(text)
    return path


@pytest.mark.parametrize("backend, suffix", [("clingo", ".lp"), ("swipl", ".pl")])
@pytest.mark.parametrize("command", [["next", "--strategy", "first"], ["next"]])
def test_an_encoding_that_admits_a_wrong_code_is_refused_naming_it(run, tmp_path, backend, suffix, command):
    path = wrong_encoding(tmp_path, suffix)
    result = run(*command, "--backend", backend, "--encoding", path, "0011:1,0")
    one_line_error(result, 2, f"{path} admits 0000, which breaks history entry 1 (0011:1,0): it scores 2,0",
                   stdout="")


# An encoding edited before the number of colours was spelled colours(K): its colors(K) never holds.
OLD_CODE_LP = "peg(1..N) :- pegs(N).\ncolour(0..K-1) :- colors(K).\n1 { secret(P,C) : colour(C) } 1 :- peg(P).\n"
OLD_SEARCH_LP = ("#external lexicographic. [free]\n#heuristic secret(P,C) : lexicographic, pegs(N), colors(K), "
                 "peg(P), colour(C). [(N-P)*K+K-C+1, true]\n")
ENTRY_WITH = "".join(f'#include "{name}".\n'
                     for name in ("{part}", "counts.lp", "repetition.lp", "feedback.lp", "show.lp"))


@pytest.mark.parametrize("files, where", [
    # a copy of code.lp beside the entry file: it admitted no code ("no code of 4x6 exists")
    ({"old.lp": ENTRY_WITH.format(part="code_old.lp"), "code_old.lp": OLD_CODE_LP}, "code_old.lp:2:19-28"),
    # a rule of the user's: it never fired, every code passed it
    ({"old.lp": '#include "mastermind.lp".\n:- secret(P,C), colors(K), C = K-1.\n'}, "old.lp:2:17-26"),
    # a copy of search.lp: `first` answered 2013, not the smallest code
    ({"old.lp": ENTRY_WITH.format(part="code.lp") + '#include "search_old.lp".\n', "search_old.lp": OLD_SEARCH_LP},
     "search_old.lp:2:50-59"),
], ids=["code.lp", "a rule", "search.lp"])
def test_an_encoding_that_still_says_colors_is_refused_in_one_line(run, tmp_path, files, where):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    for command in (["next", "--strategy", "first"], ["solve", "--secret", "1234"]):
        result = run(*command, "--backend", "clingo", "--encoding", tmp_path / "old.lp")
        one_line_error(result, 2, f"{tmp_path / where}: colors(K) never holds: the engine gives the number of colours "
                                  "as colours(K) (rename colors to colours)", stdout="")


def test_solve_with_a_wrong_encoding_stops_at_the_first_wrong_answer(run, tmp_path):
    path = wrong_encoding(tmp_path, ".lp")
    result = run("solve", "--encoding", path, "--strategy", "first", "--seed", 1)
    assert result.exit_code == 2
    assert result.stdout == "1  0000  1,0\n"
    assert result.stderr == f"error: {path} admits 0000, which breaks history entry 1 (0000:1,0): it scores 4,0\n"
    # With --secret, the check that the encoding admits it finds the mistake before any guess.
    result = run("solve", "--encoding", path, "--strategy", "first", "--secret", "0123")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"error: {path} admits 0000, which breaks history entry 1 (0123:4,0): it scores 1,0 "
                             "(asked whether it admits --secret 0123)\n")


def test_both_terminal_games_show_the_engines_work_and_not_the_persons():
    from contextlib import contextmanager

    from mm_logic.engines import make_engine
    from mm_logic.game import Game
    from mm_logic.strategies import make_strategy
    from mm_logic.terminal.play import play_codebreaker, play_codemaker
    rules = Rules()
    log = []

    @contextmanager
    def busy(label):
        log.append(f"[{label}")
        yield
        log.append("]")

    def script(*lines):
        typed = iter(lines)

        def ask(prompt):
            log.append(prompt)
            return next(typed, None)
        return ask

    with Game(make_engine("python", rules), make_strategy("minimax", rules), secret=(1, 2, 3, 4)) as game:
        play_codebreaker(game, script("?", "hint", "0011", "quit"), log.append, busy=busy)
    assert log == ["Find the code of 4 pegs over 012345 (4x6). Type help for help.",
                   "guess 1", "[thinking", "]", "1,296 codes still possible",
                   "guess 1", "[thinking", "]", "try 0011 (1,296 codes still possible)",
                   "guess 1", "0011  0,1", "guess 2", "the secret was 1234"]
    log.clear()
    with Game(make_engine("python", rules), make_strategy("minimax", rules)) as game:
        play_codemaker(game, script("x", "0,1"), log.append, max_guesses=1, busy=busy)
    assert log[1:] == ["[thinking", "]", "guess 1: 0011  black,white", "'x' is not an answer: type black and white, "
                       "e.g. 1,2 or 1 2; try again (help for help)",
                       "[thinking", "]", "guess 1: 0011  black,white", "[checking the answers", "]",
                       "out of guesses (--max-guesses 1)", "what was your code? (Enter to skip)"]


def test_ctrl_c_held_during_native_code_is_raised_after_it_and_replaces_its_failure():
    import os
    import signal

    from mm_logic.support.interrupts import interrupts_held
    with pytest.raises(KeyboardInterrupt), interrupts_held():
        os.kill(os.getpid(), signal.SIGINT)
        reached = "the block runs on"  # the handler ran, and only took the signal aside
    assert reached == "the block runs on"
    # janus, interrupted while starting Prolog
    with pytest.raises(KeyboardInterrupt), interrupts_held():
        os.kill(os.getpid(), signal.SIGINT)
        raise SystemError("<built-in function initialize> returned a result with an exception set")
    with pytest.raises(SystemError, match="no Ctrl-C: the error is the error"), interrupts_held():
        raise SystemError("no Ctrl-C: the error is the error")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    # Ctrl-C ignored (a job started with &) stays ignored, and the block's error stays its own: it was
    # swallowed after an ignored SIGINT, and the block went on as if it had ended well.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with pytest.raises(SystemError, match="the error is the error"), interrupts_held() as held:
            os.kill(os.getpid(), signal.SIGINT)
            held.check()
            raise SystemError("the error is the error")
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.mark.parametrize("backend, text", [
    ("clingo", '#include "mastermind.lp".\n#program base.\n:- secret(1,C).\n'),
    ("swipl", ":- module(none, [secret/2]).\n:- reexport(mmlogic(mastermind), except([secret/2])).\n"
              "secret(_, _) :- fail.\n"),
])
def test_an_encoding_that_admits_no_code_is_named_not_the_history(run, tmp_path, backend, text):
    # It named entry 1 "impossible on its own", or "entries  ()" past 12 entries.
    path = tmp_path / ("none.lp" if backend == "clingo" else "none.pl")
    path.write_text(text)
    many = ["0005:1,0", "0250:1,1", "0531:1,2", "1212:0,2", "1453:1,1", "2134:1,2", "2415:0,2", "3100:1,2",
            "3341:0,2", "4022:1,1", "4303:1,1", "4544:0,0", "5225:1,0"]
    for command in (["next", "0011:1,0"], ["next", *many], ["solve"], ["bench", "--all"], ["bench", "--games", 3]):
        one_line_error(run(command[0], "--backend", backend, "--encoding", path, "--strategy", "first", *command[1:]),
                       3, f"no code of 4x6 exists under the encoding {path.name}", stdout="")


def test_clingos_notes_on_an_edited_encoding_are_shown(run, tmp_path):
    # A typo (secrt) silently turned the constraint off: clingo says so only as information.
    path = tmp_path / "typo.lp"
    path.write_text('#include "mastermind.lp".\n#program base.\n:- secrt(P,C), secrt(P+1,C).\n')
    result = run("next", "--encoding", path, "--json", "0011:1,0")
    assert (result.exit_code, result.stdout) == (0, '{"guess": "0233", "consistent": 256}\n')
    assert result.stderr == (f"note: {path}:3:4-14: info: atom does not occur in any rule head: secrt(P,C)\n"
                             f"note: {path}:3:16-28: info: atom does not occur in any rule head: secrt((P+1),C)\n")
    shipped = run("next", "--encoding", ROOT / "examples" / "palindrome.lp", "0011:1,1")
    assert shipped.exit_code == 0 and shipped.stderr == ""
