"""A lean per-call path for entry plans of parameters, generated kernels and cuBLAS dots.

Host time per call matters for small and medium modules (DESIGN.md section 4): a
layer-norm kernel of 70 us at 65536 rows and 12 us at 8192 would otherwise share the call
with about as much Python. When every size a kernel needs is a parameter's dimension, the
entry's launch list (plan/schedule.py, calls inlined) becomes steps over values kept by
position, each size a parameter's dimension (FastPlan.build). The first call at a new
combination of argument shapes specializes the steps to those shapes (`_specialize`): the one run-time check the module can fail (two
parameters whose dimensions inference unified must have the same size) runs there, and
every step becomes a small closure with its output shape, strides, grid and size
arguments bound. Later calls at the same shapes look the closures up by the shapes and run
them: per kernel, one allocation and one launch. Anything else (other library steps, calls,
data-dependent sizes) takes the interpreted runner (launch/runner.py).
"""

from __future__ import annotations

import math

import torch

from ....errors import DynamicSizeError
from ....shapes.sizes import size_mismatch
from ..plan.schedule import inline
from ..rules import library_for, rule_of
from ..tensors import torch_dtype
from .launcher import raw_stream
from .runner import dense

# Specialized plans kept per FastPlan; past this many distinct argument shapes the cache
# starts again (a bound on memory, not a correctness matter: specializing is cheap).
MAX_SPECIALIZED = 1024


class _Ctx:
    """The little of StepContext that view and dot lowerings ask for."""

    __slots__ = ("inst", "shape", "precision", "padding_reads")

    def __init__(self, inst, shape: tuple, precision: str, padding_reads: str):
        self.inst, self.shape, self.precision = inst, shape, precision
        self.padding_reads = padding_reads

    def out_shape(self, inst=None):
        return self.shape

    def error(self, message: str) -> DynamicSizeError:
        return DynamicSizeError(f"instruction '{self.inst.name}': {message}")


class _LibraryStep:
    """A view or a cuBLAS product: `fn(ctx, inst, operands)`; out_dims are size getters."""

    def __init__(self, fn, inst, operands, out_dims, padding_reads: str):
        self.fn, self.inst, self.operands, self.out_dims = fn, inst, operands, out_dims
        self.padding_reads = padding_reads  # its plan's (plan/fusion.py)


class _KernelStep:
    """A generated kernel: its launcher, input slots, and getters of its sizes.

    `trusted[k]` is True when input k is a parameter (made dense by FastPlan.run) or another
    kernel's output (a fresh dense tensor), so only library results (views) are checked
    for density in the step.
    """

    def __init__(self, launcher, inputs, trusted, out_dims, size_dims, grid_dims, block,
                 dtype):
        self.launcher, self.inputs, self.trusted = launcher, inputs, trusted
        self.out_dims, self.size_dims, self.grid_dims = out_dims, size_dims, grid_dims
        self.block, self.dtype = block, dtype


def _steps(schedule, launchers: dict) -> tuple[list, int] | None:
    """(steps, root position) of a schedule whose items, calls inlined, are all parameters,
    kernels and fast library steps with every size an entry parameter's dimension; values
    are kept by position (parameters first, then one per step). None otherwise."""
    items, root, _ = inline(schedule)
    pos = {k: k for k in range(schedule.nparams)}
    made = set(range(schedule.nparams))   # positions known dense: params, kernel outputs
    steps: list = []
    for item in items:
        if item.kind == "param":
            continue
        out = item.out_getters
        if out is None or None in out:
            return None
        inputs = [pos[s] for s in item.inputs]
        if item.kind == "library":
            if not rule_of(item.inst.opcode).fast:
                return None
            steps.append(_LibraryStep(library_for(item.inst), item.inst, inputs, out,
                                      item.plan.padding_reads))
        elif item.kind == "kernel":
            sizes, grid = item.size_getters, item.grid_getters
            if None in sizes or None in grid:
                return None
            kernel = item.kernel
            made.add(schedule.nparams + len(steps))
            steps.append(_KernelStep(launchers[id(kernel)], inputs, [s in made for s in inputs],
                                     out, sizes, grid, kernel.grid_block,
                                     torch_dtype(item.inst.shape.element_type)))
        else:
            return None
        pos[item.out] = schedule.nparams + len(steps) - 1
    return steps, pos[root]


