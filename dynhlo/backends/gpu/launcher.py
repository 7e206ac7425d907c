"""Torch tensors in and out, element-type maps, and loading generated Triton kernels.

Generated kernel source is compiled in memory, never imported from a file (a cache any
process of the user can write would let a planted file run). One namespace per distinct
source text, shared by every program in the process; Triton's own cache keeps the compiled
kernels. Interpreter mode (TRITON_INTERPRET, no GPU) is decided when a
kernel is decorated, so it is set around the import only.

Every real Triton compilation is counted as `kernel_compile` in dynhlo.stats through
Triton's post-compile hook; interpreter runs compile nothing.

JitLauncher launches one generated kernel: the first launch goes through Triton's dispatch
(which compiles), later ones straight through the compiled kernel's C launcher with device
pointers as ints (see JitLauncher for why that is sound).
"""

from __future__ import annotations

import hashlib
import linecache
import os
import sys
import threading

import ml_dtypes
import numpy as np
import torch

# Triton's interpreter must be chosen before triton is first imported (its own library
# kernels, tl.max and friends, are decorated then): no CUDA device means interpreter mode.
if "TRITON_INTERPRET" not in os.environ and "triton" not in sys.modules \
        and not torch.cuda.is_available():
    os.environ["TRITON_INTERPRET"] = "1"

from ...errors import UnsupportedError
from ... import stats

# XLA element type -> (torch dtype, Triton type name).
_TYPES = {
    "pred": (torch.bool, "tl.int1"),
    "s8": (torch.int8, "tl.int8"), "s16": (torch.int16, "tl.int16"),
    "s32": (torch.int32, "tl.int32"), "s64": (torch.int64, "tl.int64"),
    "u8": (torch.uint8, "tl.uint8"), "u16": (torch.uint16, "tl.uint16"),
    "u32": (torch.uint32, "tl.uint32"), "u64": (torch.uint64, "tl.uint64"),
    "f16": (torch.float16, "tl.float16"), "bf16": (torch.bfloat16, "tl.bfloat16"),
    "f32": (torch.float32, "tl.float32"), "f64": (torch.float64, "tl.float64"),
    "c64": (torch.complex64, None), "c128": (torch.complex128, None),
    "f8e4m3fn": (torch.float8_e4m3fn, "tl.float8e4nv"), "f8e5m2": (torch.float8_e5m2, "tl.float8e5"),
}

# Types NumPy cannot hand to torch directly: moved as same-width integers and reinterpreted.
_VIEW_AS = {ml_dtypes.bfloat16: np.int16, ml_dtypes.float8_e4m3fn: np.int8,
            ml_dtypes.float8_e5m2: np.int8}


def torch_dtype(element_type: str) -> torch.dtype:
    try:
        return _TYPES[element_type][0]
    except KeyError:
        raise UnsupportedError(f"element type {element_type} is not supported by the gpu "
                               "backend") from None


def triton_type(element_type: str) -> str | None:
    """The `tl.*` name of an element type, or None where Triton has no such type."""
    entry = _TYPES.get(element_type)
    return entry[1] if entry else None


def to_device(array, device: torch.device, element_type: str) -> torch.Tensor:
    """A NumPy array (or anything array-like, or a tensor) as a tensor on `device`."""
    if isinstance(array, torch.Tensor):
        return array.to(device)
    array = np.asarray(array)
    if not array.flags.c_contiguous:  # (np.ascontiguousarray would make rank 0 rank 1)
        array = array.copy(order="C")
    view = _VIEW_AS.get(array.dtype.type)
    if view is not None:
        host = torch.from_numpy(array.view(view))
        return host.view(torch_dtype(element_type)).to(device)
    return torch.from_numpy(array).to(device)


def to_host(tensor: torch.Tensor, element_type: str) -> np.ndarray:
    """A tensor as a NumPy array of the element type's NumPy dtype."""
    from ...hlo.types import to_numpy_dtype
    dtype = to_numpy_dtype(element_type)
    tensor = tensor.detach()
    view = _VIEW_AS.get(dtype.type)
    if view is not None:
        width = {np.int16: torch.int16, np.int8: torch.int8}[view]
        return tensor.contiguous().view(width).cpu().numpy().view(dtype)
    return tensor.cpu().numpy().astype(dtype, copy=False)


# --- kernel modules ---------------------------------------------------------------------

_LOADED: dict[str, object] = {}
_LOCK = threading.Lock()


def load_kernel(source: str, name: str, interpret: bool):
    """The @triton.jit function `name` defined by `source` (compiled once per source).

    The source text dynhlo generated is compiled in memory; nothing is imported from a file,
    so no cache entry (a `.py` or a planted `__pycache__/*.pyc`) can ever run. Triton reads a
    kernel's source back with `inspect`, which finds it in `linecache` under a name that is
    no path on disk.
    """
    if interpret:
        _patch_interpreter_index()
    digest = hashlib.sha256(source.encode()).hexdigest()[:24]
    key = f"{digest}-{int(interpret)}"
    with _LOCK:
        namespace = _LOADED.get(key)
        if namespace is None:
            namespace = _LOADED[key] = _exec_source(source, digest, interpret)
    return namespace[name]


def _exec_source(source: str, digest: str, interpret: bool) -> dict:
    filename = f"<dynhlo-kernel-{digest}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    code = compile(source, filename, "exec", dont_inherit=True)
    namespace = {"__name__": f"dynhlo_kernel_{digest}", "__file__": filename}
    old = os.environ.get("TRITON_INTERPRET")
    os.environ["TRITON_INTERPRET"] = "1" if interpret else "0"
    try:
        exec(code, namespace)  # the text dynhlo's code generator wrote, never a file's
    finally:
        if old is None:
            os.environ.pop("TRITON_INTERPRET", None)
        else:
            os.environ["TRITON_INTERPRET"] = old
    return namespace


