"""Float power: the reference's semantics (float_power.py: f32 computed in f64, rounded once;
2, 3, 4, -1, -2 as exact products) checked against exact rational arithmetic and jax.jit, and
the compiled path's kernels (a constant exponent of those) and specialized steps (any other)
against the reference bit for bit on special values: zeros of both signs, infinities, NaN,
subnormals, huge values, negative bases to integer and non-integer powers, x*x's ties."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import steps
from dynhlo.backends.cpu.float_power import EXACT_EXPONENTS, power_f32

from .test_compiled_spec_steps import _kinds, _same

F32 = np.float32
EDGE = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40, -1e-40, 1e-20,
                 -1e-20, 3e38, -3e38, 1e13, -1e13, 4097, -4097, 0.5, -0.5, 1, -1, 2, -2,
                 0.1049001, 1.4645039, -0.70373523], F32)


def _values(seed: int, n: int) -> np.ndarray:
    r = np.random.default_rng(seed)
    x = np.concatenate([r.standard_normal(n).astype(F32) * F32(s) for s in (1, 30, 1e-12)])
    return np.concatenate([EDGE, x])


def _module(exponent: str) -> str:
    """f32 power of x by a constant broadcast and cut to x's size (as GPT-2's and torch's
    `x ** 3` export), and by y read per call."""
    return f"""
HloModule pw
ENTRY main {{
  x = f32[<=4096] parameter(0)
  y = f32[<=4096] parameter(1)
  n = s32[] get-dimension-size(x), dimensions={{0}}
  c = f32[] constant({exponent})
  b = f32[4096] broadcast(c), dimensions={{}}
  e = f32[<=4096] set-dimension-size(b, n), dimensions={{0}}
  p = f32[<=4096] power(x, e)
  q = f32[<=4096] power(x, y)
  ROOT r = (f32[<=4096], f32[<=4096]) tuple(p, q)
}}
"""


def _exact(x: float, n: int) -> F32:
    """x^n exactly (Fraction), rounded to f64 (float() rounds correctly) and then to f32:
    the reference's EXACT_EXPONENTS forms, from an independent computation."""
    if np.isnan(x) or np.isinf(x) or x == 0:
        with np.errstate(all="ignore"):
            return F32(np.power(np.float64(x), n))
    with np.errstate(over="ignore"):   # 3e38^2 is past f32's range: inf
        return F32(float(Fraction(x) ** n))


@pytest.mark.parametrize("n", [2, 3, 4, -1, -2])
def test_reference_is_the_exact_power_rounded_once(n):
    x = _values(0, 3000)
    got = power_f32(x, np.full_like(x, n))
    want = np.array([_exact(float(v), n) for v in x], F32)
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    # the per-element path (exponents differing along the array) gives the same bits
    y = np.where(np.arange(x.size) % 2 == 0, F32(n), F32(0.5))
    mixed = power_f32(x, y)
    np.testing.assert_array_equal(mixed[::2].view(np.uint32), want[::2].view(np.uint32))


def test_reference_other_exponents_are_numpys_f64_power_rounded_once():
    x = _values(1, 500)
    for e in (0.5, -0.5, 1.5, 0.0, 1.0, 5.0, np.inf, -np.inf, np.nan, 1e-45):
        with np.errstate(all="ignore"):   # (an array exponent: NumPy's loop for a scalar
            # one differs at special values, pow(-inf, 1e-45) NaN there, C99's inf here)
            want = np.power(x.astype(np.float64),
                            np.full(x.shape, F32(e), np.float64)).astype(F32)
        got = power_f32(x, np.full_like(x, e))
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    # C99's special values: a negative base to a non-integer power is NaN, pow(x, 0) = 1
    assert np.isnan(power_f32(np.array([-2.0], F32), np.array([0.5], F32))[0])
    assert power_f32(np.array([np.nan], F32), np.array([0.0], F32))[0] == 1
    assert np.signbit(power_f32(np.array([-0.0], F32), np.array([3.0], F32))[0])
    assert power_f32(np.array([-0.0], F32), np.array([-1.0], F32))[0] == -np.inf


