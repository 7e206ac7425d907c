"""Control-flow ops with a library rule: map (a scalar computation over whole tensors) and
copy-start / copy-done (the copy is made at once).

call, while and conditional run as device plans of their own (rules.py: `plan`,
plan/fusion.py). Map runs its to_apply through apply.py when every op of it is one apply.py
runs exactly; else NotImplemented sends it to the host tier.
Semantics: XLA operation semantics, Map; HLO copy-start/copy-done.
"""

from __future__ import annotations

import torch

from ..tensors import torch_dtype
from .apply import applicable, apply
from .elementwise import fitted


def map_(ctx, inst, args):
    """Apply to_apply elementwise: one run of the scalar computation over whole tensors."""
    (comp,) = inst.called["to_apply"]
    if not applicable(comp):
        return NotImplemented
    shape = tuple(ctx.out_shape())
    out = apply(comp, fitted(ctx, args), ctx.device)
    return out.to(torch_dtype(inst.shape.element_type)).expand(shape).contiguous()


def copy_start(ctx, inst, args):
    """(destination copy, source, u32[] context 0): the copy is made at once."""
    (x,) = args
    return (x.clone(), x, torch.zeros((), dtype=torch.uint32, device=x.device))


def copy_done(ctx, inst, args):
    return args[0][0]
