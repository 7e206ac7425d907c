"""Data movement and structure opcodes on the CPU.

Values are held at their actual sizes, so slice/pad/concatenate/reshape act on the valid
region directly: `pad` on a dynamic dimension pads after the actual end, `reshape` is
row-major at the actual sizes. Semantics: XLA operation semantics.
"""

from __future__ import annotations

import math

import numpy as np

from ...hlo import attrs
from ...hlo.opcodes import Opcode
from ...hlo.types import to_numpy_dtype
from ...shapes.host_sizes import own_sizes as host_own_sizes
from ...shapes.sizes import sizes_from_operands, slice_past_size, slice_reads_padding
from ...shapes.slice_windows import refuses_padding
from .lowering import custom_call, lowering, CUSTOM_CALLS


@lowering(Opcode.CONSTANT)
def constant(ctx, inst, args):
    if inst.shape.is_tuple:
        return inst.literal
    return inst.literal[tuple(slice(0, n) for n in ctx.out_shape())]


@lowering(Opcode.IOTA)
def iota(ctx, inst, args):
    shape = ctx.out_shape()
    d = attrs.integer(inst, "iota_dimension")
    if not 0 <= d < len(shape):
        raise ctx.error(f"iota_dimension={d} out of range for rank {len(shape)}")
    line = np.arange(shape[d]).astype(to_numpy_dtype(inst.shape.element_type))
    view = line.reshape([-1 if k == d else 1 for k in range(len(shape))])
    return np.broadcast_to(view, shape)  # a read-only view: see broadcast


@lowering(Opcode.BROADCAST)
def broadcast(ctx, inst, args):
    (x,) = args
    shape = ctx.out_shape()
    order, mapped = attrs.broadcast_axes(inst)
    if order is not None:   # (dimensions out of order: a transposing broadcast)
        x = x.transpose(order)
    view = x.reshape([x.shape[mapped.index(k)] if k in mapped else 1
                      for k in range(len(shape))]) if x.ndim else x
    if any(k in mapped and view.shape[k] != shape[k] for k in range(len(shape))):
        raise ctx.error(f"broadcast of size {list(x.shape)} to {list(shape)}")
    # A read-only view, not a copy: a broadcast declared static at its bound (XLA's form
    # when only the parameters are marked `<=`) meets the actual size in the next op, which
    # slices it; materializing it would allocate the bound (238 GiB at f32[1e9,64]).
    return np.broadcast_to(view, shape)


@lowering(Opcode.RESHAPE)
def reshape(ctx, inst, args):
    (x,) = args
    shape = ctx.out_shape()
    if x.size != math.prod(shape):
        raise ctx.error(f"reshape of {list(x.shape)} ({x.size} elements) to {list(shape)}")
    return x.reshape(shape)


@lowering(Opcode.TRANSPOSE)
def transpose(ctx, inst, args):
    (x,) = args
    return np.transpose(x, attrs.ints(inst, "dimensions"))


@lowering(Opcode.CONCATENATE)
def concatenate(ctx, inst, args):
    axis = attrs.ints(inst, "dimensions")[0]
    shape = ctx.out_shape()
    parts = [a[tuple(slice(0, n) if k != axis else slice(None) for k, n in enumerate(shape))]
             for a in args]
    return np.concatenate(parts, axis=axis)


@lowering(Opcode.SLICE, note="on a dynamic dimension, XLA's rule: length 1 is static (past "
                              "the actual size it reads padding: zeros), else "
                              "ceil((n - start) / stride)")
def slice_(ctx, inst, args):
    """XLA Slice. A length-1 slice at or past a dynamic dimension's actual size reads XLA's
    buffer padding (XLA makes it static): zeros, the whole result (padding_reads="error":
    a DynamicSizeError)."""
    (x,) = args
    spec = attrs.slices(inst)
    d = slice_reads_padding(spec, x.shape)
    if d is not None:
        if refuses_padding(inst, ctx.evaluator.padding_reads):
            raise slice_past_size(inst.name, spec, d, x.shape[d])
        return np.zeros(ctx.out_shape(), x.dtype)
    return x[tuple(slice(s, l, st) for s, l, st in spec)]


