"""A -0.0 constant in a fused GPU kernel stays -0.0 (1 / -0 is -inf, atan2(0, -0) is pi),
in every float type, against the CPU backend (IEEE: the sign of zero is a value).

Triton's tl.full makes any value equal to 0 the type's +0, so the kernel builds -0 itself.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU  # skips without torch or triton; picks interpreter mode
from dynhlo.hlo.types import to_numpy_dtype  # noqa: E402


def _module(t: str, body: str) -> str:
    return f"""HloModule m
ENTRY main {{
  x = {t}[<=4] parameter(0)
  k = {t}[] constant(-0)
  o = {t}[] constant(1)
  c = {t}[<=4] broadcast(k), dimensions={{}}
  one = {t}[<=4] broadcast(o), dimensions={{}}
  ROOT r = {t}[<=4] {body}
}}"""


@pytest.mark.parametrize("t", ["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("body", ["divide(one, c)", "add(x, c)", "multiply(x, c)",
                                  "atan2(x, c)", "copy(c)"])
def test_negative_zero_constant_keeps_its_sign_in_gpu_kernels(t, body):
    text = _module(t, body)
    x = np.array([0.0, -0.0, 1.0, -1.0], to_numpy_dtype(t))[:3]
    got = np.asarray(dynhlo.compile(text, **GPU)(x), np.float64)
    want = np.asarray(dynhlo.compile(text)(x), np.float64)
    if body == "atan2(x, c)":   # a libm result: within rounding of the type
        np.testing.assert_allclose(got, want, rtol=1e-2)
    else:
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    if body == "divide(one, c)":
        assert (want == -np.inf).all()


@pytest.mark.parametrize("t", ["f16", "bf16", "f32", "f64"])
def test_negative_nan_constant_keeps_its_sign_in_gpu_kernels(t):
    """`constant(-nan)` is a NaN with the sign bit set (the CPU backend's, XLA's): a kernel
    builds it from its bits (a `float("nan")` literal is +NaN, and GPU arithmetic would
    canonicalize a negated one)."""
    text = f"""HloModule m
ENTRY main {{
  x = {t}[<=4] parameter(0)
  k = {t}[] constant(-nan)
  c = {t}[<=4] broadcast(k), dimensions={{}}
  z = {t}[] constant(0)
  zb = {t}[<=4] broadcast(z), dimensions={{}}
  p = pred[<=4] compare(x, zb), direction=GT
  ROOT r = {t}[<=4] select(p, c, x)
}}"""
    x = np.array([1.0, -1.0, 2.0], to_numpy_dtype(t))
    want = dynhlo.compile(text)(x)
    got = np.asarray(dynhlo.compile(text, **GPU)(x))
    assert np.isnan(want[[0, 2]].astype(np.float32)).all() and np.signbit(want[[0, 2]]).all()
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    np.testing.assert_array_equal(np.isnan(got.astype(np.float32)), [True, False, True])
