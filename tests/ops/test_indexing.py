"""Indexing on the CPU backend: dynamic-slice, dynamic-update-slice, gather, scatter.

Answers come from element-by-element references written from XLA's operation semantics (the
loops below), at the actual sizes. The start indices include values past the actual size and
negative ones: dynamic-(update-)slice clamps against the bound as XLA does on its padded
buffer (writes past the actual size only touch padding, never a value), scatter skips against
the actual size. A dynamic-slice or gather window that XLA's clamp puts past the actual size
of a dynamic dimension reads XLA's buffer padding, which dynhlo reads as zeros (the
references below read a zero-padded buffer); compiled with padding_reads="error", a
DynamicSizeError naming the instruction.
"""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

from dynhlo import DynamicSizeError, HloVerifyError
from dynhlo import compile as dynhlo_compile
from tests.support.opcheck import OpCase, check_case, crossed, run_hlo

F32, S32 = np.float32, np.int32


def module(body: str, computations: str = "") -> str:
    return f"HloModule m\n{computations}\nENTRY main {{\n{body}\n}}\n"


def clamp(start, size, extent):
    return min(max(int(start), 0), extent - size)


# ---------------------------------------------------------------- dynamic-(update-)slice

DS = module("""  a = f32[<=10] parameter(0)
  i = s32[] parameter(1)
  ROOT s = f32[3] dynamic-slice(a, i), dynamic_slice_sizes={3}""")
DS_2D = module("""  a = f32[<=6,4] parameter(0)
  i = u32[] parameter(1)
  j = u32[] parameter(2)
  ROOT s = f32[<=6,2] dynamic-slice(a, i, j), dynamic_slice_sizes={6,2}""")
DUS = module("""  a = f32[<=10] parameter(0)
  u = f32[3] parameter(1)
  i = s32[] parameter(2)
  ROOT s = f32[<=10] dynamic-update-slice(a, u, i)""")
DUS_DYN = module("""  a = f32[<=8,3] parameter(0)
  u = f32[<=4,2] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT s = f32[<=8,3] dynamic-update-slice(a, u, i, j)""")


def padded(x, bounds):
    """XLA's padded buffer of `x` at `bounds`, its padding zeros (dynhlo's rule)."""
    buf = np.zeros(bounds, F32)
    buf[tuple(slice(0, k) for k in x.shape)] = x
    return buf


def _ds(x, i):
    """XLA: the start clamps against the bound 10 of the padded buffer, then 3 rows are read."""
    s = clamp(i, 3, 10)
    return padded(x, (10,))[s:s + 3]


def _dus(x, u, i, bound=10):
    """XLA: the start clamps against the bound; rows written past the actual size are padding."""
    buf = padded(x, (bound,)).astype(x.dtype) if x.dtype == F32 else np.resize(x, bound)
    s = clamp(i, len(u), bound)
    buf[s:s + len(u)] = u
    return buf[:len(x)]


def _dus_2d(x, u, i, j):
    """XLA (dynamic_padder's RewriteDynamicUpdateSlice): starts clamp against the bounds
    [8,3] - [4,2]; only the update's valid rows are written."""
    buf = padded(x, (8, 3))
    si, sj = clamp(i, 4, 8), clamp(j, 2, 3)
    buf[si:si + u.shape[0], sj:sj + u.shape[1]] = u
    return buf[:x.shape[0]]


def _arange(n, cols=None):
    shape = (n,) if cols is None else (n, cols)
    return np.arange(int(np.prod(shape)), dtype=F32).reshape(shape) + 1


