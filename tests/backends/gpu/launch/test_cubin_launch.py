"""Kernels compiled to cubins on their first launch and launched through the CUDA driver.

On a GPU every generated kernel of the plain path has a cubin launcher compiled on its first
launch (launch/launcher.py's cubin_jit_launcher): compiled once, through the cubin cache,
then launched by the loaded cubin's `direct`. Here, with
no GPU, the driver is a stand-in that reads back the argument block a launch hands it, as
cuLaunchKernel reads it; on the H200 the last test runs the real thing against numpy.
"""

from __future__ import annotations

import ctypes
import json
import threading

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU, INTERPRET, torch  # skips without torch or triton
from dynhlo.backends.gpu.compile import cubins, worker
from dynhlo.backends.gpu.launch import launcher as launchers
from tests.backends.gpu.aot.test_aot import SOFTMAX


class _Driver:
    """cuLaunchKernel's stand-in: reads each argument where its params entry points, as
    the driver does, as 8 bytes (pointers, scratch) or 4 (int32 sizes). The stream is a
    ctypes pointer: the launch is unprototyped, and an int would be passed as 32 bits."""

    def __init__(self, pointers: int, sizes: int, result: int = 0):
        self.pointers, self.sizes, self.result = pointers, sizes, result
        self.launches: list = []

    def cuLaunchKernel(self, fn, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        def read(k, ctype):
            return ctypes.cast(params[k], ctypes.POINTER(ctype)).contents.value
        n = self.pointers + self.sizes
        self.launches.append({
            "grid": (gx, gy, gz), "block": (bx, by, bz), "shared": shared,
            "stream": stream.value,
            "pointers": [read(k, ctypes.c_uint64) for k in range(self.pointers)],
            "sizes": [read(k, ctypes.c_int32) for k in range(self.pointers, n)],
            "scratch": [read(k, ctypes.c_uint64) for k in (n, n + 1)], "extra": extra})
        return self.result

    def cuGetErrorString(self, result, message):
        message._obj.value = b"invalid argument"
        return 0


def _launcher(driver: _Driver):
    """A loaded cubin (launcher._Cubin) of 4 warps and 1 KiB of shared memory over the
    stand-in driver (its constructor loads a cubin, which needs the real driver)."""
    launcher = object.__new__(launchers._Cubin)
    launcher.name, launcher.fn, launcher.cuda = "kernel", "fn", driver
    launcher.threads, launcher.shared = 128, 1024
    launcher._frames, launcher._lock = {}, threading.Lock()
    return launcher


def test_a_launch_passes_pointers_then_int32_sizes_then_two_null_scratch_pointers():
    driver = _Driver(pointers=3, sizes=2)
    launcher = _launcher(driver)
    launcher.direct(7, 99, [1 << 40, 4096, 2 ** 64 - 16], [5, -1])
    launcher.direct(2, 98, [16, 32, 48], [2 ** 31 - 1, 0])  # the slots are reused
    assert driver.launches == [
        {"grid": (7, 1, 1), "block": (128, 1, 1), "shared": 1024, "stream": 99,
         "pointers": [1 << 40, 4096, 2 ** 64 - 16], "sizes": [5, -1], "scratch": [0, 0],
         "extra": None},
        {"grid": (2, 1, 1), "block": (128, 1, 1), "shared": 1024, "stream": 98,
         "pointers": [16, 32, 48], "sizes": [2 ** 31 - 1, 0], "scratch": [0, 0],
         "extra": None}]


def test_launches_of_other_arities_do_not_share_an_argument_block():
    launcher = _launcher(_Driver(pointers=2, sizes=1))
    launcher.direct(1, 0, [16, 32], [3])
    launcher.cuda = driver = _Driver(pointers=1, sizes=0)
    launcher.direct(1, 0, [64], [])
    assert driver.launches[0]["pointers"] == [64] and driver.launches[0]["scratch"] == [0, 0]


def test_a_refused_launch_is_an_artifact_error_naming_kernel_grid_and_driver_message(
        monkeypatch):
    driver = _Driver(pointers=1, sizes=0, result=1)
    monkeypatch.setattr(launchers, "_CUDA", driver)
    with pytest.raises(dynhlo.ArtifactError,
                       match=r"launch of kernel on grid \(3, 1, 1\) failed: CUDA error 1 "
                             r"\(invalid argument\)"):
        _launcher(driver).direct(3, 0, [16], [])


class _Cubin:
    """A loaded cubin's stand-in (launcher._Cubin): what it was made from, and the launches
    it was asked for."""

    def __init__(self, data, info):
        self.data, self.info, self.launches = data, info, []

    def launch(self, grid, tensors, sizes):
        self.launches.append(("call", grid, tensors, sizes))

    __call__ = launch   # as Triton's launcher, for a kernel that keeps it

    def direct(self, grid0, stream, pointers, sizes):
        self.launches.append(("direct", grid0, stream, pointers, sizes))


def test_the_first_launch_compiles_once_however_many_threads_launch_at_once(monkeypatch):
    monkeypatch.setattr(launchers, "_Cubin", _Cubin)
    compiled = []

    def jit_cubin(kernel, cc, fresh=False):
        compiled.append(1)
        return b"cubin", {"name": "kernel", "shared": 0, "num_warps": 4}
    monkeypatch.setattr(cubins, "jit_cubin", jit_cubin)
    launcher = launchers.cubin_jit_launcher(kernel=None, cc=90)
    assert launcher.direct is None
    threads = [threading.Thread(target=launcher, args=((k + 1,), ["t"], [k]))
               for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(compiled) == 1
    made = launcher.direct.__self__
    assert made.data == b"cubin" and launcher.direct == made.direct
    assert sorted(grid for _, grid, _, _ in made.launches) == [(k + 1,) for k in range(8)]


def test_a_kernel_needing_scratch_memory_keeps_tritons_launch(monkeypatch):
    made = []
    monkeypatch.setattr(launchers, "jit_launcher",
                        lambda kernel, interpret: made.append((kernel, interpret)) or _Cubin(
                            None, None))
    monkeypatch.setattr(cubins, "jit_cubin", lambda kernel, cc, fresh=False: (
        b"", {"name": "k", "shared": 0, "num_warps": 4, "global_scratch_size": 64}))
    launcher = launchers.cubin_jit_launcher("the kernel", 90)
    launcher((1,), [], [])
    assert made == [("the kernel", False)] and launcher.direct is None


class _Refusing(_Cubin):
    """A driver that refuses the cubins in `refused`, as cuModuleLoadData refuses a
    truncated file."""
    refused = {b"truncated"}

    def __init__(self, data, info):
        if data in self.refused:
            raise dynhlo.ArtifactError("cubin of kernel does not load: CUDA error 200")
        super().__init__(data, info)


def test_a_cached_cubin_the_driver_refuses_is_compiled_afresh_once(monkeypatch):
    monkeypatch.setattr(launchers, "_Cubin", _Refusing)
    info = {"name": "kernel", "shared": 0, "num_warps": 4}
    asked = []

    def jit_cubin(kernel, cc, fresh=False):
        asked.append(fresh)
        return (b"cubin" if fresh else b"truncated"), info
    monkeypatch.setattr(cubins, "jit_cubin", jit_cubin)
    launcher = launchers.cubin_jit_launcher(None, 90)
    launcher((1,), [], [])
    launcher((2,), [], [])
    loaded = launcher.direct.__self__
    assert asked == [False, True] and loaded.data == b"cubin"
    assert [grid for _, grid, _, _ in loaded.launches] == [(1,), (2,)]


def test_a_fresh_cubin_the_driver_refuses_too_is_the_error(monkeypatch):
    monkeypatch.setattr(launchers, "_Cubin", _Refusing)
    monkeypatch.setattr(cubins, "jit_cubin", lambda kernel, cc, fresh=False: (
        b"truncated", {"name": "k", "shared": 0, "num_warps": 4}))
    launcher = launchers.cubin_jit_launcher(None, 90)
    with pytest.raises(dynhlo.ArtifactError, match="does not load"):
        launcher((1,), [], [])


def test_a_fresh_jit_cubin_passes_the_cache_and_rewrites_its_entry(tmp_path, monkeypatch):
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    made = []

    def compile_one(spec, cc):
        made.append(cc)
        return b"cubin %d" % len(made), {"name": "kernel", "shared": 0,
                                          "num_warps": spec["num_warps"]}
    monkeypatch.setattr(worker, "compile_one", compile_one)
    kernel = _softmax_kernel()
    assert cubins.jit_cubin(kernel, 90)[0] == b"cubin 1"
    assert cubins.jit_cubin(kernel, 90, fresh=True)[0] == b"cubin 2"
    assert cubins.jit_cubin(kernel, 90)[0] == b"cubin 2"   # the rewritten entry
    assert made == [90, 90]


def _softmax_kernel():
    return dynhlo.compile(SOFTMAX, **GPU).program.kernels[0]


def test_a_jit_cubin_is_compiled_once_then_read_from_the_cubin_cache(tmp_path, monkeypatch):
    """A second program (or process) with the same kernel compiles nothing."""
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    specs = []

    def compile_one(spec, cc):   # Triton's metadata: the warps it was asked for
        specs.append((spec["source"], cc))
        return b"\x7fELF cubin", {"name": "kernel", "shared": 0,
                                  "num_warps": spec["num_warps"]}
    monkeypatch.setattr(worker, "compile_one", compile_one)
    kernel = _softmax_kernel()
    first = cubins.jit_cubin(kernel, 90)
    again = cubins.jit_cubin(_softmax_kernel(), 90)
    assert first == again == (b"\x7fELF cubin", {"name": "kernel", "shared": 0,
                                                  "num_warps": kernel.num_warps})
    assert specs == [(kernel.source, 90)]
    cubins.jit_cubin(kernel, 80)   # another target is another cubin
    assert specs == [(kernel.source, 90), (kernel.source, 80)]


def test_a_kernel_that_does_not_compile_is_an_unsupported_error(tmp_path, monkeypatch):
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))

    def compile_one(spec, cc):
        raise RuntimeError("ptxas fatal: out of registers")
    monkeypatch.setattr(worker, "compile_one", compile_one)
    with pytest.raises(dynhlo.UnsupportedError,
                       match="compiling a gpu kernel for sm_90 failed: RuntimeError: ptxas "
                             "fatal: out of registers"):
        cubins.jit_cubin(_softmax_kernel(), 90)
    assert not list(tmp_path.rglob("*.cubin"))


