"""Numeric opcodes on the CPU backend against NumPy/Python by hand, from tables.

Elementwise numerics (real, imag, complex, popcnt, count-leading-zeros, is-finite,
exponential-minus-one, log-plus-one, erf) x dtypes x sizes; reduce-precision against
ml_dtypes' round-to-nearest-even conversions and hand cases; stochastic-convert by hand;
batch norm against NumPy formulas and finite differences, with padding that would change the
statistics if it leaked. rng is in tests/ops/test_rng.py, the LAPACK custom calls in
tests/ops/test_lapack.py.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

import dynhlo
from dynhlo.hlo.types import to_numpy_dtype
from tests.support.opcheck import SIZES, OpCase, check_case, crossed, dim, run_hlo


def unary_module(op: str, src: str, dst: str, d: str, attrs: str = "") -> str:
    return f"""HloModule t
ENTRY main {{
  x = {src}[{d},3] parameter(0)
  ROOT y = {dst}[{d},3] {op}(x){attrs}
}}"""


def _values(dtype, count: int, seed: int = 0) -> np.ndarray:
    """Deterministic test values of `dtype`, special values first."""
    rng = np.random.default_rng(seed)
    dtype = _np(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        special = [info.min, info.max, 0, 1, info.max // 3]
        if dtype.kind == "i":
            special += [-1, info.min + 1]
        rand = rng.integers(info.min, info.max, size=count, dtype=dtype, endpoint=True)
        return np.concatenate([np.array(special, dtype), rand])[:count]
    if dtype.kind == "c":
        re, im = rng.normal(size=(2, count)) * 4
        return (re + 1j * im).astype(dtype)
    return (rng.normal(size=count) * 2).astype(dtype)


def _popcnt(v, bits):
    return bin(int(v) & ((1 << bits) - 1)).count("1")


def _clz(v, bits):
    return bits - (int(v) & ((1 << bits) - 1)).bit_length()


INT_TYPES = ["s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64"]
FLOAT_TYPES = ["f16", "bf16", "f32", "f64"]
TOL = {"f16": 2e-3, "bf16": 1.6e-2, "f32": 2e-6, "f64": 1e-13}


def _np(t: str) -> np.dtype:
    return to_numpy_dtype(t)


def _exact_int(fn):
    def reference(x, t):
        bits = _np(t).itemsize * 8
        return np.array([fn(v, bits) for v in x.reshape(-1)], _np(t)).reshape(x.shape)
    return reference


def _float_fn(fn, domain):
    def reference(x, t):
        return np.array([fn(float(v)) for v in x.reshape(-1)], np.float64).reshape(x.shape)
    reference.domain = domain
    return reference


# op, operand types, reference(x, type) -> expected, input transform
UNARY_RECORDS = [
    ("popcnt", INT_TYPES, _exact_int(_popcnt)),
    ("count-leading-zeros", INT_TYPES, _exact_int(_clz)),
    ("exponential-minus-one", FLOAT_TYPES, _float_fn(math.expm1, (-3, 3))),
    ("log-plus-one", FLOAT_TYPES, _float_fn(math.log1p, (-0.99, 5))),
    ("erf", FLOAT_TYPES, _float_fn(math.erf, (-3, 3))),
]


def _domain_values(t, shape, domain, seed=1):
    lo, hi = domain
    x = np.random.default_rng(seed).uniform(lo, hi, size=shape)
    return x.astype(_np(t))


@pytest.mark.parametrize("label,bound,n", SIZES)
@pytest.mark.parametrize("op,types,reference", UNARY_RECORDS, ids=[r[0] for r in UNARY_RECORDS])
def test_unary_numerics(op, types, reference, label, bound, n):
    for t in types:
        text = unary_module(op, t, t, dim(bound, n))
        if hasattr(reference, "domain"):
            x = _domain_values(t, (n, 3), reference.domain)
            got = run_hlo(text, x)
            want = reference(x.astype(np.float64), t)
            assert got.dtype == _np(t) and got.shape == (n, 3)
            np.testing.assert_allclose(got.astype(np.float64), want, rtol=TOL[t],
                                       atol=TOL[t], err_msg=f"{op} {t}")
        else:
            x = _values(t, n * 3).reshape(n, 3)
            got = run_hlo(text, x)
            assert got.dtype == _np(t) and got.shape == (n, 3)
            np.testing.assert_array_equal(got, reference(x, t), err_msg=f"{op} {t}")


def _unary_case(op: str, t: str, reference) -> OpCase:
    """A record as an op-table row in one element type, at bound 8."""
    if hasattr(reference, "domain"):
        def args(n, rng):
            return [_domain_values(t, (n, 3), reference.domain, seed=n)]

        def expect(x):
            return reference(x.astype(np.float64), t).astype(_np(t))
    else:
        def args(n, rng):
            return [_values(t, n * 3, seed=n).reshape(n, 3)]

        def expect(x):
            return reference(x, t)
    return OpCase(f"{op}-{t}", unary_module(op, t, t, "<=8"), args, expect, sizes=(8, 0, 1, 5))


BN_INFERENCE = """HloModule t
ENTRY main {
  x = f32[<=8,2,3] parameter(0)
  s = f32[2] parameter(1)
  o = f32[2] parameter(2)
  m = f32[2] parameter(3)
  v = f32[2] parameter(4)
  ROOT y = f32[<=8,2,3] batch-norm-inference(x, s, o, m, v), epsilon=0.01, feature_index=1
}"""


def _bn_inference_args(n, rng):
    return [rng.normal(size=(n, 2, 3)).astype(np.float32), np.float32([2, 0.5]),
            np.float32([1, -1]), np.float32([0.5, -0.25]), np.float32([4, 0.25])]


def _bn_inference(x, s, o, m, v):
    return ((x - m[:, None]) / np.sqrt(v[:, None] + 0.01) * s[:, None] + o[:, None]).astype(
        np.float32)


# This family's op table, run on the CPU below and on the GPU by tests/backends/gpu/test_optables.py
# (the tests above run the unary records in every element type).
CASES = [_unary_case(op, t, reference) for op, types, reference in UNARY_RECORDS
         for t in (("s32", "u8") if types is INT_TYPES else ("f32",))]
CASES.append(OpCase("batch-norm-inference", BN_INFERENCE, _bn_inference_args, _bn_inference,
                    sizes=(8, 0, 1, 5)))


SPECIALS = [0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan, 1e-30, -65504.0, 3e38]


@pytest.mark.parametrize("label,bound,n", SIZES)
@pytest.mark.parametrize("t", FLOAT_TYPES)
def test_is_finite(t, label, bound, n):
    with np.errstate(over="ignore"):  # 3e38 is inf in 16-bit types
        x = np.resize(np.array(SPECIALS, np.float64), n * 3).astype(_np(t)).reshape(n, 3)
    got = run_hlo(unary_module("is-finite", t, "pred", dim(bound, n)), x)
    want = np.array([math.isfinite(float(v)) for v in x.reshape(-1)]).reshape(n, 3)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("label,bound,n", SIZES)
@pytest.mark.parametrize("src,part", [("c64", "f32"), ("c128", "f64")])
def test_real_imag_complex(src, part, label, bound, n):
    d = dim(bound, n)
    x = _values(src, n * 3, seed=3).reshape(n, 3)
    x.reshape(-1)[:2] = [complex(np.inf, 0), complex(0, -np.inf)][: x.size]
    re = run_hlo(unary_module("real", src, part, d), x)
    im = run_hlo(unary_module("imag", src, part, d), x)
    np.testing.assert_array_equal(re, np.array([v.real for v in x.reshape(-1)],
                                               _np(part)).reshape(n, 3))
    np.testing.assert_array_equal(im, np.array([v.imag for v in x.reshape(-1)],
                                               _np(part)).reshape(n, 3))
    text = f"""HloModule t
