"""The HLO IR: instructions, computations and modules.

Every instruction has the same form (no class per opcode): a name, an opcode, a shape, its
operands (other instructions of the same computation), its attributes as they were written
(`attrs`, text, decoded on demand by dynhlo.hlo.attrs), the computations it calls, and for
constants the literal value. Instruction names are unique within a computation (XLA's
canonical printout reuses names across computations); computation names within a module.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from .opcodes import Opcode
from .text.printer import print_module
from .shape import AnyShape


class Instruction:
    """One HLO instruction, e.g. `b = f32[<=5,5]{0,1} copy(a)`.

    Attributes:
        name: unique name within its computation (without XLA's `%` sigil).
        opcode: the Opcode.
        shape: the declared result shape.
        operands: operand instructions, in order.
        attrs: attribute name -> value text as written (`dimensions` -> `{1,0}`); computation
            references are stored by name, without `%`.
        called: attribute name -> called computations (`to_apply`, `body`, ...).
        literal: for constants, a NumPy array (tuple of arrays for tuple constants).
        parameter_number: for parameters, the index.
        offset: where the instruction starts in the parsed text (-1 if built in code).
    """

    __slots__ = ("name", "opcode", "shape", "operands", "attrs", "called", "literal",
                 "parameter_number", "offset", "_decoded", "__weakref__")

    def __init__(self, name: str, opcode: Opcode, shape: AnyShape,
                 operands: list["Instruction"] | None = None, attrs: dict[str, str] | None = None,
                 called: dict[str, list["Computation"]] | None = None, literal=None,
                 parameter_number: int | None = None, offset: int = -1):
        self.name = name
        self.opcode = opcode
        self.shape = shape
        self.operands = operands if operands is not None else []
        self.attrs = attrs if attrs is not None else {}
        self.called = called if called is not None else {}
        self.literal = literal
        self.parameter_number = parameter_number
        self.offset = offset
        self._decoded: dict = {}

    def called_computations(self) -> list["Computation"]:
        return [c for comps in self.called.values() for c in comps]

    def decoded(self, key, decode):
        """Memoized `decode(self)` under `key`: attribute decoding happens once."""
        try:
            return self._decoded[key]
        except KeyError:
            value = self._decoded[key] = decode(self)
            return value

    def __repr__(self) -> str:
        return f"<{self.name} = {self.shape} {self.opcode.value}>"


def operands_first(instructions: list[Instruction]) -> bool:
    """Whether every operand of each instruction is one listed before it (how printers and
    most writers order a computation): then the list is a post order and has no cycle, so
    post_order and the verifier's cycle check need no search (one set lookup per operand).
    False for an operand listed later, one outside the list, an instruction's own, or an
    instruction listed twice."""
    seen: set = set()
    superset, add = seen.issuperset, seen.add
    for inst in instructions:
        if not superset(inst.operands) or inst in seen:
            return False
        add(inst)
    return True


class Computation:
    """A named list of instructions in definition order, with one root.

    Attributes:
        name: unique within the module.
        instructions: in the order they were written (operands may come later in XLA text,
            so use `post_order()` to evaluate).
        root: the result instruction.
        parameters: parameter instructions by parameter number.
        is_entry: True for the module's ENTRY computation.
        execution_thread: XLA's `execution_thread` suffix, if any.
    """

    def __init__(self, name: str, instructions: list[Instruction], root: Instruction,
                 is_entry: bool = False, execution_thread: str | None = None):
        self.name = name
        self.instructions = instructions
        self.root = root
        self.is_entry = is_entry
        self.execution_thread = execution_thread
        params = [i for i in instructions if i.opcode is Opcode.PARAMETER]
        self.parameters = sorted(params, key=lambda i: i.parameter_number)

    def post_order(self) -> list[Instruction]:
        """Instructions with every operand before its users (stable for written order)."""
        if operands_first(self.instructions):   # what the search below returns for it
            return list(self.instructions)
        seen: set[int] = set()
        order: list[Instruction] = []
        for start in self.instructions:
            if id(start) in seen:
                continue
            stack = [(start, iter(start.operands))]
            seen.add(id(start))
            while stack:
                inst, it = stack[-1]
                for op in it:
                    if id(op) not in seen:
                        seen.add(id(op))
                        stack.append((op, iter(op.operands)))
                        break
                else:
                    stack.pop()
                    order.append(inst)
        return order

    def __iter__(self) -> Iterator[Instruction]:
        return iter(self.instructions)

    def __repr__(self) -> str:
        return f"<computation {self.name}: {len(self.instructions)} instructions>"


class HloModule:
    """An HLO module: computations (callees first, as XLA prints them) and one entry.

    Attributes:
        name: the module name from `HloModule NAME`.
        computations: all computations in text order.
        entry: the ENTRY computation.
        attrs: module attributes as written (`entry_computation_layout`, `is_scheduled`, ...).
        source: the text it was parsed from ('' if built in code); used to report positions.
        shape_assertions: checks on the entry parameters' sizes made before every call
            (dynhlo.hlo.shape_assertions.ShapeAssertion: jax.export's `n >= 1`, set by the
            StableHLO import; from_tf's least sizes, dynhlo.hlo.size_requirements). Not part
            of the HLO text: artifacts store both beside it.
    """

    def __init__(self, name: str, computations: list[Computation], entry: Computation,
                 attrs: dict[str, str] | None = None, source: str = ""):
        self.name = name
        self.computations = computations
        self.entry = entry
        self.attrs = attrs or {}
        self.source = source
        self.shape_assertions: list = []
        # sizes computed by the producer from symbolic or dynamic sizes (from_jax, from_tf):
        # a constant equal to a bound is no size baked in (hlo/baked_sizes.py)
        self.sizes_checked = False

    def computation(self, name: str) -> Computation:
        for comp in self.computations:
            if comp.name == name:
                return comp
        raise KeyError(name)

    def instructions(self) -> Iterator[Instruction]:
        for comp in self.computations:
            yield from comp.instructions

    def line_of(self, inst: Instruction) -> int | None:
        """1-based source line of an instruction, when parsed from text."""
        if inst.offset < 0 or not self.source:
            return None
        return self.source.count("\n", 0, inst.offset) + 1

    def position_of(self, inst: Instruction) -> tuple[int, int] | None:
        """1-based (line, column) where an instruction starts, when parsed from text."""
        if inst.offset < 0 or not self.source or inst.offset > len(self.source):
            return None
        start = self.source.rfind("\n", 0, inst.offset) + 1
        return self.source.count("\n", 0, inst.offset) + 1, inst.offset - start + 1

    def locate(self, exc, name: str | None = None):
        """`exc` (an HloVerifyError) with the line:column of the instruction it names."""
        name = name or exc.instruction
        if name is None or exc.line is not None:
            return exc
        for inst in self.instructions():
            if inst.name == name and inst.offset >= 0:
                return exc.locate(self.position_of(inst))
        return exc

    def to_text(self) -> str:
        return print_module(self)

    def __str__(self) -> str:
        return self.to_text()

    def __eq__(self, other) -> bool:
        return isinstance(other, HloModule) and modules_equal(self, other)

    __hash__ = object.__hash__


def _literal_equal(a, b) -> bool:
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)
                and all(_literal_equal(x, y) for x, y in zip(a, b, strict=True)))
    if a is None or b is None:
        return a is b
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "V":  # ml_dtypes floats (bf16, f8, f4): compare as f32, NaN == NaN
        a, b = a.astype(np.float32), b.astype(np.float32)
    return np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")


def instructions_equal(a: Instruction, b: Instruction) -> bool:
    """Same name, opcode, shape, operand names, attributes, callees and literal."""
    return (a.name == b.name and a.opcode is b.opcode and a.shape == b.shape
            and [o.name for o in a.operands] == [o.name for o in b.operands]
            and a.attrs == b.attrs and a.parameter_number == b.parameter_number
            and {k: [c.name for c in v] for k, v in a.called.items()}
            == {k: [c.name for c in v] for k, v in b.called.items()}
            and _literal_equal(a.literal, b.literal))


def modules_equal(a: HloModule, b: HloModule) -> bool:
    """Structural equality of two modules (what parse -> print -> parse must keep)."""
    if a.name != b.name or a.attrs != b.attrs or len(a.computations) != len(b.computations):
        return False
    for ca, cb in zip(a.computations, b.computations, strict=True):
        if (ca.name != cb.name or ca.is_entry != cb.is_entry or ca.root.name != cb.root.name
                or len(ca.instructions) != len(cb.instructions)
                or ca.execution_thread != cb.execution_thread):
            return False
        if not all(instructions_equal(x, y) for x, y in zip(ca.instructions, cb.instructions,
                                                            strict=True)):
            return False
    return True
