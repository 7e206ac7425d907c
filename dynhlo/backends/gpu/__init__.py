"""The GPU backend: generated Triton kernels whose work follows the actual sizes.

compile_module(module, info, options) takes GPU_PIPELINE's output (dynhlo/compiler.py runs
it: XLA's fusion/call/async wrappers inlined), plans it (plan/fusion.py: which instructions
share a generated kernel), generates one Triton kernel per fused group (kernels/) and
returns a GpuProgram (program.py). Where each opcode runs is one table, rules.py: a fused
kernel, else a torch call on the device (library/<family>.py), else the CPU backend's
lowering on host copies (counted in dynhlo.stats as `gpu_host_fallback`). Values live on
the device as torch tensors at their actual sizes; each kernel gets the dynamic sizes as
scalar arguments and a grid computed from them, so one compiled kernel serves every size up
to the bound and the work done follows the actual size.

Layout, bottom to top (each imports only those before it):
    mode.py      interpreter or GPU (set before triton is imported), compile counting
    kernels/     HLO group -> Triton source text (no torch): codegen, emitters, kmath
    compile/     the kernel -> cubin service, below every runner: kernel source to a
                 @triton.jit function (source.py), compile specs, cache keys, the one disk
                 cache of cubins, parallel compiler children or this process (cubins.py),
                 the child itself (worker.py: imports Triton and source.py, not this package)
    tensors.py   element types as torch dtypes, arrays to and from the device
    precision.py the `precision` option: which f32 products may use TF32 (XLA's GPU rule)
    library/     torch ops per family (elementwise, data, reduce, indexing, sort, linalg,
                 numeric, window, collective) and scalar computations on tensors (apply)
    rules.py     THE per-opcode rule table (tiers: kernel, library, host)
    plan/        fusion and planning; the plan as data for artifacts (plan/data.py),
                 checked against its module on load (plan/check.py); THE launch list
                 every runner reads (plan/schedule.py: the plan lowered once)
    launch/      the one launcher (launcher.py: Triton's JIT or a cubin, `direct` once
                 compiled), the interpreted runner (runner.py), the specialized runner
                 (fastpath.py)
    graph/       the graph runner: the whole module as one CUDA graph replayed at every size
                 (strided kernels reading sizes from a device buffer, Triton matmuls with
                 fused epilogues, a static buffer plan)
    aot.py       artifacts: a payload of the kernels' cubins built; one read back
    program.py   GpuProgram: chooses its runner (graph, specialized, interpreted) once

Options (names and checks: dynhlo/options.py; the compile driver checks them once and this
backend reads a CompileOptions):
    interpret: run kernels in Triton's interpreter on CPU tensors; asked for explicitly (this
        is how CI, with no GPU, tests the generated kernels). Default: the CUDA device; with
        none, an UnsupportedError saying how to ask for the interpreter, except for a named
        `target` (a cross-compile, which needs no GPU).
    fast_launch: on the GPU, compile each kernel to a cubin on its first launch and launch
        it through the CUDA driver, one call per launch (default True); False keeps
        Triton's own JIT dispatch on every launch (both: launch/launcher.py).
    target: the GPU target, e.g. "sm_90" (default: the present device's, else sm_90).
    graph: run the whole module as one CUDA graph replayed at every size (graph/;
        default: on with a GPU when the module allows it and has at least
        graph.MIN_LAUNCHES launches, off in the interpreter; True takes it wherever the
        module allows it, and runs a module with steps a graph cannot hold (loops, sorts,
        sizes read from values) as captured segments between them; an unset option
        follows DYNHLO_GPU_GRAPH=1/0 when set).
    precision: "highest" (default: every f32 dot and convolution in IEEE f32) or "default"
        (TF32 where the module's operand_precision / algorithm allows it, as XLA on GPU);
        decided per instruction (precision.py). Kept in AOT payloads.
    padding_reads: "zeros" (default: a read past an actual size within the bound reads
        zeros; a slice's in a kernel as a load masked by the operand's actual sizes) or
        "error" (such a read is a DynamicSizeError; those slices stay library steps, which
        check on the host). Kept in the plan (plan/fusion.py), so in AOT payloads.

AOT: GpuProgram.to_payload() cross-compiles every kernel for the target (no GPU needed) and
returns the cubins with the plan (the one program description: a graph module's graph program
is built from it on load) and metadata as JSON; load_program(module, info, payload, target)
launches them with zero compilations, planning nothing and generating no kernel source. A
target mismatch is an ArtifactError.
"""

from __future__ import annotations

import os

import torch

from . import mode  # first: picks interpreter mode before triton is imported
from ...errors import ArtifactError, UnsupportedError
from ...hlo.ir import HloModule
from ...hlo.opcodes import Opcode
from ...hlo.shape import leaf_shapes
from ...shapes.dynamic import ComputationInfo
from ...shapes.sizes import bound_of
from ...passes import inline_calls
from ...passes.pipelines import GPU_PIPELINE
from ...options import CompileOptions
from .. import OpSupport, no_sync
from ..cpu import check_supported
from ..cpu import support as cpu_support
from ..common.distributed import Communicator
from . import aot, rules, tensors
from .compile.cubins import parse_target
from .graph import summary
from .launch.launcher import kernel_launchers
from .plan.fusion import kernels_of, plan_computation
from .plan.schedule import lower
from .program import NAME, GpuProgram
from .tensors import torch_dtype


def _device_target() -> str:
    if mode.cuda_present():
        major, minor = torch.cuda.get_device_capability()
        return f"sm_{major}{minor}"
    return "sm_90"


def _device(interpret: bool) -> torch.device:
    device = mode.default_device(interpret)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    return device


