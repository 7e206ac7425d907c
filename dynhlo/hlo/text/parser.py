"""HLO text -> HloModule.

Accepts the short form (`a = f32[<=5,5]{1,0} parameter(0)`) and XLA's dump form as JAX and
XLA print it: `%` sigils, computation signatures, typed operands (`f32[8,3]{1,0} %x`),
`/*index=N*/` comments, module attributes, and any attribute (`metadata={...}`,
`backend_config`, `sharding`, ...) kept as written. Grammar source:
xla/hlo/parser/hlo_parser.cc. Errors are HloParseError with line and column.

This module reads the module and its computations; the pieces below it are
scanner.py (positions, errors, names, shapes, attribute values), instruction_parser.py (the
general instruction path) and instruction_fast.py (one regex for most lines, falling back on
the general path, which reports errors with their exact position).
"""

from __future__ import annotations

import os
import re
from itertools import islice

from ...errors import DynHloError, HloParseError
from ..ir import Computation, HloModule, Instruction
from .instruction_fast import _OPERAND, _FAST, _FastPath
from .infer import infer_shapes
from .printer import print_module
from .scanner import _MAX_DEPTH, _NAME, _STRING
from ..types import to_numpy_dtype

_FRAMES_START = re.compile(r"FileNames\s+(?:[0-9]|FunctionNames\b)")
_FRAME_ENTRIES = re.compile(r'(?:\s*[0-9]+[ \t]+(?:"(?:[^"\\\n]|\\.)*"|\{[^{}\n]*\}))*')


def parse_hlo(text: str | bytes, buffers=None) -> HloModule:
    """Parse HLO module text.

    Args:
        text: an `HloModule` in XLA's text format (short or dump form); bytes are read as UTF-8.
        buffers: the values of constants written `#N` (print_module with buffers): a list
            of arrays, each checked against its constant's type and dimensions, or a
            callable (index, instruction) -> array that checks them itself, raising
            ValueError (an HloParseError at the reference) or a DynHloError of its own.

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
    if not text.isascii():
        _check_encodable(text)
    # A leading byte order mark (Windows editors write one) is not part of the HLO text.
    parser = _Parser(text.removeprefix("\ufeff"))
    if buffers is not None:
        parser.buffers = buffers if callable(buffers) else _listed(list(buffers))
    return parser.module()


def copy_module(module: HloModule) -> HloModule:
    """A copy of `module` to rewrite (printed and parsed back), sharing the arrays of its
    large constants, which are never written in place: a model's weights are not printed
    as decimals and read back by every pass. The module's shape assertions (checks on the
    entry parameters, not in the text) come along: inference reads their equalities."""
    buffers: list = []
    copy = parse_hlo(print_module(module, buffers), buffers)
    copy.shape_assertions = list(module.shape_assertions)
    return copy


def _listed(arrays: list):
    """The buffers callable of a list of arrays: each must be its constant's value."""
    def array(index: int, inst: Instruction):
        if index >= len(arrays):
            raise ValueError(f"stored data #{index} is not among the {len(arrays)} given")
        value = arrays[index]
        shape = inst.shape
        if value.dtype != to_numpy_dtype(shape.element_type) or value.shape != tuple(
                shape.dims):
            raise ValueError(f"stored data #{index} is {value.dtype}{list(value.shape)}, "
                             f"not a {shape}")
        return value
    return array


def _check_encodable(text: str) -> None:
    """HloParseError at a lone surrogate ('\\ud800' from a bad decode): no file can hold it,
    so the module could never be printed, serialized or cached."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        shown = text.encode("utf-8", "backslashreplace").decode("utf-8")  # printable
        raise _Parser(shown).error(f"character U+{ord(text[exc.start]):04X} is a lone "
                                  "surrogate, not Unicode text", exc.start) from None


_FILE_SUFFIXES = (".hlo", ".txt", ".mlir", ".mlirbc", ".pb", ".pbtxt", ".dynhlo")


def _file_name_hint(text: str) -> str:
    """A hint when the text is a file name (`dynhlo.compile("m.hlo")`), not HLO text."""
    name = text.strip()
    if not name or "\n" in name or len(name) > 4096:
        return ""
    try:
        is_file = os.path.isfile(name)
    except (ValueError, OSError):  # a NUL byte, a name too long for the system
        is_file = False
    if not (is_file or name.endswith(_FILE_SUFFIXES)):
        return ""
    return f"; '{name}' is a file name, not HLO text: pass open({name!r}).read()"


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[:exc.start].decode("utf-8")
        raise _Parser(good).error(f"byte 0x{data[exc.start]:02x} is not UTF-8 text",
                                  len(good)) from None


class _Parser(_FastPath):
    """A whole module: header, stack frame index, computations, and call linking."""

    def __init__(self, text: str):
        super().__init__(text)
        self._inline: list[tuple[Computation, int, list]] = []  # written inside attributes
        self._inline_count = 0
        self._depth = 0  # of inline computations being read

    def module(self) -> HloModule:
        self.skip()
        if not self.text.startswith("HloModule", self.pos):
            raise self.error(f"expected 'HloModule' at the start of the module, got "
                             f"'{self.got()}'{_file_name_hint(self.text)}")
        self.pos += len("HloModule")
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
        if self._shapeless:
            try:
                infer_shapes(self._shapeless)
            except ValueError as exc:
                inst, reason = exc.args
                raise self.error(f"cannot infer the shape of '{inst.name}': {reason}",
                                 inst.offset) from None
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
        if isinstance(where, int):  # fast path: positions found again only on error; only
            # this instruction's (the rest of the text held a quadratic search: `f32[f32[...`)
            found = islice(_OPERAND.finditer(self.text, where), len(names))
            where = [m.start(2) for m in found]
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
    # -- computations written inline in an attribute ----------------------------------------

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
