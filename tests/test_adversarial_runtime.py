"""Adversarial tests of the runtime side: AOT artifacts (save/load), the JIT cache, the CLI's
compile options, and the GPU backend's calls in Triton's interpreter mode.

Each test is a problem found by attacking these paths; it fails without its fix. Expected
values come from NumPy by hand or the CPU backend.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo

# The root is the parameter twice, then a view of it, then a cached constant: results that
# alias arguments or constants would let writing a result corrupt the caller's data.
ALIAS_HLO = """HloModule alias
ENTRY e {
  a = f32[<=5,5] parameter(0)
  t = (f32[<=5,5]) tuple(a)
  g = f32[<=5,5] get-tuple-element(t), index=0
  c = f32[2] constant({1, 2})
  ROOT r = (f32[<=5,5], f32[<=5,5], f32[<=5,5], f32[2]) tuple(a, a, g, c)
}
"""


@pytest.fixture(scope="module")
def torch():
    """torch, with the GPU backend imported in Triton's interpreter mode (see gpucheck)."""
    import gpucheck  # skips when torch or triton is missing
    return gpucheck.torch


def _storage(value, torch):
    if isinstance(value, torch.Tensor):
        return value.untyped_storage().data_ptr()
    return np.asarray(value).__array_interface__["data"][0]


@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_gpu_results_never_alias_arguments_constants_or_each_other(torch, kind):
    exe = dynhlo.compile(ALIAS_HLO, backend="gpu")
    x = np.arange(15, dtype=np.float32).reshape(3, 5)
    arg = torch.from_numpy(x.copy()) if kind == "torch" else x.copy()
    results = exe(arg)
    pointers = [_storage(r, torch) for r in results] + [_storage(arg, torch)]
    assert len(set(pointers)) == len(pointers)
    for r in results:
        r[0] = 99  # writing a result must change nothing the caller or the module holds
    np.testing.assert_array_equal(np.asarray(arg), x)
    again = exe(arg)
    np.testing.assert_array_equal(np.asarray(again[0]), x)
    np.testing.assert_array_equal(np.asarray(again[3]), np.array([1, 2], np.float32))
