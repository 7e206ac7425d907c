"""JAX's CPU LAPACK calls for schur, sqrtm, hessenberg, tridiagonal and tridiagonal_solve
(lapack_*gees_ffi, *gehrd_ffi, *sytrd_ffi/*hetrd_ffi, *gtsv_ffi) on the CPU backend.

- the JAX functions lowered for the CPU (f32, c64: JAX without x64), compiled by dynhlo,
  against JAX's own outputs: jaxlib calls the same LAPACK (SciPy's), so Schur vectors and
  reflectors are compared directly, with a tolerance, and by what defines them too
  (A = Z T Z^H, Z unitary; Q H Q^H = A; T's eigenvalues are A's; the dense system solved);
- f64 and c128 modules written by hand against SciPy's schur/hessenberg and NumPy;
- a bounded-dynamic batch (<=4) at sizes 0, 1 and the bound, equal to the static module
  matrix by matrix; `dynhlo.from_jax` with a symbolic batch (and a symbolic system size for
  tridiagonal_solve) against JAX;
- gehrd with low/high inside the matrix, gtsv of a singular system, of one row and with no
  right-hand side, gees without Schur vectors;
- malformed calls: HloVerifyError naming the instruction; gees with sort: UnsupportedError.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.ops.test_lapack import call_module

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
jsl = pytest.importorskip("jax.scipy.linalg")
scipy_linalg = pytest.importorskip("scipy.linalg")
lax = jax.lax

GEES = "mode = 86 : ui8, sort = 78 : ui8"
TOL = {np.float32: 2e-5, np.complex64: 2e-5, np.float64: 1e-12, np.complex128: 1e-12}


def _random(rng, shape, dtype) -> np.ndarray:
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _h(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _tol(dtype) -> float:
    return TOL[np.dtype(dtype).type]


def _listed(x) -> list:
    return list(x) if isinstance(x, (tuple, list)) else [x]


def _against_jax(fn, *args) -> list:
    """fn lowered by JAX for the CPU and run by dynhlo; asserts every result matches JAX's
    (same shapes and dtypes); returns dynhlo's results."""
    text = jax.jit(fn).lower(*args).as_text(dialect="hlo")
    got = _listed(dynhlo.compile(text)(*args))
    want = [np.asarray(w) for w in _listed(jax.jit(fn)(*args))]
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        np.testing.assert_allclose(g, w, rtol=_tol(w.dtype), atol=_tol(w.dtype))
    return got


def _check_schur(a, t, z, complex_form: bool):
    tol = 10 * _tol(a.dtype) * max(1.0, float(np.abs(a).max()))
    np.testing.assert_allclose(z @ t @ _h(z), a, atol=tol)
    eye = np.broadcast_to(np.eye(a.shape[-1]), a.shape)
    np.testing.assert_allclose(_h(z) @ z, eye, atol=tol)
    # quasi-triangular: nothing below the subdiagonal; triangular for the complex form
    np.testing.assert_array_equal(np.tril(t, -1 if complex_form else -2), 0)


# --- JAX's functions, against JAX -----------------------------------------------------------

@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3), (1, 1)])
@pytest.mark.parametrize("dtype,output", [(np.float32, "real"), (np.float32, "complex"),
                                          (np.complex64, "complex")])
def test_schur(shape, dtype, output):
    a = _random(np.random.default_rng(len(shape)), shape, dtype)
    fn = jax.vmap(lambda x: jsl.schur(x, output=output)) if len(shape) > 2 else \
        (lambda x: jsl.schur(x, output=output))
    t, z = _against_jax(fn, a)
    _check_schur(a.astype(t.dtype), t, z, output == "complex")


