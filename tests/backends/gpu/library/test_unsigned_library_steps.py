"""Library steps (torch calls) over u16, u32 and u64, which torch has few kernels for
(cummax, maximum, index_put, scatter_add raise NotImplementedError): each runs, on the
device or on the host tier, and equals the CPU backend's answer exactly."""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU  # skips without torch or triton; picks interpreter mode
from dynhlo.hlo.types import to_numpy_dtype  # noqa: E402


def _module(t: str) -> str:
    return f"""HloModule u
mx {{
  a = {t}[] parameter(0)
  b = {t}[] parameter(1)
  ROOT c = {t}[] maximum(a, b)
}}
ad {{
  a = {t}[] parameter(0)
  b = {t}[] parameter(1)
  ROOT c = {t}[] add(a, b)
}}
ENTRY main {{
  x = {t}[<=8] parameter(0)
  i = s32[3,1] parameter(1)
  zero = {t}[] constant(0)
  running = {t}[<=8] reduce-window(x, zero), window={{size=8 pad=7_0}}, to_apply=mx
  pooled = {t}[<=8] reduce-window(x, zero), window={{size=3 pad=1_1}}, to_apply=mx
  u = {t}[3] slice(x), slice={{[0:3]}}
  added = {t}[<=8] scatter(x, i, u), update_window_dims={{}}, inserted_window_dims={{0}},
    scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply=ad
  ROOT r = ({t}[<=8], {t}[<=8], {t}[<=8]) tuple(running, pooled, added)
}}"""


@pytest.mark.parametrize("t", ["u16", "u32", "u64"])
@pytest.mark.parametrize("n", [3, 8])
def test_wide_unsigned_library_steps_match_the_cpu_backend(t, n):
    info = np.iinfo(to_numpy_dtype(t))
    x = np.array([info.max, 0, 1, info.max // 2 + 1, 7, info.max - 1, 3, 2],
                 to_numpy_dtype(t))[:n]
    i = np.array([[0], [0], [2]], np.int32)
    text = _module(t)
    got = dynhlo.compile(text, **GPU)(x, i)
    want = dynhlo.compile(text)(x, i)
    for g, w in zip(got, want, strict=True):
        g = np.asarray(g.cpu() if hasattr(g, "cpu") else g)
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)
