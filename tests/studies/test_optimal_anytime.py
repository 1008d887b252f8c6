"""mmlogic optimal --anytime: a heuristic's tree improved toward the optimum, checked against what it claims.

Every figure the run reports is recomputed apart: the tree it writes is played over every secret by
bench (python, clingo), each exact set's optimum is the exact search's without a budget, the
look-ahead's chosen guess is the cheapest of the guesses it names, and a run stopped halfway and
resumed from its journal ends where one run without a stop ends.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time

import pytest

from mm_logic.optimal.anytime import Anytime
from mm_logic.optimal.anytime_journal import AnytimeJournal
from mm_logic.optimal.searcher import Searcher
from mm_logic.rules import Rules
from mm_logic.strategies.tree import StrategyTree
from mm_logic.support.errors import BadInput
from mm_logic.support.interrupts import wrapped_interrupt

from conftest import MMLOGIC, one_line_error

RULES = Rules(4, 6)
#: The optimum of 4x6 (Koyama and Lai's 5,625).
OPTIMUM_4X6 = 5625


def improve(folder, **options) -> tuple:
    """An anytime run on 4x6 with its journal and tree in ``folder``."""
    folder.mkdir(exist_ok=True)
    journal, tree = folder / "run.jsonl", folder / "tree.json"
    result = Anytime(RULES, journal=journal, save_tree=tree, bits=20, **options).run()
    return result, journal, tree


def lines(journal) -> list[dict]:
    return [json.loads(line) for line in journal.read_text().splitlines()]


def part_at(searcher: Searcher, at: list[str]) -> tuple[list[int], object]:
    """The guesses of a journal line's history and the codes consistent with it, read apart from the run."""
    history, part = [], searcher.root
    for entry in at:
        guess, fb = entry.split(":")
        index = int(searcher.space.index_of([tuple(map(int, guess))])[0])
        told = searcher.feedback.index(tuple(int(n) for n in fb.split(",")), RULES.pegs)
        history.append(index)
        part = part[searcher.table[index, part] == told]
    return history, part


def test_everything_searched_exactly_is_the_optimum(tmp_path):
    result, _, _ = improve(tmp_path, exact_below=RULES.size)
    assert (result.total, result.finished, result.exact_sets, result.improved_sets) == (OPTIMUM_4X6, True, 1, 1)
    assert result.tree.figures().total == OPTIMUM_4X6


def test_small_sets_exact_and_look_ahead_above(tmp_path, run):
    result, journal, tree = improve(tmp_path, exact_below=50, candidates=4)
    assert OPTIMUM_4X6 <= result.total < result.heuristic_total
    assert result.finished and result.open_sets == 0 and result.expanded_sets >= 1
    # The tree file plays every secret in exactly the total claimed, on two engines.
    for backend in ("python", "clingo"):
        played = run("bench", "--backend", backend, "--strategy", f"tree:{tree}", "--all", "--json")
        assert played.exit_code == 0, played.output
        assert json.loads(played.stdout)["total_guesses"] == result.total
    # Each exact set's optimum is the exact search's own, searched again without a budget; each guess chosen by
    # look-ahead costs what its parts' values say.
    searcher = Searcher(RULES, bits=20)
    decided = [line for line in lines(journal)[1:] if "optimum" in line]
    chosen = [line for line in lines(journal)[1:] if "guess" in line]
    assert (len(decided), len(chosen)) == (result.exact_sets, result.expanded_sets)
    for line in decided:
        history, part = part_at(searcher, line["at"])
        assert line["optimum"] == min(line["heuristic"], searcher.cost(part, history, None, searcher.k.INF))
    for line in chosen:
        _, part = part_at(searcher, line["at"])
        assert line["value"] == part.size + sum(line["parts"])


def test_a_stopped_run_resumes_to_the_same_tree(tmp_path):
    whole, whole_journal, whole_tree = improve(tmp_path / "whole", exact_below=50, candidates=4)
    calls = []

    def stop_after_some(text: str) -> None:
        calls.append(text)
        if len(calls) == 25:
            raise KeyboardInterrupt

    stopped, journal, tree = improve(tmp_path / "stopped", exact_below=50, candidates=4, progress=stop_after_some)
    assert not stopped.finished and stopped.open_sets > 0
    assert whole.total <= stopped.total <= stopped.heuristic_total
    assert stopped.tree.figures().total == stopped.total  # the best tree so far, written
    written = len(lines(journal))
    again, _, tree = improve(tmp_path / "stopped", exact_below=50, candidates=4)
    assert (again.total, again.finished) == (whole.total, True)
    assert tree.read_text() == whole_tree.read_text()
    assert len(lines(whole_journal)) == len(lines(journal)) > written


