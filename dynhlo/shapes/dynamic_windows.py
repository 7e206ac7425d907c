"""Windows whose padding (or whole window) is known only at run time, as the plain op
(convolution, reduce-window, select-and-scatter) at the actual sizes.

tf2xla's custom calls for dynamic spatial dimensions with SAME padding:
`DynamicConvolutionForward`, `DynamicConvolutionInputGrad`, `DynamicConvolutionKernelGrad`,
`DynamicReduceWindowSamePadding` and `DynamicSelectAndScatterSamePadding` carry the window of
the static op at the bound; XLA's dynamic padder (dynamic_padder.cc, RewriteDynamic*, with
GetWindowedOutputSize / GetWindowedInputGradSize for PADDING_SAME) recomputes the padding from
the actual size: out = ceil(n / stride), padding_before = max((out - 1) * stride + k - n, 0) / 2.
Source of the list: tensorflow/compiler/tf2xla (conv_op_helpers.cc, pooling_ops.cc).

StableHLO's `dynamic_conv` (the padding an s32[spatial, 2] operand) and `dynamic_reduce_window`
(window sizes, strides, dilations and padding operands), which JAX writes for SAME and strided
windows over a variable dimension, are imported as custom calls of those names with the same
operands (stablehlo/docs/spec.md, dynamic_conv; stablehlo/experimental's
dynamic_reduce_window); their window is read from those operands at each call.

`as_plain` builds the plain instruction; each backend runs it with its own lowering of the
plain op, so the CPU and the GPU share this arithmetic. The output sizes are the shape rules'
(rules_dynamic_window.py), the same formulas in the size algebra.
May assume: the custom call passed the verifier (its window and dim_labels decode).
"""

from __future__ import annotations

import dataclasses
import weakref
from typing import Callable, Sequence

from ..errors import DynamicSizeError
from ..hlo import attrs
from ..hlo.ir import Instruction
from ..hlo.opcodes import Opcode
from ..hlo.shape import UNBOUNDED
from .windows import WindowDim, conv_labels, window_dims, window_output_size

Shapes = Sequence[Sequence[int]]

DYNAMIC_CONV = "stablehlo.dynamic_conv"
DYNAMIC_REDUCE_WINDOW = "stablehlo.dynamic_reduce_window"


