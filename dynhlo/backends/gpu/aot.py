"""AOT for the GPU: cross-compile every kernel to a cubin, carry it, launch it without Triton.

build_payload(program) compiles each generated kernel for the program's target with
`triton.compile(ASTSource(...), target=GPUTarget("cuda", cc, 32))`, which needs no GPU. The
signature is fixed: pointers (assumed 16-byte aligned; the launcher copies an unaligned
input), sizes as i32 with no value specialization, so one cubin serves every size. When
this process runs Triton's interpreter, compilation happens in an isolated child process
with it off (Triton's own library kernels are decorated at import in one mode or the
other); the child imports exactly this process's dynhlo (see _child_command).

The payload: "gpu_program.json" (format version, target, the plan as data (plan/data.py),
per kernel: source hash, entry name, block, warps, shared memory, scratch sizes,
signature) and "kernel_<i>.cubin". load_payload rebuilds the plan from that data (no
planning, no code generation) and launches the cubins through CuPy's driver wrappers
(launch/cubin.py).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path


from ...errors import ArtifactError, UnsupportedError
from ...shapes.dynamic import ComputationInfo
from ...stats import count
from . import mode
from .launch.cubin import CubinLauncher
from .launch.kernel_cache import load_kernel
from .plan.data import plan_from_data, plan_to_data
from .plan.fusion import kernels_of

# The payload format; a payload of another version is refused (recompile it).
#   1 (2026-11-30): first version; load re-planned the module and regenerated the kernels
#     to match their source hashes.
#   2 (2026-12-01): the plan is stored as data ("plan"); load neither plans nor generates.
FORMAT = 2
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


def build_payload(plan, kernels: list, target: str) -> dict[str, bytes]:
    """Compile the plan's kernels (`kernels_of(plan)`) for `target`; the AOT payload."""
    specs = [_spec(k) for k in kernels]
    compiled = compile_specs(specs, parse_target(target))
    index = {id(k): i for i, k in enumerate(kernels)}
    meta = {"format": FORMAT, "target": target, "plan": plan_to_data(plan, index),
            "kernels": []}
    payload: dict[str, bytes] = {}
    for i, (spec, (cubin, info)) in enumerate(zip(specs, compiled)):
        payload[f"kernel_{i}.cubin"] = cubin
        meta["kernels"].append({"sha256": _sha(spec["source"]), **info,
                                "signature": spec["signature"]})
    payload["gpu_program.json"] = json.dumps(meta, sort_keys=True).encode()
    return payload


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def compile_specs(specs: list[dict], cc: int) -> list[tuple[bytes, dict]]:
    if not specs:
        return []
    count("kernel_compile", len(specs))
    if not mode.interpreter_active():
        try:
            return [_compile_one(s, cc) for s in specs]
        except Exception as exc:  # noqa: BLE001 - ptxas/Triton errors: one line says why
            text = f"{type(exc).__name__}: {exc}"
            raise UnsupportedError(f"cross-compiling the gpu kernels for sm_{cc} failed: "
                                   f"{_failure_summary(text)}\n{text[-3000:]}") from None
    env = dict(os.environ, TRITON_INTERPRET="0")
    proc = subprocess.run(_child_command(cc), input=json.dumps(specs).encode(),
                          capture_output=True, env=env)
    if proc.returncode != 0:
        stderr = proc.stderr.decode(errors="replace")
        raise UnsupportedError(f"cross-compiling the gpu kernels for sm_{cc} failed: "
                               f"{_failure_summary(stderr)}\n{stderr[-3000:]}")
    out = json.loads(proc.stdout)
    return [(base64.b64decode(c), info) for c, info in out]


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


