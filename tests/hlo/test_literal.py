"""Literal text <-> NumPy arrays: values, types, ranges, errors with offsets, round trips."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from dynhlo.hlo.literal import LiteralSyntaxError, format_literal, parse_literal
from dynhlo.hlo.shape import Shape, TupleShape
from dynhlo.hlo.types import ARRAY_TYPES, COMPLEX_TYPES, FLOAT_TYPES, to_numpy_dtype


def _shape(element_type: str, *dims: int) -> Shape:
    return Shape(element_type, dims, (False,) * len(dims))


def test_scalars():
    assert parse_literal("3", _shape("s32")) == np.int32(3)
    assert parse_literal("-2.5e-3", _shape("f64")) == -2.5e-3
    assert parse_literal("true", _shape("pred")).dtype == np.bool_
    assert parse_literal("(1, -2)", _shape("c128")) == 1 - 2j
    assert parse_literal("  7 ", _shape("u8")) == 7


def test_nested_array_values_and_dtype():
    value = parse_literal("{ { {1, 2}, {3, 4} }, { {5, 6}, {7, 8} } }", _shape("s16", 2, 2, 2))
    assert value.dtype == np.int16 and value.shape == (2, 2, 2)
    np.testing.assert_array_equal(value, np.arange(1, 9).reshape(2, 2, 2))


def test_special_float_values():
    value = parse_literal("{nan, -nan, inf, -inf, nan(0x7fc00001), -0}", _shape("f32", 6))
    assert np.isnan(value[:2]).all() and np.isnan(value[4])
    assert not np.signbit(value[0]) and np.signbit(value[1])
    assert value[2] == np.inf and value[3] == -np.inf and np.signbit(value[5])


def test_shape_prefixes_and_tuples():
    shape = TupleShape((_shape("f32", 2), TupleShape((_shape("s32"),))))
    value = parse_literal("(f32[2] {1, 2}, (s32[] 3))", shape)
    assert value[0].tolist() == [1.0, 2.0] and value[1][0] == 3
    assert parse_literal("f32[2]{0} {1, 2}", _shape("f32", 2)).tolist() == [1.0, 2.0]


def test_empty_arrays():
    assert parse_literal("{}", _shape("f32", 0)).shape == (0,)
    assert parse_literal("{ {}, {}, {} }", _shape("s8", 3, 0)).shape == (3, 0)
    assert parse_literal("{ }", _shape("s8", 0, 4)).shape == (0, 4)


def test_integer_ranges_including_sub_byte_and_64_bit():
    assert parse_literal("{-8, 7}", _shape("s4", 2)).astype(np.int8).tolist() == [-8, 7]
    assert parse_literal("{0, 3}", _shape("u2", 2)).astype(np.int8).tolist() == [0, 3]
    assert parse_literal("18446744073709551615", _shape("u64")) == 2**64 - 1
    assert parse_literal("-9223372036854775808", _shape("s64")) == -2**63


@pytest.mark.parametrize("element_type, text, fragment", [
    ("s4", "8", "does not fit s4: its range is -8..7"),
    ("u4", "-1", "does not fit u4: its range is 0..15"),
    ("u8", "256", "does not fit u8"),
    ("s64", "9223372036854775808", "does not fit s64"),
    ("s32", "1.0", "is not a valid s32"),
    ("s32", "true", "is not a valid s32"),
    ("pred", "2", "is not a valid pred"),
    ("f32", "false", "is not a valid f32"),
    ("f16", "70000", "out of range for f16"),
    ("bf16", "1e39", "out of range for bf16"),
    ("f8e4m3fn", "1000", "out of range for f8e4m3fn"),
    ("f64", "1e400", "'1e400' is too large"),
    ("f32", "1_0", "'1_0' is not a number"),
    ("f32", "0x10", "'0x10' is not a number"),
    ("c64", "(1e39, 0)", "out of range for c64"),
    ("c64", "1", "expected '('"),
])
def test_values_that_do_not_fit(element_type, text, fragment):
    with pytest.raises(LiteralSyntaxError) as info:
        parse_literal(text, _shape(element_type))
    assert fragment in str(info.value)
    assert info.value.offset == 0


@pytest.mark.parametrize("text, shape, offset, fragment", [
    ("{1, 2, 3}", _shape("f32", 2), 7, "more than 2 elements"),
    ("{1}", _shape("f32", 2), 2, "only 1 of 2 elements"),
    ("{ {1, 2}, {3} }", _shape("f32", 2, 2), 12, "only 1 of 2 elements"),
    ("{1, x}", _shape("f32", 2), 4, "'x' is not a number"),
    ("{1, 300}", _shape("s8", 2), 4, "value 300 does not fit s8"),
    ("{(1, 2), (3, 4e40)}", _shape("c64", 2), 9, "out of range for c64"),
    ("{...}", _shape("f32", 4), 0, "elided literal"),
    ("{1, 2} 3", _shape("f32", 2), 7, "unexpected '3' after the literal"),
    ("{1, 2", _shape("f32", 2), 5, "end of literal"),
    ("{ {1, 2}", _shape("f32", 2, 2), 8,  # was "expected ,,", then "expected ','" alone
     "expected an element or '}' to close the list after element 1 of 2, got end of literal"),
    ("(1, 2)", TupleShape((_shape("f32"),)), 2, "expected ')'"),
    ("{1}", _shape("f32", -1), 0, "needs a size for every '?' dimension"),
    ("{" * 200 + "}" * 200, Shape("f32", (1,) * 200, (False,) * 200), 0, "nested more than"),
])
def test_errors_carry_the_offset(text, shape, offset, fragment):
    with pytest.raises(LiteralSyntaxError) as info:
        parse_literal(text, shape)
    assert fragment in str(info.value)
    assert info.value.offset == offset


def test_fast_rows_and_token_reader_agree():
    text = "{ {1, -2.5, 3e2}, {nan, inf, -0} }"
    fast = parse_literal(text, _shape("f32", 2, 3))
    spaced = parse_literal(text.replace(", ", " , ").replace("{", "{ "), _shape("f32", 2, 3))
    np.testing.assert_array_equal(fast, spaced)


_FLOAT_SAMPLES = {"f8e8m0fnu": [0.5, 4.0, 1.0], "f4e2m1fn": [0.5, -2.0, 6.0]}


def _sample(element_type: str) -> np.ndarray:
    """Three values of the type: extremes for integers, a nan where the type has one."""
    dtype = to_numpy_dtype(element_type)
    if element_type == "pred":
        return np.array([True, False, True])
    if element_type in COMPLEX_TYPES:
        return np.array([1 + 2j, -0.5 + np.inf * 1j, np.nan], dtype=dtype)
    if element_type in FLOAT_TYPES:
        values = _FLOAT_SAMPLES.get(element_type, [0.1, -2.0, np.nan])
        return np.array(values, dtype=np.float64).astype(dtype)
    info = ml_dtypes.iinfo(dtype)
    wide = np.uint64 if element_type == "u64" else np.int64
    return np.array([info.min, info.max, 0], dtype=wide).astype(dtype)


@pytest.mark.parametrize("element_type", sorted(ARRAY_TYPES))
def test_round_trip_every_array_type(element_type):
    shape = _shape(element_type, 3)
    value = _sample(element_type)
    text = format_literal(value, shape)
    back = parse_literal(text, shape)
    assert back.dtype == value.dtype
    if element_type in FLOAT_TYPES or element_type in COMPLEX_TYPES:
        wide = np.complex128 if element_type in COMPLEX_TYPES else np.float64
        np.testing.assert_array_equal(back.astype(wide), value.astype(wide))
    else:
        assert back.tolist() == value.tolist()


def test_round_trip_scalar_tuple_and_nan_sign():
    shape = TupleShape((_shape("f32"), _shape("s32", 2, 2)))
    value = (np.array(-np.nan, np.float32), np.array([[1, 2], [3, 4]], np.int32))
    text = format_literal(value, shape)
    assert text == "(-nan, { {1, 2}, {3, 4} })"
    back = parse_literal(text, shape)
    assert np.signbit(back[0]) and back[1].tolist() == [[1, 2], [3, 4]]


def test_format_as_xla_prints():
    assert format_literal(np.array([1.0, 2.5], np.float32), _shape("f32", 2)) == "{1, 2.5}"
    assert format_literal(np.array(True), _shape("pred")) == "true"
    assert format_literal(np.array([1 + 2j], np.complex64), _shape("c64", 1)) == "{(1, 2)}"
    assert format_literal(np.zeros((2, 0), np.float32), _shape("f32", 2, 0)) == "{ {}, {} }"


def test_large_constant_reads_back_exactly():
    rng = np.random.default_rng(0)
    value = rng.standard_normal((64, 64)).astype(np.float32)
    shape = _shape("f32", 64, 64)
    np.testing.assert_array_equal(parse_literal(format_literal(value, shape), shape), value)
