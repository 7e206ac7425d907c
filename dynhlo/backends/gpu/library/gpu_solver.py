"""JAX's lu_pivots_to_permutation GPU call (`cu_lu_pivots_to_permutation`,
`hip_lu_pivots_to_permutation`) on the device. The solver calls themselves
(`cusolver_*_ffi`) run the LAPACK lowerings of rules.CUSTOM_CALLS through
backends/common/gpu_solver.py; contracts: shapes/rules_gpu_solver.py.
"""

from __future__ import annotations

import math

import torch


def lu_pivots_to_permutation(ctx, inst, args):
    """s32[..., k] 0-based pivots -> s32[..., m]: the transpositions (i, pivots[i]) applied in
    order to the identity, a pivot outside [0, m) skipped, as jaxlib's GPU kernel; k steps
    over the whole batch at once."""
    (pivots,) = args
    m, k = ctx.out_shape()[-1], pivots.shape[-1]
    flat = pivots.reshape(math.prod(pivots.shape[:-1]), k).long()  # -1: ambiguous at k = 0
    perm = torch.arange(m, dtype=torch.int32, device=pivots.device).repeat(len(flat), 1)
    for i in range(min(k, m)):
        p = flat[:, i:i + 1]
        j = torch.where((p >= 0) & (p < m), p, i)
        moved, kept = perm.gather(1, j), perm[:, i:i + 1].clone()
        perm[:, i:i + 1] = moved
        perm.scatter_(1, j, kept)
    return perm.reshape(*pivots.shape[:-1], m)
