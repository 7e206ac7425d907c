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


# The opcodes without a CPU lowering, each with the reason: dynhlo.support reports them
# unsupported, check_supported names the reason, and tests/hlo/test_opcode_tables.py checks that
# every opcode is lowered or listed here.
_TRANSFER = "a transfer to a host or another program: a compiled module has no peer for it"
_NOT_YET = "not implemented yet"
NOT_LOWERED: dict[Opcode, str] = {
    Opcode.PARAMETER: "bound to the arguments by the evaluator itself",
    Opcode.SEND: _TRANSFER, Opcode.SEND_DONE: _TRANSFER,
    Opcode.RECV: _TRANSFER, Opcode.RECV_DONE: _TRANSFER,
    Opcode.INFEED: _TRANSFER, Opcode.OUTFEED: _TRANSFER,
    Opcode.RAGGED_DOT: _NOT_YET, Opcode.SCALED_DOT: _NOT_YET, Opcode.SCAN: _NOT_YET,
    Opcode.SHUFFLE: _NOT_YET, Opcode.RAGGED_ALL_TO_ALL: _NOT_YET,
    Opcode.COLLECTIVE_REDUCE: _NOT_YET,
}


# opcode -> what its lowering's semantics leave for a reader of the opcode table to know
# (dynhlo.support's notes column): given with `@lowering(..., note=...)`.
NOTES: dict[Opcode, str] = OnceTable("CPU notes")


def lowering(*opcodes: Opcode, note: str = ""):
    """Register a CPU lowering for one or more opcodes; `note` goes to NOTES for each."""
    def register(fn):
        for op in opcodes:
            LOWERINGS[op] = fn
            if note:
                NOTES[op] = note
        return fn
    return register


def custom_call(*targets: str):
    """Register a CPU implementation of a custom-call target."""
    def register(fn):
        for target in targets:
            CUSTOM_CALLS[target] = fn
        return fn
    return register
