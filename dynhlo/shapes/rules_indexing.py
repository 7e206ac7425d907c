"""Shape rules of data movement and indexing: reverse, dynamic-slice, dynamic-update-slice,
dynamic-reshape, bitcast, bitcast-convert, gather, scatter.

A slice that takes a whole dynamic dimension (slice size equal to the bound) keeps the
operand's dynamic size, as XLA's DynamicDimensionInference does; a smaller slice is static, its
start clamped at run time against the bound as XLA clamps it (slice_windows.py); a dynamic
update as large as the operand's bound gives a dynamic-update-slice its size.
Semantics: XLA operation semantics (https://openxla.org/xla/operation_semantics) and
DynamicDimensionInference.
"""

from __future__ import annotations

from ..errors import UnsupportedError
from ..hlo import attrs
from ..hlo.opcodes import Opcode
from ..hlo.shape import UNBOUNDED
from ..hlo.types import bit_width
from ..hlo.verify.shapes import storage_bits
from .index_dims import check_gather, check_scatter
from .rules import elementwise, rule
from .rules_data import reshape_groups
from .slice_windows import sized_by_operand
from .sizes import Sym, bound_of, dim_text, unify
from .values import value_dim


@rule(Opcode.REVERSE)
def _reverse(ctx, inst, operands):
    (operand,) = operands
    for d in attrs.ints(inst, "dimensions", ()):
        if not 0 <= d < len(operand):
            raise ctx.error(f"reverses dimension {d} of a rank-{len(operand)} operand")
    return operand


def _window_dim(ctx, dim, size: int, d: int):
    """A slice of `size` from `dim`: the whole dynamic dim keeps its size, else static."""
    bound = bound_of(dim)
    if isinstance(dim, Sym) and size == bound:
        return dim
    if size < 0 or (bound != UNBOUNDED and size > bound):
        raise ctx.error(f"slice size {size} out of range for dimension {d} of size "
                        f"{dim_text(dim)}")
    return size


def _check_starts(ctx, starts, rank: int, first: int):
    """Start indices: one scalar per dimension, or (old form) one rank-1 array."""
    if len(starts) == 1 and len(starts[0]) == 1:
        if bound_of(starts[0][0]) != rank:
            raise ctx.error(f"start index vector has {dim_text(starts[0][0])} entries for a "
                            f"rank-{rank} operand")
        return
    if len(starts) != rank or any(s != () for s in starts):
        raise ctx.error(f"needs {rank} scalar start indices (operands {first}..), "
                        f"got {len(starts)}")


@rule(Opcode.DYNAMIC_SLICE)
def _dynamic_slice(ctx, inst, operands):
    operand, *starts = operands
    sizes = attrs.ints(inst, "dynamic_slice_sizes")
    if len(sizes) != len(operand):
        raise ctx.error(f"dynamic_slice_sizes={list(sizes)} for a rank-{len(operand)} operand")
    _check_starts(ctx, starts, len(operand), 1)
    return tuple(_window_dim(ctx, dim, s, d) for d, (dim, s) in enumerate(zip(operand, sizes, strict=True)))


@rule(Opcode.DYNAMIC_UPDATE_SLICE)
def _dynamic_update_slice(ctx, inst, operands):
    operand, update, *starts = operands
    if len(update) != len(operand):
        raise ctx.error(f"update of rank {len(update)} for a rank-{len(operand)} operand")
    for d, (o, u) in enumerate(zip(operand, update, strict=True)):
        if bound_of(o) != UNBOUNDED and bound_of(u) > bound_of(o):
            raise ctx.error(f"update dimension {d} ({dim_text(u)}) is larger than the "
                            f"operand's ({dim_text(o)})")
    _check_starts(ctx, starts, len(operand), 2)
    # XLA's HandleDynamicUpdateSlice: a dynamic update as large as the operand's bound gives
    # the result its size (the start clamps to 0 and the update covers the whole buffer);
    # a frontend's update marked OPERAND_SIZED keeps the operand's
    if sized_by_operand(inst):
        return tuple(operand)
    return tuple(u if isinstance(u, Sym) and bound_of(u) == bound_of(o) != UNBOUNDED else o
                 for o, u in zip(operand, update, strict=True))


@rule(Opcode.DYNAMIC_RESHAPE)
def _dynamic_reshape(ctx, inst, operands):
    """XLA: dynamic-reshape(operand, size_0, ..., size_{r-1}); the `<=` dims take the sizes."""
    operand, *sizes = operands
    shape = inst.shape
    if shape.is_tuple or len(sizes) != shape.rank or any(s != () for s in sizes):
        raise ctx.error(f"dynamic-reshape needs one scalar size per result dimension "
                        f"({shape.rank}), got {len(sizes)} operand(s)")
    return tuple(value_dim(ctx.info, inst.operands[d + 1], bound, inst, d)
                 if shape.dynamic[d] else bound for d, bound in enumerate(shape.dims))


def physical_order(shape) -> list[int]:
    """Logical dimensions from major to minor in memory (default layout: row-major)."""
    if shape.layout is None or len(shape.layout.minor_to_major) != shape.rank:
        return list(range(shape.rank))
    return list(reversed(shape.layout.minor_to_major))