ENTRY main {{
  a = {part}[{d},3] parameter(0)
  b = {part}[{d},3] parameter(1)
  ROOT c = {src}[{d},3] complex(a, b)
}}"""
    got = run_hlo(text, re, im)
    assert got.dtype == _np(src)
    # complex(0, inf) keeps a zero real part (x + 1j*y would give NaN there).
    np.testing.assert_array_equal(got, x)


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_real_of_real_operand_is_identity(t):
    x = _values(t, 6).reshape(2, 3)
    np.testing.assert_array_equal(run_hlo(unary_module("real", t, t, "2"), x), x)
    np.testing.assert_array_equal(run_hlo(unary_module("imag", t, t, "2"), x), np.zeros_like(x))


# --- reduce-precision ------------------------------------------------------------------------

def _rp_module(t, d, e, m):
    return unary_module("reduce-precision", t, t, d, f", exponent_bits={e}, mantissa_bits={m}")


def _normal_values(t, n, lo_exp, hi_exp, seed=5):
    rng = np.random.default_rng(seed)
    mag = 2.0 ** rng.uniform(lo_exp, hi_exp, size=n * 3) * rng.choice([-1, 1], size=n * 3)
    return mag.astype(_np(t)).reshape(n, 3)


# operand type, (exponent, mantissa) bits, the ml_dtypes format of exactly those bits,
# and the exponent range where that format is normal and finite.
RP_RECORDS = [
    ("f32", 8, 7, ml_dtypes.bfloat16, (-126, 127)),
    ("f32", 5, 10, np.float16, (-14, 15.9)),
    ("f64", 8, 23, np.float32, (-126, 127)),
    ("f64", 5, 10, np.float16, (-14, 15.9)),
    ("bf16", 5, 2, ml_dtypes.float8_e5m2, (-14, 15.5)),
    ("f16", 4, 3, ml_dtypes.float8_e4m3, (-6, 7.8)),
]


@pytest.mark.parametrize("label,bound,n", SIZES)
@pytest.mark.parametrize("t,e,m,fmt,exps", RP_RECORDS, ids=[f"{r[0]}-e{r[1]}m{r[2]}"
                                                          for r in RP_RECORDS])
def test_reduce_precision_matches_narrow_format(t, e, m, fmt, exps, label, bound, n):
    """In the normal range the result is the value converted to that format (RNE) and back."""
    x = _normal_values(t, n, *exps)
    got = run_hlo(_rp_module(t, dim(bound, n), e, m), x)
    want = x.astype(np.float32).astype(fmt).astype(_np(t)) if t != "f64" else \
        x.astype(fmt).astype(np.float64)
    assert got.dtype == _np(t)
    np.testing.assert_array_equal(got, want)


def test_reduce_precision_hand_cases():
    # f32 to bf16's format (8 exponent, 7 mantissa bits)
    x = np.array([[1 + 2 ** -8, 1 + 3 * 2 ** -8, -(1 + 2 ** -8)],
                  [np.nan, np.inf, -np.inf],
                  [3.4e38, 1e-40, -1e-40]], np.float32)
    got = run_hlo(_rp_module("f32", "3", 8, 7), x)
    want = np.array([[1.0, 1 + 2 ** -6, -1.0],            # ties to even, up and down
                     [np.nan, np.inf, -np.inf],            # NaN kept, infinities kept
                     [np.inf, 1e-40, -1e-40]], np.float32)  # rounds past the max: inf
    want[2, 1:] = np.array([1e-40, -1e-40], np.float32).astype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(got, want)
    # f32 to f16's format: overflow to inf, subnormals of the narrow format flush to +-0
    x = np.array([[65504.0, 65519.0, 65520.0], [-1e5, 1e-5, -3e-8]], np.float32)
    got = run_hlo(_rp_module("f32", "2", 5, 10), x)
    np.testing.assert_array_equal(got, np.array([[65504, 65504, np.inf], [-np.inf, 0, -0.0]],
                                                np.float32))
    assert np.signbit(got[1, 2]) and not np.signbit(got[1, 1])


def test_reduce_precision_keeps_nan_with_zero_mantissa_bits():
    # With no mantissa bits the kept bit is the exponent's lowest: 3 ties to 2 (even), not 4.
    x = np.array([[np.nan, 1.0, 1.4], [1.6, 3.0, -3.5]], np.float32)
    got = run_hlo(_rp_module("f32", "2", 8, 0), x)
    np.testing.assert_array_equal(got, np.array([[np.nan, 1, 1], [2, 2, -4]], np.float32))


# --- convert to f16 / bf16 -------------------------------------------------------------------

@pytest.mark.parametrize("src,dst,x,want", [
    ("f64", "bf16", [1 + 2**-8 + 2**-30, 1 + 2**-8 + 2**-20], [1, 1 + 2**-7]),
    ("f64", "f16", [1 + 2**-11 + 2**-40, 1 + 2**-11 + 2**-20], [1, 1 + 2**-10]),
    ("s64", "bf16", [(1 << 40) + (1 << 32) + 1, -5], [2**40, -5]),
])
def test_convert_to_f16_and_bf16_rounds_through_f32(src, dst, x, want):
    """XLA converts to f16/bf16 through f32 (JAX: f64 1 + 2^-8 + 2^-30 -> bf16 1.0): the
    first rounding makes a tie the second breaks to even; NumPy and ml_dtypes round once."""
    text = f"HloModule t\nENTRY e {{\n  x = {src}[2] parameter(0)\n  ROOT y = {dst}[2] convert(x)\n}}"
    got = run_hlo(text, np.array(x, to_numpy_dtype(src)))
    np.testing.assert_array_equal(got.astype(np.float64), np.array(want, np.float64))


# --- stochastic-convert ----------------------------------------------------------------------

def test_stochastic_convert_by_hand():
    text = """HloModule t
