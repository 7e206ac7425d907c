"""JAX's LAPACK custom calls on the CPU (jax.numpy.linalg's typed-FFI calls), batch dimensions
leading, logical values (layouts never matter here); shape rules: shapes/rules_lapack.py.

- lapack_{s,d,c,z}potrf_ffi (x; backend_config uplo) -> (factor, info s32[batch]); the
  triangle not named by uplo keeps the input; info > 0 where the matrix is not positive
  definite (then the factor is the input, unchanged).
- lapack_{s,d,c,z}getrf_ffi (x) -> (lu, ipiv s32[batch, min(m,n)] 1-based, info): partial
  pivoting on the first largest |value| (|re| + |im| for complex, as LAPACK's i?amax), as
  LAPACK's getrf.
- lapack_{s,d}geqrf_ffi (x) -> (householder vectors below R, tau): LAPACK's conventions.
- lapack_{s,d}syevd_ffi, lapack_{c,z}heevd_ffi (x; uplo) -> (eigenvectors as columns,
  eigenvalues ascending, info): numpy.linalg.eigh, which calls LAPACK's syevd/heevd; a matrix
  that does not converge (a NaN in the triangle read) gives info = 1 and NaN results.
- lapack_{s,d}orgqr_ffi (x, tau) -> Q (the first n columns of H_1...H_k).
- lapack_{s,d,c,z}trsm_ffi and blas_{s,d,c,z}trsm_ffi (a, b[, alpha]; side, uplo, trans_x,
  diag) -> x with op(a) x = alpha b (side L) or x op(a) = alpha b (side R).
- lapack_{c,z}geqrf_ffi and lapack_{c,z}ungqr_ffi: LAPACK's own geqrf and ungqr
  (scipy.linalg.lapack), matrix by matrix over the batch at its actual size. ungqr (x [...,
  m, n], tau [..., k]) -> Q, the first n columns of H_1 ... H_k; a dynamic size that breaks
  ungqr's k <= n <= m at run time is a DynamicSizeError naming the instruction (LAPACK
  refuses it).

geev is ops_lapack_eig.py's, the Schur family ops_lapack_schur.py's, the SVDs
ops_lapack_svd.py's.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.linalg import get_lapack_funcs

from ...hlo import attrs
from .lowering import custom_call


def batched(a: np.ndarray):
    """(a as [batch, m, n], the batch shape)."""
    batch = a.shape[:-2]
    return a.reshape((math.prod(batch),) + a.shape[-2:]), batch


def _lapack(kinds: str, name: str, prefix: str = "lapack"):
    return custom_call(*[f"{prefix}_{k}{name}_ffi" for k in kinds])


@_lapack("sdcz", "potrf")
def potrf(ctx, inst, args):
    a = np.asarray(args[0])
    lower = attrs.ffi_uplo(inst) == "L"
    flat, batch = batched(a)
    out = flat.copy()
    info = np.zeros(len(flat), np.int32)
    keep = np.tril if lower else np.triu
    for i, m in enumerate(flat):
        try:
            factor = np.linalg.cholesky(m, upper=not lower)
        except np.linalg.LinAlgError:
            info[i] = _first_failing_minor(m, lower)
            continue
        out[i] = np.where(keep(np.ones(m.shape, bool)), factor, m)
    return out.reshape(a.shape), info.reshape(batch)


def _first_failing_minor(m, lower) -> int:
    """LAPACK's info: the order of the first leading minor that is not positive definite."""
    for k in range(1, m.shape[0] + 1):
        try:
            np.linalg.cholesky(m[:k, :k], upper=not lower)
        except np.linalg.LinAlgError:
            return k
    return m.shape[0]


