"""The order a computation's instructions run in: operands first, and size sources first.

Shared by both backends (the CPU evaluator and the GPU planner): post order over operands
plus size dependencies (the instructions a dynamic dimension's size is read from).
"""

from __future__ import annotations

from ..errors import HloVerifyError
from ..hlo.ir import Instruction
from .trees import ComputationInfo, DimsTree
from .sizes import Sym, deps


def schedule(info: ComputationInfo) -> list[Instruction]:
    """Post order over operands plus size dependencies (where a Sym's size is read from)."""
    comp = info.computation
    members = set(comp.instructions)
    extra: dict[Instruction, list[Instruction]] = {}
    memo: dict = {}
    dims = info.dims
    for inst in comp.instructions:
        needs = [dep for dep in tree_deps(dims.get(inst, ()), memo)
                 if dep in members and dep is not inst]
        if needs:
            extra[inst] = needs
    if not extra:
        return comp.post_order()
    if _written_in_order(comp.instructions, extra):   # what the search below returns then
        return list(comp.instructions)
    order, state = [], {}
    for start in comp.instructions:
        _visit(start, extra, state, order)
    return order


def _written_in_order(instructions: list, extra: dict) -> bool:
    """Whether each instruction comes after its operands and size sources in the list
    (each listed once): the search then finds every one of them done when it reaches an
    instruction, so its order is the list's (one dict lookup per dependency instead)."""
    position = {inst: k for k, inst in enumerate(instructions)}
    if len(position) != len(instructions):
        return False
    get = position.get
    for k, inst in enumerate(instructions):
        for dep in inst.operands:
            if get(dep, k) >= k:   # later, itself, or not listed: the search decides
                return False
        needs = extra.get(inst)
        if needs is not None:
            for dep in needs:
                if get(dep, k) >= k:
                    return False
    return True


def _visit(start, extra, state, order):
    if state.get(start):
        return
    state[start] = 1
    stack = [(start, iter(list(start.operands) + extra.get(start, [])))]
    while stack:
        inst, it = stack[-1]
        for dep in it:
            mark = state.get(dep)
            if mark == 1:
                raise HloVerifyError("the size of this instruction depends on its own result",
                                     dep.name)
            if mark is None:
                state[dep] = 1
                stack.append((dep, iter(list(dep.operands) + extra.get(dep, []))))
                break
        else:
            stack.pop()
            state[inst] = 2
            order.append(inst)


def leaf_dims(tree: DimsTree):
    """The dimensions of a dims tree (a tuple shape's are nested lists), in order."""
    if isinstance(tree, list):
        for t in tree:
            yield from leaf_dims(t)
    else:
        yield from tree


def tree_deps(tree: DimsTree, memo: dict | None = None) -> list:
    """The instructions the dynamic dimensions of a dims tree are read from (sym_deps of
    each, in order, repeats kept); the static ones are skipped without a call."""
    out: list = []
    for dim in (tree if tree.__class__ is tuple else leaf_dims(tree)):
        if isinstance(dim, Sym):
            size = dim.root().expr
            if size is not None and (size.reads or size.syms):   # else deps has none
                out += deps(size, memo)
    return out


def sym_deps(dim, memo: dict | None = None) -> list:
    """The instructions a dynamic dimension's size is read from (none for an int);
    `memo` shares the work across the dimensions of one computation."""
    if isinstance(dim, Sym):
        return deps(dim.root().expr, memo)
    return []
