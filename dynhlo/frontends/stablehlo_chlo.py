"""CHLO ops that survive in JAX's exports, as HLO: erf and top_k directly, the hyperbolic
functions by their textbook formulas (written with expm1/log1p where that keeps precision near
zero), the infinity tests by comparison. Others (lgamma, digamma, erf_inv, bessel, ...) are
refused by name.
"""

from __future__ import annotations

import numpy as np

from ..hlo.shape import Shape, TupleShape
from ..hlo.types import to_numpy_dtype
from .stablehlo_convert import OpContext, bounded, converts
from .stablehlo_emit import Val
from .stablehlo_ops import same_rank_bounds


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


@converts("chlo.erf")
def _erf(cx):
    return [cx.comp.emit(_shape(cx), "erf", cx.operands)]


@converts("chlo.tan")
def _tan(cx):
    return [cx.comp.emit(_shape(cx), "tan", cx.operands)]


@converts("chlo.sinh")
def _sinh(cx):
    m, (x,) = _Math(cx, _shape(cx)), cx.operands
    diff = m.op("subtract", m.op("exponential-minus-one", x),
                m.op("exponential-minus-one", m.op("negate", x)))
    return [m.op("multiply", diff, m.const(0.5))]


@converts("chlo.cosh")
def _cosh(cx):
    m, (x,) = _Math(cx, _shape(cx)), cx.operands
    total = m.op("add", m.op("exponential", x), m.op("exponential", m.op("negate", x)))
    return [m.op("multiply", total, m.const(0.5))]


@converts("chlo.asinh")
def _asinh(cx):
    m, (x,) = _Math(cx, _shape(cx)), cx.operands
    a = m.op("abs", x)
    root = m.op("sqrt", m.op("add", m.op("multiply", a, a), m.const(1)))
    # log1p(a + a^2 / (1 + sqrt(1 + a^2))): exact near 0
    inner = m.op("add", a, m.op("divide", m.op("multiply", a, a), m.op("add", root, m.const(1))))
    return [m.op("multiply", m.op("sign", x), m.op("log-plus-one", inner))]


@converts("chlo.acosh")
def _acosh(cx):
    m, (x,) = _Math(cx, _shape(cx)), cx.operands
    root = m.op("sqrt", m.op("subtract", m.op("multiply", x, x), m.const(1)))
    return [m.op("log", m.op("add", x, root))]


@converts("chlo.atanh")
def _atanh(cx):
    m, (x,) = _Math(cx, _shape(cx)), cx.operands
    ratio = m.op("divide", m.op("multiply", x, m.const(2)), m.op("subtract", m.const(1), x))
    return [m.op("multiply", m.op("log-plus-one", ratio), m.const(0.5))]


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
