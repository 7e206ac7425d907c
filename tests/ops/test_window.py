"""reduce-window and select-and-scatter on the CPU backend, against explicit loops.

Each table row is a module and a reference written here as plain loops over output positions
and window offsets (XLA's evaluator semantics: window positions on padding or on holes of
base dilation are skipped; the reduction starts from the init value). Rows run at a static
shape and at dynamic sizes 0, 1, some, and the bound. The `leak` rows build the dynamic
operand with set-dimension-size over a full array whose tail (the padding) holds values that
would change the answer if they were read.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.opcheck import OpCase, check_case, crossed, run_hlo

from dynhlo.errors import DynamicSizeError, HloVerifyError

SCALARS = """
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] maximum(a, b)
}
smax {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT c = s32[] maximum(a, b)
}
sumsq {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  bb = f32[] multiply(b, b)
  ROOT c = f32[] add(a, bb)
}
argmax {
  av = f32[] parameter(0)
  ai = s32[] parameter(1)
  bv = f32[] parameter(2)
  bi = s32[] parameter(3)
  gt = pred[] compare(bv, av), direction=GT
  eq = pred[] compare(bv, av), direction=EQ
  lower = pred[] compare(bi, ai), direction=LT
  tie = pred[] and(eq, lower)
  take = pred[] or(gt, tie)
  v = f32[] select(take, bv, av)
  i = s32[] select(take, bi, ai)
  ROOT r = (f32[], s32[]) tuple(v, i)
}
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
gt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GT
}
twice_plus {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  two = f32[] constant(2)
  a2 = f32[] multiply(a, two)
  ROOT c = f32[] add(a2, b)
}
"""


def _window(rank, size, stride=None, pad=None, base=None, wdil=None):
    return (size, stride or (1,) * rank, pad or ((0, 0),) * rank, base or (1,) * rank,
            wdil or (1,) * rank)


def ref_reduce_window(arrays, inits, fn, size, stride=None, pad=None, base=None, wdil=None):
    """Explicit loops; `fn(accs, values) -> accs` over tuples (variadic reduce-window)."""
    size, stride, pad, base, wdil = _window(arrays[0].ndim, size, stride, pad, base, wdil)
    out_shape = []
    for n, k, s, (lo, hi), b, w in zip(arrays[0].shape, size, stride, pad, base, wdil, strict=True):
        extent = lo + hi + ((n - 1) * b + 1 if n else 0)
        span = (k - 1) * w + 1
        out_shape.append((extent - span) // s + 1 if extent >= span else 0)
    outs = [np.full(out_shape, init, dtype=a.dtype) for a, init in zip(arrays, inits, strict=True)]
    for o in np.ndindex(*out_shape):
        accs = tuple(inits)
        for k in np.ndindex(*size):
            index = []
            for d in range(len(size)):
                p = o[d] * stride[d] + k[d] * wdil[d] - pad[d][0]
                if p < 0 or p % base[d] or p // base[d] >= arrays[0].shape[d]:
                    break
                index.append(p // base[d])
            else:
                accs = fn(accs, tuple(a[tuple(index)] for a in arrays))
        for out, acc in zip(outs, accs, strict=True):
            out[o] = acc
    return outs[0] if len(outs) == 1 else tuple(outs)


def _add(accs, xs):
    return (accs[0] + xs[0],)


def _max(accs, xs):
    return (max(accs[0], xs[0]),)


def _sumsq(accs, xs):
    return (accs[0] + xs[0] * xs[0],)


def _argmax(accs, xs):
    (av, ai), (bv, bi) = accs, xs
    return (bv, bi) if bv > av or (bv == av and bi < ai) else (av, ai)


def _ints(shape, rng, low=-5, high=6, dtype=np.float32):
    """Small integers: sums are exact in f32, so the comparison is exact too."""
    return rng.integers(low, high, size=shape).astype(dtype)


def _padded(n, rng, fill, bound=8):
    """A full array whose first n values are data and whose tail (the padding) is `fill`."""
    x = np.full(bound, fill, dtype=np.float32)
    x[:n] = _ints(n, rng)
    return x, np.int32(n)


def _rw(x, init, fn, *window, **kw):
    """Reference for a one-operand reduce-window with an f32 init."""
    return ref_reduce_window([x], [np.float32(init)], fn, *window, **kw)


def _windowed_sum_plus_10(x):
    return np.array([10 + x[max(i - 1, 0):i + 2].sum() for i in range(len(x))], np.float32)


def _argmax_ref(x):
    return ref_reduce_window([x, np.arange(len(x), dtype=np.int32)],
                             [np.float32(-np.inf), np.int32(0)], _argmax, (3,), pad=((1, 1),))


REDUCE_WINDOW = [
    OpCase("cumsum", SCALARS + """
