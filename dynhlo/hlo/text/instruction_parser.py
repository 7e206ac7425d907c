"""The general instruction path: one HLO instruction in any form, with exact error positions.

`_InstructionParser.instruction()` reads `[ROOT] name = shape opcode(operands), attr=value...`
at the current position: typed or untyped operands, a constant's literal, a parameter's
number, and attributes kept as the text written. Called computations are returned as names
to link once the whole module is read; computations written inline in an attribute are handed
to `_inline_computations`, which the module parser (`parser._Parser`) provides. A constant
written `#N` takes its value from the parser's `buffers` (printer.py: large constants
printed by reference).
"""

from __future__ import annotations

import re

from ..ir import Instruction
from ..literal import LiteralSyntaxError, _Reader, read_literal
from ..opcodes import BY_NAME, OP_SPECS, Opcode
from ..opcodes_attrs import ATTRIBUTES, BRACED_INT_LISTS
from .infer import INFERABLE
from .scanner import _ARRAY_SHAPE, _N, _NAME, _SKIP, _Scanner

_INSTR_HEAD = re.compile(rf"(ROOT[ \t]+)?%?({_N})[ \t]*=[ \t]*")
_OPCODE = re.compile(r"([a-z][a-z0-9\-]*)\s*\(")
_PARAM_NUMBER = re.compile(rf"{_SKIP.pattern}([0-9]{{1,18}}){_SKIP.pattern}\)")  # comments too
# XLA's lexer skips newlines like any space: `..., \n dimensions={0}` continues the instruction.
_ATTR_NAME = re.compile(rf"{_SKIP.pattern},{_SKIP.pattern}({_N})\s*=\s*", re.S)
_DANGLING_COMMA = re.compile(rf"{_SKIP.pattern},{_SKIP.pattern}", re.S)
_STRIP_PCT = re.compile(r"%(?=[A-Za-z_])")
_BUFFER_REF = re.compile(rf"{_SKIP.pattern}#([0-9]{{1,18}})")
_INLINE_START = re.compile(rf"\{{\s*(?:\{{|(?:ROOT\s+)?%?{_N}\s*=)")
_CALL_KEYS = {op: frozenset(spec.calls) | {"to_apply", "calls"} for op, spec in OP_SPECS.items()}
_ARITY = {op: spec.arity for op, spec in OP_SPECS.items()}


class _InstructionParser(_Scanner):
    """Reads instructions the general way; subclasses supply `_inline_computations`."""

    def __init__(self, text: str):
        super().__init__(text)
        self._shapeless: list[Instruction] = []  # shapes to infer once the module is read
        # (index, instruction) -> array for constants written `#N`; None: no values kept
        self.buffers = None

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
        self.skip()
        # XLA infers the shape of an instruction written without one (`tuple(a, b)`): the
        # shape stays None here and the module parser infers it once operands are linked.
        shape = None if _OPCODE.match(self.text, self.pos) else self.shape()
        self.skip()  # the opcode may be on the next line
        m = _OPCODE.match(self.text, self.pos)
        if not m:
            raise self.error(f"expected an opcode followed by '(', got '{self.got()}'")
        opcode = BY_NAME.get(m.group(1))
        if opcode is None:
            raise self.error(f"unknown opcode '{m.group(1)}'")
        if shape is None and opcode not in INFERABLE:
            raise self.error(f"cannot infer shape for opcode: {opcode.value}; write the "
                             "shape before the opcode")
        self.pos = m.end()
        inst = Instruction(name, opcode, shape, offset=start)
        if shape is None:
            self._shapeless.append(inst)
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
            name = self.name("an operand name")
            if self.peek() == "=":  # `dot(x, w, lhs_contracting_dims={1}`: no ')' yet
                raise self.error(f"expected ')' to close the operand list before the "
                                 f"attribute '{name}='", at)
            names.append((name, at))
        return names

    def constant_literal(self, inst: Instruction) -> list:
        ref = _BUFFER_REF.match(self.text, self.pos)
        if ref:
            self._stored_literal(inst, int(ref.group(1)), ref.start(1))
            self.pos = ref.end()
            self.expect(")", "')' after the constant's reference")
            return []
        reader = _Reader(self.text)
        reader.pos = self.pos
        try:
            inst.literal = read_literal(reader, inst.shape)
        except LiteralSyntaxError as exc:
            raise self.error(f"bad literal for {inst.shape}: {exc}", exc.offset) from None
        self.pos = reader.pos
        self.expect(")", "')' after the constant's literal")
        return []

    def _stored_literal(self, inst: Instruction, index: int, at: int) -> None:
        if inst.shape.is_tuple:
            raise self.error(f"constant '{inst.name}': a tuple constant is written as text, "
                             f"not as stored data #{index}", at)
        if self.buffers is None:
            raise self.error(f"constant '{inst.name}' refers to stored data #{index}, which "
                             "only an artifact holds: load the artifact, not its module text",
                             at)
        try:
            inst.literal = self.buffers(index, inst)
        except ValueError as exc:
            raise self.error(f"constant '{inst.name}': {exc}", at) from None

    def _check_arity(self, inst: Instruction, names: list, pos: int) -> None:
        arity = _ARITY[inst.opcode]
        if arity is not None and len(names) != arity:
            raise self.error(f"{inst.opcode.value} takes {arity} operand(s), got "
                             f"{len(names)}", pos)

    def attributes(self, opcode: Opcode):
        """`, key=value` pairs (any number, across lines): (attrs, called or None)."""
        attrs: dict[str, str] = {}
        called = None
        call_keys = _CALL_KEYS[opcode]
        allowed = ATTRIBUTES[opcode]
        while True:
            m = _ATTR_NAME.match(self.text, self.pos)
            if not m:
                break
            key = m.group(1)
            if allowed is not None and key not in allowed:
                raise self.error(f"{opcode.value} takes no attribute '{key}' (XLA's parser "
                                 f"refuses it too)", m.start(1))
            self.pos = m.end()
            self.skip()
            value_at = self.pos
            value = self.value(raw=key == "backend_config")  # XLA: a raw JSON dict
            if key in attrs:
                raise self.error(f"attribute '{key}' given twice", m.start(1))
            if key in BRACED_INT_LISTS and not value.startswith("{"):
                raise self.error(f"attribute {key}= takes a list in braces, like {key}="
                                 f"{{{value}}}; got '{value}' (XLA's parser refuses it too)",
                                 value_at)
            if key in call_keys:
                if _INLINE_START.match(value):
                    value = self._inline_computations(value_at, self.pos)
                value = _STRIP_PCT.sub("", value)
                called = called or {}
                called[key] = self._computation_names(value, value_at)
            attrs[key] = value
        # XLA's instruction list is token based: the next instruction (or the computation's
        # '}') may follow on the same line, and is read as the next instruction. A ',' not
        # followed by `name=` is refused here, as XLA refuses it ("expects attribute name").
        m = _DANGLING_COMMA.match(self.text, self.pos)
        if m:
            self.pos = m.end()
            raise self.error(f"expected an attribute name after ',', got '{self.got()}'")
        return attrs, called

    def _computation_names(self, value: str, pos: int) -> list[tuple[str, int]]:
        names = [n.strip() for n in value.strip("{}").split(",") if n.strip()]
        for n in names:
            if not _NAME.fullmatch(n):
                raise self.error(f"expected a computation name, got '{n}'", pos)
        return [(n, pos) for n in names]
