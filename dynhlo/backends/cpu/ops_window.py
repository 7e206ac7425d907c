"""Windowed opcodes on the CPU: reduce-window and select-and-scatter.

Both walk the window one tap (one offset inside the window) at a time, vectorized over every
output position: a tap reads the operand where it lands on a real element and is skipped where
it lands on padding or on a hole of base dilation. That is XLA's evaluator semantics (padding
positions never enter the reduction; the result starts from the init value) and, because the
operand is held at its actual size, it is also the static computation at the actual size:
padding data of a dynamic operand cannot leak. Semantics: XLA operation semantics,
ReduceWindow and SelectAndScatter.
"""

from __future__ import annotations

import itertools

import numpy as np

from ...hlo.opcodes import Opcode
from ...hlo.types import to_numpy_dtype
from ...shapes.windows import (WindowDim, running_axis, useful_taps, window_dims,
                               window_output_size)
from .lowering import lowering
from .minmax import MAXIMUM, MINIMUM
from .ops_reduce import _fast_reducer  # the same add/max/... detection reduce uses


def window_taps(shape: tuple[int, ...], wins: list[WindowDim], out_shape: tuple[int, ...]):
    """Per window offset: (index arrays for np.ix_, validity mask), both over output positions.

    An output position o and a tap k of dimension d read the base-dilated, padded operand at
    o*stride + k*window_dilation; that is operand element (p - lo)/base_dilation when it
    divides and falls inside the operand, else padding (mask False, index clamped to 0).
    """
    per_dim = []
    for n, w, m in zip(shape, wins, out_shape, strict=True):
        o = np.arange(m)
        taps = []
        for k in useful_taps(n, w, m):
            p = o * w.stride + k * w.window_dilation - w.lo
            valid = (p >= 0) & (p % w.base_dilation == 0) & (p // w.base_dilation < n)
            taps.append((np.where(valid, p // w.base_dilation, 0), valid))
        per_dim.append(taps)
    for combo in itertools.product(*per_dim):
        index = np.ix_(*[c[0] for c in combo])
        mask = np.ones(out_shape, dtype=bool)
        for d, (_, valid) in enumerate(combo):
            mask &= valid.reshape([-1 if k == d else 1 for k in range(len(out_shape))])
        if mask.any():
            yield index, mask


def _out_shape(x: np.ndarray, wins: list[WindowDim]) -> tuple[int, ...]:
    return tuple(window_output_size(n, w) for n, w in zip(x.shape, wins, strict=True))


def _work_dtype(dtype: np.dtype) -> np.dtype:
    """Low-precision floats reduce in f32, as XLA's CPU backend does."""
    if dtype.kind == "V" or (dtype.kind == "f" and dtype.itemsize < 4):
        return np.dtype(np.float32)
    return dtype


@lowering(Opcode.REDUCE_WINDOW, note="window positions on padding or base-dilation holes are "
                                      "skipped, as XLA's evaluator does")
def reduce_window(ctx, inst, args):
    """N arrays and N scalar inits -> N reduced arrays (a tuple when N > 1)."""
    n = len(args) // 2
    arrays, inits = _fit_operands(ctx, inst, args[:n]), args[n:]
    wins = window_dims(inst, arrays[0].ndim)
    out_shape = _out_shape(arrays[0], wins)
    (comp,) = inst.called["to_apply"]
    dtypes = [to_numpy_dtype(s.element_type) for s in
              (inst.shape.elements if inst.shape.is_tuple else [inst.shape])]
    ufunc = _fast_reducer(comp) if n == 1 else None
    if ufunc is not None:
        work = _work_dtype(arrays[0].dtype)
        x = arrays[0].astype(work, copy=False)
        running = _running_axis(x, wins, ufunc)
        if running is not None:
            return _accumulate(ufunc, x, inits[0], *running).astype(dtypes[0])
        acc = np.full(out_shape, inits[0], dtype=work)
        for index, mask in window_taps(x.shape, wins, out_shape):
            acc = np.where(mask, ufunc(acc, x[index]), acc)
        return acc.astype(dtypes[0])
    accs = [np.full(out_shape, init, dtype=dt) for init, dt in zip(inits, dtypes, strict=True)]
    for index, mask in window_taps(arrays[0].shape, wins, out_shape):
        result = ctx.call(0, comp, accs + [a[index] for a in arrays], vectorized=True)
        result = list(result) if isinstance(result, tuple) else [result]
        accs = [np.where(mask, r, a).astype(a.dtype) for r, a in zip(result, accs, strict=True)]
    return accs[0] if n == 1 else tuple(accs)


_ORDER_FREE = (np.maximum, np.minimum, MAXIMUM, MINIMUM, np.logical_and, np.logical_or,
               np.bitwise_and, np.bitwise_or)


def _running_axis(x, wins, ufunc):
    """(axis, reverse) when the window is a running reduction along one axis (cumsum).

    A suffix only for order-free reductions or integers (see windows.running_axis).
    """
    return running_axis(x.shape, wins, ufunc in _ORDER_FREE or x.dtype.kind in "iub")


def _accumulate(ufunc, x, init, axis, reverse):
    """init, x0, x1, ... folded left to right, every prefix kept: XLA's order of operations."""
    if reverse:
        x = np.flip(x, axis)
    head = np.full(x.shape[:axis] + (1,) + x.shape[axis + 1:], init, dtype=x.dtype)
    out = ufunc.accumulate(np.concatenate([head, x], axis=axis), axis=axis)
    out = np.delete(out, 0, axis=axis)
    return np.flip(out, axis) if reverse else out


def _fit_operands(ctx, inst, arrays: list) -> list:
    """Operands cut to their shared actual shape.

    The shape rule unified the operands, so a static operand meets a dynamic one of the same
    bound: the smallest size is the actual one, and XLA never reads the static one past it.
    """
    if any(a.ndim != arrays[0].ndim for a in arrays):
        raise ctx.error("reduce-window operands of different ranks")
    shape = tuple(min(a.shape[d] for a in arrays) for d in range(arrays[0].ndim))
    return [a[tuple(slice(0, s) for s in shape)] for a in arrays]


@lowering(Opcode.SELECT_AND_SCATTER)
def select_and_scatter(ctx, inst, args):
    """Scatter `source` onto the element `select` picks in each window of `operand`.

    Per window, the first real element (in row-major window order) is the first pick; a later
    element replaces the pick when select(pick, element) is false (XLA: select returns true
    to keep its first argument). Windows made only of padding pick nothing. Each pick gets
    out[pick] = scatter(out[pick], source value), in row-major order of the source.
    """
    operand, source, init = args
    wins = window_dims(inst, operand.ndim)
    out_shape = _out_shape(operand, wins)
    if source.shape != out_shape:
        raise ctx.error(f"source has size {list(source.shape)} but the windows over the "
                        f"operand of size {list(operand.shape)} give {list(out_shape)}")
    select, scatter = inst.called["select"][0], inst.called["scatter"][0]
    picked, have = _select(ctx, select, operand, wins, out_shape)
    out = np.full(operand.shape, init, dtype=to_numpy_dtype(inst.shape.element_type))
    _scatter(ctx, scatter, out.reshape(-1), picked[have], source[have])
    return out


def _select(ctx, select, operand, wins, out_shape):
    """Flat operand index of each window's pick, and whether the window picked anything."""
    best = np.zeros(out_shape, dtype=operand.dtype)
    picked = np.zeros(out_shape, dtype=np.int64)
    have = np.zeros(out_shape, dtype=bool)
    for index, mask in window_taps(operand.shape, wins, out_shape):
        value = operand[index]
        keep = np.asarray(ctx.call(0, select, [best, value], vectorized=True), dtype=bool)
        take = mask & (~have | ~keep)
        best = np.where(take, value, best)
        flat = np.ravel_multi_index(np.broadcast_arrays(*index), operand.shape)
        picked = np.where(take, flat, picked)
        have |= mask
    return picked, have


def _scatter(ctx, scatter, out_flat, targets, updates):
    """out[t] = scatter(out[t], u) in order; repeated targets are applied in rounds."""
    if not len(targets):
        return
    ufunc = _fast_reducer(scatter)
    if ufunc is not None and ufunc.nin == 2 and hasattr(ufunc, "at"):
        ufunc.at(out_flat, targets, updates.astype(out_flat.dtype))
        return
    order = np.argsort(targets, kind="stable")
    sorted_targets = targets[order]
    starts = np.r_[0, np.nonzero(np.diff(sorted_targets))[0] + 1]
    rank = np.arange(len(order)) - np.repeat(starts, np.diff(np.r_[starts, len(order)]))
    for r in range(int(rank.max()) + 1):
        chosen = order[rank == r]  # at most one update per target in this round
        t = targets[chosen]
        result = ctx.call(1, scatter, [out_flat[t], updates[chosen]], vectorized=True)
        out_flat[t] = np.asarray(result).astype(out_flat.dtype)
