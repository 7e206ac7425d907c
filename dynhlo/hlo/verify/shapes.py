"""Two of XLA's ShapeVerifier rules that dimensions alone do not say: bitcast and add-dependency.

Source: xla/service/hlo_verifier.cc.
- `HandleBitcast`: a bitcast's result has the byte size of its operand
  (`ShapeUtil::ByteSizeOf`: the elements at the bounds of a dynamic shape times the bytes per
  element, a sub-byte type taking one byte each unless the layout packs it with `E(n)`); XLA
  lets the sizes differ only for static shapes whose data sizes agree apart from trailing
  padding, which dynhlo's unpadded layouts never have. Nothing else is checked: the element
  types may differ, in width too (`f32[2]` -> `s16[4]`: 8 bytes each), as the bytes are
  reinterpreted. (XLA runs this check only on layout-sensitive verification, after layout
  assignment; dynhlo's modules carry their layouts, so it always runs.) A bitcast
  reinterprets one buffer: a result larger than its operand would read past it, a smaller one
  would drop data.
- `HandleAddDependency`: operand 1 is a token (`CheckIsTokenOperand`), and the result has
  operand 0's shape (element type and dimensions).
Raises HloVerifyError naming the instruction.
"""

from __future__ import annotations

import math
import re

from ...errors import HloVerifyError
from ..ir import Instruction
from ..opcodes import Opcode
from ..shape import UNBOUNDED, AnyShape, Shape
from ..types import bit_width


def check_shapes(inst: Instruction) -> None:
    """Raise HloVerifyError when `inst` is a bitcast or add-dependency XLA's verifier refuses."""
    if inst.opcode is Opcode.BITCAST:
        _check_bitcast(inst)
    elif inst.opcode is Opcode.ADD_DEPENDENCY:
        _check_add_dependency(inst)


_ELEMENT_SIZE = re.compile(r"(?:^|[:)])\s*E\((\d+)\)")


def storage_bits(shape: Shape) -> int:
    """Bits one element of `shape` takes in memory, as XLA's ByteSizeOfElements counts them:
    the layout's element size `E(n)` when it sets one (`s4[8]{0:E(4)}`: packed), else whole
    bytes (ByteSizeOfPrimitiveType: a sub-byte type takes one byte)."""
    if shape.layout is not None and shape.layout.tail:
        m = _ELEMENT_SIZE.search(shape.layout.tail)
        if m and int(m.group(1)):
            return int(m.group(1))
    return 8 * max(1, -(-bit_width(shape.element_type) // 8))


def byte_size(shape: AnyShape) -> int | None:
    """XLA's ByteSizeOf of an array shape at its bounds; None for a tuple, a token or a `?`."""
    if shape.is_tuple or shape.element_type in ("token", "opaque") or UNBOUNDED in shape.dims:
        return None
    return -(-math.prod(shape.dims) * storage_bits(shape) // 8)


def _check_bitcast(inst: Instruction) -> None:
    operand = inst.operands[0].shape
    have, want = byte_size(operand), byte_size(inst.shape)
    if have is None or want is None or have == want:
        return
    raise HloVerifyError(
        f"bitcast from {operand} ({have} bytes at its bounds) to {inst.shape} ({want} bytes): "
        "a bitcast keeps the byte size of its operand (XLA's verifier refuses it too); use "
        "reshape, slice or pad to change the number of elements", inst.name)


def _check_add_dependency(inst: Instruction) -> None:
    token = inst.operands[1].shape
    if token.is_tuple or token.element_type != "token":
        raise HloVerifyError(
            f"operand 1 '{inst.operands[1].name}' of add-dependency is {token}; it must be a "
            "token[] (XLA: the value to order after is a token, e.g. from after-all())",
            inst.name)
    data = inst.operands[0].shape
    if not _same_dims(data, inst.shape):
        raise HloVerifyError(f"add-dependency of {data} declared {inst.shape}; it gives its "
                             "operand 0 unchanged", inst.name)


def _same_dims(a: AnyShape, b: AnyShape) -> bool:
    """Same structure, element types and dimensions (a declared static intermediate shape
    is a bound in dynhlo, so dynamic marks may differ; layouts never matter)."""
    if a.is_tuple or b.is_tuple:
        return (a.is_tuple and b.is_tuple and len(a.elements) == len(b.elements)
                and all(_same_dims(x, y) for x, y in zip(a.elements, b.elements, strict=True)))
    return (a.element_type, a.dims) == (b.element_type, b.dims)
