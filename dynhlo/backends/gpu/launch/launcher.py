"""Launching a generated kernel: the one Launcher every runner uses.

A Launcher launches one kernel, whatever compiled it, in two forms:

    launcher(grid, tensors, sizes)
        on torch's current stream: `tensors` (device tensors, 16-byte aligned: the runners
        make them dense) then `sizes` (int32 scalars), in the kernel's parameter order. The
        interpreted runner and the graph runner launch this way.
    launcher.direct(grid0, stream, pointers, sizes)
        once the kernel is compiled (None before, and in Triton's interpreter): one call,
        grid (grid0, 1, 1) on `stream` (a CUstream as an int, raw_stream), device pointers
        as ints. The specialized runner's per-call closures (fastpath.py) launch this way.

What compiled the kernel is decided where its launcher is made, in this module only:

- `kernel_launchers` (the interpreted and specialized runners': one per planned kernel).
  On a GPU each kernel is compiled to a cubin on its first launch (`cubin_jit_launcher`:
  compile/cubins.py's jit_cubin, which reads the disk cache, else runs Triton's compiler
  in this process) and launched through the CUDA driver, as an artifact's cubins are. In
  the interpreter, with fast_launch=False, or for a kernel whose sizes may pass int32
  (a cubin takes them as i32), Triton's own JIT (`jit_launcher`).
- `step_launchers` (the graph runner's: every kernel compiled before the first capture).
  In the interpreter Triton's JIT; on a GPU the cubins an artifact gives, the others
  compiled together (compile/cubins.py's compile_distinct: the disk cache, else parallel
  child processes) and loaded (`cubin_launcher`).
- `cubin_launcher` (an AOT artifact's cubins, aot.py).

Why two ways to launch a compiled kernel. Triton's own JIT launch costs a fresh process
about 1.2 s before its first kernel runs (H200 machine): gcc builds its C launcher and
driver utilities (0.5 s), its CUDA driver object starts (0.3 s), and a compile hashes
Triton's own library for its cache key (0.4 s). A cubin needs none of the first two, and a
kernel found in the cubin cache needs no Triton compile at all; its price is host time per
launch, 1-2.3 us more than Triton's C launcher. The driver is reached through ctypes
(libcuda.so.1, which any CUDA install has): importing a CUDA library for Python (CuPy took
380 ms on the H200's image) would be most of an artifact's load time. Block = 32 x warps;
the two trailing scratch pointers Triton 3.x appends are passed as null (a kernel that
needs scratch memory keeps Triton's launch, and an artifact of one is refused).

Triton's direct launch (`direct_launch`) calls a compiled kernel's C launcher once per
launch,

    launch(grid0, 1, 1, stream, *head, *pointers, *sizes, *constexprs)

skipping Triton's per-launch argument binding and specialization lookup, its Python
launcher wrapper, and the driver query it makes per tensor argument
(cuPointerGetAttribute). It is sound because every launch of a generated kernel has the
same specialization: sizes are excluded from it (do_not_specialize), pointers are always
16-byte aligned device memory (runner.dense), and the argument types are fixed by the
plan. Kernels that need Triton's scratch buffers, and other Triton versions' launchers,
keep the compiled kernel's `run`. Launch hooks (knobs.runtime.launch_enter_hook) are not
called.
"""

from __future__ import annotations

import ctypes
import threading

import torch

from ....errors import ArtifactError
from ....shapes.sizes import bound_of
from ..compile import cubins, source
from ..kernels.group import compile_options

_INTERPRETER_LOCK = threading.Lock()


class Launcher:
    """Launches one kernel (module doc): `launcher(grid, tensors, sizes)`, and `direct`
    once the kernel is compiled. Made by this module's constructors, never directly.

    Attributes:
        kernel: the planned kernel (codegen.Kernel or a graph kernel), None for a cubin
            given as bytes.
        fn: the @triton.jit function of a launcher Triton's JIT compiles, else None.
        direct: `direct(grid0, stream, pointers, sizes)` once compiled, else None.
    """

    def __init__(self, kernel=None, fn=None, launch=None, direct=None, device=None):
        """`launch(grid, tensors, sizes)` is what a call does (replaced by the first launch
        where that compiles), `device` the index whose context a call launches in when the
        calling thread's current device is another (None: the caller's)."""
        self.kernel, self.fn = kernel, fn
        self._launch, self.direct, self._device = launch, direct, device

    def __call__(self, grid, tensors, sizes) -> None:
        device = self._device
        if device is None or torch.cuda.current_device() == device:
            self._launch(grid, tensors, sizes)
            return
        with torch.cuda.device(device):
            self._launch(grid, tensors, sizes)