class FastPlan:
    """Slots, size getters and launchers of a kernel-only plan (see module doc)."""

    def __init__(self, checks, steps, root_slot, device, precision: str):
        self.checks, self.steps = checks, steps
        self.root_slot, self.device = root_slot, device
        self.precision = precision  # the compile option, for dot lowerings (_Ctx)
        self.stream_index = device.index if device.type == "cuda" else None
        if self.stream_index is None and device.type == "cuda":
            self.stream_index = torch.cuda.current_device()
        self.specialized: dict = {}

    @classmethod
    def build(cls, schedule, launchers: dict, device, precision: str = "highest"
              ) -> "FastPlan | None":
        """The specialized runner of an entry Schedule (plan/schedule.py), or None when an
        item needs more than it gives (a size that is no parameter's dimension, a library
        step off the fast list, control flow, the host tier)."""
        checks = schedule.equal
        if any(source is None for *_, source in checks):
            return None
        found = _steps(schedule, launchers)
        if found is None:
            return None
        return cls(checks, found[0], found[1], device, precision)

    def run(self, tensors: list):
        """The root's tensor for parameter tensors on the device (checked by the caller)."""
        key = tuple([t.shape for t in tensors])
        steps = self.specialized.get(key)
        if steps is None:
            steps = self._specialize(key)
        index = self.stream_index
        stream = raw_stream(index) if index is not None else 0
        values = list(tensors)
        for k, t in enumerate(tensors):  # kernels read contiguous, 16-byte aligned inputs
            if t.data_ptr() & 15 or not t.is_contiguous():
                values[k] = dense(t)
        for step in steps:
            values.append(step(values, stream))
        return values[self.root_slot]

    def _specialize(self, shapes: tuple) -> tuple:
        """The steps as closures bound to these argument shapes (see module doc)."""
        for p, d, dim, (n, dd) in self.checks:
            if shapes[p.parameter_number][d] != shapes[n][dd]:
                raise size_mismatch(p.name, d, shapes[p.parameter_number][d], dim, shapes[n][dd])

        def sizes(getters) -> tuple:
            return tuple(g if g.__class__ is int else shapes[g[0]][g[1]] for g in getters)

        steps = []
        for step in self.steps:
            if isinstance(step, _LibraryStep):
                steps.append(_library_closure(step, sizes(step.out_dims), self.precision))
            else:
                steps.append(_kernel_closure(step, sizes(step.out_dims), sizes(step.size_dims),
                                             math.prod(sizes(step.grid_dims)), self.device))
        if len(self.specialized) >= MAX_SPECIALIZED:
            self.specialized.clear()
        steps = self.specialized[shapes] = tuple(steps)
        return steps


def _library_closure(step: _LibraryStep, shape: tuple, precision: str):
    fn, inst, operands = step.fn, step.inst, step.operands
    ctx = _Ctx(step.inst, shape, precision, step.padding_reads)

    def run(values, stream):
        return fn(ctx, inst, [values[s] for s in operands])
    return run


def _contiguous_strides(shape: tuple) -> tuple:
    strides, stride = [], 1
    for size in reversed(shape):
        strides.append(stride)
        stride *= max(size, 1)
    return tuple(reversed(strides))


def _kernel_closure(step: _KernelStep, shape: tuple, size_args: tuple, work: int, device):
    """Allocate the output and launch: through the launcher's `direct` form once the kernel
    is compiled (one driver call, or Triton's C launcher: launcher.py)."""
    empty, strides, dtype = torch.empty_strided, _contiguous_strides(shape), step.dtype
    if work == 0:  # nothing to compute: the (empty) output alone
        def run(values, stream):
            return empty(shape, strides, dtype=dtype, device=device)
        return run
    launcher, inputs, trusted = step.launcher, step.inputs, step.trusted
    grid0 = -(-work // step.block)
    grid = (grid0,)
    if all(trusted):
        def run(values, stream):
            out = empty(shape, strides, dtype=dtype, device=device)
            direct = launcher.direct
            if direct is None:  # the first launch (it compiles), or the interpreter
                launcher(grid, [values[s] for s in inputs] + [out], size_args)
                return out
            direct(grid0, stream, [values[s].data_ptr() for s in inputs] + [out.data_ptr()],
                   size_args)
            return out
        return run

    def run(values, stream):
        out = empty(shape, strides, dtype=dtype, device=device)
        args = [_input(values, s, ok) for s, ok in zip(inputs, trusted, strict=True)]
        direct = launcher.direct
        if direct is None:
            launcher(grid, args + [out], size_args)
            return out
        direct(grid0, stream, [t.data_ptr() for t in args] + [out.data_ptr()], size_args)
        return out
    return run


def _input(values: list, slot: int, trusted: bool):
    return values[slot] if trusted else dense(values[slot])
