"""The GPU backend: generated Triton kernels whose work follows the actual sizes.

compile_module(module, info, **options) takes GPU_PIPELINE's output (dynhlo/compiler.py runs
it: XLA's fusion/call/async wrappers inlined), plans it (fusion.py), generates one Triton
kernel per fused group (codegen.py) and returns a GpuProgram. Values live on the device as
torch tensors at their actual sizes; each kernel gets the dynamic sizes as scalar
arguments and a grid computed from them, so one compiled kernel serves every size up to the
bound and the work done follows the actual size. dot runs through cuBLAS (torch.matmul);
sort, fft, cholesky and triangular-solve through torch (ops_torch.py); opcodes without a
kernel or torch lowering run through the CPU backend on host copies (counted in stats as
`gpu_host_fallback`). Plans of parameters, kernels and dots take a lean per-call path
(fastpath.py); the rest runs through program.Runner.

Files: fusion.py (grouping), codegen.py (Triton source), lowering.py (tables) with
ops_elementwise.py / ops_data.py (fused lowerings) and ops_library.py / ops_torch.py (torch
lowerings), kmath.py (math helpers: libdevice on the GPU, plain tl in the interpreter),
launcher.py (tensors, kernel loading and launching, compile counting), program.py and
fastpath.py (running; fastpath.py caches per-shape launch plans), aot.py (cubins in and out).

Options:
    interpret: run kernels in Triton's interpreter on CPU tensors (default: when no CUDA
        device is present). This is how CI (no GPU) tests the generated kernels.
    fast_launch: after a kernel's first launch, call the compiled kernel directly
        (default True; see JitLauncher).
    graph: run the whole module as one CUDA graph replayed at every size (graph/;
        default: on with a GPU when the module allows it, off in the interpreter;
        DYNHLO_GPU_GRAPH=0/1 changes the default).
    target: the GPU target, e.g. "sm_90" (default: the present device's, else sm_90).

AOT: GpuProgram.to_payload() cross-compiles every kernel for the target (no GPU needed) and
returns the cubins with JSON metadata; load_program(module, info, payload, target) launches
them with zero compilations. A target mismatch is an ArtifactError.
"""

from __future__ import annotations

import os

import numpy as np
import torch

from ...errors import ArgumentError, ArtifactError, UnsupportedError
from ...hlo.ir import HloModule
from ...shapes.dynamic import ComputationInfo
from ..cpu import check_supported
from . import ops_data, ops_elementwise, ops_library, ops_torch  # noqa: F401  (fill the tables)
from . import (ops_torch_collective, ops_torch_conv, ops_torch_data,  # noqa: F401
               ops_torch_elementwise, ops_torch_generic, ops_torch_index,
               ops_torch_numeric, ops_torch_sort, ops_torch_window)
from .fastpath import FastPlan
from .graph.runner import GraphCaptureError
from .fusion import kernels_of, plan_computation
from .launcher import (JitLauncher, cuda_present, default_device, install_compile_counter,
                       interpreter_active, to_device, to_host)
from .program import Runner

NAME = "gpu"


def _device_target() -> str:
    if cuda_present():
        major, minor = torch.cuda.get_device_capability()
        return f"sm_{major}{minor}"
    return "sm_90"


