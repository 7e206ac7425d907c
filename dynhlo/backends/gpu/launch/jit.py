"""JitLauncher: launches one generated kernel that Triton compiles on its first launch."""

from __future__ import annotations

import threading

import torch

from ..compile import source
from .direct import direct_launch, raw_stream
from ..kernels.group import compile_options

_INTERPRETER_LOCK = threading.Lock()


class JitLauncher:
    """Launches a @triton.jit kernel; Triton compiles it on the first launch.

    `launcher(grid, tensors, sizes)` launches on the current stream. With `fast`, once the
    first launch has compiled the kernel, `direct` is the compiled kernel's direct launch
    (direct.py: `direct(grid0, stream, pointers, sizes)`, one C call). `fast=False` keeps
    Triton's own dispatch on every launch (tests use it to show Triton itself compiles
    nothing new across sizes).
    """

    def __init__(self, kernel, interpret: bool, fast: bool = True):
        self.fn = source.load_kernel(kernel.source, kernel.name, interpret)
        self.block, self.num_warps = kernel.block, kernel.num_warps
        self.options = compile_options(kernel)
        self.constexprs = tuple(kernel.block.values())
        self.fast = fast and not interpret
        self.interpret = interpret
        self.direct = None
        self.device_index = torch.cuda.current_device() if self.fast else 0

    def __call__(self, grid, tensors, sizes):
        direct = self.direct
        if direct is not None:
            direct(grid[0], raw_stream(self.device_index), [t.data_ptr() for t in tensors],
                   sizes)
            return
        if self.interpret:
            # Triton's interpreter patches triton.language globals for the length of a run,
            # so two threads interpreting at once break each other's kernels.
            with _INTERPRETER_LOCK:
                self.fn[grid](*tensors, *sizes, **self.block, num_warps=self.num_warps)
            return
        compiled = self.fn[grid](*tensors, *sizes, **self.block, **self.options)
        if self.fast:
            self.direct = direct_launch(compiled, self.constexprs)
