"""``py/experiments/worst_case_check.py``: the exhaustive check of the least worst case, written apart from the
package's search, against a brute force of its own, known values and the package's answer on small games."""

from __future__ import annotations

import functools
import itertools
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from mm_logic.optimal.objectives import optimal
from mm_logic.rules import Rules

from conftest import py_path, py_script

SCRIPT = py_path("worst_case_check")
check = py_script("worst_case_check")


def script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def scalar_feedback(guess, secret) -> tuple[int, int]:
    """(black, white), one pair at a time, as the rules say."""
    black = sum(g == s for g, s in zip(guess, secret))
    common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return black, common - black


@pytest.mark.parametrize(("pegs", "colors"), [(1, 3), (2, 5), (3, 4), (4, 5)])
def test_the_feedback_table_is_black_and_white_of_every_pair(pegs, colors):
    codes = check.all_codes(pegs, colors)
    table = check.feedback_table(codes, colors, chunk=7)  # chunks that do not divide the codes
    assert [tuple(code) for code in codes.tolist()] == list(itertools.product(range(colors), repeat=pegs))
    expected = [[(lambda b, w: b * (pegs + 1) + w)(*scalar_feedback(g, s)) for s in codes.tolist()]
                for g in codes.tolist()]
    assert table.tolist() == expected
    assert all(check.code_index(code, colors) == i for i, code in enumerate(codes.tolist()))


def test_the_feedbacks_and_the_capacities():
    # 4 pegs: 15 pairs b + w <= 4, less (4, 0) and (3, 1); 5 pegs: 21 less 2.
    assert (check.non_winning_feedbacks(4), check.non_winning_feedbacks(5)) == (13, 19)
    assert check.capacities(4, 4) == [0, 1, 14, 183, 2380]
    # Every pair that occurs is counted (4x6: every feedback but the win, 13 of them).
    codes = check.all_codes(4, 6)
    occurring = set(np.unique(check.feedback_table(codes, 6)).tolist()) - {4 * 5}
    assert len(occurring) == 13


def test_one_opening_per_partition_of_the_pegs():
    assert [check.code_text(c) for c in check.opening_representatives(5, 6)] == [
        "00000", "00001", "00011", "00012", "00112", "00123", "01234"]
    assert [check.code_text(c) for c in check.opening_representatives(4, 3)] == ["0000", "0001", "0011", "0012"]
    assert [check.code_text(c) for c in check.opening_representatives(3, 8)] == ["000", "001", "012"]


def brute_least_worst_case(pegs: int, colors: int) -> int:
    """The least D such that some strategy finds every code within D guesses: every guess tried at every
    node, no bound, no symmetry, nothing of the script but the rules."""
    codes = list(itertools.product(range(colors), repeat=pegs))

    @functools.cache
    def within(members: tuple[int, ...], depth: int) -> bool:
        if not members:
            return True
        if depth == 0:
            return False
        for guess in codes:
            parts: dict = {}
            for s in members:
                answer = scalar_feedback(guess, codes[s])
                if answer != (pegs, 0):
                    parts.setdefault(answer, []).append(s)
            if all(within(tuple(part), depth - 1) for part in parts.values()):
                return True
        return False

    everything = tuple(range(len(codes)))
    return next(depth for depth in itertools.count(1) if within(everything, depth))


def checker_least_worst_case(pegs: int, colors: int) -> tuple[int, int]:
    """The least D by the script's root (one opening per partition) and by within() on every code."""
    checker = check.Checker(pegs, colors, 8)
    everything = np.arange(colors ** pegs, dtype=np.int64)
    by_openings = next(d for d in itertools.count(1)
                       if any(checker.opening(code, d) is None for code in check.opening_representatives(pegs, colors)))
    plain = next(d for d in itertools.count(1) if checker.within(everything, d))
    return by_openings, plain


