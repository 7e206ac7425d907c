"""JAX's GPU solver custom calls on the CPU (contracts: shapes/rules_gpu_solver.py).

`cusolver_*_ffi` / `hipsolver_*_ffi` run the lowering of the LAPACK call each stands for
(ops_lapack.py, ops_lapack_svd.py) through backends/common/gpu_solver.py; the pivots-to-permutation
call is its own loop here.
"""

from __future__ import annotations

import math

import numpy as np

from ...shapes.rules_gpu_solver import PIVOT_TARGETS, SOLVER_TARGETS
from ..common.gpu_solver import call_as_lapack
from .lowering import CUSTOM_CALLS, custom_call


@custom_call(*SOLVER_TARGETS)
def solver_call(ctx, inst, args):
    results = call_as_lapack(CUSTOM_CALLS, ctx, inst, args)
    return results if isinstance(results, np.ndarray) else tuple(map(np.asarray, results))


@custom_call(*PIVOT_TARGETS)
def lu_pivots_to_permutation(ctx, inst, args):
    """s32[..., k] 0-based pivots -> s32[..., m]: the transpositions (i, pivots[i]) applied
    in order to the identity, a pivot outside [0, m) skipped, as jaxlib's GPU kernel."""
    pivots = np.asarray(args[0])
    m, k = ctx.out_shape()[-1], pivots.shape[-1]
    flat = pivots.reshape(math.prod(pivots.shape[:-1]), k)  # -1 is ambiguous at k = 0
    perm = np.tile(np.arange(m, dtype=np.int32), (len(flat), 1))
    rows = np.arange(len(flat))
    for i in range(min(k, m)):
        j = np.where((flat[:, i] >= 0) & (flat[:, i] < m), flat[:, i], i)
        perm[rows, i], perm[rows, j] = perm[rows, j], perm[rows, i].copy()
    return perm.reshape(pivots.shape[:-1] + (m,))