SLICE_CASES = [
    *[OpCase(f"dynamic-slice-start{i}", DS, lambda n, r, i=i: (_arange(n), S32(i)), _ds,
             (10, 0, 3, 4, 7))
      for i in (0, 2, 5, 9, -3)],
    *[OpCase(f"dynamic-slice-2d-{i}-{j}", DS_2D,
             lambda n, r, i=i, j=j: (_arange(n, 4), np.uint32(i), np.uint32(j)),
             lambda x, i, j: x[:, clamp(j, 2, 4):clamp(j, 2, 4) + 2], (6, 0, 1, 4))
      for i, j in ((0, 0), (3, 1), (5, 7))],
    *[OpCase(f"dynamic-update-slice-start{i}", DUS,
             lambda n, r, i=i: (_arange(n), -_arange(3), S32(i)), _dus, (10, 0, 2, 3, 4, 7))
      for i in (0, 4, 8, -1)],
    *[OpCase(f"dynamic-update-slice-2d-{i}-{j}", DUS_DYN,
             lambda n, r, i=i, j=j: (_arange(n, 3), -_arange(min(n, 4), 2), S32(i), S32(j)),
             _dus_2d, (8, 0, 1, 5)) for i, j in ((0, 0), (6, 2), (-2, 1))],
]


# ---------------------------------------------------------------- gather

def ref_gather(operand, indices, offset_dims, collapsed, start_map, slice_sizes, ivd,
               operand_batching=(), indices_batching=(), out_shape=None):
    """XLA Gather, one output element at a time (operation semantics, with batching dims)."""
    if ivd == indices.ndim:
        indices = indices[..., None]
    batch_axes = [k for k in range(indices.ndim) if k != ivd]
    window_dims = [d for d in range(operand.ndim) if d not in collapsed
                   and d not in operand_batching]
    out = np.zeros(out_shape, operand.dtype)
    for out_idx in itertools.product(*map(range, out_shape)):
        batch = [out_idx[k] for k in range(len(out_shape)) if k not in offset_dims]
        window = [out_idx[k] for k in sorted(offset_dims)]
        where = list(batch)
        where.insert(ivd, slice(None))
        vector = indices[tuple(where)]
        full = []
        for d in range(operand.ndim):
            if d in operand_batching:
                axis = batch_axes.index(indices_batching[operand_batching.index(d)])
                full.append(batch[axis])
                continue
            start = vector[start_map.index(d)] if d in start_map else 0
            start = clamp(start, slice_sizes[d], operand.shape[d])
            offset = window[window_dims.index(d)] if d in window_dims else 0
            full.append(start + offset)
        out[out_idx] = operand[tuple(full)]
    return out


EMBED = module("""  a = f32[<=10,4] parameter(0)
  i = s32[<=6] parameter(1)
  ROOT g = f32[<=6,4] gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}""")
# A window of the whole dynamic dimension 1 whose start the indices give (JAX's vmap of
# dynamic_index_in_dim): XLA clamps that start to [0, bound - bound] = 0 in the padded
# buffer, and the window's actual size is the operand's.
WHOLE_INDEXED = module("""  a = f32[3,<=8] parameter(0)
  i = s32[2,2] parameter(1)
  ROOT g = f32[2,<=8] gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={1,8}""")
ROWS_FULL = module("""  a = f32[3,<=8] parameter(0)
  i = s32[2,1] parameter(1)
  ROOT g = f32[2,<=8] gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,8}""")
WINDOW_2D = module("""  a = f32[<=7,5] parameter(0)
  i = s32[<=4,2] parameter(1)
  ROOT g = f32[<=4,2,3] gather(a, i), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={1,0}, index_vector_dim=1, slice_sizes={2,3}""")
BATCHED = module("""  a = f32[<=3,6,2] parameter(0)
  i = s32[<=3,4,1] parameter(1)
  ROOT g = f32[<=3,4,2] gather(a, i), offset_dims={2}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=2, slice_sizes={1,1,2}""")
IVD0 = module("""  a = s32[<=9] parameter(0)
  i = s32[1,<=5] parameter(1)
  ROOT g = s32[<=5] gather(a, i), offset_dims={}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=0, slice_sizes={1}""")


def _ids(r, shape, high):
    """Indices that include negatives and values past the actual size (clamped by XLA)."""
    return r.integers(-3, high + 4, shape).astype(S32)


