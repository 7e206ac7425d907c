"""Where kernels run: the GPU, or Triton's interpreter on the CPU (no GPU present).

Triton's interpreter must be chosen before triton is first imported (its own library
kernels, tl.max and friends, are decorated then): importing this module (the GPU backend
does so first) sets TRITON_INTERPRET=1 when no CUDA device is present. Every real Triton
compilation is counted as `kernel_compile` in dynhlo.stats through Triton's post-compile
hook; interpreter runs compile nothing.
"""

from __future__ import annotations

import os
import sys

import torch

if "TRITON_INTERPRET" not in os.environ and "triton" not in sys.modules \
        and not torch.cuda.is_available():
    os.environ["TRITON_INTERPRET"] = "1"

from ...stats import count  # noqa: E402


def install_compile_counter() -> None:
    """Count every Triton JIT compilation as stats 'kernel_compile' (chains earlier hooks)."""
    from triton import knobs
    previous = knobs.runtime.jit_post_compile_hook
    if getattr(previous, "_dynhlo", False):
        return

    def hook(*args, **kwargs):
        count("kernel_compile")
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

