"""Checking and converting the arguments of an executable against its entry parameters."""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentError
from ..hlo.ir import Instruction
from ..hlo.shape import UNBOUNDED
from ..hlo.types import from_numpy_dtype, to_numpy_dtype


def check_arguments(params: list[Instruction], args: tuple) -> list[np.ndarray]:
    """NumPy arrays for `args`, each checked against its parameter.

    Raises:
        ArgumentError: wrong count, dtype, rank, a static dimension that differs, or a dynamic
            dimension over its bound; names the parameter (index and name), the dimension,
            the size and the bound.
    """
    if len(args) != len(params):
        names = ", ".join(f"{p.parameter_number} '{p.name}' {p.shape}" for p in params)
        raise ArgumentError(f"expected {len(params)} argument(s) ({names}), got {len(args)}")
    return [check_argument(p, a) for p, a in zip(params, args)]


def check_argument(param: Instruction, arg) -> np.ndarray:
    where = f"parameter {param.parameter_number} '{param.name}'"
    shape = param.shape
    try:
        array = _TensorView(arg) if _is_torch(arg) else np.asarray(arg)
    except Exception as exc:  # noqa: BLE001 - anything NumPy cannot take is an argument error
        raise ArgumentError(f"{where}: cannot be read as an array ({exc})",
                            param.parameter_number, param.name) from None
    given = from_numpy_dtype(array.dtype)
    if given != shape.element_type:
        raise ArgumentError(f"{where} expects {shape.element_type} ({shape}), got "
                            f"{given or array.dtype}; convert with "
                            f".astype({to_numpy_dtype(shape.element_type).name!r})",
                            param.parameter_number, param.name)
    if array.ndim != shape.rank:
        raise ArgumentError(f"{where} expects rank {shape.rank} ({shape}), got shape "
                            f"{list(array.shape)}", param.parameter_number, param.name)
    for d, (size, bound, dynamic) in enumerate(zip(array.shape, shape.dims, shape.dynamic)):
        if not dynamic and size != bound:
            raise ArgumentError(f"{where} dimension {d} is static {bound} in {shape}, got size "
                                f"{size}", param.parameter_number, param.name, d, size, bound)
        if dynamic and bound != UNBOUNDED and size > bound:
            raise ArgumentError(f"{where} dimension {d} has size {size} > bound {bound} in "
                                f"{shape}; pass at most {bound}", param.parameter_number,
                                param.name, d, size, bound)
    return arg if isinstance(array, _TensorView) else array


def _is_torch(arg) -> bool:
    return type(arg).__module__.startswith("torch") and hasattr(arg, "data_ptr")


_TORCH_DTYPES: dict = {}  # torch dtype -> NumPy dtype, filled on first sight


class _TensorView:
    """dtype/ndim/shape of a torch tensor, read without copying it off its device."""

    def __init__(self, tensor):
        dtype = _TORCH_DTYPES.get(tensor.dtype)
        if dtype is None:
            import ml_dtypes
            name = str(tensor.dtype).removeprefix("torch.")
            special = {"bfloat16": ml_dtypes.bfloat16, "bool": np.bool_,
                       "float8_e4m3fn": ml_dtypes.float8_e4m3fn,
                       "float8_e5m2": ml_dtypes.float8_e5m2}
            dtype = _TORCH_DTYPES[tensor.dtype] = np.dtype(special.get(name, name))
        self.dtype = dtype
        self.shape = tuple(tensor.shape)
        self.ndim = len(self.shape)