@pytest.mark.gpu
@pytest.mark.skipif(INTERPRET, reason="needs a CUDA device")
def test_gpu_kernels_compile_to_cubins_once_and_match_numpy(tmp_path, monkeypatch):
    from dynhlo import stats
    loaded_cubin = launchers._Cubin
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    exe = dynhlo.compile(SOFTMAX, **GPU)
    made = list(exe.program.runner.launchers.values())
    assert made and all(x.fn is None for x in made)   # none of Triton's JIT
    rng = np.random.default_rng(3)
    before = stats.snapshot().get("kernel_compile", 0)
    for n in (5, 1, 0, 3):
        x = rng.standard_normal((n, 64)).astype(np.float32)
        e = np.exp(x - x.max(axis=1, keepdims=True))
        np.testing.assert_allclose(np.asarray(exe(x)), e / e.sum(axis=1, keepdims=True),
                                   rtol=1e-5, atol=1e-6)
    assert stats.snapshot().get("kernel_compile", 0) == before + len(made)
    assert all(isinstance(x.direct.__self__, loaded_cubin) for x in made)
    again = dynhlo.compile(SOFTMAX, **GPU)   # the same kernel: from the cubin cache
    x = rng.standard_normal((4, 64)).astype(np.float32)
    np.testing.assert_allclose(np.asarray(again(x)), np.asarray(exe(x)), rtol=0, atol=0)
    assert stats.snapshot().get("kernel_compile", 0) == before + len(made)
    tritons = dynhlo.compile(SOFTMAX, **GPU, fast_launch=False)
    assert all(x.fn is not None for x in tritons.program.runner.launchers.values())
    torch.testing.assert_close(torch.as_tensor(np.asarray(tritons(x))),
                               torch.as_tensor(np.asarray(exe(x))), rtol=0, atol=0)


