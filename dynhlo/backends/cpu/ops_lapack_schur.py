"""JAX's CPU LAPACK calls for the Schur and Hessenberg forms, the tridiagonal reduction and the
tridiagonal solve, through SciPy's LAPACK (scipy.linalg.lapack): gees, gehrd, sytrd/hetrd,
gtsv, with the optimal workspace, as jaxlib's kernels call them. jaxlib takes its LAPACK
functions from SciPy too (scipy.linalg.cython_lapack), so the results are LAPACK's own.

Operands, attributes and results: dynhlo/shapes/rules_lapack_schur.py (checked there when the
module compiles). Matrices run one at a time over the batch, at their actual sizes.

Where jaxlib's call is not one LAPACK accepts, the result is LAPACK's refusal, computed here
rather than asked of SciPy (whose wrappers fail on empty arrays, and whose LAPACK prints a
message): an empty matrix, for which jaxlib passes a leading dimension of 0 (info -6 for
gees, -5 gehrd, -4 sytrd/hetrd, -7 gtsv; the results are empty), and a gehrd whose `high`
is past a dynamic n's actual size (info -2 or -3, a and tau as given and zero). A gtsv of
one row is LAPACK's division b / d (info 1 where d is 0, b left as it is), which SciPy's
wrapper cannot take (an empty dl).
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import lapack

from ...hlo import attrs
from ...shapes.rules_lapack_schur import (GTSV_TARGETS, HESSENBERG_TARGETS, SCHUR_TARGETS,
                                          TRIDIAGONAL_TARGETS)
from .lowering import custom_call
from .ops_lapack import batched


def _real(dtype) -> np.dtype:
    return np.finfo(dtype).dtype if np.dtype(dtype).kind == "c" else np.dtype(dtype)


def _no_select(*_):
    """gees's `select`, never called without sorting (sort = 'N')."""
    return 0


def _lwork(work) -> int:
    """The optimal workspace a LAPACK workspace query returned (work[0], real part)."""
    return max(1, int(np.asarray(work).reshape(-1)[0].real))


@custom_call(*SCHUR_TARGETS)
def gees(ctx, inst, args):
    """(T, vs, wr, wi | w, sdim, info) of a [..., n, n] (shapes/rules_lapack_schur.py)."""
    a = np.asarray(args[0])
    flat, batch = batched(a)
    n = a.shape[-1]
    vectors = attrs.ffi_char(inst, "mode", "V") == "V"
    t, vs = flat.copy(), np.zeros_like(flat)
    w = np.zeros((len(flat), n), a.dtype)
    wi = np.zeros((len(flat), n), a.dtype)
    sdim = np.zeros(len(flat), np.int32)
    info = np.full(len(flat), 0 if n else -6, np.int32)
    if n and len(flat):
        (fn,) = lapack.get_lapack_funcs(("gees",), dtype=a.dtype)
        lwork = _lwork(fn(_no_select, flat[0], compute_v=int(vectors), lwork=-1)[-2])
        for i, x in enumerate(flat):
            out = fn(_no_select, x, compute_v=int(vectors), sort_t=0, lwork=lwork)
            t[i], sdim[i], w[i], info[i] = out[0], out[1], out[2], out[-1]
            if a.dtype.kind == "c":
                vs[i] = out[3] if vectors else 0
            else:
                wi[i], vs[i] = out[3], out[4] if vectors else 0
    results = [t.reshape(a.shape), vs.reshape(a.shape), w.reshape(batch + (n,))]
    if a.dtype.kind != "c":
        results.append(wi.reshape(batch + (n,)))
    return tuple(results + [sdim.reshape(batch), info.reshape(batch)])


