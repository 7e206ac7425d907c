"""Low-level scanning of HLO text: positions and errors, names, shapes, attribute values.

`_Scanner` works on offsets into the whole text with anchored regexes, not on tokens; every
error is an HloParseError with the line and column of `pos`. Shapes are cached by their text,
since a module writes the same few shapes many times. Every regex is linear (none can
backtrack catastrophically) and nothing recurses deeper than `_MAX_DEPTH`.
"""

from __future__ import annotations

import re

from ...errors import HloParseError
from ..shape import UNBOUNDED, AnyShape, Layout, Shape, TupleShape
from ..types import ELEMENT_TYPES

_MAX_DEPTH = 64  # tuple shapes nested deeper than this are refused, not a RecursionError

_N = r"[A-Za-z_][\w.\-]*"  # a name
_ARR = r"[a-z][a-z0-9]*\[[^\]\n]*\](?:\{[^}\n]*\})?"  # an array shape
_STR = r'"(?:[^"\\\n]|\\.)*"'  # a string on one line
# Blanks and comments, each matched one way only: `(?:\s+|/\*.*?\*/|...)*` split a run of n
# spaces in 2^n ways (and a comment could end at any later `*/` or `//`), and a match that
# then failed (no ',' after the blanks) tried every split: a fuzzed module hung the parser.
_SKIP = re.compile(r"(?:\s|/\*[^*]*\*+(?:[^/*][^*]*\*+)*/|//[^\n]*(?![^\n]))*")
_NAME = re.compile(rf"%?({_N})")
# XLA's lexer skips comments between any two tokens, inside a shape too (`f32[/*b*/4,<=8]`,
# `{1,/*minor*/0}`): the brackets may hold comments, even ones with a ']' or '}' in them; each
# alternative starts differently, so a run is matched one way only (linear). A `//` comment
# runs to the end of its line (XLA's lexer) and `(?![^\n])` lets it end nowhere else: as a bare
# `//[^\n]*` it could stop before any character, and a shape whose ']' never came
# (`f32[2 ... b=////...`, fuzz seed 50 case 513) tried every split of a '/' run into comments,
# Fibonacci-many (40 slashes: minutes).
_COMMENT = re.compile(r"/\*[^*]*\*+(?:[^/*][^*]*\*+)*/|//[^\n]*(?![^\n])")
_IN_BRACKETS = rf"(?:[^\]/]|{_COMMENT.pattern}|/(?![*/]))*"
_IN_BRACES = rf"(?:[^}}/]|{_COMMENT.pattern}|/(?![*/]))*"
_SHAPE_OPEN = re.compile(r"[a-z][a-z0-9]*\[")  # where _ARRAY_SHAPE fails: no ']' came
_ARRAY_SHAPE = re.compile(rf"([a-z][a-z0-9]*)\[({_IN_BRACKETS})\](\{{{_IN_BRACES}\}})?")
# `(<=)?\s*` right after `\s*` split a blank run two ways at every point (quadratic).
_DIM = re.compile(r"\s*(?:(\?)|(?:(<=)\s*)?(-?)([0-9]{1,18}))\s*")
# A bare attribute value's characters. XLA's lexer starts a comment at `//` or `/*` wherever
# one may stand (`dimensions={0}// c`), so a value stops there; any other '/' is kept.
_WORD = r'[^\s,{}()\[\]"/]'
_SLASH = r"/(?![/*])"
_VALUE_PART = re.compile(rf"{_WORD}*(?:{_SLASH}{_WORD}*)*")  # each character one way
_BARE = rf"(?:{_WORD}|{_SLASH}){_VALUE_PART.pattern}"  # a non-empty _VALUE_PART
_SIMPLE_VALUE = re.compile(_BARE)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_QUOTED = {'"': _STRING, "'": re.compile(r"'(?:[^'\\]|\\.)*'")}  # XLA lexes both as strings
_SPACE = re.compile(r"\s*")
# Inside an attribute value's brackets what matters: brackets, strings, and comments, which
# XLA's lexer skips there as between any tokens. A JSON dict (backend_config={...}) is read
# raw by XLA (HloLexer::LexJsonDict: braces and "strings" only), so it keeps its text.
_DELIMITER = re.compile(r'[{}()\[\]"\'/]')
_JSON_DELIMITER = re.compile(r'[{}()\[\]"]')
_OPEN = {"{": "}", "(": ")", "[": "]"}


