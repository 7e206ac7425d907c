"""Sorting on the CPU: sort (multi-operand, any comparator) and topk.

Operands are held at their actual sizes, so over a dynamic dimension only the valid region is
sorted and padding never moves in. The order is always stable (XLA allows any order among
equal keys when is_stable=false; a stable order is one of them).

- sort, fast path: a comparator that is one `compare` of the two parameters of one operand
  (what JAX emits: `compare(p0, p1), direction=LT, type=TOTALORDER`; GT sorts descending)
  is an integer key sorted with NumPy's stable argsort. TOTALORDER floats order as IEEE
  totalOrder (-NaN < -inf < ... < -0 < +0 < ... < inf < NaN); a plain float compare orders as
  NumPy does (NaN last, -0 == +0), since XLA leaves the order of unordered values undefined.
- sort, general comparator (e.g. JAX's float sort, which canonicalizes NaN and -0 before a
  TOTALORDER compare; multi-key lexicographic sorts): a stable merge sort whose merges
  binary-search all elements at once, O(log^2 n) vectorized comparator calls. A comparator
  that is not a strict weak order falls back to a Python sort calling it per pair.
- topk: XLA TopK: the k largest (largest=true) or smallest elements of the last dimension,
  sorted, ties to the lower index, with s32 indices; floats compare in totalOrder. k larger
  than the actual size is a DynamicSizeError (the static computation would be invalid).
Semantics: XLA operation semantics, Sort and TopK.
"""

from __future__ import annotations

import functools

import numpy as np

from ...hlo import attrs, patterns
from ...hlo.opcodes import Opcode
from ...hlo.types import is_ml_dtype
from ...shapes.rules_sort import topk_call_k, topk_k
from .lowering import custom_call, lowering


# Floats whose storage is not sign and magnitude across its whole width: f4e2m1fn (4 bits in
# a byte, the sign at bit 3) and f8e8m0fnu (no sign bit). f64 holds each of their values.
_WIDENED = ("f4e2m1fn", "f8e8m0fnu")


def total_order_key(x: np.ndarray) -> np.ndarray:
    """Integers whose order is the IEEE totalOrder of the floats `x`, as XLA's TOTALORDER
    compares: the bits read as sign and magnitude, so -NaN < -inf < ... < -0 < +0 < ... < inf
    < NaN and NaN payloads keep their order (a signaling NaN below a quiet one). Read at the
    type's own width (no conversion quiets a NaN), except the types in _WIDENED."""
    if any(is_ml_dtype(x.dtype, t) for t in _WIDENED):
        x = x.astype(np.float64)
    bits = x.view(np.dtype(f"i{x.dtype.itemsize}"))
    flip = np.array(np.iinfo(bits.dtype).max, dtype=bits.dtype)
    return np.where(bits < 0, bits ^ flip, bits)


def sort_key(x: np.ndarray, total_order: bool, descending: bool) -> np.ndarray:
    """An array whose ascending stable argsort is the requested order of `x`."""
    is_float = x.dtype.kind in "fV"
    if is_float and total_order:
        key = total_order_key(x)
    elif is_float and (x.dtype.itemsize < 4 or x.dtype.kind == "V"):
        key = x.astype(np.float32)
    else:
        key = x
    if not descending:
        return key
    if key.dtype.kind == "f":
        return -key
    return ~key  # exact for every integer and bool: reverses the order, never overflows


def _fast_order(comp, arrays, axis):
    """argsort for a comparator that is one compare of one operand's two parameters."""
    found = patterns.sort_comparator(comp)
    if found is None or arrays[found.operand].dtype.kind == "c":
        return None
    key = sort_key(arrays[found.operand], found.total_order, found.descending)
    return np.argsort(key, axis=axis, kind="stable")


def _general_order(ctx, comp, arrays, axis):
    """argsort under any comparator: a bottom-up merge sort, vectorized over every element.

    Each pass merges runs of `width` sorted elements pairwise. An element's place in the
    merged run is its offset in its own run plus how many elements of the other run go
    before it, found by a binary search that runs for all elements at once (one vectorized
    comparator call per search step): O(log^2 n) calls in all. Ties keep the left run first,
    so the sort is stable. A comparator that is not a strict weak order can make two
    elements claim one place; then Python's sort takes over.
    """
    moved = [np.moveaxis(a, axis, -1) for a in arrays]
    n = moved[0].shape[-1]
    flat = [a.reshape(-1, n) for a in moved]
    rows = np.arange(flat[0].shape[0])[:, None]
    order = np.broadcast_to(np.arange(n), flat[0].shape).copy()
    width = 1
    while width < n:
        order = _merge_pass(ctx, comp, flat, rows, order, width)
        if order is None:
            return np.moveaxis(_python_order(ctx, comp, moved), -1, axis)
        width *= 2
    return np.moveaxis(order.reshape(moved[0].shape), -1, axis)


