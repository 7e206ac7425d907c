"""Indexing and reinterpreting data on the CPU: dynamic-slice, dynamic-update-slice, reverse,
dynamic-reshape, bitcast, bitcast-convert, gather and scatter.

Values are held at their actual sizes. dynamic-slice and dynamic-update-slice place their
windows as XLA does on the padded buffer (starts clamped against the bounds; the shared
rules are in shapes/slice_windows.py), and so does gather (a start clamped to [0, bound -
slice size]); a row such a window reads past the actual size is XLA's buffer padding, which
reads as zeros (padding_reads="error": a DynamicSizeError naming the instruction). A reverse
flips only the valid region, and a scatter window is in or out of bounds by the actual sizes.
Semantics: XLA operation semantics (https://openxla.org/xla/operation_semantics).
"""

from __future__ import annotations

import numpy as np

from ...hlo import attrs
from ...hlo.opcodes import Opcode
from ...hlo.shape import UNBOUNDED
from ...hlo.types import bit_width, to_numpy_dtype
from ...shapes.rules_indexing import physical_order
from ...shapes.sizes import gather_past_size
from ...shapes.slice_windows import refuses_padding, slice_window, update_windows, within
from .lowering import lowering
from .ops_data import own_sizes as _own_sizes
from .ops_reduce import _fast_reducer


def _starts(ctx, values, rank: int) -> list[int]:
    """Start indices as ints: one scalar operand per dimension, or one rank-1 operand."""
    if len(values) == 1 and np.ndim(values[0]) == 1:
        return [int(v) for v in np.asarray(values[0]).tolist()]
    if len(values) != rank:
        raise ctx.error(f"{len(values)} start indices for a rank-{rank} operand")
    return [int(np.asarray(v)) for v in values]


@lowering(Opcode.DYNAMIC_SLICE)
def dynamic_slice(ctx, inst, args):
    """The window at XLA's starts, clamped against the bounds (slice_windows.py); its rows
    past the actual size are padding: zeros."""
    x, *starts = args
    shape = ctx.out_shape()
    window = slice_window(inst, _starts(ctx, starts, x.ndim), x.shape, shape,
                          refuse=refuses_padding(inst, ctx.evaluator.padding_reads))
    inside = within(window, x.shape)
    if inside is None:
        return np.array(x[window], copy=True)
    out = np.zeros(shape, x.dtype)
    out[inside[1]] = x[inside[0]]
    return out


@lowering(Opcode.DYNAMIC_UPDATE_SLICE)
def dynamic_update_slice(ctx, inst, args):
    """The operand (at the result's sizes) with the update's valid rows written at XLA's
    starts; rows that land in XLA's padding are dropped (slice_windows.py)."""
    x, update, *starts = args
    shape = ctx.out_shape()
    target, source = update_windows(inst, _starts(ctx, starts, x.ndim), update.shape, shape)
    if tuple(shape) == x.shape:
        out = np.array(x, copy=True)
    else:  # the result takes a whole-bound update's size: the update covers the new rows
        out = np.zeros(shape, x.dtype)
        common = tuple(slice(0, min(a, b)) for a, b in zip(shape, x.shape, strict=True))
        out[common] = x[common]
    out[target] = update[source]
    return out


@lowering(Opcode.REVERSE)
def reverse(ctx, inst, args):
    """Flip the listed dims; on a dynamic dim only the valid region exists, so only it flips."""
    (x,) = args
    return np.array(np.flip(x, axis=attrs.ints(inst, "dimensions", ())), copy=True)


@lowering(Opcode.DYNAMIC_RESHAPE)
def dynamic_reshape(ctx, inst, args):
    """Row-major reshape of the valid region to the sizes given by the size operands."""
    x = args[0]
    shape = _own_sizes(ctx, inst, {d: (inst.operands[1 + d], args[1 + d])
                                   for d in range(len(args) - 1)})
    if x.size != int(np.prod(shape)):
        raise ctx.error(f"dynamic-reshape of {list(x.shape)} ({x.size} elements) to sizes "
                        f"{list(shape)} ({int(np.prod(shape))} elements)")
    return x.reshape(shape)


@lowering(Opcode.BITCAST, note="between element types of one width, or of other widths at "
                                "equal byte sizes (XLA's verifier): the bytes in layout "
                                "order; not sub-byte types")
