"""bitcast between element types of different widths and one byte size, as XLA allows it.

Facts from xla/service/hlo_verifier.cc ShapeVerifier::HandleBitcast: the only check is
shape_size(result) == shape_size(operand), shape_size being ShapeUtil::ByteSizeOf
(shape_util.cc ByteSizeOfElements: elements at the bounds times ByteSizeOfPrimitiveType, or
times the layout's element size in bits `E(n)`, rounded up to bytes). The element type is not
compared, so `f32[2]` -> `s16[4]` (8 bytes each) is valid and reinterprets the bytes; dynhlo
refused it ("use bitcast-convert"). Expected values below are written from IEEE-754 and
little-endian byte order by hand (1.0f = 0x3F800000, -2.5f = 0xC0200000).
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.errors import DynamicSizeError, HloVerifyError, UnsupportedError
from dynhlo.hlo.verify import verify_module


def _module(param: str, result: str) -> str:
    return (f"HloModule m\nENTRY e {{\n  a = {param} parameter(0)\n"
            f"  ROOT r = {result} bitcast(a)\n}}\n")


def _run(param: str, result: str, x: np.ndarray) -> np.ndarray:
    return dynhlo.compile(_module(param, result))(x)


ONE_AND_MINUS_2_5 = np.array([1.0, -2.5], np.float32)


@pytest.mark.parametrize("result, expected", [
    # the little-endian halves of 0x3F800000 and 0xC0200000
    ("s16[4]", np.array([0x0000, 0x3F80, 0x0000, 0xC020 - 0x10000], np.int16)),
    ("u16[2,2]", np.array([[0x0000, 0x3F80], [0x0000, 0xC020]], np.uint16)),
    ("u8[8]", np.array([0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x20, 0xC0], np.uint8)),
    ("s8[2,4]", np.array([[0, 0, -128, 63], [0, 0, 32, -64]], np.int8)),
    # one f64 of bits 0xC02000003F800000
    ("f64[]", np.array(-(1 + 0x000003F800000 / 2**52) * 2**3, np.float64)),
    ("s64[1]", np.array([0xC02000003F800000 - 2**64], np.int64)),
])
def test_a_width_changing_bitcast_reinterprets_the_bytes(result, expected):
    out = _run("f32[2]", result, ONE_AND_MINUS_2_5)
    assert out.dtype == expected.dtype and out.shape == expected.shape
    np.testing.assert_array_equal(out, expected)


def test_narrow_to_wide_joins_consecutive_elements():
    halves = np.array([0x0000, 0x3F80, 0x0000, 0xC020], np.uint16)
    np.testing.assert_array_equal(_run("u16[4]", "f32[2]", halves), ONE_AND_MINUS_2_5)
    np.testing.assert_array_equal(_run("u16[2,2]", "f32[2]", halves.reshape(2, 2)),
                                  ONE_AND_MINUS_2_5)


def test_the_bytes_are_taken_in_layout_order():
    """A bitcast reinterprets the buffer: `{0,1}` stores f32[2,2] column by column."""
    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    out = _run("f32[2,2]{0,1}", "s16[2,4]", x)
    # memory order 1, 3, 2, 4; each f32 (bits 0x3F800000, 0x40400000, ...) as two halves
    high = {1.0: 0x3F80, 2.0: 0x4000, 3.0: 0x4040, 4.0: 0x4080}
    expected = [[0, high[1.0], 0, high[3.0]], [0, high[2.0], 0, high[4.0]]]
    np.testing.assert_array_equal(out, np.array(expected, np.int16))


def test_a_dynamic_size_moves_across_in_bytes():
    x = np.array([1.0, -2.5, 1.0], np.float32)
    out = _run("f32[<=4]", "s16[<=8]", x)
    np.testing.assert_array_equal(out, [0, 0x3F80, 0, 0xC020 - 0x10000, 0, 0x3F80])
    np.testing.assert_array_equal(_run("f32[<=4]", "u8[<=4,4]", x[:1]),
                                  [[0x00, 0x00, 0x80, 0x3F]])
    halves = np.array([0x0000, 0x3F80, 0x0000, 0xC020], np.uint16)
    np.testing.assert_array_equal(_run("u16[<=8]", "f32[<=4]", halves), ONE_AND_MINUS_2_5)
    with pytest.raises(DynamicSizeError, match="instruction 'r': bitcast of 6 bytes into "
                       "rows of 4 does not divide"):
        _run("u16[<=8]", "f32[<=4]", halves[:3])  # 6 bytes are no whole f32


@pytest.mark.parametrize("param, result, have, want", [
    ("f32[2]", "s16[5]", 8, 10),
    ("f32[<=2]", "u8[4]", 8, 4),             # at the bound: 2 x 4 bytes
    ("s4[8]{0:E(4)}", "s8[8]", 4, 8),        # E(4) packs two s4 per byte
    ("s4[8]", "s8[4]", 8, 4),                # unpacked: one byte per s4
])
def test_the_byte_size_is_still_checked(param, result, have, want):
    with pytest.raises(HloVerifyError) as info:
        dynhlo.compile(_module(param, result))
    assert info.value.instruction == "r" and (info.value.line, info.value.column) == (4, 3)
    assert f"({have} bytes at its bounds)" in str(info.value)
    assert f"({want} bytes)" in str(info.value)


@pytest.mark.parametrize("param, result", [("s4[8]{0:E(4)}", "s8[4]"), ("s4[4]", "s8[4]"),
                                           ("u8[2]", "u4[2]")])
def test_sub_byte_width_changes_pass_the_verifier_but_are_not_run(param, result):
    """Equal ByteSizeOf, so XLA's verifier accepts them; what the bytes hold depends on how
    XLA packs sub-byte values, which dynhlo (one element per byte) does not model."""
    verify_module(dynhlo.parse_hlo(_module(param, result)))
    with pytest.raises(UnsupportedError, match=r"instruction 'r'.*sub-byte"):
        dynhlo.compile(_module(param, result))


def test_same_width_bitcasts_are_unchanged():
    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    np.testing.assert_array_equal(_run("f32[2,2]{0,1}", "f32[4]", x), [1.0, 3.0, 2.0, 4.0])
    np.testing.assert_array_equal(_run("f32[2]", "u32[2]", ONE_AND_MINUS_2_5),
                                  np.array([0x3F800000, 0xC0200000], np.uint32))