@pytest.mark.parametrize("text", ["[]", "{}", '{"name": "kernel", "shared": "x", "num_warps": 4}',
                                  '{"name": 7, "shared": 0, "num_warps": 4}',
                                  '{"name": "kernel", "shared": 0, "num_warps": 4, '
                                  '"global_scratch_size": "big"}'])
def test_a_cache_entry_with_bad_launch_info_is_compiled_again(tmp_path, monkeypatch, text):
    """A `.json` beside a cached cubin that is not the launch info compile_one writes (a
    dict: str name, int shared, warps and scratch sizes) is a cache miss: the kernel is
    compiled again and the entry rewritten, not a KeyError or TypeError at launch."""
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    kernel = _softmax_kernel()
    good = {"name": "kernel", "shared": 0, "num_warps": kernel.num_warps}
    compiled = []

    def compile_one(spec, cc):
        compiled.append(cc)
        return b"\x7fELF cubin", dict(good)
    monkeypatch.setattr(worker, "compile_one", compile_one)
    cubins.jit_cubin(kernel, 90)
    _edit_info(tmp_path, lambda entry: json.loads(text))
    assert cubins.jit_cubin(kernel, 90) == (b"\x7fELF cubin", good)
    assert compiled == [90, 90]
    assert cubins.jit_cubin(kernel, 90) == (b"\x7fELF cubin", good) and compiled == [90, 90]


