"""Kernel -> cubin: compile specs, cache keys, the one disk cache, the compilers.

A kernel's compile spec (`kernel_spec` for a planned kernel, `graph_spec` for a graph
kernel) fixes its signature: pointers (assumed 16-byte aligned; the launcher copies an
unaligned input), sizes as i32 with no value specialization, so one cubin serves every
size. Triton compiles a spec with `triton.compile(ASTSource(...), target=GPUTarget("cuda",
cc, 32))`, which needs no GPU (worker.py).

A kernel is keyed by its canonical form: the generated source (which names no instruction
and spells constants one way), its pointer types, constexprs and warps, the target, the
Triton version and the environment variables that change its output, and the source of
the helpers it calls (kmath) and of its compiler (worker.py). Equal keys compile once,
however many launches use them (a 48-layer model has a handful of distinct kernels). The
missing ones compile in parallel child processes (compile_parallel, as Inductor's async
compile does; each child is worker.py's cross-compiler, isolated, with Triton's
interpreter off: Triton's own library kernels are decorated at import in one mode or the
other), or, for the one kernel a JIT launch needs, in this process (compile_here,
through jit_cubin), and land in `<cache>/cubins/<key>.cubin` + `.json` (written
atomically) for the next process. Progress goes to the `dynhlo.gpu.compile` logger (the
CLI shows it).

The cache is untrusted input, as the JIT cache's entries are (dynhlo.files has the rules
both follow, and its cache_directory the one rule for where the cache is): its directory
is made 0700 and one another user can write is not used; an entry is read only from
regular files (no link, FIFO or device) of bounded size, and its `.json` names its key and
the sha256 of its cubin: an entry copied under another key, or a cubin that is not the one
its `.json` was written with, is a miss (compiled again and rewritten), never another
kernel's code launched.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import logging
import os
import subprocess
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from .... import files
from ....errors import ArtifactError, UnsupportedError, user_stacklevel
from ..kernels.group import compile_options
from . import worker

log = logging.getLogger("dynhlo.gpu.compile")

# Triton's pointer type per HLO element type (a triton.compile signature)
POINTER_TYPES = {"pred": "*i1", "s8": "*i8", "s16": "*i16", "s32": "*i32", "s64": "*i64",
                 "u8": "*u8", "u16": "*u16", "u32": "*u32", "u64": "*u64", "f16": "*fp16",
                 "bf16": "*bf16", "f32": "*fp32", "f64": "*fp64", "f8e4m3fn": "*fp8e4nv",
                 "f8e5m2": "*fp8e5"}


def parse_target(target: str) -> int:
    """The compute capability of a target "sm_XY" (90 for "sm_90"); ArtifactError for
    another form."""
    if not (target.startswith("sm_") and target[3:].isdigit()):
        raise ArtifactError(f"GPU target '{target}' is not of the form sm_XY (e.g. sm_90)")
    return int(target[3:])


def signature(kernel) -> tuple[dict, dict, list]:
    """(signature, constexprs, pointer arg names) of a planned kernel (codegen.Kernel) for
    triton.compile: a pointer per input and the output, typed by element type, then its
    sizes as i32, then its block sizes as constexprs. KeyError for an element type no
    kernel pointer has."""
    group = kernel.group
    sig, pointers = {}, []
    for k, inst in enumerate(group.inputs):
        sig[f"in{k}"] = POINTER_TYPES[inst.shape.element_type]
        pointers.append(f"in{k}")
    sig["out"] = POINTER_TYPES[group.root.shape.element_type]
    pointers.append("out")
    for k in range(len(kernel.size_syms)):
        sig[f"s{k}"] = "i32"
    for name in kernel.block:
        sig[name] = "constexpr"
    return sig, dict(kernel.block), pointers


def kernel_spec(kernel) -> dict:
    """The compile spec of a planned kernel (codegen.Kernel): its source, signature,
    constexprs, pointer names and compile options."""
    sig, consts, pointers = signature(kernel)
    return {"source": kernel.source, "signature": sig, "constexprs": consts,
            "pointers": pointers, **compile_options(kernel)}


def graph_spec(kernel, element_types: list) -> dict:
    """The compile spec of a GraphKernel whose pointer arguments, in order, hold these
    element types (its last pointer, `sz`, is the int32 size buffer)."""
    pointers = list(kernel.pointers)
    types = [POINTER_TYPES[t] for t in element_types] + ["*i32"]
    if len(types) != len(pointers):
        raise UnsupportedError(f"kernel takes {len(pointers)} pointers, given {len(types)}")
    signature = dict(zip(pointers, types, strict=True))
    signature.update({name: "constexpr" for name in kernel.block})
    return {"source": kernel.source, "signature": signature, "constexprs": dict(kernel.block),
            "pointers": pointers, **compile_options(kernel)}


def spec_key(spec: dict, cc: int) -> str:
    """The cache key of a kernel spec for sm_<cc> (see module doc), with the environment
    variables Triton's own cache key holds (those that change what it compiles, e.g.
    TRITON_DEFAULT_FP_FUSION)."""
    import triton
    from triton._C.libtriton import get_cache_invalidating_env_vars
    text = json.dumps([spec, cc, triton.__version__, _helpers_digest(),
                       get_cache_invalidating_env_vars()], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


_GPU = Path(__file__).resolve().parent.parent


def _helper_files() -> list[Path]:
    """What goes into a cubin besides its spec: the `M` helpers (kernels/kmath, @triton.jit
    functions the generated source calls; a fixed helper leaves that source as it was) and
    worker.py (the compile options and pointer attributes it gives Triton)."""
    return sorted((_GPU / "kernels" / "kmath").glob("*.py")) + [_GPU / "compile" / "worker.py"]


@functools.lru_cache(maxsize=1)
def _helpers_digest() -> str:
    digest = hashlib.sha256()
    for path in _helper_files():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def compile_distinct(specs: list, cc: int, cache: Path | None, here: bool = False) -> dict:
    """{spec_key: (cubin, info)} for every spec, each distinct one compiled once: read from
    `cache` (cache_dir(); None: no cache) or compiled by the parallel children
    (compile_parallel), or with `here` in this process (compile_here), and cached.

    Raises:
        UnsupportedError: a kernel does not compile (or its child is stuck).
    """
    from .... import stats
    compiler = compile_here if here else compile_parallel
    distinct = {spec_key(s, cc): s for s in specs}
    out = {k: hit for k in distinct if (hit := _read(cache, k)) is not None}
    missing = [k for k in distinct if k not in out]
    if not missing:
        return out
    start = time.perf_counter()
    log.info("compiling %d distinct kernels for sm_%d (%d launches, %d cached) ...",
             len(missing), cc, len(specs), len(out))
    stats.count("kernel_compile", len(missing))
    for done, (key, result) in enumerate(compiler([distinct[k] for k in missing], missing,
                                                  cc), 1):
        log.info("  kernel %d/%d compiled (%.1f s)", done, len(missing),
                 time.perf_counter() - start)
        out[key] = result
        _write(cache, key, *result)
    log.info("compiled %d kernels in %.1f s", len(missing), time.perf_counter() - start)
    return out


def cache_dir() -> Path | None:
    """`cubins/` under dynhlo's cache directory (files.cache_directory), made 0700 when
    missing; None (no cache: every kernel compiled, a warning) when it is one another user
    can write or cannot be made (files.private_directory)."""
    try:
        return files.cache_directory("cubins")
    except OSError as exc:
        warnings.warn("dynhlo cannot use kernel cache directory cubins "
                      f"({exc.strerror or exc}); compiling kernels without a cache",
                      RuntimeWarning, stacklevel=user_stacklevel())
        return None


def step_specs(prog) -> list:
    """Per step of a GraphProgram, its compile spec (pointer types from the slots)."""
    return [graph_spec(step.kernel, [prog.dtypes[s] for s in step.inputs + [step.out]])
            for step in prog.steps]


# The most bytes an entry's files may hold: a cubin of Triton's is kilobytes to a few
# megabytes; a bigger file (a link to /dev/zero once filled memory) is not an entry.
CUBIN_MAX = 64 << 20
INFO_MAX = 64 << 10


def _read(cache: Path | None, key: str):
    """(cubin, info) of a cached kernel; None (a miss: compiled again, rewritten) when the
    entry is absent, is not regular files (a link, a FIFO, a device) within the size
    bounds, names another key, or holds a cubin other than the one it was written with,
    or its info is not launch info as worker.py writes it."""
    if cache is None:
        return None
    try:
        entry = json.loads(files.read_regular(cache / f"{key}.json", INFO_MAX, follow=False))
        if not (isinstance(entry, dict) and entry.get("key") == key
                and _launch_info(entry.get("info"))):
            return None
        cubin = files.read_regular(cache / f"{key}.cubin", CUBIN_MAX, follow=False)
    except (OSError, ValueError, RecursionError):   # RecursionError: nested [[[...]]]
        return None
    if hashlib.sha256(cubin).hexdigest() != entry.get("cubin_sha256"):
        return None
    return cubin, entry["info"]


def _launch_info(info) -> bool:
    """worker.compile_one's info: a str kernel name, int shared bytes and warps,
    scratch sizes int or null (Triton's metadata may leave one unset) when present (bool
    is no int here)."""
    def whole(value) -> bool:
        return value.__class__ is int and value >= 0
    return (isinstance(info, dict) and isinstance(info.get("name"), str)
            and whole(info.get("shared")) and whole(info.get("num_warps"))
            and all(info[k] is None or whole(info[k])
                    for k in ("global_scratch_size", "profile_scratch_size") if k in info))


def _write(cache: Path | None, key: str, cubin: bytes, info: dict) -> None:
    """Cubin first, then the `.json` that names the key and the cubin's sha256 (with its
    launch info), each written atomically (files.write_atomic: a temporary file of its own
    per writer, then a rename): a reader finds a whole entry or a miss. A cache that cannot
    be written is skipped."""
    if cache is None:
        return
    entry = {"key": key, "cubin_sha256": hashlib.sha256(cubin).hexdigest(), "info": info}
    try:
        files.write_atomic(cache / f"{key}.cubin", cubin)
        files.write_atomic(cache / f"{key}.json", json.dumps(entry, sort_keys=True).encode())
    except OSError as exc:
        log.warning("kernel cache %s not written: %s", cache, exc)


def _failure_summary(stderr: str) -> str:
    """The line of a compiler subprocess's stderr that says why: a `fatal` line (ptxas names
    the bad option there), else the last non-empty one (the exception), for the one line
    the CLI prints; the child's progress lines are not reasons."""
    lines = [line.strip() for line in stderr.splitlines()
             if line.strip() and not line.startswith(worker.PROGRESS)]
    fatal = [line for line in lines if "fatal" in line]
    return (fatal or lines or ["no error output"])[-1]


