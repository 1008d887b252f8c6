"""Fuzzing the command line: whatever is typed, never a traceback, always the contract's exit codes.

Hypothesis builds argument lists for every command from small vocabularies
of valid and invalid values (codes, feedback, histories, sizes, seeds,
paths, backends, strategies) and runs them through click's CliRunner. The
games stay small (at most 4 pegs of 6 colours) and every solver call is
bounded by ``--time-limit``, so the whole run takes seconds.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT

EXIT_CODES = {0, 1, 2, 3, 130}
#: bench's --out, a placeholder the test replaces with a file in its own tmp_path: no fixed name in /tmp
#: that two runs of the suite (or two pytest-xdist workers) would write at once.
OUT = "{tmp}/bench.json"
CODES = ["0123", "0011", "5555", "0,1,2,3", "0 1 2 3", "012", "01"]
BAD_CODES = ["01234", "0129", "0,9,1,1", "abcd", "AB", "", "x,y"]
FEEDBACK = ["1,0", "0,0", "4,0", "0,4", "2,2", "0,1", "1,1"]
BAD_FEEDBACK = ["3,1", "-1,0", "5,0", "x", "1", "1,0,0", ""]
NUMBERS = ["1", "2", "3"]
BAD_NUMBERS = ["-1", "0", "x", "1.5", "99999"]
PATHS = ["/proc/x/out.json", "pyproject.toml", "missing.lp", str(ROOT / "examples" / "palindrome.lp"),
         str(ROOT / "examples" / "no_adjacent.pl"), str(ROOT / "mm_logic" / "encodings" / "mastermind.pl")]


def option(name: str, values, invalid=()) -> st.SearchStrategy[list[str]]:
    """Either nothing, or ``name`` with one of ``values`` (about one in twelve times an ``invalid`` one)."""
    weighted = [*values] * max(1, 12 * len(invalid) // max(len(values), 1)) + [*invalid]
    return st.one_of(st.just([]), st.sampled_from(weighted).map(lambda v: [name, v]))


def flag(name: str) -> st.SearchStrategy[list[str]]:
    return st.sampled_from([[], [name]])


RULES = st.tuples(
    option("--pegs", ["1", "2", "3", "4"], ["-1", "0", "x", "65"]),
    option("--colors", ["1", "2", "3", "4", "6"], ["0", "x", "256"]),
    flag("--no-repeat"),
    option("--max-repeat", ["1", "2"], ["0", "x"]),
    option("--alphabet", ["abcdef", "xyzuvw", "ab"], ["aab", "a,b", "a:b"]),
)
ENGINE = st.tuples(
    option("--backend", ["python", "clingo", "swipl"], ["nope"]),
    option("--strategy", ["first", "any", "random", "minimax", "expected", "entropy", "parts"], ["nope"]),
    option("--first-guess", CODES, BAD_CODES),
    option("--seed", NUMBERS, BAD_NUMBERS),
    option("--encoding", PATHS[3:], PATHS[:3]),
    st.just(["--time-limit", "2"]),
)
HISTORY = st.lists(st.tuples(st.sampled_from(CODES * 2 + BAD_CODES), st.sampled_from(FEEDBACK * 2 + BAD_FEEDBACK))
                   .map(lambda e: f"{e[0]}:{e[1]}"), max_size=3)
SECRETS = st.one_of(option("--all", [""]).map(lambda a: a[:1]), option("--games", NUMBERS, BAD_NUMBERS),
                    option("--spaced", NUMBERS, BAD_NUMBERS))
LINES = st.lists(st.sampled_from([*CODES, *BAD_CODES, "?", "hint", "help", "quit", "undo", "0,0", "  "]), max_size=4)


def flatten(parts) -> list[str]:
    return [item for part in parts for item in part]


COMMANDS = st.one_of(
    st.tuples(st.just(["solve"]), RULES.map(flatten), ENGINE.map(flatten), option("--secret", CODES, BAD_CODES),
              flag("--json")).map(flatten),
    st.tuples(st.just(["next"]), RULES.map(flatten), ENGINE.map(flatten), flag("--json"), HISTORY).map(flatten),
    st.tuples(st.just(["bench"]), RULES.map(flatten), ENGINE.map(flatten), SECRETS, flag("--json"),
              option("--out", [OUT], PATHS[:1])).map(flatten),
    st.tuples(st.just(["compare"]), RULES.map(flatten), option("--backend", ["python", "python,clingo", "x"]),
              option("--strategy", ["first", "first,minimax", "x"]),
              st.one_of(option("--all", [""]).map(lambda a: a[:1]), option("--games", NUMBERS, BAD_NUMBERS)),
              option("--seed", NUMBERS, BAD_NUMBERS), option("--preset", ["seed003"], ["nope"]),
              flag("--json")).map(flatten),
    st.tuples(st.just(["info"]), RULES.map(flatten), option("--backend", ["python", "clingo", "x"]),
              flag("--json")).map(flatten),
    st.tuples(st.just(["play"]), RULES.map(flatten), ENGINE.map(flatten), option("--secret", CODES, BAD_CODES),
              option("--max-guesses", NUMBERS, BAD_NUMBERS)).map(flatten),
)


@pytest.mark.slow  # 5.8 and 6.0 s measured
@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(args=COMMANDS, lines=LINES)
def test_any_command_line_gets_an_exit_code_of_the_contract_and_one_line(run, tmp_path, args, lines):
    args = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    # compare --preset seed003 --all would play 40 000 games, and bench or compare --all with a solver's backend
    # (clingo, the default, or swipl) 1,296 games of 4x6, each of its guesses a solver's call (one such example ran
    # for 30 minutes): the fuzz keeps to small work.
    backend = args[args.index("--backend") + 1] if "--backend" in args[:-1] else "clingo"
    if "--all" in args and ("--preset" in args or backend != "python"):
        args = [a for a in args if a != "--all"] + ["--games", "1"]
    result = run(*args, input="\n".join(lines) + "\n")
    assert result.exit_code in EXIT_CODES, (args, result.output)
    assert "Traceback" not in result.output and "internal failure" not in result.stderr, (args, result.stderr)
    if result.exit_code in (1, 2, 3) and args[0] != "compare":
        errors = [line for line in result.stderr.splitlines() if not line.startswith("note: ")]
        assert len(errors) == 1 and errors[0].startswith("error: "), (args, result.stderr)
