"""Seeded fuzzing of parse_hlo_proto: mutated HloModuleProto bytes give a module or an
HloParseError, never another exception, a hang or a crash of this process.

The mutations work on the protobuf wire format (no schema needed: length-delimited fields
that parse as messages are mutated inside), starting from tests/data/frontends/masked_sum.pb
(TensorFlow's bounded dynamic shapes); targeted cases set shapes, element types, literals and
repeated fields to what XLA's reader must refuse. XLA reads each proto in a child process,
so a case costs a process start: the counts are small, the seeds fixed.
"""

from __future__ import annotations

import copy
import importlib.util
import random

import pytest

import dynhlo
from tests.support.deadline import deadline
from tests.support.common import DATA

# parse_hlo_proto needs jaxlib; the literal tests at the end need tensorflow's hlo_pb2
needs_jaxlib = pytest.mark.skipif(importlib.util.find_spec("jaxlib") is None,
                                  reason="parse_hlo_proto needs jaxlib")

BASE = (DATA / "frontends" / "masked_sum.pb").read_bytes()
HUGE = [0, 1, 255, 1000, 2**31, 2**32 + 1, 2**62, 2**63 - 1, 2**64 - 1]


# -- the protobuf wire format, schema-free: a message is a list of [field, wire type, value]

def _read_varint(data: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if i >= len(data) or shift > 63:
            raise ValueError("not a varint")
        byte = data[i]
        value, shift, i = value | (byte & 0x7F) << shift, shift + 7, i + 1
        if not byte & 0x80:
            return value, i


def varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    return bytes(out + bytes([n]))


def parse(data: bytes, depth: int = 0):
    """The message's fields, length-delimited ones parsed as messages where they parse
    (else kept as bytes); bytes when `data` is not a message."""
    fields, i = [], 0
    try:
        while i < len(data):
            key, i = _read_varint(data, i)
            number, wire = key >> 3, key & 7
            if wire == 0:
                value, i = _read_varint(data, i)
            elif wire in (1, 5):
                size = 8 if wire == 1 else 4
                value, i = data[i:i + size], i + size
            elif wire == 2:
                size, i = _read_varint(data, i)
                value, i = data[i:i + size], i + size
                if len(value) != size:
                    raise ValueError("truncated")
            else:
                raise ValueError("wire type")
            fields.append([number, wire, value])
    except ValueError:
        return data
    if not fields or depth > 12:
        return data
    for field in fields:
        if field[1] == 2 and len(field[2]) > 1:
            field[2] = parse(field[2], depth + 1)
    return fields


def encode(fields) -> bytes:
    out = bytearray()
    for number, wire, value in fields:
        out += varint(number << 3 | wire)
        if wire == 0:
            out += varint(value)
        elif wire == 2:
            value = encode(value) if isinstance(value, list) else value
            out += varint(len(value)) + value
        else:
            out += value
    return bytes(out)


def _all_fields(message, acc: list) -> list:
    if isinstance(message, list):
        for field in message:
            acc.append(field)
            _all_fields(field[2], acc)
    return acc


def mutate(rng: random.Random, data: bytes) -> bytes:
    """1-3 wire edits: a varint made huge, bytes flipped, cut or repeated, a submessage
    duplicated or dropped, a field renumbered or replaced by a packed run of huge numbers;
    sometimes a few raw bytes deleted after encoding."""
    message = parse(data)
    for _ in range(rng.randint(1, 3)):
        field, r = rng.choice(_all_fields(message, [])), rng.random()
        if field[1] == 0 and r < 0.6:
            field[2] = rng.choice(HUGE)
        elif isinstance(field[2], bytes) and r < 0.6:
            value = bytearray(field[2])
            if value:
                value[rng.randrange(len(value))] ^= 1 << rng.randrange(8)
            if rng.random() < 0.3:
                value = value[:rng.randrange(len(value) + 1)]
            if rng.random() < 0.2:
                value = value * rng.choice([2, 3, 1000])
            field[2] = bytes(value)
        elif isinstance(field[2], list) and field[2] and r < 0.5:
            if rng.random() < 0.5:
                field[2].append(copy.deepcopy(rng.choice(field[2])))
            else:
                del field[2][rng.randrange(len(field[2]))]
        elif r < 0.75:
            field[1], field[2] = 2, b"".join(varint(rng.choice(HUGE))
                                            for _ in range(rng.choice([1, 5, 100])))
        else:
            field[0] = rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 17, 35, 36, 1000])
    out = encode(message)
    if rng.random() < 0.2:
        i = rng.randrange(len(out))
        out = out[:i] + out[i + rng.randint(1, 4):]
    return out


