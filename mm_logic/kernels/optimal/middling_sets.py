"""Compiled kernels (numba) of the optimal search's scoring of middling sets: each guess's parts, counted in bytes.

A set of more codes than one guess can tell apart (16 to 255 of them) may
leave a guess a part too large for the feedbacks' bits of :mod:`.small_sets`:
its parts must be counted. :func:`tally_scores` counts them for a vector of
32 guesses at once, one byte counter per guess and feedback, every counter
in a register through the whole set (a compare and a subtraction per
feedback for 32 guesses and a secret: 0.4-0.5 cycles a pair, against 1.3-2
for the counters packed in words that numba's loops load and store at every
secret), then scores the guesses there as
``_word_score`` of :mod:`mm_logic.kernels.optimal.guess_scores` does.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..numba_cache import CACHE
from .small_sets import take_block, take_one

#: Guesses counted at once: byte counters, 32 to a 256-bit register, their scores 16-bit.
LANES = 32
#: The score of a guess with a part above ``plain`` codes: it is read again from its counts.
LARGE = -1
#: The score of a guess left out (as ``_largest`` of :mod:`mm_logic.kernels.optimal.small_sets` for 16 bits).
LEFT_OUT = (1 << 15) - 1


def _block_kernel(feedbacks: int):
    """The intrinsic that counts and scores one block of :data:`LANES` guesses, for games of at most
    ``feedbacks`` feedbacks (every counter is a register: 16 of them for four pegs, 24 for five)."""

    @intrinsic
    def block(typingctx, by_secret, S, start, counts, scores, win, plain, skip_won, cut):
        """Count the parts of the guesses ``start + i`` (``i < LANES``) into ``counts[f, start + i]`` and
        score them into ``scores``; returns ``(guesses below cut) << 32 | (least score >= cut)``."""
        sig = types.int64(by_secret, S, start, counts, scores, win, plain, skip_won, cut)

        def codegen(context, builder, signature, args):
            table_t, s_t, _, counts_t, scores_t = signature.args[:5]
            table = context.make_array(table_t)(context, builder, args[0])
            secrets = context.make_array(s_t)(context, builder, args[1])
            tallies = context.make_array(counts_t)(context, builder, args[3])
            out = context.make_array(scores_t)(context, builder, args[4])
            i8, i16, i32, i64 = ir.IntType(8), ir.IntType(16), ir.IntType(32), ir.IntType(64)
            bytes_t, shorts = ir.VectorType(i8, LANES), ir.VectorType(i16, LANES)

            def broadcast(value, vector):
                single = builder.insert_element(ir.Constant(vector, ir.Undefined), value, ir.Constant(i32, 0))
                return builder.shuffle_vector(single, single, ir.Constant(ir.VectorType(i32, LANES), [0] * LANES))

            zero8 = ir.Constant(bytes_t, [0] * LANES)
            tally = [cgutils.alloca_once_value(builder, zero8) for _ in range(feedbacks)]  # registers (mem2reg)
            row_stride = cgutils.unpack_tuple(builder, table.strides, 2)[0]
            count = cgutils.unpack_tuple(builder, secrets.shape, 1)[0]
            first = builder.add(builder.ptrtoint(table.data, i64), args[2])
            with cgutils.for_range(builder, count) as loop:
                secret = builder.sext(builder.load(builder.gep(secrets.data, [loop.index])), i64)
                at = builder.add(first, builder.mul(secret, row_stride))
                row = builder.load(builder.inttoptr(at, bytes_t.as_pointer()), align=1)
                for f in range(feedbacks):
                    hit = builder.sext(builder.icmp_unsigned("==", row, ir.Constant(bytes_t, [f] * LANES)), bytes_t)
                    builder.store(builder.sub(builder.load(tally[f]), hit), tally[f])
            counts_stride = cgutils.unpack_tuple(builder, tallies.strides, 2)[0]
            base = builder.add(builder.ptrtoint(tallies.data, i64), args[2])
            win = builder.trunc(args[5], i8)
            plain = broadcast(builder.trunc(builder.select(builder.icmp_signed(">", args[6], ir.Constant(i64, 255)),
                                                           ir.Constant(i64, 255), args[6]), i8), bytes_t)
            won = zero8
            nonzero = ir.Constant(shorts, [0] * LANES)
            large = ir.Constant(ir.VectorType(ir.IntType(1), LANES), [0] * LANES)
            for f in range(feedbacks):
                c = builder.load(tally[f])
                at = builder.add(base, builder.mul(counts_stride, ir.Constant(i64, f)))
                builder.store(c, builder.inttoptr(at, bytes_t.as_pointer()), align=1)
                won = builder.select(builder.icmp_unsigned("==", win, ir.Constant(i8, f)), c, won)
                nonzero = builder.add(nonzero, builder.zext(builder.icmp_unsigned("!=", c, zero8), shorts))
                large = builder.or_(large, builder.icmp_unsigned(">", c, plain))
            won16 = builder.zext(won, shorts)
            parts = builder.sub(nonzero, builder.zext(builder.icmp_unsigned("!=", won, zero8), shorts))
            three_n = broadcast(builder.trunc(builder.mul(count, ir.Constant(i64, 3)), i16), shorts)
            plain_score = builder.sub(builder.sub(three_n, builder.add(won16, won16)), parts)
            score = builder.select(large, ir.Constant(shorts, [LARGE] * LANES), plain_score)
            zero16 = ir.Constant(shorts, [0] * LANES)
            whole = builder.and_(builder.icmp_unsigned("==", parts, ir.Constant(shorts, [1] * LANES)),
                                 builder.icmp_unsigned("==", won16, zero16))
            skip = builder.icmp_unsigned("!=", broadcast(builder.trunc(args[7], i16), shorts), zero16)
            winning = builder.and_(builder.icmp_unsigned("!=", won16, zero16), skip)
            score = builder.select(builder.or_(whole, winning), ir.Constant(shorts, [LEFT_OUT] * LANES), score)
            target = builder.bitcast(builder.gep(out.data, [args[2]]), shorts.as_pointer())
            builder.store(score, target, align=1)
            limit = builder.select(builder.icmp_signed(">", args[8], ir.Constant(i64, LEFT_OUT)),
                                   ir.Constant(i64, LEFT_OUT), args[8])
            below = builder.icmp_signed("<", score, broadcast(builder.trunc(limit, i16), shorts))
            kept = builder.select(below, ir.Constant(shorts, [LEFT_OUT] * LANES), score)
            smin = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i16, [shorts]),
                                                  f"llvm.vector.reduce.smin.v{LANES}i16")
            least = builder.sext(builder.call(smin, [kept]), i64)
            mask = builder.bitcast(below, ir.IntType(LANES))
            under = builder.zext(builder.call(builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(LANES)]),
                                              [mask]), i64)
            return builder.or_(builder.shl(under, ir.Constant(i64, 32)), least)

        return sig, codegen

    return block


_block16 = _block_kernel(16)
_block24 = _block_kernel(24)


@nb.njit(cache=CACHE, nogil=True)
def tally_scores(S, by_secret, win, plain, skip_won, cut, counts, scores, picked):
    """Every code's parts as a guess of S (``counts[f, g]``, bytes: S has fewer than 256 codes) and score
    (``scores``, 16-bit: :data:`LARGE` with a part above ``plain`` codes, :data:`LEFT_OUT` for a guess
    that leaves S whole or, with ``skip_won``, wins); returns ``(guesses below cut, least score >= cut)``,
    the former's indices in ``picked``, the latter -1 where every guess is below the cut or left out. Games
    of at most 24 feedbacks (``win < 24``)."""
    size = by_secret.shape[1]
    n = S.shape[0]
    full = size - size % LANES
    least = np.int64(LEFT_OUT)
    limit = min(cut, LEFT_OUT)
    m = 0
    for start in range(0, full, LANES):
        if win < 16:
            found = _block16(by_secret, S, start, counts, scores, np.int64(win), np.int64(plain),
                             np.int64(skip_won), np.int64(cut))
        else:
            found = _block24(by_secret, S, start, counts, scores, np.int64(win), np.int64(plain),
                             np.int64(skip_won), np.int64(cut))
        m, least = take_block(found, scores, start, start + LANES, limit, picked, m, least)
    for g in range(full, size):  # the last guesses, fewer than a vector's lanes
        for f in range(win + 1):
            counts[f, g] = 0
        for j in range(n):
            counts[by_secret[S[j], g], g] += 1
        won = np.int64(counts[win, g])
        parts = np.int64(0)
        large = False
        for f in range(win):
            parts += counts[f, g] > 0
            large |= counts[f, g] > plain
        score = np.int64(LARGE) if large else 3 * n - 2 * won - parts
        if (parts == 1 and won == 0) or (skip_won and won > 0):
            score = LEFT_OUT
        scores[g] = score
        m, least = take_one(score, g, limit, picked, m, least)
    return m, -1 if least >= LEFT_OUT else least
