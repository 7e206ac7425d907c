"""Element types on the device: XLA type -> torch dtype, and arrays to and from the device.

Host arrays are NumPy (ml_dtypes for bf16 and float8, which torch cannot take from NumPy
directly: they move as same-width integers and are reinterpreted). ml_dtypes is never imported
here (it costs most of a second, as hlo/types.py says): an array of one of its types exists
only once something else imported it, and the element type's dtype imports it on first use.
"""

from __future__ import annotations

import sys

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

# Types NumPy cannot hand to torch directly (ml_dtypes'): moved as same-width integers and
# reinterpreted. Keyed by element type, so that naming them imports nothing.
_VIEW_AS = {"bf16": np.int16, "f8e4m3fn": np.int8, "f8e5m2": np.int8}
_VIEW_BY_TYPE: dict = {}   # the same, keyed by ml_dtypes' scalar type once it is imported


def _view_as(dtype: np.dtype):
    """The same-width integer type an array of `dtype` moves as, or None to move it as is."""
    if "ml_dtypes" not in sys.modules:  # then no array has one of its types
        return None
    if not _VIEW_BY_TYPE:
        _VIEW_BY_TYPE.update({to_numpy_dtype(k).type: v for k, v in _VIEW_AS.items()})
    return _VIEW_BY_TYPE.get(dtype.type)


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
    # a loaded artifact's constants are read-only views of its file: torch warns on those,
    # and a tensor on the CPU (Triton's interpreter) would share their memory
    if not array.flags.c_contiguous or not array.flags.writeable:
        array = array.copy(order="C")   # (np.ascontiguousarray would make rank 0 rank 1)
    view = _view_as(array.dtype)
    if view is not None:
        host = torch.from_numpy(array.view(view))
        return host.view(torch_dtype(element_type)).to(device)
    return torch.from_numpy(array).to(device)


def to_host(tensor: torch.Tensor, element_type: str) -> np.ndarray:
    """A tensor as a NumPy array of the element type's NumPy dtype."""
    dtype = to_numpy_dtype(element_type)
    tensor = tensor.detach()
    view = _VIEW_AS.get(element_type)
    if view is not None:
        width = {np.int16: torch.int16, np.int8: torch.int8}[view]
        return tensor.contiguous().view(width).cpu().numpy().view(dtype)
    return tensor.cpu().numpy().astype(dtype, copy=False)

