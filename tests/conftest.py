"""Shared fixtures and hypothesis strategies for the test suite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import strategies as st

from mm_logic.cli import cli
from mm_logic.rules import Rules

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def run():
    """Invoke the CLI; returns click's Result (stdout and stderr kept apart)."""
    runner = CliRunner()

    def invoke(*args, input=None):
        return runner.invoke(cli, [str(a) for a in args], input=input)

    return invoke


@pytest.fixture
def run_json(run):
    """Invoke the CLI with --json and parse stdout, asserting exit 0."""

    def invoke(*args):
        result = run(*args, "--json")
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)

    return invoke


@st.composite
def small_rules(draw, max_pegs: int = 5, max_colors: int = 6) -> Rules:
    """Rules small enough to enumerate by brute force, under all three repetition rules."""
    pegs = draw(st.integers(1, max_pegs))
    colors = draw(st.integers(2, max_colors))
    rule = draw(st.sampled_from(["unlimited", "no-repeat", "max-2"]))
    if rule == "no-repeat" and colors < pegs:
        colors = pegs
    if rule == "max-2" and 2 * colors < pegs:
        colors = (pegs + 1) // 2
    return Rules(pegs, colors, {"unlimited": None, "no-repeat": 1, "max-2": 2}[rule])


@st.composite
def code_for(draw, rules: Rules) -> tuple[int, ...]:
    """A valid code under ``rules``."""
    while True:
        code = tuple(draw(st.lists(st.integers(0, rules.colors - 1), min_size=rules.pegs, max_size=rules.pegs)))
        if max(code.count(c) for c in set(code)) <= rules.repeat_limit:
            return code


@st.composite
def history_for(draw, rules: Rules, max_len: int = 4, consistent: bool | None = None):
    """A history of guesses with feedback from a hidden secret, sometimes perturbed."""
    from mm_logic.feedback import feedback

    secret = draw(code_for(rules))
    history = []
    for _ in range(draw(st.integers(0, max_len))):
        guess = draw(code_for(rules))
        fb = feedback(guess, secret)
        perturb = draw(st.booleans()) if consistent is None else not consistent
        if perturb:
            b = draw(st.integers(0, rules.pegs))
            w = draw(st.integers(0, rules.pegs - b))
            if (b, w) != (rules.pegs - 1, 1):
                fb = (b, w)
        history.append((guess, fb))
    return history
