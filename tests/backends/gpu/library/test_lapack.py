"""JAX's LAPACK custom calls (potrf, getrf, geqrf, orgqr, syevd/heevd, trsm) on the GPU
backend's library tier (backends/gpu/library/lapack.py), against the CPU backend and JAX.

Here torch runs them on the CPU device inside Triton's interpreter; on a machine with a GPU
they run on cuSOLVER/cuBLAS:

    python -m pytest -q tests/backends/gpu/library/test_lapack.py

- each target in a module with dynamic batch and matrix dimensions, at sizes 0, 1, a middle
  size and the bound, f32 and f64 (complex where the CPU backend runs it): the same results
  as the CPU's (pivots and info exactly), with no host fallback counted; NaN/inf inputs and
  singular or indefinite matrices give the CPU's info; eigenvectors are unique only up to
  sign (phase), so they are checked by V diag(w) V^H = A and orthonormal columns;
- jnp.linalg / jax.scipy.linalg functions as JAX lowers them for the CPU platform (static
  shapes) and through dynhlo.from_jax (a dynamic size), against JAX's own results.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU  # skips without torch/triton; the interpreter without a GPU
from dynhlo import stats
from tests.ops.test_lapack import call_module

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
jsl = pytest.importorskip("jax.scipy.linalg")

# type -> (LAPACK letter, real part type, numpy dtype, tolerance)
TYPES = {"f32": ("s", "f32", np.float32, 2e-5), "f64": ("d", "f64", np.float64, 1e-11),
         "c64": ("c", "f32", np.complex64, 2e-5), "c128": ("z", "f64", np.complex128, 1e-11)}
# (batch, rows, columns) of each run: 0, 1, a middle size, the bound (3 matrices, 5 x 5)
SIZES = [(0, 5, 5), (2, 0, 0), (1, 1, 1), (3, 3, 3), (3, 5, 5)]


def _config(**chars) -> str:
    return ", ".join(f"{name} = {ord(v)} : ui8" for name, v in sorted(chars.items()))


def _random(rng, shape, dtype) -> np.ndarray:
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _hermitian(rng, shape, dtype) -> np.ndarray:
    """Positive definite Hermitian matrices [..., n, n]."""
    x = _random(rng, shape, dtype)
    return (x @ np.conj(np.swapaxes(x, -1, -2)) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def _on_device(exe, *args, host=False):
    """exe(*args) as NumPy, asserting it counted a host fallback exactly when `host`."""
    before = stats.snapshot().get("gpu_host_fallback", 0)
    out = exe(*args)
    ran_on_host = stats.snapshot().get("gpu_host_fallback", 0) != before
    assert ran_on_host == host, "ran on the host tier" if ran_on_host else "ran on the device"
    out = out if isinstance(out, tuple) else (out,)
    return [np.asarray(o.cpu() if hasattr(o, "cpu") else o) for o in out]


def _same(got, want, tol, where):
    """Results alike: dtype and shape, integers exactly, floats to tol (NaN where NaN)."""
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape, (where, g.dtype, g.shape, w.shape)
        if g.dtype.kind in "iu":
            np.testing.assert_array_equal(g, w, err_msg=where)
        else:
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol, err_msg=where)


@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("t", sorted(TYPES))
def test_potrf(t, uplo):
    """Cholesky factors as the CPU's, the other triangle kept; an indefinite matrix and -inf
    on the diagonal give the CPU's info and the input back; a NaN spreads as on the CPU."""
    k, _, dtype, tol = TYPES[t]
    text = call_module(f"lapack_{k}potrf_ffi", [f"{t}[<=7,<=5,<=5]"], f"({t}[<=7,<=5,<=5], s32[<=7])",
                   _config(uplo=uplo))
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    x = _hermitian(np.random.default_rng(1), (7, 5, 5), dtype)
    x[3, 2, 2] = -40                      # leading minor 3 is not positive definite,
    x[3, 4, 0] = x[3, 0, 4] = np.nan      # before the NaN's row: info 3
    x[4, 3, 1] = x[4, 1, 3] = np.nan      # the CPU's LAPACK carries a NaN on: info 0
    x[5, 1, 1] = -np.inf                  # pivot 2 is -inf
    x[6, 1, 0] = x[6, 0, 1] = np.nan      # NaN pivots from 2 on, and with the NaN zeroed
    x[6, 3, 3] = -40                      # the library stops at 4: info 0
    for batch, n, _ in SIZES + [(7, 2, 2), (7, 5, 5)]:
        args = [x[:batch, :n, :n]]
        where = f"potrf {t} {uplo} at {batch}x{n}"
        got, want = _on_device(gpu, *args), cpu(*args)
        _same(got, want, tol * 10, where)
    np.testing.assert_array_equal(got[1], [0, 0, 0, 3, 0, 2, 0])
    np.testing.assert_array_equal(got[0][[3, 5]], x[[3, 5]])    # info > 0: the input


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_getrf(t):
    """LU, 1-based pivots and info as the CPU's (LAPACK's getrf) on square, tall and wide
    matrices; a zero column gives info at that column; a NaN gives the CPU's info and NaN lu.
    A batch holding a singular matrix takes the host tier (lapack.py's doc)."""
    k, _, dtype, tol = TYPES[t]
    text = call_module(f"lapack_{k}getrf_ffi", [f"{t}[<=4,<=5,<=4]"],
                   f"({t}[<=4,<=5,<=4], s32[<=4,<=4], s32[<=4])")
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    x = _random(np.random.default_rng(2), (4, 5, 4), dtype)
    x[2, :, 1] = 0                        # exactly singular: U[1,1] = 0, info 2
    for batch, m, n in [(0, 5, 4), (1, 0, 0), (1, 1, 1), (3, 3, 3), (3, 5, 4), (3, 2, 4),
                        (3, 5, 2), (2, 5, 4)]:
        args = [x[:batch, :m, :n]]
        host = batch == 3 and m > 1       # holds x[2], singular
        _same(_on_device(gpu, *args, host=host), cpu(*args), tol * 10,
              f"getrf {t} at {batch}x{m}x{n}")
    assert cpu(x[:3])[2][2] == 2
    x[3, 3, 3] = np.nan                   # not singular: on the device
    regular = x[[0, 1, 3], :4]
    lu, _, info = _on_device(gpu, regular, host=False)
    want_lu, _, want_info = cpu(regular)
    np.testing.assert_array_equal(info, want_info)
    assert np.isnan(lu[2]).any() and np.isnan(want_lu[2]).any()
    np.testing.assert_allclose(lu[:2], want_lu[:2], rtol=tol * 10, atol=tol * 10)


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_geqrf_and_orgqr(t):
    """geqrf's Householder vectors and tau (LAPACK's form) and orgqr's Q as the CPU's, in one
    module (geqrf feeding orgqr), tall and square; a NaN stays in its own matrix."""
    k, _, dtype, tol = TYPES[t]
    text = f"""HloModule qr
ENTRY main {{
  a = {t}[<=3,<=6,<=4] parameter(0)
  g = ({t}[<=3,<=6,<=4], {t}[<=3,<=4]) custom-call(a), custom_call_target="lapack_{k}geqrf_ffi", api_version=API_VERSION_TYPED_FFI
  h = {t}[<=3,<=6,<=4] get-tuple-element(g), index=0
  tau = {t}[<=3,<=4] get-tuple-element(g), index=1
  q = {t}[<=3,<=6,<=4] custom-call(h, tau), custom_call_target="lapack_{k}orgqr_ffi", api_version=API_VERSION_TYPED_FFI
  ROOT r = ({t}[<=3,<=6,<=4], {t}[<=3,<=4], {t}[<=3,<=6,<=4]) tuple(h, tau, q)
}}"""
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    x = _random(np.random.default_rng(3), (3, 6, 4), dtype)
    x[1, :, 2] = 0                        # a zero column below the diagonal: tau 0 (H = I)
    for batch, m, n in [(0, 6, 4), (2, 0, 0), (1, 1, 1), (3, 4, 4), (3, 6, 4), (3, 6, 1)]:
        args = [x[:batch, :m, :n]]
        _same(_on_device(gpu, *args), cpu(*args), tol * 10, f"qr {t} at {batch}x{m}x{n}")
    x[2, 0, 0] = np.nan
    got, want = _on_device(gpu, x), cpu(x)
    _same([v[:2] for v in got], [v[:2] for v in want], tol * 10, "qr with a NaN matrix")
    assert all(np.isnan(v[2]).any() for v in got)


