"""GpuProgram: a planned module and its kernels' launchers, ready to run on the device.

Made by compile_module (plan + JIT launchers) or load_program (the plan read from an AOT
payload + cubin launchers); see the package doc. Values live on the device as torch
tensors at their actual sizes. The plan's launch list (plan/schedule.py) is run by one of
three runners, chosen once per program in GpuProgram._choose: graph (graph/), specialized
(launch/fastpath.py) or interpreted (launch/runner.py).
"""

from __future__ import annotations


import numpy as np
import torch

from ...errors import ArgumentError
from ...hlo.ir import HloModule
from ...shapes.dynamic import ComputationInfo
from ... import config
from ..common import memory
from . import graph
from .aot import build_payload
from .graph.runner import GraphCaptureError
from .launch.fastpath import FastPlan
from .launch.runner import Runner, is_out_of_memory
from .plan.fusion import kernels_of
from .plan.schedule import Schedule
from .precision import HIGHEST
from .tensors import to_device, to_host

NAME = "gpu"


class GpuProgram:
    """A module ready to run on the GPU (or in Triton's interpreter).

    Its launch list (plan/schedule.py) runs one of three ways, chosen once, here
    (`_choose`): by the graph runner (graph/: the whole list, or its maximal capturable
    runs, as CUDA graphs), by the specialized runner (launch/fastpath.py: every size an
    entry parameter's dimension) or by the interpreted runner (launch/runner.py: anything).

    Attributes:
        backend: "gpu".
        target: the GPU architecture its kernels are for, e.g. "sm_90".
        kernels: the generated kernels (codegen.Kernel), one per fused group.
        precision: the `precision` compile option, "highest" or "default" (precision.py).
        schedule: the entry's launch list; `plan` the fusion plan it was lowered from.
        mode: the runner chosen: "graph", "segments", "specialized" or "interpret".
        graph_refusal: why the graph runner was not taken ("off" when not asked for).
    """

    backend = NAME

    def __init__(self, module: HloModule, info: ComputationInfo, schedule: Schedule,
                 launchers: dict, device: torch.device, target: str, comm=None,
                 precision: str = HIGHEST, graph=None, stored=None):
        """`schedule` of `info` (the module's entry), `launchers[id(kernel)]` for every
        kernel of its plan, `device` where values live (the CPU in the interpreter), `comm`
        the backends.common.distributed.Communicator of a program compiled distributed=True,
        `precision` the checked `precision` option, `graph` the checked `graph` option,
        `stored` an artifact's graph (cubin key -> launcher, its GraphProgram) or None."""
        self.module, self.info, self.schedule = module, info, schedule
        self.plan = schedule.plan
        self.interpret = device.type == "cpu"
        self.target = target
        self.device = device
        # Tensor.get_device() of a tensor on self.device (-1: the CPU, in the interpreter).
        self.device_index = -1 if device.type == "cpu" else device.index
        self.kernels = kernels_of(self.plan)
        self.precision = precision
        self.runner = Runner(module, launchers, device, comm, precision)
        # The specialized runner runs library steps without the interpreted runner, so
        # without its comm; buffers at a bound beyond the device's memory are checked
        # item by item.
        self.fast = FastPlan.build(schedule, launchers, device, precision) \
            if comm is None and not self.runner.sized(self.plan) else None
        self.graph, self.graph_refusal = self._choose(graph, stored)

    # --- the one choice of a runner ---------------------------------------------------------

    def _choose(self, option, stored) -> tuple:
        """(graph runner or None, why not) and `self._call`, the runner every call takes.

        The graph runner when asked for (graph=True, DYNHLO_GPU_GRAPH=1, an artifact that
        stores a graph) or by default on a GPU, and graph.make finds the list capturable;
        never for a distributed program (collectives run on the host's schedule) or one
        whose buffers at the bound may exceed the device's memory (no static plan). Else
        the specialized runner where it applies, else the interpreted one."""
        if option is None:  # DYNHLO_GPU_GRAPH=1/0: as graph=True/False (tests run both ways)
            option = config.gpu_graph()
        runner, why = None, "off"
        if self.runner.comm is None and not self.runner.sized(self.plan) \
                and option is not False:
            if stored is not None:
                runner, why = graph.make(self, stored[0], force=True, prog=stored[1])
            elif option is True or (option is None and not self.interpret):
                runner, why = graph.make(self, force=option is True)
        self._pick(runner)
        return runner, why

    def _pick(self, runner) -> None:
        if runner is not None:
            self.mode = "segments" if isinstance(runner, graph.SegmentedRunner) else "graph"
            self._call = self._by_graph
        elif self.fast is not None:
            self.mode, self._call = "specialized", self._specialized
        else:
            self.mode, self._call = "interpret", self._interpreted

    def _by_graph(self, tensors: list, owned):
        graph_runner = self.graph
        try:
            result = graph_runner.run(tensors, [t.shape for t in tensors], in_place=owned)
        except GraphCaptureError as exc:
            self._drop_graph(exc)
            return self._call(tensors, owned)
        return result if graph_runner.copies_results else _unshared(
            result, tensors, self.runner.constants)

    def _specialized(self, tensors: list, owned):
        return _unshared(self.fast.run(tensors), tensors, self.runner.constants)

    def _interpreted(self, tensors: list, owned):
        result = self.runner.run(self.schedule, tensors,
                                 args_shapes=[tuple(t.shape) for t in tensors])
        return _unshared(result, tensors, self.runner.constants)

    def _drop_graph(self, exc: Exception) -> None:
        """A capture the driver refused: this program keeps its other runner from now on."""
        import warnings
        warnings.warn(f"dynhlo: the CUDA graph of {self.module.name} could not be captured "
                      f"({exc}); running it launch by launch", RuntimeWarning, stacklevel=5)
        self.graph, self.graph_refusal = None, f"capture failed: {exc}"
        self._pick(None)

    # --- a call -----------------------------------------------------------------------------

    @property
    def padding_reads(self) -> str:
        """The padding_reads compile option the plan was made with (plan/fusion.py)."""
        return self.plan.padding_reads

    def run(self, args: list):
        """Run on NumPy arrays or torch tensors of actual shapes (already checked).

        Returns NumPy arrays when every argument is a NumPy array, else torch tensors on the
        device (a tuple for a tuple root). Torch tensors and other DLPack arrays stay on the
        device: no host round trip. A tensor without dense data (meta, sparse) is an
        ArgumentError naming its parameter, checked before anything runs: on a real device
        a kernel given its pointer would read memory that is not the tensor's. An array
        beyond the device's memory is a ResourceExhaustedError (dynhlo.backends.common.memory).
        """
        try:
            if self._on_device(args):   # the common call: straight to the chosen runner
                return self._call(args, True)
            _check_dense(self.module.entry.parameters, args)
            tensors, owned, on_host = self._tensors(args)
            result = self._call(tensors, owned)
        except RuntimeError as exc:  # the specialized runner's buffers, or results' copies
            if not is_out_of_memory(exc):
                raise
            raise memory.too_big(None, None, None, str(self.device)) from None
        return _host_tree(result, self.module.entry.root.shape) if on_host else result

    def _on_device(self, args: list) -> bool:
        """The common call: every argument a plain strided tensor already on this device.
        A call without arguments is not one: no tensor came in, so NumPy goes out, as from
        any call without tensors."""
        if not args:
            return False
        index = self.device_index
        for a in args:
            if a.__class__ is not torch.Tensor or a.get_device() != index \
                    or a.layout is not _STRIDED or a.is_meta:
                return False
        return True

    def _tensors(self, args: list) -> tuple[list, list, bool]:
        """(tensors on the device, per argument whether the caller owns it, whether every
        argument came from the host). Copies made for this call are never captured by a
        graph by address (each call makes new ones)."""
        on_host = True
        tensors, caller_owned = [], []
        for a, p in zip(args, self.module.entry.parameters, strict=True):
            if not isinstance(a, (torch.Tensor, np.ndarray, np.generic)) and hasattr(
                    a, "__dlpack__"):
                a = torch.from_dlpack(a)  # CuPy, JAX, ...: shared, not copied
            owned = isinstance(a, torch.Tensor)
            if owned:
                on_host = False
                if a.get_device() != self.device_index:
                    a, owned = a.to(self.device), False
            else:
                a = to_device(a, self.device, p.shape.element_type)
            tensors.append(a)
            caller_owned.append(owned)
        return tensors, caller_owned, on_host

    @property
    def while_limit(self) -> int | None:
        """Iterations a while loop may run (the max_while_iterations option); None: no limit."""
        return self.runner.while_limit

    @while_limit.setter
    def while_limit(self, limit: int | None) -> None:
        self.runner.while_limit = limit

    def to_payload(self) -> dict[str, bytes]:
        """Cubins of every kernel compiled for `target`, plus the plan and kernel metadata as
        JSON (no pickle): what load_program needs to run without planning or codegen."""
        return build_payload(self.plan, self.kernels, self.target, self.precision)


