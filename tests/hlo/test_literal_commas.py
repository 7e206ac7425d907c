"""Where a literal's commas are optional, as XLA's parser has it.

Facts from xla/hlo/parser/hlo_parser.cc:
- ParseDenseLiteral reads an array literal token by token and its `kComma` case only lexes
  on: inside the braces a ',' may stand anywhere, any number of times, or not at all;
  element counts are still checked per dimension.
- ParseComplex requires the ',' between the real and the imaginary part.
- ParseTupleLiteral calls ParseToken(kComma) between elements and ignores its failure: a
  missing ',' between tuple elements is accepted; a second one is not.
Not followed: XLA's lexer splits `{1-2}` into 1 and -2 (a number token ends where its
pattern does), and a rank-0 literal that is a lone ',' reads as 0 (`(1,,)` is (1, 0)); dynhlo
reports both as errors.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.errors import HloParseError
from dynhlo.hlo.literal import LiteralSyntaxError, parse_literal
from dynhlo.hlo.shape import Shape, TupleShape
from dynhlo.hlo.values import parse_literal_text


def _shape(element_type: str, *dims: int) -> Shape:
    return Shape(element_type, dims, (False,) * len(dims))


@pytest.mark.parametrize("text", [
    "{1 2 3}",          # whitespace only
    "{1, 2 3}",         # mixed
    "{,1,2,3}",         # leading
    "{1,2,3,}",         # trailing
    "{1,,,2, ,3}",      # repeated
    "{1\n2\t3}",        # any whitespace
    "{1 /* c */ 2 3}",  # comments between elements, as the lexer skips them anywhere
])
def test_commas_inside_an_array_are_optional(text):
    np.testing.assert_array_equal(parse_literal(text, _shape("s32", 3)), [1, 2, 3])


def test_commas_between_sub_arrays_are_optional_at_every_level():
    expected = np.arange(1, 9, dtype=np.float32).reshape(2, 2, 2)
    for text in ("{ { {1 2} {3 4} } { {5 6} {7 8} } }",
                 "{{{1 2}{3 4}}{{5 6}{7 8}}}",
                 "{ { {1, 2}, {3 4} }, { {5 6} {7, 8}, }, }"):
        np.testing.assert_array_equal(parse_literal(text, _shape("f32", 2, 2, 2)), expected)


def test_every_value_kind_without_commas():
    value = parse_literal("{-1.5 nan -nan inf -inf 2e3 -0}", _shape("f64", 7))
    assert value[0] == -1.5 and value[3] == np.inf and value[4] == -np.inf and value[5] == 2000
    assert np.isnan(value[1]) and np.isnan(value[2]) and np.signbit(value[2])
    assert np.signbit(value[6]) and value[6] == 0
    assert parse_literal("{true false 1}", _shape("pred", 3)).tolist() == [True, False, True]
    assert parse_literal("{(1, 2) (3, -4)}", _shape("c64", 2)).tolist() == [1 + 2j, 3 - 4j]


@pytest.mark.parametrize("text, shape, offset, fragment", [
    # counts are still checked: commas being optional does not merge or split elements
    ("{1 2 3}", _shape("s32", 2), 5, "more than 2 elements in a dimension of size 2"),
    ("{1,,2}", _shape("s32", 3), 5, "only 2 of 3 elements"),
    ("{ {1 2} {3} }", _shape("s32", 2, 2), 10, "only 1 of 2 elements"),
    ("{1 2", _shape("s32", 2), 4, "expected an element or '}' to close the list after element "
                                  "2 of 2, got end of literal"),
    # ParseComplex: the ',' inside a complex value is required
    ("{(1 2)}", _shape("c64", 1), 4, "expected ',', got '2'"),
    # a comma is no value: ParseTupleLiteral takes one ',' between elements, and the next
    # element here is ', 2', which XLA refuses too (at the '2')
    ("(1,, 2)", TupleShape((_shape("f32"), _shape("f32"))), 3, "',' is not a number"),
])
def test_what_stays_an_error(text, shape, offset, fragment):
    with pytest.raises(LiteralSyntaxError) as info:
        parse_literal(text, shape)
    assert fragment in str(info.value)
    assert info.value.offset == offset


def test_a_tuple_literal_takes_its_comma_or_not():
    shape = TupleShape((_shape("f32"), _shape("s32", 2)))
    for text in ("(1, {2, 3})", "(1 {2 3})"):
        value = parse_literal(text, shape)
        assert value[0] == 1 and value[1].tolist() == [2, 3]


def test_an_error_in_a_comma_less_literal_has_its_line_and_column():
    with pytest.raises(HloParseError) as info:
        parse_literal_text("s8[3] {1 2 300}")
    assert (info.value.line, info.value.column) == (1, 12)
    assert "value 300 does not fit s8" in str(info.value)


COMMA_LESS = """HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  c = f32[2,3] constant({ {1 2 3} {4 5 6} })
  ROOT r = f32[2,3] add(a, c)
}
"""


def test_a_module_with_comma_less_constants_runs():
    """Both instruction paths (the one-regex fast path and the general one, taken when a
    comment sits in the line) read the constant the same way."""
    x = np.full((2, 3), 10, dtype=np.float32)
    expected = x + np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32)
    commented = COMMA_LESS.replace("{4 5 6}", "{4 /* five */ 5 6}")
    for text in (COMMA_LESS, commented):
        np.testing.assert_array_equal(dynhlo.compile(text)(x), expected)