@pytest.mark.parametrize("exponent", ["2", "3", "4", "-1", "-2", "0.5", "1.5", "-3"])
def test_compiled_power_is_the_references_bit_for_bit(exponent):
    text = _module(exponent)
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    r = np.random.default_rng(2)
    x = _values(3, 1000)
    y = r.choice(np.array([2, 3, 4, -1, -2, 0.5, -0.5, 3.5, 0, np.inf, -np.inf, np.nan], F32),
                 x.size)
    for n in (x.size, 7, 1, 0, x.size):
        for _ in range(3):
            _same(exe(x[:n], y[:n]), ref(x[:n], y[:n]))
    kinds = _kinds(exe, "POWER")
    exact = float(exponent) in EXACT_EXPONENTS
    # the constant exponent's power is a kernel's (f64 products) where exact, else the
    # lowering's call; the per-call one always the lowering's
    assert len(kinds) == 2 and kinds.count(steps._KERNEL) == (1 if exact else 0)


def test_half_types_round_once_from_f32():
    """f16/bf16 power widens to f32 (XLA's CPU upcast), takes the f32 semantics, and rounds
    to the type; the compiled path computes it as the reference (no kernel holds f16)."""
    text = """
HloModule pwh
ENTRY main {
  x = f16[<=64] parameter(0)
  c = f16[] constant(3)
  b = f16[64] broadcast(c), dimensions={}
  n = s32[] get-dimension-size(x), dimensions={0}
  e = f16[<=64] set-dimension-size(b, n), dimensions={0}
  ROOT p = f16[<=64] power(x, e)
}
"""
    x = np.array([0, -0.0, np.inf, -np.inf, np.nan, 6e-8, -6e-8, 1.5, -2.5, 40, -41, 0.1],
                 np.float16)
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    with np.errstate(over="ignore"):   # 41^3 is past f16's range: inf
        want = power_f32(x.astype(F32), np.full(x.shape, 3, F32)).astype(np.float16)
    for _ in range(3):
        _same(exe(x), ref(x))
        np.testing.assert_array_equal(np.asarray(ref(x)).view(np.uint16), want.view(np.uint16))


def _normal(values: np.ndarray) -> np.ndarray:
    """Where XLA's CPU keeps the value: not a subnormal (it flushes them to zero)."""
    a = np.abs(values.astype(np.float64))
    return ~((a > 0) & (a < np.finfo(F32).tiny))


@pytest.mark.parametrize("e", [2.0, -1.0, 3.0])
def test_against_jax_jit(e):
    """XLA rewrites pow(x, 2) to x*x and pow(x, -1) to 1/x, both correctly rounded: the
    same bits as here (but where XLA flushes a subnormal). pow(x, 3) is x*(x*x) there,
    rounded twice: here the once-rounded cube, so within an ulp of XLA's and never
    further from the exact cube."""
    jax = pytest.importorskip("jax")
    x = _values(4, 1300)
    with jax.default_device(jax.devices("cpu")[0]):
        xla = np.asarray(jax.jit(lambda a: a ** e)(x))
    ours = np.asarray(dynhlo.compile(_module(repr(e)), backend="cpu", reference=False)(
        x, x)[0])
    keep = _normal(x) & _normal(ours) & _normal(xla)
    if e != 3.0:
        np.testing.assert_array_equal(ours[keep].view(np.uint32), xla[keep].view(np.uint32))
        return
    finite = keep & np.isfinite(ours)
    gap = np.abs(ours[finite].view(np.int32).astype(np.int64) -
                 xla[finite].view(np.int32).astype(np.int64))
    assert gap.max() <= 1 and (gap == 1).any()
    exact = np.array([Fraction(float(v)) ** 3 for v in x[finite]], dtype=object)
    ours_err = np.abs(np.array([Fraction(float(v)) for v in ours[finite]], object) - exact)
    xla_err = np.abs(np.array([Fraction(float(v)) for v in xla[finite]], object) - exact)
    assert all(ours_err <= xla_err)
    np.testing.assert_array_equal(ours[~np.isfinite(ours) & keep],
                                  xla[~np.isfinite(ours) & keep])