@_lapack("sdcz", "getrf")
def getrf(ctx, inst, args):
    a = np.asarray(args[0])
    flat, batch = batched(a)
    lu = flat.copy()
    b, m, n = lu.shape
    k = min(m, n)
    rows = np.arange(b)
    ipiv = np.zeros((b, k), np.int32)
    info = np.zeros(b, np.int32)
    with np.errstate(all="ignore"):
        for j in range(k):
            p = j + np.argmax(_pivot_size(lu[:, j:, j]), axis=1) if m > j else np.full(b, j)
            ipiv[:, j] = p + 1
            pivot_row = lu[rows, p].copy()
            lu[rows, p] = lu[:, j]
            lu[:, j] = pivot_row
            d = lu[:, j, j]
            zero = d == 0
            info = np.where((info == 0) & zero, j + 1, info)
            col = np.where(zero[:, None], lu[:, j + 1:, j], lu[:, j + 1:, j] /
                           np.where(zero, 1, d)[:, None])
            lu[:, j + 1:, j] = col
            lu[:, j + 1:, j + 1:] -= col[:, :, None] * lu[:, j, None, j + 1:]
    return lu.reshape(a.shape), ipiv.reshape(batch + (k,)), info.reshape(batch)


def _pivot_size(column: np.ndarray) -> np.ndarray:
    """The size getrf's pivot search compares: |x|, or |re| + |im| for complex (LAPACK's
    icamax/izamax, and cuBLAS's, compare that, not the modulus)."""
    return np.abs(column.real) + np.abs(column.imag) if column.dtype.kind == "c" else \
        np.abs(column)


@_lapack("sd", "syevd")
@_lapack("cz", "heevd")
def syevd(ctx, inst, args):
    return hermitian_eigh(np.asarray(args[0]), attrs.ffi_uplo(inst))


def hermitian_eigh(a: np.ndarray, uplo: str):
    """LAPACK's syevd/heevd of a [..., n, n] (f32, f64, c64, c128) read from its `uplo`
    triangle ('L' or 'U'): (eigenvectors as columns [..., n, n], eigenvalues ascending
    [..., n] of a's real type, info s32[...]); a matrix LAPACK fails on (a NaN in the
    triangle read) gets info 1 and NaN results. Also XLA's Eigh (ops_xla_linalg.py)."""
    flat, batch = batched(a)
    real = np.finfo(a.dtype).dtype if a.dtype.kind == "c" else a.dtype
    w = np.zeros(flat.shape[:2], real)
    v = np.zeros_like(flat)
    info = np.zeros(len(flat), np.int32)
    for i, x in enumerate(flat):
        try:
            w[i], v[i] = np.linalg.eigh(x, UPLO=uplo)
        except np.linalg.LinAlgError:  # LAPACK's info > 0 (a NaN in the triangle read)
            info[i] = 1
            w[i] = v[i] = np.nan
    return v.reshape(a.shape), w.reshape(batch + (a.shape[-1],)), info.reshape(batch)


@_lapack("sd", "geqrf")
def geqrf(ctx, inst, args):
    a = np.asarray(args[0])
    flat, batch = batched(a)
    r = flat.copy()
    b, m, n = r.shape
    k = min(m, n)
    tau = np.zeros((b, k), r.dtype)
    with np.errstate(all="ignore"):
        for j in range(k):
            tau[:, j] = _householder(r, j)
    return r.reshape(a.shape), tau.reshape(batch + (k,))


def _householder(r, j):
    """LAPACK larfg on column j below the diagonal, applied to the columns right of it."""
    alpha = r[:, j, j].copy()
    xnorm = np.linalg.norm(r[:, j + 1:, j], axis=1)
    trivial = xnorm == 0
    beta = -np.copysign(np.hypot(alpha, xnorm), alpha)
    tau = np.where(trivial, 0, (beta - alpha) / np.where(trivial, 1, beta))
    scale = np.where(trivial, 1, 1 / np.where(trivial, 1, alpha - beta))
    r[:, j + 1:, j] *= scale[:, None]
    r[:, j, j] = np.where(trivial, alpha, beta)
    v = np.concatenate([np.ones((len(r), 1), r.dtype), r[:, j + 1:, j]], axis=1)
    w = np.einsum("bi,bik->bk", v, r[:, j:, j + 1:])
    r[:, j:, j + 1:] -= tau[:, None, None] * v[:, :, None] * w[:, None, :]
    return tau


