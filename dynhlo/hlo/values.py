"""Standalone shapes and literals from text: `f32[2,2]{1,0}` and `f32[2,2] {{1,2},{3,4}}`."""

from __future__ import annotations

from .literal import LiteralSyntaxError, _Reader, read_literal
from .parser import _Parser
from .shape import AnyShape


def parse_shape(text: str) -> AnyShape:
    """Parse a shape such as `f32[<=5,5]{1,0}` or `(f32[2], s32[])`.

    Raises:
        HloParseError: malformed text (line and column within `text`).
    """
    parser = _Parser(text)
    shape = parser.shape()
    _expect_end(parser, "the shape")
    return shape


def parse_literal_text(text: str):
    """Parse `SHAPE LITERAL` (e.g. `s32[2] {1, 2}`, `f32[] 3.5`) into a NumPy array.

    Returns a tuple of arrays for a tuple shape.

    Raises:
        HloParseError: malformed text or values that do not fit the shape.
    """
    parser = _Parser(text)
    shape = parser.shape()
    reader = _Reader(text)
    reader.pos = parser.pos
    try:
        value = read_literal(reader, shape)
    except LiteralSyntaxError as exc:
        raise parser.error(f"bad literal for {shape}: {exc}", exc.offset) from None
    parser.pos = reader.pos
    _expect_end(parser, "the literal")
    return value


def _expect_end(parser: _Parser, what: str) -> None:
    parser.skip()
    if parser.pos != len(parser.text):
        raise parser.error(f"unexpected text after {what}")
