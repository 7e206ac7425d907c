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
