"""The CPU backend's lowering table: one NumPy implementation per opcode.

A lowering is `fn(ctx, inst, args) -> value` where `args` are the operands' values (NumPy
arrays at their actual sizes, tuples for tuple shapes) and `ctx` (an EvalContext) gives the
actual result shape, size evaluation and calls into other computations. Register one with
`@lowering(Opcode.X)`; the table is filled by importing the `ops_*` modules, one per opcode
family (the family names of dynhlo/shapes/rules_<family>.py). Both tables refuse a second
registration of one key (dynhlo.hlo.opcodes.OnceTable): ValueError at import.
"""

from __future__ import annotations

from typing import Callable

from ...hlo.opcodes import OnceTable, Opcode

LOWERINGS: dict[Opcode, Callable] = OnceTable("CPU lowerings")

# custom_call_target -> fn(ctx, inst, args): the custom calls the CPU backend accepts.
CUSTOM_CALLS: dict[str, Callable] = OnceTable("CPU custom calls")


def lowering(*opcodes: Opcode):
    """Register a CPU lowering for one or more opcodes."""
    def register(fn):
        for op in opcodes:
            LOWERINGS[op] = fn
        return fn
    return register


def custom_call(*targets: str):
    """Register a CPU implementation of a custom-call target."""
    def register(fn):
        for target in targets:
            CUSTOM_CALLS[target] = fn
        return fn
    return register
