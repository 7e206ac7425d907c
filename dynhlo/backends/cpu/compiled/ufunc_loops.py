"""NumPy's own inner loop of a one-input ufunc (np.exp, np.tanh, ...) on f32 or f64, so that
a run of native calls (native_chain.py) can call it where a spec's step calls `ufunc(x, out=out)`
on dense arrays of one shape and dtype.

For such a call NumPy's iterator hands the whole array to one inner loop call: the loop of
the first of the ufunc's legacy types matching (PyUFunc_DefaultLegacyInnerLoopSelector),
`loop(args, &n, steps, data)`. That function and its data are read from the ufunc object
(numpy/_core/include/numpy/ufuncobject.h's PyUFuncObject: nin, nout, nargs, identity,
functions, data, ntypes, reserved1, name, types after the object header); the fields are
checked against the ufunc's Python attributes, and the loop is then checked against the
ufunc itself on arrays of awkward values at many lengths and alignments, bit for bit.
Where anything differs (another NumPy layout, a loop NumPy no longer picks), `loop` gives
None and the step stays a Python step.
"""

from __future__ import annotations

import ctypes
import threading

import numpy as np

_lock = threading.Lock()
_found: dict = {}   # (ufunc name, dtype char) -> (function address, data) or None
LOOP = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                        ctypes.c_void_p)


def loop(ufunc, dtype) -> tuple[int, int] | None:
    """(inner loop function address, its data pointer) NumPy runs for `ufunc(x, out=out)`
    on dense `dtype` arrays (f32 or f64), checked; None where not found or not the same."""
    dtype = np.dtype(dtype)
    if not isinstance(ufunc, np.ufunc) or ufunc.nin != 1 or ufunc.nout != 1 or \
            dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        return None
    key = (ufunc.__name__, dtype.char)
    with _lock:
        if key not in _found:
            _found[key] = _read(ufunc, dtype)
        return _found[key]


def _read(ufunc, dtype):
    try:
        base = id(ufunc) + object.__basicsize__
        nin, nout, nargs = (ctypes.c_int * 3).from_address(base)
        ntypes = ctypes.c_int.from_address(base + 32).value
        if (nin, nout, nargs, ntypes) != (1, 1, 2, ufunc.ntypes):
            return None   # (another layout: no pointer of it is followed)
        if ctypes.c_char_p.from_address(base + 40).value != ufunc.__name__.encode():
            return None
        types = ctypes.string_at(ctypes.c_void_p.from_address(base + 48).value,
                                 ntypes * nargs)
        functions = ctypes.c_void_p.from_address(base + 16).value
        datas = ctypes.c_void_p.from_address(base + 24).value
    except (ValueError, OSError, TypeError):   # pragma: no cover - a layout not met
        return None
    # the legacy types, as type numbers, against ufunc.types (the same table)
    signatures = ufunc.types
    if len(signatures) != ntypes:
        return None
    for k, signature in enumerate(signatures):
        want = [np.dtype(c).num for c in signature.replace("->", "")]
        if list(types[2 * k:2 * k + 2]) != want:
            return None
    index = next((k for k, s in enumerate(signatures) if s == f"{dtype.char}->{dtype.char}"),
                 None)
    if index is None:
        return None
    fn = ctypes.c_void_p.from_address(functions + 8 * index).value
    data = ctypes.c_void_p.from_address(datas + 8 * index).value if datas else 0
    if not fn:
        return None
    return (fn, data or 0) if _agrees(ufunc, dtype, fn, data or 0) else None


def _agrees(ufunc, dtype, fn: int, data: int) -> bool:
    """The loop's results are the ufunc's, bit for bit, on awkward values at lengths and
    alignments that take its vector and scalar paths."""
    call = LOOP(fn)
    r = np.random.default_rng(0)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 1e-310, 88.7,
                        -88.7, 89.0, 710.0, -745.0, 0.5, -0.5, 1.0, -1.0, 3e38, -3e38, 20.0,
                        -20.0, 1e-8, 0.9999999, 1.0000001, 2.0, 1e5], np.float64)
    with np.errstate(all="ignore"):
        for n in (1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257, 1000):
            for shift in (0, 1):
                room = np.empty(n + shift, dtype)
                x = room[shift:]
                x[...] = (r.standard_normal(n) * r.choice([0.1, 1, 5, 50], n)).astype(dtype)
                at = r.integers(0, n, min(n, len(special)))
                x[at] = special[:len(at)].astype(dtype)
                want = ufunc(x, out=np.empty(n, dtype))
                got = np.full(n, np.nan, dtype)
                args = (ctypes.c_void_p * 2)(x.ctypes.data, got.ctypes.data)
                dims = (ctypes.c_int64 * 1)(n)
                steps = (ctypes.c_int64 * 2)(dtype.itemsize, dtype.itemsize)
                call(ctypes.addressof(args), ctypes.addressof(dims), ctypes.addressof(steps),
                     data)
                if got.tobytes() != want.tobytes():
                    return False
    return True