ENTRY e {
  x = f32[<=8] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[<=8] reduce-window(x, z), window={size=8 pad=7_0}, to_apply=add
}""", lambda n, rng: [_ints(n, rng)], lambda x: np.cumsum(x).astype(np.float32),
        (8, 0, 1, 3)),
    OpCase("cumsum-axis1-dynamic-rows", SCALARS + """
ENTRY e {
  x = f32[<=4,6] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[<=4,6] reduce-window(x, z), window={size=1x6 pad=0_0x5_0}, to_apply=add
}""", lambda n, rng: [_ints((n, 6), rng)], lambda x: np.cumsum(x, axis=1).astype(np.float32),
        (4, 0, 1, 3)),
    OpCase("cumsum-reverse", SCALARS + """
ENTRY e {
  x = f32[<=8] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[<=8] reduce-window(x, z), window={size=8 pad=0_7}, to_apply=add
}""", lambda n, rng: [_ints(n, rng)],
        lambda x: np.cumsum(x[::-1])[::-1].astype(np.float32), (8, 0, 1, 3)),
    OpCase("cummax-s32", SCALARS + """
ENTRY e {
  x = s32[<=8] parameter(0)
  z = s32[] constant(-2147483648)
  ROOT r = s32[<=8] reduce-window(x, z), window={size=8 pad=7_0}, to_apply=smax
}""", lambda n, rng: [_ints(n, rng, -100, 100, np.int32)],
        lambda x: np.maximum.accumulate(x) if x.size else x, (8, 0, 1, 3)),
    OpCase("maxpool-2d", SCALARS + """
ENTRY e {
  x = f32[<=6,5] parameter(0)
  z = f32[] constant(-inf)
  ROOT r = f32[<=3,5] reduce-window(x, z), window={size=3x2 stride=2x1 pad=1_1x0_1}, to_apply=max
}""", lambda n, rng: [_ints((n, 5), rng)],
        lambda x: _rw(x, -np.inf, _max, (3, 2), (2, 1), ((1, 1), (0, 1))), (6, 0, 1, 4)),
    OpCase("dilated", SCALARS + """
ENTRY e {
  x = f32[<=9] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[<=8] reduce-window(x, z), window={size=3 stride=2 pad=2_1 lhs_dilate=2 rhs_dilate=2}, to_apply=add
}""", lambda n, rng: [_ints(n, rng)],
        lambda x: _rw(x, 0, _add, (3,), (2,), ((2, 1),), (2,), (2,)), (9, 0, 1, 2, 5)),
    # XLA's evaluator and emitters skip padding: a non-identity init is added once, not once
    # per padding position (the StableHLO spec's pad-with-init reading would differ here).
    OpCase("init-not-identity", SCALARS + """
ENTRY e {
  x = f32[<=6] parameter(0)
  z = f32[] constant(10)
  ROOT r = f32[<=6] reduce-window(x, z), window={size=3 pad=1_1}, to_apply=add
}""", lambda n, rng: [_ints(n, rng)], _windowed_sum_plus_10, (6, 0, 1, 2)),
    OpCase("sum-of-squares-generic", SCALARS + """
ENTRY e {
  x = f32[<=7,3] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[<=7,2] reduce-window(x, z), window={size=2x2 pad=1_0x0_0}, to_apply=sumsq
}""", lambda n, rng: [_ints((n, 3), rng)],
        lambda x: _rw(x, 0, _sumsq, (2, 2), pad=((1, 0), (0, 0))), (7, 0, 1, 4)),
    OpCase("variadic-argmax", SCALARS + """
ENTRY e {
  x = f32[<=8] parameter(0)
  i = s32[<=8] iota(), iota_dimension=0
  lo = f32[] constant(-inf)
  zi = s32[] constant(0)
  ROOT r = (f32[<=8], s32[<=8]) reduce-window(x, i, lo, zi), window={size=3 pad=1_1}, to_apply=argmax
}""", lambda n, rng: [_ints(n, rng, -2, 3)], _argmax_ref, (8, 0, 1, 3)),
    OpCase("static-2x2-sum", SCALARS + """
