"""CHLO ops that survive in JAX's exports, as HLO: erf, tan, the hyperbolic functions and
top_k as HLO's opcodes of those names, the infinity tests by comparison. Others (lgamma, digamma, erf_inv, bessel, ...) are
refused by name.
"""

from __future__ import annotations

import numpy as np

from ...hlo.shape import Shape, TupleShape
from ...hlo.types import to_numpy_dtype
from .convert import OpContext, bounded, converts
from .emit import Val
from .ops import same_rank_bounds


def _shape(cx: OpContext) -> Shape:
    return bounded(cx.result_shape(), same_rank_bounds(cx.result_shape(), cx.operands))


class _Math:
    """Elementwise HLO on one shape: m.exp(x), m.add(a, b), m.const(0.5), ..."""

    def __init__(self, cx: OpContext, shape: Shape):
        self.cx, self.shape = cx, shape

    def op(self, opcode: str, *args: Val, attrs: str = "") -> Val:
        shape = self.shape if opcode != "compare" else Shape("pred", self.shape.dims,
                                                             self.shape.dynamic)
        return self.cx.comp.emit(shape, opcode, list(args), attrs)

    def const(self, value) -> Val:
        scalar = self.cx.comp.constant(
            np.array(value, to_numpy_dtype(self.shape.element_type)),
            Shape(self.shape.element_type))
        return self.cx.comp.emit(self.shape, "broadcast", [scalar], "dimensions={}")


@converts("chlo.erf", "chlo.tan", "chlo.sinh", "chlo.cosh", "chlo.asinh", "chlo.acosh",
          "chlo.atanh")
def _unary(cx):
    # HLO's own opcodes, whose lowerings follow XLA's over the whole range (sinh(89) is
    # finite in f32, asinh(1e20) is 46.7, asinh(inf) is inf): a textbook formula overflows
    # in x*x or exp(x) there
    return [cx.comp.emit(_shape(cx), cx.name.removeprefix("chlo."), cx.operands)]


@converts("chlo.is_inf", "chlo.is_pos_inf", "chlo.is_neg_inf")
def _is_inf(cx):
    (x,) = cx.operands
    m = _Math(cx, bounded(x.shape, [None] * x.shape.rank))
    if cx.name == "chlo.is_inf":
        x = m.op("abs", x)
    value = -np.inf if cx.name == "chlo.is_neg_inf" else np.inf
    return [m.op("compare", x, m.const(value), attrs="direction=EQ")]


@converts("chlo.top_k")
def _top_k(cx):
    (x,) = cx.operands
    k = int(cx.attr("k").value)
    values = bounded(cx.result_shape(0), list(x.shape.dims[:-1]) + [None])
    indices = bounded(cx.result_shape(1), list(x.shape.dims[:-1]) + [None])
    out = cx.comp.emit(TupleShape((values, indices)), "topk", [x], f"k={k}, largest=true")
    return cx.converter.unpack(cx.comp, out, 2)
