"""Signatures of called computations: what each caller needs of its callee.

XLA's HloVerifier and ShapeInference check these (VerifyReducerShape, the sort comparator,
while and conditional signatures). Without them a reducer with the wrong parameters gives
garbage, a comparator or loop condition that does not return `pred[]` is read as a truth
value (a loop that never ends), and a body whose result does not match its parameter breaks
the next iteration. Shapes are compared by element type and rank: dimensions may differ
between static and `<=` forms, which dynamic dimension inference checks.
"""

from __future__ import annotations

import numpy as np

from ...errors import HloVerifyError
from ..ir import Computation, Instruction
from ..opcodes import OP_SPECS, Opcode
from ..shape import AnyShape

# How many arrays a reducer folds, by its OpSpec's `reducer`, from the operand count.
_FOLDS = {"inits": lambda n: n // 2, "updates": lambda n: (n - 1) // 2, "binary": lambda n: 1}


def checks_signature(op: Opcode) -> bool:
    """Whether check_called_signature checks anything of an instruction of opcode `op`."""
    return OP_SPECS[op].reducer in _FOLDS or op in (
        Opcode.SORT, Opcode.SELECT_AND_SCATTER, Opcode.MAP, Opcode.WHILE, Opcode.CONDITIONAL)


def check_called_signature(inst: Instruction) -> None:
    """Raise HloVerifyError naming `inst` when a computation it calls has the wrong signature."""
    op = inst.opcode
    folds = _FOLDS.get(OP_SPECS[op].reducer)
    if folds is not None:
        for comp in inst.called.get("to_apply", []):
            _check_reducer(inst, comp, folds(len(inst.operands)))
    elif op is Opcode.SORT:
        for comp in inst.called.get("to_apply", []):
            _check_scalar_params(inst, comp, 2 * len(inst.operands), "comparator")
            _check_pred_root(inst, comp, "comparator")
    elif op is Opcode.SELECT_AND_SCATTER:
        for comp in inst.called.get("select", []):
            _check_scalar_params(inst, comp, 2, "select")
            _check_pred_root(inst, comp, "select")
        for comp in inst.called.get("scatter", []):
            _check_reducer(inst, comp, 1)
    elif op is Opcode.MAP:
        for comp in inst.called.get("to_apply", []):
            _check_scalar_params(inst, comp, len(inst.operands), "mapped computation")
            if comp.root.shape.is_tuple or comp.root.shape.rank:
                _fail(inst, f"mapped computation '{comp.name}' returns {comp.root.shape}, "
                            "not a scalar")
    elif op is Opcode.WHILE:
        _check_while(inst)
    elif op is Opcode.CONDITIONAL:
        _check_conditional(inst)


def _check_reducer(inst: Instruction, comp: Computation, n: int) -> None:
    _check_scalar_params(inst, comp, 2 * n, "reducer")
    root = comp.root.shape
    want = "a scalar" if n == 1 else f"a tuple of {n} scalars"
    leaves = [root] if n == 1 else (list(root.elements) if root.is_tuple else [])
    if len(leaves) != n or any(s.is_tuple or s.rank for s in leaves):
        _fail(inst, f"reducer '{comp.name}' returns {root}; reducing {n} array(s) needs {want}")
    accumulators = comp.parameters[:n]
    for p, s in zip(accumulators, leaves, strict=True):
        if p.shape.element_type != s.element_type:
            _fail(inst, f"reducer '{comp.name}' returns {s.element_type} for its "
                        f"{p.shape.element_type} accumulator '{p.name}'")


def _check_scalar_params(inst: Instruction, comp: Computation, count: int, role: str) -> None:
    params = comp.parameters
    if len(params) != count:
        _fail(inst, f"{role} '{comp.name}' takes {len(params)} parameter(s); "
                    f"{inst.opcode.value} of {len(inst.operands)} operand(s) passes {count} scalars")
    for p in params:
        if p.shape.is_tuple or p.shape.rank:
            _fail(inst, f"{role} '{comp.name}' parameter '{p.name}' is {p.shape}; "
                        f"{inst.opcode.value} passes scalars")


def _check_pred_root(inst: Instruction, comp: Computation, role: str) -> None:
    root = comp.root.shape
    if root.is_tuple or root.rank or root.element_type != "pred":
        _fail(inst, f"{role} '{comp.name}' returns {root}, not pred[]")


def _check_while(inst: Instruction) -> None:
    for comp in inst.called.get("condition", []):
        _check_one_param(inst, comp, inst.operands[0].shape, "condition")
        _check_pred_root(inst, comp, "condition")
        if _always_true(comp.root):
            _fail(inst, f"condition '{comp.name}' is the constant true: the loop never ends")
    for comp in inst.called.get("body", []):
        _check_one_param(inst, comp, inst.operands[0].shape, "body")
        if not same_kind(comp.root.shape, comp.parameters[0].shape):
            _fail(inst, f"body '{comp.name}' returns {comp.root.shape} but takes "
                        f"{comp.parameters[0].shape}; a loop carries one shape")
    if not same_kind(inst.shape, inst.operands[0].shape):
        _fail(inst, f"while of {inst.operands[0].shape} declared {inst.shape}")


def _always_true(root: Instruction) -> bool:
    """A condition whose root is constant(true), through copies (a loop nothing can end)."""
    while root.opcode is Opcode.COPY and root.operands:
        root = root.operands[0]
    if root.opcode is not Opcode.CONSTANT or root.literal is None:
        return False
    value = np.asarray(root.literal)
    return value.size == 1 and bool(value.reshape(()))


def _check_conditional(inst: Instruction) -> None:
    branches = (inst.called.get("branch_computations")
                or inst.called.get("true_computation", []) + inst.called.get(
                    "false_computation", []))
    for i, comp in enumerate(branches):
        if i + 1 < len(inst.operands):
            _check_one_param(inst, comp, inst.operands[i + 1].shape, f"branch {i}")
        if not same_kind(comp.root.shape, inst.shape):
            _fail(inst, f"branch {i} '{comp.name}' returns {comp.root.shape}; the "
                        f"conditional is declared {inst.shape}")


def _check_one_param(inst: Instruction, comp: Computation, given: AnyShape, role: str) -> None:
    params = comp.parameters
    if len(params) != 1:
        _fail(inst, f"{role} '{comp.name}' takes {len(params)} parameters; "
                    f"{inst.opcode.value} passes 1")
    if not same_kind(params[0].shape, given):
        _fail(inst, f"{role} '{comp.name}' takes {params[0].shape} but is passed {given}")


def same_kind(a: AnyShape, b: AnyShape) -> bool:
    """Same tuple structure, element types and ranks (dimensions may differ: `<=N` vs N)."""
    if a.is_tuple or b.is_tuple:
        return (a.is_tuple and b.is_tuple and len(a.elements) == len(b.elements)
                and all(same_kind(x, y) for x, y in zip(a.elements, b.elements, strict=True)))
    return a.element_type == b.element_type and a.rank == b.rank


def _fail(inst: Instruction, message: str) -> None:
    raise HloVerifyError(message, inst.name)