def bitcast(ctx, inst, args):
    """Reshape in physical (layout) order: the row-major bytes of both layouts agree. A new
    element type reinterprets those bytes (little-endian, as XLA on x86/ARM), of another
    width too when the byte sizes agree (`f32[2]` -> `s16[4]`: XLA's verifier compares only
    ByteSizeOf; the shape rule refuses sub-byte types)."""
    (x,) = args
    src, dst = physical_order(inst.operands[0].shape), physical_order(inst.shape)
    shape = ctx.out_shape()
    phys_shape = [shape[p] for p in dst]
    dtype = to_numpy_dtype(inst.shape.element_type)
    if x.size * x.dtype.itemsize != int(np.prod(shape)) * dtype.itemsize:
        raise ctx.error(f"bitcast of {list(x.shape)} {x.dtype} ({x.nbytes} bytes) to "
                        f"{list(shape)} {dtype} ({int(np.prod(shape)) * dtype.itemsize} bytes)")
    phys = np.transpose(x, src)
    if dtype != x.dtype:
        phys = np.ascontiguousarray(phys).reshape(-1).view(dtype)
    return np.transpose(phys.reshape(phys_shape), np.argsort(dst))


@lowering(Opcode.BITCAST_CONVERT)
def bitcast_convert(ctx, inst, args):
    """Reinterpret bits (little-endian, as XLA on x86/ARM): a wider source type splits each
    element along a new last dimension, a narrower one joins the last dimension."""
    (x,) = args
    dtype = to_numpy_dtype(inst.shape.element_type)
    if x.dtype.itemsize * 8 != _bits(inst.operands[0]) or dtype.itemsize * 8 != _bits(inst):
        raise ctx.error("bitcast-convert of sub-byte element types is not supported")
    x = np.asarray(x, order="C")
    if x.dtype.itemsize == dtype.itemsize:
        return x.view(dtype)
    if x.dtype.itemsize > dtype.itemsize:
        return x.reshape(x.shape + (1,)).view(dtype)
    return x.view(dtype).reshape(x.shape[:-1])


def _bits(inst) -> int:
    return bit_width(inst.shape.element_type)



def _index_vectors(indices, ivd: int) -> np.ndarray:
    """Start indices with the index vector dimension moved last: (batch..., K), int64."""
    indices = np.asarray(indices)
    if ivd == indices.ndim:
        indices = indices[..., None]
    return np.moveaxis(indices.astype(np.int64), ivd, -1)


def _batch_iota(batch_shape, axis: int) -> np.ndarray:
    """Each batch position's coordinate along `axis` (the index of a batching dimension)."""
    line = np.arange(batch_shape[axis]).reshape([-1 if k == axis else 1
                                                 for k in range(len(batch_shape))])
    return np.broadcast_to(line, batch_shape)


def _window_grids(starts: list, sizes: list, lead: tuple, window_of: dict) -> list:
    """Per operand dim, its index at every (lead..., window...) position.

    `starts[d]` has shape `lead`; `window_of[d]` is the window axis that walks dim d, if any.
    """
    window_shape = tuple(sizes[d] for d in sorted(window_of, key=window_of.get))
    nl, nw = len(lead), len(window_shape)
    grids = []
    for d, start in enumerate(starts):
        grid = np.asarray(start).reshape(lead + (1,) * nw)
        if d in window_of:
            k = window_of[d]
            grid = grid + np.arange(sizes[d]).reshape((1,) * nl + tuple(
                -1 if j == k else 1 for j in range(nw)))
        grids.append(np.broadcast_to(grid, lead + window_shape))
    return grids


def _gather_start(ctx, start, d: int, window: int, size: int, actual: int, bound: int):
    """Dimension `d`'s clamped starts: XLA clamps a gather start to [0, bound - window] of
    the padded buffer (`window` the slice size; `size` the window's actual size, smaller
    where the window is a whole dynamic dimension, which starts at 0); a `?` dimension has
    no padded buffer, so there to [0, actual - size]. Rows past `actual` are padding
    (tf.unique over bounded input reads one); padding_reads="error" refuses them."""
    if bound == UNBOUNDED:
        if size > actual:
            raise ctx.error(f"gather slice of size {size} along operand dimension {d}, which "
                            f"has actual size {actual}: a `?` dimension has no padded buffer "
                            "to read")
        return np.clip(start, 0, actual - size)
    clamped = np.clip(start, 0, bound - window)
    if refuses_padding(ctx.inst, ctx.evaluator.padding_reads) and np.size(clamped) and \
            (clamped + size > actual).any():
        raise gather_past_size(ctx.inst.name, d, int(np.max(clamped)), size, actual, bound)
    return clamped


