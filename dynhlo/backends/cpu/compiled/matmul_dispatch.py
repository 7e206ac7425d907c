"""NumPy's matmul dispatch for one matrix each (numpy/_core/src/umath/matmul.c.src,
@TYPE@_matmul), replicated so a run of native calls (native_chain.py) calls the BLAS
function NumPy would, with the same arguments, and so gets its bits: gemm for matrices,
gemv for a vector times a matrix, @TYPE@_dot's cblas dot summed in double for a row times a
column, its loop without BLAS where it takes that; None where NumPy computes otherwise
(syrk for a matrix times its own transpose, copies of operands or output that are not
blasable, an output overlapping an operand).
"""

from __future__ import annotations

import ctypes

import numpy as np

from .native_routines import _COL_MAJOR, _NO_TRANS, _ROW_MAJOR, _TRANS
from .steps import data_address

_GEMMS = frozenset({np.dtype(np.float32), np.dtype(np.float64)})

def _blasable(s1: int, s2: int, d1: int, d2: int, size: int) -> bool:
    """matmul.c.src's is_blasable2d: the faster axis dense, the slower's unit stride whole
    and at least the faster's length."""
    return s2 == size and s1 % size == 0 and d2 <= s1 // size < (1 << 62)


def gemm_args(a: np.ndarray, b: np.ndarray, out: np.ndarray, fn: int) -> list | None:
    """The gemm wrapper's arguments for `np.matmul(a, b, out=out)` when NumPy computes it by
    one gemm of these arrays (matmul_call's matrix-matrix case), else None."""
    made = _matmul_case(a, b, out)
    if made is None or made[0] != "gemm":
        return None
    return [fn, *made[1]]


def matmul_call(a: np.ndarray, b: np.ndarray, out: np.ndarray, routines: dict):
    """(wrapper address, its arguments, the slots of a's and b's addresses) of the BLAS call
    `np.matmul(a, b, out=out)` makes on these 2-d arrays: @TYPE@_matmul's dispatch
    (matmul.c.src) for one matrix each: a row times a column by @TYPE@_dot (cblas dot,
    summed in double), a vector times a matrix or a matrix times a vector by @TYPE@_gemv,
    matrices by gemm, and its loop without BLAS where it takes that for a 1 among the
    sizes; None for what it computes otherwise (syrk, copies of operands or output that
    are not blasable, a row times a column it does not give BLAS, an output overlapping an
    operand)."""
    made = _matmul_case(a, b, out)
    if made is None:
        return None
    how, args, slots = made[0], made[1], made[2]
    prefix = "s" if a.dtype == np.float32 else "d"
    blas = 0 if how == "noblas" else routines.get(prefix + how)
    if blas is None:
        return None
    if how == "gemm" and prefix == "s":
        kc = tiled_block(*args[:5], routines)
        if kc is not None:
            return routines["tiled_f32"], [kc, *args], slots
    name = "f32" if prefix == "s" else "f64"
    return routines[f"{how}_{name}"], [blas, *args], slots


_TILED_LEAST = 32   # rows, columns and sums below which the BLAS call is kept
_BLAS_Q = 448       # OpenBLAS's GEMM_Q for f32 on AVX-512 cores: its K block
_proven: dict = {}  # (BLAS threads, transa, transb, M, N, K) -> K block, or None
_UNKNOWN = object()


def tiled_block(transa: int, transb: int, m: int, n: int, k: int, routines: dict) -> int | None:
    """The K block (BLAS's GEMM_Q) with which the tiled kernel (tiled_gemm.py) gives the
    bits of the f32 gemm NumPy's matmul calls at these sizes, or None where it does not or
    may not.

    The order in which a BLAS sums is its own (kernels per CPU, paths for small sizes, K
    split in blocks), so it is not assumed: the kernel takes sizes only where, once per
    process, both computed the same random product of these sizes and layouts and got
    equal bits. Kept to one BLAS thread (the kernel runs on one) and to sizes where it was
    measured faster (bench/cpu_tiled_gemm.py), with A not transposed (the kernel's form)."""
    threads = routines.get("blas_threads", lambda: 0)()
    if min(m, n, k) < _TILED_LEAST or "tiled_f32" not in routines or threads != 1 or \
            transa != _NO_TRANS:
        return None
    key = (threads, transa, transb, m, n, k)
    known = _proven.get(key, _UNKNOWN)
    if known is not _UNKNOWN:
        return known
    if len(_proven) > 4096:
        _proven.clear()
    kc = _proven[key] = _BLAS_Q if _probe(key, _BLAS_Q, routines) else None
    return kc   # (not read back: another thread may clear the table in between)


