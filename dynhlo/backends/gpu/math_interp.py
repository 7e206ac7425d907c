"""The interpreter's versions of math_device.py: the same names, in plain `tl` (no libdevice).

Accurate enough for tests (float32 within a few ulp on ordinary inputs), not for speed.
"""

import triton
import triton.language as tl


@triton.jit
def tanh(x):
    return tl.where(tl.abs(x) > 20.0, tl.where(x > 0, 1.0, -1.0), 1.0 - 2.0 / (tl.exp(2.0 * x) + 1.0))


@triton.jit
def tan(x):
    return tl.sin(x) / tl.cos(x)


@triton.jit
def sigmoid(x):
    return 1.0 / (1.0 + tl.exp(-x))


@triton.jit
def log1p(x):
    return tl.where(tl.abs(x) < 1e-4, x - x * x / 2.0, tl.log(1.0 + x))


@triton.jit
def expm1(x):
    return tl.where(tl.abs(x) < 1e-4, x + x * x / 2.0, tl.exp(x) - 1.0)


@triton.jit
def erf(x):
    return tl.erf(x)


@triton.jit
def cbrt(x):
    return tl.where(x < 0, -tl.exp(tl.log(-x) / 3.0), tl.exp(tl.log(x) / 3.0))


@triton.jit
def round_afz(x):
    return tl.where(x >= 0, tl.floor(x + 0.5), tl.ceil(x - 0.5))


@triton.jit
def rint(x):
    return tl.where(tl.floor(x) + 0.5 == x, 2.0 * tl.floor(x / 2.0 + 0.5), tl.floor(x + 0.5))


@triton.jit
def fmod(x, y):
    return x - y * tl.where(x / y < 0, tl.ceil(x / y), tl.floor(x / y))


@triton.jit
def pow(x, y):
    return tl.exp(y * tl.log(x))


@triton.jit
def _atan2(y, x):
    # atan via its series after range reduction is more than tests need; use the
    # identity atan2 = 2 atan(y / (sqrt(x^2 + y^2) + x)) with a rational atan.
    t = y / (tl.sqrt(x * x + y * y) + x)
    a = tl.abs(t)
    inv = a > 1.0
    z = tl.where(inv, 1.0 / a, a)
    z2 = z * z
    p = z * (1.0 + z2 * (-0.3333314528 + z2 * (0.1999355085 + z2 * (-0.1420889944 + z2 * (
        0.1065626393 + z2 * (-0.0752896400 + z2 * (0.0429096138 + z2 * (-0.0161657367 + z2 * 0.0028662257))))))))
    p = tl.where(inv, 1.5707963267948966 - p, p)
    return 2.0 * tl.where(t < 0, -p, p)


@triton.jit
def atan2(y, x):
    return _atan2(y, x)


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
def reduce_prod(x):
    return tl.reduce(x, 1, _mul, keep_dims=True)


@triton.jit
def reduce_and(x):
    return tl.reduce(x, 1, _and, keep_dims=True)


@triton.jit
def reduce_or(x):
    return tl.reduce(x, 1, _or, keep_dims=True)