def test_geqrf_wide():
    """geqrf of wide matrices (m < n): min(m, n) reflectors, as the CPU's."""
    text = call_module("lapack_dgeqrf_ffi", ["f64[<=2,<=3,<=5]"], "(f64[<=2,<=3,<=5], f64[<=2,<=3])")
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    x = np.random.default_rng(4).standard_normal((2, 3, 5))
    for m, n in [(3, 5), (2, 5), (1, 3)]:
        _same(_on_device(gpu, x[:, :m, :n]), cpu(x[:, :m, :n]), 1e-11, f"geqrf at {m}x{n}")


@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("t", sorted(TYPES))
def test_eigh(t, uplo):
    """Eigenvalues ascending and info as the CPU's; eigenvectors unique only up to sign
    (phase): V diag(w) V^H rebuilds A from the triangle uplo names, V^H V = I. A NaN in that
    triangle gives info 1 and NaN results, as the CPU's; one in the other triangle is never
    read. An infinity takes the host tier (LAPACK converges on it or not, by the data)."""
    k, real, dtype, tol = TYPES[t]
    target = f"lapack_{k}{'syevd' if k in 'sd' else 'heevd'}_ffi"
    text = call_module(target, [f"{t}[<=5,<=5,<=5]"], f"({t}[<=5,<=5,<=5], {real}[<=5,<=5], s32[<=5])",
                   _config(mode="V", uplo=uplo))
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    x = _random(np.random.default_rng(5), (5, 5, 5), dtype)
    x = (x + np.conj(np.swapaxes(x, -1, -2))).astype(dtype)
    read = (3, 1) if uplo == "L" else (1, 3)
    x[3][read] = np.nan
    x[4][read[::-1]] = np.nan             # the triangle not read
    x[2] = np.diag([2.0, 1.0, 2.0, 0.5, 2.0])   # a repeated eigenvalue
    for batch, n, _ in SIZES + [(5, 5, 5)]:
        args = [x[:batch, :n, :n]]
        where = f"eigh {t} {uplo} at {batch}x{n}"
        v, w, info = _on_device(gpu, *args)
        want = cpu(*args)
        _same([w, info], want[1:], tol * 10, where)
        assert v.dtype == want[0].dtype and v.shape == want[0].shape, where
        _eigenpairs(args[0][info == 0], v[info == 0], w[info == 0], uplo, tol * 100, where)
    np.testing.assert_array_equal(info, [0, 0, 0, 1, 0])
    assert np.isnan(w[3]).all() and np.isnan(v[3]).all()
    x[4][read] = np.inf
    before = stats.snapshot().get("gpu_host_fallback", 0)
    _same([np.asarray(o) for o in gpu(x)], cpu(x), tol * 10, f"eigh {t} {uplo} with inf")
    assert stats.snapshot().get("gpu_host_fallback", 0) > before


