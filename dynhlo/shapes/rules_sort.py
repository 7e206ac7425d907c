"""Shape rules of the sort family (the CPU's ops_sort.py, the GPU's library/sort.py): sort,
topk, and the TopK custom call's k. Semantics: XLA operation semantics (Sort, TopK) and
DynamicDimensionInference.
"""

from __future__ import annotations

from ..errors import DynamicSizeError
from ..hlo import attrs, patterns
from ..hlo.opcodes import Opcode
from ..hlo.shape import UNBOUNDED
from .rules import custom_call_rule, default_rule, elementwise, rule, single_dimension
from .sizes import bound_of, dim_text, unify


@rule(Opcode.SORT)
def _sort(ctx, inst, operands):
    if not operands:
        raise ctx.error("sort needs at least one operand")
    joined = elementwise(ctx, operands, join=unify)
    d = single_dimension(ctx, inst)
    if not 0 <= d < len(joined):
        raise ctx.error(f"sorts dimension {d} of a rank-{len(joined)} operand")
    if "to_apply" not in inst.called:
        raise ctx.error("sort needs a comparator to_apply=")
    if len(operands) == 1:
        return joined
    # XLA's HandleSort gives the dynamic size only to the outputs of dynamic operands: a
    # static operand sorted with dynamic keys (tf.unique's iota) stays static, its elements
    # past the keys' size kept last in their order (dynamic_padder.cc RewriteDynamicSort).
    return [joined[:d] + (t[d] if isinstance(t[d], int) else joined[d],) + joined[d + 1:]
            for t in operands]


@rule(Opcode.TOPK)
def _topk(ctx, inst, operands):
    (operand,) = operands
    k = attrs.integer(inst, "k")
    if not operand or k < 0:
        raise ctx.error(f"topk needs an operand of rank >= 1 and k >= 0 (k={k})")
    if inst.operands[0].shape.element_type in ("c64", "c128"):
        raise ctx.error("topk of complex values: they have no order")
    last = operand[-1]
    if bound_of(last) != UNBOUNDED and k > bound_of(last):
        raise ctx.error(f"k={k} exceeds the last dimension's size {dim_text(last)}")
    out = tuple(operand[:-1]) + (k,)
    return [out, out]


def topk_k(inst, n: int) -> tuple[int, bool]:
    """(k, largest) of a topk whose last dimension has actual size `n` (for the lowerings).

    Raises:
        DynamicSizeError: k > n; top-k of fewer than k elements is not defined (XLA TopK).
    """
    k = attrs.integer(inst, "k")
    if k > n:
        raise DynamicSizeError(
            f"instruction '{inst.name}': k={k} is larger than the actual size {n} of the last "
            f"dimension (bound {inst.operands[0].shape.dims[-1]}); top-k of fewer than k "
            "elements is not defined")
    return k, attrs.boolean(inst, "largest", True)


def topk_call_k(inst, n: int) -> tuple[int, bool]:
    """(k, largest) of XLA's `TopK` custom call (TopkRewriter) whose operand's last dimension
    has actual size `n`: k is the result's last dimension; a comparator `to_apply` that is one
    LT compare asks for the smallest, any other (GT, or none recognised) for the largest.
    TopkDecomposer makes it a stable sort by that comparator: ties go to the lower index.

    Raises:
        DynamicSizeError: k > n; top-k of fewer than k elements is not defined.
    """
    k = inst.shape.elements[0].dims[-1]
    if k > n:
        raise DynamicSizeError(
            f"instruction '{inst.name}': TopK of k={k} over a last dimension of actual size "
            f"{n} (bound {inst.operands[0].shape.dims[-1]}): top-k of fewer than k elements "
            "is not defined")
    comps = inst.called.get("to_apply") or inst.called.get("called_computations") or []
    found = patterns.sort_comparator(comps[0]) if comps else None
    return k, found is None or found.descending


# TopK(x) as a custom call: (values, s32 indices) of the declared shapes, whose last
# dimension is k (topk_call_k reads it for the lowerings).
custom_call_rule("TopK")(default_rule)