@rule(Opcode.BITCAST)
def _bitcast(ctx, inst, operands):
    """A reshape of the physical (layout-ordered) dims: layouts may make it a transpose.

    Element types of different widths but one byte size (`f32[2]` -> `s16[4]`, which XLA's
    verifier accepts: HandleBitcast compares only ByteSizeOf) reshape the bytes: each side
    gets a last physical dim of its bytes per element, so a dynamic size moves across in
    bytes (`f32[<=4]` -> `s16[<=8]` has 2n elements for n)."""
    (operand,) = operands
    source = inst.operands[0].shape
    src, dst = physical_order(source), physical_order(inst.shape)
    if isinstance(operand, list) or inst.shape.is_tuple:
        raise ctx.error("bitcast of a tuple is not supported")
    phys_in = [operand[p] for p in src]
    target = [inst.shape.dims[p] for p in dst]
    declared = [inst.shape.dynamic[p] for p in dst]
    widths = _bitcast_bytes(inst, source)
    if widths:
        phys_in, target, declared = phys_in + [widths[0]], target + [widths[1]], declared + [
            False]
    phys = reshape_groups(ctx, phys_in, target, declared)
    if widths:
        if not isinstance(phys[-1], int) or phys[-1] != widths[1]:
            raise UnsupportedError(
                f"instruction '{inst.name}': bitcast of {source} to {inst.shape} changes the "
                "element width, and the operand's dynamic size cannot be placed on whole "
                "result elements; declare the result dimension that takes it as `<=`")
        phys = phys[:-1]
    out = [0] * len(dst)
    for k, p in enumerate(dst):
        out[p] = phys[k]
    return tuple(out)


def _bitcast_bytes(inst, source) -> tuple[int, int] | None:
    """(operand bytes, result bytes) per element when a bitcast changes the element width;
    None when it keeps it. UnsupportedError for a sub-byte type (s4, u2, f4e2m1fn, or a
    packed `E(n)` layout) on either side of a width change: dynhlo stores those one element
    per byte, and XLA's bytes for them depend on the packing."""
    bits = (bit_width(source.element_type), bit_width(inst.shape.element_type))
    storage = (storage_bits(source), storage_bits(inst.shape))
    if bits[0] == bits[1] and storage[0] == storage[1]:
        return None
    if any(b % 8 for b in bits + storage):
        raise UnsupportedError(
            f"instruction '{inst.name}': bitcast of {source} to {inst.shape} reinterprets "
            "sub-byte elements; dynhlo does not support that (bitcast-convert between "
            "whole-byte types, or convert, does the same job)")
    return storage[0] // 8, storage[1] // 8


@rule(Opcode.BITCAST_CONVERT)
def _bitcast_convert(ctx, inst, operands):
    """XLA: a wider input type adds a last dimension (ratio of widths), a narrower one
    consumes its last dimension, which must be static and equal to the ratio."""
    (operand,) = operands
    src = bit_width(inst.operands[0].shape.element_type)
    dst = bit_width(inst.shape.element_type)
    if src == dst:
        return operand
    if src > dst:
        return tuple(operand) + (src // dst,)
    if not operand or operand[-1] != dst // src:
        raise ctx.error(f"bitcast-convert from {src}-bit to {dst}-bit elements needs a static "
                        f"last dimension of {dst // src}, got "
                        f"{dim_text(operand[-1]) if operand else 'a scalar'}")
    return tuple(operand[:-1])


def _batch_dims(indices, ivd: int) -> list:
    return [d for k, d in enumerate(indices) if k != ivd]


@rule(Opcode.GATHER)
def _gather(ctx, inst, operands):
    operand, indices = operands
    g = attrs.gather_dims(inst, len(indices))
    slice_sizes, ivd = g.slice_sizes, g.index_vector_dim
    if len(slice_sizes) != len(operand) or not 0 <= ivd <= len(indices):
        raise ctx.error(f"slice_sizes={list(slice_sizes)} / index_vector_dim={ivd} do not fit "
                        f"a rank-{len(operand)} operand and rank-{len(indices)} indices")
    check_gather(ctx, g, operand, indices)
    batch = _batch_dims(indices, ivd)
    offsets = [_window_dim(ctx, operand[k], s, k) for k, s in enumerate(slice_sizes)
               if k not in g.collapsed_slice_dims and k not in g.operand_batching_dims]
    rank = len(batch) + len(offsets)
    if len(g.offset_dims) != len(offsets) or any(not 0 <= d < rank for d in g.offset_dims):
        raise ctx.error(f"offset_dims={list(g.offset_dims)} do not match slice_sizes="
                        f"{list(slice_sizes)}")
    out, bi, oi = [], iter(batch), iter(offsets)
    for d in range(rank):
        out.append(next(oi) if d in g.offset_dims else next(bi))
    return tuple(out)


@rule(Opcode.SCATTER)
def _scatter(ctx, inst, operands):
    if len(operands) < 3 or len(operands) % 2 == 0:
        raise ctx.error(f"scatter takes N operands, the indices and N updates; got "
                        f"{len(operands)} operands")
    n = (len(operands) - 1) // 2
    arrays, updates = operands[:n], operands[n + 1:]
    joined = elementwise(ctx, arrays, join=unify) if len(arrays[0]) else ()
    dims = attrs.scatter_dims(inst, len(operands[n]))
    window, inserted, batching = dims[:3]
    check_scatter(ctx, dims, joined, operands[n], updates[0])
    if len(window) + len(inserted) + len(batching) != len(joined):
        raise ctx.error(f"update_window_dims={list(window)}, inserted_window_dims="
                        f"{list(inserted)} and input_batching_dims={list(batching)} do not "
                        f"cover the rank-{len(joined)} operand")
    for u in updates:
        if any(not 0 <= d < len(u) for d in window):
            raise ctx.error(f"update_window_dims={list(window)} out of range for rank-"
                            f"{len(u)} updates")
    return joined if n == 1 else [joined] * n
