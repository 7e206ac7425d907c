"""The GPU backend's power, converts and comparisons in Triton's interpreter (and on a GPU
where there is one) against the CPU backend and values by hand.

- power: C99 Annex F's special cases, which XLA's float power (libm, libdevice) has:
  x**0 = 1 and 1**y = 1 for NaN too, a negative base with an integral exponent, signed zeros
  and infinities.
- convert: to bf16 rounds to nearest even, through f32 as XLA does (an integer or f64 rounds
  twice); from bf16 is exact (subnormals, -0, NaN); bf16 values compare as numbers.
- a scalar comparison meeting a tile (lax.igamma's loop), and a Llama decoder at one token
  (tests/support/llama_decoder.py, JAX's outputs stored).
"""

from __future__ import annotations

import itertools
import os

import ml_dtypes
import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU  # skips without torch or triton; picks interpreter mode
from tests.support.common import DATA

BF16 = ml_dtypes.bfloat16


def _binary(op: str, t: str, n: int, out: str | None = None) -> str:
    return f"""HloModule m
ENTRY e {{
  a = {t}[{n}] parameter(0)
  b = {t}[{n}] parameter(1)
  ROOT c = {out or t}[{n}] {op}
}}"""


def _convert(src: str, dst: str, n: int) -> str:
    return (f"HloModule m\nENTRY e {{\n  a = {src}[{n}] parameter(0)\n"
            f"  ROOT c = {dst}[{n}] convert(a)\n}}")


def _both(text: str, *args) -> tuple[np.ndarray, np.ndarray]:
    """(GPU, CPU) results of the module."""
    return (np.asarray(dynhlo.compile(text, **GPU)(*args)),
            np.asarray(dynhlo.compile(text)(*args)))


def _same_bits(got: np.ndarray, want: np.ndarray, where: str, rtol: float = 0.0) -> None:
    """Equal values (within rtol where both are finite and nonzero) with equal signs (so
    -0 != +0); any NaN matches any NaN."""
    g, w = got.astype(np.float64), want.astype(np.float64)
    near = (g == w) | (np.abs(g - w) <= rtol * np.abs(w))
    bad = ~(near & (np.signbit(g) == np.signbit(w)) | (np.isnan(g) & np.isnan(w)))
    assert not bad.any(), f"{where}: at {np.flatnonzero(bad)}: got {got[bad]}, want {want[bad]}"


# --- power -------------------------------------------------------------------------------

SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 0.5, -0.5, 2.5, -2.5,
           np.inf, -np.inf, np.nan]


@pytest.mark.parametrize("t", ["f32", "f64", "f16", "bf16"])
def test_power_of_special_values_is_c_pow_on_both_backends(t):
    dtype = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "bf16": BF16}[t]
    x, y = (np.array(v, dtype) for v in zip(*itertools.product(SPECIAL, SPECIAL), strict=True))
    with np.errstate(all="ignore"):   # NumPy's power is C's pow, exact on these values
        want = np.power(x.astype(np.float64), y.astype(np.float64)).astype(dtype)
    gpu, cpu = _both(_binary("power(a, b)", t, x.size), x, y)
    rtol = float(ml_dtypes.finfo(dtype).eps)   # 3 ** 0.5 and the like: within an ulp
    _same_bits(cpu, want, f"cpu {t}", rtol)
    # the interpreter's f64 pow is exp(y log|x|) in f64: a few ulps off
    _same_bits(gpu, want, f"gpu {t}", 1e-13 if t == "f64" else rtol)


def test_power_by_hand():
    x = np.array([-2, np.nan, 0, -0.0, -0.0, 1, -1, -2, 0, -np.inf, 2, 10], np.float32)
    y = np.array([3, 0, 0, -3, 3, np.nan, np.inf, 0.5, -1, 3, 0.5, -2], np.float32)
    want = np.array([-8, 1, 1, -np.inf, -0.0, 1, 1, np.nan, np.inf, -np.inf, np.sqrt(2),
                     0.01], np.float32)
    gpu, cpu = _both(_binary("power(a, b)", "f32", x.size), x, y)
    for got, where in ((gpu, "gpu"), (cpu, "cpu")):
        _same_bits(got[:-2], want[:-2], where)
        np.testing.assert_allclose(got[-2:], want[-2:], rtol=1e-6, err_msg=where)


def test_power_of_ordinary_values_is_accurate():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.uniform(-30, 30, 200), rng.uniform(0, 3, 200)]).astype(np.float32)
    y = np.concatenate([np.round(rng.uniform(-12, 12, 200)),
                        rng.uniform(-20, 20, 200)]).astype(np.float32)
    gpu, cpu = _both(_binary("power(a, b)", "f32", x.size), x, y)
    with np.errstate(all="ignore"):
        want = np.power(x.astype(np.float64), y.astype(np.float64)).astype(np.float32)
    for got, where in ((gpu, "gpu"), (cpu, "cpu")):
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=0, err_msg=where)


