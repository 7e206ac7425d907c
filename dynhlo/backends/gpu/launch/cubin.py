"""CubinLauncher: launches one AOT-compiled cubin through the CUDA driver API on torch's
current stream.

The driver is reached through ctypes (libcuda.so.1, which any CUDA install has): importing a
CUDA library for Python (CuPy took 380 ms on the H200's image) would be most of an artifact's
load time. Block = 32 x warps; the two trailing scratch pointers Triton 3.x appends are passed
as null (kernels that need scratch memory are refused when the payload is read).
"""

from __future__ import annotations

import ctypes
import threading

from ....errors import ArtifactError

# cuda.h: CUfunction_attribute, CUresult
_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
_INVALID_CONTEXT = 201


class CubinLauncher:
    """Launches one cubin (bytes, as Triton writes it) with its metadata (`name`, `shared`
    bytes, `num_warps`). ArtifactError when the driver refuses the cubin (another target, a
    crafted file) or a launch."""

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

    def __call__(self, grid, tensors, sizes):
        """Launches on torch's current stream: `tensors` (16-byte aligned device tensors)
        then `sizes` (int32 scalars), in the kernel's parameter order."""
        import torch
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
        """One launch of grid (grid0, 1, 1) on `stream` (a CUstream as an int): `pointers`
        (device addresses as ints, 16-byte aligned: the caller's guarantee, as for
        direct.py's launch) then `sizes` (int32 values). The per-call fast path's form."""
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
        ptr, u32, i32 = ctypes.c_void_p, ctypes.c_uint, ctypes.c_int
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
    import torch
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