def _read_padded(operand: np.ndarray, grids: list) -> np.ndarray:
    """operand[grids], where an index at or past the actual size reads padding: zeros."""
    if all(int(np.max(g, initial=-1)) < n for g, n in zip(grids, operand.shape, strict=True)):
        return operand[tuple(grids)]
    inside = np.ones(np.shape(grids[0]), bool)
    for g, n in zip(grids, operand.shape, strict=True):
        inside &= g < n
    if not operand.size:
        return np.zeros(inside.shape, operand.dtype)
    held = operand[tuple(np.minimum(g, n - 1) for g, n in zip(grids, operand.shape, strict=True))]
    return np.where(inside, held, np.zeros((), operand.dtype))


@lowering(Opcode.GATHER, note="a start past the actual size of a dynamic dimension reads "
                               "XLA's padding: zeros")
def gather(ctx, inst, args):
    """XLA Gather with batching dims; starts clamped to [0, bound - slice size] as XLA clamps
    them on the padded buffer, its rows past the actual size read as zeros."""
    operand, indices = args
    offset_dims, dropped, start_map, op_batch, idx_batch, ivd, slice_sizes = attrs.gather_dims(
        inst, np.ndim(indices))
    idx = _index_vectors(indices, ivd)
    lead = idx.shape[:-1]
    batch_axes = [k for k in range(np.ndim(indices)) if k != ivd]
    offset_operand_dims = [d for d in range(operand.ndim) if d not in dropped
                           and d not in op_batch]
    shape = ctx.out_shape()
    if not np.prod(lead, dtype=np.int64):  # no index: nothing is read
        return np.zeros(shape, operand.dtype)
    sizes = list(slice_sizes)
    for k, d in enumerate(offset_operand_dims):  # a whole dynamic dim: its actual size
        sizes[d] = shape[sorted(offset_dims)[k]]
    starts = []
    for d in range(operand.ndim):
        if d in op_batch:
            starts.append(_batch_iota(lead, batch_axes.index(idx_batch[op_batch.index(d)])))
            continue
        start = idx[..., start_map.index(d)] if d in start_map else np.zeros(lead, np.int64)
        starts.append(_gather_start(ctx, start, d, slice_sizes[d], sizes[d], operand.shape[d],
                                    inst.operands[0].shape.dims[d]))
    window_of = {d: k for k, d in enumerate(range(operand.ndim))}
    grids = _window_grids(starts, sizes, lead, window_of)
    full = _read_padded(operand, grids) if grids else np.broadcast_to(operand, lead)
    full = full.reshape(lead + tuple(sizes[d] for d in offset_operand_dims))
    batch_iter, window_iter = iter(range(len(lead))), iter(range(len(lead), full.ndim))
    order = [next(window_iter) if j in offset_dims else next(batch_iter)
             for j in range(full.ndim)]
    return np.array(np.transpose(full, order), copy=True)


def _scatter_starts(ctx, inst, indices, rank: int) -> np.ndarray:
    """The operand start index of every scatter point: (points..., rank), int64."""
    _, _, op_batch, idx_batch, to_operand, ivd = attrs.scatter_dims(inst, np.ndim(indices))
    idx = _index_vectors(indices, ivd)
    if idx.shape[-1] != len(to_operand):
        raise ctx.error(f"index vectors of length {idx.shape[-1]} for scatter_dims_to_operand_"
                        f"dims={list(to_operand)}")
    lead = idx.shape[:-1]
    batch_axes = [k for k in range(np.ndim(indices)) if k != ivd]
    starts = np.zeros(lead + (rank,), np.int64)
    for d in range(rank):
        if d in to_operand:
            starts[..., d] = idx[..., to_operand.index(d)]
        elif d in op_batch:
            starts[..., d] = _batch_iota(lead, batch_axes.index(idx_batch[op_batch.index(d)]))
    return starts


def _occurrence(linear: np.ndarray) -> np.ndarray:
    """For each position, how many earlier positions hold the same value (0 for the first)."""
    order = np.argsort(linear, kind="stable")
    ordered = linear[order]
    first = np.r_[True, ordered[1:] != ordered[:-1]] if len(ordered) else np.zeros(0, bool)
    group_start = np.maximum.accumulate(np.where(first, np.arange(len(ordered)), 0))
    out = np.empty(len(linear), np.int64)
    out[order] = np.arange(len(ordered)) - group_start
    return out


