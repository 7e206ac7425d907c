"""The one direct launch: a compiled Triton kernel called through its C launcher.

`direct_launch(compiled, constexprs)` gives `fire(grid0, stream, pointers, sizes)`, one C
call per launch with device pointers as ints,

    launch(grid0, 1, 1, stream, *head, *pointers, *sizes, *constexprs)

That skips Triton's per-launch argument binding and specialization lookup, its Python
launcher wrapper, and the driver query it makes per tensor argument
(cuPointerGetAttribute). It is sound because every launch of a generated kernel has the
same specialization: sizes are excluded from it (do_not_specialize), pointers are always
16-byte aligned device memory (runner.dense; arguments are moved to the device first), and
the argument types are fixed by the plan. Kernels that need Triton's scratch buffers, and
other Triton versions' launchers, keep the compiled kernel's `run` (tensors as ints still
skip the driver query). Launch hooks (knobs.runtime.launch_enter_hook) are not called.
"""

from __future__ import annotations

import torch


def direct_launch(compiled, constexprs: tuple):
    """`fire(grid0, stream, pointers, sizes)` launching the compiled kernel (see module doc)."""
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


def raw_stream(index: int) -> int:
    """The current CUDA stream of a device as an int (torch's C call: no Stream object)."""
    return torch._C._cuda_getCurrentRawStream(index)