@custom_call(*HESSENBERG_TARGETS)
def gehrd(ctx, inst, args):
    """(H and its reflectors, tau [..., n-1], info) of a [..., n, n]."""
    a = np.asarray(args[0])
    flat, batch = batched(a)
    n = a.shape[-1]
    low, high = attrs.ffi_int(inst, "low"), attrs.ffi_int(inst, "high")
    h = flat.copy()
    tau = np.zeros((len(flat), max(n - 1, 0)), a.dtype)
    info = np.full(len(flat), _gehrd_refusal(n, low, high), np.int32)
    if info.size and info[0] == 0:
        fn, query = lapack.get_lapack_funcs(("gehrd", "gehrd_lwork"), dtype=a.dtype)
        # at least n, which SciPy's wrapper asks (the query answers 1 where high = low)
        lwork = max(n, _lwork(query(n, lo=low - 1, hi=high - 1)[0]))
        for i, x in enumerate(flat):
            h[i], tau[i], info[i] = fn(x, lo=low - 1, hi=high - 1, lwork=lwork)
    return h.reshape(a.shape), tau.reshape(batch + (tau.shape[-1],)), info.reshape(batch)


def _gehrd_refusal(n: int, low: int, high: int) -> int:
    """LAPACK's info for gehrd's arguments as jaxlib passes them (0: accepted)."""
    if not 1 <= low <= max(1, n):
        return -2
    if not min(low, n) <= high <= n:
        return -3
    return 0 if n else -5   # the leading dimension n = 0 is below LAPACK's minimum 1


@custom_call(*TRIDIAGONAL_TARGETS)
def sytrd(ctx, inst, args):
    """(a with the reflectors, d [..., n], e [..., n-1], tau [..., n-1], info) of a."""
    a = np.asarray(args[0])
    flat, batch = batched(a)
    n = a.shape[-1]
    lower = int(attrs.ffi_char(inst, "uplo", "L") == "L")
    out = flat.copy()
    d = np.zeros((len(flat), n), _real(a.dtype))
    e = np.zeros((len(flat), max(n - 1, 0)), _real(a.dtype))
    tau = np.zeros((len(flat), max(n - 1, 0)), a.dtype)
    info = np.full(len(flat), 0 if n else -4, np.int32)
    if n and len(flat):
        name = "hetrd" if a.dtype.kind == "c" else "sytrd"
        fn, query = lapack.get_lapack_funcs((name, f"{name}_lwork"), dtype=a.dtype)
        lwork = _lwork(query(n, lower=lower)[0])
        for i, x in enumerate(flat):
            out[i], d[i], e[i], tau[i], info[i] = fn(x, lower=lower, lwork=lwork)
    rest = batch + (max(n - 1, 0),)
    return (out.reshape(a.shape), d.reshape(batch + (n,)), e.reshape(rest),
            tau.reshape(rest), info.reshape(batch))


@custom_call(*GTSV_TARGETS)
def gtsv(ctx, inst, args):
    """(dl, d, du as LAPACK leaves them, x, info) of the tridiagonal systems (dl, d, du) x = b:
    dl, d, du [..., m], b [..., m, k]."""
    dl, d, du, b = (np.array(x) for x in args)   # copies: the results are these, overwritten
    m, k = b.shape[-2:]
    flat_b, batch = batched(b)
    diagonals = [x.reshape(len(flat_b), m) for x in (dl, d, du)]
    info = np.full(len(flat_b), 0 if m else -7, np.int32)
    if m == 1:   # LAPACK's gtsv of one row: b / d, info 1 where d is 0
        zero = diagonals[1][:, 0] == 0
        info[zero] = 1
        with np.errstate(all="ignore"):
            flat_b[:] = np.where(zero[:, None, None], flat_b, flat_b / diagonals[1][:, :, None])
    elif m:
        _gtsv_rows(*diagonals, flat_b, info)
    return (dl, d, du, flat_b.reshape(b.shape), info.reshape(batch))


def _gtsv_rows(dl, d, du, b, info) -> None:
    """LAPACK's gtsv over the batch (m >= 2), in place: dl[:, 0] and du[:, m-1] are outside
    the matrix and stay. A system with no right-hand side (k = 0) is solved with one zero
    column, for LAPACK's factors and info (SciPy's wrapper does not take an empty b)."""
    (fn,) = lapack.get_lapack_funcs(("gtsv",), dtype=b.dtype)
    k = b.shape[-1]
    for i in range(len(b)):
        rhs = b[i] if k else np.zeros((b.shape[1], 1), b.dtype)
        dl[i, 1:], d[i], du[i, :-1], x, info[i] = fn(dl[i, 1:], d[i], du[i, :-1], rhs)
        if k:
            b[i] = x
