"""XLA's dynamic-dimension rules (dynamic_dimension_inference.cc, dynamic_padder.cc), in the
style of xla/tests/dynamic_ops_test.cc and dynamic_padder_test.cc; expected values by numpy.

- HandleSlice: a slice of length 1 is static; any other slice of a dynamic dimension has size
  ceil((n - start) / stride), at most its own length.
- HandleElementwiseNary (+ RewriteDynamicBinaryOp): operand sizes that differ broadcast a 1,
  else the result takes the smaller.
- HandleSort: a static operand sorted with dynamic keys stays static, its tail kept last.
- A read past the actual size within the bound reads XLA's buffer padding: zeros in dynhlo
  (compile(..., padding_reads="error"): a DynamicSizeError).
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo import DynamicSizeError
from tests.support.common import DATA


def module(body: str, computations: str = "") -> str:
    return f"HloModule m\n{computations}\nENTRY main {{\n{body}\n}}\n"


STRIDED = module("""  x = s32[<=16] parameter(0)
  a = s32[<=4] slice(x), slice={[1:16:4]}
  b = s32[<=4] slice(x), slice={[0:16:4]}
  ROOT r = s32[<=4] add(a, b)""")


@pytest.mark.parametrize("n", [0, 1, 2, 5, 6, 16])
def test_strided_slices_of_a_dynamic_dimension_meet_as_xla_computes(n):
    x = np.arange(100, 100 + n, dtype=np.int32)
    a, b = x[1::4], x[0::4]  # sizes ceil((n-1)/4) and ceil(n/4)
    if len(a) == 1 and len(b) > 1:
        expected = np.broadcast_to(a, b.shape) + b
    elif len(b) == 1 and len(a) > 1:
        expected = a + np.broadcast_to(b, a.shape)
    else:
        m = min(len(a), len(b))
        expected = a[:m] + b[:m]
    np.testing.assert_array_equal(dynhlo.compile(STRIDED)(x), expected)


SIZE_ONE = module("""  x = s32[<=8] parameter(0)
  s = s32[1] slice(x), slice={[2:3]}
  v = s32[] reshape(s)
  b = s32[<=8] broadcast(v), dimensions={}
  ROOT r = s32[<=8] multiply(x, b)""")


def test_a_length_one_slice_is_static_and_reads_padding_as_zero():
    """XLA reads element 2 of its padded buffer for any size; dynhlo's padding is zeros."""
    exe = dynhlo.compile(SIZE_ONE)
    x = np.arange(1, 6, dtype=np.int32)
    np.testing.assert_array_equal(exe(x), x * 3)
    np.testing.assert_array_equal(exe(np.int32([4, 5])), [0, 0])
    with pytest.raises(DynamicSizeError, match="instruction 's': slice .* element 2 of a "
                       "dimension of actual size 2: .*padding_reads='error'"):
        dynhlo.compile(SIZE_ONE, padding_reads="error")(np.int32([4, 5]))


SORT_WITH_IOTA = module("""  x = s32[<=6] parameter(0)
  i = s32[6] iota(), iota_dimension=0
  ROOT s = (s32[<=6], s32[6]) sort(x, i), dimensions={0}, is_stable=true, to_apply=lt""",
                        """lt {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT l = pred[] compare(a, b), direction=LT
}""")


@pytest.mark.parametrize("n", [0, 1, 4, 6])
def test_sort_with_a_static_iota_keeps_it_static(n):
    x = np.array([5, 1, 4, 1, 9, 2][:n], np.int32)
    keys, index = dynhlo.compile(SORT_WITH_IOTA)(x)
    order = np.argsort(x, kind="stable")
    np.testing.assert_array_equal(keys, x[order])
    np.testing.assert_array_equal(index, np.concatenate([order, np.arange(n, 6)]))


TOPK = module("""  x = f32[2,<=6] parameter(0)
  ROOT t = (f32[2,3], s32[2,3]) custom-call(x), custom_call_target="TopK", to_apply=gt""",
              """gt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GT
}""")


@pytest.mark.parametrize("n", [3, 4, 6])
def test_topk_custom_call_of_xlas_cpu_pipeline(n):
    x = np.array([[1, 5, 2, 7, 7, 0], [3, 3, 9, 0, -1, 8]], np.float32)[:, :n]
    values, indices = dynhlo.compile(TOPK)(x)
    order = np.argsort(-x, axis=1, kind="stable")[:, :3]
    np.testing.assert_array_equal(indices, order)
    np.testing.assert_array_equal(values, np.take_along_axis(x, order, 1))


