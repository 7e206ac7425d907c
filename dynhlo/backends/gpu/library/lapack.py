"""JAX's LAPACK custom calls other than the SVD (lapack_svd.py) on the device, with torch.linalg
(cuSOLVER/cuBLAS on a GPU), over the batch of matrices at their actual sizes (batch
dimensions leading). Results mean what the CPU backend's do (backends/cpu/ops_lapack.py:
the same layouts, 1-based pivots, info values, uplo, LAPACK's Householder form):

- lapack_{s,d,c,z}potrf_ffi (x; uplo) -> (factor, info): torch.linalg.cholesky_ex. The
  triangle not named by uplo keeps the input; where the matrix is not positive definite,
  info is the order of the first failing leading minor and the factor is the input,
  unchanged. A NaN in the triangle read is carried on as the CPU backend's LAPACK
  (OpenBLAS's, as XLA's CPU) does: not tested for, so the pivots from its row on are NaN and
  fail nothing (reference LAPACK and cuSOLVER may stop there instead). The call runs on the
  matrix with its NaNs zeroed and puts the NaNs where they spread; where that matrix fails
  past the first NaN row, a blocked library may leave a few finite entries of the rows
  below it unfinished (NaN or not, they are not the CPU's); info is exact.
- lapack_{s,d,c,z}getrf_ffi (x) -> (lu, ipiv 1-based, info): torch.linalg.lu_factor_ex,
  LAPACK's partial pivoting (the first largest |value|); info is the first exactly zero
  pivot. A matrix holding a NaN pivots as the library's idamax does, NaN |values| never the
  largest (the CPU backend's NumPy argmax picks a NaN first), so its ipiv may differ from the
  CPU's; its info agrees and its lu holds NaN there too. Two cases take the host tier, as
  the device's factors were not LAPACK's there (H200, torch 2.11, 2026-12-01/02): a batch
  holding a singular matrix (a 5x4 matrix with a zero column did not satisfy P A = L U, and
  a square one differed from LAPACK past its zero pivot), and complex matrices (the device
  pivots by |z|, LAPACK's izamax by |re| + |im|: 3 against 2+2j picks another row).
- lapack_{s,d}geqrf_ffi (x) -> (Householder vectors below R, tau): torch.geqrf.
- lapack_{s,d}orgqr_ffi (x, tau) -> the first n columns of H_1...H_k:
  torch.linalg.householder_product (m >= n >= k, as LAPACK's orgqr asks; else the host tier).
- lapack_{s,d}syevd_ffi, lapack_{c,z}heevd_ffi (x; uplo) -> (eigenvectors as columns,
  eigenvalues ascending, info): torch.linalg.eigh on the triangle uplo names; the
  eigenvectors are computed whatever the mode, as on the CPU. Eigenvectors are unique only up
  to sign (a phase, for complex) and, for a repeated eigenvalue, up to a rotation of its
  eigenspace: V diag(w) V^H = A, V's columns orthonormal and w agree with the CPU's, V itself
  may not. A matrix with a NaN in that triangle does not converge (info = 1, NaN results); it
  is replaced by the identity before the call, so it does not fail the batch. With an
  infinity there, LAPACK's results are NaN and whether it converges depends on the data, so
  such a batch takes the host tier, as does a finite matrix torch fails on.
- lapack_{s,d,c,z}trsm_ffi, blas_{s,d,c,z}trsm_ffi (a, b[, alpha]; side, uplo, trans_x, diag)
  -> x with op(a) x = alpha b (side L) or x op(a) = alpha b (side R):
  torch.linalg.solve_triangular on the triangle uplo names (a zero on the diagonal gives
  infinities or NaN, unchecked, as trsm).

Products inside run as IEEE f32 (Fp32Scope), whatever the caller set for torch.
Semantics: jax/_src/lax/linalg.py (the `_*_cpu_gpu_lowering`s); LAPACK's potrf, getrf, geqrf,
orgqr, syevd/heevd, trsm.
"""

from __future__ import annotations

import torch

from ....hlo import attrs
from ..precision import Fp32Scope
from .matrices import TYPES, flat_batch, nan_where, nonfinite, replace_where, triangle

_REAL = (torch.float32, torch.float64)


def potrf(ctx, inst, args):
    """(factor, info s32[batch]) of every matrix of x [..., n, n] (module doc)."""
    (a,) = args
    if a.dtype not in TYPES:
        return NotImplemented
    lower = attrs.ffi_uplo(inst) == "L"
    flat, batch = flat_batch(a)
    n = a.shape[-1]
    read = triangle(n, lower, a.device)
    nan = torch.isnan(flat) & read
    clean = torch.where(nan, torch.zeros((), dtype=a.dtype, device=a.device), flat)
    with Fp32Scope(False):
        factor, info = torch.linalg.cholesky_ex(clean, upper=not lower)
    nan = nan if lower else nan.mT          # as entries of L (lower) from here on
    first = _first_true(nan.any(2), n)      # the first row of L holding a NaN, or n
    # pivots from that row on are NaN and fail nothing; a failure before it stands
    info = torch.where((info > 0) & (info <= first), info, 0).to(torch.int32)
    # L[s, c] is NaN from the first NaN's column on, and where row s holds a NaN at or
    # left of c (the NaN-free rows and columns before that are the clean matrix's)
    spread = (nan.to(torch.int8).cummax(2).values > 0) | (
        torch.arange(n, device=a.device) >= first[:, None, None])
    spread = spread if lower else spread.mT
    factor = torch.where(spread, torch.full((), float("nan"), dtype=a.dtype,
                                            device=a.device), factor)
    keep = read & (info == 0)[:, None, None]
    return torch.where(keep, factor, flat).reshape(a.shape), info.reshape(batch)


