"""mmlogic optimal --journal and --memory: a search resumed from its journal gives the same result, whatever
part of it was lost; the tables fit the memory given, or the game is refused in one line."""

from __future__ import annotations

import json

import pytest

from mm_logic.optimal.objectives import optimal
from mm_logic.optimal.searcher import ENTRY_BYTES, PROCESS_BYTES, table_bits
from mm_logic.rules import Rules
from mm_logic.support.errors import BadInput
from mm_logic.support.memory import memory_text, parse_memory

RULES = Rules(3, 4)


def figures(result) -> tuple:
    return (*strategy(result), [(b.opening, b.cost, b.exact) for b in result.openings])


def strategy(result) -> tuple:
    """What every way of searching finds alike (the bounds proved of the other openings depend on the order
    the parts were searched in: in workers, they are searched against the best's cost)."""
    return result.total, dict(result.histogram), result.opening, result.impossible_depth


@pytest.mark.parametrize("objective", ["expected", "worst"])
def test_a_second_run_reads_every_part_and_searches_nothing(tmp_path, objective):
    journal = tmp_path / "search.jsonl"
    first = optimal(RULES, objective, journal=journal)
    assert first.journal_read == 0 and first.journal_written == len(journal.read_text().splitlines()) - 1 > 0
    again = optimal(RULES, objective, journal=journal)
    assert figures(again) == figures(first)
    assert (again.journal_read, again.journal_written, again.positions) == (first.journal_written, 0, 0)
    plain = optimal(RULES, objective)
    assert figures(plain) == figures(first)


@pytest.mark.parametrize("kept", [0, 1, 3, 7])
def test_a_search_cut_short_resumes_to_the_same_result(tmp_path, kept):
    whole = tmp_path / "whole.jsonl"
    first = optimal(RULES, "expected", journal=whole)
    lines = whole.read_text().splitlines(keepends=True)
    # Killed after `kept` parts, in the middle of writing the next line.
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:1 + kept]) + lines[1 + kept][:25])
    resumed = optimal(RULES, "expected", journal=cut)
    assert figures(resumed) == figures(first)
    assert resumed.journal_read == kept
    assert 0 < resumed.positions <= first.positions


def test_workers_write_and_read_the_same_journal(tmp_path):
    journal = tmp_path / "search.jsonl"
    alone = optimal(Rules(4, 4), "expected", journal=journal)
    shared = optimal(Rules(4, 4), "expected", jobs=2, journal=journal)
    # The workers' budgets are their own (the best's cost less the opening's bound): a bound the journal holds
    # answers a part only when it is at least the budget, so a few parts are searched again.
    assert strategy(shared) == strategy(alone) and shared.journal_read == alone.journal_written
    assert all(b.cost >= alone.total for b in shared.openings)
    fresh = tmp_path / "workers.jsonl"
    by_workers = optimal(Rules(4, 4), "worst", jobs=2, journal=fresh)
    assert strategy(by_workers) == strategy(optimal(Rules(4, 4), "worst"))
    again = optimal(Rules(4, 4), "worst", journal=fresh)
    assert strategy(again) == strategy(by_workers) and again.journal_read > 0


def test_a_journal_of_another_search_or_no_journal_is_refused(tmp_path):
    journal = tmp_path / "search.jsonl"
    optimal(RULES, "expected", journal=journal)
    with pytest.raises(BadInput) as error:
        optimal(Rules(3, 3), "expected", journal=journal)
    assert str(error.value) == f"--journal {journal} is the journal of another search (3x4), not of 3x3"
    with pytest.raises(BadInput, match=r"the journal of another search \(3x4\), not of 3x4, hard mode"):
        optimal(RULES, "expected", journal=journal, consistent_only=True)
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n")
    with pytest.raises(BadInput) as error:
        optimal(RULES, "expected", journal=other)
    assert str(error.value) == (f'--journal {other} is not an optimal search\'s journal (no "journal": '
                                '"mmlogic optimal" on its first line): give a new file or one an earlier run of '
                                'the same search wrote')
    assert other.read_text() == "my notes\n"  # nothing the user wrote is lost
    lines = journal.read_text().splitlines(keepends=True)
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines[0] + "garbage\n" + "".join(lines[1:]))
    with pytest.raises(BadInput) as error:
        optimal(RULES, "expected", journal=broken)
    assert str(error.value) == f"--journal {broken}: line 2 is not a part's result: it is not JSON"


