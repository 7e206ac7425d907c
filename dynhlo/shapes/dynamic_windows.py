"""tf2xla's custom calls for windows over dynamic spatial dimensions with SAME padding, as
the plain op (convolution, reduce-window, select-and-scatter) at the actual sizes.

`DynamicConvolutionForward`, `DynamicConvolutionInputGrad`, `DynamicConvolutionKernelGrad`,
`DynamicReduceWindowSamePadding` and `DynamicSelectAndScatterSamePadding` carry the window of
the static op at the bound; XLA's dynamic padder (dynamic_padder.cc, RewriteDynamic*, with
GetWindowedOutputSize / GetWindowedInputGradSize for PADDING_SAME) recomputes the padding from
the actual size: out = ceil(n / stride), padding_before = max((out - 1) * stride + k - n, 0) / 2.
`as_plain` builds that plain instruction; each backend runs it with its own lowering of the
plain op, so the CPU and the GPU share this arithmetic. Source of the list:
tensorflow/compiler/tf2xla (conv_op_helpers.cc, pooling_ops.cc).
May assume: the custom call passed the verifier (its window and dim_labels decode).
"""

from __future__ import annotations

import dataclasses
import weakref
from typing import Callable, Sequence

from ..hlo import attrs
from ..hlo.ir import Instruction
from ..hlo.opcodes import Opcode
from .windows import WindowDim, conv_labels, window_dims

Shapes = Sequence[Sequence[int]]


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
        operands: list | None = None) -> Instruction:
    """`inst` as the plain op `opcode` with window `wins` (for the plain op's lowering)."""
    fields = dict(inst.attrs, window=window_text(wins))
    operands = list(inst.operands) if operands is None else operands
    return Instruction(inst.name, opcode, inst.shape, operands, fields, called)


def _same_windows(inst, shape) -> list[WindowDim]:
    """The window with each dimension's padding recomputed as SAME for the actual `shape`."""
    out = []
    for n, w in zip(shape, window_dims(inst, len(shape))):
        _, lo, hi = same_padding(n, w.size, w.stride, w.window_dilation)
        out.append(dataclasses.replace(w, lo=lo, hi=hi))
    return out


def _reduce_window(inst, shapes, sizes):
    return _as(inst, Opcode.REDUCE_WINDOW, _same_windows(inst, shapes[0]),
               {"to_apply": inst.called["called_computations"]})


def _select_and_scatter(inst, shapes, sizes):
    select, scatter = inst.called["called_computations"]
    return _as(inst, Opcode.SELECT_AND_SCATTER, _same_windows(inst, shapes[0]),
               {"select": [select], "scatter": [scatter]})


def _forward(inst, shapes, sizes):
    lhs, rhs = shapes
    labels = conv_labels(inst, len(lhs))
    same = []
    for d, w in enumerate(window_dims(inst, len(lhs) - 2)):
        n, k = lhs[labels.lhs_spatial[d]], rhs[labels.rhs_spatial[d]]
        _, lo, hi = same_padding(n, k, w.stride, w.window_dilation)
        same.append(dataclasses.replace(w, lo=lo, hi=hi))
    return _as(inst, Opcode.CONVOLUTION, same, {})


def _input_grad(inst, shapes, sizes):
    """(input sizes, grad output, reversed kernel): the gradient of the forward SAME conv,
    a conv of the stride-dilated gradient padded by (k-1-before, n+before-(out-1)*s-1)
    (n+before for an empty gradient: an input of size 0 has an empty gradient).
    The window written is this conv's at the bound: lhs_dilate holds the forward stride.
    The plain conv takes operands 1 and 2 only; `sizes` are operand 0's values."""
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
    return _as(inst, Opcode.CONVOLUTION, plain, {}, list(inst.operands[1:]))


def _kernel_grad(inst, shapes, sizes):
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


_PLAIN = {
    "DynamicReduceWindowSamePadding": _reduce_window,
    "DynamicSelectAndScatterSamePadding": _select_and_scatter,
    "DynamicConvolutionForward": _forward,
    "DynamicConvolutionInputGrad": _input_grad,
    "DynamicConvolutionKernelGrad": _kernel_grad,
}
TARGETS = tuple(_PLAIN)


# Per call instruction, its plain instructions by actual shapes (few distinct ones in a
# serving loop): a repeated size reuses one, whose window the plain lowering decoded once.
_MEMO: "weakref.WeakKeyDictionary[Instruction, dict]" = weakref.WeakKeyDictionary()
_MEMO_SIZES = 64  # per instruction; past it the memo starts over


def as_plain(inst: Instruction, shapes: Shapes,
             sizes: Callable[[], Sequence[int]]) -> tuple[Instruction, slice]:
    """(the plain instruction, the slice of the call's operands it takes) for one of TARGETS.

    `shapes` are the operands' actual shapes; `sizes()` gives the values of operand 0, read
    only by DynamicConvolutionInputGrad (its input's sizes decide the result's shape). The
    plain instruction keeps the call's name, shape and attributes, with the window's padding
    (and, for the gradients, strides and dilations) of the static op at the actual sizes.
    """
    target = attrs.string(inst, "custom_call_target")
    values = tuple(int(v) for v in sizes()) if target == "DynamicConvolutionInputGrad" else ()
    key = (tuple(tuple(s) for s in shapes), values)
    memo = _MEMO.setdefault(inst, {})
    plain = memo.get(key)
    if plain is None:
        if len(memo) >= _MEMO_SIZES:
            memo.clear()
        plain = memo[key] = _PLAIN[target](inst, key[0], values)
    return plain, slice(len(inst.operands) - len(plain.operands), None)
