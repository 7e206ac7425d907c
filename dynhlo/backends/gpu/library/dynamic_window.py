"""Windows computed at run time on the device, as the plain op's library call.

tf2xla's `DynamicConvolutionForward`, `DynamicConvolutionInputGrad`,
`DynamicConvolutionKernelGrad`, `DynamicReduceWindowSamePadding` and
`DynamicSelectAndScatterSamePadding`, and StableHLO's `stablehlo.dynamic_conv` and
`stablehlo.dynamic_reduce_window`, become the plain convolution, reduce-window or
select-and-scatter with the window for the actual sizes (dynhlo/shapes/dynamic_windows.py,
the arithmetic the CPU backend uses too), run by linalg.convolution or window.reduce_window /
window.select_and_scatter on tensors at their actual sizes. The operands whose values decide
the window (the input gradient's sizes, a padding or window vector) are read back: small
vectors, as set-dimension-size reads its size. A plain call that returns NotImplemented (an
integer convolution past f64's exact range, a called computation apply.py does not run)
makes the custom call take the host tier.
Semantics: XLA's dynamic_padder.cc (RewriteDynamic*), tf2xla's conv_op_helpers.cc and
pooling_ops.cc.
"""

from __future__ import annotations

from ....hlo.opcodes import Opcode
from ....shapes import dynamic_windows
from .linalg import convolution
from .window import reduce_window, select_and_scatter

_PLAIN = {Opcode.CONVOLUTION: convolution, Opcode.REDUCE_WINDOW: reduce_window,
          Opcode.SELECT_AND_SCATTER: select_and_scatter}


def dynamic_window(ctx, inst, args):
    """One of dynamic_windows.TARGETS as its plain op's library call (module doc)."""
    plain, taken = dynamic_windows.as_plain(inst, [tuple(a.shape) for a in args],
                                            lambda i: args[i].reshape(-1).tolist())
    return _PLAIN[plain.opcode](ctx, plain, list(args[taken]))
