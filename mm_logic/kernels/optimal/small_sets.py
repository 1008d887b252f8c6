"""Compiled kernels (numba) of the optimal search's scoring of small sets: the feedbacks each guess gets.

Deep in the search most sets are small (4x10: nine scorings in ten are of
fewer than 32 codes) and their scoring was the search's whole time: every
code of the game counted as a guess, its parts' sizes in counters packed in
words (1.3-1.6 cycles a guess and a secret). While no part can hold more
codes than one guess can tell apart, a guess's bound needs only *which*
feedbacks it gets (:func:`mm_logic.kernels.optimal.guess_scores.score_guesses`): one bit
per feedback, or-ed over the set's secrets, then ``3n - won - bits set``.
:func:`seen_scores` keeps those bits for a vector of guesses in a register
through the whole set (a shift and an or for every 32 guesses and a secret:
0.05 cycles a pair, 30 times less) and turns them into the guesses' scores
there, written as LLVM vector code: numba's own loops reloaded and stored the
bits at every secret, and scored in 64-bit lanes (1.3 cycles a guess).
:func:`least_score` gives the least of those scores alone, kept in a vector
to the end (no score stored): the search's bound one guess ahead of each
part, half its time, 17-20 % faster so (4x10's part of 926 codes against
3,800: 56.6 s to 47.2 s, the same 164,147 sets).
"""

from __future__ import annotations

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..numba_cache import CACHE

#: Bytes of guesses a vector holds (one 512-bit register; two 256-bit ones elsewhere).
VECTOR_BYTES = 64
#: Vectors of guesses :func:`least_score` keeps at once.
LEAST_VECTORS = 2


def _largest(width: int) -> int:
    """The score of a guess left out, in integers of ``width`` bits: their largest, or 2**31 - 1 (it is
    returned in 32 bits)."""
    return (1 << (min(width, 32) - 1)) - 1