# As Inductor's async compile: a child per core. A child is ready in about 0.3 s
# (worker.py), so more children cost little; 16 is the H200 machine's cores.
MAX_WORKERS = 16


# A child that starts no next kernel for this long is stuck (a kernel compiles in
# seconds: DESIGN.md's 99 distinct kernels of the 48-layer transformer took 193 s in all):
# the call fails naming the kernel, never hangs.
KERNEL_TIMEOUT_S = 600.0
_POLL_S = 1.0


def compile_parallel(specs: list, keys: list, cc: int):
    """(key, (cubin, info)) of each spec as its child finishes: the specs are dealt to up
    to MAX_WORKERS cross-compiler children (worker.py: isolated processes with
    Triton's interpreter off), longest source first to the least loaded child (a model's
    attention and matmul kernels take several times an elementwise kernel's compile, and
    the call waits for the slowest child). A failing or stuck child is an UnsupportedError
    naming its kernel; the other children are then ended."""
    workers = max(1, min(len(specs), os.cpu_count() or 1, MAX_WORKERS))
    chunks: list[list[int]] = [[] for _ in range(workers)]
    load = [0] * workers
    for i in sorted(range(len(specs)), key=lambda i: -len(specs[i]["source"])):
        least = load.index(min(load))
        chunks[least].append(i)
        load[least] += len(specs[i]["source"])
    env = dict(os.environ, TRITON_INTERPRET="0")
    procs: list = []
    with ThreadPoolExecutor(len(chunks)) as pool:
        try:
            running = []
            for chunk in chunks:
                procs.append(subprocess.Popen(
                    worker.command(cc), stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env))
                running.append(pool.submit(_child_results, procs[-1],
                                           [specs[i] for i in chunk],
                                           [keys[i] for i in chunk], cc))
            for done in as_completed(running):
                yield from done.result()
        finally:   # a failure (or a caller that stops early) ends the children still running
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()


