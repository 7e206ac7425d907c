"""Library lowerings that move data, as torch ops on tensors at their actual sizes.

Views and bookkeeping: transpose and reshape (strided views; the planner uses them where
only library steps read the result), tuple, get-tuple-element, constant (cached on the
device), get-dimension-size; broadcast, slice and reverse for what kernels refuse (float8,
complex: bit-exact moves). Concatenate, pad (interior and negative padding),
set-dimension-size, and the PadToStatic / SliceToDynamic and identity (sharding, placement)
custom calls. Each mirrors the CPU backend (dynhlo/backends/cpu/ops_data.py): operands are
views of the valid region, so padding never enters. Only sizes that decide a result's
shape (set-dimension-size, SliceToDynamic, dynamic-reshape) and that the program computes
from data are read back, as the host must know a shape to allocate; one computed from
sizes alone is evaluated on the host (shapes/host_sizes.py). rules.CUSTOM_CALLS maps these targets, and those other library files run, to
their calls; a target it does not list takes the host tier.
Semantics: XLA operation semantics (Broadcast, Slice, Rev, Concatenate, Pad, Tuple,
Constant) and DESIGN.md section 1 for the dynamic-size ops.
"""


from __future__ import annotations

import numpy as np
import torch

from ....hlo import attrs
from ....shapes.host_sizes import own_sizes
from ....shapes.sizes import slice_past_size, slice_reads_padding
from ....shapes.slice_windows import refuses_padding
from ..tensors import to_device


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
    for n, (lo, hi, interior) in zip(x.shape, attrs.padding(inst), strict=True):
        spread = (n - 1) * (interior + 1) + 1 if n else 0
        low, high = max(lo, 0), max(hi, 0)
        full.append(low + spread + high)
        placed.append(slice(low, low + spread, interior + 1))
        crop.append(max(-lo, 0))
    out = value.reshape(()).to(x.dtype).expand(full).contiguous()
    if x.numel():
        out[tuple(placed)] = x
    return out[tuple(slice(c, c + s) for c, s in zip(crop, shape, strict=True))]


def own_shape(ctx, inst, sizes: dict) -> tuple[int, ...]:
    """The result shape with dimension d at its size operand's value: evaluated on the
    host where the program computes it from sizes alone, else read back."""
    return own_sizes(ctx.info, ctx.env, inst, ctx.out_shape(), sizes)


def _resize(x: torch.Tensor, shape) -> torch.Tensor:
    """`x` cut (a view) or zero-extended to `shape` (data past the actual size reads 0)."""
    if all(s <= n for s, n in zip(shape, x.shape, strict=True)):
        return x[tuple(slice(0, s) for s in shape)]
    out = torch.zeros(shape, dtype=x.dtype, device=x.device)
    common = tuple(slice(0, min(a, b)) for a, b in zip(x.shape, shape, strict=True))
    out[common] = x[common]
    return out


def set_dimension_size(ctx, inst, args):
    x, n = args
    d = attrs.ints(inst, "dimensions")[0]
    return _resize(x, own_shape(ctx, inst, {d: (inst.operands[1], n)}))


def pad_to_static(ctx, inst, args):
    """PadToStatic: (the array at its bound, zero past the actual size; s32 size per dim)."""
    (x,) = args
    sizes = tuple(torch.tensor(n, dtype=torch.int32, device=x.device) for n in x.shape)
    # the bound inferred, not the declared shape (it may say `?`)
    return (_resize(x, ctx.info.dims[inst][0]).contiguous(),) + sizes


def slice_to_dynamic(ctx, inst, args):
    """SliceToDynamic: the array cut to its size operands' values (read back)."""
    x = args[0]
    dynamic = inst.shape.dynamic if not inst.shape.is_tuple else ()
    sizes = {d: (inst.operands[1 + d], args[1 + d]) for d in range(len(dynamic))
             if dynamic[d] and 1 + d < len(args)}
    return _resize(x, own_shape(ctx, inst, sizes))


def broadcast(ctx, inst, args):
    """A view (no copy): a broadcast declared at its bound meets the actual size later."""
    (x,) = args
    shape = tuple(ctx.out_shape())
    order, mapped = attrs.broadcast_axes(inst)
    if x.dim() == 0:
        return x.expand(shape)
    if order is not None:   # (dimensions out of order: a transposing broadcast)
        x = x.permute(order)
    view = x.reshape([x.shape[mapped.index(k)] if k in mapped else 1
                      for k in range(len(shape))])
    if any(k in mapped and view.shape[k] != shape[k] for k in range(len(shape))):
        raise ctx.error(f"broadcast of size {list(x.shape)} to {list(shape)}")
    return view.expand(shape)


def slice_(ctx, inst, args):
    """XLA Slice; a length-1 slice past the actual size reads padding (XLA's buffer): zeros,
    as the CPU's (padding_reads="error": a DynamicSizeError)."""
    (x,) = args
    spec = attrs.slices(inst)
    d = slice_reads_padding(spec, x.shape)
    if d is not None:
        if refuses_padding(inst, ctx.padding_reads):
            raise slice_past_size(inst.name, spec, d, x.shape[d])
        return torch.zeros(tuple(ctx.out_shape()), dtype=x.dtype, device=x.device)
    return x[tuple(slice(s, limit, step) for s, limit, step in spec)]


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
                     for v, s in zip(inst.literal, inst.shape.elements, strict=True))
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
