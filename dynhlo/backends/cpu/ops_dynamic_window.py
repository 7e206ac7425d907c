"""The custom calls tf2xla writes for windows over dynamic spatial dimensions with SAME padding.

`DynamicConvolutionForward`, `DynamicConvolutionInputGrad`, `DynamicConvolutionKernelGrad`,
`DynamicReduceWindowSamePadding` and `DynamicSelectAndScatterSamePadding` carry the window of
the static op at the bound; XLA's dynamic padder (dynamic_padder.cc, RewriteDynamic*, with
GetWindowedOutputSize / GetWindowedInputGradSize for PADDING_SAME) recomputes the padding from
the actual size: out = ceil(n / stride), padding_before = max((out - 1) * stride + k - n, 0) / 2.
Here each becomes the plain op (convolution, reduce-window, select-and-scatter) with that
padding, run by the plain op's lowering on the actual sizes. Source of the list:
tensorflow/compiler/tf2xla (conv_op_helpers.cc, pooling_ops.cc).
"""

from __future__ import annotations

import dataclasses

from ...hlo.ir import Instruction
from ...hlo.opcodes import Opcode
from ...shapes.windows import WindowDim, conv_labels, window_dims
from .lowering import LOWERINGS, custom_call


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


def _as(inst: Instruction, opcode: Opcode, wins: list[WindowDim], called: dict) -> Instruction:
    """`inst` as the plain op `opcode` with window `wins` (for the plain op's lowering)."""
    attrs = dict(inst.attrs, window=window_text(wins))
    return Instruction(inst.name, opcode, inst.shape, list(inst.operands), attrs, called)


def _same_windows(inst, shape) -> list[WindowDim]:
    """The window with each dimension's padding recomputed as SAME for the actual `shape`."""
    out = []
    for n, w in zip(shape, window_dims(inst, len(shape))):
        _, lo, hi = same_padding(n, w.size, w.stride, w.window_dilation)
        out.append(dataclasses.replace(w, lo=lo, hi=hi))
    return out


@custom_call("DynamicReduceWindowSamePadding")
def reduce_window_same(ctx, inst, args):
    plain = _as(inst, Opcode.REDUCE_WINDOW, _same_windows(inst, args[0].shape),
                {"to_apply": inst.called["called_computations"]})
    return LOWERINGS[Opcode.REDUCE_WINDOW](ctx, plain, args)


@custom_call("DynamicSelectAndScatterSamePadding")
def select_and_scatter_same(ctx, inst, args):
    select, scatter = inst.called["called_computations"]
    plain = _as(inst, Opcode.SELECT_AND_SCATTER, _same_windows(inst, args[0].shape),
                {"select": [select], "scatter": [scatter]})
    return LOWERINGS[Opcode.SELECT_AND_SCATTER](ctx, plain, args)


@custom_call("DynamicConvolutionForward")
def convolution_forward(ctx, inst, args):
    lhs, rhs = args
    labels = conv_labels(inst, lhs.ndim)
    wins = window_dims(inst, lhs.ndim - 2)
    same = []
    for d, w in enumerate(wins):
        n, k = lhs.shape[labels.lhs_spatial[d]], rhs.shape[labels.rhs_spatial[d]]
        _, lo, hi = same_padding(n, k, w.stride, w.window_dilation)
        same.append(dataclasses.replace(w, lo=lo, hi=hi))
    return LOWERINGS[Opcode.CONVOLUTION](ctx, _as(inst, Opcode.CONVOLUTION, same, {}), args)


@custom_call("DynamicConvolutionInputGrad")
def convolution_input_grad(ctx, inst, args):
    """(input sizes, grad output, reversed kernel): the gradient of the forward SAME conv,
    a conv of the stride-dilated gradient padded by (k-1-before, n+before-(out-1)*s-1).
    The window written is this conv's at the bound: lhs_dilate holds the forward stride."""
    sizes, grad, kernel = args
    labels = conv_labels(inst, grad.ndim)
    wins = window_dims(inst, grad.ndim - 2)
    plain = []
    for d, w in enumerate(wins):
        n = int(sizes[labels.out_spatial[d]])
        k = kernel.shape[labels.rhs_spatial[d]]
        extent = (k - 1) * w.window_dilation + 1
        stride = w.base_dilation
        out, before, _ = same_padding(n, k, stride, w.window_dilation)
        lo = extent - 1 - before
        plain.append(WindowDim(k, 1, lo, n + extent - 1 - lo - ((out - 1) * stride + 1),
                               stride, w.window_dilation))
    conv = _as(inst, Opcode.CONVOLUTION, plain, {})
    conv.operands = conv.operands[1:]
    return LOWERINGS[Opcode.CONVOLUTION](ctx, conv, [grad, kernel])


@custom_call("DynamicConvolutionKernelGrad")
def convolution_kernel_grad(ctx, inst, args):
    """(activations, grad output): the kernel gradient of the forward SAME conv, a conv of the
    activations with the gradient as kernel (window dilation = forward stride)."""
    lhs, grad = args
    labels = conv_labels(inst, lhs.ndim)
    wins = window_dims(inst, lhs.ndim - 2)
    plain = []
    for d, w in enumerate(wins):
        n, m = lhs.shape[labels.lhs_spatial[d]], grad.shape[labels.rhs_spatial[d]]
        k = inst.shape.dims[labels.out_spatial[d]]
        stride, dilation = w.window_dilation, w.stride  # forward stride, forward dilation
        _, before, _ = same_padding(n, k, stride, dilation)
        hi = (k - 1) * dilation + (m - 1) * stride + 1 - n - before
        plain.append(WindowDim(m, dilation, before, hi, 1, stride))
    return LOWERINGS[Opcode.CONVOLUTION](ctx, _as(inst, Opcode.CONVOLUTION, plain, {}), args)