def test_schur_without_vectors_gives_the_same_form():
    a = _random(np.random.default_rng(5), (5, 5), np.float32)
    (t,) = _against_jax(lambda x: lax.linalg.schur(x, compute_schur_vectors=False), a)
    np.testing.assert_array_equal(t, _against_jax(jsl.schur, a)[0])


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_sqrtm(dtype):
    rng = np.random.default_rng(2)
    a = _random(rng, (4, 4), dtype) + 4 * np.eye(4, dtype=dtype)
    (root,) = _against_jax(jsl.sqrtm, a)
    np.testing.assert_allclose(root @ root, a, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
@pytest.mark.parametrize("shape", [(5, 5), (1, 1)])
def test_hessenberg(shape, dtype):
    a = _random(np.random.default_rng(3), shape, dtype)
    (h,) = _against_jax(jsl.hessenberg, a)
    np.testing.assert_array_equal(np.tril(h, -2), 0)
    if dtype == np.float32:   # calc_q's orgqr (ungqr for complex is not this file's)
        h, q = _against_jax(lambda x: jsl.hessenberg(x, calc_q=True), a)
        np.testing.assert_allclose(q @ h @ _h(q), a, atol=1e-4)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
@pytest.mark.parametrize("lower", [True, False])
def test_tridiagonal(dtype, lower):
    x = _random(np.random.default_rng(4), (2, 5, 5), dtype)
    a = x + _h(x)
    arr, d, e, tau = _against_jax(jax.vmap(lambda m: lax.linalg.tridiagonal(m, lower=lower)),
                                  a)
    assert d.dtype == e.dtype == np.float32 and tau.dtype == dtype
    for b in range(2):   # T = tridiag(e, d, e) is similar to A
        t = np.diag(d[b]) + np.diag(e[b], 1) + np.diag(e[b], -1)
        np.testing.assert_allclose(np.linalg.eigvalsh(t), np.linalg.eigvalsh(a[b]),
                                   rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
@pytest.mark.parametrize("batch", [(), (3,)])
def test_tridiagonal_solve(dtype, batch):
    rng = np.random.default_rng(6)
    dl, d, du = (_random(rng, batch + (6,), dtype) for _ in range(3))
    d = d + 4   # diagonally dominant
    b = _random(rng, batch + (6, 2), dtype)
    (x,) = _against_jax(lax.linalg.tridiagonal_solve, dl, d, du, b)
    dense = (np.apply_along_axis(np.diag, -1, d) + np.apply_along_axis(np.diag, -1, dl[..., 1:],
             -1) + np.apply_along_axis(np.diag, -1, du[..., :-1], 1))
    np.testing.assert_allclose(x, np.linalg.solve(dense, b), rtol=1e-4, atol=1e-4)


# --- f64 / c128 modules by hand ------------------------------------------------------------

def _schur_module(t, k, batch=""):
    real = k in "sd"
    eig = f"{t}[{batch}4], {t}[{batch}4], " if real else f"{t}[{batch}4], "
    ints = f"s32[{batch[:-1]}]"
    return call_module(f"lapack_{k}gees_ffi", [f"{t}[{batch}4,4]"],
                       f"({t}[{batch}4,4], {t}[{batch}4,4], {eig}{ints}, {ints})", GEES)


@pytest.mark.parametrize("t,k,dtype", [("f64", "d", np.float64), ("c128", "z", np.complex128)])
def test_gees_f64_c128_against_scipy(t, k, dtype):
    a = _random(np.random.default_rng(7), (4, 4), dtype)
    t_, z, *eig, sdim, info = dynhlo.compile(_schur_module(t, k))(a)
    want_t, want_z = scipy_linalg.schur(a)
    np.testing.assert_allclose(t_, want_t, atol=1e-12)
    np.testing.assert_allclose(z, want_z, atol=1e-12)
    _check_schur(a, t_, z, k == "z")
    w = eig[0] + 1j * eig[1] if k == "d" else eig[0]
    np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(np.linalg.eigvals(a)),
                               atol=1e-10)
    assert sdim == 0 and info == 0


def test_gees_without_vectors_leaves_zeros():
    a = _random(np.random.default_rng(8), (4, 4), np.float64)
    text = _schur_module("f64", "d").replace("mode = 86", "mode = 78")
    t, z, *_ = dynhlo.compile(text)(a)
    np.testing.assert_allclose(t, scipy_linalg.schur(a)[0], atol=1e-12)
    np.testing.assert_array_equal(z, 0)


def _gehrd_q(h, tau, low, high):
    """Q = H(low) ... H(high-1) from gehrd's reflectors (LAPACK's storage, 1-based low/high)."""
    n = h.shape[-1]
    q = np.eye(n, dtype=h.dtype)
    for i in range(low - 1, high - 1):
        v = np.zeros(n, h.dtype)
        v[i + 1], v[i + 2:high] = 1, h[i + 2:high, i]
        q = q @ (np.eye(n) - tau[i] * np.outer(v, np.conj(v)))
    return q


@pytest.mark.parametrize("t,k,dtype", [("f64", "d", np.float64), ("c128", "z", np.complex128)])
@pytest.mark.parametrize("low,high", [(1, 5), (2, 4), (1, 1)])
def test_gehrd_low_high(t, k, dtype, low, high):
    """gehrd reduces rows and columns low..high only (A already triangular outside them);
    Q H Q^H = A with Q built from the reflectors by hand, tau zero outside low..high-1."""
    a = np.triu(_random(np.random.default_rng(9), (5, 5), dtype))
    a[low - 1:high, low - 1:high] = _random(np.random.default_rng(1), (high - low + 1,) * 2,
                                            dtype)
    text = call_module(f"lapack_{k}gehrd_ffi", [f"{t}[5,5]"], f"({t}[5,5], {t}[4], s32[])",
                       f"high = {high} : i32, low = {low} : i32")
    out, tau, info = dynhlo.compile(text)(a)
    assert info == 0
    np.testing.assert_array_equal(tau[:low - 1], 0)
    np.testing.assert_array_equal(tau[max(high - 1, 0):], 0)
    hess = np.triu(out, -1)
    q = _gehrd_q(out, tau, low, high)
    np.testing.assert_allclose(q @ hess @ _h(q), a, atol=1e-12)
    if (low, high) == (1, 5):
        np.testing.assert_allclose(hess, scipy_linalg.hessenberg(a), atol=1e-12)


@pytest.mark.parametrize("t,k,r", [("f64", "dsytrd", "f64"), ("c128", "zhetrd", "f64")])
def test_sytrd_hetrd_f64(t, k, r):
    dtype = np.float64 if t == "f64" else np.complex128
    x = _random(np.random.default_rng(10), (4, 4), dtype)
    a = x + _h(x)
    text = call_module(f"lapack_{k}_ffi", [f"{t}[4,4]"],
                       f"({t}[4,4], {r}[4], {r}[3], {t}[3], s32[])", "uplo = 85 : ui8")
    _, d, e, _, info = dynhlo.compile(text)(a)
    assert info == 0
    tri = np.diag(d) + np.diag(e, 1) + np.diag(e, -1)
    np.testing.assert_allclose(np.linalg.eigvalsh(tri), np.linalg.eigvalsh(a), atol=1e-12)


def _gtsv_module(t, m, k, batch=""):
    vec = f"{t}[{batch}{m}]"
    return call_module(f"lapack_{'d' if t == 'f64' else 'z'}gtsv_ffi",
                       [vec, vec, vec, f"{t}[{batch}{m},{k}]"],
                       f"({vec}, {vec}, {vec}, {t}[{batch}{m},{k}], s32[{batch[:-1]}])")


def test_gtsv_singular_one_row_and_no_rhs():
    run = dynhlo.compile(_gtsv_module("f64", 3, 1))
    # a zero pivot at the second row: info 2 (LAPACK's U(2,2) = 0)
    dl, d, du = np.array([9.0, 1, 0]), np.array([1.0, 1, 1]), np.array([1.0, 0, 9])
    _, factor, *_, info = run(dl, d, du, np.ones((3, 1)))
    assert info == 2
    # dl[0] and du[-1] are outside the matrix: they stay, whatever they hold
    out_dl, out_d, out_du, x, info = run(np.array([7.0, 1, 1]), np.array([4.0, 4, 4]),
                                         np.array([1.0, 1, 5]), np.ones((3, 1)))
    assert info == 0 and out_dl[0] == 7 and out_du[-1] == 5
    dense = np.diag([4.0, 4, 4]) + np.diag([1.0, 1], 1) + np.diag([1.0, 1], -1)
    np.testing.assert_allclose(x, np.linalg.solve(dense, np.ones((3, 1))), atol=1e-14)
    one = dynhlo.compile(_gtsv_module("c128", 1, 2))
    *_, x, info = one(np.ones(1, complex), np.array([2j]), np.ones(1, complex),
                      np.array([[4.0, 2j]], complex))
    np.testing.assert_allclose(x, [[-2j, 1]])
    assert info == 0
    *_, x, info = one(np.ones(1, complex), np.zeros(1, complex), np.ones(1, complex),
                      np.array([[4.0, 2j]], complex))
    assert info == 1
    np.testing.assert_array_equal(x, [[4.0, 2j]])   # not solved: b as given
    _, d_out, _, x, info = dynhlo.compile(_gtsv_module("f64", 3, 0))(dl, d, du,
                                                                     np.ones((3, 0)))
    assert x.shape == (3, 0) and info == 2
    np.testing.assert_array_equal(d_out, factor)   # LAPACK's factors, with or without b


# --- bounded-dynamic batch ------------------------------------------------------------------

DYNAMIC = [
    ("gees_s", lambda b: _schur_module("f32", "s", b), [((4, 4), np.float32)]),
    ("gees_c", lambda b: _schur_module("c64", "c", b), [((4, 4), np.complex64)]),
    ("gehrd_d", lambda b: call_module("lapack_dgehrd_ffi", [f"f64[{b}4,4]"],
                                      f"(f64[{b}4,4], f64[{b}3], s32[{b[:-1]}])",
                                      "high = 4 : i32, low = 1 : i32"),
     [((4, 4), np.float64)]),
    ("hetrd_z", lambda b: call_module("lapack_zhetrd_ffi", [f"c128[{b}4,4]"],
                                      f"(c128[{b}4,4], f64[{b}4], f64[{b}3], c128[{b}3], "
                                      f"s32[{b[:-1]}])", "uplo = 76 : ui8"),
     [((4, 4), np.complex128)]),
    ("gtsv_d", lambda b: _gtsv_module("f64", 5, 2, b),
     [((5,), np.float64)] * 3 + [((5, 2), np.float64)]),
]


@pytest.mark.parametrize("n", [0, 1, 4])
@pytest.mark.parametrize("name,module,operands", DYNAMIC, ids=[c[0] for c in DYNAMIC])
def test_dynamic_batch_equals_static_per_matrix(name, module, operands, n):
    rng = np.random.default_rng(n)
    args = [_random(rng, (n,) + shape, dtype) for shape, dtype in operands]
    if name.startswith("gtsv"):
        args[1] = args[1] + 4
    got = dynhlo.compile(module("<=4,"))(*args)
    static = dynhlo.compile(module(""))
    assert all(g.shape[:1] == (n,) for g in got)
    np.testing.assert_array_equal(got[-1], np.zeros(n, np.int32))   # info
    for b in range(n):
        for g, w in zip(got, static(*[a[b] for a in args]), strict=True):
            np.testing.assert_array_equal(g[b], w)


# --- from_jax: symbolic sizes ---------------------------------------------------------------

FROM_JAX = [
    ("schur", jax.vmap(jsl.schur), ["f32[b,3,3]"]),
    ("sqrtm", jax.vmap(jsl.sqrtm), ["f32[b,3,3]"]),
    ("hessenberg", jax.vmap(jsl.hessenberg), ["c64[b,4,4]"]),
    ("tridiagonal", jax.vmap(lambda a: lax.linalg.tridiagonal(a + a.T)), ["f32[b,4,4]"]),
    ("tridiagonal_solve", lax.linalg.tridiagonal_solve, ["f32[b,5]"] * 3 + ["f32[b,5,2]"]),
]


@pytest.mark.parametrize("name,fn,shapes", FROM_JAX, ids=[c[0] for c in FROM_JAX])
def test_from_jax_symbolic_batch(name, fn, shapes):
    """One export serves every batch size up to the bound (JAX's export asks b >= 1)."""
    exe = dynhlo.from_jax(fn, *shapes, bounds={"b": 4})
    rng = np.random.default_rng(11)
    for b in (1, 3, 4):
        args = [_random(rng, (b,) + tuple(int(d) for d in s[4:-1].split(",")[1:]),
                        np.complex64 if s.startswith("c64") else np.float32) for s in shapes]
        got, want = _listed(exe(*args)), _listed(jax.jit(fn)(*args))
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g, np.asarray(w), rtol=1e-5, atol=1e-5)


