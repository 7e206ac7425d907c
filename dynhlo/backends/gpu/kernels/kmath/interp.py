"""The interpreter's versions of device.py: the same names, in plain `tl` (no libdevice).

Accurate enough for tests (float32 within a few ulp on ordinary inputs, f64 to f32's
precision), not for speed; the special values are libdevice's (and XLA's): -0 stays -0
through the odd functions, NaN propagates, a tiny argument is not flushed to zero.
"""

import triton
import triton.language as tl


@triton.jit
def sqrt(x):
    return tl.sqrt(x)


@triton.jit
def exp(x):
    return tl.exp(x)


@triton.jit
def log(x):
    return tl.log(x)


@triton.jit
def sin(x):
    return tl.sin(x)


@triton.jit
def cos(x):
    return tl.cos(x)


@triton.jit
def sigmoid(x):
    """device.py's sigmoid, with tl.exp."""
    e = tl.exp(-tl.abs(x))
    return tl.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


@triton.jit
def tanh(x):
    # in f64, by its series where 1 - 2 / (e^2x + 1) cancels (it is 0 for a subnormal)
    d = x.to(tl.float64)
    r = tl.where(tl.abs(d) < 1e-4, d * (1.0 - d * d / 3.0), 1.0 - 2.0 / (tl.exp(2.0 * d) + 1.0))
    return r.to(x.dtype)


@triton.jit
def tan(x):
    return tl.sin(x) / tl.cos(x)


@triton.jit
def log1p(x):
    # in f64, by its series near 0 (x times it: -0 stays -0)
    d = x.to(tl.float64)
    r = tl.where(tl.abs(d) < 1e-4, d * (1.0 - d / 2.0 + d * d / 3.0), tl.log(1.0 + d))
    return r.to(x.dtype)


@triton.jit
def expm1(x):
    d = x.to(tl.float64)
    r = tl.where(tl.abs(d) < 1e-4, d * (1.0 + d / 2.0 + d * d / 6.0), tl.exp(d) - 1.0)
    return r.to(x.dtype)


@triton.jit
def erf(x):
    return tl.erf(x)


@triton.jit
def cbrt(x):
    r = tl.exp(tl.log(tl.abs(x)) / 3.0)
    return tl.where(x == 0, x, tl.where(x < 0, r * -1.0, r))


@triton.jit
def round_afz(x):
    """Half away from zero of the exact value: trunc(x), one further from zero where the
    part cut off (exact) is at least a half; not floor(x + 0.5), whose addition rounds
    (0.49999997 -> 1, 2^23 + 1 -> 2^23 + 2). trunc keeps -0, and -0.3 -> -0."""
    whole = tl.where(x < 0, tl.ceil(x), tl.floor(x))
    return tl.where(tl.abs(x - whole) >= 0.5, whole + tl.where(x < 0, -1.0, 1.0), whole)


@triton.jit
def rint(x):
    """Half to even of the exact value: floor(x), one up where the part cut off is above a
    half or a half above an odd floor; a zero result takes x's sign (-0.3 -> -0)."""
    low = tl.floor(x)
    part = x - low
    odd = low - 2.0 * tl.floor(low * 0.5) != 0
    r = tl.where((part > 0.5) | ((part == 0.5) & odd), low + 1.0, low)
    return tl.where(r == 0, x * 0.0, r)


@triton.jit
def fmod(x, y):
    # a float's % is LLVM's frem, C's fmod (np.fmod here): exact, with x's sign; not
    # x - y * trunc(x / y), whose quotient overflows (fmod(0.5, 1e-45) was -inf)
    return x % y


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
    return tl.where(z == 0, z, tl.where(z < 0, p * -1.0, p))  # atan(-0) = -0


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
    out = tl.where((y == 0) & (x > 0), y, out)
    return tl.where((x != x) | (y != y), x + y, out)  # NaN in, NaN out


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
    # NaN below 1; log(2x) where (x - 1)(x + 1) would overflow
    d = x.to(tl.float64)
    r = tl.where(d > 1e150, tl.log(d) + 0.6931471805599453,
                 tl.log(d + tl.sqrt((d - 1.0) * (d + 1.0))))
    return tl.where(d < 1.0, float("nan"), r).to(x.dtype)


@triton.jit
def asinh(x):
    d = x.to(tl.float64)
    a = tl.abs(d)
    big = tl.where(a > 1e150, tl.log(a) + 0.6931471805599453, tl.log(a + tl.sqrt(a * a + 1.0)))
    r = tl.where(a < 1e-4, a - a * a * a / 6.0, big)
    return tl.where(d == 0, d, tl.where(d < 0, r * -1.0, r)).to(x.dtype)


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


@triton.jit
def reduce_sum(x, axis: tl.constexpr, keep_dims: tl.constexpr):
    """A float tile's sum; the interpreter's tl.sum is np.sum, which starts from +0, so a
    sum of -0s is made -0 again (IEEE: a sum is -0 exactly when every term is)."""
    total = tl.sum(x, axis=axis, keep_dims=keep_dims)
    negative_zero = ((x == 0) & (1.0 / x < 0)).to(tl.int32)
    every = tl.min(negative_zero, axis=axis, keep_dims=keep_dims) == 1
    return tl.where(every, total * -1.0, total)
