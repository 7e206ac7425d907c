"""Element types on the device: XLA type -> torch dtype, and arrays to and from the device.

Host arrays are NumPy (ml_dtypes for bf16 and float8, which torch cannot take from NumPy
directly: they move as same-width integers and are reinterpreted).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import torch

from ...errors import UnsupportedError
from ...hlo.types import to_numpy_dtype

# XLA element type -> torch dtype (the Triton names are kernels/types.py's).
_TORCH = {
    "pred": torch.bool, "s8": torch.int8, "s16": torch.int16, "s32": torch.int32,
    "s64": torch.int64, "u8": torch.uint8, "u16": torch.uint16, "u32": torch.uint32,
    "u64": torch.uint64, "f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
    "f64": torch.float64, "c64": torch.complex64, "c128": torch.complex128,
    "f8e4m3fn": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2,
}

# Types NumPy cannot hand to torch directly: moved as same-width integers and reinterpreted.
_VIEW_AS = {ml_dtypes.bfloat16: np.int16, ml_dtypes.float8_e4m3fn: np.int8,
            ml_dtypes.float8_e5m2: np.int8}


def torch_dtype(element_type: str) -> torch.dtype:
    try:
        return _TORCH[element_type]
    except KeyError:
        raise UnsupportedError(f"element type {element_type} is not supported by the gpu "
                               "backend") from None


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
    dtype = to_numpy_dtype(element_type)
    tensor = tensor.detach()
    view = _VIEW_AS.get(dtype.type)
    if view is not None:
        width = {np.int16: torch.int16, np.int8: torch.int8}[view]
        return tensor.contiguous().view(width).cpu().numpy().view(dtype)
    return tensor.cpu().numpy().astype(dtype, copy=False)