NO_DEVICE = ("backend='gpu' needs a CUDA device, and this machine has none "
             "(torch.cuda.is_available() is False). To run the generated kernels in Triton's "
             "interpreter on the CPU (slow: for tests), ask for it with "
             "dynhlo.compile(..., backend='gpu', interpret=True) or `--interpret` on the "
             "command line; to cross-compile an artifact for a GPU elsewhere, name its target "
             "(target='sm_90', `--target sm_90`)")


def _default_interpret(target: str | None) -> bool:
    """No CUDA device: the interpreter only for a cross-compile (a named target: the
    artifact's cubins are built for it, the program here is never meant to run fast);
    anything else is an UnsupportedError that says how to ask for the interpreter."""
    if mode.cuda_present():
        return False
    if target is None:
        raise UnsupportedError(NO_DEVICE)
    return True


def _launchers(kernels: list, interpret: bool, fast: bool) -> dict:
    """{id(kernel): Launcher} (launch/launcher.py's kernel_launchers): on the GPU each
    kernel compiled to a cubin for this device on its first launch, loaded and launched on
    the current device (the program's, _device)."""
    if interpret or not fast:
        return kernel_launchers(kernels, interpret, fast)
    return kernel_launchers(kernels, False, True, parse_target(_device_target()),
                            torch.cuda.current_device())


def _check_element_types(module: HloModule) -> None:
    """UnsupportedError, naming the instruction, for an element type torch cannot hold (s4,
    the fnuz float8s, ...): found at compile time, not as a raw TypeError mid-run."""
    for inst in module.instructions():
        for leaf in leaf_shapes(inst.shape):
            if leaf.element_type != "token":
                try:
                    torch_dtype(leaf.element_type)
                except UnsupportedError as e:
                    raise UnsupportedError(f"instruction '{inst.name}': {e}") from None


def compile_module(module: HloModule, info: ComputationInfo,
                   options: CompileOptions) -> GpuProgram:
    """Plan and generate the kernels of a module for the GPU backend (see module doc), by
    `options` (checked by the compile driver: dynhlo/options.py; the CPU's `reference` is
    not the GPU's business)."""
    mode.install_compile_counter()
    distributed = bool(options.distributed)
    check_supported(module, distributed)
    _check_element_types(module)
    interpret = options.interpret
    if interpret is None:
        interpret = _default_interpret(options.target)
    if not interpret and not mode.cuda_present():
        raise UnsupportedError(NO_DEVICE)
    if interpret != mode.interpreter_active():
        raise UnsupportedError(
            f"interpret={interpret} but Triton was imported with TRITON_INTERPRET="
            f"{os.environ.get('TRITON_INTERPRET')!r}; set TRITON_INTERPRET=1 before "
            "importing triton to run kernels in the interpreter")
    plan = plan_computation(info, options.padding_reads)
    launchers = _launchers(kernels_of(plan), interpret, options.fast_launch is not False)
    # distributed: collectives through torch.distributed on this process's device (NCCL).
    comm = Communicator(module) if distributed else None
    return GpuProgram(module, info, lower(plan), launchers, _device(interpret),
                      options.target or _device_target(), comm, options.precision,
                      graph=options.graph)


def load_program(module: HloModule, info: ComputationInfo, payload: dict[str, bytes],
                 target: str) -> GpuProgram:
    """A GpuProgram whose kernels are the payload's cubins: launching compiles nothing,
    and loading plans nothing and generates no kernel source (the plan is payload data).

    Raises:
        ArtifactError: the payload is for another target or format, or does not match the
            module.
        UnsupportedError: no CUDA device.
    """
    check_supported(module)
    _check_element_types(module)
    schedule, launchers, stored, precision = aot.load_payload(payload, info, target, module)
    return GpuProgram(module, info, schedule, launchers, _device(False), target,
                      precision=precision, stored=stored)


def support() -> OpSupport:
    """How the GPU runs each opcode: its rule table's first tier (rules.py: "kernel",
    "library", "plan"), "inlined" for what the GPU pass pipeline removes before planning
    (passes/inline_calls.py), else "host" (the CPU lowering on host copies) where the CPU
    runs it; the custom-call targets of its library tier; why an opcode runs on the host
    (rules.HOST), and what its rules leave on the host (their notes). The one-device forms
    are the CPU's (check_supported is the CPU's)."""
    cpu = cpu_support()
    inlined = inline_calls.INLINED if any(step.run is inline_calls.inline_calls
                                          for step in GPU_PIPELINE) else frozenset()
    how = {}
    for op in Opcode:
        tier = rules.how(op)
        if tier in ("kernel", "library"):
            how[op] = tier
        elif op in inlined:
            how[op] = "inlined"
        elif tier == "plan":
            how[op] = tier
        elif op in cpu.how:
            how[op] = "host"
    return OpSupport(how, frozenset(rules.CUSTOM_CALLS), cpu.single_device, dict(rules.HOST),
                     {op: rule.note for op, rule in rules.RULES.items() if rule.note})


def describe(program: GpuProgram) -> str:
    """The program's CUDA graph (launches, distinct kernels, buffers) or the instruction that
    keeps it on the plain path, then the segments graph=True would capture (graph.summary)."""
    return summary(program)


def to_device(program: GpuProgram, arrays: list) -> tuple[list, object]:
    """(tensors on the program's CUDA device, torch.cuda.synchronize); in the interpreter the
    arrays as they are and nothing to wait for. Element types are the entry parameters'."""
    if program.interpret:
        return list(arrays), no_sync
    params = program.module.entry.parameters
    return ([tensors.to_device(a, program.device, p.shape.element_type)
             for a, p in zip(arrays, params, strict=True)], torch.cuda.synchronize)


__all__ = ["NAME", "GpuProgram", "compile_module", "describe", "load_program", "support",
           "to_device", "ArtifactError"]