# --- converts ----------------------------------------------------------------------------

def _bf16(values) -> np.ndarray:
    """bf16 values from f32 values each exactly a bf16."""
    f = np.array(values, np.float32)
    assert np.array_equal(f.astype(BF16).astype(np.float32), f, equal_nan=True)
    return f.astype(BF16)


# (source type, source values, the bf16 values XLA gives): ties go to even; an integer or
# f64 rounds to f32 first (1 + 2^-8 + 2^-30 -> 1 + 2^-8 in f32, a tie in bf16 -> 1;
# 2^24 + 2^16 + 1 -> 2^24 + 2^16 in f32, a tie in bf16 -> 2^24, where one rounding of the
# integer, as a GPU compiler folding the two casts gives, is 2^24 + 2^17)
TO_BF16 = [
    ("f32", np.array([1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-8 + 2**-20, -(1 + 2**-8 + 2**-20),
                      300.7, 3.4e38, -0.0, np.inf, np.nan], np.float32),
     [1, 1 + 2**-6, 1 + 2**-7, -(1 + 2**-7), 300, np.inf, -0.0, np.inf, np.nan]),
    ("f64", np.array([1 + 2**-8 + 2**-30, 1 + 2**-8 + 2**-20, -2.5, 1e-30, np.nan]),
     [1, 1 + 2**-7, -2.5, 9.9840208e-31, np.nan]),
    ("f16", np.array([1 + 2**-8, 1 + 3 * 2**-8, 65504, -6e-8], np.float16),
     [1, 1 + 2**-6, 65536, -5.9604645e-08]),
    ("s32", np.array([3, -7, 257, 259, 0x1008001, 2**31 - 1, -2**31, 0x1010001, -0x1010001],
                     np.int32),
     [3, -7, 256, 260, 2**24, 2**31, -2**31, 2**24, -2**24]),
    ("s64", np.array([(1 << 40) + (1 << 32) + 1, -5], np.int64), [2**40, -5]),
    ("u8", np.arange(0, 256, 51, dtype=np.uint8), [0, 51, 102, 153, 204, 255]),
    ("u32", np.array([2**32 - 1, 513, 0x1010001], np.uint32), [2**32, 512, 2**24]),
    ("u64", np.array([(1 << 40) + (1 << 32) + 1], np.uint64), [2**40]),
    ("pred", np.array([True, False]), [1, 0]),
]


@pytest.mark.parametrize("src,x,values", TO_BF16, ids=[c[0] for c in TO_BF16])
def test_convert_to_bf16_rounds_to_nearest_even_through_f32(src, x, values):
    want = _bf16(values)
    gpu, cpu = _both(_convert(src, "bf16", x.size), x)
    assert gpu.dtype == cpu.dtype == BF16
    _same_bits(cpu, want, f"cpu {src}")
    _same_bits(gpu, want, f"gpu {src}")


BF16_VALUES = _bf16([-3.5, -0.0, 0.0, 1.0, 300.0, np.inf, -np.inf, np.nan,
                     9.18355e-41, -2.3509887e-38, 3.3895314e38])


@pytest.mark.parametrize("dst", ["f32", "f64", "f16", "pred"])
def test_convert_from_bf16_is_exact(dst):
    """Subnormal bf16 values keep their value (or round as f16 does), -0 its sign."""
    gpu, cpu = _both(_convert("bf16", dst, BF16_VALUES.size), BF16_VALUES)
    if dst == "pred":
        want = BF16_VALUES.astype(np.float32) != 0
        np.testing.assert_array_equal(gpu, want)
        np.testing.assert_array_equal(cpu, want)
        return
    want = BF16_VALUES.astype(np.float32).astype({"f32": np.float32, "f64": np.float64,
                                                   "f16": np.float16}[dst])
    _same_bits(cpu, want, f"cpu {dst}")
    _same_bits(gpu, want, f"gpu {dst}")


def test_convert_f64_to_f16_rounds_through_f32():
    """XLA's f64 -> f16 rounds to f32 first: 1 + 2^-11 + 2^-40 -> 1 + 2^-11, a tie -> 1
    (one rounding gives 1 + 2^-10), 2049 + 2^-40 -> 2048."""
    x = np.array([1 + 2**-11 + 2**-40, 2049 + 2**-40, 2049 + 2**-12 + 2**-40, -0.0, 7e4])
    want = np.array([1, 2048, 2050, -0.0, np.inf], np.float16)
    gpu, cpu = _both(_convert("f64", "f16", x.size), x)
    _same_bits(cpu, want, "cpu")
    _same_bits(gpu, want, "gpu")


