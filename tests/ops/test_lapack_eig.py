"""JAX's nonsymmetric eigendecomposition (`lapack_*geev_ffi`) and complex QR
(`lapack_{c,z}geqrf_ffi`, `lapack_{c,z}ungqr_ffi`) on the CPU backend.

- jnp.linalg.eig / eigvals / qr (both modes) and lax.linalg.eig with left eigenvectors, as JAX
  lowers them for the CPU, against JAX's own outputs: eigenvalues directly (the same LAPACK
  algorithm gives the same order), eigenvectors by A v = w v (u^H A = w u^H on the left) and
  against JAX's after normalising each one's phase; a matrix holding a NaN gives NaN results
  in its own place only, as in JAX;
- f64/c128 calls (JAX here runs without x64) against numpy.linalg.eig and numpy.linalg.qr;
- a bounded-dynamic batch at 0, 1 and the bound, and dynamic matrix sizes, matrix by matrix
  as a static module; dynhlo.from_jax with a symbolic batch and a symbolic matrix size;
- cuSOLVER's complex geqrf/orgqr (run as LAPACK's geqrf/ungqr);
- malformed calls: HloVerifyError naming the instruction; a non-square or k > n <= m size at
  run time: DynamicSizeError.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.ops.test_lapack import call_module

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

TOL = {np.dtype(np.complex64): 2e-4, np.dtype(np.complex128): 1e-10}
MODES = "compute_left = {} : ui8, compute_right = {} : ui8"


def _random(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _with_pairs(rng, batch, n, dtype):
    """Real matrices whose eigenvalues include complex-conjugate pairs (a rotation block)."""
    a = _random(rng, batch + (n, n), dtype)
    a[..., :2, :2] += 4 * np.array([[0, 1], [-1, 0]], dtype)
    return a


def _phase_normalised(v):
    """Each column divided by the phase of its largest-magnitude entry."""
    k = np.argmax(np.abs(v), axis=-2)[..., None, :]
    top = np.take_along_axis(v, k, axis=-2)
    return v * np.where(top == 0, 1, np.conj(top) / np.abs(top))


def _h(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _check_eigenvectors(a, w, v, want_v, tol, where, left=False):
    """A v = w v (columns; u^H A = w u^H where left), unit columns, and the wanted vectors
    (JAX's; None: none) up to each one's phase."""
    scale = tol * max(1.0, float(np.abs(a).max(initial=0)))
    if left:
        np.testing.assert_allclose(_h(v) @ a, w[..., :, None] * _h(v), atol=scale,
                                   err_msg=where)
    else:
        np.testing.assert_allclose(a @ v, v * w[..., None, :], atol=scale, err_msg=where)
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), np.ones(w.shape), atol=scale,
                               err_msg=where)
    if want_v is not None:
        np.testing.assert_allclose(_phase_normalised(v), _phase_normalised(want_v), atol=scale,
                                   err_msg=where)


def _lowered(fn, x):
    text = jax.jit(fn).trace(x).lower(lowering_platforms=("cpu",)).as_text(dialect="hlo")
    return text, dynhlo.compile(text)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (1, 6, 6)])
@pytest.mark.parametrize("dtype", [np.float32, np.complex64])  # JAX without x64: 32-bit
def test_eig_as_jax(shape, dtype):
    a = _with_pairs(np.random.default_rng(len(shape)), shape[:-2], shape[-1], dtype)
    text, exe = _lowered(jnp.linalg.eig, a)
    assert f"lapack_{'s' if dtype == np.float32 else 'c'}geev_ffi" in text
    w, v = exe(a)
    want_w, want_v = (np.asarray(r) for r in jnp.linalg.eig(a))
    assert w.dtype == want_w.dtype == v.dtype and v.shape == a.shape
    tol = TOL[w.dtype]
    np.testing.assert_allclose(w, want_w, rtol=tol, atol=tol)
    assert (np.abs(w.imag) > 1).any()   # conjugate pairs met
    _check_eigenvectors(a.astype(v.dtype), w, v, want_v, tol, f"eig {dtype.__name__} {shape}")
    np.testing.assert_allclose(exe(a)[0], w)  # deterministic


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_eigvals_and_left_eigenvectors_as_jax(dtype):
    a = _with_pairs(np.random.default_rng(3), (2,), 5, dtype)
    text, exe = _lowered(jnp.linalg.eigvals, a)
    assert "compute_left = 78 : ui8, compute_right = 78 : ui8" in text
    np.testing.assert_allclose(exe(a), jnp.linalg.eigvals(a), rtol=2e-4, atol=2e-4)

    def both(x):
        return jax.lax.linalg.eig(x, compute_left_eigenvectors=True,
                                  compute_right_eigenvectors=True)
    text, exe = _lowered(both, a)
    assert "compute_left = 86 : ui8, compute_right = 86 : ui8" in text
    w, vl, vr = exe(a)
    want_w, want_vl, want_vr = (np.asarray(r) for r in both(a))
    np.testing.assert_allclose(w, want_w, rtol=2e-4, atol=2e-4)
    c = a.astype(vl.dtype)
    _check_eigenvectors(c, w, vl, want_vl, 2e-4, "left", left=True)
    _check_eigenvectors(c, w, vr, want_vr, 2e-4, "right")


def test_eig_nan_matrix_is_nan_in_its_own_place():
    """jaxlib hands no matrix holding a non-finite value to LAPACK (info -4); JAX turns its
    results into NaN. The other matrices of the batch keep their eigenpairs."""
    a = _with_pairs(np.random.default_rng(4), (3,), 4, np.float32)
    a[1, 2, 3] = np.nan
    a[2, 0, 0] = np.inf
    _, exe = _lowered(jnp.linalg.eig, a)
    w, v = exe(a)
    want_w, want_v = (np.asarray(r) for r in jnp.linalg.eig(a))
    assert np.isnan(w[1:]).all() and np.isnan(v[1:]).all()
    assert np.isnan(want_w[1:]).all() and np.isnan(want_v[1:]).all()
    np.testing.assert_allclose(w[0], want_w[0], rtol=2e-4, atol=2e-4)


def test_geev_info_and_vectors_not_asked_for():
    """The raw call: info 0 and -4 (a NaN), eigenvectors not asked for are zeros, the real
    call's (wr, wi) as numpy.linalg.eig's eigenvalues, in f64."""
    text = call_module("lapack_dgeev_ffi", ["f64[2,3,3]"],
                       "(f64[2,3], f64[2,3], c128[2,3,3], c128[2,3,3], s32[2])",
                       MODES.format(78, 86))
    a = _with_pairs(np.random.default_rng(5), (2,), 3, np.float64)
    a[1, 0, 1] = np.nan
    wr, wi, vl, vr, info = dynhlo.compile(text)(a)
    np.testing.assert_array_equal(info, [0, -4])
    np.testing.assert_array_equal(vl[0], np.zeros_like(vl[0]))
    want_w, want_v = np.linalg.eig(a[0])
    np.testing.assert_allclose(wr[0] + 1j * wi[0], want_w, rtol=1e-12, atol=1e-12)
    _check_eigenvectors(a[0], want_w, vr[0], want_v, 1e-12, "dgeev")
    assert np.isnan(wr[1]).all() and np.isnan(vr[1]).all() and np.isnan(vl[1]).all()


def test_zgeev_against_numpy():
    text = call_module("lapack_zgeev_ffi", ["c128[4,4]"],
                       "(c128[4], c128[4,4], c128[4,4], s32[])", MODES.format(86, 86))
    a = _random(np.random.default_rng(6), (4, 4), np.complex128)
    w, vl, vr, info = dynhlo.compile(text)(a)
    want_w, want_v = np.linalg.eig(a)
    assert info == 0
    np.testing.assert_allclose(w, want_w, rtol=1e-12, atol=1e-12)
    _check_eigenvectors(a, w, vr, want_v, 1e-12, "zgeev")
    _check_eigenvectors(a, w, vl, None, 1e-12, "zgeev left", left=True)


@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_complex_qr_as_jax(mode, shape):
    a = _random(np.random.default_rng(7), shape, np.complex64)
    fn = lambda x: jnp.linalg.qr(x, mode=mode)  # noqa: E731
    text, exe = _lowered(fn, a)
    assert "lapack_cgeqrf_ffi" in text and ("lapack_cungqr_ffi" in text) == (mode != "r")
    got = exe(a)
    got, want = (r if isinstance(r, tuple) else (r,) for r in (got, fn(a)))
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
    if mode != "r":
        q, r = got
        np.testing.assert_allclose(q @ r, a, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("m,n", [(5, 3), (3, 5), (4, 4)])
def test_zgeqrf_and_zungqr_against_numpy(m, n):
    """numpy.linalg.qr's 'raw' mode is LAPACK's geqrf output (transposed); 'reduced' is Q."""
    k = min(m, n)
    geqrf = call_module("lapack_zgeqrf_ffi", [f"c128[{m},{n}]"], f"(c128[{m},{n}], c128[{k}])")
    a = _random(np.random.default_rng(m + n), (m, n), np.complex128)
    h, tau = dynhlo.compile(geqrf)(a)
    want_h, want_tau = np.linalg.qr(a, mode="raw")
    np.testing.assert_allclose(h, want_h.T, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tau, want_tau, rtol=1e-12, atol=1e-12)
    h = h[:, :k]   # JAX's reduced Q of a wide matrix: the first m columns
    ungqr = call_module("lapack_zungqr_ffi", [f"c128[{m},{k}]", f"c128[{k}]"], f"c128[{m},{k}]")
    q = dynhlo.compile(ungqr)(h, tau)
    np.testing.assert_allclose(q, np.linalg.qr(a, mode="reduced")[0], rtol=1e-12, atol=1e-12)


# target, operand dims per matrix, results as (type, dims), backend_config
BATCHED = [
    ("lapack_sgeev_ffi", "f32", [(3, 3)], [("f32", (3,)), ("f32", (3,)), ("c64", (3, 3)),
                                           ("c64", (3, 3)), ("s32", ())], MODES.format(86, 86)),
    ("lapack_zgeev_ffi", "c128", [(3, 3)], [("c128", (3,)), ("c128", (3, 3)),
                                            ("c128", (3, 3)), ("s32", ())], MODES.format(86, 86)),
    ("lapack_cgeqrf_ffi", "c64", [(4, 3)], [("c64", (4, 3)), ("c64", (3,))], ""),
    ("lapack_zungqr_ffi", "c128", [(4, 3), (2,)], [("c128", (4, 3))], ""),
]


def _shape(t, dims, batch):
    return f"{t}[{','.join([batch] * bool(batch) + [str(d) for d in dims])}]"


def _batched_module(target, t, operands, results, config, batch):
    res = [_shape(rt, d, batch) for rt, d in results]
    return call_module(target, [_shape(t, d, batch) for d in operands],
                       res[0] if len(res) == 1 else f"({', '.join(res)})", config)


@pytest.mark.parametrize("b", [0, 1, 4])
@pytest.mark.parametrize("target,t,operands,results,config", BATCHED,
                         ids=[c[0] for c in BATCHED])
def test_dynamic_batch_equals_static_per_matrix(target, t, operands, results, config, b):
    dyn = dynhlo.compile(_batched_module(target, t, operands, results, config, "<=4"))
    static = dynhlo.compile(_batched_module(target, t, operands, results, config, ""))
    rng = np.random.default_rng(b)
    dtype = np.complex128 if t == "c128" else np.complex64 if t == "c64" else np.float32
    args = [_random(rng, (b,) + d, dtype) for d in operands]
    got = dyn(*args)
    got = got if isinstance(got, tuple) else (got,)
    assert [g.shape for g in got] == [(b,) + d for _, d in results]
    for i in range(b):
        want = static(*[x[i] for x in args])
        for g, w in zip(got, want if isinstance(want, tuple) else (want,), strict=True):
            np.testing.assert_array_equal(g[i], w)


def test_dynamic_matrix_sizes():
    """geev of an n x n matrix of <= 4 at every n, as the static module of that n; a
    non-square size at run time is a DynamicSizeError naming the instruction."""
    config = MODES.format(86, 86)
    dyn = dynhlo.compile(call_module("lapack_cgeev_ffi", ["c64[<=4,<=4]"],
                                     "(c64[<=4], c64[<=4,<=4], c64[<=4,<=4], s32[])", config))
    a = _random(np.random.default_rng(8), (4, 4), np.complex64)
    for n in range(5):
        static = dynhlo.compile(call_module("lapack_cgeev_ffi", [f"c64[{n},{n}]"],
                                            f"(c64[{n}], c64[{n},{n}], c64[{n},{n}], s32[])",
                                            config))
        for g, w in zip(dyn(a[:n, :n]), static(a[:n, :n]), strict=True):
            np.testing.assert_array_equal(g, w)
    with pytest.raises(dynhlo.DynamicSizeError, match="'c'.*3 x 4"):
        dyn(a[:3])


def test_ungqr_sizes_checked_at_run_time():
    text = call_module("lapack_cungqr_ffi", ["c64[<=4,<=4]", "c64[<=4]"], "c64[<=4,<=4]")
    exe = dynhlo.compile(text)
    a = _random(np.random.default_rng(9), (4, 4), np.complex64)
    with pytest.raises(dynhlo.DynamicSizeError, match="'c'.*k <= n <= m"):
        exe(a[:2, :3], a[0, :2])   # n > m
    with pytest.raises(dynhlo.DynamicSizeError, match="'c'.*k <= n <= m"):
        exe(a[:4, :2], a[0, :3])   # k > n


@pytest.mark.parametrize("fn,spec,shape,dtype", [
    (jnp.linalg.eig, "f32[b,3,3]", (3, 3), np.float32),
    (jnp.linalg.eigvals, "c64[b,4,4]", (4, 4), np.complex64),
    (jnp.linalg.qr, "c64[b,5,3]", (5, 3), np.complex64),
], ids=["eig", "eigvals", "qr"])
def test_from_jax_symbolic_batch(fn, spec, shape, dtype):
    """One executable for b <= 4 at 1, 2 and 4 (JAX's symbolic sizes start at 1), as JAX."""
    exe = dynhlo.from_jax(fn, spec, bounds={"b": 4})
    rng = np.random.default_rng(10)
    for b in (1, 2, 4):
        a = _random(rng, (b,) + shape, dtype)
        _same_as_jax(fn, exe(a), a, f"{spec} at b={b}")


@pytest.mark.parametrize("fn,spec", [(jnp.linalg.eig, "f32[n,n]"), (jnp.linalg.qr, "c64[n,n]")],
                         ids=["eig", "qr"])
def test_from_jax_symbolic_matrix_size(fn, spec):
    exe = dynhlo.from_jax(fn, spec, bounds={"n": 5})
    rng = np.random.default_rng(11)
    for n in (1, 3, 5):
        a = _random(rng, (n, n), np.float32 if spec[0] == "f" else np.complex64)
        _same_as_jax(fn, exe(a), a, f"{spec} at n={n}")


def _same_as_jax(fn, got, a, where):
    """Results as JAX's: eigenvectors (eig's second result) by A v = w v and up to phase."""
    got, want = ([np.asarray(r) for r in x] if isinstance(x, tuple) else [np.asarray(x)]
                 for x in (got, fn(a)))
    assert [(g.dtype, g.shape) for g in got] == [(w.dtype, w.shape) for w in want], where
    np.testing.assert_allclose(got[0], want[0], rtol=2e-4, atol=2e-4, err_msg=where)
    if fn is jnp.linalg.eig:
        _check_eigenvectors(a.astype(got[1].dtype), got[0], got[1], want[1], 2e-4, where)
    else:
        for g, w in zip(got[1:], want[1:], strict=True):
            np.testing.assert_allclose(g, w, rtol=2e-4, atol=2e-4, err_msg=where)


def test_cusolver_complex_qr_runs_as_lapack():
    """cuSOLVER's geqrf and orgqr on c64 (one target for every type) run LAPACK's cgeqrf
    and cungqr: the same results as the lapack_ calls."""
    a = _random(np.random.default_rng(12), (2, 4, 3), np.complex64)
    for prefix, names in (("cusolver_", ("geqrf", "orgqr")), ("lapack_c", ("geqrf", "ungqr"))):
        h, tau = dynhlo.compile(call_module(f"{prefix}{names[0]}_ffi", ["c64[2,4,3]"],
                                            "(c64[2,4,3], c64[2,3])"))(a)
        q = dynhlo.compile(call_module(f"{prefix}{names[1]}_ffi", ["c64[2,4,3]", "c64[2,3]"],
                                       "c64[2,4,3]"))(h, tau)
        np.testing.assert_allclose(q @ np.triu(h[:, :3]), a, rtol=1e-5, atol=1e-5)
        if prefix == "cusolver_":
            want = (h, tau, q)
        else:
            for g, w in zip((h, tau, q), want, strict=True):
                np.testing.assert_array_equal(g, w)


# target, operand shapes, result shape, backend_config, what the error says
_GEEV = MODES.format(86, 86)
MALFORMED = [
    ("lapack_sgeev_ffi", ["f32[3,3]", "f32[3,3]"],
     "(f32[3], f32[3], c64[3,3], c64[3,3], s32[])", _GEEV, "takes 1 operand"),
    ("lapack_sgeev_ffi", ["f32[3]"], "(f32[3], f32[3], c64[3,3], c64[3,3], s32[])", _GEEV,
     "rank >= 2"),
    ("lapack_sgeev_ffi", ["f64[3,3]"], "(f64[3], f64[3], c128[3,3], c128[3,3], s32[])", _GEEV,
     "takes f32 operands"),
    ("lapack_sgeev_ffi", ["f32[3,4]"], "(f32[4], f32[4], c64[4,4], c64[4,4], s32[])", _GEEV,
     "square"),
    ("lapack_sgeev_ffi", ["f32[3,3]"], "(f32[3], f32[3], f32[3,3], f32[3,3], s32[])", _GEEV,
     "f32, f32, c64, c64, s32"),
    ("lapack_cgeev_ffi", ["c64[3,3]"], "(f32[3], f32[3], c64[3,3], c64[3,3], s32[])", _GEEV,
     "tuple of 4"),
    ("lapack_sgeev_ffi", ["f32[2,3,3]"], "(f32[2,3], f32[2,3], c64[2,3,3], c64[2,3,3], s32[])",
     "compute_right = 86 : ui8", "compute_left"),
    ("lapack_sgeev_ffi", ["f32[3,3]"], "(f32[3], f32[3], c64[3,3], c64[3,3], s32[])",
     "compute_left = 88 : ui8, compute_right = 86 : ui8", "compute_left"),
    ("lapack_sgeev_ffi", ["f32[3,3]"], "(f32[3], f32[3], c64[3,3], c64[3,3], s32[])",
     "compute_left = 86 : ui8, compute_right = 9999999999 : ui8", "compute_right"),
    ("lapack_sgeev_ffi", ["f32[2,3,3]"], "(f32[2,3], f32[2,3], c64[2,3,3], c64[2,3,3], s32[3])",
     _GEEV, "declared"),
    ("lapack_zgeev_ffi", ["c128[3,3]"], "(c128[4], c128[3,3], c128[3,3], s32[])", _GEEV,
     "declared"),
    ("lapack_cgeqrf_ffi", ["c64[4,3]"], "(c64[4,3], c64[4])", "", "declared"),
    ("lapack_cgeqrf_ffi", ["c64[4,3]"], "(c64[4,3], f32[3])", "", "c64, c64"),
    ("lapack_zgeqrf_ffi", ["c64[4,3]"], "(c64[4,3], c64[3])", "", "takes c128 operands"),
    ("lapack_cgeqrf_ffi", [], "(c64[4,3], c64[3])", "", "takes 1 operand"),
    ("lapack_cungqr_ffi", ["c64[4,3]"], "c64[4,3]", "", "takes 2 operand"),
    ("lapack_cungqr_ffi", ["c64[4,3]", "c128[3]"], "c64[4,3]", "", "takes c64 operands"),
    ("lapack_cungqr_ffi", ["c64[4,3]", "c64[4]"], "c64[4,3]", "", "k <= n <= m"),
    ("lapack_cungqr_ffi", ["c64[3,4]", "c64[3]"], "c64[3,4]", "", "k <= n <= m"),
    ("lapack_cungqr_ffi", ["c64[2,4,3]", "c64[3,3]"], "c64[2,4,3]", "", "its batch"),
    ("lapack_cungqr_ffi", ["c64[4,3]", "c64[3]"], "(c64[4,3])", "", "an array"),
    ("lapack_dorgqr_ffi", ["f64[4,3]", "f64[3]"], "f64[4,2]", "", "declared"),
]


@pytest.mark.parametrize("target,operands,result,config,what", MALFORMED)
def test_malformed_calls_name_the_instruction(target, operands, result, config, what):
    with pytest.raises(dynhlo.HloVerifyError, match=what) as info:
        dynhlo.compile(call_module(target, operands, result, config))
    assert "instruction 'c'" in str(info.value)
