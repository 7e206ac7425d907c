"""Fusion: which instructions are computed together in one generated kernel, for any backend.

A backend says what its kernels can do in a `FusionRules`; this file is the rest. An
instruction that a kernel can compute (`rules.can_fuse`: the kernel tier) is computed inside the kernels
of its users, unless its value must exist in memory ("materialized"): the computation's
root, operands of library and host steps, values that sizes are read from, and reductions
that cannot share their user's kernel. Each materialized fusible instruction is the root of
one group: it and its fusible, non-materialized producers, transitively (a producer used by
two groups is recomputed in each, like Inductor). A group with reductions iterates over
the reductions' operand shape, so softmax and layer norm are one kernel each.

When a group cannot be generated (`FusionError` from `rules.generate`), the reduction it names is
materialized and planning goes another round; a group without reductions that still fails is
taken off the fused path. Each retry materializes one more instruction, so planning ends; a
round applies every independent retry and generates only the groups it changed, so a
48-layer model plans in a few rounds, not one per failure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ...hlo import attrs
from ...hlo.ir import Instruction
from ...hlo.opcodes import Opcode
from ...shapes.dynamic import ComputationInfo
from ...shapes.host_sizes import SIZE_SETTERS, data_free, size_operands, sizes_in_range
from ...shapes.schedule import schedule, tree_deps
from ...shapes.sizes import Sym, same_size
from ...shapes.slice_windows import refuses_padding


class FusionError(Exception):
    """A group cannot be generated as one kernel; `inst` is the reduction to split off."""

    def __init__(self, message: str, inst: Instruction | None = None):
        super().__init__(message)
        self.inst = inst


@dataclass
class Group:
    """A fused group: `root` is stored; `inputs` are loaded; the rest is computed in-kernel.

    `domain` is the iteration space (dims); `reduced` the domain positions that the group's
    reductions reduce (empty for an elementwise group); `members` (when build_group made
    it) the instructions computed in the kernel, root included: what the kernel operands
    reach from the root without passing an input, which a backend otherwise finds again.
    """

    root: Instruction
    inputs: list[Instruction]
    reduces: list[Instruction]
    domain: tuple
    reduced: tuple[int, ...] = ()
    members: set | None = field(default=None, compare=False, repr=False)


def canonical_dim(dim):
    """The int of a static dimension, the root Sym of a dynamic one (evaluate sizes with
    it; key them by shapes.sizes.size_key: two Syms of one size share that)."""
    return dim.root() if isinstance(dim, Sym) else dim


def dims_equal(a, b) -> bool:
    """Whether two dimensions are one size (`reshape f32[<=n,1] -> f32[<=n]` keeps n)."""
    return same_size(a, b)


@dataclass(frozen=True)
class FusionRules:
    """What one backend's kernels can do.

    `can_fuse(inst)`: a kernel can compute it; `generate(group, info)`: the backend's kernel
    of a group (raises FusionError when it cannot be one kernel); `has_plan(opcode)`: its
    called computations get plans of their own (call, while, conditional); `view(opcode)`:
    a library step can give it as a zero-copy view; `reads_views(opcode)`: a library step
    that takes views as operands; `masked_loads`: a kernel reads a slice past an actual
    size as zeros (XLA's padding read) with a load masked by the operand's actual sizes.
    """

    can_fuse: Callable
    generate: Callable
    has_plan: Callable
    view: Callable = lambda opcode: False
    reads_views: Callable = lambda opcode: False
    masked_loads: bool = False


@dataclass
class Plan:
    """The steps of one computation invocation: kernels, library calls and host calls."""

    info: ComputationInfo
    order: list
    kernels: dict = field(default_factory=dict)      # root instruction -> the backend's kernel
    fused: set = field(default_factory=set)          # computed inside kernels only
    calls: dict = field(default_factory=dict)        # call/while/conditional -> [Plan]
    steps: list = field(default_factory=list)        # (instruction, kind), fused ones left out
    # instructions whose values are read only as sizes the host knows (size_only): not run
    skipped: set = field(default_factory=set)
    # the padding_reads option: "zeros" lets a kernel with masked loads compute a slice that
    # may read past an actual size; "error" keeps it a library step, which refuses such a read
    padding_reads: str = "zeros"


def plan_computation(info: ComputationInfo, rules: FusionRules,
                     padding_reads: str = "zeros") -> Plan:
    """Group the instructions of one computation invocation into kernels and other steps
    (`padding_reads`: the compile option, see Plan)."""
    order = schedule(info)
    fusible = {i for i in order if may_fuse(info, i, rules, padding_reads)}
    fusible -= _views_for_libraries(info, order, fusible, rules)
    extra: set = set()   # reductions split off their users' kernels after a FusionError
    skipped = size_only(info, order, fusible)
    shared = _shared_producers(info, order, fusible, skipped)
    made: dict = {}      # (root, inputs, reductions) -> kernel: a group generated once
    while True:
        materialized = in_memory(info, order, fusible, skipped) | extra | shared
        kernels, retries = _generate_all(info, order, fusible, materialized, rules, made)
        if not retries:
            break
        for retry in retries:
            if retry.demote is not None:
                fusible.discard(retry.demote)
                if size_operands(retry.demote):   # its size operands are read again
                    skipped = size_only(info, order, fusible)
            else:
                extra.add(retry.materialize)
    plan = Plan(info, order, kernels, padding_reads=padding_reads)
    plan.skipped = skipped
    plan.fused = {i for i in fusible if i not in kernels and i not in skipped}
    for inst in call_sites(info, order, rules):
        plan.calls[inst] = [plan_computation(info.calls[(inst, k)], rules, padding_reads)
                            for k in range(len(inst.called_computations()))]
    plan.steps = steps_of(plan)
    return plan


def may_fuse(info, inst, rules: FusionRules, padding_reads: str = "zeros") -> bool:
    """Whether a kernel may compute `inst`: the rule table's kernel tier has it, and it is
    no parameter, nor a slice or gather that may read padding where the kernel cannot read
    it as zeros (no masked loads) or must report it (compiled with padding_reads="error"),
    nor a size setter whose size the host does not know (or, without masked loads, whose
    operand may hold fewer elements: shapes/host_sizes.py)."""
    op = inst.opcode
    if op is Opcode.PARAMETER:
        return False
    if op in SIZE_SETTERS and size_operands(inst) and not data_free(info, inst) and not (
            rules.masked_loads and op is Opcode.SET_DIMENSION_SIZE
            and sizes_in_range(info, inst)):
        return False   # a size read at run time (and checked): the library step's
    return rules.can_fuse(inst) and not (
        may_read_padding(info, inst)
        and (not rules.masked_loads or refuses_padding(inst, padding_reads)))


def call_sites(info, order, rules: FusionRules) -> list:
    """The instructions of `order` whose called computations get plans of their own."""
    return [inst for inst in order
            if rules.has_plan(inst.opcode) and _callees_analyzed(info, inst)]


def steps_of(plan: Plan) -> list:
    """(instruction, kind) of each step of a plan whose order, kernels, fused set and calls
    are set: every instruction not computed inside kernels, in order."""
    steps = []
    for inst in plan.order:
        if inst in plan.fused or inst in plan.skipped:
            continue
        kind = "param" if inst.opcode is Opcode.PARAMETER else "kernel" \
            if inst in plan.kernels else inst.opcode.value if inst in plan.calls \
            else "library"
        steps.append((inst, kind))
    return steps


def may_read_padding(info, inst) -> bool:
    """A slice of length 1 in a dynamic dimension (XLA makes it static): it reads element
    `start`, past the actual size padding; a gather with a start into a dynamic dimension
    (XLA clamps it to the bound, past the actual size padding). A kernel with masked loads
    reads it masked by the operand's actual sizes (the GPU's kernels/data.py slice_,
    gather), so its operand is in memory; otherwise, or with padding_reads="error", the
    library step reads it (and checks on the host: sizes.slice_reads_padding,
    gather_past_size)."""
    if inst.opcode is Opcode.GATHER:
        dims = info.dims.get(inst.operands[0])
        return isinstance(dims, tuple) and any(
            isinstance(canonical_dim(dims[d]), Sym)
            for d in attrs.ints(inst, "start_index_map", ()) if d < len(dims))
    if inst.opcode is not Opcode.SLICE:
        return False
    dims = info.dims.get(inst.operands[0])
    return isinstance(dims, tuple) and any(
        -(-(limit - start) // stride) == 1 and isinstance(canonical_dim(dim), Sym)
        for (start, limit, stride), dim in zip(attrs.slices(inst), dims, strict=True))


def _callees_analyzed(info, inst) -> bool:
    count = len(inst.called_computations())
    return count > 0 and all((inst, k) in info.calls for k in range(count))


def _views_for_libraries(info, order, fusible, rules: FusionRules) -> set:
    """Views (rules: `view`) whose every user is a library step that `reads_views`: done
    as views (torch's on the GPU).

    A kernel would copy the operand only for cuBLAS to read it again; a view costs nothing
    (e.g. attention's `transpose(k)` feeding `dot(q, k^T)`).
    """
    users: dict = {}
    for inst in order:
        for op in inst.operands:
            users.setdefault(op, []).append(inst)
    root = info.computation.root
    return {i for i in order if rules.view(i.opcode) and i in fusible and i is not root
            and users.get(i) and all(u not in fusible and rules.reads_views(u.opcode)
                                     for u in users[i])}


class _Retry(Exception):
    def __init__(self, materialize=None, demote=None):
        super().__init__()
        self.materialize, self.demote = materialize, demote


def in_memory(info, order, fusible, skipped: set | None = None) -> set:
    """What must exist in memory when `fusible` may be computed inside kernels: the
    computation's root, the operands of every other step, values sizes are read from.
    Instructions read only as sizes the host knows (`skipped`: size_only's, computed here
    when not given) are not run at all."""
    out = {info.computation.root}
    members = set(order)
    if skipped is None:
        skipped = size_only(info, order, fusible)
    memo: dict = {}
    for inst in order:
        if inst in skipped:
            continue
        if inst not in fusible or may_read_padding(info, inst):
            out.update(inst.operands)
        found = tree_deps(info.dims.get(inst, ()), memo)
        if found:
            out.update(d for d in found if d in members)
    return out


# A value read by several groups is recomputed in each (cheap for a broadcast or a cast of
# one input); once its fused producers load more than this many arrays, it is stored once
# instead. A residual stream `x + a1 + a2 + ...` otherwise grows one load per layer in
# every later layer's kernels (a 48-layer transformer's last layer norm loaded 96 arrays).
SHARED_LOADS_MAX = 1


def _shared_producers(info, order, fusible, skipped: set) -> set:
    """Fusible values that several groups would each recompute from more than
    SHARED_LOADS_MAX loaded arrays: materialized, as Inductor realizes a buffer with many
    readers (its realize_reads_threshold). Grows to a fixed point: each one stored changes
    the groups of the values below it."""
    out: set = set()
    while True:
        materialized = in_memory(info, order, fusible, skipped) | out
        owners: dict = {}
        for root in order:
            if root in fusible and root in materialized:
                for member in _fused_members(root, fusible, materialized):
                    owners.setdefault(member, set()).add(root)
        new = {inst for inst, roots in owners.items()
               if len(roots) > 1 and inst.opcode is not Opcode.REDUCE
               and _loads(inst, fusible, materialized) > SHARED_LOADS_MAX}
        if not new - out:
            return out
        out |= new


def _fused_members(root, fusible, materialized) -> set:
    """The fusible, non-materialized producers computed inside root's kernel."""
    members, stack = set(), [root]
    while stack:
        for op in kernel_operands(stack.pop()):
            if op not in members and op in fusible and op not in materialized:
                members.add(op)
                stack.append(op)
    return members


def _loads(inst, fusible, materialized) -> int:
    """How many distinct non-scalar arrays computing `inst` in a kernel loads."""
    leaves, seen, stack = set(), {inst}, [inst]
    while stack:
        for op in kernel_operands(stack.pop()):
            if op in seen:
                continue
            seen.add(op)
            if op in fusible and op not in materialized:
                stack.append(op)
            elif op.shape.is_tuple or op.shape.dims:
                leaves.add(op)
    return len(leaves)


def _generate_all(info, order, fusible, materialized, rules: FusionRules,
                  made: dict) -> tuple[dict, list]:
    """(kernels, retries) of one planning round. Each group that fails gives a retry,
    unless its members meet what an earlier retry of this round changes (it is judged again
    in the next round, on the changed plan): a round fixes every independent failure at
    once, so the rounds are as many as the longest chain of failures, not the failures.
    A group is generated once (`made`, keyed by its root, inputs and reductions, which fix
    its members)."""
    kernels: dict = {}
    retries: list = []
    touched: set = set()    # instructions whose place this round's retries change
    position = {inst: k for k, inst in enumerate(order)}   # once: not per group
    for inst in order:
        if inst in fusible and inst in materialized:
            group = build_group(info, position, inst, fusible, materialized)
            key = (inst, tuple(group.inputs), tuple(group.reduces))
            result = made.get(key)
            if result is None:
                try:
                    result = made[key] = rules.generate(group, info)
                except FusionError as exc:   # not kept: what it names may change
                    result = _retry_for(exc, group, materialized)
            if not isinstance(result, _Retry):
                kernels[inst] = result
            elif not touched & _group_members(group):
                retries.append(result)
                changed = result.demote or result.materialize
                touched.add(changed)
                if result.demote is not None:    # its operands go to memory
                    touched.update(changed.operands)
    return kernels, retries


def _group_members(group: Group) -> set:
    members, stack, inputs = {group.root}, [group.root], set(group.inputs)
    while stack:
        for op in stack.pop().operands:
            if op not in members and op not in inputs:
                members.add(op)
                stack.append(op)
    return members


def _retry_for(exc: FusionError, group: Group, materialized: set) -> _Retry:
    if exc.inst is not None and exc.inst not in materialized:
        return _Retry(materialize=exc.inst)
    pending = [r for r in group.reduces if r not in materialized and r is not group.root]
    if pending:
        return _Retry(materialize=pending[0])
    return _Retry(demote=group.root)


def build_group(info, position: dict, root, fusible, materialized) -> Group:
    """The group rooted at `root`: its fused producers, inputs, reductions and domain
    (`position`: each instruction's index in the computation's order)."""
    members, inputs, stack = {root}, [], [root]
    while stack:
        inst = stack.pop()
        for op in kernel_operands(inst):
            if op in members or op in inputs:
                continue
            if op in fusible and op not in materialized:
                members.add(op)
                stack.append(op)
            else:
                inputs.append(op)
    inputs.sort(key=position.__getitem__)
    reduces = sorted((m for m in members if m.opcode is Opcode.REDUCE), key=position.__getitem__)
    if not reduces:
        return Group(root, inputs, [], tuple(info.dims[root]), members=members)
    first = reduces[0]
    axes = tuple(sorted(attrs.ints(first, "dimensions")))
    return Group(root, inputs, reduces, tuple(info.dims[first.operands[0]]), axes, members)


def kernel_operands(inst) -> list:
    """The operands a kernel computing `inst` reads: all but the size operands of a
    set-dimension-size or dynamic-reshape (a kernel computes one only when the host knows
    its sizes: may_fuse, shapes/host_sizes.py data_free)."""
    return inst.operands[:1] if inst.opcode in _SIZED_KERNELS else inst.operands


_SIZED_KERNELS = frozenset({Opcode.SET_DIMENSION_SIZE, Opcode.DYNAMIC_RESHAPE})


# What values.py follows as sizes (integer arithmetic on scalars and shape vectors): pure,
# so not running one whose value no step reads changes nothing.
_SIZE_OPS = frozenset({Opcode.GET_DIMENSION_SIZE, Opcode.CONSTANT, Opcode.CONVERT,
                       Opcode.RESHAPE, Opcode.COPY, Opcode.SLICE, Opcode.CONCATENATE,
                       Opcode.BROADCAST, Opcode.COMPARE, Opcode.SELECT, Opcode.NEGATE,
                       Opcode.SIGN, Opcode.NOT, Opcode.ADD, Opcode.SUBTRACT,
                       Opcode.MULTIPLY, Opcode.DIVIDE, Opcode.REMAINDER, Opcode.MAXIMUM,
                       Opcode.MINIMUM, Opcode.AND, Opcode.OR})


def size_only(info, order, fusible) -> set:
    """The instructions of `order` that need not run: every reader takes the value only as
    a size operand of a set-dimension-size or dynamic-reshape a kernel computes (in
    `fusible`, so its sizes are known on the host: shapes/host_sizes.py), or is itself one
    of these. Only the pure
    integer instructions values.py follows qualify; the root, values sizes are read from,
    and instructions nothing reads stay."""
    if not any(size_operands(inst) for inst in fusible):
        return set()   # no kernel takes a size from an operand: every value is read
    root = info.computation.root
    needed: set = set()
    memo: dict = {}
    readers: dict = {}   # instruction -> [(reader, read as a size only)]
    for inst in order:
        needed.update(tree_deps(info.dims.get(inst, ()), memo))
        sizes = size_operands(inst).values() if inst in fusible else ()
        for k, op in enumerate(inst.operands):
            readers.setdefault(op, []).append((inst, k in sizes))
    out: set = set()
    for inst in reversed(order):
        users = readers.get(inst)
        if users and inst is not root and inst not in needed and \
                inst.opcode in _SIZE_OPS and not inst.shape.is_tuple and \
                all(as_size or user in out for user, as_size in users):
            out.add(inst)
    return out


def kernels_of(plan: Plan) -> list:
    """Every kernel of a plan and its called plans, in a stable order."""
    out = list(plan.kernels.values())
    for subs in plan.calls.values():
        for sub in subs:
            out.extend(kernels_of(sub))
    return out
