"""HLO literal text <-> NumPy arrays.

Grammar as XLA prints literals (xla/literal.cc, xla/hlo/parser/hlo_parser.cc): a scalar
(`1`, `-2.5e-3`, `nan`, `-nan`, `nan(0x7fc00001)`, `-inf`, `true`, complex `(1, 2)`), a nested
brace list for arrays (`{ {1, 2}, {3, 4} }`), a parenthesized list for tuples, each element
optionally preceded by its shape (`f32[2] {1, 2}`). Inside an array's braces commas are
optional, as XLA's ParseDenseLiteral skips every ',' token there (`{1 2 3}`, `{1,,2,}`); the
',' of a complex `(re, im)` is required (ParseComplex) and the one between tuple elements is
optional (ParseTupleLiteral ignores ParseToken's failure). As in XLA: integer types take integers
only, pred takes true/false (or 0/1), and a value must fit its type (`s4` holds -8..7; a
finite value that would round to inf or nan is refused). Too many or too few values, or an
elided `{...}`, are errors. Errors carry an offset into the text; the HLO parser turns it into
line:column.

A large array of reals or integers in the form XLA prints (commas between values, braces per
dimension) is read in bulk (_read_bulk): its rows found by one regex each, its values
converted by one `float`/`int` call each into an array, with no Python work per value; a
model's weights are millions of values. Anything else, or anything wrong, is read value by
value, which gives the same values and says what is wrong where.
"""

from __future__ import annotations

import re

import numpy as np

from .text.scanner import _SKIP
from .shape import UNBOUNDED, AnyShape, Shape
from .types import COMPLEX_TYPES, FLOAT_TYPES, INTEGRAL_TYPES, to_numpy_dtype

# XLA prints index comments inside nested literals (`{ /*i0=0*/ {1, 2}, ...}`): skipped, as
# any comment XLA's lexer skips (`/* a*b */`, `// ...` were read as values).
_TOKEN = re.compile(rf"{_SKIP.pattern}([{{}}(),]|-?nan\(0x[0-9a-fA-F]+\)|[^\s{{}}(),]+)")
_SHAPE_PREFIX = re.compile(r"\s*[a-z][a-z0-9]*\[[^\]]*\](\{[^}]*\})?")
_INT = re.compile(r"-?[0-9]+")
# `[0-9]+\.?[0-9]*` split a run of digits at every point: quadratic on `111...1x`.
_FLOAT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?"
                    r"|inf|nan(?:\(0x[0-9a-fA-F]+\))?)")
_ROW = re.compile(r"(?:\s|/\*[^*]*\*/)*\{([^{}()]*)\}")  # an innermost `{1, 2}`: one step
_BETWEEN = re.compile(r"[\s,]*")   # XLA skips commas between a dimension's elements
_OPEN = re.compile(r"\s*\{")
_CLOSE = re.compile(r"[\s,]*\}")
_PLUS = re.compile(r"(?<![eE])\+")   # float() takes `+1`; XLA's literals do not
# what the values of each kind may hold: anything else (inf, nan, comments) is read one by one
_FLOAT_TEXT = str.maketrans("", "", "0123456789.eE+-, \t\r\n")
_INT_TEXT = str.maketrans("", "", "0123456789-, \t\r\n")
_BULK_ELEMENTS = 256   # below this, reading value by value costs as little
_INF = float("inf")
_NEG_ZERO = -0.0  # what `-0` reads as: an integer zero, or a float zero with its sign
_MAX_RANK = 128  # deeper brace nesting is refused rather than recursed into


class LiteralSyntaxError(ValueError):
    """Raised with `offset` into the literal text; the HLO parser turns it into line:column."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset


class _Reader:
    """Tokens of literal text from `pos` on (the parser sets `pos` to where a literal starts)."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def peek(self) -> str:
        m = _TOKEN.match(self.text, self.pos)
        return m.group(1) if m else ""

    def take(self, expected: str | None = None) -> str:
        m = _TOKEN.match(self.text, self.pos)
        if not m:
            what = f"'{expected}'" if expected else "a value"  # not "expected ,,"
            raise LiteralSyntaxError(f"expected {what}, got end of literal", len(self.text))
        if expected is not None and m.group(1) != expected:
            raise LiteralSyntaxError(f"expected '{expected}', got '{m.group(1)}'",
                                     m.start(1))
        self.pos = m.end()
        return m.group(1)

    def token_start(self) -> int:
        """Where the next token starts (after any whitespace)."""
        m = _TOKEN.match(self.text, self.pos)
        return m.start(1) if m else len(self.text)

    def skip_shape_prefix(self) -> None:
        m = _SHAPE_PREFIX.match(self.text, self.pos)
        if m:
            self.pos = m.end()


