"""StableHLO's dynamic_slice, dynamic_update_slice and gather starts as HLO that computes JAX's
answer.

StableHLO clamps a start against the operand's actual (run-time) shape; HLO with bounded
dynamic dimensions clamps it against the bounds, as XLA does on its padded buffers
(dynhlo/shapes/slice_windows.py). The two agree once the start is clamped first against the
actual sizes, which these rules write out (`get-dimension-size`, `clamp`), except for an update
of a dynamic size: XLA places it by its bound. Its operand is padded by the update's bound
first, so every clamped start fits the padded bound, and the result is cut back to the
operand's size (set-dimension-size, then a slice to the operand's bound).
"""

from __future__ import annotations

import numpy as np

from ...hlo.shape import UNBOUNDED, Shape
from ...hlo.types import to_numpy_dtype
from ...shapes.slice_windows import OPERAND_SIZED
from .convert import bounded, converts
from .emit import Val, dims_text
from .sizes import S32


def _size(cx, x: Val, d: int) -> Val:
    return cx.comp.emit(S32, "get-dimension-size", [x], f"dimensions={{{d}}}")


def _clamped(cx, start: Val, high: Val) -> Val:
    """clamp(0, start, high) in the start's type (`high` is s32, never negative here)."""
    kind = start.shape.element_type
    if kind != "s32":
        high = cx.comp.emit(Shape(kind), "convert", [high])
    return cx.comp.emit(Shape(kind), "clamp", [cx.comp.scalar(0, kind), start, high])


def _moves(shape: Shape, d: int, size: int | None = None) -> bool:
    """Dimension d of `shape` is dynamic (and, given a window size, larger than it)."""
    return shape.dynamic[d] and (size is None or shape.dims[d] == UNBOUNDED or
                                 size < shape.dims[d])


@converts("stablehlo.dynamic_slice")
def _dynamic_slice(cx):
    x, *starts = cx.operands
    sizes = list(cx.attr("slice_sizes"))
    for d, size in enumerate(sizes):
        if _moves(x.shape, d, size):  # start in [0, n - size] of the actual size n
            high = cx.comp.emit(S32, "subtract", [_size(cx, x, d), cx.comp.scalar(size)])
            starts[d] = _clamped(cx, starts[d], high)
    return [cx.comp.emit(cx.result_shape(), "dynamic-slice", [x, *starts],
                         f"dynamic_slice_sizes={dims_text(sizes)}")]


def clamp_gather_starts(cx, x: Val, idx: Val, index_map: list[int], ivd: int,
                        sizes: list[int]) -> Val:
    """A gather's start indices clamped into [0, n - slice size] of the actual size n of each
    dynamic operand dimension they index (StableHLO's gather clamps against the actual shape:
    `jnp.take(x, i, mode="clip")`, `x[i]` past the end); the others are left to HLO's clamp."""
    moving = [k for k, d in enumerate(index_map) if _moves(x.shape, d, sizes[d])]
    if not moving or UNBOUNDED in idx.shape.dims:
        return idx
    highs = []
    for k, d in enumerate(index_map):
        size = _size(cx, x, d) if k in moving else cx.comp.scalar(x.shape.dims[d])
        high = cx.comp.emit(S32, "subtract", [size, cx.comp.scalar(sizes[d])])
        highs.append(high if ivd == idx.shape.rank else cx.comp.emit(Shape("s32", (1,), (False,)),
                                                                       "reshape", [high]))
    kind = idx.shape.element_type
    if ivd == idx.shape.rank:  # one index per start, no index vector dimension
        high, along = highs[0], "{}"
    else:
        high = highs[0] if len(highs) == 1 else cx.comp.emit(
            Shape("s32", (len(highs),), (False,)), "concatenate", highs, "dimensions={0}")
        along = f"{{{ivd}}}"
    if kind != "s32":
        high = cx.comp.emit(high.shape.with_element_type(kind), "convert", [high])
    full = idx.shape
    high = cx.comp.emit(full, "broadcast", [high], f"dimensions={along}")
    low = cx.comp.emit(full, "broadcast", [cx.comp.scalar(0, kind)], "dimensions={}")
    return cx.comp.emit(full, "clamp", [low, idx, high])


@converts("stablehlo.dynamic_update_slice")
def _dynamic_update_slice(cx):
    x, update, *starts = cx.operands
    shape = bounded(cx.result_shape(), list(x.shape.dims))
    # A start that is the constant 0 is placed at 0 by both rules (XLA clamps it into
    # [0, bound - update bound], StableHLO into [0, n - update size]) and the rows written
    # are the update's cut to the operand's size either way: no clamp and no padding for it
    # (jax.lax.scan's stacked outputs: a row at the counter, 0 along the batch). A dynamic
    # update as large as the operand's bound there would give XLA's result its own size:
    # the instruction is marked to keep the operand's (slice_windows.OPERAND_SIZED).
    at_zero = [s.literal is not None and not np.any(s.literal) for s in starts]
    # an update's bound not known yet is at most the operand's
    grow = [(update.shape.dims[d] if update.shape.dims[d] != UNBOUNDED else x.shape.dims[d])
            if _moves(update.shape, d) else 0 for d in range(x.shape.rank)]
    # (an update whose bound is past the operand's, which the constraints may still hold
    # to its size, stays padded: HLO refuses such an update)
    placed = [d for d, g in enumerate(grow)
              if g and at_zero[d] and UNBOUNDED not in (g, x.shape.dims[d]) and
              g <= x.shape.dims[d]]
    marked = f"frontend_attributes={{{OPERAND_SIZED}}}" if any(
        grow[d] == x.shape.dims[d] for d in placed) else ""
    grow = [0 if d in placed else g for d, g in enumerate(grow)]
    if any(g and UNBOUNDED in (g, x.shape.dims[d]) for d, g in enumerate(grow)):
        raise cx.error("an update of a dynamic size needs a bound: bound the argument "
                       "dimensions it is computed from")
    for d in range(x.shape.rank):
        if at_zero[d]:
            continue
        if _moves(x.shape, d) or _moves(update.shape, d):  # start in [0, n - update size]
            high = cx.comp.emit(S32, "subtract", [_size(cx, x, d), _size(cx, update, d)])
            starts[d] = _clamped(cx, starts[d], high)
    if not any(grow):
        return [cx.comp.emit(shape, "dynamic-update-slice", [x, update, *starts], marked)]
    padded = _pad_ends(cx, x, grow)
    out = cx.comp.emit(padded.shape, "dynamic-update-slice", [padded, update, *starts],
                       marked)
    for d in (d for d in range(x.shape.rank) if grow[d]):
        out = cx.comp.emit(out.shape, "set-dimension-size", [out, _size(cx, x, d)],
                           f"dimensions={{{d}}}")
    limits = ", ".join(f"[0:{b}]" for b in shape.dims)
    return [cx.comp.emit(shape, "slice", [out], f"slice={{{limits}}}")]


def _pad_ends(cx, x: Val, grow: list[int]) -> Val:
    """x padded at the end of each dimension d by grow[d] (zeros: never read)."""
    kind = x.shape.element_type
    zero = cx.comp.constant(np.zeros((), to_numpy_dtype(kind)), Shape(kind))
    dims = tuple(n + g for n, g in zip(x.shape.dims, grow, strict=True))
    padding = "x".join(f"0_{g}" for g in grow)
    return cx.comp.emit(Shape(kind, dims, x.shape.dynamic), "pad", [x, zero],
                        f"padding={padding}")