def test_another_runs_journal_is_refused_untouched(tmp_path, run):
    _, journal, _ = improve(tmp_path, exact_below=50, candidates=4)
    before = journal.read_bytes()
    result = run("optimal", "--anytime", "--exact-below", "60", "--look-ahead", "4", "--journal", journal)
    one_line_error(result, 2, f"--journal {journal} is the journal of another run: its exact_below is 50, this "
                              "run's 60; the file is left as it is")
    assert journal.read_bytes() == before


@pytest.mark.parametrize("change, said", [({"version": True}, "its version is true, this run's 1"),
                                           ({"version": 1.0}, "its version is 1.0, this run's 1"),
                                           ({"exact_below": 50.0}, "its exact_below is 50.0, this run's 50")],
                         ids=["version-true", "version-1.0", "bound-50.0"])
def test_a_header_with_a_value_of_another_type_is_another_run(tmp_path, run, change, said):
    # "version": true and 1.0 were read as version 1 (Python's == takes them for 1).
    _, journal, _ = improve(tmp_path, exact_below=50, candidates=4)
    head, *rest = journal.read_text().splitlines(keepends=True)
    journal.write_text(json.dumps({**json.loads(head), **change}) + "\n" + "".join(rest))
    before = journal.read_bytes()
    result = run("optimal", "--anytime", "--exact-below", "50", "--look-ahead", "4", "--journal", journal)
    assert (result.exit_code, result.stdout) == (2, "")
    # The values that differ, as JSON writes them: both runs were described alike ("opening None").
    one_line_error(result, 2, f"--journal {journal} is the journal of another run: {said}; the file is left as it is",
                   stdout="")
    assert journal.read_bytes() == before


@pytest.mark.parametrize("made, resumed, said", [
    (["--alphabet", "edcba"], [], "its alphabet is edcba, this run's none"),
    (["--alphabet", "abcde"], [], "its alphabet is abcde, this run's none"),
    ([], ["--alphabet", "abcde"], "its alphabet is none, this run's abcde"),
], ids=["edcba-then-default", "abcde-then-default", "default-then-abcde"])
def test_a_journal_of_another_alphabet_says_so(tmp_path, run, made, resumed, said):
    # Its lines write codes with the alphabet, which its first line did not name: resumed under another, a line
    # named "no set of the game", or did "not match its set" as if edited by hand (the fifth audit).
    journal = tmp_path / "run.jsonl"
    args = ["optimal", "--anytime", "--pegs", 4, "--colors", 5, "--exact-below", 20, "--look-ahead", 2,
            "--journal", journal]
    assert run(*args, *made).exit_code == 0
    before = journal.read_bytes()
    one_line_error(run(*args, *resumed), 2,
                   f"--journal {journal} is the journal of another run: {said}; the file is left as it is", stdout="")
    assert journal.read_bytes() == before


NOT_WITH = ("does not apply with --anytime: one process improves the expected case of the game's own codes under a "
            "built-in rule")


@pytest.mark.parametrize(("args", "message"), [
    (["--look-ahead", "3"], "--look-ahead applies with --anytime"),
    (["--exact-below", "30"], "--exact-below applies with --anytime"),
    (["--anytime", "--jobs", "2"], f"--jobs {NOT_WITH}"),
    (["--anytime", "--objective", "worst"], f"--objective {NOT_WITH}"),
    (["--anytime", "--encoding", "examples/palindrome.lp"], f"--encoding {NOT_WITH}"),
])
def test_what_does_not_apply_is_refused(run, args, message):
    one_line_error(run("optimal", *args), 2, message, stdout="")


def test_the_command_prints_its_figures(run):
    args = ("optimal", "--anytime", "--pegs", "3", "--colors", "4", "--exact-below", "10", "--look-ahead", "2")
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["finished"] and data["total"] <= data["heuristic_total"] and data["open_sets"] == 0
    assert f"total         {data['total']:,} guesses over 64 secrets (mean {data['total'] / 64:.4f})" \
        in run(*args).stdout


