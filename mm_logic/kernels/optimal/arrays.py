"""The optimal search's arrays and constants, without numba: what a caller of the search kernels makes.

The kernels themselves live in :mod:`mm_logic.kernels.optimal.search`,
:mod:`~mm_logic.kernels.optimal.solved_sets` and :mod:`~mm_logic.kernels.optimal.node_symmetry`,
which import numba (0.2-0.5 s). A search that runs them compiled ahead of
time (:mod:`mm_logic.kernels.optimal.ahead`) imports this module instead, so
``mmlogic optimal`` on a small game starts without numba.
"""

from __future__ import annotations

import itertools

import numpy as np

#: A cost no strategy reaches: a part too large for the guesses left.
INF = 1 << 30
#: What a stopped search returns (above every cost and bound).
STOPPED = INF + 1
#: Slots of the control array shared with the caller: the stop flag, sets searched, guesses
#: searched at the caller's set and at the set below it.
STOP, NODES, TRIED, TRIED_BELOW = range(4)
CONTROL_SLOTS = 8
#: A flag of a game (the last item of the search's ``game``): every guess consistent with the history
#: (``--consistent-only``).
HARD = 1
#: A flag of a game: renaming colours does not keep the feedback (no free colour blocks: a rule of
#: one's own may tell colours apart, :class:`mm_logic.symmetry.GameSymmetry`).
FIXED_COLOURS = 2

#: Mixed into the second hash of a set: the depth left (depth-limited searches) and the feasibility table.
DEPTH_SALT = np.uint64(0x9E3779B97F4A7C15)
FEASIBLE_SALT = np.uint64(0xC2B2AE3D27D4EB4F)


def new_scratch(size: int, slots: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Buffers the scoring (:func:`mm_logic.kernels.optimal.guess_scores.score_guesses`) reuses at every node:
    part-count words (or byte counts, or feedback bits), scores, every code, picked guesses, and 16-bit scores (those of
    :mod:`mm_logic.kernels.optimal.small_sets` and :mod:`~mm_logic.kernels.optimal.middling_sets`)."""
    return (np.zeros((slots + 7) // 8 * size, dtype=np.uint64), np.zeros(size, dtype=np.int64),
            np.arange(size, dtype=np.int64), np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int16))


def new_table(bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """An empty transposition table of ``2**bits`` entries: keys, values, guesses, set sizes, exact flags."""
    size = 1 << bits
    return (np.zeros((size, 2), dtype=np.uint64), np.zeros(size, dtype=np.int64), np.full(size, -1, dtype=np.int32),
            np.zeros(size, dtype=np.int32), np.zeros(size, dtype=np.bool_))


def depth_salt(depth: int | None) -> np.uint64:
    """The salt of :func:`mm_logic.kernels.optimal.search.search`'s entries for ``depth`` guesses left
    (None: unlimited)."""
    return np.uint64(0) if depth is None else np.uint64(int(DEPTH_SALT) * (depth + 1) % 2**64)


def tagged_codes(codes: np.ndarray, colours: int) -> np.ndarray:
    """The codes with colour ``c`` on peg ``p`` written ``p * colours + c`` (per-peg symmetry)."""
    return np.ascontiguousarray(codes.astype(np.int64) + np.arange(codes.shape[1], dtype=np.int64) * colours)


def peg_permutations(pegs: int, per_peg: bool) -> np.ndarray:
    """Every permutation of the pegs (per-peg symmetry), else none: the search's switch between the two kinds."""
    found = list(itertools.permutations(range(pegs))) if per_peg else []
    return np.array(found, dtype=np.int64).reshape(len(found), pegs)
