"""Text XLA's lexer and parser read one way, read the same way by dynhlo: comments inside
shapes and attribute sub-values, braced integer lists, and what a bad literal list says.

Facts from xla/hlo/parser/hlo_lexer.cc and hlo_parser.cc, each named in its test.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.errors import HloParseError
from dynhlo.hlo import parse_hlo
from dynhlo.hlo.sharding import parse_sharding
from dynhlo.hlo.values import parse_literal_text

COMMENTED_SHAPES = """HloModule m
ENTRY e {
  a = f32[/*rows*/4, <=8 /* cols ] */]{1,/*minor*/0} parameter(0)
  b = f32[4, // the bound follows
          <=8] negate(a)
  ROOT c = f32[4,<=8]{/*}*/1,0} add(a, b)
}
"""


def test_comments_inside_a_shape_are_skipped():
    """HloLexer::LexToken skips `/*...*/` and `//...` wherever a token may start, and
    ParseShape reads dimensions and layout token by token: `f32[/*c*/4,<=8]` is f32[4,<=8]
    (dynhlo refused it: "bad dimension '/*rows*/4'")."""
    module = parse_hlo(COMMENTED_SHAPES)
    a, b, c = module.entry.instructions
    assert [(i.shape.dims, i.shape.dynamic) for i in (a, b, c)] == [((4, 8), (False, True))] * 3
    assert a.shape.layout.minor_to_major == c.shape.layout.minor_to_major == (1, 0)
    x = np.arange(4 * 5, dtype=np.float32).reshape(4, 5)
    np.testing.assert_array_equal(dynhlo.compile(COMMENTED_SHAPES)(x), x - x)


def test_an_error_in_a_commented_shape_points_at_the_bad_dimension():
    text = "HloModule m\nENTRY e {\n  ROOT a = f32[/*c*/4, /*d*/ x] parameter(0)\n}\n"
    with pytest.raises(HloParseError) as info:
        parse_hlo(text)
    assert (info.value.line, info.value.column) == (3, 30)
    assert "bad dimension 'x'" in str(info.value)
    assert "[/*c*/4, /*d*/ x]" in str(info.value)  # quoted as written


REDUCE_WINDOW = """HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  a = f32[<=8] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[<=6] reduce-window(a, z), window={size=/*three*/3 stride=/* one */1},
    to_apply=add
}
"""


def test_a_comment_inside_a_window_sub_value_is_skipped():
    """ParseWindow reads `size=` as one kAttributeName token, then ParseDxD the next token,
    which the lexer finds after any comment: `window={size=/*c*/3}` is a window of 3 (dynhlo's
    decoder saw `size= 3` and refused it as "not a window")."""
    exe = dynhlo.compile(REDUCE_WINDOW)
    a = np.array([1, 2, 4, 8, 16, 32, 64], np.float32)  # 7 of <=8: 5 windows of 3
    np.testing.assert_array_equal(exe(a), a[:-2] + a[1:-1] + a[2:])


@pytest.mark.parametrize("attr, line", [
    ("dimensions=0", "  ROOT b = f32[4,3] broadcast(a), dimensions=0"),
    ("dimensions=0", "  ROOT b = f32[4,3] broadcast(a), dimensions=0, metadata={op_name=\"x\"}"),
    ("dimensions=1", "  ROOT b = f32[4,3] broadcast(\n    a), dimensions=1"),
])
def test_a_braced_list_attribute_without_braces_is_a_parse_error(attr, line):
    """hlo_parser.cc: `dimensions` is an AttrTy::kBracedInt64List, read by ParseInt64List,
    which starts with ParseToken(kLbrace) and fails without the '{' (its message: "expects a
    list to end with }"); XLA refuses `dimensions=0`, which dynhlo accepted as {0}."""
    text = f"HloModule m\nENTRY e {{\n  a = f32[4] parameter(0)\n{line}\n}}\n"
    with pytest.raises(HloParseError) as info:
        parse_hlo(text)
    row = text.splitlines().index(next(t for t in text.splitlines() if attr in t))
    assert info.value.line == row + 1
    assert info.value.column == text.splitlines()[row].index(attr) + len(attr.split("=")[0]) + 2
    assert f"{attr.split('=')[0]}= takes a list in braces" in str(info.value)


def test_braced_lists_still_parse_on_both_paths():
    text = ("HloModule m\nENTRY e {\n  a = f32[4] parameter(0)\n"
            "  ROOT b = f32[4,3] broadcast(a), dimensions={/*d*/0}\n}\n")
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(dynhlo.compile(text)(x), np.repeat(x[:, None], 3, axis=1))


@pytest.mark.parametrize("text, column, fragment", [
    # the list is left open: say that another element or the closing '}' may stand there
    # (a missing ',' is no error: ParseDenseLiteral skips commas, tests/hlo/test_literal_commas.py)
    ("f32[3] {1, 2", 13, "expected an element or '}' to close the list after element 2 of 3, "
                         "got end of literal"),
    ("f32[3] {1 2 3 4}", 15, "more than 3 elements in a dimension of size 3"),
    # XLA prints `{...}` for a constant whose values it left out (kDots): no values to read
    ("f32[8] {1,...,8}", 11, "'...' stands for values left out; write every value"),
    # a rank-2 literal written flat: one brace level per dimension
    ("f32[2,2] {1, 2, 3, 4}", 11, "expected '{' to open a list of 2 elements (one brace "
                                  "level per dimension), got '1'"),
])
def test_a_bad_literal_list_says_what_was_expected(text, column, fragment):
    """An array literal is `{` elements `}` per dimension, commas optional (hlo_parser.cc
    ParseDenseLiteral); the message said only "expected ','"."""
    with pytest.raises(HloParseError) as info:
        parse_literal_text(text)
    assert info.value.column == column, str(info.value)
    assert fragment in str(info.value)


def test_a_comment_inside_a_sharding_sub_value_is_skipped():
    """ParseSingleSharding reads `devices=` as one kAttributeName token and the tile shape
    after it, past any comment (dynhlo's reader wanted '[' right after the '=')."""
    text = ("HloModule m\nENTRY e {\n  ROOT a = f32[4,2] parameter(0), "
            "sharding={devices=/*tiles*/[2,1]0,1}\n}\n")
    sharding = parse_sharding(parse_hlo(text).entry.root.attrs["sharding"])
    np.testing.assert_array_equal(sharding.tiles, [[0], [1]])