def raw_stream(index: int) -> int:
    """The current CUDA stream of a device as an int (torch's C call: no Stream object)."""
    return torch._C._cuda_getCurrentRawStream(index)


# --- which compiles a kernel: decided here -------------------------------------------------

_INT32_MAX = 2 ** 31 - 1


def int32_sizes(kernel) -> bool:
    """Whether every size argument of `kernel` is bounded by int32's range: a cubin takes
    its sizes as i32 (compile/cubins.py), while Triton's JIT types a value past it as i64;
    a kernel with an unbounded size (bound -1) or one past 2**31 - 1 keeps Triton's
    launch."""
    return all(0 <= bound_of(s) <= _INT32_MAX for s in kernel.size_syms)


def kernel_launchers(kernels: list, interpret: bool, fast: bool, cc: int | None = None,
                     device: int | None = None) -> dict:
    """{id(kernel): Launcher} of a plan's kernels for the interpreted and specialized
    runners (module doc): cubins compiled on the first launch for sm_<cc>, loaded and
    launched on device `device` (the program's), unless `interpret`, `fast` is False or
    the kernel's sizes may pass int32, which take Triton's JIT."""
    if interpret or not fast:
        return {id(k): jit_launcher(k, interpret, fast) for k in kernels}
    return {id(k): cubin_jit_launcher(k, cc, device) if int32_sizes(k)
            else jit_launcher(k, False, True) for k in kernels}


def step_launchers(kernels: list, specs, keys: list, given: dict, interpret: bool,
                   cc: int) -> list:
    """One Launcher per graph launch, equal kernels sharing one, every kernel compiled
    before the first capture (module doc). `kernels` (None for an artifact's steps, which
    have no sources) and `specs()` (their compile specs, asked for only when needed) give
    what to compile; `keys` the cubin key of each (None: from its spec); `given` maps
    cubin key -> Launcher (an artifact's).

    Raises:
        ArtifactError: a step of an artifact whose cubin it does not hold.
        UnsupportedError: a kernel does not compile.
    """
    if keys and all(k in given for k in keys):   # an artifact's cubins
        return [given[k] for k in keys]
    if interpret:
        jit: dict = {}
        return [jit.setdefault(k.source, jit_launcher(k, True, True)) for k in kernels]
    missing: list = []
    if not all(keys):
        found = specs()
        keys = [cubins.spec_key(s, cc) for s in found]
        missing = [s for s, k in zip(found, keys, strict=True) if k not in given]
    compiled = cubins.compile_distinct(missing, cc, cubins.cache_dir()) if missing else {}
    made: dict = {}
    for k in keys:
        if k not in made:
            if k not in given and k not in compiled:
                raise ArtifactError(f"gpu payload has no cubin {k} for its graph")
            made[k] = given[k] if k in given else cubin_launcher(*compiled[k])
    return [made[k] for k in keys]


# --- Triton's JIT ---------------------------------------------------------------------------

def jit_launcher(kernel, interpret: bool, fast: bool = True) -> Launcher:
    """A Launcher of a kernel Triton compiles on its first launch. With `fast`, `direct`
    then is the compiled kernel's direct launch (direct_launch) and later calls go through
    it; `fast=False` keeps Triton's own dispatch on every launch (tests use it to show
    Triton itself compiles nothing new across sizes). In the interpreter (`interpret`)
    there is no `direct`: Triton's interpreter runs every launch, one at a time."""
    fn = source.load_kernel(kernel.source, kernel.name, interpret)
    block, warps = kernel.block, kernel.num_warps
    launcher = Launcher(kernel, fn)
    if interpret:
        def launch(grid, tensors, sizes):
            # Triton's interpreter patches triton.language globals for the length of a
            # run, so two threads interpreting at once break each other's kernels.
            with _INTERPRETER_LOCK:
                fn[grid](*tensors, *sizes, **block, num_warps=warps)
        launcher._launch = launch
        return launcher
    options = compile_options(kernel)
    if not fast:
        def dispatch(grid, tensors, sizes):
            fn[grid](*tensors, *sizes, **block, **options)
        launcher._launch = dispatch
        return launcher
    constexprs, index = tuple(block.values()), torch.cuda.current_device()

    def first(grid, tensors, sizes):   # Triton compiles; its direct launch from now on
        compiled = fn[grid](*tensors, *sizes, **block, **options)
        direct = launcher.direct = direct_launch(compiled, constexprs)

        def again(grid, tensors, sizes):
            direct(grid[0], raw_stream(index), [t.data_ptr() for t in tensors], sizes)
        launcher._launch = again
    launcher._launch = first
    return launcher


