"""XLA's own linear-algebra custom calls on the CPU (`Qr`,
`ProductOfElementaryHouseholderReflectors`, `Eigh`, as TensorFlow's tf2xla bridge emits them),
by the LAPACK lowerings of JAX's calls whose semantics they share: geqrf, orgqr/ungqr and
syevd/heevd, matrix by matrix over the batch at its actual size.

Contracts: shapes/rules_xla_linalg.py. What differs from XLA's expansions (qr_expander.cc,
eigh_expander.cc), and why it is still XLA's answer:
- Qr and the Householder product: XLA's blocked Householder QR and LAPACK's geqrf/orgqr pick
  the same reflectors (beta = -sign(re alpha) * norm), so results agree to rounding.
- Eigh: XLA runs parallel Jacobi sweeps until the off-diagonal norm is under tol times the
  Frobenius norm, or max_iter sweeps; LAPACK's divide and conquer converges fully, so the
  eigenvalues agree within XLA's tol. Each eigenvector is unique only up to sign (phase for
  complex) and, for a repeated eigenvalue, up to a rotation of its space; LAPACK's choice is
  one of XLA's valid answers. Unsorted (sort_eigenvalues 0), XLA leaves the order to Jacobi;
  here they are ascending, one order of the ones it allows.
- f16 and bf16 matrices are computed in f32 and rounded back (LAPACK has no such kinds).
A dynamic size that breaks k <= n <= m (the Householder product) or a non-square Eigh at run
time is a DynamicSizeError naming the instruction.
"""

from __future__ import annotations

import numpy as np

from ...hlo.shape import leaf_shapes
from ...hlo.types import to_numpy_dtype
from ...shapes.rules_xla_linalg import EIGH, HOUSEHOLDER, QR, eigh_config
from .lowering import CUSTOM_CALLS, custom_call
from .ops_lapack import hermitian_eigh

_LETTERS = {np.dtype(np.float32): "s", np.dtype(np.float64): "d",
            np.dtype(np.complex64): "c", np.dtype(np.complex128): "z"}


def _lapack_kind(x: np.ndarray) -> np.ndarray:
    """x in a type LAPACK has: f16 and bf16 widened to f32, the others as they are."""
    return x if x.dtype in _LETTERS else x.astype(np.float32)


def _lapack_call(ctx, inst, name: str, args: list[np.ndarray]):
    """The CPU lowering of JAX's `lapack_{letter}{name}_ffi` on args (of one LAPACK type)."""
    return CUSTOM_CALLS[f"lapack_{_LETTERS[args[0].dtype]}{name}_ffi"](ctx, inst, args)


def _as_declared(inst, results):
    """Each result in the element type the instruction declares (f16/bf16 narrowed back)."""
    types = [to_numpy_dtype(s.element_type) for s in leaf_shapes(inst.shape)]
    out = tuple(np.asarray(r).astype(t, copy=False) for r, t in zip(results, types,
                                                                     strict=True))
    return out if inst.shape.is_tuple else out[0]


@custom_call(QR)
def qr(ctx, inst, args):
    a = _lapack_kind(np.asarray(args[0]))
    return _as_declared(inst, _lapack_call(ctx, inst, "geqrf", [a]))


@custom_call(HOUSEHOLDER)
def householder_product(ctx, inst, args):
    a, taus = (_lapack_kind(np.asarray(x)) for x in args)
    m, n = a.shape[-2:]
    k = taus.shape[-1]
    if not k <= n <= m:
        raise ctx.error(f"{HOUSEHOLDER} of a {m} x {n} matrix and {k} taus; it needs "
                        f"k <= n <= m")
    name = "ungqr" if a.dtype.kind == "c" else "orgqr"
    return _as_declared(inst, [_lapack_call(ctx, inst, name, [a, taus])])


@custom_call(EIGH)
def eigh(ctx, inst, args):
    a = _lapack_kind(np.asarray(args[0]))
    m, n = a.shape[-2:]
    if m != n:
        raise ctx.error(f"Eigh of a {m} x {n} matrix; it takes square matrices")
    v, w, _ = hermitian_eigh(a, "L" if eigh_config(inst).lower else "U")
    return _as_declared(inst, [v, w])