def _merge_pass(ctx, comp, flat, rows, order, width):
    """Merge neighbouring runs of `width` elements of every row of `order` (indices)."""
    n = order.shape[1]
    position = np.arange(n)
    run = position // width
    left = run % 2 == 0
    other_start = np.where(left, (run + 1) * width, (run - 1) * width)
    other_len = np.clip(np.minimum(other_start + width, n) - other_start, 0, None)
    low = np.zeros(order.shape, dtype=np.int64)
    high = np.broadcast_to(other_len, order.shape).copy()
    while True:
        active = low < high
        if not active.any():
            break
        mid = (low + high) // 2
        candidate = order[rows, np.minimum(other_start + mid, n - 1)]
        # A left element counts the right elements strictly before it; a right element
        # counts the left elements not after it (ties: left first).
        lhs = np.where(left, candidate, order)
        rhs = np.where(left, order, candidate)
        params = [v for a in flat for v in (a[rows, lhs], a[rows, rhs])]
        less = np.broadcast_to(np.asarray(ctx.call(0, comp, params, vectorized=True),
                                          dtype=bool), order.shape)
        before = np.where(left, less, ~less)
        low = np.where(active & before, mid + 1, low)
        high = np.where(active & ~before, mid, high)
    target = (run // 2) * 2 * width + (position - run * width) + low
    merged = np.full(order.shape, -1, dtype=np.int64)
    merged[rows, target] = order
    return None if (merged < 0).any() else merged


def _python_order(ctx, comp, moved):
    """Python's stable sort calling the comparator per pair: any comparator, slowly."""
    batch = moved[0].shape[:-1]
    order = np.zeros(moved[0].shape, dtype=np.int64)
    for index in np.ndindex(*batch):
        slices = [a[index] for a in moved]

        def compare(i, j):
            def less(p, q):
                params = [np.asarray(v) for s in slices for v in (s[p], s[q])]
                return bool(ctx.call(0, comp, params, vectorized=True))
            return -1 if less(i, j) else (1 if less(j, i) else 0)
        order[index] = sorted(range(len(slices[0])), key=functools.cmp_to_key(compare))
    return order


@lowering(Opcode.SORT, note="a static operand sorted with dynamic keys stays static (XLA "
                             "HandleSort)")
def sort(ctx, inst, args):
    """Sort N same-shaped operands along `dimensions` by the comparator `to_apply`."""
    (axis,) = attrs.ints(inst, "dimensions")
    shape = tuple(min(a.shape[d] for a in args) for d in range(args[0].ndim))
    arrays = [a[tuple(slice(0, s) for s in shape)] for a in args]  # static meets dynamic
    (comp,) = inst.called["to_apply"]
    if arrays[0].shape[axis] <= 1 or arrays[0].size == 0:
        order = np.zeros(shape, dtype=np.int64)
    else:
        order = _fast_order(comp, arrays, axis)
        if order is None:
            order = _general_order(ctx, comp, arrays, axis)
    out = tuple(_with_tail(np.take_along_axis(a, order, axis=axis), full, axis)
                for a, full in zip(arrays, args, strict=True))
    return out[0] if len(out) == 1 else out


def _with_tail(part: np.ndarray, full: np.ndarray, axis: int) -> np.ndarray:
    """A static operand sorted with shorter dynamic keys keeps its elements past the keys'
    size after the sorted ones, in their order (XLA sorts padding last, stably)."""
    if full.shape[axis] == part.shape[axis] or full.ndim != part.ndim:
        return part
    tail = np.take(full, np.arange(part.shape[axis], full.shape[axis]), axis=axis)
    cut = [slice(0, n) for n in part.shape]
    cut[axis] = slice(None)
    return np.concatenate([part, tail[tuple(cut)]], axis=axis)


@lowering(Opcode.TOPK, note="k above the actual size of a dynamic dimension is a "
                             "DynamicSizeError")
def topk(ctx, inst, args):
    """(values[..., k], s32 indices[..., k]) of the last dimension, ties to the lower index."""
    (x,) = args
    return _top(x, *topk_k(inst, x.shape[-1]))


def _top(x: np.ndarray, k: int, largest: bool):
    """The first k of a stable sort of the last dimension by the totalOrder key."""
    order = np.argsort(sort_key(x, True, largest), axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype(np.int32)


@custom_call("TopK")
def topk_custom_call(ctx, inst, args):
    """XLA CPU's TopK custom call (TopkRewriter): (values, s32 indices) of the k largest (or,
    for an LT comparator, smallest) of the last dimension, ties to the lower index
    (shapes.rules_sort.topk_call_k)."""
    (x,) = args
    return _top(x, *topk_call_k(inst, x.shape[-1]))
