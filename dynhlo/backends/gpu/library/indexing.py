"""Indexing as torch ops on tensors at their actual sizes: gather, scatter, dynamic-slice,
dynamic-update-slice, dynamic-reshape, bitcast (layout-changing) and bitcast-convert.

gather: XLA Gather with batching dimensions (operand_batching_dims) and any index type: the
fused kernel (kernels/data.py) takes the plain form; this lowering takes what the kernel
refuses. Every start is clamped to [0, actual size - slice size] on the device, as on the
CPU backend (dynhlo/backends/cpu/ops_indexing.py).

scatter: the index of every updated element is computed on the device; a window that does
not fit the operand at its ACTUAL sizes is dropped whole (XLA skips out-of-bounds windows).
Update computations done on the device:
- add / multiply / maximum / minimum / and / or of the two parameters (one operand):
  `index_add_` / `scatter_reduce_`. Float sums can differ from the CPU's in the last bits
  where one element is hit several times (the order of the additions; on a GPU the order
  of atomics is not fixed).
- replace (to_apply returns the update), any number of operands: where several updates hit
  one element the LAST one wins, as on the CPU backend (made deterministic explicitly).
- any other update computation made of the ops apply.py runs: applied in rounds
  (an element hit k times takes k rounds, in update order), as on the CPU backend.

dynamic-slice / dynamic-update-slice clamp start indices against the bounds, as XLA does
(shapes/slice_windows.py). dynamic-update-slice does it on the device (the update written
into a buffer at the bounds, the result its actual rows); dynamic-slice too at the bounds,
and below a bound reads the starts back to place the window, its rows past the actual size
zeros (XLA's padding; padding_reads="error" refuses them). gather clamps its starts to
[0, bound - slice size] and reads a row past the actual size as zeros, on the device.
dynamic-reshape reads its sizes back (the host allocates).
Left on the host tier: update computations beyond those above (a transcendental, a nested
call), bitcast-convert of sub-byte types, and u64 start indices (torch has no unsigned
64-bit clamp).
Semantics: XLA operation semantics, Gather, Scatter, DynamicSlice, DynamicUpdateSlice,
BitcastConvertType.
"""


from __future__ import annotations

import torch

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from ....hlo.shape import UNBOUNDED
from ....hlo.types import bit_width
from ....shapes.rules_indexing import physical_order
from ....shapes.sizes import gather_past_size
from ....shapes.slice_windows import (refuses_padding, slice_window, update_rows,
                                     update_windows, within)
from ..kernels.reductions import computation_reducer
from ..tensors import torch_dtype
from .apply import applicable, apply_in_rounds
from .data import own_shape
from .minmax import scatter_extreme_

_INDEX_TYPES = {torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint16,
                torch.uint32}


def _index_vectors(indices: torch.Tensor, ivd: int) -> torch.Tensor:
    """Start indices with the index vector dimension moved last: (batch..., K), int64."""
    if ivd == indices.dim():
        indices = indices.unsqueeze(-1)
    return indices.to(torch.int64).movedim(ivd, -1)


def _batch_iota(lead, axis: int, device) -> torch.Tensor:
    """Each batch position's coordinate along `axis` (the index of a batching dimension)."""
    line = torch.arange(lead[axis], device=device)
    return line.reshape([-1 if k == axis else 1 for k in range(len(lead))]).expand(lead)


def _grids(starts: list, sizes: list, lead: tuple, window_of: dict) -> list:
    """Per operand dim, its index at every (lead..., window...) position."""
    window_shape = tuple(sizes[d] for d in sorted(window_of, key=window_of.get))
    nl, nw = len(lead), len(window_shape)
    grids = []
    for d, start in enumerate(starts):
        grid = start.reshape(tuple(lead) + (1,) * nw)
        if d in window_of:
            k = window_of[d]
            grid = grid + torch.arange(sizes[d], device=start.device).reshape(
                (1,) * nl + tuple(-1 if j == k else 1 for j in range(nw)))
        grids.append(grid.expand(tuple(lead) + window_shape))
    return grids


