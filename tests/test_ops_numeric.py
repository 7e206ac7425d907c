"""Numeric opcodes on the CPU backend against NumPy/Python by hand, from tables.

Elementwise numerics (real, imag, complex, popcnt, count-leading-zeros, is-finite,
exponential-minus-one, log-plus-one, erf) x dtypes x sizes; reduce-precision against
ml_dtypes' round-to-nearest-even conversions and hand cases; stochastic-convert by hand;
batch norm against NumPy formulas and finite differences, with padding that would change the
statistics if it leaked; rng and rng-bit-generator by their documented properties.
"""

from __future__ import annotations

import functools
import math

import ml_dtypes
import numpy as np
import pytest

import dynhlo
from dynhlo.hlo.types import to_numpy_dtype

BOUND = 8
# (label, bound or None for a static shape, actual size)
SIZES = [("static", None, 5), ("dyn0", BOUND, 0), ("dyn1", BOUND, 1), ("dyn5", BOUND, 5),
         ("dyn-full", BOUND, BOUND)]


@functools.lru_cache(maxsize=None)
def _compiled(text: str) -> dynhlo.Executable:
    return dynhlo.compile(text)


def run(text: str, *args):
    return _compiled(text)(*[np.asarray(a) for a in args])


def dim(bound, n) -> str:
    return str(n) if bound is None else f"<={bound}"


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
            got = run(text, x)
            want = reference(x.astype(np.float64), t)
            assert got.dtype == _np(t) and got.shape == (n, 3)
            np.testing.assert_allclose(got.astype(np.float64), want, rtol=TOL[t],
                                       atol=TOL[t], err_msg=f"{op} {t}")
        else:
            x = _values(t, n * 3).reshape(n, 3)
            got = run(text, x)
            assert got.dtype == _np(t) and got.shape == (n, 3)
            np.testing.assert_array_equal(got, reference(x, t), err_msg=f"{op} {t}")


SPECIALS = [0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan, 1e-30, -65504.0, 3e38]


@pytest.mark.parametrize("label,bound,n", SIZES)
@pytest.mark.parametrize("t", FLOAT_TYPES)
def test_is_finite(t, label, bound, n):
    with np.errstate(over="ignore"):  # 3e38 is inf in 16-bit types
        x = np.resize(np.array(SPECIALS, np.float64), n * 3).astype(_np(t)).reshape(n, 3)
    got = run(unary_module("is-finite", t, "pred", dim(bound, n)), x)
    want = np.array([math.isfinite(float(v)) for v in x.reshape(-1)]).reshape(n, 3)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("label,bound,n", SIZES)
@pytest.mark.parametrize("src,part", [("c64", "f32"), ("c128", "f64")])
def test_real_imag_complex(src, part, label, bound, n):
    d = dim(bound, n)
    x = _values(src, n * 3, seed=3).reshape(n, 3)
    x.reshape(-1)[:2] = [complex(np.inf, 0), complex(0, -np.inf)][: x.size]
    re = run(unary_module("real", src, part, d), x)
    im = run(unary_module("imag", src, part, d), x)
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
    got = run(text, re, im)
    assert got.dtype == _np(src)
    # complex(0, inf) keeps a zero real part (x + 1j*y would give NaN there).
    np.testing.assert_array_equal(got, x)


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_real_of_real_operand_is_identity(t):
    x = _values(t, 6).reshape(2, 3)
    np.testing.assert_array_equal(run(unary_module("real", t, t, "2"), x), x)
    np.testing.assert_array_equal(run(unary_module("imag", t, t, "2"), x), np.zeros_like(x))


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
    got = run(_rp_module(t, dim(bound, n), e, m), x)
    want = x.astype(np.float32).astype(fmt).astype(_np(t)) if t != "f64" else \
        x.astype(fmt).astype(np.float64)
    assert got.dtype == _np(t)
    np.testing.assert_array_equal(got, want)