def _patch_interpreter_index() -> None:
    """Let Triton's interpreter use a scalar argument as a loop bound under NumPy 2.4.

    Triton 3.6's interpreter holds a scalar argument as a 1-element array and reads it for
    `range(0, s1, BN)` with `int(array)`, which NumPy 2.4 refuses for 1-d arrays; read the
    element instead. Only the interpreter is touched (it restores the attribute after each
    kernel); compiled kernels are unaffected.
    """
    from triton.runtime import interpreter
    original = interpreter._patch_lang_tensor
    if getattr(original, "_dynhlo", False):
        return

    def patched(tensor, scope):
        original(tensor, scope)
        scope.set_attr(tensor, "__index__", lambda self: int(self.handle.data.reshape(-1)[0]))

    patched._dynhlo = True
    interpreter._patch_lang_tensor = patched


def install_compile_counter() -> None:
    """Count every Triton JIT compilation as stats 'kernel_compile' (chains earlier hooks)."""
    from triton import knobs
    previous = knobs.runtime.jit_post_compile_hook
    if getattr(previous, "_dynhlo", False):
        return

    def hook(*args, **kwargs):
        stats.count("kernel_compile")
        return previous(*args, **kwargs) if previous else None

    hook._dynhlo = True
    knobs.runtime.jit_post_compile_hook = hook


def interpreter_active() -> bool:
    """Whether this process's Triton runs kernels in its interpreter."""
    from triton import knobs
    return bool(knobs.runtime.interpret)


def default_device(interpret: bool) -> torch.device:
    return torch.device("cpu" if interpret else "cuda")


def cuda_present() -> bool:
    return torch.cuda.is_available()


# --- launching ----------------------------------------------------------------------------


_INTERPRETER_LOCK = threading.Lock()


class JitLauncher:
    """Launches a @triton.jit kernel; Triton compiles it on the first launch.

    `launcher(grid, tensors, sizes)` launches on the current stream. With `fast`, once the
    first launch has compiled the kernel, `direct` holds `(launch, head, constexprs)`:
    Triton's C launcher of the compiled kernel and its fixed leading arguments, so a
    launch is one C call,

        launch(grid0, 1, 1, stream, *head, *pointers, *sizes, *constexprs)

    with device pointers as ints. That skips Triton's per-launch argument binding and
    specialization lookup, its Python launcher wrapper, and the driver query it makes per
    tensor argument (cuPointerGetAttribute). It is sound because every launch has the same
    specialization: sizes are excluded from it (do_not_specialize), pointers are always
    16-byte aligned device memory (program._dense; arguments are moved to the device
    first), and the argument types are fixed by the plan. Kernels that need Triton's
    scratch buffers, and other Triton versions' launchers, keep the compiled kernel's `run`.
    Launch hooks (knobs.runtime.launch_enter_hook) are not called on the fast path.
    `fast=False` keeps Triton's own dispatch on every launch (tests use it to show Triton
    itself compiles nothing new across sizes).
    """

    def __init__(self, kernel, interpret: bool, fast: bool = True):
        self.fn = load_kernel(kernel.source, kernel.name, interpret)
        self.block, self.num_warps = kernel.block, kernel.num_warps
        self.constexprs = tuple(kernel.block.values())
        self.fast = fast and not interpret
        self.interpret = interpret
        self.direct = None
        self.device_index = torch.cuda.current_device() if self.fast else 0

    def __call__(self, grid, tensors, sizes):
        direct = self.direct
        if direct is not None:
            launch, head, consts = direct
            launch(grid[0], 1, 1, raw_stream(self.device_index), *head,
                   *[t.data_ptr() for t in tensors], *sizes, *consts)
            return
        if self.interpret:
            # Triton's interpreter patches triton.language globals for the length of a run,
            # so two threads interpreting at once break each other's kernels.
            with _INTERPRETER_LOCK:
                self.fn[grid](*tensors, *sizes, **self.block, num_warps=self.num_warps)
            return
        k = self.fn[grid](*tensors, *sizes, **self.block, num_warps=self.num_warps)
        if self.fast:
            self.direct = _direct_launch(k, self.constexprs)


def _direct_launch(k, constexprs: tuple):
    """(C launch function, leading arguments, constexprs) of a compiled kernel."""
    runner = k.run  # Triton's CudaLauncher (made on first use)
    launch = getattr(runner, "launch", None)
    if launch is None or getattr(runner, "global_scratch_size", 1) or \
            getattr(runner, "profile_scratch_size", 1):
        # Not Triton 3.6's launcher, or scratch buffers to allocate per launch: let the
        # compiled kernel's own launcher do it (tensors as ints still skip the driver query).
        def launch(g0, g1, g2, stream, *args, _run=runner):
            _run(g0, g1, g2, stream, *args)
        return launch, (k.function, k.packed_metadata, None, None, None), constexprs
    head = (k.function, runner.launch_cooperative_grid, runner.launch_pdl, None, None,
            k.packed_metadata, None, None, None)
    return launch, head, constexprs


def raw_stream(index: int) -> int:
    """The current CUDA stream of a device as an int (torch's C call: no Stream object)."""
    return torch._C._cuda_getCurrentRawStream(index)