def _ids_in(r, shape, high):
    """Indices into a DYNAMIC dimension: negatives (clamped to 0) and values up to the last
    window that fits the actual size. Past it XLA reads padding (see the test below)."""
    return r.integers(-3, high + 1, shape).astype(S32)


def _rows_in(ids, last):
    ids = ids.copy()
    ids[:, 1] = np.minimum(ids[:, 1], last)
    return ids


GATHER_CASES = [
    OpCase("gather-embedding", EMBED, lambda n, r: (_arange(n, 4), _ids_in(r, min(n, 6), n - 1)),
           lambda a, i: ref_gather(a, i, (1,), (0,), (0,), (1, 4), 1, out_shape=(len(i), 4)),
           (10, 1, 2, 6)),
    OpCase("gather-whole-dynamic-dim", ROWS_FULL,
           lambda n, r: (_arange(3 * n).reshape(3, n), np.array([[2], [-1]], S32)),
           lambda a, i: ref_gather(a, i, (1,), (0,), (0,), (1, a.shape[1]), 1,
                                   out_shape=(2, a.shape[1])), (8, 0, 1, 5)),
    OpCase("gather-whole-dynamic-dim-indexed", WHOLE_INDEXED,
           lambda n, r: (_arange(3 * n).reshape(3, n), np.array([[2, 3], [-1, -4]], S32)),
           lambda a, i: a[[2, 0]], (8, 0, 1, 5)),
    OpCase("gather-window-2d", WINDOW_2D,
           lambda n, r: (_arange(n + 2, 5), _rows_in(_ids(r, (min(n, 4), 2), n + 2), n)),
           lambda a, i: ref_gather(a, i, (1, 2), (), (1, 0), (2, 3), 1,
                                   out_shape=(len(i), 2, 3)), (5, 0, 1, 3)),
    OpCase("gather-batching-dims", BATCHED,
           lambda n, r: (_arange(n * 12).reshape(n, 6, 2), _ids(r, (n, 4, 1), 6)),
           lambda a, i: ref_gather(a, i, (2,), (1,), (1,), (1, 1, 2), 2, (0,), (0,),
                                   out_shape=(len(a), 4, 2)), (3, 0, 1, 2)),
    OpCase("gather-index-vector-dim0", IVD0,
           lambda n, r: (np.arange(n + 4, dtype=S32) * 10, _ids_in(r, (1, n), n + 3)),
           lambda a, i: ref_gather(a, i, (), (0,), (0,), (1,), 0, out_shape=(i.shape[1],)),
           (5, 0, 1, 3)),
]


def test_gather_row_past_the_actual_size_of_a_dynamic_dimension_reads_zeros():
    """XLA clamps a gather start to the BOUND (10 - 1), so a row past the actual size (3) is
    padding: zeros; padding_reads="error" refuses it, naming the instruction."""
    exe = dynhlo_compile(EMBED)
    a = _arange(3, 4)
    np.testing.assert_array_equal(exe(a, np.int32([2, -1])), a[[2, 0]])
    np.testing.assert_array_equal(exe(a, np.int32([0, 3])), [a[0], np.zeros(4, F32)])
    np.testing.assert_array_equal(exe(a, np.int32([50])), np.zeros((1, 4), F32))
    full = _arange(10, 4)
    np.testing.assert_array_equal(exe(full, np.int32([50]))[0], full[9])  # no padding: clamp
    strict = dynhlo_compile(EMBED, padding_reads="error")
    with pytest.raises(DynamicSizeError, match=r"instruction 'g': gather reads rows 3..3 of "
                       r"operand dimension 0, which has actual size 3 \(bound 10\): "
                       r".*padding_reads='error'"):
        strict(a, np.int32([0, 3]))