def _scalar_value(tok: str):
    """The Python value of one scalar token: bool, int or float; ValueError if none."""
    if tok == "true" or tok == "false":
        return tok == "true"
    if _INT.fullmatch(tok):
        if len(tok) > 40:
            raise OverflowError(tok)
        value = int(tok)
        return _NEG_ZERO if value == 0 and tok[0] == "-" else value
    if _FLOAT.fullmatch(tok):
        value = float(tok.split("(")[0])
        if value in (_INF, -_INF) and "inf" not in tok:
            raise OverflowError(tok)
        return value
    raise ValueError(tok)


def _read_row(reader: _Reader, size: int, out: list) -> bool:
    """Fast path for an innermost `{a, b, c}` of real values; False to read it token by token."""
    m = _ROW.match(reader.text, reader.pos)
    if not m:
        return False
    body = m.group(1)
    parts = body.split(",") if body.strip() else []
    if len(parts) != size:
        return False
    try:
        out.extend(_scalar_value(p.strip()) for p in parts)
    except (ValueError, OverflowError):
        del out[len(out) - len(parts):]
        return False
    reader.pos = m.end()
    return True


def _read_array(reader: _Reader, dims: tuple[int, ...], is_complex: bool, out: list) -> None:
    if not dims:
        out.append(_read_scalar(reader, is_complex))
        return
    if len(dims) == 1 and not is_complex and _read_row(reader, dims[0], out):
        return
    start = reader.pos
    if reader.peek() not in ("{", ""):
        raise LiteralSyntaxError(f"expected '{{' to open a list of {dims[0]} elements (one "
                                 f"brace level per dimension), got "
                                 f"'{reader.peek()}'", reader.token_start())
    reader.take("{")
    if reader.peek() == "...":
        raise LiteralSyntaxError("elided literal '{...}': dump the module with large "
                                 "constants printed", start)
    count = 0
    while True:
        _skip_commas(reader)
        tok = reader.peek()
        if tok == "}":
            break
        if not tok:
            raise LiteralSyntaxError(f"expected an element or '}}' to close the list after "
                                     f"element {count} of {dims[0]}, got end of literal",
                                     reader.token_start())
        if count == dims[0]:
            raise LiteralSyntaxError(f"more than {dims[0]} elements in a dimension of size "
                                     f"{dims[0]}", reader.token_start())
        _read_array(reader, dims[1:], is_complex, out)
        count += 1
    if count != dims[0] and not (count == 0 and 0 in dims):
        raise LiteralSyntaxError(f"only {count} of {dims[0]} elements in a dimension",
                                 reader.token_start())
    reader.take("}")


def _skip_commas(reader: _Reader) -> None:
    """XLA's ParseDenseLiteral skips every ',' inside an array literal's braces (its kComma
    case only lexes on): `{1 2 3}`, `{1, 2, 3}`, `{1,,2,3,}` and `{ {1 2} {3 4} }` all read
    the same. Only the separators inside a complex `(re, im)` and between tuple elements are
    read elsewhere."""
    while reader.peek() == ",":
        reader.take(",")


def _read_scalar(reader: _Reader, is_complex: bool):
    if is_complex:
        reader.take("(")
        real = _number(reader)
        reader.take(",")
        imag = _number(reader)
        reader.take(")")
        if isinstance(real, bool) or isinstance(imag, bool):
            raise LiteralSyntaxError("expected a number, got a boolean", reader.pos)
        return complex(real, imag)
    return _number(reader)


def _number(reader: _Reader):
    offset = reader.pos
    tok = reader.take()
    if tok == "...":  # XLA's printer elides a large constant's values as `{...}`
        raise LiteralSyntaxError("'...' stands for values left out; write every value (dump "
                                 "the module with large constants printed)",
                                 _TOKEN.match(reader.text, offset).start(1))
    try:
        return _scalar_value(tok)
    except (ValueError, OverflowError) as exc:
        shown = tok if len(tok) <= 24 else tok[:20] + "..."
        problem = "is too large" if isinstance(exc, OverflowError) else "is not a number"
        raise LiteralSyntaxError(f"'{shown}' {problem}",
                                 _TOKEN.match(reader.text, offset).start(1)) from None


