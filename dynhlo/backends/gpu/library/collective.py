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


_LOCAL = ("all-reduce-done",)  # takes out what its -start computed: no data moves


def _moves(ctx, inst) -> bool:
    """True when the program runs on several devices and `inst` moves data between them."""
    return getattr(ctx.runner, "comm", None) is not None and inst.opcode.value not in _LOCAL


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
    if _moves(ctx, inst):
        return across(ctx, inst, args)
    return _operands(args)


def all_gather_start(ctx, inst, args):
    if _moves(ctx, inst):
        return across(ctx, inst, args)
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
    if _moves(ctx, inst):
        return across(ctx, inst, args)
    return _permuted(inst, args[0])


def collective_permute_start(ctx, inst, args):
    if _moves(ctx, inst):
        return across(ctx, inst, args)
    return (args[0], _permuted(inst, args[0])) + _context(ctx, inst)


def device_id(ctx, inst, args):
    if _moves(ctx, inst):
        return across(ctx, inst, args)
    return torch.zeros((), dtype=torch_dtype(inst.shape.element_type), device=ctx.device)


def after_all(ctx, inst, args):
    return torch.zeros((), dtype=torch.bool, device=ctx.device)


def first_operand(ctx, inst, args):
    return args[0]


def opt_barrier(ctx, inst, args):
    return args[0] if len(args) == 1 else tuple(args)


# --- several devices (compiled with distributed=True) --------------------------------------
#
# The same opcodes across processes: ctx.runner.comm is this process's
# backends.common.distributed.Communicator, and the device tensors go to torch.distributed as they
# are (NCCL on CUDA; gloo in the interpreter on the CPU). The rule table (rules.py) calls the
# functions above; each of them hands over to its form here when the runner has a comm.

def _dynamic(ctx, operand) -> list[int]:
    tree = ctx.info.dims[operand]
    return [] if isinstance(tree, list) else [d for d, dim in enumerate(tree)
                                              if not isinstance(dim, int)]


def _each(ctx, inst, args, move):
    out = tuple(move(a, _dynamic(ctx, o)) for a, o in zip(args, inst.operands, strict=True))
    return out[0] if len(out) == 1 else out


def across(ctx, inst, args):
    """The multi-device form of a collective (see ops_collective.DISTRIBUTED on the CPU)."""
    comm, op = ctx.runner.comm, inst.opcode.value
    if op in ("all-reduce", "all-reduce-start"):
        return _each(ctx, inst, args, lambda x, dyn: comm.all_reduce(inst, x, dyn))
    if op in ("all-gather", "all-gather-start", "reduce-scatter"):
        (dim,) = attrs.ints(inst, "dimensions")
        move = comm.all_gather if op != "reduce-scatter" else comm.reduce_scatter
        out = _each(ctx, inst, args, lambda x, dyn: move(inst, x, dim, dyn))
        return (_operands(args), out) + _context(ctx, inst) if op == "all-gather-start" \
            else out
    if op == "all-to-all":
        dims = attrs.ints(inst, "dimensions", ())
        dynamic = sorted({d for o in inst.operands for d in _dynamic(ctx, o)})
        if not dims:
            return tuple(comm.all_to_all(inst, list(args), dynamic))
        return comm.all_to_all_array(inst, args[0], dims[0], dynamic)
    if op == "collective-broadcast":
        return _each(ctx, inst, args, lambda x, dyn: comm.collective_broadcast(inst, x))
    if op == "collective-permute":
        return comm.collective_permute(inst, args[0])
    if op == "collective-permute-start":
        return (args[0], comm.collective_permute(inst, args[0])) + _context(ctx, inst)
    ids = {"replica-id": comm.replica_id, "partition-id": comm.partition_id}
    return torch.tensor(ids[op], dtype=torch_dtype(inst.shape.element_type), device=ctx.device)


def identity_call(ctx, inst, args):
    """The identity custom-call targets (sharding and placement marks: IDENTITY_TARGETS)."""
    return args[0] if len(args) == 1 else tuple(args)