def test_gather_window_larger_than_the_actual_size_reads_zeros():
    """A 4-row window of a <=6-row operand holding 3 rows (start clamped to [0, 6 - 4]):
    rows start..start+3 of the zero-padded buffer, by hand."""
    text = module("""  a = f32[<=6,3] parameter(0)
  i = s32[2,1] parameter(1)
  ROOT g = f32[2,4,3] gather(a, i), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0}, index_vector_dim=1, slice_sizes={4,3}""")
    a = _arange(3, 3)
    buf = padded(a, (6, 3))
    got = run_hlo(text, a, np.array([[0], [9]], S32))
    np.testing.assert_array_equal(got, np.stack([buf[0:4], buf[2:6]]))


# ---------------------------------------------------------------- scatter

def ref_scatter(operands, indices, updates, combine, window_dims, inserted, to_operand, ivd,
                input_batching=(), indices_batching=()):
    """XLA Scatter, one update element at a time, in order; a window that does not fit in
    the operand (at its actual size) is skipped whole."""
    outs = [o.copy() for o in operands]
    if ivd == indices.ndim:
        indices = indices[..., None]
    batch_axes = [k for k in range(indices.ndim) if k != ivd]
    rank = outs[0].ndim
    window_operand = [d for d in range(rank) if d not in inserted and d not in input_batching]
    u0 = updates[0]
    scatter_axes = [k for k in range(u0.ndim) if k not in window_dims]
    size = [1] * rank
    for k, d in enumerate(window_operand):
        size[d] = u0.shape[window_dims[k]]
    for u_idx in itertools.product(*map(range, u0.shape)):
        point = [u_idx[k] for k in scatter_axes]
        where = list(point)
        where.insert(ivd, slice(None))
        vector = indices[tuple(where)]
        start = []
        for d in range(rank):
            if d in to_operand:
                start.append(int(vector[to_operand.index(d)]))
            elif d in input_batching:
                start.append(point[batch_axes.index(indices_batching[input_batching.index(d)])])
            else:
                start.append(0)
        if any(s < 0 or s + size[d] > outs[0].shape[d] for d, s in enumerate(start)):
            continue
        window = [u_idx[k] for k in window_dims]
        full = tuple(start[d] + (window[window_operand.index(d)] if d in window_operand else 0)
                     for d in range(rank))
        new = combine(*[o[full] for o in outs], *[u[u_idx] for u in updates])
        for o, v in zip(outs, new if isinstance(new, tuple) else (new,), strict=True):
            o[full] = v
    return outs[0] if len(outs) == 1 else tuple(outs)


ADD = """add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}"""
SET = """set {
  x = f32[] parameter(0)
  ROOT y = f32[] parameter(1)
}"""
MULADD = """muladd {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  m = f32[] multiply(x, y)
  ROOT s = f32[] add(m, y)
}"""
PAIR = """pair {
  x0 = f32[] parameter(0)
  x1 = s32[] parameter(1)
  u0 = f32[] parameter(2)
  u1 = s32[] parameter(3)
  m = f32[] maximum(x0, u0)
  p = s32[] multiply(x1, u1)
  ROOT t = (f32[], s32[]) tuple(m, p)
}"""


def rows_scatter(comp: str) -> str:
    return module(f"""  a = f32[<=10,4] parameter(0)
  i = s32[<=6,1] parameter(1)
  u = f32[<=6,4] parameter(2)
  ROOT s = f32[<=10,4] scatter(a, i, u), update_window_dims={{1}}, inserted_window_dims={{0}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply={comp}""",
                  {"add": ADD, "set": SET, "muladd": MULADD}[comp])


VARIADIC = module("""  a = f32[<=8] parameter(0)
  b = s32[<=8] parameter(1)
  i = s32[<=5] parameter(2)
  u = f32[<=5] parameter(3)
  v = s32[<=5] parameter(4)
  ROOT s = (f32[<=8], s32[<=8]) scatter(a, b, i, u, v), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=pair""",
                  PAIR)
