"""A sum over one axis that is not the last (keras' mean over a sequence, a column sum) as
a member of a run of native calls (native_chain.py).

special._reduce runs np.add.reduce: where the array is C-ordered and the axis is not its
last, NumPy's iterator runs the trailing axes innermost, so each sum starts from +0 and
adds its terms in order along the axis, rounded to the type at each step (not pairwise).
The `sums_f32`/`sums_f64` routines (native_routines.py) do that, then add the init as the
step's `ufunc(out, init)` does; a call whose sums hold a zero declines (XLA's -0 sums:
the Python step's). Where this process's NumPy orders its sums otherwise (checked once,
bit for bit, on awkward values at several shapes), no member is made.
"""

from __future__ import annotations

import math
import threading
from array import array

import numpy as np

from .native_routines import _routines
from .steps import data_address

_lock = threading.Lock()
_agrees: dict = {}   # dtype -> whether the routine is np.add.reduce's order here


def sums_member(op, values: dict):
    """native_chain._member's tuple of a _SPECIAL_ONE reduce (special._reduce's `sums`:
    np.add over one axis, a held scalar init) of a C-ordered f32/f64 array, or None."""
    sums = getattr(op[2], "sums", None)
    inst = op[1]
    if sums is None or len(op) != 5 or op[3] is not inst.operands[0]:
        return None
    ufunc, axes, held = sums
    x, value = values.get(op[3]), values.get(inst)
    if ufunc is not np.add or held is None or np.ndim(held) or len(axes) != 1 or \
            x.__class__ is not np.ndarray or value.__class__ is not np.ndarray or \
            x.dtype not in (np.dtype(np.float32), np.dtype(np.float64)) or \
            value.dtype != x.dtype or not x.flags.c_contiguous or \
            not value.flags.c_contiguous or not x.size:
        return None
    (axis,) = axes
    outer, length = math.prod(x.shape[:axis]), x.shape[axis]
    inner = math.prod(x.shape[axis + 1:])
    if inner < 2 or value.size != outer * inner or np.isnan(held) or \
            not _routine_agrees(x.dtype):
        return None   # (a NaN init: which NaN a sum keeps is NumPy's loop's choice)
    name = "sums_f32" if x.dtype == np.float32 else "sums_f64"
    # (C order's own strides: NumPy reports any stride for an axis of size 1)
    row = inner * x.itemsize
    packed = array("q", [data_address(x), 0, outer, length, inner, length * row, row,
                         _bits(held)])
    return [(_routines()[name], packed)], \
        ([packed, 0, op[3], x.strides, 0, x.shape, None],), None, None, \
        (value.shape, value.dtype, ((packed, 1, 0),), None, np.empty)


def _bits(init) -> int:
    """The init as the bits of an f64 (exact: an f32's value is an f64's)."""
    return int(np.array(float(init), np.float64).view(np.int64))


def _routine_agrees(dtype) -> bool:
    with _lock:
        if dtype not in _agrees:
            _agrees[dtype] = _check(dtype)
        return _agrees[dtype]


def _check(dtype) -> bool:
    """Whether the routine gives np.add.reduce's sums plus an init, bit for bit, on values
    of mixed magnitudes and signs (-0 and infinities among them) at several shapes."""
    from . import machine
    routine = machine.KERNEL(_routines()["sums_f32" if dtype == np.float32 else "sums_f64"])
    rng = np.random.default_rng(11)
    for shape in ((1, 2, 2), (3, 7, 5), (2, 33, 16), (5, 1, 3), (4, 129, 2)):
        x = (rng.standard_normal(shape) * 10.0 ** rng.integers(-8, 8, shape)).astype(dtype)
        x.flat[::7] = -0.0
        for init in (0.0, -0.0, 1.5):
            out = np.empty((shape[0], shape[2]), dtype)
            args = array("q", [data_address(x), data_address(out), shape[0], shape[1],
                               shape[2], x.strides[0], x.strides[1], _bits(init)])
            with np.errstate(all="ignore"):
                want = np.add(np.add.reduce(x, axis=1), np.asarray(init).astype(dtype))
                if not np.add.reduce(x, axis=1).all():
                    continue   # (a zero sum: declined, by design)
            if routine(None, args.buffer_info()[0]) != 0 or out.tobytes() != want.tobytes():
                return False
    return True
