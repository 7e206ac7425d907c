"""Library lowerings that move data, as torch ops on tensors at their actual sizes.

Views and bookkeeping: transpose and reshape (strided views; the planner uses them where
only library steps read the result), tuple, get-tuple-element, constant (cached on the
device), get-dimension-size; broadcast, slice and reverse for what kernels refuse
(float8, complex: bit-exact moves). And concatenate, pad (interior and negative padding), dynamic-slice, dynamic-update-slice,
set-dimension-size, dynamic-reshape, bitcast (layout-changing), bitcast-convert, the
PadToStatic / SliceToDynamic and identity (sharding, placement) custom calls,
copy-start/copy-done and the bookkeeping ops (add-dependency, domain, async-update,
opt-barrier). Each mirrors the CPU backend
(dynhlo/backends/cpu/ops_data.py, ops_indexing.py): operands are views of the valid region,
so padding never enters, and start indices are clamped against the ACTUAL sizes on the
device (no read-back). Only sizes that decide a result's shape (set-dimension-size,
dynamic-reshape, SliceToDynamic) are read back, as the host must know a shape to allocate.

Left on the host fallback (documented in dynhlo/support.py): bitcast-convert of sub-byte
types, dynamic-slice / dynamic-update-slice with u64 start indices (torch has no unsigned
64-bit clamp), and the LAPACK custom-call targets (lapack_*_ffi, blas_*trsm_ffi).
Semantics: XLA operation semantics (Concatenate, Pad, DynamicSlice, DynamicUpdateSlice,
BitcastConvertType) and DESIGN.md section 1 for the dynamic-size ops.
"""

from __future__ import annotations

import numpy as np
import torch

from ....hlo import attrs
from ....hlo.types import bit_width
from ....shapes.rules_data import physical_order
from ....shapes.rules_misc import IDENTITY_TARGETS
from ....shapes.sizes import sizes_from_operands
from ..tensors import to_device, torch_dtype

_FP8 = (torch.float8_e4m3fn, torch.float8_e5m2)


def concatenate(ctx, inst, args):
    """Operands cut to the result's actual sizes off the axis, then joined along it."""
    axis = attrs.ints(inst, "dimensions")[0]
    shape = ctx.out_shape()
    parts = [a[tuple(slice(0, n) if k != axis else slice(None) for k, n in enumerate(shape))]
             for a in args]
    return torch.cat(parts, dim=axis)


def pad(ctx, inst, args):
    """Interior padding spreads the elements (a strided write); negative padding crops."""
    x, value = args
    shape = ctx.out_shape()
    full, placed, crop = [], [], []
    for n, (lo, hi, interior) in zip(x.shape, attrs.padding(inst)):
        spread = (n - 1) * (interior + 1) + 1 if n else 0
        low, high = max(lo, 0), max(hi, 0)
        full.append(low + spread + high)
        placed.append(slice(low, low + spread, interior + 1))
        crop.append(max(-lo, 0))
    out = value.reshape(()).to(x.dtype).expand(full).contiguous()
    if x.numel():
        out[tuple(placed)] = x
    return out[tuple(slice(c, c + s) for c, s in zip(crop, shape))]


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
    for d, (size, extent) in enumerate(zip(sizes, extents)):
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
    out = x
    for d, index in enumerate(_windows(ctx, vector, ctx.out_shape(), x.shape,
                                       "dynamic-slice")):
        if index is not None:
            out = out.index_select(d, index)
    return out.clone() if out is x else out


def dynamic_update_slice(ctx, inst, args):
    x, update, *starts = args
    vector = _start_vector(inst, starts, x.dim())
    if vector is None:
        return NotImplemented
    windows = _windows(ctx, vector, update.shape, x.shape, "dynamic-update-slice update")
    out = x.clone()
    if update.numel() == 0:
        return out
    rank = x.dim()
    index = tuple(
        (torch.arange(x.shape[d], device=x.device) if w is None else w).reshape(
            [-1 if k == d else 1 for k in range(rank)]) for d, w in enumerate(windows))
    out[index] = update.to(out.dtype)
    return out


def _own_shape(ctx, inst, sizes: dict) -> tuple[int, ...]:
    """The result shape with dimension d at its size operand's value (read back)."""
    return sizes_from_operands(inst, ctx.out_shape(), sizes)


def _resize(x: torch.Tensor, shape) -> torch.Tensor:
    """`x` cut (a view) or zero-extended to `shape` (data past the actual size reads 0)."""
    if all(s <= n for s, n in zip(shape, x.shape)):
        return x[tuple(slice(0, s) for s in shape)]
    out = torch.zeros(shape, dtype=x.dtype, device=x.device)
    common = tuple(slice(0, min(a, b)) for a, b in zip(x.shape, shape))
    out[common] = x[common]
    return out


def set_dimension_size(ctx, inst, args):
    x, n = args
    d = attrs.ints(inst, "dimensions")[0]
    return _resize(x, _own_shape(ctx, inst, {d: (inst.operands[1], n)}))


