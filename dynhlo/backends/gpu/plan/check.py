"""A plan read from an artifact, checked against what its module determines.

An artifact's plan (plan/data.py) says which instructions each kernel computes and in
which order it takes its buffers; a cubin computes `in0 - in1` whatever buffers it is
handed, so a stored plan with a kernel's inputs swapped would compute y - x for x - y.
Much of a plan follows from the module alone, with no planning and no code generation:
the run order (the schedule), which instructions a kernel may compute at all, what must
exist in memory, and, given which instructions are computed inside kernels, each
kernel's group (its inputs in run order, its reductions, its iteration domain), its kind,
the steps and the called computations' plans. Those are rebuilt here and compared.

What only the fusion search and the code generator decide (which fusible instructions
share a kernel, a kernel's size arguments and blocks) is not rebuilt: that is planning
and generating every kernel again (on the 48-layer transformer of tests/data/large, 2-core
machine, 2026-12-05: 180 ms, against 55 ms for this check and 123 ms for the rest of a
load). A kernel's launch facts are checked against its cubin instead (aot.py).
"""

from __future__ import annotations

from ....errors import ArtifactError
from ....shapes.schedule import schedule
from ..kernels.group import dims_equal
from .fusion import Plan, build_group, call_sites, in_memory, may_fuse, steps_of


def check_plan(plan: Plan) -> None:
    """ArtifactError unless `plan` (and the plans of its calls) is what its module
    determines (see the module doc); the message names the first difference."""
    info = plan.info
    order = schedule(info)
    if not _same(plan.order, order):
        raise _differs(plan, "runs its instructions in another order than the module's "
                             "schedule")
    roots = set(plan.kernels)
    stored = in_memory(info, order, plan.fused | roots) | roots
    for inst in order:
        if (inst in plan.fused or inst in roots) and not may_fuse(info, inst,
                                                                 plan.padding_reads):
            raise _differs(plan, f"computes '{inst.name}' ({inst.opcode.value}) in a kernel, "
                                 "which no kernel may")
        if inst in plan.fused and inst in stored:
            raise _differs(plan, f"keeps '{inst.name}' inside kernels only, but it is read "
                                 "from memory")
    position = {inst: k for k, inst in enumerate(order)}
    for root, kernel in plan.kernels.items():
        _check_group(plan, root, kernel, build_group(info, position, root, plan.fused, set()))
    sites = call_sites(info, order)
    if set(plan.calls) != set(sites) or any(
            len(plan.calls[s]) != len(s.called_computations()) for s in sites):
        raise _differs(plan, "plans other called computations than the module has")
    if [(id(i), kind) for i, kind in plan.steps] != \
            [(id(i), kind) for i, kind in steps_of(plan)]:
        raise _differs(plan, "has other steps than its kernels and calls make")
    for subs in plan.calls.values():
        for sub in subs:
            check_plan(sub)


def _check_group(plan: Plan, root, kernel, want) -> None:
    """The stored kernel's group against the one the module makes with the plan's fused
    instructions (fusion.build_group)."""
    got = kernel.group
    what = f"kernel '{root.name}'"
    if got.root is not root:
        raise _differs(plan, f"stores {what} under another root, '{got.root.name}'")
    if not _same(got.inputs, want.inputs):
        raise _differs(plan, f"gives {what} the inputs {_names(got.inputs)}; the module "
                             f"makes {_names(want.inputs)}")
    if not _same(got.reduces, want.reduces) or tuple(got.reduced) != want.reduced:
        raise _differs(plan, f"gives {what} the reductions {_names(got.reduces)} over "
                             f"{list(got.reduced)}; the module makes {_names(want.reduces)} "
                             f"over {list(want.reduced)}")
    if len(got.domain) != len(want.domain) or not all(
            dims_equal(a, b) for a, b in zip(got.domain, want.domain, strict=True)):
        raise _differs(plan, f"gives {what} another iteration domain than the module's")
    kind = "row" if want.reduced else "elementwise"
    if kernel.kind != kind:
        raise _differs(plan, f"makes {what} a {kernel.kind!r} kernel; the module makes a "
                             f"{kind!r} one")


def _same(a: list, b: list) -> bool:
    """The same instructions (objects: names are unique in a computation) in order."""
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def _names(insts: list) -> list[str]:
    return [i.name for i in insts]


def _differs(plan: Plan, why: str) -> ArtifactError:
    return ArtifactError(f"gpu payload plan of computation '{plan.info.computation.name}' "
                         f"is not its module's: it {why}; recompile the artifact")
