"""sort and topk on the CPU backend, against Python's sorted() written out here.

Every sort row carries an s32 index operand, so the permutation is compared exactly (ties,
-0 against +0 and NaNs included). Rows run at a static shape and at dynamic sizes 0, 1, some,
and the bound; `leak` rows build the dynamic operand with set-dimension-size over a full
array whose tail (the padding) would sort first, or would be the top-k, if it were read.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from tests.support.opcheck import OpCase, check_case, crossed, run_hlo

from dynhlo.errors import DynamicSizeError, HloVerifyError

COMPARATORS = """
HloModule m
lt_total {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT c = pred[] compare(a, b), direction=LT, type=TOTALORDER
}
gt_s32 {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT c = pred[] compare(a, b), direction=GT
}
lt_bf16 {
  a = bf16[] parameter(0)
  b = bf16[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT c = pred[] compare(a, b), direction=LT, type=TOTALORDER
}
jax_canonical_bf16 {
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  a = bf16[] parameter(0)
  a_nan = pred[] compare(a, a), direction=NE
  nan = bf16[] constant(nan)
  zero = bf16[] constant(0)
  a_zero = pred[] compare(a, zero), direction=EQ
  a0 = bf16[] select(a_zero, zero, a)
  ka = bf16[] select(a_nan, nan, a0)
  b = bf16[] parameter(1)
  b_nan = pred[] compare(b, b), direction=NE
  b_zero = pred[] compare(b, zero), direction=EQ
  b0 = bf16[] select(b_zero, zero, b)
  kb = bf16[] select(b_nan, nan, b0)
  ROOT lt = pred[] compare(ka, kb), direction=LT, type=TOTALORDER
}
rhs_lt_u32 {
  a = u32[] parameter(0)
  b = u32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT c = pred[] compare(b, a), direction=LT
}
key_second {
  i = s32[] parameter(0)
  j = s32[] parameter(1)
  a = f32[] parameter(2)
  b = f32[] parameter(3)
  ROOT c = pred[] compare(a, b), direction=LT
}
lex {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  i = s32[] parameter(4)
  j = s32[] parameter(5)
  lt = pred[] compare(a, b), direction=LT
  eq = pred[] compare(a, b), direction=EQ
  gt2 = pred[] compare(c, d), direction=GT
  tie = pred[] and(eq, gt2)
  ROOT r = pred[] or(lt, tie)
}
abs_lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  aa = f32[] abs(a)
  ab = f32[] abs(b)
  ROOT c = pred[] compare(aa, ab), direction=LT
}
legacy_total {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ba = s32[] bitcast-convert(a)
  bb = s32[] bitcast-convert(b)
  zero = s32[] constant(0)
  flip = s32[] constant(2147483647)
  na = pred[] compare(ba, zero), direction=LT
  nb = pred[] compare(bb, zero), direction=LT
  xa = s32[] xor(ba, flip)
  xb = s32[] xor(bb, flip)
  ka = s32[] select(na, xa, ba)
  kb = s32[] select(nb, xb, bb)
  ROOT c = pred[] compare(ka, kb), direction=LT
}
"""

_SPECIAL = np.array([-np.inf, -2, -1, -0.0, 0.0, 1, 2, np.inf, np.nan, -np.nan], np.float32)


def total_order(v: float):
    """A Python sort key for IEEE totalOrder: -NaN < -inf < ... < -0 < +0 < ... < +NaN."""
    if math.isnan(v):
        return (-2, 0.0, 0) if math.copysign(1, v) < 0 else (2, 0.0, 0)
    return (0, v, 0 if math.copysign(1, v) < 0 else 1)


def perm(keys, n):
    """Stable order of range(n) by `keys(i)` (Python's sort is stable)."""
    return np.array(sorted(range(n), key=keys), dtype=np.int32)


def sort_along(x, axis, order_of):
    """Index arrays of a stable sort of each 1-D slice of x along axis, by order_of(slice)."""
    moved = np.moveaxis(x, axis, -1)
    out = np.zeros(moved.shape, dtype=np.int32)
    for index in np.ndindex(*moved.shape[:-1]):
        out[index] = order_of(moved[index])
    return np.moveaxis(out, -1, axis)


def _with_index(x):
    return [x, np.arange(x.shape[0], dtype=np.int32)]


def _expect_sorted(x, i, order):
    p = order(x)
    return x[p], i[p]


def _special(n, rng):
    x = rng.choice(_SPECIAL, size=n)
    return _with_index(x)


def _padded(n, rng, fill, bound=8):
    x = np.full(bound, fill, dtype=np.float32)
    x[:n] = rng.integers(-3, 4, size=n)
    return x, np.int32(n)


SORT = [
    OpCase("f32-totalorder", COMPARATORS + """
ENTRY e {
  x = f32[<=8] parameter(0)
  i = s32[<=8] parameter(1)
  ROOT s = (f32[<=8], s32[<=8]) sort(x, i), dimensions={0}, is_stable=true, to_apply=lt_total
}""", _special, lambda x, i: _expect_sorted(
        x, i, lambda x: perm(lambda k: total_order(float(x[k])), len(x))), (8, 0, 1, 5)),
    # The total order spelled out with bitcast-convert (older JAX): the general path.
    OpCase("f32-legacy-totalorder-general", COMPARATORS + """
ENTRY e {
  x = f32[<=8] parameter(0)
  i = s32[<=8] parameter(1)
  ROOT s = (f32[<=8], s32[<=8]) sort(x, i), dimensions={0}, is_stable=true, to_apply=legacy_total
}""", _special, lambda x, i: _expect_sorted(
        x, i, lambda x: perm(lambda k: total_order(float(x[k])), len(x))), (8, 0, 1, 5)),
    OpCase("s32-descending-stable", COMPARATORS + """
ENTRY e {
  x = s32[<=8] parameter(0)
  i = s32[<=8] parameter(1)
  ROOT s = (s32[<=8], s32[<=8]) sort(x, i), dimensions={0}, is_stable=true, to_apply=gt_s32
}""", lambda n, rng: _with_index(rng.choice(  # the extremes: descending must not overflow
            np.array([-2**31, -1, 0, 1, 2**31 - 1], np.int32), size=n)),
        lambda x, i: _expect_sorted(x, i, lambda x: perm(lambda k: -int(x[k]), len(x))),
        (8, 0, 1, 5)),
    OpCase("u32-reversed-operands", COMPARATORS + """
ENTRY e {
  x = u32[<=8] parameter(0)
  i = s32[<=8] parameter(1)
  ROOT s = (u32[<=8], s32[<=8]) sort(x, i), dimensions={0}, to_apply=rhs_lt_u32
}""", lambda n, rng: _with_index(rng.choice(np.array([0, 1, 7, 2**32 - 1], np.uint32),
                                            size=n)),
        lambda x, i: _expect_sorted(x, i, lambda x: perm(lambda k: -int(x[k]), len(x))),
        (8, 0, 1, 5)),
    OpCase("key-is-second-operand", COMPARATORS + """
ENTRY e {
  i = s32[<=8] parameter(0)
  x = f32[<=8] parameter(1)
  ROOT s = (s32[<=8], f32[<=8]) sort(i, x), dimensions={0}, is_stable=true, to_apply=key_second
}""", lambda n, rng: [np.arange(n, dtype=np.int32),
                      rng.integers(-3, 4, size=n).astype(np.float32)],
        lambda i, x: tuple(reversed(_expect_sorted(
            x, i, lambda x: perm(lambda k: float(x[k]), len(x))))), (8, 0, 1, 5)),
    OpCase("lexicographic-general", COMPARATORS + """
ENTRY e {
  a = s32[<=8] parameter(0)
  b = s32[<=8] parameter(1)
  i = s32[<=8] parameter(2)
  ROOT s = (s32[<=8], s32[<=8], s32[<=8]) sort(a, b, i), dimensions={0}, is_stable=true, to_apply=lex
}""", lambda n, rng: [rng.integers(0, 3, size=n).astype(np.int32),
                      rng.integers(0, 3, size=n).astype(np.int32), np.arange(n, dtype=np.int32)],
        lambda a, b, i: tuple(v[perm(lambda k: (a[k], -b[k]), len(a))] for v in (a, b, i)),
        (8, 0, 1, 5)),
    OpCase("abs-general", COMPARATORS + """
ENTRY e {
  x = f32[<=8] parameter(0)
  i = s32[<=8] parameter(1)
  ROOT s = (f32[<=8], s32[<=8]) sort(x, i), dimensions={0}, is_stable=true, to_apply=abs_lt
}""", lambda n, rng: _with_index(rng.integers(-3, 4, size=n).astype(np.float32)),
        lambda x, i: _expect_sorted(x, i, lambda x: perm(lambda k: abs(x[k]), len(x))),
        (8, 0, 1, 5)),
    OpCase("2d-dynamic-rows-sort-dim0", COMPARATORS + """
ENTRY e {
  x = f32[<=6,3] parameter(0)
  i = s32[<=6,3] iota(), iota_dimension=0
  ROOT s = (f32[<=6,3], s32[<=6,3]) sort(x, i), dimensions={0}, is_stable=true, to_apply=lt_total
}""", lambda n, rng: [rng.integers(-2, 3, size=(n, 3)).astype(np.float32)],
        lambda x: _sorted_2d(x, 0), (6, 0, 1, 4)),
    OpCase("2d-dynamic-rows-sort-dim1", COMPARATORS + """
ENTRY e {
  x = f32[<=6,4] parameter(0)
  i = s32[<=6,4] iota(), iota_dimension=1
  ROOT s = (f32[<=6,4], s32[<=6,4]) sort(x, i), dimensions={1}, is_stable=true, to_apply=lt_total
}""", lambda n, rng: [rng.integers(-2, 3, size=(n, 4)).astype(np.float32)],
        lambda x: _sorted_2d(x, 1), (6, 0, 1, 4)),
    OpCase("static", COMPARATORS + """
ENTRY e {
  x = f32[5] parameter(0)
  i = s32[5] iota(), iota_dimension=0
  ROOT s = (f32[5], s32[5]) sort(x, i), dimensions={0}, is_stable=true, to_apply=lt_total
}""", lambda n, rng: [np.array([3, -1, 3, 0, -1], np.float32)],
        lambda x: (np.array([-1, -1, 0, 3, 3], np.float32), np.array([1, 4, 3, 0, 2], np.int32)),
        (5,)),
    # Padding of -inf would sort first in an ascending sort if it were read.
    OpCase("leak-ascending", COMPARATORS + """
ENTRY e {
  full = f32[8] parameter(0)
  n = s32[] parameter(1)
  x = f32[<=8] set-dimension-size(full, n), dimensions={0}
  i = s32[<=8] iota(), iota_dimension=0
  ROOT s = (f32[<=8], s32[<=8]) sort(x, i), dimensions={0}, is_stable=true, to_apply=lt_total
}""", lambda n, rng: _padded(n, rng, -np.inf),
        lambda full, n: _expect_sorted(full[:n], np.arange(n, dtype=np.int32),
                                       lambda x: perm(lambda k: float(x[k]), len(x))),
        (8, 0, 1, 5)),
]


BF16_SORT = COMPARATORS + """
ENTRY e {
  x = bf16[<=8] parameter(0)
  i = s32[<=8] parameter(1)
  ROOT s = (bf16[<=8], s32[<=8]) sort(x, i), dimensions={0}, is_stable=true, to_apply=lt_bf16
}"""
# jnp.sort's comparator: NaNs made one NaN and -0 made +0, then a TOTALORDER compare (the
# general path, through the comparator's own compare lowering).
BF16_JAX_SORT = BF16_SORT.replace("to_apply=lt_bf16", "to_apply=jax_canonical_bf16")


def canonical_order(v: float):
    """jnp.sort's order: every NaN last and equal, -0 equal to +0."""
    return (2, 0.0) if math.isnan(v) else (0, v)


@pytest.mark.parametrize("n", [8, 0, 1, 5])
@pytest.mark.parametrize("text,key", [(BF16_SORT, total_order),
                                      (BF16_JAX_SORT, canonical_order)], ids=["total", "jax"])
def test_sort_bf16(text, key, n):
    # Compared bit for bit: NaNs of both signs must land where the comparator puts them.
    x = np.random.default_rng(n).choice(_SPECIAL, size=n).astype(ml_dtypes.bfloat16)
    values, index = run_hlo(text, x, np.arange(n, dtype=np.int32))
    want = perm(lambda k: key(float(x[k])), n)
    np.testing.assert_array_equal(index, want)
    np.testing.assert_array_equal(values.view(np.uint16), x[want].view(np.uint16))


def _sorted_2d(x, axis):
    index = sort_along(x, axis, lambda s: perm(lambda k: float(s[k]), len(s)))
    return np.take_along_axis(x, index, axis), index


@pytest.mark.parametrize("case,n", crossed(SORT))
def test_sort(case, n):
    check_case(case, n)


def topk_ref(x, k, largest=True):
    """Per row of the last dimension: the k largest (smallest), ties to the lower index."""
    sign = -1 if largest else 1
    index = sort_along(x, -1, lambda s: perm(lambda j: (sign * float(s[j]), j), len(s)))
    index = index[..., :k]
    return np.take_along_axis(x, index, -1), index.astype(np.int32)


TOPK = [
    OpCase("largest-3", """
HloModule m
ENTRY e {
  x = f32[<=8] parameter(0)
  ROOT t = (f32[3], s32[3]) topk(x), k=3, largest=true
}""", lambda n, rng: [rng.integers(-3, 4, size=n).astype(np.float32)],
        lambda x: topk_ref(x, 3), (8, 3, 5)),
    OpCase("smallest-2", """
HloModule m
ENTRY e {
  x = s32[<=8] parameter(0)
  ROOT t = (s32[2], s32[2]) topk(x), k=2, largest=false
}""", lambda n, rng: [rng.integers(-3, 4, size=n).astype(np.int32)],
        lambda x: topk_ref(x, 2, largest=False), (8, 2, 5)),
    OpCase("bf16-smallest", """
HloModule m
ENTRY e {
  x = bf16[<=8] parameter(0)
  ROOT t = (bf16[2], s32[2]) topk(x), k=2, largest=false
}""", lambda n, rng: [rng.integers(-3, 4, size=n).astype(ml_dtypes.bfloat16)],
        lambda x: topk_ref(x, 2, largest=False), (8, 2, 5)),
    OpCase("k1", """
HloModule m
ENTRY e {
  x = f32[<=8] parameter(0)
  ROOT t = (f32[1], s32[1]) topk(x), k=1
}""", lambda n, rng: [rng.integers(-3, 4, size=n).astype(np.float32)],
        lambda x: topk_ref(x, 1), (8, 1, 2)),
    OpCase("k0", """
HloModule m
ENTRY e {
  x = f32[<=8] parameter(0)
  ROOT t = (f32[0], s32[0]) topk(x), k=0
}""", lambda n, rng: [rng.integers(-3, 4, size=n).astype(np.float32)],
        lambda x: (np.zeros(0, np.float32), np.zeros(0, np.int32)), (8, 0, 1)),
    OpCase("dynamic-batch", """
HloModule m
ENTRY e {
  x = f32[<=4,6] parameter(0)
  ROOT t = (f32[<=4,2], s32[<=4,2]) topk(x), k=2, largest=true
}""", lambda n, rng: [rng.integers(-3, 4, size=(n, 6)).astype(np.float32)],
        lambda x: topk_ref(x, 2), (4, 0, 1)),
    OpCase("static-nan-largest", """
HloModule m
ENTRY e {
  x = f32[5] parameter(0)
  ROOT t = (f32[2], s32[2]) topk(x), k=2
}""", lambda n, rng: [np.array([1, np.nan, 7, -np.inf, 7], np.float32)],
        # totalOrder: NaN is the largest; the two 7s tie and the lower index wins.
        lambda x: (np.array([np.nan, 7], np.float32), np.array([1, 2], np.int32)), (5,)),
    # Padding holds the largest values: reading it would change both outputs.
    OpCase("leak-largest", """
HloModule m
ENTRY e {
  full = f32[8] parameter(0)
  n = s32[] parameter(1)
  x = f32[<=8] set-dimension-size(full, n), dimensions={0}
  ROOT t = (f32[2], s32[2]) topk(x), k=2
}""", lambda n, rng: _padded(n, rng, 1e9), lambda full, n: topk_ref(full[:n], 2), (8, 2, 3)),
]


@pytest.mark.parametrize("case,n", crossed(TOPK))
def test_topk(case, n):
    check_case(case, n)


def test_topk_k_larger_than_actual_size_is_a_dynamic_size_error():
    # The static computation at size 2 would be a top-3 of 2 elements: invalid in XLA.
    with pytest.raises(DynamicSizeError, match=r"'t'.*k=3 is larger than the actual size 2"):
        run_hlo(_case(TOPK, "largest-3").text, np.zeros(2, np.float32))


def test_topk_k_larger_than_bound_is_a_verify_error():
    text = """
HloModule m
ENTRY e {
  x = f32[<=2] parameter(0)
  ROOT t = (f32[3], s32[3]) topk(x), k=3
}"""
    with pytest.raises(HloVerifyError, match="k=3 exceeds"):
        run_hlo(text, np.zeros(2, np.float32))


def test_sort_dimension_out_of_range_is_a_verify_error():
    text = COMPARATORS + """
ENTRY e {
  x = f32[<=8] parameter(0)
  i = s32[<=8] parameter(1)
  ROOT s = (f32[<=8], s32[<=8]) sort(x, i), dimensions={1}, to_apply=lt_total
}"""
    with pytest.raises(HloVerifyError, match="sorts dimension 1"):
        run_hlo(text, np.zeros(2, np.float32), np.zeros(2, np.int32))


@pytest.mark.parametrize("n", [2, 3, 7, 64, 1000])
def test_general_comparator_merges_runs_of_any_length(n):
    # Lengths that are and are not powers of two: the last run of a merge pass is short.
    case = _case(SORT, "lexicographic-general")
    text = case.text.replace("<=8", f"<={n}")
    rng = np.random.default_rng(n)
    args = [rng.integers(0, 4, size=n).astype(np.int32) for _ in range(2)]
    args.append(np.arange(n, dtype=np.int32))
    got = run_hlo(text, *args)
    want = case.expect(*args)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)


