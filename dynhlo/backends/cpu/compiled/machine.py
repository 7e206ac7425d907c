"""LLVM IR to machine code (llvmlite), a disk cache of object code, one JIT engine.

Each kernel's IR is compiled at -O3 for this host's CPU to a relocatable object, which is
kept under `cpu_objects/` of dynhlo's cache directory (files.cache_directory: a directory
of this user's, mode 0700, regular files only, written atomically) keyed by the kernel's
canonical form (kernels.py), the source of the IR writer, the llvmlite and LLVM versions, the
target triple, CPU name and features: a changed writer, compiler or machine is a miss, never
a stale hit. An entry is the object and a JSON that names its key
and sha256; anything else is a miss and compiled again. Objects are loaded into one MCJIT
engine per process (no pickle, no Python code from the cache); the process keeps each
loaded object's bytes, which a compiled CPU artifact stores (backends/cpu/compiled/aot.py)
and hands back to `kernels(..., stored=...)` on a host of the same identity.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import logging
import os
import threading
import warnings
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor

import llvmlite
import llvmlite.binding as llvm

from .... import files

log = logging.getLogger(__name__)
OBJECT_MAX = 16 << 20
INFO_MAX = 64 << 10
KERNEL = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p)

_lock = threading.Lock()
_state: dict = {}


def _machine():
    """(target machine, engine, identity string), made once per process."""
    if not _state:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        cpu, features = llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()
        tm = _target_machine()
        engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), tm)
        who = _identity(cpu, features)
        ident = "|".join(who[k] for k in IDENTITY)
        _state.update(tm=tm, engine=engine, ident=ident, identity=who, names={}, objects={},
                      cache=_cache_dir())
    return _state["tm"], _state["engine"], _state["ident"]


def _target_machine():
    """This host's CPU at -O3, the large code model, static relocations. The JIT places an
    object's code and its constants in separate mappings, which in a process with gigabytes
    mapped (NumPy arrays, torch) can lie more than 2 GiB apart, out of reach of the small
    model's 32-bit PC-relative references (LLVM's loader then aborts the process, or in a
    build without assertions writes a wrong address). The large model with static
    relocations references everything by absolute 64-bit address (R_X86_64_64 only); with
    position-independent code it goes through GOT-relative relocations, which MCJIT's
    loader got wrong (a softmax kernel computed wrong values). llvmlite's own memory
    manager (one reservation per object) aborted on objects it had not pre-sized."""
    cpu, features = llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()
    return llvm.Target.from_default_triple().create_target_machine(
        cpu=cpu, features=features, opt=3, reloc="static", codemodel="large")


# What object code depends on, in the order of the cache keys' identity string: a kernel
# compiled where one of these differs is never loaded (another ABI, CPU or code writer).
IDENTITY = ("llvmlite", "llvm", "triple", "cpu", "features", "writer")


def _identity(cpu: str, features: str) -> dict:
    return {"llvmlite": llvmlite.__version__,
            "llvm": ".".join(map(str, llvm.llvm_version_info)),
            "triple": llvm.get_default_triple(), "cpu": cpu, "features": features,
            "writer": _writer_hash()}


def identity() -> dict[str, str]:
    """The compiler and host identity object code is keyed by (IDENTITY's fields, str):
    llvmlite and LLVM versions, target triple, host CPU name and features (LLVM's list,
    e.g. "+avx2,+avx512f,..."), and the sha256 of the IR writer's source."""
    _machine()
    return dict(_state["identity"])


def key_of(source) -> str:
    """The kernel's cache key (sha256 hex) on this host: its canonical form (`source.key`)
    with the identity."""
    return hashlib.sha256(f"{_machine()[2]}\n{source.key}".encode()).hexdigest()


def object_code(key: str) -> bytes:
    """The relocatable object of a kernel this process has loaded (KeyError if none)."""
    return _state["objects"][key]


class MissingKernel(LookupError):
    """`kernels(..., stored=...)` met a form the stored objects lack (args: its key)."""


class UnusableObject(ValueError):
    """`kernels(..., stored=...)` met a stored object that LLVM's reader refuses or that does
    not define its kernel's function (args: its key): linking it would crash the process."""


def _links(obj: bytes, key: str) -> bool:
    """Whether object bytes are an object file LLVM reads (its reader returns none for
    anything else, which the JIT would dereference) naming the function of kernel `key`
    (without it the JIT's address is 0, and a call would jump there)."""
    return bool(llvm.ObjectFileRef.from_data(obj)) and f"dynhlo_{key[:40]}".encode() in obj


def _writer_hash() -> str:
    """sha256 of the IR writer's source (a changed writer is a cache miss)."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in ("emit.py", "kernels.py", "machine.py"):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


def _cache_dir():
    try:
        return files.cache_directory("cpu_objects")
    except OSError as exc:
        warnings.warn(f"dynhlo cannot use its CPU kernel cache ({exc.strerror or exc}); "
                      "compiling kernels without a cache", RuntimeWarning, stacklevel=3)
        return None


def kernels(sources: list, stored: dict | None = None) -> list:
    """The callables `i32 (i8**, i64*)` of many kernels, in order.

    `sources`: objects with a canonical `key` (str) and `ir()` (the IR text, function
    `kernel`). Each distinct key is compiled once per process; the disk cache is keyed by
    the canonical key, the compiler and machine identity and the text of the IR writer
    itself (emit.py, kernels.py), so a cached form needs no IR written at all. The misses
    compile in parallel (LLVM runs outside the GIL, each in a context of its own), then
    load into the process's engine together.

    `stored` (an AOT artifact's objects, key_of -> object bytes, their checksums already
    checked): every form not loaded in the process comes from it, nothing is compiled and
    the disk cache is not read; MissingKernel for a form it lacks.
    """
    with _lock:
        _, engine, ident = _machine()
        names = _state["names"]
        keys = [hashlib.sha256(f"{ident}\n{source.key}".encode()).hexdigest()
                for source in sources]
        todo: dict = {}
        for source, key in zip(sources, keys, strict=True):
            if f"dynhlo_{key[:40]}" not in names:
                todo.setdefault(key, source)
        if stored is not None:
            lacking = [key for key in todo if key not in stored]
            if lacking:
                raise MissingKernel(lacking[0])
            objects = {key: stored[key] for key in todo}
            unusable = [key for key, obj in objects.items() if not _links(obj, key)]
            if unusable:
                raise UnusableObject(unusable[0])
        else:
            objects = {key: _read(_state["cache"], key) for key in todo}
        missing = [(source.ir(), key) for key, source in todo.items() if objects[key] is None]
        workers = min(len(missing), os.cpu_count() or 1)
        if workers > 1:
            with ThreadPoolExecutor(workers) as pool:
                built = list(pool.map(lambda item: _compile_new(*item), missing))
        else:
            built = [_compile_new(*item) for item in missing]
        for (_, key), obj in zip(missing, built, strict=True):
            objects[key] = obj
            _write(_state["cache"], key, obj)
        for key in todo:
            engine.add_object_file(llvm.ObjectFileRef.from_data(objects[key]))
        if todo:
            engine.finalize_object()
        for key in todo:
            name = f"dynhlo_{key[:40]}"
            address = engine.get_function_address(name)
            if not address:   # pragma: no cover - _links saw the name in the object
                raise UnusableObject(key)
            names[name] = address
            _state["objects"][key] = bytes(objects[key])
        return [KERNEL(names[f"dynhlo_{key[:40]}"]) for key in keys]


def module_key(ir_text: str) -> str:
    """The key of a whole IR module of fixed text: its text with this host's identity."""
    _, _, ident = _machine()
    return hashlib.sha256(f"{ident}\n{ir_text}".encode()).hexdigest()


def module_object(ir_text: str, symbol: str, stored: dict | None = None) -> bytes:
    """The object code of a whole IR module of fixed text (native_routines.py's routines,
    `symbol` one of its functions): `stored`'s under its key (an artifact's, checked
    against its sha256 when read), else through the disk cache as a kernel's: keyed by
    the text and this host's identity, checked as a kernel's entry is (its sha256, LLVM's
    reader, `symbol` named in it); compiled and written on a miss."""
    key = module_key(ir_text)
    if stored and key in stored:
        return stored[key]
    obj = _read(_state["cache"], key, symbol)
    if obj is None:
        obj = _compile(_target_machine(), ir_text, llvm.create_context())
        _write(_state["cache"], key, obj)
    return obj


def _compile_new(ir_text: str, key: str) -> bytes:
    """Object code of one kernel, named by its key; a target machine and LLVM context of
    its own, so that several compile at once."""
    tm = _target_machine()
    text = ir_text.replace('@"kernel"', f'@"dynhlo_{key[:40]}"')
    return _compile(tm, text, llvm.create_context())


def _compile(tm, text: str, context=None) -> bytes:
    module = llvm.parse_assembly(text, context)
    module.triple = tm.triple
    module.data_layout = str(tm.target_data)
    module.verify()
    builder = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=3))
    builder.getModulePassManager().run(module, builder)
    return tm.emit_object(module)


def _read(cache, key: str, symbol: str | None = None) -> bytes | None:
    """A cache entry's object, checked (`symbol`: the function it must name; a kernel's
    own by default), or None."""
    if cache is None:
        return None
    try:
        entry = json.loads(files.read_regular(cache / f"{key}.json", INFO_MAX, follow=False))
        obj = files.read_regular(cache / f"{key}.o", OBJECT_MAX, follow=False)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("key") != key or \
            entry.get("sha256") != hashlib.sha256(obj).hexdigest():
        return None
    if symbol is None:
        return obj if _links(obj, key) else None
    return obj if llvm.ObjectFileRef.from_data(obj) and symbol.encode() in obj else None


def _write(cache, key: str, obj: bytes) -> None:
    """Object first, then the JSON naming it (a reader finds a whole entry or a miss)."""
    if cache is None:
        return
    try:
        files.write_atomic(cache / f"{key}.o", obj)
        files.write_atomic(cache / f"{key}.json", json.dumps(
            {"key": key, "sha256": hashlib.sha256(obj).hexdigest()}).encode())
    except OSError as exc:
        log.warning("CPU kernel cache %s not written: %s", cache, exc)
