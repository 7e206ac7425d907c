"""Pass `inline-calls`: replace call, fusion and async-start/-done pairs by their computations.

XLA semantics (CallInliner; a fusion or an async pair likewise): calling a computation is
equivalent to its instructions written in the caller with its parameters replaced by the
call's operands and its root taking the call's place. Modules that XLA dumps after its
optimization passes wrap almost everything in `fusion` (kLoop/kInput/kOutput/kCustom) and
`async-start`/`async-done`; a backend with its own fusion (the GPU's) wants plain
instructions instead.

What is inlined, into the entry computation and every computation that runs in sequence
with it (while condition/body, conditional branches, transitively):
- `call` (to_apply=) and `fusion` (calls=), nested ones too;
- `async-start` (calls=) whose value only flows through `async-update`s into `async-done`s:
  the wrapped computation's root replaces each `async-done` (one device has nothing to
  overlap the work with). An async-start used any other way is left as it is.
Computations applied per element or per pair (to_apply of reduce, sort, scatter, map, ...)
are kept as they are. Computations no longer called are dropped.

Naming: the root's copy takes the replaced instruction's name (`fusion.3`), so its users read
the same; every other copy keeps its name when the caller does not use it yet, else gets
`.1`, `.2`, ... appended. Shapes stay as declared; the root's copy takes the replaced
instruction's declared shape (XLA requires them to agree). `control-predecessors` of copies
are dropped: they order side effects, and the copies' data dependencies already order them.

Pure: the input module is never modified (the work is done on a copy made by printing and
parsing, which round-trips by contract).
"""

from __future__ import annotations

from ..errors import HloVerifyError
from ..hlo.ir import Computation, HloModule, Instruction
from ..hlo.opcodes import Opcode
from ..hlo.text.parser import copy_module
from .copies import clone, fresh_name, post_order, reachable, users_of

NAME = "inline-calls"

INLINED = frozenset({Opcode.CALL, Opcode.FUSION, Opcode.ASYNC_START, Opcode.ASYNC_DONE,
                     Opcode.ASYNC_UPDATE})
"""Opcodes this pass removes (async ones only when the start feeds nothing but its done)."""

_CALL_KEY = {Opcode.CALL: "to_apply", Opcode.FUSION: "calls", Opcode.ASYNC_START: "calls"}

# Computations that run in sequence with their caller (XLA: a control-flow call context).
_SEQUENTIAL = {Opcode.WHILE: ("condition", "body"),
               Opcode.CONDITIONAL: ("branch_computations", "true_computation",
                                    "false_computation")}


def inline_calls(module: HloModule) -> HloModule:
    """A copy of `module` without call, fusion and (plain) async-start/-done instructions.

    See the module docstring for what is inlined and how copies are named. Raises
    HloVerifyError for a call whose computation does not take its operands (wrong parameter
    count) or a computation that calls itself.
    """
    copy = copy_module(module)
    templates: dict[int, tuple[list, Instruction]] = {}
    seen: set[int] = set()
    pending = [copy.entry]
    while pending:
        comp = pending.pop()
        if id(comp) in seen:
            continue
        seen.add(id(comp))
        comp.instructions, comp.root = _inline(comp.instructions, comp.root, templates, set())
        for inst in comp.instructions:
            for key in _SEQUENTIAL.get(inst.opcode, ()):
                pending.extend(inst.called.get(key, ()))
    copy.computations = reachable(copy)
    return copy


