"""The GPU backend's run-time size checks (Triton's interpreter without a GPU): the CPU tests
of tests/shapes/test_sizes_checked_at_run_time.py on the GPU. A size of two bounds is one size at
the larger bound, which its buffers are planned at."""

from tests.support.gpucheck import GPU

from tests.shapes.test_sizes_checked_at_run_time import check_declared_below, check_two_bounds


def test_operands_of_two_bounds_are_one_size_checked_at_run_time():
    check_two_bounds(GPU)


def test_a_declared_bound_below_the_operands_is_checked_at_run_time():
    check_declared_below(GPU)
