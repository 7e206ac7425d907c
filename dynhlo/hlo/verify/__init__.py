"""Structural and element-type checks of a parsed module (dimensions: dynhlo.shapes).

What this checks: no instruction is its own operand through a chain of operands and no
computation calls itself (XLA's HloVerifier rejects both; evaluating them would never end);
per instruction, operand element types of elementwise ops agree with each other and with the
result (XLA's ShapeInference rules for element types), `select` takes a pred, and called
computations have the signature their caller needs (dynhlo.hlo.verify.calls); every other
op's element types, operand kinds and called computations: dynhlo.hlo.verify.types; byte
sizes of bitcasts and add-dependency's token: dynhlo.hlo.verify.shapes; collectives' replica
groups and source-target pairs against the module's devices: dynhlo.hlo.verify.collectives,
and all-gather's and reduce-scatter's result shapes against operand and group size:
dynhlo.hlo.verify.collective_shapes; every `sharding=` against its instruction's shape and
the module's partitions: dynhlo.hlo.verify.shardings. Raises HloVerifyError naming the
instruction.
"""

from __future__ import annotations

from ...errors import HloVerifyError
from ..ir import HloModule, Instruction, operands_first
from ..opcodes import OP_SPECS, Group, Opcode, Trait
from ..types import COMPLEX_TYPES, INTEGRAL_TYPES
from .calls import check_called_signature, checks_signature
from .collectives import check_collectives
from .shapes import check_shapes
from .shardings import check_shardings
from .types import check_instruction

_COMPLEX_FROM_REAL = {"c64": "f32", "c128": "f64"}
_DIRECTIONS = ("EQ", "NE", "LT", "LE", "GT", "GE")
# PrecisionConfig::Precision as XLA prints it (xla_data.proto; StringToPrecision refuses
# any other name).
_PRECISIONS = ("default", "high", "highest", "packed_nibble")


def verify_module(module: HloModule) -> None:
    """Check every instruction of every computation; raise HloVerifyError on the first fault,
    with the line:column of the instruction it names."""
    try:
        _check_call_graph(module)
        for comp in module.computations:
            _check_acyclic(comp.instructions)
    except HloVerifyError as exc:
        raise module.locate(exc)
    checks_of = _CHECKS.get
    for inst in module.instructions():
        checks = checks_of(inst.opcode) or _checks(inst.opcode)
        try:
            for check in checks:
                check(inst)
        except HloVerifyError as exc:
            if exc.instruction == inst.name:
                exc.locate(module.position_of(inst))
            raise
    check_collectives(module)
    check_shardings(module)


_CHECKS: dict = {}   # opcode -> its instructions' checks (_checks)


def _checks(opcode: Opcode) -> tuple:
    """The checks of one instruction of `opcode`, in this order: check_instruction,
    _check_types, _check_element_kind, _check_operand_precision, _check_called_arity,
    check_called_signature, check_shapes, leaving out those that check nothing of this
    opcode (each says which it checks), so a module of many instructions makes no calls
    that cannot fail; the first fault found is the one all of them would find first."""
    checks = _CHECKS.get(opcode)
    if checks is None:
        spec = OP_SPECS[opcode]
        group = spec.group
        typed = (group is Group.UNARY and opcode not in _CHANGES_TYPE) or (
            group is Group.BINARY and opcode is not Opcode.STOCHASTIC_CONVERT) or opcode in (
            Opcode.COMPARE, Opcode.COMPLEX, Opcode.SELECT, Opcode.CLAMP, Opcode.REAL,
            Opcode.IMAG)
        checks = _CHECKS[opcode] = tuple(check for check, needed in (
            (check_instruction, True), (_check_types, typed),
            (_check_element_kind, opcode in _TAKES), (_check_operand_precision, True),
            (_check_called_arity, opcode in _CALL_ARGUMENTS),
            (check_called_signature, checks_signature(opcode)),
            (check_shapes, opcode in (Opcode.BITCAST, Opcode.ADD_DEPENDENCY))) if needed)
    return checks


def _find_cycle(nodes, edges) -> list | None:
    """A cycle `[a, b, ..., a]` of the graph `edges(node) -> nodes`, or None (iterative DFS)."""
    state: dict[int, int] = {}  # id -> 1 on the current path, 2 done
    for start in nodes:
        if id(start) in state:
            continue
        path, stack = [start], [iter(edges(start))]
        state[id(start)] = 1
        while stack:
            for nxt in stack[-1]:
                mark = state.get(id(nxt))
                if mark == 1:
                    return path[path.index(nxt):] + [nxt]
                if mark is None:
                    state[id(nxt)] = 1
                    path.append(nxt)
                    stack.append(iter(edges(nxt)))
                    break
            else:
                state[id(path.pop())] = 2
                stack.pop()
    return None


def _check_acyclic(instructions) -> None:
    if operands_first(instructions):   # written in order: no cycle, nothing to search
        return
    cycle = _find_cycle(instructions, lambda inst: inst.operands)
    if cycle:
        chain = " <- ".join(i.name for i in cycle)
        raise HloVerifyError(f"operands form a cycle ({chain}); an instruction cannot "
                             "depend on its own result", cycle[0].name)


