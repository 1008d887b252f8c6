"""A command's default says at once what it does when it may be long, and how it goes (issue 56, item 8).

Bare ``mmlogic static`` searches 4x6 with clingo, which has not ended in an hour: it says so at once on stderr, how
to bound it, and, off a terminal, writes its progress lines from the start. ``next --diagnose`` is not refused for
the default strategy, which a diagnosis does not play.
"""

from __future__ import annotations

import re
import subprocess
import time

from mm_logic.static import search as static

from conftest import MMLOGIC, one_line_error

#: What bare ``mmlogic static`` says before its search.
NOTE_4X6 = ("note: static asks clingo for 1, 2, ... guesses in turn over the 1,296 codes of 4x6, each number proved "
            "impossible before the next: on this many codes it may take hours (4x5 did not end in 20 minutes, 4x6 in "
            "an hour); bound it with --time-limit SECONDS (what was proved is printed), or find K guesses with "
            "--guesses K --local-search SECONDS (with --prove-exhaustive to prove them optimal)\n")
#: What a search stopped at its limit has proved, the machine's speed deciding how far it got.
SO_FAR = re.compile(r"(nothing proved yet|no \d+ guess(es)? suffice); no guesses found")


def test_bare_static_says_at_once_what_it_searches_then_how_it_goes():
    # Off a terminal (pipes), the default 4x6 with a small limit: the note is the first line, written before the
    # search (the limit's 3 s run after it), then progress lines, then what was proved, exit 1 as at any limit.
    process = subprocess.Popen([MMLOGIC, "static", "--time-limit", "3"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        first = process.stderr.readline()
        said = time.monotonic()
        rest = process.stderr.read()
        out = process.stdout.read()
        process.wait(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    ended = time.monotonic()
    assert first == NOTE_4X6, first + rest
    # Said at once: the search and its 3 s came after (a note written at the end would come within a fraction of
    # a second of it; on a loaded machine this reader may take the line a second late: 2.73 s was seen).
    assert ended - said >= 1.5
    assert process.returncode == 1
    assert SO_FAR.fullmatch(out.rstrip("\n")), out
    lines = rest.splitlines()
    assert lines[0] == "static: reading the answers of 1,296 guesses to 1,296 codes from the rule encodings"
    assert all(line.startswith("static: ") for line in lines[:-1]), rest
    assert lines[-1] == f"error: the time limit of 3 s was reached: {out.rstrip()}"


def test_the_answers_are_read_with_progress_lines(run, monkeypatch):
    # Off a terminal (click's runner): a line every PROGRESS_EVERY seconds while the answers are read, the count
    # of codes read growing.
    monkeypatch.setattr(static, "PROGRESS_EVERY", 0.3)
    result = run("static", "--time-limit", 3)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == NOTE_4X6.rstrip("\n")
    read = [int(m.group(1).replace(",", "")) for line in lines
            if (m := re.fullmatch(r"static: answers read for ([\d,]+) of 1,296 codes \(\d+ s\)", line))]
    assert len(read) >= 2 and read == sorted(read) and read[-1] < 1296, lines


def test_a_search_that_ends_quickly_or_is_bounded_says_nothing_more(run):
    # 2x4 takes a fraction of a second; --guesses K asks one question (the note names it as the way to bound).
    for args in (["--pegs", 2, "--colors", 4], ["--pegs", 2, "--colors", 4, "--guesses", 3, "--local-search", 5]):
        result = run("static", *args)
        assert (result.exit_code, result.stderr) == (0, ""), result.output


# -- next --diagnose ----------------------------------------------------------------------------------------------

#: 8x9 (43,046,721 codes, beyond minimax's 20,000,000): the same code answered 8 black and none.
CONTRADICTION = ["--pegs", 8, "--colors", 9, "01234567:8,0", "01234567:0,0"]


def test_a_diagnosis_does_not_refuse_the_default_strategy_it_does_not_play(run):
    result = run("next", "--diagnose", *CONTRADICTION)
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert result.stdout == ("1 entry must be wrong (no code fits them all): entry 1 01234567:8,0 should be "
                             "01234567:0,0; or entry 2 01234567:0,0 should be 01234567:8,0\n")


def test_a_history_some_code_fits_is_played_by_the_strategy_and_refused_for_it(run):
    # --diagnose on a consistent history gives the next guess: the strategy plays, and refuses the size as without
    # --diagnose; with a strategy that plays any size, the guess.
    refusal = ("--strategy minimax scores guesses against every code and plays at most 20,000,000 codes; 8x9 has "
               "43,046,721: use --strategy first, any, random, any-random-opening or sample-entropy")
    one_line_error(run("next", "--pegs", 8, "--colors", 9, "01234567:0,0"), 2, refusal, stdout="")
    one_line_error(run("next", "--diagnose", "--pegs", 8, "--colors", 9, "01234567:0,0"), 2, refusal, stdout="")
    result = run("next", "--diagnose", "--strategy", "first", "--pegs", 8, "--colors", 9, "01234567:0,0")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert result.stdout.startswith("88888888  (")
