"""XLA's maximum and minimum of floats, for every CPU lowering that takes one.

XLA's maximum and minimum propagate NaN and order -0 below +0: max(+0, -0) = +0 and
min(+0, -0) = -0 whichever operand comes first (so 1/max(0, x) at x = -0 is +inf). NumPy's
np.maximum and np.minimum propagate NaN too, but a tie of zeros returns the second operand.
Each method here is NumPy's, then a zero result takes the sign XLA's order gives it: the
winning zero (+0 for maximum, -0 for minimum) wherever one was among the operands.
Semantics: XLA operation semantics, Max and Min (IEEE 754-2019 maximum and minimum).
"""

from __future__ import annotations

import numpy as np

from ...hlo.types import FLOAT_TYPES, from_numpy_dtype


def is_float(dtype: np.dtype) -> bool:
    """f16/f32/f64 and the ml_dtypes floats (bf16, f8): kind 'V' holds s4/u4 too."""
    return dtype.kind == "f" or (dtype.kind == "V" and from_numpy_dtype(dtype) in FLOAT_TYPES)


class Extreme:
    """np.maximum or np.minimum with XLA's order of zeros, as a ufunc-like object: call,
    reduce, accumulate and at, the methods the CPU's reductions use."""

    def __init__(self, ufunc: np.ufunc, winner_negative: bool):
        self.ufunc = ufunc
        self.negative = winner_negative  # the sign of the zero that wins a tie

    def _won(self, x: np.ndarray) -> np.ndarray:
        return (x == 0) & (np.signbit(x) == self.negative)

    def _fix(self, out, won) -> np.ndarray:
        out = np.asarray(out)
        zero = np.array(-0.0 if self.negative else 0.0).astype(out.dtype)
        return np.where((out == 0) & won, zero, out)

    def __call__(self, x, y):
        out = self.ufunc(x, y)
        if not is_float(np.asarray(out).dtype):
            return out
        return self._fix(out, self._won(np.asarray(x)) | self._won(np.asarray(y)))

    def reduce(self, x: np.ndarray, axis):
        won = np.logical_or.reduce(self._won(x), axis=axis)
        return self._fix(self.ufunc.reduce(x, axis=axis), won)

    def accumulate(self, x: np.ndarray, axis: int):
        won = np.logical_or.accumulate(self._won(x), axis=axis)
        return self._fix(self.ufunc.accumulate(x, axis=axis), won)

    def at(self, a: np.ndarray, index, values) -> None:
        won = self._won(a)
        np.logical_or.at(won, index, self._won(np.asarray(values)))
        self.ufunc.at(a, index, values)
        a[...] = self._fix(a, won)


MAXIMUM = Extreme(np.maximum, winner_negative=False)
MINIMUM = Extreme(np.minimum, winner_negative=True)