_STRIDED = torch.strided


def _check_dense(params, args: list) -> None:
    """ArgumentError for the first tensor argument that has no strided data to read."""
    for param, arg in zip(params, args, strict=True):
        if isinstance(arg, torch.Tensor) and (arg.is_meta or arg.layout is not torch.strided):
            kind = "a meta" if arg.is_meta else f"a {str(arg.layout).removeprefix('torch.')}"
            raise ArgumentError(f"parameter {param.parameter_number} '{param.name}' is {kind} "
                                "tensor, which has no dense data; pass a strided tensor with "
                                "data (e.g. .to_dense())", param.parameter_number,
                                param.name) from None


def _unshared(result, args: list, constants: dict):
    """The result with every array that shares storage with an argument, a cached constant
    or an earlier output copied: a root that is a parameter, a view of one, or a constant
    would otherwise hand the caller memory that writing to corrupts its own arguments or the
    module's next run (the README's contract: results are new arrays)."""
    taken = {t.untyped_storage().data_ptr() for t in args}
    taken.update(c.untyped_storage().data_ptr() for c in constants.values())
    return _unshared_tree(result, taken)


def _unshared_tree(value, taken: set):
    if isinstance(value, tuple):
        return tuple(_unshared_tree(v, taken) for v in value)
    ptr = value.untyped_storage().data_ptr()
    if ptr in taken:
        return value.clone()
    taken.add(ptr)
    return value


def _host_tree(value, shape):
    if shape.is_tuple:
        return tuple(_host_tree(v, s) for v, s in zip(value, shape.elements, strict=True))
    return np.asarray(to_host(value, shape.element_type))
