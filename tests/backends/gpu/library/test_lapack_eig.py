"""JAX's geev (jnp.linalg.eig) and complex QR calls on the GPU backend: its host tier (no
library call of its own, backends/gpu/rules.py CUSTOM_CALLS) runs the CPU's LAPACK lowerings
on host copies, so results equal the CPU backend's bit for bit, with the host fallback
counted; and JAX's functions lowered for the CPU, as JAX computes them.

    python -m pytest -q tests/backends/gpu/library/test_lapack_eig.py
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU  # skips without torch/triton; the interpreter without a GPU
from tests.backends.gpu.library.test_lapack import _on_device
from tests.ops.test_lapack import call_module
from tests.ops.test_lapack_eig import MODES, _random, _same_as_jax, _with_pairs

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

QR = """HloModule qr
ENTRY main {{
  a = {t}[<=3,<=5,<=4] parameter(0)
  g = ({t}[<=3,<=5,<=4], {t}[<=3,<=4]) custom-call(a), custom_call_target="{geqrf}", api_version=API_VERSION_TYPED_FFI
  h = {t}[<=3,<=5,<=4] get-tuple-element(g), index=0
  tau = {t}[<=3,<=4] get-tuple-element(g), index=1
  q = {t}[<=3,<=5,<=4] custom-call(h, tau), custom_call_target="{ungqr}", api_version=API_VERSION_TYPED_FFI
  ROOT r = ({t}[<=3,<=5,<=4], {t}[<=3,<=4], {t}[<=3,<=5,<=4]) tuple(h, tau, q)
}}"""


def _equal(got, want, where):
    want = want if isinstance(want, tuple) else (want,)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape, where
        np.testing.assert_array_equal(g, w, err_msg=where)


@pytest.mark.parametrize("t,k", [("f32", "s"), ("f64", "d"), ("c64", "c"), ("c128", "z")])
def test_geev_on_the_host_tier(t, k):
    """Dynamic batch and matrix size at 0, 1 and the bound, a NaN matrix (info -4): the
    CPU's results, from the host tier."""
    vectors = {"f32": "c64", "f64": "c128"}.get(t, t)
    values = [f"{t}[<=3,<=4]"] * (2 if k in "sd" else 1)
    text = call_module(f"lapack_{k}geev_ffi", [f"{t}[<=3,<=4,<=4]"],
                       f"({', '.join(values)}, {vectors}[<=3,<=4,<=4], "
                       f"{vectors}[<=3,<=4,<=4], s32[<=3])", MODES.format(86, 86))
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    dtype = {"f32": np.float32, "f64": np.float64, "c64": np.complex64,
             "c128": np.complex128}[t]
    a = _with_pairs(np.random.default_rng(1), (3,), 4, dtype)
    a[2, 3, 1] = np.nan
    for b, n in [(0, 4), (3, 0), (1, 1), (2, 3), (3, 4)]:
        args = [a[:b, :n, :n]]
        _equal(_on_device(gpu, *args, host=True), cpu(*args), f"geev {t} at {b}x{n}")
    assert list(cpu(a)[-1]) == [0, 0, -4]


@pytest.mark.parametrize("t,k", [("c64", "c"), ("c128", "z"), ("c64", "cusolver")])
def test_complex_qr_on_the_host_tier(t, k):
    """geqrf feeding ungqr (cuSOLVER's geqrf/orgqr: the same calls), tall and square, at a
    dynamic batch and sizes: the CPU's results, from the host tier."""
    names = ("cusolver_geqrf_ffi", "cusolver_orgqr_ffi") if k == "cusolver" else \
        (f"lapack_{k}geqrf_ffi", f"lapack_{k}ungqr_ffi")
    text = QR.format(t=t, geqrf=names[0], ungqr=names[1])
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    a = _random(np.random.default_rng(2), (3, 5, 4), np.complex64 if t == "c64" else
                np.complex128)
    for b, m, n in [(0, 5, 4), (3, 0, 0), (1, 1, 1), (2, 4, 4), (3, 5, 4), (3, 5, 2)]:
        args = [a[:b, :m, :n]]
        _equal(_on_device(gpu, *args, host=True), cpu(*args), f"qr {t} {k} at {b}x{m}x{n}")


@pytest.mark.parametrize("fn,spec,shape,dtype", [
    (jnp.linalg.eig, "f32[b,3,3]", (3, 3), np.float32),
    (jnp.linalg.qr, "c64[b,5,3]", (5, 3), np.complex64),
], ids=["eig", "qr"])
def test_jax_functions_with_a_symbolic_batch(fn, spec, shape, dtype):
    """dynhlo.from_jax on the GPU backend, b <= 4 at 1 and 4: as JAX computes them."""
    exe = dynhlo.from_jax(fn, spec, bounds={"b": 4}, **GPU)
    rng = np.random.default_rng(3)
    for b in (1, 4):
        a = _random(rng, (b,) + shape, dtype)
        got = _on_device(exe, a, host=True)
        _same_as_jax(fn, tuple(got) if len(got) > 1 else got[0], a, f"{spec} at b={b}")
