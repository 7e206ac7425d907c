"""Constants that XLA's text printer elides, filled in from the module's HloModuleProto.

XLA prints a constant of more than a few elements as `constant({...})` unless asked for large
constants, and TensorFlow's `experimental_get_compiler_ir(...)(stage="hlo")` does not ask. The
same module's proto (`stage="hlo_serialized"`) holds every constant's LiteralProto: its values
sit in one repeated field per element type (xla_data.proto), in the order of the shape's
layout (minor_to_major).
"""

from __future__ import annotations

import re

import ml_dtypes
import numpy as np

from ..errors import UnsupportedError
from ..hlo.literal import format_literal
from ..hlo.shape import Shape

# element type -> (LiteralProto field, NumPy dtype); fields of `bytes` hold raw little-endian
# values, the others are repeated numbers (complex as re, im pairs)
_FIELDS = {
    "pred": ("preds", np.bool_), "s8": ("s8s", np.int8), "u8": ("u8s", np.uint8),
    "s16": ("s16s", np.dtype("<i2")), "u16": ("u16s", np.dtype("<u2")),
    "s32": ("s32s", np.int32), "s64": ("s64s", np.int64), "u32": ("u32s", np.uint32),
    "u64": ("u64s", np.uint64), "f16": ("f16s", np.dtype("<f2")),
    "bf16": ("bf16s", ml_dtypes.bfloat16), "f32": ("f32s", np.float32),
    "f64": ("f64s", np.float64), "c64": ("c64s", np.complex64), "c128": ("c128s", np.complex128),
    "f8e5m2": ("f8e5m2s", ml_dtypes.float8_e5m2), "f8e4m3fn": ("f8e4m3fns", ml_dtypes.float8_e4m3fn),
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


def fill_elided_constants(text: str, constants: list) -> str:
    """`text` with each `constant({...})` written out from `constants`, as elided_constants
    gives them (matched by name)."""
    by_name = {name: (shape, value) for name, shape, value in constants}

    def write(match: re.Match) -> str:
        shape, value = by_name[match.group(2)]
        return f"{match.group(1)}{match.group(2)}{match.group(3)}{format_literal(value, shape)})"

    return _ELIDED.sub(write, text)


def _literal(inst) -> tuple[Shape, np.ndarray]:
    """(shape, values) of a constant instruction's LiteralProto, in logical (row-major) order."""
    from google.protobuf.descriptor import FieldDescriptor
    shape_proto = inst.literal.shape
    element = _type_name(shape_proto)
    if element not in _FIELDS:
        raise UnsupportedError(f"constant '{inst.name}': element type {element} of an elided "
                               "constant is not supported")
    field, dtype = _FIELDS[element]
    raw = getattr(inst.literal, field)
    is_bytes = inst.literal.DESCRIPTOR.fields_by_name[field].type == FieldDescriptor.TYPE_BYTES
    if is_bytes:
        flat = np.frombuffer(raw, dtype=dtype)
    elif element in ("c64", "c128"):
        # re, im pairs are the complex type's bytes (not re + 1j*im: 1j*inf is nan+infj,
        # which gave a constant of imaginary part inf a NaN real part)
        part = np.float32 if element == "c64" else np.float64
        values = np.asarray(raw, part)
        flat = values[:len(values) // 2 * 2].view(dtype)   # an odd count fails the size check
    else:
        flat = np.asarray(raw, dtype=dtype)
    dims = tuple(int(d) for d in shape_proto.dimensions)
    if flat.size != int(np.prod(dims)):
        raise UnsupportedError(f"constant '{inst.name}': its proto holds {flat.size} values "
                               f"for {element}{list(dims)}")
    minor_to_major = list(shape_proto.layout.minor_to_major) or list(range(len(dims)))[::-1]
    major_to_minor = minor_to_major[::-1]
    physical = flat.reshape([dims[d] for d in major_to_minor])
    value = np.transpose(physical, np.argsort(major_to_minor))
    return Shape(element, dims, (False,) * len(dims)), value


def _type_name(shape_proto) -> str:
    """`F32` -> "f32": the name of xla_data.proto's PrimitiveType, read from the message."""
    enum = shape_proto.DESCRIPTOR.fields_by_name["element_type"].enum_type
    return enum.values_by_number[shape_proto.element_type].name.lower()