SCATTER_BATCHED = module("""  a = f32[<=3,6] parameter(0)
  i = s32[<=3,2,1] parameter(1)
  u = f32[<=3,2] parameter(2)
  ROOT s = f32[<=3,6] scatter(a, i, u), update_window_dims={}, inserted_window_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={0}, scatter_dims_to_operand_dims={1}, index_vector_dim=2, indices_are_sorted=false, unique_indices=false, to_apply=add""",
                         ADD)
WINDOWS = module("""  a = f32[<=9] parameter(0)
  i = s32[3,1] parameter(1)
  u = f32[3,3] parameter(2)
  ROOT s = f32[<=9] scatter(a, i, u), update_window_dims={1}, inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add""",
                 ADD)

# The update window spans a whole dynamic dim: its actual size is the operand's.
DYN_WINDOW = module("""  a = f32[3,<=8] parameter(0)
  i = s32[2,1] parameter(1)
  u = f32[2,<=8] parameter(2)
  ROOT s = f32[3,<=8] scatter(a, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=muladd""",
                    MULADD)


def _row_args(n, r):
    m = min(n, 6)
    idx = r.integers(-2, n + 3, (m, 1)).astype(S32)  # duplicates and out-of-bounds rows
    return (_arange(n, 4), idx, r.standard_normal((m, 4)).astype(F32))


def _rows_ref(combine):
    return lambda a, i, u: ref_scatter([a], i, [u], combine, (1,), (0,), (0,), 1)


SCATTER_CASES = [
    OpCase("scatter-add", rows_scatter("add"), _row_args, _rows_ref(lambda x, y: x + y),
           (10, 0, 1, 3, 7)),
    OpCase("scatter-set", rows_scatter("set"),
           # unique rows: XLA leaves the order of duplicate `set`s unspecified
           lambda n, r: (_arange(n, 4), r.permutation(n + 2)[:min(n, 6), None].astype(S32),
                         r.standard_normal((min(n, 6), 4)).astype(F32)),
           _rows_ref(lambda x, y: y), (10, 0, 1, 3, 7)),
    OpCase("scatter-any-computation", rows_scatter("muladd"), _row_args,
           _rows_ref(lambda x, y: x * y + y), (10, 0, 1, 3, 7)),
    OpCase("scatter-variadic", VARIADIC,
           lambda n, r: (_arange(n), np.arange(n, dtype=S32) + 1,
                         r.integers(-1, n + 2, min(n, 5)).astype(S32),
                         r.standard_normal(min(n, 5)).astype(F32) * 10,
                         r.integers(-3, 4, min(n, 5)).astype(S32)),
           lambda a, b, i, u, v: ref_scatter([a, b], i, [u, v],
                                             lambda x0, x1, u0, u1: (max(x0, u0), x1 * u1),
                                             (), (0,), (0,), 1), (8, 0, 1, 4)),
    OpCase("scatter-batching-dims", SCATTER_BATCHED,
           lambda n, r: (_arange(n, 6), r.integers(-1, 8, (n, 2, 1)).astype(S32),
                         r.standard_normal((n, 2)).astype(F32)),
           lambda a, i, u: ref_scatter([a], i, [u], lambda x, y: x + y, (), (1,), (1,), 2,
                                       (0,), (0,)), (3, 0, 1, 2)),
    OpCase("scatter-dynamic-window", DYN_WINDOW,
           lambda n, r: (_arange(3 * n).reshape(3, n), np.array([[2], [2]], S32),
                         r.standard_normal((2, n)).astype(F32)),
           lambda a, i, u: ref_scatter([a], i, [u], lambda x, y: x * y + y, (1,), (0,), (0,), 1),
           (8, 0, 1, 5)),
    OpCase("scatter-window-fits-actual-size", WINDOWS,
           lambda n, r: (np.zeros(n, F32), np.array([[0], [n - 3], [6]], S32),
                         np.ones((3, 3), F32)),
           lambda a, i, u: ref_scatter([a], i, [u], lambda x, y: x + y, (1,), (), (0,), 1),
           (9, 3, 4, 7, 8)),
]


