"""A convolution's specialized step (conv.gemm_plan) as members of a run of native calls
(native_chain.py).

keras' and equinox's 1-d convolutions and wav2vec2's feature encoder run their
convolutions as Python steps between runs: NumPy's im2col copy and np.matmul, about 10 us
apiece at their sizes, and each ended a run. Where the plan is one group, one block, its
product's order already the output's and the sums in the output's type (f32, f64), its
per-call work is that many native calls in a run: the lhs copied into the interior of a
zero array the run holds (where the window pads or dilates the base), the window matrix
copied from the windows view (conv._Plan._windows) by the copy routine, and the product
by np.matmul's own BLAS call (matmul_dispatch.matmul_call: one, or one per batch element
where the output's features come before its spatial dimensions, as np.matmul loops over
the broadcast batch), into the new array of the result. The same copies and BLAS calls as
the step's, so the same values.
"""

from __future__ import annotations

from array import array

import numpy as np

from .matmul_dispatch import matmul_call
from .native_routines import _routines
from .placement import _DIMS, copy_args
from .steps import _SPECIAL_ONE, _SPECIAL_TWO, data_address


def conv_member(op, values: dict):
    """native_chain._member's tuple of a convolution step, or None (another form: the
    module docstring; an operand of another type or layout than the plan's copies read
    whole)."""
    fn, inst = op[2], op[1]
    conv = getattr(fn, "conv", None)
    if conv is None:
        return None
    plan, held = conv
    x_inst, w_inst = inst.operands
    if op[0] == _SPECIAL_ONE and len(op) == 5 and op[3] is x_inst and held is not None:
        w = held
    elif op[0] == _SPECIAL_TWO and op[3] is x_inst and op[4] is w_inst and held is None:
        w = values.get(w_inst)
        if w.__class__ is not np.ndarray or not plan.w_view or w.dtype != plan.work or \
                not w.flags.c_contiguous:
            return None
        w = w.reshape(plan.w_matrix)
    else:
        return None
    x, value = values.get(x_inst), values.get(inst)
    work = plan.work
    if plan.empty or plan.blocks != 1 or not plan.direct or plan.w_split[0] != 1 or \
            work != plan.out_dtype or work.itemsize not in (4, 8) or \
            x.__class__ is not np.ndarray or x.dtype != work or \
            value.__class__ is not np.ndarray or value.shape != plan.out_shape or \
            not value.flags.c_contiguous:
        return None
    size = work.itemsize
    calls, patches = [], []
    source = x
    if plan.pad_shape is not None:   # x into a zero array's interior, made once
        padded = np.zeros(plan.pad_shape, work)
        packed = _place(padded[plan.placed], x)
        if packed is None:
            return None
        calls.append((_routines()[f"place{size}"], packed, padded))
        patches.append([packed, 1, x_inst, x.strides, 0, x.shape,
                        lambda y: (8, _strides(y.shape, y.strides))])
        source = padded
    view = plan._windows(source)
    cols = np.empty(plan.col_shape, work)
    made = copy_args(view)
    if made is None:
        return None
    packed = array("q", [data_address(cols), *made])
    calls.append((_routines()[f"copy{size}"], packed, cols))
    if source is x:   # (read per call: another layout of x has its view made again)
        patches.append([packed, 1, x_inst, x.strides, made[0] - data_address(x), x.shape,
                        lambda y: _window_args(plan, y)])
    cols = cols.reshape(plan.matrix)
    probe = np.empty(value.shape, work)   # (the result: a new array made per call)
    if plan.by_batch:   # (O, Kdim) x (Kdim, cells) per batch element
        out = probe.reshape(cols.shape[1], -1, cols.shape[3])
        pairs = [(w[0, 0], cols[0, b], out[b]) for b in range(cols.shape[1])]
    else:               # (N * cells, Kdim) x (Kdim, O)
        pairs = [(cols[0], w[0], probe.reshape(cols.shape[1], -1))]
    targets = []
    for a, b, c in pairs:
        made = matmul_call(a, b, c, _routines())
        if made is None:
            return None
        routine, args, slots = made
        packed = array("q", args)
        at = [k for k, arg in enumerate(args) if arg == data_address(c)]
        if len(at) != 1 or at[0] in slots:
            return None
        calls.append((routine, packed))
        targets.append((packed, at[0], data_address(c) - data_address(probe)))
        if held is None:   # the kernel passed per call: its address written per call
            slot = slots[0] if plan.by_batch else slots[1]
            patches.append([packed, slot, w_inst, values[w_inst].strides,
                            args[slot] - data_address(values[w_inst]),
                            values[w_inst].shape, None])
    return calls, tuple(patches), None, None, \
        (value.shape, value.dtype, tuple(targets), None, np.empty)


def _strides(shape: tuple, strides: tuple) -> list:
    """The 6 byte strides of a copy routine's operand of `shape` (sizes of 1 left out)."""
    kept = [st for n, st in zip(shape, strides, strict=True) if n != 1]
    return [0] * (_DIMS - len(kept)) + kept


def _place(dst: np.ndarray, x: np.ndarray):
    """The place routine's arguments copying x into the strided view `dst` of its shape:
    [dst, x, 6 sizes, x's 6 strides, dst's 6]; None beyond 6 dimensions."""
    if dst.shape != x.shape:
        return None
    kept = [d for d, n in enumerate(x.shape) if n != 1]
    if len(kept) > _DIMS:
        return None
    pad = _DIMS - len(kept)
    return array("q", [data_address(dst), data_address(x), *[1] * pad,
                       *[x.shape[d] for d in kept], *[0] * pad,
                       *[x.strides[d] for d in kept], *[0] * pad,
                       *[dst.strides[d] for d in kept]])


def _window_args(plan, y: np.ndarray):
    """A restride of the window copy for x laid out as `y`: (slot, its address, sizes and
    strides, the view's offset from y's address), or None."""
    view = plan._windows(y)
    made = copy_args(view)
    if made is None or not np.shares_memory(view, y):
        return None
    return 1, made, made[0] - data_address(y)
