"""What a while loop's computations say about its counter, read off their instructions alone.

XLA operation semantics (While): `while(condition, body, init)` carries one value (a tuple
here) through `body` for as long as `condition` of it gives true. JAX, TensorFlow and the
StableHLO import write a loop over a range the same way: an integer scalar element of the
state compared with a constant by the condition (`i < 12`) and stepped by the body. XLA
reads the same pattern to compute trip counts (while_loop_analysis.cc,
ComputeWhileLoopTripCount).
"""

from __future__ import annotations

import operator

import numpy as np

from . import attrs
from .opcodes import Opcode

INTEGERS = frozenset({"s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"})
"""Integer element types whose scalar values are exact Python ints."""

_COMPARE = {"LT": operator.lt, "LE": operator.le, "GT": operator.gt, "GE": operator.ge,
            "EQ": operator.eq, "NE": operator.ne}


def tuple_element(inst, param) -> int | None:
    """k when `inst` is `get-tuple-element(param), index=k`, else None."""
    if inst.opcode is not Opcode.GET_TUPLE_ELEMENT or inst.operands[0] is not param:
        return None
    return attrs.integer(inst, "index")


def single_tuple_parameter(computation):
    """The computation's one parameter when it is a tuple (a loop's state), else None."""
    params = computation.parameters
    if len(params) != 1 or not params[0].shape.is_tuple:
        return None
    return params[0]


def constant_int(inst) -> int | None:
    """The value of an integer scalar constant instruction, or None."""
    if inst.opcode is not Opcode.CONSTANT:
        return None
    value = inst.literal
    if not isinstance(value, np.ndarray) or value.size != 1 or value.dtype.kind not in "iu":
        return None
    return int(value.reshape(()))


def counter_condition(computation):
    """`test(state) -> bool` for a condition computation that is one compare of an integer
    scalar element of its tuple parameter with an integer scalar constant (either side),
    else None; `test.element`: the element's index. The compare is of Python ints: exact
    for every integer type (XLA's compare of two values of one type, signed or unsigned as
    the type says)."""
    param = single_tuple_parameter(computation)
    root = computation.root
    if param is None or root.opcode is not Opcode.COMPARE:
        return None
    lhs, rhs = root.operands
    op = _COMPARE.get(attrs.string(root, "direction", ""))
    if op is None or lhs.shape.is_tuple or rhs.shape.is_tuple or \
            lhs.shape.rank or rhs.shape.rank or \
            lhs.shape.element_type not in INTEGERS or \
            rhs.shape.element_type != lhs.shape.element_type:
        return None
    # (a comparison type other than the element type's own is left to the computation)
    natural = "UNSIGNED" if lhs.shape.element_type.startswith("u") else "SIGNED"
    if attrs.string(root, "type", natural) != natural:
        return None
    sides = []
    for operand in (lhs, rhs):
        k = tuple_element(operand, param)
        if k is not None:
            sides.append(("element", k))
        elif operand.opcode is Opcode.CONSTANT:
            sides.append(("constant", constant_int(operand)))
        else:
            return None
    kinds = [kind for kind, _ in sides]
    if sorted(kinds) != ["constant", "element"] or sides[kinds.index("constant")][1] is None:
        return None
    (_, a), (_, b) = sides
    if kinds[0] == "element":
        def test(state):
            return op(int(state[a]), b)
        test.element = a
    else:
        def test(state):
            return op(a, int(state[b]))
        test.element = b
    return test


def short_trip_count(loop) -> int | None:
    """0 or 1 when the while instruction `loop` provably runs its body that many times, else
    None: its init is a tuple instruction whose element k is an integer constant, its
    condition a counter condition on element k (counter_condition), and its body's root a
    tuple whose element k is that element plus an integer constant (either side of the
    add). The count is the condition tried on the first two counter values (XLA:
    ComputeWhileLoopTripCount's brute force, one iteration deep); a step past the type's
    range gives None."""
    init = loop.operands[0] if len(loop.operands) == 1 else None
    (condition,) = loop.called.get("condition", [None])
    (body,) = loop.called.get("body", [None])
    if init is None or condition is None or body is None or init.opcode is not Opcode.TUPLE:
        return None
    test = counter_condition(condition)
    if test is None:
        return None
    k = test.element
    param = single_tuple_parameter(body)
    root = body.root
    if k >= len(init.operands) or param is None or root.opcode is not Opcode.TUPLE or \
            k >= len(root.operands):
        return None
    first = constant_int(init.operands[k])
    step = root.operands[k]
    if first is None or step.opcode is not Opcode.ADD:
        return None
    lhs, rhs = step.operands
    if tuple_element(lhs, param) == k:
        by = constant_int(rhs)
    elif tuple_element(rhs, param) == k:
        by = constant_int(lhs)
    else:
        return None
    if by is None or init.operands[k].shape.element_type != step.shape.element_type:
        return None
    if not test({k: first}):
        return 0
    info = np.iinfo(np.dtype(_NUMPY[step.shape.element_type]))
    second = first + by
    if not info.min <= second <= info.max:
        return None
    return 1 if not test({k: second}) else None


_NUMPY = {t: ("int" if t[0] == "s" else "uint") + t[1:] for t in INTEGERS}