class GpuProgram:
    """A module ready to run on the GPU (or in Triton's interpreter).

    Attributes:
        backend: "gpu".
        target: the GPU architecture its kernels are for, e.g. "sm_90".
        kernels: the generated kernels (codegen.Kernel), one per fused group.
    """

    backend = NAME

    def __init__(self, module: HloModule, info: ComputationInfo, interpret: bool | None = None,
                 target: str | None = None, launchers: dict | None = None,
                 fast_launch: bool = True, graph: bool | None = None):
        check_supported(module)
        jit = launchers is None  # AOT programs bring cubin launchers (no graph kernels yet)
        if interpret is None:
            interpret = not cuda_present()
        if not interpret and not cuda_present():
            raise UnsupportedError("backend='gpu' needs a CUDA device (or interpret=True)")
        if interpret != interpreter_active():
            raise UnsupportedError(
                f"interpret={interpret} but Triton was imported with TRITON_INTERPRET="
                f"{os.environ.get('TRITON_INTERPRET')!r}; set TRITON_INTERPRET=1 before "
                "importing triton to run kernels in the interpreter")
        self.module, self.info, self.interpret = module, info, interpret
        self.target = target or _device_target()
        self.device = default_device(interpret)
        if self.device.type == "cuda" and self.device.index is None:
            self.device = torch.device("cuda", torch.cuda.current_device())
        # Tensor.get_device() of a tensor on self.device (-1: the CPU, in the interpreter).
        self.device_index = -1 if self.device.type == "cpu" else self.device.index
        self.plan = plan_computation(info, interpret)
        self.kernels = kernels_of(self.plan)
        if launchers is None:
            launchers = {id(k): JitLauncher(k, interpret, fast_launch) for k in self.kernels}
        self.runner = Runner(module, launchers, self.device)
        self.fast = FastPlan.build(self.plan, launchers, self.device) if all(
            id(k) in launchers for k in self.kernels) else None
        self.graph, self.graph_refusal = None, "off"
        if _graph_wanted(graph, interpret) and jit:
            from .graph import make
            self.graph, self.graph_refusal = make(self, force=graph is True)
        if not interpret:
            torch.backends.cuda.matmul.allow_tf32 = False  # f32 stays f32
            torch.backends.cudnn.allow_tf32 = False

    def run(self, args: list):
        """Run on NumPy arrays or torch tensors of actual shapes (already checked).

        Returns NumPy arrays when every argument is a NumPy array, else torch tensors on the
        device (a tuple for a tuple root). Torch tensors and other DLPack arrays stay on the
        device: no host round trip. A tensor without dense data (meta, sparse) is an
        ArgumentError naming its parameter.
        """
        try:
            return self._run(args)
        except (RuntimeError, NotImplementedError):  # diagnosed only when a call fails
            _check_dense(self.module.entry.parameters, args)
            raise

    def _run(self, args: list):
        graph = self.graph
        if graph is not None:
            index = self.device_index
            for a in args:
                if a.__class__ is not torch.Tensor or a.get_device() != index:
                    break
            else:
                try:
                    return graph.run(args, [a.shape for a in args])
                except GraphCaptureError as exc:
                    self._drop_graph(exc)
                    graph = None
        fast = self.fast
        if fast is not None:
            # The common call: every argument a plain tensor already on this device.
            index = self.device_index
            for a in args:
                if a.__class__ is not torch.Tensor or a.get_device() != index:
                    break
            else:
                return _unshared(fast.run(args), args, self.runner.constants)
        on_host = True
        tensors, caller_owned = [], []
        for a, p in zip(args, self.module.entry.parameters):
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
        if graph is not None:  # results are copies out of the graph's buffers; copies
            # made for this call are never captured by address (each call makes new ones)
            try:
                result = graph.run(tensors, [t.shape for t in tensors], in_place=caller_owned)
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
        """Cubins of every kernel compiled for `target`, plus JSON metadata (no pickle)."""
        from .aot import build_payload
        return build_payload(self)


def _graph_wanted(option: bool | None, interpret: bool) -> bool:
    """The `graph` option; by default on with a GPU, off in the interpreter, and
    DYNHLO_GPU_GRAPH=0/1 overrides the default (tests run the suite both ways)."""
    if option is not None:
        return bool(option)
    env = os.environ.get("DYNHLO_GPU_GRAPH")
    if env in ("0", "1"):
        return env == "1"
    return not interpret


def _check_dense(params, args: list) -> None:
    """ArgumentError for the first tensor argument that has no strided data to read."""
    for param, arg in zip(params, args):
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
        return tuple(_host_tree(v, s) for v, s in zip(value, shape.elements))
    return np.asarray(to_host(value, shape.element_type))


def compile_module(module: HloModule, info: ComputationInfo, **options) -> GpuProgram:
    """Plan and generate the kernels of a module for the GPU backend (see module doc)."""
    install_compile_counter()
    unknown = set(options) - {"interpret", "target", "backend", "fast_launch", "graph"}
    if unknown:
        raise UnsupportedError(f"unknown gpu backend option(s): {', '.join(sorted(unknown))}")
    return GpuProgram(module, info, interpret=options.get("interpret"),
                      target=options.get("target"),
                      fast_launch=options.get("fast_launch", True),
                      graph=options.get("graph"))


def load_program(module: HloModule, info: ComputationInfo, payload: dict[str, bytes],
                 target: str) -> GpuProgram:
    """A GpuProgram whose kernels are the payload's cubins: launching compiles nothing.

    Raises:
        ArtifactError: the payload is for another target or does not match the module.
    """
    from .aot import load_payload
    return load_payload(module, info, payload, target)


__all__ = ["GpuProgram", "compile_module", "load_program", "ArtifactError"]
