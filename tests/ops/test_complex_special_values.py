"""Complex elementwise ops at infinities and signed zeros, on both backends.

XLA's facts (its CPU answers, checked through jaxlib): complex add, subtract and negate act
on the real and imaginary parts apart, so (0+0j) + (inf+0j) = inf+0j and -(0+0j) = -0-0j;
logistic of a complex z is 1 / (1 + exp(-z)), complex (logistic(1+1j) =
0.78204155+0.20194823j).
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo

INF = float("inf")


def _backends():
    out = [{"backend": "cpu"}]
    try:
        from tests.support.gpucheck import GPU
    except BaseException:  # pytest's Skipped: no torch or triton
        return out
    return out + [GPU]


def _module(op: str, t: str, n: int, arity: int) -> str:
    params = "\n".join(f"  p{k} = {t}[{n}] parameter({k})" for k in range(arity))
    args = ", ".join(f"p{k}" for k in range(arity))
    return f"HloModule c\nENTRY main {{\n{params}\n  ROOT r = {t}[{n}] {op}({args})\n}}"


def _parts_bits(z):
    z = np.asarray(z)
    return [(float(a), bool(np.signbit(a)), float(b), bool(np.signbit(b)))
            for a, b in zip(z.real, z.imag, strict=True)]


@pytest.mark.parametrize("backend", _backends(), ids=lambda b: b["backend"])
@pytest.mark.parametrize("t, dtype", [("c64", np.complex64), ("c128", np.complex128)])
def test_complex_add_and_subtract_with_infinite_parts_keep_finite_parts(backend, t, dtype):
    x = np.array([0, 1 + 2j, complex(0, INF), 3 - 1j] * 4, dtype)  # 16: torch's vector path
    y = np.array([complex(INF, 0), complex(0, -INF), 1, complex(-INF, 2)] * 4, dtype)
    add = dynhlo.compile(_module("add", t, 16, 2), **backend)(x, y)
    sub = dynhlo.compile(_module("subtract", t, 16, 2), **backend)(x, y)
    assert _parts_bits(add[:4]) == _parts_bits(
        np.array([complex(INF, 0), complex(1, -INF), complex(1, INF), complex(-INF, 1)]))
    assert _parts_bits(sub[:4]) == _parts_bits(
        np.array([complex(-INF, 0), complex(1, INF), complex(-1, INF), complex(INF, -3)]))


@pytest.mark.parametrize("backend", _backends(), ids=lambda b: b["backend"])
@pytest.mark.parametrize("n", [3, 16])
def test_complex_negate_flips_the_signs_of_zero_parts(backend, n):
    x = np.zeros(n, np.complex64)
    x[1] = complex(-0.0, 0.0)
    got = dynhlo.compile(_module("negate", "c64", n, 1), **backend)(x)
    assert _parts_bits(got[:2]) == [(0.0, True, 0.0, True), (0.0, False, 0.0, True)]


@pytest.mark.parametrize("backend", _backends(), ids=lambda b: b["backend"])
def test_complex_logistic_keeps_the_imaginary_part(backend):
    x = np.array([1 + 1j, 3 - 4j, 0], np.complex64)
    got = dynhlo.compile(_module("logistic", "c64", 3, 1), **backend)(x)
    want = np.array([0.78204155 + 0.20194823j, 1.0320722 + 0.040195506j, 0.5], np.complex64)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def _c(parts, dtype=np.complex64):
    z = np.zeros(len(parts), dtype)
    z.real, z.imag = zip(*parts, strict=True)
    return z


NAN = float("nan")


def _assert_same_parts(got, want):
    """Each real and imaginary part the same value with the same sign (any NaN a NaN)."""
    for part in ("real", "imag"):
        g, w = getattr(got, part), getattr(want, part)
        np.testing.assert_array_equal(g, w)
        same = np.isnan(w) | (np.signbit(g) == np.signbit(w))
        assert same.all(), f"{part} parts' signs: {g} != {w}"


@pytest.mark.parametrize("backend", _backends(), ids=lambda b: b["backend"])
@pytest.mark.parametrize("t, dtype", [("c64", np.complex64), ("c128", np.complex128)])
def test_complex_divide_gives_xlas_infinities_and_zeros(backend, t, dtype):
    # XLA's elemental emitter: Smith's algorithm, then C99 Annex G where it gives (NaN, NaN)
    x = _c([(-1e-30, 0), (NAN, INF), (-0.0, 1e30), (1, 1e30), (1, 0), (1, 0), (INF, 0),
            (3, 4)], dtype)
    y = _c([(-0.0, 0), (2.5, -1), (INF, NAN), (-INF, NAN), (INF, INF), (0, 0), (2, 0),
            (1, 2)], dtype)
    got = dynhlo.compile(_module("divide", t, 8, 2), **backend)(x, y)
    want = [(INF, NAN), (-INF, INF), (0.0, 0.0), (-0.0, -0.0), (0.0, -0.0), (INF, NAN),
            (INF, NAN)]
    _assert_same_parts(got[:7], _c(want, dtype))
    np.testing.assert_allclose(got[7], 2.2 - 0.4j, rtol=1e-6)


@pytest.mark.parametrize("backend", _backends(), ids=lambda b: b["backend"])
def test_complex_expm1_of_a_real_value_has_a_zero_imaginary_part(backend):
    x = _c([(INF, 0), (NAN, -0.0), (1e30, 0), (1, -0.0)])
    got = dynhlo.compile(_module("exponential-minus-one", "c64", 4, 1), **backend)(x)
    np.testing.assert_array_equal(got.real[:3], [INF, NAN, INF])
    np.testing.assert_allclose(got.real[3], np.e - 1, rtol=1e-6)
    assert got.imag.tolist() == [0.0] * 4 and not np.signbit(got.imag).any()


@pytest.mark.parametrize("backend", _backends(), ids=lambda b: b["backend"])
def test_complex_rsqrt_of_an_infinite_value_is_zero(backend):
    got = dynhlo.compile(_module("rsqrt", "c64", 3, 1), **backend)(
        _c([(0, INF), (-0.0, INF), (4, 0)]))
    _assert_same_parts(got[:2], _c([(0, -0.0), (0, -0.0)]))
    np.testing.assert_array_equal(got[2], 0.5)


@pytest.mark.parametrize("backend", _backends(), ids=lambda b: b["backend"])
def test_complex_sign_divides_by_the_magnitude_part_by_part(backend):
    x = _c([(0, -0.0), (-0.0, -0.0), (INF, 1), (NAN, 0), (3, 4), (1e30, 1e30)])
    got = dynhlo.compile(_module("sign", "c64", 6, 1), **backend)(x)
    _assert_same_parts(got[:5], _c([(0, -0.0), (-0.0, -0.0), (NAN, 0), (NAN, NAN),
                                    (0.6, 0.8)]))
    np.testing.assert_allclose(got[5], complex(0.70710677, 0.70710677), rtol=1e-6)


@pytest.mark.parametrize("backend", _backends(), ids=lambda b: b["backend"])
@pytest.mark.parametrize("t", ["c64", "c128"])
def test_complex_rsqrt_imaginary_part_has_the_opposite_sign_of_zs(backend, t):
    """XLA's rsqrt(2+0j) is 0.7071-0j and rsqrt(2-0j) 0.7071+0j (principal branch: the
    imaginary part's sign is the opposite of z's, zeros too); (-inf+2j) gives -0-0j."""
    x = np.array([complex(2, 0), complex(2, -0.0), complex(INF, 0), complex(INF, -0.0),
                  complex(-INF, 2), complex(-INF, -2)], np.complex64 if t == "c64" else
                 np.complex128)
    x[1], x[3] = complex(2, -0.0), complex(INF, -0.0)  # the array literal may drop -0
    x.imag[1], x.imag[3] = -0.0, -0.0
    got = dynhlo.compile(_module("rsqrt", t, 6, 1), **backend)(x)
    assert np.signbit(got.imag).tolist() == [True, False, True, False, True, False]
    np.testing.assert_allclose(got.real[:2], [0.70710677] * 2, rtol=1e-6)
    assert got.imag.tolist()[2:] == [0.0] * 4


@pytest.mark.parametrize("backend", _backends(), ids=lambda b: b["backend"])
@pytest.mark.parametrize("t", ["c64", "c128"])
def test_complex_abs_is_nan_where_a_part_is_nan(backend, t):
    """XLA's |z| is NaN for nan+inf j and inf+nan j (C's hypot, NumPy's and torch's abs,
    give inf); a finite or infinite z without NaN keeps its magnitude."""
    dtype = np.complex64 if t == "c64" else np.complex128
    x = np.array([complex(NAN, INF), complex(-INF, NAN), complex(NAN, 1), complex(INF, 1),
                  complex(3, -4)], dtype)
    real = "f32" if t == "c64" else "f64"
    text = _module("abs", t, 5, 1).replace(f"ROOT r = {t}[5]", f"ROOT r = {real}[5]")
    got = dynhlo.compile(text, **backend)(x)
    assert got.dtype == np.dtype(np.float32 if t == "c64" else np.float64)
    np.testing.assert_array_equal(got, [NAN, NAN, NAN, INF, 5.0])


@pytest.mark.parametrize("backend", _backends(), ids=lambda b: b["backend"])
def test_complex_expm1_of_a_signed_zero_has_a_positive_zero_real_part(backend):
    """XLA's expm1(-0+0j) and expm1(-0-0j) are 0+0j (NumPy's real part is -0)."""
    x = np.zeros(2, np.complex128)
    x.real[:] = -0.0
    x.imag[1] = -0.0
    got = dynhlo.compile(_module("exponential-minus-one", "c128", 2, 1), **backend)(x)
    assert got.real.tolist() == [0.0, 0.0] and not np.signbit(got.real).any()
    assert not np.signbit(got.imag).any()