ENTRY e {
  x = f32[4,6] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2,3] reduce-window(x, z), window={size=2x2 stride=2x2}, to_apply=add
}""", lambda n, rng: [_ints((4, 6), rng)],
        lambda x: x.reshape(2, 2, 3, 2).sum(axis=(1, 3)).astype(np.float32), (4,)),
    # Padding data that would change the answer if it leaked: non-zero for a cumsum, larger
    # than every valid value for a max window.
    OpCase("leak-cumsum", SCALARS + """
ENTRY e {
  full = f32[8] parameter(0)
  n = s32[] parameter(1)
  x = f32[<=8] set-dimension-size(full, n), dimensions={0}
  z = f32[] constant(0)
  ROOT r = f32[<=8] reduce-window(x, z), window={size=8 pad=7_0}, to_apply=add
}""", lambda n, rng: _padded(n, rng, 100.0),
        lambda x, n: np.cumsum(x[:n]).astype(np.float32), (8, 0, 1, 3)),
    OpCase("leak-max", SCALARS + """
ENTRY e {
  full = f32[8] parameter(0)
  n = s32[] parameter(1)
  x = f32[<=8] set-dimension-size(full, n), dimensions={0}
  z = f32[] constant(-inf)
  ROOT r = f32[<=8] reduce-window(x, z), window={size=3 pad=1_1}, to_apply=max
}""", lambda n, rng: _padded(n, rng, 1e9),
        lambda x, n: _rw(x[:n], -np.inf, _max, (3,), pad=((1, 1),)), (8, 0, 1, 3)),
]


@pytest.mark.parametrize("case,n", crossed(REDUCE_WINDOW))
def test_reduce_window(case, n):
    check_case(case, n)


def ref_select_and_scatter(operand, source, init, select, scatter, size, stride, pad):
    """Explicit loops: per window the pick, then out[pick] = scatter(out[pick], source)."""
    out = np.full(operand.shape, init, dtype=operand.dtype)
    for o in np.ndindex(*source.shape):
        pick = None
        for k in np.ndindex(*size):
            index = tuple(o[d] * stride[d] + k[d] - pad[d][0] for d in range(len(size)))
            if any(not 0 <= i < n for i, n in zip(index, operand.shape, strict=True)):
                continue
            if pick is None or not select(operand[pick], operand[index]):
                pick = index
        if pick is not None:
            out[pick] = scatter(out[pick], source[o])
    return out


def _sas_args(operand_shape, source_shape, rng):
    return [_ints(operand_shape, rng, -3, 4), _ints(source_shape, rng, 1, 9)]


def _out(n, size, stride, lo, hi):
    extent = n + lo + hi
    return (extent - size) // stride + 1 if extent >= size else 0


def _sas(select, scatter, init, size, stride, pad):
    """Reference for (operand, source) -> select-and-scatter with the given window."""
    return lambda x, s: ref_select_and_scatter(x, s, init, select, scatter, size, stride, pad)


SELECT_AND_SCATTER = [
    OpCase("maxpool-grad-1d", SCALARS + """
ENTRY e {
  x = f32[<=8] parameter(0)
  s = f32[<=4] parameter(1)
  z = f32[] constant(0)
  ROOT r = f32[<=8] select-and-scatter(x, s, z), window={size=2 stride=2 pad=0_1}, select=ge, scatter=add
}""", lambda n, rng: _sas_args((n,), (_out(n, 2, 2, 0, 1),), rng),
        _sas(np.greater_equal, np.add, 0, (2,), (2,), ((0, 1),)), (8, 0, 1, 3)),
    OpCase("maxpool-grad-2d", SCALARS + """
ENTRY e {
  x = f32[<=5,4] parameter(0)
  s = f32[<=3,2] parameter(1)
  z = f32[] constant(0)
  ROOT r = f32[<=5,4] select-and-scatter(x, s, z), window={size=3x2 stride=2x2 pad=1_1x0_0}, select=ge, scatter=add
}""", lambda n, rng: _sas_args((n, 4), (_out(n, 3, 2, 1, 1), 2), rng),
        _sas(np.greater_equal, np.add, 0, (3, 2), (2, 2), ((1, 1), (0, 0))), (5, 0, 1, 2)),
    OpCase("overlapping-gt", SCALARS + """
