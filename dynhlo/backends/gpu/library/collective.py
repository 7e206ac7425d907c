"""The one-device forms of collectives, and tokens, on the device (no host copies).

On one device a collective's result is its operand (all-reduce, reduce-scatter, all-gather,
all-to-all, collective-broadcast and their -start/-done halves); collective-permute gives
the operand for a {0,0} source-target pair, else zeros; replica-id and partition-id are 0;
after-all is a token (an empty predicate: it orders, it carries no data); add-dependency,
domain, async-update and opt-barrier pass their operands through. This mirrors the
CPU backend (dynhlo/backends/cpu/ops_collective.py) value for value.

async-start / async-done (which run a wrapped computation) and fusion stay on the host
fallback: their called computations are not planned for the device (only call, while and
conditional are, in plan/fusion.py).
Semantics: XLA operation semantics (AllReduce, AllGather, ..., CollectivePermute, AfterAll).
"""

from __future__ import annotations

import re

import torch

from ....hlo.shape import leaf_shapes
from ..tensors import torch_dtype


def _operands(args):
    return args[0] if len(args) == 1 else tuple(args)


def _context(ctx, inst) -> tuple:
    """Zeros for the context elements (index 2 on) of a -start's tuple shape."""
    if not inst.shape.is_tuple:
        return ()
    out = []
    for element in inst.shape.elements[2:]:
        zeros = [torch.zeros(s.dims, dtype=torch_dtype(s.element_type), device=ctx.device)
                 for s in leaf_shapes(element)]
        out.append(zeros[0] if not element.is_tuple else tuple(zeros))
    return tuple(out)


def one_participant(ctx, inst, args):
    return _operands(args)


def all_gather_start(ctx, inst, args):
    value = _operands(args)
    return (value, value) + _context(ctx, inst)


def collective_done(ctx, inst, args):
    return args[0][1]


_PAIR = re.compile(r"\{\s*(\d+)\s*,\s*(\d+)\s*\}")


def _permuted(inst, x):
    pairs = {(int(a), int(b)) for a, b in _PAIR.findall(inst.attrs.get("source_target_pairs",
                                                                         ""))}
    return x if (0, 0) in pairs else torch.zeros_like(x)


def collective_permute(ctx, inst, args):
    return _permuted(inst, args[0])


def collective_permute_start(ctx, inst, args):
    return (args[0], _permuted(inst, args[0])) + _context(ctx, inst)


def device_id(ctx, inst, args):
    return torch.zeros((), dtype=torch_dtype(inst.shape.element_type), device=ctx.device)


def after_all(ctx, inst, args):
    return torch.zeros((), dtype=torch.bool, device=ctx.device)


def first_operand(ctx, inst, args):
    return args[0]


def opt_barrier(ctx, inst, args):
    return args[0] if len(args) == 1 else tuple(args)
