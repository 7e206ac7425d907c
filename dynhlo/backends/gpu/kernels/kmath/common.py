"""Kernel math helpers (`M.*`) that are the same on the GPU and in the interpreter.

kmath/__init__.py imports these first, then the mode's own helpers (device.py or interp.py);
only helpers written in plain `tl` that need no libdevice belong here.
"""

import triton
import triton.language as tl


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def _and(a, b):
    return a & b


@triton.jit
def _or(a, b):
    return a | b


@triton.jit
def maximum(a, b):
    """XLA's maximum of floats: NaN propagates and -0 < +0, max(+0, -0) = +0 in either
    order (the interpreter's tl.maximum is np.maximum, which returns a tie's second). A tie
    of zeros is their sum: +0 unless both are -0. (Nested wheres, not `&`: an operand may
    be a Python constant.)"""
    tie = tl.where(a == 0, a + b, a)
    return tl.where(a == b, tie, tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL))


@triton.jit
def minimum(a, b):
    """XLA's minimum of floats: NaN propagates, min(+0, -0) = -0 in either order. A tie of
    zeros is -((-a) + (-b)), -0 unless both are +0; negation multiplies by -1 (Triton's
    unary minus is 0 - x, +0 for +0)."""
    tie = tl.where(a == 0, (a * -1.0 + b * -1.0) * -1.0, a)
    return tl.where(a == b, tie, tl.minimum(a, b, propagate_nan=tl.PropagateNan.ALL))


@triton.jit
def max_nan(x, axis: tl.constexpr, keep_dims: tl.constexpr):
    """A tile's XLA maximum: NaN propagates (tl.max drops it), -0 < +0."""
    return tl.reduce(x, axis, maximum, keep_dims=keep_dims)


@triton.jit
def min_nan(x, axis: tl.constexpr, keep_dims: tl.constexpr):
    """A tile's XLA minimum: NaN propagates (tl.min drops it), -0 < +0."""
    return tl.reduce(x, axis, minimum, keep_dims=keep_dims)


@triton.jit
def reduce_prod(x, axis: tl.constexpr, keep_dims: tl.constexpr):
    return tl.reduce(x, axis, _mul, keep_dims=keep_dims)


@triton.jit
def reduce_and(x, axis: tl.constexpr, keep_dims: tl.constexpr):
    return tl.reduce(x, axis, _and, keep_dims=keep_dims)


@triton.jit
def reduce_or(x, axis: tl.constexpr, keep_dims: tl.constexpr):
    return tl.reduce(x, axis, _or, keep_dims=keep_dims)


@triton.jit
def f32_to_bf16_bits(x):
    """f32 -> bf16 rounded to nearest even by integer operations on the bits; NaN stays
    NaN, quiet, with its sign. The interpreter's own cast truncates; on the GPU this keeps
    an earlier rounding to f32 from being merged into this one (casts.py)."""
    bits = x.to(tl.uint32, bitcast=True)
    hi = bits >> tl.full([], 16, tl.uint32)
    lo = bits & tl.full([], 0xFFFF, tl.uint32)
    half = tl.full([], 0x8000, tl.uint32)
    up = (lo > half) | ((lo == half) & ((hi & tl.full([], 1, tl.uint32)) != 0))
    nan = (bits & tl.full([], 0x7FFFFFFF, tl.uint32)) > tl.full([], 0x7F800000, tl.uint32)
    out = tl.where(nan, hi | tl.full([], 0x40, tl.uint32), hi + up.to(tl.uint32))
    return out.to(tl.uint16).to(tl.bfloat16, bitcast=True)


@triton.jit
def umulhi64(a, b):
    """The high 64 bits of the 128-bit product of two uint64 (XLA kMulhi), from 32-bit
    halves: exact in both modes (libdevice's umul64hi has no interpreter version)."""
    low = tl.full([], 0xFFFFFFFF, tl.uint64)
    half = tl.full([], 32, tl.uint64)
    a0, a1 = a & low, a >> half
    b0, b1 = b & low, b >> half
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    mid = (p00 >> half) + (p01 & low) + (p10 & low)
    return p11 + (p01 >> half) + (p10 >> half) + (mid >> half)


@triton.jit
def smulhi64(a, b):
    """The signed high half: the unsigned one less b where a < 0 and a where b < 0."""
    ua, ub = a.to(tl.uint64, bitcast=True), b.to(tl.uint64, bitcast=True)
    zero = tl.full([], 0, tl.uint64)
    hi = umulhi64(ua, ub) - tl.where(a < 0, ub, zero) - tl.where(b < 0, ua, zero)
    return hi.to(tl.int64, bitcast=True)
