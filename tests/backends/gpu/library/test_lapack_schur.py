"""JAX's LAPACK calls for schur, sqrtm, hessenberg, tridiagonal and tridiagonal_solve on the
GPU backend: it has no device rule for gees, gehrd, sytrd/hetrd or gtsv, so they take the
host tier (the CPU backend's SciPy LAPACK on host copies, counted as gpu_host_fallback) and
the rest of each module runs on the device. Against the CPU backend and JAX:

    python -m pytest -q tests/backends/gpu/library/test_lapack_schur.py
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU  # skips without torch/triton; the interpreter without a GPU
from dynhlo import stats

jax = pytest.importorskip("jax")
jsl = pytest.importorskip("jax.scipy.linalg")
lax = jax.lax


def _leaves(out) -> list:
    return [np.asarray(o.cpu() if hasattr(o, "cpu") else o)
            for o in (out if isinstance(out, (tuple, list)) else [out])]


def _on_host(exe, *args) -> list:
    """exe(*args) as NumPy, asserting the LAPACK call took the host tier."""
    before = stats.snapshot().get("gpu_host_fallback", 0)
    out = _leaves(exe(*args))
    assert stats.snapshot().get("gpu_host_fallback", 0) > before
    return out


def _same(got, cpu, want, where):
    assert len(got) == len(cpu) == len(want), where
    for g, c, w in zip(got, cpu, want, strict=True):
        assert g.shape == c.shape and g.dtype == c.dtype, where
        np.testing.assert_allclose(g, c, rtol=1e-5, atol=1e-5, err_msg=where + " (cpu)")
        np.testing.assert_allclose(g, np.asarray(w), rtol=1e-5, atol=1e-5,
                                   err_msg=where + " (jax)")


# name -> (JAX function, argument maker from a random generator)
FUNCTIONS = {
    "schur": (jsl.schur, lambda r: [r.standard_normal((4, 4)).astype(np.float32)]),
    "schur_complex": (lambda a: jsl.schur(a, output="complex"),
                      lambda r: [r.standard_normal((4, 4)).astype(np.float32)]),
    "sqrtm": (jsl.sqrtm, lambda r: [(r.standard_normal((4, 4)) + 4 * np.eye(4))
                                    .astype(np.float32)]),
    "hessenberg": (jsl.hessenberg, lambda r: [r.standard_normal((5, 5)).astype(np.float32)]),
    "tridiagonal": (lambda a: lax.linalg.tridiagonal(a + a.T),
                    lambda r: [r.standard_normal((4, 4)).astype(np.float32)]),
    "tridiagonal_solve": (lax.linalg.tridiagonal_solve,
                          lambda r: [r.standard_normal(5).astype(np.float32),
                                     (r.standard_normal(5) + 4).astype(np.float32),
                                     r.standard_normal(5).astype(np.float32),
                                     r.standard_normal((5, 2)).astype(np.float32)]),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_jax_function_lowered_for_cpu(name):
    fn, make = FUNCTIONS[name]
    args = make(np.random.default_rng(3))
    text = jax.jit(fn).lower(*args).as_text(dialect="hlo")
    assert "lapack_" in text
    got = _on_host(dynhlo.compile(text, **GPU), *args)
    _same(got, _leaves(dynhlo.compile(text)(*args)), _leaves(jax.jit(fn)(*args)), name)


@pytest.mark.parametrize("name,fn,shapes", [
    ("schur", jax.vmap(jsl.schur), ["f32[b,3,3]"]),
    ("tridiagonal_solve", lax.linalg.tridiagonal_solve, ["f32[b,5]"] * 3 + ["f32[b,5,2]"]),
])
def test_symbolic_batch(name, fn, shapes):
    """from_jax with a batch b <= 4 at b = 1 and the bound, on the GPU backend."""
    gpu = dynhlo.from_jax(fn, *shapes, bounds={"b": 4}, **GPU)
    rng = np.random.default_rng(4)
    for b in (1, 4):
        args = [rng.standard_normal((b,) + tuple(int(d) for d in s[4:-1].split(",")[1:]))
                .astype(np.float32) for s in shapes]
        if name == "tridiagonal_solve":
            args[1] = args[1] + 4
        cpu = dynhlo.from_jax(fn, *shapes, bounds={"b": 4})
        _same(_on_host(gpu, *args), _leaves(cpu(*args)), _leaves(jax.jit(fn)(*args)),
              f"{name} at b={b}")