# -- the journal, edited or cut -------------------------------------------------------------------
@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished run's journal (read-only: each test edits a copy) and its total."""
    result, journal, _ = improve(tmp_path_factory.mktemp("finished"), exact_below=50, candidates=4)
    return journal.read_text(), result.total


def edited(tmp_path, text: str, kind: str, change) -> tuple:
    """The journal with the first line of ``kind`` changed by ``change`` (a dict in place); its line number."""
    rows = text.splitlines()
    number = next(n for n, row in enumerate(rows[1:], 2) if kind in json.loads(row))
    entry = json.loads(rows[number - 1])
    change(entry)
    rows[number - 1] = json.dumps(entry)
    journal = tmp_path / "run.jsonl"
    journal.write_text("\n".join(rows) + "\n")
    return journal, number


def refused(tmp_path, journal, number: int, why: str) -> None:
    before = journal.read_bytes()
    with pytest.raises(BadInput) as error:
        Anytime(RULES, journal=journal, exact_below=50, candidates=4, bits=20).run()
    assert str(error.value) == f"--journal {journal}: line {number} {why}; the journal is left as it is"
    assert journal.read_bytes() == before


@pytest.mark.parametrize(("kind", "change", "why"), [
    ("optimum", lambda e: e.update(optimum=True), "has a figure that is not a positive whole number"),
    ("optimum", lambda e: e.update(optimum=-3), "has a figure that is not a positive whole number"),
    ("optimum", lambda e: e.update(optimum=2.5), "has a figure that is not a positive whole number"),
    ("optimum", lambda e: e.update(optimum=e["heuristic"] + 1), "has an optimum above the heuristic's cost"),
    ("optimum", lambda e: e.update(seconds=float("nan")), "is not JSON"),
    ("optimum", lambda e: e.update(seconds="soon"), "has seconds that are not a number of seconds"),
    ("optimum", lambda e: e.update(at=["0123:9,9"]),
     "names no set of the game (feedback 9,9 in '0123:9,9': black + white exceeds the 4 pegs)"),
    ("optimum", lambda e: e.update(extra=1), "is not a decision of an anytime search (its keys)"),
    ("guess", lambda e: e.update(guess="0129"),
     "names no set of the game (symbol '9' in code '0129' is not one of the 6 colours 012345)"),
    ("guess", lambda e: e.update(parts=[]), "has a figure that is not a positive whole number"),
    ("stopped", lambda e: e.update(stopped=-1), "has seconds that are not a number of seconds"),
])
def test_a_line_of_the_wrong_form_is_refused(tmp_path, finished, kind, change, why):
    text = finished[0]
    if kind == "stopped":
        text += json.dumps({"at": ["0012:0,0"], "stopped": 1.0}) + "\n"
    journal, number = edited(tmp_path, text, kind, change)
    refused(tmp_path, journal, number, why)


def test_a_figure_that_does_not_match_its_set_is_refused(tmp_path, finished):
    journal, number = edited(tmp_path, finished[0], "guess", lambda e: e.update(value=e["value"] - 1))
    refused(tmp_path, journal, number, "does not match its set: the heuristic's parts after 0012 cost 5,680 in "
                                       "all, the line says 5,679")


#: A journal's first two lines on 4x6 (exact below 50, four guesses looked ahead): the header, the opening's
#: decision with the heuristic's cost of each of its parts.
HEADER = {"kind": "mmlogic optimal --anytime", "version": 1, "rules": RULES.as_dict(), "heuristic": "entropy",
          "opening": None, "exact_below": 50, "candidates": 4}
OPENING = {"at": [], "guess": "0012", "parts": [979, 806, 781, 634, 344, 267, 250, 130, 117, 56, 10, 7, 3],
           "value": 5680, "seconds": 0.1}
#: The heuristic's parts as a refusal quotes them (cut short as long values are).
PARTS = "[979, 806, 781, 634, 344, 267, 250, 130,... (59 characters)"


