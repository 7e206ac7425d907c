"""exp, log, sin, cos and logistic on the GPU backend over their whole f32 range, within a
few ulp of the correctly rounded value (NumPy in f64, rounded to f32).

XLA's GPU backend calls libdevice's __nv_expf, __nv_logf, __nv_sinf and __nv_cosf (2 ulp
or better). Triton's tl.exp and tl.log are the hardware's ex2.approx and lg2.approx after a
multiplication whose rounding error grows with the argument: 3 ulp of exp at x = 7, tens
of ulp near 88; tl.sin is sin.approx, whose error is absolute and meant for |x| <= 100 pi.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU  # skips without torch or triton; picks interpreter mode

N = 4096
RNG = np.random.default_rng(29)
ARGS = {
    "exponential": np.concatenate([np.linspace(-103, 88.7, N // 2),
                                   RNG.uniform(-20, 20, N // 2)]),
    "log": np.concatenate([np.geomspace(1e-37, 3e38, N // 2), RNG.uniform(0.5, 2, N // 2)]),
    "sine": np.concatenate([np.linspace(-1e4, 1e4, N // 2), RNG.uniform(-4, 4, N // 2)]),
    "cosine": np.concatenate([np.linspace(-1e4, 1e4, N // 2), RNG.uniform(-4, 4, N // 2)]),
    "logistic": np.linspace(-100, 100, N),
}
EXACT = {"exponential": np.exp, "log": np.log, "sine": np.sin, "cosine": np.cos,
         "logistic": lambda x: 1 / (1 + np.exp(-x))}


def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """|got - want| in units of f32's spacing at want (subnormals: the smallest spacing)."""
    spacing = np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    return np.abs(got.astype(np.float64) - want) / spacing


@pytest.mark.parametrize("op", sorted(ARGS))
def test_transcendentals_are_within_a_few_ulp_over_the_range(op):
    x = ARGS[op].astype(np.float32)
    text = (f"HloModule m\nENTRY e {{\n  a = f32[<={N}] parameter(0)\n"
            f"  ROOT r = f32[<={N}] {op}(a)\n}}")
    got = np.asarray(dynhlo.compile(text, **GPU)(x))
    want = EXACT[op](x.astype(np.float64))
    err = _ulps(got, want)
    worst = int(np.argmax(err))
    assert err[worst] <= 4, f"{op}({x[worst]!r}) = {got[worst]!r}, want {want[worst]!r}"
