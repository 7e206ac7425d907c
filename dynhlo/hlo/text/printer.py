"""HloModule -> HLO text, in the short form (no `%` sigils, untyped operands).

parse_hlo(print_module(m)) is structurally equal to m: attributes are printed as they were
written, literals in a form that reads back to the same values (shortest round-trip decimals,
`-nan` keeps its sign). What the parser checks and drops is not printed: computation
signatures (implied by the parameters and root) and XLA's stack frame index. Computations
written inline in an attribute print as named computations (`_.0`) before their caller.

Given a `buffers` list, a constant of LARGE_CONSTANT_BYTES or more prints as a reference
`constant(#3)` to its array, appended to the list once, instead of as decimal text (millions of
weights cost seconds to print and parse, and several times their bytes to store):
parse_hlo(text, buffers) reads the same module back, sharing the arrays.
"""

from __future__ import annotations

import numpy as np

from ..literal import format_literal
from ..opcodes import Opcode

# The IR (ir.py) prints itself through this module (HloModule.to_text), so this module does
# not import it back: it reads instructions, computations and modules by their attributes.

LARGE_CONSTANT_BYTES = 1024   # below this a constant's text is no bigger than its reference


def is_large(literal) -> bool:
    """Whether a constant's value is stored by reference when buffers are kept (an array,
    not a tuple, of LARGE_CONSTANT_BYTES or more)."""
    return isinstance(literal, np.ndarray) and literal.nbytes >= LARGE_CONSTANT_BYTES


class _References:
    """The `#N` of each large constant's array in a buffers list; an array already in the
    list (the same object, e.g. printed in another module of one artifact) keeps its N."""

    def __init__(self, buffers: list):
        self.buffers = buffers
        self.index = {id(a): i for i, a in enumerate(buffers)}

    def __call__(self, array) -> str:
        n = self.index.get(id(array))
        if n is None:
            n = self.index[id(array)] = len(self.buffers)
            self.buffers.append(array)
        return f"#{n}"


def print_instruction(inst, is_root: bool = False, refs: _References | None = None) -> str:
    """One instruction line, e.g. `ROOT b = f32[<=5,5]{0,1} copy(a)`; a large constant
    as `#N` when `refs` keeps buffers (module doc)."""
    if inst.opcode is Opcode.CONSTANT and refs is not None and is_large(inst.literal):
        args = refs(inst.literal)
    elif inst.opcode is Opcode.CONSTANT:
        args = format_literal(inst.literal, inst.shape)
    elif inst.opcode is Opcode.PARAMETER:
        args = str(inst.parameter_number)
    else:
        args = ", ".join(o.name for o in inst.operands)
    text = f"{'ROOT ' if is_root else ''}{inst.name} = {inst.shape} {inst.opcode.value}({args})"
    for key, value in inst.attrs.items():
        text += f", {key}={value}"
    return text


def print_computation(comp, refs: _References | None = None) -> str:
    """One computation: its name, its instructions in order (ROOT marked), and its thread."""
    head = ("ENTRY " if comp.is_entry else "") + comp.name + " {\n"
    body = "".join("  " + print_instruction(i, i is comp.root, refs) + "\n"
                   for i in comp.instructions)
    tail = "}"
    if comp.execution_thread is not None:
        tail += f', execution_thread="{comp.execution_thread}"'
    return head + body + tail + "\n"


def print_module(module, buffers: list | None = None) -> str:
    """The whole module as HLO text; with `buffers`, large constants as references to the
    arrays appended to it (module doc)."""
    refs = None if buffers is None else _References(buffers)
    head = "HloModule " + module.name
    for key, value in module.attrs.items():
        head += f", {key}={value}"
    return head + "\n\n" + "\n".join(print_computation(c, refs)
                                        for c in module.computations)
