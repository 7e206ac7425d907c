"""AOT for the GPU: cross-compile every kernel to a cubin, carry it, launch it without Triton.

build_payload(program) compiles each generated kernel for the program's target with
`triton.compile(ASTSource(...), target=GPUTarget("cuda", cc, 32))`, which needs no GPU. The
signature is fixed: pointers (assumed 16-byte aligned; the launcher copies an unaligned
input), sizes as i32 with no value specialization, so one cubin serves every size. When
this process runs Triton's interpreter, compilation happens in an isolated child process
with it off (Triton's own library kernels are decorated at import in one mode or the
other); the child imports exactly this process's dynhlo (see _child_command).

The payload: "gpu_program.json" (format version, target, per kernel: source hash, entry
name, block, warps, shared memory, scratch sizes, signature) and "kernel_<i>.cubin".
load_payload re-plans the module (deterministic, no compilation), checks every kernel's
source hash against the payload, and launches the cubins through CuPy's driver wrappers
(block = 32 x warps, the two trailing scratch pointers Triton 3.x appends passed as null).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import sys
from pathlib import Path

import numpy as np

from ...errors import ArtifactError, UnsupportedError

FORMAT = 2  # 2026-11-30: 1, a cubin per kernel; 2026-12-01: 2, each distinct cubin once
#             (kernels name theirs by key), and the graph path's kernels
_PTR = {"pred": "*i1", "s8": "*i8", "s16": "*i16", "s32": "*i32", "s64": "*i64",
        "u8": "*u8", "u16": "*u16", "u32": "*u32", "u64": "*u64", "f16": "*fp16",
        "bf16": "*bf16", "f32": "*fp32", "f64": "*fp64", "f8e4m3fn": "*fp8e4nv",
        "f8e5m2": "*fp8e5"}


def signature(kernel) -> tuple[dict, dict, list]:
    """(signature, constexprs, pointer arg names) for triton.compile."""
    group = kernel.group
    sig, pointers = {}, []
    for k, inst in enumerate(group.inputs):
        sig[f"in{k}"] = _PTR[inst.shape.element_type]
        pointers.append(f"in{k}")
    sig["out"] = _PTR[group.root.shape.element_type]
    pointers.append("out")
    for k in range(len(kernel.size_syms)):
        sig[f"s{k}"] = "i32"
    for name in kernel.block:
        sig[name] = "constexpr"
    return sig, dict(kernel.block), pointers


def _spec(kernel) -> dict:
    sig, consts, pointers = signature(kernel)
    return {"source": kernel.source, "signature": sig, "constexprs": consts,
            "pointers": pointers, "num_warps": kernel.num_warps}


def parse_target(target: str) -> int:
    if not (target.startswith("sm_") and target[3:].isdigit()):
        raise ArtifactError(f"GPU target '{target}' is not of the form sm_XY (e.g. sm_90)")
    return int(target[3:])


def _failure_summary(stderr: str) -> str:
    """The line of a compiler subprocess's stderr that says why: a `fatal` line (ptxas names
    the bad option there), else the last non-empty one (the exception), for the one line
    the CLI prints."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    fatal = [line for line in lines if "fatal" in line]
    return (fatal or lines or ["no error output"])[-1]


def build_payload(program) -> dict[str, bytes]:
    """Compile the program's kernels for its target; the AOT payload (see module doc).

    Each distinct kernel is compiled once (graph/cubins.py: in parallel, cached on disk)
    and stored once, as `cubin_<key>.cubin`; `kernels` name theirs by key, and `graph`
    lists the keys of the graph path's kernels when the module takes that path."""
    from .graph import cubins, wanted_steps
    from .graph.data import to_data
    cc = parse_target(program.target)
    specs = [_spec(k) for k in program.kernels]
    graph = wanted_steps(program)
    graph_specs = cubins.step_specs(graph) if graph is not None else []
    compiled = cubins.compile_distinct(specs + graph_specs, cc, cubins.cache_dir())
    keys = [cubins.spec_key(s, cc) for s in specs]
    step_keys = [cubins.spec_key(s, cc) for s in graph_specs]
    graph_keys = sorted(set(step_keys))
    meta = {"format": FORMAT, "target": program.target, "graph": graph_keys,
            "graph_program": to_data(graph, step_keys) if graph is not None else None,
            "cubins": {k: compiled[k][1] for k in sorted(set(keys) | set(graph_keys))},
            "kernels": [{"sha256": _sha(spec["source"]), "cubin": key,
                         "signature": spec["signature"]} for spec, key in zip(specs, keys)]}
    payload: dict[str, bytes] = {f"cubin_{k}.cubin": compiled[k][0] for k in meta["cubins"]}
    payload["gpu_program.json"] = json.dumps(meta, sort_keys=True).encode()
    return payload


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _child_command(cc: int) -> list[str]:
    """A Python child that imports exactly this process's dynhlo and its libraries.

    Isolated mode (-I) keeps the working directory, the script's directory, PYTHON*
    variables and the user site off the child's path, so a `./dynhlo/` (or `./triton/`)
    beside the user cannot run in its place; the child's path is this process's own, with
    the folder holding this dynhlo package first and no relative or working-directory entry.
    """
    root = str(Path(__file__).resolve().parents[3])
    cwd = os.getcwd()
    paths = [root] + [p for p in sys.path
                      if p and os.path.isabs(p) and p != root and p != cwd]
    script = ("import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
              "from dynhlo.backends.gpu.aot import _main; _main(int(sys.argv[2]))")
    return [sys.executable, "-I", "-c", script, json.dumps(paths), str(cc)]