@_lapack("sd", "orgqr")
def orgqr(ctx, inst, args):
    a, tau = np.asarray(args[0]), np.asarray(args[1])
    flat, batch = batched(a)
    taus = tau.reshape(len(flat), tau.shape[-1])
    b, m, n = flat.shape
    q = np.zeros_like(flat)
    q[:, np.arange(min(m, n)), np.arange(min(m, n))] = 1
    for i in reversed(range(taus.shape[1])):
        v = np.concatenate([np.ones((b, 1), flat.dtype), flat[:, i + 1:, i]], axis=1)
        w = np.einsum("bi,bik->bk", v, q[:, i:, :])
        q[:, i:, :] -= taus[:, i, None, None] * v[:, :, None] * w[:, None, :]
    return q.reshape(a.shape)


@_lapack("sdcz", "trsm")
@_lapack("sdcz", "trsm", prefix="blas")
def trsm(ctx, inst, args):
    a, rhs = np.asarray(args[0]), np.asarray(args[1])
    alpha = np.asarray(args[2]) if len(args) > 2 else 1
    side, uplo = attrs.ffi_char(inst, "side", "L"), attrs.ffi_char(inst, "uplo", "L")
    trans, diag = attrs.ffi_char(inst, "trans_x", "N"), attrs.ffi_char(inst, "diag", "N")
    tri = np.tril(a) if uplo == "L" else np.triu(a)
    if diag == "U":
        eye = np.eye(a.shape[-1], dtype=bool)
        tri = np.where(eye, np.ones((), a.dtype), tri)
    op = {"N": tri, "T": np.swapaxes(tri, -1, -2),
          "C": np.conj(np.swapaxes(tri, -1, -2))}[trans]
    lower = (uplo == "L") == (trans == "N")
    if side == "R":  # x op(a) = alpha b  <=>  op(a)^T x^T = alpha b^T
        op, lower = np.swapaxes(op, -1, -2), not lower
        rhs = np.swapaxes(rhs, -1, -2)
    x = _substitute(op, alpha * rhs, lower)
    x = np.swapaxes(x, -1, -2) if side == "R" else x
    return x.astype(np.asarray(args[1]).dtype)


def _substitute(t, rhs, lower: bool):
    """Solve t x = rhs for a triangular t (batched), one row at a time as trsm does."""
    n = t.shape[-1]
    x = np.zeros(np.broadcast_shapes(rhs.shape), np.result_type(t, rhs))
    order = range(n) if lower else reversed(range(n))
    with np.errstate(all="ignore"):
        for i in order:
            known = slice(0, i) if lower else slice(i + 1, n)
            acc = np.einsum("...k,...kr->...r", t[..., i, known], x[..., known, :])
            x[..., i, :] = (rhs[..., i, :] - acc) / t[..., i, i, None]
    return x


@custom_call("lapack_cgeqrf_ffi", "lapack_zgeqrf_ffi")
def complex_geqrf(ctx, inst, args):
    a = np.asarray(args[0])
    flat, batch = batched(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    r = flat.copy()
    tau = np.zeros((len(flat), k), a.dtype)
    if k:  # LAPACK refuses an empty matrix (lda >= 1); there is nothing to factor
        (fn,) = get_lapack_funcs(("geqrf",), (flat,))
        for i, x in enumerate(flat):
            r[i], tau[i] = fn(x)[:2]
    return r.reshape(a.shape), tau.reshape(batch + (k,))


@custom_call("lapack_cungqr_ffi", "lapack_zungqr_ffi")
def ungqr(ctx, inst, args):
    a, tau = np.asarray(args[0]), np.asarray(args[1])
    flat, _ = batched(a)
    m, n = a.shape[-2:]
    k = tau.shape[-1]
    if not k <= n <= m:
        raise ctx.error(f"ungqr of a {m} x {n} matrix and {k} tau; it needs k <= n <= m")
    taus = tau.reshape(len(flat), k)
    q = np.zeros_like(flat)
    if n:  # LAPACK refuses an empty matrix (lda >= 1); Q has no columns
        (fn,) = get_lapack_funcs(("ungqr",), (flat,))
        for i, x in enumerate(flat):
            q[i] = fn(x, taus[i])[0]
    return q.reshape(a.shape)
