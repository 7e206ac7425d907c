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

from ..hlo.shape import UNBOUNDED
from ..shapes.dynamic_windows import DYNAMIC_CONV, DYNAMIC_REDUCE_WINDOW
from ..shapes.windows import WindowDim, window_output_size
from . import shape_exprs as sx
from .stablehlo_convert import OpContext, bounded
from .stablehlo_emit import Val


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


def conv_bounds(c, lhs: Val, rhs: Val, windows: list[tuple], batch_groups: int) -> list:
    """Bounds of a convolution's result dims (None where unknown): batch / batch groups,
    the kernel's output features, each spatial dim's window bound. `windows` holds
    (stride, lo_hi, hi_hi, base, wdil) per spatial dimension."""
    rank = lhs.shape.rank
    out: list = [None] * rank
    batch = lhs.shape.dims[c.input_batch_dimension]
    out[c.output_batch_dimension] = None if batch == UNBOUNDED else batch // batch_groups
    feature = rhs.shape.dims[c.kernel_output_feature_dimension]
    out[c.output_feature_dimension] = None if feature == UNBOUNDED else feature
    for k, (stride, lo, hi, base, wdil) in enumerate(windows):
        size = rhs.shape.dims[c.kernel_spatial_dimensions[k]]
        out[c.output_spatial_dimensions[k]] = window_bound(
            lhs.shape.dims[c.input_spatial_dimensions[k]], None if size == UNBOUNDED else size,
            stride, lo, hi, base, wdil)
    return out


def dynamic_conv(cx: OpContext, lhs: Val, rhs: Val, padding: Val, attrs: str,
                 bounds: list) -> Val:
    """`stablehlo.dynamic_conv` with a padding computed from the sizes, as a custom call of
    that name: the padding operand is read at each call."""
    shape = bounded(cx.result_shape(), bounds)
    return cx.comp.emit(shape, "custom-call", [lhs, rhs, padding],
                        f'{attrs}, custom_call_target="{DYNAMIC_CONV}"')


def dynamic_reduce_window(cx: OpContext, x: Val, init: Val, tensors: list[Val],
                          exprs: list[list[tuple]], body: str) -> Val:
    """`stablehlo.dynamic_reduce_window` with a window computed from the sizes, as a custom
    call of that name with the same operands, read at each call. `exprs` are the window
    operands' size expressions (window, strides, base and window dilations, padding)."""
    windows, strides, base, wdil, padding = exprs
    bounds = [window_bound(x.shape.dims[d], least(windows[d]), least(strides[d]),
                           upper(padding[2 * d]), upper(padding[2 * d + 1]),
                           upper(base[d]), least(wdil[d]))
              for d in range(x.shape.rank)]
    shape = bounded(cx.result_shape(), bounds)
    return cx.comp.emit(shape, "custom-call", [x, init, *tensors],
                        f'custom_call_target="{DYNAMIC_REDUCE_WINDOW}", '
                        f"called_computations={{{body}}}")