@pytest.mark.parametrize(("pegs", "colors"), [(1, 1), (1, 4), (2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (2, 5)])
def test_the_least_worst_case_equals_a_brute_force(pegs, colors):
    least = brute_least_worst_case(pegs, colors)
    assert checker_least_worst_case(pegs, colors) == (least, least)


@pytest.mark.parametrize(("pegs", "colors", "worst"), [(3, 3, 4), (2, 6, 5), (3, 4, 4), (4, 4, 4), (4, 3, 4),
                                                       (3, 5, 5), (4, 5, 5)])
def test_the_least_worst_case_equals_the_packages(pegs, colors, worst):
    assert optimal(Rules(pegs, colors), "worst").worst == worst
    assert checker_least_worst_case(pegs, colors) == (worst, worst)


def test_the_compiled_levels_equal_the_python_level():
    # within(S, 2) and within(S, 3) by the compiled loops, and by the rule of the Python level on the same sets.
    checker = check.Checker(3, 4, 4)
    rng = np.random.default_rng(7)
    outcomes = set()
    for size in (2, 3, 5, 8, 12, 20, 30, 45, 64):
        for _ in range(5):
            members = np.sort(rng.choice(64, size, replace=False)).astype(np.int64)
            for depth in (2, 3):
                compiled = checker.within(members, depth)
                by_rule = any(all(checker.within(part, depth - 1) for _, part in checker.parts(g, members))
                              for g in range(64))
                assert compiled == by_rule, (members.tolist(), depth)
                outcomes.add((depth, compiled))
    assert outcomes == {(2, True), (2, False), (3, True), (3, False)}


@pytest.mark.parametrize(("depth", "last_line"), [
    ("4", "no strategy within 4 guesses: proved"),
    ("5", "a strategy within 5 guesses exists (opening 0001)"),  # Knuth: 4x6 within 5
])
def test_4x6(depth, last_line):
    result = script("--pegs", "4", "--colors", "6", "--depth", depth)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == last_line
    assert [line.split(":")[0] for line in lines[1:-1]] == [f"opening {c}" for c in ("0000", "0001", "0011", "0012",
                                                                                     "0123")]
    if depth == "5":  # AAAA is the one opening that needs 6 (Knuth, 1977)
        assert lines[1].startswith("opening 0000: part 0B0W (625 codes) not solvable within 4 more guesses")
        assert all("every part solvable within 4 more guesses" in line and line.split("; ")[1].startswith(
            "the strategy built, played against all 1,296 secrets: at most 5 guesses") for line in lines[2:-1])


@pytest.mark.slow
def test_one_opening():
    # Two runs of the script, each building 4x6's table and searching one opening: about 6 s.
    result = script("--pegs", "4", "--colors", "6", "--depth", "5", "--opening", "0000")
    assert (result.returncode, result.stdout.splitlines()[-1]) == (0, "no strategy within 5 guesses after opening 0000")
    result = script("--pegs", "4", "--colors", "6", "--depth", "5", "--opening", "1123")
    assert (result.returncode, result.stdout.splitlines()[-1]) == (0, "a strategy within 5 guesses exists (opening "
                                                                      "1123)")


@pytest.mark.parametrize(("args", "last_line"), [
    (["--pegs", "0", "--colors", "6", "--depth", "5"],
     "worst_case_check.py: error: argument --pegs: '0' is not a count (an integer >= 1)"),
    (["--pegs", "4", "--colors", "6"], "worst_case_check.py: error: the following arguments are required: --depth"),
    (["--pegs", "4", "--colors", "11", "--depth", "5"],
     "error: --colors must be at most 10 (a code is written one digit a peg), got 11"),
    (["--pegs", "6", "--colors", "6", "--depth", "5"],
     "error: 6x6 has 46,656 codes; the table is built for at most 16,384"),
    (["--pegs", "4", "--colors", "6", "--depth", "5", "--opening", "0126"],
     "error: --opening '0126' is not a code of 4 digits from 0 to 5"),
    (["--pegs", "4", "--colors", "6", "--depth", "5", "--opening", "012"],
     "error: --opening '012' is not a code of 4 digits from 0 to 5"),
])
def test_bad_arguments_are_one_line_and_exit_2(args, last_line):
    result = script(*args)
    assert (result.returncode, result.stderr.splitlines()[-1:], result.stdout) == (2, [last_line], "")
    assert "Traceback" not in result.stderr
    if last_line.startswith("error: "):
        assert result.stderr == last_line + "\n"


def test_ctrl_c_is_one_line_and_exit_130():
    # 4x7 within 5: a search of several seconds; SIGINT once the first opening is settled.
    child = subprocess.Popen([sys.executable, str(SCRIPT), "--pegs", "4", "--colors", "7", "--depth", "5"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = [child.stdout.readline(), child.stdout.readline()]
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130
    assert err.splitlines()[-1] == "interrupted" and "Traceback" not in err
    assert first[1].startswith("opening 0000: ") and "guesses: proved" not in out


def test_the_strategy_built_finds_every_secret_within_the_depth():
    checker = check.Checker(3, 4, 4)
    working = [code for code in check.opening_representatives(3, 4) if checker.opening(code, 4) is None]
    assert working == [(0, 0, 1), (0, 1, 2)]  # after 000, the 27 codes of 0B0W need 4 more
    assert [checker.verify(code, 4) for code in working] == [4, 4]
    # A strategy is built only where within() says one exists.
    with pytest.raises(AssertionError, match="within"):
        checker.verify((0, 0, 0), 4)