def _compile_one(spec: dict, cc: int) -> tuple[bytes, dict]:
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from .launcher import load_kernel
    fn = load_kernel(spec["source"], "kernel", interpret=False)
    names = list(spec["signature"])
    attrs = {(names.index(p),): [["tt.divisibility", 16]] for p in spec["pointers"]}
    src = ASTSource(fn, spec["signature"], spec["constexprs"], attrs)
    compiled = triton.compile(src, target=GPUTarget("cuda", cc, 32),
                              options={"num_warps": spec["num_warps"]})
    md = compiled.metadata
    info = {"name": md.name, "shared": md.shared, "num_warps": md.num_warps,
            "global_scratch_size": getattr(md, "global_scratch_size", 0),
            "profile_scratch_size": getattr(md, "profile_scratch_size", 0)}
    return compiled.asm["cubin"], info


def load_payload(module, info, payload: dict[str, bytes], target: str):
    """A GpuProgram launching the payload's cubins (no compilation); see module doc."""
    from . import GpuProgram
    from .fastpath import FastPlan
    from .launcher import cuda_present
    try:
        meta = json.loads(payload["gpu_program.json"])
    except (KeyError, ValueError) as exc:
        raise ArtifactError(f"gpu payload has no readable gpu_program.json ({exc})") from None
    if meta.get("format") not in (1, FORMAT):
        raise ArtifactError(f"gpu payload format {meta.get('format')} is not 1 or {FORMAT}")
    if meta.get("target") != target:
        raise ArtifactError(f"the artifact's kernels are for {meta.get('target')}, not "
                            f"{target}; compile again with --target {target}")
    if not cuda_present():
        raise UnsupportedError("loading a gpu artifact needs a CUDA device")
    major, minor = __import__("torch").cuda.get_device_capability()
    if f"sm_{major}{minor}" != target:
        raise ArtifactError(f"the artifact's kernels are for {target} but this GPU is "
                            f"sm_{major}{minor}; recompile for it")
    program = GpuProgram(module, info, interpret=False, target=target, launchers={})
    if len(program.kernels) != len(meta["kernels"]):
        raise ArtifactError(f"gpu payload has {len(meta['kernels'])} kernels, the module "
                            f"plans {len(program.kernels)}")
    cubins = _cubins(meta, payload)
    for i, (kernel, km) in enumerate(zip(program.kernels, meta["kernels"])):
        if km["sha256"] != _sha(kernel.source):
            raise ArtifactError(f"gpu payload kernel {i} does not match the module's kernel")
        program.runner.launchers[id(kernel)] = cubins(km.get("cubin", i), km)
    program.fast = FastPlan.build(program.plan, program.runner.launchers, program.device)
    if meta.get("graph_program"):
        from .graph import attach
        attach(program, {k: cubins(k, meta["cubins"][k]) for k in meta["graph"]},
               meta["graph_program"])
    return program


def _cubins(meta: dict, payload: dict):
    """cubin(key or format-1 index, info) -> a CubinLauncher, one per distinct cubin."""
    made: dict = {}

    def cubin(key, info):
        launcher = made.get(key)
        if launcher is None:
            name = f"kernel_{key}.cubin" if isinstance(key, int) else f"cubin_{key}.cubin"
            info = meta["cubins"][key] if isinstance(key, str) else info
            if name not in payload:
                raise ArtifactError(f"gpu payload has no {name}")
            launcher = made[key] = CubinLauncher(payload[name], info)
        return launcher
    return cubin


class CubinLauncher:
    """Launches one cubin through CuPy on torch's current stream."""

    def __init__(self, cubin: bytes, meta: dict):
        import cupy
        self.module = cupy.cuda.function.Module()
        self.module.load(cubin)
        self.fn = self.module.get_function(meta["name"])
        self.shared = meta["shared"]
        if self.shared > 48 * 1024:
            drv = cupy.cuda.driver
            drv.funcSetAttribute(self.fn.ptr,
                                 drv.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 self.shared)
        self.threads = 32 * meta["num_warps"]
        if meta.get("global_scratch_size") or meta.get("profile_scratch_size"):
            raise ArtifactError("gpu kernels that need scratch memory are not supported yet")
        self.cupy = cupy

    def __call__(self, grid, tensors, sizes):
        import torch
        args = []
        for t in tensors:
            if t.data_ptr() % 16:
                raise ArtifactError("an unaligned device buffer reached an AOT kernel")
            args.append(np.uint64(t.data_ptr()))
        args += [np.int32(s) for s in sizes] + [np.uint64(0), np.uint64(0)]
        stream = _cupy_stream(self.cupy, torch._C._cuda_getCurrentRawStream(
            torch.cuda.current_device()))
        self.fn(tuple(grid) + (1,) * (3 - len(grid)), (self.threads, 1, 1), tuple(args),
                shared_mem=self.shared, stream=stream)


_STREAMS: dict = {}


def _cupy_stream(cupy, raw: int):
    """A CuPy handle on a raw CUDA stream, made once per stream."""
    stream = _STREAMS.get(raw)
    if stream is None:
        stream = _STREAMS[raw] = cupy.cuda.ExternalStream(raw)
    return stream


def _main(cc: int) -> None:
    """Child process: compile the JSON specs on stdin for sm_<cc>; JSON on stdout."""
    specs = json.loads(sys.stdin.read())
    out = [(base64.b64encode(c).decode(), info) for c, info in
           (_compile_one(s, cc) for s in specs)]
    sys.stdout.write(json.dumps(out))