def dynamic_reshape(ctx, inst, args):
    x = args[0]
    shape = _own_shape(ctx, inst, {d: (inst.operands[1 + d], args[1 + d])
                                   for d in range(len(args) - 1)})
    count = 1
    for s in shape:
        count *= s
    if x.numel() != count:
        raise ctx.error(f"dynamic-reshape of {list(x.shape)} ({x.numel()} elements) to sizes "
                        f"{list(shape)} ({count} elements)")
    return x.reshape(shape)


def bitcast(ctx, inst, args):
    """Reshape in physical (layout) order, then reinterpret the element type if it differs."""
    (x,) = args
    src, dst = physical_order(inst.operands[0].shape), physical_order(inst.shape)
    shape = ctx.out_shape()
    if x.numel() != _count(shape):
        raise ctx.error(f"bitcast of {list(x.shape)} ({x.numel()} elements) to {list(shape)}")
    phys = x.permute(src).reshape([shape[p] for p in dst])
    inverse = sorted(range(len(dst)), key=dst.__getitem__)
    out = phys.permute(inverse)
    dtype = torch_dtype(inst.shape.element_type)
    if dtype == out.dtype:
        return out
    if dtype.itemsize != out.dtype.itemsize:
        return NotImplemented
    return out.contiguous().view(dtype)


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


def custom_call(ctx, inst, args):
    """PadToStatic, SliceToDynamic and the identity targets (sharding and placement
    annotations) on the device; other targets (LAPACK) take the host path."""
    target = attrs.string(inst, "custom_call_target")
    if target in IDENTITY_TARGETS:
        return args[0] if len(args) == 1 else tuple(args)
    if target == "PadToStatic":
        (x,) = args
        sizes = tuple(torch.tensor(n, dtype=torch.int32, device=x.device) for n in x.shape)
        return (_resize(x, inst.shape.elements[0].dims).contiguous(),) + sizes
    if target == "SliceToDynamic":
        x = args[0]
        dynamic = inst.shape.dynamic if not inst.shape.is_tuple else ()
        sizes = {d: (inst.operands[1 + d], args[1 + d]) for d in range(len(dynamic))
                 if dynamic[d] and 1 + d < len(args)}
        return _resize(x, _own_shape(ctx, inst, sizes))
    return NotImplemented


def copy_start(ctx, inst, args):
    """(destination copy, source, u32[] context 0): the copy is made at once."""
    (x,) = args
    return (x.clone(), x, torch.zeros((), dtype=torch.uint32, device=x.device))


def copy_done(ctx, inst, args):
    return args[0][0]


def first_operand(ctx, inst, args):
    return args[0]


def opt_barrier(ctx, inst, args):
    return args[0] if len(args) == 1 else tuple(args)


def broadcast(ctx, inst, args):
    """A view (no copy): a broadcast declared at its bound meets the actual size later."""
    (x,) = args
    shape = tuple(ctx.out_shape())
    mapped = attrs.ints(inst, "dimensions", ())
    if x.dim() == 0:
        return x.expand(shape)
    view = x.reshape([x.shape[mapped.index(k)] if k in mapped else 1
                      for k in range(len(shape))])
    if any(k in mapped and view.shape[k] != shape[k] for k in range(len(shape))):
        raise ctx.error(f"broadcast of size {list(x.shape)} to {list(shape)}")
    return view.expand(shape)


def slice_(ctx, inst, args):
    (x,) = args
    return x[tuple(slice(s, limit, step) for s, limit, step in attrs.slices(inst))]


def reverse(ctx, inst, args):
    (x,) = args
    dims = list(attrs.ints(inst, "dimensions", ()))
    if x.dtype in _FP8:  # torch has no flip for float8: move the bytes
        return x.view(torch.uint8).flip(dims).view(x.dtype)
    return x.flip(dims)


def transpose(ctx, inst, args):
    """A strided view (plan/fusion.py uses this only where library steps read the result)."""
    return args[0].permute(attrs.ints(inst, "dimensions"))


def reshape(ctx, inst, args):
    return args[0].reshape(ctx.out_shape())


def tuple_(ctx, inst, args):
    return tuple(args)


def get_tuple_element(ctx, inst, args):
    return args[0][attrs.integer(inst, "index")]


def constant(ctx, inst, args):
    if inst.shape.is_tuple:
        return tuple(to_device(v, ctx.device, s.element_type)
                     for v, s in zip(inst.literal, inst.shape.elements))
    cached = ctx.constants.get(inst)
    if cached is None:
        cached = ctx.constants[inst] = to_device(inst.literal, ctx.device,
                                                 inst.shape.element_type)
    shape = ctx.out_shape()
    if tuple(cached.shape) == shape:
        return cached
    return cached[tuple(slice(0, s) for s in shape)]


def get_dimension_size(ctx, inst, args):
    d = attrs.ints(inst, "dimensions")[0]
    size = ctx.env.size(ctx.info.dims[inst.operands[0]][d])
    return torch.tensor(np.int32(size), device=ctx.device)
