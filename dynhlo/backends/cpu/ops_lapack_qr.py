"""JAX's complex QR on the CPU: `lapack_{c,z}geqrf_ffi` and `lapack_{c,z}ungqr_ffi`, by
LAPACK's own geqrf and ungqr (scipy.linalg.lapack), matrix by matrix over the batch at its
actual size. (The real kinds, s/d geqrf and orgqr, are ops_numeric.py's.)

Contracts: shapes/rules_lapack_qr.py. geqrf (x [..., m, n]) -> (R with the Householder
vectors below it, tau [..., min(m, n)]); ungqr (x [..., m, n], tau [..., k]) -> Q, the first
n columns of H_1 ... H_k. A dynamic size that breaks ungqr's k <= n <= m at run time is a
DynamicSizeError naming the instruction (LAPACK refuses it).
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import get_lapack_funcs

from .lowering import custom_call
from .ops_numeric import _batched


@custom_call("lapack_cgeqrf_ffi", "lapack_zgeqrf_ffi")
def geqrf(ctx, inst, args):
    a = np.asarray(args[0])
    flat, batch = _batched(a)
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
    flat, _ = _batched(a)
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
