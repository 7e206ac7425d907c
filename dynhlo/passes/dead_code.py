"""Pass `dead-code`: drop the instructions no result depends on, as XLA's HloDCE does.

Frontends leave work nothing reads: JAX's export keeps the shape checks it computes from
`get-dimension-size` after the StableHLO import has used them, and an optimizer's rewrites
leave the instructions they replaced. Run, such an instruction costs a launch or a host step;
on the GPU one `get-dimension-size` that is read by nothing keeps a whole module off its CUDA
graph. XLA never runs them: HloDCE removes every instruction that is not the root, not an
operand of a kept instruction, and has no side effect.

Kept whatever reads them, as XLA keeps them (HloInstruction::HasSideEffect): parameters (the
computation's signature), communication with the host or other devices (send, recv, infeed,
outfeed, the collectives), the stateful random numbers (`rng`,
`rng-get-and-update-state`: removing one would move the numbers the others draw), a
custom-call marked `custom_call_has_side_effect=true`, and an instruction calling a
computation that holds any of these.

Pure: the input module is never modified (the work is done on a copy made by printing and
parsing, which round-trips by contract); a module with nothing dead is returned as it is.
"""

from __future__ import annotations

from ..hlo import attrs
from ..hlo.ir import Computation, HloModule, Instruction
from ..hlo.opcodes import OP_SPECS, Group, Opcode, Trait
from ..hlo.text.parser import copy_module

NAME = "dead-code"

def dead_code(module: HloModule) -> HloModule:
    """A copy of `module` without its dead instructions (module doc); `module` itself when
    it has none."""
    effects = effectful(module)
    dead = {comp.name: _dead(comp, effects) for comp in module.computations}
    if not any(dead.values()):
        return module
    copy = copy_module(module)
    for comp in copy.computations:
        comp.instructions = [i for i in comp.instructions if i.name not in dead[comp.name]]
    return copy


def _dead(comp: Computation, effects: set) -> set:
    """Names of the instructions of `comp` nothing kept reads (names are unique in a
    module, so they name the same instructions in its printed and parsed copy)."""
    # instructions hash by identity: the set holds them as the ids did, without id() calls
    live: set = set()
    add = live.add
    stack = [comp.root] + [i for i in comp.instructions if id(i) in effects]
    while stack:
        inst = stack.pop()
        if inst not in live:
            add(inst)
            stack.extend(inst.operands)
    return {i.name for i in comp.instructions if i not in live}


def effectful(module: HloModule) -> set:
    """ids of the instructions kept whatever reads them: their own side effects, or a
    called computation's (to a fixed point over the call graph)."""
    marked: set = set()
    holds: set = set()   # names of computations with an effectful instruction
    callers: list = []   # (computation, instruction) of the unmarked calling instructions
    for comp in module.computations:
        for inst in comp.instructions:
            if inst.opcode in _EFFECTS_OR_CUSTOM and _has_effect(inst):
                marked.add(id(inst))
                if inst.opcode is not Opcode.PARAMETER:
                    holds.add(comp.name)
            elif inst.called:
                callers.append((comp, inst))
    changed = True
    while changed:
        changed = False
        for comp, inst in callers:
            if id(inst) not in marked and any(c.name in holds
                                              for c in inst.called_computations()):
                marked.add(id(inst))
                holds.add(comp.name)
                changed = True
    return marked


def _has_effect(inst: Instruction) -> bool:
    """Whether `inst` stays though nothing uses it: a parameter (the signature), an opcode with
    the SIDE_EFFECT trait or of Group.COLLECTIVE, a custom call marked with a side effect."""
    if inst.opcode is Opcode.CUSTOM_CALL:
        return attrs.boolean(inst, "custom_call_has_side_effect")
    return inst.opcode in _EFFECTS


_EFFECTS = frozenset({Opcode.PARAMETER} | {
    op for op, spec in OP_SPECS.items()
    if Trait.SIDE_EFFECT in spec.traits or spec.group is Group.COLLECTIVE})
_EFFECTS_OR_CUSTOM = _EFFECTS | {Opcode.CUSTOM_CALL}   # where _has_effect can say yes
