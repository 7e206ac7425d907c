"""HLO text -> HloModule.

Accepts the short form (`a = f32[<=5,5]{1,0} parameter(0)`) and XLA's dump form as JAX and
XLA print it: `%` sigils, computation signatures, typed operands (`f32[8,3]{1,0} %x`),
`/*index=N*/` comments, module attributes, and any attribute (`metadata={...}`,
`backend_config`, `sharding`, ...) kept as written. Grammar source:
xla/hlo/parser/hlo_parser.cc. Errors are HloParseError with line and column.

The parser works on offsets into the whole text with anchored regexes, not on tokens. Most
instruction lines match one regex (`_FAST`) and are built from its groups; any line it does
not match, or matches but finds something wrong with, is parsed again by the general path,
which reports the error with its exact position. Every regex is linear: none can backtrack
catastrophically, and nothing recurses deeper than `_MAX_DEPTH`.
"""

from __future__ import annotations

import os
import re

from ..errors import DynHloError, HloParseError
from .ir import Computation, HloModule, Instruction
from .literal import LiteralSyntaxError, _Reader, read_literal
from .opcodes import BY_NAME, OP_SPECS, Opcode
from .shape import UNBOUNDED, AnyShape, Layout, Shape, TupleShape
from .types import ELEMENT_TYPES

_MAX_DEPTH = 64  # tuple shapes nested deeper than this are refused, not a RecursionError

_N = r"[A-Za-z_][\w.\-]*"
_ARR = r"[a-z][a-z0-9]*\[[^\]\n]*\](?:\{[^}\n]*\})?"
_STR = r'"(?:[^"\\\n]|\\.)*"'
_P = r'[^{}()\[\]"\n]'
_GROUP = rf"\{{{_P}*(?:(?:\[{_P}*\]|{_STR}){_P}*)*\}}"
_VAL = rf'(?:{_GROUP}|{_STR}|[^\s,{{}}()\[\]"]+)'
_UNTYPED = rf"[ \t]*%?{_N}[ \t]*(?:,[ \t]*%?{_N}[ \t]*)*|[ \t]*"
_FAST = re.compile(  # groups: start, ROOT, name, shape, opcode, untyped, other operands, attrs
    rf"\s*()(ROOT[ \t]+)?%?({_N})[ \t]*=[ \t]*({_ARR}|\([^()\n]*\))"
    rf"[ \t]+([a-z][a-z0-9\-]*)\((?:({_UNTYPED})|([^()\n]*))\)"
    rf"((?:[ \t]*,[ \t]*{_N}[ \t]*=[ \t]*{_VAL})*)[ \t\r]*(?=\n|\}}|\Z)")
_FAST_ATTR = re.compile(rf"[ \t]*,[ \t]*({_N})[ \t]*=[ \t]*({_VAL})")
_TYPED = re.compile(rf"[ \t]*(?:(?:{_ARR}[ \t]+)?%?{_N}[ \t]*(?:,[ \t]*(?:{_ARR}[ \t]+)?%?{_N}"
                    rf"[ \t]*)*)?")
_OPERAND = re.compile(rf"(?:({_ARR})[ \t]+)?(%?)({_N})")