ENTRY e {
  x = f32[<=8] parameter(0)
  s = f32[<=8] parameter(1)
  z = f32[] constant(1)
  ROOT r = f32[<=8] select-and-scatter(x, s, z), window={size=3 pad=1_1}, select=gt, scatter=add
}""", lambda n, rng: _sas_args((n,), (n,), rng),
        _sas(np.greater, np.add, 1, (3,), (1,), ((1, 1),)), (8, 0, 1, 3)),
    # A scatter that is not commutative: the order of updates to one element shows.
    OpCase("ordered-scatter", SCALARS + """
ENTRY e {
  x = f32[<=8] parameter(0)
  s = f32[<=8] parameter(1)
  z = f32[] constant(1)
  ROOT r = f32[<=8] select-and-scatter(x, s, z), window={size=4 pad=2_1}, select=ge, scatter=twice_plus
}""", lambda n, rng: _sas_args((n,), (n,), rng),
        _sas(np.greater_equal, lambda a, b: a * 2 + b, 1, (4,), (1,), ((2, 1),)),
        (8, 0, 1, 3)),
    # The source is a broadcast with no size of its own: it takes one per window.
    OpCase("sizeless-source", SCALARS + """
ENTRY e {
  x = f32[<=8] parameter(0)
  one = f32[] constant(1)
  s = f32[<=4] broadcast(one), dimensions={}
  z = f32[] constant(0)
  ROOT r = f32[<=8] select-and-scatter(x, s, z), window={size=2 stride=2}, select=ge, scatter=add
}""", lambda n, rng: [_ints(n, rng, -3, 4)],
        lambda x: _sas(np.greater_equal, np.add, 0, (2,), (2,), ((0, 0),))(
            x, np.ones(len(x) // 2, np.float32)), (8, 0, 1, 5)),
    OpCase("leak-select", SCALARS + """
ENTRY e {
  full = f32[8] parameter(0)
  n = s32[] parameter(1)
  s = f32[<=8] parameter(2)
  x = f32[<=8] set-dimension-size(full, n), dimensions={0}
  z = f32[] constant(0)
  ROOT r = f32[<=8] select-and-scatter(x, s, z), window={size=3 pad=1_1}, select=ge, scatter=add
}""", lambda n, rng: [*_padded(n, rng, 1e9), _ints(n, rng, 1, 9)],
        lambda x, n, s: _sas(np.greater_equal, np.add, 0, (3,), (1,), ((1, 1),))(x[:n], s),
        (8, 0, 1, 3)),
]


@pytest.mark.parametrize("case,n", crossed(SELECT_AND_SCATTER))
def test_select_and_scatter(case, n):
    check_case(case, n)


def test_select_and_scatter_source_size_mismatch_is_clear():
    case = _case(SELECT_AND_SCATTER, "maxpool-grad-1d")
    x, s = np.zeros(6, np.float32), np.zeros(2, np.float32)  # 6 elements give 3 windows
    with pytest.raises(DynamicSizeError, match="source has size"):
        run_hlo(case.text, x, s)


def test_window_with_wrong_rank_is_a_verify_error():
    text = SCALARS + """
ENTRY e {
  x = f32[<=8] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[<=8] reduce-window(x, z), window={size=2x2}, to_apply=add
}"""
    with pytest.raises(HloVerifyError, match="window size has 2 entries"):
        run_hlo(text, np.zeros(3, np.float32))


def test_reduce_window_result_of_another_rank_is_a_verify_error():
    """A result rank unlike the operand's is named, not a raw IndexError."""
    text = SCALARS + """
ENTRY e {
  x = f32[2,1] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2] reduce-window(x, z), window={size=1x1}, to_apply=add
}"""
    with pytest.raises(HloVerifyError, match="rank-2 operands declares a rank-1 result"):
        run_hlo(text, np.zeros((2, 1), np.float32))


def test_reduce_window_output_bound_follows_the_window():
    # A declared bound that disagrees with the window arithmetic is caught at compile time.
    text = SCALARS + """
ENTRY e {
  x = f32[<=8] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[<=8] reduce-window(x, z), window={size=2 stride=2}, to_apply=add
}"""
    with pytest.raises(HloVerifyError, match="bound 4"):
        run_hlo(text, np.zeros(3, np.float32))


def _case(table, name):
    """The row of an op table with this name."""
    return next(c for c in table if c.name == name)