def _inline(instructions: list, root: Instruction, templates: dict, active: set):
    """(instructions, root) with every inlinable call replaced by copies of its callee.

    Instructions that stay are the same objects with operands redirected; replaced ones'
    copies take their place in the written order.
    """
    users = users_of(instructions)
    replace: dict[int, Instruction] = {}   # id(replaced instruction) -> its value
    emitted: dict[int, list] = {}          # id(replaced instruction) -> copies put there
    taken = {inst.name for inst in instructions}
    for inst in post_order(instructions):
        inst.operands = [replace.get(id(o), o) for o in inst.operands]
        callee = _inlinable(inst, root, users)
        if callee is None:
            continue
        body, body_root = _template(callee, inst, templates, active)
        copies, value = _instantiate(body, body_root, inst.operands, _target(inst, users),
                                     taken)
        emitted[id(inst)] = copies
        for replaced in _async_chain(inst, users) if inst.opcode is Opcode.ASYNC_START \
                else [inst]:
            replace[id(replaced)] = value
            emitted.setdefault(id(replaced), [])
    out = []
    for inst in instructions:
        out.extend(emitted.get(id(inst), [inst]))
    return out, replace.get(id(root), root)


def _inlinable(inst: Instruction, root: Instruction, users: dict) -> Computation | None:
    """The computation to inline in place of `inst`, or None to keep it."""
    key = _CALL_KEY.get(inst.opcode)
    if key is None:
        return None
    callees = inst.called.get(key, [])
    if len(callees) != 1:
        return None
    if inst.opcode is Opcode.ASYNC_START:
        chain = _async_chain(inst, users)
        if chain is None or inst is root or any(i is root for i in chain
                                                if i.opcode is Opcode.ASYNC_UPDATE):
            return None
    return callees[0]


def _async_chain(start: Instruction, users: dict) -> list | None:
    """The async-updates and -dones `start` flows into, when nothing else uses it; else None."""
    chain, stack = [], [start]
    while stack:
        for user in users.get(id(stack.pop()), []):
            if user.opcode is Opcode.ASYNC_UPDATE:
                stack.append(user)
            elif user.opcode is not Opcode.ASYNC_DONE:
                return None
            chain.append(user)
    return chain


def _target(inst: Instruction, users: dict) -> tuple[str, object]:
    """(name, declared shape or None) the inlined root takes: the call's, an async pair's
    done's; a start nobody waits for (dead work) lends its name only."""
    if inst.opcode is not Opcode.ASYNC_START:
        return inst.name, inst.shape
    dones = [i for i in _async_chain(inst, users) if i.opcode is Opcode.ASYNC_DONE]
    if not dones:
        return inst.name, None
    return dones[0].name, dones[0].shape


def _template(callee: Computation, caller: Instruction, templates: dict, active: set):
    """The callee's instructions with its own calls inlined (made once per computation)."""
    if len(callee.parameters) != len(caller.operands):
        raise HloVerifyError(f"calls '{callee.name}' ({len(callee.parameters)} parameters) "
                             f"with {len(caller.operands)} operands", caller.name)
    found = templates.get(id(callee))
    if found is not None:
        return found
    if id(callee) in active:
        raise HloVerifyError(f"computation '{callee.name}' calls itself", caller.name)
    active.add(id(callee))
    mapping: dict[int, Instruction] = {}
    body = [clone(inst, mapping, inst.name) for inst in post_order(callee.instructions)]
    order = {id(mapping[id(inst)]): k for k, inst in enumerate(callee.instructions)}
    body.sort(key=lambda c: order[id(c)])  # keep the written order
    found = templates[id(callee)] = _inline(body, mapping[id(callee.root)], templates, active)
    active.discard(id(callee))
    return found


def _instantiate(body: list, body_root: Instruction, operands: list, target: tuple,
                 taken: set) -> tuple[list, Instruction]:
    """Copies of a template for one call site: (new instructions, the value of the call)."""
    mapping: dict[int, Instruction] = {}
    for inst in body:
        if inst.opcode is Opcode.PARAMETER:
            mapping[id(inst)] = operands[inst.parameter_number]
    copies = []
    for inst in post_order(body):
        if id(inst) in mapping:
            continue
        if inst is body_root:
            copy = clone(inst, mapping, target[0])
            copy.shape = target[1] or copy.shape
        else:
            copy = clone(inst, mapping, fresh_name(inst.name, taken))
        copies.append(copy)
    order = {id(mapping[id(inst)]): k for k, inst in enumerate(body)}
    copies.sort(key=lambda c: order[id(c)])
    return copies, mapping[id(body_root)]