def _eigenpairs(a, v, w, uplo, tol, where):
    """V diag(w) V^H = A (Hermitian from the triangle uplo names) and V^H V = I."""
    n = a.shape[-1]
    tri = np.tril(np.ones((n, n), bool)) if uplo == "L" else np.triu(np.ones((n, n), bool))
    a = np.where(tri, a, np.conj(np.swapaxes(a, -1, -2)))
    vh = np.conj(np.swapaxes(v, -1, -2))
    np.testing.assert_allclose((v * w[:, None, :]) @ vh, a, rtol=tol, atol=tol, err_msg=where)
    np.testing.assert_allclose(vh @ v, np.broadcast_to(np.eye(n), a.shape), atol=tol,
                               err_msg=where)


TRSM_CASES = [(side, uplo, trans, diag) for side in "LR" for uplo in "LU" for trans in "NTC"
              for diag in "NU"]


@pytest.mark.parametrize("t", sorted(TYPES))
def test_trsm(t):
    """op(a) x = alpha b (side L) and x op(a) = alpha b (side R), every uplo, trans and diag,
    as the CPU's, through the lapack_ and blas_ targets, with and without alpha."""
    k, _, dtype, tol = TYPES[t]
    rng = np.random.default_rng(6)
    a = _random(rng, (3, 4, 4), dtype) + 4 * np.eye(4, dtype=dtype)
    b_left, b_right = _random(rng, (3, 4, 2), dtype), _random(rng, (3, 2, 4), dtype)
    alpha = np.asarray(0.5, dtype)
    for i, (side, uplo, trans, diag) in enumerate(TRSM_CASES):
        bshape = "<=3,<=4,2" if side == "L" else "<=3,2,<=4"
        prefix, extra = ("lapack", [f"{t}[]"]) if i % 2 else ("blas", [])
        text = call_module(f"{prefix}_{k}trsm_ffi", [f"{t}[<=3,<=4,<=4]", f"{t}[{bshape}]"] + extra,
                       f"{t}[{bshape}]", _config(diag=diag, side=side, trans_x=trans, uplo=uplo))
        gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
        b = b_left if side == "L" else b_right
        for batch, n in [(0, 4), (2, 0), (1, 1), (3, 4)]:
            rhs = b[:batch, :n] if side == "L" else b[:batch, :, :n]
            args = [a[:batch, :n, :n], rhs] + [alpha] * bool(extra)
            _same(_on_device(gpu, *args), [cpu(*args)], tol * 10,
                  f"trsm {t} {side}{uplo}{trans}{diag} at {batch}x{n}")


