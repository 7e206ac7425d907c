"""Shape rules of the window family (the CPU's ops_window.py, the GPU's library/window.py):
reduce-window and select-and-scatter (convolution: rules_linalg.py). A windowed dimension's size is an expression of its operand's size
(XLA's window arithmetic, `window_output_expr`), so a dynamic input gives an output that
follows the actual size. The window geometry (dynhlo/shapes/windows.py) is shared with the
backends' lowerings, so shape and value agree on one formula. Semantics: XLA operation
semantics (ReduceWindow, SelectAndScatter) and DynamicDimensionInference.
"""

from __future__ import annotations

from ..hlo.opcodes import Opcode
from ..hlo.shape import UNBOUNDED
from .rules import elementwise, rule
from .sizes import Sym, bound_of, derive, dim_text, unify
from .windows import WindowDim, window_dims, window_output_expr, window_output_size


def windowed(dim, w: WindowDim, declared: int):
    """The output size of a window `w` over `dim`, an expression of dim's size (bounded by
    the window over dim's bound; `declared` where dim has none)."""
    bound = window_output_size(bound_of(dim), w) if bound_of(dim) != UNBOUNDED else declared
    return derive(lambda n: window_output_expr(n, w), (dim,), bound, key=("window", w))


@rule(Opcode.REDUCE_WINDOW)
def _reduce_window(ctx, inst, operands):
    n = len(operands) // 2
    if n == 0 or len(operands) != 2 * n:
        raise ctx.error("reduce-window takes N arrays and N init values")
    if any(t != () for t in operands[n:]):
        raise ctx.error("reduce-window init values must be scalars")
    joined = elementwise(ctx, operands[:n], join=unify)
    wins = window_dims(inst, len(joined))
    declared = inst.shape.elements[0] if inst.shape.is_tuple else inst.shape
    if declared.rank != len(joined):
        raise ctx.error(f"reduce-window of rank-{len(joined)} operands declares a "
                        f"rank-{declared.rank} result ({declared})")
    out = tuple(windowed(dim, w, declared.dims[d])
                for d, (dim, w) in enumerate(zip(joined, wins, strict=True)))
    return out if n == 1 else [out] * n


@rule(Opcode.SELECT_AND_SCATTER)
def _select_and_scatter(ctx, inst, operands):
    operand, source, init = operands
    if init != () or len(source) != len(operand):
        raise ctx.error("select-and-scatter needs a source of the operand's rank and a "
                        "scalar init value")
    declared = inst.operands[1].shape.dims
    for d, (dim, w, src) in enumerate(zip(operand, window_dims(inst, len(operand)), source,
                                          strict=True)):
        if w.base_dilation != 1 or w.window_dilation != 1:
            raise ctx.error("select-and-scatter windows have no dilation")
        windows = windowed(dim, w, declared[d])
        if isinstance(windows, int) and isinstance(src, int) and windows != src:
            raise ctx.error(f"source dimension {d} has size {src}, but the window over the "
                            f"operand gives {windows}")
        # A source with no size of its own (a broadcast to `<=`) has one per window.
        if isinstance(src, Sym) and src.root().expr is None and unify(windows, src) is None:
            raise ctx.error(f"source dimension {d} is {dim_text(src)}, but the window over "
                            f"the operand gives {dim_text(windows)}")
    return operand
