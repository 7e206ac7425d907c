"""The numerics sweep on the GPU backend: every case of tests/support/numerics_table.py (every
elementwise and reduction opcode over ±0, ±inf, NaN, subnormals, halves, odd integers past
2^p and integer extremes, at every type) against XLA's answers stored in the repository, as
tests/ops/test_numerics_special_values.py checks the CPU backend. Without a GPU the kernels run
in Triton's interpreter, whose transcendentals are plain-tl stand-ins for libdevice
(kmath/interp.py): accurate to f32's few ulp, so f64 ones are held to f32's precision there.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU, INTERPRET  # skips without torch/triton; interpreter mode
from tests.support.numerics_table import (CASES, ULPS, inputs_digest, load_expected,  # noqa: E402
                                          mismatches)

EXPECTED = load_expected()
# NumPy under Triton's interpreter warns at every inf and NaN, which are the point here.
pytestmark = pytest.mark.filterwarnings("ignore:.*encountered in:RuntimeWarning")

# The interpreter's stand-ins: f32 within a few dozen ulp (cbrt and power through exp and
# log), f64 at f32's precision (2^29 f64 ulps to one of f32).
INTERPRETER_ULPS = {"f16": 1, "bf16": 1, "f32": 32, "f64": 32 << 29}


@pytest.mark.parametrize("name", list(CASES))
def test_gpu_backend_matches_xla_on_special_values(name):
    case = CASES[name]
    arrays = case.inputs()
    want, _, digest = EXPECTED[name]
    assert digest == inputs_digest(arrays), "run tools/gen_numerics_expected.py"
    got = dynhlo.compile(case.hlo(), **GPU)(*arrays)
    ulps = INTERPRETER_ULPS if INTERPRET else ULPS
    bad = mismatches(case, arrays, got, want, ulps=ulps)
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("op, init, winner", [("maximum", "-inf", 0.0), ("minimum", "inf", -0.0)])
def test_gpu_long_rows_reduce_to_the_winning_zero_and_nan(op, init, winner):
    """Rows longer than one tile (the kernel's loop combines chunk results): the winning
    zero first or last in a row of the other zero, the other zero only, a NaN mid-row."""
    n = 3000
    x = np.full((4, n), -winner, np.float32)
    x[0, 0] = x[1, -1] = winner
    x[3, n // 2] = np.nan
    text = f"""HloModule r
r {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] {op}(a, b)
}}
ENTRY main {{
  x = f32[4,{n}] parameter(0)
  i = f32[] constant({init})
  ROOT r = f32[4] reduce(x, i), dimensions={{1}}, to_apply=r
}}"""
    got = np.asarray(dynhlo.compile(text, **GPU)(x))
    assert (got[:3] == 0).all() and np.isnan(got[3]), got
    assert np.signbit(got[:3]).tolist() == [bool(np.signbit(winner))] * 2 + [
        not np.signbit(winner)], got


@pytest.mark.parametrize("t", ["f16", "bf16", "f32", "f64"])
def test_gpu_negate_flips_the_sign_bit_of_nan(t):
    """XLA's negate flips the sign bit of every value, NaN included (`jnp.signbit(-x)` and a
    bitcast read it); `x * -1.0` gives the GPU's canonical NaN instead, sign unchanged."""
    from dynhlo.hlo.types import to_numpy_dtype

    dtype = to_numpy_dtype(t)
    x = np.array([np.nan, -np.nan, 0.0, -0.0, np.inf, 1.5], np.float64).astype(dtype)
    x[1] = -x[0]  # a NaN with its sign bit set (astype may drop it)
    text = f"""HloModule n
ENTRY main {{
  x = {t}[<=6] parameter(0)
  ROOT r = {t}[<=6] negate(x)
}}"""
    got = np.asarray(dynhlo.compile(text, **GPU)(x))
    np.testing.assert_array_equal(np.signbit(got), ~np.signbit(x))
    assert np.isnan(got[:2].astype(np.float32)).all()
    np.testing.assert_array_equal(got[2:].astype(np.float64), -x[2:].astype(np.float64))