def _edit_info(cache, edit) -> None:
    """The launch info of the one entry in the cubin cache `cache` replaced by
    `edit(info)`, its key and cubin hash kept (an entry edited in place)."""
    [path] = list((cache / "cubins").glob("*.json"))
    entry = json.loads(path.read_text())
    path.write_text(json.dumps(dict(entry, info=edit(entry["info"]))))


class _Devices:
    """torch.cuda's current device and its guard, as stand-ins: `current` is the thread's."""

    def __init__(self, current: int):
        self.current = current

    def current_device(self) -> int:
        return self.current

    def device(self, index: int):
        devices = self

        class Guard:
            def __enter__(self):
                self.before, devices.current = devices.current, index

            def __exit__(self, *exc):
                devices.current = self.before
        return Guard()


def test_a_program_of_device_1_loads_and_launches_its_cubin_on_device_1(monkeypatch):
    """A program compiled while device 1 was current (its values live there) runs from a
    thread whose current device is 0 (a new thread's): the cubin must load into device 1's
    context and launch there, on device 1's stream, as its buffers and the fast path's
    stream (FastPlan.stream_index) are device 1's."""
    devices = _Devices(current=0)
    monkeypatch.setattr(launchers.torch.cuda, "current_device", devices.current_device)
    monkeypatch.setattr(launchers.torch.cuda, "device", devices.device)
    seen = []

    class Loaded(_Cubin):
        def __init__(self, data, info):
            super().__init__(data, info)
            seen.append(("load", devices.current))

        def launch(self, grid, tensors, sizes):
            seen.append(("launch", devices.current))
    monkeypatch.setattr(cubins, "jit_cubin", lambda kernel, cc, fresh=False: (
        b"cubin", {"name": "k", "shared": 0, "num_warps": 4}))
    launcher = launchers.cubin_jit_launcher(None, 90, device=1)
    monkeypatch.setattr(launchers, "_Cubin", Loaded)
    launcher((1,), ["t"], [])
    launcher((2,), ["t"], [])
    assert seen == [("load", 1), ("launch", 1), ("launch", 1)]
    assert devices.current == 0   # the caller's device is left as it was


