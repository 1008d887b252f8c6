"""mmlogic optimal --split-above: a large part searched as one task per guess at it, in worker processes or on a
Dask cluster, finds what one process does (the same total, histogram and opening), its tree plays every
secret to that total, and a journal of its guesses cut anywhere resumes to the same result."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_optimal import check_tree

from mm_logic.optimal.objectives import openings, optimal, split_threshold
from mm_logic.optimal.searcher import Searcher
from mm_logic.optimal.tasks import guess_cost, guess_solvable
from mm_logic.rules import Rules


def strategy(result) -> tuple:
    return result.total, dict(result.histogram), result.opening, result.impossible_depth


#: (rules, options, objective, its total, worst case): small games whose parts of more than 2 codes are split.
CASES = [
    (Rules(3, 4), {}, "expected", 206, 4),
    (Rules(4, 4, max_repeat=1), {}, "expected", 86, 6),
    (Rules(3, 3), {}, "worst", 73, 4),
    (Rules(3, 3, feedback="black"), {}, "expected", 95, 5),
    (Rules(3, 4, feedback="positional"), {}, "expected", 170, 4),
    (Rules(3, 4), {"consistent_only": True}, "expected", 206, 4),
    (Rules(3, 4), {"max_depth": 4}, "expected", 206, 4),
    (Rules(3, 4), {}, "worst-case", 208, 4),
]


@pytest.mark.parametrize("rules, options, objective, total, worst", CASES)
def test_split_parts_in_processes_find_what_one_process_does(rules, options, objective, total, worst):
    alone = optimal(rules, objective, **options)
    # Parts of 3 codes and more (the smallest searched: 2 codes cost their bound).
    split = optimal(rules, objective, jobs=2, split_above=2, **options)
    assert (split.total, split.worst) == (alone.total, alone.worst) == (total, worst)
    assert strategy(split) == strategy(alone)
    assert split.split_above == 2 and split.split_parts > 0 and split.guess_tasks > 0
    check_tree(split)


def test_the_guesses_of_a_part_are_the_kernels():
    """At every part of 3x4's openings, the least guess cost is the kernel's cost of the part, and the first guess
    to reach it is the kernel's; each guess's feasibility agrees with the kernel's at its parts."""
    searcher = Searcher(Rules(3, 4))
    checked = 0
    for opening in openings(searcher, None):
        for _, part in opening.parts:
            if part.size <= 3:
                continue
            guesses = openings(searcher, None, part, (opening.index,))
            costs = [guess_cost(searcher, part, [opening.index], g.index, None, searcher.k.INF)[0] for g in guesses]
            assert all(g.bound <= c for g, c in zip(guesses, costs))
            assert [g.bound for g in guesses] == sorted(g.bound for g in guesses) or part.size <= 40
            least = min(costs)
            assert least == searcher.cost(part, [opening.index], None, searcher.k.INF)
            kernel = searcher.subtree(part, [opening.index], None).guess
            assert searcher.code(guesses[costs.index(least)].index) == kernel
            solvable = any(guess_solvable(searcher, part, [opening.index], g.index, 3)
                           for g in openings(searcher, 3, part, (opening.index,), worst=True))
            assert solvable == searcher.can_solve(part, [opening.index], 3)
            checked += 1
    assert checked == 14


def test_the_default_threshold_is_a_tenth_of_the_codes_with_workers():
    assert (split_threshold(2401, 2), split_threshold(32768, 8), split_threshold(1296, 1)) == (240, 3276, None)
    assert optimal(Rules(3, 4), jobs=2).split_above == 6
    assert optimal(Rules(3, 4)).split_above is None


# -- the journal of the guesses ------------------------------------------------------------------------
@pytest.mark.parametrize("kept", [0, 3, 8, 20])
def test_a_split_search_cut_short_resumes_to_the_same_result(tmp_path, kept):
    whole = tmp_path / "whole.jsonl"
    first = optimal(Rules(3, 4), "expected", jobs=2, split_above=3, journal=whole)
    lines = whole.read_text().splitlines(keepends=True)
    assert json.loads(lines[0])["version"] == 2
    guesses = [entry for entry in map(json.loads, lines[1:]) if "guess" in entry]
    assert guesses and all({"opening", "feedback", "guess", "depth", "budget", "value"} <= set(g) for g in guesses)
    assert len(lines) > 1 + kept + 1
    # Killed after `kept` lines, in the middle of writing the next one.
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:1 + kept]) + lines[1 + kept][:30])
    resumed = optimal(Rules(3, 4), "expected", jobs=2, split_above=3, journal=cut)
    assert strategy(resumed) == strategy(first) == strategy(optimal(Rules(3, 4)))
    assert resumed.journal_read == kept
    check_tree(resumed)
    # The journal now settles everything, in one process too.
    again = optimal(Rules(3, 4), "expected", journal=cut)
    assert strategy(again) == strategy(first) and again.positions == 0