def test_a_journal_line_holds_a_part_and_its_subtree(tmp_path):
    journal = tmp_path / "search.jsonl"
    optimal(RULES, "expected", journal=journal)
    head, *parts = [json.loads(line) for line in journal.read_text().splitlines()]
    assert head == {"journal": "mmlogic optimal", "version": 2, "consistent_only": False,
                    "rules": {"pegs": 3, "colors": 4, "max_repeat": None, "feedback": "standard"}}
    exact = [p for p in parts if p["value"] < p["budget"]]
    assert exact and all(p["tree"]["guess"] for p in exact)
    assert all(p["tree"] is None for p in parts if p["value"] >= p["budget"])
    assert {p["depth"] for p in parts} == {None}


# -- memory ------------------------------------------------------------------------------------------
def test_the_table_takes_what_the_memory_given_leaves():
    rules = Rules(4, 6)
    room = (100 << 20) // ENTRY_BYTES  # 100 MiB besides the process and its feedback table
    given = PROCESS_BYTES + rules.size**2 + (100 << 20)
    assert table_bits(rules, 1, given) == room.bit_length() - 1 == 21
    assert table_bits(rules, 2, 2 * given) == 21  # each process its share
    assert table_bits(rules, 1, None) <= 22  # the default for 1,296 codes, memory allowing


def test_a_game_whose_tables_do_not_fit_is_refused_in_one_line():
    with pytest.raises(BadInput) as error:
        optimal(Rules(4, 6), "expected", memory=1 << 20)
    assert str(error.value) == ("mmlogic optimal on 4x6 (1,296 codes) needs at least 202 MiB (its feedback "
                                "table 1.6 MiB) and has --memory 1.0 MiB")
    with pytest.raises(BadInput, match=r"needs at least 200 MiB in each of 3 processes \(its feedback table 729 "
                                       r"bytes\) and has --memory 300 MiB"):
        optimal(Rules(3, 3), "expected", jobs=2, memory=300 << 20)


@pytest.mark.parametrize("text, size", [("8G", 8 << 30), ("500M", 500 << 20), ("1.5GiB", 3 << 29),
                                        ("2048", 2048), ("64k", 64 << 10), ("1 TB", 1 << 40)])
def test_memory_sizes_as_typed(text, size):
    assert parse_memory(text) == size


@pytest.mark.parametrize("text", ["", "G", "12X", "-1G", "0", "0.1"])
def test_memory_sizes_that_are_not(text):
    with pytest.raises(BadInput) as error:
        parse_memory(text)
    assert str(error.value) == f"not a memory size: '{text}' (e.g. 8G, 500M, 1.5GiB)"


def test_memory_said_for_people():
    assert [memory_text(n) for n in (30, 2048, 280 << 20, 11 << 29, 3 << 30)] == [
        "30 bytes", "2.0 KiB", "280 MiB", "5.5 GiB", "3.0 GiB"]


