"""A float sum of -0s is -0 (IEEE 754: x + y is -0 only when both are -0, in any order), on
the CPU reference, the compiled CPU path and the GPU backend's reduce kernels: NumPy's and
Triton's interpreter's sums start from +0, and a kernel's masked lanes and accumulator
must not bring a +0 in. XLA: reduce(all -0, init -0) is -0 (its CPU answer, jax 0.10)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import dynhlo
from dynhlo.hlo.types import to_numpy_dtype


def _backends():
    out = [{"backend": "cpu"}, {"backend": "cpu", "reference": False}]
    try:
        from tests.support.gpucheck import GPU
    except BaseException:  # pytest's Skipped: no torch or triton
        return out
    return out + [GPU]


def _module(t: str, init: str, dims: str) -> str:
    return f"""HloModule s
add {{
  a = {t}[] parameter(0)
  b = {t}[] parameter(1)
  ROOT c = {t}[] add(a, b)
}}
ENTRY main {{
  x = {t}[{dims}] parameter(0)
  i = {t}[] constant({init})
  rows = {t}[3] reduce(x, i), dimensions={{1}}, to_apply=add
  cols = {t}[{dims.split(",")[1]}] reduce(x, i), dimensions={{0}}, to_apply=add
  all = {t}[] reduce(x, i), dimensions={{0,1}}, to_apply=add
  ROOT r = ({t}[3], {t}[{dims.split(",")[1]}], {t}[]) tuple(rows, cols, all)
}}"""


def _by_hand(x: np.ndarray, init: float, axis) -> np.ndarray:
    """init + x0 + x1 + ... in Python floats, XLA's order."""
    x64 = np.asarray(x, np.float64)
    moved = np.moveaxis(x64, axis, -1) if axis is not None else x64.reshape(1, -1)
    out = [functools.reduce(lambda a, b: a + b, row, init) for row in moved.reshape(
        -1, moved.shape[-1])]
    return np.array(out).reshape(moved.shape[:-1]) if axis is not None else np.array(out[0])


@pytest.mark.parametrize("backend", _backends(), ids=lambda b: "-".join(map(str, b.values())))
@pytest.mark.parametrize("t", ["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("dims, n", [("3,5", 5), ("3,<=8", 5), ("3,<=8", 1)])
@pytest.mark.parametrize("init", ["-0", "0"])
def test_sum_of_negative_zeros_is_negative_zero(backend, t, dims, n, init):
    x = np.full((3, n), -0.0, to_numpy_dtype(t))
    x[2, 0] = 0.0  # a +0 makes its row's (and the whole) sum +0
    got = dynhlo.compile(_module(t, init, dims), **backend)(x)
    start = -0.0 if init == "-0" else 0.0
    for g, axis in zip(got, (1, 0, None), strict=True):
        g = np.asarray(g.cpu() if hasattr(g, "cpu") else g).astype(np.float64)
        want = _by_hand(x, start, axis)
        np.testing.assert_array_equal(g, want)
        np.testing.assert_array_equal(np.signbit(g), np.signbit(want))
