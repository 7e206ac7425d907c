"""The GPU backend (Triton's interpreter without a device) on windows computed from the sizes
at run time: the stored programs of test_windows_computed_at_run_time against jax.jit's
outputs at sizes 1, middle and bound, one executable for every size, and a window size and
stride the module computes from the length against the CPU backend."""

import numpy as np
import pytest

from tests.support.gpucheck import GPU  # noqa: F401

import dynhlo
from dynhlo.errors import DynamicSizeError
from tests.shapes.test_windows_computed_at_run_time import (COMPUTED, NAMES, check_every_size,
                                                             stored, window_past_bound_cases)


@pytest.mark.parametrize("name", NAMES)
def test_a_stored_window_program_matches_jit_on_the_gpu(name):
    text, cases = stored(name)
    check_every_size(dynhlo.compile(text, **GPU), cases)


def test_a_window_computed_from_the_length_matches_the_cpu_on_the_gpu():
    gpu, cpu = dynhlo.compile(COMPUTED, **GPU), dynhlo.compile(COMPUTED)
    for n in (1, 7, 40):
        x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
        np.testing.assert_array_equal(np.asarray(gpu(x)), cpu(x))


@pytest.mark.parametrize("case", range(4))
def test_a_window_read_from_the_arguments_past_the_output_bound_is_an_error_on_the_gpu(case):
    text, args, size = window_past_bound_cases()[case]
    exe = dynhlo.compile(text, **GPU)
    with pytest.raises(DynamicSizeError, match=f"size {size}, past its bound 16"):
        exe(*args)
