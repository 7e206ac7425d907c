"""JAX's nonsymmetric eigendecomposition on the CPU: `lapack_{s,d,c,z}geev_ffi`, by LAPACK's
own geev (scipy.linalg.lapack), matrix by matrix over the batch at its actual size.

Contract: shapes/rules_lapack_eig.py. As jaxlib's handler: a matrix holding a non-finite
value is not handed to LAPACK and gets info = -4; a real matrix's eigenvectors are unpacked
from LAPACK's real form into complex columns (v_j = vr[:, j] + i vr[:, j+1] and v_{j+1} its
conjugate where wi[j] != 0; a NaN wi counts as zero). Where jaxlib leaves results unwritten,
they are defined here: eigenvectors not asked for are zeros, and a matrix with info != 0 gets
NaN eigenvalues and eigenvectors (JAX puts NaN there itself after the call). A dynamic
m x n that is not square at run time is a DynamicSizeError naming the instruction.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import get_lapack_funcs

from ...shapes.rules_lapack_eig import computes
from .lowering import custom_call
from .ops_lapack import batched


@custom_call(*[f"lapack_{k}geev_ffi" for k in "sdcz"])
def geev(ctx, inst, args):
    a = np.asarray(args[0])
    m, n = a.shape[-2:]
    if m != n:
        raise ctx.error(f"geev of a {m} x {n} matrix; it takes square matrices")
    flat, batch = batched(a)
    left, right = computes(inst, "left"), computes(inst, "right")
    vector_type = np.result_type(a.dtype, np.complex64)
    w = np.zeros((len(flat), n), vector_type)
    vl = np.zeros((len(flat), n, n), vector_type)
    vr = np.zeros_like(vl)
    info = np.zeros(len(flat), np.int32)
    if n:  # LAPACK refuses n = 0 (lda >= 1); there is nothing to compute
        (fn,) = get_lapack_funcs(("geev",), (flat,))
        for i, x in enumerate(flat):
            info[i] = _one(fn, x, left, right, w[i], vl[i], vr[i])
    values = (w.real.copy(), w.imag.copy()) if a.dtype.kind == "f" else (w,)
    return (*(v.reshape(batch + (n,)) for v in values), vl.reshape(a.shape),
            vr.reshape(a.shape), info.reshape(batch))


def _one(fn, x, left: bool, right: bool, w, vl, vr) -> int:
    """LAPACK's geev `fn` of one n x n matrix into w, vl, vr (complex); its info."""
    if not np.isfinite(x).all():
        w[:] = vl[:] = vr[:] = np.nan
        return -4
    *values, left_packed, right_packed, info = fn(x, compute_vl=left, compute_vr=right)
    if info != 0:
        w[:] = vl[:] = vr[:] = np.nan
        return info
    if len(values) == 2:   # real and imaginary parts set apart: 1j * inf is nan+infj
        w.real, w.imag = values
    else:
        w[:] = values[0]
    imag = values[1] if len(values) == 2 else None
    if left:
        vl[:] = _unpack(imag, left_packed)
    if right:
        vr[:] = _unpack(imag, right_packed)
    return 0


def _unpack(imag, packed) -> np.ndarray:
    """Complex eigenvectors (columns) from geev's: a complex type's as they are; a real
    type's from LAPACK's real form (module doc)."""
    if imag is None:
        return packed
    v = packed.astype(np.result_type(packed.dtype, np.complex64))
    j, n = 0, len(imag)
    while j < n:
        if imag[j] == 0 or np.isnan(imag[j]) or j + 1 == n:
            j += 1
            continue
        v[:, j].real, v[:, j].imag = packed[:, j], packed[:, j + 1]
        v[:, j + 1] = np.conj(v[:, j])
        j += 2
    return v