def read_literal(reader: _Reader, shape: AnyShape, depth: int = 0):
    """Read one literal of `shape` at the reader's position."""
    reader.skip_shape_prefix()
    if depth > _MAX_RANK or (not shape.is_tuple and len(shape.dims) > _MAX_RANK):
        raise LiteralSyntaxError(f"literal nested more than {_MAX_RANK} deep", reader.pos)
    if shape.is_tuple:
        reader.take("(")
        values = []
        for i, element in enumerate(shape.elements):
            if i and reader.peek() == ",":  # ParseTupleLiteral ignores a missing ','
                reader.take(",")
            values.append(read_literal(reader, element, depth + 1))
        reader.take(")")
        return tuple(values)
    if shape.element_type in ("token", "opaque"):
        raise LiteralSyntaxError(f"{shape.element_type} has no literal values", reader.pos)
    if UNBOUNDED in shape.dims:
        raise LiteralSyntaxError(f"a literal of {shape} needs a size for every '?' dimension",
                                 reader.pos)
    start = reader.token_start()
    bulk = _read_bulk(reader, shape)
    if bulk is not None:
        return bulk
    flat: list = []
    _read_array(reader, shape.dims, shape.element_type in COMPLEX_TYPES, flat)
    try:
        return _to_array(flat, shape)
    except _BadValue as exc:
        raise LiteralSyntaxError(str(exc), _element_offset(reader.text, start, exc.index,
                                                           shape.element_type)) from None
    except ValueError as exc:
        raise LiteralSyntaxError(str(exc), start) from None


def _read_bulk(reader: _Reader, shape: Shape):
    """The array of a large real or integer literal in XLA's printed form, read in bulk
    (module doc); None, with the reader where it was, for anything else."""
    element_type, dims = shape.element_type, shape.dims
    count = int(np.prod(dims, dtype=np.int64)) if dims else 0
    if count < _BULK_ELEMENTS or element_type not in FLOAT_TYPES | INTEGRAL_TYPES:
        return None
    rows: list[str] = []
    end = _bulk_rows(reader.text, reader.pos, dims, rows)
    if end is None:
        return None
    text = ",".join(rows)
    is_float = element_type in FLOAT_TYPES
    if text.translate(_FLOAT_TEXT if is_float else _INT_TEXT) or (
            is_float and "+" in text and _PLUS.search(text)):
        return None
    dtype = to_numpy_dtype(element_type)
    try:
        if is_float:
            wide = np.fromiter(map(float, text.split(",")), np.float64, count)
            if np.isinf(wide).any():
                return None   # too large for a double: said where, value by value
            array = _to_float_array(wide, element_type, dtype)
        else:
            wide = np.fromiter(map(int, text.split(",")),
                               np.uint64 if element_type == "u64" else np.int64, count)
            info = _iinfo(dtype)
            if wide.min() < info.min or wide.max() > info.max:
                return None
            array = wide.astype(dtype)
    except (ValueError, OverflowError):
        return None
    reader.pos = end
    return array.reshape(dims)


def _bulk_rows(text: str, pos: int, dims: tuple, rows: list) -> int | None:
    """Where the nested braces of `dims` at `pos` end, the innermost rows' bodies appended
    to `rows`; None where they are not in the printed form (a row of another length)."""
    if len(dims) == 1:
        m = _ROW.match(text, pos)
        if not m or m.group(1).count(",") != dims[0] - 1:
            return None
        rows.append(m.group(1))
        return m.end()
    m = _OPEN.match(text, pos)
    if not m:
        return None
    pos = m.end()
    for _ in range(dims[0]):
        pos = _bulk_rows(text, _BETWEEN.match(text, pos).end(), dims[1:], rows)
        if pos is None:
            return None
    m = _CLOSE.match(text, pos)
    return m.end() if m else None


class _BadValue(ValueError):
    """A value that does not fit its element type; `index` is its flat position."""

    def __init__(self, message: str, index: int):
        super().__init__(message)
        self.index = index


def _element_offset(text: str, start: int, index: int, element_type: str) -> int:
    """Where the `index`-th value of the literal at `start` is written."""
    opener = "(" if element_type in COMPLEX_TYPES else None
    seen = -1
    for m in _TOKEN.finditer(text, start):
        tok = m.group(1)
        if (tok == opener) if opener else tok not in "{}(),":
            seen += 1
            if seen == index:
                return m.start(1)
    return start


