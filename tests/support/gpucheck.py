"""Shared setup of the GPU backend's tests (tests/backends/gpu/).

Importing this module skips the importing test module when torch or triton is missing, and
imports the GPU backend, which picks Triton's interpreter mode (no GPU needed) before triton
itself loads; import it before anything that imports triton. It also holds HLO text several
GPU tests share:

    import dynhlo
    from tests.support.gpucheck import F32_REDUCERS, GPU, gpu, torch
    exe = dynhlo.compile(text, **GPU)     # the interpreter where there is no GPU
"""

from __future__ import annotations

import importlib.util

import pytest

torch = pytest.importorskip("torch")
if importlib.util.find_spec("triton") is None:
    pytest.skip("the gpu backend needs triton", allow_module_level=True)

from dynhlo.backends import gpu  # noqa: E402  (picks interpreter mode first)

# Without a CUDA device the GPU tests ask for Triton's interpreter explicitly (backend="gpu"
# alone is then an UnsupportedError); on a device they run the real kernels.
INTERPRET = not torch.cuda.is_available()
GPU = {"backend": "gpu", "interpret": INTERPRET}   # compile()/jit() keywords
CLI_GPU = ["--backend", "gpu"] + (["--interpret"] if INTERPRET else [])

__all__ = ["CLI_GPU", "F32_REDUCERS", "GPU", "INTERPRET", "gpu", "torch"]

# add_f and max_f: the f32 reducers of reduce / reduce-window tests.
F32_REDUCERS = """add_f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
max_f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] maximum(a, b)
}
"""
