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

Every one-device lowering is marked `single_device = True`: dynhlo.support reports these
opcodes as "single-device form". The table DISTRIBUTED at the end holds their forms across
devices, for modules compiled with distributed=True (through torch.distributed).
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import UnsupportedError
from ...hlo import attrs
from ...hlo.opcodes import OnceTable, Opcode
from ...hlo.shape import leaf_shapes
from ...hlo.types import to_numpy_dtype
from ...shapes.rules_collective import IDENTITY_TARGETS
from .lowering import custom_call, lowering

TOKEN = np.zeros((), dtype=np.bool_)
"""The value of a token (after-all): carries no data, only ordering in XLA."""


def single_device(*opcodes: Opcode, note: str = ""):
    """Register a CPU lowering that is the one-device form of a multi-device opcode."""
    def register(fn):
        fn.single_device = True
        return lowering(*opcodes, note=note)(fn)
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


@single_device(Opcode.COLLECTIVE_PERMUTE, note="copy with a {0,0} pair, else zeros")
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


# --- several devices (compiled with distributed=True) --------------------------------------
#
# The same opcodes across processes through torch.distributed: ctx.evaluator.comm is the
# backends.common.distributed.Communicator of this process, and the values cross as CPU tensors
# (gloo). These replace the one-device forms above in a distributed program's table.

DISTRIBUTED: dict = OnceTable("CPU distributed lowerings")
"""Opcode -> lowering for modules compiled with distributed=True (overrides LOWERINGS)."""


def distributed(*opcodes: Opcode):
    def register(fn):
        for op in opcodes:
            DISTRIBUTED[op] = fn
        return fn
    return register


def _tensor(inst, array):
    import torch
    array = np.asarray(array, order="C")
    if array.dtype.name == "bfloat16":  # ml_dtypes' bfloat16: the same bits in torch's
        return torch.from_numpy(array.view(np.int16).copy()).view(torch.bfloat16)
    try:
        return torch.from_numpy(array.copy())
    except TypeError:
        raise UnsupportedError(f"instruction '{inst.name}': {inst.opcode.value} of "
                               f"{array.dtype} cannot cross devices through torch") from None


def _array(like: np.ndarray, tensor) -> np.ndarray:
    import torch
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().view(like.dtype)
    return tensor.numpy()


def _dynamic(ctx, operand) -> list[int]:
    """The dims of `operand` whose sizes are known only at run time."""
    tree = ctx.dims(operand)
    return [] if isinstance(tree, list) else [d for d, dim in enumerate(tree)
                                              if not isinstance(dim, int)]


def _each(ctx, inst, args, move):
    """`move(tensor, dynamic dims)` on each operand: one array, or a tuple for several."""
    out = tuple(_array(a, move(_tensor(inst, a), _dynamic(ctx, o)))
                for a, o in zip(args, inst.operands, strict=True))
    return out[0] if len(out) == 1 else out


@distributed(Opcode.ALL_REDUCE, Opcode.ALL_REDUCE_START)
def all_reduce_across(ctx, inst, args):
    comm = ctx.evaluator.comm
    return _each(ctx, inst, args, lambda x, dyn: comm.all_reduce(inst, x, dyn))


def _gathered(ctx, inst, args):
    comm, (dim,) = ctx.evaluator.comm, attrs.ints(inst, "dimensions")
    return _each(ctx, inst, args, lambda x, dyn: comm.all_gather(inst, x, dim, dyn))


@distributed(Opcode.ALL_GATHER)
def all_gather_across(ctx, inst, args):
    return _gathered(ctx, inst, args)


@distributed(Opcode.ALL_GATHER_START)
def all_gather_start_across(ctx, inst, args):
    return (_operands(args), _gathered(ctx, inst, args)) + _context(inst)


@distributed(Opcode.REDUCE_SCATTER)
def reduce_scatter_across(ctx, inst, args):
    comm, (dim,) = ctx.evaluator.comm, attrs.ints(inst, "dimensions")
    return _each(ctx, inst, args, lambda x, dyn: comm.reduce_scatter(inst, x, dim, dyn))


@distributed(Opcode.ALL_TO_ALL)
def all_to_all_across(ctx, inst, args):
    """Array form (dimensions={d}): x split along d, piece i to participant i, the pieces
    received concatenated along d. Tuple form: operand i to participant i."""
    comm = ctx.evaluator.comm
    dims = attrs.ints(inst, "dimensions", ())
    dynamic = sorted({d for o in inst.operands for d in _dynamic(ctx, o)})
    if not dims:
        received = comm.all_to_all(inst, [_tensor(inst, a) for a in args], dynamic)
        return tuple(_array(a, r) for a, r in zip(args, received, strict=True))
    (d,) = dims
    return _array(args[0], comm.all_to_all_array(inst, _tensor(inst, args[0]), d, dynamic))


@distributed(Opcode.COLLECTIVE_BROADCAST)
def collective_broadcast_across(ctx, inst, args):
    comm = ctx.evaluator.comm
    return _each(ctx, inst, args, lambda x, dyn: comm.collective_broadcast(inst, x))


@distributed(Opcode.COLLECTIVE_PERMUTE)
def collective_permute_across(ctx, inst, args):
    comm = ctx.evaluator.comm
    return _array(args[0], comm.collective_permute(inst, _tensor(inst, args[0])))


@distributed(Opcode.COLLECTIVE_PERMUTE_START)
def collective_permute_start_across(ctx, inst, args):
    return (args[0], collective_permute_across(ctx, inst, args)) + _context(inst)


@distributed(Opcode.REPLICA_ID)
def replica_id_across(ctx, inst, args):
    return np.array(ctx.evaluator.comm.replica_id, dtype=to_numpy_dtype(inst.shape.element_type))


@distributed(Opcode.PARTITION_ID)
def partition_id_across(ctx, inst, args):
    return np.array(ctx.evaluator.comm.partition_id,
                    dtype=to_numpy_dtype(inst.shape.element_type))