def _apply_updates(ctx, comp, operands, index, values):
    """operand[i] = comp(operand[i], update) for every update, in order.

    Updates that hit distinct elements are applied in one vectorized call; an element hit
    k times is handled in k rounds, so any update computation sees the earlier results.
    """
    n = len(operands)
    if not len(values[0]):
        return
    linear = np.ravel_multi_index(index, operands[0].shape)
    rounds = _occurrence(linear)
    for r in range(int(rounds.max()) + 1):
        pick = rounds == r
        where = tuple(i[pick] for i in index)
        current = [op[where] for op in operands]
        result = ctx.call(0, comp, current + [v[pick] for v in values], vectorized=True)
        result = result if n > 1 else (result,)
        for op, value in zip(operands, result, strict=True):
            op[where] = np.broadcast_to(np.asarray(value), current[0].shape)


def _is_replace(comp, n: int) -> bool:
    """to_apply returns its update parameters unchanged (the usual `x.at[i].set(u)`)."""
    root = comp.root
    outs = root.operands if root.opcode is Opcode.TUPLE else [root]
    return len(outs) == n and all(o.opcode is Opcode.PARAMETER and
                                  o.parameter_number == n + k for k, o in enumerate(outs))


def _cut_points(update: np.ndarray, point_axes: list[int], lead: tuple) -> np.ndarray:
    """Static updates meeting dynamic indices (tf.where's scatter): the rows past the indices'
    actual count have no index and are not scattered (TF's and XLA's answer)."""
    if len(point_axes) != len(lead) or all(update.shape[d] <= n
                                           for d, n in zip(point_axes, lead, strict=True)):
        return update
    cut = [slice(None)] * update.ndim
    for d, n in zip(point_axes, lead, strict=True):
        cut[d] = slice(0, n)
    return update[tuple(cut)]


@lowering(Opcode.SCATTER)
def scatter(ctx, inst, args):
    """XLA Scatter (variadic, batching dims, any to_apply). A window that does not fit in the
    operand at its ACTUAL sizes is skipped whole, as XLA skips out-of-bounds windows."""
    n = (len(args) - 1) // 2
    operands = [np.array(a, copy=True) for a in args[:n]]
    indices, updates = args[n], [np.asarray(u) for u in args[n + 1:]]
    window_dims, inserted, batching = attrs.scatter_dims(inst, np.ndim(indices))[:3]
    window_dims, skipped = sorted(window_dims), set(inserted) | set(batching)
    rank, shape = operands[0].ndim, operands[0].shape
    starts = _scatter_starts(ctx, inst, indices, rank)
    lead = starts.shape[:-1]
    point_axes = [d for d in range(updates[0].ndim) if d not in window_dims]
    updates = [_cut_points(u, point_axes, lead) for u in updates]
    if tuple(updates[0].shape[d] for d in point_axes) != lead:
        raise ctx.error(f"updates of size {list(updates[0].shape)} do not match "
                        f"{list(lead)} scatter indices")
    window_operand_dims = [d for d in range(rank) if d not in skipped]
    sizes = [1] * rank
    for k, d in enumerate(window_operand_dims):
        sizes[d] = updates[0].shape[window_dims[k]]
    # XLA's optimized modules put INT64_MAX on padded rows: compare without overflowing
    fits = np.all((starts >= 0) & (starts <= np.array(shape) - np.array(sizes, np.int64)),
                  axis=-1)
    window_of = {d: k for k, d in enumerate(window_operand_dims)}
    grids = _window_grids([starts[..., d] for d in range(rank)], sizes, lead, window_of)
    moved = [np.moveaxis(u, point_axes, range(len(point_axes))) for u in updates]
    index = tuple(g[fits].reshape(-1) for g in grids)
    values = [m[fits].reshape(-1) for m in moved]
    (comp,) = inst.called["to_apply"]
    ufunc = _fast_reducer(comp) if n == 1 and operands[0].dtype.kind in "biufc" else None
    if ufunc is not None:
        ufunc.at(operands[0], index, values[0].astype(operands[0].dtype))
    elif _is_replace(comp, n):
        for op, value in zip(operands, values, strict=True):
            op[index] = value
    else:
        _apply_updates(ctx, comp, operands, index, values)
    return operands[0] if n == 1 else tuple(operands)
