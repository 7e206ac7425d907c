"""Sizes computed from the arguments' dimensions in a graph program (graph/sizes.py), and the
data movement the real programs needed inside one graph: gathers at dynamic starts,
batched products, set-dimension-size over fewer rows.

Each module runs through the graph runner (graph=True; Triton's interpreter here) and is
checked against NumPy by hand or the CPU backend at several sizes, 0 and 1 among them.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.errors import DynamicSizeError
from tests.support.gpucheck import GPU, torch  # noqa: F401  (skips without torch or triton)
from dynhlo.backends.gpu.graph.runner import GraphRunner
from dynhlo.backends.gpu.graph.sizes import SizeExpr

# A broadcast of a constant set to n + 1 rows (n: x's rows, a size the host computes),
# added to x with one more row appended: every kernel reads n + 1 from the size buffer.
PLUS_ONE = """HloModule plus_one
ENTRY e {
  x = f32[<=8,3] parameter(0)
  n = s32[] get-dimension-size(x), dimensions={0}
  one = s32[] constant(1)
  m = s32[] add(n, one)
  two = f32[] constant(2)
  b = f32[9,3] broadcast(two), dimensions={}
  bm = f32[<=9,3] set-dimension-size(b, m), dimensions={0}
  c = f32[1,3] constant({{10, 20, 30}})
  r = f32[<=9,3] concatenate(x, c), dimensions={0}
  ROOT s = f32[<=9,3] multiply(bm, r)
}
"""


def _graph(text: str, **options):
    exe = dynhlo.compile(text, **GPU, graph=True, **options)
    assert isinstance(exe.program.graph, GraphRunner), exe.program.graph_refusal
    return exe


def test_a_size_of_n_plus_one_comes_from_the_size_buffer():
    exe = _graph(PLUS_ONE)
    prog = exe.program.graph.prog
    exprs = {g for g in prog.size_index if isinstance(g, SizeExpr)}
    assert exprs and all(g.value([(5, 3)]) == 6 for g in exprs)
    rng = np.random.default_rng(1)
    for n in (0, 1, 5, 8, 2):
        x = rng.standard_normal((n, 3)).astype(np.float32)
        want = 2 * np.concatenate([x, [[10, 20, 30]]]).astype(np.float32)
        got = exe(x)
        assert got.shape == (n + 1, 3)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(got, dynhlo.compile(PLUS_ONE)(x))


def test_a_computed_size_past_its_bound_is_an_error():
    exe = _graph(PLUS_ONE)
    (expr,) = {g for g in exe.program.graph.prog.size_index if isinstance(g, SizeExpr)}
    assert expr.bound == 9
    with pytest.raises(DynamicSizeError, match="outside 0..9"):
        expr.value([(9, 3)])


# n * 3 elements: a reshape merging x's dynamic rows with its 3 columns, then a softmax
# over the merged axis: kernels sized by the product of a dimension and a constant.
MERGED = """HloModule merged
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY e {
  x = f32[<=4,3] parameter(0)
  y = f32[<=4,3] parameter(1)
  s = f32[<=4,3] add(x, y)
  flat = f32[<=12] reshape(s)
  e = f32[<=12] exponential(flat)
  z = f32[] constant(0)
  t = f32[] reduce(e, z), dimensions={0}, to_apply=add
  tb = f32[<=12] broadcast(t), dimensions={}
  ROOT d = f32[<=12] divide(e, tb)
}
"""


def test_a_merged_size_is_a_product_of_a_dimension():
    exe = _graph(MERGED)
    exprs = {g for g in exe.program.graph.prog.size_index if isinstance(g, SizeExpr)}
    assert 12 in {g.value([(4, 3), (4, 3)]) for g in exprs}   # and meet(x.0, y.0): 4
    rng = np.random.default_rng(2)
    for n in (1, 4, 0, 3):
        x, y = (rng.standard_normal((n, 3)).astype(np.float32) for _ in range(2))
        e = np.exp((x + y).reshape(-1))
        np.testing.assert_allclose(exe(x, y), e / e.sum(), rtol=1e-6)


# Rows of x picked at starts into x's dynamic rows (XLA clamps to the bound: a start past
# the actual rows reads padding, zeros), then the product of each batch by w.
GATHER_ROWS = """HloModule rows
ENTRY e {
  x = f32[<=6,4] parameter(0)
  i = s32[<=5,1] parameter(1)
  ROOT g = f32[<=5,4] gather(x, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
}
"""


@pytest.mark.parametrize("use_graph", [False, True])
def test_gather_at_starts_into_dynamic_rows_reads_padding_as_zeros(use_graph):
    exe = dynhlo.compile(GATHER_ROWS, **GPU, graph=use_graph)
    assert all(kind != "library" for _, kind in exe.program.plan.steps)
    cpu = dynhlo.compile(GATHER_ROWS)
    rng = np.random.default_rng(3)
    for n, m in ((6, 5), (3, 5), (0, 2), (4, 0), (1, 1)):
        x = rng.standard_normal((n, 4)).astype(np.float32)
        i = rng.integers(-2, 9, (m, 1)).astype(np.int32)
        start = np.clip(i[:, 0], 0, 5)           # [0, bound - slice size]
        want = np.zeros((m, 4), np.float32)
        inside = start < n
        want[inside] = x[start[inside]]
        got = exe(x, i)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(got, cpu(x, i))


def test_gather_past_the_actual_rows_stays_an_error_with_padding_reads_error():
    exe = dynhlo.compile(GATHER_ROWS, **GPU, padding_reads="error")
    assert any(inst.name == "g" and kind == "library" for inst, kind in exe.program.plan.steps)
    with pytest.raises(DynamicSizeError):
        exe(np.ones((2, 4), np.float32), np.array([[3]], np.int32))


# Batched products, the second operand once as stored and once through a transpose of its
# two minor dimensions (a view: the product reads it in the other layout).
BATCHED = """HloModule batched
ENTRY e {
  q = f32[2,<=7,4] parameter(0)
  k = f32[2,<=7,4] parameter(1)
  kt = f32[2,4,<=7] transpose(k), dimensions={0,2,1}
  s = f32[2,<=7,<=7] dot(q, kt), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}
  ROOT o = f32[2,<=7,4] dot(s, k), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}
}
"""


def test_batched_products_in_one_graph():
    exe = _graph(BATCHED)
    steps = exe.program.graph.prog.steps
    assert [len(s.dot) for s in steps] == [5, 5]   # two batched products, no copy of kᵀ
    rng = np.random.default_rng(4)
    for n in (7, 1, 0, 4):
        q, k = (rng.standard_normal((2, n, 4)).astype(np.float32) for _ in range(2))
        want = (q @ k.transpose(0, 2, 1)) @ k
        np.testing.assert_allclose(exe(q, k), want, rtol=1e-5, atol=1e-5)


# x's rows set to y's row count: cut where y has fewer, zero-extended where it has more.
SET_ROWS = """HloModule set_rows
ENTRY e {
  x = f32[<=6,2] parameter(0)
  y = f32[<=6] parameter(1)
  n = s32[] get-dimension-size(y), dimensions={0}
  e = f32[<=6,2] exponential(x)
  s = f32[<=6,2] set-dimension-size(e, n), dimensions={0}
  one = f32[] constant(1)
  ob = f32[<=6,2] broadcast(one), dimensions={}
  ROOT r = f32[<=6,2] add(s, ob)
}
"""


@pytest.mark.parametrize("use_graph", [False, True])
def test_set_dimension_size_over_fewer_rows_zero_extends(use_graph):
    exe = dynhlo.compile(SET_ROWS, **GPU, graph=use_graph)
    assert all(kind != "library" for _, kind in exe.program.plan.steps)
    cpu = dynhlo.compile(SET_ROWS)
    rng = np.random.default_rng(5)
    for rows, n in ((4, 2), (2, 5), (0, 3), (3, 0), (6, 6)):
        x = rng.standard_normal((rows, 2)).astype(np.float32)
        y = np.zeros(n, np.float32)
        ext = np.zeros((n, 2), np.float32)
        ext[:min(rows, n)] = np.exp(x[:n])
        got = exe(x, y)
        np.testing.assert_allclose(got, ext + 1, rtol=1e-6)
        # exp may differ from the CPU backend's by an ulp (libdevice against NumPy); the
        # zero-extended rows may not differ at all
        np.testing.assert_allclose(got, cpu(x, y), rtol=2.4e-7)
        np.testing.assert_array_equal(got[min(rows, n):], 1)
