"""Running a plan: values are torch tensors at their actual sizes, kernels launched on them.

Each step's result is checked against the sizes inference says it has (as the CPU backend
does), so sizes that must agree and do not are a DynamicSizeError naming the instruction;
where XLA lets them differ (an elementwise op: a size of 1 broadcasts, else the smaller
wins) the runner follows XLA, as the CPU backend does. Sizes are evaluated in a SizeEnv from the arguments' shapes; only a
data-dependent size (set-dimension-size, a loop result) reads a device value, and only then
does the host wait for the device.
"""

from __future__ import annotations

import math

import torch

from ....errors import DynamicSizeError
from ....shapes.dynamic import Inference
from ....shapes.rules_control_flow import BODY, CONDITION
from ....shapes.sizes import SizeEnv
from ....shapes.trees import check_sizes
from ....stats import count
from ...common import memory
from ...cpu import evaluator as cpu_eval
from ...cpu.lowering import LOWERINGS as CPU_LOWERINGS
from ...common.limits import count_iteration
from ..rules import library_for
from ..tensors import to_device, to_host, torch_dtype


class StepContext:
    """What a library lowering may ask while it runs one instruction."""

    __slots__ = ("runner", "info", "env", "inst", "device", "constants", "precision",
                 "padding_reads")

    def __init__(self, runner, info, env, device, constants, padding_reads: str = "zeros"):
        self.runner, self.info, self.env = runner, info, env
        self.device, self.constants = device, constants
        self.precision = runner.precision  # the compile option (gpu/precision.py)
        self.padding_reads = padding_reads  # the compile option, the plan's (plan/fusion.py)
        self.inst = None

    def out_shape(self, inst=None) -> tuple[int, ...]:
        return self.env.sizes(self.info.dims[inst or self.inst])

    def error(self, message: str) -> DynamicSizeError:
        return DynamicSizeError(f"instruction '{self.inst.name}': {message}")