@pytest.mark.parametrize("case,n", crossed(SLICE_CASES + GATHER_CASES + SCATTER_CASES))
def test_indexing_ops(case, n):
    check_case(case, n)


DS_PAST = [(n, i) for i in (0, 2, 5, 9, -3) for n in (0, 1, 3, 4, 7)
           if clamp(i, 3, 10) + 3 > n]


@pytest.mark.parametrize("n,i", DS_PAST)
def test_dynamic_slice_window_past_the_actual_size_reads_zeros(n, i):
    """XLA clamps the start against the bound 10 and reads 3 rows of its padded buffer; the
    rows past the actual size are padding, zeros in dynhlo: [x[first:], 0, ...] by hand."""
    first = clamp(i, 3, 10)
    x = _arange(n)
    want = np.zeros(3, F32)
    got_rows = x[first:first + 3]
    want[:len(got_rows)] = got_rows
    np.testing.assert_array_equal(run_hlo(DS, x, S32(i)), want)


@pytest.mark.parametrize("n,i", DS_PAST)
def test_dynamic_slice_past_the_actual_size_is_refused_with_padding_reads_error(n, i):
    """The debugging mode refuses what the default reads as zeros, naming the instruction,
    the rows, XLA's clamp and the option."""
    first = clamp(i, 3, 10)
    with pytest.raises(DynamicSizeError, match=rf"instruction 's': dynamic-slice of size 3 reads "
                       rf"rows {first}..{first + 2} of operand dimension 0 \(start {i} clamped "
                       rf"to {first} against the bound 10.*actual size {n}: .*padding_reads="):
        dynhlo_compile(DS, padding_reads="error")(_arange(n), S32(i))


def test_dynamic_slice_clamps_against_the_bound_as_xla_does():
    """start 5 of 8 rows (bound 10): XLA reads rows 5..7; clamping against the actual size
    (to 5 as well here) and against the bound agree; start 9 clamps to 7 against the bound
    (not to 5, the actual size's clamp): rows 7..9, two of them padding."""
    np.testing.assert_array_equal(run_hlo(DS, _arange(8), S32(5)), [6, 7, 8])
    np.testing.assert_array_equal(run_hlo(DS, _arange(8), S32(9)), [8, 0, 0])


def test_dynamic_update_slice_clamps_against_the_bound_as_xla_does():
    """start 4, 3 rows, bound 10, actual 6: XLA writes rows 4..6 (clamping against the actual
    size would write 3..5); row 6 is padding and dropped."""
    np.testing.assert_array_equal(run_hlo(DUS, _arange(6), -_arange(3), S32(4)),
                                  [1, 2, 3, 4, -1, -2])
    np.testing.assert_array_equal(run_hlo(DUS, _arange(6), -_arange(3), S32(9)),
                                  _arange(6))  # clamped to 7: every row lands in padding


def test_scatter_skips_a_window_past_the_actual_end():
    """A window at 6..8 fits the bound 9 but not the actual size 8: it is skipped."""
    out = run_hlo(WINDOWS, np.zeros(8, F32), np.array([[0], [6], [6]], S32), np.ones((3, 3), F32))
    np.testing.assert_array_equal(out, [1, 1, 1, 0, 0, 0, 0, 0])


def test_slice_larger_than_actual_size_reads_zeros_an_update_is_cut():
    np.testing.assert_array_equal(run_hlo(DS, _arange(2), S32(0)), [1, 2, 0])
    np.testing.assert_array_equal(run_hlo(DUS, _arange(2), -_arange(3), S32(0)), [-1, -2])


DTYPES = {"pred": np.bool_, "u8": np.uint8, "s16": np.int16, "s64": np.int64,
          "f16": np.float16, "bf16": ml_dtypes.bfloat16, "c64": np.complex64}