@pytest.mark.parametrize(("parts", "said"), [
    ([10**30], "[1000000000000000000000000000000] (13 parts, not 1)"),
    ([980, 805, *OPENING["parts"][2:]], "[980, 805, 781, 634, 344, 267, 250, 130,... (59 characters) (part 1 costs "
                                         "979, not 980)"),
    ([*OPENING["parts"], 1], "[979, 806, 781, 634, 344, 267, 250, 130,... (62 characters) (13 parts, not 14)"),
    ([*OPENING["parts"][:12], 10**60], "[979, 806, 781, 634, 344, 267, 250, 130,... (119 characters) (part 13 costs "
                                       "3, not a number of 61 digits)"),
], ids=["one-huge", "two-swapped", "one-more", "last-huge"])
def test_parts_that_do_not_match_the_heuristics_say_which(tmp_path, run, parts, said):
    journal = tmp_path / "run.jsonl"
    journal.write_text(json.dumps(HEADER) + "\n" + json.dumps({**OPENING, "parts": parts}) + "\n")
    before = journal.read_bytes()
    result = run("optimal", "--anytime", "--exact-below", "50", "--look-ahead", "4", "--journal", journal)
    one_line_error(result, 2, f"--journal {journal}: line 2 does not match its set: the heuristic's parts after "
                              f"0012 are {PARTS}, the line says {said}; the journal is left as it is", stdout="")
    assert journal.read_bytes() == before


#: The opening's line with a figure of more digits than int() reads, and why it is refused.
UNREADABLE = (json.dumps(OPENING).replace("5680", "9" * 5000),
              f"has '{'9' * 40}'... (5,000 characters), a number too long to read (more than 4,300 digits)")


@pytest.mark.parametrize(("rest", "why"), [
    ("\n" + json.dumps(OPENING) + "\n", "is blank"),
    ("  \n" + json.dumps(OPENING) + "\n", "is blank"),
    (UNREADABLE[0] + "\n", UNREADABLE[1]),
    # Without its end of line, yet whole: no kill cut it short (one that had is dropped).
    (UNREADABLE[0], UNREADABLE[1]),
], ids=["blank", "spaces", "huge-number", "huge-number-last-without-end"])
def test_a_line_that_is_no_json_says_why(tmp_path, run, rest, why):
    # Each was "line 2 is not JSON" (the last one dropped as cut short, and the run went on without it).
    journal = tmp_path / "run.jsonl"
    journal.write_text(json.dumps(HEADER) + "\n" + rest)
    before = journal.read_bytes()
    result = run("optimal", "--anytime", "--exact-below", "50", "--look-ahead", "4", "--journal", journal)
    one_line_error(result, 2, f"--journal {journal}: line 2 {why}; the journal is left as it is", stdout="")
    assert journal.read_bytes() == before


@pytest.mark.parametrize("step", [-1, 1])
def test_an_optimum_edited_is_found_when_the_tree_is_written(tmp_path, finished, step):
    rows = finished[0].splitlines()
    # An improved set (its optimum below the heuristic's): its subtree is searched again when written.
    number = next(n for n, row in enumerate(rows[1:], 2)
                  if "optimum" in (e := json.loads(row)) and e["optimum"] < e["heuristic"] - 1)
    entry = json.loads(rows[number - 1])
    true = entry["optimum"]
    entry["optimum"] = true + step
    rows[number - 1] = json.dumps(entry)
    journal = tmp_path / "run.jsonl"
    journal.write_text("\n".join(rows) + "\n")
    said = f"no less than {true:,}" if step < 0 else f"{true:,}"
    refused(tmp_path, journal, number, f"does not match its set: its least total is {said}, the line says "
                                       f"{true + step:,}")


def test_a_line_twice_and_a_line_not_json_are_refused(tmp_path, finished):
    rows = finished[0].splitlines()
    journal = tmp_path / "run.jsonl"
    journal.write_text("\n".join([*rows, rows[3]]) + "\n")
    refused(tmp_path, journal, len(rows) + 1, "decides again the set of line 4")
    journal.write_text("\n".join([*rows[:3], "{not json", *rows[3:]]) + "\n")
    refused(tmp_path, journal, 4, "is not JSON")


def test_a_last_line_cut_short_is_dropped_and_the_run_ends_as_one_run(tmp_path, finished):
    text, total = finished
    journal = tmp_path / "run.jsonl"
    journal.write_text(text[: len(text) - 20])  # killed while writing the last line
    result = Anytime(RULES, journal=journal, exact_below=50, candidates=4, bits=20).run()
    assert result.total == total and journal.read_text() == text


