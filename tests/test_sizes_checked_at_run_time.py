"""Sizes that must agree but that inference cannot prove equal are checked at run time (XLA's
kRuntime shape check) on the CPU backend, instead of refusing the module: two operands of
different bounds, and a declared bound smaller than the operands give. Expected values are
NumPy's by hand; the GPU backend's twin is tests/test_gpu_sizes_checked_at_run_time.py."""

import numpy as np
import pytest

import dynhlo

TWO_BOUNDS = """HloModule two_bounds
ENTRY main {
  a = f32[<=4,3] parameter(0)
  b = f32[<=6,3] parameter(1)
  s = f32[<=4,3] add(a, b)
  ROOT r = f32[<=4,3] multiply(s, s)
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
    """Sizes of bounds 4 and 6 meeting in one add: one size at run time, or a
    DynamicSizeError naming where they meet."""
    exe = dynhlo.compile(TWO_BOUNDS, **options)
    for n in (1, 3, 4):
        x = np.arange(3 * n, dtype=np.float32).reshape(n, 3)
        y = np.full((n, 3), 0.5, np.float32)
        np.testing.assert_array_equal(np.asarray(exe(x, y)), (x + y) ** 2)
    with pytest.raises(dynhlo.DynamicSizeError, match=r"run-time size 4, but a\.0 is 3 .*"
                                                      r"they meet in 's'"):
        exe(np.ones((3, 3), np.float32), np.ones((4, 3), np.float32))


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