def test_from_jax_tridiagonal_solve_of_symbolic_size():
    """The system's size itself symbolic: m = 1 (LAPACK's one-row division), 2 and 6."""
    fn = lax.linalg.tridiagonal_solve
    exe = dynhlo.from_jax(fn, "f32[m]", "f32[m]", "f32[m]", "f32[m,3]", bounds={"m": 6})
    rng = np.random.default_rng(12)
    for m in (1, 2, 6):
        dl, d, du = (rng.standard_normal(m).astype(np.float32) for _ in range(3))
        b = rng.standard_normal((m, 3)).astype(np.float32)
        np.testing.assert_allclose(exe(dl, d + 4, du, b), jax.jit(fn)(dl, d + 4, du, b),
                                   rtol=1e-5, atol=1e-5)


# --- malformed calls ------------------------------------------------------------------------

BAD = [
    ("lapack_sgees_ffi", ["f32[3,3]"], "(f32[3,3], f32[3,3], f32[3], s32[], s32[])", GEES,
     "element types"),
    ("lapack_sgees_ffi", ["f64[3,3]"], "(f64[3,3], f64[3,3], f64[3], f64[3], s32[], s32[])",
     GEES, "takes f32 arrays"),
    ("lapack_cgees_ffi", ["c64[3,4]"], "(c64[3,4], c64[3,4], c64[3], s32[], s32[])", GEES,
     "square"),
    ("lapack_zgees_ffi", ["c128[3]"], "(c128[3], c128[3], c128[3], s32[], s32[])", GEES,
     "rank >= 2"),
    ("lapack_dgees_ffi", ["f64[3,3]"], "(f64[3,3], f64[3,3], f64[3], f64[3], s32[], s32[])",
     "mode = 86 : ui8", "sort"),
    ("lapack_dgees_ffi", ["f64[3,3]"], "(f64[3,3], f64[3,3], f64[4], f64[3], s32[], s32[])",
     GEES, "declared f64"),
    # a value past a ui8 is no char (chr() of it raised ValueError)
    ("lapack_sgees_ffi", ["f32[3,3]"], "(f32[3,3], f32[3,3], f32[3], f32[3], s32[], s32[])",
     "mode = 99999999 : ui8, sort = 78 : ui8", "mode"),
    ("lapack_sgehrd_ffi", ["f32[3,3]"], "(f32[3,3], f32[2], s32[])",
     "high = 4 : i32, low = 1 : i32", "low = 1, high = 4"),
    ("lapack_sgehrd_ffi", ["f32[3,3]"], "(f32[3,3], f32[2], s32[])", "low = 1 : i32",
     "low and high"),
    ("lapack_cgehrd_ffi", ["c64[3,3]", "c64[3,3]"], "(c64[3,3], c64[2], s32[])",
     "high = 3 : i32, low = 1 : i32", "1 operand"),
    ("lapack_chetrd_ffi", ["c64[3,3]"], "(c64[3,3], c64[3], f32[2], c64[2], s32[])",
     "uplo = 76 : ui8", "element types"),
    ("lapack_ssytrd_ffi", ["f32[3,3]"], "(f32[3,3], f32[3], f32[2], f32[2], s32[])",
     "uplo = 77 : ui8", "uplo"),
    ("lapack_sgtsv_ffi", ["f32[4]", "f32[4]", "f32[5]", "f32[4,2]"],
     "(f32[4], f32[4], f32[5], f32[4,2], s32[])", "", "du is f32"),
    ("lapack_sgtsv_ffi", ["f32[4]"] * 4, "(f32[4], f32[4], f32[4], f32[4], s32[])", "",
     "rank >= 2"),
    ("lapack_sgtsv_ffi", ["f32[4]"] * 3, "(f32[4], f32[4], f32[4], s32[])", "", "4 operand"),
    ("lapack_sgtsv_ffi", ["f32[4]"] * 3 + ["f32[4,2]"],
     "(f32[4], f32[4], f32[4], f32[4,2], s32[4])", "", "declared s32"),
]


@pytest.mark.parametrize("target,operands,result,config,match", BAD)
def test_malformed_call_is_a_verify_error(target, operands, result, config, match):
    with pytest.raises(dynhlo.HloVerifyError, match=match) as caught:
        dynhlo.compile(call_module(target, operands, result, config))
    assert "instruction 'c'" in str(caught.value)


def test_gees_sort_is_unsupported():
    text = call_module("lapack_sgees_ffi", ["f32[3,3]"],
                       "(f32[3,3], f32[3,3], f32[3], f32[3], s32[], s32[])",
                       "mode = 86 : ui8, sort = 83 : ui8")
    with pytest.raises(dynhlo.UnsupportedError, match="custom-call 'c'.*sort"):
        dynhlo.compile(text)