def test_topk_custom_call_of_fewer_than_k_is_a_clear_error():
    with pytest.raises(DynamicSizeError, match="k=3"):
        dynhlo.compile(TOPK)(np.ones((2, 2), np.float32))


REDUCE_WINDOW_SAME = module("""  x = f32[<=9] parameter(0)
  z = f32[] constant(-inf)
  ROOT r = f32[<=5] custom-call(x, z), window={size=3 stride=2 pad=1_1}, custom_call_target="DynamicReduceWindowSamePadding", called_computations={mx}""",
                            """mx {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}""")


@pytest.mark.parametrize("n", [1, 2, 4, 7, 9])
def test_dynamic_reduce_window_same_padding_pads_for_the_actual_size(n):
    x = (np.arange(n)[::-1] * (-1.0) ** np.arange(n)).astype(np.float32)
    out = -(-n // 2)
    before = max((out - 1) * 2 + 3 - n, 0) // 2
    padded = np.concatenate([np.full(before, -np.inf), x, np.full(3, -np.inf)])
    expected = [padded[2 * i:2 * i + 3].max() for i in range(out)]
    np.testing.assert_array_equal(dynhlo.compile(REDUCE_WINDOW_SAME)(x), expected)


def test_strided_same_conv_gradients_at_size_0_are_empty_and_zero():
    """tf.nn.conv1d(stride=2, SAME) and the gradients of sum(y*y) (tests/data/tf, tf2xla's
    DynamicConvolution* calls) at size 0: as TensorFlow's eager run, y and the input
    gradient are empty and the kernel gradient is zeros (a sum over nothing), not the size-1
    input gradient that padding written for a non-empty stride-dilated gradient gives."""
    import os
    path = str(DATA / "tf" / "conv_stride2_grads.hlo")
    with open(path) as f:
        exe = dynhlo.compile(f.read())
    y, dx, dw = exe(np.ones((1, 7, 2), np.float32), np.int32(0))
    assert y.shape == (1, 0, 1) and dx.shape == (1, 0, 2)
    np.testing.assert_array_equal(dw, np.zeros((3, 2, 1), np.float32))


# HandleWhile passes sizes into the body only for dimensions dynamic on entry: a broadcast
# constant carried through the loop stays static, so where it meets x-sized values it is a
# static operand cut to x's size (no broadcast of a size 1), iteration after iteration. The
# constant also meets x and y outside the loop, so it runs at its bound (shared by both).
CARRIED_CONSTANT = """HloModule m
body {
  p = (f32[<=7,3], f32[<=7,3], s32[]) parameter(0)
  x = f32[<=7,3] get-tuple-element(p), index=0
  c = f32[<=7,3] get-tuple-element(p), index=1
  i = s32[] get-tuple-element(p), index=2
  s = f32[<=7,3] add(x, c)
  m = f32[<=7,3] multiply(s, c)
  one = s32[] constant(1)
  next = s32[] add(i, one)
  ROOT t = (f32[<=7,3], f32[<=7,3], s32[]) tuple(x, m, next)
}
cond {
  p = (f32[<=7,3], f32[<=7,3], s32[]) parameter(0)
  i = s32[] get-tuple-element(p), index=2
  k = s32[] constant(3)
  ROOT lt = pred[] compare(i, k), direction=LT
}
ENTRY main {
  x = f32[<=7,3] parameter(0)
  two = f32[] constant(0.5)
  c = f32[<=7,3] broadcast(two), dimensions={}
  zero = s32[] constant(0)
  t = (f32[<=7,3], f32[<=7,3], s32[]) tuple(x, c, zero)
  w = (f32[<=7,3], f32[<=7,3], s32[]) while(t), condition=cond, body=body
  r = f32[<=7,3] get-tuple-element(w), index=1
  o = f32[<=7,3] add(r, x)
  y = f32[<=7,3] parameter(1)
  cx = f32[<=7,3] add(c, x)
  cy = f32[<=7,3] add(c, y)
  ROOT out = (f32[<=7,3], f32[<=7,3], f32[<=7,3]) tuple(o, cx, cy)
}
"""


def carried_constant_expected(x):
    c = np.full_like(x, 0.5)
    for _ in range(3):
        c = (x + c) * c
    return c + x


@pytest.mark.parametrize("n", [0, 1, 2, 4, 7])
def test_a_constant_carried_through_a_while_stays_static_as_xla_holds_it(n):
    x = (np.arange(n * 3, dtype=np.float32).reshape(n, 3) - 4) / 8
    y = np.ones((5, 3), np.float32)
    o, cx, cy = dynhlo.compile(CARRIED_CONSTANT)(x, y)
    np.testing.assert_allclose(o, carried_constant_expected(x), rtol=1e-6)
    np.testing.assert_array_equal(cx, x + 0.5)
    np.testing.assert_array_equal(cy, y + 0.5)


def _inferred_reshape(declared: str, inferred: int) -> str:
    return module(f"""  x = s32[12] parameter(0)
  n = s32[] parameter(1)
  d = s32[<=12] set-dimension-size(x, n), dimensions={{0}}
  ROOT r = {declared} reshape(d), inferred_dimension={inferred}""")


@pytest.mark.parametrize("n", [0, 4, 8, 12])
def test_reshape_puts_the_dynamic_size_on_its_inferred_dimension(n):
    """HandleReshape: a split dimension's size goes to `inferred_dimension` first (XLA's
    dynamic_padder_test OutputMinorDimensionReshape), not to the major-most dimension."""
    x = np.arange(100, 112, dtype=np.int32)
    got = dynhlo.compile(_inferred_reshape("s32[2,3,2]", 1))(x, np.int32(n))
    np.testing.assert_array_equal(got, x[:n].reshape(2, n // 4, 2))
    got = dynhlo.compile(_inferred_reshape("s32[2,6]", 1))(x, np.int32(n))
    np.testing.assert_array_equal(got, x[:n].reshape(2, n // 2))


def test_an_inferred_dimension_the_size_does_not_divide_is_a_dynamic_size_error():
    exe = dynhlo.compile(_inferred_reshape("s32[2,3,2]", 1))
    with pytest.raises(DynamicSizeError, match="reshape of 6 elements into rows of 4"):
        exe(np.arange(12, dtype=np.int32), np.int32(6))


# A stack pushed in a loop (XLA's dynamic_padder_test WhileLoopStack): the body writes row
# `size` with dynamic-update-slice, past the buffer's actual size, then grows the size over it
# with set-dimension-size. XLA keeps the row (it is in the buffer); dynhlo, which holds values
# at their actual sizes, sets the size first (passes/size_before_update.py) so the row is kept.
PUSH_STACK = module("""  p = s32[5,2] parameter(0)
  zero = s32[] constant(0)
  e = s32[<=5,2] set-dimension-size(p, zero), dimensions={0}
  t = (s32[<=5,2]) tuple(e)
  w = (s32[<=5,2]) while(t), condition=cond, body=push
  ROOT r = s32[<=5,2] get-tuple-element(w), index=0""", """push {
  t = (s32[<=5,2]) parameter(0)
  x = s32[<=5,2] get-tuple-element(t), index=0
  n = s32[] get-dimension-size(x), dimensions={0}
  zero = s32[] constant(0)
  one = s32[] constant(1)
  ten = s32[] constant(10)
  v = s32[] add(n, ten)
  row = s32[1,2] broadcast(v), dimensions={}
  u = s32[<=5,2] dynamic-update-slice(x, row, n, zero)
  n1 = s32[] add(n, one)
  g = s32[<=5,2] set-dimension-size(u, n1), dimensions={0}
  ROOT o = (s32[<=5,2]) tuple(g)
}
cond {
  t = (s32[<=5,2]) parameter(0)
  x = s32[<=5,2] get-tuple-element(t), index=0
  n = s32[] get-dimension-size(x), dimensions={0}
  three = s32[] constant(3)
  ROOT lt = pred[] compare(n, three), direction=LT
}
""")


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_a_row_pushed_past_the_size_then_grown_over_is_kept_as_xla_keeps_it(backend):
    """XLA's expected value (dynamic_padder_test WhileLoopStack's pattern): rows 10, 11, 12."""
    options = {}
    if backend == "gpu":
        from tests.support.gpucheck import GPU  # skips without torch/triton
        options = GPU
    got = dynhlo.compile(PUSH_STACK, **options)(np.full((5, 2), -1, np.int32))
    np.testing.assert_array_equal(np.asarray(got), [[10, 10], [11, 11], [12, 12]])
