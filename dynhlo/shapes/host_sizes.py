"""Sizes set from values the program computes from sizes alone: known on the host.

set-dimension-size, dynamic-reshape and SliceToDynamic take a result dimension's size from
a scalar operand. Exporters build that operand from the arguments' sizes (torchax:
get-dimension-size, convert, reshape, concatenate into a shape vector, slice, reshape;
JAX: the same with integer arithmetic). values.py follows such a value as a size
expression over the arguments' sizes; when the whole value is one (no element read from
data), the host knows it from the argument shapes before anything runs: a backend
evaluates the expression (SizeEnv.evaluate) instead of reading the operand back from the
device, and the instructions that only build it need not run at all (the planner drops
them: backends/plan/fusion.py).

A set-dimension-size whose size is known on the host and provably within [0, bound] (the
expression's range, no run-time check needed), of an operand whose dimension holds at
least that many elements at every call (static, at its bound, or of the same size), is the
identity on the elements within the new size; a dynamic-reshape of such sizes that keeps
the element count is a reshape: `data_free`, steps a kernel can compute.

A size read from data (a count) is never one of these: it is read when computed and
checked against its bound (sizes.value_size, sizes.sizes_from_operands).

May assume: the instruction was analyzed (its dims and its operands' are in `info.dims`).
Semantics: XLA's SetDimensionSize, DynamicReshape and SliceToDynamic (DESIGN.md section 1).
"""

from __future__ import annotations

from ..hlo import attrs
from ..hlo.opcodes import Opcode
from . import algebra
from .algebra import Size
from .sizes import SizeEnv, Sym, bound_of, same_size, size_of, sizes_from_operands
from .trees import ComputationInfo
from .values import scalar


# The opcodes size_operands may find size operands of (no other has any).
SIZE_SETTERS = frozenset({Opcode.SET_DIMENSION_SIZE, Opcode.DYNAMIC_RESHAPE,
                          Opcode.CUSTOM_CALL})


def size_operands(inst) -> dict[int, int]:
    """Result dimension -> the index of the operand whose scalar value is its size, for
    set-dimension-size, dynamic-reshape and SliceToDynamic (empty for any other)."""
    op = inst.opcode
    if op is Opcode.SET_DIMENSION_SIZE and len(inst.operands) == 2:
        return {attrs.ints(inst, "dimensions")[0]: 1}
    if op is Opcode.DYNAMIC_RESHAPE:
        return {d: 1 + d for d in range(len(inst.operands) - 1)}
    if op is Opcode.CUSTOM_CALL and not inst.shape.is_tuple and \
            attrs.string(inst, "custom_call_target") == "SliceToDynamic":
        return {d: 1 + d for d, dynamic in enumerate(inst.shape.dynamic)
                if dynamic and 1 + d < len(inst.operands)}
    return {}


def host_sizes(info: ComputationInfo, inst) -> dict[int, Size] | None:
    """Result dimension -> the expression of its size operand's value, when every size
    operand of `inst` is computed from sizes alone (values.scalar: nothing read from data);
    None when one is not, or when `inst` sets no size. The expression is the operand's own,
    not the result dimension's (inference may have made that one with another size), so
    evaluating it checks what reading the operand would."""
    operands = size_operands(inst)
    if not operands:
        return None
    out = {}
    for d, k in operands.items():
        size = scalar(info, inst.operands[k])
        if size.data:
            return None
        out[d] = size
    return out


def data_free(info: ComputationInfo, inst) -> bool:
    """Whether `inst` needs nothing read or checked at run time beyond its data operand:
    its sizes are known on the host and provably in [0, bound], and

    - a set-dimension-size's operand holds at least that many elements in the dimension at
      every call (a static dimension, a dynamic one that nothing sizes and so runs at its
      bound, or one of the same size): the identity on the elements within the new size.
      A broadcast at its bound cut to an argument's size is one:
      `set-dimension-size(broadcast(c)) * y` is one kernel;
    - a dynamic-reshape's result holds as many elements as its operand at every call (the
      two products are one size expression): a reshape.
    """
    if not sizes_in_range(info, inst):
        return False
    dims, operand_dims = info.dims[inst], info.dims[inst.operands[0]]
    sizes = host_sizes(info, inst)
    if inst.opcode is Opcode.DYNAMIC_RESHAPE:
        return _count(dims) is _count(operand_dims)
    if inst.opcode is not Opcode.SET_DIMENSION_SIZE:
        return False
    ((d, _),) = sizes.items()
    held = operand_dims[d]
    return not isinstance(held, Sym) or held.root().expr is None or \
        same_size(held, dims[d])


def sizes_in_range(info: ComputationInfo, inst) -> bool:
    """Whether `inst`'s sizes are known on the host (host_sizes) and provably in [0, bound]:
    a set-dimension-size of them needs nothing read or checked at run time but its data,
    which a kernel with masked loads reads zero-extended where the operand holds fewer
    elements (the library step's cut or zero-extension)."""
    sizes = host_sizes(info, inst)
    dims, operand_dims = info.dims.get(inst), info.dims.get(inst.operands[0])
    if sizes is None or not isinstance(dims, tuple) or not isinstance(operand_dims, tuple):
        return False
    for d, size in sizes.items():
        bound = bound_of(dims[d])
        if size.lo < 0 or bound < 0 or size.hi > bound:
            return False
    return True


def _count(dims: tuple) -> Size:
    """The number of elements of an array of `dims`, as one expression."""
    out = algebra.ONE
    for dim in dims:
        out = algebra.mul(out, size_of(dim))
    return out


def own_sizes(info: ComputationInfo, env: SizeEnv, inst, shape, sizes: dict
              ) -> tuple[int, ...]:
    """sizes.sizes_from_operands (`sizes`: d -> (size operand, its value)), where each size
    the host knows (host_sizes) is evaluated in `env` from the argument shapes instead of
    read from the operand's value (on a device, a read back: a sync per instruction).

    Raises:
        DynamicSizeError: a size below 0 or above the dimension's bound in `inst.shape`.
    """
    known = host_sizes(info, inst)
    if known is not None:
        sizes = {d: (source, env.evaluate(known[d])) for d, (source, _) in sizes.items()}
    return sizes_from_operands(inst, shape, sizes)
