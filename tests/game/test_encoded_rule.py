"""A feedback rule stated in an encoding (``--feedback FILE.lp`` or ``FILE.pl``): the table its engine derives,
the arity it infers, the codes it admits, the cache on disk, and the command line that plays it.

The references are written here from the rules' definitions (brute force over every pair of codes), or are the
rule's Python statement, examples/shared_colours.py, through the package's own code space.
"""

from __future__ import annotations

from itertools import product
from pathlib import Path

import numpy as np
import pytest

from mm_logic.codespace import code_space
from mm_logic.engines import make_engine
from mm_logic.feedback import encoded
from mm_logic.feedback.encoded import MAX_DERIVED_CODES, EncodedRule, cache_file
from mm_logic.rules import Rules
from mm_logic.support.errors import BadInput

from conftest import ROOT, one_line_error

EXAMPLES = ROOT / "examples"
SHARED = {".lp": EXAMPLES / "shared_colours.lp", ".pl": EXAMPLES / "shared_colours.pl"}
GAME = "1  0000  1\n2  0111  2\n3  0122  3\n4  0123  won\n4 guesses\n"

#: Black pegs, then the colours shared (black + white): a rule of two numbers, in ASP and in Prolog.
BLACK_AND_SHARED_LP = """#include "mastermind.lp".
#program step(t).
#defined told/3.
% the first number: the pegs of guess t with the secret's colour
:- active(t), told(t,1,B), not B = #count { P : guess(t,P,C), secret(P,C) }.
% the second: the colours guess t shares with the secret
:- active(t), told(t,2,S), not S = #count { C,I : guess_count(t,C,N), at_least(C,I), I <= N }.
"""
BLACK_LP = """#include "mastermind.lp".
#program step(t).
#defined told/3.
% the one number: the pegs of guess t with the secret's colour
:- active(t), told(t,1,B), not B = #count { P : guess(t,P,C), secret(P,C) }.
"""
BLACK_AND_SHARED_PL = """:- module(black_and_shared, [feedback/2]).
:- reexport(mmlogic(mastermind), except([feedback/2])).
:- use_module(mmlogic(mastermind), [feedback/2 as mastermind_feedback]).
:- use_module(library(clpfd)).
:- use_module(library(apply), [maplist/3, maplist/4]).
:- use_module(library(lists), [clumped/2, nth0/3]).

feedback(secret(Pegs, _Marks, Counts), told(Guess, [Black, Shared])) :-
    !,
    maplist(same, Pegs, Guess, Blacks),
    sum(Blacks, #=, Black),
    msort(Guess, Sorted),
    clumped(Sorted, Offered),
    maplist(offered(Counts), Offered, Pairs),
    sum(Pairs, #=, Shared).
feedback(Secret, Entry) :-
    mastermind_feedback(Secret, Entry).

same(Peg, C, B) :- B #<==> (Peg #= C).
offered(Counts, C-Offer, Paired) :- nth0(C, Counts, Count), Paired #= min(Offer, Count).
"""
#: The shipped game and no told/3 clause: the rule tells nothing.
SILENT_PL = """:- module(silent, []).
:- reexport(mmlogic(mastermind)).
"""
#: A rule whose told/3 no code satisfies.
SILENT_LP = """#include "mastermind.lp".
#program step(t).
#defined told/3.
% no number is ever told
:- active(t), told(t,1,_).
"""
#: The shipped game alone: told/3 left free, every code has every answer.
FREE_LP = """#include "mastermind.lp".
"""
#: The shared colours, of palindromes only (examples/palindrome.lp and examples/shared_colours.lp at once).
PALINDROME_LP = """#include "mastermind.lp".
#program base.
% peg P and peg N+1-P hold the same colour
:- secret(P,C), pegs(N), not secret(N+1-P,C).
#program step(t).
#defined told/3.
% guess t shares exactly S colours with the secret
:- active(t), told(t,1,S), not S = #count { C,I : guess_count(t,C,N), at_least(C,I), I <= N }.
"""


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    """Every test derives afresh, into a cache folder of its own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "mmlogic" / "rules"


def codes_of(pegs: int, colors: int) -> list[tuple[int, ...]]:
    return list(product(range(colors), repeat=pegs))


def shared(guess, secret) -> int:
    return sum(min(guess.count(c), secret.count(c)) for c in set(guess))


def black(guess, secret) -> int:
    return sum(g == s for g, s in zip(guess, secret))


def brute_table(pegs: int, colors: int, told) -> np.ndarray:
    """Every pair's feedback index from the rule's definition: the numbers ``told(g, s)`` in base pegs + 2,
    the win every number pegs + 1."""
    codes = codes_of(pegs, colors)
    table = np.empty((len(codes), len(codes)), dtype=np.int64)
    for g, guess in enumerate(codes):
        for s, secret in enumerate(codes):
            numbers = told(guess, secret)
            numbers = [pegs + 1] * len(numbers) if guess == secret else numbers
            table[g, s] = sum(v * (pegs + 2) ** i for i, v in enumerate(reversed(numbers)))
    return table


def written(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# -- the derived table ------------------------------------------------------------------------
@pytest.mark.parametrize("pegs, colors", [(3, 4), (4, 4)])
@pytest.mark.parametrize("suffix", [".lp", ".pl"])
def test_the_example_encodings_derive_the_table_of_the_example_module(suffix, pegs, colors):
    rule = EncodedRule(SHARED[suffix], Rules(pegs, colors))
    reference = code_space(Rules(pegs, colors, feedback=str(EXAMPLES / "shared_colours.py"))).table
    assert np.array_equal(rule.index_table(), reference)
    assert np.array_equal(rule.index_table(), brute_table(pegs, colors, lambda g, s: [shared(g, s)]))
    assert rule.arity(pegs) == 1 and rule.admitted().tolist() == list(range(colors**pegs))
    assert rule.not_admitted == pegs + 2 and rule.slots(pegs) == pegs + 3
    guess, secret = (0,) * (pegs - 2) + (1, 1), (1, 2, 3) + (1,) * (pegs - 3)  # 011 | 0011 against 123 | 1231
    assert rule.score(guess, secret) == ((1,) if pegs == 3 else (2,))
    assert rule.score((1,) * pegs, (1,) * pegs) == (-1,)


@pytest.mark.parametrize("suffix, text", [(".lp", BLACK_AND_SHARED_LP), (".pl", BLACK_AND_SHARED_PL)])
def test_a_rule_of_two_numbers_is_found_to_tell_two(tmp_path, suffix, text):
    rule = EncodedRule(written(tmp_path, f"rule{suffix}", text), Rules(3, 3))
    assert rule.arity(3) == 2
    assert np.array_equal(rule.index_table(), brute_table(3, 3, lambda g, s: [black(g, s), shared(g, s)]))
    assert rule.score((0, 1, 2), (2, 1, 0)) == (1, 3)
    assert rule.write(rule.score((0, 1, 2), (1, 2, 0))) == "0,3"
    assert rule.read("1,2", 3) == (1, 2) and rule.read("won", 3) == (-1, -1)


def test_a_rule_of_one_number_is_found_to_tell_one(tmp_path):
    rule = EncodedRule(written(tmp_path, "black.lp", BLACK_LP), Rules(3, 3))
    assert rule.arity(3) == 1
    assert np.array_equal(rule.index_table(), brute_table(3, 3, lambda g, s: [black(g, s)]))


@pytest.mark.parametrize("suffix, text", [(".lp", SILENT_LP), (".pl", SILENT_PL)])
def test_a_rule_that_tells_nothing_is_one_line(tmp_path, suffix, text):
    path = written(tmp_path, f"silent{suffix}", text)
    with pytest.raises(BadInput) as caught:
        EncodedRule(path, Rules(3, 3)).index_table()
    assert str(caught.value) == f"{path} tells no feedback of 000 against 001"


def test_a_rule_that_leaves_the_numbers_free_is_one_line_naming_two_answers(tmp_path):
    path = written(tmp_path, "free.lp", FREE_LP)
    with pytest.raises(BadInput) as caught:
        EncodedRule(path, Rules(3, 3)).index_table()
    head, _, answers = str(caught.value).partition(": ")
    assert head.startswith(f"{path} tells 000 several feedbacks against ")
    first, second = answers.split(" or ")
    assert first != second and {first, second} <= {"0", "1", "2", "3"}
    assert head.split(" against ")[1] in {"".join(map(str, c)) for c in codes_of(3, 3)[1:]}


# -- a narrowed code space ----------------------------------------------------------------------
def test_an_encoding_that_narrows_the_space_admits_its_codes_only(tmp_path):
    path = written(tmp_path, "palindrome.lp", PALINDROME_LP)
    rule = EncodedRule(path, Rules(4, 3))
    codes = codes_of(4, 3)
    palindromes = [i for i, c in enumerate(codes) if c == c[::-1]]
    assert rule.admitted().tolist() == palindromes and len(palindromes) == 9
    table = rule.index_table()
    others = [i for i in range(len(codes)) if i not in palindromes]
    assert rule.not_admitted == 6 and (table[:, others] == 6).all()
    assert np.array_equal(table[:, palindromes], brute_table(4, 3, lambda g, s: [shared(g, s)])[:, palindromes])
    with pytest.raises(BadInput, match=rf"^{path}: the encoding admits no code 0012$"):
        rule.score((0, 0, 0, 0), (0, 0, 1, 2))
    assert rule.score((0, 0, 1, 2), (0, 1, 1, 0)) == (3,)


def test_the_python_engine_keeps_only_admitted_codes(tmp_path):
    path = written(tmp_path, "palindrome.lp", PALINDROME_LP)
    rules = Rules(4, 3, feedback=str(path))
    with make_engine("python", rules).session([((0, 0, 1, 1), (2,))]) as session:
        found = [tuple(int(x) for x in c) for c in session.enumerate()]
    assert found == [c for c in codes_of(4, 3) if c == c[::-1] and shared((0, 0, 1, 1), c) == 2]
    # (of the whole space, 34 codes share two colours with 0011: 0022 among them)
    assert found == [(0, 0, 0, 0), (0, 2, 2, 0), (1, 1, 1, 1), (1, 2, 2, 1), (2, 0, 0, 2), (2, 1, 1, 2)]


# -- the cache ----------------------------------------------------------------------------------
def test_a_second_rule_reads_the_cached_table(monkeypatch, cache):
    first = EncodedRule(SHARED[".lp"], Rules(3, 4)).index_table()
    assert cache_file(EncodedRule(SHARED[".lp"], Rules(3, 4))).is_file()
    assert [p.suffix for p in cache.iterdir()] == [".npz"]

    def refused(rule):
        raise AssertionError("derived again")

    monkeypatch.setattr(encoded, "derive", refused)
    again = EncodedRule(SHARED[".lp"], Rules(3, 4))
    assert np.array_equal(again.index_table(), first) and again.arity(3) == 1
    with pytest.raises(AssertionError):
        EncodedRule(SHARED[".lp"], Rules(3, 3)).index_table()  # other rules: another table


def test_a_changed_file_is_derived_again(tmp_path, monkeypatch, cache):
    path = written(tmp_path, "rule.lp", SHARED[".lp"].read_text())
    EncodedRule(path, Rules(3, 4)).index_table()
    calls = []
    derive = encoded.derive
    monkeypatch.setattr(encoded, "derive", lambda rule: calls.append(rule) or derive(rule))
    path.write_text(path.read_text().replace("%%% A feedback", "%%% a feedback", 1))  # one byte
    table = EncodedRule(path, Rules(3, 4)).index_table()
    assert len(calls) == 1 and len(list(cache.iterdir())) == 2
    assert np.array_equal(table, brute_table(3, 4, lambda g, s: [shared(g, s)]))


@pytest.mark.parametrize("damage", [b"", b"not a numpy file", None])
def test_a_damaged_cache_file_is_derived_again(monkeypatch, damage):
    rule = EncodedRule(SHARED[".pl"], Rules(3, 3))
    rule.index_table()
    file = cache_file(rule)
    if damage is None:  # another table's file under this name: the wrong shape
        np.savez(file, table=np.zeros((2, 2), dtype=np.uint8), arity=np.int64(1))
    else:
        file.write_bytes(damage)
    calls = []
    derive = encoded.derive
    monkeypatch.setattr(encoded, "derive", lambda rule: calls.append(rule) or derive(rule))
    table = EncodedRule(SHARED[".pl"], Rules(3, 3)).index_table()
    assert len(calls) == 1
    assert np.array_equal(table, brute_table(3, 3, lambda g, s: [shared(g, s)]))
    assert np.array_equal(np.load(file)["table"], table)  # written whole again


# -- the command line ---------------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["python", "clingo"])
def test_solve_plays_the_lp_rule_as_the_module(run, backend):
    result = run("solve", "--feedback", SHARED[".lp"], "--backend", backend, "--strategy", "first", "--secret",
                 "0123")
    module = run("solve", "--feedback", EXAMPLES / "shared_colours.py", "--backend", backend, "--strategy", "first",
                 "--secret", "0123", *(["--encoding", SHARED[".lp"]] if backend == "clingo" else []))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == module.stdout == GAME


@pytest.mark.parametrize("backend", ["python", "swipl"])
def test_solve_plays_the_pl_rule_as_the_module(run, backend):
    options = ["--pegs", 3, "--colors", 4, "--strategy", "first", "--secret", "123"]
    result = run("solve", "--feedback", SHARED[".pl"], "--backend", backend, *options)
    module = run("solve", "--feedback", EXAMPLES / "shared_colours.py", "--backend", "python", *options)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == module.stdout == "1  000  0\n2  111  1\n3  122  2\n4  123  won\n4 guesses\n"


def test_a_rule_beyond_the_size_limit_is_one_line(run):
    assert MAX_DERIVED_CODES["clingo"] < 5**7
    one_line_error(run("solve", "--feedback", SHARED[".lp"], "--backend", "python", "--pegs", 5, "--colors", 7,
                       "--secret", "01234"), 2,
                   f"--feedback {SHARED['.lp']}: deriving the rule's table of 5x7 (16,807 codes) by clingo is beyond "
                   f"{MAX_DERIVED_CODES['clingo']:,} codes; state it as a Python module (--feedback FILE.py)",
                   stdout="")


def test_the_other_engine_needs_an_encoding_that_states_the_rule(run):
    one_line_error(run("next", "--feedback", SHARED[".lp"], "--backend", "swipl", "--strategy", "first"), 2,
                   f"--feedback {SHARED['.lp']}: --backend swipl needs an --encoding .pl file that states the rule "
                   f"(docs/encodings.md); {SHARED['.lp']} is for --backend clingo", stdout="")


def test_a_rule_that_narrows_the_code_space_is_played_alike_by_python_and_clingo(run_json, run):
    # examples/shared_no_adjacent.lp: 12 codes of 3x3 with no two adjacent pegs alike, the colours shared told.
    rule = EXAMPLES / "shared_no_adjacent.lp"
    admitted = [c for c in product(range(3), repeat=3) if c[0] != c[1] and c[1] != c[2]]
    for backend in ("python", "clingo"):
        opening = run_json("next", "--backend", backend, "--pegs", 3, "--colors", 3, "--feedback", rule,
                           "--strategy", "first")
        assert opening == {"guess": "010", "consistent": len(admitted)}
        bench = run_json("bench", "--backend", backend, "--pegs", 3, "--colors", 3, "--feedback", rule, "--all")
        assert (bench["games"], bench["total_guesses"]) == (12, 42)
    refused = run("solve", "--backend", "python", "--pegs", 3, "--colors", 3, "--feedback", rule, "--secret", "000")
    assert (refused.exit_code, refused.stderr) == (
        2, "error: --secret 000 is excluded by shared_no_adjacent.lp (the game's secrets are the codes it admits)\n")
