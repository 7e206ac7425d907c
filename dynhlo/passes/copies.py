"""Copying instructions between computations: what the passes that inline a computation
into its caller (inline-calls, while-loop-simplifier) share.

Copies are new Instruction objects; the instructions they are made from are never modified.
"""

from __future__ import annotations

from ..hlo.ir import Computation, HloModule, Instruction


def clone(inst: Instruction, mapping: dict, name: str) -> Instruction:
    """A copy of `inst` named `name`, operands through `mapping` (id -> instruction),
    recorded there. `control-predecessors` are dropped: they order side effects, and the
    copies' data dependencies already order them."""
    attrs = {k: v for k, v in inst.attrs.items() if k != "control-predecessors"}
    copy = Instruction(name, inst.opcode, inst.shape,
                       [mapping.get(id(o), o) for o in inst.operands], attrs,
                       {k: list(v) for k, v in inst.called.items()}, inst.literal,
                       inst.parameter_number)
    mapping[id(inst)] = copy
    return copy


def fresh_name(name: str, taken: set) -> str:
    """`name` if `taken` does not hold it yet, else `name.1`, `name.2`, ...; added to it."""
    candidate, k = name, 0
    while candidate in taken:
        k += 1
        candidate = f"{name}.{k}"
    taken.add(candidate)
    return candidate


def users_of(instructions: list) -> dict[int, list]:
    """id(instruction) -> the instructions of `instructions` reading it (once per operand)."""
    users: dict[int, list] = {}
    for inst in instructions:
        for op in inst.operands:
            users.setdefault(id(op), []).append(inst)
    return users


def post_order(instructions: list) -> list:
    """Operands before users (written order otherwise): Computation.post_order on a list."""
    return Computation("_", instructions, instructions[-1]).post_order()


def reachable(module: HloModule) -> list[Computation]:
    """The module's computations still called from the entry, in their written order."""
    keep, stack = {id(module.entry)}, [module.entry]
    while stack:
        for inst in stack.pop().instructions:
            for comp in inst.called_computations():
                if id(comp) not in keep:
                    keep.add(id(comp))
                    stack.append(comp)
    return [c for c in module.computations if id(c) in keep]
