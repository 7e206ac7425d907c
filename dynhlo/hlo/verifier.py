"""Structural and element-type checks of a parsed module (dimensions: dynhlo.shapes).

What this checks, per instruction: operand element types of elementwise ops agree with each
other and with the result (XLA's ShapeInference rules for element types), `select` takes a
pred, called computations take as many parameters as the caller passes. Raises
HloVerifyError naming the instruction.
"""

from __future__ import annotations

from ..errors import HloVerifyError
from .ir import HloModule, Instruction
from .opcodes import OP_SPECS, Group, Opcode
from .types import COMPLEX_TYPES

# Unary opcodes whose result element type differs from the operand's.
_TYPE_CHANGING = {Opcode.CONVERT, Opcode.BITCAST_CONVERT, Opcode.IS_FINITE, Opcode.REAL,
                  Opcode.IMAG, Opcode.ABS, Opcode.REDUCE_PRECISION}
_COMPLEX_FROM_REAL = {"c64": "f32", "c128": "f64"}


def verify_module(module: HloModule) -> None:
    """Check every instruction of every computation; raise HloVerifyError on the first fault."""
    for inst in module.instructions():
        _check_types(inst)
        _check_called_arity(inst)


def _types(inst: Instruction) -> list[str]:
    return [o.shape.element_type for o in inst.operands]


def _check_types(inst: Instruction) -> None:
    group = OP_SPECS[inst.opcode].group
    result = inst.shape.element_type
    types = _types(inst)
    if group is Group.UNARY and inst.opcode not in _TYPE_CHANGING:
        _expect(inst, types[0] == result, f"operand is {types[0]} but the result is {result}")
    elif inst.opcode is Opcode.COMPARE:
        _expect(inst, types[0] == types[1], f"compares {types[0]} with {types[1]}")
        _expect(inst, result == "pred", f"compare gives pred, declared {result}")
    elif inst.opcode is Opcode.COMPLEX:
        _expect(inst, types[0] == types[1] and _COMPLEX_FROM_REAL.get(result) == types[0],
                f"complex of {types[0]} and {types[1]} cannot give {result}")
    elif group is Group.BINARY and inst.opcode is not Opcode.STOCHASTIC_CONVERT:
        _expect(inst, types[0] == types[1] == result,
                f"operands {types[0]} and {types[1]} with result {result}; elementwise ops "
                "need one element type (insert a convert)")
    elif inst.opcode is Opcode.SELECT:
        _expect(inst, types[0] == "pred", f"select's predicate is {types[0]}, not pred")
        _expect(inst, types[1] == types[2] == result,
                f"select of {types[1]} and {types[2]} with result {result}")
    elif inst.opcode is Opcode.CLAMP:
        _expect(inst, types[0] == types[1] == types[2] == result,
                f"clamp of {', '.join(types)} with result {result}")
    elif inst.opcode in (Opcode.REAL, Opcode.IMAG) and types[0] in COMPLEX_TYPES:
        _expect(inst, _COMPLEX_FROM_REAL[types[0]] == result,
                f"{inst.opcode.value} of {types[0]} gives {_COMPLEX_FROM_REAL[types[0]]}")


def _check_called_arity(inst: Instruction) -> None:
    if inst.opcode in (Opcode.CALL, Opcode.FUSION, Opcode.ASYNC_START):
        for comp in inst.called_computations():
            _expect(inst, len(comp.parameters) == len(inst.operands),
                    f"calls '{comp.name}' ({len(comp.parameters)} parameters) with "
                    f"{len(inst.operands)} operands")


def _expect(inst: Instruction, ok: bool, message: str) -> None:
    if not ok:
        raise HloVerifyError(message, inst.name)
