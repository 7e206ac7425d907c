"""Pass `while-loop-simplifier`: remove the while loops that run their body at most once.

XLA semantics (WhileLoopSimplifier, TryRemoveWhileLoop): a loop whose trip count is known to
be 0 is its init; one whose trip count is 1 is its body applied to the init, written in the
caller. Exporters leave such loops where a loop's range is the batch a model was traced
with: PyTorch's export of a per-sample loop (a group norm over a batch of one), a `scan` of
length 1. Run as a loop, it costs a loop call per call of the module (on the compiled CPU
path, a specialized step per iteration and the state's tuple); written in the caller, its
body joins the caller's runs and fusions.

The trip count is proven from the loop's instructions alone (hlo.loop_counter.
short_trip_count: a constant counter in the init tuple, a compare with a constant in the
condition, a constant step in the body). As XLA, a loop whose condition or body holds a
side effect (dead_code.effectful: rng, send/recv, collectives, marked custom calls) is
kept. Loops inside every computation are removed, nested ones too (a removed loop's body is
simplified before it is written in its caller).

How the body is written in the caller: a get-tuple-element of the body's parameter becomes
the init tuple's operand when their declared shapes agree (otherwise a get-tuple-element of
the init tuple); the body's root tuple takes the loop's name, and a get-tuple-element of
the loop becomes the root's operand when the shapes agree. Other copies keep their names
where the caller does not use them yet (passes/copies.py).

Pure: the input module is never modified (the work is done on a copy made by printing and
parsing, which round-trips by contract); a module with no such loop is returned as it is.
"""

from __future__ import annotations

from ..hlo import attrs
from ..hlo.ir import Computation, HloModule, Instruction
from ..hlo.loop_counter import short_trip_count, single_tuple_parameter, tuple_element
from ..hlo.opcodes import Opcode
from ..hlo.text.parser import copy_module
from .copies import clone, fresh_name, post_order, reachable
from .dead_code import effectful

NAME = "while-loop-simplifier"


def simplify_while_loops(module: HloModule) -> HloModule:
    """A copy of `module` without its while loops of trip count 0 or 1 (module doc);
    `module` itself when it has none."""
    if not _ready(module):
        return module
    copy = copy_module(module)
    while True:   # (a body written in its caller may hold a loop removable in turn)
        ready = _ready(copy)
        if not ready:
            break
        for comp in copy.computations:
            loops = {id(i): n for i, n in ready.items() if i in comp.instructions}
            if loops:
                _rewrite(comp, loops)
    copy.computations = reachable(copy)
    return copy


def _ready(module: HloModule) -> dict:
    """{while instruction: its trip count} for the loops that can go now: trip count 0 or 1,
    no side effect, and, for a body written in its caller, no such loop in the body yet."""
    effects = effectful(module)
    found = {}
    for comp in module.computations:
        for inst in comp.instructions:
            if inst.opcode is Opcode.WHILE and id(inst) not in effects:
                count = short_trip_count(inst)
                if count is not None:
                    found[inst] = count
    return {i: n for i, n in found.items()
            if n == 0 or not any(j in i.called["body"][0].instructions for j in found)}


def _rewrite(comp: Computation, loops: dict) -> None:
    """Replace the loops of `comp` (id -> trip count) in place (`comp` is the copy's): each
    by its init tuple or its body's root tuple, and a get-tuple-element of it by the
    tuple's operand when their declared shapes agree. Operands are redirected in post
    order (HLO text may use a value before the line defining it); the copies take the
    loop's place in the written order."""
    taken = {i.name for i in comp.instructions}
    replace: dict[int, Instruction] = {}
    made: set[int] = set()   # ids of the tuples loops became
    copies: dict[int, list] = {}   # id(loop) -> the copies of its body
    for inst in comp.post_order():
        inst.operands = [replace.get(id(o), o) for o in inst.operands]
        count = loops.get(id(inst))
        if count is not None:
            init = inst.operands[0]
            if count == 0:
                value = init
            else:
                copies[id(inst)], value = _inlined(inst, init, taken)
            replace[id(inst)] = value
            made.add(id(value))
        elif inst.opcode is Opcode.GET_TUPLE_ELEMENT and id(inst.operands[0]) in made:
            element = inst.operands[0].operands[attrs.integer(inst, "index")]
            if element.shape == inst.shape:
                replace[id(inst)] = element
    out: list[Instruction] = []
    for inst in comp.instructions:
        if id(inst) in copies:
            out.extend(copies[id(inst)])
        elif id(inst) not in replace:
            out.append(inst)
    comp.instructions = out
    comp.root = replace.get(id(comp.root), comp.root)


def _inlined(loop: Instruction, init: Instruction, taken: set) -> tuple[list, Instruction]:
    """(copies of the loop's body applied to the tuple `init`, the copy of its root): the
    root's copy takes the loop's name and declared shape."""
    body = loop.called["body"][0]
    param = single_tuple_parameter(body)
    mapping: dict[int, Instruction] = {id(param): init}
    copies = []
    for inst in post_order(body.instructions):
        if inst is param:
            continue
        k = tuple_element(inst, param)
        if k is not None and init.operands[k].shape == inst.shape:
            mapping[id(inst)] = init.operands[k]
            continue
        if inst is body.root:
            copy = clone(inst, mapping, loop.name)
            copy.shape = loop.shape
        else:
            copy = clone(inst, mapping, fresh_name(inst.name, taken))
        copies.append(copy)
    return copies, mapping[id(body.root)]
