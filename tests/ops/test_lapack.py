"""LAPACK custom calls (jaxlib's `lapack_*_ffi` targets) on the CPU backend against numpy.linalg.

potrf, getrf, geqrf/orgqr, syevd, trsm, each at a static shape and over a dynamic batch that must
equal the static computation matrix by matrix; an unknown target is an UnsupportedError.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.hlo.types import to_numpy_dtype
from tests.support.opcheck import run_hlo


def call_module(target, operands, result, config=""):
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
    text = call_module(f"lapack_{k}potrf_ffi", [f"{t}[{batch_text}4,4]"],
                        f"({t}[{batch_text}4,4], s32[{batch_text[:-1]}])",
                        f"uplo = {ord(uplo)} : ui8")
    a = _spd(np.random.default_rng(3), batch, 4).astype(to_numpy_dtype(t))
    factor, info = run_hlo(text, a)
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
    text = call_module("lapack_dpotrf_ffi", ["f64[2,3,3]"], "(f64[2,3,3], s32[2])",
                        "uplo = 76 : ui8")
    a = np.stack([np.diag([1.0, -1.0, 1.0]), np.eye(3)])
    _, info = run_hlo(text, a)
    np.testing.assert_array_equal(info, [2, 0])


@pytest.mark.parametrize("m,n", [(5, 5), (4, 6), (6, 4), (1, 1)])
def test_getrf_matches_lapack(m, n):
    scipy_linalg = pytest.importorskip("scipy.linalg")
    k = min(m, n)
    text = call_module("lapack_dgetrf_ffi", [f"f64[2,{m},{n}]"],
                        f"(f64[2,{m},{n}], s32[2,{k}], s32[2])")
    a = np.random.default_rng(m * 10 + n).normal(size=(2, m, n))
    lu, ipiv, info = run_hlo(text, a)
    np.testing.assert_array_equal(info, [0, 0])
    for b in range(2):
        want_lu, want_piv = scipy_linalg.lu_factor(a[b])
        np.testing.assert_allclose(lu[b], want_lu, rtol=1e-10, atol=1e-12)
        np.testing.assert_array_equal(ipiv[b], want_piv + 1)  # LAPACK's pivots are 1-based


def test_getrf_singular_info():
    text = call_module("lapack_sgetrf_ffi", ["f32[3,3]"], "(f32[3,3], s32[3], s32[])")
    a = np.array([[1, 2, 3], [2, 4, 6], [1, 1, 1]], np.float32)
    lu, ipiv, info = run_hlo(text, a)
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
    geqrf = call_module("lapack_dgeqrf_ffi", [f"f64[{m},{n}]"], f"(f64[{m},{n}], f64[{k}])")
    a = np.random.default_rng(m + n).normal(size=(m, n))
    h, tau = run_hlo(geqrf, a)
    want_h, want_tau = np.linalg.qr(a, mode="raw")
    np.testing.assert_allclose(h, want_h.T, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(tau, want_tau, rtol=1e-10, atol=1e-12)
    if m >= n:
        orgqr = call_module("lapack_dorgqr_ffi", [f"f64[{m},{n}]", f"f64[{k}]"],
                             f"f64[{m},{n}]")
        q = run_hlo(orgqr, h, tau)
        np.testing.assert_allclose(q, np.linalg.qr(a, mode="reduced")[0], rtol=1e-10,
                                   atol=1e-12)


@pytest.mark.parametrize("target,t", [("lapack_ssyevd_ffi", "f32"), ("lapack_dsyevd_ffi", "f64"),
                                      ("lapack_zheevd_ffi", "c128")])
def test_eigh(target, t):
    part = {"f32": "f32", "f64": "f64", "c128": "f64"}[t]
    text = call_module(target, [f"{t}[2,4,4]"], f"({t}[2,4,4], {part}[2,4], s32[2])",
                        "mode = 86 : ui8, uplo = 76 : ui8")
    rng = np.random.default_rng(9)
    a = rng.normal(size=(2, 4, 4)) + (1j * rng.normal(size=(2, 4, 4)) if t == "c128" else 0)
    a = (a + np.conj(np.swapaxes(a, -1, -2))).astype(to_numpy_dtype(t))
    v, w, info = run_hlo(text, a)
    np.testing.assert_array_equal(info, [0, 0])
    assert np.all(np.diff(w, axis=-1) >= 0)  # ascending
    rebuilt = v @ (w[..., None] * np.conj(np.swapaxes(v, -1, -2)))
    np.testing.assert_allclose(rebuilt, a, rtol=1e-4, atol=1e-4 if t == "f32" else 1e-10)


TRSM_CASES = [(side, uplo, trans, diag) for side in "LR" for uplo in "LU" for trans in "NTC"
              for diag in "NU"]


def test_eigh_nan_matrix_gives_info_without_failing_the_batch():
    """A NaN in the triangle read: LAPACK does not converge (numpy raises); that matrix gets
    info 1 and NaN results, the others of the batch their eigenpairs."""
    text = call_module("lapack_dsyevd_ffi", ["f64[2,3,3]"], "(f64[2,3,3], f64[2,3], s32[2])",
                        "mode = 86 : ui8, uplo = 76 : ui8")
    a = np.stack([np.diag([3.0, 1.0, 2.0]), np.eye(3)])
    a[1, 2, 0] = np.nan
    v, w, info = run_hlo(text, a)
    np.testing.assert_array_equal(info, [0, 1])
    np.testing.assert_allclose(w[0], [1.0, 2.0, 3.0])
    assert np.isnan(w[1]).all() and np.isnan(v[1]).all()


@pytest.mark.parametrize("side,uplo,trans,diag", TRSM_CASES)
def test_trsm(side, uplo, trans, diag):
    rng = np.random.default_rng(len(TRSM_CASES))
    a = rng.normal(size=(4, 4)) + 4 * np.eye(4) + 1j * rng.normal(size=(4, 4))
    b = rng.normal(size=(4, 3) if side == "L" else (3, 4)) + 0j
    config = ", ".join(f"{name} = {ord(v)} : ui8" for name, v in
                       [("diag", diag), ("side", side), ("trans_x", trans), ("uplo", uplo)])
    text = call_module("lapack_ztrsm_ffi", ["c128[4,4]", f"c128[{','.join(map(str, b.shape))}]",
                                             "c128[]"],
                        f"c128[{','.join(map(str, b.shape))}]", config)
    x = run_hlo(text, a, b, np.complex128(2))
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
    return call_module(target, ops, res[0] if len(res) == 1 else f"({', '.join(res)})")


@pytest.mark.parametrize("n", [0, 1, 3])
@pytest.mark.parametrize("target,operands,results", BATCHED_LAPACK,
                         ids=[r[0] for r in BATCHED_LAPACK])
def test_lapack_dynamic_batch_equals_static_per_matrix(target, operands, results, n):
    """A dynamic batch of n matrices gives what each matrix gives in a static module."""
    dyn = _batched_module(target, operands, results, "<=3")
    static = _batched_module(target, operands, results, "")
    rng = np.random.default_rng(n)
    args = [_spd(rng, (n,), 3)] + [rng.normal(size=(n,) + d) for d in operands[1:]]
    got = run_hlo(dyn, *args)
    got = got if isinstance(got, tuple) else (got,)
    assert [g.shape for g in got] == [(n,) + d for _, d in results]
    for b in range(n):
        want = run_hlo(static, *[a[b] for a in args])
        for g, w in zip(got, want if isinstance(want, tuple) else (want,), strict=True):
            np.testing.assert_allclose(g[b], w, rtol=1e-12, atol=1e-12)


def test_unknown_lapack_target_is_unsupported():
    text = call_module("lapack_sgeqp3_ffi", ["f32[3,3]", "s32[3]"], "(f32[3,3], s32[3], f32[3])")
    with pytest.raises(dynhlo.UnsupportedError, match="lapack_sgeqp3_ffi"):
        dynhlo.compile(text)


@pytest.mark.parametrize("target, operands, result, config, where", [
    # potrf of an [n of <=6, 6] matrix: factored the n x 6 block, info n (a silent wrong answer)
    ("lapack_spotrf_ffi", ["f32[<=6,6]"], "(f32[<=6,6], s32[])", "uplo = 76 : ui8",
     "operand 0 'p0' dimension 0 is dynamic (size p0.0 at run time, bound 6) but operand 0 "
     "'p0' dimension 1 is static (size 6)"),
    ("lapack_ssyevd_ffi", ["f32[6,<=6]"], "(f32[6,<=6], f32[<=6], s32[])", "uplo = 76 : ui8",
     "operand 0 'p0' dimension 1 is dynamic (size p0.1 at run time, bound 6) but operand 0 "
     "'p0' dimension 0 is static (size 6)"),
    # trsm: a half-dynamic a was an IndexError at run time
    ("lapack_strsm_ffi", ["f32[<=6,6]", "f32[6,2]"], "f32[6,2]",
     "side = 76 : ui8, uplo = 76 : ui8, trans_x = 78 : ui8, diag = 78 : ui8",
     "operand 0 'p0' dimension 0 is dynamic (size p0.0 at run time, bound 6)"),
    # a square dynamic a against a static b (side L pairs a's columns with b's rows)
    ("lapack_strsm_ffi", ["f32[<=6,<=6]", "f32[6,2]"], "f32[6,2]",
     "side = 76 : ui8, uplo = 76 : ui8, trans_x = 78 : ui8, diag = 78 : ui8",
     "operand 0 'p0' dimension 1 is dynamic (size p0.1 at run time, bound 6) but operand 1 "
     "'p1' dimension 0 is static (size 6)"),
])
def test_a_half_dynamic_square_matrix_is_refused_at_compile_time(target, operands, result,
                                                                 config, where):
    """XLA has no rule for these: DynamicDimensionInferenceVisitor::HandleCustomCall ends in
    "CustomCall ... is not supported to have a dynamic dimension" (and cholesky and
    triangular-solve have no handler at all: DefaultAction, "not implemented"). Below the
    bound the matrix is not square and the answer would read padding, so the module is refused
    when it compiles, naming the instruction, both dimensions, the size and the bound."""
    text = call_module(target, operands, result, config)
    with pytest.raises(dynhlo.UnsupportedError) as info:
        dynhlo.compile(text)
    message = str(info.value)
    assert message.startswith(f"instruction 'c': the square matrix of {target}") or \
        message.startswith("instruction 'c': trsm (side L)"), message
    assert where in message
    assert "Mark both <=6 (one run-time size) or make both static" in message


def test_potrf_of_a_matrix_dynamic_in_both_dimensions_runs_at_its_size():
    text = call_module("lapack_dpotrf_ffi", ["f64[<=6,<=6]"], "(f64[<=6,<=6], s32[])",
                       "uplo = 76 : ui8")
    a = _spd(np.random.default_rng(5), (), 4)
    factor, info = run_hlo(text, a)
    assert factor.shape == (4, 4) and info == 0
    np.testing.assert_allclose(np.tril(factor), np.linalg.cholesky(a), rtol=1e-12)