def _check_call_graph(module: HloModule) -> None:
    def edges(comp):
        return [c for inst in comp.instructions for c in inst.called_computations()]

    cycle = _find_cycle(module.computations, edges)
    if cycle:
        chain = " -> ".join(c.name for c in cycle)
        caller = next(i for i in cycle[0].instructions if cycle[1] in i.called_computations())
        raise HloVerifyError(f"computations call themselves ({chain}); XLA's call graph "
                             "has no cycles", caller.name)


# Element types each elementwise opcode takes (XLA's ShapeInference and elemental emitters):
# bit operations want integers, transcendental functions floats (or complex).
_PRED, _INT, _FLOAT, _COMPLEX = "pred", "integer", "floating-point", "complex"
_TAKES: dict[Opcode, tuple[str, ...]] = {}
for _ops, _kinds in [
    ("and or xor not", (_PRED, _INT)),
    ("shift-left shift-right-logical shift-right-arithmetic count-leading-zeros popcnt",
     (_INT,)),
    ("cosine exponential exponential-minus-one log log-plus-one rsqrt sine sqrt cbrt tan "
     "tanh logistic", (_FLOAT, _COMPLEX)),
    ("erf floor ceil is-finite round-nearest-afz round-nearest-even reduce-precision",
     (_FLOAT,)),
]:
    for _name in _ops.split():
        _TAKES[Opcode(_name)] = _kinds


def _kind(element_type: str) -> str:
    if element_type == "pred":
        return _PRED
    if element_type in INTEGRAL_TYPES:
        return _INT
    return _COMPLEX if element_type in COMPLEX_TYPES else _FLOAT


def _check_element_kind(inst: Instruction) -> None:
    kinds = _TAKES.get(inst.opcode)
    if kinds is None or not inst.operands or inst.operands[0].shape.is_tuple:
        return
    operand = inst.operands[0].shape.element_type
    _expect(inst, _kind(operand) in kinds,
            f"{inst.opcode.value} takes {' or '.join(kinds)} values, not {operand}")


def _check_operand_precision(inst: Instruction) -> None:
    """operand_precision={...} names one PrecisionConfig value per entry (the GPU backend's
    `precision` option reads them: an unknown word must not pass for one)."""
    text = inst.attrs.get("operand_precision")
    if text is None:
        return
    for word in filter(None, (w.strip() for w in text.strip().strip("{}").split(","))):
        _expect(inst, word.lower() in _PRECISIONS,
                f"operand_precision entry '{word}' is not one of {', '.join(_PRECISIONS)}")


def _types(inst: Instruction) -> list[str]:
    return [o.shape.element_type for o in inst.operands]


def _check_types(inst: Instruction) -> None:
    spec = OP_SPECS[inst.opcode]
    group = spec.group
    result = inst.shape.element_type
    types = _types(inst)
    if group is Group.UNARY and inst.opcode not in _CHANGES_TYPE:
        if types[0] != result:
            _expect(inst, False, f"operand is {types[0]} but the result is {result}")
    elif inst.opcode is Opcode.COMPARE:
        _expect(inst, types[0] == types[1], f"compares {types[0]} with {types[1]}")
        _expect(inst, result == "pred", f"compare gives pred, declared {result}")
        direction = inst.attrs.get("direction")
        _expect(inst, direction is not None, "compare needs a direction= attribute (one of "
                f"{', '.join(_DIRECTIONS)}), as XLA's parser requires")
        _expect(inst, direction in _DIRECTIONS, f"compare direction={direction} is not one "
                f"of {', '.join(_DIRECTIONS)}")
    elif inst.opcode is Opcode.COMPLEX:
        _expect(inst, types[0] == types[1] and _COMPLEX_FROM_REAL.get(result) == types[0],
                f"complex of {types[0]} and {types[1]} cannot give {result}")
    elif group is Group.BINARY and inst.opcode is not Opcode.STOCHASTIC_CONVERT:
        if not types[0] == types[1] == result:
            _expect(inst, False, f"operands {types[0]} and {types[1]} with result {result}; "
                    "elementwise ops need one element type (insert a convert)")
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


_CHANGES_TYPE = frozenset(op for op, spec in OP_SPECS.items()
                          if Trait.CHANGES_TYPE in spec.traits)
_CALL_ARGUMENTS = frozenset(op for op, spec in OP_SPECS.items()
                            if Trait.CALL_ARGUMENTS in spec.traits)


def _check_called_arity(inst: Instruction) -> None:
    if inst.opcode in _CALL_ARGUMENTS:
        for comp in inst.called_computations():
            _expect(inst, len(comp.parameters) == len(inst.operands),
                    f"calls '{comp.name}' ({len(comp.parameters)} parameters) with "
                    f"{len(inst.operands)} operands")


def _expect(inst: Instruction, ok: bool, message: str) -> None:
    if not ok:
        raise HloVerifyError(message, inst.name)