def _iinfo(dtype: np.dtype):
    """The integer range of a NumPy or ml_dtypes (s2/s4/u2/u4, kind "V") integer dtype."""
    if dtype.kind != "V":
        return np.iinfo(dtype)
    import ml_dtypes  # only for the sub-byte types: importing it costs most of a second
    return ml_dtypes.iinfo(dtype)


def _to_array(flat: list, shape: Shape) -> np.ndarray:
    """The values as an array of the shape's type; ValueError naming a value that is wrong."""
    element_type = shape.element_type
    dtype = to_numpy_dtype(element_type)
    if element_type == "pred":
        _check_kinds(flat, element_type, lambda v: isinstance(v, bool) or v is _NEG_ZERO or (
            isinstance(v, int) and v in (0, 1)))
        array = np.array(flat, dtype=np.bool_)
    elif element_type in INTEGRAL_TYPES:
        _check_kinds(flat, element_type, lambda v: v is _NEG_ZERO or (
            isinstance(v, int) and not isinstance(v, bool)))
        info = _iinfo(dtype)
        for i, v in enumerate(flat):
            if not info.min <= v <= info.max:
                raise _BadValue(f"value {v} does not fit {element_type}: its range is "
                                f"{info.min}..{info.max}", i)
        array = np.array(flat, dtype=np.uint64 if element_type == "u64" else np.int64)
        array = array.astype(dtype)
    else:
        _check_kinds(flat, element_type, lambda v: not isinstance(v, bool))
        array = _to_float_array(flat, element_type, dtype)
    try:
        return array.reshape(shape.dims)
    except (ValueError, OverflowError, MemoryError):
        raise ValueError(f"{len(flat)} values do not make a {shape}") from None


def _check_kinds(flat: list, element_type: str, ok) -> None:
    for i, v in enumerate(flat):
        if not ok(v):
            shown = str(v).lower() if isinstance(v, bool) else v
            raise _BadValue(f"value {shown} is not a valid {element_type}", i)


def _to_float_array(flat: list, element_type: str, dtype) -> np.ndarray:
    wide = np.complex128 if element_type in COMPLEX_TYPES else np.float64
    try:
        source = np.array(flat, dtype=wide)
    except OverflowError:
        raise ValueError(f"a value is too large for {element_type}") from None
    with np.errstate(over="ignore", invalid="ignore"):
        array = source.astype(dtype)
        lost = np.isfinite(source) & ~np.isfinite(array.astype(wide))
    if lost.any():
        i = int(np.flatnonzero(lost.reshape(-1))[0])
        raise _BadValue(f"value {flat[i]} is out of range for {element_type}", i)
    return array


def parse_literal(text: str, shape: AnyShape):
    """Parse literal text for a known shape into a NumPy array (tuple for tuple shapes).

    Raises:
        LiteralSyntaxError: with the offset of the problem in `text`.
    """
    reader = _Reader(text)
    value = read_literal(reader, shape)
    if reader.peek():
        raise LiteralSyntaxError(f"unexpected '{reader.peek()}' after the literal",
                                 reader.token_start())
    return value


def _format_scalar(value, element_type: str) -> str:
    if element_type == "pred":
        return "true" if value else "false"
    if element_type in COMPLEX_TYPES:
        return f"({_format_scalar(value.real, 'f64')}, {_format_scalar(value.imag, 'f64')})"
    text = str(value)
    if text == "nan" and np.signbit(np.float64(value)):
        return "-nan"
    return text[:-2] if text.endswith(".0") else text


def format_literal(value, shape: AnyShape) -> str:
    """Literal text for an array (or tuple of arrays), without the shape, as XLA prints it."""
    if shape.is_tuple:
        return "(" + ", ".join(format_literal(v, s) for v, s in zip(value, shape.elements,
                                                                    strict=True)) + ")"
    if not shape.dims:
        return _format_scalar(value.reshape(()).dtype.type(value.reshape(())[()]),
                              shape.element_type)
    return _format_nested(value, shape.element_type)


def _format_nested(array: np.ndarray, element_type: str) -> str:
    if array.ndim == 1:
        return "{" + ", ".join(_format_scalar(v, element_type) for v in array) + "}"
    return "{ " + ", ".join(_format_nested(a, element_type) for a in array) + " }"
