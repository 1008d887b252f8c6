"""mmlogic sweep and mmlogic openings: exact rows, resuming, jobs, a Dask cluster, ranking, errors.

Every case runs in a process of its own, which costs about half a second
(imports, compiled kernels): the grids here are tiny, and the rows of one
sweep (:func:`small`) serve several tests. Expected figures are computed in
this process with ``bench_all``; only Knuth's 5801 is written down.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from mm_logic.cli import cli
from mm_logic.engines import make_engine
from mm_logic.notation import format_code, parse_code
from mm_logic.rules import Rules
from mm_logic.strategies import STRATEGIES, make_strategy
from mm_logic.studies import sweep_case, sweep_processes, sweep_rows
from mm_logic.studies.bench import bench_all
from mm_logic.studies.sweep import run_sweep
from mm_logic.studies.sweep_case import CASE_FIELDS, RESULT_FIELDS, Case, parse_sizes
from mm_logic.symmetry import canonical_openings

from conftest import MMLOGIC, ROOT

#: Four cases: two sizes x two strategies.
SMALL = ["--sizes", "3x3,3x4", "--strategy", "minimax,parts"]
#: What differs from run to run: time, memory, machine.
VOLATILE = ("seconds", "peak_rss_mb", "start_rss_mb", "host")


#: What a stand-in for a case's process returns (the figures of a 2x2 game, made up).
FAKE_RESULT = {"opening": "00", "games": 4, "total_guesses": 7, "mean": 1.75, "max": 2, "histogram": {"1": 1, "2": 3},
               "seconds": 0.0, "peak_rss_mb": 1.0, "start_rss_mb": 1.0, "host": "h"}


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def steady(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k not in VOLATILE} for row in rows]


def in_process(rules: Rules, strategy: str, first_guess=None) -> dict:
    """The figures a case must give, from bench_all in this process."""
    engine = make_engine("python", rules)
    try:
        result = bench_all(engine, make_strategy(strategy, rules, first_guess=first_guess))
    finally:
        engine.close()
    figures = result.figures()
    opening = first_guess or next(secret for secret, n in result.games_played if n == 1)
    return {"opening": format_code(opening, rules), **{k: figures[k] for k in ("games", "total_guesses", "max",
                                                                              "histogram")}}


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """The SMALL sweep with --jobs 1 and --out: (its JSON, the out file)."""
    out = tmp_path_factory.mktemp("sweep") / "small.jsonl"
    result = invoke("sweep", *SMALL, "--out", out, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), out


def test_rows_are_bench_all_of_every_case_in_the_grid_order(small):
    data, out = small
    assert data["failures"] == []
    rows = data["rows"]
    assert [(r["rules"]["colors"], r["strategy"]) for r in rows] == [(3, "minimax"), (3, "parts"), (4, "minimax"),
                                                                    (4, "parts")]
    for row in rows:
        assert list(row) == [*CASE_FIELDS, *RESULT_FIELDS]
        assert row["rules"] == {"pegs": 3, "colors": row["rules"]["colors"], "max_repeat": None, "feedback": "standard"}
        assert row["first_guess"] is None and row["backend"] == "python" and row["seed"] is None
        expected = in_process(Rules(3, row["rules"]["colors"]), row["strategy"])
        assert {k: row[k] for k in expected} == expected
        assert row["mean"] == round(row["total_guesses"] / row["games"], 3)
        assert row["peak_rss_mb"] >= row["start_rss_mb"] > 0 and isinstance(row["seconds"], float)
    # The out file has one line per case, in the order they finished.
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(map(json.dumps, lines)) == sorted(map(json.dumps, rows))


def test_text_table_has_one_line_per_case(run):
    result = run("sweep", "--sizes", "2x2", "--strategy", "minimax", "--first-guess", "01")
    assert result.exit_code == 0, result.output
    head, line = result.stdout.splitlines()
    assert head.split() == ["rules", "strategy", "opening", "backend", "games", "total", "mean", "max", "seconds",
                            "peak", "MB", "histogram"]
    expected = in_process(Rules(2, 2), "minimax", (0, 1))
    assert line.split()[:8] == ["2x2", "minimax", "01", "python", "4", str(expected["total_guesses"]),
                                f"{expected['total_guesses'] / 4:.3f}", str(expected["max"])]


def test_jobs_2_gives_the_rows_of_jobs_1(small):
    result = invoke("sweep", *SMALL, "--jobs", 2, "--json")
    assert result.exit_code == 0, result.output
    assert steady(json.loads(result.stdout)["rows"]) == steady(small[0]["rows"])


def test_a_rerun_skips_the_finished_cases_and_drops_a_line_cut_off(small, tmp_path):
    rows, done = small[0]["rows"], small[1].read_text().splitlines(keepends=True)
    out = tmp_path / "resumed.jsonl"
    # Killed while writing its third row: two whole lines, and half of one.
    out.write_text(done[0] + done[1] + done[2][:40])
    out.chmod(0o640)
    result = invoke("sweep", *SMALL, "--out", out, "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr == (f"note: dropped 1 unreadable line(s) of {out} (cut off by a kill); their cases run again\n"
                             f"note: 2 of 4 cases are in {out} already; running the other 2\n")
    lines = out.read_text().splitlines(keepends=True)
    assert lines[:2] == done[:2] and len(lines) == 4
    assert out.stat().st_mode & 0o777 == 0o640
    assert steady(json.loads(result.stdout)["rows"]) == steady(rows)
    # The two rows kept are printed as they were read, not run again.
    assert json.loads(done[0]) in json.loads(result.stdout)["rows"]
    again = invoke("sweep", *SMALL, "--out", out)
    assert again.exit_code == 0
    assert again.stderr == f"note: all 4 cases are in {out} already; nothing to run\n"
    assert out.read_text().splitlines(keepends=True) == lines
    assert len(again.stdout.splitlines()) == 5


def test_rows_written_before_the_rules_named_their_feedback_are_the_standard_cases(small, tmp_path):
    # An output file of a sweep made before every rules object named its feedback rule: no "feedback".
    rows, done = small[0]["rows"], small[1].read_text().splitlines()
    old = []
    for line in done:
        row = json.loads(line)
        del row["rules"]["feedback"]
        old.append(json.dumps(row) + "\n")
    out = tmp_path / "old.jsonl"
    out.write_text("".join(old))
    result = invoke("sweep", *SMALL, "--out", out, "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr == f"note: all 4 cases are in {out} already; nothing to run\n"
    # Printed as this version writes them, the file left as it was.
    assert json.loads(result.stdout)["rows"] == rows
    assert all(row["rules"]["feedback"] == "standard" for row in json.loads(result.stdout)["rows"])
    assert out.read_text() == "".join(old)
    assert invoke("sweep", *SMALL, "--out", out).stdout == invoke("sweep", *SMALL, "--out", small[1]).stdout


def test_ctrl_c_keeps_the_finished_rows_and_the_rerun_runs_the_rest(tmp_path):
    out = tmp_path / "interrupted.jsonl"
    command = [sys.executable, "-m", "mm_logic.cli", "sweep", "--sizes", "3x2-5", "--strategy", "minimax",
               "--out", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    deadline = time.monotonic() + 30
    while not (out.exists() and out.read_text().count("\n") >= 1) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    finished = out.read_text().splitlines()
    assert 1 <= len(finished) < 4 and all(json.loads(line)["games"] for line in finished)
    assert stderr.endswith(f"interrupted: {len(finished)} of 4 cases finished; their rows are in {out}, "
                           "and the same command runs the rest\n")
    assert len(stdout.splitlines()) == 1 + len(finished)
    rerun = invoke(*command[3:])
    assert rerun.exit_code == 0, rerun.output
    assert rerun.stderr == (f"note: {len(finished)} of 4 cases are in {out} already; "
                            f"running the other {4 - len(finished)}\n")
    assert out.read_text().splitlines()[:len(finished)] == finished
    assert sorted(json.loads(line)["rules"]["colors"] for line in out.read_text().splitlines()) == [2, 3, 4, 5]


def test_ctrl_c_right_after_a_row_is_written_counts_that_row(tmp_path, monkeypatch):
    """The race CI met once: the row on disk, Ctrl-C before the sweep counted it ("0 of 4 finished")."""
    out = tmp_path / "race.jsonl"
    monkeypatch.setattr(sweep_processes, "run_isolated", lambda case, stop=None: {**case, **FAKE_RESULT})
    write = sweep_rows.RowWriter.write

    def write_then_interrupt(self, written):
        write(self, written)
        raise KeyboardInterrupt

    monkeypatch.setattr(sweep_rows.RowWriter, "write", write_then_interrupt)
    cases = [Case(Rules(2, colors), "minimax", None, "python") for colors in (2, 3)]
    result = run_sweep(cases, out=out)
    on_disk = [json.loads(line) for line in out.read_text().splitlines()]
    assert result.complete is False
    assert len(on_disk) == 1 and result.finished() == on_disk


def test_a_failed_case_is_reported_not_written_and_the_others_go_on(tmp_path, monkeypatch):
    out = tmp_path / "failed.jsonl"
    # The case process itself: a backend no worker knows fails in it, with its own message.
    failed = run_sweep([Case(Rules(2, 2), "minimax", None, "nope")], out=out)
    assert [message for _, message in failed.failures] == [
        "unknown backend 'nope'; choose from clingo, swipl, python, a1, a2, a3, a4, a5"]
    assert not out.exists() or out.read_text() == ""
    calls = []

    def fake(case, stop=None):
        calls.append(case)
        return {"error": "boom"} if case["rules"]["colors"] == 3 else {**case, **FAKE_RESULT}
    monkeypatch.setattr(sweep_processes, "run_isolated", fake)
    result = invoke("sweep", "--sizes", "2x2-3", "--strategy", "minimax", "--out", out)
    assert result.exit_code == 1
    assert result.stderr == ("failed: 2x3 minimax own-opening python: boom\n"
                             f"error: 1 of 2 cases failed (not written to {out}: a rerun tries them again)\n")
    assert [json.loads(line)["rules"]["colors"] for line in out.read_text().splitlines()] == [2]
    assert len(calls) == 2


def test_sample_entropy_k_sweeps_and_ranks_openings_as_the_other_strategies(run):
    # It was "unknown strategy 'sample-entropy:5'" in sweep and openings, which compare and bench take.
    # 3x3 is small: it plays the exact entropy strategy, whatever its sample size.
    result = run("sweep", "--sizes", "3x3", "--strategy", "sample-entropy:5", "--first-guess", "012", "--json")
    assert result.exit_code == 0, result.output
    row = json.loads(result.stdout)["rows"][0]
    expected = in_process(Rules(3, 3), "entropy", (0, 1, 2))
    assert (row["strategy"], row["total_guesses"], row["max"]) == ("sample-entropy:5", expected["total_guesses"],
                                                                  expected["max"])
    ranked = json.loads(run("openings", "--pegs", 3, "--colors", 3, "--strategy", "sample-entropy:5",
                            "--json").stdout)["rankings"]["sample-entropy:5"]
    assert {r["opening"]: r["total_guesses"] for r in ranked} == {
        format_code(code, Rules(3, 3)): in_process(Rules(3, 3), "entropy", code)["total_guesses"]
        for code in canonical_openings(Rules(3, 3))}


@pytest.mark.slow  # 10.3 s measured (8.1 s warm)
def test_openings_ranks_every_canonical_opening_of_4x6(run, tmp_path):
    out = tmp_path / "openings.jsonl"
    result = run("openings", "--strategy", "minimax,parts", "--jobs", 2, "--json", "--out", out)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rules = Rules(4, 6)
    assert data["rules"] == rules.as_dict() and data["backend"] == "python" and data["openings"] == 5
    assert list(data["rankings"]) == ["minimax", "parts"]
    for strategy, ranked in data["rankings"].items():
        expected = {format_code(code, rules): in_process(rules, strategy, code) for code in canonical_openings(rules)}
        assert {r["opening"]: {k: r[k] for k in expected[r["opening"]]} for r in ranked} == expected
        order = sorted(expected, key=lambda code: (expected[code]["total_guesses"], expected[code]["max"]))
        assert [r["opening"] for r in ranked] == order
        for i, r in enumerate(ranked):
            better = [o for o in ranked if (o["total_guesses"], o["max"]) < (r["total_guesses"], r["max"])]
            assert r["rank"] == len(better) + 1 and r["rank"] <= i + 1
    # Knuth (1977): minimax opening 0011 plays every 4x6 secret in 5801 guesses, at most 5.
    best = data["rankings"]["minimax"][0]
    assert (best["rank"], best["opening"], best["total_guesses"], best["max"]) == (1, "0011", 5801, 5)
    # Its rows are those of the file: nothing runs again.
    again = run("openings", "--strategy", "minimax", "--out", out)
    assert again.exit_code == 0 and again.stderr == f"note: all 5 cases are in {out} already; nothing to run\n"
    text = again.stdout.splitlines()
    assert text[0] == ("4x6 minimax (1,296 codes, 5 canonical openings, best first: fewest guesses in total, "
                       "then smallest max)")
    assert text[2].split()[:5] == ["1", "0011", "5801", "4.476", "5"]


@pytest.mark.parametrize("feedback", ["black", "positional"])
def test_a_sweep_and_openings_under_another_feedback_rule_are_bench_all_under_it(run, feedback):
    result = run("sweep", "--sizes", "3x3,3x4", "--feedback", feedback, "--strategy", "minimax,entropy", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    assert [(r["rules"], r["strategy"]) for r in rows] == [
        ({"pegs": 3, "colors": c, "max_repeat": None, "feedback": feedback}, s)
        for c in (3, 4) for s in ("minimax", "entropy")]
    for row in rows:
        expected = in_process(Rules(3, row["rules"]["colors"], feedback=feedback), row["strategy"])
        assert {k: row[k] for k in expected} == expected
    # openings: the rule's canonical openings (colour patterns alone under positional marks), each
    # played as bench --all --first-guess plays it under the rule.
    rules = Rules(3, 4, feedback=feedback)
    result = run("openings", "--pegs", 3, "--colors", 4, "--feedback", feedback, "--strategy", "entropy", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rules"] == rules.as_dict() and data["openings"] == len(canonical_openings(rules))
    expected = {format_code(code, rules): in_process(rules, "entropy", code) for code in canonical_openings(rules)}
    assert {r["opening"]: {k: r[k] for k in expected[r["opening"]]} for r in data["rankings"]["entropy"]} == expected
    assert sorted(expected) == (["000", "001", "010", "011", "012"] if feedback == "positional"
                                else ["000", "001", "012"])


def test_sizes_syntax():
    assert parse_sizes("4x2-4, 5x6,6-7x5,4x3") == [(4, 2), (4, 3), (4, 4), (5, 6), (6, 5), (7, 5)]
    assert parse_sizes("4X6") == [(4, 6)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("args, code, message", [
    (["sweep", "--sizes", "4by6"], 2, "--sizes: '4by6' is not PEGSxCOLORS (e.g. 4x6, 4x2-10, 5-6x6)"),
    (["sweep", "--sizes", "4x10-2"], 2, "--sizes: '4x10-2' has an empty range"),
    (["sweep", "--sizes", " , "], 2, "--sizes ' , ' names no size; write PEGSxCOLORS items, e.g. 4x6,4x2-10,5-6x6"),
    (["sweep", "--sizes", "10x10"], 2,
     "--sizes: 10x10 has 10,000,000,000 codes; a sweep plays every secret, at most 20,000,000"),
    (["sweep", "--sizes", "5x2", "--no-repeat"], 2,
     "--sizes 5x2: no code of 5 pegs uses 2 colours at most 1 time(s) each"),
    (["sweep", "--no-repeat", "--max-repeat", 2], 2, "--no-repeat contradicts --max-repeat 2"),
    (["sweep", "--strategy", "minimax,nope"], 2, f"unknown strategy 'nope'; choose from {', '.join(STRATEGIES)}"),
    (["sweep", "--backend", "python,nope"], 2,
     "unknown backend 'nope'; choose from clingo, swipl, python, a1, a2, a3, a4, a5"),
    (["sweep", "--sizes", "4x6,5x8", "--first-guess", "0011"], 2,
     "--first-guess 0011 for 5x8: code '0011' has 4 pegs, expected 5"),
    (["sweep", "--first-guess", "0011", "--all-openings"], 2, "give --first-guess or --all-openings, not both"),
    (["sweep", "--executor", "dask"], 2, "--executor dask needs --scheduler ADDRESS (e.g. tcp://HOST:8786)"),
    (["sweep", "--scheduler", "tcp://127.0.0.1:8786"], 2, "--scheduler needs --executor dask"),
    (["sweep", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:8786", "--jobs", 2], 2,
     "--jobs applies to --executor local; on Dask the workers' threads set how many cases run at once"),
    (["sweep", "--executor", "dask", "--scheduler", "localhost"], 2,
     "--scheduler 'localhost' is not a scheduler address (missing port number); "
     "write tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786"),
    (["openings", "--executor", "dask", "--scheduler", "inproc://x"], 2,
     "--scheduler 'inproc://x' is not a scheduler address (inproc:// is not one of tcp://, tls://, ws://, wss://, "
     "ucx://); write tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786"),
    (["openings", "--pegs", 5, "--colors", 2, "--no-repeat"], 2,
     "no code of 5 pegs uses 2 colours at most 1 time(s) each"),
    (["openings", "--pegs", 10, "--colors", 6], 2,
     "10x6 has 60,466,176 codes; openings plays every secret, at most 20,000,000"),
    # checked before the range is listed (a hundred million sizes took minutes)
    (["sweep", "--sizes", "4x1-100000000"], 2, "--sizes: '4x1-100000000': colours must be between 1 and 255"),
    (["sweep", "--sizes", "0-3x3"], 2, "--sizes: '0-3x3': pegs must be between 1 and 64"),
    (["sweep", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:99999"], 2,
     "--scheduler 'tcp://127.0.0.1:99999' is not a scheduler address (port 99999 is not between 1 and 65535); "
     "write tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786"),
    (["sweep", "--feedback", "black", "--strategy", "human1"], 2,
     "--strategy human1 plays the standard feedback rule only; with --feedback black use --strategy first, any, "
     "random, any-random-opening, minimax, expected, entropy, parts or sample-entropy"),
    (["sweep", "--feedback", "black", "--backend", "a1"], 2,
     "--backend a1 plays the standard feedback rule only; with --feedback black use --backend clingo, swipl or "
     "python"),
    (["openings", "--feedback", "mine.py"], 2,
     "Invalid value for '--feedback': cannot read --feedback mine.py: No such file or directory"),
    (["openings", "--out", "/proc/x/out.jsonl"], 2,
     "Invalid value for '--out': cannot write /proc/x/out.jsonl (No such file or directory)"),
])
def test_bad_input_is_one_line_exit_2(run, args, code, message):
    result = run(*args)
    assert (result.exit_code, result.stderr) == (code, f"error: {message}\n"), result.output
    assert result.stdout == ""


def test_dask_missing_says_how_to_install_it(run, monkeypatch, index_install):
    import importlib.util
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "distributed"
                        else find_spec(name, *a))
    result = run("sweep", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:8786")
    assert (result.exit_code, result.stderr) == (2, "error: --executor dask needs dask.distributed: "
                                                    "pip install 'mmlogic[dask]'\n")


def test_unreachable_scheduler_is_one_line_exit_1(run):
    # distributed imported first, its defaults in dask's config before set(): imported within it, they were taken
    # out on its exit, and the cluster of the tests below could not start (KeyError: 'distributed').
    import dask
    import distributed  # noqa: F401
    address = f"tcp://127.0.0.1:{free_port()}"
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        result = run("sweep", "--sizes", "2x2", "--executor", "dask", "--scheduler", address)
    assert result.exit_code == 1
    assert result.stderr == (f"error: cannot reach the Dask scheduler at {address}: "
                             f"Timed out trying to connect to {address} after 1 s\n")


def test_a_scheduler_answering_garbage_is_one_line_and_no_traceback(tmp_path):
    # Something listens but does not speak dask: the half-built Client's failing __del__ used to
    # print an "Exception ignored ... TimeoutError" traceback after the line, 10 s later.
    import threading
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def answer_garbage():
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            with connection:
                connection.sendall(b"\xff" * 128)

    threading.Thread(target=answer_garbage, daemon=True).start()
    try:
        result = subprocess.run([MMLOGIC, "sweep", "--sizes", "2x2",
                                 "--executor", "dask", "--scheduler", f"tcp://127.0.0.1:{port}"],
                                capture_output=True, text=True, timeout=120, cwd=tmp_path)
    finally:
        listener.close()
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (f"error: tcp://127.0.0.1:{port} is not a Dask scheduler (it answered, but not as Dask "
                             "does)\n")


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each, closed after the module."""
    import distributed
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as c:
        yield c


