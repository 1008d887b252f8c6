"""Numbers typed to options (issue 56): written with the digits 0-9 alone, and within stated maxima where a
larger number would run for ever, take the machine's memory or overflow. Each refusal is one line, exit 2,
before any game."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from mm_logic.cli.options import Integer, Seconds
from mm_logic.support.errors import shown
from mm_logic.support.memory import memory_text, parse_memory
from mm_logic.support.processes import cores

from conftest import PY, one_line_error


@pytest.fixture
def no_work(monkeypatch):
    """The work the commands below would start, made to fail at once: a refusal must come before it, and a
    number that should have been refused fails its test instead of running for ever."""
    import mm_logic.optimal.objectives
    import mm_logic.secret_codes
    import mm_logic.static.search
    import mm_logic.studies.compare
    import mm_logic.studies.puzzle

    def ran(*args, **kwargs):
        raise AssertionError("the work started: the number should have been refused before it")

    for module, name in ((mm_logic.secret_codes, "bench_secrets"), (mm_logic.studies.compare, "compare"),
                         (mm_logic.optimal.objectives, "optimal"), (mm_logic.studies.puzzle, "draw_puzzle"),
                         (mm_logic.static.search, "static_search")):
        monkeypatch.setattr(module, name, ran)


#: Four in other scripts than ASCII: fullwidth, Arabic-Indic, Devanagari; int() and float() read each as 4.
FOUR = ["\uff14", "\u0664", "\u096a"]


# -- digits other than 0-9 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("four", FOUR)
@pytest.mark.parametrize("args, option", [
    (["solve", *PY, "--secret", "0000", "--pegs"], "--pegs"),
    (["solve", *PY, "--secret", "0000", "--colors"], "--colors"),
    (["solve", *PY, "--secret", "0000", "--lies"], "--lies"),
    (["solve", *PY, "--secret", "0000", "--seed"], "--seed"),
    (["solve", *PY, "--secret", "0000", "--max-repeat"], "--max-repeat"),
    (["bench", *PY, "--pegs", 2, "--colors", 2, "--games"], "--games"),
    (["bench", *PY, "--pegs", 2, "--colors", 2, "--spaced"], "--spaced"),
    (["bench", *PY, "--pegs", 2, "--colors", 2, "--all", "--jobs"], "--jobs"),
    (["compare", *PY, "--pegs", 2, "--colors", 2, "--games"], "--games"),
    (["optimal", "--pegs", 2, "--colors", 2, "--max-depth"], "--max-depth"),
    (["optimal", "--pegs", 2, "--colors", 2, "--jobs", 2, "--split-above"], "--split-above"),
    (["puzzle", "--pegs", 2, "--colors", 3, "--entries"], "--entries"),
    (["puzzle", "--pegs", 2, "--colors", 3, "--entries", 2, "--tries"], "--tries"),
    (["static", "--pegs", 2, "--colors", 2, "--guesses"], "--guesses"),
    (["tree", "missing.json", "--dot", "--max-depth"], "--max-depth"),
])
def test_integer_options_take_the_digits_0_to_9_alone(run, no_work, args, option, four):
    one_line_error(run(*args, four), 2, f"Invalid value for '{option}': '{four}' is not written with the digits 0-9",
                   stdout="")


@pytest.mark.parametrize("typed", ["1\u0664", "\u00b2", "4\u2003"])
def test_an_integer_with_any_character_beyond_ascii_is_refused(typed):
    # '²' int() refuses, '4\u2003' (an em space after) it reads as 4: both are mistyped numbers here.
    with pytest.raises(click.BadParameter) as error:
        Integer(1).convert(typed, None, None)
    assert error.value.message == f"{typed!r} is not written with the digits 0-9"
    assert Integer(1).convert(" 4 ", None, None) == 4  # ASCII spaces around a number, as before


@pytest.mark.parametrize("four", FOUR)
@pytest.mark.parametrize("args, option", [
    (["solve", *PY, "--secret", "0011", "--time-limit"], "--time-limit"),
    (["static", "--pegs", 2, "--colors", 2, "--guesses", 2, "--local-search"], "--local-search"),
])
def test_seconds_take_the_digits_0_to_9_alone(run, no_work, args, option, four):
    one_line_error(run(*args, four), 2, f"Invalid value for '{option}': '{four}' is not written with the digits 0-9",
                   stdout="")
    with pytest.raises(click.BadParameter):
        Seconds().convert(f"0.{four}", None, None)


@pytest.mark.parametrize("four", FOUR)
def test_memory_sizes_take_the_digits_0_to_9_alone(run, no_work, four):
    one_line_error(run("optimal", "--pegs", 2, "--colors", 2, "--memory", f"{four}G"), 2,
                   f"Invalid value for '--memory': not a memory size: '{four}G' (e.g. 8G, 500M, 1.5GiB)", stdout="")
    assert parse_memory("4G") == 4 << 30


@pytest.mark.parametrize("two", ["\uff12", "\u0662"])
def test_the_liars_answers_are_numbered_with_0_to_9_alone(run, two):
    one_line_error(run("solve", *PY, "--secret", "0011", "--lies", 1, "--liar", two), 2,
                   f"--liar takes random or the answers that lie, by number (2,5), got '{two}'", stdout="")
    one_line_error(run("solve", *PY, "--secret", "0011", "--lies", 2, "--liar", f"1,{two}"), 2,
                   f"--liar takes random or the answers that lie, by number (2,5), got '1,{two}'", stdout="")


@pytest.mark.parametrize("value, message", [
    ("mutation=0.\u0665", "ga004 mutation=0.\u0665: a probability from 0 to 1 (0.05 or 5%), or 1/n"),
    ("mutation=\u0665%", "ga004 mutation=\u0665%: a probability from 0 to 1 (0.05 or 5%), or 1/n"),
    ("population=\u0665\u0660", "ga004 population=\u0665\u0660: a whole number from 2 to 100000"),
    # Nor underscores, which Python's int() and float() take.
    ("mutation=0.0_5", "ga004 mutation=0.0_5: a probability from 0 to 1 (0.05 or 5%), or 1/n"),
    ("mutation=1_0%", "ga004 mutation=1_0%: a probability from 0 to 1 (0.05 or 5%), or 1/n"),
    ("population=1_0", "ga004 population=1_0: a whole number from 2 to 100000"),
])
def test_genetic_parameters_take_the_digits_0_to_9_alone(run, no_work, value, message):
    one_line_error(run("bench", *PY, "--pegs", 2, "--colors", 3, "--all", "--strategy", "ga004", "--ga", value), 2,
                   message, stdout="")


@pytest.mark.parametrize("entry, message", [
    ("0011:\u0661,\u0660", "feedback '\u0661,\u0660' in '0011:\u0661,\u0660' is not of the form B,W (e.g. 1,2)"),
    ("0011:\uff11 0", "feedback '\uff11 0' in '0011:\uff11 0' is not of the form B,W (e.g. 1,2)"),
    ("0,\u0661,1,1:1,0", "code '0,\u0661,1,1' writes colour numbers with digits other than 0-9"),
])
def test_history_entries_take_the_digits_0_to_9_alone(run, entry, message):
    one_line_error(run("next", *PY, entry), 2, message, stdout="")


def test_black_peg_feedback_takes_the_digits_0_to_9_alone(run):
    one_line_error(run("next", *PY, "--feedback", "black", "0011:\u0661"), 2,
                   "feedback '\u0661' in '0011:\u0661' is not of the form B (e.g. 2)", stdout="")


def test_sweep_sizes_take_the_digits_0_to_9_alone(run):
    one_line_error(run("sweep", *PY, "--strategy", "first", "--sizes", "\u0664x3"), 2,
                   "--sizes: '\u0664x3' is not PEGSxCOLORS (e.g. 4x6, 4x2-10, 5-6x6)", stdout="")


def test_scripts_read_the_digits_0_to_9_alone():
    import argparse

    from mm_logic.support.scripting import count, natural, positive_seconds
    for read, four in ((count, "\u0664"), (natural, "\uff14"), (positive_seconds, "\u0664.5"), (count, "1_0"),
                       (natural, "1_0"), (positive_seconds, "1_0.5")):
        with pytest.raises(argparse.ArgumentTypeError):
            read(four)
    assert (count("4"), natural("0"), positive_seconds("4.5")) == (4, 0, 4.5)


# -- maxima ---------------------------------------------------------------------------------------------------
HUGE = "99999999999999999999"
#: The most games a bench or a comparison plays (each secret is listed before the first game).
MAX_GAMES = 1_000_000


@pytest.mark.parametrize("args, option, most", [
    (["bench", *PY, "--pegs", 2, "--colors", 2, "--games"], "--games", MAX_GAMES),
    (["bench", *PY, "--pegs", 16, "--colors", 6, "--spaced"], "--spaced", MAX_GAMES),
    (["compare", *PY, "--pegs", 2, "--colors", 2, "--games"], "--games", MAX_GAMES),
    (["puzzle", "--pegs", 2, "--colors", 3, "--entries"], "--entries", 1000),
    (["puzzle", "--pegs", 2, "--colors", 3, "--entries", 2, "--tries"], "--tries", 100_000),
    (["static", "--pegs", 2, "--colors", 2, "--guesses"], "--guesses", 4096),
])
@pytest.mark.parametrize("beyond", ["most + 1", "HUGE"])
def test_counts_beyond_their_stated_maximum_are_refused(run, no_work, args, option, most, beyond):
    typed = str(most + 1) if beyond == "most + 1" else HUGE
    one_line_error(run(*args, typed), 2, f"Invalid value for '{option}': {typed} is not in the range 1<=x<={most}.",
                   stdout="")


def test_the_maxima_are_what_they_are_counted_against():
    from mm_logic.cli import options
    from mm_logic.cli.puzzles import MAX_GUESSES
    from mm_logic.static.search import MAX_CODES

    assert options.MAX_GAMES == MAX_GAMES

    assert MAX_GUESSES == MAX_CODES  # as many guesses as the largest game static searches has codes always do


def test_memory_beyond_the_machines_is_refused_before_any_table(run, no_work):
    from mm_logic.support.memory import total_memory

    one_line_error(run("optimal", "--pegs", 2, "--colors", 2, "--memory", "1000T"), 2,
                   f"Invalid value for '--memory': 1000 TiB is more than this machine's memory "
                   f"({memory_text(total_memory())})", stdout="")
    for typed in ("99999T", "1025T", "4" * 400):
        result = run("optimal", "--pegs", 2, "--colors", 2, "--memory", typed)
        one_line_error(result, 2, f"Invalid value for '--memory': {shown(typed)} is more than 1024T, the largest "
                                  "memory size taken", stdout="")
    # On a cluster the workers' machines may have more than this one: only the largest size is refused.
    one_line_error(run("optimal", "--executor", "dask", "--memory", "1000T"), 2,
                   "--executor dask needs --scheduler ADDRESS (e.g. tcp://HOST:8786)", stdout="")


def test_the_machines_memory_is_what_it_has():
    from mm_logic.support.memory import total_memory

    total = total_memory()
    assert total > 0 and total >= 64 << 20
    assert memory_text(99999 << 40) == "99999 TiB" and memory_text(3 << 40) == "3.0 TiB"


def test_processes_are_at_most_the_cores():
    from mm_logic.cli.options import Processes

    @click.command()
    @click.option("--workers", type=Processes(), default=1)
    def command(workers):
        click.echo(workers)

    assert CliRunner().invoke(command, ["--workers", str(cores())]).output == f"{cores()}\n"
    refused = CliRunner().invoke(command, ["--workers", "9999"])
    assert refused.exit_code == 2
    assert refused.output.splitlines()[-1] == (f"Error: Invalid value for '--workers': 9999 is more than the "
                                               f"{cores()} cores of this machine.")
    assert CliRunner().invoke(command, ["--workers", "0"]).output.splitlines()[-1] == (
        "Error: Invalid value for '--workers': 0 is not in the range x>=1.")


def test_serve_starts_at_most_a_process_a_core(run):
    one_line_error(run("serve", "--port", 0, "--workers", 9999), 2,
                   f"Invalid value for '--workers': 9999 is more than the {cores()} cores of this machine.",
                   stdout="")


def test_a_duel_has_at_most_100_rounds(run):
    # 102, not more: without the maximum a duel of 10**20 rounds draws its secrets for ever.
    one_line_error(run("play", *PY, "--role", "duel", "--rounds", 102), 2,
                   "Invalid value for '--rounds': 102 is not in the range 2<=x<=100.", stdout="")


def test_only_a_time_limit_given_bounds_a_rules_table():
    # serve's default --time-limit (10 s) is per request: a rule's table, derived once and kept, is not bounded by
    # it (a cold 4x6 table of a .pl rule takes 15-20 s); a limit given on the command line bounds it.
    import click
    from click.testing import CliRunner

    from mm_logic.cli.options import time_limit_option
    from mm_logic.feedback.watch import scoring_time_limit

    seen = []

    @click.command()
    @time_limit_option(default=10)
    def command(time_limit):
        seen.append((time_limit, scoring_time_limit()))

    runner = CliRunner()
    assert runner.invoke(command, []).exit_code == 0
    assert runner.invoke(command, ["--time-limit", "3"]).exit_code == 0
    assert seen == [(10, None), (3, 3)] and scoring_time_limit() is None


# -- Python's digit grouping ------------------------------------------------------------------------------------
@pytest.mark.parametrize("typed", ["1_0", "1_000", "0_1", "_1", "1__0"])
@pytest.mark.parametrize("args, option", [
    (["next", "--pegs"], "--pegs"),
    (["next", "--colors"], "--colors"),
    (["solve", *PY, "--secret", "0000", "--seed"], "--seed"),
    (["bench", *PY, "--pegs", 2, "--colors", 2, "--games"], "--games"),
    (["solve", *PY, "--secret", "0011", "--time-limit"], "--time-limit"),
])
def test_numbers_with_underscores_are_refused(run, no_work, args, option, typed):
    # int() and float() read Python's digit grouping: --pegs 1_0 was taken as 10 pegs, --games 1_000 as 1000.
    one_line_error(run(*args, typed), 2, f"Invalid value for '{option}': '{typed}' is not written with the digits 0-9",
                   stdout="")


@pytest.mark.parametrize("typed", ["1_0", "0.0_5", "1_0.5", "1e1_0"])
def test_seconds_with_underscores_are_refused(typed):
    with pytest.raises(click.BadParameter) as error:
        Seconds().convert(typed, None, None)
    assert error.value.message == f"{typed!r} is not written with the digits 0-9"
    assert Seconds().convert(" 10.5 ", None, None) == 10.5 and Seconds().convert("1e1", None, None) == 10.0


def test_memory_sizes_and_sweep_sizes_with_underscores_are_refused(run, no_work):
    one_line_error(run("optimal", "--pegs", 2, "--colors", 2, "--memory", "1_0G"), 2,
                   "Invalid value for '--memory': not a memory size: '1_0G' (e.g. 8G, 500M, 1.5GiB)", stdout="")
    one_line_error(run("sweep", *PY, "--strategy", "first", "--sizes", "2x2-1_0"), 2,
                   "--sizes: '2x2-1_0' is not PEGSxCOLORS (e.g. 4x6, 4x2-10, 5-6x6)", stdout="")


def test_the_liars_answers_with_underscores_are_refused(run):
    one_line_error(run("solve", *PY, "--secret", "0011", "--lies", 1, "--liar", "1_0"), 2,
                   "--liar takes random or the answers that lie, by number (2,5), got '1_0'", stdout="")


# -- memory beyond what the process may take (ulimit -v) ------------------------------------------------------
def _limited_run(limit: int, *args: str):
    """``mmlogic ARGS`` in a process whose address space is held to ``limit`` bytes (``ulimit -v``)."""
    import resource
    import subprocess
    import sys

    def hold() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return subprocess.run([sys.executable, "-m", "mm_logic.cli", *args], capture_output=True, text=True,
                          preexec_fn=hold, timeout=300)


def test_memory_beyond_the_address_space_limit_is_refused_before_any_table():
    # Under `ulimit -v 8000000`, --memory 20G ended on "internal failure: MemoryError: Unable to allocate 8.00 GiB"
    # (exit 1): the machine has the memory, the process may not take it.
    from mm_logic.support.memory import total_memory

    if total_memory() < 4 << 30:
        pytest.skip("the machine has less than 4 GiB: --memory 4G is refused as more than its memory")
    done = _limited_run(4 << 30, "optimal", "--pegs", "4", "--colors", "4", "--memory", "4G")
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.startswith("error: --memory 4.0 GiB is more than this process may take: its address space "
                                  "is limited to 4.0 GiB (ulimit -v), of which "), done.stderr
    assert done.stderr.endswith(" in use\n") and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_memory_within_the_address_space_limit_is_searched():
    done = _limited_run(2 << 30, "optimal", "--pegs", "2", "--colors", "3", "--memory", "1G")
    assert done.returncode == 0, done.stderr
    assert "total      21\n" in done.stdout


def test_the_default_table_keeps_within_the_address_space_limit(monkeypatch):
    from mm_logic.optimal import searcher
    from mm_logic.rules import Rules
    from mm_logic.support.errors import BadInput

    monkeypatch.setattr(searcher, "address_space", lambda: (300 << 20, 0))
    monkeypatch.setattr(searcher, "available_memory", lambda: 64 << 30)
    # 300 MiB, 200 of it the interpreter's and 58 the feedback table's: 2**20 entries of 33 bytes, not 2**25 (the
    # default of 5x6 where the memory is there).
    assert searcher.table_bits(Rules(5, 6), 1, None) == 20
    assert searcher.table_bits(Rules(5, 6), 1, 300 << 20) == 20
    with pytest.raises(BadInput) as error:
        searcher.table_bits(Rules(5, 6), 2, 1 << 30)
    assert str(error.value) == ("--memory 1.0 GiB is 512 MiB for each of 2 processes, more than each may take: its "
                                "address space is limited to 300 MiB (ulimit -v), of which 0 bytes in use")
    with pytest.raises(BadInput) as error:
        searcher.table_bits(Rules(5, 8), 1, None)
    assert str(error.value) == ("mmlogic optimal on 5x8 (32,768 codes) needs at least 1.2 GiB (its feedback table "
                                "1.0 GiB) and has 300 MiB (what its address space limit, ulimit -v, leaves)")


def test_a_table_the_machine_cannot_allocate_is_one_line(run, monkeypatch):
    from mm_logic.kernels.optimal import arrays
    from mm_logic.optimal.searcher import compile_kernels
    from mm_logic.rules import Rules

    # The kernels ready first: in a fresh checkout the first search of a process says it compiles them (a note
    # before the error), whichever test that is.
    compile_kernels(None, rules=Rules(2, 3))

    def refused(bits):
        raise MemoryError(f"Unable to allocate {8 << bits} bytes")

    monkeypatch.setattr(arrays, "new_table", refused)
    one_line_error(run("optimal", "--pegs", 2, "--colors", 3, "--memory", "1G"), 1,
                   "cannot allocate the search's table of 16,777,216 entries (528 MiB): out of memory; give a "
                   "smaller --memory", stdout="")


@pytest.mark.parametrize("command", [["bench"], ["compare", "--strategy", "first"]])
def test_jobs_beyond_the_cores_run_on_the_cores(run, command):
    # --jobs 10**26 made a task per job (and grew by a gigabyte in seconds) before any game was played.
    result = run(*command, "--pegs", 3, "--colors", 3, "--backend", "python", "--games", 2, "--seed", 1, "--jobs",
                 "99999999999999999999999999", "--json")
    assert result.exit_code == 0, result.output
    played = json.loads(result.stdout)
    assert (played["games"] if command == ["bench"] else len(played["rows"])) == (2 if command == ["bench"] else 1)
