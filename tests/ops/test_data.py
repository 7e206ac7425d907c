"""Data movement on the CPU backend: reverse, pad, concatenate, slice, reshape,
dynamic-reshape, bitcast, bitcast-convert.

Rows are crossed with dynamic sizes (bound, 0, 1, between); answers are NumPy at the actual
sizes. Every row over a dynamic dimension would give another answer if padding leaked: a
reverse would bring padding to the front, a pad would put its values after the bound, a
concatenate would leave a gap, a reshape would regroup rows across the bound.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from dynhlo import DynamicSizeError, HloVerifyError
from tests.support.opcheck import OpCase, check_case, crossed, run_hlo

F32 = np.float32


def module(body: str, name: str = "m") -> str:
    return f"HloModule {name}\nENTRY main {{\n{body}\n}}\n"


def mat(cols):
    return lambda n, r: (r.standard_normal((n, cols)).astype(F32),)


def vec(dtype=F32):
    return lambda n, r: ((r.standard_normal(n) * 100).astype(dtype),)


def np_pad(x, config, value):
    """XLA pad by hand: interior padding, then low/high (negative crops), one dim at a time."""
    out = x
    for d, (lo, hi, interior) in enumerate(config):
        n = out.shape[d]
        size = n + max(n - 1, 0) * interior
        spread = np.full(out.shape[:d] + (size,) + out.shape[d + 1:], value, out.dtype)
        idx = [slice(None)] * out.ndim
        idx[d] = slice(0, size, interior + 1)
        spread[tuple(idx)] = out
        before = np.full(out.shape[:d] + (max(lo, 0),) + out.shape[d + 1:], value, out.dtype)
        after = np.full(out.shape[:d] + (max(hi, 0),) + out.shape[d + 1:], value, out.dtype)
        joined = np.concatenate([before, spread, after], axis=d)
        cut = [slice(None)] * out.ndim
        cut[d] = slice(max(-lo, 0), joined.shape[d] - max(-hi, 0))
        out = joined[tuple(cut)]
    return out


PAD = module("""  a = f32[<=6,3] parameter(0)
  v = f32[] constant(-7)
  ROOT p = f32[<=14,8] pad(a, v), padding=1_2_1x-1_2_2""")
PAD_NEG = module("""  a = f32[<=6,3] parameter(0)
  v = f32[] constant(5)
  ROOT p = f32[<=3,3] pad(a, v), padding=-2_-1x0_0""")

CONCAT = module("""  a = f32[<=4,2] parameter(0)
  b = f32[3,2] parameter(1)
  c = f32[<=4,2] parameter(2)
  ROOT r = f32[<=11,2] concatenate(a, b, c), dimensions={0}""")
CONCAT_MINOR = module("""  a = s32[2,<=4] parameter(0)
  b = s32[2,<=4] parameter(1)
  ROOT r = s32[2,<=8] concatenate(a, b), dimensions={1}""")

SLICE = module("""  a = f32[<=9] parameter(0)
  ROOT s = f32[<=4] slice(a), slice={[1:9:2]}""")

MERGE = module("""  a = f32[<=5,3] parameter(0)
  ROOT r = f32[<=15] reshape(a)""")
SPLIT = module("""  a = f32[<=15] parameter(0)
  ROOT r = f32[<=5,3] reshape(a)""")
SPLIT_MINOR = module("""  a = f32[<=12] parameter(0)
  ROOT r = f32[3,<=4] reshape(a)""")
MERGE_MINOR = module("""  a = f32[3,<=4,2] parameter(0)
  ROOT r = f32[<=24] reshape(a)""")

DYN_RESHAPE = module("""  a = f32[<=12] parameter(0)
  n = s32[] get-dimension-size(a), dimensions={0}
  two = s32[] constant(2)
  h = s32[] divide(n, two)
  ROOT r = f32[<=6,2] dynamic-reshape(a, h, two)""")

BITCAST = module("""  a = f32[<=4,3] parameter(0)
  ROOT b = f32[<=12] bitcast(a)""")
BITCAST_LAYOUT = module("""  a = f32[2,3]{1,0} parameter(0)
  ROOT b = f32[3,2]{0,1} bitcast(a)""")
BITCAST_LAYOUT_DYN = module("""  a = f32[<=4,3]{0,1} parameter(0)
  ROOT b = f32[3,<=4]{1,0} bitcast(a)""")

BC_SPLIT = module("""  a = f32[<=5] parameter(0)
  ROOT b = u8[<=5,4] bitcast-convert(a)""")
BC_JOIN = module("""  a = u16[<=5,2] parameter(0)
  ROOT b = s32[<=5] bitcast-convert(a)""")
BC_SAME = module("""  a = f32[<=5] parameter(0)
  ROOT b = s32[<=5] bitcast-convert(a)""")

REVERSE = module("""  a = f32[<=6,3] parameter(0)
  ROOT r = f32[<=6,3] reverse(a), dimensions={0,1}""")


def _slice_step2(x):
    return x[1:9:2]


CASES = [
    OpCase("reverse", REVERSE, mat(3), lambda x: x[::-1, ::-1].copy(), (6, 0, 1, 4)),
    OpCase("pad-interior", PAD, mat(3), lambda x: np_pad(x, [(1, 2, 1), (-1, 2, 2)], F32(-7)),
           (6, 0, 1, 4)),
    OpCase("pad-negative", PAD_NEG, mat(3), lambda x: np_pad(x, [(-2, -1, 0), (0, 0, 0)], F32(5)),
           (6, 0, 1, 2, 3, 4)),
    OpCase("concatenate", CONCAT,
           lambda n, r: (r.standard_normal((n, 2)).astype(F32),
                         r.standard_normal((3, 2)).astype(F32),
                         r.standard_normal((n, 2)).astype(F32) + 10),
           lambda a, b, c: np.concatenate([a, b, c]), (4, 0, 1, 3)),
    OpCase("concatenate-minor", CONCAT_MINOR,
           lambda n, r: (np.arange(2 * n, dtype=np.int32).reshape(2, n),
                         -np.arange(2 * (4 - n), dtype=np.int32).reshape(2, 4 - n)),
           lambda a, b: np.concatenate([a, b], axis=1), (4, 0, 1, 3), static=False),
    OpCase("slice-stride", SLICE, vec(), _slice_step2, (9, 0, 1, 2, 5, 8)),
    OpCase("reshape-merge", MERGE, mat(3), lambda x: x.reshape(-1), (5, 0, 1, 4)),
    OpCase("reshape-split", SPLIT, lambda n, r: vec()(3 * n, r), lambda x: x.reshape(-1, 3),
           (5, 0, 1, 4)),
    OpCase("reshape-split-minor", SPLIT_MINOR, lambda n, r: vec()(3 * n, r),
           lambda x: x.reshape(3, -1), (4, 0, 1, 3)),
    OpCase("reshape-merge-minor", MERGE_MINOR,
           lambda n, r: (r.standard_normal((3, n, 2)).astype(F32),),
           lambda x: x.reshape(-1), (4, 0, 1, 3)),
    OpCase("dynamic-reshape", DYN_RESHAPE, lambda n, r: vec()(2 * n, r),
           lambda x: x.reshape(-1, 2), (6, 0, 1, 4)),
    OpCase("bitcast", BITCAST, mat(3), lambda x: x.reshape(-1), (4, 0, 1, 3)),
    OpCase("bitcast-layout", BITCAST_LAYOUT,
           lambda n, r: (np.arange(6, dtype=F32).reshape(2, 3),),
           # row-major bytes 0..5 read column-major into 3x2: element (i, j) is byte j*3+i.
           lambda x: np.array([[0, 3], [1, 4], [2, 5]], F32), (2,)),
    # column-major [n,3] and row-major [3,n] hold the same bytes: a logical transpose
    OpCase("bitcast-layout-dynamic", BITCAST_LAYOUT_DYN, mat(3), lambda x: x.T.copy(),
           (4, 0, 1, 3)),
    OpCase("bitcast-convert-split", BC_SPLIT, vec(),
           lambda x: np.frombuffer(x.astype("<f4").tobytes(), np.uint8).reshape(-1, 4),
           (5, 0, 1, 3)),
    OpCase("bitcast-convert-join", BC_JOIN,
           lambda n, r: (r.integers(0, 2**16, (n, 2)).astype(np.uint16),),
           lambda x: (x[:, 0].astype(np.int64) | (x[:, 1].astype(np.int64) << 16))
           .astype(np.uint32).view(np.int32), (5, 0, 1, 3)),
    OpCase("bitcast-convert-same", BC_SAME, vec(),
           lambda x: np.frombuffer(x.astype("<f4").tobytes(), "<i4").astype(np.int32),
           (5, 0, 1, 3)),
]


MERGE_TWO = module("""  a = f32[<=4,<=3] parameter(0)
  ROOT r = f32[<=12] reshape(a)""")
CASES.append(OpCase("reshape-merge-two-dynamic", MERGE_TWO,
                    lambda n, r: (r.standard_normal((n, max(3 - n, 0))).astype(F32),),
                    lambda x: x.reshape(-1), (0, 1, 2, 3), static=False))


@pytest.mark.parametrize("case,n", crossed(CASES))
def test_data_ops(case, n):
    check_case(case, n)


DTYPES = {"pred": np.bool_, "s8": np.int8, "u16": np.uint16, "s64": np.int64,
          "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f64": np.float64}


def _values(dtype, shape, rng):
    return (rng.standard_normal(shape) * 50).astype(dtype) if dtype != np.bool_ else \
        rng.integers(0, 2, shape).astype(bool)


@pytest.mark.parametrize("n", [5, 0, 2])
@pytest.mark.parametrize("ty", list(DTYPES))
def test_data_ops_keep_every_dtype(ty, n):
    """reverse, pad and concatenate move values of any element type unchanged."""
    dtype = np.dtype(DTYPES[ty])
    text = module(f"""  a = {ty}[<=5,2] parameter(0)
  r = {ty}[<=5,2] reverse(a), dimensions={{0}}
  v = {ty}[] constant(1)
  p = {ty}[<=10,2] pad(r, v), padding=1_0_1x0_0
  ROOT c = {ty}[<=15,2] concatenate(p, a), dimensions={{0}}""")
    x = _values(dtype, (n, 2), np.random.default_rng(n))
    padded = np_pad(x[::-1], [(1, 0, 1), (0, 0, 0)], np.ones((), dtype))
    out = run_hlo(text, x)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, np.concatenate([padded, x]))


def test_reverse_of_dynamic_dim_keeps_padding_out():
    """At size 3 of bound 6 the first element of the reverse is the last VALID one."""
    x = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], F32)
    np.testing.assert_array_equal(run_hlo(REVERSE, x)[0], [9, 8, 7])


def test_pad_on_dynamic_dim_goes_after_the_actual_end():
    x = np.ones((2, 3), F32)
    out = run_hlo(PAD, x)
    assert out.shape == (1 + 3 + 2, 8)       # lo 1, 2 rows + 1 interior, hi 2
    np.testing.assert_array_equal(out[:, 2], [-7, 1, -7, 1, -7, -7])  # column 1 of x


def test_reshape_that_does_not_divide_is_a_clear_error():
    with pytest.raises(DynamicSizeError, match="does not divide"):
        run_hlo(SPLIT, np.zeros(7, F32))


def test_dynamic_reshape_with_wrong_sizes_is_a_clear_error():
    with pytest.raises(DynamicSizeError, match="dynamic-reshape|outside"):
        run_hlo(DYN_RESHAPE, np.zeros(5, F32))


def test_bitcast_convert_narrow_needs_the_ratio_as_last_dim():
    text = module("""  a = u8[<=5,3] parameter(0)
  ROOT b = f32[<=5] bitcast-convert(a)""")
    with pytest.raises(HloVerifyError, match="last dimension of 4"):
        run_hlo(text, np.zeros((2, 3), np.uint8))


@pytest.mark.parametrize("src,dst,x,want", [
    ("f32[]", "s32[]", np.float32(-1.0), np.float32(-1.0).view(np.int32)),
    ("f64[]", "s32[2]", np.float64(1.5), np.array([1.5]).view(np.int32)),
    ("s32[2]", "f64[]", np.array([1.5]).view(np.int32), np.float64(1.5)),
])
def test_bitcast_convert_of_a_scalar_keeps_its_rank(src, dst, x, want):
    # JAX's signbit of a scalar (jnp.copysign) is a bitcast-convert of an f32[]: it came out
    # as s32[1] and failed the shift after it
    got = run_hlo(module(f"  a = {src} parameter(0)\n  ROOT b = {dst} bitcast-convert(a)"), x)
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)


def test_reduce_precision_of_a_scalar_keeps_its_rank():
    text = module("  a = f32[] parameter(0)\n"
                  "  ROOT b = f32[] reduce-precision(a), exponent_bits=5, mantissa_bits=10")
    got = run_hlo(text, np.float32(1.0003))
    assert got.shape == ()
    assert got == np.float32(np.float16(1.0003))    # f16's format: 1 + 2**-10 nearest