def gather(ctx, inst, args):
    operand, indices = args
    if indices.dtype not in _INDEX_TYPES:
        return NotImplemented  # u64 indices: no exact int64 view of them
    offset_dims = attrs.ints(inst, "offset_dims", ())
    dropped = set(attrs.ints(inst, "collapsed_slice_dims", ()))
    start_map = attrs.ints(inst, "start_index_map", ())
    op_batch = attrs.ints(inst, "operand_batching_dims", ())
    idx_batch = attrs.ints(inst, "start_indices_batching_dims", ())
    ivd = attrs.integer(inst, "index_vector_dim", indices.dim())
    idx = _index_vectors(indices, ivd)
    lead = tuple(idx.shape[:-1])
    batch_axes = [k for k in range(indices.dim()) if k != ivd]
    kept = [d for d in range(operand.dim()) if d not in dropped and d not in op_batch]
    shape = ctx.out_shape()
    windows = attrs.ints(inst, "slice_sizes")
    sizes = list(windows)
    for k, d in enumerate(kept):  # a whole dynamic dim: its actual size
        sizes[d] = shape[sorted(offset_dims)[k]]
    starts = []
    for d in range(operand.dim()):
        if d in op_batch:
            axis = batch_axes.index(idx_batch[op_batch.index(d)])
            starts.append(_batch_iota(lead, axis, operand.device))
            continue
        start = idx[..., start_map.index(d)] if d in start_map else torch.zeros(
            lead, dtype=torch.int64, device=operand.device)
        starts.append(_gather_start(ctx, start, d, windows[d], sizes[d], operand.shape[d]))
    if 0 in shape:
        return torch.empty(shape, dtype=operand.dtype, device=operand.device)
    grids = _grids(starts, sizes, lead, {d: d for d in range(operand.dim())})
    full = _read_padded(operand, grids) if grids else operand.expand(lead)
    full = full.reshape(lead + tuple(sizes[d] for d in kept))
    batch_iter, window_iter = iter(range(len(lead))), iter(range(len(lead), full.dim()))
    order = [next(window_iter) if j in offset_dims else next(batch_iter)
             for j in range(full.dim())]
    return full.permute(order).contiguous()


def _gather_start(ctx, start, d: int, window: int, size: int, actual: int):
    """Dimension `d`'s clamped starts, as the CPU backend's (ops_indexing._gather_start):
    to [0, bound - window] of XLA's padded buffer (`window` the slice size, `size` the
    window's actual size), to [0, actual - size] along a `?` dimension, which has none.
    padding_reads="error" refuses a row past `actual` (one read-back, only below the
    bound)."""
    bound = ctx.inst.operands[0].shape.dims[d]
    if bound == UNBOUNDED:
        if size > actual and start.numel():
            raise ctx.error(f"gather slice of size {size} along operand dimension {d}, which "
                            f"has actual size {actual}: a `?` dimension has no padded buffer "
                            "to read")
        return start.clamp(0, max(actual - size, 0))
    clamped = start.clamp(0, bound - window)
    if refuses_padding(ctx.inst, ctx.padding_reads) and actual < bound and start.numel():
        worst = int(clamped.max().item())
        if worst + size > actual:
            raise gather_past_size(ctx.inst.name, d, worst, size, actual, bound)
    return clamped


def _read_padded(operand: torch.Tensor, grids: list) -> torch.Tensor:
    """operand[grids], where an index at or past the actual size reads padding: zeros. A
    masked read on the device (the index clamped into the array, the value then selected
    by the mask), whatever memory lies past the actual size."""
    inside = None
    for g, n in zip(grids, operand.shape, strict=True):
        ok = g < n
        inside = ok if inside is None else inside & ok
    if not operand.numel():
        return torch.zeros(inside.shape, dtype=operand.dtype, device=operand.device)
    held = operand[tuple(g.clamp(max=n - 1) for g, n in zip(grids, operand.shape, strict=True))]
    return torch.where(inside, held, torch.zeros((), dtype=operand.dtype,
                                                 device=operand.device))


