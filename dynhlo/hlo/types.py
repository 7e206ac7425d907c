"""XLA element types (PrimitiveType) and their NumPy dtypes.

Sub-byte and 8-bit float types come from ml_dtypes, as in JAX. Names follow XLA's HLO text
(`pred`, `s32`, `bf16`, `f8e4m3fn`, ...). Source: xla/xla_data.proto PrimitiveType.
"""

from __future__ import annotations

import sys

import numpy as np

# name -> NumPy scalar type; None for the non-array types.
_NUMPY: dict[str, object] = {
    "pred": np.bool_,
    "s8": np.int8, "s16": np.int16, "s32": np.int32, "s64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
    "c64": np.complex64, "c128": np.complex128,
    "token": None, "opaque": None,
}
# name -> the ml_dtypes attribute holding its type. ml_dtypes is imported on first use of one
# of these: importing it costs 0.7-0.9 s (its C extension's set-up, measured 2026-12-02 with
# ml_dtypes 0.7.0), which `import dynhlo`, `dynhlo --help` and f32-only modules never need.
_ML_DTYPES: dict[str, str] = {
    "s2": "int2", "s4": "int4", "u2": "uint2", "u4": "uint4", "bf16": "bfloat16",
    "f4e2m1fn": "float4_e2m1fn", "f8e3m4": "float8_e3m4", "f8e4m3": "float8_e4m3",
    "f8e4m3fn": "float8_e4m3fn", "f8e4m3fnuz": "float8_e4m3fnuz",
    "f8e4m3b11fnuz": "float8_e4m3b11fnuz", "f8e5m2": "float8_e5m2",
    "f8e5m2fnuz": "float8_e5m2fnuz", "f8e8m0fnu": "float8_e8m0fnu",
}
_DTYPES = {**_NUMPY, **dict.fromkeys(_ML_DTYPES, ...)}   # every name; ... = from ml_dtypes

ELEMENT_TYPES: frozenset[str] = frozenset(_DTYPES)
ARRAY_TYPES: frozenset[str] = frozenset(k for k, v in _DTYPES.items() if v is not None)
FLOAT_TYPES: frozenset[str] = frozenset(
    k for k in ARRAY_TYPES if k.startswith(("f", "bf")))
COMPLEX_TYPES: frozenset[str] = frozenset({"c64", "c128"})
SIGNED_TYPES: frozenset[str] = frozenset(k for k in ARRAY_TYPES if k.startswith("s"))
UNSIGNED_TYPES: frozenset[str] = frozenset(k for k in ARRAY_TYPES if k.startswith("u"))
INTEGRAL_TYPES: frozenset[str] = SIGNED_TYPES | UNSIGNED_TYPES

_BY_NUMPY_DTYPE = {np.dtype(v): k for k, v in _NUMPY.items() if v is not None}
_BY_DTYPE: dict = {}   # every array type's, filled when ml_dtypes is first needed
_RESOLVED: dict[str, np.dtype] = {}   # element type -> dtype, filled on first use


def to_numpy_dtype(element_type: str) -> np.dtype:
    """The NumPy dtype of an XLA element type; KeyError-free for every array type (a
    KeyError for a name that is no element type)."""
    dtype = _RESOLVED.get(element_type)
    if dtype is None:
        dtype = _RESOLVED[element_type] = _resolve(element_type)
    return dtype


def _resolve(element_type: str) -> np.dtype:
    if _DTYPES[element_type] is ...:
        import ml_dtypes
        return np.dtype(getattr(ml_dtypes, _ML_DTYPES[element_type]))
    return np.dtype(_NUMPY[element_type])


def from_numpy_dtype(dtype) -> str | None:
    """The XLA element type of a NumPy dtype, or None if XLA has no such type."""
    try:
        found = _BY_NUMPY_DTYPE.get(np.dtype(dtype))
    except TypeError:   # a name such as "bfloat16" that only ml_dtypes registers
        found = None
    if found is not None:
        return found
    if not _BY_DTYPE:
        _BY_DTYPE.update({to_numpy_dtype(k): k for k in ARRAY_TYPES})
    return _BY_DTYPE.get(np.dtype(dtype))


def is_ml_dtype(dtype: np.dtype, element_type: str) -> bool:
    """`dtype` is ml_dtypes' type of `element_type` (bf16, f8..., s4, ...). False at once while
    ml_dtypes is not imported: no array can have one of its types before, and the check
    must not import it (most of a second) for the common f32 array."""
    return "ml_dtypes" in sys.modules and dtype == to_numpy_dtype(element_type)


def bit_width(element_type: str) -> int:
    """Bits per element (pred counts as 8, as XLA stores it)."""
    if element_type in ("s2", "u2"):
        return 2
    if element_type in ("s4", "u4", "f4e2m1fn"):
        return 4
    return to_numpy_dtype(element_type).itemsize * 8
