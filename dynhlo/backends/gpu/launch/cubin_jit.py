"""CubinJitLauncher: a generated kernel compiled to a cubin on its first launch, then
launched through the CUDA driver (cubin.py), as an AOT artifact's kernels are.

Triton's own JIT launch costs a fresh process about 1.2 s before its first kernel runs
(H200 machine, bench/RESULTS.md "Issue 10, ninth session", section 5): gcc builds its C
launcher and driver utilities (0.5 s), its CUDA driver object starts (0.3 s), and a compile
hashes Triton's own library for its cache key (0.4 s). A cubin needs none of the first two,
and a kernel found in dynhlo's cubin cache (compile/cubins.py) needs no Triton compile at all.
The price is host time per launch: 1-2.3 us more than Triton's C launcher (the tenth
session's section 4).
"""

from __future__ import annotations

import threading

import torch

from ....errors import ArtifactError
from ..compile import cubins
from .cubin import CubinLauncher
from .jit import JitLauncher


class CubinJitLauncher:
    """Launches `kernel` (a planned Kernel) compiled for sm_<cc>: on the first launch
    compile/cubins.py's jit_cubin gives its (cubin, info) (the cubin cache, else Triton's
    compiler in this process), and compiles it again past the cache when the driver
    refuses the cached one.

    `launcher(grid, tensors, sizes)` launches on torch's current stream; once compiled,
    `direct` is CubinLauncher.direct (`direct(grid0, stream, pointers, sizes)`), the
    per-call fast path's form. A kernel that needs Triton's scratch memory (which the
    cubin launcher does not allocate) keeps Triton's own launch.

    `device_index`: the program's device (where its values live). The cubin loads into
    that device's context, and `launcher(...)` launches there, on its current stream, when
    the calling thread's current device is another (a new thread's is 0); `direct` is given
    the stream by its caller (FastPlan: the program device's).

    Raises (on the first launch): UnsupportedError when the kernel does not compile;
    ArtifactError when the driver refuses the cubin.
    """

    def __init__(self, kernel, cc: int, device_index: int | None = None):
        self.kernel, self.cc = kernel, cc
        self._launcher = None
        self._lock = threading.Lock()
        self.device_index = device_index
        self.direct = None

    def __call__(self, grid, tensors, sizes) -> None:
        index = self.device_index
        if index is None or torch.cuda.current_device() == index:
            (self._launcher or self._load())(grid, tensors, sizes)
            return
        with torch.cuda.device(index):
            (self._launcher or self._load())(grid, tensors, sizes)

    def _load(self):
        """The launcher, made on the first launch, with the program's device current (the
        caller's guard): a module loads into the current context."""
        with self._lock:
            if self._launcher is None:
                cubin, info = cubins.jit_cubin(self.kernel, self.cc)
                if info.get("global_scratch_size") or info.get("profile_scratch_size"):
                    self._launcher = JitLauncher(self.kernel, False)
                else:
                    launcher = self._cubin_launcher(cubin, info)
                    self.direct = launcher.direct
                    self._launcher = launcher
        return self._launcher

    def _cubin_launcher(self, cubin: bytes, info: dict) -> CubinLauncher:
        """A cubin the driver refuses may be a damaged cache entry (a truncated file, a
        cubin for another driver): it is compiled afresh once, and a refusal of that one
        is the error."""
        try:
            return CubinLauncher(cubin, info)
        except ArtifactError:
            return CubinLauncher(*cubins.jit_cubin(self.kernel, self.cc, fresh=True))
