"""Pass `size-before-update`: set a size before the dynamic-update-slice it follows.

XLA keeps every dynamic value in a buffer at its bound: a dynamic-update-slice may write rows
past the operand's actual size, and a set-dimension-size that then grows the size over them
shows those rows (XLA's dynamic_padder_test WhileLoopStack pushes a row at `size` and grows
the size by one, a stack). dynhlo holds values at their actual sizes, so the written rows
would be gone before the size grows. This pass rewrites

    g = set-dimension-size(dynamic-update-slice(b, u, starts...), n), dimensions={d}
 to g = dynamic-update-slice(set-dimension-size(b, n), u, starts...)

which is the same value wherever XLA's is defined: set-dimension-size moves no data, and the
update lands at the same place (its starts are clamped against the bounds in both orders). Rows
the update does not write keep b's values below b's size and are past it uninitialised in XLA
(zero here). Only an update whose dimension d is static and shorter than the bound qualifies:
an update spanning the whole bound sizes the result itself (XLA's HandleDynamicUpdateSlice).

The two new instructions take the set-dimension-size's place in its computation, so that
the printed module defines each value before its uses (XLA's parser requires it).

Pure: the input module is never modified (the work is done on a copy made by printing and
parsing, which round-trips by contract).
"""

from __future__ import annotations

from ..hlo import attrs
from ..hlo.ir import HloModule, Instruction
from ..hlo.opcodes import Opcode
from ..hlo.text.parser import copy_module
from ..hlo.shape import UNBOUNDED

NAME = "size-before-update"


def size_before_update(module: HloModule) -> HloModule:
    """A copy of `module` with each qualifying set-dimension-size of a dynamic-update-slice
    moved before it (module doc); `module` itself when none qualifies."""
    if not any(_qualifies(i) for c in module.computations for i in c.instructions):
        return module
    copy = copy_module(module)
    for comp in copy.computations:
        names = {i.name for i in comp.instructions}
        replaced: dict = {}
        order = []
        for inst in comp.instructions:
            order.append(inst)
            if not _qualifies(inst):
                continue
            update = inst.operands[0]
            grown = Instruction(_fresh(f"{inst.name}.size", names), Opcode.SET_DIMENSION_SIZE,
                                inst.shape, [update.operands[0], inst.operands[1]],
                                dict(inst.attrs))
            moved = Instruction(_fresh(f"{inst.name}.update", names),
                                Opcode.DYNAMIC_UPDATE_SLICE, inst.shape,
                                [grown] + update.operands[1:], dict(update.attrs))
            order += [grown, moved]   # where inst was: each definition before its uses
            replaced[inst] = moved
        comp.instructions = order
        for inst in comp.instructions:
            inst.operands = [replaced.get(o, o) for o in inst.operands]
        comp.root = replaced.get(comp.root, comp.root)
        # drop the set-dimension-sizes replaced, and their updates when nothing else reads them
        kept = [i for i in comp.instructions if i not in replaced]
        read = {id(o) for i in kept for o in i.operands} | {id(comp.root)}
        stale = {id(r.operands[0]) for r in replaced} - read
        comp.instructions = [i for i in kept if id(i) not in stale]
    return copy


def _qualifies(inst: Instruction) -> bool:
    if inst.opcode is not Opcode.SET_DIMENSION_SIZE or \
            inst.operands[0].opcode is not Opcode.DYNAMIC_UPDATE_SLICE:
        return False
    (d,) = attrs.ints(inst, "dimensions")
    operand, update = inst.operands[0].operands[:2]
    bound = operand.shape.dims[d]
    return bound != UNBOUNDED and not update.shape.dynamic[d] and update.shape.dims[d] < bound


def _fresh(name: str, taken: set) -> str:
    k, out = 0, name
    while out in taken:
        k += 1
        out = f"{name}.{k}"
    taken.add(out)
    return out