def test_a_kernel_whose_sizes_may_pass_int32_keeps_tritons_launch(monkeypatch):
    """A cubin's sizes are i32 with no value specialization (compile/cubins.py), and its
    launcher stores each in 4 bytes: 2**31 + 5 would reach the kernel as -2147483643 and the
    output would silently be left unwritten. Triton's JIT types an int argument at or
    beyond 2**31 as i64, so a kernel with a size that may exceed int32 (a bound past
    2**31 - 1, or unbounded: bound -1) keeps Triton's launch; bounded ones get cubins."""
    from types import SimpleNamespace

    import dynhlo.backends.gpu as gpu
    from dynhlo.shapes.sizes import Sym
    monkeypatch.setattr(gpu.torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(launchers, "jit_launcher",
                        lambda k, interpret, fast: ("triton", k.name))
    kernels = [SimpleNamespace(name=name, size_syms=[Sym(b) for b in bounds])
               for name, bounds in (("small", [64, 2 ** 31 - 1]), ("static", []),
                                    ("big", [64, 2 ** 31]), ("unbounded", [-1]))]
    made = gpu._launchers(kernels, interpret=False, fast=True)
    kinds = {k.name: made[id(k)] for k in kernels}
    assert isinstance(kinds["small"], launchers.Launcher) and kinds["small"].fn is None
    assert isinstance(kinds["static"], launchers.Launcher) and kinds["static"].fn is None
    assert kinds["big"] == ("triton", "big") and kinds["unbounded"] == ("triton", "unbounded")


def test_the_cubin_cache_key_follows_the_kmath_helpers_the_kernels_call(tmp_path, monkeypatch):
    """Generated source calls `M.<helper>` (kernels/kmath, @triton.jit functions compiled
    into the cubin): a helper fixed in a later dynhlo leaves the kernel's text as it was, so
    the key must change with the helpers' source, or the old cubin is served from disk
    (Triton's own cache key hashes a kernel's jit dependencies the same way)."""
    from dynhlo.backends.gpu.kernels import kmath
    spec = {"source": "def kernel(x):\n    pass\n", "signature": {}, "constexprs": {},
            "pointers": [], "num_warps": 4}
    kmath_dir = __import__("pathlib").Path(kmath.__file__).parent
    assert {p.name for p in cubins._helper_files() if p.parent == kmath_dir} >= {
        "__init__.py", "common.py", "device.py"}
    helper = tmp_path / "device.py"
    monkeypatch.setattr(cubins, "_helper_files", lambda: [helper])
    helper.write_text("def tanh(x): return x\n")
    cubins._helpers_digest.cache_clear()
    before = cubins.spec_key(spec, 90)
    helper.write_text("def tanh(x): return -x\n")
    cubins._helpers_digest.cache_clear()
    assert cubins.spec_key(spec, 90) != before
    helper.write_text("def tanh(x): return x\n")
    cubins._helpers_digest.cache_clear()
    assert cubins.spec_key(spec, 90) == before


def test_two_threads_writing_one_cache_entry_do_not_share_a_temporary_file(
        tmp_path, monkeypatch, caplog):
    """Two first launches of one kernel (two programs, two threads) both compile it and
    write its entry: each writes through its own temporary file, so neither renames away
    (or truncates) the other's half-written cubin, and both writes land."""
    import os

    both_open = threading.Barrier(2, timeout=5)
    replace = os.replace

    def racing_replace(src, dst):
        if os.path.basename(src).startswith(".k.cubin"):
            both_open.wait()   # both temporaries written before either is renamed
        return replace(src, dst)
    monkeypatch.setattr(os, "replace", racing_replace)
    info = {"name": "kernel", "shared": 0, "num_warps": 4}
    threads = [threading.Thread(target=cubins._write,
                                args=(tmp_path, "k", b"\x7fELF cubin", info))
               for _ in range(2)]
    with caplog.at_level("WARNING", logger="dynhlo.gpu.compile"):
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not caplog.records
    assert cubins._read(tmp_path, "k") == (b"\x7fELF cubin", info)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.cubin", "k.json"]


def _c_driver(seen: list):
    """A driver whose cuLaunchKernel is a C function with cuLaunchKernel's prototype (a
    ctypes callback), reached as the real one is, through an unprototyped foreign call:
    what arrives is what libffi passed under the C calling convention."""
    u32, ptr = ctypes.c_uint, ctypes.c_void_p

    def launch(fn, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        def read(k, ctype):
            return ctypes.cast(params[k], ctypes.POINTER(ctype)).contents.value
        seen.append({"fn": fn, "grid": (gx, gy, gz), "block": (bx, by, bz), "shared": shared,
                     "stream": stream, "extra": extra, "pointer": read(0, ctypes.c_uint64),
                     "size": read(1, ctypes.c_int32), "scratch": read(2, ctypes.c_uint64)})
        return 0
    typed = ctypes.CFUNCTYPE(ctypes.c_int, ptr, u32, u32, u32, u32, u32, u32, u32, ptr,
                             ctypes.POINTER(ptr), ptr)(launch)
    untyped = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.cast(typed, ctypes.c_void_p).value)
    untyped.argtypes = None
    return type("Driver", (), {"cuLaunchKernel": untyped, "keep": typed})()


def test_the_unprototyped_launch_passes_cuLaunchKernels_c_arguments(monkeypatch):
    seen = []
    launcher = _launcher(_c_driver(seen))
    launcher.fn = ctypes.c_void_p(0xDEADBEEF12345678)
    launcher.threads, launcher.shared = 1024, 200 * 1024
    launcher.direct(2 ** 31 - 1, 0x7F00DEADBEEF0000, [2 ** 64 - 16], [-7])
    assert seen == [{"fn": 0xDEADBEEF12345678, "grid": (2 ** 31 - 1, 1, 1),
                     "block": (1024, 1, 1), "shared": 200 * 1024,
                     "stream": 0x7F00DEADBEEF0000, "extra": None, "pointer": 2 ** 64 - 16,
                     "size": -7, "scratch": 0}]
    # the call form (runner, AOT) with a NumPy grid, as a typed call accepted it
    monkeypatch.setattr(torch._C, "_cuda_getCurrentRawStream", lambda index: 0,
                        raising=False)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    tensor = type("Tensor", (), {"data_ptr": lambda self: 4096})()
    launcher.launch((np.int64(3),), [tensor], [np.int32(5)])
    assert seen[-1]["grid"] == (3, 1, 1) and seen[-1]["size"] == 5
    assert seen[-1]["pointer"] == 4096 and seen[-1]["stream"] is None


def test_a_cache_entry_for_other_warps_than_the_kernels_is_compiled_again(tmp_path,
                                                                            monkeypatch):
    """A launch runs 32 threads per warp its info says; a cached entry whose warps are not
    the kernel's (an edited .json) would run the cubin on too few or too many threads
    (silently wrong, or refused at every launch). As aot.py's _check_warps does for a
    payload, the entry is not used: compiled again and rewritten."""
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    compiled = []

    def compile_one(spec, cc):
        compiled.append(spec["num_warps"])
        return b"\x7fELF cubin", {"name": "kernel", "shared": 0,
                                  "num_warps": spec["num_warps"]}
    monkeypatch.setattr(worker, "compile_one", compile_one)
    kernel = _softmax_kernel()
    assert cubins.jit_cubin(kernel, 90)[1]["num_warps"] == kernel.num_warps
    _edit_info(tmp_path, lambda info: dict(info, num_warps=kernel.num_warps * 2))
    assert cubins.jit_cubin(kernel, 90)[1]["num_warps"] == kernel.num_warps
    assert cubins.jit_cubin(kernel, 90)[1]["num_warps"] == kernel.num_warps
    assert compiled == [kernel.num_warps, kernel.num_warps]


def test_the_cubin_cache_key_follows_the_environment_triton_compiles_under(monkeypatch):
    """TRITON_DEFAULT_FP_FUSION=0 makes Triton emit no fused multiply-adds, so another
    cubin; Triton's own cache key holds the variables that change what it compiles
    (get_cache_invalidating_env_vars), and so must the cubin cache's."""
    spec = {"source": "def kernel(x):\n    pass\n", "signature": {}, "constexprs": {},
            "pointers": [], "num_warps": 4}
    monkeypatch.delenv("TRITON_DEFAULT_FP_FUSION", raising=False)
    fused = cubins.spec_key(spec, 90)
    monkeypatch.setenv("TRITON_DEFAULT_FP_FUSION", "0")
    assert cubins.spec_key(spec, 90) != fused
    monkeypatch.delenv("TRITON_DEFAULT_FP_FUSION")
    assert cubins.spec_key(spec, 90) == fused