def load_payload(payload: dict[str, bytes], info: ComputationInfo, target: str):
    """(plan, launchers) of an AOT payload for the module whose inference is `info`.

    The plan is read from the payload's data and each kernel launches its cubin: nothing
    is planned, generated or compiled.

    Raises:
        ArtifactError: an unreadable payload, another format version (recompile), another
            target, or a plan that does not match the module.
        UnsupportedError: no CUDA device to launch on.
    """
    try:
        meta = json.loads(payload["gpu_program.json"])
    except (KeyError, ValueError) as exc:
        raise ArtifactError(f"gpu payload has no readable gpu_program.json ({exc})") from None
    if not isinstance(meta, dict):
        raise ArtifactError("gpu payload's gpu_program.json is not a program (an object with "
                            "a plan and a list of kernels); recompile the artifact")
    if meta.get("format") != FORMAT:
        raise ArtifactError(f"gpu payload format {meta.get('format')} is not {FORMAT} (this "
                            "dynhlo's); recompile the artifact")
    if meta.get("target") != target:
        raise ArtifactError(f"the artifact's kernels are for {meta.get('target')}, not "
                            f"{target}; compile again with --target {target}")
    check_device(target)
    if not isinstance(meta.get("kernels"), list) or not isinstance(meta.get("plan"), dict):
        raise ArtifactError("gpu payload's gpu_program.json has no plan or no list of kernels; "
                            "recompile the artifact")
    plan = plan_from_data(meta["plan"], info)
    kernels = kernels_of(plan)
    if len(kernels) != len(meta["kernels"]):
        raise ArtifactError(f"gpu payload has {len(meta['kernels'])} kernels, its plan "
                            f"{len(kernels)}; recompile the artifact")
    _check_kernel_data(kernels, meta["kernels"], payload)
    launchers = {}
    for kernel in kernels:
        i = kernel.index
        try:
            launchers[id(kernel)] = CubinLauncher(payload[f"kernel_{i}.cubin"],
                                                  meta["kernels"][i])
        except ArtifactError:
            raise
        except Exception as exc:  # noqa: BLE001 - the driver refusing a crafted cubin
            raise ArtifactError(f"gpu payload kernel {i} does not load: "
                                f"{type(exc).__name__}: {exc}") from None
    return plan, launchers


def _check_kernel_data(kernels: list, metas, payload: dict) -> None:
    """ArtifactError unless each plan kernel names its own cubin (indices 0..n-1, once each:
    a crafted index would launch another kernel's code on its buffers) and each cubin's
    metadata has the fields a launch reads, of sane values."""
    indices = [k.index for k in kernels]
    if sorted(i if isinstance(i, int) and not isinstance(i, bool) else -1
              for i in indices) != list(range(len(kernels))):
        raise ArtifactError(f"gpu payload plan kernel indices {indices} are not 0..."
                            f"{len(kernels) - 1} once each; recompile the artifact")
    for i, m in enumerate(metas):
        ok = isinstance(m, dict) and isinstance(m.get("name"), str) \
            and f"kernel_{i}.cubin" in payload \
            and all(isinstance(m.get(k), int) and not isinstance(m.get(k), bool)
                    for k in ("shared", "num_warps")) \
            and 0 <= m["shared"] <= 1 << 30 and m["num_warps"] in (1, 2, 4, 8, 16, 32)
        if not ok:
            raise ArtifactError(f"gpu payload kernel {i} has malformed metadata or no cubin; "
                                "recompile the artifact")
    for k in kernels:
        if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                   for v in k.block.values()):
            raise ArtifactError(f"gpu payload kernel {k.index} has block sizes {k.block}; "
                                "recompile the artifact")


def check_device(target: str) -> None:
    """UnsupportedError without a CUDA device, ArtifactError when it is not `target`."""
    if not mode.cuda_present():
        raise UnsupportedError("loading a gpu artifact needs a CUDA device")
    import torch
    major, minor = torch.cuda.get_device_capability()
    if f"sm_{major}{minor}" != target:
        raise ArtifactError(f"the artifact's kernels are for {target} but this GPU is "
                            f"sm_{major}{minor}; recompile for it")


def _main(cc: int) -> None:
    """Child process: compile the JSON specs on stdin for sm_<cc>; JSON on stdout."""
    specs = json.loads(sys.stdin.read())
    out = [(base64.b64encode(c).decode(), info) for c, info in
           (_compile_one(s, cc) for s in specs)]
    sys.stdout.write(json.dumps(out))

