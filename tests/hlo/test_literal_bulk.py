"""Large literals read in bulk (hlo/literal.py `_read_bulk`) give exactly what reading them
value by value gives, and what is wrong in them is still said where it is written."""

from __future__ import annotations

import numpy as np
import pytest

from dynhlo.hlo import literal
from dynhlo.hlo.literal import LiteralSyntaxError, format_literal, parse_literal
from dynhlo.hlo.shape import Shape
from dynhlo.hlo.types import to_numpy_dtype

RNG = np.random.default_rng(5)
TYPES = ["f32", "f64", "f16", "bf16", "f8e4m3fn", "s8", "s32", "s64", "u8", "u32", "u64",
         "s4"]


def _one_by_one(text: str, shape: Shape, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(literal, "_BULK_ELEMENTS", 1 << 62)
        return parse_literal(text, shape)


def _values(element_type: str, dims: tuple) -> np.ndarray:
    dtype = to_numpy_dtype(element_type)
    if element_type.startswith(("s", "u")):
        info = literal._iinfo(dtype)
        return RNG.integers(int(info.min), int(info.max), dims, endpoint=True,
                            dtype=np.uint64 if element_type == "u64" else np.int64
                            ).astype(dtype)
    wide = RNG.standard_normal(dims) * 10.0 ** RNG.integers(-4, 3, dims)
    wide.flat[:3] = [-0.0, 0.0, 1e-30]
    return wide.astype(dtype)


@pytest.mark.parametrize("element_type", TYPES)
def test_a_printed_literal_reads_back_in_bulk_as_value_by_value(element_type, monkeypatch):
    dims = (4, 3, 50)
    shape = Shape(element_type, dims)
    value = _values(element_type, dims)
    text = format_literal(value, shape)
    bulk = parse_literal(text, shape)
    assert bulk.dtype == value.dtype and bulk.shape == dims
    assert bulk.tobytes() == value.tobytes()
    assert bulk.tobytes() == _one_by_one(text, shape, monkeypatch).tobytes()
    if element_type[0] in "fb":
        assert np.signbit(bulk.reshape(-1)[0])   # -0 kept


@pytest.mark.parametrize("written", ["{1 2 3}", "{1,,2,3,}", "{ {1, 2}, {3, 4} }"])
def test_other_spellings_are_read_value_by_value(written, monkeypatch):
    """XLA skips commas inside an array's braces: a row without them is no bulk row."""
    monkeypatch.setattr(literal, "_BULK_ELEMENTS", 1)
    values = [float(v) for v in written.replace("{", " ").replace("}", " ").replace(
        ",", " ").split()]
    dims = (2, 2) if written.startswith("{ {") else (len(values),)
    got = parse_literal(written, Shape("f32", dims))
    np.testing.assert_array_equal(got.reshape(-1), values)


BAD = [
    ("+1", "f32", r"'\+1' is not a number"),
    ("1e999", "f32", "'1e999' is too large"),
    ("1.5", "s32", "value 1.5 is not a valid s32"),
    ("300", "u8", "value 300 does not fit u8"),
    ("99999999999999999999", "s64", "does not fit s64"),
    ("inf", "f32", None),   # not an error: read value by value
]


@pytest.mark.parametrize("bad,element_type,message", BAD)
def test_a_bad_value_in_a_large_literal_is_named_where_it_is(bad, element_type, message):
    values = ["1"] * 600
    values[437] = bad
    rows = ", ".join("{" + ", ".join(values[i:i + 20]) + "}" for i in range(0, 600, 20))
    text = "{ " + rows + " }"
    shape = Shape(element_type, (30, 20))
    if message is None:
        assert np.isinf(parse_literal(text, shape).reshape(-1)[437])
        return
    with pytest.raises(LiteralSyntaxError, match=message) as info:
        parse_literal(text, shape)
    assert text[info.value.offset:].startswith(bad)


def test_a_row_of_another_length_is_refused_as_before():
    rows = ["{" + ", ".join(["2"] * 20) + "}"] * 30
    rows[7] = "{" + ", ".join(["2"] * 19) + "}"
    with pytest.raises(LiteralSyntaxError, match="only 19 of 20 elements"):
        parse_literal("{ " + ", ".join(rows) + " }", Shape("f32", (30, 20)))
