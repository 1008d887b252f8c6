"""The swipl adapter beyond the agreement suite: exact answers, encodings, limits.

Agreement with the brute-force filter on random histories is
``tests/engines/test_engines_agree.py``. No test is skipped: without SWI-Prolog and
janus these tests fail with BackendUnavailable.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from mm_logic.engines.reference import ReferenceEngine
from mm_logic.engines.swipl import SwiplEngine
from mm_logic.feedback import feedback
from mm_logic.rules import Rules
from mm_logic.support.errors import EncodingError, SolverTimeout
from mm_logic.support.resources import encoding_path

from conftest import mmlogic

SHIPPED = encoding_path("mastermind.pl")


# -- exact answers -------------------------------------------------------------
@pytest.mark.parametrize("rules, size", [
    (Rules(3, 2), 8), (Rules(4, 6), 1296), (Rules(4, 6, 2), 1170), (Rules(3, 8, 1), 336),
])
def test_empty_history_is_the_code_space(rules, size):
    engine = SwiplEngine(rules)
    assert engine.count([]) == size
    assert engine.first([]) == ReferenceEngine(rules).space.code(0)
    assert np.array_equal(engine.enumerate([]), ReferenceEngine(rules).space.codes)


def test_knuths_example():
    engine = SwiplEngine(Rules(4, 6))
    history = [((0, 0, 1, 1), (1, 0))]
    assert engine.count(history) == 256
    assert engine.first(history) == (0, 2, 2, 2)
    history.append(((1, 2, 2, 3), (0, 2)))
    assert engine.count(history) == 55
    assert engine.first(history) == (0, 3, 3, 2)


def test_white_pairs_duplicates_once():
    engine = SwiplEngine(Rules(4, 6))
    assert engine.enumerate([((0, 0, 0, 1), (2, 2))]).tolist() == [[0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0]]


def test_contradiction_has_no_code():
    engine = SwiplEngine(Rules(4, 6))
    history = [((0, 1, 2, 3), (2, 0)), ((0, 1, 2, 3), (1, 0))]
    with engine.session(history) as s:
        assert s.first() is None and s.any() is None and s.count() == 0
        assert s.enumerate().shape == (0, 4)
        assert s.random(np.random.default_rng(0)) is None
    assert engine.conflict(history) == (0, 1)


def test_colour_counts_that_cannot_add_up_are_refuted_by_propagation():
    # Six one-colour guesses, 3 pegs each, on 16 pegs: 18 pegs, no code. Without the implied
    # sum of the colour counts, labelling searched for minutes; the limit turns that into a failure.
    rules = Rules(16, 6)
    history = [((c,) * 16, (3, 0)) for c in range(6)]
    with SwiplEngine(rules, time_limit=30).session(history) as s:
        assert s.any() is None
    assert SwiplEngine(rules, time_limit=30).conflict(history) == (0, 1, 2, 3, 4, 5)


def test_codes_come_back_as_an_integer_array():
    codes_ = SwiplEngine(Rules(5, 8, 1)).enumerate([((0, 1, 2, 3, 4), (1, 2))], limit=4)
    assert codes_.dtype == np.uint8 and codes_.shape == (4, 5)
    assert codes_.tolist() == [[0, 2, 1, 5, 6], [0, 2, 1, 5, 7], [0, 2, 1, 6, 5], [0, 2, 1, 6, 7]]


def test_sessions_do_not_disturb_each_other():
    engine = SwiplEngine(Rules(4, 6))
    a = engine.session([((0, 0, 1, 1), (1, 0))])
    b = engine.session([((0, 1, 2, 3), (0, 0))])
    assert (a.count(), b.count()) == (256, 16)
    a.push((2, 2, 3, 3), (0, 1))
    assert (b.first(), a.first(), b.count(), a.count()) == ((4, 4, 4, 4), (0, 3, 4, 4), 16, 48)


# -- encodings: the shipped one, edited copies, broken ones ----------------------
def test_an_edited_copy_loads_beside_the_shipped_module(tmp_path):
    copy = tmp_path / "mastermind.pl"  # still says :- module(mastermind, ...)
    shutil.copy(SHIPPED, copy)
    shipped, edited = SwiplEngine(Rules(4, 6)), SwiplEngine(Rules(4, 6), encoding=copy)
    assert shipped.module == "mastermind" and edited.module != "mastermind"
    history = [((0, 0, 1, 1), (1, 0))]
    assert edited.count(history) == shipped.count(history) == 256


def edited(tmp_path: Path, name: str, appended: str) -> tuple[Path, int]:
    """A copy of the shipped encoding with lines appended; the first appended line's number."""
    text = SHIPPED.read_text()
    path = tmp_path / name
    path.write_text(text + appended)
    return path, text.count("\n") + 1