class Runner:
    """The interpreted runner: runs Schedules (plan/schedule.py) item by item;
    `launchers[id(kernel)]` launches one generated kernel."""

    def __init__(self, module, launchers: dict, device: torch.device, comm=None,
                 precision: str = "highest"):
        self.launchers = launchers
        self.precision = precision
        self.comm = comm  # backends.distributed.Communicator when compiled distributed=True
        self.device = device
        self.constants: dict = {}
        self.cpu = cpu_eval.Evaluator(Inference(module))
        self.memory_limit = device_memory(device)
        self._sized: dict[int, frozenset] = {}  # per plan: results sized before running

    @property
    def while_limit(self) -> int | None:
        """max_while_iterations (None: no limit); loops on the host share it."""
        return self.cpu.while_limit

    @while_limit.setter
    def while_limit(self, limit: int | None) -> None:
        self.cpu.while_limit = limit

    def sized(self, plan) -> frozenset:
        """The instructions of `plan` whose bound could exceed the device's memory."""
        found = self._sized.get(id(plan))
        if found is None:
            found = self._sized[id(plan)] = memory.to_size(
                plan.info.computation, self.memory_limit, frozenset(plan.kernels))
        return found

    def run(self, schedule, args: list, parent: SizeEnv | None = None, args_shapes=None):
        """The root value of a Schedule (plan/schedule.py) run item by item on `args`."""
        values: dict = {}
        # XLA's broadcast-or-smaller rule (algebra.meet) holds here too: instructions
        # where different sizes meet run as library or host steps (plan/fusion.py)
        env = SizeEnv(args_shapes, values.__getitem__, parent, xla_rules=True)
        self.run_steps(schedule.plan, schedule.items, args, values, env)
        return values[schedule.plan.info.computation.root]

    def run_steps(self, plan, items, args: list, values: dict, env: SizeEnv) -> None:
        """Run `items` (some of the Schedule of `plan`, in order) into `values`
        (instruction -> value, holding what they read); `env` evaluates sizes over
        `values`. The graph path's segmented walk (graph/walk.py) runs its host items
        through here."""
        ctx = None
        dims = plan.info.dims
        sized = self.sized(plan)
        inst = None
        try:
            for item in items:
                inst, kind = item.inst, item.kind
                if inst in sized:
                    memory.check_fits(inst, env.sizes(dims[inst]), self.memory_limit,
                                      str(self.device))
                if kind == "kernel":  # allocated at the sizes inference gives: no check
                    values[inst] = self._launch(item.kernel, dims, values, env)
                    continue
                if kind == "param":
                    value = args[inst.parameter_number]
                elif kind == "call":
                    value = self.run(item.calls[0], [values[o] for o in inst.operands], env)
                elif kind == "while":
                    value = self._while(inst, item.calls, values[inst.operands[0]], env)
                elif kind == "conditional":
                    value = self._conditional(inst, item.calls, values, env)
                else:
                    if ctx is None:
                        ctx = StepContext(self, plan.info, env, self.device, self.constants,
                                          plan.padding_reads)
                    ctx.inst = inst
                    value = self._library(ctx, inst, [values[o] for o in inst.operands])
                values[inst] = value
                check_sizes(env, inst, value, dims[inst])
        except RuntimeError as exc:  # live buffers together: what no single size foretold
            if not is_out_of_memory(exc):
                raise
            raise memory.too_big(inst, None, None, str(self.device)) from None

    def _while(self, inst, plans, state, env):
        """XLA While: the body's schedule runs while the condition's gives true."""
        cond, body = plans[CONDITION], plans[BODY]
        limit, done = self.while_limit, 0
        while _scalar(inst, self.run(cond, [state], env), "condition"):
            done = count_iteration(inst, done, limit)
            state = self.run(body, [state], env)
        return state

    def _conditional(self, inst, plans, values, env):
        """XLA Conditional: pred true -> branch 0, false -> 1; an index out of range -> last."""
        selector = values[inst.operands[0]]
        if selector.dtype == torch.bool:
            k = 0 if _scalar(inst, selector, "selector") else 1
        else:
            k = int(_scalar(inst, selector, "selector"))
            k = k if 0 <= k < len(plans) else len(plans) - 1
        return self.run(plans[k], [values[inst.operands[k + 1]]], env)

    def _launch(self, kernel, dims, values, env):
        group = kernel.group
        root = group.root
        out = torch.empty(env.sizes(dims[root]), device=self.device,
                          dtype=torch_dtype(root.shape.element_type))
        if kernel.kind == "row":
            work = math.prod(env.sizes(kernel.grid_dims))
        else:
            work = out.numel()
        if work == 0:
            return out
        args = [dense(values[i]) for i in group.inputs]
        args.append(out)
        sizes = [env.size(s) for s in kernel.size_syms]
        self.launchers[id(kernel)]((-(-work // kernel.grid_block),), args, sizes)
        return out

    def _library(self, ctx, inst, args):
        """Tier 2 of the rule table (rules.py), else tier 3 (the host)."""
        fn = library_for(inst)
        if fn is not None:
            try:
                result = fn(ctx, inst, args)
            except NotImplementedError:
                # torch has no kernel for an element type (u16/u32/u64 cummax, maximum,
                # index_put, scatter_add ...): raised at dispatch, before anything is written
                result = NotImplemented
            if result is not NotImplemented:  # NotImplemented: a case it does not cover
                return result
        return self._host(ctx, inst, args)

    def _host(self, ctx, inst, args):
        """The CPU backend's lowering on host copies: exact, slow; for rare opcodes."""
        count("gpu_host_fallback")
        cpu_ctx = cpu_eval.EvalContext(self.cpu, ctx.info, ctx.env, False)
        cpu_ctx.inst = inst
        host_args = [_to_host_tree(a, o.shape) for a, o in zip(args, inst.operands, strict=True)]
        result = CPU_LOWERINGS[inst.opcode](cpu_ctx, inst, host_args)
        return _to_device_tree(result, inst.shape, self.device)


def is_out_of_memory(exc: BaseException) -> bool:
    """torch's allocator failing: CUDA's OutOfMemoryError, or the CPU allocator's
    RuntimeError (the interpreter's tensors)."""
    return isinstance(exc, torch.OutOfMemoryError) or (
        isinstance(exc, RuntimeError) and "can't allocate memory" in str(exc))


def device_memory(device: torch.device) -> int:
    """Bytes one array may take on `device`: the GPU's memory, or the host's for CPU tensors."""
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).total_memory
    return memory.host_memory()


def _scalar(inst, value: torch.Tensor, what: str):
    """The one value of a predicate or selector, read back from the device."""
    if value.numel() != 1:
        raise DynamicSizeError(f"instruction '{inst.name}': the {what} gave {value.numel()} "
                               "values where one was expected")
    return value.reshape(()).item()


def dense(tensor: torch.Tensor) -> torch.Tensor:
    """Kernels index inputs as contiguous row-major arrays at 16-byte-aligned addresses."""
    if tensor.is_contiguous() and tensor.data_ptr() % 16 == 0:
        return tensor
    return tensor.clone(memory_format=torch.contiguous_format)


def _to_host_tree(value, shape):
    if shape.is_tuple:
        return tuple(_to_host_tree(v, s) for v, s in zip(value, shape.elements, strict=True))
    return to_host(value, shape.element_type)


def _to_device_tree(value, shape, device):
    if shape.is_tuple:
        return tuple(_to_device_tree(v, s, device) for v, s in zip(value, shape.elements,
                                                                   strict=True))
    return to_device(value, device, shape.element_type)
