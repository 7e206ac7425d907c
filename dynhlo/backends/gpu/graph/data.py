"""A GraphProgram as plain data (JSON-ready) and back, for AOT payloads.

Loading an artifact plans nothing and generates no kernel text: the payload stores the
graph program itself (slots, launches, the size buffer's layout) and, per launch, the key
of its cubin (cubins.spec_key). Sizes are getters (an int, or [parameter, dimension]);
constants are named by instruction (names are unique in a module).
"""

from __future__ import annotations

import math

from ....errors import ArtifactError, malformed_as_artifact_error
from .kernels import GraphKernel
from .plan import GraphProgram, Step


def to_data(prog: GraphProgram, keys: list) -> dict:
    """`prog` as data; `keys[k]` is the cubin key of launch k."""
    return {
        "nparams": prog.nparams,
        "steps": [{"key": key, "inputs": s.inputs, "out": s.out, "sizes": s.sizes,
                   "bound_work": s.bound_work, "size_offset": s.size_offset,
                   "block": s.kernel.block, "num_warps": s.kernel.num_warps,
                   "nsizes": s.kernel.nsizes, "per_program": s.kernel.per_program}
                  for s, key in zip(prog.steps, keys)],
        "slots": [[slot, prog.dtypes[slot], prog.bound_numel[slot], prog.dims[slot]]
                  for slot in sorted(prog.dtypes)],
        "constants": {str(slot): inst.name for slot, inst in prog.constants.items()},
        "root": list(prog.root) if isinstance(prog.root, tuple) else prog.root,
        "equal": [[a, b, what] for a, b, what in prog.equal],
        "size_index": prog.size_index,
    }


def from_data(data: dict, module) -> GraphProgram:
    """The GraphProgram `to_data` stored, for the same module; each step's `key` set.

    Raises ArtifactError when the data is malformed or names what the module lacks.
    """
    with malformed_as_artifact_error("gpu payload graph program"):
        return _from_data(data, module)


def _from_data(data: dict, module) -> GraphProgram:
    prog = GraphProgram(int(data["nparams"]))
    for slot, dtype, numel, dims in data["slots"]:
        prog.dtypes[slot], prog.bound_numel[slot] = dtype, int(numel)
        prog.dims[slot] = [_getter(g) for g in dims]
    by_name = {i.name: i for c in module.computations for i in c.instructions}
    for slot, name in data["constants"].items():
        if name not in by_name:
            raise ArtifactError(f"gpu payload graph names constant '{name}', which the "
                                "module does not have; recompile the artifact")
        prog.constants[int(slot)] = by_name[name]
    for s in data["steps"]:
        kernel = GraphKernel("kernel", "", dict(s["block"]), int(s["num_warps"]),
                             int(s["nsizes"]), int(s["per_program"]))
        step = Step(kernel, list(s["inputs"]), int(s["out"]),
                    [_getter(g) for g in s["sizes"]], int(s["bound_work"]),
                    int(s["size_offset"]))
        step.key = s["key"]
        prog.steps.append(step)
    root = data["root"]
    prog.root = tuple(root) if isinstance(root, list) else int(root)
    prog.equal = [(_getter(a), _getter(b), str(what)) for a, b, what in data["equal"]]
    prog.size_index = [_getter(g) for g in data["size_index"]]
    _check_slots(prog, module)
    return prog


# A size the kernels take as i32 (the size buffer is int32).
_MAX_SIZE = 2**31 - 1


def _getter(g):
    """An int, or a (parameter, dimension) pair (JSON gives lists); ValueError for a size
    that is negative or does not fit the int32 size buffer."""
    if isinstance(g, int) and not isinstance(g, bool):
        if not 0 <= g <= _MAX_SIZE:
            raise ValueError(f"size {g} is not in 0..{_MAX_SIZE}")
        return g
    p, d = g
    return (int(p), int(d))


def _check_slots(prog: GraphProgram, module) -> None:
    """ArtifactError unless every slot's element count at the bound is the product of its
    dimensions' bounds, read from the module's parameters: the runner allocates each
    buffer from that count, so a crafted one would allocate terabytes at load, or a buffer
    smaller than what its kernel writes. Sizes read from parameter p's dimension d must name
    a dimension the entry has."""
    params = module.entry.parameters
    if not 0 <= prog.nparams <= len(params):
        raise ArtifactError(f"gpu payload graph has {prog.nparams} parameters, the module "
                            f"{len(params)}; recompile the artifact")

    def bound(g) -> int:
        if isinstance(g, int):
            return g
        p, d = g
        if not (0 <= p < len(params) and not params[p].shape.is_tuple
                and 0 <= d < params[p].shape.rank):
            raise ArtifactError(f"gpu payload graph reads dimension {d} of parameter {p}, "
                                "which the module does not have; recompile the artifact")
        return params[p].shape.dims[d]

    for g in prog.size_index + [g for pair in prog.equal for g in pair[:2]]:
        bound(g)
    for slot, dims in prog.dims.items():
        numel = math.prod(bound(g) for g in dims)
        if prog.bound_numel[slot] != numel:
            raise ArtifactError(f"gpu payload graph slot {slot} holds "
                                f"{prog.bound_numel[slot]} elements, its dimensions {dims} "
                                f"{numel}; recompile the artifact")
