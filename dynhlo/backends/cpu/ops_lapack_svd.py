"""The SVD custom calls JAX's CPU lowering writes: `lapack_{s,d,c,z}gesdd_ffi` and `..gesvd_ffi`.

Operand A [..., m, n]; results (A overwritten, s [..., min(m,n)], u, vt, info [...]) in the
mode shapes.rules_lapack_svd.svd_mode reads ('A' full, 'S' reduced, 'N' singular values only, u and
vt zeros). A that does not converge gives info = 1 and NaN results, as LAPACK's info > 0.
"""

from __future__ import annotations

import numpy as np

from ...shapes.rules_lapack_svd import SVD_TARGETS, svd_mode
from .lowering import custom_call
from .ops_lapack import batched


@custom_call(*SVD_TARGETS)
def svd(ctx, inst, args):
    a = np.asarray(args[0])
    flat, batch = batched(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    mode, full = svd_mode(inst)
    real = np.finfo(a.dtype).dtype if a.dtype.kind == "c" else a.dtype
    s_out = np.zeros((len(flat), k), real)
    u_out = np.zeros((len(flat), m, m if full else k), a.dtype)
    vt_out = np.zeros((len(flat), n if full else k, n), a.dtype)
    info = np.zeros(len(flat), np.int32)
    for i, x in enumerate(flat):
        try:
            if mode == "N":
                s_out[i] = np.linalg.svd(x, compute_uv=False)
            else:
                u_out[i], s_out[i], vt_out[i] = np.linalg.svd(x, full_matrices=full)
        except np.linalg.LinAlgError:
            info[i] = 1
            s_out[i] = u_out[i] = vt_out[i] = np.nan
    return (a.copy(), s_out.reshape(batch + (k,)), u_out.reshape(batch + u_out.shape[1:]),
            vt_out.reshape(batch + vt_out.shape[1:]), info.reshape(batch))
