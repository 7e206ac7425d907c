"""The custom calls tf2xla writes for windows over dynamic spatial dimensions with SAME padding.

`DynamicConvolutionForward`, `DynamicConvolutionInputGrad`, `DynamicConvolutionKernelGrad`,
`DynamicReduceWindowSamePadding` and `DynamicSelectAndScatterSamePadding`: each becomes the
plain op (convolution, reduce-window, select-and-scatter) with the window XLA's dynamic padder
recomputes for the actual sizes (dynhlo/shapes/dynamic_windows.py, shared with the GPU), run
by the plain op's lowering on the actual sizes.
"""

from __future__ import annotations

from ...shapes import dynamic_windows
from .lowering import LOWERINGS, custom_call


@custom_call(*dynamic_windows.TARGETS)
def dynamic_window(ctx, inst, args):
    """The plain op of dynamic_windows.as_plain, by the CPU's lowering of that op."""
    plain, taken = dynamic_windows.as_plain(inst, [a.shape for a in args],
                                            lambda: args[0])
    return LOWERINGS[plain.opcode](ctx, plain, list(args[taken]))