ENTRY main {
  x = f32[<=8] parameter(0)
  r = u32[<=8] parameter(1)
  ROOT y = s8[<=8] stochastic-convert(x, r)
}"""
    x = np.array([2.25, 2.25, -2.25, -2.25, 5.0, np.nan, 1e9, -np.inf], np.float32)
    r = np.array([0, 2 ** 31, 0, 2 ** 30 - 1, 0, 0, 0, 0], np.uint32)
    # round up (away from zero) when r < frac * 2^32; frac 0.25 -> threshold 2^30
    want = np.array([3, 2, -3, -3, 5, 0, 127, -128], np.int8)
    got = run_hlo(text, x, r)
    assert got.dtype == np.int8
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(run_hlo(text, x[:1], r[:1]), want[:1])
    assert run_hlo(text, x[:0], r[:0]).shape == (0,)


# --- batch norm -------------------------------------------------------------------------------

def _bn_reference(x, scale, offset, eps, f):
    axes = tuple(k for k in range(x.ndim) if k != f)
    shape = [-1 if k == f else 1 for k in range(x.ndim)]
    x64 = x.astype(np.float64)
    with np.errstate(all="ignore"):
        mean = x64.mean(axis=axes) if x.size else np.full(x.shape[f], np.nan)
        var = ((x64 - mean.reshape(shape)) ** 2).mean(axis=axes) if x.size else mean
        y = (x64 - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) \
            * scale.reshape(shape) + offset.reshape(shape)
    return y, mean, var


# operand dims text (bound form), feature_index, feature count, actual shape from n
BN_LAYOUTS = [
    ("{d},3", 1, 3, lambda n: (n, 3)),
    ("{d},3,2,2", 1, 3, lambda n: (n, 3, 2, 2)),      # NCHW, dynamic batch
    ("2,{d},4", 2, 4, lambda n: (2, n, 4)),           # NWC, dynamic spatial dim
]
BN_TOL = {"f32": 2e-5, "f64": 1e-12, "bf16": 3e-2}


@pytest.mark.parametrize("label,bound,n", SIZES)
@pytest.mark.parametrize("layout,f,c,shape_of", BN_LAYOUTS, ids=["nc", "nchw", "nwc"])
@pytest.mark.parametrize("t", ["f32", "f64", "bf16"])
def test_batch_norm_training(t, layout, f, c, shape_of, label, bound, n):
    dims = layout.format(d=dim(bound, n))
    text = f"""HloModule t