class _DimError(ValueError):
    """A bad dimension list; `offset` is where in it the fault is."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset


def _dims(text: str) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """`<=5, 5` -> ((5, 5), (True, False)); _DimError naming the bad part and its offset."""
    if not text.strip():
        return (), ()
    dims, dynamic = [], []
    offset = 0
    for part in text.split(","):
        m = _DIM.fullmatch(part)
        if not m:
            raise _bad_dim(part, offset)
        if m.group(3):
            raise _DimError(f"negative dimension '{part.strip()}'",
                            offset + len(part) - len(part.lstrip()))
        dims.append(UNBOUNDED if m.group(1) else int(m.group(4)))
        dynamic.append(bool(m.group(1) or m.group(2)))
        offset += len(part) + 1
    return tuple(dims), tuple(dynamic)


def _bad_dim(part: str, offset: int) -> _DimError:
    """A dimension followed by other text is a `[` left open (`f32[<=64,8 parameter(0)`):
    say so at the text, not with the rest of the module quoted as one dimension."""
    m = _DIM.match(part)
    if m and (m.group(1) or m.group(4)) and m.end() < len(part) and part[m.end() - 1].isspace():
        rest = part[m.end():].split("\n")[0][:12]
        return _DimError(f"expected ',' or ']' after the dimension '{part[:m.end()].strip()}',"
                         f" got '{rest}'", offset + m.end())
    return _DimError(f"bad dimension '{part.strip()}': expected a size like 5, <=5 or ?",
                     offset + len(part) - len(part.lstrip()))


def _blank_comments(text: str) -> str:
    """`text` with each comment replaced by as many blanks (offsets into it stay valid)."""
    return _COMMENT.sub(lambda c: " " * len(c.group(0)), text)


def _layout(text: str, rank: int) -> Layout:
    body, _, tail = text[1:-1].partition(":")
    parts = [x.strip() for x in body.split(",")] if body.strip() else []
    if not all(p.isdigit() and p.isascii() for p in parts):
        raise ValueError(f"bad layout '{text}': expected dimension numbers like {{1,0}}")
    minor_to_major = tuple(int(p) for p in parts)
    if minor_to_major and sorted(minor_to_major) != list(range(rank)):
        raise ValueError(f"layout {text} is not a permutation of the {rank} dimensions")
    return Layout(minor_to_major, tail.strip())



class _Scanner:
    """The text, the current position `pos`, and the small reads every part of the parser uses."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self._shape_cache: dict[str, AnyShape] = {}

    # -- errors and low-level scanning ----------------------------------------------------

    def error(self, message: str, pos: int | None = None) -> HloParseError:
        """An HloParseError at `pos` (default: the current position), with line:column."""
        pos = min(self.pos if pos is None else pos, len(self.text))
        line = self.text.count("\n", 0, pos) + 1
        start = self.text.rfind("\n", 0, pos) + 1
        end = self.text.find("\n", pos)
        source_line = self.text[start:end if end >= 0 else len(self.text)]
        return HloParseError(message, line, pos - start + 1, source_line)

    def skip(self) -> None:
        self.pos = _SKIP.match(self.text, self.pos).end()

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos:self.pos + 1]

    def got(self) -> str:
        """The text at the current position, for 'expected X, got Y' messages."""
        text = self.text[self.pos:self.pos + 12].split("\n")[0] or "end of text"
        return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)

    def expect(self, token: str, what: str | None = None) -> None:
        self.skip()
        if not self.text.startswith(token, self.pos):
            raise self.error(f"expected {what or repr(token)}, got '{self.got()}'")
        self.pos += len(token)

    def accept(self, token: str) -> bool:
        self.skip()
        if self.text.startswith(token, self.pos):
            self.pos += len(token)
            return True
        return False

    def name(self, what: str = "a name") -> str:
        self.skip()
        m = _NAME.match(self.text, self.pos)
        if not m:
            raise self.error(f"expected {what}, got '{self.got()}'")
        self.pos = m.end()
        return m.group(1)

    # -- shapes ---------------------------------------------------------------------------

    def shape(self, depth: int = 0) -> AnyShape:
        """An array shape `f32[<=5,5]{1,0}` or a tuple shape `(f32[2], s32[])`."""
        self.skip()
        if self.text.startswith("(", self.pos):
            if depth >= _MAX_DEPTH:
                raise self.error(f"tuple shape nested more than {_MAX_DEPTH} deep")
            self.pos += 1
            elements = []
            while not self.accept(")"):
                if elements:
                    self.expect(",", "',' or ')' in a tuple shape")
                elements.append(self.shape(depth + 1))
            return TupleShape(tuple(elements))
        m = _ARRAY_SHAPE.match(self.text, self.pos)
        if not m:
            unclosed = _SHAPE_OPEN.match(self.text, self.pos)
            hint = ": no ']' closes its '['" if unclosed else ""
            raise self.error(f"expected a shape like f32[2,3]{{1,0}}, got '{self.got()}'{hint}")
        shape = self._shape_cache.get(m.group(0))
        if shape is None:
            shape = self._shape_cache[m.group(0)] = self._make_shape(m)
        self.pos = m.end()
        return shape

    def _make_shape(self, m: re.Match) -> Shape:
        element_type, dims_text, layout_text = m.groups()
        if "/" in m.group(0):  # comments become blanks of their length: columns stay right
            dims_text = _blank_comments(dims_text)
            layout_text = layout_text and _blank_comments(layout_text)
        if element_type not in ELEMENT_TYPES:
            raise self.error(f"unknown element type '{element_type}'", m.start(1))
        try:
            dims, dynamic = _dims(dims_text)
        except _DimError as exc:
            written = m.group(2)  # as written, comments included
            where = "" if "\n" in written else f" in '[{written}]'"
            raise self.error(f"{exc}{where}", m.start(2) + exc.offset) from None
        layout = None
        if layout_text is not None:
            try:
                layout = _layout(layout_text, len(dims))
            except ValueError as exc:
                raise self.error(str(exc), m.start(3)) from None
        return Shape(element_type, dims, dynamic, layout)

    def _cached_shape(self, text: str, pos: int) -> AnyShape:
        """The shape written as `text` at `pos` (cached by its text)."""
        shape = self._shape_cache.get(text)
        if shape is None:
            self.pos = pos
            shape = self._shape_cache[text] = self.shape()
        return shape

    # -- attribute values -----------------------------------------------------------------

    def value(self, raw: bool = False) -> str:
        """One attribute value, as written: a bare word, a string, or a balanced group.

        Comments inside a group are dropped from the value (each one a blank), as XLA's lexer
        skips them between tokens: `{1, /* } */ 0}` is `{1,   0}`. With `raw` (a JSON dict,
        backend_config) only brackets and "strings" count and the text is kept whole.
        """
        self.skip()
        text = self.text
        m = _SIMPLE_VALUE.match(text, self.pos)
        if m and (m.end() >= len(text) or text[m.end()] not in "{([\""):
            self.pos = m.end()
            return m.group(0)
        start = pos = self.pos
        stack: list[str] = []
        comments: list[tuple[int, int]] = []
        inner = _JSON_DELIMITER if raw else _DELIMITER
        while True:
            if not stack:  # outside brackets, a value ends at ',' or a space (as XLA's
                # tokens do: the next instruction may follow on the same line), unless a
                # bracket follows the space (`mesh['x'=2] {'x'}`: XLA's mesh replica groups;
                # no instruction starts with a bracket)
                pos = _VALUE_PART.match(text, pos).end()
                if text.startswith(("//", "/*"), pos):
                    break
                if pos < len(text) and text[pos].isspace():
                    after = _SPACE.match(text, pos).end()
                    if after >= len(text) or text[after] not in "{[(":
                        break
                    pos = after
                if pos >= len(text) or text[pos] in ",)}]":
                    break
            else:  # inside brackets, only brackets, strings and comments matter
                dm = inner.search(text, pos)
                if dm is None:
                    raise self.error(f"expected '{stack[-1]}' to close the attribute value",
                                     start)
                pos = dm.start()
                if text[pos] == "/":
                    end = self._comment_end(pos)
                    if end > pos + 1:
                        comments.append((pos, end))
                    pos = end
                    continue
            pos = self._value_delimiter(stack, pos)
        if pos == start:
            raise self.error(f"expected an attribute value, got '{self.got()}'")
        self.pos = pos
        return _without(text, start, pos, comments).strip()

    def _comment_end(self, pos: int) -> int:
        """Where the comment at `pos` ends; pos + 1 past a '/' that starts none."""
        if self.text.startswith("//", pos):
            end = self.text.find("\n", pos)
            return len(self.text) if end < 0 else end
        if self.text.startswith("/*", pos):
            end = self.text.find("*/", pos + 2)
            if end < 0:
                raise self.error("unterminated comment in attribute value", pos)
            return end + 2
        return pos + 1

    def _value_delimiter(self, stack: list[str], pos: int) -> int:
        """Step over the quote or bracket at `pos` of an attribute value."""
        ch = self.text[pos]
        if ch in _QUOTED:
            sm = _QUOTED[ch].match(self.text, pos)
            if not sm:
                raise self.error("unterminated string", pos)
            return sm.end()
        if ch in _OPEN:
            stack.append(_OPEN[ch])
        elif ch != stack.pop():
            raise self.error(f"unbalanced '{ch}' in attribute value", pos)
        return pos + 1


def _without(text: str, start: int, end: int, cuts: list[tuple[int, int]]) -> str:
    """text[start:end] with each (from, to) span of `cuts` (in order) replaced by a blank."""
    if not cuts:
        return text[start:end]
    parts, at = [], start
    for a, b in cuts:
        parts += [text[at:a], " "]
        at = b
    parts.append(text[at:end])
    return "".join(parts)
