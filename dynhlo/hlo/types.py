"""XLA element types (PrimitiveType) and their NumPy dtypes.

Sub-byte and 8-bit float types come from ml_dtypes, as in JAX. Names follow XLA's HLO text
(`pred`, `s32`, `bf16`, `f8e4m3fn`, ...). Source: xla/xla_data.proto PrimitiveType.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

# name -> numpy dtype; None for the non-array types.
_DTYPES: dict[str, object] = {
    "pred": np.bool_,
    "s2": ml_dtypes.int2, "s4": ml_dtypes.int4, "s8": np.int8, "s16": np.int16,
    "s32": np.int32, "s64": np.int64,
    "u2": ml_dtypes.uint2, "u4": ml_dtypes.uint4, "u8": np.uint8, "u16": np.uint16,
    "u32": np.uint32, "u64": np.uint64,
    "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64,
    "c64": np.complex64, "c128": np.complex128,
    "f4e2m1fn": ml_dtypes.float4_e2m1fn,
    "f8e3m4": ml_dtypes.float8_e3m4, "f8e4m3": ml_dtypes.float8_e4m3,
    "f8e4m3fn": ml_dtypes.float8_e4m3fn, "f8e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
    "f8e4m3b11fnuz": ml_dtypes.float8_e4m3b11fnuz, "f8e5m2": ml_dtypes.float8_e5m2,
    "f8e5m2fnuz": ml_dtypes.float8_e5m2fnuz, "f8e8m0fnu": ml_dtypes.float8_e8m0fnu,
    "token": None, "opaque": None,
}

ELEMENT_TYPES: frozenset[str] = frozenset(_DTYPES)
ARRAY_TYPES: frozenset[str] = frozenset(k for k, v in _DTYPES.items() if v is not None)
FLOAT_TYPES: frozenset[str] = frozenset(
    k for k in ARRAY_TYPES if k.startswith(("f", "bf")))
COMPLEX_TYPES: frozenset[str] = frozenset({"c64", "c128"})
SIGNED_TYPES: frozenset[str] = frozenset(k for k in ARRAY_TYPES if k.startswith("s"))
UNSIGNED_TYPES: frozenset[str] = frozenset(k for k in ARRAY_TYPES if k.startswith("u"))
INTEGRAL_TYPES: frozenset[str] = SIGNED_TYPES | UNSIGNED_TYPES

_BY_DTYPE = {np.dtype(v): k for k, v in _DTYPES.items() if v is not None}


def to_numpy_dtype(element_type: str) -> np.dtype:
    """The NumPy dtype of an XLA element type; KeyError-free for every array type."""
    return np.dtype(_DTYPES[element_type])


def from_numpy_dtype(dtype) -> str | None:
    """The XLA element type of a NumPy dtype, or None if XLA has no such type."""
    return _BY_DTYPE.get(np.dtype(dtype))


def bit_width(element_type: str) -> int:
    """Bits per element (pred counts as 8, as XLA stores it)."""
    if element_type in ("s2", "u2"):
        return 2
    if element_type in ("s4", "u4", "f4e2m1fn"):
        return 4
    return to_numpy_dtype(element_type).itemsize * 8
