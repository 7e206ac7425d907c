"""Calls on the CPU: call and fusion run their computation on the operands' values."""

from __future__ import annotations

from ...hlo.opcodes import Opcode
from .lowering import lowering


@lowering(Opcode.CALL)
def call(ctx, inst, args):
    (comp,) = inst.called["to_apply"]
    return ctx.call(0, comp, args)


@lowering(Opcode.FUSION)
def fusion(ctx, inst, args):
    (comp,) = inst.called["calls"]
    return ctx.call(0, comp, args)