def module_or_parse_error(data: bytes, what: str):
    """The module of `data`, or None for an HloParseError; anything else fails the test."""
    with deadline(60, f"parse_hlo_proto ({what})"):
        try:
            return dynhlo.parse_hlo_proto(data)
        except dynhlo.HloParseError as exc:
            assert exc.line >= 1 and exc.column >= 1
            return None


# 1686 made XLA's reader CHECK-fail (abort) before it ran in a child process
SEEDS = [1686] + list(range(20))


@needs_jaxlib
def test_fuzzed_protos_are_modules_or_parse_errors():
    outcomes = [module_or_parse_error(mutate(random.Random(seed), BASE), f"seed {seed}")
                for seed in SEEDS]
    assert any(m is None for m in outcomes) and any(m is not None for m in outcomes)


# -- targeted edits of instructions: computations (3) > instructions (2) > shape (3)

def _instructions(message):
    for field in message:
        if field[0] == 3 and isinstance(field[2], list):
            yield from (f[2] for f in field[2] if f[0] == 2 and isinstance(f[2], list))


def _opcode(inst) -> bytes:
    return next((f[2] for f in inst if f[0] == 2 and isinstance(f[2], bytes)), b"")


def _edit_first(opcode: bytes, edit) -> bytes:
    """BASE with the first instruction of `opcode` that has the fields `edit` reads
    edited."""
    message = parse(BASE)
    for inst in _instructions(message):
        if _opcode(inst) == opcode:
            try:
                edit(inst)
            except StopIteration:  # it lacks the field
                continue
            return encode(message)
    raise AssertionError(f"no {opcode} instruction to edit")


def _set_shape_field(number: int, wire: int, value):
    """ShapeProto: element_type 2 (enum), dimensions 3 (packed int64)."""
    def edit(inst):
        shape = next(f[2] for f in inst if f[0] == 3)
        shape[:] = [f for f in shape if f[0] != number] + [[number, wire, value]]
    return edit


def _packed(*values) -> bytes:
    return b"".join(varint(v) for v in values)


def _literal_values(times: int):
    """The constant's LiteralProto (field 8) with its value fields repeated `times` times
    (0: dropped): a value count that does not match the shape."""
    def edit(inst):
        literal = next(f[2] for f in inst if f[0] == 8)
        values = [f for f in literal if f[0] != 1]
        literal[:] = [f for f in literal if f[0] == 1] + values * times
    return edit


def _replicated_flags(inst):
    """The parameter's replicated-at-leaf-buffers list (field 61) with one flag more than
    the shape has leaves."""
    flags = next(f[2] for f in inst if f[0] == 61)
    flags.append(copy.deepcopy(flags[0]))


@needs_jaxlib
@pytest.mark.parametrize("opcode, edit, message", [
    (b"parameter", _set_shape_field(3, 2, _packed(2**62)), "overflow"),
    (b"parameter", _set_shape_field(3, 2, _packed(2**40, 2**40)), "overflow"),
    (b"parameter", _set_shape_field(3, 2, _packed(2**64 - 1)), "Negative dimension"),
    (b"constant", _set_shape_field(3, 2, _packed(10**6)), "minor_to_major"),
    (b"parameter", _set_shape_field(2, 0, 999), "element_type"),
    (b"constant", _set_shape_field(2, 0, 13), "element_type TUPLE"),
    (b"constant", _literal_values(1000), "LiteralProto"),
    (b"constant", _literal_values(0), "LiteralProto"),
    # XLA's reader CHECK-failed on this one and aborted the caller's process
    (b"parameter", _replicated_flags, "aborted .*Check failed"),
], ids=["dim-2^62", "dims-overflow", "dim-negative", "constant-dims-layout", "etype-999",
        "etype-tuple", "literal-x1000", "literal-empty", "replicated-flags"])
