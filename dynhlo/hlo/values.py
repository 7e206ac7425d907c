"""Standalone shapes and literals from text: `f32[2,2]{1,0}` and `f32[2,2] {{1,2},{3,4}}`."""

from __future__ import annotations

import re

from ..errors import HloParseError
from .literal import LiteralSyntaxError, _Reader, read_literal
from .text.parser import _Parser
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
    try:
        shape = parser.shape()
    except HloParseError as exc:
        raise _values_read_as_layout(text, exc) from None
    reader = _Reader(text)
    reader.pos = parser.pos
    try:
        value = read_literal(reader, shape)
    except LiteralSyntaxError as exc:
        raise parser.error(f"bad literal for {shape}: {exc}", exc.offset) from None
    parser.pos = reader.pos
    _expect_end(parser, "the literal")
    return value


# A shape's ']' followed at once by '{': XLA's shape syntax reads that '{' as a layout.
_BRACE_AFTER_SHAPE = re.compile(r"\s*\(?\s*[a-z][a-z0-9]*\[[^\]]*\]\{")


def _values_read_as_layout(text: str, exc: HloParseError) -> HloParseError:
    """`exc`, with a hint when the values were written against the shape (`f32[2]{1,2}`):
    as in XLA's text, `{` right after `]` starts a layout, so the values were read as one."""
    if not _BRACE_AFTER_SHAPE.match(text) or "layout" not in str(exc).split("\n")[0]:
        return exc
    message = str(exc).split("\n")[0].split(": ", 1)[-1]
    return HloParseError(f"{message} (a '{{' right after ']' starts the shape's layout, as in "
                         "XLA's text; put a space before the values: f32[2] {1, 2})",
                         exc.line, exc.column, exc.source_line)


def _expect_end(parser: _Parser, what: str) -> None:
    parser.skip()
    if parser.pos != len(parser.text):
        raise parser.error(f"unexpected text after {what}")
