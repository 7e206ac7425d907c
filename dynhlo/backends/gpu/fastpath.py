"""A lean per-call path for entry plans of parameters, generated kernels and cuBLAS dots.

Host time per call matters for small and medium modules (DESIGN.md section 4): a
layer-norm kernel of 70 us at 65536 rows and 12 us at 8192 would otherwise share the call
with about as much Python. When every size a kernel needs is a parameter's dimension, the
plan is flattened once: values live in a list by slot, each size is read straight off an
argument's shape, and the only run-time check left is the one the module can fail (two
parameters whose dimensions inference unified must have the same size). Anything else
(other library steps, calls, data-dependent sizes) takes program.Runner.
"""

from __future__ import annotations

import math

import torch

from ...errors import DynamicSizeError
from ...hlo.opcodes import Opcode
from ...shapes.sizes import ParamSize, Sym, dim_text
from .codegen import canonical_dim
from .launcher import torch_dtype
from .lowering import LIBRARY
from .ops_library import dot_on_device
from .program import _dense


def _getter(dim):
    """An int, or (parameter number, dimension) to read the size from; None if neither."""
    dim = canonical_dim(dim)
    if isinstance(dim, int):
        return dim
    expr = dim.root().expr
    if isinstance(expr, ParamSize):
        return (expr.number, expr.dim)
    return None


class _Ctx:
    """The little of StepContext that view and dot lowerings ask for."""

    __slots__ = ("inst", "shape")

    def __init__(self, inst, shape):
        self.inst, self.shape = inst, shape

    def out_shape(self, inst=None):
        return tuple(self.shape)

    def error(self, message: str) -> DynamicSizeError:
        return DynamicSizeError(f"instruction '{self.inst.name}': {message}")


_LIBRARY_OK = (Opcode.DOT, Opcode.TRANSPOSE, Opcode.RESHAPE)


class FastPlan:
    """Slots, size getters and launchers of a kernel-only plan (see module doc)."""

    def __init__(self, checks, kernels, root_slot, device):
        self.checks, self.kernels = checks, kernels
        self.root_slot, self.device = root_slot, device

    @classmethod
    def build(cls, plan, launchers: dict, device) -> "FastPlan | None":
        dims = plan.info.dims
        slots, checks, kernels = {}, [], []
        params = [inst for inst, kind in plan.steps if kind == "param"]
        if any(kind not in ("param", "kernel", "library") or (
                kind == "library" and (inst.opcode not in _LIBRARY_OK or (
                    inst.opcode is Opcode.DOT and not dot_on_device(inst))))
               for inst, kind in plan.steps):
            return None
        for p in params:
            slots[p] = p.parameter_number
            for d, dim in enumerate(dims[p]):
                if isinstance(dim, Sym):
                    source = _getter(dim)
                    if source is None:
                        return None
                    if source != (p.parameter_number, d):
                        checks.append((p, d, dim, source))
        next_slot = len(params)
        for inst, kind in plan.steps:
            if kind == "library":
                getters = [_getter(d) for d in dims[inst]]
                if any(g is None for g in getters):
                    return None
                kernels.append((LIBRARY[inst.opcode], inst, [slots[o] for o in inst.operands],
                                getters))
                slots[inst] = next_slot
                next_slot += 1
                continue
            if kind != "kernel":
                continue
            kernel = plan.kernels[inst]
            getters = [_getter(d) for d in dims[inst]] + [
                _getter(s) for s in kernel.size_syms] + [_getter(d) for d in kernel.grid_dims]
            if any(g is None for g in getters):
                return None
            rank, nsizes = len(dims[inst]), len(kernel.size_syms)
            kernels.append((
                launchers[id(kernel)], [slots[i] for i in kernel.group.inputs],
                getters[:rank], getters[rank:rank + nsizes], getters[rank + nsizes:],
                kernel.kind == "row", kernel.grid_block,
                torch_dtype(inst.shape.element_type)))
            slots[inst] = next_slot
            next_slot += 1
        root = plan.info.computation.root
        if root not in slots:
            return None
        return cls(checks, kernels, slots[root], device)

    def run(self, tensors: list, shapes: list):
        for p, d, dim, (n, dd) in self.checks:
            if shapes[p.parameter_number][d] != shapes[n][dd]:
                raise DynamicSizeError(
                    f"instruction '{p.name}': dimension {d} has run-time size "
                    f"{shapes[p.parameter_number][d]}, but {dim_text(dim)} is "
                    f"{shapes[n][dd]} here; sizes that meet in one op must agree")
        values = list(tensors)
        device = self.device
        for step in self.kernels:
            if len(step) == 4:  # a library step: a view or a cuBLAS product
                fn, inst, operands, out_dims = step
                shape = [g if g.__class__ is int else shapes[g[0]][g[1]] for g in out_dims]
                values.append(fn(_Ctx(inst, shape), inst, [values[s] for s in operands]))
                continue
            launch, inputs, out_dims, size_dims, grid_dims, row, block, dtype = step
            shape = [g if g.__class__ is int else shapes[g[0]][g[1]] for g in out_dims]
            out = torch.empty(shape, dtype=dtype, device=device)
            values.append(out)
            work = math.prod(g if g.__class__ is int else shapes[g[0]][g[1]]
                             for g in (grid_dims if row else out_dims))
            if work == 0:
                continue
            args = [_dense(values[s]) for s in inputs]
            args.append(out)
            sizes = [g if g.__class__ is int else shapes[g[0]][g[1]] for g in size_dims]
            launch((-(-work // block),), args, sizes)
        return values[self.root_slot]