def test_the_worst_objective_keeps_its_guesses_and_reads_them_again(tmp_path):
    journal = tmp_path / "worst.jsonl"
    first = optimal(Rules(3, 3), "worst-case", jobs=2, split_above=3, journal=journal)
    lines = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    assert any("guess" in line and "within" in line for line in lines)
    again = optimal(Rules(3, 3), "worst-case", jobs=2, split_above=3, journal=journal)
    assert strategy(again) == strategy(first) and again.guess_tasks == 0 and again.journal_written == 0


def test_a_version_1_journal_is_read(tmp_path):
    journal = tmp_path / "old.jsonl"
    optimal(Rules(3, 3), "expected", journal=journal)
    lines = journal.read_text().splitlines(keepends=True)
    head = json.loads(lines[0])
    journal.write_text(json.dumps({**head, "version": 1}) + "\n" + "".join(lines[1:]))
    again = optimal(Rules(3, 3), "expected", journal=journal)
    assert again.total == 73 and again.journal_read == len(lines) - 1 and again.positions == 0


# -- on a Dask cluster ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each, closed after the module."""
    import distributed
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as c:
        yield c


@pytest.mark.parametrize("objective, options", [("expected", {}), ("worst", {}), ("expected", {"max_depth": 4})])
def test_a_two_worker_cluster_splits_parts_and_finds_what_one_process_does(cluster, objective, options):
    import distributed
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        split = optimal(Rules(3, 4), objective, client=client, split_above=3, **options)
    assert strategy(split) == strategy(optimal(Rules(3, 4), objective, **options))
    assert split.total == 206 and split.jobs == 2 and split.guess_tasks > 0
    check_tree(split)


def test_a_cluster_split_search_cut_short_resumes_on_the_cluster_or_here(cluster, tmp_path):
    import distributed
    whole = tmp_path / "cluster.jsonl"
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        first = optimal(Rules(3, 4), "worst", client=client, split_above=3, journal=whole)
        lines = whole.read_text().splitlines(keepends=True)
        assert any("guess" in json.loads(line) for line in lines[1:])
        cut = tmp_path / "cut.jsonl"
        cut.write_text("".join(lines[:6]) + lines[6][:40])
        resumed = optimal(Rules(3, 4), "worst", client=client, split_above=3, journal=cut)
    assert strategy(resumed) == strategy(first) == (206, {1: 1, 2: 7, 3: 33, 4: 23}, (0, 0, 1), 3)
    assert resumed.journal_read == 5
    here = optimal(Rules(3, 4), "worst", journal=cut)
    assert strategy(here) == strategy(first) and here.positions == 0


def test_cli_split_above(run, cluster):
    data = json.loads(run("optimal", "--pegs", 3, "--colors", 4, "--executor", "dask", "--scheduler",
                          cluster.scheduler_address, "--split-above", 3, "--json").stdout)
    assert (data["total_guesses"], data["split"]["above"]) == (206, 3) and data["split"]["guess_tasks"] > 0
    assert json.loads(run("optimal", "--pegs", 3, "--colors", 3, "--json").stdout)["split"] is None
    text = run("optimal", "--pegs", 3, "--colors", 4, "--jobs", 2, "--split-above", 3).stdout
    assert "split      parts above 3 codes searched guess by guess: " in text


@pytest.mark.parametrize("args, message", [
    (["--split-above", "0"], "Invalid value for '--split-above': 0 is not in the range x>=1."),
    (["--split-above", "many"], "Invalid value for '--split-above': 'many' is not a valid integer."),
    (["--split-above", "10"], "--split-above applies with workers (--jobs 2 or more, or --executor dask): one "
     "process searches every part whole"),
])
def test_cli_split_above_refusals_are_one_line(run, args, message):
    result = run("optimal", "--pegs", 3, "--colors", 3, *args)
    assert (result.exit_code, result.stderr) == (2, f"error: {message}\n")


def test_guess_order_ties_go_to_the_first_searched():
    """A part whose guesses cost the same: the split search keeps the first, as the kernel does."""
    searcher = Searcher(Rules(3, 3))
    everything = np.arange(searcher.size, dtype=np.int32)
    guesses = openings(searcher, None, everything, ())
    costs = [guess_cost(searcher, everything, [], g.index, None, searcher.k.INF)[0] for g in guesses]
    assert min(costs) == searcher.cost(everything, [], None, searcher.k.INF) == 73
    assert searcher.code(guesses[costs.index(73)].index) == searcher.subtree(everything, [], None).guess
