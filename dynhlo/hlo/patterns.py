"""What a called computation is, when it is one of the forms backends have fast paths for.

Backends run any called computation, but a reducer that is one binary op (`add(p0, p1)`) or
a sort comparator that is one compare of one operand's pair (what JAX emits) maps to a
library reduction or a keyed sort. Recognizing those forms is about HLO alone, so both
backends ask here and agree on what counts.
May assume: a verified computation (operands and parameter numbers in range).
"""

from __future__ import annotations

from typing import NamedTuple

from .ir import Computation
from .opcodes import Opcode
from . import attrs

# The binary ops a reduce / reduce-window / scatter to_apply maps to a library reduction.
REDUCER_OPCODES = frozenset({Opcode.ADD, Opcode.MULTIPLY, Opcode.MAXIMUM, Opcode.MINIMUM,
                             Opcode.AND, Opcode.OR})


def binary_reducer(comp: Computation) -> Opcode | None:
    """The opcode when `comp` is one of REDUCER_OPCODES applied to its two parameters, else None.

    `add(p0, p1)` and `add(p1, p0)` both count (all of these are commutative); a computation
    with any other instruction, or one using a parameter twice, does not.
    """
    root = comp.root
    if len(comp.instructions) != 3 or root.opcode not in REDUCER_OPCODES:
        return None
    if any(o.opcode is not Opcode.PARAMETER for o in root.operands) or \
            len(set(root.operands)) != 2:
        return None
    return root.opcode


class SortComparator(NamedTuple):
    """A sort comparator that orders by one operand: which, in which direction, how."""
    operand: int         # index of the sort operand the keys come from
    descending: bool     # GT of (lhs, rhs), or LT with the parameters swapped
    total_order: bool    # compare type=TOTALORDER: floats in IEEE totalOrder


def sort_comparator(comp: Computation) -> SortComparator | None:
    """The SortComparator when `comp` is one LT/GT compare of one operand's two parameters.

    That is JAX's integer/bool sort form: `compare(p0, p1), direction=LT` (GT descending);
    JAX passes every operand's pair of parameters, so the other instructions may only be
    parameters. Parameters 2k and 2k+1 belong to operand k. Anything else is None.
    """
    root = comp.root
    if root.opcode is not Opcode.COMPARE or any(
            i.opcode is not Opcode.PARAMETER for i in comp.instructions if i is not root):
        return None
    lhs, rhs = root.operands
    if lhs.opcode is not Opcode.PARAMETER or rhs.opcode is not Opcode.PARAMETER:
        return None
    i, j = lhs.parameter_number, rhs.parameter_number
    direction = attrs.string(root, "direction")
    if i // 2 != j // 2 or i == j or direction not in ("LT", "GT"):
        return None
    return SortComparator(i // 2, (direction == "GT") == (i < j),
                          attrs.string(root, "type") == "TOTALORDER")
