"""Single-device forms of collectives, structure ops, async wrappers and marker custom calls.

Modules dumped from multi-device programs carry collectives; on one device (replica 0,
partition 0, replica groups of one device each: checked at compile time by the shape rules)
XLA's semantics reduce to:
- all-reduce, reduce-scatter, all-gather, all-to-all, collective-broadcast (and the -start /
  -done pairs): the operand itself (a reduction or concatenation over one participant).
- collective-permute: the operand when source_target_pairs holds {0,0}; otherwise device 0 has
  no source and gets zeros, as XLA specifies for a target without a source.
- replica-id, partition-id: u32[] 0. after-all: a token (an empty-shaped pred array).
- add-dependency, opt-barrier, domain: their operand(s) unchanged.
- async-start runs the computation in calls= at once; its value is ((operands), result,
  context zeros); async-update passes it on; async-done takes the result out.

Custom-call targets accepted here, all the identity on one device: Sharding,
SPMDFullToShardShape, SPMDShardToFullShape, annotate_device_placement, MoveToHost,
MoveToDevice, LayoutConstraint, xla.sdy.GlobalToLocalShape, xla.sdy.LocalToGlobalShape,
xla.sdy.FuncResultSharding.

Every lowering here is marked `single_device = True`: dynhlo.support reports these opcodes
as "single-device form".
"""

from __future__ import annotations

import re

import numpy as np

from ...hlo.opcodes import Opcode
from ...hlo.shape import leaf_shapes
from ...hlo.types import to_numpy_dtype
from ...shapes.rules_misc import IDENTITY_TARGETS
from .lowering import custom_call, lowering

TOKEN = np.zeros((), dtype=np.bool_)
"""The value of a token (after-all): carries no data, only ordering in XLA."""


def single_device(*opcodes: Opcode):
    """Register a CPU lowering that is the one-device form of a multi-device opcode."""
    def register(fn):
        fn.single_device = True
        return lowering(*opcodes)(fn)
    return register


def _operands(args):
    return args[0] if len(args) == 1 else tuple(args)


def _context(inst) -> tuple:
    """Zeros for the context elements (index 2 on) of an async -start's tuple shape."""
    if not inst.shape.is_tuple:
        return ()
    out = []
    for element in inst.shape.elements[2:]:
        zeros = [np.zeros(s.dims, to_numpy_dtype(s.element_type)) for s in leaf_shapes(element)]
        out.append(zeros[0] if not element.is_tuple else tuple(zeros))
    return tuple(out)


@single_device(Opcode.ALL_REDUCE, Opcode.ALL_REDUCE_START, Opcode.ALL_REDUCE_DONE,
               Opcode.REDUCE_SCATTER, Opcode.ALL_GATHER, Opcode.ALL_TO_ALL,
               Opcode.COLLECTIVE_BROADCAST)
def one_participant(ctx, inst, args):
    """A reduction, scatter, gather or exchange among one device: the operand itself."""
    return _operands(args)


@single_device(Opcode.ALL_GATHER_START)
def all_gather_start(ctx, inst, args):
    value = _operands(args)
    return (value, value) + _context(inst)


@single_device(Opcode.ALL_GATHER_DONE, Opcode.COLLECTIVE_PERMUTE_DONE)
def collective_done(ctx, inst, args):
    return args[0][1]


_PAIR = re.compile(r"\{\s*(\d+)\s*,\s*(\d+)\s*\}")


def _receives_from_itself(inst) -> bool:
    pairs = {(int(a), int(b)) for a, b in _PAIR.findall(inst.attrs.get("source_target_pairs",
                                                                         ""))}
    return (0, 0) in pairs


def _permuted(inst, x):
    return x if _receives_from_itself(inst) else np.zeros_like(x)


@single_device(Opcode.COLLECTIVE_PERMUTE)
def collective_permute(ctx, inst, args):
    """Device 0 gets its own operand for a {0,0} pair, else zeros (no source targets it)."""
    return _permuted(inst, args[0])


@single_device(Opcode.COLLECTIVE_PERMUTE_START)
def collective_permute_start(ctx, inst, args):
    return (args[0], _permuted(inst, args[0])) + _context(inst)


@single_device(Opcode.REPLICA_ID, Opcode.PARTITION_ID)
def device_id(ctx, inst, args):
    return np.zeros((), dtype=to_numpy_dtype(inst.shape.element_type))


@lowering(Opcode.AFTER_ALL)
def after_all(ctx, inst, args):
    return TOKEN


@lowering(Opcode.ADD_DEPENDENCY, Opcode.DOMAIN, Opcode.ASYNC_UPDATE)
def first_operand(ctx, inst, args):
    return args[0]


@lowering(Opcode.OPTIMIZATION_BARRIER)
def opt_barrier(ctx, inst, args):
    return _operands(args)


@lowering(Opcode.ASYNC_START)
def async_start(ctx, inst, args):
    """Runs the wrapped computation now: one device has nothing to overlap it with."""
    (comp,) = inst.called["calls"]
    result = ctx.call(0, comp, list(args))
    return (tuple(args), result) + _context(inst)


@lowering(Opcode.ASYNC_DONE)
def async_done(ctx, inst, args):
    return args[0][1]


def _identity(ctx, inst, args):
    return _operands(args)


_identity.single_device = True
custom_call(*IDENTITY_TARGETS)(_identity)
