"""Compiled kernels (numba) of feedback on packed codes: one word a code.

Feedback of a pair of codes of at most 8 pegs and 16 colours comes from
words (:func:`pack`): one byte per peg, one byte per colour count, so black
pegs are the zero bytes of an exclusive or and common colours a sum of
byte-wise minima. Larger codes take the plain loop (``_plain_feedback``).
"""

from __future__ import annotations

from functools import lru_cache

import numba as nb
import numpy as np

from .numba_cache import CACHE

#: Largest pegs and colours of the packed words.
PACKED_PEGS = 8
PACKED_COLORS = 16

_LOW = np.uint64(0x0101010101010101)
_HIGH = np.uint64(0x8080808080808080)
_ONE = np.uint64(1)
_TWO = np.uint64(2)
_FOUR = np.uint64(4)
_SEVEN = np.uint64(7)
_BYTE = np.uint64(0xFF)
_TOP = np.uint64(56)


def packable(pegs: int, colors: int) -> bool:
    """Whether codes of these rules fit the packed words."""
    return pegs <= PACKED_PEGS and colors <= PACKED_COLORS


def pack(codes: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Packed words of codes: ``(n,)`` peg words and ``(n, 2)`` colour-count words (``uint64``)."""
    n, pegs = codes.shape
    words = np.zeros(n, dtype=np.uint64)
    for p in range(pegs):
        words |= codes[:, p].astype(np.uint64) << np.uint64(8 * p)
    colours = counts.shape[1]
    count_words = np.zeros((n, 2), dtype=np.uint64)
    for c in range(colours):
        count_words[:, c // 8] |= counts[:, c].astype(np.uint64) << np.uint64(8 * (c % 8))
    return words, count_words


@nb.njit(cache=CACHE, inline="always")
def _byte_sum(v):
    return (v * _LOW) >> _TOP


@nb.njit(cache=CACHE, inline="always")
def _byte_min(a, b):
    ge = ((((a | _HIGH) - b) & _HIGH) >> _SEVEN) * _BYTE  # 0xFF where a >= b
    return (b & ge) | (a & ~ge)


@nb.njit(cache=CACHE, inline="always")
def _packed_black_count(gw, word, pegs):
    """Pegs alike in two packed codes: a byte's bits folded into its low bit where they differ."""
    x = gw ^ word
    x |= x >> _FOUR
    x |= x >> _TWO
    x |= x >> _ONE
    return pegs - np.int64(_byte_sum(x & _LOW))


@nb.njit(cache=CACHE, inline="always")
def _packed_common(g0, g1, count0, count1):
    """Colours in common (black + white) of two codes, from their packed colour counts."""
    return np.int64(_byte_sum(_byte_min(g0, count0) + _byte_min(g1, count1)))


@nb.njit(cache=CACHE, inline="always")
def _packed_mark(gw, g0, g1, word, count0, count1, pegs):
    """``black * (pegs + 1) + common`` of one packed guess against one packed secret."""
    return _packed_black_count(gw, word, pegs) * (pegs + 1) + _packed_common(g0, g1, count0, count1)


@nb.njit(cache=CACHE)
def _packed_feedback(out, gw, g0, g1, words, counts0, counts1, start, stop, pegs):
    """``black * (pegs + 1) + common`` of one guess against secrets ``start:stop`` (vectorised)."""
    words = words[start:stop]
    counts0 = counts0[start:stop]
    counts1 = counts1[start:stop]
    for j in range(words.shape[0]):
        out[j] = _packed_mark(gw, g0, g1, words[j], counts0[j], counts1[j], pegs)


@nb.njit(cache=CACHE)
def _plain_feedback(out, guess, gcol, gcnt, ncol, codes, counts, start, stop):
    pegs = codes.shape[1]
    width = pegs + 1
    for j in range(start, stop):
        black = 0
        for p in range(pegs):
            if codes[j, p] == guess[p]:
                black += 1
        common = 0
        for k in range(ncol):
            a = gcnt[k]
            b = counts[j, gcol[k]]
            common += a if a < b else b
        out[j - start] = black * width + common


@nb.njit(cache=CACHE)
def _packed_black(out, gw, words, start, stop, pegs):
    """Black pegs of one guess against secrets ``start:stop`` (the black-peg rule's index)."""
    words = words[start:stop]
    for j in range(words.shape[0]):
        out[j] = _packed_black_count(gw, words[j], pegs)


@nb.njit(cache=CACHE)
def _plain_black(out, guess, codes, start, stop):
    pegs = codes.shape[1]
    for j in range(start, stop):
        black = 0
        for p in range(pegs):
            if codes[j, p] == guess[p]:
                black += 1
        out[j - start] = black


@nb.njit(cache=CACHE, inline="always")
def _positional_marks(marks, guess, code, counts, left):
    """The positional rule's marks of one guess against one secret ``code`` (colour counts ``counts``),
    written to ``marks``: x (2) where the colours are equal, then, left to right, o (1) while the secret
    holds the colour beyond its x pegs (``left``: scratch, one entry per colour), else - (0)."""
    pegs = code.shape[0]
    for p in range(pegs):
        left[guess[p]] = counts[guess[p]]
    for p in range(pegs):
        if code[p] == guess[p]:
            left[guess[p]] -= 1
    for p in range(pegs):
        g = guess[p]
        if code[p] == g:
            marks[p] = 2
        elif left[g] > 0:
            left[g] -= 1
            marks[p] = 1
        else:
            marks[p] = 0


@nb.njit(cache=CACHE)
def _positional_feedback(out, guess, codes, counts, left, start, stop):
    """Positional marks' index (base 3, the first peg most significant) of one guess against secrets
    ``start:stop`` (:func:`_positional_marks`; ``left``: scratch, one entry per colour)."""
    pegs = codes.shape[1]
    marks = np.empty(pegs, np.int64)
    for j in range(start, stop):
        _positional_marks(marks, guess, codes[j], counts[j], left)
        index = 0
        for p in range(pegs):
            index = index * 3 + marks[p]
        out[j - start] = index


@lru_cache(maxsize=4096)
def pack_code(code: tuple[int, ...]) -> tuple[np.uint64, np.uint64, np.uint64]:
    """One code's packed words: peg word, two colour-count words (kept for the codes met last)."""
    word = 0
    counts = [0, 0]
    for p, c in enumerate(code):
        word |= int(c) << (8 * p)
        counts[c // 8] += 1 << (8 * (c % 8))
    return np.uint64(word), np.uint64(counts[0]), np.uint64(counts[1])


@nb.njit(cache=CACHE)
def packed_marks(gw, g0, g1, words, count_words, indices, pegs, lut):
    """Feedback indices (``lut[black * pegs + common]``) of one packed guess against codes ``indices``."""
    out = np.empty(indices.shape[0], dtype=lut.dtype)
    for k in range(indices.shape[0]):
        i = indices[k]
        x = gw ^ words[i]
        x |= x >> _FOUR
        x |= x >> _TWO
        x |= x >> _ONE
        black = pegs - np.int64(_byte_sum(x & _LOW))
        common = np.int64(_byte_sum(_byte_min(g0, count_words[i, 0]) + _byte_min(g1, count_words[i, 1])))
        out[k] = lut[black * pegs + common]
    return out
