"""Windows computed at run time: tf2xla's custom calls for dynamic spatial dimensions with
SAME padding and StableHLO's dynamic_conv and dynamic_reduce_window.

`DynamicConvolutionForward`, `DynamicConvolutionInputGrad`, `DynamicConvolutionKernelGrad`,
`DynamicReduceWindowSamePadding`, `DynamicSelectAndScatterSamePadding`,
`stablehlo.dynamic_conv` and `stablehlo.dynamic_reduce_window`: each becomes the plain op
(convolution, reduce-window, select-and-scatter) with the window for the actual sizes (XLA's
dynamic padder's SAME arithmetic, or the window operands' values; dynhlo/shapes/
dynamic_windows.py, shared with the GPU), run by the plain op's lowering on the actual sizes.
"""

from __future__ import annotations

from ...shapes import dynamic_windows
from .lowering import LOWERINGS, custom_call


@custom_call(*dynamic_windows.TARGETS)
def dynamic_window(ctx, inst, args):
    """The plain op of dynamic_windows.as_plain, by the CPU's lowering of that op."""
    plain, taken = dynamic_windows.as_plain(inst, [a.shape for a in args],
                                            lambda i: args[i].reshape(-1).tolist())
    return LOWERINGS[plain.opcode](ctx, plain, list(args[taken]))