def variant(tmp_path: Path, name: str, secret_clause: str) -> Path:
    """An encoding that reexports the shipped one with another secret/2."""
    path = tmp_path / name
    path.write_text(f":- module({path.stem}, [secret/2]).\n"
                    ":- reexport(mmlogic(mastermind), except([secret/2])).\n"
                    f"{secret_clause}\n")
    return path


def test_an_encoding_that_halts_is_refused_not_obeyed(tmp_path):
    # `:- halt(3).` ended mmlogic with exit 3 ("no consistent code") and no word; `:- halt.` with exit 0.
    _, line = edited(tmp_path, "halting.pl", ":- halt(3).\n")
    done = mmlogic("solve", "--backend", "swipl", "--encoding", "halting.pl", "--secret", "0123", "--json",
                   cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: halting.pl:{line}: error: the encoding calls halt/1, which would end mmlogic\n")
    variant(tmp_path, "asking.pl", "secret(_, _) :- halt(4).")
    done = mmlogic("next", "--backend", "swipl", "--encoding", "asking.pl", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "error: asking.pl:1: the encoding failed on question all: it called halt/1, which would end "
               "mmlogic\n")


def test_a_file_the_encoding_includes_that_is_no_regular_file_is_refused_at_its_directive(tmp_path):
    # A FIFO: Prolog opened it and waited for ever, deaf to --time-limit.
    os.mkfifo(tmp_path / "pipe.pl")
    for directive in (":- include(pipe).", ":- consult(pipe)."):
        (tmp_path / "main.pl").write_text(f"% the pipe follows\n{directive}\n")
        done = mmlogic("solve", "--backend", "swipl", "--encoding", "main.pl", "--secret", "0123",
                       "--time-limit", "5", cwd=tmp_path, timeout=60)
        assert (done.returncode, done.stdout, done.stderr) == (
            2, "", f"error: main.pl:2: error: the included {tmp_path / 'pipe.pl'} is not a regular file\n")


def test_a_file_the_encoding_includes_that_cannot_be_read_is_an_error_naming_it(tmp_path):
    # /proc/self/mem is a regular file whose read fails (EIO at address 0): the error named a stream.
    (tmp_path / "main.pl").write_text("% the unreadable file follows\n:- include('/proc/self/mem').\n")
    done = mmlogic("solve", "--backend", "swipl", "--encoding", "main.pl", "--secret", "0123", cwd=tmp_path,
                   timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "error: main.pl:2: error: cannot read the included /proc/self/mem: Input/output error\n")


def test_a_halt_in_one_thread_is_not_charged_to_a_load_in_another(tmp_path):
    # A load that ran while another thread's question halted failed with "the encoding calls halt/1",
    # and the question answered 0 codes (exit 3, "no consistent code").
    halting = variant(tmp_path, "asking.pl", "secret(_, _) :- halt(4).")
    slow, _ = edited(tmp_path, "slow.pl", ":- sleep(2).\n")
    child = textwrap.dedent(f"""
        import threading, time
        from mm_logic.engines.swipl import SwiplEngine
        from mm_logic.support.errors import EncodingError
        from mm_logic.rules import Rules
        asking = SwiplEngine(Rules(4, 6), encoding={str(halting)!r})
        loaded = []
        loader = threading.Thread(target=lambda: loaded.append(
            SwiplEngine(Rules(4, 6), encoding={str(slow)!r}).count([])))
        loader.start()
        time.sleep(0.5)  # into the load's sleep
        try:
            asking.count([])
        except EncodingError as error:
            print(str(error).split(": ", 1)[1], flush=True)
        loader.join()
        print(loaded, flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (
        0, "the encoding failed on question all: it called halt/1, which would end mmlogic\n[1296]\n"), done.stderr


def test_what_an_encoding_prints_goes_to_stderr(tmp_path):
    # It went to stdout, before --json's one object.
    edited(tmp_path, "talking.pl", ":- writeln(hello).\n")
    done = mmlogic("solve", "--backend", "swipl", "--encoding", "talking.pl", "--secret", "0123", "--strategy",
                   "first", "--json", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "hello\n")
    assert [g["guess"] for g in json.loads(done.stdout)["guesses"]] == ["0000", "0111", "0122", "0123"]


def test_syntax_error_names_file_and_line(tmp_path, capfd):
    path, line = edited(tmp_path, "syntax.pl", "\nbroken(X :- X.\n")
    with pytest.raises(EncodingError) as error:
        SwiplEngine(Rules(4, 6), encoding=path)
    message = str(error.value)
    assert message.startswith(f"{path}:{line + 1}: error: Syntax error: ")
    assert "\n" not in message
    assert capfd.readouterr() == ("", "")  # nothing dumped by Prolog


def test_warning_is_an_error(tmp_path, capfd):
    path, line = edited(tmp_path, "singleton.pl", "unused(X) :- true.\n")
    with pytest.raises(EncodingError) as error:
        SwiplEngine(Rules(4, 6), encoding=path)
    assert str(error.value) == f"{path}:{line}: warning: Singleton variables: [X]"
    assert capfd.readouterr() == ("", "")


def test_failing_directive_is_an_error(tmp_path, capfd):
    path, line = edited(tmp_path, "directive.pl", ":- use_module(library(no_such_library)).\n")
    with pytest.raises(EncodingError) as error:
        SwiplEngine(Rules(4, 6), encoding=path)
    assert str(error.value) == f"{path}:{line}: error: source_sink `library(no_such_library)' does not exist"
    assert capfd.readouterr() == ("", "")


def test_a_failed_directive_is_reported_again_on_the_next_load(tmp_path):
    # A long-lived process (the server, a test run) loads the same file twice: the second load used to
    # skip the unchanged file and report nothing, then fail on its missing predicates.
    path, line = edited(tmp_path, "fails.pl", ":- fail.\n")
    for _ in range(2):
        with pytest.raises(EncodingError) as error:
            SwiplEngine(Rules(4, 6), encoding=path)
        # the module is the name the adapter gave the copy: mmlogic_encoding_N
        assert re.fullmatch(rf"{re.escape(str(path))}:{line}: warning: Goal \(directive\) failed: "
                            r"mmlogic_encoding_\d+:fail", str(error.value))


def test_ctrl_c_while_an_encoding_loads_is_ctrl_c(tmp_path):
    # Ctrl-C during a directive (loading library(clpfd) takes a second) reaches Prolog as this error,
    # raised by the heartbeat's call into Python; Prolog prints it and goes on loading.
    path, _ = edited(tmp_path, "interrupted.pl", ":- throw(error(python_error('KeyboardInterrupt', none), _)).\n")
    for _ in range(2):
        with pytest.raises(KeyboardInterrupt):
            SwiplEngine(Rules(4, 6), encoding=path)
    assert SwiplEngine(Rules(4, 6)).count([((0, 0, 1, 1), (1, 0))]) == 256


def test_a_directive_that_loops_stops_at_the_time_limit(tmp_path):
    # It ran for ever, deaf to --time-limit (which bounded questions only).
    path, _ = edited(tmp_path, "loops.pl", ":- between(1, inf, X), X < 0.\n")
    for _ in range(2):
        with pytest.raises(SolverTimeout) as error:
            SwiplEngine(Rules(4, 6), encoding=path, time_limit=0.5)
        assert str(error.value) == (f"swipl did not load {path} within the time limit of 0.5 s; raise --time-limit, "
                                    "or look for a directive that does not end")
    assert SwiplEngine(Rules(4, 6), time_limit=0.5).count([((0, 0, 1, 1), (1, 0))]) == 256


def test_labeling_needs_labeled_and_says_so_when_the_encoding_loads(tmp_path):
    # The six predicates are enough without --labeling; with it, the first question failed on
    # "Unknown procedure ...:labeled/3" at a made-up line.
    path = tmp_path / "six.pl"
    path.write_text(":- module(six, [secret/2, feedback/2, first/2, any/2, all/3, count/2]).\n"
                    ":- reexport(mmlogic(mastermind), except([labeled/3])).\n")
    assert SwiplEngine(Rules(4, 6), encoding=path).count([((0, 0, 1, 1), (1, 0))]) == 256
    with pytest.raises(EncodingError) as error:
        SwiplEngine(Rules(4, 6), encoding=path, labeling="ff")
    assert str(error.value) == (f"{path}:1: --labeling needs labeled/3, which the encoding does not define "
                                "(see the shipped mm_logic/encodings/questions.pl)")
    with SwiplEngine(Rules(4, 6), labeling="ff").session([((0, 0, 1, 1), (1, 0))]) as session:
        found = session.any()  # the shipped labeled/3, first-fail
    assert feedback((0, 0, 1, 1), found) == (1, 0)


def test_fixed_file_loads_after_an_error(tmp_path):
    path, _ = edited(tmp_path, "later.pl", "broken(X :- X.\n")
    with pytest.raises(EncodingError):
        SwiplEngine(Rules(4, 6), encoding=path)
    shutil.copy(SHIPPED, path)
    os.utime(path, (time.time() + 5, time.time() + 5))  # newer, whatever the clock's resolution
    assert SwiplEngine(Rules(4, 6), encoding=path).count([((0, 0, 1, 1), (1, 0))]) == 256


def test_missing_predicate_is_named(tmp_path):
    path = tmp_path / "partial.pl"
    path.write_text(":- module(partial, [secret/2]).\nsecret(_, _).\n")
    with pytest.raises(EncodingError) as error:
        SwiplEngine(Rules(4, 6), encoding=path)
    assert str(error.value).startswith(
        f"{path}:1: the encoding does not define feedback/2, first/2, any/2, all/3, count/2;")


def test_missing_file(tmp_path):
    with pytest.raises(EncodingError, match=r"^.+nowhere\.pl:1: no such encoding file$"):
        SwiplEngine(Rules(4, 6), encoding=tmp_path / "nowhere.pl")


def test_runtime_error_in_an_encoding(tmp_path, capfd):
    path = variant(tmp_path, "runtime.pl", "secret(_, _) :- atom_length(_, _).")
    engine = SwiplEngine(Rules(4, 6), encoding=path)
    with pytest.raises(EncodingError) as error:
        engine.count([])
    assert str(error.value).startswith(f"{path}:1: the encoding failed on question ")
    assert str(error.value).endswith("atom_length/2: Arguments are not sufficiently instantiated")
    assert capfd.readouterr() == ("", "")


def test_codes_outside_the_rules_are_refused(tmp_path):
    path = variant(tmp_path, "outside.pl",
                   "secret(rules(P, K, R), S) :- K1 is K + 1, mastermind:secret(rules(P, K1, R), S).")
    with pytest.raises(EncodingError, match=r":1: the encoding's codes must use the colours 0\.\.5$"):
        SwiplEngine(Rules(4, 6), encoding=path).enumerate([])


# -- time limit and Ctrl-C -------------------------------------------------------
def test_time_limit_raises_solver_timeout():
    # 10**8 codes: counting them takes hours, so the limit always strikes first.
    engine = SwiplEngine(Rules(8, 10), time_limit=0.2)
    start = time.perf_counter()
    with pytest.raises(SolverTimeout) as error:
        engine.count([])
    assert time.perf_counter() - start < 10
    message = str(error.value)
    assert message.startswith("swipl did not answer within the time limit of 0.2 s (8x10, ")
    assert "\n" not in message
    # The engine still answers afterwards.
    assert engine.first([((0, 1, 2, 3, 4, 5, 6, 7), (8, 0))]) == (0, 1, 2, 3, 4, 5, 6, 7)


def test_time_limit_stops_a_loop_the_heartbeat_does_not_see(tmp_path):
    # `spin :- spin.` makes no inference the heartbeat counts: a question ran for ever under --time-limit.
    path = variant(tmp_path, "spinning.pl", "secret(_, _) :- spin.\nspin :- spin.")
    engine = SwiplEngine(Rules(4, 6), encoding=path, time_limit=0.5)
    with pytest.raises(SolverTimeout) as error:
        engine.count([])
    assert str(error.value) == ("swipl did not answer within the time limit of 0.5 s "
                                f"(4x6, all, {path.name}); raise --time-limit")
    assert SwiplEngine(Rules(4, 6), time_limit=0.5).count([((0, 0, 1, 1), (1, 0))]) == 256


def test_ctrl_c_stops_a_loop_the_heartbeat_does_not_see(tmp_path):
    # `spin :- spin.` never calls back into Python, where Ctrl-C is handled: it ran on, deaf to Ctrl-C.
    # In a child process, so that a regression fails (the child is killed) instead of hanging the suite.
    path = variant(tmp_path, "spinning.pl", "secret(_, _) :- spin.\nspin :- spin.")
    child = textwrap.dedent(f"""
        import signal, socket
        from mm_logic.engines.swipl import SwiplEngine
        from mm_logic.rules import Rules
        engine = SwiplEngine(Rules(4, 6), encoding={str(path)!r})
        # A wakeup descriptor set before (an asyncio loop's): it still learns of the signal, and is set back.
        reader, writer = socket.socketpair()
        writer.setblocking(False)
        signal.set_wakeup_fd(writer.fileno())
        print("ready", flush=True)
        try:
            engine.count([])
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        print(reader.recv(8) == bytes([signal.SIGINT]), signal.set_wakeup_fd(-1) == writer.fileno(), flush=True)
        # The stop was for that question only: the next ones run to their end.
        print(SwiplEngine(Rules(4, 6)).count([((0, 0, 1, 1), (1, 0)), ((0, 1, 2, 3), (0, 2))]), flush=True)
    """)
    process = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline() == "ready\n"
        time.sleep(0.5)  # into the loop
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)
    finally:
        process.kill()
    assert (process.returncode, out) == (0, "interrupted\nTrue True\n78\n")


@pytest.mark.parametrize("late", [False, True])
def test_a_ctrl_c_read_late_stops_only_the_question_it_came_in(late):
    # The watcher may read the byte of a Ctrl-C after the heartbeat stopped that question and the next one
    # started: it stopped the next one too. The byte is written here by hand, on the socket of the question
    # now running or of the one before.
    from mm_logic.engines.swipl.runtime import runtime
    watch = runtime()._ctrl_c
    engine = SwiplEngine(Rules(8, 10), time_limit=1.5)
    assert engine.count([((0, 1, 2, 3, 4, 5, 6, 7), (8, 0))]) == 1
    before = max(watch._holders)
    slot = before % watch.SLOTS if late else (before + 1) % watch.SLOTS
    timer = threading.Timer(0.3, watch._writers[slot].send, (bytes([signal.SIGINT]),))
    timer.start()
    try:
        with pytest.raises(SolverTimeout if late else KeyboardInterrupt):
            engine.count([])  # 10**8 codes: the time limit ends it unless the byte does
    finally:
        timer.cancel()


def test_the_ctrl_c_watcher_starts_with_the_first_question_of_the_main_thread():
    # Its sockets and thread were made with the runtime, also in processes whose questions all run in
    # other threads (the server's), which never use them. A child process: this one's runtime has started.
    child = textwrap.dedent("""
        import threading
        from mm_logic.engines.swipl import SwiplEngine
        from mm_logic.rules import Rules
        def watching():
            return any(thread.name == "mmlogic-swipl-ctrl-c" for thread in threading.enumerate())
        engine = SwiplEngine(Rules(4, 6))
        worker = threading.Thread(target=lambda: print(engine.count([]), watching(), flush=True))
        worker.start()
        worker.join()
        print(engine.count([((0, 0, 1, 1), (1, 0))]), watching(), flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "1296 False\n256 True\n", "")


def test_ctrl_c_stops_a_question():
    engine = SwiplEngine(Rules(8, 10), time_limit=60)  # the limit only guards against a lost signal
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            engine.count([])
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 30
    assert engine.count([((0, 1, 2, 3, 4, 5, 6, 7), (8, 0))]) == 1


# -- --labeling: the order of `any` ------------------------------------------------
def test_labeling_leftmost_makes_any_the_smallest_code():
    rules = Rules(4, 6)
    history = [((0, 0, 1, 1), (1, 0)), ((2, 3, 4, 5), (0, 2))]
    engine = SwiplEngine(rules, labeling="leftmost")
    with engine.session(history) as s:
        assert s.any() == ReferenceEngine(rules).first(history) == (0, 2, 2, 3)


def test_labeling_ff_plays_consistent_codes_to_the_secret(run_json):
    out = run_json("solve", "--backend", "swipl", "--strategy", "any", "--labeling", "ff", "--pegs", 5,
                   "--colors", 8, "--no-repeat", "--secret", "73512")
    guesses = [(tuple(int(c) for c in g["guess"]), (g["black"], g["white"])) for g in out["guesses"]]
    assert guesses[-1] == ((7, 3, 5, 1, 2), (5, 0))
    for i, (guess, fb) in enumerate(guesses):
        assert feedback(guess, (7, 3, 5, 1, 2)) == fb
        # every guess after the first fits the answers before it (the engine's answers are checked too)
        assert all(feedback(earlier, guess) == seen for earlier, seen in guesses[:i])


def test_labeling_is_refused_by_the_other_backends(run):
    result = run("next", "--backend", "clingo", "--labeling", "ff")
    assert (result.exit_code, result.stderr) == (2, "error: --labeling ff applies to --backend swipl, not clingo\n")