def test_reduce_precision_hand_cases():
    # f32 to bf16's format (8 exponent, 7 mantissa bits)
    x = np.array([[1 + 2 ** -8, 1 + 3 * 2 ** -8, -(1 + 2 ** -8)],
                  [np.nan, np.inf, -np.inf],
                  [3.4e38, 1e-40, -1e-40]], np.float32)
    got = run(_rp_module("f32", "3", 8, 7), x)
    want = np.array([[1.0, 1 + 2 ** -6, -1.0],            # ties to even, up and down
                     [np.nan, np.inf, -np.inf],            # NaN kept, infinities kept
                     [np.inf, 1e-40, -1e-40]], np.float32)  # rounds past the max: inf
    want[2, 1:] = np.array([1e-40, -1e-40], np.float32).astype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(got, want)
    # f32 to f16's format: overflow to inf, subnormals of the narrow format flush to +-0
    x = np.array([[65504.0, 65519.0, 65520.0], [-1e5, 1e-5, -3e-8]], np.float32)
    got = run(_rp_module("f32", "2", 5, 10), x)
    np.testing.assert_array_equal(got, np.array([[65504, 65504, np.inf], [-np.inf, 0, -0.0]],
                                                np.float32))
    assert np.signbit(got[1, 2]) and not np.signbit(got[1, 1])