# bf16 -> integer: toward zero, saturating, NaN -> 0 (XLA's ConvertElementType)
FROM_BF16 = _bf16([1.5, -2.5, 300, -9999220736, np.nan, np.inf, -np.inf, 3003121664, -0.0])
TO_INTEGERS = {
    "s8": [1, -2, 127, -128, 0, 127, -128, 127, 0],
    "u8": [1, 0, 255, 0, 0, 255, 0, 255, 0],
    "s32": [1, -2, 300, -2**31, 0, 2**31 - 1, -2**31, 2**31 - 1, 0],
    "u32": [1, 0, 300, 0, 0, 2**32 - 1, 0, 3003121664, 0],
    "s64": [1, -2, 300, -9999220736, 0, 2**63 - 1, -2**63, 3003121664, 0],
    "u64": [1, 0, 300, 0, 0, 2**64 - 1, 0, 3003121664, 0],
}


@pytest.mark.parametrize("dst", sorted(TO_INTEGERS))
def test_convert_bf16_to_integers_truncates_and_saturates(dst):
    from dynhlo.hlo.types import to_numpy_dtype
    want = np.array(TO_INTEGERS[dst], to_numpy_dtype(dst))
    gpu, cpu = _both(_convert("bf16", dst, FROM_BF16.size), FROM_BF16)
    np.testing.assert_array_equal(cpu, want)
    np.testing.assert_array_equal(gpu, want)


@pytest.mark.parametrize("direction", ["LT", "LE", "GT", "GE", "EQ", "NE"])
def test_bf16_values_compare_as_numbers(direction):
    x, y = (np.array(v, np.float32) for v in zip(*itertools.product(
        [-3.5, -1.0, -0.0, 0.0, 2.0, np.inf, -np.inf, np.nan], repeat=2), strict=True))
    op = {"LT": np.less, "LE": np.less_equal, "GT": np.greater, "GE": np.greater_equal,
          "EQ": np.equal, "NE": np.not_equal}[direction]
    gpu, cpu = _both(_binary(f"compare(a, b), direction={direction}", "bf16", x.size, "pred"),
                     x.astype(BF16), y.astype(BF16))
    np.testing.assert_array_equal(cpu, op(x, y))
    np.testing.assert_array_equal(gpu, op(x, y))


def test_bf16_clamp_orders_negative_values():
    text = """HloModule m
ENTRY e {
  lo = bf16[5] parameter(0)
  x = bf16[5] parameter(1)
  hi = bf16[5] parameter(2)
  ROOT c = bf16[5] clamp(lo, x, hi)
}"""
    x = _bf16([-8, -2, -1.5, 0, 4])
    lo, hi = _bf16([-2, -2, -2, -3, 1]), _bf16([-1, -1, -1, -1, 3])
    want = _bf16([-2, -2, -1.5, -1, 3])
    gpu, cpu = _both(text, lo, x, hi)
    _same_bits(cpu, want, "cpu")
    _same_bits(gpu, want, "gpu")


# --- a scalar comparison meeting a tile; a Llama decoder -----------------------------------

def test_scalar_comparison_and_a_reduced_tile():
    """lax.igamma's loop: `and` of a comparison of a scalar with a reduction's result."""
    text = """HloModule m
or_p {
  a = pred[] parameter(0)
  b = pred[] parameter(1)
  ROOT c = pred[] or(a, b)
}
ENTRY e {
  s = f32[] parameter(0)
  v = pred[<=6] parameter(1)
  lim = f32[] constant(2000)
  small = pred[] compare(s, lim), direction=LT
  f = pred[] constant(false)
  any = pred[] reduce(v, f), dimensions={0}, to_apply=or_p
  ROOT r = pred[] and(small, any)
}"""
    for s, v, want in ((1.0, [False, True], True), (1.0, [False] * 3, False),
                       (3000.0, [True], False), (1.0, [], False)):
        args = (np.float32(s), np.array(v, bool))
        gpu, cpu = _both(text, *args)
        assert bool(gpu) is bool(cpu) is want, (s, v)


def test_llama_decoder_matches_jax_at_one_token():
    """A 2-layer Llama decoder (RMSNorm's pow(x, 2) of negative values, rotary embedding,
    causal softmax with min-float and -inf masks, SiLU MLP) through from_jax: both backends
    give JAX's outputs at 1, 2, 5 and 8 tokens, with no NaN."""
    path = str(DATA / "jax" / "llama_decoder")
    with open(path + ".hlo") as f:
        text = f.read()
    data = np.load(path + ".npz")
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    for n in (1, 2, 5, 8):
        want = data[f"out{n}_0"]
        assert want.shape == (n, 8) and not np.isnan(want).any()
        for exe, where in ((gpu, "gpu"), (cpu, "cpu")):
            np.testing.assert_allclose(np.asarray(exe(data[f"in{n}_0"])), want, rtol=1e-5,
                                       atol=1e-5, err_msg=f"{where} at {n} tokens")
