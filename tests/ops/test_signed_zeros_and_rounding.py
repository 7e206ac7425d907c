"""Rounding halves and ordering signed zeros as XLA does, on the CPU backend, by hand.

XLA's facts: round-nearest-afz rounds the exact value half away from zero and keeps -0;
maximum and minimum propagate NaN and order -0 below +0 whichever operand comes first, in
every op that takes them (clamp, reduce, reduce-window, scatter); sign(-0) = -0; integer
power is exact modulo 2^bits. The numerics sweep (tests/ops/test_numerics_special_values.py) checks
the elementwise ops and reduce against XLA's outputs; here the paths it does not reach.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import dynhlo
from tests.support.common import hlo_module

NAN = float("nan")


def _bits_equal(got, want) -> bool:
    got, want = np.asarray(got), np.asarray(want, dtype=np.asarray(got).dtype)
    same = (got == want) & (np.signbit(got) == np.signbit(want))
    return bool(np.all(same | (np.isnan(got) & np.isnan(want))))


def _unary(op: str, t: str, n: int) -> str:
    return hlo_module(f"""ENTRY main {{
  x = {t}[{n}] parameter(0)
  ROOT r = {t}[{n}] {op}(x)
}}""")


@pytest.mark.parametrize("t, p", [("f16", 10), ("bf16", 7), ("f32", 23), ("f64", 52)])
def test_round_nearest_afz_rounds_the_exact_value_and_keeps_minus_zero(t, p):
    """Not floor(x + 0.5): just below a half, and odd integers past 2^p where x + 0.5 is
    not representable, the addition rounds up first."""
    below_half = 0.5 - 2.0 ** -(p + 2)
    odd = 2.0 ** p + 1
    x = [below_half, -below_half, odd, -odd, 0.5, -0.5, 2.5, -2.5, -0.0, -0.25, 0.0, NAN]
    want = [0.0, -0.0, odd, -odd, 1.0, -1.0, 3.0, -3.0, -0.0, -0.0, 0.0, NAN]
    dtype = dynhlo.hlo.types.to_numpy_dtype(t)
    got = dynhlo.compile(_unary("round-nearest-afz", t, len(x)))(np.array(x).astype(dtype))
    assert _bits_equal(got, want), got


def test_sign_of_minus_zero_is_minus_zero():
    x = np.array([-0.0, 0.0, NAN, -3.0, 1e-45], np.float32)
    got = dynhlo.compile(_unary("sign", "f32", 5))(x)
    assert _bits_equal(got, [-0.0, 0.0, NAN, -1.0, 1.0])


def test_maximum_minimum_and_clamp_order_minus_zero_below_plus_zero():
    """1/max(0, x) at x = -0 is +inf in XLA; NumPy's maximum returns -0 there."""
    text = hlo_module("""ENTRY main {
  x = f32[4] parameter(0)
  y = f32[4] parameter(1)
  mx = f32[4] maximum(x, y)
  mn = f32[4] minimum(x, y)
  c = f32[4] clamp(x, y, x)
  ROOT t = (f32[4], f32[4], f32[4]) tuple(mx, mn, c)
}""")
    x = np.array([0.0, -0.0, NAN, -0.0], np.float32)
    y = np.array([-0.0, 0.0, 1.0, -0.0], np.float32)
    mx, mn, c = dynhlo.compile(text)(x, y)
    assert _bits_equal(mx, [0.0, 0.0, NAN, -0.0])
    assert _bits_equal(mn, [-0.0, -0.0, NAN, -0.0])
    # clamp(lo=x, y, hi=x) = min(max(y, x), x)
    assert _bits_equal(c, [0.0, -0.0, NAN, -0.0])


def _reducer(op: str) -> str:
    return f"""r {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] {op}(a, b)
}}
"""


@pytest.mark.parametrize("op, init, want", [("maximum", "-inf", [0.0, 0.0, -0.0]),
                                            ("minimum", "inf", [-0.0, -0.0, 0.0])])
@pytest.mark.parametrize("how", ["reduce", "running window", "strided window"])
def test_reductions_order_signed_zeros(op, init, want, how):
    """Rows [-0, +0], [+0, -0] and two of the losing zero: reduce, reduce-window as a
    running reduction (NumPy's accumulate) and by window taps."""
    loser = want[2]
    x = np.array([[-0.0, 0.0], [0.0, -0.0], [loser, loser]], np.float32)
    root = {"reduce": "f32[3] reduce(x, i), dimensions={1}",
            "running window": "f32[3,2] reduce-window(x, i), window={size=1x2 pad=0_0x1_0}",
            "strided window": "f32[3,1] reduce-window(x, i), window={size=1x2 stride=1x2}"}
    got = dynhlo.compile(hlo_module(_reducer(op) + f"""ENTRY main {{
  x = f32[3,2] parameter(0)
  i = f32[] constant({init})
  ROOT r = {root[how]}, to_apply=r
}}"""))(x)
    assert _bits_equal(np.asarray(got).reshape(3, -1)[:, -1], want), got


@pytest.mark.parametrize("op, start, update, want", [("maximum", -0.0, 0.0, 0.0),
                                                     ("maximum", 0.0, -0.0, 0.0),
                                                     ("minimum", 0.0, -0.0, -0.0),
                                                     ("minimum", -0.0, 0.0, -0.0)])
def test_scatter_combines_signed_zeros_in_order(op, start, update, want):
    text = hlo_module(_reducer(op) + """ENTRY main {
  a = f32[2] parameter(0)
  i = s32[2,1] parameter(1)
  u = f32[2] parameter(2)
  ROOT s = f32[2] scatter(a, i, u), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=r
}""")
    got = dynhlo.compile(text)(np.array([start, 1.0], np.float32), np.array([[0], [1]], np.int32),
                               np.array([update, NAN], np.float32))
    assert _bits_equal(got, [want, NAN])


def test_unsigned_64_bit_power_is_exact():
    """A typed constant: with a Python int beside the u64 array the result went through f64."""
    text = hlo_module("""ENTRY main {
  x = u64[3] parameter(0)
  y = u64[3] parameter(1)
  ROOT r = u64[3] power(x, y)
}""")
    x, y = [3, 7, 2], [63, 40, 64]
    got = dynhlo.compile(text)(np.array(x, np.uint64), np.array(y, np.uint64))
    assert got.tolist() == [pow(a, b, 2 ** 64) for a, b in zip(x, y, strict=True)]


def test_logistic_reaches_the_subnormals():
    """1 / (1 + exp(88.75)) overflows exp to 0; the answer is 2.86e-39 in f32."""
    x = np.array([-88.75, -100.0, 0.0, 100.0], np.float32)
    got = dynhlo.compile(_unary("logistic", "f32", 4))(x)
    want = [1 / (1 + math.exp(-v)) if v >= 0 else math.exp(v) / (1 + math.exp(v)) for v in x]
    np.testing.assert_array_equal(got, np.array(want, np.float32))
    assert got[0] > 0 and got[1] > 0