ENTRY main {{
  x = {t}[{dims}] parameter(0)
  s = {t}[{c}] parameter(1)
  o = {t}[{c}] parameter(2)
  ROOT bn = ({t}[{dims}], {t}[{c}], {t}[{c}]) batch-norm-training(x, s, o), epsilon=0.001, feature_index={f}
}}"""
    rng = np.random.default_rng(7)
    x = (rng.normal(size=shape_of(n)) * 3 + 1).astype(_np(t))
    scale = rng.uniform(0.5, 2, size=c).astype(_np(t))
    offset = rng.normal(size=c).astype(_np(t))
    y, mean, var = run_hlo(text, x, scale, offset)
    want = _bn_reference(x, scale.astype(np.float64), offset.astype(np.float64), 0.001, f)
    for got, ref, name in zip((y, mean, var), want, ("output", "mean", "variance"), strict=True):
        assert got.dtype == _np(t) and got.shape == ref.shape, name
        np.testing.assert_allclose(got.astype(np.float64), ref, rtol=BN_TOL[t],
                                   atol=BN_TOL[t], equal_nan=True, err_msg=name)


def test_batch_norm_training_ignores_padding_rows():
    """set-dimension-size cuts a padded batch: rows past n hold 1e30 and must not count."""
    text = """HloModule t
ENTRY main {
  p = f32[8,3] parameter(0)
  n = s32[] parameter(1)
  s = f32[3] parameter(2)
  o = f32[3] parameter(3)
  x = f32[<=8,3] set-dimension-size(p, n), dimensions={0}
  ROOT bn = (f32[<=8,3], f32[3], f32[3]) batch-norm-training(x, s, o), epsilon=0.5, feature_index=1
}"""
    rng = np.random.default_rng(11)
    padded = np.full((8, 3), 1e30, np.float32)
    scale, offset = np.float32([1, 2, 3]), np.float32([0, -1, 1])
    for n in (1, 3, 7):
        padded[:n] = rng.normal(size=(n, 3))
        y, mean, var = run_hlo(text, padded, np.int32(n), scale, offset)
        want = _bn_reference(padded[:n], scale, offset, 0.5, 1)
        assert y.shape == (n, 3)
        for got, ref in zip((y, mean, var), want, strict=True):
            np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("label,bound,n", SIZES)
def test_batch_norm_inference(label, bound, n):
    d = dim(bound, n)
    text = f"""HloModule t
