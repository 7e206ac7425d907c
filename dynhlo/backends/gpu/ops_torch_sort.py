"""sort with a general comparator on the device: a bitonic sorting network over torch tensors.

ops_torch.py sorts with torch.sort when the comparator is one compare of one operand's two
parameters; it returns NotImplemented for any other comparator (JAX's argsort and
lexicographic sorts compare several operands, NaN-aware sorts select between compares).
This lowering wraps it and takes those: the comparator runs elementwise on tensors
(ops_torch_apply.py, the same ops and semantics as the CPU backend), inside a bitonic
network of O(log^2 n) vectorized compare-exchange steps along the sorted dimension.

The network sorts by a strict total order: `a` goes before `b` when comparator(a, b), or
when neither goes before the other and `a` came first. For a comparator that is a strict
weak order (what XLA requires) that is exactly the stable sort the CPU backend computes.
The sorted dimension is padded to a power of two with elements that go after every real
one; only the actual size enters. Comparators with ops ops_torch_apply.py does not run
take the host fallback, as does anything ops_torch.py's sort hands back for another reason.
Semantics: XLA operation semantics, Sort.
"""

from __future__ import annotations

import torch

from ...hlo import attrs
from ...hlo.opcodes import Opcode
from . import ops_torch  # noqa: F401  (its sort is registered first; this one wraps it)
from .lowering import LIBRARY, library
from .ops_torch_apply import applicable, apply

_FAST = LIBRARY.get(Opcode.SORT)


@library(Opcode.SORT)
def sort(ctx, inst, args):
    if _FAST is not None:
        out = _FAST(ctx, inst, args)
        if out is not NotImplemented:
            return out
    (axis,) = attrs.ints(inst, "dimensions")
    (comp,) = inst.called["to_apply"]
    if not applicable(comp):
        return NotImplemented
    shape = [min(a.shape[d] for a in args) for d in range(args[0].dim())]
    arrays = [a[tuple(slice(0, s) for s in shape)] for a in args]  # static meets dynamic
    if arrays[0].numel() == 0 or shape[axis] <= 1:
        out = [a.clone() for a in arrays]
    else:
        moved = [a.movedim(axis, -1) for a in arrays]
        out = [s.movedim(-1, axis).contiguous() for s in _bitonic(comp, moved, ctx.device)]
    return out[0] if len(out) == 1 else tuple(out)


def _bitonic(comp, moved: list, device) -> list:
    """The arrays (sorted dimension last) sorted together by the comparator."""
    n = moved[0].shape[-1]
    m = 1 << (n - 1).bit_length()
    if m > n:  # padding: copies of a real element (the comparator sees real values only)
        fill = [a[..., :1].expand(*a.shape[:-1], m - n) for a in moved]
        moved = [torch.cat([a, f], dim=-1) for a, f in zip(moved, fill)]
    position = torch.arange(m, device=device)
    index = position.expand(moved[0].shape).contiguous()
    values = moved + [index]
    k = 2
    while k <= m:
        j = k // 2
        while j >= 1:
            values = _exchange(comp, values, position, j, k, n)
            j //= 2
        k *= 2
    return [v[..., :n] for v in values[:-1]]


def _exchange(comp, values: list, position, j: int, k: int, n: int) -> list:
    """One compare-exchange step: element i meets element i ^ j (ascending where i & k == 0)."""
    partner = position ^ j
    other = [v.index_select(-1, partner) for v in values]
    partner_first = _before(comp, other, values, n)
    lower_ascending = (position < partner) == ((position & k) == 0)
    take = torch.where(lower_ascending, partner_first, ~partner_first)
    return [torch.where(take, o, v) for o, v in zip(other, values)]


def _before(comp, a: list, b: list, n: int) -> torch.Tensor:
    """Whether `a` goes strictly before `b` (the last entry of each is the original index)."""
    ia, ib = a[-1], b[-1]
    shape = ia.shape
    ab = apply(comp, [v for x, y in zip(a[:-1], b[:-1]) for v in (x, y)], ia.device)
    ba = apply(comp, [v for x, y in zip(b[:-1], a[:-1]) for v in (x, y)], ia.device)
    ab, ba = ab.to(torch.bool).expand(shape), ba.to(torch.bool).expand(shape)
    pad_a, pad_b = ia >= n, ib >= n
    real = ab | (~ba & (ia < ib))
    return torch.where(pad_a != pad_b, pad_b, torch.where(pad_a, ia < ib, real))
