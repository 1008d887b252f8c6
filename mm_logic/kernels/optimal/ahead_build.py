"""Build one variant of the search's kernels into an extension module (numba's ahead-of-time compiler).

Run in a child process by :func:`mm_logic.kernels.optimal.ahead.build`
(``python -m mm_logic.kernels.optimal.ahead_build KIND NAME FOLDER``): the compiler's
output stays out of the command's own, and the command itself need not
import numba. The module exports the very kernels numba runs
(:func:`mm_logic.kernels.optimal.search.search` and :func:`~mm_logic.kernels.optimal.search.feasible`,
:func:`mm_logic.kernels.optimal.solved_sets.probe`, :func:`mm_logic.kernels.optimal.node_symmetry.peg_moves`),
compiled for this processor, with the argument types of one variant's arrays.

numba's kernels release the GIL (``nogil``); an extension's functions hold
it, so :func:`search` and :func:`feasible` are wrapped between
``PyEval_SaveThread`` and ``PyEval_RestoreThread``: the calling thread shows
progress and passes Ctrl-C on while they run, as with numba's.
"""

from __future__ import annotations

import sys
import warnings

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from . import node_symmetry, solved_sets
from . import search as search_kernels  # the module: this one's search() wraps its search()

_DTYPES = {"u1": types.uint8, "u2": types.uint16, "i8": types.int64}


@intrinsic
def _save_thread(typingctx):
    """Release the GIL; returns the thread state to give back (``PyEval_SaveThread``)."""
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(8).as_pointer(), [])
        return builder.call(cgutils.get_or_insert_function(builder.module, fnty, "PyEval_SaveThread"), [])
    return types.voidptr(), codegen


@intrinsic
def _restore_thread(typingctx, state):
    """Take the GIL back (``PyEval_RestoreThread``)."""
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.VoidType(), [ir.IntType(8).as_pointer()])
        builder.call(cgutils.get_or_insert_function(builder.module, fnty, "PyEval_RestoreThread"), [args[0]])
        return context.get_dummy_value()
    return types.void(types.voidptr), codegen


def search(S, hist, hlen, sigmas, pis, depth, budget, level, game, bounds, outsides, limited, scratch, tt, control):
    """:func:`mm_logic.kernels.optimal.search.search`, the GIL released while it runs."""
    state = _save_thread()
    value = search_kernels.search(S, hist, hlen, sigmas, pis, depth, budget, level, game, bounds, outsides,
                                  limited, scratch, tt, control)
    _restore_thread(state)
    return value


def feasible(S, hist, hlen, sigmas, pis, depth, level, game, bound, capacity, scratch, tt, control):
    """:func:`mm_logic.kernels.optimal.search.feasible`, the GIL released while it runs."""
    state = _save_thread()
    value = search_kernels.feasible(S, hist, hlen, sigmas, pis, depth, level, game, bound, capacity, scratch, tt,
                                    control)
    _restore_thread(state)
    return value


def signatures(kind: str) -> dict[str, object]:
    """The exported functions' signatures for a variant (``"u1i8"``: table of bytes, codes of int64)."""
    def arr(dtype, ndim: int):
        return types.Array(dtype, ndim, "C")

    i64, u64 = types.int64, types.uint64
    table_t, codes_t = _DTYPES[kind[:2]], _DTYPES[kind[2:]]
    matrix = arr(i64, 2)
    game = types.Tuple((arr(table_t, 2), arr(codes_t, 2), arr(u64, 1), arr(u64, 1), arr(table_t, 2), matrix, i64))
    scratch = types.Tuple((arr(u64, 1), arr(i64, 1), arr(i64, 1), arr(i64, 1), arr(types.int16, 1)))
    tt = types.Tuple((arr(u64, 2), arr(i64, 1), arr(types.int32, 1), arr(types.int32, 1), arr(types.boolean, 1)))
    S = arr(types.int32, 1)
    found = {
        "search": i64(S, matrix, i64, matrix, matrix, i64, i64, i64, game, matrix, matrix, types.boolean, scratch, tt,
                      arr(i64, 1)),
        "feasible": i64(S, matrix, i64, matrix, matrix, i64, i64, game, arr(i64, 1), arr(i64, 1), scratch, tt,
                        arr(i64, 1)),
        "probe": types.Tuple((types.boolean, types.boolean, i64, i64))(S, u64, arr(u64, 1), arr(u64, 1), tt),
    }
    if kind[2:] == "i8":  # peg-tagged codes: per-peg symmetry
        found["peg_moves"] = types.Tuple((matrix, matrix))(matrix, i64, matrix, i64)
    return found


def build(kind: str, name: str, folder: str) -> None:
    """Compile the variant ``kind`` into the extension module ``name`` in ``folder``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc's notice of its future replacement
        from numba.pycc import CC
    cc = CC(name)
    cc.output_dir = folder
    cc.target_cpu = "host"  # as numba's JIT compiles: the popcount and vector instructions of this processor
    functions = {"search": search, "feasible": feasible, "probe": solved_sets.probe.py_func,
                 "peg_moves": node_symmetry.peg_moves.py_func}
    for export, signature in signatures(kind).items():
        cc.export(export, signature)(functions[export])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cc.compile()


if __name__ == "__main__":
    build(*sys.argv[1:4])
