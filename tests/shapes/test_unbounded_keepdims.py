"""`?` dimensions through a reshape (JAX writes `f32[?,1] reshape(f32[?])` for every keepdims):
their bound follows from the bounded operand, so jit, bounds=, buckets= and AOT all run them."""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo

KEEPDIMS = """HloModule keepdims
mx {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY e {
  x = f32[?,4] parameter(0)
  z = f32[] constant(-inf)
  r = f32[?] reduce(x, z), dimensions={1}, to_apply=mx
  k = f32[?,1] reshape(r)
  k2 = f32[?] reshape(k)
  b = f32[?,4] broadcast(k2), dimensions={0}
  ROOT s = f32[?,4] subtract(x, b)
}
"""


def _expected(x):
    return x - x.max(axis=1, keepdims=True)


@pytest.mark.parametrize("n", [0, 1, 5, 8])
@pytest.mark.parametrize("how", ["compile", "bounds", "buckets", "jit", "jit-buckets"])
def test_keepdims_reshape_of_unbounded_runs_every_way(how, n):
    x = np.arange(4 * n, dtype=np.float32).reshape(n, 4) % 7
    if how == "compile":
        exe = dynhlo.compile(KEEPDIMS)
    elif how == "bounds":
        exe = dynhlo.compile(KEEPDIMS, bounds={"x": {0: 8}})
    elif how == "buckets":
        exe = dynhlo.compile(KEEPDIMS, buckets=[2, 8])
    elif how == "jit":
        exe = dynhlo.jit(KEEPDIMS)
    else:
        exe = dynhlo.jit(KEEPDIMS, buckets=[4, 8])
    np.testing.assert_array_equal(exe(x), _expected(x))


def test_keepdims_reshape_of_unbounded_ahead_of_time(tmp_path):
    path = tmp_path / "keepdims.dynhlo"
    dynhlo.compile(KEEPDIMS, bounds={"x": {0: 8}}).save(path)
    exe = dynhlo.load(path)
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(exe(x), _expected(x))


def test_the_bound_of_a_keepdims_reshape_is_derived():
    from dynhlo.hlo import parse_hlo
    from dynhlo.passes.bound_unbounded import bound_unbounded
    bounded = bound_unbounded(parse_hlo(KEEPDIMS), bucket=8)
    shapes = {i.name: str(i.shape) for i in bounded.entry.instructions}
    assert shapes["k"] == "f32[<=8,1]" and shapes["s"] == "f32[<=8,4]"
