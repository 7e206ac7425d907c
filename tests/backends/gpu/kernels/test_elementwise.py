"""Fused elementwise lowerings crossed with element types, against the CPU backend.

Every op here runs inside a generated Triton kernel (Triton's interpreter without a GPU):
the test checks the plan has no library or host step. Inputs include NaN, infinities and
signed zeros for floats, and extremes for integers; the CPU backend is the reference.
"""

from __future__ import annotations


import ml_dtypes
import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU  # skips without torch or triton; picks interpreter mode
from dynhlo.hlo.types import to_numpy_dtype  # noqa: E402

FLOATS = ["f16", "bf16", "f32", "f64"]
INTS = ["s8", "u8", "s16", "s32", "u32", "s64"]
TOL = {"f16": 2e-3, "bf16": 1.6e-2, "f32": 1e-5, "f64": 1e-6}
SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.5, 0.5, -0.5, 3.0]

UNARY_FLOAT = ["exponential", "log", "sqrt", "rsqrt", "tanh", "sine", "cosine", "floor",
               "ceil", "negate", "abs", "sign", "logistic", "log-plus-one",
               "exponential-minus-one", "round-nearest-afz", "round-nearest-even", "cbrt"]
BINARY_FLOAT = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "power",
                "remainder", "atan2"]
BINARY_INT = ["add", "subtract", "multiply", "maximum", "minimum", "and", "or", "xor"]


def values(t: str, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dtype = to_numpy_dtype(t)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        base = np.array([info.min, info.max, 0, 1, 7], dtype)
        rand = rng.integers(max(info.min, -1000), min(info.max, 1000), n * 4, dtype=dtype)
        return np.resize(np.concatenate([base, rand]), (n, 4)).astype(dtype)
    rand = rng.normal(size=n * 4) * 3
    picked = np.concatenate([np.array(SPECIAL), rand])[rng.permutation(n * 4 + 10)[:n * 4]]
    return picked.reshape(n, 4).astype(dtype)


def unary(op: str, t: str, out: str | None = None) -> str:
    return f"""HloModule u
ENTRY main {{
  x = {t}[<=9,4] parameter(0)
  ROOT y = {out or t}[<=9,4] {op}(x)
}}"""


def binary(op: str, t: str, out: str | None = None, attrs: str = "") -> str:
    return f"""HloModule b
ENTRY main {{
  x = {t}[<=9,4] parameter(0)
  y = {t}[<=9,4] parameter(1)
  ROOT z = {out or t}[<=9,4] {op}(x, y){attrs}
}}"""


def run_both(text: str, args, t: str):
    on_gpu = dynhlo.compile(text, **GPU)
    assert on_gpu.program.kernels
    assert all(kind in ("param", "kernel") for _, kind in on_gpu.program.plan.steps)
    got = on_gpu(*args)
    want = np.asarray(dynhlo.compile(text, backend="cpu")(*args))
    assert got.shape == want.shape and got.dtype == want.dtype
    if want.dtype.kind == "f" or want.dtype == ml_dtypes.bfloat16:
        tol = TOL.get(t, 1e-5)
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                                   rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("t", FLOATS)
@pytest.mark.parametrize("op", UNARY_FLOAT)
def test_unary_float(op, t):
    for n in (0, 1, 9):
        x = values(t, n, 1)
        if op in ("log", "sqrt", "rsqrt", "log-plus-one", "cbrt"):
            with np.errstate(invalid="ignore"):
                x = np.abs(x.astype(np.float64)).astype(x.dtype)  # the real domain
        run_both(unary(op, t), [x], t)


@pytest.mark.parametrize("t", FLOATS)
@pytest.mark.parametrize("op", BINARY_FLOAT)
def test_binary_float(op, t):
    for n in (0, 1, 9):
        x, y = values(t, n, 2), values(t, n, 3)
        if op == "power":  # positive bases: the interpreter's pow is exp(y log x)
            x = np.abs(x.astype(np.float64)).astype(x.dtype)
        run_both(binary(op, t), [x, y], t)


@pytest.mark.parametrize("t", INTS)
@pytest.mark.parametrize("op", BINARY_INT)
def test_binary_int(op, t):
    for n in (0, 1, 9):
        run_both(binary(op, t), [values(t, n, 4), values(t, n, 5)], t)


@pytest.mark.parametrize("t", ["f32", "s32", "f16", "u8"])
@pytest.mark.parametrize("direction", ["EQ", "NE", "LT", "LE", "GT", "GE"])
def test_compare(direction, t):
    x = values(t, 9, 6)
    y = np.where(np.arange(36).reshape(9, 4) % 3 == 0, x, values(t, 9, 7))
    run_both(binary("compare", t, "pred", f", direction={direction}"), [x, y], t)


@pytest.mark.parametrize("src,dst", [("f32", "f16"), ("f16", "f32"), ("f32", "bf16"),
                                     ("s32", "f32"), ("u8", "s32"), ("s64", "s8"),
                                     ("f32", "pred"), ("pred", "f32"), ("f64", "f32")])
def test_convert(src, dst):
    x = values(src, 9, 8) if src != "pred" else values("s32", 9, 8) % 2 == 0
    run_both(unary("convert", src, dst), [x], dst)


@pytest.mark.parametrize("t", ["f32", "s32"])
def test_select_and_clamp(t):
    text = f"""HloModule s
ENTRY main {{
  p = pred[<=9,4] parameter(0)
  x = {t}[<=9,4] parameter(1)
  y = {t}[<=9,4] parameter(2)
  lo = {t}[] constant(-1)
  hi = {t}[] constant(2)
  s = {t}[<=9,4] select(p, x, y)
  ROOT c = {t}[<=9,4] clamp(lo, s, hi)
}}"""
    p = values("s32", 9, 9) % 2 == 0
    run_both(text, [p, values(t, 9, 10), values(t, 9, 11)], t)


def test_is_finite_and_not():
    text = """HloModule f
ENTRY main {
  x = f32[<=9,4] parameter(0)
  f = pred[<=9,4] is-finite(x)
  ROOT n = pred[<=9,4] not(f)
}"""
    run_both(text, [values("f32", 9, 12)], "pred")
