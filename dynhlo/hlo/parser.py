"""HLO text -> HloModule.

Accepts the short form (`a = f32[<=5,5]{1,0} parameter(0)`) and XLA's dump form as JAX and
XLA print it: `%` sigils, computation signatures, typed operands (`f32[8,3]{1,0} %x`),
`/*index=N*/` comments, module attributes, and any attribute (`metadata={...}`,
`backend_config`, `sharding`, ...) kept as written. Grammar source:
xla/hlo/parser/hlo_parser.cc. Errors are HloParseError with line and column.

The parser works on offsets into the whole text with anchored regexes, not on tokens: that is
what makes it fast enough for 6,000-instruction modules.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..errors import HloParseError
from .ir import Computation, HloModule, Instruction
from .literal import LiteralSyntaxError, _Reader, read_literal
from .opcodes import BY_NAME, OP_SPECS, Opcode
from .shape import UNBOUNDED, AnyShape, Layout, Shape, TupleShape
from .types import ELEMENT_TYPES

_SKIP = re.compile(r"(?:\s+|/\*.*?\*/|//[^\n]*)*", re.S)
_SKIP_INLINE = re.compile(r"(?:[ \t\r]+|/\*.*?\*/)*", re.S)
_NAME = re.compile(r"%?([A-Za-z_][\w.\-]*)")
_ARRAY_SHAPE = re.compile(r"([a-z][a-z0-9]*)\[([^\]]*)\](\{[^}]*\})?")
_INSTR_HEAD = re.compile(r"(ROOT[ \t]+)?%?([A-Za-z_][\w.\-]*)[ \t]*=[ \t]*")
_OPCODE = re.compile(r"([a-z][a-z0-9\-]*)[ \t]*\(")
_SIMPLE_OPERANDS = re.compile(r"[ \t]*((?:%?[A-Za-z_][\w.\-]*[ \t]*,[ \t]*)*"
                              r"%?[A-Za-z_][\w.\-]*)?[ \t]*\)")
_ATTR_NAME = re.compile(r"[ \t]*,[ \t]*([A-Za-z_][\w.\-]*)[ \t]*=[ \t]*")
_SIMPLE_VALUE = re.compile(r"[^\s,{}()\[\]\"]+")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_VALUE_PART = re.compile(r'[^{}()\[\]",\n]+')
_STRIP_PCT = re.compile(r"%(?=[A-Za-z_])")
_OPEN = {"{": "}", "(": ")", "[": "]"}


def parse_hlo(text: str) -> HloModule:
    """Parse HLO module text.

    Args:
        text: an `HloModule` in XLA's text format (short or dump form).

    Returns:
        The HloModule, with operands and called computations linked.

    Raises:
        HloParseError: malformed text, with 1-based line and column and what was expected.
    """
    return _Parser(text).module()


@lru_cache(maxsize=4096)
def _dims(text: str, where: int) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    if not text.strip():
        return (), ()
    dims, dynamic = [], []
    for part in text.split(","):
        part = part.strip()
        if part == "?":
            dims.append(UNBOUNDED)
            dynamic.append(True)
        elif part.startswith("<="):
            dims.append(int(part[2:]))
            dynamic.append(True)
        else:
            dims.append(int(part))
            dynamic.append(False)
    return tuple(dims), tuple(dynamic)


@lru_cache(maxsize=4096)
def _layout(text: str) -> Layout:
    body, _, tail = text[1:-1].partition(":")
    return Layout(tuple(int(x) for x in body.split(",") if x.strip()), tail.strip())


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self._shape_cache: dict[str, Shape] = {}

    # -- errors and low-level scanning ----------------------------------------------------

    def error(self, message: str, pos: int | None = None) -> HloParseError:
        pos = self.pos if pos is None else pos
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

    def expect(self, token: str, what: str | None = None) -> None:
        self.skip()
        if not self.text.startswith(token, self.pos):
            got = self.text[self.pos:self.pos + 12].split("\n")[0] or "end of text"
            raise self.error(f"expected {what or repr(token)}, got '{got}'")
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
            raise self.error(f"expected {what}")
        self.pos = m.end()
        return m.group(1)

    # -- shapes ---------------------------------------------------------------------------

    def shape(self) -> AnyShape:
        self.skip()
        if self.text.startswith("(", self.pos):
            self.pos += 1
            elements = []
            while not self.accept(")"):
                if elements:
                    self.expect(",", "',' or ')' in a tuple shape")
                elements.append(self.shape())
            return TupleShape(tuple(elements))
        m = _ARRAY_SHAPE.match(self.text, self.pos)
        if not m:
            raise self.error("expected a shape like f32[2,3]{1,0}")
        key = m.group(0)
        shape = self._shape_cache.get(key)
        if shape is None:
            shape = self._shape_cache[key] = self._make_shape(m)
        self.pos = m.end()
        return shape

    def _make_shape(self, m: re.Match) -> Shape:
        element_type, dims_text, layout_text = m.groups()
        if element_type not in ELEMENT_TYPES:
            raise self.error(f"unknown element type '{element_type}'", m.start(1))
        try:
            dims, dynamic = _dims(dims_text, 0)
        except ValueError:
            raise self.error(f"bad dimensions '[{dims_text}]': expected sizes like 5, <=5 "
                             "or ?", m.start(2)) from None
        if any(d < UNBOUNDED for d in dims):
            raise self.error(f"negative dimension in '[{dims_text}]'", m.start(2))
        layout = None
        if layout_text is not None:
            try:
                layout = _layout(layout_text)
            except ValueError:
                raise self.error(f"bad layout '{layout_text}'", m.start(3)) from None
            if layout.minor_to_major and sorted(layout.minor_to_major) != list(range(len(dims))):
                raise self.error(f"layout {layout_text} is not a permutation of the "
                                 f"{len(dims)} dimensions", m.start(3))
        return Shape(element_type, dims, dynamic, layout)

    # -- module and computations ----------------------------------------------------------

    def module(self) -> HloModule:
        self.expect("HloModule", "'HloModule' at the start of the module")
        name = self.name("the module name")
        attrs = {}
        while self.accept(","):
            key = self.name("a module attribute")
            self.expect("=")
            attrs[key] = self.value()
        computations: list[tuple[Computation, int, dict]] = []
        entry = None
        while self.peek():
            comp, refs = self.computation()
            if comp.is_entry:
                if entry is not None:
                    raise self.error(f"second ENTRY computation '{comp.name}'", refs["_at"])
                entry = comp
            computations.append((comp, refs["_at"], refs))
        if entry is None:
            if not computations:
                raise self.error("expected a computation")
            entry = computations[-1][0]
            entry.is_entry = True
        module = HloModule(name, [c for c, _, _ in computations], entry, attrs, self.text)
        self._link_calls(computations)
        return module

    def computation(self) -> tuple[Computation, dict]:
        self.skip()
        at = self.pos
        is_entry = self.accept("ENTRY")
        name = self.name("a computation name")
        if self.peek() == "(":
            self.signature()
        self.expect("{", "'{' to open the computation")
        instructions: list[Instruction] = []
        by_name: dict[str, Instruction] = {}
        pending: list[tuple[Instruction, list[tuple[str, int]]]] = []
        calls: list[tuple[Instruction, str, list[tuple[str, int]]]] = []
        root = None
        while not self.accept("}"):
            if not self.peek():
                raise self.error(f"expected '}}' to close computation '{name}'")
            inst, is_root, operand_names, called = self.instruction()
            if inst.name in by_name:
                raise self.error(f"instruction '{inst.name}' is defined twice", inst.offset)
            by_name[inst.name] = inst
            instructions.append(inst)
            pending.append((inst, operand_names))
            calls.extend((inst, k, v) for k, v in called.items())
            if is_root:
                if root is not None:
                    raise self.error(f"second ROOT in computation '{name}'", inst.offset)
                root = inst
        thread = None
        if self.accept(","):
            key = self.name()
            self.expect("=")
            value = self.value()
            if key != "execution_thread":
                raise self.error(f"unknown computation attribute '{key}'")
            thread = value.strip('"')
        if not instructions:
            raise self.error(f"computation '{name}' has no instructions", at)
        for inst, names in pending:
            inst.operands = [self._operand(by_name, n, p, name) for n, p in names]
        comp = Computation(name, instructions, root or instructions[-1], is_entry, thread)
        self._check_parameters(comp, at)
        return comp, {"_at": at, "calls": calls}

    def _operand(self, by_name, operand: str, pos: int, comp: str) -> Instruction:
        try:
            return by_name[operand]
        except KeyError:
            raise self.error(f"unknown operand '{operand}' in computation '{comp}'",
                             pos) from None

    def _check_parameters(self, comp: Computation, at: int) -> None:
        numbers = [p.parameter_number for p in comp.parameters]
        if numbers != list(range(len(numbers))):
            raise self.error(f"computation '{comp.name}' has parameters {numbers}; expected "
                             f"0..{len(numbers) - 1}, each once", at)

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
        by_name = {c.name: c for c, _, _ in computations}
        for _, _, refs in computations:
            for inst, key, names in refs["calls"]:
                targets = []
                for callee, pos in names:
                    if callee not in by_name:
                        raise self.error(f"unknown computation '{callee}' in {key}=", pos)
                    targets.append(by_name[callee])
                inst.called[key] = targets

    # -- instructions ---------------------------------------------------------------------

    def instruction(self):
        self.skip()
        start = self.pos
        m = _INSTR_HEAD.match(self.text, self.pos)
        if not m:
            raise self.error("expected an instruction 'name = shape opcode(operands)'")
        self.pos = m.end()
        is_root, name = m.group(1) is not None, m.group(2)
        shape = self.shape()
        self.pos = _SKIP_INLINE.match(self.text, self.pos).end()
        m = _OPCODE.match(self.text, self.pos)
        if not m:
            raise self.error("expected an opcode followed by '('")
        opcode = BY_NAME.get(m.group(1))
        if opcode is None:
            raise self.error(f"unknown opcode '{m.group(1)}'")
        self.pos = m.end()
        inst = Instruction(name, opcode, shape, offset=start)
        operand_names = self.operands(inst)
        attrs, called = self.attributes(opcode)
        inst.attrs = attrs
        self._check_arity(inst, operand_names, start)
        return inst, is_root, operand_names, called

    def operands(self, inst: Instruction) -> list[tuple[str, int]]:
        opcode = inst.opcode
        if opcode is Opcode.CONSTANT:
            return self.constant_literal(inst)
        if opcode is Opcode.PARAMETER:
            self.skip()
            m = re.compile(r"(\d+)\s*\)").match(self.text, self.pos)
            if not m:
                raise self.error("expected a parameter number and ')'")
            inst.parameter_number = int(m.group(1))
            self.pos = m.end()
            return []
        m = _SIMPLE_OPERANDS.match(self.text, self.pos)
        if m:
            names, base = [], m.start(1)
            if m.group(1):
                for part in m.group(1).split(","):
                    stripped = part.strip()
                    names.append((stripped.lstrip("%"), base + part.find(stripped)))
                    base += len(part) + 1
            self.pos = m.end()
            return names
        return self.typed_operands()

    def typed_operands(self) -> list[tuple[str, int]]:
        names = []
        while not self.accept(")"):
            if names:
                self.expect(",", "',' or ')' in the operand list")
            self.skip()
            if not _NAME.match(self.text, self.pos) or _ARRAY_SHAPE.match(self.text, self.pos) \
                    or self.text.startswith("(", self.pos):
                self.shape()
            self.skip()
            names.append((self.name("an operand name"), self.pos))
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
        arity = OP_SPECS[inst.opcode].arity
        if arity is not None and len(names) != arity:
            raise self.error(f"{inst.opcode.value} takes {arity} operand(s), got "
                             f"{len(names)}", pos)

    def attributes(self, opcode: Opcode):
        attrs: dict[str, str] = {}
        called: dict[str, list[tuple[str, int]]] = {}
        call_keys = OP_SPECS[opcode].calls
        while True:
            m = _ATTR_NAME.match(self.text, self.pos)
            if not m:
                break
            key = m.group(1)
            self.pos = m.end()
            value_at = self.pos
            value = self.value()
            if key in attrs:
                raise self.error(f"attribute '{key}' given twice", value_at)
            if key in call_keys or key in ("to_apply", "calls"):
                value = _STRIP_PCT.sub("", value)
                called[key] = self._computation_names(value, value_at)
            attrs[key] = value
        self.pos = _SKIP_INLINE.match(self.text, self.pos).end()
        if self.pos < len(self.text) and self.text[self.pos] not in "\n}":
            got = self.text[self.pos:self.pos + 12].split("\n")[0]
            raise self.error(f"expected ', attribute=value' or the end of the instruction, "
                             f"got '{got}'")
        return attrs, called

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
        start = self.pos
        stack: list[str] = []
        pos = self.pos
        while pos < len(text):
            ch = text[pos]
            if ch == '"':
                sm = _STRING.match(text, pos)
                if not sm:
                    raise self.error("unterminated string", pos)
                pos = sm.end()
            elif ch in _OPEN:
                stack.append(_OPEN[ch])
                pos += 1
            elif ch in ")}]":
                if not stack:
                    break
                if ch != stack.pop():
                    raise self.error(f"unbalanced '{ch}' in attribute value", pos)
                pos += 1
            elif not stack and ch in ",\n":
                break
            else:
                vm = _VALUE_PART.match(text, pos)
                pos = vm.end() if vm else pos + 1
            if not stack and pos < len(text) and text[pos] in ",\n)}":
                break
        if stack:
            raise self.error(f"expected '{stack[-1]}' to close the attribute value", start)
        if pos == start:
            raise self.error("expected an attribute value")
        self.pos = pos
        return text[start:pos].strip()