def direct_launch(compiled, constexprs: tuple):
    """`fire(grid0, stream, pointers, sizes)` launching a kernel Triton compiled through
    its C launcher (module doc)."""
    runner = compiled.run  # Triton's CudaLauncher (made on first use)
    launch = getattr(runner, "launch", None)
    if launch is None or getattr(runner, "global_scratch_size", 1) or \
            getattr(runner, "profile_scratch_size", 1):
        launch = runner
        head = (compiled.function, compiled.packed_metadata, None, None, None)
    else:
        head = (compiled.function, runner.launch_cooperative_grid, runner.launch_pdl, None,
                None, compiled.packed_metadata, None, None, None)

    def fire(grid0: int, stream: int, pointers, sizes) -> None:
        launch(grid0, 1, 1, stream, *head, *pointers, *sizes, *constexprs)
    return fire


# --- cubins through the CUDA driver ---------------------------------------------------------

def cubin_launcher(cubin: bytes, meta: dict) -> Launcher:
    """A Launcher of a cubin (bytes, as Triton writes it) with its metadata (`name`,
    `shared` bytes, `num_warps`), loaded now into the current device's context.

    Raises:
        ArtifactError: the driver refuses the cubin (another target, a crafted file) or,
            later, a launch; the kernel needs scratch memory.
    """
    loaded = _Cubin(cubin, meta)
    return Launcher(launch=loaded.launch, direct=loaded.direct)


def cubin_jit_launcher(kernel, cc: int, device: int | None = None) -> Launcher:
    """A Launcher of a planned kernel compiled for sm_<cc> on its first launch (jit_cubin:
    the cubin cache, else Triton's compiler in this process) and then launched as a
    cubin_launcher's, `direct` included. A cached cubin the driver refuses (a truncated
    file, a cubin for another driver) is compiled afresh once; a refusal of that one is
    the error. A kernel that needs Triton's scratch memory (which the driver launch does
    not allocate) keeps Triton's launch, without `direct`.

    `device`: the program's device (where its values live). The cubin loads into that
    device's context, and calls launch there, on its current stream, when the calling
    thread's current device is another (a new thread's is 0); `direct` is given the
    stream by its caller (FastPlan: the program device's).

    Raises (on the first launch): UnsupportedError when the kernel does not compile;
    ArtifactError when the driver refuses the cubin.
    """
    launcher = Launcher(kernel, device=device)
    lock = threading.Lock()

    def first(grid, tensors, sizes):
        with lock:   # one compile however many threads launch at once
            if launcher._launch is first:
                cubin, info = cubins.jit_cubin(kernel, cc)
                if info.get("global_scratch_size") or info.get("profile_scratch_size"):
                    launcher._launch = jit_launcher(kernel, False)
                else:
                    try:
                        loaded = _Cubin(cubin, info)
                    except ArtifactError:
                        loaded = _Cubin(*cubins.jit_cubin(kernel, cc, fresh=True))
                    launcher.direct = loaded.direct
                    launcher._launch = loaded.launch
        launcher._launch(grid, tensors, sizes)
    launcher._launch = first
    return launcher


# cuda.h: CUfunction_attribute, CUresult
_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
_INVALID_CONTEXT = 201


class _Cubin:
    """One cubin loaded as a driver module: its kernel's launches (cubin_launcher)."""

    def __init__(self, cubin: bytes, meta: dict):
        if meta.get("global_scratch_size") or meta.get("profile_scratch_size"):
            raise ArtifactError("gpu kernels that need scratch memory are not supported yet")
        cuda = _driver()
        self.name = meta["name"]
        self.module = ctypes.c_void_p()
        _check(cuda.cuModuleLoadData(ctypes.byref(self.module), cubin),
               f"cubin of {self.name} does not load")
        self.fn = ctypes.c_void_p()
        _check(cuda.cuModuleGetFunction(ctypes.byref(self.fn), self.module,
                                        self.name.encode()),
               f"cubin has no kernel {self.name}")
        self.shared = int(meta["shared"])
        if self.shared > 48 * 1024:   # above 48 KiB dynamic shared memory is opt-in
            _check(cuda.cuFuncSetAttribute(self.fn, _MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                           self.shared),
                   f"{self.name} cannot have {self.shared} bytes of shared memory")
        self.threads = 32 * int(meta["num_warps"])
        self.cuda = cuda
        self._frames: dict[int, tuple] = {}
        self._lock = threading.Lock()

    def launch(self, grid, tensors, sizes) -> None:
        """The call form: on torch's current stream, tensors checked 16-byte aligned."""
        pointers = []
        for t in tensors:
            if t.data_ptr() % 16:
                raise ArtifactError("an unaligned device buffer reached an AOT kernel")
            pointers.append(t.data_ptr())
        stream = torch._C._cuda_getCurrentRawStream(torch.cuda.current_device())
        # ints: the unprototyped driver call takes no NumPy integer (a typed one did)
        grid = tuple([int(g) for g in grid]) + (1,) * (3 - len(grid))
        self._launch(grid, stream, pointers, sizes)

    def direct(self, grid0: int, stream: int, pointers: list, sizes) -> None:
        """One launch of grid (grid0, 1, 1) on `stream`: `pointers` (16-byte aligned: the
        caller's guarantee, as for direct_launch's) then `sizes` (int32 values)."""
        self._launch((grid0, 1, 1), stream, pointers, sizes)

    def _launch(self, grid: tuple, stream: int, pointers: list, sizes) -> None:
        """The arguments go into preallocated slots, 8 bytes each, so a launch makes no
        ctypes objects: an int32 size is the low half of its slot (the device is
        little-endian; ctypes wraps a negative value as the two's complement). The lock
        keeps two threads from filling the same slots; cuLaunchKernel copies them before
        it returns."""
        count = len(pointers) + len(sizes)
        frame = self._frames.get(count)
        if frame is None:
            frame = self._frames[count] = _frame(count)
        slots, params = frame
        with self._lock:
            slots[:count] = [*pointers, *sizes]
            stream = ctypes.c_void_p(stream)
            result = self.cuda.cuLaunchKernel(self.fn, *grid, self.threads, 1, 1, self.shared,
                                              stream, params, None)
            if result == _INVALID_CONTEXT:   # a thread torch's runtime has not bound yet
                _make_context_current(self.cuda)
                result = self.cuda.cuLaunchKernel(self.fn, *grid, self.threads, 1, 1,
                                                  self.shared, stream, params, None)
        if result:
            _check(result, f"launch of {self.name} on grid {grid} failed")


