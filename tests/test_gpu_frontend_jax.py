"""from_jax on the GPU backend (Triton's interpreter in CI, the real GPU with -m gpu on the
device), against jax.jit at sizes 1, 7 and the bound, for the families of test_frontend_jax."""

from __future__ import annotations

import numpy as np
import pytest

from gpucheck import torch  # noqa: F401  (skips without torch/triton; interpreter mode first)

jax = pytest.importorskip("jax")

from test_frontend_jax import BOUND, FAMILIES, _args, _close  # noqa: E402

from dynhlo.frontends.jax import from_jax  # noqa: E402

GPU_FAMILIES = ["mean_var", "attention", "cumsum_sort", "scan", "integer", "slices"]


def _numpy(out):
    if isinstance(out, tuple):
        return tuple(_numpy(o) for o in out)
    return out.cpu().numpy() if hasattr(out, "cpu") else np.asarray(out)


@pytest.mark.parametrize("family", GPU_FAMILIES)
def test_from_jax_gpu_matches_jit(family):
    fn, shapes = FAMILIES[family]
    exe = from_jax(fn, *shapes, bounds={"n": BOUND}, backend="gpu")
    rng = np.random.default_rng(0)
    for n in (1, 7, BOUND):
        args = _args(shapes, {"n": n}, rng)
        _close(_numpy(exe(*args)), jax.jit(fn)(*args))