def test_targeted_bad_protos_are_parse_errors_naming_the_problem(opcode, edit, message):
    with deadline(60, "parse_hlo_proto"), pytest.raises(dynhlo.HloParseError,
                                                         match=message):
        dynhlo.parse_hlo_proto(_edit_first(opcode, edit))


@needs_jaxlib
def test_huge_repeated_fields_are_parse_errors():
    message = parse(BASE)
    computation = next(f for f in message if f[0] == 3)
    first = next(f for f in computation[2] if f[0] == 2)
    computation[2].extend(copy.deepcopy(first) for _ in range(20_000))
    with deadline(60, "parse_hlo_proto"), pytest.raises(dynhlo.HloParseError,
                                                         match="instruction_map"):
        dynhlo.parse_hlo_proto(encode(message))


@needs_jaxlib
def test_the_unmutated_proto_still_parses():
    # the wire helpers above round-trip it byte for byte, so edits are the only change
    assert encode(parse(BASE)) == BASE
    assert "f32[<=8]" in str(module_or_parse_error(BASE, "base").entry.root.shape)


@needs_jaxlib
def test_a_proto_that_is_not_bytes_is_a_parse_error():
    # bytes(8) would have been 8 zero bytes, read as a proto
    with pytest.raises(dynhlo.HloParseError, match="takes bytes, got int"):
        dynhlo.parse_hlo_proto(8)


# -- LiteralProto values of elided constants (frontends/tf/literal_proto.py, TF's protos)

def _literal_instruction(element_type: int, dims: list, **values):
    from dynhlo.frontends.proto import _protobuf
    try:
        _, hlo_pb2 = _protobuf()
    except dynhlo.UnsupportedError as exc:   # XLA's hlo_pb2 comes with tensorflow
        pytest.skip(str(exc))
    inst = hlo_pb2.HloInstructionProto(name="c", opcode="constant")
    inst.literal.shape.element_type = element_type
    inst.literal.shape.dimensions.extend(dims)
    for field, value in values.items():
        if isinstance(value, bytes):
            setattr(inst.literal, field, value)
        else:
            getattr(inst.literal, field).extend(value)
    return inst


# PrimitiveType numbers: F32 11, F16 10, C64 15
@pytest.mark.parametrize("element_type, dims, values, message", [
    (10, [3], {"f16s": b"12345"}, "holds 2.5 values for f16"),        # was ValueError
    (11, [2**32, 2**32], {}, r"holds 0 values for f32\[4294967296"),  # np.prod wrapped to 0
    (11, [-1, -1], {"f32s": [1.0]}, r"f32\[-1, -1\]"),                # was accepted
    (15, [1], {"c64s": [1.0, 2.0, 3.0]}, "holds 1.5 values for c64"),  # 3.0 was dropped
    (999, [1], {}, "unknown type 999"),                                # was KeyError
], ids=["odd-bytes", "dims-overflow", "negative-dims", "dangling-real", "enum-999"])
def test_malformed_elided_literals_are_refused(element_type, dims, values, message):
    from dynhlo.frontends.tf.literal_proto import _literal
    with pytest.raises(dynhlo.UnsupportedError, match=message):
        _literal(_literal_instruction(element_type, dims, **values))


def test_a_literal_layout_that_is_not_an_order_of_the_dimensions_is_refused():
    from dynhlo.frontends.tf.literal_proto import _literal
    inst = _literal_instruction(11, [2, 3], f32s=[0.0] * 6)
    inst.literal.shape.layout.minor_to_major.extend([0, 0])   # was a ValueError of NumPy
    with pytest.raises(dynhlo.UnsupportedError, match=r"layout \[0, 0\] is not an order"):
        _literal(inst)
    del inst.literal.shape.layout.minor_to_major[:]
    inst.literal.shape.layout.minor_to_major.extend([0, 1])   # column-major: transposed
    _, value = _literal(inst)
    assert value.shape == (2, 3)
