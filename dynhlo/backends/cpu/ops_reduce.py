"""Reductions and contractions on the CPU: reduce (variadic, any to_apply) and dot.

A reduce whose to_apply is one of add/multiply/maximum/minimum/and/or over its parameters
uses NumPy's reduction; any other computation is folded over the reduced elements, run
vectorized over the kept ones. Operands are at their actual sizes, so padding never enters.
Semantics: XLA operation semantics, Reduce and DotGeneral.
"""

from __future__ import annotations

import math

import numpy as np

from ...hlo import attrs, patterns
from ...hlo.opcodes import Opcode
from ...hlo.types import FLOAT_TYPES, to_numpy_dtype
from .lowering import lowering
from .minmax import MAXIMUM, MINIMUM

_FAST = {Opcode.ADD: np.add, Opcode.MULTIPLY: np.multiply, Opcode.MAXIMUM: np.maximum,
         Opcode.MINIMUM: np.minimum, Opcode.AND: np.logical_and, Opcode.OR: np.logical_or}
# Floats: XLA's order of zeros (minmax.py); NumPy's keep whichever zero came last.
_FAST_FLOAT = {Opcode.MAXIMUM: MAXIMUM, Opcode.MINIMUM: MINIMUM}


def _fast_reducer(comp):
    """The NumPy ufunc (or minmax.Extreme) a two-parameter scalar computation is, or None."""
    op = patterns.binary_reducer(comp)
    if op is None:
        return None
    element_type = comp.root.shape.element_type
    if op in (Opcode.AND, Opcode.OR) and element_type != "pred":
        return np.bitwise_and if op is Opcode.AND else np.bitwise_or
    if element_type in FLOAT_TYPES and op in _FAST_FLOAT:
        return _FAST_FLOAT[op]
    return _FAST[op]


@lowering(Opcode.REDUCE)
def reduce(ctx, inst, args):
    n = len(args) // 2
    arrays, inits = args[:n], args[n:]
    axes = tuple(sorted(attrs.ints(inst, "dimensions")))
    (comp,) = inst.called["to_apply"]
    ufunc = _fast_reducer(comp) if n == 1 else None
    if ufunc is not None:
        x = arrays[0]
        dtype = x.dtype
        work = x.astype(np.float32) if dtype.kind == "V" or (dtype.kind == "f"
                                                             and dtype.itemsize < 4) else x
        out = ufunc.reduce(work, axis=axes) if work.size else None
        init = np.asarray(inits[0]).astype(work.dtype)
        if out is None:
            kept = [s for k, s in enumerate(x.shape) if k not in axes]
            return np.full(kept, inits[0], dtype=dtype)
        if ufunc is np.add and work.dtype.kind in "fc":
            out = _negative_zero_sums(work, out, axes)
        return np.asarray(ufunc(out, init)).astype(dtype)
    return _fold(ctx, comp, arrays, inits, axes)


def _negative_zero_sums(x: np.ndarray, out: np.ndarray, axes) -> np.ndarray:
    """`out` (NumPy's sums of `x` over `axes`, which start from +0) with -0 where every term
    is -0: IEEE's sum of -0s, in any order, is -0 (init + -0 + -0 is then -0 for an init
    of -0, and +0 for +0, as XLA adds them)."""
    with np.errstate(all="ignore"):
        if x.dtype.kind == "c":
            real = _negative_zero_sums(x.real, np.asarray(out).real, axes)
            imag = _negative_zero_sums(x.imag, np.asarray(out).imag, axes)
            z = np.empty(np.shape(real), np.asarray(out).dtype)
            z.real, z.imag = real, imag
            return z
        every = np.all((x == 0) & np.signbit(x), axis=axes)
        return np.where(every, np.array(-0.0, out.dtype), out)


def _fold(ctx, comp, arrays, inits, axes):
    """General reduce: acc = f(acc, x[i]) over every reduced element, vectorized.

    Operands are cut to their shared actual shape first (a static iota reduced with a
    dynamic operand, as JAX's argmin writes it)."""
    shape = tuple(min(a.shape[d] for a in arrays) for d in range(arrays[0].ndim))
    arrays = [a[tuple(slice(0, s) for s in shape)] for a in arrays]
    kept = [k for k in range(arrays[0].ndim) if k not in axes]
    count = int(np.prod([shape[k] for k in axes], dtype=np.int64))  # not -1: kept may be 0
    moved = [np.moveaxis(a, axes, range(len(kept), a.ndim)).reshape(
        [a.shape[k] for k in kept] + [count]) for a in arrays]
    kept_shape = tuple(arrays[0].shape[k] for k in kept)
    accs = [np.full(kept_shape, init, dtype=np.asarray(init).dtype) for init in inits]
    for i in range(moved[0].shape[-1]):
        result = ctx.call(0, comp, accs + [m[..., i] for m in moved], vectorized=True)
        accs = list(result) if isinstance(result, tuple) else [result]
        accs = [np.broadcast_to(np.asarray(a), kept_shape) for a in accs]
    out = [np.array(a, dtype=np.asarray(init).dtype) for a, init in zip(accs, inits, strict=True)]
    return out[0] if len(out) == 1 else tuple(out)


@lowering(Opcode.DOT)
def dot(ctx, inst, args):
    lhs, rhs = args
    lb, rb, lc, rc = attrs.dot_dims(inst)
    for a, b in zip(lb + lc, rb + rc, strict=True):
        if lhs.shape[a] != rhs.shape[b]:
            raise ctx.error(f"dot dimension {a} of the lhs has size {lhs.shape[a]} but "
                            f"dimension {b} of the rhs has size {rhs.shape[b]}")
    lf = [d for d in range(lhs.ndim) if d not in lb and d not in lc]
    rf = [d for d in range(rhs.ndim) if d not in rb and d not in rc]
    batch = [lhs.shape[d] for d in lb]
    m = [lhs.shape[d] for d in lf]
    n = [rhs.shape[d] for d in rf]
    k = math.prod([lhs.shape[d] for d in lc])
    out_dtype = to_numpy_dtype(inst.shape.element_type)
    work = np.float32 if out_dtype.kind == "V" or (out_dtype.kind == "f"
                                                   and out_dtype.itemsize < 4) else out_dtype
    a = np.transpose(lhs, list(lb) + lf + list(lc)).reshape(
        [math.prod(batch), math.prod(m), k]).astype(work)
    b = np.transpose(rhs, list(rb) + list(rc) + rf).reshape(
        [math.prod(batch), k, math.prod(n)]).astype(work)
    return np.matmul(a, b).reshape(batch + m + n).astype(out_dtype, copy=False)
