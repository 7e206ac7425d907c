"""from_jax on deep programs and on sizes JAX and XLA write differently, against jax.jit.

A residual block `x = x + gelu(layernorm(x) @ W)` repeated L times: every size JAX's export
computes (get_dimension_size, then a shape tensor) is the argument's row count again, so
inference must find one size, not an expression that doubles per block (L=12 was a
MemoryError). A strided convolution over a variable length: XLA's window formula and JAX's
`(l - k) // s + 1` are one size (it was refused as two). Expected values: jax.jit at the
same static shapes.
"""

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax

import dynhlo  # noqa: E402
from dynhlo.shapes.dynamic import infer_module  # noqa: E402
from dynhlo.shapes.sizes import Sym, size_key  # noqa: E402

WIDTH, BOUND = 64, 256


def _residual_blocks(depth: int):
    rng = np.random.default_rng(depth)
    weights = [rng.standard_normal((WIDTH, WIDTH)).astype(np.float32) / 8 for _ in range(depth)]

    def layernorm(x):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / jnp.sqrt(var + 1e-5)

    def fn(x):
        for w in weights:
            x = x + jax.nn.gelu(layernorm(x) @ w)
        return x
    return fn


@pytest.mark.parametrize("depth", [12, 48])
def test_residual_blocks_at_depth_match_jit(depth):
    fn = _residual_blocks(depth)
    exe = dynhlo.from_jax(fn, f"f32[n,{WIDTH}]", bounds={"n": BOUND})
    rng = np.random.default_rng(0)
    for n in (1, 37, BOUND):
        x = rng.standard_normal((n, WIDTH)).astype(np.float32)
        np.testing.assert_allclose(exe(x), jax.jit(fn)(x), rtol=2e-4, atol=2e-4)


def test_every_row_count_of_a_residual_chain_is_the_arguments():
    """All the sizes JAX's export computes for the rows are the argument's row count: one
    size object, so nothing grows with the depth. (A broadcast before its set-dimension-size
    has no size of its own: it runs at its bound, as in XLA.)"""
    exe = dynhlo.from_jax(_residual_blocks(6), f"f32[n,{WIDTH}]", bounds={"n": BOUND})
    info = infer_module(exe.module)
    rows = {size_key(dims[0]) for dims in info.dims.values()
            if isinstance(dims, tuple) and dims and isinstance(dims[0], Sym)
            and not isinstance(size_key(dims[0]), Sym)}
    (param,) = exe.module.entry.parameters
    assert rows == {size_key(info.dims[param][0])}


W_CONV = np.random.default_rng(3).standard_normal((16, 8, 3)).astype(np.float32)


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
@pytest.mark.parametrize("stride, padding", [(2, "VALID"), (3, "VALID"), (2, [(1, 2)])])
def test_a_strided_convolution_over_a_variable_length_matches_jit(stride, padding, backend):
    """XLA's output size of the window and JAX's `(l - k + pads) // s + 1`, met in the
    multiply, are one size (the GPU backend: Triton's interpreter without a device)."""
    def fn(x):
        return lax.conv_general_dilated(x, W_CONV, (stride,), padding) * 2

    options = {}
    if backend == "gpu":
        from tests.support.gpucheck import GPU
        options = GPU
    exe = dynhlo.from_jax(fn, "f32[1,8,l]", bounds={"l": 128}, **options)
    rng = np.random.default_rng(1)
    for length in (3, 4, 9, 64, 127, 128):
        x = rng.standard_normal((1, 8, length)).astype(np.float32)
        np.testing.assert_allclose(np.asarray(exe(x)), jax.jit(fn)(x), rtol=1e-4, atol=1e-4)