@pytest.mark.parametrize("n", [6, 2, 3])
@pytest.mark.parametrize("ty", list(DTYPES))
def test_indexing_ops_keep_every_dtype(ty, n):
    """dynamic-update-slice, gather and a `set` scatter move values of any type unchanged."""
    dtype = np.dtype(DTYPES[ty])
    text = module(f"""  a = {ty}[<=6] parameter(0)
  u = {ty}[2] parameter(1)
  i = s32[] parameter(2)
  d = {ty}[<=6] dynamic-update-slice(a, u, i)
  k = s32[<=6] parameter(3)
  g = {ty}[<=6] gather(d, k), offset_dims={{}}, collapsed_slice_dims={{0}}, start_index_map={{0}}, index_vector_dim=1, slice_sizes={{1}}
  j = s32[2,1] parameter(4)
  ROOT s = {ty}[<=6] scatter(g, j, u), update_window_dims={{}}, inserted_window_dims={{0}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply=set_{ty}""",
                  f"""set_{ty} {{
  x = {ty}[] parameter(0)
  ROOT y = {ty}[] parameter(1)
}}""")
    rng = np.random.default_rng(n)
    values = rng.integers(0, 2, n + 2).astype(bool) if dtype == np.bool_ else \
        (np.arange(1, n + 3) * 3).astype(dtype)
    x, u = values[:n], values[n:]
    k = np.arange(n, dtype=S32)[::-1].copy()
    j = np.array([[n - 1], [7]], S32)
    want = _dus(x, u, 4, bound=6)[k]
    want = ref_scatter([want], j, [u], lambda a, b: b, (), (0,), (0,), 1)
    out = run_hlo(text, x, u, S32(4), k, j)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, want)


BAD = [
    ("gather-offset-dims", HloVerifyError, module("""  a = f32[<=6,3] parameter(0)
  i = s32[2,1] parameter(1)
  ROOT bad = f32[2,3] gather(a, i), offset_dims={0,1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}"""),
     (np.zeros((4, 3), F32), np.zeros((2, 1), S32))),
    ("gather-slice-over-bound", HloVerifyError, module("""  a = f32[<=6,3] parameter(0)
  i = s32[2,1] parameter(1)
  ROOT bad = f32[2,7,3] gather(a, i), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0}, index_vector_dim=1, slice_sizes={7,3}"""),
     (np.zeros((4, 3), F32), np.zeros((2, 1), S32))),
    ("dynamic-slice-start-count", HloVerifyError, module("""  a = f32[<=6,3] parameter(0)
  i = s32[] parameter(1)
  ROOT bad = f32[2,3] dynamic-slice(a, i), dynamic_slice_sizes={2,3}"""),
     (np.zeros((4, 3), F32), S32(0))),
    ("scatter-updates-mismatch", DynamicSizeError, module("""  a = f32[<=6] parameter(0)
  i = s32[<=4,1] parameter(1)
  u = f32[<=4] parameter(2)
  ROOT bad = f32[<=6] scatter(a, i, u), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add""", ADD),
     (np.zeros(5, F32), np.zeros((3, 1), S32), np.zeros(2, F32))),
]


@pytest.mark.parametrize("name,error,text,args", BAD, ids=[b[0] for b in BAD])
def test_bad_indexing_is_a_clear_error_naming_the_instruction(name, error, text, args):
    with pytest.raises(error, match="'bad'"):
        run_hlo(text, *args)


DUS_WHOLE = module("""  a = f32[6] parameter(0)
  u = f32[<=6] parameter(1)
  i = s32[] parameter(2)
  ROOT s = f32[<=6] dynamic-update-slice(a, u, i)""")


@pytest.mark.parametrize("n", [0, 2, 6])
def test_a_dynamic_update_as_large_as_the_bound_gives_the_result_its_size(n):
    """XLA's HandleDynamicUpdateSlice: an update `<=6` into a 6-row operand clamps its start
    to 0 and covers the whole buffer, so the result has the update's size (its rows)."""
    got = run_hlo(DUS_WHOLE, _arange(6), -_arange(n), S32(3))
    np.testing.assert_array_equal(got, -_arange(n))
