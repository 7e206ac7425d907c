"""Cubins of kernels: each distinct kernel compiled once, concurrently, cached on disk.

A kernel is keyed by its canonical form: the generated source (which names no instruction
and spells constants one way), its pointer types, constexprs and warps, the target, the
Triton version and the environment variables that change its output, and the source of
the helpers it calls (kmath) and of its compiler (compile_worker.py). Equal keys compile
once, however many launches use them (a 48-layer model has a handful of distinct
kernels). The missing ones compile in parallel child processes (as Inductor's async
compile does; each child is aot.py's cross-compiler, which needs no GPU), and land in
`<cache>/cubins/<key>.cubin` + `.json` (written atomically) for the next process.
Progress goes to the `dynhlo.gpu.compile` logger (the CLI shows it).

The cache is untrusted input, as the JIT cache's entries are (dynhlo.files has the rules
both follow): its directory is made 0700 and one another user can write is not used; an
entry is read only from regular files (no link, FIFO or device) of bounded size, and its
`.json` names its key and the sha256 of its cubin: an entry copied under another key, or
a cubin that is not the one its `.json` was written with, is a miss (compiled again and
rewritten), never another kernel's code launched.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import time
import warnings
from pathlib import Path

from .... import files
from ....errors import UnsupportedError, user_stacklevel
from ..kernels.group import compile_options

log = logging.getLogger("dynhlo.gpu.compile")

# Triton's pointer type per HLO element type (a triton.compile signature)
POINTER_TYPES = {"pred": "*i1", "s8": "*i8", "s16": "*i16", "s32": "*i32", "s64": "*i64",
                 "u8": "*u8", "u16": "*u16", "u32": "*u32", "u64": "*u64", "f16": "*fp16",
                 "bf16": "*bf16", "f32": "*fp32", "f64": "*fp64", "f8e4m3fn": "*fp8e4nv",
                 "f8e5m2": "*fp8e5"}


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
    compile_worker.py (the compile options and pointer attributes it gives Triton)."""
    return sorted((_GPU / "kernels" / "kmath").glob("*.py")) + [_GPU / "compile_worker.py"]


@functools.lru_cache(maxsize=1)
def _helpers_digest() -> str:
    digest = hashlib.sha256()
    for path in _helper_files():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def compile_distinct(specs: list, cc: int, cache: Path | None, compiler) -> dict:
    """{spec_key: (cubin, info)} for every spec, each distinct one compiled once.

    `compiler(specs, keys, cc)` yields (key, (cubin, info)) as kernels finish (aot.py's
    parallel cross-compiler; passed in, since aot.py sits above this package)."""
    from .... import stats
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
    or its info is not launch info as compile_worker writes it."""
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
    """compile_worker.compile_one's info: a str kernel name, int shared bytes and warps,
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