def _scatter_starts(ctx, inst, indices, rank: int) -> torch.Tensor:
    """The operand start index of every scatter point: (points..., rank), int64."""
    to_operand = attrs.ints(inst, "scatter_dims_to_operand_dims", ())
    op_batch = attrs.ints(inst, "input_batching_dims", ())
    idx_batch = attrs.ints(inst, "scatter_indices_batching_dims", ())
    ivd = attrs.integer(inst, "index_vector_dim", indices.dim())
    idx = _index_vectors(indices, ivd)
    if idx.shape[-1] != len(to_operand):
        raise ctx.error(f"index vectors of length {idx.shape[-1]} for scatter_dims_to_operand_"
                        f"dims={list(to_operand)}")
    lead = tuple(idx.shape[:-1])
    batch_axes = [k for k in range(indices.dim()) if k != ivd]
    columns = []
    for d in range(rank):
        if d in to_operand:
            columns.append(idx[..., to_operand.index(d)])
        elif d in op_batch:
            axis = batch_axes.index(idx_batch[op_batch.index(d)])
            columns.append(_batch_iota(lead, axis, indices.device))
        else:
            columns.append(torch.zeros(lead, dtype=torch.int64, device=indices.device))
    return torch.stack(columns, dim=-1) if columns else idx[..., :0]


def _is_replace(comp, n: int) -> bool:
    """to_apply returns its update parameters unchanged (the usual `x.at[i].set(u)`)."""
    root = comp.root
    outs = root.operands if root.opcode is Opcode.TUPLE else [root]
    return len(outs) == n and all(o.opcode is Opcode.PARAMETER and
                                  o.parameter_number == n + k for k, o in enumerate(outs))


def _cut_points(shape, point_axes: list[int], lead: tuple) -> tuple:
    """Static updates meeting dynamic indices (tf.where's scatter): the rows past the
    indices' actual count have no index and are not scattered (TF's and XLA's answer; the
    CPU backend's ops_indexing._cut_points). The slice that keeps the others."""
    cut = [slice(None)] * len(shape)
    if len(point_axes) == len(lead) and any(shape[d] > n for d, n in zip(point_axes, lead,
                                                                         strict=True)):
        for d, n in zip(point_axes, lead, strict=True):
            cut[d] = slice(0, n)
    return tuple(cut)


def _targets(ctx, inst, operand, indices, update):
    """(flat operand index, flat update position) of every update element that lands, and
    the slice of the updates that have an index (`_cut_points`)."""
    window_dims = sorted(attrs.ints(inst, "update_window_dims", ()))
    skipped = set(attrs.ints(inst, "inserted_window_dims", ())) | set(
        attrs.ints(inst, "input_batching_dims", ()))
    rank, shape = operand.dim(), tuple(operand.shape)
    starts = _scatter_starts(ctx, inst, indices, rank)
    lead = tuple(starts.shape[:-1])
    point_axes = [d for d in range(update.dim()) if d not in window_dims]
    cut = _cut_points(update.shape, point_axes, lead)
    update = update[cut]
    if tuple(update.shape[d] for d in point_axes) != lead:
        raise ctx.error(f"updates of size {list(update.shape)} do not match "
                        f"{list(lead)} scatter indices")
    window_operand_dims = [d for d in range(rank) if d not in skipped]
    sizes = [1] * rank
    for k, d in enumerate(window_operand_dims):
        sizes[d] = update.shape[window_dims[k]]
    limit = torch.tensor([n - s for n, s in zip(shape, sizes, strict=True)], device=starts.device)
    fits = ((starts >= 0) & (starts <= limit)).all(dim=-1)
    window_of = {d: k for k, d in enumerate(window_operand_dims)}
    grids = _grids([starts[..., d] for d in range(rank)], sizes, lead, window_of)
    flat = torch.zeros(grids[0].shape if grids else lead, dtype=torch.int64,
                       device=starts.device)
    for d, g in enumerate(grids):  # row-major linear index into the operand
        flat = flat * shape[d] + g
    keep = fits.reshape(lead + (1,) * (flat.dim() - len(lead))).expand(flat.shape)
    order = point_axes + window_dims
    positions = torch.arange(update.numel(), device=update.device).reshape(
        update.shape).permute(order)
    return flat[keep], positions.reshape(flat.shape)[keep], cut


