"""Math helpers generated kernels call as `M.*` on the GPU: libdevice, and tile reductions.

The interpreter has no libdevice; interp.py has the same names in plain `tl`.
"""

import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def sqrt(x):
    if x.dtype == tl.float32:
        return tl.sqrt_rn(x)
    else:
        return tl.sqrt(x)


# exp, log, sin and cos through libdevice (XLA's GPU backend calls the same __nv_ functions):
# tl.exp and tl.log lower to ex2.approx and lg2.approx, whose error grows with the argument
# (3 ulp of exp at x = 7, ~60 at x = 88), and tl.sin to sin.approx, meant for |x| <= 100 pi.
@triton.jit
def exp(x):
    return libdevice.exp(x)


@triton.jit
def log(x):
    return libdevice.log(x)


@triton.jit
def sin(x):
    return libdevice.sin(x)


@triton.jit
def cos(x):
    return libdevice.cos(x)


@triton.jit
def sigmoid(x):
    """XLA's logistic. exp of -|x| only: 1 / (1 + exp(-x)) overflows to 0 below x = -88 in
    f32 where the answer is a subnormal (2.9e-39 at -88.75)."""
    e = libdevice.exp(-tl.abs(x))
    return tl.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


@triton.jit
def tanh(x):
    return libdevice.tanh(x)


@triton.jit
def tan(x):
    return libdevice.tan(x)


@triton.jit
def log1p(x):
    return libdevice.log1p(x)


@triton.jit
def expm1(x):
    return libdevice.expm1(x)


@triton.jit
def erf(x):
    return libdevice.erf(x)


@triton.jit
def cbrt(x):
    return libdevice.cbrt(x)


@triton.jit
def round_afz(x):
    return libdevice.round(x)


@triton.jit
def rint(x):
    return libdevice.rint(x)


@triton.jit
def fmod(x, y):
    return libdevice.fmod(x, y)


@triton.jit
def pow(x, y):
    """libdevice's pow follows C99 Annex F (x**0 = 1 and 1**y = 1 for NaN too, a negative
    base with an integral exponent), as XLA's float power does."""
    return libdevice.pow(x, y)


@triton.jit
def f32_to_bf16(x):
    return x.to(tl.bfloat16)   # cvt.rn: round to nearest even


@triton.jit
def bf16_to_f32(x):
    return x.to(tl.float32)


@triton.jit
def atan2(y, x):
    return libdevice.atan2(y, x)


# XLA's later unary opcodes (acos ... sinh): libdevice's, at the operand's precision.
@triton.jit
def acos(x):
    return libdevice.acos(x)


@triton.jit
def acosh(x):
    return libdevice.acosh(x)


@triton.jit
def asin(x):
    return libdevice.asin(x)


@triton.jit
def asinh(x):
    return libdevice.asinh(x)


@triton.jit
def atan(x):
    return libdevice.atan(x)


@triton.jit
def atanh(x):
    return libdevice.atanh(x)


@triton.jit
def cosh(x):
    return libdevice.cosh(x)


@triton.jit
def sinh(x):
    return libdevice.sinh(x)


@triton.jit
def reduce_sum(x, axis: tl.constexpr, keep_dims: tl.constexpr):
    """A float tile's sum (the tree of adds keeps a sum of -0s -0)."""
    return tl.sum(x, axis=axis, keep_dims=keep_dims)
