"""Matrix dimensions that must be one size: a square operand, or the sides a solve pairs.

cholesky, triangular-solve and the LAPACK and GPU solver calls that factor or solve with a
square matrix (potrf, trsm, syevd/heevd, geev, ...) need `n x n`. Two dynamic dimensions of
one run-time size, or two static ones, are square; a dynamic dimension beside a static one
(`f32[<=8,8]`) is square only at the bound.

XLA has no rule for these either: DynamicDimensionInference has no handler for cholesky or
triangular-solve, so a dynamic operand dimension reaches `DefaultAction` ("Asked to propagate
a dynamic dimension ... which is not implemented"), and a custom call with one is "not
supported to have a dynamic dimension" (dynamic_dimension_inference.cc). At a size below the
bound the op would run on an `n x 8` block whose last `8 - n` columns are padding, so there is
no answer that does not depend on it: dynhlo refuses the module at compile time, naming the
instruction, both dimensions, their sizes and the bound.
"""

from __future__ import annotations

from ..errors import UnsupportedError
from ..hlo.ir import Instruction
from .sizes import Sym, bound_of, dim_text


def one_kind(inst: Instruction, pairs, what: str) -> None:
    """UnsupportedError for the first pair ((dim, where), (dim, where)) whose dimensions
    are one dynamic and one static; `where` names each, e.g. "operand 0 'a' dimension 1"."""
    for (x, x_at), (y, y_at) in pairs:
        if isinstance(x, Sym) == isinstance(y, Sym):
            continue
        (dyn, dyn_at), (fixed, fixed_at) = ((x, x_at), (y, y_at)) if isinstance(x, Sym) \
            else ((y, y_at), (x, x_at))
        bound = bound_of(dyn)
        shown = "?" if bound < 0 else str(bound)
        raise UnsupportedError(
            f"instruction '{inst.name}': {what}: {dyn_at} is dynamic (size {dim_text(dyn)} "
            f"at run time, bound {shown}) but {fixed_at} is static (size {fixed}); they must "
            f"be one size, and below the bound the {_op(inst)} would read padding "
            f"(XLA refuses a dynamic dimension here too). Mark both <={shown} (one run-time "
            "size) or make both static")


def square(inst: Instruction, dims, operand: int = 0, what: str | None = None) -> None:
    """`dims` (an operand's dims tree, rank >= 2) ends in two dimensions of one kind (see
    one_kind); their sizes are unified by the caller's rule."""
    name = inst.operands[operand].name if operand < len(inst.operands) else "?"
    rank = len(dims)
    at = f"operand {operand} '{name}'"
    one_kind(inst, [((dims[-2], f"{at} dimension {rank - 2}"),
                     (dims[-1], f"{at} dimension {rank - 1}"))],
             what or f"the square matrix of {_op(inst)}")


def _op(inst: Instruction) -> str:
    """The opcode, or a custom call's target (lapack_spotrf_ffi)."""
    target = inst.attrs.get("custom_call_target", "").strip().strip('"')
    return target or inst.opcode.value