ENTRY main {{
  x = f32[{d},2,3] parameter(0)
  s = f32[2] parameter(1)
  o = f32[2] parameter(2)
  m = f32[2] parameter(3)
  v = f32[2] parameter(4)
  ROOT y = f32[{d},2,3] batch-norm-inference(x, s, o, m, v), epsilon=0.01, feature_index=1
}}"""
    rng = np.random.default_rng(2)
    x = rng.normal(size=(n, 2, 3)).astype(np.float32)
    s, o = np.float32([2, 0.5]), np.float32([1, -1])
    m, v = np.float32([0.5, -0.25]), np.float32([4, 0.25])
    got = run_hlo(text, x, s, o, m, v)
    want = (x - m[:, None]) / np.sqrt(v[:, None] + 0.01) * s[:, None] + o[:, None]
    assert got.shape == (n, 2, 3)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def _bn_loss(x, scale, offset, dy, eps):
    y, _, _ = _bn_reference(x, scale, offset, eps, 1)
    return float(np.sum(dy * y))


def _numeric_grad(fn, value, h=1e-6):
    grad = np.zeros_like(value)
    for i in np.ndindex(value.shape):
        up, down = value.copy(), value.copy()
        up[i] += h
        down[i] -= h
        grad[i] = (fn(up) - fn(down)) / (2 * h)
    return grad


GRAD_TEXT = """HloModule t
ENTRY main {
  px = f64[6,3] parameter(0)
  pdy = f64[6,3] parameter(1)
  n = s32[] parameter(2)
  s = f64[3] parameter(3)
  m = f64[3] parameter(4)
  v = f64[3] parameter(5)
  x = f64[<=6,3] set-dimension-size(px, n), dimensions={0}
  dy = f64[<=6,3] set-dimension-size(pdy, n), dimensions={0}
  ROOT g = (f64[<=6,3], f64[3], f64[3]) batch-norm-grad(x, s, m, v, dy), epsilon=0.1, feature_index=1
}"""


@pytest.mark.parametrize("n", [1, 2, 4, 6])
def test_batch_norm_grad_is_the_gradient_of_training(n):
    """Finite differences of sum(dy * batch_norm_training(x)); padding rows hold 1e30."""
    rng = np.random.default_rng(n)
    x = rng.normal(size=(n, 3)) * 2
    dy = rng.normal(size=(n, 3))
    scale, offset, eps = np.array([1.0, 2.0, -0.5]), np.zeros(3), 0.1
    _, mean, var = _bn_reference(x, scale, offset, eps, 1)
    px, pdy = np.full((6, 3), 1e30), np.full((6, 3), -1e30)
    px[:n], pdy[:n] = x, dy
    dx, dscale, doffset = run_hlo(GRAD_TEXT, px, pdy, np.int32(n), scale, mean, var)
    assert dx.shape == (n, 3)
    np.testing.assert_allclose(dx, _numeric_grad(lambda v: _bn_loss(v, scale, offset, dy, eps),
                                                 x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(dscale, _numeric_grad(
        lambda v: _bn_loss(x, v, offset, dy, eps), scale), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(doffset, dy.sum(axis=0), rtol=1e-12)


def test_batch_norm_grad_empty_batch():
    dx, dscale, doffset = run_hlo(GRAD_TEXT, np.ones((6, 3)), np.ones((6, 3)), np.int32(0),
                              np.ones(3), np.zeros(3), np.ones(3))
    assert dx.shape == (0, 3)
    np.testing.assert_array_equal(dscale, np.zeros(3))
    np.testing.assert_array_equal(doffset, np.zeros(3))


def test_batch_norm_feature_mismatch_is_a_verify_error():
    text = """HloModule t
ENTRY main {
  x = f32[4,3] parameter(0)
  s = f32[2] parameter(1)
  ROOT y = f32[4,3] batch-norm-inference(x, s, s, s, s), epsilon=0.1, feature_index=1
}"""
    with pytest.raises(dynhlo.HloVerifyError, match="features"):
        dynhlo.compile(text)


@pytest.mark.parametrize("case,n", crossed(CASES))
def test_numeric_table(case, n):
    check_case(case, n)