def _first_true(marks: torch.Tensor, n: int) -> torch.Tensor:
    """int64 [batch]: the index of the first True of each row of marks [batch, n], or n."""
    order = torch.arange(n, device=marks.device)
    return torch.where(marks, order, n).amin(1) if n else \
        torch.zeros(len(marks), dtype=torch.int64, device=marks.device)


def getrf(ctx, inst, args):
    """(lu, ipiv s32[batch, min(m,n)] 1-based, info s32[batch]) of x [..., m, n]."""
    (a,) = args
    if a.dtype not in _REAL:
        return NotImplemented   # the module doc: complex pivots
    flat, batch = flat_batch(a)
    with Fp32Scope(False):
        lu, ipiv, info = torch.linalg.lu_factor_ex(flat)
    if bool((info > 0).any()):
        return NotImplemented   # the module doc: singular
    return (lu.reshape(a.shape), ipiv.to(torch.int32).reshape(*batch, ipiv.shape[-1]),
            info.to(torch.int32).reshape(batch))


def geqrf(ctx, inst, args):
    """(Householder vectors below R [..., m, n], tau [..., min(m,n)]) of x [..., m, n]."""
    (a,) = args
    if a.dtype not in _REAL:
        return NotImplemented
    flat, batch = flat_batch(a)
    with Fp32Scope(False):
        h, tau = torch.geqrf(flat)
    return h.reshape(a.shape), tau.reshape(*batch, tau.shape[-1])


def orgqr(ctx, inst, args):
    """Q [..., m, n] from geqrf's vectors x [..., m, n] and tau [..., k] (module doc)."""
    a, tau = args
    m, n = a.shape[-2:]
    if a.dtype not in _REAL or tau.dtype != a.dtype or not m >= n >= tau.shape[-1]:
        return NotImplemented
    flat, _ = flat_batch(a)
    with Fp32Scope(False):
        q = torch.linalg.householder_product(flat, tau.reshape(len(flat), tau.shape[-1]))
    return q.reshape(a.shape)


def syevd(ctx, inst, args):
    """(eigenvectors [..., n, n], eigenvalues [..., n] ascending, info [...]) (module doc)."""
    (a,) = args
    if a.dtype not in TYPES:
        return NotImplemented
    uplo = attrs.ffi_uplo(inst)
    flat, batch = flat_batch(a)
    n = a.shape[-1]
    nan, bad = nonfinite(flat, triangle(n, uplo == "L", a.device))
    if bool((bad & ~nan).any()):  # one read back; torch.linalg.eigh reads its info anyway
        return NotImplemented
    clean = replace_where(nan, flat, torch.eye(n, device=a.device))
    try:
        with Fp32Scope(False):
            w, v = torch.linalg.eigh(clean, UPLO=uplo)
    except torch.linalg.LinAlgError:  # a finite matrix that did not converge: as the CPU
        return NotImplemented
    return (nan_where(nan, v).reshape(a.shape), nan_where(nan, w).reshape(*batch, n),
            nan.to(torch.int32).reshape(batch))


def trsm(ctx, inst, args):
    """x [..., m, n] solving op(a) x = alpha b or x op(a) = alpha b (module doc)."""
    a, b = args[:2]
    if a.dtype not in TYPES or b.dtype != a.dtype:
        return NotImplemented
    side, uplo = attrs.ffi_char(inst, "side", "L"), attrs.ffi_char(inst, "uplo", "L")
    trans, diag = attrs.ffi_char(inst, "trans_x", "N"), attrs.ffi_char(inst, "diag", "N")
    op = {"N": a, "T": a.mT, "C": a.mH}[trans]
    upper = (uplo == "U") == (trans == "N")  # a transpose swaps the triangle it reads
    rhs = b * args[2].to(b.dtype) if len(args) > 2 else b
    with Fp32Scope(False):
        return torch.linalg.solve_triangular(op, rhs, upper=upper, left=side == "L",
                                             unitriangular=diag == "U")


def _targets(prefix: str, kinds: str, name: str, fn) -> dict:
    return {f"{prefix}_{k}{name}_ffi": fn for k in kinds}


# Target -> lowering: the kinds the CPU backend runs (ops_lapack.py), so both backends take
# the same modules.
TARGETS = {**_targets("lapack", "sdcz", "potrf", potrf),
           **_targets("lapack", "sdcz", "getrf", getrf),
           **_targets("lapack", "sd", "geqrf", geqrf),
           **_targets("lapack", "sd", "orgqr", orgqr),
           **_targets("lapack", "sd", "syevd", syevd),
           **_targets("lapack", "cz", "heevd", syevd),
           **_targets("lapack", "sdcz", "trsm", trsm),
           **_targets("blas", "sdcz", "trsm", trsm)}
