"""JAX's SVD custom calls (`lapack_{s,d,c,z}gesdd_ffi`, `..gesvd_ffi`) on the device.

torch.linalg.svd (cuSOLVER on a GPU; torch.linalg.svdvals for mode 'N') on the batch of
[m, n] matrices at their actual sizes, in the layout shapes.rules_lapack_svd.svd_mode reads:
(A, s [..., min(m,n)], u, vt, info [...]), u and vt full for mode 'A', reduced for 'S',
zeros for 'N'. As the CPU backend (NumPy's LAPACK): a matrix holding a NaN does not
converge, so it gives info = 1 and NaN s, u and vt; it is replaced by zeros before the call
(so one bad matrix does not fail the batch) and its results are NaN afterwards, with no
read back. A matrix with an infinity (and no NaN) gives info = 0 and NaN results (LAPACK's
singular values are NaN too; its vectors are unspecified). Singular vectors are unique only
up to sign (a phase, for complex), so u and vt may differ from the CPU's by that; s, u s vt
and info agree. A finite matrix torch fails to converge on takes the host tier.
Semantics: jax/_src/lax/linalg.py `_svd_cpu_gpu_lowering`; LAPACK gesdd/gesvd.
"""

from __future__ import annotations

import torch

from ....shapes.rules_lapack_svd import svd_mode
from ..precision import Fp32Scope
from .matrices import TYPES, flat_batch, nan_where, nonfinite, replace_where


def svd(ctx, inst, args):
    """(A, s, u, vt, info) of every matrix of A [..., m, n] (module doc)."""
    (a,) = args
    if a.dtype not in TYPES:
        return NotImplemented
    *_, m, n = a.shape
    k = min(m, n)
    mode, full = svd_mode(inst)
    flat, batch = flat_batch(a)
    nan, bad = nonfinite(flat)
    clean = replace_where(bad, flat, torch.zeros((), device=a.device))
    try:
        with Fp32Scope(False):  # IEEE f32 whatever the caller set for torch (precision.py)
            if mode == "N":
                s = torch.linalg.svdvals(clean)
                u = torch.zeros((len(flat), m, m if full else k), dtype=a.dtype,
                                device=a.device)
                vt = torch.zeros((len(flat), n if full else k, n), dtype=a.dtype,
                                 device=a.device)
            else:
                u, s, vt = torch.linalg.svd(clean, full_matrices=full)
    except torch.linalg.LinAlgError:  # a finite matrix that did not converge: as the CPU
        return NotImplemented
    s, u, vt = (nan_where(bad, v) for v in (s, u, vt))
    return (a, s.reshape(*batch, k), u.reshape(*batch, *u.shape[1:]),
            vt.reshape(*batch, *vt.shape[1:]), nan.to(torch.int32).reshape(batch))