def _child_results(proc, specs: list, keys: list, cc: int) -> list:
    """[(key, (cubin, info))] of one child, its pipes read together (communicate): a child
    that fills its stderr pipe while the parent waits on its stdout would block both. The
    child names on stderr each kernel it starts (worker.PROGRESS), so a failure
    or a kernel running past KERNEL_TIMEOUT_S names its key."""
    data, started, since = json.dumps(specs).encode(), 0, time.monotonic()
    while True:
        try:
            stdout, stderr = proc.communicate(data, timeout=_POLL_S)
            break
        except subprocess.TimeoutExpired as exc:
            data = None   # sent already: communicate goes on writing what is left
            now = _started(exc.stderr or b"")
            if now != started:
                started, since = now, time.monotonic()
            elif time.monotonic() - since > KERNEL_TIMEOUT_S:
                proc.kill()
                proc.communicate()
                raise UnsupportedError(
                    f"cross-compiling {_kernel_named(keys, started)} for sm_{cc} took more "
                    f"than {KERNEL_TIMEOUT_S:.0f} s; its compiler was stopped") from None
    if proc.returncode != 0:
        stderr = stderr.decode(errors="replace")
        raise UnsupportedError(f"cross-compiling {_kernel_named(keys, _started(stderr))} for "
                               f"sm_{cc} failed: {_failure_summary(stderr)}\n{stderr[-3000:]}")
    return [(key, (base64.b64decode(cubin), info))
            for key, (cubin, info) in zip(keys, json.loads(stdout), strict=True)]


