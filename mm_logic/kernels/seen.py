"""Compiled kernels (numba) of the optimal search's scoring of small sets: the feedbacks each guess gets.

Deep in the search most sets are small (4x10: nine scorings in ten are of
fewer than 32 codes) and their scoring was the search's whole time: every
code of the game counted as a guess, its parts' sizes in counters packed in
words (1.3-1.6 cycles a guess and a secret). While no part can hold more
codes than one guess can tell apart, a guess's bound needs only *which*
feedbacks it gets (:func:`mm_logic.kernels.guess_scores.score_guesses`): one bit
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

from .numba_cache import CACHE

#: Bytes of guesses a vector holds (one 512-bit register; two 256-bit ones elsewhere).
VECTOR_BYTES = 64
#: Vectors of guesses :func:`least_score` keeps at once.
LEAST_VECTORS = 2


def _largest(width: int) -> int:
    """The score of a guess left out, in integers of ``width`` bits: their largest, or 2**31 - 1 (it is
    returned in 32 bits)."""
    return (1 << (min(width, 32) - 1)) - 1


@intrinsic
def _block_scores(typingctx, by_secret, S, start, scores, win, skip_won, cut):
    """Score the guesses ``start + i``, ``i`` below one vector's lanes (``VECTOR_BYTES`` over the width of
    ``scores``' integers, which must exceed ``win``), into ``scores``.

    Bit ``f`` of a guess's word: some code of S gives it the feedback ``f`` (``by_secret[s, g]``). Its
    score: :func:`_largest` when it leaves S whole or (``skip_won``) wins, else
    ``3n - won - bits set``. Returns ``(guesses below cut) << 32 | (least score >= cut)``.
    """
    width = scores.dtype.bitwidth
    lanes = VECTOR_BYTES * 8 // width
    sig = types.int64(by_secret, S, start, scores, win, skip_won, cut)

    def codegen(context, builder, signature, args):
        table_t, s_t, _, out_t = signature.args[:4]
        table = context.make_array(table_t)(context, builder, args[0])
        secrets = context.make_array(s_t)(context, builder, args[1])
        out = context.make_array(out_t)(context, builder, args[3])
        i64, iw = ir.IntType(64), ir.IntType(width)
        feedbacks = ir.VectorType(ir.IntType(table_t.dtype.bitwidth), lanes)
        words = ir.VectorType(iw, lanes)

        def splat(value):
            return builder.insert_element(ir.Constant(words, ir.Undefined), value, ir.Constant(ir.IntType(32), 0))

        def broadcast(value):
            single = splat(value)
            return builder.shuffle_vector(single, single, ir.Constant(ir.VectorType(ir.IntType(32), lanes),
                                                                      [0] * lanes))

        seen = cgutils.alloca_once_value(builder, ir.Constant(words, [0] * lanes))  # a register after mem2reg
        row_stride = cgutils.unpack_tuple(builder, table.strides, 2)[0]
        count = cgutils.unpack_tuple(builder, secrets.shape, 1)[0]
        item = ir.Constant(i64, table_t.dtype.bitwidth // 8)
        first = builder.add(builder.ptrtoint(table.data, i64), builder.mul(args[2], item))
        one = ir.Constant(words, [1] * lanes)
        with cgutils.for_range(builder, count) as loop:
            secret = builder.sext(builder.load(builder.gep(secrets.data, [loop.index])), i64)
            at = builder.add(first, builder.mul(secret, row_stride))
            row = builder.load(builder.inttoptr(at, feedbacks.as_pointer()), align=1)
            if table_t.dtype.bitwidth < width:
                row = builder.zext(row, words)
            elif table_t.dtype.bitwidth > width:
                row = builder.trunc(row, words)
            builder.store(builder.or_(builder.load(seen), builder.shl(one, row)), seen)
        bits = builder.load(seen)
        vector_name = f"v{lanes}i{width}"
        ctpop = cgutils.get_or_insert_function(builder.module, ir.FunctionType(words, [words]),
                                               f"llvm.ctpop.{vector_name}")
        set_bits = builder.call(ctpop, [bits])
        won = builder.and_(builder.lshr(bits, broadcast(builder.trunc(args[4], iw))), one)
        parts = builder.sub(set_bits, won)
        zero = ir.Constant(words, [0] * lanes)
        top = _largest(width)
        largest = ir.Constant(words, [top] * lanes)
        whole = builder.and_(builder.icmp_unsigned("==", parts, one), builder.icmp_unsigned("==", won, zero))
        winning = builder.and_(builder.icmp_unsigned("!=", won, zero),
                               builder.icmp_unsigned("!=", broadcast(builder.trunc(args[5], iw)), zero))
        three_n = broadcast(builder.trunc(builder.mul(count, ir.Constant(i64, 3)), iw))
        score = builder.select(builder.or_(whole, winning), largest,
                               builder.sub(builder.sub(three_n, won), set_bits))
        target = builder.bitcast(builder.gep(out.data, [args[2]]), words.as_pointer())
        builder.store(score, target, align=1)
        limit = builder.select(builder.icmp_signed(">", args[6], ir.Constant(i64, top)), ir.Constant(i64, top),
                               args[6])
        cut = broadcast(builder.trunc(limit, iw))
        below = builder.icmp_signed("<", score, cut)
        kept = builder.select(below, largest, score)
        smin = cgutils.get_or_insert_function(builder.module, ir.FunctionType(iw, [words]),
                                              f"llvm.vector.reduce.smin.{vector_name}")
        least = builder.sext(builder.call(smin, [kept]), i64)
        mask = builder.bitcast(below, ir.IntType(lanes))
        ctpop_mask = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(lanes)])
        under = builder.zext(builder.call(ctpop_mask, [mask]), i64)
        return builder.or_(builder.shl(under, ir.Constant(i64, 32)), least)

    return sig, codegen


@intrinsic
def _least_in(typingctx, by_secret, S, stop, win, width):
    """The least score (:func:`_block_scores`'s, ``skip_won`` off) of the guesses ``0..stop - 1``, ``stop`` a
    multiple of two vectors' lanes, in integers as wide as ``width``'s: :func:`_largest` for none.

    Two vectors of guesses at a time share each secret's row address, and the least is kept in a vector
    until the end: no score is stored (what a bound one guess ahead needs, :func:`least_score`).
    """
    bitwidth = width.dtype.bitwidth
    lanes = VECTOR_BYTES * 8 // bitwidth
    sig = types.int64(by_secret, S, stop, win, width)

    def codegen(context, builder, signature, args):
        table_t, s_t = signature.args[:2]
        table = context.make_array(table_t)(context, builder, args[0])
        secrets = context.make_array(s_t)(context, builder, args[1])
        i64, iw = ir.IntType(64), ir.IntType(bitwidth)
        feedbacks = ir.VectorType(ir.IntType(table_t.dtype.bitwidth), lanes)
        words = ir.VectorType(iw, lanes)

        def broadcast(value):
            single = builder.insert_element(ir.Constant(words, ir.Undefined), value, ir.Constant(ir.IntType(32), 0))
            return builder.shuffle_vector(single, single, ir.Constant(ir.VectorType(ir.IntType(32), lanes),
                                                                      [0] * lanes))

        top = _largest(bitwidth)
        largest = ir.Constant(words, [top] * lanes)
        zero = ir.Constant(words, [0] * lanes)
        one = ir.Constant(words, [1] * lanes)
        least = cgutils.alloca_once_value(builder, largest)
        row_stride = cgutils.unpack_tuple(builder, table.strides, 2)[0]
        count = cgutils.unpack_tuple(builder, secrets.shape, 1)[0]
        item = ir.Constant(i64, table_t.dtype.bitwidth // 8)
        base = builder.ptrtoint(table.data, i64)
        win_v = broadcast(builder.trunc(args[3], iw))
        three_n = broadcast(builder.trunc(builder.mul(count, ir.Constant(i64, 3)), iw))
        vector_name = f"v{lanes}i{bitwidth}"
        ctpop = cgutils.get_or_insert_function(builder.module, ir.FunctionType(words, [words]),
                                               f"llvm.ctpop.{vector_name}")
        step = ir.Constant(i64, LEAST_VECTORS * lanes)
        with cgutils.for_range_slice(builder, ir.Constant(i64, 0), args[2], step) as (start, _):
            first = builder.add(base, builder.mul(start, item))
            ats = [builder.add(first, builder.mul(ir.Constant(i64, v * lanes), item)) for v in range(LEAST_VECTORS)]
            seens = [cgutils.alloca_once_value(builder, zero) for _ in range(LEAST_VECTORS)]
            with cgutils.for_range(builder, count) as loop:
                secret = builder.sext(builder.load(builder.gep(secrets.data, [loop.index])), i64)
                offset = builder.mul(secret, row_stride)
                for at, seen in zip(ats, seens):
                    row = builder.load(builder.inttoptr(builder.add(at, offset), feedbacks.as_pointer()), align=1)
                    if table_t.dtype.bitwidth < bitwidth:
                        row = builder.zext(row, words)
                    elif table_t.dtype.bitwidth > bitwidth:
                        row = builder.trunc(row, words)
                    builder.store(builder.or_(builder.load(seen), builder.shl(one, row)), seen)
            for seen in seens:
                bits = builder.load(seen)
                set_bits = builder.call(ctpop, [bits])
                won = builder.and_(builder.lshr(bits, win_v), one)
                parts = builder.sub(set_bits, won)
                whole = builder.and_(builder.icmp_unsigned("==", parts, one), builder.icmp_unsigned("==", won, zero))
                score = builder.select(whole, largest, builder.sub(builder.sub(three_n, won), set_bits))
                kept = builder.load(least)
                builder.store(builder.select(builder.icmp_signed("<", score, kept), score, kept), least)
        smin = cgutils.get_or_insert_function(builder.module, ir.FunctionType(iw, [words]),
                                              f"llvm.vector.reduce.smin.{vector_name}")
        return builder.sext(builder.call(smin, [builder.load(least)]), i64)

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
    n = S.shape[0]
    for g in range(full, size):  # the last guesses, fewer than two vectors' lanes
        bits = np.uint64(0)
        for j in range(n):
            bits |= np.uint64(1) << np.uint64(by_secret[S[j], g])
        won = np.int64((bits >> np.uint64(win)) & np.uint64(1))
        set_bits = np.int64(0)
        while bits:
            bits &= bits - np.uint64(1)
            set_bits += 1
        if not (set_bits - won == 1 and won == 0):
            least = min(least, 3 * n - won - set_bits)
    return -1 if least >= largest else least


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
    """Every code's score as a guess of S (:func:`_block_scores`) into ``scores`` (integers wider than ``win``,
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
    n = S.shape[0]
    for g in range(full, size):  # the last guesses, fewer than a vector's lanes
        bits = np.uint64(0)
        for j in range(n):
            bits |= np.uint64(1) << np.uint64(by_secret[S[j], g])
        won = np.int64((bits >> np.uint64(win)) & np.uint64(1))
        set_bits = np.int64(0)
        while bits:
            bits &= bits - np.uint64(1)
            set_bits += 1
        parts = set_bits - won
        score = largest if (parts == 1 and won == 0) or (skip_won and won) else 3 * n - won - set_bits
        scores[g] = score
        m, least = take_one(score, g, limit, picked, m, least)
    return m, -1 if least >= largest else least
