"""JAX programs whose windows are computed from a variable length at run time, shared by
tests/shapes/test_windows_computed_at_run_time.py (through from_jax, when jax is importable) and
tools/gen_window_cases.py (which stores their modules and jax.jit's outputs in
tests/data/windows for runs without jax).

Each entry: name -> (fn, spec, sizes), the length `l` at most BOUND. SAME padding with a stride over a
variable dimension is what JAX exports as stablehlo.dynamic_conv / dynamic_reduce_window with
padding computed from the size; a gather after a strided convolution takes the whole
variable dimension (Wav2Vec2's feature encoder). Sizes: 1 (or the least the program
allows), a middle size and the bound.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax

BOUND = 64
_rng = np.random.default_rng(7)
W1 = (_rng.standard_normal((16, 8, 3)) / 4).astype(np.float32)        # OIW
W2 = (_rng.standard_normal((3, 3, 3, 4)) / 3).astype(np.float32)      # HWIO
W3 = (_rng.standard_normal((8, 16, 5)) / 6).astype(np.float32)        # OIW
B1 = (_rng.standard_normal((1, 16, 1)) / 4).astype(np.float32)
DENSE = (_rng.standard_normal((8, 5)) / 3).astype(np.float32)


def _max_pool(x, window, stride):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, window), (1, 1, stride), "SAME")


def _avg_pool(x, window, stride):
    """flax's avg_pool (count_include_pad=True): the window sum over the window size."""
    return lax.reduce_window(x, 0.0, lax.add, (1, 1, window), (1, 1, stride), "SAME") / window


def cnn(x):
    """A flax-free CNN over a variable length: SAME stride-2 conv, ReLU, SAME stride-2 max
    pool, a SAME stride-2 conv, SAME stride-2 avg pool, mean over the length, a dense head."""
    h = jax_relu(lax.conv_general_dilated(x, W1, (2,), "SAME") + B1)
    h = _max_pool(h, 3, 2)
    h = lax.conv_general_dilated(h, W3, (2,), "SAME")
    h = _avg_pool(h, 2, 2)
    return h, h.mean(axis=2) @ DENSE


def jax_relu(x):
    return jnp.maximum(x, 0.0)


PROGRAMS = {
    "conv_same_stride2": (lambda x: lax.conv_general_dilated(x, W1, (2,), "SAME"),
                          "f32[2,8,l]", (1, 23, BOUND)),
    "conv_same_stride3_dilated": (
        lambda x: lax.conv_general_dilated(x, W1, (3,), "SAME", rhs_dilation=(2,)),
        "f32[1,8,l]", (1, 20, BOUND)),
    "conv2d_same_stride2_nhwc": (
        lambda x: lax.conv_general_dilated(x, W2, (2, 2), "SAME",
                                           dimension_numbers=("NHWC", "HWIO", "NHWC")),
        "f32[1,l,6,3]", (1, 17, BOUND)),
    "max_pool_same_stride2": (lambda x: _max_pool(x, 3, 2), "f32[1,4,l]", (1, 30, BOUND)),
    "avg_pool_same_stride2": (lambda x: _avg_pool(x, 2, 2), "f32[1,4,l]", (1, 31, BOUND)),
    "cnn_same_strided": (cnn, "f32[2,8,l]", (1, 37, BOUND)),
    "gather_after_strided_conv": (
        lambda x: lax.conv_general_dilated(x, W1, (2,), "VALID")[0, jnp.array([3, 1, 3])],
        "f32[1,8,l]", (3, 26, BOUND)),
    "gather_after_same_strided_conv": (
        lambda x: lax.conv_general_dilated(x, W1, (2,), "SAME")[0, jnp.array([5, 0])],
        "f32[1,8,l]", (1, 26, BOUND)),
}


def constraints(name: str) -> list[str]:
    """jax.export constraints beyond the bound: a VALID window of 3 needs 3 elements."""
    return ["l >= 3"] if name == "gather_after_strided_conv" else []


def inputs(name: str, length: int) -> np.ndarray:
    spec = PROGRAMS[name][1]
    dims = [length if d == "l" else int(d) for d in spec[4:-1].split(",")]
    rng = np.random.default_rng(length)
    return rng.standard_normal(dims).astype(np.float32)