class _Vectors:
    """The LLVM vector code the kernels share: ``lanes`` integers of ``width`` bits, one per guess, filled from
    the rows of the table by secret (``args[0]``) of the secrets ``args[1]``."""

    def __init__(self, context, builder, signature, args, width):
        self.builder = builder
        self.lanes = VECTOR_BYTES * 8 // width
        self.i64, self.iw = ir.IntType(64), ir.IntType(width)
        table_t, s_t = signature.args[:2]
        table = context.make_array(table_t)(context, builder, args[0])
        self.secrets = context.make_array(s_t)(context, builder, args[1])
        self.feedback_width, self.width = table_t.dtype.bitwidth, width
        self.feedbacks = ir.VectorType(ir.IntType(self.feedback_width), self.lanes)
        self.words = ir.VectorType(self.iw, self.lanes)
        self.row_stride = cgutils.unpack_tuple(builder, table.strides, 2)[0]
        self.count = cgutils.unpack_tuple(builder, self.secrets.shape, 1)[0]
        self.item = ir.Constant(self.i64, self.feedback_width // 8)
        self.base = builder.ptrtoint(table.data, self.i64)
        self.name = f"v{self.lanes}i{width}"
        self.one, self.zero = self.constant(1), self.constant(0)
        self.largest = self.constant(_largest(width))

    def constant(self, value: int):
        return ir.Constant(self.words, [value] * self.lanes)

    def broadcast(self, value):
        """A 64-bit value, truncated, in every lane."""
        single = self.builder.insert_element(ir.Constant(self.words, ir.Undefined), self.builder.trunc(value, self.iw),
                                             ir.Constant(ir.IntType(32), 0))
        return self.builder.shuffle_vector(single, single, ir.Constant(ir.VectorType(ir.IntType(32), self.lanes),
                                                                       [0] * self.lanes))

    def guess_at(self, start):
        """The address of guess ``start``'s feedback in row 0 of the table (rows follow at ``row_stride``)."""
        return self.builder.add(self.base, self.builder.mul(start, self.item))

    def or_rows(self, firsts, seens):
        """For every secret of S, or into each vector ``seens[v]`` the bits of the feedbacks its row gives the
        guesses from the address ``firsts[v]`` on."""
        builder = self.builder
        with cgutils.for_range(builder, self.count) as loop:
            secret = builder.sext(builder.load(builder.gep(self.secrets.data, [loop.index])), self.i64)
            offset = builder.mul(secret, self.row_stride)
            for at, seen in zip(firsts, seens):
                row = builder.load(builder.inttoptr(builder.add(at, offset), self.feedbacks.as_pointer()), align=1)
                if self.feedback_width < self.width:
                    row = builder.zext(row, self.words)
                elif self.feedback_width > self.width:
                    row = builder.trunc(row, self.words)
                builder.store(builder.or_(builder.load(seen), builder.shl(self.one, row)), seen)

    def scores(self, bits, win, skip_won=None):
        """The guesses' scores from their feedback bits: ``3n - won - bits set``, :func:`_largest` for a guess
        that leaves S whole or (``skip_won`` set) wins."""
        builder = self.builder
        ctpop = cgutils.get_or_insert_function(builder.module, ir.FunctionType(self.words, [self.words]),
                                               f"llvm.ctpop.{self.name}")
        set_bits = builder.call(ctpop, [bits])
        won = builder.and_(builder.lshr(bits, self.broadcast(win)), self.one)
        parts = builder.sub(set_bits, won)
        left_out = builder.and_(builder.icmp_unsigned("==", parts, self.one),
                                builder.icmp_unsigned("==", won, self.zero))
        if skip_won is not None:
            left_out = builder.or_(left_out, builder.and_(builder.icmp_unsigned("!=", won, self.zero),
                                                          builder.icmp_unsigned("!=", self.broadcast(skip_won),
                                                                                self.zero)))
        three_n = self.broadcast(builder.mul(self.count, ir.Constant(self.i64, 3)))
        return builder.select(left_out, self.largest, builder.sub(builder.sub(three_n, won), set_bits))

    def least(self, vector):
        """The least lane of ``vector``, as a 64-bit integer."""
        smin = cgutils.get_or_insert_function(self.builder.module, ir.FunctionType(self.iw, [self.words]),
                                              f"llvm.vector.reduce.smin.{self.name}")
        return self.builder.sext(self.builder.call(smin, [vector]), self.i64)


@intrinsic
def _block_scores(typingctx, by_secret, S, start, scores, win, skip_won, cut):
    """Score the guesses ``start + i``, ``i`` below one vector's lanes (``VECTOR_BYTES`` over the width of
    ``scores``' integers, which must exceed ``win``), into ``scores``.

    Bit ``f`` of a guess's word: some code of S gives it the feedback ``f`` (``by_secret[s, g]``). Its
    score: :func:`_largest` when it leaves S whole or (``skip_won``) wins, else
    ``3n - won - bits set``. Returns ``(guesses below cut) << 32 | (least score >= cut)``.
    """
    width = scores.dtype.bitwidth
    sig = types.int64(by_secret, S, start, scores, win, skip_won, cut)

    def codegen(context, builder, signature, args):
        v = _Vectors(context, builder, signature, args, width)
        out = context.make_array(signature.args[3])(context, builder, args[3])
        seen = cgutils.alloca_once_value(builder, v.zero)  # a register after mem2reg
        v.or_rows([v.guess_at(args[2])], [seen])
        score = v.scores(builder.load(seen), args[4], args[5])
        builder.store(score, builder.bitcast(builder.gep(out.data, [args[2]]), v.words.as_pointer()), align=1)
        top = ir.Constant(v.i64, _largest(width))
        below = builder.icmp_signed("<", score, v.broadcast(builder.select(builder.icmp_signed(">", args[6], top),
                                                                              top, args[6])))
        least = v.least(builder.select(below, v.largest, score))
        ctpop_mask = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(v.lanes)])
        under = builder.zext(builder.call(ctpop_mask, [builder.bitcast(below, ir.IntType(v.lanes))]), v.i64)
        return builder.or_(builder.shl(under, ir.Constant(v.i64, 32)), least)

    return sig, codegen


@intrinsic
def _least_in(typingctx, by_secret, S, stop, win, width):
    """The least score (:func:`_block_scores`'s, ``skip_won`` off) of the guesses ``0..stop - 1``, ``stop`` a
    multiple of :data:`LEAST_VECTORS` vectors' lanes, in integers as wide as ``width``'s: :func:`_largest` for
    none.

    :data:`LEAST_VECTORS` vectors of guesses at a time share each secret's row address, and the least is kept in
    a vector until the end: no score is stored (what a bound one guess ahead needs, :func:`least_score`).
    """
    bitwidth = width.dtype.bitwidth
    sig = types.int64(by_secret, S, stop, win, width)

    def codegen(context, builder, signature, args):
        v = _Vectors(context, builder, signature, args, bitwidth)
        least = cgutils.alloca_once_value(builder, v.largest)
        step = ir.Constant(v.i64, LEAST_VECTORS * v.lanes)
        with cgutils.for_range_slice(builder, ir.Constant(v.i64, 0), args[2], step) as (start, _):
            first = v.guess_at(start)
            firsts = [builder.add(first, builder.mul(ir.Constant(v.i64, k * v.lanes), v.item))
                      for k in range(LEAST_VECTORS)]
            seens = [cgutils.alloca_once_value(builder, v.zero) for _ in range(LEAST_VECTORS)]
            v.or_rows(firsts, seens)
            for seen in seens:
                score = v.scores(builder.load(seen), args[3])
                kept = builder.load(least)
                builder.store(builder.select(builder.icmp_signed("<", score, kept), score, kept), least)
        return v.least(builder.load(least))

    return sig, codegen