NOT_STRICT = """
HloModule m
cmp {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT c = pred[] compare(a, b), direction=DIRECTION
}
ENTRY e {
  x = f32[<=8] parameter(0)
  i = s32[<=8] iota(), iota_dimension=0
  ROOT s = (f32[<=8], s32[<=8]) sort(x, i), dimensions={0}, to_apply=cmp
}"""


@pytest.mark.parametrize("direction", ["LE", "NE"])
def test_comparator_that_is_not_a_strict_weak_order_gives_a_permutation(direction):
    # XLA leaves the result undefined. LE still sorts (merge passes stay consistent); NE
    # makes two elements claim one place, and the per-pair Python sort takes over.
    x = np.array([2, 1, 2, 0, 1, 2, 0, 1], np.float32)
    values, index = run_hlo(NOT_STRICT.replace("DIRECTION", direction), x)
    assert sorted(index.tolist()) == list(range(8))
    np.testing.assert_array_equal(values, x[index])
    if direction == "LE":
        np.testing.assert_array_equal(values, np.sort(x))


def _case(table, name):
    """The row of an op table with this name."""
    return next(c for c in table if c.name == name)


def test_topk_of_complex_values_is_a_verify_error():
    text = """
HloModule m
ENTRY e {
  x = c64[4] parameter(0)
  ROOT t = (c64[2], s32[2]) topk(x), k=2
}"""
    with pytest.raises(HloVerifyError, match="complex"):
        run_hlo(text, np.zeros(4, np.complex64))


