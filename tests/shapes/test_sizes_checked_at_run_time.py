"""Sizes that must agree but that inference cannot prove equal are checked at run time (XLA's
kRuntime shape check) on the CPU backend, instead of refusing the module: a computed size
meeting another of another bound, and a declared bound smaller than the operands give. Expected values are
NumPy's by hand; the GPU backend's twin is tests/backends/gpu/test_sizes_checked_at_run_time.py."""

import numpy as np
import pytest

import dynhlo

TWO_BOUNDS = """HloModule two_bounds
ENTRY main {
  a = f32[<=8,3] parameter(0)
  b = f32[<=3,3] parameter(1)
  h = f32[<=3,3] slice(a), slice={[0:8:3], [0:3]}
  s = f32[<=3,3] add(h, b)
  ROOT r = f32[<=3,3] multiply(s, s)
}
"""

DECLARED_BELOW = """HloModule declared_below
ENTRY main {
  a = f32[<=6,3] parameter(0)
  b = f32[<=6,3] parameter(1)
  s = f32[<=4,3] add(a, b)
  ROOT r = f32[<=4,3] multiply(s, s)
}
"""


def check_two_bounds(options: dict) -> None:
    """A size computed at one bound (ceil(n / 3): 3, declared <=3) meeting a parameter's in
    one add: one size wherever they agree; where they differ, XLA's rule for elementwise
    operands of two dynamic sizes (dynamic_dimension_inference HandleElementwiseNary): a
    size 1 broadcasts, else the smaller size is the result's. (Two parameters declared with
    two bounds are two shapes to XLA's verifier: tests/test_bad_input.py.)"""
    exe = dynhlo.compile(TWO_BOUNDS, **options)
    for n in (1, 4, 8):
        x = np.arange(3 * n, dtype=np.float32).reshape(n, 3)
        y = np.full((-(-n // 3), 3), 0.5, np.float32)
        np.testing.assert_array_equal(np.asarray(exe(x, y)), (x[::3] + y) ** 2)
    x = np.arange(21, dtype=np.float32).reshape(7, 3)
    y = np.full((2, 3), 0.5, np.float32)
    np.testing.assert_array_equal(np.asarray(exe(x, y)), (x[::3][:2] + y) ** 2)


def check_declared_below(options: dict) -> None:
    """A result declared `<=4` over operands of bound 6: it runs at sizes up to 4, and a
    size 5 is a DynamicSizeError naming the instruction, its size and its bound."""
    exe = dynhlo.compile(DECLARED_BELOW, **options)
    for n in (2, 4):
        x = np.arange(3 * n, dtype=np.float32).reshape(n, 3)
        np.testing.assert_array_equal(np.asarray(exe(x, x)), (2 * x) ** 2)
    with pytest.raises(dynhlo.DynamicSizeError, match=r"instruction 's': dimension 0 has "
                                                      r"run-time size 5 > bound 4"):
        exe(np.ones((5, 3), np.float32), np.ones((5, 3), np.float32))


def test_operands_of_two_bounds_are_one_size_checked_at_run_time():
    check_two_bounds({"backend": "cpu"})


def test_a_declared_bound_below_the_operands_is_checked_at_run_time():
    check_declared_below({"backend": "cpu"})
