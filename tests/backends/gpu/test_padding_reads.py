"""Padding reads on the GPU backend (Triton's interpreter without a GPU): a read past a
dynamic dimension's actual size within its bound reads XLA's buffer padding, which dynhlo
reads as zeros, as the CPU backend does; expected values by numpy by hand under that rule,
and TF eager's answers for tf2xla's where/boolean_mask/unique (tests/data/tf). A slice in a
kernel reads with a load masked by the operand's actual sizes: values are dense at their
actual sizes, so an unmasked read past a row's end would read the next row's data.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.gpucheck import GPU

import dynhlo
from dynhlo.backends.gpu.plan.data import plan_from_data, plan_to_data
from dynhlo.backends.gpu.plan.fusion import kernels_of
from tests.frontends.test_tf_bridge import READS_PADDING, _check, _compile, _runs

# A length-1 column slice of a <=4-column array (static in XLA: column 2 at any size),
# used in a fused kernel: below 3 columns it is padding, zeros.
COLUMN = """HloModule m
ENTRY e {
  x = f32[3,<=4] parameter(0)
  c = f32[3,1] slice(x), slice={[0:3], [2:3]}
  ROOT r = f32[3,1] add(c, c)
}
"""

WINDOW = """HloModule m
ENTRY e {
  a = s32[<=10,3] parameter(0)
  i = s32[] parameter(1)
  j = s32[] parameter(2)
  ROOT s = s32[3,2] dynamic-slice(a, i, j), dynamic_slice_sizes={3,2}
}
"""

ROWS = """HloModule m
ENTRY e {
  a = f32[<=6,2] parameter(0)
  i = s32[<=4] parameter(1)
  ROOT g = f32[<=4,2] gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,2}
}
"""


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_gpu_static_slice_past_the_size_reads_zero_with_a_masked_load(n):
    exe = dynhlo.compile(COLUMN, **GPU)
    (kernel,) = exe.program.kernels
    assert "< s0), other=0)" in kernel.source   # the load masked by the actual size
    x = np.arange(1, 3 * n + 1, dtype=np.float32).reshape(3, n)
    want = 2 * x[:, 2:3] if n > 2 else np.zeros((3, 1), np.float32)
    np.testing.assert_array_equal(exe(x), want)


@pytest.mark.parametrize("n,i", [(10, 9), (7, 5), (3, 0), (1, 4), (0, 0)])
def test_gpu_dynamic_slice_window_past_the_size_reads_zeros(n, i):
    a = np.arange(1, 3 * n + 1, dtype=np.int32).reshape(n, 3)
    buffer = np.zeros((10, 3), np.int32)
    buffer[:n] = a
    first = min(max(i, 0), 7)                    # clamped against the bound, as XLA does
    got = dynhlo.compile(WINDOW, **GPU)(a, np.int32(i), np.int32(1))
    np.testing.assert_array_equal(got, buffer[first:first + 3, 1:3])


@pytest.mark.parametrize("n", [1, 2, 6])
def test_gpu_gather_row_past_the_size_reads_zeros(n):
    a = np.arange(1, 2 * n + 1, dtype=np.float32).reshape(n, 2)
    idx = np.int32([0, n - 1, n, 40])             # 40 clamps to the bound's last row, 5
    buffer = np.zeros((6, 2), np.float32)
    buffer[:n] = a
    got = dynhlo.compile(ROWS, **GPU)(a, idx)
    np.testing.assert_array_equal(got, buffer[np.minimum(idx, 5)])


@pytest.mark.parametrize("text,args,what", [
    (COLUMN, [np.ones((3, 2), np.float32)], "instruction 'c': slice"),
    (WINDOW, [np.ones((3, 3), np.int32), np.int32(1), np.int32(0)],
     "instruction 's': dynamic-slice"),
    (ROWS, [np.ones((2, 2), np.float32), np.int32([2])], "instruction 'g': gather"),
])
def test_gpu_padding_reads_error_refuses_naming_the_instruction(text, args, what):
    exe = dynhlo.compile(text, padding_reads="error", **GPU)
    assert not any("other=0)" in k.source and "< s" in k.source for k in exe.program.kernels)
    with pytest.raises(dynhlo.DynamicSizeError, match=f"^{what}.*padding_reads='error'"):
        exe(*args)


@pytest.mark.parametrize("name", sorted(READS_PADDING))
def test_gpu_tf_bridge_padding_read_case_matches_tf_eager(name):
    exe = _compile(name, **GPU)
    for n, args, expected in _runs(name):
        _check(exe, name, n, args, expected)


def test_gpu_plan_data_keeps_padding_reads():
    """An AOT payload's plan says how it was made: "error" plans keep such slices out of
    kernels, and plan/check.py judges a stored plan by its own mode."""
    for mode in ("zeros", "error"):
        exe = dynhlo.compile(COLUMN, padding_reads=mode, **GPU)
        plan = exe.program.plan
        index = {id(k): i for i, k in enumerate(kernels_of(plan))}
        assert plan_from_data(plan_to_data(plan, index), plan.info).padding_reads == mode
        assert exe.program.padding_reads == mode
