"""Constants that XLA's text printer elides, filled in from the module's HloModuleProto.

XLA prints a constant of more than a few elements as `constant({...})` unless asked for large
constants, and TensorFlow's `experimental_get_compiler_ir(...)(stage="hlo")` does not ask. The
same module's proto (`stage="hlo_serialized"`) holds every constant's LiteralProto: its values
sit in one repeated field per element type (xla_data.proto), in the order of the shape's
layout (minor_to_major).
"""

from __future__ import annotations

import math
import re

import numpy as np

from ...errors import UnsupportedError
from ...hlo.shape import Shape
from ...hlo.types import to_numpy_dtype

# element type -> (LiteralProto field, NumPy dtype, or the element type's name for an ml_dtypes
# type, looked up on use: importing ml_dtypes is slow); fields of `bytes` hold raw
# little-endian values, the others are repeated numbers (complex as re, im pairs)
_FIELDS = {
    "pred": ("preds", np.bool_), "s8": ("s8s", np.int8), "u8": ("u8s", np.uint8),
    "s16": ("s16s", np.dtype("<i2")), "u16": ("u16s", np.dtype("<u2")),
    "s32": ("s32s", np.int32), "s64": ("s64s", np.int64), "u32": ("u32s", np.uint32),
    "u64": ("u64s", np.uint64), "f16": ("f16s", np.dtype("<f2")),
    "bf16": ("bf16s", "bf16"), "f32": ("f32s", np.float32),
    "f64": ("f64s", np.float64), "c64": ("c64s", np.complex64), "c128": ("c128s", np.complex128),
    "f8e5m2": ("f8e5m2s", "f8e5m2"), "f8e4m3fn": ("f8e4m3fns", "f8e4m3fn"),
}

_ELIDED = re.compile(r"^([^\S\n]*(?:ROOT )?%?)([\w.\-]+)( = \S+ constant\()\{\.\.\.\}\)", re.M)


def elided_constants(text: str, proto: bytes, hlo_pb2) -> list[tuple[str, Shape, np.ndarray]]:
    """(name, shape, values) of each `constant({...})` of `text` (an HLO module), in the order
    of the text, read from `proto`, the serialized HloModuleProto of the same module;
    instructions are matched by name.

    Raises:
        UnsupportedError: an elided constant the proto does not hold, or of an element type
            without a field here (sub-byte and most f8 types).
    """
    module = hlo_pb2.HloModuleProto.FromString(proto)
    literals = {inst.name: inst for comp in module.computations for inst in comp.instructions
                if inst.opcode == "constant"}
    out = []
    for match in _ELIDED.finditer(text):
        inst = literals.get(match.group(2))
        if inst is None:
            raise UnsupportedError(f"the constant '{match.group(2)}' is elided in the HLO text "
                                   "and missing from its proto")
        out.append((match.group(2), *_literal(inst)))
    return out


def reference_elided_constants(text: str, constants: list) -> tuple[str, list]:
    """(`text` with each `constant({...})` a reference `constant(#k)` to the k-th of the
    arrays returned, those arrays): `parse_hlo(text, arrays)` reads the module with the
    values of `constants` (as elided_constants gives them, matched by name) without writing
    them as decimals and reading them back (a model's millions of weights took seconds)."""
    by_name = {name: value for name, _, value in constants}
    arrays: list = []

    def refer(match: re.Match) -> str:
        arrays.append(np.ascontiguousarray(by_name[match.group(2)]))
        return f"{match.group(1)}{match.group(2)}{match.group(3)}#{len(arrays) - 1})"

    return _ELIDED.sub(refer, text), arrays


def _literal(inst) -> tuple[Shape, np.ndarray]:
    """(shape, values) of a constant instruction's LiteralProto, in logical (row-major) order.

    UnsupportedError for a malformed literal: a value count (or byte length) that does not
    fit the shape, a negative dimension, a layout that is not an order of the dimensions."""
    shape_proto = inst.literal.shape
    element = _type_name(shape_proto)
    if element not in _FIELDS:
        raise UnsupportedError(f"constant '{inst.name}': element type {element} of an elided "
                               "constant is not supported")
    dims = tuple(int(d) for d in shape_proto.dimensions)
    flat = _values(inst, element, dims)
    if flat.size != math.prod(dims) or min(dims, default=0) < 0:
        raise _count_error(inst, flat.size, element, dims)
    minor_to_major = list(shape_proto.layout.minor_to_major) or list(range(len(dims)))[::-1]
    if sorted(minor_to_major) != list(range(len(dims))):
        raise UnsupportedError(f"constant '{inst.name}': its layout {minor_to_major} is not "
                               f"an order of the dimensions of {element}{list(dims)}")
    major_to_minor = minor_to_major[::-1]
    physical = flat.reshape([dims[d] for d in major_to_minor])
    value = np.transpose(physical, np.argsort(major_to_minor))
    return Shape(element, dims, (False,) * len(dims)), value


def _values(inst, element: str, dims: tuple) -> np.ndarray:
    """The literal's values as a flat array, in the order of its layout. A byte length or
    complex part count that is not a whole number of values is an UnsupportedError (the
    count is checked by the caller, with Python ints: np.prod wrapped [2**32, 2**32] to 0)."""
    from google.protobuf.descriptor import FieldDescriptor
    field, dtype = _FIELDS[element]
    dtype = to_numpy_dtype(dtype) if isinstance(dtype, str) else dtype
    raw = getattr(inst.literal, field)
    if inst.literal.DESCRIPTOR.fields_by_name[field].type == FieldDescriptor.TYPE_BYTES:
        width = np.dtype(dtype).itemsize
        if len(raw) % width:
            raise _count_error(inst, len(raw) / width, element, dims)
        return np.frombuffer(raw, dtype=dtype)
    if element in ("c64", "c128"):
        # re, im pairs are the complex type's bytes (not re + 1j*im: 1j*inf is nan+infj,
        # which gave a constant of imaginary part inf a NaN real part)
        values = np.asarray(raw, np.float32 if element == "c64" else np.float64)
        if len(values) % 2:   # a dangling real part (it was dropped, and the rest kept)
            raise _count_error(inst, len(values) / 2, element, dims)
        return values.view(dtype)
    return np.asarray(raw, dtype=dtype)


def _count_error(inst, count, element: str, dims: tuple) -> UnsupportedError:
    return UnsupportedError(f"constant '{inst.name}': its proto holds {count:g} values "
                            f"for {element}{list(dims)}")


def _type_name(shape_proto) -> str:
    """`F32` -> "f32": the name of xla_data.proto's PrimitiveType, read from the message;
    "unknown type <n>" for a number the enum lacks (a malformed proto)."""
    enum = shape_proto.DESCRIPTOR.fields_by_name["element_type"].enum_type
    value = enum.values_by_number.get(shape_proto.element_type)
    return value.name.lower() if value is not None else \
        f"unknown type {shape_proto.element_type}"
