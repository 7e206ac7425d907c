"""Shape rules of the collective family (the CPU's ops_collective.py, the GPU's
library/collective.py): collectives, async wrappers, structure ops (after-all,
add-dependency, domain, opt-barrier, replica-id, partition-id), and the custom calls that are
the identity on one device.

A collective returns its operand's dims, with the sizes an all-gather, reduce-scatter or
all-to-all changes taken from its declared shape; async wrappers take the dims of the
computation they wrap. Which devices a collective needs is the backend's check
(dynhlo.hlo.collectives.check_one_device for one device), made at compile time.
Semantics: XLA operation semantics (AllGather, AllReduce, AllToAll, CollectivePermute,
ReduceScatter, AfterAll, Async*).
"""

from __future__ import annotations

from ..errors import UnsupportedError
from ..hlo.opcodes import OP_SPECS, Opcode
from ..hlo.shape import AnyShape
from .rules import custom_call_rule, rule, sizeless
from .sizes import Sym, bound_of, dim_text
from .trees import declared_tree


def static_tree(shape: AnyShape):
    """The declared tree of `shape`, each `<=` dim a free Sym (no run-time source)."""
    return declared_tree(shape, lambda path, d, bound: Sym(bound))


# --- collectives ---------------------------------------------------------------------------



def _operands_tree(operands):
    return operands[0] if len(operands) == 1 else list(operands)


def _start_tree(inst, operands, result):
    """An async `-start` result: (operands, result, context...) when declared as a tuple."""
    if not inst.shape.is_tuple:
        return result
    rest = [static_tree(s) for s in inst.shape.elements[2:]]
    return [_operands_tree(operands), result] + rest


@rule(Opcode.ALL_REDUCE, Opcode.ALL_REDUCE_START, Opcode.ALL_GATHER, Opcode.ALL_GATHER_START,
      Opcode.REDUCE_SCATTER, Opcode.ALL_TO_ALL, Opcode.COLLECTIVE_BROADCAST,
      Opcode.COLLECTIVE_PERMUTE, Opcode.COLLECTIVE_PERMUTE_START)
def _collective(ctx, inst, operands):
    """The result's dims: the operand's, with the sizes a resizing collective changes taken
    from the declared shape. Whether the module's devices can run it (one device, or
    several through torch.distributed) is the backend's question, asked at compile time."""
    if inst.opcode in (Opcode.COLLECTIVE_PERMUTE, Opcode.COLLECTIVE_PERMUTE_START) and \
            len(operands) != 1:
        raise UnsupportedError(f"instruction '{inst.name}': the in-place form of "
                               f"{inst.opcode.value} (4 operands) is not supported")
    result = _operands_tree(operands)
    # A collective whose result sizes differ from its operand's over several devices (its
    # OpSpec's `resizes`: all-gather multiplies the gather dimension by the group size,
    # reduce-scatter divides the scatter dimension, array all-to-all divides its split
    # dimension and multiplies its concat dimension): the declared shape says the new sizes.
    if OP_SPECS[inst.opcode].resizes and not isinstance(result, list):
        result = _resized(inst, result)
    if inst.opcode in (Opcode.ALL_GATHER_START, Opcode.COLLECTIVE_PERMUTE_START):
        return _start_tree(inst, operands, result)
    return result


def _resized(inst, operand: tuple) -> tuple:
    """`operand` with each dim the collective resizes set to its declared size.

    A dynamic dim cannot be resized: XLA defines no collective on a dynamic operand (its
    dynamic dimension inference has no handler for any collective: DefaultAction,
    Unimplemented), and the pieces of an all-gather along a dynamic dim would sit at offsets
    no participant knows. Dynamic dims a collective keeps pass through (dynhlo checks at run
    time that the participants agree on them: backends/common/distributed.py).
    """
    declared = inst.shape.elements[1] if inst.shape.is_tuple else inst.shape
    if declared.is_tuple or len(declared.dims) != len(operand):
        return operand  # the verifier reports a rank change
    out = []
    for d, (dim, size) in enumerate(zip(operand, declared.dims, strict=True)):
        if bound_of(dim) == size and (isinstance(dim, int) or declared.dynamic[d]):
            out.append(dim)
        elif isinstance(dim, int):
            out.append(size)
        else:
            raise UnsupportedError(
                f"instruction '{inst.name}': {inst.opcode.value} resizes dimension {d}, "
                f"which is dynamic ({dim_text(dim)}, bound {bound_of(dim)}); XLA defines no "
                "collective along a dynamic dimension (its dynamic dimension inference "
                "refuses it): pad the operand to its bound and pass the sizes separately")
    return tuple(out)


@rule(Opcode.ALL_REDUCE_DONE)
def _all_reduce_done(ctx, inst, operands):
    return operands[0]


@rule(Opcode.ALL_GATHER_DONE, Opcode.COLLECTIVE_PERMUTE_DONE, Opcode.ASYNC_DONE)
def _done(ctx, inst, operands):
    (started,) = operands
    if not isinstance(started, list) or len(started) < 2:
        raise ctx.error(f"{inst.opcode.value} needs the tuple its -start produced")
    return started[1]


@rule(Opcode.ASYNC_START)
def _async_start(ctx, inst, operands):
    (comp,) = inst.called.get("calls") or [None]
    if comp is None:
        raise ctx.error("async-start needs calls=")
    result = ctx.call(comp, list(operands)).dims[comp.root]
    if not inst.shape.is_tuple or len(inst.shape.elements) < 2:
        raise ctx.error("async-start's shape is ((operands), result, context...)")
    rest = [static_tree(s) for s in inst.shape.elements[2:]]
    return [list(operands), result] + rest


@rule(Opcode.ASYNC_UPDATE, Opcode.ADD_DEPENDENCY, Opcode.DOMAIN)
def _first_operand(ctx, inst, operands):
    if not operands:
        raise ctx.error(f"{inst.opcode.value} needs an operand")
    return operands[0]


@rule(Opcode.OPTIMIZATION_BARRIER)
def _opt_barrier(ctx, inst, operands):
    return _operands_tree(operands)


@rule(Opcode.AFTER_ALL)
def _declared(ctx, inst, operands):
    return static_tree(inst.shape)


rule(Opcode.REPLICA_ID, Opcode.PARTITION_ID)(sizeless)


# --- custom calls --------------------------------------------------------------------------

# Custom-call targets that are the identity on one device (sharding and placement marks).
IDENTITY_TARGETS = ("Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape",
                    "annotate_device_placement", "MoveToHost", "MoveToDevice",
                    "LayoutConstraint", "xla.sdy.GlobalToLocalShape",
                    "xla.sdy.LocalToGlobalShape", "xla.sdy.FuncResultSharding")

@custom_call_rule(*IDENTITY_TARGETS)
def _identity_rule(ctx, inst, operands):
    return _operands_tree(operands)
