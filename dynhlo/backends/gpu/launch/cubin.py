"""CubinLauncher: launches one AOT-compiled cubin through CuPy on torch's current stream.

Block = 32 x warps; the two trailing scratch pointers Triton 3.x appends are passed as
null (kernels that need scratch memory are refused when the payload is read).
"""

from __future__ import annotations

import numpy as np

from ....errors import ArtifactError


class CubinLauncher:
    """Launches one cubin through CuPy on torch's current stream."""

    def __init__(self, cubin: bytes, meta: dict):
        import cupy
        self.module = cupy.cuda.function.Module()
        self.module.load(cubin)
        self.fn = self.module.get_function(meta["name"])
        self.shared = meta["shared"]
        if self.shared > 48 * 1024:
            drv = cupy.cuda.driver
            drv.funcSetAttribute(self.fn.ptr,
                                 drv.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 self.shared)
        self.threads = 32 * meta["num_warps"]
        if meta.get("global_scratch_size") or meta.get("profile_scratch_size"):
            raise ArtifactError("gpu kernels that need scratch memory are not supported yet")
        self.cupy = cupy

    def __call__(self, grid, tensors, sizes):
        import torch
        args = []
        for t in tensors:
            if t.data_ptr() % 16:
                raise ArtifactError("an unaligned device buffer reached an AOT kernel")
            args.append(np.uint64(t.data_ptr()))
        args += [np.int32(s) for s in sizes] + [np.uint64(0), np.uint64(0)]
        stream = _cupy_stream(self.cupy, torch._C._cuda_getCurrentRawStream(
            torch.cuda.current_device()))
        self.fn(tuple(grid) + (1,) * (3 - len(grid)), (self.threads, 1, 1), tuple(args),
                shared_mem=self.shared, stream=stream)


_STREAMS: dict = {}


def _cupy_stream(cupy, raw: int):
    """A CuPy handle on a raw CUDA stream, made once per stream."""
    stream = _STREAMS.get(raw)
    if stream is None:
        stream = _STREAMS[raw] = cupy.cuda.ExternalStream(raw)
    return stream