def _frame(count: int):
    """(slots, params) for `count` kernel arguments and the two trailing scratch pointers
    (left null): slot k holds argument k; params[k] points at slot k."""
    slots = (ctypes.c_uint64 * (count + 2))()
    base = ctypes.addressof(slots)
    params = (ctypes.c_void_p * (count + 2))(*[base + 8 * k for k in range(count + 2)])
    return slots, params


_CUDA = None


def _driver():
    """libcuda with the calls used here typed, and the current device's primary context made
    current on this thread (torch's context: the runtime API shares it)."""
    global _CUDA
    if _CUDA is None:
        try:
            cuda = ctypes.CDLL("libcuda.so.1")
        except OSError as exc:
            raise ArtifactError(f"the CUDA driver (libcuda.so.1) is not found: {exc}") from None
        ptr, i32 = ctypes.c_void_p, ctypes.c_int
        cuda.cuModuleLoadData.argtypes = [ctypes.POINTER(ptr), ctypes.c_char_p]
        cuda.cuModuleGetFunction.argtypes = [ctypes.POINTER(ptr), ptr, ctypes.c_char_p]
        cuda.cuFuncSetAttribute.argtypes = [ptr, i32, i32]
        # cuLaunchKernel stays unprototyped: a typed call converts its 11 arguments on
        # every launch (1.1 us against 0.45 on the 2-core machine); each 64-bit argument
        # is passed as a ctypes object (_launch) and the 32-bit ones as Python ints.
        cuda.cuGetErrorString.argtypes = [i32, ctypes.POINTER(ctypes.c_char_p)]
        cuda.cuCtxGetCurrent.argtypes = [ctypes.POINTER(ptr)]
        cuda.cuCtxSetCurrent.argtypes = [ptr]
        cuda.cuDeviceGet.argtypes = [ctypes.POINTER(i32), i32]
        cuda.cuDevicePrimaryCtxRetain.argtypes = [ctypes.POINTER(ptr), i32]
        _CUDA = cuda
    _make_context_current(_CUDA)
    return _CUDA


def _make_context_current(cuda) -> None:
    """Modules load into the current context: on a thread where torch has not run yet there
    is none, so the primary context of torch's current device (the one torch uses) is set."""
    torch.cuda.init()   # cuInit, once per process
    current = ctypes.c_void_p()
    _check(cuda.cuCtxGetCurrent(ctypes.byref(current)), "no CUDA context")
    if not current.value:
        device = ctypes.c_int()
        _check(cuda.cuDeviceGet(ctypes.byref(device), torch.cuda.current_device()),
               "torch's current device is not found")
        _check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(current), device),
               "the device's primary context cannot be retained")
        _check(cuda.cuCtxSetCurrent(current), "the device's primary context cannot be set")


def _check(result: int, what: str) -> None:
    """ArtifactError naming `what` and the driver's message when `result` is not CUDA_SUCCESS."""
    if result:
        message = ctypes.c_char_p()
        _CUDA.cuGetErrorString(result, ctypes.byref(message))
        text = message.value.decode() if message.value else "unknown error"
        raise ArtifactError(f"{what}: CUDA error {result} ({text})")