def test_cli_journal_and_memory(run, tmp_path):
    journal = tmp_path / "j.jsonl"
    first = run("optimal", "--pegs", 3, "--colors", 4, "--journal", journal)
    assert first.exit_code == 0, first.stderr
    lines = dict(line.split(None, 1) for line in first.stdout.splitlines())
    parts = len(journal.read_text().splitlines()) - 1
    assert lines["journal"] == f"{journal}: 0 parts read from an earlier run, {parts} written"
    assert lines["memory"].startswith("peak ") and lines["memory"].endswith(" solved sets in each process's table")
    data = json.loads(run("optimal", "--pegs", 3, "--colors", 4, "--journal", journal, "--json").stdout)
    assert data["journal"] == {"file": str(journal), "parts_read": parts, "parts_written": 0}
    assert data["total_guesses"] == int(lines["total"]) and data["positions"] == 0
    assert data["peak_memory"] > 0 and data["table_entries"] == 2**14
    bad = run("optimal", "--memory", "12X")
    assert bad.exit_code == 2
    assert bad.stderr == "error: Invalid value for '--memory': not a memory size: '12X' (e.g. 8G, 500M, 1.5GiB)\n"


# -- on a Dask cluster ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each, closed after the module."""
    import distributed
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as c:
        yield c


@pytest.mark.parametrize("objective", ["expected", "worst", "worst-case"])
def test_a_two_worker_cluster_finds_what_one_process_does(cluster, objective):
    import distributed
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        distributed_result = optimal(Rules(4, 4), objective, client=client)
    alone = optimal(Rules(4, 4), objective)
    assert strategy(distributed_result) == strategy(alone)
    assert distributed_result.jobs == 2 and distributed_result.positions > 0


def test_a_cluster_search_resumes_from_its_journal(cluster, tmp_path, run):
    journal = tmp_path / "cluster.jsonl"
    address = cluster.scheduler_address
    first = json.loads(run("optimal", "--pegs", 4, "--colors", 4, "--executor", "dask", "--scheduler", address,
                           "--journal", journal, "--json").stdout)
    again = json.loads(run("optimal", "--pegs", 4, "--colors", 4, "--journal", journal, "--json").stdout)
    assert (first["total_guesses"], first["jobs"], again["total_guesses"]) == (905, 2, 905)
    assert again["journal"]["parts_read"] == first["journal"]["parts_written"] > 0


@pytest.mark.parametrize("args, message", [
    (["--executor", "dask"], "--executor dask needs --scheduler ADDRESS (e.g. tcp://HOST:8786)"),
    (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler needs --executor dask"),
    (["--executor", "dask", "--scheduler", "tcp://127.0.0.1:8786", "--jobs", "2"],
     "--jobs applies to --executor local; on Dask the workers' threads set how many parts run at once"),
    (["--executor", "dask", "--scheduler", "10.0.0.5"], "--scheduler '10.0.0.5' is not a scheduler address "
     "(missing port number); write tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786"),
])
def test_cli_executor_refusals_are_one_line(run, args, message):
    result = run("optimal", "--pegs", 3, "--colors", 3, *args)
    assert (result.exit_code, result.stderr) == (2, f"error: {message}\n")


@pytest.mark.parametrize("version", [True, 2.0, "2"])
def test_a_header_whose_version_is_of_another_type_is_refused(tmp_path, version):
    # "version": true and 2.0 were read as versions 1 and 2 (Python's == takes true for 1, 2.0 for 2).
    journal = tmp_path / "search.jsonl"
    journal.write_text(json.dumps({"journal": "mmlogic optimal", "version": version, "consistent_only": False,
                                   "rules": RULES.as_dict()}) + "\n")
    before = journal.read_bytes()
    with pytest.raises(BadInput) as error:
        optimal(RULES, "expected", journal=journal)
    assert str(error.value) == (f"--journal {journal} is journal version {json.dumps(version)}; this mmlogic "
                                "reads versions 1 and 2")
    assert journal.read_bytes() == before


def test_a_header_with_a_number_of_another_type_is_another_search(tmp_path):
    journal = tmp_path / "search.jsonl"
    journal.write_text(json.dumps({"journal": "mmlogic optimal", "version": 2, "consistent_only": 0,
                                   "rules": {**RULES.as_dict(), "pegs": 3.0}}) + "\n")
    with pytest.raises(BadInput, match="is the journal of another search"):
        optimal(RULES, "expected", journal=journal)
