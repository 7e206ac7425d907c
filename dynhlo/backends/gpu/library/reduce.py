"""dot on the device: cuBLAS through torch.matmul, on tensors held at their actual sizes.

Batch, free and contracting dimensions are permuted and flattened as views; an f32 product
runs in IEEE f32 unless the `precision` option and the dot's operand_precision allow TF32
(gpu/precision.py), set for the one call (Fp32Scope). Integer dots, which cuBLAS lacks, take
the host tier (rules.py: dot's library tier applies only when `dot_on_device`).
Semantics: XLA operation semantics, DotGeneral.
"""

from __future__ import annotations

import math

import torch

from ....hlo import attrs
from ..precision import Fp32Scope, allows_tf32
from ..tensors import torch_dtype


_MATMUL_TYPES = {"f16", "bf16", "f32", "f64"}


def dot_on_device(inst) -> bool:
    return inst.shape.element_type in _MATMUL_TYPES and all(
        o.shape.element_type == inst.shape.element_type for o in inst.operands)


def dot(ctx, inst, args):
    if args[0].dtype is not torch.float32:  # only f32 products have a TF32 form
        return _dot(ctx, inst, args)
    with Fp32Scope(allows_tf32(inst, ctx.precision)):
        return _dot(ctx, inst, args)


def _dot(ctx, inst, args):
    lhs, rhs = args
    lb = attrs.ints(inst, "lhs_batch_dims", ())
    rb = attrs.ints(inst, "rhs_batch_dims", ())
    lc = attrs.ints(inst, "lhs_contracting_dims", ())
    rc = attrs.ints(inst, "rhs_contracting_dims", ())
    for a, b in zip(lb + lc, rb + rc, strict=True):
        if lhs.shape[a] != rhs.shape[b]:
            raise ctx.error(f"dot dimension {a} of the lhs has size {lhs.shape[a]} but "
                            f"dimension {b} of the rhs has size {rhs.shape[b]}")
    if not lb and len(lc) == 1 and lhs.dim() == 2 and rhs.dim() == 2:  # a plain matrix product
        a = lhs if lc[0] == 1 else lhs.T
        b = rhs if rc[0] == 0 else rhs.T
        out = torch.matmul(a, b)
        return out if out.dtype == torch_dtype(inst.shape.element_type) else out.to(
            torch_dtype(inst.shape.element_type))
    lf = [d for d in range(lhs.dim()) if d not in lb and d not in lc]
    rf = [d for d in range(rhs.dim()) if d not in rb and d not in rc]
    batch = [lhs.shape[d] for d in lb]
    m = [lhs.shape[d] for d in lf]
    n = [rhs.shape[d] for d in rf]
    k = math.prod(lhs.shape[d] for d in lc)
    nb, nm, nn = math.prod(batch), math.prod(m), math.prod(n)
    a = lhs.permute(list(lb) + lf + list(lc)).reshape(nb, nm, k)
    b = rhs.permute(list(rb) + list(rc) + rf).reshape(nb, k, nn)
    if not batch and nb == 1:
        out = torch.matmul(a[0], b[0]).unsqueeze(0)
    else:
        out = torch.matmul(a, b)
    return out.reshape(batch + m + n).to(torch_dtype(inst.shape.element_type))
