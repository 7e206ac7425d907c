"""all-gather's and reduce-scatter's result shapes against their operands and group size.

Source: xla/service/hlo_verifier.cc (`CheckCommonAllGatherInvariants`, `HandleAllGather`,
`HandleAllGatherStart`, `HandleReduceScatter`, `GetSubgroupSize`) and shape_inference.cc
(`InferAllGatherShape`, `InferReduceScatterShape`). XLA's rule, for the dimension `d` of
`dimensions={d}`:
- it is >= 0 and below the rank of every operand and every result;
- the shard count is derived from operand 0 and its result: all-gather
  ceil(result[d] / operand[d]), reduce-scatter ceil(operand[d] / result[d]);
- it equals the group size (collectives.subgroup_size: XLA's GetSubgroupSize, from the
  replica groups, the group mode and the module's replica_count / num_partitions) unless
  that size is 1 (a module that does not set its device counts: XLA skips the check);
- every result is its operand with dimension d multiplied (all-gather) or divided
  (reduce-scatter, which needs operand[d] divisible by the shard count) by the shard count,
  the element type and every other dimension unchanged; all-gather-start's result is the
  tuple (operands, results).

Dynamic dimensions: XLA compares the declared shape with the inferred one by
`ShapeUtil::Compatible`, which ignores dynamic marks and layouts: a `<=N` dimension counts at
its bound N, on both sides. A `?` dimension matches any size (XLA's SameDimensions) and gives
no shard count, so a `?` along `d` skips the size checks of `d`. (Recent XLA's
InferReduceScatterShape makes any dynamic scatter dimension `?`, so it leaves a bounded
result's bound unchecked once the shard count matches; dynhlo keeps the bound comparison
all-gather has, as XLA did before: the result bound is the operand bound / group size.)

A divisor of size 0 (XLA divides by it) takes the group size as the shard count: the sizes
along `d` must then both be 0. Raises HloVerifyError naming the instruction, the dimension,
the sizes and the group size.
"""

from __future__ import annotations

from ...errors import HloVerifyError
from .. import attrs
from ..collectives import Devices, subgroup_size
from ..ir import Instruction
from ..opcodes import OP_SPECS, Trait
from ..shape import UNBOUNDED, AnyShape, Shape, TupleShape

# The collectives whose result is resized along `dimensions={d}` by the group size (their
# OpSpec's `resizes`): gathers multiply it, scatters divide it.
GATHERS = frozenset(op for op, spec in OP_SPECS.items() if spec.resizes == "gathers")
RESIZING = GATHERS | {op for op, spec in OP_SPECS.items() if spec.resizes == "scatters"}


def check_resizing_shapes(inst: Instruction, devices: Devices) -> None:
    """HloVerifyError when an all-gather(-start) or reduce-scatter's result is not its
    operands resized along `dimensions={d}` by the group size, as XLA's verifier says."""
    gather = inst.opcode in GATHERS
    dim = _dimension(inst)
    operands = [o.shape for o in inst.operands]
    results = _results(inst, len(operands))
    for i, shape in enumerate(operands + results):
        if shape.is_tuple or not 0 <= dim < len(shape.dims):
            what = f"operand {i}" if i < len(operands) else "its result"
            raise HloVerifyError(f"dimensions={{{dim}}} is not a dimension of {what} {shape}",
                                 inst.name)
    group = subgroup_size(inst, devices)
    shard = _shard_count(inst, operands[0].dims[dim], results[0].dims[dim], gather, group)
    for i, (operand, result) in enumerate(zip(operands, results, strict=True)):
        _check_one(inst, i, operand, result, dim, shard, gather)


def _dimension(inst: Instruction) -> int:
    dims = attrs.ints(inst, "dimensions")
    if len(dims) != 1:
        raise HloVerifyError(f"{inst.opcode.value} takes one dimension, dimensions={{d}}; "
                             f"got {len(dims)}", inst.name)
    return dims[0]


