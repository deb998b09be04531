"""Bit intrinsics for numba kernels: population count, index of the lowest set bit, atomic OR,
prefetch, and the BMI2 bit gather/scatter (``pext``, ``pdep``, with a loop where the CPU lacks
them).

The first two compile to one machine instruction (LLVM ``ctpop`` and ``cttz``)
and work in cached kernels.

Examples
--------
>>> from numba import njit
>>> @njit
... def f(x):
...     return popcount(x), lowest_bit(x)
>>> f(0b101000)
(2, 3)
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ._jit import njit


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an integer (as ``int64``)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        value = builder.ctpop(args[0])
        return context.cast(builder, value, signature.args[0], types.int64)

    return sig, codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a non-zero integer (as ``int64``)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        value = builder.cttz(args[0], context.get_constant(types.boolean, True))
        return context.cast(builder, value, signature.args[0], types.int64)

    return sig, codegen


@njit(cache=True, inline="always")
def with_code(word, code, low):
    """Two-bit codes packed in ``word``: a mask with bit ``2 s`` set for each slot ``s``
    (among the slots marked in ``low``) whose code is ``code`` (0 to 3)."""
    lo = word & low
    hi = (word >> 1) & low
    if code == 0:
        return low & ~(lo | hi)
    if code == 1:
        return lo & ~hi
    if code == 2:
        return hi & ~lo
    return lo & hi


@intrinsic
def atomic_or(typingctx, array, index, value):
    """``array[index] |= value`` as one atomic step; returns the element's old value.

    Threads of a ``prange`` loop may set bits of the same element at once
    without losing any.
    """
    if (
        not isinstance(array, types.Array)
        or not isinstance(index, types.Integer)
        or not isinstance(value, types.Integer)
    ):
        return None
    sig = array.dtype(array, index, value)

    def codegen(context, builder, signature, args):
        aryty, idxty, valty = signature.args
        ary, idx, val = args
        struct = context.make_array(aryty)(context, builder, ary)
        ptr = cgutils.get_item_pointer(context, builder, aryty, struct, [idx])
        val = context.cast(builder, val, valty, aryty.dtype)
        return builder.atomic_rmw("or", ptr, val, "monotonic")

    return sig, codegen


@intrinsic
def prefetch(typingctx, array, index):
    """Ask the CPU to start loading ``array[index]`` into the cache (no effect on results)."""
    if not isinstance(array, types.Array) or not isinstance(index, types.Integer):
        return None
    sig = types.void(array, index)

    def codegen(context, builder, signature, args):
        aryty, idxty = signature.args
        ary, idx = args
        struct = context.make_array(aryty)(context, builder, ary)
        ptr = cgutils.get_item_pointer(context, builder, aryty, struct, [idx])
        raw = builder.bitcast(ptr, ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [raw.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [raw, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


def _host_has_bmi2() -> bool:
    try:
        from llvmlite import binding

        return bool(binding.get_host_cpu_features().get("bmi2", False))
    except Exception:  # no feature list on this platform
        return False


#: whether this CPU has the BMI2 bit gather/scatter instructions (pext, pdep)
HAS_BMI2 = _host_has_bmi2()


def _bmi2(name):
    @intrinsic
    def op(typingctx, x, mask):
        if not isinstance(x, types.Integer) or not isinstance(mask, types.Integer):
            return None
        sig = types.int64(types.int64, types.int64)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(i64, [i64, i64]), f"llvm.x86.bmi.{name}.64"
            )
            return builder.call(fn, args)

        return sig, codegen

    return op


@njit(cache=True, inline="always")
def _gather_or_scatter(x, mask, scatter):
    """One bit of ``mask`` at a time: ``pdep`` with ``scatter``, else ``pext``."""
    out = np.int64(0)
    bit = np.int64(1)
    while mask != 0:
        low = mask & -mask
        if scatter:
            if x & bit:
                out |= low
        elif x & low:
            out |= bit
        bit <<= 1
        mask &= mask - 1
    return out


@njit(cache=True, inline="always")
def pext_loop(x, mask):
    """:data:`pext` without BMI2, a bit of ``mask`` at a time."""
    return _gather_or_scatter(np.int64(x), np.int64(mask), False)


@njit(cache=True, inline="always")
def pdep_loop(x, mask):
    """:data:`pdep` without BMI2, a bit of ``mask`` at a time."""
    return _gather_or_scatter(np.int64(x), np.int64(mask), True)


#: ``pext(x, mask)``: the bits of ``x`` under ``mask``, packed to the bottom (one instruction
#: where the CPU has BMI2; the kernels are compiled for this machine)
pext = _bmi2("pext") if HAS_BMI2 else pext_loop
#: ``pdep(x, mask)``: the low bits of ``x`` spread to the set bits of ``mask``
pdep = _bmi2("pdep") if HAS_BMI2 else pdep_loop