def test_dask_local_cluster_gives_the_rows_of_jobs_1(small, cluster, tmp_path):
    out = tmp_path / "dask.jsonl"
    result = invoke("sweep", *SMALL, "--executor", "dask", "--scheduler", cluster.scheduler_address, "--out", out,
                    "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    assert steady(rows) == steady(small[0]["rows"])
    assert len(out.read_text().splitlines()) == 4
    # Each case ran in a process of its own on a worker, not in the worker itself.
    assert all(row["host"] == socket.gethostname() for row in rows)


def test_case_round_trips_through_its_dict():
    rules = Rules(4, 40, 1)
    case = Case(rules, "random", parse_code("0,1,2,39", rules), "python", 7)
    assert Case.from_dict(json.loads(json.dumps(case.as_dict()))) == case
    assert case.as_dict()["first_guess"] == "0,1,2,39"
    # A row written before the rules object named its feedback rule is the standard rule's case.
    old = case.as_dict()
    assert old["rules"].pop("feedback") == "standard"
    assert Case.from_dict(old) == case and sweep_case.case_key(old) == case.key
    assert case.label() == "4x40 no-repeat random 0,1,2,39 python seed 7"
    # A seed is part of a case only for strategies that use one.
    cases = sweep_case.plan([(3, 3)], max_repeat=None, strategies=["minimax", "random"], first_guesses=[],
                              all_openings=False, backends=["python"], seed=5)
    assert [c.seed for c in cases] == [None, 5]


def test_docs_show_the_real_cluster_recipe():
    text = (ROOT / "docs" / "cli.md").read_text()
    for line in ("dask scheduler", "dask worker tcp://", "--executor dask --scheduler tcp://"):
        assert line in text


@pytest.mark.parametrize("text, why", [("my notes\nline 2\n", "it is not JSON"), ("my notes", "it is not JSON"),
                                       ("[1, 2]\n", "it must be an object of a row's fields, not [1, 2]"),
                                       ('{"total_guesses": 3}\n', 'it has no "rules"'),
                                       ('{"cut": \n{"another": 1}\n', "it is not JSON"),
                                       ("[" * 100_000 + "\n", "it is not JSON")])
def test_a_file_no_sweep_wrote_is_refused_and_left_as_it_is(tmp_path, text, why):
    # Only a last line cut off mid-row (no end of line) is taken for a kill's; anything else is the
    # user's own file, which --out must not overwrite.
    out = tmp_path / "notes.txt"
    out.write_text(text)
    out.chmod(0o755)
    for command in (("sweep", *SMALL), ("openings", "--pegs", 2, "--colors", 2, "--strategy", "minimax",
                                        "--backend", "python")):
        result = invoke(*command, "--out", out)
        assert (result.exit_code, result.stdout) == (2, ""), result.output
        assert result.stderr == (f"error: --out {out} is not a sweep's output (line 1 is not one of its "
                                 f"rows: {why}); name a new file, or one an earlier sweep wrote\n")
        assert out.read_text() == text and out.stat().st_mode & 0o777 == 0o755


@pytest.fixture(scope="module")
def swept_row(tmp_path_factory) -> dict:
    """The first row a sweep of SMALL writes (swept once for the damaged rows below: a sweep takes 3 s)."""
    out = tmp_path_factory.mktemp("swept") / "rows.jsonl"
    assert invoke("sweep", *SMALL, "--out", out).exit_code == 0
    return json.loads(out.read_text().splitlines()[0])


@pytest.mark.parametrize("field, value, why", [
    ("mean", "abc", '"mean" must be a finite number, not "abc"'),
    ("histogram", [1, 2], '"histogram" must be an object of numbers of guesses and games, not [1, 2]'),
    ("max", None, '"max" must be a whole number of at least 0, not null'),
    ("seconds", "0.1", '"seconds" must be a finite number of at least 0, not "0.1"'),
    ("peak_rss_mb", True, '"peak_rss_mb" must be a finite number of at least 0, not true'),
    ("opening", 17, '"opening" must be a code, not 17'),
    ("games", -1, '"games" must be a whole number of at least 0, not -1'),
    ("rules", {"pegs": 0, "colors": 3, "max_repeat": None}, "--pegs must be between 1 and 64, got 0"),
    ("rules", {"pegs": 3, "colors": 3, "max_repeat": None, "feedback": 7},
     '"rules" must be {"pegs": P, "colors": C, "max_repeat": M or null} and an optional "feedback": RULE')])
def test_a_row_damaged_by_hand_makes_the_file_no_sweeps(tmp_path, swept_row, field, value, why):
    # Only some fields were checked: "mean": "abc" passed, then the table failed ("internal failure").
    out = tmp_path / "rows.jsonl"
    damaged = json.dumps({**swept_row, field: value}) + "\n"
    out.write_text(damaged)
    result = invoke("sweep", *SMALL, "--out", out, "--json")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"error: --out {out} is not a sweep's output (line 1 is not one of its rows: {why}); "
                             "name a new file, or one an earlier sweep wrote\n")
    assert out.read_text() == damaged
