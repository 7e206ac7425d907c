"""The fast instruction path: most instruction lines match one regex and are built from it.

`_FAST` matches a whole line of the common forms (untyped or typed operands, attribute values
without nested brackets beyond one level). `fast_instruction` builds the instruction from the
match's groups, or returns None for anything it does not handle or finds wrong; the caller then
parses the line again by the general path, which reports errors with their exact position.
"""

from __future__ import annotations

import re

from ..ir import Instruction
from .instruction_parser import _ARITY, _CALL_KEYS, _STRIP_PCT, _InstructionParser
from ..opcodes import BY_NAME, Opcode
from ..opcodes_attrs import ATTRIBUTES, BRACED_INT_LISTS
from .scanner import _ARR, _BARE, _N, _STR

_P = r'[^{}()\[\]"\n]'
_GROUP = rf"\{{{_P}*(?:(?:\[{_P}*\]|{_STR}){_P}*)*\}}"
_VAL = rf'(?:{_GROUP}|{_STR}|{_BARE})'
_UNTYPED = rf"[ \t]*%?{_N}[ \t]*(?:,[ \t]*%?{_N}[ \t]*)*|[ \t]*"
_FAST = re.compile(  # groups: start, ROOT, name, shape, opcode, untyped, other operands, attrs
    rf"\s*()(ROOT[ \t]+)?%?({_N})[ \t]*=[ \t]*({_ARR}|\([^()\n]*\))"
    rf"[ \t]+([a-z][a-z0-9\-]*)\((?:({_UNTYPED})|([^()\n]*))\)"
    rf"((?:[ \t]*,[ \t]*{_N}[ \t]*=[ \t]*{_VAL})*)[ \t\r]*(?=\n(?!\s*,)|\}}|\Z)")
_FAST_ATTR = re.compile(rf"[ \t]*,[ \t]*({_N})[ \t]*=[ \t]*({_VAL})")
_TYPED = re.compile(rf"[ \t]*(?:(?:{_ARR}[ \t]+)?%?{_N}[ \t]*(?:,[ \t]*(?:{_ARR}[ \t]+)?%?{_N}"
                    rf"[ \t]*)*)?")
_OPERAND = re.compile(rf"(?:({_ARR})[ \t]+)?(%?)({_N})")
_LEAVES = frozenset({Opcode.CONSTANT, Opcode.PARAMETER})


class _FastPath(_InstructionParser):
    """Adds `fast_instruction` to the general path it falls back on."""

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
            if self.pos != m.end(6 if untyped is not None else 7) + 1:
                return None  # the literal ran past the ')' _FAST took (one in a comment)
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
            if "/*" in attr_text or "//" in attr_text:
                return None  # comments inside a value: the general path drops them
            items = _FAST_ATTR.findall(attr_text)
            attrs = inst.attrs = dict(items)
            if len(attrs) != len(items):
                return None
            allowed = ATTRIBUTES[opcode]
            if allowed is not None and not allowed.issuperset(attrs):
                return None  # the general path names the attribute and its position
            if not BRACED_INT_LISTS.isdisjoint(attrs) and any(
                    attrs[k][0] != "{" for k in BRACED_INT_LISTS.intersection(attrs)):
                return None  # `dimensions=0`: the general path says where
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