def test_a_journal_another_run_holds_is_refused(tmp_path, run):
    journal = tmp_path / "run.jsonl"
    holder = AnytimeJournal(journal, RULES, {"heuristic": "entropy", "opening": None, "exact_below": 50,
                                             "candidates": 4})
    try:
        result = run("optimal", "--anytime", "--exact-below", "50", "--look-ahead", "4", "--journal", journal)
        one_line_error(result, 2, f"--journal {journal} is being written by another optimal --anytime, still "
                                  "running; wait for it to end (the same command then runs what it left), or name "
                                  "another file", stdout="")
    finally:
        holder.close()


# -- files that are no journal, and two options on one file ----------------------------------------------
@pytest.mark.parametrize(("text", "why"), [
    (b"my notes\nimportant unterminated line", "line 1 is not JSON; the journal is left as it is"),
    (b'{"a": 1}\n{"b": 2}', "is not the journal of an anytime search (its first line); the file is left as it "
                             "is: name another file"),
    (b"\xff\xfe\n", "not text"),
])
def test_a_file_that_is_no_journal_is_refused_untouched(tmp_path, run, text, why):
    journal = tmp_path / "notes.txt"
    journal.write_bytes(text)
    result = run("optimal", "--anytime", "--pegs", "3", "--colors", "3", "--journal", journal)
    message = f"cannot read --journal {journal}: not text" if why == "not text" else \
        f"--journal {journal}: {why}" if why.startswith("line") else f"--journal {journal} {why}"
    one_line_error(result, 2, message, stdout="")
    assert journal.read_bytes() == text


def test_the_journal_of_other_rules_says_both(tmp_path, run):
    journal = tmp_path / "run.jsonl"
    assert run("optimal", "--anytime", "--pegs", "3", "--colors", "3", "--journal", journal).exit_code == 0
    before = journal.read_bytes()
    one_line_error(run("optimal", "--anytime", "--pegs", "3", "--colors", "4", "--journal", journal), 2,
                   f"--journal {journal} is the journal of an anytime search of 3x3, not of 3x4", stdout="")
    assert journal.read_bytes() == before


@pytest.mark.parametrize("anytime", [[], ["--anytime"]])
def test_a_journal_and_a_tree_on_one_file_are_refused(tmp_path, run, anytime):
    same = tmp_path / "same.json"
    one_line_error(run("optimal", *anytime, "--pegs", "3", "--colors", "3", "--journal", same, "--save-tree", same),
                   2, f"--journal and --save-tree name the same file, {same}", stdout="")
    assert not same.exists()


def test_seconds_beyond_a_year_are_refused(tmp_path, finished):
    journal, number = edited(tmp_path, finished[0], "optimum", lambda e: e.update(seconds=10**400))
    refused(tmp_path, journal, number, "has seconds that are not a number of seconds")


@pytest.mark.slow  # 5x6 until its journal holds a part searched, then the best tree written: 8 s
def test_ctrl_c_in_the_heuristics_kernel_stops_with_the_best_tree(tmp_path):
    # On 5x6 the signal lands in the heuristic's compiled walk, whose numba callback wraps it twice: it ended in
    # "internal failure: SystemError" with no tree written.
    process = subprocess.Popen([MMLOGIC, "optimal", "--anytime", "--pegs", "5", "--colors", "6", "--journal",
                                "run.jsonl", "--save-tree", "tree.json"], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    journal, deadline = tmp_path / "run.jsonl", time.monotonic() + 120
    try:
        # A fixed wait was not enough on a fresh clone: numba compiling its kernels took the 6 s, no tree existed yet.
        # Once the journal holds the root and a part searched, the heuristic's tree exists and the search goes on.
        while not journal.exists() or journal.read_text().count("\n") < 3:
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.1)
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert (process.returncode, err) == (130, "interrupted\n"), err
    assert "stopped       the best tree so far, not the optimum" in out
    total = int(re.search(r"total\s+([\d,]+) guesses", out)[1].replace(",", ""))
    # The best tree so far, written: its games take the total said.
    assert StrategyTree.load(tmp_path / "tree.json").figures().total == total


def test_a_kernel_wraps_ctrl_c_twice():
    inner = SystemError("unpickle")
    inner.__cause__ = KeyboardInterrupt()
    outer = SystemError("scoring_tree")
    outer.__cause__ = inner
    assert wrapped_interrupt(outer) and not wrapped_interrupt(SystemError("other"))
