"""A Plan as plain data (JSON-ready dicts and lists) and back, for AOT artifacts.

Loading an artifact must neither plan nor generate code: the payload stores the plan
itself, the one description of the program an artifact holds (the graph path's program is
built from it on load: aot.py). Instructions are named (names are unique in a module); a
dynamic size a kernel takes is stored as where to read it, (instruction, dimension) in the
computation's inference, which is deterministic, so the same Sym comes back. Kernels carry
no source:
their launch facts (kind, block, warps) and their position in `kernels_of(plan)`, the
order of the payload's cubins.
"""

from __future__ import annotations

from ....errors import ArtifactError, malformed_as_artifact_error
from ....options import PADDING_READS
from ....shapes.dynamic import ComputationInfo
from ....shapes.schedule import leaf_dims
from ....shapes.sizes import size_key
from ..kernels.group import Group, Kernel, canonical_dim
from .fusion import Plan, size_only


def plan_to_data(plan: Plan, index: dict) -> dict:
    """`plan` as data; `index[id(kernel)]` is each kernel's position among the cubins."""
    refs = _size_refs(plan.info)
    return {
        "computation": plan.info.computation.name,
        "padding_reads": plan.padding_reads,
        "order": [i.name for i in plan.order],
        "fused": sorted(i.name for i in plan.fused),
        "steps": [[i.name, kind] for i, kind in plan.steps],
        "kernels": {root.name: _kernel_to_data(k, index, refs)
                    for root, k in plan.kernels.items()},
        "calls": {inst.name: [plan_to_data(p, index) for p in plans]
                  for inst, plans in plan.calls.items()},
    }


def plan_from_data(data: dict, info: ComputationInfo) -> Plan:
    """The Plan `plan_to_data` stored, for the same module's inference `info`.

    Raises ArtifactError when the data is malformed (a field missing or of another JSON
    type: a hand-made payload) or names what the module does not have.
    """
    with malformed_as_artifact_error("gpu payload plan"):
        return _plan_from_data(data, info)


def _plan_from_data(data: dict, info: ComputationInfo) -> Plan:
    by_name = {i.name: i for i in info.computation.instructions}

    def inst(name: str):
        found = by_name.get(name)
        if found is None:
            raise ArtifactError(f"gpu payload plan names instruction '{name}', which "
                                f"computation '{info.computation.name}' does not have; "
                                "recompile the artifact")
        return found

    if data.get("computation") != info.computation.name:
        raise ArtifactError(f"gpu payload plan is for computation '{data.get('computation')}'"
                            f", not '{info.computation.name}'; recompile the artifact")
    # absent from payloads written before the option: planned as "zeros" plans (the slices
    # that read padding were library steps, which "zeros" plans may keep)
    mode = data.get("padding_reads", PADDING_READS[0])
    if mode not in PADDING_READS:
        raise ArtifactError(f"gpu payload plan has padding_reads {mode!r}, not one of "
                            f"{', '.join(PADDING_READS)}; recompile the artifact")
    plan = Plan(info, [inst(n) for n in data["order"]], padding_reads=mode)
    plan.fused = {inst(n) for n in data["fused"]}
    plan.steps = [(inst(n), kind) for n, kind in data["steps"]]
    plan.kernels = {inst(r): _kernel_from_data(k, info, inst)
                    for r, k in data["kernels"].items()}
    # what needs not run follows from the module and the fused instructions (check.py
    # compares the stored steps with the ones they make)
    plan.skipped = size_only(info, plan.order, plan.fused | set(plan.kernels))
    for name, subs in data["calls"].items():
        call = inst(name)
        plan.calls[call] = [_plan_from_data(s, info.calls[(call, k)])
                            for k, s in enumerate(subs)]
    return plan


def _size_refs(info: ComputationInfo) -> dict:
    """size_key -> [instruction name, leaf dimension position] of one place it is read."""
    refs: dict = {}
    for inst in info.computation.instructions:
        for pos, dim in enumerate(leaf_dims(info.dims.get(inst, ()))):
            if not isinstance(dim, int):
                refs.setdefault(size_key(dim), [inst.name, pos])
    return refs


def _dim_ref(dim, refs: dict):
    root = canonical_dim(dim)
    return root if isinstance(root, int) else refs[size_key(root)]


def _dim_from(ref, info: ComputationInfo, inst):
    if isinstance(ref, int):
        return ref
    name, pos = ref
    dims = list(leaf_dims(info.dims[inst(name)]))
    if not (isinstance(pos, int) and 0 <= pos < len(dims)):  # -1 would read another dimension
        raise ArtifactError(f"gpu payload plan reads dimension {pos!r} of '{name}', which has "
                            f"{len(dims)}; recompile the artifact")
    return canonical_dim(dims[pos])


def _kernel_to_data(kernel: Kernel, index: dict, refs: dict) -> dict:
    group = kernel.group
    return {
        "index": index[id(kernel)], "name": kernel.name, "kind": kernel.kind,
        "block": kernel.block, "num_warps": kernel.num_warps,
        "size_syms": [_dim_ref(s, refs) for s in kernel.size_syms],
        "root": group.root.name, "inputs": [i.name for i in group.inputs],
        "reduces": [r.name for r in group.reduces],
        "domain": [_dim_ref(d, refs) for d in group.domain],
        "reduced": list(group.reduced),
    }


def _kernel_from_data(data: dict, info: ComputationInfo, inst) -> Kernel:
    group = Group(inst(data["root"]), [inst(n) for n in data["inputs"]],
                  [inst(n) for n in data["reduces"]],
                  tuple(_dim_from(d, info, inst) for d in data["domain"]),
                  tuple(data["reduced"]))
    return Kernel(name=data["name"], source="", group=group,
                  size_syms=[_dim_from(s, info, inst) for s in data["size_syms"]],
                  kind=data["kind"], block=dict(data["block"]), num_warps=data["num_warps"],
                  index=data["index"])