def _results(inst: Instruction, n: int) -> list[AnyShape]:
    """The result arrays, one per operand (a -start, trait CARRIES_OPERANDS: the tuple's
    element 1)."""
    shape = inst.shape
    if Trait.CARRIES_OPERANDS in OP_SPECS[inst.opcode].traits and shape.is_tuple:
        if len(shape.elements) < 2:
            raise HloVerifyError(f"{inst.opcode.value}'s result {shape} is not the tuple "
                                 "(operands, gathered results)", inst.name)
        _check_start_operands(inst, shape.elements[0])
        shape = shape.elements[1]
    if n == 1:
        return [shape]
    if not shape.is_tuple or len(shape.elements) != n:
        raise HloVerifyError(f"{inst.opcode.value} of {n} operands gives a tuple of {n} "
                             f"results; declared {shape}", inst.name)
    return list(shape.elements)


def _check_start_operands(inst: Instruction, declared: AnyShape) -> None:
    shapes = [o.shape for o in inst.operands]
    want = shapes[0] if len(shapes) == 1 else TupleShape(tuple(shapes))
    if not _compatible(declared, want):
        raise HloVerifyError(f"{inst.opcode.value}'s result element 0 is {declared}; it holds "
                             f"the operands, {want}", inst.name)


def _shard_count(inst: Instruction, operand: int, result: int, gather: bool,
                 group: int) -> int:
    """XLA's shard count from operand 0 along d, checked against the group size."""
    if UNBOUNDED in (operand, result):
        return group
    whole, piece = (result, operand) if gather else (operand, result)
    shard = -(-whole // piece) if piece else group
    if group != 1 and shard != group:
        name = inst.opcode.value
        want = f"{operand} x {group} = {operand * group}" if gather else \
            f"{operand} / {group}" + (f" = {operand // group}" if operand % group == 0 else "")
        raise HloVerifyError(
            f"{name} along dimension {_dim(inst)}: operand 0 has size {operand} there and "
            f"the result {result}, {shard} shard(s), but each replica group has {group} "
            f"device(s) (replica_groups={inst.attrs.get('replica_groups', '{}')}); the "
            f"result's size must be {want}", inst.name)
    return shard


def _check_one(inst: Instruction, i: int, operand: Shape, result: Shape, dim: int,
               shard: int, gather: bool) -> None:
    size = operand.dims[dim]
    if not gather and size != UNBOUNDED and size % shard:
        raise HloVerifyError(
            f"reduce-scatter along dimension {dim}: operand {i} has size {size} there, "
            f"which does not divide into {shard} pieces (one per device of the group)",
            inst.name)
    if size == UNBOUNDED:
        new = UNBOUNDED
    else:
        new = size * shard if gather else size // shard
    expected = operand.with_dims(operand.dims[:dim] + (new,) + operand.dims[dim + 1:],
                                 operand.dynamic)
    if not _compatible(result, expected):
        how = f"{size} x {shard}" if gather else f"{size} / {shard}"
        raise HloVerifyError(
            f"{inst.opcode.value} along dimension {dim} over groups of {shard}: operand {i} "
            f"{operand} gives {expected} (dimension {dim}: {how}), declared {result}",
            inst.name)


def _compatible(a: AnyShape, b: AnyShape) -> bool:
    """XLA's ShapeUtil::Compatible: element types and sizes (bounds) equal, dynamic marks and
    layouts ignored, `?` matching any size."""
    if a.is_tuple or b.is_tuple:
        return (a.is_tuple and b.is_tuple and len(a.elements) == len(b.elements)
                and all(_compatible(x, y) for x, y in zip(a.elements, b.elements, strict=True)))
    return (a.element_type == b.element_type and len(a.dims) == len(b.dims)
            and all(x == y or UNBOUNDED in (x, y) for x, y in zip(a.dims, b.dims, strict=True)))


def _dim(inst: Instruction) -> int:
    return attrs.ints(inst, "dimensions")[0]
