"""Element types as generated kernels see them: Triton type names and what kernels compute.

No torch here (launch/dtypes.py maps element types to torch dtypes).
"""

from __future__ import annotations

from ....hlo.types import FLOAT_TYPES, UNSIGNED_TYPES

# XLA element type -> Triton type name; complex has none.
TRITON_TYPES = {
    "pred": "tl.int1", "s8": "tl.int8", "s16": "tl.int16", "s32": "tl.int32",
    "s64": "tl.int64", "u8": "tl.uint8", "u16": "tl.uint16", "u32": "tl.uint32",
    "u64": "tl.uint64", "f16": "tl.float16", "bf16": "tl.bfloat16", "f32": "tl.float32",
    "f64": "tl.float64", "f8e4m3fn": "tl.float8e4nv", "f8e5m2": "tl.float8e5",
}

# Element types generated kernels compute on (float8 and complex take the library tier).
KERNEL_TYPES = frozenset({"pred", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64",
                          "f16", "bf16", "f32", "f64"})


def triton_type(element_type: str) -> str | None:
    """The `tl.*` name of an element type, or None where Triton has no such type."""
    return TRITON_TYPES.get(element_type)


# Float destinations convert through kmath/casts.py (XLA's rounding in both modes).
_CASTS = {"tl.bfloat16": "M.to_bf16", "tl.float16": "M.to_f16", "tl.float32": "M.to_f32",
          "tl.float64": "M.to_f64"}


def cast(x: str, ttype: str) -> str:
    """Kernel text converting the value `x` to the Triton type `ttype`, as XLA's convert
    rounds (to bf16/f16 through f32, to nearest even). Every value conversion in a
    generated kernel goes through here: Triton's own `.to` is wrong for bf16 in the
    interpreter. An integer destination takes `.to` (kernels convert no float to one)."""
    helper = _CASTS.get(ttype)
    return f"{helper}({x})" if helper else f"({x}).to({ttype})"


def types_ok(inst) -> bool:
    """Whether `inst` and its operands are arrays of types kernels compute on."""
    shapes = [inst.shape] + [o.shape for o in inst.operands]
    return all(not s.is_tuple and s.element_type in KERNEL_TYPES for s in shapes)


def is_unsigned(element_type: str) -> bool:
    return element_type in UNSIGNED_TYPES


def is_float(element_type: str) -> bool:
    return element_type in FLOAT_TYPES
