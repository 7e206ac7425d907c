"""The SVD custom calls JAX's CPU lowering writes: `lapack_{s,d,c,z}gesdd_ffi` and `..gesvd_ffi`.

Operand A [..., m, n]; results (A overwritten, s [..., min(m,n)], u, vt, info [...]), as
jax/_src/lax/linalg.py `_svd_cpu_gpu_lowering` declares them. The typed-FFI attribute `mode`
(backend_config `mode = 65 : ui8`) is 'A' (full u [m,m], vt [n,n]), 'S' (reduced, min(m,n))
or 'N' (singular values only; u and vt are zeros of the declared shapes, which JAX drops).
A that does not converge gives info = 1 and NaN results, as LAPACK's info > 0.
"""

from __future__ import annotations

import numpy as np

from .lowering import custom_call
from .ops_numeric import _batched, _ffi_char


@custom_call(*[f"lapack_{k}{name}_ffi" for k in "sdcz" for name in ("gesdd", "gesvd")])
def svd(ctx, inst, args):
    a = np.asarray(args[0])
    mode = _ffi_char(inst, "mode", "A")
    flat, batch = _batched(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    full = mode == "A" or (mode == "N" and inst.shape.elements[2].dims[-1] != k)
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
