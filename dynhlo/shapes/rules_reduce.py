"""Shape rules of the reduce family (the CPU's ops_reduce.py, the GPU's library/reduce.py):
reduce and dot. Semantics: XLA operation semantics (Reduce, DotGeneral) and
DynamicDimensionInference.
"""

from __future__ import annotations

from ..hlo import attrs
from ..hlo.opcodes import Opcode
from .rules import elementwise, rule
from .sizes import dim_text, unify


@rule(Opcode.REDUCE)
def _reduce(ctx, inst, operands):
    n = len(operands) // 2
    reduced = set(attrs.ints(inst, "dimensions"))
    arrays = operands[:n]
    joined = elementwise(ctx, arrays, join=unify)
    for d in reduced:
        if not 0 <= d < len(joined):
            raise ctx.error(f"reduces dimension {d} of a rank-{len(joined)} operand")
    kept = tuple(dim for d, dim in enumerate(joined) if d not in reduced)
    return kept if n == 1 else [kept] * n


@rule(Opcode.DOT)
def _dot(ctx, inst, operands):
    lhs, rhs = operands
    lb, rb, lc, rc = attrs.dot_dims(inst)
    if len(lb) != len(rb) or len(lc) != len(rc):
        raise ctx.error(f"dot needs as many lhs as rhs batch and contracting dimensions, got "
                        f"{_dims_attrs(lb, rb, 'batch')}, {_dims_attrs(lc, rc, 'contracting')}"
                        f"{_CONTRACTING_HINT}")
    for dims, side in ((lb + lc, lhs), (rb + rc, rhs)):
        if any(not 0 <= d < len(side) for d in dims):
            raise ctx.error(f"dot dimension numbers {list(dims)} out of range for rank "
                            f"{len(side)}")
    batch = []
    for a, b in zip(lb, rb, strict=True):
        batch.append(_same(ctx, lhs[a], rhs[b], "batch"))
    for a, b in zip(lc, rc, strict=True):
        _same(ctx, lhs[a], rhs[b], "contracting")
    lfree = [lhs[d] for d in range(len(lhs)) if d not in lb and d not in lc]
    rfree = [rhs[d] for d in range(len(rhs)) if d not in rb and d not in rc]
    out = tuple(batch + lfree + rfree)
    shape = inst.shape
    if not lc and shape is not None and not shape.is_tuple and shape.rank != len(out):
        # XLA's DotDimensionNumbers default to none: without them a dot is an outer product
        raise ctx.error(f"declared {shape}, but a dot without contracting dimensions is the "
                        f"outer product, of rank {len(out)}{_CONTRACTING_HINT}")
    return out


_CONTRACTING_HINT = ("; name the contracted dimensions with lhs_contracting_dims= and "
                     "rhs_contracting_dims= (a matrix product: lhs_contracting_dims={1}, "
                     "rhs_contracting_dims={0})")


def _dims_attrs(lhs: tuple, rhs: tuple, what: str) -> str:
    return (f"lhs_{what}_dims={{{','.join(map(str, lhs))}}} and "
            f"rhs_{what}_dims={{{','.join(map(str, rhs))}}}")


def _same(ctx, a, b, what):
    joined = unify(a, b, ctx.inst.name)
    if joined is None:
        raise ctx.error(f"dot {what} dimension sizes differ: {dim_text(a)} and {dim_text(b)}")
    return joined
