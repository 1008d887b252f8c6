"""Static Mastermind by local search (``mmlogic static --guesses K --local-search``): K guesses whose
answers tell every code apart, found by hill climbing over the answers table (numpy), then checked by
clingo (``static.lp``'s part ``check(k)``, the guesses fixed) and by the game's feedback rule.

The search is incomplete: it finds sets, it never proves that none exists (clingo's search does).
It keeps K guesses and counts the classes of codes their answers leave alike (every code alone
when the count is the number of codes). A step takes one of the K guesses and puts in its place the
code, of all codes, that leaves the most classes (ties drawn at random), even when that is fewer
than before one time in :data:`WORSE_MOVES`; after :data:`STALL` steps without a new best, or
:data:`STEPS` in all, it starts again from K codes drawn at random.

>>> from mm_logic.codespace import code_space
>>> from mm_logic.rules import Rules
>>> table = code_space(Rules(3, 4)).table.astype(np.int64)
>>> found = local_search(table, 3, seed=0)
>>> classes(table, found), clingo_check(table, found)
(64, True)
"""

from __future__ import annotations

import time

import numpy as np
from clingo import Control, Number

from ..engines.clingo.solve import solve_within
from ..support.errors import SolverTimeout
from ..support.resources import encoding_path

#: One step in this many may take the best replacement even when it leaves fewer classes.
WORSE_MOVES = 10
#: Steps without a new best before starting again.
STALL = 60
#: Steps of one start at most.
STEPS = 400
#: Candidate codes scored at once (rows of codes x codes keys in memory).
BLOCK = 512


def classes(table: np.ndarray, chosen: list[int]) -> int:
    """How many classes of codes the guesses ``chosen`` answer alike (``table[g, s]``: the answer of
    guess g to secret s); the number of codes when they tell every code apart."""
    return len(np.unique(_keys(table, chosen)))


def _keys(table: np.ndarray, chosen: list[int]) -> np.ndarray:
    """A number per code, equal for two codes exactly when the guesses answer them alike (kept below
    the number of codes, so that one more guess's answer fits in an int64)."""
    key = np.zeros(table.shape[1], dtype=np.int64)
    base = int(table.max()) + 1
    for g in chosen:
        key = np.unique(key * base + table[g], return_inverse=True)[1].astype(np.int64)
    return key


def _classes_with_each(table: np.ndarray, key: np.ndarray) -> np.ndarray:
    """For every code c: the classes that the guesses of ``key`` and c leave."""
    base = int(table.max()) + 1
    out = np.empty(table.shape[0], dtype=np.int64)
    for start in range(0, table.shape[0], BLOCK):
        joined = key[None, :] * base + table[start:start + BLOCK]
        joined.sort(axis=1)
        out[start:start + BLOCK] = 1 + np.count_nonzero(np.diff(joined, axis=1), axis=1)
    return out


def local_search(table: np.ndarray, k: int, seed: int = 0, deadline: float | None = None) -> list[int] | None:
    """K guesses (code numbers, sorted) whose answers tell every code apart, or None past ``deadline``
    (``time.monotonic``'s clock; None searches until found). The same seed gives the same guesses.
    ``table`` may have fewer columns (secrets: an edited encoding's codes) than rows (guesses: every code)."""
    n = table.shape[1]
    if k >= n and table.shape[0] == n:
        return list(range(n))
    rng = np.random.default_rng(seed)
    while deadline is None or time.monotonic() < deadline:
        chosen = [int(g) for g in rng.choice(table.shape[0], k, replace=False)]
        current = classes(table, chosen)
        best, stall = current, 0
        for _ in range(STEPS):
            if current == n:
                return sorted(set(chosen))
            if stall > STALL or (deadline is not None and time.monotonic() >= deadline):
                break
            i = int(rng.integers(k))
            counts = _classes_with_each(table, _keys(table, chosen[:i] + chosen[i + 1:]))
            top = int(counts.max())
            if top < current and rng.integers(WORSE_MOVES):
                stall += 1
                continue
            chosen[i] = int(rng.choice(np.flatnonzero(counts == top)))
            current = top
            stall = 0 if current > best else stall + 1
            best = max(best, current)
        if current == n:
            return sorted(set(chosen))
    return None


def clingo_check(table: np.ndarray, chosen: list[int], deadline: float | None = None) -> bool:
    """Whether clingo, over the answers of the guesses ``chosen`` (``static.lp``'s part ``check(k)``),
    finds them telling every code apart: the program is satisfiable exactly then."""
    # the guess that splits most first: fewer pairs of codes alike to ground
    order = sorted(chosen, key=lambda g: -len(np.unique(table[g])))
    ctl = Control(["0"], logger=lambda code, message: None)
    ctl.load(str(encoding_path("static.lp")))
    facts = [f"code({s})." for s in range(table.shape[1])]
    facts += [f"fixed({i},{g})." for i, g in enumerate(order, 1)]
    facts += [f"answer({g},{s},{f})." for g in order for s, f in enumerate(table[g].tolist())]
    ctl.add("given", [], "".join(facts))
    ctl.ground([("given", []), ("check", [Number(len(order))])])
    outcome = solve_within(ctl, lambda model: None, deadline)
    if outcome is None:
        raise SolverTimeout("time limit")
    return bool(outcome.satisfiable)
