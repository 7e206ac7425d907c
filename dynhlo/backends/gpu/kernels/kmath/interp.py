"""The interpreter's versions of device.py: the same names, in plain `tl` (no libdevice).

Accurate enough for tests (float32 within a few ulp on ordinary inputs), not for speed.
"""

import triton
import triton.language as tl


@triton.jit
def sqrt(x):
    return tl.sqrt(x)


@triton.jit
def tanh(x):
    return tl.where(tl.abs(x) > 20.0, tl.where(x > 0, 1.0, -1.0), 1.0 - 2.0 / (tl.exp(2.0 * x) + 1.0))


@triton.jit
def tan(x):
    return tl.sin(x) / tl.cos(x)


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
    q = x / y
    r = x - y * tl.where(q < 0, tl.ceil(q), tl.floor(q))
    return tl.where((tl.abs(y) == float("inf")) & (tl.abs(x) != float("inf")), x, r)


@triton.jit
def pow(x, y):
    """C's pow (libdevice's on the GPU, XLA's float power): |x|**y by exp and log in f64,
    then the sign and special cases of C99 Annex F: x**0 = 1 and 1**y = 1 (NaN too),
    (-1)**inf = 1, a negative base with an odd integral exponent is negative (-0 too),
    with a finite non-integral one NaN."""
    d, e = x.to(tl.float64), y.to(tl.float64)
    ad = tl.abs(d)
    mag = tl.exp(e * tl.log(ad))
    finite_e = tl.abs(e) != float("inf")
    integral = (tl.floor(e) == e) & finite_e
    odd = integral & (e - 2.0 * tl.floor(e * 0.5) == 1.0)
    negative = (d < 0) | ((d == 0) & (1.0 / d < 0))
    r = tl.where(negative & odd, mag * -1.0, mag)   # not -mag: Triton's minus is 0 - x
    fraction = (e == e) & finite_e & ~integral
    r = tl.where((d < 0) & (ad != float("inf")) & fraction, float("nan"), r)
    one = (e == 0) | (d == 1.0) | ((ad == 1.0) & (tl.abs(e) == float("inf")))
    return tl.where(one, 1.0, r).to(x.dtype)


@triton.jit
def bf16_to_f32(x):
    """bf16 -> f32 by the bits, exact (the interpreter's own cast flushes subnormals)."""
    bits = x.to(tl.uint16, bitcast=True).to(tl.uint32)
    return (bits << tl.full([], 16, tl.uint32)).to(tl.float32, bitcast=True)


@triton.jit
def _atan(z):
    # atan on |z| <= 1 by a minimax polynomial, outside it by pi/2 - atan(1/z).
    a = tl.abs(z)
    inv = a > 1.0
    w = tl.where(inv, 1.0 / a, a)
    w2 = w * w
    p = w * (1.0 + w2 * (-0.3333314528 + w2 * (0.1999355085 + w2 * (-0.1420889944 + w2 * (
        0.1065626393 + w2 * (-0.0752896400 + w2 * (0.0429096138 + w2 * (-0.0161657367
                                                                            + w2 * 0.0028662257))))))))
    p = tl.where(inv, 1.5707963267948966 - p, p)
    return tl.where(z < 0, -p, p)


@triton.jit
def atan2(y, x):
    pi = 3.141592653589793
    both_inf = (tl.abs(x) == float("inf")) & (tl.abs(y) == float("inf"))
    base = _atan(y / x)
    base = tl.where(both_inf, 0.7853981633974483 * tl.where(y < 0, -1.0, 1.0), base)
    neg_sign = (y < 0) | ((y == 0) & (1.0 / y < 0))
    shifted = tl.where(x < 0, tl.where(neg_sign, base - pi, base + pi), base)
    shifted = tl.where(both_inf & (x < 0), tl.where(y < 0, -3.0 * pi / 4, 3.0 * pi / 4), shifted)
    at_zero = tl.where(y == 0, tl.where(1.0 / x < 0, tl.where(neg_sign, -pi, pi), y),
                       tl.where(y < 0, -pi / 2, pi / 2))
    out = tl.where(x == 0, at_zero, shifted)
    return tl.where((y == 0) & (x > 0), y, out)


# XLA's later unary opcodes (acos ... sinh): computed in f64 (NumPy underneath), rounded to
# the operand's type; tiny arguments by their series, where the closed form cancels.
@triton.jit
def acos(x):
    d = x.to(tl.float64)
    return (2.0 * _atan(tl.sqrt((1.0 - d) / (1.0 + d)))).to(x.dtype)


@triton.jit
def asin(x):
    d = x.to(tl.float64)
    return _atan(d / tl.sqrt((1.0 - d) * (1.0 + d))).to(x.dtype)


@triton.jit
def atan(x):
    return _atan(x.to(tl.float64)).to(x.dtype)


@triton.jit
def acosh(x):
    d = x.to(tl.float64)
    return tl.log(d + tl.sqrt((d - 1.0) * (d + 1.0))).to(x.dtype)


@triton.jit
def asinh(x):
    d = x.to(tl.float64)
    a = tl.abs(d)
    big = tl.log(a + tl.sqrt(a * a + 1.0))
    r = tl.where(a < 1e-4, a - a * a * a / 6.0, big)
    return tl.where(d < 0, -r, r).to(x.dtype)


@triton.jit
def atanh(x):
    d = x.to(tl.float64)
    r = 0.5 * tl.log((1.0 + d) / (1.0 - d))
    return tl.where(tl.abs(d) < 1e-4, d + d * d * d / 3.0, r).to(x.dtype)


@triton.jit
def cosh(x):
    d = x.to(tl.float64)
    return (0.5 * (tl.exp(d) + tl.exp(-d))).to(x.dtype)


@triton.jit
def sinh(x):
    d = x.to(tl.float64)
    r = 0.5 * (tl.exp(d) - tl.exp(-d))
    return tl.where(tl.abs(d) < 1e-4, d + d * d * d / 6.0, r).to(x.dtype)
