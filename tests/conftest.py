"""Shared fixtures: the CLI runner. Hypothesis strategies are in ``generators.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mm_logic.cli import cli

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
