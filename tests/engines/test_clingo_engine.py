"""The clingo adapter beyond the agreement suite: its Control's lifecycle, aiming, errors, limits.

Agreement with the brute-force filter on random histories is
``tests/engines/test_engines_agree.py``; these are the adapter's own behaviours.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from functools import cache

import numpy as np
import pytest

from mm_logic.engines.clingo import ClingoEngine, control, program, session
from mm_logic.engines.clingo.solve import CodeReader
from mm_logic.engines.reference import ReferenceEngine
from mm_logic.feedback import feedback
from mm_logic.randomness import history_rng, random_code
from mm_logic.rules import Rules
from mm_logic.support.errors import EncodingError, SolverTimeout
from mm_logic.support.resources import encoding_path

from conftest import MMLOGIC, mmlogic


@cache
def engines(rules: Rules) -> tuple[ClingoEngine, ReferenceEngine]:
    return ClingoEngine(rules), ReferenceEngine(rules)


def test_session_from_history_equals_pushed_session():
    rules = Rules(4, 6)
    history = [((0, 0, 1, 1), (1, 0)), ((2, 3, 4, 5), (0, 2))]
    clingo, _ = engines(rules)
    assert clingo.count(history) == 60
    assert clingo.first(history) == (0, 2, 2, 3)
    with clingo.session() as s:
        for entry in history:
            s.push(*entry)
        assert s.count() == 60
        s.pop()
        assert s.count() == 256
        s.pop()
        assert s.count() == 1296


def test_released_steps_are_dropped_by_a_rebuild_every_33_pops():
    """A tree search pushes and pops thousands of steps. The Control is rebuilt
    once more than MAX_RELEASED_STEPS (32) steps were released in it: in 100
    push/pop cycles at pushes 34, 67 and 100, so 4 Controls in all (a bug once
    rebuilt at every push after the 33rd: 68 Controls)."""
    assert control.MAX_RELEASED_STEPS == 32
    clingo, _ = engines(Rules(4, 6))
    with clingo.session([((0, 0, 1, 1), (1, 0))]) as s:
        for _ in range(100):
            s.push((2, 3, 4, 5), (0, 2))
            assert (s.count(), s.first()) == (60, (0, 2, 2, 3))
            s.pop()
        assert (s.count(), s.first()) == (256, (0, 2, 2, 2))
        assert s.controls_built == 4


def test_enumerate_returns_sorted_integer_array():
    clingo, _ = engines(Rules(3, 3, 1))
    codes = clingo.enumerate([])
    assert codes.dtype.kind in "ui"
    assert codes.tolist() == [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
    assert clingo.enumerate([], limit=2).tolist() == [[0, 1, 2], [0, 2, 1]]
    assert clingo.enumerate([((0, 1, 2), (3, 0)), ((0, 1, 2), (0, 3))]).shape == (0, 3)


def test_any_in_a_huge_space_does_not_enumerate():
    """30 pegs x 30 colours: 30**30 codes, one answer at once."""
    rules = Rules(30, 30)
    with ClingoEngine(rules, time_limit=20).session() as s:
        code = s.any()
        assert len(code) == 30 and all(0 <= c < 30 for c in code)
        s.push(code, (28, 0))
        other = s.any()
        assert feedback(code, other) == (28, 0)


def test_any_aims_at_a_random_code_drawn_from_the_history():
    """Nothing played yet: the random target is consistent, so it is the answer."""
    rules = Rules(16, 6)
    with ClingoEngine(rules).session() as s:
        assert s.any() == random_code(rules, history_rng(0, [])) == (
            5, 5, 2, 1, 2, 0, 3, 2, 0, 3, 0, 3, 1, 1, 5, 3)
    no_repeat = Rules(5, 8, 1)
    with ClingoEngine(no_repeat).session() as s:
        assert s.any() == random_code(no_repeat, history_rng(0, []))


def test_any_goes_on_without_the_target_when_the_budget_runs_out(monkeypatch):
    """With no conflict allowed near the target, `any` asks again in the plain
    order: the same code as an engine that never aims."""
    rules = Rules(4, 6)
    history = [((0, 0, 1, 1), (1, 0)), ((2, 3, 4, 5), (0, 2))]
    _, reference = engines(rules)
    allowed = {tuple(row) for row in reference.enumerate(history).tolist()}
    monkeypatch.setattr(session, "AIM_MAX_PAIRS", 0)
    with ClingoEngine(rules).session(history) as s:
        plain = s.any()
    monkeypatch.setattr(session, "AIM_MAX_PAIRS", 400)
    monkeypatch.setattr(session, "TARGET_CONFLICTS", 0)
    with ClingoEngine(rules).session(history) as s:
        assert random_code(rules, history_rng(0, history)) not in allowed
        assert s.any() == plain
        assert plain in allowed


def test_any_does_not_aim_in_games_beyond_400_peg_colour_pairs():
    """30x30: random guesses would make every later question much harder."""
    with ClingoEngine(Rules(30, 30)).session() as s:
        assert s._aim is False
    with ClingoEngine(Rules(20, 20)).session() as s:
        assert s._aim is True


def test_near_answers_the_code_it_is_given_when_that_code_is_consistent():
    """30x30, where `any` does not aim: `near` does, at any size (sample-entropy hands it a
    code a walk found close to consistent)."""
    rules = Rules(30, 30)
    secret = tuple((7 * p + 3) % 30 for p in range(30))
    guesses = [tuple((p * g + g) % 30 for p in range(30)) for g in range(1, 6)]
    history = [(g, feedback(g, secret)) for g in guesses]
    with ClingoEngine(rules).session(history) as s:
        assert s.near(secret) == secret
        assert s.any() != secret  # the plain order finds another code


def test_near_goes_on_in_the_plain_order_when_the_budget_runs_out(monkeypatch):
    rules = Rules(4, 6)
    history = [((0, 0, 1, 1), (1, 0)), ((2, 3, 4, 5), (0, 2))]
    monkeypatch.setattr(session, "AIM_MAX_PAIRS", 0)
    _, reference = engines(rules)
    most = max(row.count(5) for row in reference.enumerate(history).tolist())
    with ClingoEngine(rules).session(history) as s:
        plain = s.any()
        # Aimed at (5, 5, 5, 5): as many 5s as a consistent code can have; the plain order has none.
        assert s.near((5, 5, 5, 5)).count(5) == most == 2 and plain.count(5) == 0
    monkeypatch.setattr(session, "NEAR_CONFLICTS", 0)
    with ClingoEngine(rules).session(history) as s:
        assert s.near((5, 5, 5, 5)) == plain


def test_random_beyond_the_enumeration_limit_is_consistent_and_reproducible(monkeypatch):
    monkeypatch.setattr(session, "RANDOM_ENUMERATION_LIMIT", 10)
    rules = Rules(4, 6)
    history = [((0, 0, 1, 1), (1, 0))]
    clingo, reference = engines(rules)
    allowed = {tuple(row) for row in reference.enumerate(history).tolist()}
    with clingo.session(history) as s:
        draws = [s.random(np.random.default_rng(7)) for _ in range(2)]
        assert draws[0] == draws[1]
        assert draws[0] in allowed
        spread = {s.random(np.random.default_rng(seed)) for seed in range(20)}
        assert spread <= allowed and len(spread) > 1
        # the solver's own order is back afterwards
        assert s.first() == min(allowed)


def test_the_model_handler_reads_codes_counts_and_misfits():
    from clingo import Function, Number

    class Model:
        def __init__(self, *atoms):
            self.atoms = [Function(name, [Number(a) for a in args]) for name, *args in atoms]

        def symbols(self, shown):
            return self.atoms

    reader = CodeReader(Rules(2, 3), {})
    reader(Model(("secret", 2, 1), ("secret", 1, 0)))
    reader(Model(("secret", 1, 2), ("secret", 2, 2), ("other", 7)))
    assert (reader.codes, reader.count, reader.misfit) == ([[0, 1], [2, 2]], 2, None)
    reader(Model(("secret", 1, 0), ("secret", 1, 1), ("secret", 2, 0)))
    assert reader.misfit == "secret(1,1)"  # peg 1 given two colours
    reader(Model(("secret", 1, 5)))
    assert reader.misfit == "peg 1 has no colour"  # colour 5 is not one of 3: no peg has one
    reader.reset()
    assert (reader.codes, reader.count, reader.misfit) == ([], 0, None)
    counting = CodeReader(Rules(2, 3), {}, collect=False)
    for _ in range(3):
        counting(Model(("secret", 1, 1), ("secret", 2, 0)))
    assert (counting.codes, counting.count) == ([[1, 0]], 3)


# -- errors ------------------------------------------------------------------

def test_syntax_error_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.lp"
    bad.write_text('#include "code.lp".\n\nsecret(P,C) :- peg(P) colour(C).\n')
    with pytest.raises(EncodingError) as error:
        ClingoEngine(Rules(), encoding=bad).first([])
    message = str(error.value)
    assert message.startswith(f"{bad}:3:")
    assert "\n" not in message
    assert "syntax error" in message


def test_grounding_error_names_file_and_line(tmp_path):
    bad = tmp_path / "unsafe.lp"
    bad.write_text('#include "code.lp".\n#include "show.lp".\n:- secret(P,C), X > C.\n')
    with pytest.raises(EncodingError) as error:
        ClingoEngine(Rules(), encoding=bad).count([])
    message = str(error.value)
    assert message.startswith(f"{bad}:3:")
    assert "\n" not in message and "unsafe" in message


def test_error_in_a_step_part_is_an_encoding_error(tmp_path):
    bad = tmp_path / "step.lp"
    bad.write_text('#include "mastermind.lp".\n#program step(t).\n:- guess(t,P,C), Y < 1.\n')
    engine = ClingoEngine(Rules(), encoding=bad)
    # clingo checks every part's safety at once
    with pytest.raises(EncodingError) as error, engine.session() as s:
        s.push((0, 0, 1, 1), (1, 0))
    assert str(error.value).startswith(f"{bad}:3:")


@pytest.mark.parametrize("files, shown", [
    ({"main.lp": b'#include "mastermind.lp".\ny(\xe9).\n'}, "main.lp:2"),
    ({"main.lp": b'#include "mastermind.lp".\n#include "latin.lp".\n', "latin.lp": b"% fine\nx(\xe9).\n"},
     "latin.lp:2"),
    # A % inside a string starts no comment.
    ({"main.lp": b'#include "mastermind.lp".\np("100%"). q(\xe9).\n'}, "main.lp:2"),
    # clingo finds an include in the working folder too (here the test's folder, not main.lp's).
    ({"enc/main.lp": b'#include "sub/x.lp".\n#include "mastermind.lp".\n', "sub/x.lp": b"x(\xe9).\n"},
     "{cwd}/sub/x.lp:1"),
    # ... and there first: a clean x.lp beside main.lp is not the one clingo reads.
    ({"enc/main.lp": b'#include "x.lp".\n#include "mastermind.lp".\n', "enc/x.lp": b"x(1).\n", "x.lp": b"x(\xe9).\n"},
     "{cwd}/x.lp:1"),
])
def test_a_byte_that_is_not_utf8_is_one_line_not_a_crash(tmp_path, files, shown):
    # clingo's message quoting the byte could not be decoded by its Python logger, inside a call
    # that may not raise: a traceback, then "PANIC: exception in nothrow scope". In a child process,
    # so that a regression fails this test instead of ending the suite.
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    entry = next(iter(files))
    done = mmlogic("solve", "--encoding", entry, "--secret", "1221", cwd=tmp_path)
    where = shown.format(cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"error: {where}: byte 0xe9 is not UTF-8 text, which clingo reads (save the file as UTF-8)\n")


def test_an_include_that_names_no_regular_file_is_refused_at_its_line(tmp_path):
    # A FIFO: clingo opened it and waited for ever, deaf to Ctrl-C and to --time-limit.
    os.mkfifo(tmp_path / "pipe.lp")
    (tmp_path / "folder.lp").mkdir()
    for name in ("pipe.lp", "folder.lp"):
        (tmp_path / "main.lp").write_text(f'#include "mastermind.lp".\n% {name} follows\n#include "{name}".\n')
        done = mmlogic("solve", "--encoding", "main.lp", "--secret", "1221", cwd=tmp_path, timeout=30)
        assert (done.returncode, done.stdout, done.stderr) == (
            2, "", f"error: main.lp:3: the included {name} is not a regular file\n")


def test_an_include_or_an_encoding_that_cannot_be_read_is_an_error_naming_it(tmp_path):
    # /proc/self/mem is a regular file whose read fails (EIO at address 0): clingo read it as an
    # empty part, and the game went on without it.
    (tmp_path / "main.lp").write_text('#include "mastermind.lp".\n#include "/proc/self/mem".\n')
    done = mmlogic("solve", "--encoding", "main.lp", "--secret", "1221", cwd=tmp_path, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "error: main.lp:2: cannot read the included /proc/self/mem: Input/output error\n")
    (tmp_path / "mem.lp").symlink_to("/proc/self/mem")
    done = mmlogic("solve", "--encoding", "mem.lp", "--secret", "1221", cwd=tmp_path, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "error: cannot read --encoding mem.lp: Input/output error\n")


def test_the_shipped_game_reads_its_own_parts_from_any_working_folder(tmp_path):
    # clingo looks an include up in the working folder first: a code.lp there (a copy being edited)
    # replaced the shipped part, and a plain `mmlogic next` there said no code exists (exit 3).
    (tmp_path / "code.lp").write_text("peg(1..N) :- pegs(N).\n")
    (tmp_path / "feedback.lp").write_text("broken(\n")
    done = mmlogic("next", "--backend", "clingo", "--strategy", "first", "--json", "0000:0,0", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, '{"guess": "1111", "consistent": 625}\n', "")
    # The engine parses the parts mastermind.lp includes, and mastermind.lp says nothing else.
    assert program.shipped_parts(encoding_path("mastermind.lp")) == [encoding_path(name) for name in (
        "code.lp", "counts.lp", "repetition.lp", "feedback.lp", "marks.lp", "told.lp", "lies.lp", "diagnose.lp",
        "search.lp", "show.lp")]


def test_a_byte_that_is_not_utf8_inside_a_comment_is_left_alone(tmp_path):
    commented = tmp_path / "commented.lp"
    # Block comments nest: the byte after the inner one's end is still inside the outer one.
    commented.write_bytes(b'% caf\xe9\n%* \xe9t\xe9 %* inner *% caf\xe9 *%\n#include "mastermind.lp".\n')
    assert ClingoEngine(Rules(), encoding=commented).count([((0, 0, 1, 1), (1, 0))]) == 256


def test_a_script_block_this_clingo_cannot_run_is_an_encoding_error(tmp_path):
    # It was an internal failure, on two lines.
    scripted = tmp_path / "scripted.lp"
    scripted.write_text('#include "mastermind.lp".\n#script (python)\nprint("hi")\n#end.\n')
    with pytest.raises(EncodingError) as error:
        ClingoEngine(Rules(), encoding=scripted).count([])
    assert str(error.value) == f"{scripted}:2:1-4:6: python support not available"


def test_missing_encoding_file(tmp_path):
    with pytest.raises(EncodingError) as error:
        ClingoEngine(Rules(), encoding=tmp_path / "nope.lp").first([])
    assert str(error.value).startswith(f"{tmp_path / 'nope.lp'}:")


def test_models_without_secret_are_rejected(tmp_path):
    odd = tmp_path / "odd.lp"
    odd.write_text('#include "code.lp".\n#show peg/1.\n')
    for question in ("first", "any", "count", "enumerate"):
        with pytest.raises(EncodingError) as error, ClingoEngine(Rules(), encoding=odd).session() as s:
            getattr(s, question)()
        assert str(error.value).startswith(f"{odd}:1:") and "secret(P,C)" in str(error.value)


def test_first_without_the_search_part_still_finds_the_smallest(tmp_path):
    plain = tmp_path / "plain.lp"
    plain.write_text("".join(f'#include "{part}".\n' for part in
                             ("code.lp", "counts.lp", "repetition.lp", "feedback.lp", "show.lp")))
    history = [((0, 0, 1, 1), (1, 0)), ((2, 3, 4, 5), (0, 2))]
    with ClingoEngine(Rules(4, 6), encoding=plain).session(history) as s:
        assert s.first() == (0, 2, 2, 3)
        assert s.count() == 60
        assert feedback((0, 0, 1, 1), s.any()) == (1, 0)  # no target(P,C) to aim at


def test_user_include_finds_shipped_parts_and_local_files_win(tmp_path):
    (tmp_path / "show.lp").write_text("#show secret/2.\n% only colour 1 on peg 1\n:- not secret(1,1).\n")
    entry = tmp_path / "mine.lp"
    entry.write_text(encoding_path("mastermind.lp").read_text())
    clingo = ClingoEngine(Rules(3, 3), encoding=entry)
    assert clingo.count([]) == 9
    assert clingo.first([]) == (1, 0, 0)


def test_time_limit_raises_solver_timeout():
    """Counting 10**10 codes cannot finish in a tenth of a second."""
    engine = ClingoEngine(Rules(10, 10), time_limit=0.1)
    with engine.session() as s:
        with pytest.raises(SolverTimeout) as error:
            s.count()
        assert str(error.value) == ("clingo did not answer within the time limit of 0.1 s "
                                    "(10x10, count, mastermind.lp); raise --time-limit")
        # the session still answers afterwards
        engine.time_limit = None
        assert s.first() == (0,) * 10


def test_keyboard_interrupt_cancels_the_search(monkeypatch):
    """Ctrl-C while waiting: the search is cancelled and KeyboardInterrupt propagates."""
    engine = ClingoEngine(Rules(10, 10))
    session = engine.session()
    real_wait = threading.Event.wait

    def interrupted(self, timeout=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(threading.Event, "wait", interrupted)
    with pytest.raises(KeyboardInterrupt):
        session.count()
    monkeypatch.setattr(threading.Event, "wait", real_wait)
    assert session.first() == (0,) * 10


def test_real_ctrl_c_stops_a_long_search():
    """A SIGINT during a long count: the child process stops the search and carries on."""
    child = textwrap.dedent("""
        import sys, time
        from mm_logic.engines.clingo import ClingoEngine
        from mm_logic.rules import Rules
        session = ClingoEngine(Rules(10, 10)).session()
        print("ready", flush=True)
        start = time.monotonic()
        try:
            session.count()
        except KeyboardInterrupt:
            print("interrupted after", round(time.monotonic() - start, 1), flush=True)
        print("then", session.first(), flush=True)
    """)
    process = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=30)
    assert process.returncode == 0
    assert out.startswith("interrupted after")
    assert out.splitlines()[-1] == "then (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)"



def test_a_bounded_count_is_exact_only_when_the_search_finished():
    # Two random guesses on 16x6 leave millions of codes: counting up to 1000 outlives
    # the quick pass's conflict limit. That pass once stopped after some of the models
    # and called the partial count (e.g. 465) exact.
    import random

    rules = Rules(16, 6)
    engine = ClingoEngine(rules)
    rng = random.Random(1)
    for _ in range(10):
        guesses = [tuple(rng.randrange(6) for _ in range(16)) for _ in range(2)]
        secret = tuple(rng.randrange(6) for _ in range(16))
        s = engine.session([(g, feedback(g, secret)) for g in guesses])
        n, exact = s.count_within(1000, seconds=60)
        bigger = s.count_within(5000, seconds=60)
        # Exact means the same count under any larger bound; otherwise a bound above 1000.
        assert bigger == (n, True) if exact else (n == 1001 and bigger[0] > 1000)


@pytest.mark.parametrize("rules, restarts", [(Rules(20, 20), "l,60"), (Rules(21, 20), "l,256"),
                                             (Rules(40, 40), "l,256"), (Rules(4, 6), "l,60")])
def test_games_any_does_not_aim_at_restart_on_a_longer_luby_unit(rules, restarts):
    # Beyond session.AIM_MAX_PAIRS (pegs x colours) clasp restarts on Luby's sequence of unit 256.
    assert session.AIM_MAX_PAIRS == 400
    clingo_session = ClingoEngine(rules).session()
    assert clingo_session._control.ctl.configuration.solver.restarts == restarts


def _grounding_for_ever(tmp_path):
    path = tmp_path / "endless.lp"
    path.write_text('#include "mastermind.lp".\n#program base.\nn(0).\nn(X+1) :- n(X).\n')
    return path


def _capped():
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))  # should the grounding run on: 3 GB, not the machine


def test_an_encoding_that_grounds_for_ever_stops_at_the_time_limit_and_on_ctrl_c(tmp_path):
    # clingo cannot interrupt grounding: n(X+1) :- n(X) grew to 22 GB, deaf to both.
    path = _grounding_for_ever(tmp_path)
    done = subprocess.run([MMLOGIC, "next", "--encoding", str(path), "--time-limit", "1", "0011:1,0"],
                          capture_output=True, text=True, timeout=60, preexec_fn=_capped)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (f"error: clingo did not ground {path} within the time limit of 1 s; raise --time-limit, "
                           "or look for a rule that grounds without end\n")
    child = subprocess.Popen([MMLOGIC, "next", "--encoding", str(path), "0011:1,0"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, preexec_fn=_capped)
    time.sleep(2)  # started, and grounding
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert (child.returncode, out, err) == (130, "", "interrupted\n")


@pytest.mark.parametrize("rule, parts", [("standard", {"base", "step"}), ("black", {"base", "step"}),
                                         ("positional", {"base", "step", "marks"})])
def test_a_control_is_given_the_parts_of_its_feedback_rule_only(rule, parts):
    # The entry file includes every rule's part; kept in the program, ungrounded, another
    # rule's part still slowed every step's grounding by 8% (program.without_other_rules).
    engine = ClingoEngine(Rules(3, 3, feedback=rule))
    try:
        names = {s.name for s in engine.program.statements if s.ast_type.name == "Program"}
        assert names == parts
        assert control.rule_parts(engine.rules) == tuple(sorted(parts - {"base"}, key=["step", "marks"].index))
    finally:
        engine.close()


def test_a_rule_of_ones_own_keeps_the_told_part(tmp_path):
    rule = tmp_path / "same.py"
    rule.write_text("def score(guess, secret):\n    return (sum(g == s for g, s in zip(guess, secret)),)\n")
    encoding = tmp_path / "same.lp"
    encoding.write_text('#include "mastermind.lp".\n#program step(t).\n#defined told/3.\n'
                        ':- active(t), told(t,1,B), not B = #count { P : guess(t,P,C), secret(P,C) }.\n')
    engine = ClingoEngine(Rules(3, 3, feedback=str(rule)), encoding=encoding)
    try:
        names = {s.name for s in engine.program.statements if s.ast_type.name == "Program"}
        assert names == {"base", "step", "told"}
    finally:
        engine.close()
