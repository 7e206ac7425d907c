"""Power of f32 values (and of f16/bf16, widened to f32 first): the reference's semantics.

`power(x, y)` of f32 arrays (same shape) is computed in f64 and rounded once to f32:

- where y is 2, 3, 4, -1 or -2 (EXACT_EXPONENTS): x^y by f64 products, `x*x`, `(x*x)*x`,
  `(x*x)*(x*x)`, `1/x`, `1/(x*x)`. An f32 value has 24 significant bits, so `x*x` is exact
  in f64 (48 bits) and each form rounds once in f64 (no f32 value overflows or underflows
  there: |x|^4 < 2^512, |x|^-2 < 2^300): the exact power rounded to f64, then to f32.
  For 2 and -1 that is the correctly rounded f32 result (a product or quotient of two f32
  values rounded to f64 first rounds to f32 as if directly: 53 >= 2*24 + 2), so it is
  XLA's bit for bit: XLA's algebraic simplifier rewrites pow(A, 2) to A*A and
  pow(A, -1) to 1/A (algebraic_simplifier.cc, HandlePower). XLA also rewrites pow(A, 3)
  to A*(A*A) in f32 (jaxlib 0.10's CPU compile of `x ** 3.0`), two roundings: that is up
  to an ulp off the exact cube (0.1049001f^3 is 0.0011543245 there, 0.0011543244 here,
  which is the f64 cube rounded once), so here 3 keeps the more accurate once-rounded
  product. Other exponents are XLA's own pow (not correctly rounded either).
- elsewhere: NumPy's f64 `np.power` of the widened values, rounded once to f32: within an
  f64 ulp or so of the exact power before the one rounding, where NumPy's f32 power (its
  SIMD loop) is often an f32 ulp off.

C99's special values hold throughout (pow(x, 0) = 1 for NaN too, pow(1, y) = 1,
pow(-0, 3) = -0, pow(-inf, -1) = -0, pow(0, -2) = inf, a negative base to a non-integer
power is NaN); subnormal inputs and results are kept (XLA's CPU flushes them to zero).
The compiled path's kernels compute the EXACT_EXPONENTS forms for a constant exponent with
the same f64 operations (emit.py), so both agree bit for bit.
"""

from __future__ import annotations

import numpy as np

# exponent -> its f64 form of the widened base: one rounding in f64 each (x*x is exact)
EXACT_EXPONENTS = {
    2.0: lambda x: x * x,
    3.0: lambda x: (x * x) * x,
    4.0: lambda x: (x * x) * (x * x),
    -1.0: lambda x: 1.0 / x,
    -2.0: lambda x: 1.0 / (x * x),
}


def power_f32(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """power of f32 arrays `x`, `y` of one shape (broadcast views allowed): a new f32 array,
    computed in f64 and rounded once (the module docstring's forms)."""
    with np.errstate(all="ignore"):
        x64 = x.astype(np.float64)
        if y.ndim == 0 or (y.size and y.strides == (0,) * y.ndim):   # one exponent
            form = EXACT_EXPONENTS.get(float(y.reshape(-1)[0]) if y.size else None)
            if form is not None:
                return form(x64).astype(np.float32)
        y64 = y.astype(np.float64)
        out = np.power(x64, y64)
        for n, form in EXACT_EXPONENTS.items():
            hit = y64 == n
            if hit.any():
                out = np.where(hit, form(x64), out)
        return out.astype(np.float32)