_SKIP = re.compile(r"(?:\s+|/\*.*?\*/|//[^\n]*)*", re.S)
_SKIP_INLINE = re.compile(r"(?:[ \t\r]+|/\*.*?\*/|//[^\n]*)*", re.S)
_NAME = re.compile(rf"%?({_N})")
_ARRAY_SHAPE = re.compile(r"([a-z][a-z0-9]*)\[([^\]]*)\](\{[^}]*\})?")
_DIM = re.compile(r"\s*(?:(\?)|(<=)?\s*(-?)([0-9]{1,18}))\s*")
_INSTR_HEAD = re.compile(rf"(ROOT[ \t]+)?%?({_N})[ \t]*=[ \t]*")
_OPCODE = re.compile(r"([a-z][a-z0-9\-]*)[ \t]*\(")
_PARAM_NUMBER = re.compile(r"\s*([0-9]{1,18})\s*\)")
_ATTR_NAME = re.compile(rf"[ \t]*,[ \t]*({_N})[ \t]*=[ \t]*")
_SIMPLE_VALUE = re.compile(r"[^\s,{}()\[\]\"]+")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_VALUE_PART = re.compile(r'[^{}()\[\]",\n]*')
_DELIMITER = re.compile(r'[{}()\[\]"]')
_STRIP_PCT = re.compile(r"%(?=[A-Za-z_])")
_FRAMES_START = re.compile(r"FileNames\s+(?:[0-9]|FunctionNames\b)")
_FRAME_ENTRIES = re.compile(r'(?:\s*[0-9]+[ \t]+(?:"(?:[^"\\\n]|\\.)*"|\{[^{}\n]*\}))*')
_INLINE_START = re.compile(rf"\{{\s*(?:\{{|(?:ROOT\s+)?%?{_N}\s*=)")
_OPEN = {"{": "}", "(": ")", "[": "]"}
_CALL_KEYS = {op: frozenset(spec.calls) | {"to_apply", "calls"} for op, spec in OP_SPECS.items()}
_ARITY = {op: spec.arity for op, spec in OP_SPECS.items()}
_LEAVES = frozenset({Opcode.CONSTANT, Opcode.PARAMETER})


def parse_hlo(text: str | bytes) -> HloModule:
    """Parse HLO module text.

    Args:
        text: an `HloModule` in XLA's text format (short or dump form); bytes are read as UTF-8.

    Returns:
        The HloModule, with operands and called computations linked.

    Raises:
        HloParseError: malformed text, with 1-based line and column and what was expected.
        DynHloError: `text` is neither str nor bytes.
    """
    if isinstance(text, (bytes, bytearray)):
        text = _decode(bytes(text))
    if not isinstance(text, str):
        hint = " (read a file first: Path(p).read_text())" if isinstance(text, os.PathLike) else ""
        raise DynHloError(f"parse_hlo() takes HLO text (str or bytes), got "
                          f"{type(text).__name__}{hint}")
    # A leading byte order mark (Windows editors write one) is not part of the HLO text.
    return _Parser(text.removeprefix("\ufeff")).module()


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[:exc.start].decode("utf-8")
        raise _Parser(good).error(f"byte 0x{data[exc.start]:02x} is not UTF-8 text",
                                  len(good)) from None


def _dims(text: str) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """`<=5, 5` -> ((5, 5), (True, False)); ValueError naming the bad part."""
    if not text.strip():
        return (), ()
    dims, dynamic = [], []
    for part in text.split(","):
        m = _DIM.fullmatch(part)
        if not m:
            raise ValueError(f"bad dimension '{part.strip()}': expected a size like 5, <=5 or ?")
        if m.group(3):
            raise ValueError(f"negative dimension '{part.strip()}'")
        dims.append(UNBOUNDED if m.group(1) else int(m.group(4)))
        dynamic.append(bool(m.group(1) or m.group(2)))
    return tuple(dims), tuple(dynamic)


