"""The GPU backend's collectives across processes (in Triton's interpreter here: gloo on CPU
tensors; on CUDA the same code runs NCCL): JAX-partitioned modules against JAX's outputs."""

from __future__ import annotations

import numpy as np
import pytest

from gpucheck import torch  # noqa: F401  (skips without torch/triton; interpreter mode)
from test_distributed import _case

from dynhlo.runtime.launch import run_distributed


@pytest.mark.parametrize("name", ["rsag_n2_s1", "a2a_n2_s1", "dptp_n4_s1"])
def test_gpu_partitioned_module_matches_jax(name):
    text, inputs, expected = _case(name)
    nproc = int(name.split("_n")[1].split("_")[0])
    result = run_distributed(text, inputs, nproc, backend="gpu", timeout=120)
    result = result if isinstance(result, tuple) else (result,)
    for got, want in zip(result, expected, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("which", ["MODES", "KINDS"])
def test_gpu_collectives_match_the_cpu(which):
    import test_distributed

    from dynhlo.runtime.launch import run_ranks
    text = getattr(test_distributed, which)
    args = getattr(test_distributed, f"{which.lower()}_args")()
    cpu = run_ranks(text, args, backend="cpu", timeout=60)
    gpu = run_ranks(text, args, backend="gpu", timeout=120)
    for c, g in zip(cpu, gpu, strict=True):
        for a, b in zip(c, g, strict=True):
            np.testing.assert_array_equal(b, a)
