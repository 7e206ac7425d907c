"""CHLO's elementwise ops imported from StableHLO text keep XLA's values over the whole
float range: an overflow in an intermediate (x*x, exp(x)) must not reach the result.

Expected values: JAX's jnp functions run by XLA's CPU backend (jax.jit) on the same inputs.
"""

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402

import dynhlo  # noqa: E402

# large finite, the edge where exp(x) overflows but sinh/cosh do not, infinities, NaN, ±0
VALUES = np.array([1e20, -3e19, 1e30, 3e38, 89.2, -89.2, 88.9, np.inf, -np.inf, np.nan,
                   0.0, -0.0, 1e-30, 0.5, -0.5, 0.99, 1.0, 1.5], np.float32)

CHLO = {"sinh": jnp.sinh, "cosh": jnp.cosh, "asinh": jnp.arcsinh, "acosh": jnp.arccosh,
        "atanh": jnp.arctanh, "tan": jnp.tan, "erf": jax.lax.erf}


def _module(op: str, n: int) -> str:
    t = f"tensor<{n}xf32>"
    return (f"module @m {{\n  func.func public @main(%arg0: {t}) -> {t} {{\n"
            f"    %0 = chlo.{op} %arg0 : {t} -> {t}\n    return %0 : {t}\n  }}\n}}\n")


@pytest.mark.parametrize("op", sorted(CHLO))
def test_chlo_unary_ops_match_xla_at_large_and_special_values(op):
    exe = dynhlo.compile(dynhlo.parse_stablehlo(_module(op, len(VALUES))))
    got = exe(VALUES)
    want = np.asarray(CHLO[op](VALUES))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got) * np.sign(got), np.isinf(want) * np.sign(want))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=0)
    zero = want == 0
    np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]))
