"""sort and topk on the device, as torch ops on tensors at their actual sizes.

sort: torch.sort (stable) by a key when the comparator is one compare of one operand's two
parameters (the key is IEEE totalOrder's `total_order_key` for TOTALORDER floats); any
other comparator that apply.py runs (JAX's argsort and lexicographic sorts compare several
operands, NaN-aware sorts select between compares) goes through a bitonic network of
O(log^2 n) vectorized compare-exchange steps along the sorted dimension. The network sorts
by a strict total order: `a` goes before `b` when comparator(a, b), or when neither goes
before the other and `a` came first; for a strict weak order (what XLA requires) that is
exactly the stable sort the CPU backend computes. The sorted dimension is padded to a
power of two with elements that go after every real one; only the actual size enters.
topk and XLA's `TopK` custom call (TopkDecomposer: a stable sort by its comparator): a stable
sort of the last dimension by the same key the CPU backend uses (NaN counts as the largest),
first k kept: ties go to the lower index, as dynhlo/backends/cpu/ops_sort.py.
Anything else returns NotImplemented and takes the host tier.
Semantics: XLA operation semantics, Sort, TopK.
"""

from __future__ import annotations

import torch

from ....hlo import attrs, patterns
from ....shapes.rules_sort import topk_call_k, topk_k
from .apply import applicable, apply
from .elementwise import total_order_key

_SORTABLE = {torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int8,
             torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool}


def _sort_key(x: torch.Tensor, total: bool, descending: bool) -> torch.Tensor:
    """A tensor whose ascending stable sort is the requested order of `x` (as the CPU's)."""
    floating = x.dtype.is_floating_point
    if floating and total:
        key = total_order_key(x)
    elif x.dtype in (torch.float16, torch.bfloat16):
        key = x.float()
    elif x.dtype == torch.bool:
        key = x.to(torch.int8)
    else:
        key = x
    if not descending:
        return key
    return -key if key.dtype.is_floating_point else ~key


def _sort_by_key(ctx, inst, args):
    (axis,) = attrs.ints(inst, "dimensions")
    found = patterns.sort_comparator(inst.called["to_apply"][0])
    if found is None or any(a.dtype not in _SORTABLE for a in args):
        return NotImplemented
    shape = [min(a.shape[d] for a in args) for d in range(args[0].dim())]
    arrays = [a[tuple(slice(0, s) for s in shape)] for a in args]  # static meets dynamic
    index, descending, total = found
    if arrays[0].numel() == 0 or shape[axis] <= 1:
        out = tuple(a.clone() for a in arrays)
    else:
        key = _sort_key(arrays[index], total, descending)
        order = torch.sort(key, dim=axis, stable=True).indices
        out = tuple(torch.take_along_dim(a, order, dim=axis) for a in arrays)
    out = tuple(_with_tail(part, full, axis) for part, full in zip(out, args, strict=True))
    return out[0] if len(out) == 1 else out


def _with_tail(part: torch.Tensor, full: torch.Tensor, axis: int) -> torch.Tensor:
    """A static operand sorted with shorter dynamic keys keeps its elements past the keys'
    size after the sorted ones, in their order (XLA sorts padding last, stably; tf.unique's
    static iota; the CPU backend's ops_sort._with_tail)."""
    if full.shape[axis] == part.shape[axis] or full.dim() != part.dim():
        return part
    tail = full.narrow(axis, part.shape[axis], full.shape[axis] - part.shape[axis])
    cut = [slice(0, n) for n in part.shape]
    cut[axis] = slice(None)
    return torch.cat([part, tail[tuple(cut)]], dim=axis)


def topk(ctx, inst, args):
    """(values[..., k], s32 indices[..., k]) of the last dimension, ties to the lower index."""
    (x,) = args
    if x.dtype not in _SORTABLE:
        return NotImplemented
    return _top(x, *topk_k(inst, x.shape[-1]))


def topk_custom_call(ctx, inst, args):
    """XLA's `TopK` custom call (TopkRewriter's; k and order from
    shapes.rules_sort.topk_call_k): as topk, ties to the lower index."""
    (x,) = args
    if x.dtype not in _SORTABLE:
        return NotImplemented
    return _top(x, *topk_call_k(inst, x.shape[-1]))


def _top(x: torch.Tensor, k: int, largest: bool):
    """The first k of a stable sort of the last dimension by the CPU's totalOrder key."""
    if x.numel() == 0 or k == 0:
        shape = tuple(x.shape[:-1]) + (k,)
        return (torch.empty(shape, dtype=x.dtype, device=x.device),
                torch.empty(shape, dtype=torch.int32, device=x.device))
    key = _sort_key(x, True, largest)
    order = torch.sort(key, dim=-1, stable=True).indices[..., :k]
    return torch.take_along_dim(x, order, dim=-1), order.to(torch.int32)


def sort(ctx, inst, args):
    """torch.sort for a one-compare comparator, else the bitonic network (module doc)."""
    out = _sort_by_key(ctx, inst, args)
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
    out = [_with_tail(part, full, axis) for part, full in zip(out, args, strict=True)]
    return out[0] if len(out) == 1 else tuple(out)


def _bitonic(comp, moved: list, device) -> list:
    """The arrays (sorted dimension last) sorted together by the comparator."""
    n = moved[0].shape[-1]
    m = 1 << (n - 1).bit_length()
    if m > n:  # padding: copies of a real element (the comparator sees real values only)
        fill = [a[..., :1].expand(*a.shape[:-1], m - n) for a in moved]
        moved = [torch.cat([a, f], dim=-1) for a, f in zip(moved, fill, strict=True)]
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
    return [torch.where(take, o, v) for o, v in zip(other, values, strict=True)]


def _before(comp, a: list, b: list, n: int) -> torch.Tensor:
    """Whether `a` goes strictly before `b` (the last entry of each is the original index)."""
    ia, ib = a[-1], b[-1]
    shape = ia.shape
    ab = apply(comp, [v for x, y in zip(a[:-1], b[:-1], strict=True) for v in (x, y)], ia.device)
    ba = apply(comp, [v for x, y in zip(b[:-1], a[:-1], strict=True) for v in (x, y)], ia.device)
    ab, ba = ab.to(torch.bool).expand(shape), ba.to(torch.bool).expand(shape)
    pad_a, pad_b = ia >= n, ib >= n
    real = ab | (~ba & (ia < ib))
    return torch.where(pad_a != pad_b, pad_b, torch.where(pad_a, ia < ib, real))