def scatter(ctx, inst, args):
    n = (len(args) - 1) // 2
    operands, indices, updates = args[:n], args[n], args[n + 1:]
    if indices.dtype not in _INDEX_TYPES:
        return NotImplemented
    (comp,) = inst.called["to_apply"]
    replace = _is_replace(comp, n)
    kind = computation_reducer(comp) if n == 1 and not replace else None
    general = not replace and kind is None
    if general and not applicable(comp):
        return NotImplemented  # an update computation torch cannot run exactly: host
    outs = [op.clone(memory_format=torch.contiguous_format) for op in operands]
    if outs[0].numel() == 0 or updates[0].numel() == 0:
        return outs[0] if n == 1 else tuple(outs)
    target, source, cut = _targets(ctx, inst, outs[0], indices, updates[0])
    updates = [u[cut] for u in updates]
    if general:
        values = [u.reshape(-1)[source] for u in updates]
        apply_in_rounds(comp, outs, target, values, outs[0].device)
    elif replace:
        target, source = _last_writer(target, source, outs[0].numel())
        for out, update in zip(outs, updates, strict=True):
            out.view(-1)[target] = update.reshape(-1)[source].to(out.dtype)
    else:
        combine_updates(outs[0], kind, target, updates[0].reshape(-1)[source].to(outs[0].dtype))
    return outs[0] if n == 1 else tuple(outs)


def _last_writer(target, source, numel: int):
    """Of updates hitting one element, keep only the last (row-major update order)."""
    if target.numel() == 0:
        return target, source
    rank = torch.arange(target.numel(), device=target.device)
    winner = torch.full((numel,), -1, dtype=torch.int64, device=target.device)
    winner.scatter_reduce_(0, target, rank, "amax")
    keep = winner[target] == rank
    return target[keep], source[keep]


def combine_updates(out, kind: str, target, values) -> None:
    """out[t] = op(out[t], v) for every (t, v), in place."""
    flat = out.view(-1)
    if out.dtype == torch.bool:  # and/or/max/min of predicates: min/max of bytes
        as_bytes = flat.to(torch.uint8)
        reduce = {"and": "amin", "min": "amin", "or": "amax", "max": "amax",
                  "sum": "amax", "prod": "amin"}[kind]
        as_bytes.scatter_reduce_(0, target, values.to(torch.uint8), reduce)
        flat.copy_(as_bytes != 0)
        return
    if kind == "sum":
        flat.index_add_(0, target, values)
    elif kind in ("max", "min"):
        scatter_extreme_(flat, target, values, kind)
    elif kind == "prod":
        flat.scatter_reduce_(0, target, values, "prod")
    else:  # bitwise and/or of integers: fold in rounds of distinct targets
        _bitwise_rounds(flat, kind, target, values)


def _bitwise_rounds(flat, kind, target, values) -> None:
    op = torch.bitwise_and if kind == "and" else torch.bitwise_or
    remaining_t, remaining_v = target, values
    while remaining_t.numel():
        rank = torch.arange(remaining_t.numel(), device=flat.device)
        first = torch.full((flat.numel(),), remaining_t.numel(), dtype=torch.int64,
                           device=flat.device)
        first.scatter_reduce_(0, remaining_t, rank, "amin")
        now = first[remaining_t] == rank
        t = remaining_t[now]
        flat[t] = op(flat[t], remaining_v[now])
        remaining_t, remaining_v = remaining_t[~now], remaining_v[~now]


