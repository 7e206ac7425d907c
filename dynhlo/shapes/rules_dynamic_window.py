"""Shape rules of windows computed at run time: their output sizes in the size algebra.

StableHLO's `dynamic_conv` and `dynamic_reduce_window` (imported as custom calls of those
names): each windowed dimension's size is XLA's window formula (`windows.windowed_size`) over
the operand's size and the window operands' values, followed as expressions
(`values.vector`): JAX computes SAME padding from the sizes, so the output size is an
expression of the argument's sizes, the same one JAX's `(n + pads - k) // s + 1` gives. A
window operand the program reads from data is read at run time (its value an opaque atom).
tf2xla's SAME calls: ceil(n / stride) per windowed dimension (XLA's
DynamicDimensionInference, GetWindowedOutputSize for PADDING_SAME; a VALID convolution's is
the window as written), the input gradient the
values of its input-sizes operand, the kernel gradient the kernel's static shape.
The lowerings (dynamic_windows.as_plain) compute the window from the same values, so shape
and value agree. Semantics: StableHLO spec (dynamic_conv), XLA's dynamic_dimension_inference.cc.
"""

from __future__ import annotations

from ..errors import UnsupportedError
from ..hlo.shape import UNBOUNDED
from . import algebra
from .algebra import Size
from .dynamic_windows import DYNAMIC_CONV, DYNAMIC_REDUCE_WINDOW, WINDOW_OPERANDS, valid_padding
from .rules import CUSTOM_CALL_RULES, default_rule, elementwise
from .rules_linalg import convolution_dims
from .algebra_eval import largest
from .sizes import Sym, bound_of, derive, result_dim, size_of, unify
from .trees import observed_tree
from .values import vector
from .windows import WindowDim, window_dims, window_output_size, windowed_size


def _window_values(ctx, inst, index: int, count: int, what: str) -> list[Size] | None:
    """Operand `index`'s `count` values as expressions; None where they are not followed
    (the output is then read off the result)."""
    operand = inst.operands[index]
    if operand.shape.is_tuple or operand.shape.element_type not in ("s32", "s64", "u32",
                                                                   "u64", "s16", "s8"):
        raise ctx.error(f"{what} (operand {index} '{operand.name}') must be an integer "
                        f"array, got {operand.shape}")
    found = vector(ctx.info, operand)
    if found is not None and len(found) != count:
        raise ctx.error(f"{what} (operand {index} '{operand.name}') has {len(found)} values "
                        f"where {count} are needed")
    return found


def _constant(ctx, inst, value: Size, what: str) -> int:
    """A window number the algebra needs as a constant (a dilation), or a one-line refusal
    naming the attribute and the instruction."""
    if not value.is_const:
        raise UnsupportedError(f"instruction '{inst.name}': {what} computed at run time "
                               f"({algebra.text(value, 80)}) is not supported; only the "
                               "padding, window sizes and strides may be")
    return value.value


def _bound(n_bound: int, size: Size, stride: Size, lo: Size, hi: Size, base: int, wdil: int,
           declared: int) -> int:
    """The result's bound: the declared one, else the window formula at the operand's bound
    with each window number at its extreme (the output grows with n and the padding, shrinks
    with the window size and the stride); unbounded where a range is."""
    if declared != UNBOUNDED:
        return declared
    ends = (n_bound, size.lo, stride.lo, lo.hi, hi.hi)
    if n_bound == UNBOUNDED or any(v in (algebra.INF, -algebra.INF) for v in ends[1:]):
        return UNBOUNDED
    return window_output_size(n_bound, WindowDim(max(int(size.lo), 0), max(int(stride.lo), 1),
                                                 int(lo.hi), int(hi.hi), base, wdil))


def _windowed(dim, size: Size, stride: Size, lo: Size, hi: Size, base: int, wdil: int,
              declared: int):
    """The windowed dimension; an import that could not bound it (`?`: the operand an
    intermediate) gets the exact bound where the size reads one argument size
    (algebra_eval.largest), so that it is the bound of the same size written otherwise."""
    def build(n):
        return windowed_size(n, size, stride, lo, hi, base, wdil)
    bound = _bound(bound_of(dim), size, stride, lo, hi, base, wdil, declared)
    built = build(size_of(dim))
    if built.is_const:
        return built.value
    if declared == UNBOUNDED:
        exact = largest(built)
        bound = exact if exact is not None and (bound == UNBOUNDED or exact < bound) else bound
    # a static dimension under a window of run-time size (`reduce_window(x, (2, b))`) is
    # dynamic: derive's static case would take the expression for a constant
    return derive(build, (dim,), bound) if isinstance(dim, Sym) else Sym(bound, built)


