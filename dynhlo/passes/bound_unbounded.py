"""Pass `bound-unbounded`: give every unbounded (`?`) dimension of a module a bound.

A module with `f32[?,64]` parameters cannot be compiled ahead of time for a backend that sizes
buffers and kernels by bounds. This pass returns a copy of the module where each `?` dimension
of an ENTRY parameter becomes `<=B` (B from `bounds` for that dimension, else `bucket`), and
every `?` left on an intermediate takes the bound dynamic dimension inference derives for it
(a concatenate of two `<=B` dims becomes `<=2B`). Nothing else changes: the result is the same
computation for every size up to the bounds.

Pure: the input module is never modified (the copy is made by printing and parsing, which
round-trips by contract).
"""

from __future__ import annotations

from ..errors import UnsupportedError
from ..hlo.ir import HloModule, Instruction
from ..hlo.text.parser import copy_module
from ..hlo.shape import UNBOUNDED, AnyShape, Shape, TupleShape
from ..shapes.dynamic import ComputationInfo, infer_module
from ..shapes.sizes import bound_of

NAME = "bound-unbounded"



def how_to_bound(name: str = "x", dim: int = 0) -> str:
    """How to bound parameter `name`'s `?` dimension `dim`, spelt with them, so the
    suggestion can be pasted as is (it said 'x' and 0 whatever the module's names were)."""
    return (f"give bounds, e.g. dynhlo.compile(m, bounds={{{name!r}: {{{dim}: 1024}}}}) or "
            f"buckets=[128, 1024] (CLI: --bound {name}:{dim}=1024 or --buckets 128,1024), or "
            "run it with dynhlo.jit, which compiles one bucket per size class")


HOW_TO_BOUND = how_to_bound()


def unbounded_dims(module: HloModule) -> list[tuple[Instruction, int]]:
    """(parameter, dimension) for every `?` dimension of the ENTRY parameters, in order."""
    return [(p, d) for p in module.entry.parameters if not p.shape.is_tuple
            for d in range(p.shape.rank) if p.shape.dims[d] == UNBOUNDED]


def bound_unbounded(module: HloModule, bucket: int | None = None,
                    bounds: dict[int, dict[int, int]] | None = None) -> HloModule:
    """A copy of `module` with every `?` dimension bounded.

    Args:
        module: any module; one without `?` dimensions comes back as an equal copy.
        bucket: the bound of every `?` parameter dimension that `bounds` does not name.
        bounds: parameter number -> {dimension -> bound} for chosen `?` dimensions.

    Raises:
        UnsupportedError: a `?` parameter dimension with no bound given (the message says how
            to give one), a bound below 0, or an intermediate `?` that inference cannot bound.
    """
    bounds = bounds or {}
    copy = copy_module(module)
    for param, d in unbounded_dims(copy):
        bound = bounds.get(param.parameter_number, {}).get(d, bucket)
        if bound is None:
            raise UnsupportedError(
                f"parameter {param.parameter_number} '{param.name}' dimension {d} is unbounded "
                f"({param.shape}) and has no bound; {how_to_bound(param.name, d)}")
        if bound < 0:
            raise UnsupportedError(f"bound {bound} for parameter {param.parameter_number} "
                                   f"'{param.name}' dimension {d} is negative")
        param.shape = _set_dim(param.shape, d, bound)
    _bound_intermediates(copy)
    _refresh_entry_layout(copy)
    return copy   # (the same parameters, only bounded: copy_module kept their checks)


def _set_dim(shape: Shape, d: int, bound: int) -> Shape:
    dims = list(shape.dims)
    dims[d] = bound
    return Shape(shape.element_type, tuple(dims), shape.dynamic, shape.layout)


def _bound_intermediates(module: HloModule) -> None:
    """Replace declared `?` on intermediates by the bounds inference derives (max per site)."""
    if not any(inst.shape.is_unbounded for inst in module.instructions()):
        return
    derived: dict[Instruction, AnyShape] = {}
    _collect(infer_module(module), derived)
    for inst in module.instructions():
        if inst.shape.is_unbounded:
            if inst not in derived or derived[inst].is_unbounded:
                raise UnsupportedError(f"instruction '{inst.name}' ({inst.shape}) has an "
                                       "unbounded dimension whose bound cannot be derived from "
                                       "the parameters")
            inst.shape = derived[inst]


def _collect(info: ComputationInfo, derived: dict) -> None:
    """Merge this call site's bounds into `derived` (a callee called twice keeps the larger)."""
    for inst, tree in info.dims.items():
        if inst.shape.is_unbounded:
            shape = _bounded_shape(inst.shape, tree)
            derived[inst] = _max_shape(derived[inst], shape) if inst in derived else shape
    for callee in info.calls.values():
        _collect(callee, derived)


def _bounded_shape(shape: AnyShape, tree) -> AnyShape:
    if shape.is_tuple:
        return TupleShape(tuple(_bounded_shape(s, t) for s, t in zip(shape.elements, tree,
                                                                     strict=True)))
    dims = tuple(bound_of(t) if b == UNBOUNDED else b for b, t in zip(shape.dims, tree,
                                                                      strict=True))
    return Shape(shape.element_type, dims, shape.dynamic, shape.layout)


def _max_shape(a: AnyShape, b: AnyShape) -> AnyShape:
    if a.is_tuple:
        return TupleShape(tuple(_max_shape(x, y) for x, y in zip(a.elements, b.elements,
                                                                 strict=True)))
    dims = tuple(UNBOUNDED if UNBOUNDED in (x, y) else max(x, y) for x, y in zip(a.dims, b.dims,
                                                                                 strict=True))
    return Shape(a.element_type, dims, a.dynamic, a.layout)


def _refresh_entry_layout(module: HloModule) -> None:
    """Rewrite `entry_computation_layout` when it still names `?` (XLA checks it matches)."""
    text = module.attrs.get("entry_computation_layout")
    if text is None or "?" not in text:
        return
    params = ", ".join(str(p.shape) for p in module.entry.parameters)
    module.attrs["entry_computation_layout"] = "{(" + params + ")->" + str(
        module.entry.root.shape) + "}"