def _probe(key: tuple, kc: int, routines: dict) -> bool:
    """Whether the tiled kernel with GEMM_Q `kc` and NumPy's matmul give equal bits on one
    random product of `key`'s sizes and layouts (magnitudes spread over 2^-8 .. 2^8, so a
    different order of sums shows). Its operands are views of one random array kept for
    the process, so a probe costs the two products and little else (a stream of new sizes
    probes at each)."""
    _, transa, transb, m, n, k = key
    data = _probe_data(m * k + k * n)

    def operand(at, rows, cols, transposed):
        x = data[at:at + rows * cols].reshape((cols, rows) if transposed else (rows, cols))
        return x.T if transposed else x

    a, b = operand(0, m, k, transa == _TRANS), operand(m * k, k, n, transb == _TRANS)
    want, got = np.matmul(a, b), np.empty((m, n), np.float32)
    table = np.array([kc, *_matmul_case(a, b, got)[1]], np.int64)
    if routines["tiled_f32"] not in _CALLS:
        _CALLS[routines["tiled_f32"]] = ctypes.CFUNCTYPE(
            ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p)(routines["tiled_f32"])
    return _CALLS[routines["tiled_f32"]](None, table.ctypes.data) == 0 and \
        np.array_equal(want.view(np.uint32), got.view(np.uint32))


_CALLS: dict = {}            # the routine's address -> its ctypes callable
_DATA: list = [np.empty(0, np.float32)]
_DATA_KEPT = 1 << 24         # elements of probe data kept for the process (64 MiB)


def _probe_data(count: int) -> np.ndarray:
    """At least `count` random f32 values, magnitudes over 2^-8 .. 2^8 (kept up to
    _DATA_KEPT; a larger probe's made for it alone)."""
    if _DATA[0].size >= count:
        return _DATA[0]
    gen = np.random.default_rng(0)
    size = max(count, min(2 * _DATA[0].size, _DATA_KEPT))
    data = (gen.standard_normal(size) * np.exp2(gen.integers(-8, 9, size))).astype(np.float32)
    if size <= _DATA_KEPT:
        _DATA[0] = data
    return data