@lowering(Opcode.PAD)
def pad(ctx, inst, args):
    x, value = args
    return _pad(x, value, attrs.padding(inst), ctx.out_shape())


def _pad(x: np.ndarray, value, config, shape: tuple) -> np.ndarray:
    """x padded by config ((lo, hi, interior) per dimension) with `value` to `shape`."""
    out = np.full(shape, value, dtype=x.dtype)
    # Interior padding spreads the elements; negative low/high padding crops.
    src = [slice(None)] * x.ndim
    dst = []
    for d, (lo, hi, interior) in enumerate(config):
        positions = lo + np.arange(x.shape[d]) * (interior + 1)
        keep = (positions >= 0) & (positions < shape[d])
        src[d] = np.nonzero(keep)[0]
        dst.append(positions[keep])
    if all(len(s) for s in src) or x.size == 0:
        out[np.ix_(*dst)] = x[np.ix_(*src)] if x.size else out[np.ix_(*dst)]
    return out


@lowering(Opcode.TUPLE)
def tuple_(ctx, inst, args):
    return tuple(args)


@lowering(Opcode.GET_TUPLE_ELEMENT)
def get_tuple_element(ctx, inst, args):
    return args[0][attrs.integer(inst, "index")]


@lowering(Opcode.GET_DIMENSION_SIZE)
def get_dimension_size(ctx, inst, args):
    d = attrs.ints(inst, "dimensions")[0]
    return np.asarray(np.shape(args[0])[d], dtype=to_numpy_dtype(inst.shape.element_type))


@lowering(Opcode.SET_DIMENSION_SIZE)
def set_dimension_size(ctx, inst, args):
    x, n = args
    d = attrs.ints(inst, "dimensions")[0]
    return _resize(x, own_sizes(ctx, inst, {d: (inst.operands[1], n)}))


def own_sizes(ctx, inst, sizes: dict) -> tuple[int, ...]:
    """The result shape with dimension d at the value of its own size operand. A size
    operand not computed (None: the compiled path's plan runs no instruction read only as
    a size the host knows, plan/fusion.py size_only) is evaluated from the argument shapes."""
    if any(value is None for _, value in sizes.values()):
        return host_own_sizes(ctx.info, ctx.env, inst, ctx.out_shape(), sizes)
    return sizes_from_operands(inst, ctx.out_shape(), sizes)


def _resize(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """`x` cut or zero-extended to `shape` (data past the actual size reads as zero)."""
    out = np.zeros(shape, dtype=x.dtype)
    common = tuple(slice(0, min(a, b)) for a, b in zip(x.shape, shape, strict=True))
    out[common] = x[common]
    return out


@lowering(Opcode.CUSTOM_CALL)
def custom_call_(ctx, inst, args):
    target = attrs.string(inst, "custom_call_target")
    return CUSTOM_CALLS[target](ctx, inst, args)


@custom_call("PadToStatic")
def pad_to_static(ctx, inst, args):
    """Dynamic array -> (array padded with zeros to its bound, one s32[] size per dim)."""
    (x,) = args
    shape = ctx.dims(inst)[0]  # the bound inferred, not the declared shape (it may say `?`)
    return (_resize(x, shape),) + tuple(np.asarray(n, dtype=np.int32) for n in x.shape)


@custom_call("SliceToDynamic")
def slice_to_dynamic(ctx, inst, args):
    """(static array, sizes...) -> the array cut to the sizes (each at most its bound)."""
    x = args[0]
    dynamic = inst.shape.dynamic if not inst.shape.is_tuple else ()
    sizes = {d: (inst.operands[1 + d], args[1 + d]) for d in range(len(dynamic))
             if dynamic[d] and 1 + d < len(args)}
    return _resize(x, own_sizes(ctx, inst, sizes))
