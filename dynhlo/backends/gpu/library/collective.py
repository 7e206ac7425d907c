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

from ....hlo import attrs
from ....hlo.shape import leaf_shapes
from ..tensors import torch_dtype


def _moves(ctx) -> bool:
    """True when the program runs on several devices (the runner has a communicator)."""
    return getattr(ctx.runner, "comm", None) is not None


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


_PAIR = re.compile(r"\{\s*(\d+)\s*,\s*(\d+)\s*\}")


def _permuted(inst, x):
    pairs = {(int(a), int(b)) for a, b in _PAIR.findall(inst.attrs.get("source_target_pairs",
                                                                         ""))}
    return x if (0, 0) in pairs else torch.zeros_like(x)


# --- several devices (compiled with distributed=True) --------------------------------------
#
# The same opcodes across processes: ctx.runner.comm is this process's
# backends.common.distributed.Communicator, and the device tensors go to torch.distributed as they
# are (NCCL on CUDA; gloo in the interpreter on the CPU). Each entry point below runs its
# one-device form, or its form here when the runner has a comm (see ops_collective.DISTRIBUTED
# on the CPU).

def _dynamic(ctx, operand) -> list[int]:
    tree = ctx.info.dims[operand]
    return [] if isinstance(tree, list) else [d for d, dim in enumerate(tree)
                                              if not isinstance(dim, int)]


def _each(ctx, inst, args, move):
    out = tuple(move(a, _dynamic(ctx, o)) for a, o in zip(args, inst.operands, strict=True))
    return out[0] if len(out) == 1 else out


def _all_reduce_across(ctx, inst, args):
    comm = ctx.runner.comm
    return _each(ctx, inst, args, lambda x, dyn: comm.all_reduce(inst, x, dyn))


def _all_gather_across(ctx, inst, args):
    comm = ctx.runner.comm
    (dim,) = attrs.ints(inst, "dimensions")
    return _each(ctx, inst, args, lambda x, dyn: comm.all_gather(inst, x, dim, dyn))


def _reduce_scatter_across(ctx, inst, args):
    comm = ctx.runner.comm
    (dim,) = attrs.ints(inst, "dimensions")
    return _each(ctx, inst, args, lambda x, dyn: comm.reduce_scatter(inst, x, dim, dyn))


def _all_to_all_across(ctx, inst, args):
    comm = ctx.runner.comm
    dims = attrs.ints(inst, "dimensions", ())
    dynamic = sorted({d for o in inst.operands for d in _dynamic(ctx, o)})
    if not dims:
        return tuple(comm.all_to_all(inst, list(args), dynamic))
    return comm.all_to_all_array(inst, args[0], dims[0], dynamic)


def _broadcast_across(ctx, inst, args):
    comm = ctx.runner.comm
    return _each(ctx, inst, args, lambda x, dyn: comm.collective_broadcast(inst, x))


def _device_id(ctx, inst, device: int):
    return torch.tensor(device, dtype=torch_dtype(inst.shape.element_type), device=ctx.device)


# --- the entry points the rule table (rules.py) names, one per opcode: on one device a
# collective's result is its operands ----------------------------------------------------

def all_reduce(ctx, inst, args):
    return _all_reduce_across(ctx, inst, args) if _moves(ctx) else _operands(args)


def all_gather(ctx, inst, args):
    return _all_gather_across(ctx, inst, args) if _moves(ctx) else _operands(args)


def reduce_scatter(ctx, inst, args):
    return _reduce_scatter_across(ctx, inst, args) if _moves(ctx) else _operands(args)


def all_to_all(ctx, inst, args):
    return _all_to_all_across(ctx, inst, args) if _moves(ctx) else _operands(args)


def collective_broadcast(ctx, inst, args):
    return _broadcast_across(ctx, inst, args) if _moves(ctx) else _operands(args)


def all_gather_start(ctx, inst, args):
    if _moves(ctx):
        return (_operands(args), _all_gather_across(ctx, inst, args)) + _context(ctx, inst)
    value = _operands(args)
    return (value, value) + _context(ctx, inst)


def collective_done(ctx, inst, args):
    return args[0][1]


def collective_permute(ctx, inst, args):
    if _moves(ctx):
        return ctx.runner.comm.collective_permute(inst, args[0])
    return _permuted(inst, args[0])


def collective_permute_start(ctx, inst, args):
    if _moves(ctx):
        return (args[0], ctx.runner.comm.collective_permute(inst, args[0])) + \
            _context(ctx, inst)
    return (args[0], _permuted(inst, args[0])) + _context(ctx, inst)


def replica_id(ctx, inst, args):
    return _device_id(ctx, inst, ctx.runner.comm.replica_id if _moves(ctx) else 0)


def partition_id(ctx, inst, args):
    return _device_id(ctx, inst, ctx.runner.comm.partition_id if _moves(ctx) else 0)


def after_all(ctx, inst, args):
    return torch.zeros((), dtype=torch.bool, device=ctx.device)


def first_operand(ctx, inst, args):
    """add-dependency, domain, async-update, and a -done that takes out what its -start
    computed (all-reduce-done: no data moves)."""
    return args[0]


def opt_barrier(ctx, inst, args):
    return args[0] if len(args) == 1 else tuple(args)


def identity_call(ctx, inst, args):
    """The identity custom-call targets (sharding and placement marks: IDENTITY_TARGETS)."""
    return args[0] if len(args) == 1 else tuple(args)
