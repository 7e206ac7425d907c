"""Run-time sizes in the StableHLO import: shape tensors read as size expressions, their
elements as `s32[]` HLO values, and the bounds of results sized by them.

Shared by the dynamic ops (dynamic), the windows and regions (regions)
and the custom calls (misc); it imports none of them.
"""

from __future__ import annotations

import math

from ...hlo.shape import UNBOUNDED, Shape
from . import shape_exprs as sx
from .convert import OpContext
from .emit import Val

S32 = Shape("s32")


def shape_elements(cx: OpContext, tensor: Val, what: str) -> list[tuple]:
    """The size expressions of a shape tensor; UnsupportedError when one is not computed from
    the argument shapes (a size that depends on data)."""
    count = 1 if tensor.shape.is_tuple else math.prod(tensor.shape.dims)
    if tensor.exprs is None and count > sx.MAX_TRACKED_ELEMENTS:
        raise cx.error(f"the {what} has {count} elements ({tensor.shape}); dynhlo follows "
                       f"size computations of at most {sx.MAX_TRACKED_ELEMENTS} elements "
                       f"(one per result dimension)")
    if tensor.exprs is None:
        raise cx.error(f"the {what} is computed from data, not from argument shapes; "
                       "dynhlo needs sizes it can bound")
    return tensor.exprs


def element(cx: OpContext, tensor: Val, j: int) -> Val:
    """Element j of a rank-1 integer tensor as an `s32[]` HLO value."""
    if tensor.shape.rank == 0:
        scalar = tensor
    else:
        piece = cx.comp.emit(Shape(tensor.shape.element_type, (1,), (False,)), "slice",
                             [tensor], f"slice={{[{j}:{j + 1}]}}")
        scalar = cx.comp.emit(Shape(tensor.shape.element_type), "reshape", [piece])
    if scalar.shape.element_type != "s32":
        scalar = cx.comp.emit(S32, "convert", [scalar])
    if tensor.exprs is not None:
        scalar.exprs = [tensor.exprs[j]]
    return scalar


def result_bounds(cx: OpContext, exprs: list[tuple], shape: Shape) -> list:
    """Bounds of a result's `?` dims from its size expressions."""
    out = []
    for d in range(shape.rank):
        if not shape.dynamic[d]:
            out.append(None)
            continue
        bound = sx.upper_bound(exprs[d])
        if bound is None:
            raise cx.error(f"result dimension {d} has no upper bound: bound the argument "
                           "dimensions it is computed from (parse_stablehlo(m, bounds={'n': "
                           "1024}), from_jax(..., bounds=...), `--bound n=1024` on the command "
                           "line, or a jax.export constraint)")
        out.append(bound)
    return out


def set_sizes(cx: OpContext, val: Val, tensor: Val, shape: Shape) -> Val:
    """set-dimension-size on every dynamic dim of `shape` (val's dims, at their bounds),
    the sizes read from the shape tensor."""
    dynamic = list(val.shape.dynamic)
    for d in range(shape.rank):
        if shape.dynamic[d]:
            dynamic[d] = True
            step = Shape(shape.element_type, shape.dims, tuple(dynamic))
            val = cx.comp.emit(step, "set-dimension-size", [val, element(cx, tensor, d)],
                               f"dimensions={{{d}}}")
    return val


def dimension_expr(cx: OpContext, x: Val, d: int) -> tuple:
    if not x.shape.dynamic[d]:
        return sx.const(x.shape.dims[d])
    bound = x.shape.dims[d]
    hi = sx.INF if bound == UNBOUNDED else bound
    params = cx.converter.entry_params
    if x in params:
        p = params.index(x)
        return ("dim", p, d, cx.converter.param_lows.get((p, d), 0), hi)
    return ("size", x.name, d, 0, hi)


def samples(cx) -> list[dict]:
    """Four assignments of sizes to the entry's dynamic dims: two size expressions equal at
    all of them are taken as one function (a window that is the whole dimension)."""
    params = cx.converter.entry_params
    keys = [(p, d) for p, v in enumerate(params) for d in range(v.shape.rank)
            if v.shape.dynamic[d]]
    return [{k: (v + 3 * i) % 97 + 1 for i, k in enumerate(keys)} for v in (0, 5, 17, 40)]