def test_reduce_precision_keeps_nan_with_zero_mantissa_bits():
    # With no mantissa bits the kept bit is the exponent's lowest: 3 ties to 2 (even), not 4.
    x = np.array([[np.nan, 1.0, 1.4], [1.6, 3.0, -3.5]], np.float32)
    got = run(_rp_module("f32", "2", 8, 0), x)
    np.testing.assert_array_equal(got, np.array([[np.nan, 1, 1], [2, 2, -4]], np.float32))


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
    got = run(text, x, r)
    assert got.dtype == np.int8
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(run(text, x[:1], r[:1]), want[:1])
    assert run(text, x[:0], r[:0]).shape == (0,)


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
    y, mean, var = run(text, x, scale, offset)
    want = _bn_reference(x, scale.astype(np.float64), offset.astype(np.float64), 0.001, f)
    for got, ref, name in zip((y, mean, var), want, ("output", "mean", "variance")):
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
        y, mean, var = run(text, padded, np.int32(n), scale, offset)
        want = _bn_reference(padded[:n], scale, offset, 0.5, 1)
        assert y.shape == (n, 3)
        for got, ref in zip((y, mean, var), want):
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
    got = run(text, x, s, o, m, v)
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
    dx, dscale, doffset = run(GRAD_TEXT, px, pdy, np.int32(n), scale, mean, var)
    assert dx.shape == (n, 3)
    np.testing.assert_allclose(dx, _numeric_grad(lambda v: _bn_loss(v, scale, offset, dy, eps),
                                                 x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(dscale, _numeric_grad(
        lambda v: _bn_loss(x, v, offset, dy, eps), scale), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(doffset, dy.sum(axis=0), rtol=1e-12)


def test_batch_norm_grad_empty_batch():
    dx, dscale, doffset = run(GRAD_TEXT, np.ones((6, 3)), np.ones((6, 3)), np.int32(0),
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


# --- rng -----------------------------------------------------------------------------------------

RNG_TEXT = """HloModule t
ENTRY main {{
  z = {t}[<=4096] parameter(0)
  a = {t}[] constant({a})
  b = {t}[] constant({b})
  r = {t}[<=4096] rng(a, b), distribution={dist}
  ROOT y = {t}[<=4096] add(r, z)
}}"""


@pytest.mark.parametrize("n", [0, 1, 4096])
@pytest.mark.parametrize("t", ["f32", "f64", "s32", "bf16"])
def test_rng_uniform(t, n):
    """Values in [a, b) at the size of the operand they meet; a second call draws anew."""
    text = RNG_TEXT.format(t=t, a=2, b=6, dist="rng_uniform")
    zeros = np.zeros(n, _np(t))
    first, second = run(text, zeros), run(text, zeros)
    assert first.shape == (n,) and first.dtype == _np(t)
    values = first.astype(np.float64)
    assert np.all((values >= 2) & (values <= 6))
    if t != "bf16":
        assert np.all(values < 6)
    if n == 4096:
        assert abs(values.mean() - (4 if t != "s32" else 3.5)) < 0.1
        assert not np.array_equal(first, second)


def test_rng_normal():
    text = RNG_TEXT.format(t="f32", a=3, b=0.5, dist="rng_normal")
    values = run(text, np.zeros(4096, np.float32))
    assert abs(values.mean() - 3) < 0.05 and abs(values.std() - 0.5) < 0.05


def test_rng_get_and_update_state_advances_by_delta():
    text = """HloModule t
ENTRY main {
  a = u64[2] rng-get-and-update-state(), delta=5
  b = u64[2] rng-get-and-update-state(), delta=5
  ROOT t = (u64[2], u64[2]) tuple(a, b)
}"""
    a, b = run(text)
    assert a.dtype == np.uint64 and a.shape == (2,)
    counters = sorted([int(a[1]), int(b[1])])  # either may run first
    assert counters[1] - counters[0] == 5 and int(b[0]) == int(a[0])
    c, d = run(text)
    assert min(int(c[1]), int(d[1])) - counters[1] == 5  # the state lives with the program


RBG_TEXT = """HloModule t
ENTRY main {{
  s = u64[{k}] parameter(0)
  ROOT r = (u64[{k}], {t}[{shape}]) rng-bit-generator(s), algorithm={alg}
}}"""
RBG_CASES = [("rng_three_fry", 2), ("rng_philox", 2), ("rng_philox", 3), ("rng_default", 2)]


@pytest.mark.parametrize("alg,k", RBG_CASES)
@pytest.mark.parametrize("t,shape", [("u32", "64,64"), ("u64", "4096"), ("u8", "3,5"),
                                     ("u32", "0")])
def test_rng_bit_generator(alg, k, t, shape):
    """Shapes and dtypes as XLA; equal states give equal bits; the new state moves on."""
    text = RBG_TEXT.format(k=k, t=t, shape=shape, alg=alg)
    state = np.arange(7, 7 + k, dtype=np.uint64)
    new_state, bits = run(text, state)
    dims = tuple(int(v) for v in shape.split(","))
    assert new_state.shape == (k,) and new_state.dtype == np.uint64
    assert bits.shape == dims and bits.dtype == _np(t)
    again_state, again = run(text, state)
    np.testing.assert_array_equal(bits, again)
    np.testing.assert_array_equal(new_state, again_state)
    assert not np.array_equal(new_state, state)
    _, next_bits = run(text, new_state)
    _, other = run(text, state + np.uint64(1))
    if bits.size:
        assert not np.array_equal(bits, next_bits) and not np.array_equal(bits, other)
    if bits.size >= 4096:  # uniform bits: the mean of each bit is one half
        width = bits.dtype.itemsize * 8
        ones = np.unpackbits(bits.view(np.uint8)).mean()
        assert abs(ones - 0.5) < 0.01, width


# --- LAPACK custom calls ---------------------------------------------------------------------

def _call_module(target, operands, result, config=""):
    params = "\n".join(f"  p{i} = {shape} parameter({i})" for i, shape in enumerate(operands))
    names = ", ".join(f"p{i}" for i in range(len(operands)))
    extra = f", backend_config={{{config}}}" if config else ""
    return f"""HloModule t
ENTRY main {{
{params}
  ROOT c = {result} custom-call({names}), custom_call_target="{target}", api_version=API_VERSION_TYPED_FFI{extra}
}}"""


def _spd(rng, batch, n):
    a = rng.normal(size=batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


@pytest.mark.parametrize("batch_text,batch", [("", ()), ("<=3,", (0,)), ("<=3,", (1,)),
                                              ("<=3,", (3,))])
@pytest.mark.parametrize("t,k", [("f32", "s"), ("f64", "d")])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_potrf(t, k, uplo, batch_text, batch):
    text = _call_module(f"lapack_{k}potrf_ffi", [f"{t}[{batch_text}4,4]"],
                        f"({t}[{batch_text}4,4], s32[{batch_text[:-1]}])",
                        f"uplo = {ord(uplo)} : ui8")
    a = _spd(np.random.default_rng(3), batch, 4).astype(_np(t))
    factor, info = run(text, a)
    assert factor.shape == a.shape and info.shape == batch
    np.testing.assert_array_equal(info, np.zeros(batch, np.int32))
    tri, other = (np.tril, np.triu) if uplo == "L" else (np.triu, np.tril)
    f = tri(factor)
    product = f @ np.swapaxes(f, -1, -2) if uplo == "L" else np.swapaxes(f, -1, -2) @ f
    np.testing.assert_allclose(product, a, rtol=1e-5 if t == "f32" else 1e-12)
    # the other triangle keeps the input, as LAPACK leaves it
    strict = 1 if uplo == "L" else -1
    np.testing.assert_array_equal(other(factor, strict), other(a, strict))


def test_potrf_reports_the_failing_minor():
    text = _call_module("lapack_dpotrf_ffi", ["f64[2,3,3]"], "(f64[2,3,3], s32[2])",
                        "uplo = 76 : ui8")
    a = np.stack([np.diag([1.0, -1.0, 1.0]), np.eye(3)])
    _, info = run(text, a)
    np.testing.assert_array_equal(info, [2, 0])


@pytest.mark.parametrize("m,n", [(5, 5), (4, 6), (6, 4), (1, 1)])
def test_getrf_matches_lapack(m, n):
    scipy_linalg = pytest.importorskip("scipy.linalg")
    k = min(m, n)
    text = _call_module("lapack_dgetrf_ffi", [f"f64[2,{m},{n}]"],
                        f"(f64[2,{m},{n}], s32[2,{k}], s32[2])")
    a = np.random.default_rng(m * 10 + n).normal(size=(2, m, n))
    lu, ipiv, info = run(text, a)
    np.testing.assert_array_equal(info, [0, 0])
    for b in range(2):
        want_lu, want_piv = scipy_linalg.lu_factor(a[b])
        np.testing.assert_allclose(lu[b], want_lu, rtol=1e-10, atol=1e-12)
        np.testing.assert_array_equal(ipiv[b], want_piv + 1)  # LAPACK's pivots are 1-based


def test_getrf_singular_info():
    text = _call_module("lapack_sgetrf_ffi", ["f32[3,3]"], "(f32[3,3], s32[3], s32[])")
    a = np.array([[1, 2, 3], [2, 4, 6], [1, 1, 1]], np.float32)
    lu, ipiv, info = run(text, a)
    assert int(info) == 3  # U[2,2] is exactly zero
    perm = np.arange(3)
    for j, p in enumerate(ipiv - 1):
        perm[[j, p]] = perm[[p, j]]
    lower = np.tril(lu, -1) + np.eye(3)
    np.testing.assert_allclose(lower @ np.triu(lu), a[perm], atol=1e-6)


@pytest.mark.parametrize("m,n", [(5, 3), (3, 5), (4, 4)])
def test_geqrf_and_orgqr_match_lapack(m, n):
    """numpy.linalg.qr's 'raw' mode is LAPACK's geqrf output (transposed); 'reduced' is orgqr."""
    k = min(m, n)
    geqrf = _call_module("lapack_dgeqrf_ffi", [f"f64[{m},{n}]"], f"(f64[{m},{n}], f64[{k}])")
    a = np.random.default_rng(m + n).normal(size=(m, n))
    h, tau = run(geqrf, a)
    want_h, want_tau = np.linalg.qr(a, mode="raw")
    np.testing.assert_allclose(h, want_h.T, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(tau, want_tau, rtol=1e-10, atol=1e-12)
    if m >= n:
        orgqr = _call_module("lapack_dorgqr_ffi", [f"f64[{m},{n}]", f"f64[{k}]"],
                             f"f64[{m},{n}]")
        q = run(orgqr, h, tau)
        np.testing.assert_allclose(q, np.linalg.qr(a, mode="reduced")[0], rtol=1e-10,
                                   atol=1e-12)


@pytest.mark.parametrize("target,t", [("lapack_ssyevd_ffi", "f32"), ("lapack_dsyevd_ffi", "f64"),
                                      ("lapack_zheevd_ffi", "c128")])
def test_eigh(target, t):
    part = {"f32": "f32", "f64": "f64", "c128": "f64"}[t]
    text = _call_module(target, [f"{t}[2,4,4]"], f"({t}[2,4,4], {part}[2,4], s32[2])",
                        "mode = 86 : ui8, uplo = 76 : ui8")
    rng = np.random.default_rng(9)
    a = rng.normal(size=(2, 4, 4)) + (1j * rng.normal(size=(2, 4, 4)) if t == "c128" else 0)
    a = (a + np.conj(np.swapaxes(a, -1, -2))).astype(_np(t))
    v, w, info = run(text, a)
    np.testing.assert_array_equal(info, [0, 0])
    assert np.all(np.diff(w, axis=-1) >= 0)  # ascending
    rebuilt = v @ (w[..., None] * np.conj(np.swapaxes(v, -1, -2)))
    np.testing.assert_allclose(rebuilt, a, rtol=1e-4, atol=1e-4 if t == "f32" else 1e-10)


TRSM_CASES = [(side, uplo, trans, diag) for side in "LR" for uplo in "LU" for trans in "NTC"
              for diag in "NU"]


@pytest.mark.parametrize("side,uplo,trans,diag", TRSM_CASES)
def test_trsm(side, uplo, trans, diag):
    rng = np.random.default_rng(len(TRSM_CASES))
    a = rng.normal(size=(4, 4)) + 4 * np.eye(4) + 1j * rng.normal(size=(4, 4))
    b = rng.normal(size=(4, 3) if side == "L" else (3, 4)) + 0j
    config = ", ".join(f"{name} = {ord(v)} : ui8" for name, v in
                       [("diag", diag), ("side", side), ("trans_x", trans), ("uplo", uplo)])
    text = _call_module("lapack_ztrsm_ffi", ["c128[4,4]", f"c128[{','.join(map(str, b.shape))}]",
                                             "c128[]"],
                        f"c128[{','.join(map(str, b.shape))}]", config)
    x = run(text, a, b, np.complex128(2))
    tri = np.tril(a) if uplo == "L" else np.triu(a)
    if diag == "U":
        np.fill_diagonal(tri, 1)
    op = {"N": tri, "T": tri.T, "C": tri.conj().T}[trans]
    got = op @ x if side == "L" else x @ op
    np.testing.assert_allclose(got, 2 * b, rtol=1e-10, atol=1e-10)


# target, operand dims (per matrix), result: a list of (type, dims) (one entry: not a tuple)
BATCHED_LAPACK = [
    ("lapack_dgetrf_ffi", [(3, 3)], [("f64", (3, 3)), ("s32", (3,)), ("s32", ())]),
    ("lapack_dgeqrf_ffi", [(3, 3)], [("f64", (3, 3)), ("f64", (3,))]),
    ("lapack_dorgqr_ffi", [(3, 3), (3,)], [("f64", (3, 3))]),
    ("lapack_dsyevd_ffi", [(3, 3)], [("f64", (3, 3)), ("f64", (3,)), ("s32", ())]),
    ("lapack_dtrsm_ffi", [(3, 3), (3, 2)], [("f64", (3, 2))]),
    ("lapack_dpotrf_ffi", [(3, 3)], [("f64", (3, 3)), ("s32", ())]),
]


def _shape_text(t, dims, batch):
    return f"{t}[{','.join([batch] * bool(batch) + [str(d) for d in dims])}]"


def _batched_module(target, operands, results, batch):
    ops = [_shape_text("f64", d, batch) for d in operands]
    res = [_shape_text(t, d, batch) for t, d in results]
    return _call_module(target, ops, res[0] if len(res) == 1 else f"({', '.join(res)})")


@pytest.mark.parametrize("n", [0, 1, 3])
@pytest.mark.parametrize("target,operands,results", BATCHED_LAPACK,
                         ids=[r[0] for r in BATCHED_LAPACK])
def test_lapack_dynamic_batch_equals_static_per_matrix(target, operands, results, n):
    """A dynamic batch of n matrices gives what each matrix gives in a static module."""
    dyn = _batched_module(target, operands, results, "<=3")
    static = _batched_module(target, operands, results, "")
    rng = np.random.default_rng(n)
    args = [_spd(rng, (n,), 3)] + [rng.normal(size=(n,) + d) for d in operands[1:]]
    got = run(dyn, *args)
    got = got if isinstance(got, tuple) else (got,)
    assert [g.shape for g in got] == [(n,) + d for _, d in results]
    for b in range(n):
        want = run(static, *[a[b] for a in args])
        for g, w in zip(got, want if isinstance(want, tuple) else (want,)):
            np.testing.assert_allclose(g[b], w, rtol=1e-12, atol=1e-12)


def test_unknown_lapack_target_is_unsupported():
    text = _call_module("lapack_sgesdd_ffi", ["f32[3,3]"], "(f32[3,3], f32[3], s32[])")
    with pytest.raises(dynhlo.UnsupportedError, match="lapack_sgesdd_ffi"):
        dynhlo.compile(text)