def _dynamic_conv(ctx, inst, operands):
    lhs, rhs, padding = operands
    spatial = len(lhs) - 2
    pads = _window_values(ctx, inst, 2, 2 * spatial, "padding")
    if pads is None:
        return observed_tree(inst)

    def window(k, x, kernel, w: WindowDim, declared):
        size = algebra.const(kernel) if isinstance(kernel, int) else None
        if size is None:   # a kernel of run-time size: its size expression
            return derive(lambda n, s: windowed_size(n, s, w.stride, pads[2 * k],
                                                     pads[2 * k + 1], w.base_dilation,
                                                     w.window_dilation),
                          (x, kernel), declared)
        return _windowed(x, size, algebra.const(w.stride), pads[2 * k], pads[2 * k + 1],
                         w.base_dilation, w.window_dilation, declared)
    for w in window_dims(inst, spatial):
        if (w.lo, w.hi) != (0, 0):
            raise ctx.error("stablehlo.dynamic_conv takes its padding from operand 2; its "
                            "window= has no pad")
    return convolution_dims(ctx, inst, [lhs, rhs], spatial=window)


def _dynamic_reduce_window(ctx, inst, operands):
    n = (len(operands) - 5) // 2
    if n < 1 or len(operands) != 2 * n + 5:
        raise ctx.error(f"stablehlo.dynamic_reduce_window takes N inputs, N initial values and "
                        f"the five window operands ({', '.join(WINDOW_OPERANDS)}), got "
                        f"{len(operands)} operands")
    joined = elementwise(ctx, operands[:n], join=unify)
    rank = len(joined)
    found = [_window_values(ctx, inst, 2 * n + i, 2 * rank if what == "padding" else rank,
                            what) for i, what in enumerate(WINDOW_OPERANDS)]
    if any(f is None for f in found):
        return observed_tree(inst)
    size, stride, base, wdil, pads = found
    for what, items, least in (("window_dimensions", size, 0), ("window_strides", stride, 1)):
        low = [int(v.value) for v in items if v.is_const and v.value < least]
        if low:   # as the run-time check (dynamic_windows), before the algebra divides by it
            raise ctx.error(f"stablehlo.dynamic_reduce_window: {what} has the constant "
                            f"{low[0]}; each must be >= {least}")
    declared = inst.shape.elements[0] if inst.shape.is_tuple else inst.shape
    out = tuple(_windowed(dim, size[d], stride[d], pads[2 * d], pads[2 * d + 1],
                          _constant(ctx, inst, base[d], f"base_dilations[{d}]"),
                          _constant(ctx, inst, wdil[d], f"window_dilations[{d}]"),
                          declared.dims[d])
                for d, dim in enumerate(joined))
    return out if n == 1 else [out] * n


def _same(dim, stride: int, declared: int):
    """ceil(n / stride): a SAME window's output size (XLA GetWindowedOutputSize)."""
    bound = declared if declared != UNBOUNDED else (
        UNBOUNDED if bound_of(dim) == UNBOUNDED else -(-bound_of(dim) // stride))
    return derive(lambda n: algebra.ceildiv(n, stride), (dim,), bound)


def _reduce_window_same(ctx, inst, operands):
    operand = operands[0]
    wins = window_dims(inst, len(operand))
    return tuple(_same(dim, w.stride, inst.shape.dims[d])
                 for d, (dim, w) in enumerate(zip(operand, wins, strict=True)))


def _convolution_forward(ctx, inst, operands):
    if valid_padding(inst):   # the window as written (dynamic_windows.valid_padding)
        return convolution_dims(ctx, inst, operands)
    return convolution_dims(ctx, inst, operands,
                            spatial=lambda k, x, kernel, w, declared: _same(x, w.stride,
                                                                            declared))


def _convolution_input_grad(ctx, inst, operands):
    """The result is the forward input: its sizes are operand 0's values."""
    found = vector(ctx.info, inst.operands[0])
    if found is None or len(found) != inst.shape.rank:
        return observed_tree(inst)
    out = []
    for d, (dim, dynamic) in enumerate(zip(inst.shape.dims, inst.shape.dynamic, strict=True)):
        if not dynamic:
            out.append(dim)
        elif found[d].data:   # sizes read from data: read off the result
            out.append(result_dim(inst, (), d, dim))
        else:
            out.append(Sym(dim, algebra.clamp(found[d], 0, None if dim == UNBOUNDED else dim)))
    return tuple(out)


def _select_and_scatter_same(ctx, inst, operands):
    return operands[0]


CUSTOM_CALL_RULES.update({
    DYNAMIC_CONV: _dynamic_conv,
    DYNAMIC_REDUCE_WINDOW: _dynamic_reduce_window,
    "DynamicReduceWindowSamePadding": _reduce_window_same,
    "DynamicSelectAndScatterSamePadding": _select_and_scatter_same,
    "DynamicConvolutionForward": _convolution_forward,
    "DynamicConvolutionInputGrad": _convolution_input_grad,
    # the kernel gradient has the kernel's static shape: the declared one
    "DynamicConvolutionKernelGrad": default_rule,
})
