"""The GPU backend's collectives across processes: in Triton's interpreter here (gloo on CPU
tensors), with NCCL on CUDA (one process per GPU; cases that need more GPUs than the host
has are skipped). JAX-partitioned modules against JAX's outputs, and the CPU for the rest."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.gpucheck import GPU, torch  # skips without torch/triton
from tests.runtime.test_distributed import CASES, _case

from dynhlo.runtime.launch import run_distributed, run_ranks

CUDA = torch.cuda.is_available()
# The interpreter is slow: a few cases there; every case on GPUs.
GPU_CASES = CASES if CUDA else ["rsag_n2_s1", "a2a_n2_s1", "dptp_n4_s1"]


def _needs(nproc: int) -> None:
    if CUDA and torch.cuda.device_count() < nproc:
        pytest.skip(f"needs {nproc} GPUs, this host has {torch.cuda.device_count()}")


@pytest.mark.parametrize("name", GPU_CASES)
def test_gpu_partitioned_module_matches_jax(name):
    text, inputs, expected = _case(name)
    nproc = int(name.split("_n")[1].split("_")[0])
    _needs(nproc)
    result = run_distributed(text, inputs, nproc, timeout=300, **GPU)
    result = result if isinstance(result, tuple) else (result,)
    for got, want in zip(result, expected, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)  # GPU summation order


@pytest.mark.parametrize("which", ["MODES", "KINDS"])
def test_gpu_collectives_match_the_cpu(which):
    from tests.runtime import test_distributed
    text = getattr(test_distributed, which)
    args = getattr(test_distributed, f"{which.lower()}_args")()
    _needs(len(args))
    cpu = run_ranks(text, args, backend="cpu", timeout=60)
    gpu = run_ranks(text, args, timeout=300, **GPU)
    for c, g in zip(cpu, gpu, strict=True):
        for a, b in zip(c, g, strict=True):
            np.testing.assert_array_equal(b, a)
