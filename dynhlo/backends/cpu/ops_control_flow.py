"""Control flow on the CPU: call, fusion, while, conditional, map, copy-start/copy-done.

Every invocation of a called computation gets its own SizeEnv (EvalContext.call), so a while
body reads its carried value's dynamic sizes off the value of that iteration: a loop whose
carried array shrinks or grows through set-dimension-size runs at the actual size each time.
Semantics: XLA operation semantics (Call, While, Conditional, Map) and HloInstruction's copy-start
(result `(destination, source, u32[] context)`) and copy-done (the destination).
"""

from __future__ import annotations

import numpy as np

from ...hlo.opcodes import Opcode
from ...hlo.types import to_numpy_dtype
from ...shapes.rules_control_flow import BODY, CONDITION, branches
from ..common.limits import count_iteration
from .lowering import lowering
from .ops_elementwise import fitted


def _predicate(ctx, value, what: str) -> bool:
    value = np.asarray(value)
    if value.size != 1:
        raise ctx.error(f"{what} gave {value.size} values where one pred[] was expected "
                        "(a data-dependent loop or branch inside a map is not supported)")
    return bool(value.reshape(()))


@lowering(Opcode.CALL)
def call(ctx, inst, args):
    (comp,) = inst.called["to_apply"]
    return ctx.call(0, comp, args)


@lowering(Opcode.FUSION)
def fusion(ctx, inst, args):
    (comp,) = inst.called["calls"]
    return ctx.call(0, comp, args)


@lowering(Opcode.WHILE)
def while_(ctx, inst, args):
    """Run body while condition holds; the carried value keeps its actual sizes throughout."""
    (state,) = args
    (cond,) = inst.called["condition"]
    (body,) = inst.called["body"]
    limit, done = ctx.evaluator.while_limit, 0
    while _predicate(ctx, ctx.call(CONDITION, cond, [state]), f"condition '{cond.name}'"):
        done = count_iteration(inst, done, limit)
        state = ctx.call(BODY, body, [state])
    return state


def _branch_index(ctx, selector, count: int) -> int:
    """XLA: pred true -> branch 0, false -> 1; an s32 index out of [0, count) -> last branch."""
    selector = np.asarray(selector)
    if selector.size != 1:
        raise ctx.error(f"branch selector has {selector.size} values where one was expected "
                        "(a conditional inside a map is not supported)")
    if selector.dtype == np.bool_:
        return 0 if bool(selector.reshape(())) else 1
    index = int(selector.reshape(()))
    return index if 0 <= index < count else count - 1


@lowering(Opcode.CONDITIONAL)
def conditional(ctx, inst, args):
    """Run the selected branch on its own operand; its result keeps the branch's sizes."""
    comps = branches(inst)
    k = _branch_index(ctx, args[0], len(comps))
    return ctx.call(k, comps[k], [args[k + 1]])


@lowering(Opcode.MAP)
def map_(ctx, inst, args):
    """Apply to_apply elementwise: one vectorized run of the scalar computation."""
    (comp,) = inst.called["to_apply"]
    shape = ctx.out_shape()
    args = [np.asarray(a) for a in fitted(ctx, args)]
    out = ctx.call(0, comp, args, vectorized=True)
    dtype = to_numpy_dtype(inst.shape.element_type)
    return np.array(np.broadcast_to(np.asarray(out), shape), dtype=dtype)


@lowering(Opcode.COPY_START)
def copy_start(ctx, inst, args):
    """(destination copy, source, u32[] context 0): the copy is done at once on the CPU."""
    (x,) = args
    return (np.array(x, copy=True), x, np.uint32(0))


@lowering(Opcode.COPY_DONE)
def copy_done(ctx, inst, args):
    """The destination of the copy-start tuple."""
    return args[0][0]