def _layout(text: str, rank: int) -> Layout:
    body, _, tail = text[1:-1].partition(":")
    parts = [x.strip() for x in body.split(",")] if body.strip() else []
    if not all(p.isdigit() and p.isascii() for p in parts):
        raise ValueError(f"bad layout '{text}': expected dimension numbers like {{1,0}}")
    minor_to_major = tuple(int(p) for p in parts)
    if minor_to_major and sorted(minor_to_major) != list(range(rank)):
        raise ValueError(f"layout {text} is not a permutation of the {rank} dimensions")
    return Layout(minor_to_major, tail.strip())


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self._shape_cache: dict[str, AnyShape] = {}
        self._inline: list[tuple[Computation, int, list]] = []  # written inside attributes
        self._inline_count = 0
        self._depth = 0  # of inline computations being read

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
            raise self.error(f"expected a shape like f32[2,3]{{1,0}}, got '{self.got()}'")
        shape = self._shape_cache.get(m.group(0))
        if shape is None:
            shape = self._shape_cache[m.group(0)] = self._make_shape(m)
        self.pos = m.end()
        return shape

    def _make_shape(self, m: re.Match) -> Shape:
        element_type, dims_text, layout_text = m.groups()
        if element_type not in ELEMENT_TYPES:
            raise self.error(f"unknown element type '{element_type}'", m.start(1))
        try:
            dims, dynamic = _dims(dims_text)
        except ValueError as exc:
            raise self.error(f"{exc} in '[{dims_text}]'", m.start(2)) from None
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

    # -- module and computations ----------------------------------------------------------

    def module(self) -> HloModule:
        self.expect("HloModule", "'HloModule' at the start of the module")
        name = self.name("the module name")
        attrs: dict[str, str] = {}
        while self.accept(","):
            key_at = self.pos
            key = self.name("a module attribute")
            self.expect("=")
            if key in attrs:
                raise self.error(f"module attribute '{key}' given twice", key_at)
            attrs[key] = self.value()
        self.stack_frame_index()
        computations: list[tuple[Computation, int, list]] = []
        entry = None
        while self.peek():
            comp, at, calls = self.computation()
            if comp.is_entry:
                if entry is not None:
                    raise self.error(f"second ENTRY computation '{comp.name}'", at)
                entry = comp
            computations.extend(self._inline)
            self._inline.clear()
            computations.append((comp, at, calls))
        if entry is None:
            if not computations:
                raise self.error("expected a computation")
            entry = computations[-1][0]
            entry.is_entry = True
        self._link_calls(computations)
        return HloModule(name, [c for c, _, _ in computations], entry, attrs, self.text)

    def stack_frame_index(self) -> None:
        """XLA's source-location tables after the header (`FileNames 1 "f.py" ...
        StackFrames ...`): checked for syntax and dropped, as they never change values."""
        self.skip()
        if not _FRAMES_START.match(self.text, self.pos):
            return
        for section in ("FileNames", "FunctionNames", "FileLocations", "StackFrames"):
            self.expect(section, f"'{section}' in the stack frame index")
            m = _FRAME_ENTRIES.match(self.text, self.pos)
            self.pos = m.end()

    def computation(self) -> tuple[Computation, int, list]:
        """One computation; returns it, where it starts, and its calls to link."""
        self.skip()
        at = self.pos
        is_entry = self.accept("ENTRY")
        name = self.name("a computation name")
        if self.peek() == "(":
            self.signature()
        self.expect("{", "'{' to open the computation")
        instructions, root, calls = self.body(name)
        thread = self.execution_thread()
        if not instructions:
            raise self.error(f"computation '{name}' has no instructions", at)
        comp = Computation(name, instructions, root or instructions[-1], is_entry, thread)
        self._check_parameters(comp, at)
        return comp, at, calls

    def body(self, comp: str):
        """Instructions up to the closing '}', operands linked; (list, root, calls)."""
        text, fast, fast_instruction = self.text, _FAST.match, self.fast_instruction
        instructions: list[Instruction] = []
        append = instructions.append
        pending, calls, roots = [], [], []
        while True:
            at = self.pos
            m = fast(text, at)
            item = fast_instruction(m) if m is not None else None
            if item is None:
                self.pos = at
                if self.accept("}"):
                    break
                if not self.peek():
                    raise self.error(f"expected '}}' to close computation '{comp}'")
                item = self.instruction()
            append(item[0])
            if item[2]:
                pending.append(item)
            if item[4]:
                calls.extend((item[0], k, v) for k, v in item[4].items())
            if item[1]:
                roots.append(item[0])
        by_name = self._check_names(instructions, roots, comp)
        for inst, _, names, where, _ in pending:
            try:
                inst.operands = [by_name[n] for n in names]
            except KeyError:
                raise self._unknown_operand(by_name, names, where, comp) from None
        return instructions, roots[0] if roots else None, calls

    def _check_names(self, instructions, roots, comp: str) -> dict[str, Instruction]:
        """Name -> instruction; an error for a name defined twice or a second ROOT."""
        by_name = {inst.name: inst for inst in instructions}
        if len(by_name) != len(instructions):
            seen = set()
            for inst in instructions:
                if inst.name in seen:
                    raise self.error(f"instruction '{inst.name}' is defined twice", inst.offset)
                seen.add(inst.name)
        if len(roots) > 1:
            raise self.error(f"second ROOT in computation '{comp}'", roots[1].offset)
        return by_name

    def _unknown_operand(self, by_name, names, where, comp: str) -> HloParseError:
        i = next(i for i, n in enumerate(names) if n not in by_name)
        if isinstance(where, int):  # fast path: positions found again only on error
            where = [m.start(2) for m in _OPERAND.finditer(self.text, where)][:len(names)]
        return self.error(f"unknown operand '{names[i]}' in computation '{comp}'", where[i])

    def execution_thread(self) -> str | None:
        """The optional `, execution_thread="name"` after a computation's '}'."""
        if not self.accept(","):
            return None
        key_at = self.pos
        key = self.name("a computation attribute")
        if key != "execution_thread":
            raise self.error(f"unknown computation attribute '{key}'", key_at)
        self.expect("=")
        value_at = self.pos
        value = self.value()
        if _STRING.fullmatch(value):
            return value[1:-1]
        if not _NAME.fullmatch(value):
            raise self.error(f"expected a thread name like \"main\", got '{value}'", value_at)
        return value

    def _check_parameters(self, comp: Computation, at: int) -> None:
        """Parameter numbers must be 0..n-1, each once; the error names the first bad one."""
        n = len(comp.parameters)
        seen: set[int] = set()
        for p in sorted(comp.parameters, key=lambda p: p.offset):
            number = p.parameter_number
            if number >= n or number in seen:
                problem = "is used twice" if number in seen else f"is not in 0..{n - 1}"
                raise self.error(f"parameter number {number} of '{p.name}' {problem}: "
                                 f"computation '{comp.name}' has {n} parameter(s)",
                                 p.offset if p.offset >= 0 else at)
            seen.add(number)

    def signature(self) -> None:
        """`(p0: f32[2], p1: s32[]) -> f32[2]`: checked for syntax, implied by the body."""
        self.expect("(")
        first = True
        while not self.accept(")"):
            if not first:
                self.expect(",", "',' or ')' in the signature")
            first = False
            self.name("a parameter name")
            self.expect(":")
            self.shape()
        self.expect("->", "'->' after the parameter list")
        self.shape()

    def _link_calls(self, computations) -> None:
        by_name: dict[str, Computation] = {}
        for comp, at, _ in computations:
            if comp.name in by_name:
                raise self.error(f"computation '{comp.name}' is defined twice", at)
            by_name[comp.name] = comp
        for _, _, calls in computations:
            for inst, key, names in calls:
                targets = []
                for callee, pos in names:
                    if callee not in by_name:
                        raise self.error(f"unknown computation '{callee}' in {key}=", pos)
                    targets.append(by_name[callee])
                inst.called[key] = targets

    # -- instructions ---------------------------------------------------------------------

    def fast_instruction(self, m: re.Match):
        """An instruction from one `_FAST` match, or None to parse it the general way.

        Returns (instruction, is_root, operand names, where the operands start, calls).
        """
        _, root, name, shape_text, op_text, untyped, other, attr_text = m.groups()
        opcode = BY_NAME.get(op_text)
        if opcode is None:
            return None
        shape = self._shape_cache.get(shape_text) or self._cached_shape(shape_text, m.start(4))
        inst = Instruction(name, opcode, shape, None, None, None, None, None, m.start(1))
        names = ()
        if opcode in _LEAVES:
            self.pos = m.end(5) + 1
            self.operands(inst)
        elif untyped is not None:
            names = untyped.replace(" ", "").replace("%", "")
            if "\t" in names:
                names = names.replace("\t", "")
            names = names.split(",") if names else ()
        elif _TYPED.fullmatch(other):
            names = self._typed_names(m.start(7), m.end(7))
        else:
            return None
        called = None
        if attr_text:
            items = _FAST_ATTR.findall(attr_text)
            attrs = inst.attrs = dict(items)
            if len(attrs) != len(items):
                return None
            if not _CALL_KEYS[opcode].isdisjoint(attrs):
                called = self._fast_calls(inst, m.start(8), m.end(8))
        arity = _ARITY[opcode]
        if arity is not None and len(names) != arity:
            self._check_arity(inst, names, m.start(1))
        self.pos = m.end()
        return inst, root, names, m.end(5) + 1, called

    def _typed_names(self, start: int, end: int) -> list[str]:
        names = []
        for om in _OPERAND.finditer(self.text, start, end):
            if om.group(1) is not None:
                self._cached_shape(om.group(1), om.start(1))
            names.append(om.group(3))
        return names

    def _fast_calls(self, inst: Instruction, start: int, end: int) -> dict:
        """Called computations among the attributes `_FAST` matched (names lose their '%')."""
        called = {}
        call_keys = _CALL_KEYS[inst.opcode]
        for am in _FAST_ATTR.finditer(self.text, start, end):
            key, value = am.groups()
            if key in call_keys:
                value = inst.attrs[key] = _STRIP_PCT.sub("", value)
                called[key] = self._computation_names(value, am.start(2))
        return called

    def instruction(self):
        """The general path: one instruction at the current position, any form."""
        self.skip()
        start = self.pos
        m = _INSTR_HEAD.match(self.text, self.pos)
        if not m:
            raise self.error("expected an instruction 'name = shape opcode(operands)', got "
                             f"'{self.got()}'")
        self.pos = m.end()
        is_root, name = m.group(1) is not None, m.group(2)
        shape = self.shape()
        self.pos = _SKIP_INLINE.match(self.text, self.pos).end()
        m = _OPCODE.match(self.text, self.pos)
        if not m:
            raise self.error(f"expected an opcode followed by '(', got '{self.got()}'")
        opcode = BY_NAME.get(m.group(1))
        if opcode is None:
            raise self.error(f"unknown opcode '{m.group(1)}'")
        self.pos = m.end()
        inst = Instruction(name, opcode, shape, offset=start)
        operands = self.operands(inst)
        inst.attrs, called = self.attributes(opcode)
        self._check_arity(inst, operands, start)
        return inst, is_root, [n for n, _ in operands], [p for _, p in operands], called

    def operands(self, inst: Instruction) -> list[tuple[str, int]]:
        """The operand list after '(' up to and including ')': (name, position) pairs."""
        opcode = inst.opcode
        if opcode is Opcode.CONSTANT:
            return self.constant_literal(inst)
        if opcode is Opcode.PARAMETER:
            m = _PARAM_NUMBER.match(self.text, self.pos)
            if not m:
                self.skip()
                raise self.error(f"expected a parameter number and ')', got '{self.got()}'")
            inst.parameter_number = int(m.group(1))
            self.pos = m.end()
            return []
        names = []
        while not self.accept(")"):
            if names:
                self.expect(",", "',' or ')' in the operand list")
            self.skip()
            if not _NAME.match(self.text, self.pos) or _ARRAY_SHAPE.match(self.text, self.pos):
                self.shape()
                self.skip()
            at = self.pos
            names.append((self.name("an operand name"), at))
        return names

    def constant_literal(self, inst: Instruction) -> list:
        reader = _Reader(self.text)
        reader.pos = self.pos
        try:
            inst.literal = read_literal(reader, inst.shape)
        except LiteralSyntaxError as exc:
            raise self.error(f"bad literal for {inst.shape}: {exc}", exc.offset) from None
        self.pos = reader.pos
        self.expect(")", "')' after the constant's literal")
        return []

    def _check_arity(self, inst: Instruction, names: list, pos: int) -> None:
        arity = _ARITY[inst.opcode]
        if arity is not None and len(names) != arity:
            raise self.error(f"{inst.opcode.value} takes {arity} operand(s), got "
                             f"{len(names)}", pos)

    def attributes(self, opcode: Opcode):
        """`, key=value` pairs up to the end of the line: (attrs, called or None)."""
        attrs: dict[str, str] = {}
        called = None
        call_keys = _CALL_KEYS[opcode]
        while True:
            m = _ATTR_NAME.match(self.text, self.pos)
            if not m:
                break
            key = m.group(1)
            self.pos = m.end()
            self.skip()
            value_at = self.pos
            value = self.value()
            if key in attrs:
                raise self.error(f"attribute '{key}' given twice", m.start(1))
            if key in call_keys:
                if _INLINE_START.match(value):
                    value = self._inline_computations(value_at, self.pos)
                value = _STRIP_PCT.sub("", value)
                called = called or {}
                called[key] = self._computation_names(value, value_at)
            attrs[key] = value
        self.pos = _SKIP_INLINE.match(self.text, self.pos).end()
        if self.pos < len(self.text) and self.text[self.pos] not in "\n}":
            raise self.error("expected ', attribute=value' or the end of the instruction, "
                             f"got '{self.got()}'")
        return attrs, called

    def _inline_computations(self, start: int, end: int) -> str:
        """Computations written in place of their names, as XLA's canonical form prints them
        (`to_apply={ ... }`, `branch_computations={{ ... }, { ... }}`); each becomes a
        computation named `_.N`. Returns the attribute value with those names."""
        self._depth += 1
        if self._depth > _MAX_DEPTH:
            raise self.error(f"inline computations nested more than {_MAX_DEPTH} deep", start)
        self.pos = start + 1
        if self.peek() != "{":
            names = self._inline_body(start)
        else:
            bodies = []
            while not bodies or self.accept(","):
                self.expect("{", "'{' to open an inline computation")
                bodies.append(self._inline_body(self.pos))
            self.expect("}", "'}' after the inline computations")
            names = "{" + ", ".join(bodies) + "}"
        if self.pos != end:
            raise self.error("expected the end of the inline computation")
        self._depth -= 1
        return names

    def _inline_body(self, at: int) -> str:
        name = f"_.{self._inline_count}"
        self._inline_count += 1
        instructions, root, calls = self.body(name)
        if not instructions:
            raise self.error(f"inline computation '{name}' has no instructions", at)
        comp = Computation(name, instructions, root or instructions[-1])
        self._check_parameters(comp, at)
        self._inline.append((comp, at, calls))
        return name

    def _computation_names(self, value: str, pos: int) -> list[tuple[str, int]]:
        names = [n.strip() for n in value.strip("{}").split(",") if n.strip()]
        for n in names:
            if not _NAME.fullmatch(n):
                raise self.error(f"expected a computation name, got '{n}'", pos)
        return [(n, pos) for n in names]

    def value(self) -> str:
        """One attribute value, as written: a bare word, a string, or a balanced group."""
        self.skip()
        text = self.text
        m = _SIMPLE_VALUE.match(text, self.pos)
        if m and (m.end() >= len(text) or text[m.end()] not in "{([\""):
            self.pos = m.end()
            return m.group(0)
        start = pos = self.pos
        stack: list[str] = []
        while True:
            if not stack:  # outside brackets, a value ends at ',' or a newline
                pos = _VALUE_PART.match(text, pos).end()
                if pos >= len(text) or text[pos] in ",\n)}]":
                    break
            else:  # inside brackets, only brackets and strings matter
                dm = _DELIMITER.search(text, pos)
                if dm is None:
                    raise self.error(f"expected '{stack[-1]}' to close the attribute value",
                                     start)
                pos = dm.start()
            pos = self._value_delimiter(stack, pos)
        if pos == start:
            raise self.error(f"expected an attribute value, got '{self.got()}'")
        self.pos = pos
        return text[start:pos].strip()

    def _value_delimiter(self, stack: list[str], pos: int) -> int:
        """Step over the quote or bracket at `pos` of an attribute value."""
        ch = self.text[pos]
        if ch == '"':
            sm = _STRING.match(self.text, pos)
            if not sm:
                raise self.error("unterminated string", pos)
            return sm.end()
        if ch in _OPEN:
            stack.append(_OPEN[ch])
        elif ch != stack.pop():
            raise self.error(f"unbalanced '{ch}' in attribute value", pos)
        return pos + 1
