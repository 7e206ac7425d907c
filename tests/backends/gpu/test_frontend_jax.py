"""from_jax on the GPU backend (Triton's interpreter in CI, the real GPU with -m gpu on the
device), against jax.jit at sizes 1, 7 and the bound, for the families of
tests/frontends/test_jax.py."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.gpucheck import GPU  # skips without torch/triton; interpreter mode first

jax = pytest.importorskip("jax")

from tests.frontends.test_jax import BOUND, FAMILIES, _args, _close  # noqa: E402

from dynhlo.frontends.jax import from_jax  # noqa: E402

GPU_FAMILIES = ["mean_var", "attention", "cumsum_sort", "scan", "stacked", "integer", "slices"]


def _numpy(out):
    """Results as NumPy (the gpu backend may return torch tensors), in the same structure."""
    return jax.tree_util.tree_map(
        lambda o: o.cpu().numpy() if hasattr(o, "cpu") else np.asarray(o), out)


@pytest.mark.parametrize("family", GPU_FAMILIES)
def test_from_jax_gpu_matches_jit(family):
    fn, shapes = FAMILIES[family]
    exe = from_jax(fn, *shapes, bounds={"n": BOUND}, **GPU)
    rng = np.random.default_rng(0)
    for n in (1, 7, BOUND):
        args = _args(shapes, {"n": n}, rng)
        with jax.default_matmul_precision("highest"):  # f32 as f32: JAX's GPU default is TF32
            want = jax.jit(fn)(*args)
        _close(_numpy(exe(*args)), want)


@pytest.mark.parametrize("name", ["interp", "unique"])
def test_an_iota_read_through_a_reversed_dimension_of_size_one(name):
    # the iota's index was the integer expression (1 - 1 - 0), which has no .to() in Triton
    jnp = pytest.importorskip("jax.numpy")
    fn = {"interp": lambda x: jnp.interp(x[:, 0], jnp.linspace(-2, 2, 5), jnp.arange(5.)),
          "unique": lambda x: jnp.unique(jnp.round(x), size=5, fill_value=0)}[name]
    exe = from_jax(fn, "f32[n,5]", bounds={"n": 8}, **GPU)
    rng = np.random.default_rng(5)
    for n in (1, 3, 8):
        x = rng.standard_normal((n, 5)).astype(np.float32)
        _close(_numpy(exe(x)), jax.jit(fn)(x))
