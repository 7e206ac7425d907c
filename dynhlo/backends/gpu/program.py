"""GpuProgram: a planned module and its kernels' launchers, ready to run on the device.

Made by compile_module (plan + JIT launchers) or load_program (the plan read from an AOT
payload + cubin launchers); see the package doc. Values live on the device as torch
tensors at their actual sizes; plans of parameters, kernels and fast library steps take a
lean per-call path (launch/fastpath.py), the rest runs through launch/runner.py.
"""

from __future__ import annotations

import numpy as np
import torch

from ...errors import ArgumentError
from ...hlo.ir import HloModule
from ...shapes.dynamic import ComputationInfo
from .. import memory
from .aot import build_payload
from .graph.runner import GraphCaptureError
from .launch.fastpath import FastPlan
from .launch.runner import Runner, is_out_of_memory
from .plan.fusion import Plan, kernels_of
from .precision import HIGHEST
from .tensors import to_device, to_host

NAME = "gpu"


class GpuProgram:
    """A module ready to run on the GPU (or in Triton's interpreter).

    Attributes:
        backend: "gpu".
        target: the GPU architecture its kernels are for, e.g. "sm_90".
        kernels: the generated kernels (codegen.Kernel), one per fused group.
        precision: the `precision` compile option, "highest" or "default" (precision.py).
    """

    backend = NAME

    def __init__(self, module: HloModule, info: ComputationInfo, plan: Plan, launchers: dict,
                 device: torch.device, target: str, comm=None, precision: str = HIGHEST):
        """`plan` for `info` (the module's entry), `launchers[id(kernel)]` for every kernel
        of the plan, `device` where values live (the CPU in the interpreter), `comm` the
        backends.distributed.Communicator of a program compiled with distributed=True,
        `precision` the checked `precision` option."""
        self.module, self.info, self.plan = module, info, plan
        self.interpret = device.type == "cpu"
        self.target = target
        self.device = device
        # Tensor.get_device() of a tensor on self.device (-1: the CPU, in the interpreter).
        self.device_index = -1 if device.type == "cpu" else device.index
        self.kernels = kernels_of(plan)
        self.precision = precision
        self.runner = Runner(module, launchers, device, comm, precision)
        # The fast path runs library steps without the runner, so without its comm.
        self.fast = FastPlan.build(plan, launchers, device, precision) if comm is None \
            else None
        # The graph path (graph/): set by compile_module / load_program when taken.
        self.graph, self.graph_refusal = None, "off"

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
        beyond the device's memory is a ResourceExhaustedError (dynhlo.backends.memory).
        """
        graph = self.graph
        if graph is not None and self._on_device(args):
            try:
                result = graph.run(args, [a.shape for a in args])
                return result if graph.copies_results else _unshared(
                    result, args, self.runner.constants)
            except GraphCaptureError as exc:
                self._drop_graph(exc)
        fast = self.fast if not self.runner.sized(self.plan) else None
        if fast is not None and self._on_device(args):
            return _unshared(fast.run(args), args, self.runner.constants)
        _check_dense(self.module.entry.parameters, args)
        try:
            return self._run(args, fast)
        except RuntimeError as exc:  # the fast path's buffers, or the results' copies
            if not is_out_of_memory(exc):
                raise
            raise memory.too_big(None, None, None, str(self.device)) from None

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

    @property
    def while_limit(self) -> int | None:
        """Iterations a while loop may run (the max_while_iterations option); None: no limit."""
        return self.runner.while_limit

    @while_limit.setter
    def while_limit(self, limit: int | None) -> None:
        self.runner.while_limit = limit

    def _run(self, args: list, fast):
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
        graph = self.graph
        if graph is not None:  # results are copies out of the graph's buffers; copies
            # made for this call are never captured by address (each call makes new ones)
            try:
                result = graph.run(tensors, [t.shape for t in tensors], in_place=caller_owned)
                if not graph.copies_results:
                    result = _unshared(result, tensors, self.runner.constants)
                return _host_tree(result, self.module.entry.root.shape) if on_host else result
            except GraphCaptureError as exc:
                self._drop_graph(exc)
        if fast is not None:
            result = fast.run(tensors)
        else:
            result = self.runner.run(self.plan, tensors,
                                     args_shapes=[tuple(t.shape) for t in tensors])
        result = _unshared(result, tensors, self.runner.constants)
        if on_host:
            return _host_tree(result, self.module.entry.root.shape)
        return result

    def _drop_graph(self, exc: Exception) -> None:
        """A capture the driver refused: this program keeps the plain path from now on."""
        import warnings
        warnings.warn(f"dynhlo: the CUDA graph of {self.module.name} could not be captured "
                      f"({exc}); running it launch by launch", RuntimeWarning, stacklevel=4)
        self.graph, self.graph_refusal = None, f"capture failed: {exc}"

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