def _matmul_case(a, b, out):
    """("gemm" | "gemv" | "dot", wrapper arguments after the function, (slot of a, slot of
    b) in the full argument list) or None: matmul_call's dispatch."""
    if not (a.__class__ is b.__class__ is out.__class__ is np.ndarray and
            a.ndim == b.ndim == out.ndim == 2 and a.dtype == b.dtype == out.dtype and
            a.dtype in _GEMMS and a.flags.aligned and b.flags.aligned and
            out.flags.aligned and out.flags.writeable):
        return None
    sz = a.dtype.itemsize
    (dm, dn), (dn2, dp) = a.shape, b.shape
    if dn != dn2 or out.shape != (dm, dp) or min(dm, dn, dp) < 1 or \
            max(dm, dn, dp) >= 1 << 31:
        return None   # (no work, or too big: NumPy's loop without BLAS)
    if np.may_share_memory(out, a) or np.may_share_memory(out, b):
        return None   # (the ufunc may compute into a copy)
    (is1_m, is1_n), (is2_n, is2_p), (os_m, os_p) = a.strides, b.strides, out.strides
    i1c, i1f = _blasable(is1_m, is1_n, dm, dn, sz), _blasable(is1_n, is1_m, dn, dm, sz)
    i2c, i2f = _blasable(is2_n, is2_p, dn, dp, sz), _blasable(is2_p, is2_n, dp, dn, sz)
    ea, eb, eo = _extent(a), _extent(b), _extent(out)
    if dm == 1 or dn == 1 or dp == 1:   # @TYPE@_matmul's special cases
        if dm == 1 and dp == 1:   # a row times a column: @TYPE@_dot
            if not (_unit(is1_n, sz) and _unit(is2_n, sz)) or dn >= 1 << 30:
                return None   # (its loop without BLAS; more than one chunk)
            return "dot", [dn, data_address(a), is1_n // sz, data_address(b), is2_n // sz,
                           data_address(out), ea, eb, eo], (2, 4)
        if dn == 1:   # (1,1) @ vector or vector @ (1,1), column @ row: its loop
            return _noblas(a, b, out, ea, eb, eo)
        if dm == 1 and (i2c or i2f) and _blasable(is1_n, sz, dn, 1, sz):
            if not _unit(os_p, sz):
                return None
            # vector @ matrix: gemv(ip2, is2_p, is2_n, ip1, is1_n, op, os_p, dp, dn)
            return "gemv", _gemv(b, is2_p, is2_n, a, is1_n, out, os_p, dp, dn, sz,
                                 eb, ea, eo), (6, 4)
        if dp == 1 and (i1c or i1f) and _blasable(is2_n, sz, dn, 1, sz):
            if not _unit(os_m, sz):
                return None
            return "gemv", _gemv(a, is1_m, is1_n, b, is2_n, out, os_m, dm, dn, sz,
                                 ea, eb, eo), (4, 6)
        return _noblas(a, b, out, ea, eb, eo)   # (not blasable: its loop without BLAS)
    if not (i1c or i1f) or not (i2c or i2f) or \
            not (_blasable(os_m, os_p, dm, dp, sz) and abs(os_m) >= abs(os_p)):
        return None   # (copies, or the transposed product into a transposed output)
    if i1c:
        trans1, lda = _NO_TRANS, is1_m // sz
    else:
        trans1, lda = _TRANS, is1_n // sz
    if i2c:
        trans2, ldb = _NO_TRANS, is2_n // sz
    else:
        trans2, ldb = _TRANS, is2_p // sz
    syrk = dm == dp and is1_m == is2_p and is1_n == is2_n and trans1 != trans2
    if syrk and data_address(a) == data_address(b):
        return None   # (syrk and a copied triangle)
    return "gemm", [trans1, trans2, dm, dp, dn, data_address(a), lda, data_address(b), ldb,
                    data_address(out), os_m // sz, ea, eb, eo, int(syrk)], (6, 8)


def _noblas(a, b, out, ea, eb, eo) -> tuple | None:
    """matmul.c.src's @TYPE@_matmul_inner_noblas's call (after the function): strides in
    bytes, as NumPy hands them."""
    (dm, dn), dp = a.shape, b.shape[1]
    if any(n > 1 and st < 0 for x in (a, b, out) for n, st in zip(x.shape, x.strides,
                                                                  strict=True)):
        return None   # (the extents of the overlap check: positive strides)
    return "noblas", [data_address(a), *a.strides, data_address(b), *b.strides,
                      data_address(out), *out.strides, dm, dn, dp, ea, eb, eo], (1, 4)


def _gemv(m, is_m, is_n, x, is_x, out, os, dm, dn, sz, em, ex, eo) -> list:
    """@TYPE@_gemv's call (after the function): `m` (dm, dn) by its strides times the
    vector `x`, into `out` at stride `os`."""
    if _blasable(is_m, is_n, dm, dn, sz):
        order, lda = _COL_MAJOR, is_m // sz
    else:
        order, lda = _ROW_MAJOR, is_n // sz
    return [order, dn, dm, data_address(m), lda, data_address(x), is_x // sz,
            data_address(out), os // sz, em, ex, eo]


def _unit(stride: int, size: int) -> bool:
    """blas_stride's test: a positive multiple of the element size."""
    return stride > 0 and stride % size == 0 and stride // size < 1 << 31


def _extent(a: np.ndarray) -> int:
    """The bytes from `a`'s first element to past its last (positive strides)."""
    return sum((n - 1) * s for n, s in zip(a.shape, a.strides, strict=True)) + a.itemsize
