"""A dot of any batch and contracting dimensions as ops_reduce.dot computes it, into a buffer.

The reference's dot (f32 and f64 operands of the result's type) transposes each operand to
(batch, rows, k) / (batch, k, columns), reshapes it, copies it (`astype`), calls np.matmul of
the two 3-d arrays and reshapes the product to the result's shape. `BatchDot` makes the same
NumPy calls with the permutations worked out once; the copy is skipped where the reshaped
operand is C-ordered already (the copy would be C-ordered too: the same elements in the
same layout). With `out` (a C-ordered array of the result's shape in a reused buffer) the
product is written there through a C-ordered 3-d view of the same memory: the array NumPy
would have allocated, at another address. The runner's compiled path (runner.py) runs it
as a step whose result lives in a buffer; special.py's `_dot` as a specialized lowering.
"""

from __future__ import annotations

import math

import numpy as np

from ....hlo import attrs
from ....hlo.types import to_numpy_dtype

FLOATS = frozenset({"f32", "f64"})


class BatchDot:
    """The dot `inst` as the reference's NumPy calls. `lhs`, `rhs`: its operands."""

    __slots__ = ("lhs", "rhs", "pa", "pb", "lb", "lc", "lf", "rf", "pairs", "dtype")

    def __init__(self, inst):
        self.lhs, self.rhs = inst.operands
        self.dtype = to_numpy_dtype(inst.shape.element_type)
        lb, rb, lc, rc = attrs.dot_dims(inst)
        lhs_rank, rhs_rank = len(self.lhs.shape.dims), len(self.rhs.shape.dims)
        self.lb, self.lc = tuple(lb), tuple(lc)
        # (lhs dimension, rhs dimension) of each batch and contracting pair: equal sizes
        self.pairs = tuple(zip((*lb, *lc), (*rb, *rc), strict=True))
        self.lf = tuple(d for d in range(lhs_rank) if d not in lb and d not in lc)
        self.rf = tuple(d for d in range(rhs_rank) if d not in rb and d not in rc)
        pa, pb = (*lb, *self.lf, *lc), (*rb, *rc, *self.rf)
        # (a transpose that keeps the order is the same view: left out)
        self.pa = None if pa == tuple(range(lhs_rank)) else pa
        self.pb = None if pb == tuple(range(rhs_rank)) else pb

    @staticmethod
    def of(inst):
        """The BatchDot of `inst` when its operands and result are all f32 or all f64 (the
        reference widens nothing there), else None."""
        element_type = inst.shape.element_type
        if element_type not in FLOATS or inst.shape.is_tuple or any(
                o.shape.is_tuple or o.shape.element_type != element_type
                for o in inst.operands):
            return None
        return BatchDot(inst)

    def shapes(self, lhs_shape: tuple, rhs_shape: tuple):
        """(the lhs's 3-d shape, the rhs's, the result's shape) at these operand sizes, or
        None where a contracted or batch size differs (the lowering names it)."""
        if any(lhs_shape[a] != rhs_shape[b] for a, b in self.pairs):
            return None
        batch = [lhs_shape[d] for d in self.lb]
        k = math.prod([lhs_shape[d] for d in self.lc])
        m = [lhs_shape[d] for d in self.lf]
        n = [rhs_shape[d] for d in self.rf]
        sa = (math.prod(batch), math.prod(m), k)
        return sa, (sa[0], k, math.prod(n)), (*batch, *m, *n)

    def fn(self, lhs_shape: tuple, rhs_shape: tuple, out=None):
        """`fn(x, y)`: the product of operands of these shapes (another shape: a wrong
        result, the caller checks), written into `out` when given (C-ordered, the result's
        shape) and returned; None where shapes() is."""
        made = self.shapes(lhs_shape, rhs_shape)
        if made is None:
            return None
        sa, sb, shape = made
        pa, pb, dtype = self.pa, self.pb, self.dtype
        out3 = None if out is None else np.ndarray((sa[0], sa[1], sb[2]), dtype, out)
        matmul = np.matmul

        def fn(x, y):
            a = (x if pa is None else x.transpose(pa)).reshape(sa)
            b = (y if pb is None else y.transpose(pb)).reshape(sb)
            if not a.flags.c_contiguous:
                a = a.astype(dtype)
            if not b.flags.c_contiguous:
                b = b.astype(dtype)
            if out3 is None:
                return matmul(a, b).reshape(shape)
            matmul(a, b, out=out3)
            return out
        return fn