def _spd(a):
    return a @ a.T + a.shape[-1] * np.eye(a.shape[-1], dtype=a.dtype)


def _well(a):
    return a + a.shape[-1] * np.eye(a.shape[-1], dtype=a.dtype)


# name -> (JAX function, input from a random square matrix, eigenvectors among the results)
FUNCTIONS = {
    "cholesky": (jnp.linalg.cholesky, _spd, False),
    "lu": (jsl.lu, lambda a: a, False),
    "lu_factor": (jsl.lu_factor, lambda a: a, False),
    "qr": (jnp.linalg.qr, lambda a: a, False),
    "qr_complete": (lambda a: jnp.linalg.qr(a, mode="complete"), lambda a: a, False),
    "eigh": (jnp.linalg.eigh, lambda a: a + a.T, True),
    "solve": (lambda a: jnp.linalg.solve(a, a[:, :1] + 1), _well, False),
    "solve_triangular": (lambda a: jsl.solve_triangular(a, a.T + 1, lower=True), _well,
                         False),
    "solve_triangular_upper_t": (lambda a: jsl.solve_triangular(a, a, trans=1, lower=False),
                                 _well, False),
    "inv": (jnp.linalg.inv, _well, False),
    "det": (jnp.linalg.det, lambda a: a, False),
    "slogdet": (jnp.linalg.slogdet, lambda a: a, False),
}


def _leaves(out):
    return [np.asarray(o.cpu() if hasattr(o, "cpu") else o)
            for o in jax.tree_util.tree_leaves(out)]


def _check_function(name, got, cpu, want, a, where):
    """The device's results as the CPU backend's and JAX's; eigh by eigenvalues and
    eigenpairs (eigenvectors are unique only up to sign)."""
    tol = 2e-4
    if FUNCTIONS[name][2]:
        (w, v), (cpu_w, _), (jax_w, _) = got, cpu, want
        np.testing.assert_allclose(w, cpu_w, rtol=tol, atol=tol, err_msg=where)
        np.testing.assert_allclose(w, jax_w, rtol=tol, atol=tol, err_msg=where)
        _eigenpairs(a[None], v[None], w[None], "L", 1e-3 * max(1, np.abs(w).max(initial=0)),
                    where)
        return
    _same(got, cpu, tol, where + " (cpu)")
    _same(got, [np.asarray(w) for w in want], tol, where + " (jax)")


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_jax_function_lowered_for_cpu(name):
    """JAX's CPU lowering (static shapes) at sizes 0, 1, a middle size and 6, on the device
    with no host fallback, against the CPU backend and JAX."""
    fn, make, _ = FUNCTIONS[name]
    rng = np.random.default_rng(7)
    for n in (0, 1, 4, 6):   # det: JAX writes sizes 2 and 3 in closed form
        a = make(rng.standard_normal((n, n)).astype(np.float32))
        text = jax.jit(fn).trace(a).lower(lowering_platforms=("cpu",)).as_text(dialect="hlo")
        assert "_ffi" in text or n < 2, name  # JAX folds sizes 0 (and 1 for det) away
        cpu = dynhlo.compile(text)(a)
        got = _on_device(dynhlo.compile(text, **GPU), a)
        _check_function(name, got, list(cpu) if isinstance(cpu, tuple) else [cpu],
                        _leaves(fn(a)), a, f"{name} at {n}")


# The functions whose JAX export with a symbolic size dynhlo's StableHLO import takes (the
# others gather LU's permutation with a batch of windows, which the import refuses).
FROM_JAX = ["cholesky", "qr", "qr_complete", "eigh", "solve_triangular",
            "solve_triangular_upper_t", "slogdet", "det", "lu_factor"]


@pytest.mark.parametrize("name", FROM_JAX)
def test_jax_function_with_a_dynamic_size(name):
    """dynhlo.from_jax with a symbolic n <= 6: one executable at sizes 1, 4 and 6 (JAX's
    symbolic sizes start at 1), on the device with no host fallback, against the CPU backend
    and JAX."""
    fn, make, _ = FUNCTIONS[name]
    gpu = dynhlo.from_jax(fn, "f32[n,n]", bounds={"n": 6}, **GPU)
    cpu = dynhlo.from_jax(fn, "f32[n,n]", bounds={"n": 6})
    rng = np.random.default_rng(8)
    for n in (1, 4, 6):
        a = make(rng.standard_normal((n, n)).astype(np.float32))
        _check_function(name, _on_device(gpu, a), _leaves(cpu(a)), _leaves(fn(a)), a,
                        f"{name} at {n} of <= 6")