@nb.njit(cache=CACHE, nogil=True)
def least_score(S, by_secret, win, width):
    """The least score of every code as a guess of S (:func:`seen_scores` with no cut and no guess skipped), -1
    when every guess leaves S whole; ``width``: an array whose integers are wider than ``win``."""
    size = by_secret.shape[1]
    lanes = VECTOR_BYTES // width.itemsize
    full = size - size % (LEAST_VECTORS * lanes)
    largest = np.int64((1 << (min(width.itemsize * 8, 32) - 1)) - 1)  # _largest
    least = _least_in(by_secret, S, np.int64(full), np.int64(win), width) if full else largest
    for g in range(full, size):  # the last guesses, fewer than two vectors' lanes
        least = min(least, one_score(by_secret, S, g, win, False, largest))
    return -1 if least >= largest else least


@nb.njit(cache=CACHE, inline="always")
def one_score(by_secret, S, g, win, skip_won, largest):
    """``_block_scores``'s score of the one guess ``g`` (the last guesses, fewer than a vector's lanes)."""
    bits = np.uint64(0)
    for j in range(S.shape[0]):
        bits |= np.uint64(1) << np.uint64(by_secret[S[j], g])
    won = np.int64((bits >> np.uint64(win)) & np.uint64(1))
    set_bits = np.int64(0)
    while bits:
        bits &= bits - np.uint64(1)
        set_bits += 1
    if (set_bits - won == 1 and won == 0) or (skip_won and won):
        return largest
    return 3 * S.shape[0] - won - set_bits


@nb.njit(cache=CACHE, inline="always")
def take_block(found, scores, start, stop, limit, picked, m, least):
    """Fold one vector's result (``(guesses below cut) << 32 | least score >= cut``) into ``least``, and append
    its guesses ``start..stop`` scored below ``limit`` to ``picked[m:]``; returns ``(m, least)``."""
    least = min(least, found & 0xFFFFFFFF)
    if found >> 32:
        for k in range(start, stop):
            if scores[k] < limit:
                picked[m] = k
                m += 1
    return m, least


@nb.njit(cache=CACHE, inline="always")
def take_one(score, g, limit, picked, m, least):
    """:func:`take_block` for one guess ``g`` scored on its own (the last guesses, fewer than a vector's lanes)."""
    if score < limit:
        picked[m] = g
        m += 1
    else:
        least = min(least, score)
    return m, least


@nb.njit(cache=CACHE, nogil=True)
def seen_scores(S, by_secret, win, skip_won, cut, scores, picked):
    """Every code's score as a guess of S (``_block_scores``) into ``scores`` (integers wider than ``win``,
    the largest one for a guess left out); returns ``(guesses below cut, least score >= cut)``, the
    former's indices in ``picked``, the latter -1 where every guess is below the cut or left out."""
    size = by_secret.shape[1]
    lanes = VECTOR_BYTES // scores.itemsize
    full = size - size % lanes
    largest = np.int64((1 << (min(scores.itemsize * 8, 32) - 1)) - 1)  # _largest
    least = largest
    limit = min(cut, largest)  # the largest score is a guess left out, above every cut
    m = 0
    for start in range(0, full, lanes):
        found = _block_scores(by_secret, S, start, scores, np.int64(win), np.int64(skip_won), np.int64(cut))
        m, least = take_block(found, scores, start, start + lanes, limit, picked, m, least)
    for g in range(full, size):  # the last guesses, fewer than a vector's lanes
        score = one_score(by_secret, S, g, win, skip_won, largest)
        scores[g] = score
        m, least = take_one(score, g, limit, picked, m, least)
    return m, -1 if least >= largest else least