def _start_vector(inst, starts, rank: int):
    """Start indices as one int64 device tensor of length `rank`, or None (u64 starts)."""
    if any(s.dtype == torch.uint64 for s in starts):
        return None
    if len(starts) == 1 and starts[0].dim() == 1:
        return starts[0].to(torch.int64)
    if len(starts) != rank:
        return None  # the host path reports the mismatch
    if rank == 0:
        return torch.zeros(0, dtype=torch.int64)
    return torch.stack([s.reshape(()).to(torch.int64) for s in starts])


def _windows(ctx, starts, sizes, extents, what: str) -> list:
    """Per dimension: None (the whole dimension) or the clamped index tensor of the window.

    XLA clamps each start to [0, extent - size]; a window larger than the actual extent has
    no static meaning and is a DynamicSizeError, as on the CPU backend.
    """
    out = []
    for d, (size, extent) in enumerate(zip(sizes, extents, strict=True)):
        if size > extent:
            raise ctx.error(f"{what} of size {size} along dimension {d}, which has actual size "
                            f"{extent}")
        if size == extent:
            out.append(None)  # the only clamped start is 0
            continue
        start = starts[d].clamp(0, extent - size)
        out.append(start + torch.arange(size, device=starts.device))
    return out


def dynamic_slice(ctx, inst, args):
    x, *starts = args
    vector = _start_vector(inst, starts, x.dim())
    if vector is None:
        return NotImplemented
    sizes = attrs.ints(inst, "dynamic_slice_sizes")
    bounds, shape = inst.operands[0].shape.dims, ctx.out_shape()
    if any(_below(n, b) and size != b for n, b, size in zip(x.shape, bounds, sizes, strict=True)):
        # XLA clamps against the bound: read the starts back (only below the bound) and
        # place the window as the CPU backend does; its rows past the actual size are
        # XLA's padding, zeros here.
        window = slice_window(inst, vector.tolist(), x.shape, shape,
                              refuse=refuses_padding(inst, ctx.padding_reads))
        inside = within(window, x.shape)
        if inside is None:
            return x[window].clone()
        out = torch.zeros(tuple(shape), dtype=x.dtype, device=x.device)
        out[inside[1]] = x[inside[0]]
        return out
    out = x  # at the bounds, clamping against the actual sizes is XLA's clamp
    for d, index in enumerate(_windows(ctx, vector, shape, x.shape, "dynamic-slice")):
        if index is not None:
            out = out.index_select(d, index)
    return out.clone() if out is x else out


def dynamic_update_slice(ctx, inst, args):
    x, update, *starts = args
    vector = _start_vector(inst, starts, x.dim())
    if vector is None:
        return NotImplemented
    shape = ctx.out_shape()
    if tuple(shape) != tuple(x.shape):  # a whole-bound update sizes the result (rare)
        return _update_below_bound(inst, x, update, vector.tolist(), shape)
    # XLA's starts, clamped against the bounds on the device (no read-back): the update is
    # written into a buffer at the bounds and the result is its first (actual) rows.
    dims = list(zip(x.shape, update.shape, inst.operands[0].shape.dims,
                    inst.operands[1].shape.dims, strict=True))
    padded = [n if UNBOUNDED in (b, ub) else b for n, _, b, ub in dims]  # `?`: no padding
    # the largest start XLA keeps (an update larger than a `?` dimension raises here)
    high = [update_rows(inst.name, d, _LARGEST, u, ub, n, b)[0]
            for d, (n, u, b, ub) in enumerate(dims)]
    if update.numel() == 0:
        return x.clone()
    first = torch.minimum(vector.clamp(min=0), torch.tensor(high, device=vector.device))
    out = x.clone() if padded == list(x.shape) else \
        torch.empty(padded, dtype=x.dtype, device=x.device)
    if out.shape != x.shape:
        out[tuple(slice(0, n) for n in x.shape)] = x
    rank = x.dim()
    index = tuple((first[d] + torch.arange(u, device=x.device)).reshape(
        [-1 if k == d else 1 for k in range(rank)]) for d, u in enumerate(update.shape))
    out[index] = update.to(out.dtype)
    return out if out.shape == x.shape else out[tuple(slice(0, n) for n in x.shape)].contiguous()


