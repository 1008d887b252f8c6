"""Uniform random codes and per-history random generators.

Random choices are reproducible with ``--seed`` and, for the ``random``
strategy, derived from (seed, history): the guess is then a function of what
was played, so a whole bench can be evaluated as a tree and two engines that
enumerate the same consistent set pick the same code.
"""

from __future__ import annotations

import hashlib

import numpy as np

from .notation import Code, Entry
from .rules import Rules


def drawn_seed() -> int:
    """A seed for a run given none: drawn once, then every random choice of the run derives from it."""
    return int(np.random.SeedSequence().entropy % 2**63)


def history_rng(seed: int, history: list[Entry]) -> np.random.Generator:
    """A generator determined by ``seed`` and the history played so far."""
    digest = hashlib.blake2b(repr([seed, list(history)]).encode(), digest_size=16).digest()
    return np.random.default_rng(list(np.frombuffer(digest, dtype=np.uint32)))


def random_code(rules: Rules, rng: np.random.Generator) -> Code:
    """A uniformly random valid code (any size of code space)."""
    if rules.repeat_limit == 1:
        # A uniform no-repeat code is the prefix of a uniform permutation.
        return tuple(int(c) for c in rng.permutation(rules.colors)[: rules.pegs])
    while True:
        # Rejection keeps uniformity; with at most M repeats it accepts often
        # enough for every size this tool plays.
        code = tuple(int(c) for c in rng.integers(rules.colors, size=rules.pegs))
        if not rules.restricted or max(np.bincount(code)) <= rules.repeat_limit:
            return code
