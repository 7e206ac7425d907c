"""Bounds of window results and the windows StableHLO computes at run time.

A convolution or reduce-window over a dynamic dimension gets its result's bound here, XLA's
window formula at the operand's bound (dynhlo.shapes.windows.window_output_size), so that a
later op that needs a static size for that dimension (a gather whose slice is the whole
dimension) has one. `stablehlo.dynamic_conv` and `stablehlo.dynamic_reduce_window` whose
padding or window is computed from the sizes (JAX's SAME padding with a stride) become custom
calls of those names with the same operands: the shape rules and both backends evaluate them
from the sizes at each call (dynhlo/shapes/dynamic_windows.py, rules_dynamic_window.py).
"""

from __future__ import annotations

from ...hlo.shape import UNBOUNDED, TupleShape
from ...shapes.dynamic_windows import DYNAMIC_CONV, DYNAMIC_REDUCE_WINDOW
from ...shapes.windows import WindowDim, window_output_size
from . import shape_exprs as sx
from .convert import OpContext, bounded
from .emit import Val
from .sizes import dimension_expr


def upper(expr: tuple) -> int | None:
    """The largest value of a window number's expression, None when it has none."""
    hi = sx.interval(expr)[1]
    return None if hi == sx.INF else int(hi)


def least(expr: tuple) -> int | None:
    """The smallest value of a window number's expression, None when it has none."""
    lo = sx.interval(expr)[0]
    return None if lo == -sx.INF else int(lo)


def window_bound(n: int, size, stride, lo, hi, base, wdil) -> int | None:
    """The most output positions of a window over at most `n` elements: the formula with
    the padding at its largest and the window and stride at their smallest (the output grows
    with the first, shrinks with the others); None where one of them is unbounded."""
    if n == UNBOUNDED or None in (size, stride, lo, hi, base, wdil):
        return None
    return window_output_size(n, WindowDim(max(size, 0), max(stride, 1), lo, hi,
                                           max(base, 1), max(wdil, 1)))


def conv_bounds(cx: OpContext, c, lhs: Val, rhs: Val, windows: list[tuple],
                batch_groups: int) -> list:
    """Bounds of a convolution's result dims (None where unknown): batch / batch groups,
    the kernel's output features, each spatial dim's window bound. `windows` holds
    (stride, lo, hi, base, wdil) per spatial dimension, lo and hi size expressions."""
    rank = lhs.shape.rank
    out: list = [None] * rank
    batch = lhs.shape.dims[c.input_batch_dimension]
    out[c.output_batch_dimension] = None if batch == UNBOUNDED else batch // batch_groups
    feature = rhs.shape.dims[c.kernel_output_feature_dimension]
    out[c.output_feature_dimension] = None if feature == UNBOUNDED else feature
    for k, (stride, lo, hi, base, wdil) in enumerate(windows):
        size = rhs.shape.dims[c.kernel_spatial_dimensions[k]]
        d = c.input_spatial_dimensions[k]
        loose = window_bound(lhs.shape.dims[d], None if size == UNBOUNDED else size,
                             stride, upper(lo), upper(hi), base, wdil)
        if lhs.shape.dynamic[d] and size != UNBOUNDED and not (lo[0] == hi[0] == "c"):
            loose = computed_bound(dimension_expr(cx, lhs, d),
                                   [sx.const(v) for v in (size, stride)] + [lo, hi]
                                   + [sx.const(v) for v in (base, wdil)], loose)
        out[c.output_spatial_dimensions[k]] = loose
    return out


def computed_bound(n_expr: tuple, numbers: list[tuple], fallback: int | None) -> int | None:
    """The exact most output positions of a window whose numbers `numbers` (size, stride,
    lo, hi, base and window dilation expressions) and operand size `n_expr` depend on one
    argument size: the window formula at each of its values (shape_exprs.over_range), so
    that the bound is the one JAX's shape expression for the same size gets; `fallback`
    (the interval bound) where a number cannot be computed at each size, None (inferred)
    where the operand is an intermediate."""
    values = sx.over_range([n_expr, *numbers])
    if values is None:
        # An intermediate's size (or several): left `?`, inference bounds it exactly from
        # the size algebra, where the operand's size is known as an expression.
        return None
    n, size, stride, lo, hi, base, wdil = (v.tolist() for v in values)
    if min(stride) < 1 or min(base) < 1 or min(wdil) < 1 or min(size) < 0:
        return fallback   # refused at run time
    return max(window_output_size(*point[:1], WindowDim(*point[1:]))
               for point in zip(n, size, stride, lo, hi, base, wdil, strict=True))


def dynamic_conv(cx: OpContext, lhs: Val, rhs: Val, padding: Val, attrs: str,
                 bounds: list) -> Val:
    """`stablehlo.dynamic_conv` with a padding computed from the sizes, as a custom call of
    that name: the padding operand is read at each call."""
    shape = bounded(cx.result_shape(), bounds)
    return cx.comp.emit(shape, "custom-call", [lhs, rhs, padding],
                        f'{attrs}, custom_call_target="{DYNAMIC_CONV}"')


def dynamic_reduce_window(cx: OpContext, xs: list[Val], inits: list[Val], tensors: list[Val],
                          exprs: list[list[tuple]], body: str) -> Val:
    """`stablehlo.dynamic_reduce_window` with a window computed from the sizes, as a custom
    call of that name with the same operands, read at each call: one result, or a tuple of
    one per input. `exprs` are the window operands' size expressions (window, strides, base
    and window dilations, padding)."""
    windows, strides, base, wdil, padding = exprs
    x = xs[0]
    bounds = []
    for d in range(x.shape.rank):
        numbers = [windows[d], strides[d], padding[2 * d], padding[2 * d + 1], base[d], wdil[d]]
        loose = window_bound(x.shape.dims[d], least(windows[d]), least(strides[d]),
                             upper(padding[2 * d]), upper(padding[2 * d + 1]),
                             upper(base[d]), least(wdil[d]))
        bounds.append(computed_bound(dimension_expr(cx, x, d), numbers, loose)
                      if x.shape.dynamic[d] else loose)
    shapes = [bounded(cx.result_shape(i), bounds) for i in range(len(xs))]
    shape = shapes[0] if len(shapes) == 1 else TupleShape(tuple(shapes))
    return cx.comp.emit(shape, "custom-call", [*xs, *inits, *tensors],
                        f'custom_call_target="{DYNAMIC_REDUCE_WINDOW}", '
                        f"called_computations={{{body}}}")
