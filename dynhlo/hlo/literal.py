"""HLO literal text <-> NumPy arrays.

Grammar as XLA prints literals (xla/literal.cc, xla/hlo/parser/hlo_parser.cc): a scalar
(`1`, `-2.5e-3`, `nan`, `-inf`, `true`, complex `(1, 2)`), a nested brace list for arrays
(`{ {1, 2}, {3, 4} }`), a parenthesized list for tuples, each element optionally preceded by
its shape (`f32[2] {1, 2}`). Values past what the shape holds, or too few, are errors.
"""

from __future__ import annotations

import re

import numpy as np

from .shape import AnyShape, Shape
from .types import COMPLEX_TYPES, to_numpy_dtype

_TOKEN = re.compile(r"\s*([{}(),]|[^\s{}(),]+)")
_SHAPE_PREFIX = re.compile(r"\s*[a-z][a-z0-9]*\[[^\]]*\](\{[^}]*\})?")


class LiteralSyntaxError(ValueError):
    """Raised with `offset` into the literal text; the HLO parser turns it into line:column."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset


class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def peek(self) -> str:
        m = _TOKEN.match(self.text, self.pos)
        return m.group(1) if m else ""

    def take(self, expected: str | None = None) -> str:
        m = _TOKEN.match(self.text, self.pos)
        if not m:
            raise LiteralSyntaxError(f"expected {expected or 'a value'}, got end of literal",
                                     len(self.text))
        if expected is not None and m.group(1) != expected:
            raise LiteralSyntaxError(f"expected '{expected}', got '{m.group(1)}'",
                                     m.start(1))
        self.pos = m.end()
        return m.group(1)

    def skip_shape_prefix(self) -> None:
        m = _SHAPE_PREFIX.match(self.text, self.pos)
        if m:
            self.pos = m.end()


def _read_array(reader: _Reader, dims: tuple[int, ...], is_complex: bool, out: list) -> None:
    if not dims:
        out.append(_read_scalar(reader, is_complex))
        return
    start = reader.pos
    reader.take("{")
    if reader.peek() == "...":
        raise LiteralSyntaxError("elided literal '{...}': dump the module with large "
                                 "constants printed", start)
    count = 0
    while reader.peek() != "}":
        if count:
            reader.take(",")
        if count == dims[0]:
            raise LiteralSyntaxError(f"more than {dims[0]} elements in a dimension of size "
                                     f"{dims[0]}", reader.pos)
        _read_array(reader, dims[1:], is_complex, out)
        count += 1
    if count != dims[0] and not (count == 0 and 0 in dims):
        raise LiteralSyntaxError(f"{count} elements in a dimension of size {dims[0]}",
                                 reader.pos)
    reader.take("}")


def _read_scalar(reader: _Reader, is_complex: bool):
    if is_complex:
        reader.take("(")
        real = _number(reader)
        reader.take(",")
        imag = _number(reader)
        reader.take(")")
        return complex(real, imag)
    return _number(reader)


def _number(reader: _Reader):
    offset = reader.pos
    tok = reader.take()
    if tok == "true":
        return True
    if tok == "false":
        return False
    try:
        return int(tok)
    except ValueError:
        pass
    try:
        return float(tok.split("(")[0])
    except ValueError:
        raise LiteralSyntaxError(f"expected a number, got '{tok}'", offset) from None


def read_literal(reader: _Reader, shape: AnyShape):
    """Read one literal of `shape` at the reader's position."""
    reader.skip_shape_prefix()
    if shape.is_tuple:
        reader.take("(")
        values = []
        for i, element in enumerate(shape.elements):
            if i:
                reader.take(",")
            values.append(read_literal(reader, element))
        reader.take(")")
        return tuple(values)
    flat: list = []
    _read_array(reader, shape.dims, shape.element_type in COMPLEX_TYPES, flat)
    return _to_array(flat, shape, reader)


def _to_array(flat: list, shape: Shape, reader: _Reader) -> np.ndarray:
    dtype = to_numpy_dtype(shape.element_type)
    try:
        if dtype.kind in "iu":
            array = np.array(flat, dtype=np.float64 if any(isinstance(v, float) for v in flat)
                             else object).astype(dtype)
        else:
            array = np.array(flat, dtype=np.float64 if dtype.kind == "V" or dtype.itemsize < 4
                             and dtype.kind == "f" else None).astype(dtype)
    except (OverflowError, ValueError, TypeError) as exc:
        raise LiteralSyntaxError(f"value does not fit {shape.element_type}: {exc}",
                                 reader.pos) from None
    return array.reshape(shape.dims)


def parse_literal(text: str, shape: AnyShape):
    """Parse literal text for a known shape into a NumPy array (tuple for tuple shapes).

    Raises:
        LiteralSyntaxError: with the offset of the problem in `text`.
    """
    reader = _Reader(text)
    value = read_literal(reader, shape)
    if reader.peek():
        raise LiteralSyntaxError(f"unexpected '{reader.peek()}' after the literal", reader.pos)
    return value


def _format_scalar(value, element_type: str) -> str:
    if element_type == "pred":
        return "true" if value else "false"
    if element_type in COMPLEX_TYPES:
        return f"({_format_scalar(value.real, 'f64')}, {_format_scalar(value.imag, 'f64')})"
    text = str(value)
    return text[:-2] if text.endswith(".0") else text


def format_literal(value, shape: AnyShape) -> str:
    """Literal text for an array (or tuple of arrays), without the shape, as XLA prints it."""
    if shape.is_tuple:
        return "(" + ", ".join(format_literal(v, s) for v, s in zip(value, shape.elements)) + ")"
    if not shape.dims:
        return _format_scalar(value.reshape(()).dtype.type(value.reshape(())[()]),
                              shape.element_type)
    return _format_nested(value, shape.element_type)


def _format_nested(array: np.ndarray, element_type: str) -> str:
    if array.ndim == 1:
        dtype_type = array.dtype.type
        return "{" + ", ".join(_format_scalar(dtype_type(v), element_type) for v in array) + "}"
    return "{ " + ", ".join(_format_nested(a, element_type) for a in array) + " }"
