"""What a CPU kernel computes: the compiled path's FusionRules over the shared planner.

A kernel computes an instruction when emit.py has it, every element type it touches is
one a loop holds in registers (pred, s8-s64, u8-u64, f32, f64) and nothing in it would
round differently from the reference: f16/bf16 (computed in f32 and rounded once), complex
values and compare's TOTALORDER stay NumPy's, and so does power but an f32 one by a
constant exponent of 2, 3, 4, -1 or -2 (float_power.py's exact f64 products). Scalar
constants are folded into the loop. Reshapes that only insert or delete dimensions of size
1 are index maps. Reductions of the trailing dimensions by add/multiply/maximum/minimum
(and and/or of pred or integers) are row loops inside the kernel; a float sum or product
may then differ from the reference's pairwise order in the last bits (emit.combine),
everything else stays bit for bit.
"""

from __future__ import annotations

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from ...plan.fusion import FusionRules
from .emit import BINARY, FLOATS, INTS, OTHER, TYPES, UNARY, constant_exponent
from .kernels import VIEWS, degenerate_reshape, reducer

KERNEL_OPCODES = frozenset({*UNARY, *BINARY, *OTHER, *VIEWS, Opcode.CONSTANT, Opcode.REDUCE})
_CALLS = frozenset({Opcode.CALL, Opcode.WHILE, Opcode.CONDITIONAL})


def can_fuse(inst) -> bool:
    """Whether a CPU kernel can compute `inst` bit for bit as the reference does."""
    if inst.opcode not in KERNEL_OPCODES or inst.shape.is_tuple:
        return False
    if inst.opcode is Opcode.CONSTANT:
        return not inst.shape.dims and inst.shape.element_type in TYPES
    for op in inst.operands:
        if op.shape.is_tuple or op.shape.element_type not in TYPES:
            return False
    if inst.shape.element_type not in TYPES:
        return False
    if inst.opcode is Opcode.RSQRT:
        return inst.shape.element_type in FLOATS
    if inst.opcode is Opcode.POWER:   # f32 by a constant 2, 3, 4, -1, -2: f64 products
        return constant_exponent(inst) is not None
    if inst.opcode is Opcode.REMAINDER and inst.shape.element_type == "pred":
        return False   # NumPy's fmod of booleans, not an integer remainder
    if inst.opcode is Opcode.RESHAPE:
        return degenerate_reshape(inst)
    if inst.opcode is Opcode.REDUCE:
        return _row_reduction(inst)
    if inst.opcode is Opcode.COMPARE:
        return attrs.string(inst, "direction") in ("EQ", "NE", "LT", "LE", "GT", "GE") and \
            attrs.string(inst, "type", "") != "TOTALORDER"
    return True


def rules(generate) -> FusionRules:
    """The CPU's rules, with `generate(group, info)` making (and compiling) a kernel."""
    return FusionRules(can_fuse=can_fuse, generate=generate,
                       has_plan=lambda opcode: opcode in _CALLS)


def _row_reduction(inst) -> bool:
    """A reduce of one f32/f64/integer array by add, multiply, maximum or minimum, or of a
    pred/integer one by and/or (a mask's "all in range": exact in any order), over its
    trailing dimensions (the kernel's inner loop runs along memory)."""
    x = inst.operands[0].shape
    axes = sorted(attrs.ints(inst, "dimensions"))
    op = reducer(inst)
    typed = x.element_type in INTS or (
        x.element_type in FLOATS if op not in (Opcode.AND, Opcode.OR) else
        x.element_type == "pred")
    return op is not None and x.element_type == inst.shape.element_type and typed and \
        bool(axes) and axes == list(range(x.rank - len(axes), x.rank))