def same_padding(n: int, size: int, stride: int, dilation: int = 1) -> tuple[int, int, int]:
    """(out, padding_before, padding_after) of a SAME window over `n` elements."""
    extent = (size - 1) * dilation + 1
    out = -(-n // stride)
    total = max((out - 1) * stride + extent - n, 0)
    return out, total // 2, total - total // 2


def window_text(wins: list[WindowDim]) -> str:
    """A `window={...}` value for WindowDims (the inverse of shapes.windows.window_dims)."""
    def field(values):
        return "x".join(str(v) for v in values)
    return ("{size=" + field(w.size for w in wins) + " stride=" + field(w.stride for w in wins)
            + " pad=" + field(f"{w.lo}_{w.hi}" for w in wins)
            + " lhs_dilate=" + field(w.base_dilation for w in wins)
            + " rhs_dilate=" + field(w.window_dilation for w in wins) + "}")


def _as(inst: Instruction, opcode: Opcode, wins: list[WindowDim], called: dict,
        taken: slice = slice(None)) -> tuple[Instruction, slice]:
    """`inst` as the plain op `opcode` with window `wins` over the operands `taken` (for
    the plain op's lowering), and `taken`."""
    fields = dict(inst.attrs, window=window_text(wins))
    plain = Instruction(inst.name, opcode, inst.shape, list(inst.operands[taken]), fields, called)
    return plain, taken


def _same_windows(inst, shape) -> list[WindowDim]:
    """The window with each dimension's padding recomputed as SAME for the actual `shape`."""
    out = []
    for n, w in zip(shape, window_dims(inst, len(shape)), strict=True):
        _, lo, hi = same_padding(n, w.size, w.stride, w.window_dilation)
        out.append(dataclasses.replace(w, lo=lo, hi=hi))
    return out


def _reduce_window(inst, shapes, values):
    return _as(inst, Opcode.REDUCE_WINDOW, _same_windows(inst, shapes[0]),
               {"to_apply": inst.called["called_computations"]})


def _select_and_scatter(inst, shapes, values):
    select, scatter = inst.called["called_computations"]
    return _as(inst, Opcode.SELECT_AND_SCATTER, _same_windows(inst, shapes[0]),
               {"select": [select], "scatter": [scatter]})


def valid_padding(inst: Instruction) -> bool:
    """A tf2xla window call of padding_type=PADDING_VALID: XLA pads only a SAME window at
    run time (dynamic_padder.cc, RewriteDynamicConvolutionForward), so the window is the
    one written (no padding) and its output size VALID's, floor((n - extent) / stride) + 1."""
    return inst.attrs.get("padding_type") == "PADDING_VALID"


def _forward(inst, shapes, values):
    lhs, rhs = shapes
    if valid_padding(inst):
        return _as(inst, Opcode.CONVOLUTION, window_dims(inst, len(lhs) - 2), {})
    labels = conv_labels(inst, len(lhs))
    same = []
    for d, w in enumerate(window_dims(inst, len(lhs) - 2)):
        n, k = lhs[labels.lhs_spatial[d]], rhs[labels.rhs_spatial[d]]
        _, lo, hi = same_padding(n, k, w.stride, w.window_dilation)
        same.append(dataclasses.replace(w, lo=lo, hi=hi))
    return _as(inst, Opcode.CONVOLUTION, same, {})


def _input_grad(inst, shapes, values):
    """(input sizes, grad output, reversed kernel): the gradient of the forward SAME conv,
    a conv of the stride-dilated gradient padded by (k-1-before, n+before-(out-1)*s-1)
    (n+before for an empty gradient: an input of size 0 has an empty gradient).
    The window written is this conv's at the bound: lhs_dilate holds the forward stride.
    The plain conv takes operands 1 and 2 only; operand 0's values are the input's sizes."""
    sizes = values[0]
    _, grad, kernel = shapes
    labels = conv_labels(inst, len(grad))
    plain = []
    for d, w in enumerate(window_dims(inst, len(grad) - 2)):
        n = sizes[labels.out_spatial[d]]
        k = kernel[labels.rhs_spatial[d]]
        extent = (k - 1) * w.window_dilation + 1
        stride = w.base_dilation
        out, before, _ = same_padding(n, k, stride, w.window_dilation)
        lo = extent - 1 - before
        dilated = (out - 1) * stride + 1 if out else 0  # the gradient, stride-dilated
        plain.append(WindowDim(k, 1, lo, n + extent - 1 - lo - dilated, stride,
                               w.window_dilation))
    return _as(inst, Opcode.CONVOLUTION, plain, {}, slice(1, None))


def _kernel_grad(inst, shapes, values):
    """(activations, grad output): the kernel gradient of the forward SAME conv, a conv of the
    activations with the gradient as kernel (window dilation = forward stride)."""
    lhs, grad = shapes
    labels = conv_labels(inst, len(lhs))
    plain = []
    for d, w in enumerate(window_dims(inst, len(lhs) - 2)):
        n, m = lhs[labels.lhs_spatial[d]], grad[labels.rhs_spatial[d]]
        k = inst.shape.dims[labels.out_spatial[d]]
        stride, dilation = w.window_dilation, w.stride  # forward stride, forward dilation
        _, before, _ = same_padding(n, k, stride, dilation)
        window = (m - 1) * stride + 1 if m else 0  # the gradient as a window, dilated
        hi = (k - 1) * dilation + window - n - before
        plain.append(WindowDim(m, dilation, before, hi, 1, stride))
    return _as(inst, Opcode.CONVOLUTION, plain, {})


def _dynamic_conv(inst, shapes, values):
    """StableHLO dynamic_conv: the convolution with padding operand 2 ([spatial, 2])."""
    spatial = len(shapes[0]) - 2
    pads = _amounts(inst, values[2], 2 * spatial, "padding")
    wins = [dataclasses.replace(w, lo=pads[2 * d], hi=pads[2 * d + 1])
            for d, w in enumerate(window_dims(inst, spatial))]
    return _as(inst, Opcode.CONVOLUTION, wins, {}, slice(0, 2))


def _dynamic_reduce_window(inst, shapes, values):
    """StableHLO dynamic_reduce_window: N inputs, N initial values, then the window sizes,
    strides, base and window dilations ([rank] each) and the padding ([rank, 2])."""
    n, rank = (len(shapes) - 5) // 2, len(shapes[0])
    first = 2 * n
    size, stride, base, wdil = (_amounts(inst, values[first + i], rank, what)
                                for i, what in enumerate(WINDOW_OPERANDS[:4]))
    pads = _amounts(inst, values[first + 4], 2 * rank, "padding")
    for what, items, least in (("window_dimensions", size, 0), ("window_strides", stride, 1),
                               ("base_dilations", base, 1), ("window_dilations", wdil, 1)):
        if min(items, default=least) < least:
            raise DynamicSizeError(f"instruction '{inst.name}': {what} computed at run time "
                                   f"is {list(items)}; each must be >= {least}")
    wins = [WindowDim(size[d], stride[d], pads[2 * d], pads[2 * d + 1], base[d], wdil[d])
            for d in range(rank)]
    return _as(inst, Opcode.REDUCE_WINDOW, wins,
               {"to_apply": inst.called["called_computations"]}, slice(0, first))


# dynamic_reduce_window's operands after the inputs and initial values, in order.
WINDOW_OPERANDS = ("window_dimensions", "window_strides", "base_dilations", "window_dilations",
                   "padding")


def _amounts(inst, values, count: int, what: str) -> list[int]:
    if len(values) != count:
        raise DynamicSizeError(f"instruction '{inst.name}': {what} has {len(values)} values "
                               f"where {count} are needed")
    return [int(v) for v in values]


_PLAIN = {
    "DynamicReduceWindowSamePadding": _reduce_window,
    "DynamicSelectAndScatterSamePadding": _select_and_scatter,
    "DynamicConvolutionForward": _forward,
    "DynamicConvolutionInputGrad": _input_grad,
    "DynamicConvolutionKernelGrad": _kernel_grad,
    DYNAMIC_CONV: _dynamic_conv,
    DYNAMIC_REDUCE_WINDOW: _dynamic_reduce_window,
}
TARGETS = tuple(_PLAIN)


def value_operands(inst: Instruction) -> tuple[int, ...]:
    """The operands whose values (not only shapes) decide the window: the input gradient's
    sizes, dynamic_conv's padding, dynamic_reduce_window's five window operands."""
    target = attrs.string(inst, "custom_call_target")
    count = len(inst.operands)
    if target == "DynamicConvolutionInputGrad":
        return (0,)
    if target == DYNAMIC_CONV:
        return (2,)
    if target == DYNAMIC_REDUCE_WINDOW:
        return tuple(range(count - 5, count))
    return ()


# Per call instruction, its plain instructions by actual shapes and window values (few
# distinct ones in a serving loop): a repeated size reuses one, whose window the plain
# lowering decoded once.
_MEMO: "weakref.WeakKeyDictionary[Instruction, dict]" = weakref.WeakKeyDictionary()
_MEMO_SIZES = 64  # per instruction; past it the memo starts over


def as_plain(inst: Instruction, shapes: Shapes,
             values: Callable[[int], Sequence[int]]) -> tuple[Instruction, slice]:
    """(the plain instruction, the slice of the call's operands it takes) for one of TARGETS.

    `shapes` are the operands' actual shapes; `values(i)` gives the elements of operand i
    (row-major), read only for `value_operands(inst)`: small integer vectors the program
    computed from the sizes. The plain instruction keeps the call's name, shape and
    attributes, with the window of the static op at the actual sizes.

    Raises:
        DynamicSizeError: a window read at run time with the wrong number of values, or a
            size < 0 or stride/dilation < 1, or one whose output is past the call's declared
            bound (window values read from data).
    """
    read = {i: tuple(int(v) for v in values(i)) for i in value_operands(inst)}
    key = (tuple(tuple(s) for s in shapes), tuple(read.items()))
    memo = _MEMO.setdefault(inst, {})
    found = memo.get(key)
    if found is None:
        if len(memo) >= _MEMO_SIZES:
            memo.clear()
        target = attrs.string(inst, "custom_call_target")
        found = _PLAIN[target](inst, key[0], read)
        _check_fits(inst, found[0], key[0][found[1]])
        memo[key] = found
    return found


def _check_fits(inst: Instruction, plain: Instruction, shapes: Shapes) -> None:
    """DynamicSizeError where the window read at run time gives an output dimension past
    the call's declared bound: window values read from data (an argument, or arithmetic
    the inference does not follow) are not bounded by inference, and the plain op would
    write more than the buffer planned at the bound holds."""
    if plain.opcode is Opcode.REDUCE_WINDOW:
        wins = window_dims(plain, len(shapes[0]))
        sizes = {d: window_output_size(n, w) for d, (n, w) in enumerate(zip(shapes[0], wins,
                                                                            strict=True))}
    elif plain.opcode is Opcode.CONVOLUTION:
        lhs, rhs = shapes[0], shapes[1]
        labels, wins = conv_labels(plain, len(lhs)), window_dims(plain, len(lhs) - 2)
        sizes = {labels.out_spatial[d]: window_output_size(
            lhs[labels.lhs_spatial[d]], w, rhs[labels.rhs_spatial[d]]) for d, w in enumerate(wins)}
    else:   # select-and-scatter: the operand's shape
        return
    declared = inst.shape.elements[0] if inst.shape.is_tuple else inst.shape
    for d, size in sizes.items():
        if declared.dims[d] != UNBOUNDED and size > declared.dims[d]:
            raise DynamicSizeError(
                f"instruction '{inst.name}': the window computed at run time "
                f"(window={window_text(wins)}) gives dimension {d} size {size}, past its "
                f"bound {declared.dims[d]} in {declared}")