_LARGEST = 2 ** 62  # a start past every dimension: update_rows clamps it to the largest


def _below(actual: int, bound: int) -> bool:
    """A bounded dimension below its bound (XLA's clamp then differs from the actual one)."""
    return bound != UNBOUNDED and actual < bound


def _update_below_bound(inst, x, update, starts: list[int], shape) -> torch.Tensor:
    """dynamic-update-slice at XLA's starts (read back), as the CPU backend writes it."""
    target, source = update_windows(inst, starts, tuple(update.shape), shape)
    out = torch.zeros(tuple(shape), dtype=x.dtype, device=x.device)
    common = tuple(slice(0, min(a, b)) for a, b in zip(shape, x.shape, strict=True))
    out[common] = x[common]  # rows past the operand's are the update's (a whole-bound update)
    out[target] = update[source].to(out.dtype)
    return out


def dynamic_reshape(ctx, inst, args):
    x = args[0]
    shape = own_shape(ctx, inst, {d: (inst.operands[1 + d], args[1 + d])
                                   for d in range(len(args) - 1)})
    count = 1
    for s in shape:
        count *= s
    if x.numel() != count:
        raise ctx.error(f"dynamic-reshape of {list(x.shape)} ({x.numel()} elements) to sizes "
                        f"{list(shape)} ({count} elements)")
    return x.reshape(shape)


def bitcast(ctx, inst, args):
    """Reshape in physical (layout) order, then reinterpret the element type if it differs,
    of another width too when the byte sizes agree (the CPU lowering's semantics)."""
    (x,) = args
    src, dst = physical_order(inst.operands[0].shape), physical_order(inst.shape)
    shape = ctx.out_shape()
    dtype = torch_dtype(inst.shape.element_type)
    if x.numel() * x.element_size() != _count(shape) * dtype.itemsize:
        raise ctx.error(f"bitcast of {list(x.shape)} {x.dtype} ({x.numel()} elements) to "
                        f"{list(shape)} {dtype}")
    phys_shape = [shape[p] for p in dst]
    inverse = sorted(range(len(dst)), key=dst.__getitem__)
    phys = x.permute(src)
    if dtype != x.dtype:
        if x.numel() == 0:  # (torch cannot view an empty tensor as another width)
            return torch.empty(shape, dtype=dtype, device=x.device)
        phys = phys.contiguous().reshape(-1).view(dtype)
    return phys.reshape(phys_shape).permute(inverse)


def _count(shape) -> int:
    count = 1
    for s in shape:
        count *= s
    return count


def bitcast_convert(ctx, inst, args):
    """Reinterpret bits (little-endian): a wider source splits each element along a new last
    dimension, a narrower one joins the last dimension (torch's view(dtype))."""
    (x,) = args
    src_bits, dst_bits = bit_width(inst.operands[0].shape.element_type), bit_width(
        inst.shape.element_type)
    dtype = torch_dtype(inst.shape.element_type)
    if src_bits % 8 or dst_bits % 8 or x.dtype.itemsize * 8 != src_bits \
            or dtype.itemsize * 8 != dst_bits:
        return NotImplemented  # sub-byte types: the host path reports them
    if x.numel() == 0:  # (torch cannot view an empty tensor's strides as another width)
        return torch.empty(ctx.out_shape(), dtype=dtype, device=x.device)
    x = x.contiguous()
    if x.dtype.itemsize == dtype.itemsize:
        return x.view(dtype)
    if x.dtype.itemsize > dtype.itemsize:
        return x.unsqueeze(-1).view(dtype)
    return x.view(dtype).reshape(x.shape[:-1])


_FP8 = (torch.float8_e4m3fn, torch.float8_e5m2)


def reverse(ctx, inst, args):
    """reverse: x flipped along `dimensions` (float8 as its bytes: torch has no flip for it)."""
    (x,) = args
    dims = list(attrs.ints(inst, "dimensions", ()))
    if x.dtype in _FP8:
        return x.view(torch.uint8).flip(dims).view(x.dtype)
    return x.flip(dims)
