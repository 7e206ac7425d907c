"""A broadcast whose `dimensions` are out of order transposes its operand (XLA operation
semantics, Broadcast; HloVerifier::HandleBroadcast asks only that each operand dimension maps
to a result dimension of its size): out[i, j] = x[j, i] for dimensions={1,0}. Expected values:
NumPy's transpose by hand, on the reference evaluator, the compiled CPU path and the GPU
backend (Triton's interpreter where there is no GPU), as the root (the broadcast's own view)
and read by kernels, static and at dynamic sizes.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo

TWO_D = """HloModule m
ENTRY main {
  x = f32[ROWS,8] parameter(0)
  n = s32[] get-dimension-size(x), dimensions={0}
  t = f32[8,ROWS] broadcast(x), dimensions={1,0}
  u = f32[8,ROWS] set-dimension-size(t, n), dimensions={1}
  e = f32[8,ROWS] exponential(u)
  s = f32[8,ROWS] add(t, t)
  ROOT r = (f32[8,ROWS], f32[8,ROWS], f32[8,ROWS]) tuple(t, e, s)
}
"""

# rank 2 -> 3 with a new middle dimension: out[i, k, j] = x[j, i]
THREE_D = """HloModule m
ENTRY main {
  x = f32[ROWS,8] parameter(0)
  b = f32[8,3,ROWS] broadcast(x), dimensions={2,0}
  ROOT m = f32[8,3,ROWS] multiply(b, b)
}
"""


def _paths():
    paths = [("reference", {"backend": "cpu", "reference": True}),
             ("compiled", {"backend": "cpu", "reference": False})]
    try:
        from tests.support.gpucheck import GPU
    except pytest.skip.Exception:
        return paths
    return paths + [("gpu", GPU)]


@pytest.mark.parametrize("path", [name for name, _ in _paths()])
@pytest.mark.parametrize("rows,n", [("5", 5), ("<=8", 3), ("<=8", 8), ("<=8", 1)])
def test_a_broadcast_out_of_order_transposes(path, rows, n):
    options = dict(_paths())[path]
    x = (np.arange(n * 8, dtype=np.float32).reshape(n, 8) - 11) / 7
    exe = dynhlo.compile(TWO_D.replace("ROWS", rows), **options)
    for _ in range(3):   # (again: the compiled path's specs and runs)
        t, e, s = (np.asarray(v) for v in exe(x))
        np.testing.assert_array_equal(t, x.T)
        np.testing.assert_allclose(e, np.exp(x.T), rtol=2e-7)
        np.testing.assert_array_equal(s, x.T + x.T)
    exe = dynhlo.compile(THREE_D.replace("ROWS", rows), **options)
    want = np.broadcast_to(x.T[:, None, :], (8, 3, n))
    np.testing.assert_array_equal(np.asarray(exe(x)), want * want)