NARROW_SORT = """HloModule narrow
lt {
  a = TYPE[] parameter(0)
  b = TYPE[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=LT, type=TOTALORDER
}
ENTRY main {
  x = TYPE[<=8] parameter(0)
  ROOT s = TYPE[<=8] sort(x), dimensions={0}, to_apply=lt
}"""


@pytest.mark.parametrize("element_type,dtype,values", [
    ("f4e2m1fn", ml_dtypes.float4_e2m1fn, [2.0, -1.0, 0.5, -3.0, 6.0, -0.5, 1.5]),
    ("f8e8m0fnu", ml_dtypes.float8_e8m0fnu, [2.0, 0.5, 1.0, 4.0, 0.25, 1024.0]),
    ("f8e4m3fn", ml_dtypes.float8_e4m3fn, [2.0, -1.0, 0.5, -3.0, 448.0, -448.0]),
])
def test_total_order_sort_of_narrow_floats_is_their_numeric_order(element_type, dtype, values):
    # f4e2m1fn keeps its sign at bit 3 of a byte and f8e8m0fnu has none: their bytes read as
    # signed integers are not their order (sorting by them put -3 after 2, and 4 before 1).
    x = np.array(values, dtype=dtype)
    got = run_hlo(NARROW_SORT.replace("TYPE", element_type), x)
    np.testing.assert_array_equal(got.astype(np.float64), np.sort(np.array(values)))


COMPARE_TOTAL = """HloModule c
ENTRY main {
  a = f32[2] parameter(0)
  b = f32[2] parameter(1)
  ROOT c = pred[2] compare(a, b), direction=LT, type=TOTALORDER
}"""


def test_total_order_puts_a_signaling_nan_between_inf_and_a_quiet_nan():
    # IEEE 754-2019 5.10 totalOrder: -qNaN < -sNaN < -inf and +inf < +sNaN < +qNaN. Compared at
    # f32 width: converting to f64 would quiet the signaling NaN and move it past the quiet one.
    bits = np.array([0x7F800001, 0xFF800001], np.uint32).view(np.float32)    # +sNaN, -sNaN
    quiet = np.array([0x7FC00000, 0xFFC00000], np.uint32).view(np.float32)   # +qNaN, -qNaN
    np.testing.assert_array_equal(run_hlo(COMPARE_TOTAL, bits, quiet), [True, False])
    np.testing.assert_array_equal(run_hlo(COMPARE_TOTAL, quiet, bits), [False, True])
    inf = np.array([np.inf, -np.inf], np.float32)
    np.testing.assert_array_equal(run_hlo(COMPARE_TOTAL, inf, bits), [True, False])
