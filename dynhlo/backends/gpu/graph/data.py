"""The graph program a GPU payload of format 3 stored, read back (aot.py).

Format 3 stored the graph program itself beside the fusion plan (slots, launches, the size
buffer's layout) and, per launch, the key of its cubin (cubins.spec_key); from format 4 an
artifact holds the plan only and load builds the graph program from it (graph/plan.py), so
nothing here is written any more. Sizes are getters (an int, or [parameter, dimension]);
constants are named by instruction (names are unique in a module). The data is untrusted:
every launch's buffers, sizes and grid are checked against the program and the module.
"""

from __future__ import annotations

import math

from ....errors import ArtifactError, malformed_as_artifact_error
from .kernels import GraphKernel
from .plan import GraphProgram, Step


def from_data(data: dict, module) -> GraphProgram:
    """The GraphProgram a format-3 payload stored, for the same module; each step's `key`
    set.

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
    _check_steps(prog)
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


# Launch facts a step may hold: the warps Triton compiles for, the largest constexpr any
# kernel here uses (tile sizes, head dims, row counts), the largest grid CUDA launches (x).
WARPS = (1, 2, 4, 8, 16, 32)
MAX_CONSTEXPR = 1 << 24
_MAX_GRID = 2**31 - 1


def _check_steps(prog: GraphProgram) -> None:
    """ArtifactError unless every launch is consistent with the program: its buffers are
    slots the program has (the output neither a parameter, which is the caller's array, nor
    a constant); its sizes are exactly the size buffer's int32s at its 16-byte-aligned
    offset (a kernel reads `nsizes` of them from there: past the buffer's end it would read
    device memory as sizes, and other sizes would size other buffers); warps, constexprs and
    grid in range; and launches of one cubin agree on everything the cubin was compiled
    for (its key is a hash of them: a launch that differs runs another kernel's code)."""
    by_key: dict = {}
    for k, step in enumerate(prog.steps):
        _check_step_buffers(prog, k, step)
        _check_step_sizes(prog, k, step)
        _check_step_launch(k, step)
        compiled = (step.kernel.block, step.kernel.num_warps, step.kernel.nsizes,
                    step.kernel.per_program, [prog.dtypes[s] for s in step.inputs],
                    prog.dtypes[step.out])
        first = by_key.setdefault(step.key, (k, compiled))
        if first[1] != compiled:
            raise _step_error(k, f"runs cubin {step.key} as launch {first[0]} does, with "
                                 "other blocks, warps, sizes or buffer types")


def _step_error(k: int, why: str) -> ArtifactError:
    return ArtifactError(f"gpu payload graph launch {k} {why}; recompile the artifact")


def _check_step_buffers(prog: GraphProgram, k: int, step) -> None:
    for slot in step.inputs + [step.out]:
        if not isinstance(slot, int) or slot not in prog.dtypes:
            raise _step_error(k, f"names buffer {slot!r}, which the program does not have")
    if step.out < prog.nparams or step.out in prog.constants:
        raise _step_error(k, f"writes buffer {step.out}, a parameter or a constant")
    if not isinstance(step.key, str):
        raise _step_error(k, "names no cubin")


def _check_step_sizes(prog: GraphProgram, k: int, step) -> None:
    n, offset = step.kernel.nsizes, step.size_offset
    if n != len(step.sizes) or offset < 0 or offset % 4 or \
            offset + n > len(prog.size_index):
        raise _step_error(k, f"reads {n} sizes at offset {offset} of a size buffer of "
                             f"{len(prog.size_index)} (its own sizes: {len(step.sizes)}, "
                             "at a multiple of 4)")
    if prog.size_index[offset:offset + n] != step.sizes:
        raise _step_error(k, f"reads sizes {prog.size_index[offset:offset + n]} at offset "
                             f"{offset}, not its own {step.sizes}")


def _check_step_launch(k: int, step) -> None:
    kernel = step.kernel
    block = kernel.block
    if kernel.num_warps not in WARPS or not all(
            isinstance(n, str) and isinstance(v, int) and not isinstance(v, bool)
            and 1 <= v <= MAX_CONSTEXPR for n, v in block.items()):
        raise _step_error(k, f"has warps {kernel.num_warps} or constexprs {block} out of "
                             "range")
    if kernel.per_program not in (1, block.get("BLOCK"), block.get("BM")) or \
            not 1 <= step.bound_work <= _MAX_GRID:
        raise _step_error(k, f"covers {kernel.per_program} elements per program (blocks "
                             f"{block}) over {step.bound_work} blocks")