def _started(stderr) -> int:
    """How many kernels a child has started, from its progress lines."""
    mark = worker.PROGRESS
    return stderr.count(mark.encode() if isinstance(stderr, bytes) else mark)


def _kernel_named(keys: list, started: int) -> str:
    if not started:
        return "the gpu kernels (the compiler did not start)"
    return f"gpu kernel {keys[started - 1]}"


_IN_PROCESS = threading.Lock()


def compile_here(specs: list, keys: list, cc: int):
    """compile_parallel's contract, in this process, one kernel at a time: for the one
    kernel a JIT launch needs, a child's start and its Triton import would cost more than
    the compile. Only for a process whose Triton is not in interpreter mode."""
    for spec, key in zip(specs, keys, strict=True):
        with _IN_PROCESS:
            try:
                result = worker.compile_one(spec, cc)
            except Exception as exc:  # Triton's and ptxas's errors: one family for the user
                raise UnsupportedError(f"compiling a gpu kernel for sm_{cc} failed: "
                                       f"{type(exc).__name__}: {exc}") from exc
        yield key, result


def jit_cubin(kernel, cc: int, fresh: bool = False) -> tuple[bytes, dict]:
    """(cubin, launch info) of one planned kernel for sm_<cc>: from the cubin cache
    (cache_dir), else compiled in this process (compile_here) and cached. `fresh`
    drops the cached entry first (the driver refused its cubin), so it is compiled again
    and rewritten; so is an entry for other warps than the kernel's (a launch runs 32
    threads per warp it names)."""
    spec, cache = kernel_spec(kernel), cache_dir()
    key = spec_key(spec, cc)
    if fresh and cache is not None:
        try:
            (cache / f"{key}.json").unlink(missing_ok=True)
        except OSError:   # a read-only cache: the entry is read again, and fails again
            pass
    cubin, info = compile_distinct([spec], cc, cache, here=True)[key]
    if info["num_warps"] != spec["num_warps"] and not fresh:   # aot._check_warps' rule
        return jit_cubin(kernel, cc, fresh=True)
    return cubin, info
