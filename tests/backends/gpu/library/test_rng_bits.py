"""rng-bit-generator on the GPU backend (run on the host) equals the CPU backend's, which is
XLA's (tests/ops/test_rng_bits.py), also where its bits feed generated kernels."""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU  # skips without torch or triton; interpreter mode

TEXT = """HloModule t
ENTRY main {{
  s = u64[{k}] parameter(0)
  x = f32[{dims}] parameter(1)
  r = (u64[{k}], {t}[{dims}]) rng-bit-generator(s), algorithm={alg}
  state = u64[{k}] get-tuple-element(r), index=0
  bits = {t}[{dims}] get-tuple-element(r), index=1
  f = f32[{dims}] convert(bits)
  y = f32[{dims}] add(f, x)
  ROOT out = (u64[{k}], {t}[{dims}], f32[{dims}]) tuple(state, bits, y)
}}"""


@pytest.mark.parametrize("alg,k", [("rng_three_fry", 2), ("rng_philox", 3), ("rng_default", 2)])
@pytest.mark.parametrize("t,dims", [("u32", "7,3"), ("u64", "1000"), ("u8", "2,3,5"),
                                    ("s16", "5")])
def test_gpu_equals_cpu(alg, k, t, dims):
    text = TEXT.format(k=k, t=t, dims=dims, alg=alg)
    state = np.array([2**64 - 1, 2**64 - 3, 0xDEADBEEFCAFEBABE][:k], np.uint64)
    x = np.arange(np.prod([int(d) for d in dims.split(",")]), dtype=np.float32)
    x = x.reshape([int(d) for d in dims.split(",")])
    want = dynhlo.compile(text)(state, x)
    got = dynhlo.compile(text, **GPU)(state, x)
    for g, w in zip(got, want, strict=True):
        g = np.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)
